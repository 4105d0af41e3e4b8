"""What a report page is made of: tables of cells, inline figures, and the folder's files.

A cell keeps the text a person reads and, for a number, the file's own text of it
(``data-value``, with its column as ``data-key``): a page's numbers can be checked against
its CSV files. Figures are the folder's SVG files, inlined with their ids made unique to
the page (two figures' ``clip-path`` ids never clash).
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.report.i18n import exact_percent_text, hours_and_raw, number_text, percent_text

FIGURE_ORDER = (
    "fate-first-day",
    "fate",
    "causes",
    "time-to-heal",
    "aggravations",
    "first-aid",
    "stable-tests",
    "sweep",
    "compare",
    "balance",
    "tornado",
)
"""The figures a page shows first, in this order; any other figure follows, by name."""

TABLE_ROWS = 40
"""A CSV file no section reads is shown whole up to this many rows, else only linked."""


@dataclass(frozen=True)
class Cell:
    """One cell: the text shown; for a number its column (``key``) and the file's text."""

    text: str
    key: str = ""
    value: str = ""
    numeric: bool = False


@dataclass
class Table:
    """A table: a caption, a header, rows of cells, and the file it comes from."""

    caption: str
    header: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    source: str = ""
    note: str = ""


@dataclass
class Section:
    """A part of a page under its own heading: paragraphs, then tables."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    anchor: str = ""


@dataclass(frozen=True)
class Figure:
    """An inline figure: its SVG markup and the files it was read from."""

    stem: str
    svg: str
    files: tuple[str, ...]


def read_rows(path: Path) -> list[dict[str, str]]:
    """A CSV file's rows, every value as the file writes it."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def read_json(path: Path) -> Any:
    """A JSON file's content."""
    return json.loads(path.read_text(encoding="utf-8"))


def share(
    row: dict[str, str],
    key: str,
    decimals: int = 1,
    *,
    exact: bool = False,
    most: int | None = None,
) -> Cell:
    """A share of a CSV row as a percent cell (``—`` when empty or missing).

    ``exact``: an exact answer's share, to four decimals as every output shows one.
    ``most``: the most decimals, for a share shown without its interval
    (:func:`~simulator.report.i18n.trial_decimals`).
    """
    raw = row.get(key, "")
    if raw in ("", "nan", "None"):
        return Cell("—", key, raw, True)
    if exact:
        return Cell(exact_percent_text(float(raw)), key, raw, True)
    return Cell(percent_text(float(raw), decimals, most=most), key, raw, True)


def number(row: dict[str, str], key: str, decimals: int | None = 2) -> Cell:
    """A plain number of a CSV row as a cell (``—`` when empty or missing)."""
    raw = row.get(key, "")
    if raw in ("", "nan", "None"):
        return Cell("—", key, raw, True)
    return Cell(number_text(float(raw), None, decimals), key, raw, True)


def hours(row: dict[str, str], key: str) -> Cell:
    """A time in hours of a CSV row as days and hours (``—`` when empty)."""
    raw = row.get(key, "")
    if raw in ("", "nan", "None"):
        return Cell("—", key, raw, True)
    return Cell(hours_and_raw(float(raw)), key, raw, True)  # days: the file's hours beside


def text(value: object) -> Cell:
    """A cell of words."""
    return Cell(str(value))


def setting(raw: str, key: str = "") -> Cell:
    """A cell of a key's value as a CSV file holds it, for a person (the file's text kept).

    ``0.75`` is written as the language writes numbers (``0,75``), ``1.0`` as ``1``, a
    duration (``5min``, ``900.0`` seconds stay numbers) in the units a person uses
    (``5 min``); anything else (a level, ``true``) as it is.
    """
    from simulator.errors import DurationError
    from simulator.report.i18n import duration_text
    from simulator.rules.durations import parse_duration

    shown = raw
    try:
        number = float(raw)
    except ValueError:
        with contextlib.suppress(DurationError):
            shown = duration_text(parse_duration(raw))
    else:
        if math.isfinite(number):
            shown = number_text(float(f"{number:.6g}"))
    numeric = shown != raw or _numeric(raw)
    shown = {"True": "true", "False": "false"}.get(shown, shown)  # pandas' CSV: the file's words
    return Cell(shown, key, raw, numeric)


def raw_table(path: Path, caption: str) -> Table | None:
    """A CSV file as it is, when it has at most :data:`TABLE_ROWS` rows (else None)."""
    rows = read_rows(path)
    if not rows or len(rows) > TABLE_ROWS:
        return None
    header = list(rows[0])
    body = [
        [Cell(r.get(k) or "", k, r.get(k) or "", _numeric(r.get(k))) for k in header] for r in rows
    ]
    return Table(caption, header, body, source=path.name)


def _numeric(value: str | None) -> bool:
    try:
        float(value or "")
    except ValueError:
        return False
    return True


# --- figures --------------------------------------------------------------------------------

_HEAD = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.DOTALL)
_IDS = re.compile(r'\bid="([^"]+)"')


def inline_svg(markup: str, prefix: str) -> str:
    """An SVG file's markup for an HTML page: no XML prolog, ids prefixed with ``prefix``.

    Matplotlib names its clip paths and markers by hash, and every figure has ``figure_1``:
    prefixing every id (and every ``#id`` reference to it) keeps them unique on the page.
    """
    body = _HEAD.sub("", markup, count=1)
    ids = set(_IDS.findall(body))
    if not ids:
        return body

    def rename(match: re.Match[str]) -> str:
        head, name = match.group(1), match.group(2)
        return f"{head}{prefix}-{name}" if name in ids else match.group(0)

    return re.sub(r'(\bid="|url\(#|href="#)([^")]+)', rename, body)


_TEXTS = re.compile(r"<text\b[^>]*font-size: ([\d.]+)px[^>]*>(.*?)</text>", re.S)


def svg_title(markup: str) -> str:
    """A figure's title, read off its SVG: the words in its largest type (the title lines)."""
    import html

    found = [(float(size), re.sub(r"<[^>]+>", "", body)) for size, body in _TEXTS.findall(markup)]
    if not found:
        return ""
    largest = max(size for size, _ in found)
    lines = [html.unescape(text).strip() for size, text in found if size == largest]
    return ". ".join(line for line in lines if line)  # the title, then its subtitle


def labelled(svg: str, label: str) -> str:
    """The inline SVG as an image with its title for a screen reader (``role="img"``)."""
    from markupsafe import escape

    if not label:
        return svg
    return re.sub(r"<svg\b", f'<svg role="img" aria-label="{escape(label)}"', svg, count=1)


def figure_stems(folder: Path) -> list[str]:
    """The stems of the folder's SVG figures: :data:`FIGURE_ORDER` first, then by name."""
    stems = {name[: -len(".svg")] for name in folder_files(folder) if name.endswith(".svg")}
    known = [s for s in FIGURE_ORDER if s in stems]
    return known + sorted(stems - set(known))


def figures(folder: Path, prefix: str = "") -> list[Figure]:
    """Every SVG figure of ``folder``, inlined, with the files of the same stem."""
    found = []
    for stem in figure_stems(folder):
        markup = (folder / f"{stem}.svg").read_text(encoding="utf-8")
        files = tuple(n for n in folder_files(folder) if n.rpartition(".")[0] == stem)
        svg = labelled(inline_svg(markup, f"{prefix}{stem}"), svg_title(markup))
        found.append(Figure(stem, svg, files))
    return found


def ours(path: Path) -> bool:
    """Whether ``path`` is a file of its folder's result, for a report to read.

    In a folder the tool marks as its own, only the files its marker lists: a file of the
    user's that bears a name the tool writes (another result's ``summary.json`` copied in
    beside a sweep's) is never read as part of the result, nor shown under its title.
    """
    from simulator.runner.marker import read_marker

    if not path.is_file():
        return False
    marker = read_marker(path.parent)
    if marker is None or marker["damaged"]:
        return True
    return path.name in marker["files"] or path.name == "report.html"


def folder_files(folder: Path) -> list[str]:
    """The names of the folder's files a person may open (no hidden files, no folders).

    In a folder the tool marks as its own, only the files its marker lists (the result's,
    and ``report.html``): a file the user put there is never shown as part of the result.
    """
    from simulator.runner.marker import read_marker

    present = sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    marker = read_marker(folder)
    if marker is None or marker["damaged"]:
        return present
    return [n for n in present if n in marker["files"] or n == "report.html"]
