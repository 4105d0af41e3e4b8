"""The wound table as typed, frozen data (RULES.md T1, T2, M1).

The numbers live in ``simulator/data/tables.toml``; this module loads and validates them and
applies a scenario's overrides (cells, creature profile, maxima).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from simulator.errors import DurationError, TableError
from simulator.rules.durations import parse_duration
from simulator.rules.levels import MENTAL_LEVELS, PHYSICAL_LEVELS, Level

CELLS = (
    "max",
    "mortality",
    "pain",
    "unstable_period",
    "stable_period",
    "watch_period",
    "heal_period",
    "difficulty",
)
"""The columns of a table row, as named in scenario files."""

PERIOD_CELLS = ("unstable_period", "stable_period", "watch_period", "heal_period")
INT_CELLS = ("max", "mortality", "pain", "difficulty")


@dataclass(frozen=True, slots=True)
class LevelRow:
    """One row of the wound table. Periods are in seconds.

    For a mental level, ``mortality`` holds its craziness points (M1).
    """

    level: Level
    max: int
    mortality: int
    pain: int
    unstable_period: float
    stable_period: float
    watch_period: float
    heal_period: float
    difficulty: int
    placeholder: bool = False


@dataclass(frozen=True, slots=True)
class Profile:
    """A creature profile: the maxima of the physical levels (T2)."""

    name: str
    description: str
    maxima: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class WoundTable:
    """The six rows (three physical, three mental), indexed by ``Level``.

    Attributes:
        rows: ``rows[level]`` is the row of that level; a tuple for fast lookup.
    """

    rows: tuple[LevelRow, ...]

    def __post_init__(self) -> None:
        validate_rows(self.rows)

    def __getitem__(self, level: Level) -> LevelRow:
        return self.rows[level]

    def with_cells(self, level: Level, **cells: Any) -> WoundTable:
        """Return a copy with some cells of one row replaced (values already typed)."""
        rows = list(self.rows)
        rows[level] = replace(rows[level], **cells)
        return WoundTable(tuple(rows))

    def with_maxima(self, maxima: Mapping[Level, int]) -> WoundTable:
        """Return a copy with the maxima of some levels replaced."""
        rows = list(self.rows)
        for level, value in maxima.items():
            rows[level] = replace(rows[level], max=value)
        return WoundTable(tuple(rows))


def validate_rows(rows: tuple[LevelRow, ...]) -> None:
    """Refuse a table that breaks T2, naming the level, the column and the value.

    Raises:
        TableError: On a missing level, a negative maximum, a non-integer count or a period
            that is not a positive duration.
    """
    levels = tuple(Level)
    if tuple(row.level for row in rows) != levels:
        have = [row.level.label for row in rows]
        raise TableError(
            f"wound table: expected the levels {[lv.label for lv in Level]}, got {have}"
        )
    for row in rows:
        name = row.level.label
        for cell in INT_CELLS:
            value = getattr(row, cell)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TableError(f"wound table: {name}.{cell}: got {value!r}; expected an integer")
        if row.max < 0:
            raise TableError(f"wound table: {name}.max: got {row.max}; expected 0 or more")
        if row.pain < 0 or row.mortality < 0:
            cell = "pain" if row.pain < 0 else "mortality"
            raise TableError(
                f"wound table: {name}.{cell}: got {getattr(row, cell)}; expected 0 or more"
            )
        for cell in PERIOD_CELLS:
            value = getattr(row, cell)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (0 < value < math.inf)
            ):
                raise TableError(
                    f"wound table: {name}.{cell}: got {value!r}; expected a positive duration"
                )


def row_from_mapping(level: Level, data: Mapping[str, object], where: str) -> LevelRow:
    """Build a row from a TOML mapping, parsing durations.

    Args:
        level: The level of the row.
        data: The cells, as in ``tables.toml``.
        where: A name for messages, e.g. ``"tables.toml: arpeges"``.

    Raises:
        TableError: On a missing or unknown column or a bad duration.
    """
    missing = [c for c in CELLS if c not in data]
    if missing:
        raise TableError(f"{where}.{level.label}: missing columns {missing}")
    unknown = sorted(set(data) - set(CELLS) - {"placeholder"})
    if unknown:
        raise TableError(f"{where}.{level.label}: unknown columns {unknown}; expected {CELLS}")
    cells: dict[str, object] = {}
    for cell in CELLS:
        value = data[cell]
        if cell in PERIOD_CELLS:
            try:
                value = parse_duration(value, allow_zero=False)
            except DurationError as exc:
                raise TableError(f"{where}.{level.label}.{cell}: {exc}") from None
        cells[cell] = value
    return LevelRow(level=level, placeholder=bool(data.get("placeholder", False)), **cells)  # type: ignore[arg-type]


@cache
def _data() -> dict[str, Any]:
    text = resources.files("simulator").joinpath("data/tables.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def default_table() -> WoundTable:
    """The table of RULES.md T1 (ruleset ``arpeges``) with the mental table of M1."""
    data = _data()
    physical = [
        row_from_mapping(lv, data["arpeges"][lv.label], "tables.toml: arpeges")
        for lv in PHYSICAL_LEVELS
    ]
    mental = [
        row_from_mapping(lv, data["mental"][lv.label], "tables.toml: mental")
        for lv in MENTAL_LEVELS
    ]
    return WoundTable(tuple(physical + mental))


@cache
def profiles() -> dict[str, Profile]:
    """The creature profiles shipped with the package, by name (``humanoid`` and examples)."""
    result = {}
    for name, data in _data()["profiles"].items():
        maxima = (int(data["light"]), int(data["grave"]), int(data["critical"]))
        if min(maxima) < 0:
            raise TableError(f"tables.toml: profiles.{name}: negative maximum {maxima}")
        result[name] = Profile(name=name, description=str(data["description"]), maxima=maxima)
    return result


def table_for_profile(name: str, base: WoundTable | None = None) -> WoundTable:
    """The table with the physical maxima of a creature profile.

    Raises:
        TableError: When no profile has that name.
    """
    known = profiles()
    if name not in known:
        raise TableError(f"unknown profile {name!r}; expected one of {sorted(known)}")
    table = base or default_table()
    return table.with_maxima(dict(zip(PHYSICAL_LEVELS, known[name].maxima, strict=False)))
