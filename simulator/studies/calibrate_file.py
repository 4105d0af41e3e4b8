"""Calibration files (CONTRACT.md, "Calibration files"): free keys and targets, checked.

A calibration file names free keys, each with its range (any key ``--set`` accepts, applied
to every target's scenario), and targets, each a scenario file, a statistic ``balance``
accepts, a value, a tolerance and optional ``set`` overrides of its own. Everything is
checked before anything runs, with the machinery of ``--set`` and ``balance``: the range's
kind (:func:`~simulator.scenario.keys.parse_vary`), the scenario's own checks at both ends
of every range (:func:`~simulator.scenario.reading.scenario_with_overrides`) and the
statistic's parser (:class:`~simulator.studies.statistic.Statistic`). Each mistake is one
``error:`` line naming the calibration file, the key and what was expected.

A target's own ``set`` overrides come first, the free keys' values last: a free key always
holds the value the search gives it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from simulator.errors import (
    N_,
    Phrase,
    Problem,
    ScenarioError,
    UserError,
    display,
    path_problem,
    phrase,
    raise_all,
)
from simulator.report.i18n import colon
from simulator.scenario.checks import decimal_point, percent_share
from simulator.scenario.keys import Grid, Key, Kind, current_value, dotted, key_of, parse_vary
from simulator.studies.statistic import Statistic

T = TypeVar("T")

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.scenario.overrides import Override
    from simulator.scenario.reading import ScenarioSource

DEFAULT_TOLERANCE = 0.005
"""A target's tolerance when the file gives none (CONTRACT.md)."""

SMALLEST_TOLERANCE = 1e-9
"""The smallest tolerance of a target: one in a billion, finer than either method tells a
share apart. A tolerance of 1e-300 made the search, which divides by it, overflow."""

_TOP = ("name", "name_fr", "free", "target")
_FREE = ("key", "low", "high")
_TARGET = ("scenario", "stat", "value", "tolerance", "set")


@dataclass(frozen=True)
class Free:
    """One free key and its range.

    Attributes:
        key: The key and its kind.
        low: The range's low end (int, seconds or probability).
        high: Its high end.
        grid: The values the search visits (:class:`~simulator.scenario.keys.Grid`).
    """

    key: Key
    low: float
    high: float
    grid: Grid = field(repr=False, compare=False)

    def value(self, index: int) -> float:
        """The value at a place of the grid."""
        return self.grid[index]

    def setting(self, index: int) -> Override:
        """The override that sets the value at a place of the grid."""
        return self.key.setting(self.grid[index])


@dataclass
class Target:
    """One target: a scenario, a statistic, its value and tolerance, its own overrides.

    Attributes:
        number: Its place in the file, from 0.
        scenario: The scenario file, resolved against the calibration file's folder.
        written: The scenario as the file wrote it.
        stat: The statistic.
        value: The value wanted.
        tolerance: Met when ``|reached - value| <= tolerance``.
        overrides: The target's own ``set`` overrides (``KEY=VALUE``).
        source: The calibration file, for messages.
    """

    number: int
    scenario: Path
    written: str
    stat: Statistic
    value: float
    tolerance: float
    overrides: tuple[str, ...]
    source: str
    _data: dict[str, Any] = field(default_factory=dict, repr=False)
    _text: str | None = field(default=None, repr=False)
    _newline: str = field(default="\n", repr=False)

    @property
    def mapping(self) -> dict[str, Any]:
        """The scenario file's keys as written (before any override)."""
        return self._data

    @property
    def text(self) -> str | None:
        """The scenario file's text, as read into :attr:`mapping` (None if not at hand)."""
        return self._text

    @property
    def newline(self) -> str:
        r"""How the scenario file ended its lines (``\r\n`` or ``\n``): its copy's too."""
        return self._newline

    @property
    def label(self) -> str:
        """How tables and figures name it: ``#1 lone_traveller: p_dead_by_1d``."""
        return f"#{self.number + 1} {self.scenario.stem}: {self.stat.text}"

    def build(self, free: Sequence[Override]) -> Scenario:
        """The target's scenario with its own overrides, then the free keys' values.

        Raises:
            ScenarioError: With every problem, each naming the calibration file's entry.
        """
        from simulator.scenario.reading import scenario_with_overrides

        return scenario_with_overrides(
            self._data,
            self.overrides,
            str(self.scenario),
            flag=f"{self.source}: target[{self.number}].set",
            more=free,
            more_flag=f"{self.source}: free",
        )


def free_columns(free: Sequence[Free], point: Sequence[int]) -> dict[str, Any]:
    """The columns of ``evaluations.parquet`` that say where a point is, for each free key.

    Its value as ``--set`` takes it (numbers as numbers, a duration as ``16min``), its place
    on the key's grid (``index:<key>``) and, for a duration, the same in hours as a float
    (``hours:<key>``).
    """
    row: dict[str, Any] = {}
    for f, i in zip(free, point, strict=True):
        row[f.key.name] = f.key.json_value(f.value(i))
        row[f"index:{f.key.name}"] = i
        if f.key.kind is Kind.DURATION:
            row[f"hours:{f.key.name}"] = float(f.value(i)) / 3600.0
    return row


@dataclass
class Calibration:
    """A calibration file, read and checked.

    Attributes:
        name: Its ``name``.
        path: The file.
        free: The free keys.
        targets: The targets.
        text: The file's text (what the result's identity hashes).
        name_fr: Its ``name_fr`` (optional): the name under ``--lang fr``.
    """

    name: str
    path: Path
    free: list[Free]
    targets: list[Target]
    text: str = ""
    name_fr: str = ""

    @property
    def title(self) -> str:
        """The name in the language in force: ``name_fr`` in French when given."""
        from simulator.report.i18n import current_language

        return self.name_fr if self.name_fr and current_language() == "fr" else self.name

    def identity(self, method: Mapping[str, object]) -> str:
        """A hash of what determines the result: this file, its scenarios, the method.

        And the grids' version (:data:`~simulator.scenario.keys.GRID_VERSION`): a search
        resumed from evaluations kept by index on another grid would read them at other
        values; and the simulator's version: another version's engines may give other
        numbers, which a resumed search would mix with this one's.
        """
        import simulator
        from simulator.scenario.keys import GRID_VERSION

        head = f"grid {GRID_VERSION}\nversion {simulator.__version__}\n"
        digest = hashlib.sha256(f"{head}{self.text}".encode())
        for target in self.targets:
            digest.update(json.dumps(target._data, sort_keys=True, default=str).encode())
        digest.update(json.dumps(dict(method), sort_keys=True, default=str).encode())
        return digest.hexdigest()


def _percent(value: object) -> object:
    """A share written as a percent (``"20%"``) as its number (0.2).

    As ``balance --target p_dead=20%`` takes it; anything else is given back as it is, for
    the checks to name.
    """
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            number = float(value.strip().removesuffix("%").strip())
        except ValueError:
            return value
        if math.isfinite(number):
            return number / 100
    return value


def _problem(source: str, key: str, value: object, expected: str | Phrase) -> ScenarioError:
    return ScenarioError([Problem.of(source, key, value, expected)])


def _read_text(path: Path) -> str:
    source = str(path)
    refused = path_problem(path, N_("calibration file"))
    if refused is not None:
        raise UserError(refused)
    if path.is_fifo() or path.is_socket():  # opening one waits for a writer
        pipe = N_("a calibration file, not a named pipe or socket (it would wait forever)")
        raise _problem(source, "(file)", source, pipe)
    from simulator.scenario.reading import bounded_text, not_utf8

    try:
        return bounded_text(path, N_("a calibration file of at most {n} MB"))
    except FileNotFoundError:
        raise _problem(
            source, "(file)", source, N_("an existing calibration file (no such file)")
        ) from None
    except IsADirectoryError:
        raise _problem(
            source, "(file)", source, N_("a calibration file, not a directory")
        ) from None
    except UnicodeDecodeError:
        raise _problem(source, "(file)", source, not_utf8(path)) from None
    except OSError as exc:
        expected = Phrase(N_("a readable calibration file ({detail})"), (("detail", exc.strerror),))
        raise _problem(source, "(file)", source, expected) from None


def _target_source(path: Path, source: str, where: str) -> ScenarioSource:
    """A target's scenario file, read; its mistakes name the calibration file that points to it.

    Its text is kept with its mapping: the calibrated copy is that text, edited.

    Raises:
        ScenarioError: Each problem's source reads ``FILE (target[1].scenario of CALIBRATION)``.
    """
    import dataclasses

    from simulator.scenario.reading import read_scenario_source

    try:
        return read_scenario_source(path)
    except ScenarioError as exc:
        told = [
            dataclasses.replace(
                p,
                source=phrase(
                    "{path} ({where}.scenario of {calibration})",
                    path=p.source,
                    where=where,
                    calibration=source,
                ),
            )
            for p in exc.problems
        ]
        raise ScenarioError(told) from None


def _unknown(source: str, where: str, table: Mapping[str, Any], known: Sequence[str]) -> None:
    """Refuse every key of ``table`` that is not in ``known``, all of them at once.

    With the checks and hints of a scenario file's unknown keys
    (:meth:`~simulator.scenario.checks.Checker.unknown_keys`): the close name meant, a quoted
    dotted name, a top-level key written below a table.
    """
    from simulator.scenario.checks import Checker

    check = Checker(source, top_keys=_TOP)
    check.unknown_keys(table, known, "" if where == "the top level" else where)
    if check.problems:
        raise ScenarioError(check.problems)


def _tables(source: str, data: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    items = data.get(name)
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
        expected = phrase("one or more [[{name}]] tables", name=name)
        from simulator.errors import MISSING

        raise _problem(source, name, MISSING if items is None else items, expected)
    return items


def _end(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | str):
        return str(value)
    return None


def _one_line(source: str, data: Mapping[str, Any]) -> list[UserError]:
    """The calibration's names, checked as a scenario's ``name`` is: one line, no control.

    Each heads the printed answer, the report and every figure: a line break split the
    printed title in two.
    """
    from simulator.scenario.checks import Checker

    check = Checker(source)
    for key in ("name", "name_fr"):
        if isinstance(data.get(key), str) and data[key].strip():
            check.read_str(data, key, "", one_line=True)
    return [ScenarioError([problem]) for problem in check.problems]


def _read_free(source: str, number: int, item: Mapping[str, Any]) -> Free:
    from simulator.errors import MISSING

    where = f"free[{number}]"
    found, kept = _collector()  # a misspelt key and the one it leaves missing, both told
    kept(lambda: _unknown(source, where, item, _FREE))
    for name in _FREE:
        if name not in item:
            found.append(
                _problem(source, f"{where}.{name}", MISSING, N_("a value (the key and its range)"))
            )
    raise_all(found)
    key_text = item["key"]
    if not isinstance(key_text, str) or not key_text.strip():
        raise _problem(source, f"{where}.key", key_text, N_("a dotted key, e.g. first_aid.level"))
    low, high = _end(item["low"]), _end(item["high"])
    for name, end in (("low", low), ("high", high)):
        if end is None:
            raise _problem(
                source, f"{where}.{name}", item[name], N_("an integer, a duration or a probability")
            )
    assert low is not None and high is not None  # each refused above when it was None
    _ends_of_a_kind(source, where, key_text.strip(), item, low, high)
    key, lo, hi = parse_vary(f"{key_text}={low}..{high}", flag=f"{source}{colon()}{where}")
    if key.kind is not Kind.DURATION:  # "0" for a level: a scenario file refuses it too
        for name in ("low", "high"):
            if isinstance(item[name], str):
                raise _problem(
                    source,
                    f"{where}.{name}",
                    item[name],
                    phrase("a number ({kind}) written without quotes", kind=key.kind.phrase),
                )
    return Free(key, lo, hi, Grid(key.kind, lo, hi))


def _ends_of_a_kind(
    source: str, where: str, key: str, item: Mapping[str, Any], low: str, high: str
) -> None:
    """Each end of a free range on its own: a value, and of one kind with the other.

    ``parse_vary`` says the same of ``KEY=LOW..HIGH`` as typed on the command line; a file's
    mistake is named at its ``low`` or ``high`` where it is one end's alone (no value at all,
    a probability key's end outside [0, 1]), and at both when the two disagree (which one is
    wrong, the key's kind tells later: a range of the key's kind).
    """
    from simulator.rules.durations import spelled_unit
    from simulator.scenario.keys import NUMBER_KEYS, PROBABILITY_KEYS, read_value

    ends = {"low": read_value(low), "high": read_value(high)}
    for name, end in ends.items():
        fixed = decimal_point(item[name])
        if end is None and fixed is not None:  # "1,5h" as a French hand writes it
            raise _problem(
                source,
                f"{where}.{name}",
                item[name],
                phrase("a value written with a decimal point: {fixed}", fixed=fixed),
            )
        share = percent_share(item[name]) if dotted(key) in PROBABILITY_KEYS else None
        if end is None and share is not None:  # "5%", as a scenario file says
            raise _problem(
                source,
                f"{where}.{name}",
                item[name],
                phrase(
                    "a probability, a number from 0 to 1: {percent} is written {fixed}",
                    percent=item[name],
                    fixed=share,
                ),
            )
        numbers = dotted(key) in PROBABILITY_KEYS + NUMBER_KEYS  # "5mn" gets no unit there
        spelled = None if numbers else spelled_unit(item[name])
        if end is None and spelled is not None:  # "5mn", "2 days", as a scenario file says
            raise _problem(
                source,
                f"{where}.{name}",
                item[name],
                phrase(
                    "{what} (did you mean {name}?)",
                    what=phrase(N_("an integer, a duration (0s or more) or a probability")),
                    name=repr(spelled),
                ),
            )
        if end is None:
            raise _problem(
                source,
                f"{where}.{name}",
                item[name],
                N_("an integer, a duration (0s or more) or a probability"),
            )
    low_end, high_end = ends["low"], ends["high"]
    assert low_end is not None and high_end is not None
    if (low_end[0] == "duration") != (high_end[0] == "duration"):
        raise _problem(
            source,
            f"{where}.low, {where}.high",
            f"{item['low']!r}, {item['high']!r}",
            N_("two values of one kind: two durations, or two numbers"),
        )
    if dotted(key) in PROBABILITY_KEYS:
        for name, (_, number) in (("low", low_end), ("high", high_end)):
            if not 0 <= number <= 1:
                raise _problem(
                    source, f"{where}.{name}", item[name], N_("a probability, from 0 to 1")
                )


def _collector() -> tuple[list[UserError], Callable[[Callable[[], T]], T | None]]:
    """A list of mistakes, and ``kept(read)``: ``read()``, or None with its mistake listed."""
    found: list[UserError] = []

    def kept(read: Callable[[], T]) -> T | None:
        try:
            return read()
        except UserError as exc:
            found.append(exc)
            return None

    return found, kept


def _read_target(
    source: str,
    folder: Path,
    number: int,
    item: Mapping[str, Any],
    readable: dict[int, tuple[Path, dict[str, Any]]] | None = None,
) -> Target:
    """Read one ``[[target]]``; every mistake of it told at once (each field on its own).

    ``readable`` is given its scenario (path and keys) once read, even when another field is
    wrong: the free keys are still checked on it.
    """
    from simulator.errors import MISSING

    where = f"target[{number}]"
    found, kept = _collector()
    kept(lambda: _unknown(source, where, item, _TARGET))
    for name in ("scenario", "stat", "value"):
        if name not in item:
            found.append(_problem(source, f"{where}.{name}", MISSING, N_("a value")))
    path: Path | None = None
    written = item.get("scenario")
    if "scenario" not in item:
        pass
    elif not isinstance(written, str) or not written:
        found.append(_problem(source, f"{where}.scenario", written, N_("a scenario file's path")))
    else:
        path = Path(written) if Path(written).is_absolute() else folder / written
        if path.is_dir():
            expected = phrase(
                "a scenario file, relative to the calibration file (a directory: {path})",
                path=str(path),
            )
            found.append(_problem(source, f"{where}.scenario", written, expected))
            path = None
        elif not path.is_file():
            expected = phrase(
                "an existing scenario file, relative to the calibration file (no such file: "
                "{path})",
                path=str(path),
            )
            found.append(_problem(source, f"{where}.scenario", written, expected))
            path = None
    stat = None
    if "stat" in item:
        stat_text = item["stat"]
        if not isinstance(stat_text, str):
            stat_text = repr(stat_text)
        stat = kept(partial(Statistic.parse, stat_text, flag=f"{source}{colon()}{where}.stat"))
    value = _percent(item.get("value"))
    if "value" in item and (
        isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1
    ):
        fixed = decimal_point(value)
        share: str | Phrase = (
            phrase("a share from 0 to 1, written with a decimal point: {fixed}", fixed=fixed)
            if fixed is not None
            else N_("a share from 0 to 1")
        )
        found.append(_problem(source, f"{where}.value", value, share))
    tolerance = _percent(item.get("tolerance", DEFAULT_TOLERANCE))
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, int | float)
        or not math.isfinite(tolerance)
        or tolerance <= 0
    ):
        fixed = decimal_point(tolerance)  # "0,02" as a French hand writes it
        above: str | Phrase = (
            phrase("a number above 0, written with a decimal point: {fixed}", fixed=fixed)
            if fixed is not None
            else N_("a number above 0")
        )
        found.append(_problem(source, f"{where}.tolerance", tolerance, above))
    elif tolerance >= 1:  # a share's: 5 meant as 5 points reads ±500 points, always met
        within: str | Phrase = (
            phrase(
                "a share above 0 and below 1, as the target's value is ({points}% is {share})",
                points=f"{tolerance:g}",
                share=f"{tolerance / 100:g}",
            )
            if tolerance < 100
            else N_("a share above 0 and below 1, as the target's value is")
        )
        found.append(_problem(source, f"{where}.tolerance", tolerance, within))
    elif tolerance < SMALLEST_TOLERANCE:  # 1e-300: the search's squared residuals overflowed
        found.append(
            _problem(
                source,
                f"{where}.tolerance",
                tolerance,
                N_("a share of at least 1e-9 (one in a billion), below 1"),
            )
        )
    sets = item.get("set", [])
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        found.append(_problem(source, f"{where}.set", sets, N_('a list of "KEY=VALUE" strings')))
    read = None if path is None else kept(partial(_target_source, path, source, where))
    if readable is not None and path is not None and read is not None:
        readable[number] = (path, read.mapping)
    raise_all(found)
    assert path is not None and stat is not None and read is not None
    assert isinstance(written, str) and isinstance(value, int | float)
    assert isinstance(tolerance, int | float)
    return Target(
        number,
        path,
        written,
        stat,
        float(value),
        float(tolerance),
        tuple(sets),
        source,
        read.mapping,
        read.text,
        read.newline,
    )


def _free_on(source: str, free: Sequence[Free], path: Path, mapping: dict[str, Any]) -> None:
    """The free keys at their low ends on one target's scenario alone (its other fields wrong).

    Raises:
        ScenarioError: The free keys' own problems only (the target's are told by its reading).
    """
    from simulator.scenario.reading import scenario_with_overrides

    flag = f"{source}: free"
    try:
        scenario_with_overrides(
            mapping, (), str(path), more=[f.setting(0) for f in free], more_flag=flag
        )
    except ScenarioError as exc:
        own = [p for p in exc.problems if flag in str(p)]
        if own:
            raise ScenarioError(own) from None


def _check_kind(source: str, number: int, free: Free, target: Target) -> None:
    """Refuse a range of another kind than the value the key holds (a duration for a level)."""
    try:
        value = current_value(target.build(()), free.key.name)
    except UserError:
        return  # a key the scenario leaves out: the builds at the ends judge it
    try:
        held = key_of(free.key.name, value)[0].kind
    except UserError:  # a name, a ruleset: nothing a search can move through
        raise _problem(
            source,
            f"free[{number}].key",
            free.key.name,
            phrase(
                "a key that holds an integer, a duration or a probability: {key} holds {value} "
                "in {scenario}",
                key=free.key.name,
                value=display(value),
                scenario=target.written,
            ),
        ) from None
    if (held is Kind.DURATION) == (free.key.kind is Kind.DURATION):
        return  # an integer for a probability (or back): the builds at the ends judge it
    raise _problem(
        source,
        f"free[{number}].low",
        int(free.low) if free.key.kind is Kind.INTEGER else free.key.literal(free.low),
        phrase(
            "a range of the key's kind: {key} holds {kind} values in {scenario}",
            key=free.key.name,
            kind=held.phrase,
            scenario=target.written,
        ),
    )


def read_calibration(path: str | Path) -> Calibration:
    """Read and check a calibration file, its targets' scenarios included.

    Raises:
        UserError: For every kind of mistake, naming the file, the key and what was
            expected (one ``error:`` line each on the command line).
    """
    path = Path(path)
    source = str(path)
    text = _read_text(path)
    from simulator.scenario.reading import parse_toml

    data = parse_toml(text, source)  # an integer of 4,300 digits or more: a problem, too
    scenario_keys = {"horizon", "patient", "injuries"}
    if scenario_keys & set(data) and not {"free", "target"} & set(data):  # one line, not ten
        from simulator.errors import Problem

        not_scenario = N_(
            "a calibration file ([[free]] keys and [[target]] tables, each target naming its "
            "scenario); this is a scenario file, which a calibration's target names with "
            "scenario = ... (calibrations/texts.toml is a calibration file)"
        )
        raise ScenarioError([Problem.of(source, "(file)", source, not_scenario)])
    found, kept = _collector()  # every mistake, each item read on its own (CONTRACT)
    kept(lambda: _unknown(source, "the top level", data, _TOP))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        from simulator.errors import MISSING

        found.append(
            _problem(source, "name", MISSING if name is None else name, N_("a name (text)"))
        )
    name_fr = data.get("name_fr", "")
    if not isinstance(name_fr, str):
        found.append(_problem(source, "name_fr", name_fr, N_("a name (text)")))
    found += _one_line(source, data)
    free_items = kept(lambda: _tables(source, data, "free")) or []
    read_free = [kept(partial(_read_free, source, i, item)) for i, item in enumerate(free_items)]
    numbered = [(i, item) for i, item in enumerate(read_free) if item is not None]
    free = [item for _, item in numbered]
    seen: dict[str, int] = {}
    for i, item in numbered:
        if item.key.name in seen:
            expected = phrase(
                "each key once (free[{other}] names it too)", other=seen[item.key.name]
            )
            found.append(_problem(source, f"free[{i}].key", item.key.name, expected))
            continue
        seen[item.key.name] = i
    target_items = kept(lambda: _tables(source, data, "target")) or []
    readable: dict[int, tuple[Path, dict[str, Any]]] = {}
    read_targets = [
        kept(partial(_read_target, source, path.parent, i, item, readable))
        for i, item in enumerate(target_items)
    ]
    targets = [target for target in read_targets if target is not None]
    if free and not targets and readable:
        kept(partial(_free_on, source, free, *readable[min(readable)]))  # told with the rest
    for target in targets:  # with the free keys read well, so that each mistake is told
        for given in target.overrides:  # the free value would win without a word
            key = dotted(given.partition("=")[0])
            solved = [n for n in seen if dotted(n) == key or dotted(n).startswith(key + ".")]
            if solved:  # the key itself, or a table that holds it (first_aid={...})
                expected = phrase(
                    "keys the calibration does not solve (free[{other}] solves {key})",
                    other=seen[solved[0]],
                    key=solved[0],
                )
                found.append(_problem(source, f"target[{target.number}].set", given, expected))
        before = len(found)
        for i, item in numbered:
            kept(partial(_check_kind, source, i, item, target))
        if len(found) > before:
            continue  # a range of the wrong kind: its ends cannot be built
        for end in (0, -1):  # both ends of every range are checked before anything runs
            try:
                scenario = target.build([f.setting(end % len(f.grid)) for f in free])
                target.stat.check(
                    scenario,
                    flag=f"{source}{colon()}target[{target.number}].stat",
                    longer=N_('set = ["horizon={by}"] in this target'),
                )
            except UserError as exc:
                found.append(exc)
                break  # the other end would say it again
    raise_all(found)
    assert name is not None
    french = name_fr.strip() if isinstance(name_fr, str) else ""
    return Calibration(name.strip(), path, free, targets, text, french)


__all__ = ["DEFAULT_TOLERANCE", "Calibration", "Free", "Target", "read_calibration"]
