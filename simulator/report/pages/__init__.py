"""Report pages: one self-contained HTML file per study folder, and the main study's index.

:func:`write_report` writes ``report.html`` into a study's output folder, read from the
files the folder holds: its answer and tables from its CSV files (every number as the file
writes it), every SVG figure it holds inline (text as text), the scenario as simulated and
links to every file. :func:`write_index` writes the main study's ``index.html`` beside its
``README.md``, with the same headings, questions, answers, figures and finding.

A page asks for nothing but itself (no script, no font, no style sheet from elsewhere),
opens from the disk, prints cleanly (a print style sheet), and the same folder gives the
same bytes. It speaks the language in force (:func:`simulator.report.i18n.language`).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.files import atomic_write
from simulator.report.i18n import (
    bound_spaces,
    colon,
    current_language,
    mass_text,
    ntr,
    number_text,
    tr,
)
from simulator.report.pages import sections
from simulator.report.pages.calibrate import READ as CALIBRATION_READ
from simulator.report.pages.calibrate import calibrate as calibrate_section
from simulator.report.pages.pieces import (
    Figure,
    Section,
    Table,
    figures,
    folder_files,
    ours,
    raw_table,
    read_json,
    read_rows,
)
from simulator.report.pages.words import t

if TYPE_CHECKING:
    import jinja2

REPORT = "report.html"
"""The report page of a study, in its output folder."""

INDEX_HTML = "index.html"
"""The main study's index page, beside its ``README.md``."""

__all__ = ["INDEX_HTML", "REPORT", "index_html", "report_html", "write_index", "write_report"]


@dataclass
class Page:
    """What a page shows, in order."""

    title: str
    lines: list[str] = field(default_factory=list)
    question: str = ""
    sections: list[Section] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    scenarios: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


@cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("simulator.report.pages", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _render(template: str, **context: Any) -> str:
    env = _environment()
    css = env.loader.get_source(env, "page.css")[0]  # type: ignore[union-attr]
    html = env.get_template(template).render(
        lang=current_language(), css=css, t=t, colon=colon(), **context
    )
    return _french_spaces(html) if current_language() == "fr" else html


_TAG = re.compile(r"(<[^>]*>)")
_KEPT_AS_IS = frozenset({"script", "style", "svg", "pre", "code", "textarea"})
"""Elements whose text is data, a figure or a command line: their spaces stay as they are."""


def _french_spaces(html: str) -> str:
    """A French page's text with no-break spaces before ``: ; ? ! %`` (and inside « »).

    Only the text between tags, outside :data:`_KEPT_AS_IS`: no attribute (a number's
    ``data-value``), no figure and no command line is touched.
    """
    parts: list[str] = []
    inside: list[str] = []
    for part in _TAG.split(html):
        found = re.match(r"<(/?)\s*([A-Za-z0-9]+)", part) if part.startswith("<") else None
        if found is not None:
            closing, name = found.group(1) == "/", found.group(2).lower()
            if name in _KEPT_AS_IS and closing and inside and inside[-1] == name:
                inside.pop()
            elif name in _KEPT_AS_IS and not closing and not part.endswith("/>"):
                inside.append(name)
            parts.append(part)
        elif part.startswith("<"):
            parts.append(part)  # a comment, a doctype
        else:
            parts.append(part if inside else bound_spaces(part))
    return "".join(parts)


def _scenario(folder: Path, name: str = "scenario.toml") -> tuple[dict[str, Any], str]:
    path = folder / name
    if not ours(path):
        return {}, ""
    source = path.read_text(encoding="utf-8")
    try:
        return tomllib.loads(source), source
    except tomllib.TOMLDecodeError:
        return {}, source


def _lines(folder: Path) -> list[str]:
    """The line under the title: trials and seed, or the exact answer's dropped mass."""
    for name in ("summary.csv", "sweep.csv"):
        if ours(folder / name):
            rows = read_rows(folder / name)
            if not rows:
                return []
            row = rows[0]
            if row.get("method") == "exact":  # the largest mass any point dropped
                mass = max(float(r.get("dropped_mass") or 0.0) for r in rows)
                return [t("exact (dropped mass {m})").format(m=mass_text(mass))]
            count = int(float(row["trials"] or 0))
            if name == "summary.csv":
                what = ntr("{n} trial, seed {seed}", "{n} trials, seed {seed}", count)
            else:
                what = ntr(
                    "{n} trial per point, seed {seed}", "{n} trials per point, seed {seed}", count
                )
            n = number_text(count, None, 0)
            return [what.format(n=n, seed=row["seed"]), t("Intervals are 95% Wilson intervals.")]
    return []


def report_page(folder: Path, title: str | None = None, *, drawn: bool = True) -> Page:
    """What the report of ``folder`` shows, read from its files (``drawn``: its figures too)."""
    folder = Path(folder)
    names = ("scenario.toml", "scenario-a.toml", "scenario-b.toml")
    read = {n: _scenario(folder, n) for n in names if ours(folder / n)}
    data = next(iter(read.values()), ({}, ""))[0]
    page = Page(title or sections.said(data, "name") or folder.name, _lines(folder))
    if len(read) == 2:  # a comparison: each side with its overrides (and file), as compare told
        a, b = (sections.said(read[n][0], "name") for n in names[1:])
        if ours(folder / "compare.json"):
            sides = read_json(folder / "compare.json")
            a, b = (
                sections.side_title(sides.get(side) or {}, folder / f"scenario-{side}.toml")
                for side in "ab"
            )
        page.title = title or tr("A: {a}  vs  B: {b}").format(a=a, b=b)
    page.question = sections.said(data, "description").strip()
    page.sections += sections.study(folder, sections.mental_wounds(data))
    page.sections += sections.sweep(folder) + sections.compare(folder)
    page.sections += sections.balance(folder) + sections.sensitivity(folder)
    page.sections += calibrate_section(folder)
    if ours(folder / "balance.json"):
        data = read_json(folder / "balance.json")
        page.title = title or page.title
        if data.get("method") == "monte-carlo":
            page.lines.append(_at_each_value(int(data["trials"]), data["seed"]))
    if ours(folder / "sensitivity.json"):  # how its numbers were made, as balance's
        rows = read_json(folder / "sensitivity.json")
        first = rows[0] if isinstance(rows, list) and rows else {}
        if first.get("method") == "monte-carlo" and first.get("trials") is not None:
            page.lines.append(_at_each_value(int(first["trials"]), first["seed"]))
    heading, tables = sections.extras(folder)
    if tables:  # a study description's extra studies, in its own words
        page.sections.append(Section(heading or t("Extra studies"), [], tables, "texts"))
    others = [_other(folder / n) for n in folder_files(folder) if n.endswith(".csv")]
    tables = [x for x in others if x is not None]
    if tables:
        page.sections.append(Section(t("Other tables"), [], tables, "tables"))
    page.figures = figures(folder) if drawn else []
    page.scenarios = [(n, source) for n, (_, source) in read.items()]
    page.files = [n for n in folder_files(folder) if n != REPORT]
    return page


def _at_each_value(trials: int, seed: object) -> str:
    """A balance's or a sensitivity's method line, as the terminal writes it."""
    line = ntr(
        "Monte Carlo: {trials} trial at each value, seed {seed}, the same seeds at every value",
        "Monte Carlo: {trials} trials at each value, seed {seed}, the same seeds at every value",
        trials,
    )
    return line.format(trials=number_text(trials), seed=seed)


def _other(path: Path) -> Table | None:
    """A CSV file no section reads, as a table (when short)."""
    if path.name in sections.READ | CALIBRATION_READ or path.name in sections.extras_files(
        path.parent
    ):
        return None
    return raw_table(path, t("Table from {file}").format(file=path.name))


def report_html(folder: str | Path, title: str | None = None) -> str:
    """The text of ``report.html`` for ``folder`` (read from the files it holds)."""
    return _render("report.html.j2", page=report_page(Path(folder), title))


def write_report(folder: str | Path, title: str | None = None) -> Path:
    """Write ``report.html`` into ``folder`` atomically; list it with the folder's results.

    Args:
        folder: A study's output folder, its other files written.
        title: The page's title when the folder does not name its scenario.

    Returns:
        The file written.
    """
    page = report_html(folder, title)
    return atomic_write(Path(folder) / REPORT, lambda tmp: tmp.write_text(page, encoding="utf-8"))


def index_html(
    out: Path,
    stems: Sequence[str],
    directory: Path,
    trials: int | None,
    seed: int,
    findings: dict[str, str] | None = None,
    title: str | None = None,
    left_out: Sequence[str] = (),
) -> str:
    """The text of the main study's ``index.html``: one section per scenario.

    Args:
        out: The study's folder (``<out>/<stem>/`` holds each scenario's results).
        stems: The scenarios' file stems, in order.
        directory: The folder of scenarios.
        trials: Trials per scenario; None for exact answers.
        seed: The seed.
        findings: A finding (text) for some stems, shown with their extra studies.
        title: The page's title (by default the main study's).
        left_out: Why each scenario left out was (over ``--max-states`` for ``--exact``):
            said under the title, as the README says it, never left out silently.
    """
    findings = findings or {}
    folder = directory.as_posix() + "/"
    if trials is None:
        lines = [t("Every scenario of {folder}, computed exactly.").format(folder=folder)]
    else:
        lines = [
            ntr(
                "Every scenario of {folder}, {n} trial each, seed {seed}.",
                "Every scenario of {folder}, {n} trials each, seed {seed}.",
                trials,
            ).format(folder=folder, n=number_text(trials, None, 0), seed=seed),
            t("Intervals are 95% Wilson intervals."),
        ]
    parts = []
    for stem in stems:
        page = report_page(out / stem, drawn=False)
        grid, compare = _extra_stems(out / stem)
        shown = [f for f in figures(out / stem, f"{stem}-") if f.stem in ("fate", grid, compare)]
        texts = next((s for s in page.sections if s.anchor == "texts"), None)
        parts.append(
            {
                "stem": stem,
                "page": page,
                "title": page.title,
                "figures": shown,
                "finding": findings.get(stem),
                "heading": texts.title if texts is not None else t("Extra studies"),
                "grid": grid,
                "compare": compare,
            }
        )
    names = Counter(part["title"] for part in parts)
    for part in parts:  # two files of one name (a copy saved by serve): told apart
        if names[part["title"]] > 1:
            part["title"] = f"{part['title']} ({part['stem']}.toml)"
    title = title or t("Results of the main study")
    if left_out:
        lines.append(t("Left out (too many states for --exact; use Monte Carlo):"))
        lines += list(left_out)
    return _render("index.html.j2", title=title, lines=lines, parts=parts)


def _extra_stems(folder: Path) -> tuple[str | None, str | None]:
    """The stems of a study description's grid and comparison in ``folder`` (None: none)."""
    words = sections.extras_words(folder)
    stems = [
        str(words[part]["file"]).removesuffix(".csv") if part in words else None
        for part in ("grid", "compare")
    ]
    return stems[0], stems[1]


def write_index(
    out: str | Path,
    stems: Sequence[str],
    directory: Path,
    trials: int | None,
    seed: int,
    findings: dict[str, str] | None = None,
    title: str | None = None,
    left_out: Sequence[str] = (),
) -> Path:
    """Write the main study's ``index.html`` into ``out`` atomically (see :func:`index_html`)."""
    page = index_html(Path(out), stems, directory, trials, seed, findings, title, left_out)
    return atomic_write(Path(out) / INDEX_HTML, lambda tmp: tmp.write_text(page, encoding="utf-8"))
