"""The Python API of Monte Carlo studies: :func:`run_study`, :func:`run_sweep`, :func:`run_compare`.

Each cuts its studies into chunks, runs them on a backend and assembles the frames
(:mod:`simulator.studies.execution`: reproducible whatever the workers, backend or chunk size, and
resumable after an interruption when an output directory is given), then wraps them in
:class:`~simulator.studies.result.StudyResult` and its kin, which compute summaries and draw
figures.

Every argument, and the output directory, is checked before anything runs. The finished
chunks of a run with an output directory are removed only once its result files are
written, so a run killed while writing them resumes (without simulating again) and writes
them all anew.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import pandas as pd

from simulator.errors import ScenarioError, UserError
from simulator.studies.backends import BackendName
from simulator.studies.execution import (
    check_backend,
    check_sizes,
    discard_partials,
    execute,
    get_backend,
    make_plans,
    result_key,
)
from simulator.studies.outdir import claim, release

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.studies.result import CompareResult, StudyResult, SweepResult

_Result = TypeVar("_Result", "StudyResult", "SweepResult", "CompareResult")


# --- the Python API -------------------------------------------------------------------------


def _load(
    scenario: Scenario | str | Path,
    overrides: Sequence[str] = (),
    more: Sequence[str] = (),
    more_flag: str = "--set",
) -> Scenario:
    """The scenario, or its file read with ``overrides`` then ``more`` (named ``more_flag``)."""
    if isinstance(scenario, str | Path):
        from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

        data = read_scenario_mapping(scenario)
        return scenario_with_overrides(
            data, overrides, str(scenario), more=more, more_flag=more_flag
        )
    if overrides or more:
        raise UserError("overrides apply to scenario files; give a path, not a Scenario")
    return scenario


def _inputs(*given: object) -> list[str | os.PathLike[str]]:
    """The files among a command's scenarios (never written over by its results)."""
    return [item for item in given if isinstance(item, str | os.PathLike)]


class _Settings(NamedTuple):
    """How a study runs: the public functions' shared arguments, in their order."""

    trials: int
    seed: int
    workers: int | None
    out: str | os.PathLike[str] | None
    backend: BackendName
    scheduler: str | None
    chunk_size: int | None
    progress: bool


def _run(
    scenarios: Sequence[Scenario],
    settings: _Settings,
    writes: Sequence[str] = (),
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> tuple[list[pd.DataFrame], Callable[[_Result, bool], _Result]]:
    """Check every setting, make the output directory, start the backend, run the chunks.

    Args:
        scenarios: The studies to run.
        settings: How.
        writes: Every file the result may write into the output folder (checked first).
        inputs: The files read, never written over.

    Returns:
        One ``trials`` frame per scenario, and ``finish(result, figures)``: it saves the
        result in the output directory (if any), then removes the finished chunks, and
        returns the result.

    Raises:
        UserError: For a bad setting or an output directory that cannot be written.
    """
    plans = make_plans(
        scenarios,
        trials=settings.trials,
        seed=settings.seed,
        workers=settings.workers,
        chunk_size=settings.chunk_size,
        out=None,
    )
    check_backend(settings.backend, settings.workers, settings.scheduler)
    identity = result_key(plans, writes)
    folder = None
    if settings.out is not None:
        folder = claim(settings.out, writes, inputs=inputs, identity=identity)
    for plan in plans:
        plan.out = folder
    try:
        backend = get_backend(settings.backend, settings.workers, settings.scheduler)
        frames = execute(plans, backend, settings.progress, discard=False)
    except BaseException:
        if folder is not None:
            release(folder)  # a notebook's Ctrl-C: the folder is free for the next command
        raise

    def finish(result: _Result, figures: bool) -> _Result:
        if folder is not None:
            try:
                result.save(folder, figures=figures)
            except BaseException:
                release(folder)
                raise
        discard_partials(plans)  # only now: a run killed while saving can still resume
        return result

    return frames, finish


def run_study(
    scenario: Scenario | str | Path,
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: BackendName = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    *,
    overrides: Sequence[str] = (),
    figures: bool = True,
) -> StudyResult:
    """Run a Monte Carlo study of one scenario.

    Local workers are started with ``spawn``: a script (not a notebook) that runs with
    several workers must call this under ``if __name__ == "__main__":``.

    Example:
        >>> result = run_study("scenarios/geraldine.toml", trials=2_000, seed=1)
        >>> result.summary_json()["p_dead"]  # doctest: +SKIP

    Args:
        scenario: A :class:`~simulator.scenario.model.Scenario`, or the path of a scenario file.
        trials: Number of trials.
        seed: The study's seed; trial ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``.
        workers: Worker processes (None: all cores).
        out: A directory for ``trials.parquet``, ``summary.csv``, ``summary.json`` and the
            figures, and for the partial chunks that let an interrupted run resume; None
            writes nothing.
        backend: ``"local"`` or ``"dask"``.
        scheduler: The Dask scheduler's address (dask only).
        chunk_size: Trials per chunk (None: up to 2,000, at least 4 chunks per worker).
        progress: Draw a progress bar on stderr.
        overrides: ``KEY=VALUE`` overrides, as ``--set`` (scenario files only).
        figures: With ``out``, also draw the figures (PNG).

    Returns:
        The trials frame and what is computed from it.

    Raises:
        UserError: For a bad scenario file, override, or argument.
    """
    from simulator.studies.result import StudyResult

    loaded = _load(scenario, overrides)
    settings = _Settings(trials, seed, workers, out, backend, scheduler, chunk_size, progress)
    (frame,), finish = _run([loaded], settings, StudyResult.files(), _inputs(scenario))
    return finish(StudyResult(loaded, frame, seed, tuple(overrides)), figures)


def toml_literal(value: object) -> str:
    """Write a grid value (bool, number, string, list, dict) as a TOML value.

    Raises:
        UserError: For a value TOML cannot hold.
    """
    from simulator.scenario.writing import toml_value

    try:
        return toml_value(value)
    except TypeError:
        raise UserError(f"--grid: got {value!r}; expected numbers, booleans or strings") from None


MAX_POINTS = 10_000
"""The most points a sweep may have."""


def key_path(key: str) -> tuple[str, ...]:
    """A dotted key as its parts, however written: ``injuries[0].at`` is ``injuries.0.at``."""
    from simulator.scenario.overrides import parse_override

    try:
        parts, _ = parse_override(f"{key}=0")
    except ScenarioError:
        return (key,)
    return tuple(str(int(p)) if p.isdigit() else p for p in parts)


def check_grid_keys(keys: Sequence[str]) -> None:
    """Refuse grid keys that overlap, so that no point is labelled with a value it does not use.

    Two keys overlap when they name the same key (``injuries.0.at`` and ``injuries[0].at``)
    or one lies inside the other (``patient`` and ``patient.cp_rs``): the later would change
    what the earlier's value says. (A ``--set`` of a grid key is a base the grid moves away
    from: allowed, see :func:`in_effect`.)

    Raises:
        UserError: Naming both keys.
    """
    seen: dict[tuple[str, ...], str] = {}
    for key in keys:
        path = key_path(key)
        for other_path, other in seen.items():
            if path == other_path:
                raise UserError(
                    f"--grid {key}: the same key as --grid {other}, given twice; expected each "
                    "key once"
                )
            inner, outer = (path, other_path) if len(path) > len(other_path) else (other_path, path)
            if inner[: len(outer)] == outer:
                raise UserError(
                    f"--grid {key}: overlaps --grid {other} (one is inside the other), so a "
                    "point's label would not say what it ran; expected keys apart"
                )
        seen[path] = key


def in_effect(overrides: Sequence[str], keys: Sequence[str]) -> tuple[str, ...]:
    """The overrides that a grid over ``keys`` leaves in effect at its points.

    An override of a key the grid sets (or of a key inside it) is replaced at every point:
    it is left out of the points' labels, which say what each point ran.
    """
    paths = [key_path(key) for key in keys]
    return tuple(
        text
        for text in overrides
        if not any(key_path(text.partition("=")[0].strip())[: len(p)] == p for p in paths)
    )


def grid_points(grid: Mapping[str, Sequence[object]]) -> list[dict[str, object]]:
    """Every point of a grid, the first key varying slowest.

    Raises:
        UserError: When the grid is empty, a key has no values, or keys overlap
            (:func:`check_grid_keys`).
    """
    if not grid:
        raise UserError("--grid: expected at least one KEY=V1,V2,... ")
    for key, values in grid.items():
        if isinstance(values, str | bytes) or not list(values):
            raise UserError(f"--grid {key}: got {values!r}; expected a list of values")
    check_grid_keys(list(grid))  # here, so that every kind of sweep refuses them
    count = math.prod(len(list(values)) for values in grid.values())
    if count > MAX_POINTS:
        raise UserError(
            f"--grid: {count:,} points; expected at most {MAX_POINTS:,} (each point is a whole "
            "study: sweep fewer values, or in several runs)"
        )
    return [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())]


def run_sweep(
    scenario: Scenario | str | Path,
    grid: Mapping[str, Sequence[object]],
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: BackendName = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    *,
    overrides: Sequence[str] = (),
    figures: bool = True,
) -> SweepResult:
    """Run one study per point of a grid of scenario keys, all on the same seed.

    The chunks of all points are handed to the backend at once, so workers stay busy.

    Args:
        scenario: The scenario file, or a :class:`~simulator.scenario.model.Scenario` (its grid keys
            are then applied to the scenario as it is).
        grid: ``{dotted key: [values]}``, e.g. ``{"first_aid.level": [0, 1, 2]}``; values
            are applied like ``--set`` overrides.
        trials: Trials per point.
        seed: The seed of every point.
        workers: As :func:`run_study`.
        out: Receives ``sweep.csv``, ``sweep.json`` and the figure, and the partial chunks.
        backend: As :func:`run_study`.
        scheduler: As :func:`run_study`.
        chunk_size: As :func:`run_study`.
        progress: As :func:`run_study`.
        overrides: ``--set`` overrides applied before the grid's.
        figures: With ``out``, also draw the sweep's figure.

    Returns:
        The studies of every point and their frame.
    """
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides
    from simulator.studies.result import StudyResult, SweepResult

    points = grid_points(grid)
    check_sizes(trials, seed, len(points), chunk_size, workers)  # before building the points
    if isinstance(scenario, str | Path):
        source, data = str(scenario), read_scenario_mapping(scenario)
    else:
        from simulator.scenario.writing import scenario_to_mapping

        source, data = scenario.source, scenario_to_mapping(scenario)
    base = scenario_with_overrides(data, overrides, source)
    point_texts = [[f"{k}={toml_literal(v)}" for k, v in point.items()] for point in points]
    scenarios = [
        scenario_with_overrides(data, overrides, source, more=texts) for texts in point_texts
    ]
    settings = _Settings(trials, seed, workers, out, backend, scheduler, chunk_size, progress)
    frames, finish = _run(scenarios, settings, SweepResult.files(), _inputs(scenario))
    kept = in_effect(overrides, list(grid))
    results = [
        StudyResult(s, f, seed, (*kept, *texts))
        for s, f, texts in zip(scenarios, frames, point_texts, strict=True)
    ]
    return finish(SweepResult(list(grid), points, results, base, kept), figures)


def run_compare(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: BackendName = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    *,
    overrides: Sequence[str] = (),
    overrides_a: Sequence[str] = (),
    overrides_b: Sequence[str] = (),
    figures: bool = True,
) -> CompareResult:
    """Run two scenarios on the same seeds and estimate the differences of their shares.

    Trial ``i`` of A and trial ``i`` of B draw the same random stream, so the comparison is
    paired; each difference (A − B) comes with Newcombe's hybrid score interval for paired
    proportions (95%, see :class:`~simulator.studies.result.CompareResult`).

    Args:
        a: The first scenario (or its file).
        b: The second.
        trials: Trials of each.
        seed: The seed of both.
        workers: As :func:`run_study`.
        out: Receives ``compare.csv``, ``compare.json`` and a figure, and partial chunks.
        backend: As :func:`run_study`.
        scheduler: As :func:`run_study`.
        chunk_size: As :func:`run_study`.
        progress: As :func:`run_study`.
        overrides: ``--set`` overrides of both (scenario files only).
        overrides_a: Overrides of A only, after ``overrides``.
        overrides_b: Overrides of B only (e.g. the same file as A with ``ruleset=basic``).
        figures: With ``out``, also draw the figure.

    Returns:
        Both studies and their differences.
    """
    from simulator.studies.result import CompareResult, StudyResult

    set_a, set_b = (*overrides, *overrides_a), (*overrides, *overrides_b)
    scenarios, problems = [], []
    sides = ((a, overrides_a, "--set-a"), (b, overrides_b, "--set-b"))
    for which, own, flag in sides:  # the problems of both, at once, each naming its flag
        try:
            scenarios.append(_load(which, overrides, own, flag))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    settings = _Settings(trials, seed, workers, out, backend, scheduler, chunk_size, progress)
    (fa, fb), finish = _run(scenarios, settings, CompareResult.files(), _inputs(a, b))
    a_study, b_study = (
        StudyResult(scenarios[0], fa, seed, set_a),
        StudyResult(scenarios[1], fb, seed, set_b),
    )
    return finish(CompareResult(a_study, b_study), figures)
