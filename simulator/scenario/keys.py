"""The scenario keys that ``balance`` and ``sensitivity`` move: their kind, values and notches.

A key is one dotted scenario key, as ``--set`` takes it. Four kinds are moved:

- **integers** (levels, attributes, table pain, maxima): searched over the integers, one
  notch is one unit;
- **durations** (periods, first-aid start and interval): searched over whole minutes (whole
  seconds below a minute), one notch is the next *round* duration (15min: 10min and 30min),
  and always told in units a person uses ("16 h 40 min", "2 j 4 h");
- **probabilities** (the neglect probability, the trigger probability): searched over
  thousandths of [0, 1], one notch is 0.05;
- **numbers** (a rate that takes any number >= 0, fractions included: the pain recovered per
  stable hour, P1): searched over thousandths, one notch is 0.25 (never below 0).

Values are kept as numbers: ints, seconds (float), probabilities or numbers (float).
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from simulator.errors import N_, DurationError, Phrase, UserError, display, phrase
from simulator.rules.durations import ROUND_DURATIONS, parse_duration, spelled_unit
from simulator.scenario.checks import SHOWN_LENGTH, percent_share
from simulator.spelling import spelling

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.scenario.overrides import Override


class Kind(Enum):
    """How a key's values are searched, notched and told."""

    INTEGER = "integer"
    DURATION = "duration"
    PROBABILITY = "probability"
    NUMBER = "number"

    @property
    def phrase(self) -> Phrase:
        """The kind's name for a person, in the language of the message it is put in."""
        return Phrase(_KIND_WORDS[self.value])


_KIND_WORDS = {
    "integer": N_("integer"),
    "duration": N_("duration"),
    "probability": N_("probability"),
    "number": N_("number"),
}
"""The kinds' names, marked for the catalogue."""

PROBABILITY_KEYS = ("watch.neglect_probability", "rules.trigger_probability")
"""Keys that hold a probability (0 to 1) even when written as 0 or 1."""

PROBABILITY_STEP = 1000
"""Probabilities (and numbers) are searched over multiples of 1/1000."""

PROBABILITY_NOTCH = 0.05
"""One notch of a probability."""

NUMBER_KEYS = ("rules.pain_recovery_per_hour",)
"""Keys that hold any number >= 0, fractions included, even when written as an integer."""

NUMBER_NOTCH = 0.25
"""One notch of a number (a quarter of the default pain recovered per hour)."""


@dataclass(frozen=True)
class Key:
    """A scenario key and the kind of its values.

    Attributes:
        name: The dotted key (``rules.table.grave.unstable_period``).
        kind: Integer, duration or probability.
    """

    name: str
    kind: Kind

    def literal(self, value: float) -> str:
        """The value as ``--set`` takes it (``3``, ``"1000min"``, ``0.25``)."""
        if self.kind is Kind.INTEGER:
            return str(int(value))
        if self.kind is Kind.DURATION:
            from simulator.scenario.writing import exact_duration

            return exact_duration(float(value))
        return repr(round(float(value), 12))

    def setting(self, value: float, typed: str | None = None) -> Override:
        """The override that sets the value, typed (its text ``KEY=VALUE`` names it).

        ``typed``: the value as the person wrote it (a range's end), kept for a duration so
        that a refusal quotes ``36526d``, not the same length re-expressed as ``5218w``.
        """
        from simulator.scenario.overrides import Override, key_parts

        parts = key_parts(self.name) or [self.name]
        if typed is not None and self.kind is Kind.DURATION:
            return Override(tuple(parts), typed, f"{self.name}={typed}")
        return Override(tuple(parts), self.json_value(value), f"{self.name}={self.literal(value)}")

    def json_value(self, value: float) -> Any:
        """The value in JSON: an int, a duration string (``"1000min"``) or a float."""
        if self.kind is Kind.INTEGER:
            return int(value)
        if self.kind is Kind.DURATION:
            return self.literal(value)
        return round(float(value), 12)


def dotted(key: str) -> str:
    """A key as dots only: ``injuries[0].at`` and ``injuries.0.at`` are one key (as --set)."""
    from simulator.scenario.overrides import key_parts

    return ".".join(key_parts(key) or [key.strip()])


def read_value(text: str) -> tuple[str, float] | None:
    """One end of a ``--vary`` range, with its kind.

    Returns:
        ``("integer", 3)``, ``("duration", 900.0)`` or ``("number", 0.25)``; None when it
        is none of them.
    """
    text = text.strip()
    try:
        return "integer", int(text)
    except ValueError:
        pass
    try:
        return "duration", parse_duration(text)
    except DurationError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return ("number", number) if math.isfinite(number) else None


def _percents(pieces: Sequence[str], probability: bool) -> list[str] | None:
    """The values typed for a key, each percent as the share it means (``5%``: ``0.05``).

    Returns:
        ``['0.01', '0.1']`` for ``1%`` and ``10%``; None unless the key is a ``probability``,
        a value at least is a percent from 0% to 100%, and every value then reads as one.
    """
    if not probability:
        return None
    shares = [percent_share(piece) for piece in pieces]
    meant = [share or piece.strip() for share, piece in zip(shares, pieces, strict=True)]
    if all(share is None for share in shares) or any(read_value(m) is None for m in meant):
        return None
    return meant


def _percent_problem(flag: str, name: str, raw: str, fixed: str) -> UserError:
    """A range or a notch of a probability written in percents, told the numbers it means."""
    return UserError(
        phrase(
            "{flag} {name}: got {value}; expected {expected}",
            flag=spelling().lead(flag),
            name=name,
            value=repr(raw),
            expected=phrase(
                "a probability, a number from 0 to 1: {percent} is written {fixed}",
                percent=raw.strip(),
                fixed=fixed,
            ),
        )
    )


def _in_order(low: float, high: float, name: str, raw: str, flag: str) -> None:
    """Refuse a range whose LOW is not below its HIGH, naming ``flag`` and the key."""
    if not low < high:
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected LOW smaller than HIGH",
                flag=spelling().lead(flag),
                name=name,
                value=repr(raw),
            )
        )


def _number_range(
    name: str, raw: str, ends: tuple[tuple[str, float] | None, ...], flag: str
) -> tuple[Key, float, float]:
    """The range of a number key (:data:`NUMBER_KEYS`), the smaller end first.

    Both ends lie within the scenario's bounds, 0 to
    :data:`~simulator.scenario.checks.INT_LIMIT`.

    Raises:
        UserError: Naming ``flag``, the key and the bounds, for anything else.
    """
    from simulator.scenario.checks import INT_LIMIT

    numbers = [end[1] for end in ends if end is not None and end[0] != "duration"]
    if len(numbers) != 2 or not all(0 <= v <= INT_LIMIT for v in numbers):
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected two numbers from 0 to {high} (fractions "
                "allowed), e.g. {name}=0.25..2",
                flag=spelling().lead(flag),
                name=name,
                value=repr(raw),
                high=str(INT_LIMIT),
            )
        )
    low, high = float(numbers[0]), float(numbers[1])
    _in_order(low, high, name, raw, flag)
    return Key(name, Kind.NUMBER), low, high


def parse_vary(text: str, flag: str = "vary") -> tuple[Key, float, float]:
    """Read ``KEY=LOW..HIGH`` into the key (with its kind) and the range's ends.

    Raises:
        UserError: Naming ``flag`` and what was expected, for anything else.
    """
    expected = N_(
        "KEY=LOW..HIGH with a dotted KEY and two integers, two numbers, two durations or two "
        "probabilities, e.g. rules.table.grave.unstable_period=15min..1d"
    )
    typed = text if isinstance(text, str) else ""  # a tuple from a notebook: the text is asked
    name, sep, raw = typed.partition("=")
    name = name.strip()
    low_text, dots, high_text = raw.partition("..")
    if not sep or not name or not dots or raw.count("..") != 1 or "..." in raw:  # 0...5
        raise UserError(
            phrase(
                "{flag}: got {value}; expected {expected}",
                flag=spelling().option(flag),
                value=repr(text),
                expected=Phrase(expected),
            )
        )
    ends = read_value(low_text), read_value(high_text)
    from simulator.scenario.checks import decimal_point

    for text, end in zip((low_text, high_text), ends, strict=True):
        if end is None and decimal_point(text) is not None:  # 0,5h..1d
            raise UserError(
                phrase(
                    "{flag} {name}: got {value}; expected each end written with a decimal "
                    "point: {fixed}",
                    flag=spelling().lead(flag),
                    name=name,
                    value=repr(text.strip()),
                    fixed=decimal_point(text),
                )
            )
    meant = _percents((low_text, high_text), dotted(name) in PROBABILITY_KEYS)
    if meant is not None:  # 1%..10%, as a scenario file or a --set is told
        raise _percent_problem(flag, name, raw, "..".join(meant))
    if dotted(name) in NUMBER_KEYS:
        return _number_range(name, raw, ends, flag)
    if ends[0] is None or ends[1] is None:
        meant = [spelled_unit(t) or t.strip() for t in (low_text, high_text)]
        said: Phrase = Phrase(expected)
        if all(read_value(t) is not None for t in meant):  # 15m..1d: 15min..1d
            guess = f"{name}={meant[0]}..{meant[1]}"
            said = phrase("{what} (did you mean {name}?)", what=said, name=guess)
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected {expected}",
                flag=spelling().lead(flag),
                name=name,
                value=repr(raw),
                expected=said,
            )
        )
    kinds = {ends[0][0], ends[1][0]}
    low, high = ends[0][1], ends[1][1]
    if kinds == {"duration"}:
        kind = Kind.DURATION
    elif kinds == {"integer"} and name not in PROBABILITY_KEYS:
        kind = Kind.INTEGER
    elif "duration" not in kinds:
        kind = Kind.PROBABILITY
        if not (0 <= low <= 1 and 0 <= high <= 1):
            raise UserError(
                phrase(
                    "{flag} {name}: got {value}; expected two integers, or two probabilities "
                    "within [0, 1] (a number with a decimal point is read as a probability)",
                    flag=spelling().lead(flag),
                    name=name,
                    value=repr(raw),
                )
            )
    else:
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected two values of the same kind",
                flag=spelling().lead(flag),
                name=name,
                value=repr(raw),
            )
        )
    if not (abs(low) <= RANGE_LIMIT and abs(high) <= RANGE_LIMIT):  # 10**400: no float
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected ends of at most {most} in size",
                flag=spelling().lead(flag),
                name=name,
                value=repr(raw if len(raw) <= SHOWN_LENGTH else raw[: SHOWN_LENGTH - 1] + "…"),
                most="1e15",
            )
        )
    _in_order(low, high, name, raw, flag)
    return Key(name, kind), float(low), float(high)


RANGE_LIMIT = 10**15
"""The largest end of a searched range, in size: far past every key's bounds, and a float
holds it exactly (an end of 10**400 made no float at all)."""


SECONDS_GRID_UP_TO = 3600.0
"""A range of durations that ends within this (an hour) is searched second by second."""

GRID_VERSION = 2
"""Raised whenever :class:`Grid` gives an index another value (2: seconds within an hour),
so that what was kept by index under the old grid is never read under the new one."""


class Grid:
    """The values a search may visit between two ends, both included, in increasing order.

    Integers: every integer. Durations: every whole second when the range ends within an
    hour (a medic's cadence of 90 s is a value); over longer ranges, every whole second
    below a minute, then every whole minute. Probabilities and numbers: every thousandth.
    The ends are always values of the grid, even when they fall between its steps. Never
    built in full (a year has half a million minutes): values are computed from their index.
    """

    def __init__(self, kind: Kind, low: float, high: float):
        self.kind, self.low, self.high = kind, low, high
        segments: list[tuple[float, float, int]] = []  # (first, step, count), strictly inside
        if kind is Kind.INTEGER:
            segments.append((low + 1, 1.0, int(high - low) - 1))
        elif kind in (Kind.PROBABILITY, Kind.NUMBER):
            first = math.floor(low * PROBABILITY_STEP + 1e-9) + 1
            last = math.ceil(high * PROBABILITY_STEP - 1e-9) - 1
            segments.append((first, 1.0, last - first + 1))
        elif high <= SECONDS_GRID_UP_TO:
            first_s, last_s = math.floor(low) + 1, math.ceil(high) - 1
            segments.append((float(first_s), 1.0, last_s - first_s + 1))
        else:
            first_s, last_s = math.floor(low) + 1, min(math.ceil(high) - 1, 59)
            segments.append((float(first_s), 1.0, last_s - first_s + 1))
            first_m, last_m = max(math.floor(low / 60) + 1, 1), math.ceil(high / 60) - 1
            segments.append((60.0 * first_m, 60.0, last_m - first_m + 1))
        self._segments = [s for s in segments if s[2] > 0]
        self._length = 2 + sum(count for _, _, count in self._segments)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: int) -> float:
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        if index == 0:
            return self.low
        if index == self._length - 1:
            return self.high
        index -= 1
        for first, step, count in self._segments:
            if index < count:
                value = first + index * step
                if self.kind in (Kind.PROBABILITY, Kind.NUMBER):
                    return value / PROBABILITY_STEP
                return int(value) if self.kind is Kind.INTEGER else value
            index -= count
        raise IndexError(index)  # pragma: no cover (the segments cover the length)

    def spread(self, count: int, log: bool = False) -> list[int]:
        """About ``count`` indices spread over the grid, both ends included, no repeats.

        With ``log``, spread evenly in the logarithm of the values (delays that span
        doublings), which needs positive ends.
        """
        last = self._length - 1
        if last + 1 <= count:
            return list(range(last + 1))
        if not log or self.low <= 0:
            return sorted({round(i * last / (count - 1)) for i in range(count)})
        ratio = self.high / self.low
        targets = [self.low * ratio ** (i / (count - 1)) for i in range(count)]
        return sorted({0, last, *(self.index_near(t) for t in targets)})

    def index_near(self, value: float) -> int:
        """The index of the grid value nearest ``value`` (by bisection on the index)."""
        lo, hi = 0, self._length - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self[mid] <= value:
                lo = mid
            else:
                hi = mid
        return lo if value - self[lo] <= self[hi] - value else hi


def notches(
    kind: Kind, value: float, *, to_bounds: bool = False
) -> tuple[float | None, float | None]:
    """One notch down and one up from ``value``; None where there is none (out of range).

    Args:
        kind: The key's kind.
        value: The scenario's value.
        to_bounds: A probability's (or a number's) notch that would pass its bound (below
            0, above 1) stops at the bound when ``value`` is not already there: 0.02 is
            moved to 0 and 0.07, as a designer tries it (``sensitivity``). Otherwise such a
            notch is None, every notch one step wide (``calibrate``'s pull per notch).
    """
    if kind is Kind.INTEGER:
        return value - 1, value + 1
    if kind in (Kind.PROBABILITY, Kind.NUMBER):
        step, top = (
            (PROBABILITY_NOTCH, 1.0) if kind is Kind.PROBABILITY else (NUMBER_NOTCH, math.inf)
        )
        down, up = round(value - step, 12), round(value + step, 12)
        if to_bounds:
            down = 0.0 if down < 0 < value else down
            up = top if value < top < up else up
        return (down if down >= 0 else None), (up if up <= top else None)
    below = bisect_left(ROUND_DURATIONS, value) - 1
    above = bisect_right(ROUND_DURATIONS, value)
    return (
        ROUND_DURATIONS[below] if below >= 0 else None,
        ROUND_DURATIONS[above] if above < len(ROUND_DURATIONS) else None,
    )


OPTIONAL_TABLES: dict[str, tuple[str, ...]] = {
    "first_aid": ("max_attempts",),
    "healing": (),
    "watch": (),
}
"""The tables a scenario may leave out, each with its keys that may stay unset."""


def _meant(flag: str, name: str, key: str) -> UserError:
    """A key the scenario lacks, and the one it was meant to be."""
    return UserError(
        phrase(
            "{flag} {name}: the scenario has no such key (did you mean {key}?); "
            "expected a dotted key of the scenario (as {overrides} takes it)",
            flag=spelling().lead(flag),
            name=name,
            key=repr(key),
            overrides=spelling().option("overrides"),
        )
    )


def current_value(scenario: Scenario, name: str, flag: str = "keys") -> object:
    """The value a scenario gives a key, defaults included (a table cell of the table in force).

    Raises:
        UserError: When the scenario has no such key.
    """
    from simulator.rules.levels import Level
    from simulator.rules.table import CELLS
    from simulator.scenario.writing import exact_duration, scenario_to_mapping

    parts = name.replace("[", ".").replace("]", "").split(".")
    if len(parts) == 4 and parts[:2] == ["rules", "table"] and parts[3] in CELLS:
        level = next((lv for lv in Level if lv.label == parts[2]), None)
        if level is not None:
            cell = getattr(scenario.table[level], parts[3])
            return exact_duration(cell) if parts[3].endswith("_period") else cell
    if len(parts) == 4 and parts[:2] == ["rules", "table"]:  # a typo in a cell's name
        from simulator.scenario.checks import closest

        labels = [lv.label for lv in Level]
        level_name = parts[2] if parts[2] in labels else closest(parts[2], labels)
        cell_name = parts[3] if parts[3] in CELLS else closest(parts[3], CELLS)
        if (
            level_name is not None
            and cell_name is not None
            and [level_name, cell_name] != parts[2:]
        ):
            raise _meant(flag, name, f"rules.table.{level_name}.{cell_name}")
    if len(parts) == 3 and parts[:2] == ["patient", "maxima"]:  # the maximum in force
        level = next((lv for lv in Level if lv.label == parts[2]), None)
        if level is not None:
            return scenario.table[level].max
    node: Any = scenario_to_mapping(scenario)
    for depth, part in enumerate(parts):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif depth == 0 and part in OPTIONAL_TABLES:
            raise UserError(  # first_aid.level of a scenario without [first_aid]
                phrase(
                    "{flag} {name}: the scenario has no [{table}]; expected a key of a table it "
                    "has",
                    flag=spelling().lead(flag),
                    name=name,
                    table=part,
                )
            )
        elif depth == len(parts) - 1 == 1 and part in OPTIONAL_TABLES.get(parts[0], ()):
            raise UserError(  # an optional key left unset (first_aid.max_attempts: no limit)
                phrase(
                    "{flag} {name}: the scenario gives it no value (it is optional, and unset "
                    "here); expected a key with a value to move by a notch: give it one with "
                    "{setting}",
                    flag=spelling().lead(flag),
                    name=name,
                    setting=spelling().item("overrides", f"{name}=..."),
                )
            )
        else:
            from simulator.scenario.checks import closest

            found = closest(part, node) if isinstance(node, dict) else None
            if found is not None and found != part:  # first_aid.levl: first_aid.level
                raise _meant(flag, name, ".".join([*parts[:depth], found]))
            raise UserError(
                phrase(
                    "{flag} {name}: the scenario has no such key; expected a dotted key of the "
                    "scenario (as {overrides} takes it), e.g. rules.table.grave.pain or "
                    "patient.cp_rs",
                    flag=spelling().lead(flag),
                    name=name,
                    overrides=spelling().option("overrides"),
                )
            )
    return node


def key_of(name: str, value: object, flag: str = "keys") -> tuple[Key, float]:
    """The key's kind and numeric value, from the value the scenario gives it.

    Raises:
        UserError: For a key whose value is no integer, duration or probability.
    """
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if is_number and dotted(name) in NUMBER_KEYS:
        return Key(name, Kind.NUMBER), float(value)  # type: ignore[arg-type]
    if isinstance(value, int) and not isinstance(value, bool):
        if name in PROBABILITY_KEYS:
            return Key(name, Kind.PROBABILITY), float(value)
        return Key(name, Kind.INTEGER), value
    if isinstance(value, float) and 0 <= value <= 1:
        return Key(name, Kind.PROBABILITY), value
    if isinstance(value, str):
        try:
            return Key(name, Kind.DURATION), parse_duration(value)
        except DurationError:
            pass
    raise UserError(
        phrase(
            "{flag} {name}: holds {value}; expected a key that holds an integer, a duration "
            "or a probability",
            flag=spelling().lead(flag),
            name=name,
            value=display(value),
        )
    )


def parse_notch(text: str, key: Key, flag: str = "notch") -> tuple[float, float]:
    """The values of ``KEY=DOWN,UP`` for ``key``.

    Raises:
        UserError: When the two values are not of the key's kind, or DOWN is not below UP.
    """
    _, _, raw = text.partition("=")
    pieces = [p.strip() for p in raw.split(",")]
    values = [read_value(p) for p in pieces]
    wanted = {Kind.INTEGER: {"integer"}, Kind.DURATION: {"duration"}}.get(
        key.kind, {"integer", "number"}
    )
    from simulator.scenario.checks import decimal_commas, decimal_point

    fixed = decimal_commas(
        pieces,
        fractions=key.kind in (Kind.PROBABILITY, Kind.NUMBER),
        probability=key.kind is Kind.PROBABILITY,
    )
    if len(pieces) == 4 and key.kind != Kind.INTEGER:  # 0,01,0,1: DOWN and UP, each a decimal
        halves = [decimal_point(f"{a},{b}") for a, b in (pieces[:2], pieces[2:])]
        if halves[0] is not None and halves[1] is not None:
            fixed = f"{halves[0]},{halves[1]}"
    if fixed is not None:
        more = len(fixed.split(",")) != 2
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; a comma separates DOWN from UP: expected decimal "
                "points, {fixed}{more}",
                flag=spelling().lead(flag),
                name=key.name,
                value=repr(raw),
                fixed=fixed,
                more=Phrase(N_(" (one value; DOWN,UP takes two)")) if more else "",
            )
        )
    meant = _percents(pieces, key.kind is Kind.PROBABILITY) if len(pieces) == 2 else None
    if meant is not None:  # 1%,5%, as a scenario file or a --set is told
        raise _percent_problem(flag, key.name, raw, ",".join(meant))
    if len(values) != 2 or any(v is None or v[0] not in wanted for v in values):
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected DOWN,UP, two values of the key's kind "
                "({kind})",
                flag=spelling().lead(flag),
                name=key.name,
                value=repr(raw),
                kind=key.kind.phrase,
            )
        )
    down, up = float(values[0][1]), float(values[1][1])  # type: ignore[index]
    if not down < up:  # the table says which is down: 7,5 would label 7 "one notch down"
        raise UserError(
            phrase(
                "{flag} {name}: got {value}; expected DOWN smaller than UP",
                flag=spelling().lead(flag),
                name=key.name,
                value=repr(raw),
            )
        )
    return down, up


def split_notch(text: str, flag: str = "notch") -> str:
    """The key of a ``KEY=DOWN,UP`` text.

    Raises:
        UserError: When it has no ``=`` or no key.
    """
    name, sep, _ = text.partition("=")
    if not sep or not name.strip():
        raise UserError(
            phrase(
                "{flag}: got {value}; expected KEY=DOWN,UP, e.g. patient.cp_rs=5,7",
                flag=spelling().option(flag),
                value=repr(text),
            )
        )
    return name.strip()


def ordered(values: Sequence[float]) -> bool:
    """Whether the values never go back (non-decreasing or non-increasing)."""
    rises = any(b > a for a, b in itertools.pairwise(values))
    falls = any(b < a for a, b in itertools.pairwise(values))
    return not (rises and falls)
