"""The editable cells of the workbench, and the ``--set`` overrides the page's edits are.

Every cell is one dotted key of the scenario file (``rules.table.grave.unstable_period``),
shown as ``--set`` would take its value (``15min``, ``3``, ``true``). An edit is a cell whose
value differs from the scenario as written (:func:`meaning`: ``15 min`` is ``15min``);
:func:`overrides` turns the edits into the very ``KEY=VALUE`` texts ``--set`` applies, so
the page's scenario is the command line's, checked by the same code as ``validate``
(:func:`load`). A problem that check finds is placed at its cell (:func:`placed`).
"""

from __future__ import annotations

import math
import os
import re
import shlex
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.errors import (
    MISSING,
    N_,
    DurationError,
    Phrase,
    Problem,
    ScenarioError,
    UserError,
    display,
    phrase,
)
from simulator.rules.durations import microseconds, parse_duration
from simulator.rules.levels import LEVEL_NAMES, MENTAL_LEVELS, PHYSICAL_LEVELS, Level, Track
from simulator.rules.table import CELLS, PERIOD_CELLS, default_table, profiles, table_for_profile
from simulator.scenario.model import PatientSpec, Ruleset, Scenario
from simulator.scenario.overrides import parse_override
from simulator.scenario.writing import exact_duration, scenario_to_mapping, toml_value
from simulator.spelling import Spelling, spelled

if TYPE_CHECKING:
    from simulator.scenario.reading import ScenarioSource

CHOICES: dict[str, tuple[str, ...]] = {
    "ruleset": tuple(r.value for r in Ruleset),
    "rules.rest_after_unstable": ("restart", "resume"),
    "rules.rest_per_level": ("fresh", "cumulative"),
}
"""Keys whose value is one of a few words."""

LIST_KEYS = ("watch.neglect_at",)
"""Keys whose value is a list of durations, typed as ``12h, 1d``."""

GROUPS = (
    "campaign",
    "patient",
    "injuries",
    "activities",
    "first_aid",
    "watch",
    "healing",
    "rules",
)
"""The page's sections besides the wound table, in order."""

_FIXED = {
    "campaign": ("name", "name_fr", "description", "description_fr", "ruleset", "horizon"),
    "patient": ("patient.cp_rs", "patient.rs_it", "patient.profile"),
    "first_aid": tuple(
        f"first_aid.{k}" for k in ("level", "start", "interval", "self", "modifier", "max_attempts")
    ),
    "watch": ("watch.neglect_probability", "watch.neglect_at"),
    "healing": ("healing.level", "healing.modifier"),
}


LITERAL_KEYS = frozenset({"name", "name_fr", "description", "description_fr"})
OPTIONAL_TEXTS = frozenset({"name_fr", "description", "description_fr"})
"""The texts a scenario may leave out: an emptied cell takes them out of a saved file."""
"""The cells whose text is taken as typed (quoted for ``--set``), never read as TOML."""


@dataclass(frozen=True)
class Cell:
    """One editable value of the page.

    Attributes:
        key: The dotted key (``first_aid.level``).
        group: The page's section (``table``, ``patient``...).
        value: Its text in the scenario as written ('' when the file leaves it out).
        kind: ``text``, ``bool`` (a check box), ``choice`` (a list) or ``list`` (durations).
        rulebook: The rulebook's value where there is one (table cells, ``[rules]``).
        choices: The words of a ``choice``.
    """

    key: str
    group: str
    value: str
    kind: str = "text"
    rulebook: str | None = None
    choices: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The cell for the page."""
        return {
            "key": self.key,
            "group": self.group,
            "value": self.value,
            "kind": self.kind,
            "rulebook": self.rulebook,
            "choices": list(self.choices),
            "literal": self.key in LITERAL_KEYS,  # its text as typed (meaning(): not read)
        }


def text_of(value: object) -> str:
    """A value as a cell shows it, and as ``--set`` reads it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(text_of(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _lookup(data: Mapping[str, Any], key: str) -> object:
    node: Any = data
    for part in key.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def _row(row: object) -> dict[str, str]:
    return {
        c: exact_duration(getattr(row, c)) if c in PERIOD_CELLS else str(getattr(row, c))
        for c in CELLS
    }


def table_levels(scenario: Scenario, mental: bool = False) -> tuple[Level, ...]:
    """The levels the page shows: physical, then mental ones when they matter.

    Mental when the scenario deals mental wounds, or when ``mental``: an injury's level just
    turned mental on the page.
    """
    mental = mental or any(injury.level.track is Track.MENTAL for injury in scenario.injuries)
    return PHYSICAL_LEVELS + (MENTAL_LEVELS if mental else ())


def file_maxima(path: Path) -> frozenset[str]:
    """The levels whose maximum the file's ``[patient.maxima]`` gives (none if unreadable)."""
    from simulator.scenario.overrides import maxima_given
    from simulator.scenario.reading import read_scenario_mapping

    try:
        return maxima_given(read_scenario_mapping(path))
    except UserError:
        return frozenset()


ROWS = ("injuries", "activities")
"""The arrays of tables the page shows as rows numbered from 1, in the file's order."""


def file_rows(path: Path) -> dict[str, tuple[int, ...]]:
    """Where each entry of the file's ``[[injuries]]`` and ``[[activities]]`` stands in time.

    A scenario holds them sorted by time (the file's order kept among equals); the page
    shows them in the file's order, so that its row ``n`` is the file's ``injuries[n-1]``,
    the entry that ``--set injuries.<n-1>...`` changes and that a problem names. The places
    are the reading's own (:func:`~simulator.scenario.checks.places_in_time`): a change of
    the reading's order moves the rows with it.

    Returns:
        For each array, the position in the scenario's sorted tuple of the file's entry at
        each index; an array left out when the file cannot say (its problems say why).
    """
    from simulator.scenario.checks import places_in_time
    from simulator.scenario.reading import read_scenario_mapping

    try:
        return places_in_time(read_scenario_mapping(path))
    except UserError:
        return {}


def cells(
    scenario: Scenario,
    maxima: Collection[str] = (),
    mental: bool = False,
    rows: Mapping[str, Sequence[int]] | None = None,
) -> list[Cell]:
    """Every cell of the page for a scenario as written.

    The mental rows come with ``mental`` (:func:`table_levels`). The max of a level in
    ``maxima`` (:func:`file_maxima`) is the key that wins,
    ``patient.maxima.<level>``: an edit of ``rules.table.<level>.max`` would change nothing
    there (CONTRACT.md: the maxima come last), and ``--set`` refuses it. The injuries and
    activities come in the file's order (``rows``, :func:`file_rows`; without it, or when it
    does not match, the scenario's order of time), each keyed by its index in the file.
    """
    data = scenario_to_mapping(scenario)
    for name in ROWS:  # the file's i-th entry is injuries.i: --set's, and the problems'
        order, entries = (rows or {}).get(name), data.get(name, [])
        if order is not None and sorted(order) == list(range(len(entries))):
            data[name] = [entries[k] for k in order]
    found = []
    book = table_for_profile(scenario.patient.profile, default_table())
    for level in table_levels(scenario, mental):
        mine, theirs = _row(scenario.table[level]), _row(book[level])
        for cell in CELLS:
            key = f"rules.table.{level.label}.{cell}"
            if cell == "max" and level.label in maxima:
                key = f"patient.maxima.{level.label}"
            found.append(Cell(key, "table", mine[cell], rulebook=theirs[cell]))
    defaults = scenario_to_mapping(Scenario(name="-", horizon=1.0, patient=PatientSpec(0, 0)))
    for group in GROUPS:
        if group == "injuries":
            keys = [
                f"injuries.{i}.{k}"
                for i in range(len(scenario.injuries))
                for k in ("at", "level", "count")
            ]
        elif group == "activities":  # X1's rough activities, as the file lists them
            keys = [
                f"activities.{i}.{k}"
                for i in range(len(scenario.activities))
                for k in ("at", "modifier")
            ]
        elif group == "rules":
            keys = [f"rules.{k}" for k in data["rules"] if k != "table"]
        else:
            keys = list(_FIXED[group])
        for key in keys:
            value = _lookup(data, key)
            book_value = _lookup(defaults, key) if group == "rules" else None
            kind = "text"
            choices: tuple[str, ...] = CHOICES.get(key, ())
            if key.endswith(".level") and key.startswith("injuries."):
                choices = LEVEL_NAMES
            if key == "patient.profile":
                choices = tuple(sorted(profiles()))
            if choices:
                kind = "choice"
            elif isinstance(value, bool) or key == "first_aid.self":
                kind, value = "bool", bool(value)
            elif key in LIST_KEYS:
                kind = "list"
            rulebook = None if book_value is None else text_of(book_value)
            found.append(
                Cell(key, group, "" if value is None else text_of(value), kind, rulebook, choices)
            )
    return found


def meaning(cell: Cell, text: str) -> object:
    """What a cell's text means, as ``--set`` reads it: ``15 min`` and ``15min`` are one value.

    The page's ``meaning()`` (``static/page.js``) says the same of a cell's text, for the
    rulebook's value shown under a cell and the edits it sends.

    Args:
        cell: The cell (its key and kind say how its text is read).
        text: The text typed in it, or the file's, or the rulebook's.

    Returns:
        A duration as its whole microseconds (RULES.md: one instant, however written), a
        number as its value (an integer apart from a float), a quoted text as the text, a
        list of durations as its items'; a name, a description, a choice, a check box or
        anything else as its text (stripped).
    """
    text = text.strip()
    if cell.key in LITERAL_KEYS or cell.kind in ("bool", "choice"):
        return text
    if cell.kind == "list":  # items as overrides() sends them: texts, each a duration
        return tuple(_duration(part.strip()) for part in text.split(",") if part.strip())
    try:
        _, value = parse_override(f"{cell.key}={text}")
    except UserError:
        return text
    if isinstance(value, str):
        return _duration(value)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("integer", value)
    if isinstance(value, float) and not math.isnan(value):
        return ("float", float(value))
    return text


def _duration(text: str) -> object:
    """A duration as its whole microseconds (``("duration", n)``), else ``("text", text)``."""
    try:
        return ("duration", microseconds(parse_duration(text)))
    except DurationError:
        return ("text", text)


def overrides(
    edits: Mapping[str, object], known: Sequence[Cell], lang: str = "en"
) -> tuple[list[str], list[dict[str, str]]]:
    """The ``--set`` texts of the page's edits, and the problems found before any check.

    Args:
        edits: ``{key: text}`` of the cells the designer changed.
        known: The cells of the scenario (no other key is taken).
        lang: The language of the problems (each said about its cell).

    Returns:
        The ``KEY=VALUE`` texts in the page's order, and ``{key, message}`` problems (an
        unknown key, a value that is not text, an emptied cell).
    """
    from simulator.web.words import word

    by_key = {cell.key: cell for cell in known}
    profile = by_key.get("patient.profile")
    moved = profile is not None and str(edits.get("patient.profile", profile.value)).strip() != (
        profile.value
    )  # another profile, another table: a table cell typed as the file's is an edit then
    texts, problems = [], []
    for key, raw in edits.items():
        cell = by_key.get(key)
        if cell is not None and isinstance(raw, str) and len(raw) > 1000:
            message = word("longer than 1000 characters; expected a value", lang)
            problems.append(_problem(key, message, lang))
            continue
        if cell is None or not isinstance(raw, str):  # named as the page names it away
            place = place_said(key, lang)  # injuries.1.count: injury row 2 (injuries[1].count)
            message = word("{key}: not a cell of this scenario", lang).format(key=place)
            problems.append({"key": key, "message": message, "where": ""})  # named once
            continue
        text = raw.strip()
        # the file's value written otherwise (15 min for 15min) is no change of the scenario
        same = meaning(cell, text) == meaning(cell, cell.value)
        if same and not (moved and cell.group == "table"):
            continue
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            problems.append(_problem(key, word("not text a file can hold", lang), lang))
            continue
        if cell.kind == "list":
            items = [part.strip() for part in text.split(",") if part.strip()]
            texts.append(f"{key}={toml_value(items)}")
        elif text == "" and key in OPTIONAL_TEXTS:  # taken out (the file saved holds none)
            texts.append(f"{key}={toml_value('')}")
        elif text == "":
            message = word("empty; expected a value (the file gives {value})", lang)
            message = message.format(value=cell.value)
            problems.append(_problem(key, message, lang))
        elif key in LITERAL_KEYS:  # a name is what was typed, quotes, newlines and all
            texts.append(f"{key}={toml_value(text)}")
        else:
            texts.append(f"{key}={text}")
    return texts, problems


@dataclass(frozen=True)
class PageSpelling(Spelling):
    """The command line's words, but a table the page's edits made is the edited cell's doing.

    The designer typed in a cell, never a ``--set``: "the file has no [first_aid]: your edit
    of the cell first_aid.level created it" (the command line's own: "--set created it").
    """

    name: str = "workbench"

    def creator(self, name: str, text: str) -> str | Phrase:
        """``your edit of the cell first_aid.level`` for the page's edits (``overrides``)."""
        if name != "overrides":
            return super().creator(name, text)
        key = text.partition("=")[0].strip()
        return phrase("your edit of the cell {key}", key=key)


PAGE_SPELLING = PageSpelling()
"""How the page's problems name what the designer did (:class:`PageSpelling`)."""


def load(
    path: Path, source: str, texts: Sequence[str], read: ScenarioSource | None = None
) -> Scenario:
    """The scenario file with the overrides, checked as ``validate`` checks it.

    ``read``: the file as read already (save-as writes that very text, edited), else it is
    read now. A problem is worded as the page's (:data:`PAGE_SPELLING`).

    Raises:
        UserError: With every problem (a :class:`ScenarioError`), as ``validate`` reports them.
    """
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

    data = read_scenario_mapping(path) if read is None else read.mapping
    with spelled(PAGE_SPELLING):
        return scenario_with_overrides(data, texts, source)


def placed(
    exc: UserError, known: Sequence[Cell], lang: str, root: Path | None = None
) -> list[dict[str, str]]:
    """Each problem of an error with the key of the cell it belongs to ('' for none).

    The page says a problem about its cell, not as the terminal does: beside the cell,
    ``got 'six'; expected ...`` (the cell is the key, the page is the ``--set``); elsewhere,
    with its key first. A problem of the whole file (not UTF-8, empty...) is only what was
    expected: the page names the file above it, where the terminal's ``(file): got
    'latin.toml'`` would name it twice. No message names the served folder (``root``).
    """
    from simulator.report.i18n import values_in
    from simulator.web.words import error_text, word

    keys = [cell.key for cell in known]
    problems: list[Problem] = exc.problems if isinstance(exc, ScenarioError) else []
    if not problems:
        return [{"key": "", "message": _unrooted(error_text(exc, lang), root)}]
    found = []
    for problem in problems:
        dotted = cell_key(problem.key)  # injuries[0].count is the cell injuries.0.count
        key = dotted if dotted in keys else ""
        if not key:
            key = next((k for k in keys if k.startswith(dotted + ".")), "")
        if problem.key == FILE_KEY:  # the page's file itself: named once, above the line
            message = word("expected {expected}", lang).format(
                expected=problem.expected_text(lambda text: word(text, lang), values_in(lang))
            )
        else:
            message = at_cell(problem, lang, with_key=key != dotted)
        found.append(_problem(key, _unrooted(message, root), lang))
    return found


def _problem(key: str, message: str, lang: str) -> dict[str, str]:
    """A problem for the page: its cell's key ('' for none), its message, and ``where``.

    ``where``, for a cell of a row only, names the cell away from it (the trace box says
    it before the message): :func:`place_said`, the row as the page numbers it. The page
    names any other cell by its key. (An empty ``where``: the message names its cell.)
    """
    found = {"key": key, "message": message}
    where = place_said(key, lang) if key else key
    return found | {"where": where} if where != key else found


def cell_key(key: str) -> str:
    """A problem's key as the page names its cell (``injuries[0].count``: ``injuries.0.count``).

    An item of a list (``watch.neglect_at[0]``) is the list's own cell.
    """
    import re

    key = re.sub(r"\[(\d+)\]$", "", key)  # the list's own cell
    return re.sub(r"\[(\d+)\]", r".\1", key)


FILE_KEY = "(file)"
"""The key of a problem of the whole file (not UTF-8, empty, not TOML...), not of a key."""


def at_cell(problem: Problem, lang: str, with_key: bool = False) -> str:
    """A problem as the page says it beside its cell: ``got 'six'; expected an integer...``.

    Args:
        problem: The problem (its source, a file or a ``--set``, is left out).
        lang: The page's language.
        with_key: Name the key first (a problem shown away from the key's cell).
    """
    from simulator.report.i18n import values_in
    from simulator.web.words import word

    shown = (
        word("missing", lang)
        if problem.value is MISSING
        else word("got {value}", lang).format(value=display(problem.value))
    )
    expected = problem.expected_text(lambda text: word(text, lang), values_in(lang))
    if with_key:
        template = word("{key}: {shown}; expected {expected}", lang)
        return template.format(key=place_said(problem.key, lang), shown=shown, expected=expected)
    return word("{shown}; expected {expected}", lang).format(shown=shown, expected=expected)


ROW_PLACES = {
    "injuries": N_("injury row {n} ({key})"),
    "activities": N_("activity row {n} ({key})"),
}
"""How a problem of an entry of :data:`ROWS` names it: by the row's number on the page,
counted from 1, then by its key as the file and ``--set`` count it, from 0."""

_ROW_KEY = re.compile(r"(injuries|activities)(?:\[(\d+)\]|\.(\d+))(?=$|[.\[])")


def place_said(key: str, lang: str) -> str:
    """A problem's key as the page says it away from its cell.

    An entry of ``[[injuries]]`` or ``[[activities]]`` is named by the row the page numbers
    (``injury row 2 (injuries[1].count)``): the key alone counts from 0, and the designer
    would fix the row numbered 1. Its key is the file's spelling (``injuries[1].count``,
    also the page's ``injuries.1.count``), which the file and ``--set`` take. A place in the
    file (``line 3``) in the page's language; any other key as written.
    """
    from simulator.report.i18n import place_text
    from simulator.web.words import word

    found = _ROW_KEY.match(key)
    if found is None:
        return place_text(key, lang)  # line 2: ligne 2
    index = int(found.group(2) or found.group(3))
    spelled = f"{found.group(1)}[{index}]{key[found.end() :]}"
    return word(ROW_PLACES[found.group(1)], lang).format(n=index + 1, key=spelled)


def _unrooted(message: str, root: Path | None) -> str:
    """A message with the served folder's path left out (its files named as the page names them)."""
    if root is None:
        return message
    return message.replace(f"{root}{os.sep}", "").replace(str(root), ".")


def command_line(source: str, texts: Sequence[str], method: str, trials: int, seed: int) -> str:
    """The ``harmonies-sim run`` line that computes the page's answer."""
    words = ["harmonies-sim", "run", source]
    words += ["--exact"] if method == "exact" else ["--trials", str(trials), "--seed", str(seed)]
    for text in texts:
        words += ["--set", text]
    return " ".join(shlex.quote(word) for word in words)
