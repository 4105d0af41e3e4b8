"""The project's main study (``make run``): every scenario of a directory, and its index.

:func:`run_directory` runs all the scenarios' chunks together on one backend, saves each
study in its own folder and writes ``README.md``, the index a designer opens first: each
scenario's question, its answer in one line and its main figure. The scenario file
``geraldine.toml``, the texts' worked example, also gets what a designer needs to read its
headline (:mod:`simulator.studies.texts_intent`): the chance of death by first-aid level and
cadence, the headline with and without the stable-period survival tests, and the finding in
words, in the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.errors import ScenarioError, UserError, path_problem
from simulator.report.pages import INDEX_HTML, write_index, write_report
from simulator.report.wording import answer
from simulator.studies import texts_intent
from simulator.studies.backends import BackendName
from simulator.studies.outdir import claim, record
from simulator.studies.result import FIRST_DAY_H, StudyResult, write_text

if TYPE_CHECKING:
    import pandas as pd

    from simulator.studies.exact import ExactResult
    from simulator.studies.plan import Plan

INDEX = "README.md"
"""The index of the main study, in its output folder."""

FORMATS = ("png", "svg")
"""The formats of the main study's figures."""


def run_directory(
    directory: str | Path,
    *,
    trials: int,
    seed: int,
    out: Path,
    workers: int | None = None,
    backend: BackendName = "local",
    scheduler: str | None = None,
    progress: bool = False,
    command: str | None = None,
) -> list[tuple[Path, StudyResult]]:
    """Run every ``*.toml`` scenario of ``directory`` and write the results and their index.

    Each scenario's results go to ``<out>/<file stem>/``: ``trials.parquet``,
    ``summary.csv``, ``summary.json`` and the figures in PNG and SVG. ``<out>/README.md``
    lists each scenario's question (its description), its answer in one line and its main
    figure, and says what wrote it (``command``: ``make run``, or the ``study`` command line).
    ``geraldine.toml`` gets the files of :mod:`~simulator.studies.texts_intent` too
    (its grid runs the trials divided by ``GRID_SHARE`` per point). All scenarios' chunks run
    together on one backend.

    Raises:
        UserError: When the directory does not exist or holds no scenario.
    """
    from simulator.scenario.reading import (
        load_scenario,
        read_scenario_mapping,
        scenario_with_overrides,
    )
    from simulator.studies.execution import (
        check_backend,
        discard_partials,
        execute,
        get_backend,
        make_plans,
        result_key,
    )

    problem = path_problem(directory, "folder of scenarios")
    if problem is not None:
        raise UserError(problem)
    directory = Path(directory)
    if not directory.is_dir():
        raise UserError(f"{directory}: expected a directory of scenario files (*.toml)")
    paths = sorted(directory.glob("*.toml"))
    if not paths:
        raise UserError(f"{directory}: no scenario files (*.toml) in it")
    scenarios, problems = [], []
    for path in paths:  # every file's problems at once, not the first file's only
        try:
            scenarios.append(load_scenario(path))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    plans = make_plans(
        scenarios, trials=trials, seed=seed, workers=workers, chunk_size=None, out=Path(out)
    )
    intent = next((i for i, p in enumerate(paths) if p.stem == texts_intent.STEM), None)
    extra = []
    if intent is not None:  # the grid's points, then the headline without stable tests
        data, source = read_scenario_mapping(paths[intent]), str(paths[intent])
        points = [
            scenario_with_overrides(data, o, source) for *_, o in texts_intent.grid_overrides()
        ]
        extra = make_plans(
            points,
            trials=texts_intent.grid_trials(trials),
            seed=seed,
            workers=workers,
            chunk_size=None,
            out=Path(out),
        )
        off = scenario_with_overrides(data, texts_intent.OFF, source)
        extra += make_plans(
            [off], trials=trials, seed=seed, workers=workers, chunk_size=None, out=Path(out)
        )
        for i, plan in enumerate(extra):
            plan.label = f"{texts_intent.STEM}-{i}"
    check_backend(backend, workers, scheduler)  # every setting before the folders are made
    for path in paths:
        if path.stem == INDEX or path.stem.startswith("."):
            raise UserError(
                f"{path}: its results would go to {Path(out) / path.stem}/, which clashes with "
                f"the index {INDEX} or a hidden file; expected another file name"
            )
    every = plans + extra
    stems = [path.stem for path in paths]
    claim(out, [INDEX, INDEX_HTML], inputs=paths, identity=result_key(every, [INDEX, *stems]))
    for i, (path, plan) in enumerate(zip(paths, plans, strict=True)):
        names = StudyResult.files(FORMATS) + (texts_intent.files(FORMATS) if i == intent else [])
        mine = [plan, *extra] if i == intent else [plan]
        plan.out = claim(
            Path(out) / path.stem, names, inputs=paths, identity=result_key(mine, names)
        )
    for plan in extra:
        plan.out = plans[intent].out  # type: ignore[index]
    frames = execute(every, get_backend(backend, workers, scheduler), progress, discard=False)
    results = []
    for path, scenario, frame in zip(paths, scenarios, frames[: len(plans)], strict=True):
        result = StudyResult(scenario, frame, seed)
        result.save(Path(out) / path.stem, formats=FORMATS)
        results.append((path, result))
    findings = {}
    if intent is not None:
        path, result = results[intent]
        findings[path.stem] = _texts_intent(result, extra, frames[len(plans) :], Path(out))
    index = write_text(
        Path(out) / INDEX,
        index_markdown(results, directory, trials, seed, findings, command=command),
    )
    page = write_index(out, stems, directory, trials, seed, findings)
    discard_partials(every)
    # only now: a kill while saving can still be resumed
    record(out, [index, page], complete=True)
    return results


def _texts_intent(
    result: StudyResult, plans: Sequence[Plan], frames: Sequence[pd.DataFrame], out: Path
) -> str:
    """Save Géraldine's grid and headline beside her results; return the finding."""
    folder = out / texts_intent.STEM
    grid = texts_intent.grid_frame(frames[:-1])
    headline = texts_intent.headline_frame(result.trials, frames[-1])
    off = StudyResult(plans[-1].scenario, frames[-1], result.seed)
    written = texts_intent.save(
        folder, grid, headline, (result.curves(), off.curves()), name=result.title, formats=FORMATS
    )
    record(folder, [*written, write_report(folder)])
    return texts_intent.finding(grid, headline, result.scenario)


def index_markdown(
    results: Sequence[tuple[Path, StudyResult | ExactResult]],
    directory: Path,
    trials: int | None,
    seed: int,
    findings: dict[str, str] | None = None,
    *,
    command: str | None = None,
    eps: float | None = None,
) -> str:
    """The ``README.md`` of the results: one section per scenario, in the language in force.

    ``trials`` None: exact answers (``study --exact``, to ``eps``). ``findings`` maps a
    scenario's file stem to the finding of :mod:`~simulator.studies.texts_intent`, written
    with its figures after the answer. ``command``: what wrote it (``make run``, or the
    ``study`` command line), said in the first lines.
    """
    from simulator.report.i18n import number_text, tr
    from simulator.report.wording import scenario_text

    findings = findings or {}
    folder = f"`{directory.as_posix()}/`"
    if trials is None:
        intro = tr(
            "Every scenario of {folder}, computed exactly (`--exact`, eps {eps}; each share's "
            "true value lies within its dropped mass above it)."
        ).format(folder=folder, eps=f"{eps:g}")
    else:
        intro = tr("Every scenario of {folder}, {n} trials each, seed {seed}.").format(
            folder=folder, n=number_text(trials), seed=seed
        )
    written = tr("Written by harmonies-sim; do not edit by hand.")
    if command is not None:
        written = tr("Written by {command}; do not edit by hand.").format(command=f"`{command}`")
    head = f"{intro} {written}"
    if trials is not None:
        head += " " + tr("Intervals are 95% Wilson intervals.")
    lines = ["# " + tr("Results of the main study"), "", head, ""]
    for path, result in results:
        summary = result.summary_json()
        name, description = scenario_text(result.scenario)
        question = description.strip() or tr("(no description)")
        stem = path.stem
        files = f"[`summary.csv`]({stem}/summary.csv), [`summary.json`]({stem}/summary.json)"
        if result.horizon_h > 2 * FIRST_DAY_H:
            first_day = f"[`fate-first-day.png`]({stem}/fate-first-day.png)"
            files += tr(", the first day: {link}").format(link=first_day)
        files_line = tr("Files: {files}; scenario {scenario}, as simulated: {simulated}.").format(
            files=files,
            scenario=f"`{path.as_posix()}`",
            simulated=f"[`scenario.toml`]({stem}/scenario.toml)",
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
            f"![{caption}]({stem}/fate.png)",
            "",
            *_finding_lines(stem, findings.get(stem), trials or 0),
            files_line,
            "",
        ]
    return "\n".join(lines)


FINDING_START = "<!-- finding: written by make run from results/geraldine/*.csv -->"
FINDING_END = "<!-- /finding -->"
"""The markers around the finding, in this index and in the project's README."""


def _finding_lines(stem: str, finding: str | None, trials: int) -> list[str]:
    """The finding and the figures that back it, for the index (none without a finding)."""
    if finding is None:
        return []
    per_point = texts_intent.grid_trials(trials)
    from simulator.report.i18n import number_text, tr

    figures = tr(
        "The chance of death by first-aid level and time between tries ({n} trials per cell; "
        "{grid}), and the headline with the stable-period survival tests on and off ({tests}):"
    ).format(
        n=number_text(per_point),
        grid=f"[`first-aid.csv`]({stem}/first-aid.csv)",
        tests=f"[`stable-tests.csv`]({stem}/stable-tests.csv)",
    )
    return [
        f"**{tr('What the texts intend')}.** " + FINDING_START,
        finding,
        FINDING_END,
        "",
        f"![{tr('Chance of death by first-aid level and cadence')}]({stem}/first-aid.png)",
        "",
        figures,
        "",
        f"![{tr('The headline with stable-period survival tests on and off')}]"
        f"({stem}/stable-tests.png)",
        "",
    ]
