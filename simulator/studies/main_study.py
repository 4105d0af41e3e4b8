"""The project's main study (``make run``): every scenario of a directory, and its index.

:func:`run_directory` studies all the scenarios with one method (Monte Carlo runs all their
chunks together on one backend), saves each study in its own folder and writes
``README.md``, the index a designer opens first: each scenario's question, its answer in one
line and its main figure. A scenario with a study description beside it
(``studies/<stem>.toml``, :mod:`simulator.scenario.described`) also gets the extra studies it
describes (a grid, a comparison) and their finding in words, in the index.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from simulator.errors import (
    N_,
    Phrase,
    ScenarioError,
    UserError,
    fill,
    note,
    path_problem,
    phrase,
    raise_all,
)
from simulator.files import user_path
from simulator.report.pages import INDEX_HTML, write_index, write_report
from simulator.report.wording import answer
from simulator.runner.outdir import check_claim, claim, record, release
from simulator.runner.writers import write_text
from simulator.scenario.described import Extras, find_extras
from simulator.spelling import python_api
from simulator.studies.method import Exact, Method
from simulator.studies.result import FIRST_DAY_H, StudyResult

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.studies.result import Estimate

INDEX = "README.md"
"""The index of the main study, in its output folder."""

FORMATS = ("png", "svg")
"""The formats of the main study's figures."""


def _tell_unmatched_descriptions(directory: Path, stems: set[str]) -> None:
    """A note for each entry of ``studies/`` that no scenario of the folder reads.

    A study description is read beside the scenario of its own name: one named after no
    scenario (a typo), or a folder where its file should be, would be left out without a
    word, and the study's README then lacks what the designer wrote.
    """
    from simulator.scenario.described import FOLDER

    folder = directory / FOLDER
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.suffix != ".toml":
            continue
        if not entry.is_file():
            note(phrase("{path}: left out; a study description is a file", path=entry))
        elif entry.stem not in stems:
            note(
                phrase(
                    "{path}: left out; a study description is read beside the scenario of "
                    "its own name, and {folder} has no {name}",
                    path=entry,
                    folder=directory,
                    name=f"{entry.stem}.toml",
                )
            )


def scenarios_of(directory: str | Path) -> tuple[Path, list[Path], list[Scenario]]:
    """The folder, its scenario files and their scenarios (every file's problems at once)."""
    from simulator.scenario.reading import load_scenario

    problem = path_problem(directory, N_("folder of scenarios"))
    if problem is not None:
        raise UserError(problem)
    directory = Path(directory)
    if not directory.exists():  # a mistyped name: said so, not only what was expected
        raise UserError(
            phrase(
                "{path}: no such folder; expected a directory of scenario files (*.toml)",
                path=directory,
            )
        )
    if not directory.is_dir():
        raise UserError(
            phrase("{path}: expected a directory of scenario files (*.toml)", path=directory)
        )
    paths = sorted(directory.glob("*.toml"))
    for odd in sorted(p for p in directory.iterdir() if p.suffix.lower() == ".toml"):
        if odd.suffix != ".toml" and odd.is_file():  # X.TOML: not left out silently
            note(
                phrase(
                    "{path}: left out; a scenario file's name ends in .toml, in lower case",
                    path=odd,
                )
            )
    if not paths:
        raise UserError(phrase("{path}: no scenario files (*.toml) in it", path=directory))
    _tell_unmatched_descriptions(directory, {p.stem for p in paths})
    scenarios, problems = [], []
    for path in paths:  # every file's problems at once, not the first file's only
        try:
            scenarios.append(load_scenario(path))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    return directory, paths, scenarios


def _extra_scenarios(path: Path, extras: Extras) -> tuple[list[Scenario], list[Scenario]]:
    """The scenarios of a description's grid points, and its changed side (if any)."""
    from simulator.report.i18n import colon
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

    data, source = read_scenario_mapping(path), str(path)
    points = []
    if extras.grid is not None:
        axes = f"{extras.path}{colon()}grid.axis"  # what set them: the description, not --set
        points = [
            scenario_with_overrides(data, changes, source, flag=axes)
            for _, changes in extras.grid.points()
        ]
    changed = []
    if extras.compare is not None:
        told = f"{extras.path}{colon()}compare.set"
        changed = [scenario_with_overrides(data, extras.compare.changes, source, flag=told)]
    return points, changed


@python_api
def run_directory(
    directory: str | Path,
    method: Method | None = None,
    *,
    out: str | Path,
    command: str | None = None,
    told: Callable[[Path, StudyResult], None] | None = None,
    figures: bool = True,
    **sampling: Any,
) -> list[tuple[Path, StudyResult]]:
    """Study every ``*.toml`` scenario of ``directory``; write the results and their index.

    Each scenario's results go to ``<out>/<file stem>/`` (its summary, figures in PNG and
    SVG...). ``<out>/README.md`` lists each scenario's question (its description), its answer
    in one line and its main figure. A scenario with a study description
    (``<directory>/studies/<stem>.toml``) gets its extra studies too. Monte Carlo runs all
    the chunks together on one backend. An exact answer over ``max_states`` (or its time
    budget) is left out of the index; once the others are written, a
    :class:`~simulator.errors.UserError` names every one left out.

    Args:
        directory: The folder of scenarios.
        method: :class:`~simulator.studies.method.MonteCarlo` or
            :class:`~simulator.studies.method.Exact` (None: Monte Carlo with ``sampling``).
        out: The output folder.
        command: What the index says wrote it (``make run``, or the ``study`` command line).
        told: Given each scenario's file and result as soon as its trials are done, before
            its files and figures are written (the command line prints its answer then).
        figures: False leaves every figure and report page out (``--no-figures``): the
            index's Markdown then names the files alone.
        **sampling: Without a method, Monte Carlo's settings (``trials``, ``seed``...).

    Raises:
        UserError: When the directory does not exist or holds no scenario.
    """
    out = user_path(out)
    from simulator.report.i18n import tr
    from simulator.studies.api import method_of

    chosen = method_of(method, sampling)
    chosen.check()
    directory, paths, scenarios = scenarios_of(directory)
    extras = {p.stem: e for p in paths if (e := find_extras(directory, p.stem)) is not None}
    for found in extras.values():
        found.check()
    own: list[Any] = chosen.prepare(scenarios).split()  # chunked as one run: Sampling|Solving
    more: dict[str, tuple[Any, Any]] = {}
    changed_of = {}
    for stem, found in extras.items():
        path = directory / f"{stem}.toml"
        points, changed = _extra_scenarios(path, found)
        grid_method = chosen.share(found.grid.share) if found.grid is not None else chosen
        more[stem] = (grid_method.prepare(points), chosen.prepare(changed))
        changed_of[stem] = (points, changed[0] if changed else None)
    raise_all(  # every clashing name at once, one error: line each (CONTRACT)
        [
            UserError(
                phrase(
                    "{path}: its results would go to {folder}/, which clashes with the index "
                    "{index} or a hidden file; expected another file name",
                    path=path,
                    folder=Path(out) / path.stem,
                    index=f"{INDEX}, {INDEX_HTML}",
                )
            )
            for path in paths
            if path.stem.casefold() in (INDEX.casefold(), INDEX_HTML.casefold())
            or path.stem.startswith(".")
        ]
    )
    groups = [own[i] + more[p.stem][0] + more[p.stem][1] if p.stem in more else own[i]
              for i, p in enumerate(paths)]  # fmt: skip
    work: Any = own[0]  # every scenario's own study, then the extra studies, in order
    for group in [*own[1:], *(part for stem in stems_of(paths) if stem in more
                              for part in more[stem])]:  # fmt: skip
        work = work + group
    stems = [path.stem for path in paths]
    writes = []
    for path in paths:
        found_extras = extras.get(path.stem)
        names = StudyResult.files(FORMATS, chosen.method)
        names += found_extras.files(FORMATS) if found_extras is not None else []
        writes.append(names)
    for path, group, names in zip(paths, groups, writes, strict=True):  # before any deletion
        check_claim(
            Path(out) / path.stem,
            names,
            inputs=paths,
            identity=group.identity(names),
            within=out,
        )
    top = [INDEX, INDEX_HTML]
    claim(out, top, inputs=paths, identity=work.identity([INDEX, *stems]), with_folders=True,
          resumes=work.runs())  # fmt: skip
    for path, group, names in zip(paths, groups, writes, strict=True):
        folder = claim(
            Path(out) / path.stem,
            names,
            inputs=paths,
            identity=group.identity(names),
            within=out,
            resumes=group.runs(),
        )
        group.place(folder)
    if isinstance(chosen, Exact):
        described_in = [str(e.path) if (e := extras.get(p.stem)) else "" for p in paths]
        per_group, refused = _solve_each(own, [more.get(p.stem, ()) for p in paths], described_in)
    else:
        per_group, refused = _regroup(list(work.run(None)), paths, more), []
    results, findings = [], {}
    for path, scenario, group, mine in zip(paths, scenarios, groups, per_group, strict=True):
        if not mine:  # left out (over --exact's limits): its folder let go (gone if empty)
            release(Path(out) / path.stem, left_out=True)
            continue
        result = StudyResult(scenario, mine[0])
        if told is not None:  # the answer first, then the files (CONTRACT.md)
            told(path, result)
        result.save(Path(out) / path.stem, formats=FORMATS, figures=figures)
        results.append((path, result))
        if path.stem in extras and len(mine) == _size(group):
            folder = Path(out) / path.stem
            finding = _save_extras(
                extras[path.stem], result, mine[1:], changed_of[path.stem], folder, figures
            )
            if finding is not None:
                findings[path.stem] = finding
    text = index_markdown(
        results, directory, chosen, findings, extras, command=command, figures=figures
    )
    from simulator.report.i18n import value_shown  # 2 945 949 states, as the terminal

    left_out = [fill(r.template, r.args, tr, value_shown) for r in refused]
    if refused:
        text += "\n" + tr("Left out (too many states for --exact; use Monte Carlo):") + "\n\n"
        text += "".join(f"- {line}\n" for line in left_out)
    index = write_text(Path(out) / INDEX, text)
    trials = None if isinstance(chosen, Exact) else chosen.trials
    seed = 0 if isinstance(chosen, Exact) else chosen.seed
    written = [index]
    if figures:  # the index page shows each scenario's figure
        stems = [p.stem for p, _ in results]
        title = study_title(directory, command)
        page = write_index(out, stems, directory, trials, seed, findings, title, left_out)
        written.append(page)
    work.done()  # only now: a kill while saving can still be resumed
    record(out, written, complete=True)
    raise_all([UserError(reason) for reason in refused])  # one error: line each
    return results


def stems_of(paths: Sequence[Path]) -> list[str]:
    """The file stems of scenario files, in order."""
    return [path.stem for path in paths]


def _size(group: Any) -> int:
    return len(group.plans) if hasattr(group, "plans") else len(group.scenarios)


def _regroup(
    estimates: Sequence[Estimate], paths: Sequence[Path], more: dict[str, tuple[Any, Any]]
) -> list[list[Estimate]]:
    """Each scenario's estimates (its own, then its extra studies'), from the run's order."""
    own, rest = list(estimates[: len(paths)]), list(estimates[len(paths) :])
    found = []
    for i, path in enumerate(paths):
        count = sum(_size(part) for part in more.get(path.stem, ()))
        found.append([own[i], *rest[:count]])
        rest = rest[count:]
    return found


def _solve_each(
    own: Sequence[Any], more: Sequence[Sequence[Any]], described_in: Sequence[str]
) -> tuple[list[list[Estimate]], list[Phrase]]:
    """Each scenario's exact answers, then its extra studies'.

    What is over the limits is left out (a scenario, or only its extra studies, named by
    their description's file in ``described_in``), its reason kept.
    """
    found: list[list[Estimate]] = []
    refused: list[Phrase] = []
    for mine, extra, description in zip(own, more, described_in, strict=True):
        try:
            answers = list(mine.run(None))
        except UserError as exc:
            found.append([])
            refused.append(_reason(exc))
            continue
        try:
            for part in extra:
                answers += part.run(None)
        except UserError as exc:
            refused.append(
                phrase(
                    "{reason}; left out: the extra studies of {file} (the scenario's own "
                    "answer is written)",
                    reason=_reason(exc),
                    file=description,
                )
            )
        found.append(answers)
    return found, refused


def _reason(exc: UserError) -> Phrase:
    """Why a scenario was left out: the error's phrase (its English when it has none)."""
    return exc.phrase if exc.phrase is not None else Phrase("{text}", (("text", str(exc)),))


def _save_extras(
    extras: Extras,
    result: StudyResult,
    more: Sequence[Estimate],
    scenarios: tuple[list[Scenario], Scenario | None],
    out: Path,
    figures: bool = True,
) -> str | None:
    """Save a scenario's extra studies beside its results; return the finding (if any)."""
    from simulator.studies import extras as described

    points, changed = scenarios
    grid = [StudyResult(s, e) for s, e in zip(points, more, strict=False)]
    count = len(points)
    sides = None if changed is None else (result, StudyResult(changed, more[count]))
    written = described.save(extras, out, grid, sides, FORMATS if figures else ())
    record(out, [*written, write_report(out)] if figures else written)
    return extras.finding(out)


def index_markdown(
    results: Sequence[tuple[Path, StudyResult]],
    directory: Path,
    method: Method,
    findings: dict[str, str] | None = None,
    extras: dict[str, Extras] | None = None,
    *,
    command: str | None = None,
    figures: bool = True,
) -> str:
    """The ``README.md`` of the results: one section per scenario, in the language in force.

    ``findings`` maps a scenario's file stem to the finding of its study description
    (``extras``), written with its figures after the answer. ``command``: what wrote it
    (``make run``, or the ``study`` command line), said in the first lines.
    """
    from simulator.report.i18n import ntr, number_text, tr
    from simulator.report.wording import scenario_text

    findings, extras = findings or {}, extras or {}
    folder = f"`{directory.as_posix()}/`"
    if isinstance(method, Exact):
        intro = tr(
            "Every scenario of {folder}, computed exactly (`--exact`, eps {eps}; each share's "
            "true value lies within its dropped mass above it)."
        ).format(folder=folder, eps=f"{method.eps:g}")
    else:
        intro = ntr(
            "Every scenario of {folder}, {n} trial each, seed {seed}.",
            "Every scenario of {folder}, {n} trials each, seed {seed}.",
            method.trials,
        ).format(folder=folder, n=number_text(method.trials), seed=method.seed)
    written = tr("Written by harmonies-sim; do not edit by hand.")
    if command is not None:
        written = tr("Written by {command}; do not edit by hand.").format(command=f"`{command}`")
    head = f"{intro} {written}"
    if not isinstance(method, Exact):
        head += " " + tr("Intervals are 95% Wilson intervals.")
    lines = ["# " + study_title(directory, command), "", head, ""]
    names = Counter(scenario_text(result.scenario)[0] for _, result in results)
    for path, result in results:
        summary = result.summary_json()
        name, description = scenario_text(result.scenario)
        name = markdown_text(name)
        if names[scenario_text(result.scenario)[0]] > 1:  # two files of one name: told apart
            name = f"{name} ({markdown_text(path.name, keep='_')})"  # a_b.toml stays literal
        question = markdown_text(description.strip()) or tr("(no description)")
        found = extras.get(path.stem)
        stem = path.stem
        link = quote(stem)  # a Markdown link: a space or a parenthesis escaped
        files = f"[`summary.csv`]({link}/summary.csv), [`summary.json`]({link}/summary.json)"
        if figures and result.horizon_h > 2 * FIRST_DAY_H:
            first_day = f"[`fate-first-day.png`]({link}/fate-first-day.png)"
            files += tr(", the first day: {link}").format(link=first_day)
        files_line = tr("Files: {files}; scenario {scenario}, as simulated: {simulated}.").format(
            files=files,
            scenario=f"`{path.as_posix()}`",
            simulated=f"[`scenario.toml`]({link}/scenario.toml)",
        )
        caption = tr("Fate over campaign time: {name}").format(name=name)
        lines += [
            f"## {name}",
            "",
            f"*{question}*",
            "",
            tr("**Answer:** {answer}").format(
                answer=answer(summary, mental=result.has_mental_wounds)
            ),
            "",
            *([f"![{caption}]({link}/fate.png)", ""] if figures else []),
            *_finding_lines(stem, findings.get(stem), found, method, figures),
            files_line,
            "",
        ]
    return "\n".join(lines)


MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#!{}])")
"""What Markdown (and the HTML it lets through) would read as markup in a scenario's own words."""


def markdown_text(text: str, keep: str = "") -> str:
    """A scenario's name or question as Markdown shows it literally: its markup escaped.

    ``<script>``, ``*``, ``|``, ``[l](javascript:…)`` in a name are the user's words, to be
    read as written (``index.html`` and ``report.html`` escape them as HTML). ``keep``: the
    characters left as they are (a file name's ``_``, literal within a word in GitHub's
    Markdown).
    """
    return MARKDOWN_SPECIAL.sub(lambda m: m[1] if m[1] in keep else "\\" + m[1], text)


def study_title(directory: Path, command: str | None) -> str:
    """The index's title: the main study's (``make run``'s), or the study of ``directory``."""
    from simulator.report.i18n import tr

    if command == "make run":
        return tr("Results of the main study")
    return tr("Results of the study of {folder}").format(folder=f"{directory.as_posix()}/")


FINDING_END = "<!-- /finding -->"
"""The marker after the finding, in this index and in the project's README."""


def finding_start(stem: str) -> str:
    """The marker before the finding of scenario ``stem``, in the index and the README."""
    return f"<!-- finding: written by make run from results/{stem}/*.csv -->"


def worded(part: object, name: str) -> str | None:
    """A study description's text in the language in force: its ``<name>_fr`` under French."""
    from simulator.report.i18n import current_language

    own: str | None = getattr(part, name)
    if current_language() == "en":
        return own
    return getattr(part, f"{name}_{current_language()}", None) or own


def _finding_lines(
    stem: str, finding: str | None, extras: Extras | None, method: Method, figures: bool = True
) -> list[str]:
    """The finding and the figures that back it, for the index (none without a finding)."""
    if finding is None or extras is None:
        return []
    from simulator.report.i18n import ntr, number_text, tr

    link = quote(stem)  # a Markdown link: a space or a parenthesis escaped
    said = worded(extras, "heading")
    heading = f"**{said}** " if said else ""
    lines = [heading + finding_start(stem), finding, FINDING_END, ""]
    grid, compare = extras.grid, extras.compare
    if grid is not None:
        per_point = method.share(grid.share).trials if not isinstance(method, Exact) else None
        cells = (
            ntr("{n} trial per cell", "{n} trials per cell", per_point).format(
                n=number_text(per_point)
            )
            if per_point is not None
            else tr("exact")
        )
        if figures:
            lines += [f"![{worded(grid, 'caption')}]({link}/{grid.name}.png)", ""]
        about = tr("{about} ({cells}; {file})").format(
            about=worded(grid, "about"),
            cells=cells,
            file=f"[`{grid.name}.csv`]({link}/{grid.name}.csv)",
        )
    if compare is not None:
        other = f"{worded(compare, 'about')} ([`{compare.name}.csv`]({link}/{compare.name}.csv))"
        both = tr("{first}, and {second}")
        about = both.format(first=about, second=other) if grid is not None else other
        about = about[0].upper() + about[1:]
    if grid is not None or compare is not None:  # what the figures show, or the files alone
        lines += [tr("{text}:").format(text=about) if figures else f"{about}.", ""]
    if compare is not None and figures:
        lines += [f"![{worded(compare, 'caption')}]({link}/{compare.name}.png)", ""]
    return lines
