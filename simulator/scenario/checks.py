"""Typed reads of scenario values that collect every problem instead of stopping at the first.

:class:`Checker` is the tool of :mod:`simulator.scenario.reading`: each ``read_*`` method takes
one key
of a TOML table, checks its type and range, records a :class:`~simulator.errors.Problem` when
it is wrong or missing, and returns the typed value (or the default, so that checking can go on
and find the next problem). The ``read_<section>`` functions read the simple sections of a
scenario file with it (``[[injuries]]``, ``[first_aid]``, ``[watch]``, ``[healing]``,
``[[activities]]``, ``[rules]``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from simulator.errors import MISSING, N_, DurationError, Phrase, Problem, display, phrase
from simulator.rules.durations import parse_duration, spelled_unit
from simulator.rules.levels import LEVEL_NAMES, Level
from simulator.scenario.model import Activity, FirstAid, Healing, Injury, Watch

LONGEST = 36525 * 86400.0
"""The longest duration a scenario may give: 100 years (36525d)."""
SHORTEST_PERIOD = 1.0
"""The shortest period, interval or horizon: one second (the game's shortest is 15 s)."""
INT_LIMIT = 1000
"""Integers of a scenario lie within ±INT_LIMIT: the game's values are a few units."""
DURATION = N_(
    'a duration of zero or more, up to 36525d (100 years), with a unit, e.g. "0s", "15min", '
    '"1.5h", "2d", "1w"'
)
POSITIVE_DURATION = N_(
    'a duration of one second or more, up to 36525d (100 years), with a unit, e.g. "15s", '
    '"15min", "1.5h", "2d"'
)
INJURY_KEYS = ("at", "level", "count")
FIRST_AID_KEYS = ("level", "start", "interval", "modifier", "max_attempts", "self")
WATCH_KEYS = ("neglect_probability", "neglect_at")
HEALING_KEYS = ("level", "modifier")
ACTIVITY_KEYS = ("at", "modifier")
SHOWN_LENGTH = 80
"""Values whose ``repr`` is longer than this are shortened in messages."""


ONE_LINE_BREAKERS = frozenset("\n\u2028\u2029")
"""What a name may not hold: line breaks (a direction mark is text of a right-to-left
language: kept, and shown escaped on a terminal)."""


class Shown:
    """A value shortened for a message: ``repr`` gives the cut text."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def shown(value: object) -> object:
    """The value to put in a :class:`Problem`: itself, or a shortened stand-in when long."""
    text = display(value)
    if len(text) <= SHOWN_LENGTH:
        return value
    return Shown(text[: SHOWN_LENGTH - 1] + "…")


def join(prefix: str, name: str) -> str:
    """The dotted key of ``name`` inside ``prefix`` (``""`` for the top level)."""
    return f"{prefix}.{name}" if prefix else name


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped name was meant to be, or None when none is close.

    The case does not matter to the match (``HYDRA`` finds ``hydra``), and a name that
    differs only in case is always found.
    """
    options = [str(c) for c in choices]
    by_case = {c.casefold(): c for c in reversed(options)}
    folded = str(word).casefold()
    if folded in by_case:
        return by_case[folded]
    close = difflib.get_close_matches(folded, list(by_case), n=1, cutoff=0.6)
    return by_case[close[0]] if close else None


def hint(word: str, choices: Iterable[str]) -> Phrase | str:
    """A ``" (did you mean 'x'?)"`` hint as a phrase (``""`` when no name is close)."""
    found = closest(word, choices)
    return "" if found is None else phrase(" (did you mean {name}?)", name=repr(found))


def suggestion(word: str, choices: Iterable[str]) -> str:
    """A ``" (did you mean 'x'?)"`` hint for a mistyped name, in English, or ``""``."""
    return str(hint(word, choices))


def is_int(value: object) -> bool:
    """Whether ``value`` is a TOML integer (``bool`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def decimal_point(
    value: object, parses: Sequence[Callable[[str], object]] = (float, parse_duration)
) -> str | None:
    """``'0.5'`` for ``'0,5'``, ``'1.5h'`` for ``'1,5h'``: what was meant with a decimal comma.

    None when ``value`` holds no single comma, or means nothing that one of ``parses`` (a
    number, a duration) reads with a point.
    """
    if not isinstance(value, str) or value.count(",") != 1:
        return None
    fixed = value.strip().replace(",", ".")
    return fixed if any(_reads(parse, fixed) for parse in parses) else None


def toml_number(value: object, *, integer: bool = False) -> str | None:
    """``'0.05'`` for ``'.05'``, ``'2'`` for ``'02'``: a number TOML cannot read, as it writes it.

    A ``--set`` value that TOML does not read is taken as text; a number typed as a hand
    writes it (no digit before the point, a leading zero, a point with no digit after) is
    then told with the spelling that works. None for anything else.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if len(text) > 40:  # no number of a scenario (and int() refuses 4,300 digits)
        return None
    if integer:
        return str(int(text)) if re.fullmatch(r"[+-]?\d+", text) else None
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text) is None:
        return None
    from decimal import Decimal

    written = format(Decimal(text), "f")  # never in exponent form: .00001 is 0.00001
    return written if "." in written else written + ".0"


def decimal_commas(
    pieces: list[str], *, fractions: bool = False, probability: bool = False
) -> str | None:
    """``V1,V2...`` (``--grid``, ``--notch``) as meant, where a decimal comma split values.

    ``fractions``: the key takes numbers with fractions; ``probability``: a probability.
    Told only where two pieces cannot be two values: ``1,5h`` (a duration has a unit), and
    for a key of fractions ``0,05`` (no number starts with 0) or, for a probability, ``0,5``
    (5 is none); ``0,5`` for a level is the two levels 0 and 5. Once one is found, pieces
    that pair up as decimals are all mended (``0,1,0,2`` is ``0.1,0.2``).
    """
    found = _first_decimal_comma(pieces, fractions, probability)
    if found is None:
        return None
    pairs = [pieces[i : i + 2] for i in range(0, len(pieces), 2)]
    if len(pieces) % 2 == 0 and all(_decimal_pair(a, b) for a, b in pairs):
        return ",".join(f"{a}.{b}" for a, b in pairs)  # every value written with a comma
    rest = pieces[found + 2 :]
    after = decimal_commas(rest, fractions=fractions, probability=probability) if rest else None
    tail = [after or ",".join(rest)] if rest else []
    return ",".join([*pieces[:found], f"{pieces[found]}.{pieces[found + 1]}", *tail])


def percent_share(value: object) -> str | None:
    """``'0.05'`` for ``'5%'``: a share from 0 to 1 written as a percent, as a probability is.

    A decimal comma is read as a point (``'2,5%'`` is ``'0.025'``). None when ``value`` is
    no percent from 0% to 100%.
    """
    if not isinstance(value, str) or len(value) > 40:
        return None
    text = value.strip().replace(",", ".", 1)
    found = re.fullmatch(r"\+?(\d+\.?\d*|\.\d+)\s*%", text)
    if found is None:
        return None
    from decimal import Decimal

    share = Decimal(found.group(1)) / 100
    if share > 1:
        return None
    written = format(share.normalize(), "f")
    return written if "." in written else written + ".0"


def _decimal_pair(a: str, b: str) -> bool:
    """Whether ``a,b`` reads as one number, percent or duration with a decimal comma."""
    if not re.fullmatch(r"[+-]?\d+", a) or not re.fullmatch(r"\d+\s*([^\d\s].*)?", b):
        return False
    if re.fullmatch(r"\d+\s*%", b):  # 2,5%: a percent (a probability's hint follows)
        return percent_share(f"{a}.{b}") is not None
    try:
        parse_duration(f"{a}.{b}") if re.search(r"[^\d\s]", b) else float(f"{a}.{b}")
    except (DurationError, ValueError):
        return False
    return True


def _first_decimal_comma(pieces: list[str], fractions: bool, probability: bool) -> int | None:
    """Where the first pair that cannot be two values starts, or None."""
    for i in range(len(pieces) - 1):
        a, b = pieces[i], pieces[i + 1]
        if not _decimal_pair(a, b):
            continue
        digits, unit = re.fullmatch(r"(\d+)\s*([^\d\s].*)?", b).groups()  # type: ignore[union-attr]
        if unit is not None and unit.strip() == "%" and not probability:
            continue  # a percent is a probability's (2,5% of a level is two mistakes)
        leading = fractions and len(digits) > 1 and digits.startswith("0")
        beyond = not unit and probability and int(digits) > 1
        if leading or unit or beyond:
            return i
    return None


def _reads(parse: Callable[[str], object], text: str) -> bool:
    """Whether ``parse`` reads ``text`` (a number, a duration) without an error."""
    try:
        parse(text)
    except (ValueError, DurationError):
        return False
    return True


def is_number(value: object) -> bool:
    """Whether ``value`` is a TOML integer or float (``bool`` is not one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


class Checker:
    """Collects the problems of one scenario while reading its values.

    Attributes:
        source: The file the values came from, named in every problem.
        top_keys: The keys of the file's top level: one found inside a table was written
            below a ``[table]`` header (TOML puts it there), and the problem says so.
        problems: Every problem found so far, in the order found.
    """

    def __init__(self, source: str, top_keys: Sequence[str] = ()):
        self.source = source
        self.top_keys = tuple(top_keys)
        self.problems: list[Problem] = []

    def problem(self, key: str, value: object, expected: str, /, **args: object) -> None:
        """Record one problem: ``expected`` is a template, ``args`` its values."""
        said = Phrase(expected, tuple(args.items()))
        self.problems.append(Problem.of(self.source, key, shown(value), said))

    def unknown_key(self, key: str, value: object, expected: str, /, **args: object) -> None:
        """Record a key the scenario does not know: a problem whatever its value (``keyed``)."""
        self.problem(key, value, expected, **args)
        self.problems[-1] = replace(self.problems[-1], keyed=True)

    def unknown_keys(self, table: Mapping[str, Any], known: Sequence[str], prefix: str) -> None:
        """Record every key of ``table`` that is not in ``known``, with a close match if any."""
        where: object = f"[{prefix}]" if prefix else phrase("the top level")
        for name, value in table.items():
            if name not in known and "." in name:
                self.unknown_key(  # "rules.table.grave.pain" = 3: quoted, one name with dots
                    join(prefix, name),
                    value,
                    "a known key; {what} takes {keys} (a quoted name is one key, dots and all: "
                    "{bare} unquoted names a key inside tables)",
                    what=where,
                    keys=", ".join(known),
                    bare=name,
                )
            elif name not in known and prefix and name in self.top_keys:
                self.problem(  # horizon = "1w" written under [patient]: TOML puts it there
                    join(prefix, name),
                    value,
                    "a known key; {what} takes {keys} ({name} is a key of the top level: "
                    "write it above the file's first [table], since TOML puts a key under the "
                    "[table] above it)",
                    what=where,
                    keys=", ".join(known),
                    name=name,
                )
            elif name not in known:
                self.unknown_key(
                    join(prefix, name),
                    value,
                    "a known key{what_hint}; {what} takes {keys}",
                    what_hint=hint(name, known),
                    what=where,
                    keys=", ".join(known),
                )

    def read_table(
        self, data: Mapping[str, Any], name: str, prefix: str = ""
    ) -> dict[str, Any] | None:
        """The sub-table ``name`` of ``data``, or ``None`` when absent or not a table."""
        if name not in data:
            return None
        value = data[name]
        if not isinstance(value, dict):
            self.problem(join(prefix, name), value, "a table [{key}]", key=join(prefix, name))
            return None
        return value

    def read_table_array(
        self, data: Mapping[str, Any], name: str
    ) -> list[tuple[str, dict[str, Any]]]:
        """The tables of an array of tables ``[[name]]``, each with its key ``name[i]``."""
        value = data.get(name, [])
        if not isinstance(value, list):
            self.problem(name, value, "an array of tables, written [[{key}]]", key=name)
            return []
        result = []
        for index, item in enumerate(value):
            key = f"{name}[{index}]"
            if isinstance(item, dict):
                result.append((key, item))
            else:
                self.problem(key, item, "a table of [[{key}]]", key=name)
        return result

    def _missing(self, key: str, required: bool, expected: str, /, **args: object) -> None:
        if required:
            self.problem(key, MISSING, expected, **args)

    def read_int(
        self,
        table: Mapping[str, Any],
        name: str,
        prefix: str,
        default: int | None = None,
        *,
        minimum: int | None = None,
        required: bool = False,
    ) -> int | None:
        """An integer (``bool`` refused) from ``minimum`` (or -INT_LIMIT) to INT_LIMIT."""
        key = join(prefix, name)
        low = -INT_LIMIT if minimum is None else minimum
        expected = N_("an integer from {low} to {high}")
        if name not in table:
            self._missing(key, required, expected, low=low, high=INT_LIMIT)
            return default
        value = table[name]
        if not is_int(value) or not low <= value <= INT_LIMIT:
            fixed = toml_number(value, integer=True)
            if fixed is not None and low <= int(fixed) <= INT_LIMIT:  # '02': no leading zero
                expected = N_("an integer from {low} to {high}, written {fixed}")
                self.problem(key, value, expected, low=low, high=INT_LIMIT, fixed=fixed)
                return default
            self.problem(key, value, expected, low=low, high=INT_LIMIT)
            return default
        return int(value)

    def read_bool(self, table: Mapping[str, Any], name: str, prefix: str, default: bool) -> bool:
        """A boolean: TOML ``true`` or ``false``, not a string or a number."""
        value = table.get(name, default)
        if not isinstance(value, bool):
            self.problem(join(prefix, name), value, "true or false (without quotes)")
            return default
        return value

    def read_str(
        self,
        table: Mapping[str, Any],
        name: str,
        prefix: str,
        default: str | None = None,
        *,
        required: bool = False,
        non_empty: bool = False,
        one_line: bool = False,
    ) -> str | None:
        """A string (non-empty when asked; on one line when asked: a name, in every title)."""
        key = join(prefix, name)
        expected = N_("a non-empty string, in quotes") if non_empty else N_("a string, in quotes")
        if name not in table:
            self._missing(key, required, expected)
            return default
        value = table[name]
        if not isinstance(value, str) or (non_empty and not value.strip()):
            self.problem(key, value, expected)
            return default
        if any("\ud800" <= ch <= "\udfff" for ch in value):  # bytes of no UTF-8 (argv)
            self.problem(key, shown(value), "{what}, in UTF-8", what=phrase(expected))
            return default
        if any((ord(ch) < 32 and ch not in "\n\t") or 127 <= ord(ch) < 160 for ch in value):
            # a NUL or an escape would go raw into every CSV, page and figure title
            self.problem(key, value, "{what}, without control characters", what=phrase(expected))
            return default
        if one_line and any(ch in ONE_LINE_BREAKERS for ch in value):
            # a new line splits every header and title
            self.problem(key, value, "{what}, on one line", what=phrase(expected))
            return default
        return value

    def read_choice(
        self,
        table: Mapping[str, Any],
        name: str,
        prefix: str,
        choices: Sequence[str],
        default: str | None = None,
        *,
        required: bool = False,
        what: str = "",
    ) -> str | None:
        """One of ``choices``, exactly as written there; a close match is suggested."""
        key = join(prefix, name)
        listed = ", ".join(choices)
        expected = phrase("one of the {what} {choices}", what=phrase(what), choices=listed)
        if not what:
            expected = phrase("one of {choices}", choices=listed)
        if name not in table:
            if required:
                self.problems.append(Problem.of(self.source, key, MISSING, expected))
            return default
        value = table[name]
        if not isinstance(value, str) or value not in choices:
            found = closest(value, choices) if isinstance(value, str) else None
            if found is not None:
                expected = phrase("{what} (did you mean {name}?)", what=expected, name=repr(found))
            self.problems.append(Problem.of(self.source, key, shown(value), expected))
            return default
        return value

    def read_number(
        self, table: Mapping[str, Any], name: str, prefix: str, default: float
    ) -> int | float:
        """A number from 0 to INT_LIMIT, fractions allowed; a whole float comes back an int."""
        if name not in table:
            return default
        value = table[name]
        if not is_number(value) or not 0 <= value <= INT_LIMIT:  # NaN fails the comparison
            fixed = decimal_point(value, (float,))
            if fixed is not None:  # '0,5' as a French hand writes it
                self.problem(
                    join(prefix, name),
                    value,
                    "a number from 0 to {high}, written with a decimal point: {fixed}",
                    high=INT_LIMIT,
                    fixed=fixed,
                )
                return default
            fixed = toml_number(value)
            if fixed is not None and 0 <= float(fixed) <= INT_LIMIT:  # '.5': 0.5 in TOML
                self.problem(
                    join(prefix, name),
                    value,
                    "a number from 0 to {high}, written {fixed}",
                    high=INT_LIMIT,
                    fixed=fixed,
                )
                return default
            self.problem(
                join(prefix, name),
                value,
                "a number from 0 to {high}, e.g. 1 or 0.5",
                high=INT_LIMIT,
            )
            return default
        return int(value) if float(value).is_integer() else float(value)

    def read_probability(
        self, table: Mapping[str, Any], name: str, prefix: str, default: float
    ) -> float:
        """A probability: a number from 0 to 1, ends included."""
        if name not in table:
            return default
        value = table[name]
        if not is_number(value) or not 0.0 <= value <= 1.0:
            fixed = decimal_point(value, (float,))
            if fixed is not None:  # '0,5' as a French hand writes it
                self.problem(
                    join(prefix, name),
                    value,
                    "a probability, a number from 0 to 1, written with a decimal point: {fixed}",
                    fixed=fixed,
                )
            elif 0 <= float(toml_number(value) or "nan") <= 1:  # '.05': TOML writes 0.05
                self.problem(
                    join(prefix, name),
                    value,
                    "a probability, a number from 0 to 1, written {fixed}",
                    fixed=toml_number(value),
                )
            elif (share := percent_share(value)) is not None:  # '5%': a probability is 0.05
                self.problem(
                    join(prefix, name),
                    value,
                    "a probability, a number from 0 to 1: {percent} is written {fixed}",
                    percent=value,
                    fixed=share,
                )
            else:
                self.problem(join(prefix, name), value, "a probability, a number from 0 to 1")
            return default
        return float(value) + 0.0  # -0.0 is 0 (never a "-0" in a trace or a saved file)

    def duration(self, key: str, value: object, *, allow_zero: bool = True) -> float | None:
        """Parse one duration value, recording a problem and returning ``None`` when bad."""
        try:
            seconds = parse_duration(value)
        except DurationError:
            fixed = decimal_point(value, (parse_duration,))
            spelled = spelled_unit(value)
            if spelled is not None:  # suggested only when this key would take it
                seconds = parse_duration(spelled)
                short = not allow_zero and seconds < SHORTEST_PERIOD
                spelled = None if short or seconds > LONGEST else spelled
            if fixed is not None:  # '1,5h'
                self.problem(
                    key, value, "a duration written with a decimal point: {fixed}", fixed=fixed
                )
            elif spelled is not None:  # '30m', '2 days'
                self.problem(
                    key,
                    value,
                    "{what} (did you mean {name}?)",
                    what=phrase(DURATION if allow_zero else POSITIVE_DURATION),
                    name=repr(spelled),
                )
            else:
                self.problem(key, value, DURATION if allow_zero else POSITIVE_DURATION)
            return None
        if (not allow_zero and seconds < SHORTEST_PERIOD) or seconds > LONGEST:
            self.problem(key, value, POSITIVE_DURATION if not allow_zero else DURATION)
            return None
        return seconds

    def read_duration(
        self,
        table: Mapping[str, Any],
        name: str,
        prefix: str,
        default: float | None = None,
        *,
        allow_zero: bool = True,
        required: bool = False,
    ) -> float | None:
        """A duration string with a unit, in seconds; zero refused unless ``allow_zero``."""
        key = join(prefix, name)
        if name not in table:
            self._missing(key, required, DURATION if allow_zero else POSITIVE_DURATION)
            return default
        seconds = self.duration(key, table[name], allow_zero=allow_zero)
        return default if seconds is None else seconds

    def read_durations(self, table: Mapping[str, Any], name: str, prefix: str) -> tuple[float, ...]:
        """An array of durations (zero allowed), in seconds, in the order written."""
        key = join(prefix, name)
        value = table.get(name, [])
        if not isinstance(value, list):
            self.problem(
                key,
                value,
                'an array of durations, e.g. ["12h", "2d"]; {what}',
                what=phrase(DURATION),
            )
            return ()
        result = []
        for index, item in enumerate(value):
            seconds = self.duration(f"{key}[{index}]", item)
            if seconds is not None:
                result.append(seconds)
        return tuple(result)


# --- the simple sections -------------------------------------------------------------------


def in_time(entries: Sequence[Injury] | Sequence[Activity]) -> tuple[int, ...]:
    """The order a scenario holds a file's timed entries in: by time, file order among equals.

    The one ordering of ``[[injuries]]`` and ``[[activities]]`` (CONTRACT.md): the reading
    sorts by it, and the workbench numbers its rows by it (:func:`places_in_time`), so that
    a change here moves both.

    Args:
        entries: The entries as the file lists them.

    Returns:
        The indices of ``entries``, in the scenario's order (a stable sort by ``at``).
    """
    return tuple(sorted(range(len(entries)), key=lambda index: entries[index].at))


def places_in_time(data: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Where each entry of a file's ``[[injuries]]`` and ``[[activities]]`` stands in time.

    Each entry is read as the reading reads it (its ``at`` and defaults included), and
    placed by :func:`in_time`, the order the reading sorts it in.

    Args:
        data: The file's TOML mapping, as written.

    Returns:
        For each array, the position in the scenario's tuple of the file's entry at each
        index; an array left out when one of its entries cannot be read (its problems say
        why when the file is read; an unknown key is no such problem).
    """
    found = {}
    for name, listed in (("injuries", _listed_injuries), ("activities", _listed_activities)):
        check = Checker(name)
        entries = listed(data, check)
        written = data.get(name, [])
        unread = any(not problem.keyed for problem in check.problems)  # an unknown key is read
        if unread or not isinstance(written, list) or len(entries) != len(written):
            continue
        places = [0] * len(entries)
        for place, index in enumerate(in_time(entries)):
            places[index] = place
        found[name] = tuple(places)
    return found


def _listed_injuries(data: Mapping[str, Any], check: Checker) -> list[Injury]:
    """``[[injuries]]`` in the file's order, those read without a problem."""
    result = []
    for prefix, item in check.read_table_array(data, "injuries"):
        check.unknown_keys(item, INJURY_KEYS, prefix)
        at = check.read_duration(item, "at", prefix, required=True)
        level = check.read_choice(item, "level", prefix, LEVEL_NAMES, required=True)
        count = check.read_int(item, "count", prefix, 1, minimum=1)
        if at is not None and level is not None and count is not None:
            result.append(Injury(at=at, level=Level.parse(level), count=count))
    return result


def read_injuries(data: Mapping[str, Any], check: Checker) -> tuple[Injury, ...]:
    """``[[injuries]]``, sorted by time, file order kept among equals (:func:`in_time`)."""
    listed = _listed_injuries(data, check)
    return tuple(listed[index] for index in in_time(listed))


def read_first_aid(data: Mapping[str, Any], check: Checker) -> FirstAid | None:
    """``[first_aid]``; absent means nobody gives first aid (A3)."""
    table = check.read_table(data, "first_aid")
    if table is None:
        return None
    prefix = "first_aid"
    check.unknown_keys(table, FIRST_AID_KEYS, prefix)
    level = check.read_int(table, "level", prefix, 0)
    start = check.read_duration(table, "start", prefix, required=True)
    interval = check.read_duration(table, "interval", prefix, allow_zero=False, required=True)
    modifier = check.read_int(table, "modifier", prefix, 0)
    max_attempts = check.read_int(table, "max_attempts", prefix, minimum=1)
    self_treat = check.read_bool(table, "self", prefix, False)
    if start is None or interval is None:
        return None
    return FirstAid(
        start=start,
        interval=interval,
        level=level or 0,
        modifier=modifier or 0,
        max_attempts=max_attempts,
        self_treat=self_treat,
    )


def read_watch(data: Mapping[str, Any], check: Checker) -> Watch:
    """``[watch]``: the neglected watches of therapeutic rest (R2, R3)."""
    table = check.read_table(data, "watch")
    if table is None:
        return Watch()
    check.unknown_keys(table, WATCH_KEYS, "watch")
    return Watch(
        neglect_probability=check.read_probability(table, "neglect_probability", "watch", 0.0),
        neglect_at=check.read_durations(table, "neglect_at", "watch"),
    )


def read_healing(data: Mapping[str, Any], check: Checker, basic: bool) -> Healing | None:
    """``[healing]``; absent means no healer, except in the basic ruleset (B4)."""
    table = check.read_table(data, "healing")
    if table is None:
        return Healing(level=0, modifier=0) if basic else None
    check.unknown_keys(table, HEALING_KEYS, "healing")
    level = check.read_int(table, "level", "healing", 0)
    modifier = check.read_int(table, "modifier", "healing", 0)
    return Healing(level=level or 0, modifier=modifier or 0)


def _listed_activities(data: Mapping[str, Any], check: Checker) -> list[Activity]:
    """``[[activities]]`` in the file's order, those read without a problem."""
    result = []
    for prefix, item in check.read_table_array(data, "activities"):
        check.unknown_keys(item, ACTIVITY_KEYS, prefix)
        at = check.read_duration(item, "at", prefix, 0.0)
        modifier = check.read_int(item, "modifier", prefix, 0)
        if at is not None and modifier is not None:
            result.append(Activity(at=at, modifier=modifier))
    return result


def read_activities(data: Mapping[str, Any], check: Checker) -> tuple[Activity, ...]:
    """``[[activities]]`` (X1), sorted by time, file order kept among equals (:func:`in_time`)."""
    listed = _listed_activities(data, check)
    return tuple(listed[index] for index in in_time(listed))
