"""The project's main study (``make run``): every scenario of a directory, and its index.

:func:`run_directory` runs all the scenarios' chunks together on one backend, saves each
study in its own folder and writes ``README.md``, the index a designer opens first: each
scenario's question, its answer in one line and its main figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from simulator.errors import ScenarioError, UserError
from simulator.report.wording import answer
from simulator.studies.outdir import claim, record
from simulator.studies.result import FIRST_DAY_H, StudyResult, write_text

INDEX = "README.md"
"""The index of the main study, in its output folder."""

FORMATS = ("png", "svg")
"""The formats of the main study's figures."""


def run_directory(
    directory: Path,
    *,
    trials: int,
    seed: int,
    out: Path,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool = False,
) -> list[tuple[Path, StudyResult]]:
    """Run every ``*.toml`` scenario of ``directory`` and write the results and their index.

    Each scenario's results go to ``<out>/<file stem>/``: ``trials.parquet``,
    ``summary.csv``, ``summary.json`` and the figures in PNG and SVG. ``<out>/README.md``
    lists each scenario's question (its description), its answer in one line and its main
    figure. All scenarios' chunks run together on one backend.

    Raises:
        UserError: When the directory does not exist or holds no scenario.
    """
    from simulator.scenario.reading import load_scenario
    from simulator.studies.execution import (
        check_backend,
        discard_partials,
        execute,
        get_backend,
        make_plans,
    )

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
    check_backend(backend, workers, scheduler)  # every setting before the folders are made
    for path in paths:
        if path.stem == INDEX or path.stem.startswith("."):
            raise UserError(
                f"{path}: its results would go to {Path(out) / path.stem}/, which clashes with "
                f"the index {INDEX} or a hidden file; expected another file name"
            )
    claim(out, [INDEX], inputs=paths)
    for path, plan in zip(paths, plans, strict=True):
        plan.out = claim(Path(out) / path.stem, StudyResult.files(FORMATS), inputs=paths)
    frames = execute(plans, get_backend(backend, workers, scheduler), progress, discard=False)
    results = []
    for path, scenario, frame in zip(paths, scenarios, frames, strict=True):
        result = StudyResult(scenario, frame, seed)
        result.save(Path(out) / path.stem, formats=FORMATS)
        results.append((path, result))
    index = write_text(Path(out) / INDEX, index_markdown(results, directory, trials, seed))
    record(out, [index])
    discard_partials(plans)  # only now: a kill while saving can still be resumed
    return results


def index_markdown(
    results: Sequence[tuple[Path, StudyResult]], directory: Path, trials: int, seed: int
) -> str:
    """The ``README.md`` of the results: one section per scenario."""
    lines = [
        "# Results of the main study",
        "",
        f"Every scenario of `{directory.as_posix()}/`, {trials:,} trials each, seed {seed}. "
        "Written by `make run`; do not edit by hand. Intervals are 95% Wilson intervals.",
        "",
    ]
    for path, result in results:
        summary = result.summary_json()
        question = result.scenario.description.strip() or "(no description)"
        lines += [
            f"## {result.scenario.name}",
            "",
            f"*{question}*",
            "",
            f"**Answer:** {answer(summary, mental=result.has_mental_wounds)}",
            "",
            f"![Fate over campaign time: {result.scenario.name}]({path.stem}/fate.png)",
            "",
            f"Files: [`summary.csv`]({path.stem}/summary.csv), "
            f"[`summary.json`]({path.stem}/summary.json)"
            + (
                f", the first day: [`fate-first-day.png`]({path.stem}/fate-first-day.png)"
                if result.horizon_h > 2 * FIRST_DAY_H
                else ""
            )
            + f"; scenario `{path.as_posix()}`, "
            f"as simulated: [`scenario.toml`]({path.stem}/scenario.toml).",
            "",
        ]
    return "\n".join(lines)
