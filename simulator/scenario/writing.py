"""A scenario written back as a scenario file: every default filled in, every override applied.

What a study saves next to its results (``scenario.toml``) and what ``harmonies-sim validate
--show`` prints, so that a designer sees exactly what was simulated, and can run it again:
:func:`~simulator.scenario.reading.load_scenario` reads the text back to an equal scenario (the
round trip is tested on every scenario of the repository). Durations are written in the
largest unit that keeps them exact (``"15min"``, ``"1w"``). Of the wound table, the file
holds the cells that differ from the patient's profile (T1 with the profile's maxima), as
a scenario file would, so that ``--set patient.profile=...`` still means what it says; the
whole table in force is printed above them as a comment.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from simulator.rules.durations import MICROSECONDS, UNITS, microseconds
from simulator.rules.levels import Level, Track
from simulator.rules.table import CELLS, PERIOD_CELLS, default_table, table_for_profile
from simulator.scenario.model import Ruleset, Scenario

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
"""A key TOML reads bare; matched whole (``fullmatch``: a ``$`` would let a final newline in)."""


def _as_written(text: str) -> str:
    """The English phrase itself: what ``tr`` is when no language is asked for."""
    return text


def exact_duration(seconds: float) -> str:
    """A duration string of ``seconds``, e.g. ``900.0 -> "15min"``.

    It reads back (:func:`~simulator.rules.durations.parse_duration`) to ``seconds`` rounded
    to the microsecond, as every duration of a scenario is (RULES.md): to ``seconds`` itself
    for a duration read from a file.

    Args:
        seconds: A finite duration of zero or more, in seconds.

    Returns:
        A whole number of the largest unit when one is exact, else the seconds with up to
        six decimals.

    Raises:
        ValueError: For a negative or non-finite duration.
    """
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"duration: got {seconds!r} seconds; expected a finite value >= 0")
    micro = microseconds(seconds)
    if micro == 0:
        return "0s"
    for unit in ("w", "d", "h", "min", "s"):
        count, left = divmod(micro, int(UNITS[unit]) * MICROSECONDS)
        if left == 0:
            return f"{count}{unit}"
    whole, part = divmod(micro, MICROSECONDS)
    return f"{whole}.{part:06d}".rstrip("0") + "s"


def toml_value(value: object) -> str:
    """Write a Python value (bool, int, float, str, list, dict) as an inline TOML value.

    Raises:
        TypeError: For any other type, or a float that TOML cannot hold exactly.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(f"{value!r} has no place in a scenario file")
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"{value!r} ({type(value).__name__}) cannot be written as TOML")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string that reads back to exactly ``text``, whatever it holds.

    Quotes, backslashes and every control character (newlines, DEL included) are escaped, so
    no text can end the string or the line and write a key of its own.

    Raises:
        TypeError: For a lone surrogate, which no UTF-8 file can hold.
    """
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise TypeError(f"{text!r}: a lone surrogate cannot be written to a UTF-8 file")
    # JSON escapes '"', '\\' and the control characters below U+0020 as TOML reads them; DEL too.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_key(name: str) -> str:
    """A key as TOML writes it: bare where it can be, else a quoted string."""
    return name if _BARE_KEY.fullmatch(name) else toml_string(name)


def _is_table_array(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def to_toml(data: Mapping[str, Any]) -> str:
    """Write a mapping as a TOML document: each table's values, then its tables in order.

    Nested tables get dotted headers (``[rules.table.grave]``); an array of tables gets one
    ``[[name]]`` per element, whose elements may hold values only.
    """
    lines: list[str] = []
    _emit(lines, data, ())
    return "\n".join(lines).lstrip("\n") + "\n"


def _emit(lines: list[str], table: Mapping[str, Any], path: tuple[str, ...]) -> None:
    nested = {k: v for k, v in table.items() if isinstance(v, dict) or _is_table_array(v)}
    for key, value in table.items():
        if key not in nested:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    for key, value in nested.items():
        inner = (*path, key)
        dotted = ".".join(toml_key(p) for p in inner)
        if isinstance(value, dict):
            if not value or any(k not in _nested_keys(value) for k in value):
                lines += ["", f"[{dotted}]"]
            _emit(lines, value, inner)
            continue
        for item in value:
            if _nested_keys(item):
                raise TypeError(f"[[{dotted}]]: nested tables in an array of tables")
            lines += ["", f"[[{dotted}]]"]
            _emit(lines, item, inner)


def _nested_keys(table: Mapping[str, Any]) -> set[str]:
    return {k for k, v in table.items() if isinstance(v, dict) or _is_table_array(v)}


def scenario_to_mapping(scenario: Scenario) -> dict[str, Any]:
    """The scenario as a scenario file's mapping, every key given (CONTRACT.md).

    Under ``rules.table`` come only the cells that differ from the profile's table (T1 and
    the mental table, with the profile's maxima); ``[patient.maxima]`` becomes table cells.
    """
    data: dict[str, Any] = {"name": scenario.name}
    if scenario.description:
        data["description"] = scenario.description
    for key in ("name_fr", "description_fr"):  # the French a --lang fr shows
        if getattr(scenario, key):
            data[key] = getattr(scenario, key)
    data["ruleset"] = scenario.ruleset.value
    data["horizon"] = exact_duration(scenario.horizon)
    patient = scenario.patient
    data["patient"] = {"cp_rs": patient.cp_rs, "rs_it": patient.rs_it, "profile": patient.profile}
    if scenario.injuries:
        data["injuries"] = [
            {"at": exact_duration(i.at), "level": i.level.label, "count": i.count}
            for i in scenario.injuries
        ]
    if scenario.first_aid is not None:
        aid = scenario.first_aid
        data["first_aid"] = {
            "level": aid.level,
            "start": exact_duration(aid.start),
            "interval": exact_duration(aid.interval),
            "modifier": aid.modifier,
            **({} if aid.max_attempts is None else {"max_attempts": aid.max_attempts}),
            "self": aid.self_treat,
        }
    data["watch"] = {
        "neglect_probability": scenario.watch.neglect_probability,
        "neglect_at": [exact_duration(t) for t in scenario.watch.neglect_at],
    }
    if scenario.healing is not None:
        data["healing"] = {"level": scenario.healing.level, "modifier": scenario.healing.modifier}
    if scenario.activities:
        data["activities"] = [
            {"at": exact_duration(a.at), "modifier": a.modifier} for a in scenario.activities
        ]
    settings = scenario.settings
    data["rules"] = {
        "tie_succeeds": settings.tie_succeeds,
        "open_roll": settings.open_roll,
        "pain_recovery_per_hour": settings.pain_recovery_per_hour,
        "faint_duration": exact_duration(settings.faint_duration),
        "stable_survival_tests": settings.stable_survival_tests,
        "trigger_probability": settings.trigger_probability,
        "self_aid_pain_factor": settings.self_aid_pain_factor,
        "rest_after_unstable": settings.rest_after_unstable.value,
        "rest_per_level": settings.rest_per_level.value,
        "activity_breaks_rest": settings.activity_breaks_rest,
        "pain_floor_craziness": settings.pain_floor_craziness,
    }
    changed = {level.label: _changes(scenario, level) for level in Level}
    if any(changed.values()):
        data["rules"]["table"] = {name: row for name, row in changed.items() if row}
    return data


def _cells(row: object) -> dict[str, Any]:
    return {
        cell: exact_duration(getattr(row, cell)) if cell in PERIOD_CELLS else getattr(row, cell)
        for cell in CELLS
    }


def _changes(scenario: Scenario, level: Level) -> dict[str, Any]:
    """The cells of ``level`` that differ from the profile's table."""
    base = _cells(table_for_profile(scenario.patient.profile, default_table())[level])
    mine = _cells(scenario.table[level])
    return {cell: value for cell, value in mine.items() if value != base[cell]}


MENTAL_UNUSED = frozenset({"unstable_period", "stable_period", "watch_period"})
"""The cells of the table that no mental level uses (M3: stable, no survival test, no watch)."""


def _shown(level: Level, cell: str, value: object) -> str:
    """A cell of the table comment; ``—`` for one the level never uses (M3)."""
    return "—" if level.track is Track.MENTAL and cell in MENTAL_UNUSED else str(value)


def table_comment(scenario: Scenario, tr: Callable[[str], str] = _as_written) -> str:
    """The wound table in force, one line per level, for a comment above the TOML.

    ``tr`` translates the words (the command line's ``--lang``); keys and values stay.
    """
    header = [tr("level"), *CELLS]
    rows = [
        [lv.label, *(_shown(lv, c, v) for c, v in _cells(scenario.table[lv]).items())]
        for lv in Level
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    lines = [
        tr("The wound table in force (mortality: craziness for mental levels); the cells that"),
        tr("differ from the profile's table are set below, under [rules.table]."),
        tr("—: a cell mental wounds never use (they arrive stable, test no survival, have no "
           "watch: M3)."),
    ]  # fmt: skip
    for row in (header, *rows):
        pairs = list(zip(row, widths, strict=True))
        cells = [pairs[0][0].ljust(pairs[0][1]), *(c.rjust(w) for c, w in pairs[1:])]
        lines.append("  " + "  ".join(cells))
    return "\n".join(lines)


def absent_notes(scenario: Scenario, tr: Callable[[str], str] = _as_written) -> list[str]:
    """Notes on the keys left out (they have no value to write) and those that do not apply.

    ``tr`` translates them (the command line's ``--lang``).
    """
    notes = []
    basic = scenario.ruleset is Ruleset.BASIC
    if scenario.first_aid is None:
        notes.append(tr("no [first_aid]: nobody gives first aid (A3)"))
    elif basic:
        notes.append(tr("[first_aid] does not apply under the basic rules (B3)"))
    elif scenario.first_aid.max_attempts is None:
        notes.append(tr("no first_aid.max_attempts: no limit per unstable spell (A3)"))
    if scenario.healing is None:
        notes.append(tr("no [healing]: no healer, rests go on without healing sessions (R1, M3)"))
    elif basic:
        notes.append(
            tr("healing.level does not apply under the basic rules: the patient heals itself (B4)")
        )
    if not scenario.injuries:
        notes.append(tr("no [[injuries]]: nothing happens to the patient"))
    if not scenario.activities:
        notes.append(tr("no [[activities]]: no rough activity (X1)"))
    return notes


def comment_safe(text: str) -> str:
    r"""Text for one line of a TOML comment: every control character but tab escaped.

    A newline (or any line break TOML knows) in a comment would end it, and what follows
    would be read as keys: so the text ``a``, newline, ``b = 1`` is written ``a\nb = 1`` on
    one line. Lone surrogates (no UTF-8 file holds them) are escaped too.
    """
    return "".join(
        ch
        if ch == "\t" or (ord(ch) >= 32 and ord(ch) != 127 and not "\ud800" <= ch <= "\udfff")
        else repr(ch)[1:-1]
        for ch in text
    )


def scenario_to_toml(
    scenario: Scenario, comment: str = "", tr: Callable[[str], str] = _as_written
) -> str:
    """The scenario as the text of a scenario file, after an optional comment.

    Args:
        scenario: The scenario.
        comment: Lines put first, each prefixed with ``# ``; then what the keys left out
            mean, and the table in force.
        tr: Translates those words (the command line's ``--lang``); the TOML stays as is.

    Returns:
        TOML that :func:`~simulator.scenario.reading.load_scenario` reads back to an equal scenario.
    """
    notes = absent_notes(scenario, tr)
    heading = tr("Left out or not applying, and what that means:")
    lines = [
        *comment.splitlines(),
        *([""] if comment else []),
        *([heading, *(f"  {n}" for n in notes), ""] if notes else []),
        *table_comment(scenario, tr).splitlines(),
    ]
    head = "".join(f"# {comment_safe(line)}".rstrip() + "\n" for line in lines)
    return head + "\n" + to_toml(scenario_to_mapping(scenario))
