"""Scenario files (CONTRACT.md): TOML in, a validated :class:`~.model.Scenario` out.

Everything a user can get wrong is checked here, once, and every problem found is reported
together in one :class:`~simulator.errors.ScenarioError`; the engine never re-checks.

The steps are public so that a sweep can read a file once and build one scenario per grid
point::

    data = read_scenario_mapping(path)
    for point in grid:
        scenario = scenario_from_mapping(apply_overrides(data, point, str(path)), str(path))

:func:`load_scenario` does the three steps at once.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.errors import (
    MISSING,
    N_,
    Phrase,
    Problem,
    ScenarioError,
    TableError,
    UserError,
    display,
    os_reason,
    path_problem,
    phrase,
    toml_float,
)
from simulator.rules.durations import parse_duration
from simulator.rules.levels import LEVEL_NAMES, Level
from simulator.rules.table import (
    CELLS,
    PERIOD_CELLS,
    WoundTable,
    default_table,
    profiles,
    table_for_profile,
)
from simulator.scenario.checks import (
    Checker,
    Shown,
    read_activities,
    read_first_aid,
    read_healing,
    read_injuries,
    read_watch,
)
from simulator.scenario.model import (
    PatientSpec,
    Ruleset,
    Scenario,
)
from simulator.scenario.overrides import (
    Override,
    apply,
    attribute,
    drop_stale_translations,
    given_overrides,
    outranked,
    syntax_problems,
)
from simulator.scenario.settings import read_settings
from simulator.spelling import python_api

TOP_KEYS = (
    "name",
    "description",
    "name_fr",
    "description_fr",
    "ruleset",
    "horizon",
    "patient",
    "injuries",
    "first_aid",
    "watch",
    "healing",
    "activities",
    "rules",
)
PATIENT_KEYS = ("cp_rs", "rs_it", "profile", "maxima")
RULESETS = tuple(r.value for r in Ruleset)
NON_NEGATIVE_CELLS = ("max", "mortality", "pain")

_LINE = re.compile(r"at line (\d+)")

MAX_FILE_BYTES = 1_000_000
"""The largest scenario file read: scenarios are a few hundred bytes."""
_MB = (("n", MAX_FILE_BYTES // 1_000_000),)


# --- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioSource:
    r"""A scenario file as read once: its text and the mapping parsed from that very text.

    A copy saved with some values changed (the workbench's save-as, ``calibrate``'s
    ``<stem>.calibrated.toml``) is this text edited in place, comments kept
    (:func:`~simulator.scenario.overrides.edited_toml`): the file read again could have
    changed since, and no longer be the one the scenario was built from.

    Attributes:
        mapping: The parsed TOML document (not to be changed: copy it first).
        text: The text it was parsed from (without a byte order mark; each line ending
            read as ``\n``, as Python reads text).
        newline: How the file ended its lines: ``\r\n`` where every line ended so (an
            editor on Windows), else ``\n``; a copy ends its lines the same way.
    """

    mapping: dict[str, Any]
    text: str
    newline: str = "\n"


def read_scenario_mapping(path: str | Path) -> dict[str, Any]:
    """Read a scenario file as a plain TOML mapping, without checking its content.

    Args:
        path: The scenario file.

    Returns:
        The parsed TOML document.

    Raises:
        ScenarioError: When the file cannot be read or is not valid TOML (the problem names
            the line).
    """
    return read_scenario_source(path).mapping


def read_scenario_source(path: str | Path) -> ScenarioSource:
    """Read a scenario file as its text and the TOML mapping of that text, unchecked.

    Args:
        path: The scenario file.

    Returns:
        The text read and the parsed TOML document.

    Raises:
        ScenarioError: When the file cannot be read or is not valid TOML (the problem names
            the line).
    """
    refused = path_problem(path, N_("scenario file"))
    if refused is not None:
        raise UserError(refused)
    source = str(path)
    if Path(path).is_fifo() or Path(path).is_socket():  # opening one waits for a writer
        expected = N_("a scenario file, not a named pipe or socket (it would wait forever)")
        raise ScenarioError([Problem.of(source, "(file)", source, expected)])
    try:
        text, newline = bounded_lines(path, N_("a scenario file of at most {n} MB"))
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, FileNotFoundError):
            expected = N_("an existing scenario file (no such file)")
        elif isinstance(exc, IsADirectoryError):
            expected = N_(
                "a scenario file, not a directory (harmonies-sim study runs a folder of scenarios)"
            )
        elif isinstance(exc, UnicodeDecodeError):
            raise ScenarioError([Problem.of(source, "(file)", source, not_utf8(path))]) from None
        else:
            expected = N_("a readable scenario file ({detail})")
        detail = (("detail", os_reason(exc)),) if isinstance(exc, OSError) else ()  # fr too
        raise ScenarioError(
            [Problem.of(source, "(file)", source, Phrase(expected, detail))]
        ) from None
    return ScenarioSource(parse_toml(text, source), text, newline)


NOT_UTF8 = N_(
    "a UTF-8 text file (its byte {byte} at line {line}, column {column} is no UTF-8: the file "
    "was saved in another encoding, such as Latin-1 or Windows-1252; save it as UTF-8)"
)
"""What a file that is no UTF-8 was expected to be, where its first foreign byte is."""


def not_utf8(path: str | Path) -> Phrase:
    """What a file that is no UTF-8 was expected to be: said with its first foreign byte.

    The byte (``0xe8``, a Latin-1 ``è``) and where it is, line and column counted as an
    editor counts them, so that a designer finds the character to retype. A file that can
    no longer be read says only that UTF-8 was expected.
    """
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = data.rfind(b"\n", 0, start) + 1
        before = data[line_start:start].decode("utf-8", errors="replace")
        if data.count(b"\n", 0, start) == 0:
            before = before.removeprefix("\ufeff")  # a byte order mark is no column
        return phrase(
            NOT_UTF8,
            byte=f"0x{data[start]:02x}",
            line=data.count(b"\n", 0, start) + 1,
            column=len(before) + 1,
        )
    except OSError:
        pass
    return Phrase(N_("a UTF-8 text file"))


def bounded_text(path: str | Path, too_big: str) -> str:
    """A file's text, read as UTF-8 (a byte order mark, which some editors write, taken off).

    As :func:`bounded_lines` reads it (at most :data:`MAX_FILE_BYTES`).
    """
    return bounded_lines(path, too_big)[0]


def bounded_lines(path: str | Path, too_big: str) -> tuple[str, str]:
    r"""A file's text, read as UTF-8, and how it ended its lines.

    A byte order mark, which some editors write, is taken off; each line ending is read as
    ``\n``, and said to be ``\r\n`` where every line of the file ended so (else ``\n``).

    At most :data:`MAX_FILE_BYTES` are read: ``/dev/zero`` or a log file given by mistake is
    refused, never read whole into memory.

    Args:
        path: The file.
        too_big: What was expected, said when it is longer: a template with ``{n}``, its MB.

    Raises:
        ScenarioError: For a file longer than that, naming it.
        OSError: When it cannot be read; UnicodeDecodeError, when it is no UTF-8.
    """
    source = str(path)
    refused = ScenarioError([Problem.of(source, "(file)", source, Phrase(too_big, _MB))])
    if Path(path).is_file() and Path(path).stat().st_size > MAX_FILE_BYTES:
        raise refused
    with Path(path).open("r", encoding="utf-8-sig") as handle:
        text = handle.read(MAX_FILE_BYTES + 1)  # bounded: a device may never end
        newline = "\r\n" if handle.newlines == "\r\n" else "\n"  # read as \n, all the same
    if len(text) > MAX_FILE_BYTES:
        raise refused
    return text, newline


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """A TOML document read as the tool reads its files (floats with their text kept).

    Raises:
        ScenarioError: For text that is not TOML (the problem names the line), nested
            absurdly deep, or an integer of more digits than Python reads (4,300).
    """
    try:
        return tomllib.loads(text, parse_float=toml_float)
    except RecursionError:
        expected = N_("TOML nested a reasonable number of levels deep")
        raise ScenarioError([Problem(source, "(file)", Shown("…"), expected)]) from None
    except ValueError as exc:  # tomllib's TOMLDecodeError, or an integer of 4,300+ digits
        if not isinstance(exc, tomllib.TOMLDecodeError):
            expected = N_("valid TOML with numbers of a sensible size ({detail})")
            detail = (("detail", str(exc)),)
            raise ScenarioError(
                [Problem.of(source, "(file)", Shown("…"), Phrase(expected, detail))]
            ) from None
        raise ScenarioError([toml_problem(source, text, exc)]) from None


TOML_MESSAGES = (
    N_("Invalid statement"),
    N_("Expected newline or end of document after a statement"),
    N_("Cannot overwrite a value"),
    N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"),
    N_("Expected '=' after a key in a key/value pair"),
    N_("Invalid initial character for a key part"),
    N_("Unclosed array"),
    N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"),
    N_("Invalid hex value"),
    N_("Escaped character is not a Unicode scalar value"),
    N_("Unterminated string"),
    N_("Invalid date or datetime"),
    N_("Invalid value"),
)
"""tomllib's messages without a value in them (Python 3.11-3.13), translated where shown."""

TOML_TEMPLATES = (
    (re.compile(r"Expected (.+)"), N_("Expected {what}")),
    (re.compile(r"Found invalid character (.+)"), N_("Found invalid character {what}")),
    (re.compile(r"Cannot declare (.+) twice"), N_("Cannot declare {what} twice")),
    (re.compile(r"Cannot mutate immutable namespace (.+)"),
     N_("Cannot mutate immutable namespace {what}")),
    (re.compile(r"Cannot redefine namespace (.+)"), N_("Cannot redefine namespace {what}")),
    (re.compile(r"Duplicate inline table key (.+)"), N_("Duplicate inline table key {what}")),
    (re.compile(r"Illegal character (.+)"), N_("Illegal character {what}")),
)  # fmt: skip
"""tomllib's messages that hold a value (a key, a character), as templates."""

_WHERE = re.compile(r"^(.*) \((at line (\d+), column (\d+)|at end of document)\)$", re.DOTALL)


def toml_detail(exc: tomllib.TOMLDecodeError) -> Phrase | str:
    """The message of tomllib as a phrase, so that ``--lang fr`` says it in French.

    A message this version does not know stays as tomllib wrote it (English).
    """
    said = str(exc)
    match = _WHERE.match(said)
    if match is None:
        return said
    message, _, line, column = match.groups()
    worded: Phrase | str = message
    if message in TOML_MESSAGES:
        worded = Phrase(message)
    else:
        for pattern, template in TOML_TEMPLATES:
            found = pattern.fullmatch(message)
            if found is not None:
                worded = Phrase(template, (("what", found.group(1)),))
                break
    if line is None:
        return phrase("{message} (at end of document)", message=worded)
    return phrase(
        "{message} (at line {line}, column {column})", message=worded, line=line, column=column
    )


def toml_problem(source: str, text: str, exc: tomllib.TOMLDecodeError) -> Problem:
    """What is wrong with ``text`` as TOML: at its line, as written (a scenario, a calibration).

    A number written with a decimal comma (``cp_rs = 0,5``) is told with its point.
    """
    from simulator.scenario.checks import decimal_point

    detail = (("detail", toml_detail(exc)),)
    match = _LINE.search(str(exc))
    if match is None:  # "at end of document"
        return Problem.of(source, "end of file", MISSING, Phrase("valid TOML: {detail}", detail))
    number = int(match.group(1))
    lines = text.split("\n")  # TOML's lines: not splitlines, which also cuts at U+2028
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    key, equals, value = line.partition("=")
    written = value.split("#")[0].strip()
    fixed = decimal_point(written, (float,)) if equals else None
    if fixed is None and equals:  # horizon = 1,5d: a duration is a string, in quotes
        duration = decimal_point(written, (parse_duration,))
        fixed = None if duration is None else f'"{duration}"'
    said = Phrase("valid TOML: {detail}", detail)
    if fixed is None and equals and _a_duration(written):  # horizon = 3d: quotes forgotten
        said = Phrase(N_("valid TOML, a duration written in quotes: {fixed}"),
                      (("fixed", f'{key.strip()} = "{written}"'),))  # fmt: skip
    elif fixed is not None:  # cp_rs = 0,5 as a French hand writes it
        said = Phrase(N_("valid TOML, a number written with a decimal point: {fixed}"),
                      (("fixed", f"{key.strip()} = {fixed}"),))  # fmt: skip
    return Problem.of(source, f"line {number}", line, said)


def _a_duration(written: str) -> bool:
    """Whether ``written`` is a duration as a scenario file gives one, but without quotes."""
    if not written or written[0] in "\"'":
        return False
    try:
        parse_duration(written)
    except (ValueError, TypeError):
        return False
    return True


STUDY_TABLES = frozenset({"grid", "compare", "finding"})
"""The tables of a study description (``scenarios/studies/*.toml``), which no scenario has."""


@python_api
def load_scenario(path: str | Path, overrides: object = ()) -> Scenario:
    """Read, override and check a scenario file.

    Args:
        path: The TOML scenario file (CONTRACT.md).
        overrides: ``--set KEY=VALUE`` texts, applied in order; one such text alone, a
            mapping ``{"first_aid.level": 3}`` or ``(key, value)`` pairs of typed values, or
            None, as the studies take them.

    Returns:
        The validated scenario; its ``source`` is ``path`` as given.

    Raises:
        ScenarioError: With every problem found in the file and the overrides, together;
            a problem that an override brought names that override (see
            :func:`scenario_with_overrides`).
        UserError: For a ``path`` that is no text nor path.
    """
    if not isinstance(path, str | os.PathLike):  # load_scenario(3): a TypeError from open()
        raise UserError(phrase("got {value}; expected a scenario file's path", value=display(path)))
    source = str(path)
    overrides = given_overrides(overrides)  # one text, a mapping, pairs: as the studies take
    try:
        mapping = read_scenario_mapping(path)
    except ScenarioError as exc:  # the file is unusable; still report bad --set syntax
        raise ScenarioError(syntax_problems(overrides) + exc.problems) from None
    return scenario_with_overrides(mapping, overrides, source)


EMPTY = N_(
    "a scenario, not an empty file (it holds no key, only blank lines or comments): name, "
    "horizon and [patient] at least"
)
"""What a scenario file that holds no key was expected to be (one line, not one a key)."""


def scenario_with_overrides(
    data: Mapping[str, Any],
    overrides: Sequence[Override | str],
    source: str,
    *,
    flag: str = "overrides",
    more: Sequence[Override | str] = (),
    more_flag: str = "grid",
) -> Scenario:
    """Apply overrides to a scenario mapping, check it and build the scenario.

    Every problem is reported together. One that an override brought (a bad value or key
    it set, or a required key missing from a table it created) names the override, e.g.
    ``--set first_aid.levle=3 (on scenarios/x.toml): first_aid.levle: ...``; the others
    name the file.

    Args:
        data: The scenario file's mapping, as from :func:`read_scenario_mapping`.
        overrides: ``KEY=VALUE`` texts, applied in order.
        source: The scenario's file.
        flag: The option that gave the overrides, by its Python name (``"overrides"``): spelt
            in messages as the caller spells it (``--set``, ``overrides``:
            :mod:`simulator.spelling`); any other label is said as it is.
        more: Further ``KEY=VALUE`` texts applied after them (a sweep's point).
        more_flag: The option that gave those (``"grid"``: ``--grid``, ``grid``).

    Returns:
        The validated scenario.

    Raises:
        ScenarioError: With every problem found.
    """
    if not data and not overrides and not more:  # one line, not one a key it lacks
        raise ScenarioError([Problem.of(source, "(file)", source, EMPTY)])
    if STUDY_TABLES & set(data) and "injuries" not in data:  # one line, not one a table
        expected = N_(
            "a scenario file; this is a study description, which harmonies-sim study reads "
            "beside the scenario of the same name (run that scenario, or study its folder)"
        )
        raise ScenarioError([Problem.of(source, "(file)", source, expected)])
    if {"free", "target"} & set(data) and not {"horizon", "patient", "injuries"} & set(data):
        expected = N_(
            "a scenario file; this is a calibration file ([[free]] keys and [[target]] "
            "tables), which harmonies-sim calibrate runs"
        )
        raise ScenarioError([Problem.of(source, "(file)", source, expected)])
    result, problems = apply(data, overrides, flag=flag, on=source)
    result, later = apply(result, more, flag=more_flag, on=source)
    problems += later
    drop_stale_translations(result, [*overrides, *more])
    check = Checker(source, TOP_KEYS)
    scenario = _build(result, check)
    named = [(item, flag) for item in overrides] + [(item, more_flag) for item in more]
    problems += [attribute(p, data, named, source) for p in check.problems]
    problems += outranked(result, named, source)
    if problems or scenario is None:
        raise ScenarioError(problems)
    return scenario


def scenario_from_mapping(data: Mapping[str, Any], source: str) -> Scenario:
    """Check a scenario mapping and build the typed scenario.

    Args:
        data: The TOML document (overrides already applied).
        source: Where it came from (a path), named in problems and kept in ``source``.

    Returns:
        The validated scenario.

    Raises:
        ScenarioError: With every problem found, together.
    """
    check = Checker(source, TOP_KEYS)
    scenario = _build(data, check)
    if check.problems or scenario is None:
        raise ScenarioError(check.problems)
    return scenario


# --- checking and building ---------------------------------------------------------------


def _build(data: Mapping[str, Any], check: Checker) -> Scenario | None:
    """Read every section; ``None`` when a problem was found (all are in ``check``)."""
    check.unknown_keys(data, TOP_KEYS, "")
    name = check.read_str(data, "name", "", required=True, non_empty=True, one_line=True)
    description = check.read_str(data, "description", "", "")
    name_fr = check.read_str(data, "name_fr", "", "", one_line=True)
    description_fr = check.read_str(data, "description_fr", "", "")
    ruleset = check.read_choice(data, "ruleset", "", RULESETS, "arpeges", what=N_("rulesets"))
    horizon = check.read_duration(data, "horizon", "", allow_zero=False, required=True)
    patient, table = _patient_and_table(data, check)
    injuries = read_injuries(data, check)
    first_aid = read_first_aid(data, check)
    watch = read_watch(data, check)
    basic = ruleset is not None and Ruleset(ruleset) is Ruleset.BASIC
    healing = read_healing(data, check, basic)
    activities = read_activities(data, check)
    settings = read_settings(data, check)
    if check.problems or name is None or horizon is None or patient is None or table is None:
        return None
    return Scenario(
        name=name,
        horizon=horizon,
        patient=patient,
        table=table,
        injuries=injuries,
        first_aid=first_aid,
        watch=watch,
        healing=healing,
        activities=activities,
        settings=settings,
        ruleset=Ruleset(ruleset),
        description=description or "",
        source=check.source,
        name_fr=name_fr or "",
        description_fr=description_fr or "",
    )


def _patient_and_table(
    data: Mapping[str, Any], check: Checker
) -> tuple[PatientSpec | None, WoundTable | None]:
    """``[patient]`` and the wound table: defaults, profile, ``rules.table``, maxima."""
    if "patient" in data and not isinstance(data["patient"], dict):
        check.read_table(data, "patient")  # reports it
        _table_cells(data, check)
        return None, None
    patient = data.get("patient", {})
    check.unknown_keys(patient, PATIENT_KEYS, "patient")
    cp_rs = check.read_int(patient, "cp_rs", "patient", required=True)
    rs_it = check.read_int(patient, "rs_it", "patient", required=True)
    known = sorted(profiles())
    profile = check.read_choice(
        patient, "profile", "patient", known, "humanoid", what=N_("profiles")
    )
    maxima = _maxima(patient, check)
    cells = _table_cells(data, check)
    if cp_rs is None or rs_it is None or profile is None:
        return None, None
    spec = PatientSpec(cp_rs=cp_rs, rs_it=rs_it, profile=profile)
    try:
        table = table_for_profile(profile, default_table())
        for level, row in cells.items():
            table = table.with_cells(level, **row)
        table = table.with_maxima(maxima)
    except TableError as exc:  # pragma: no cover - every cell is checked above
        check.problem("rules.table", str(exc), "a valid wound table (T2)")
        return spec, None
    return spec, table


def _maxima(patient: Mapping[str, Any], check: Checker) -> dict[Level, int]:
    """``[patient.maxima]``: ``light = 4`` and so on, any level, 0 or more."""
    table = check.read_table(patient, "maxima", "patient")
    if table is None:
        return {}
    check.unknown_keys(table, LEVEL_NAMES, "patient.maxima")
    result = {}
    for name in LEVEL_NAMES:
        value = check.read_int(table, name, "patient.maxima", minimum=0)
        if value is not None:
            result[Level.parse(name)] = value
    return result


def _table_cells(data: Mapping[str, Any], check: Checker) -> dict[Level, dict[str, object]]:
    """The ``rules.table.<level>.<cell>`` overrides, typed (periods in seconds)."""
    rules = data.get("rules")
    table = check.read_table(rules, "table", "rules") if isinstance(rules, dict) else None
    if table is None:
        return {}
    check.unknown_keys(table, LEVEL_NAMES, "rules.table")
    result: dict[Level, dict[str, object]] = {}
    for name in LEVEL_NAMES:
        prefix = f"rules.table.{name}"
        row = check.read_table(table, name, "rules.table")
        if row is None:
            continue
        check.unknown_keys(row, CELLS, prefix)
        cells: dict[str, object] = {}
        for cell in CELLS:
            if cell not in row:
                continue
            if cell in PERIOD_CELLS:
                value = check.read_duration(row, cell, prefix, allow_zero=False)
            else:
                minimum = 0 if cell in NON_NEGATIVE_CELLS else None
                value = check.read_int(row, cell, prefix, minimum=minimum)
            if value is not None:
                cells[cell] = value
        result[Level.parse(name)] = cells
    return result


__all__ = [
    "load_scenario",
    "read_scenario_mapping",
    "scenario_from_mapping",
    "scenario_with_overrides",
]
