"""Monte Carlo runs: trials in chunks, on a backend, saved as they finish, resumable.

Trial ``i`` of a study seeded ``s`` draws from ``SeedSequence(s, spawn_key=(i,))`` and
nothing else, so the ``trials`` frame is the same whatever the number of workers, the
backend or the chunk size. With an output directory, every finished chunk is written at
once to ``<out>/.partial/<run key>/chunk-<start>-<stop>.parquet``; the run key hashes the
scenario's content, the seed, the number of trials and the chunk size, so the same command
started again after a crash or Ctrl-C skips the chunks already done and ends with exactly
the frame of an uninterrupted run. The partial directory is removed at the end.

The saving and resuming of chunks is :class:`~simulator.progress.Plan`'s; this module
runs plans on a backend (:func:`execute`) and offers the Python API: :func:`run_study`,
:func:`run_sweep` and :func:`run_compare`.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from simulator.backends import Backend, ChunkJob
from simulator.errors import UserError
from simulator.frames import records_to_frame
from simulator.progress import Plan, Progress
from simulator.record import TrialRecord

if TYPE_CHECKING:
    from simulator.model import Scenario
    from simulator.study import CompareResult, StudyResult, SweepResult

MAX_CHUNK = 2_000
"""The largest default chunk, in trials."""

CHUNKS_PER_WORKER = 4
"""Default chunking aims at least this many chunks per worker, for balance."""


TrialFn = Callable[["Scenario", int, int], TrialRecord]


def _trial_fn() -> TrialFn:
    """The function that runs one trial (the engine's; tests may replace this lookup)."""
    from simulator.engine import run_trial

    return run_trial


def run_chunk(scenario: Scenario, seed: int, start: int, stop: int) -> pd.DataFrame:
    """Run trials ``start`` to ``stop - 1`` of a study and return their ``trials`` frame.

    Args:
        scenario: The scenario.
        seed: The study's seed.
        start: First trial index (included).
        stop: Last trial index (excluded).

    Returns:
        One row per trial: ``trial``, ``seed`` and the record's fields (see
        :mod:`simulator.frames`).
    """
    trial = _trial_fn()
    records = [trial(scenario, i, seed) for i in range(start, stop)]
    return records_to_frame(records, start, seed)


def run_job(job: ChunkJob) -> pd.DataFrame:
    """Run one :class:`ChunkJob` (what backends call, in whatever process)."""
    return run_chunk(job.scenario, job.seed, job.start, job.stop)


# --- checks and settings -----------------------------------------------------------------


def check_count(value: object, name: str, flag: str, minimum: int = 1) -> int:
    """Check a user-given count (trials, workers, chunk size, seed).

    Raises:
        UserError: Naming the flag and the value when it is not an integer >= ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise UserError(f"{flag}: got {value!r}; expected {name}, an integer >= {minimum}")
    return value


def get_backend(name: str, workers: int | None, scheduler: str | None) -> Backend:
    """The backend called ``name``: ``local`` (processes here) or ``dask`` (a cluster).

    Args:
        name: ``"local"`` or ``"dask"``.
        workers: Local processes (None: all cores); for dask, passed on.
        scheduler: The Dask scheduler's address (dask only; None: a local cluster).

    Raises:
        UserError: For an unknown name, bad workers, or dask without its extra.
    """
    if workers is not None:
        check_count(workers, "the number of worker processes", "--workers")
    if name == "local":
        from simulator.backends.local import LocalBackend

        return LocalBackend(workers=workers)
    if name == "dask":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            raise UserError(
                "the dask backend needs the dask extra: pip install 'harmonies-simulator[dask]'"
            ) from None
        try:
            from simulator.backends.dask_backend import DaskBackend
        except ImportError as exc:
            raise UserError(f"--backend dask: not available in this version ({exc})") from None
        return DaskBackend(scheduler=scheduler, workers=workers)
    raise UserError(f"--backend: got {name!r}; expected 'local' or 'dask'")


def default_chunk_size(trials: int, workers: int | None) -> int:
    """At most :data:`MAX_CHUNK` trials, and at least ~4 chunks per worker."""
    count = workers or os.cpu_count() or 1
    return max(1, min(MAX_CHUNK, math.ceil(trials / (CHUNKS_PER_WORKER * count))))


def make_plans(
    scenarios: Sequence[Scenario],
    *,
    trials: int,
    seed: int,
    workers: int | None,
    chunk_size: int | None,
    out: Path | None,
) -> list[Plan]:
    """One :class:`Plan` per scenario, checked and chunked alike.

    Raises:
        UserError: When trials, seed or chunk size are out of range.
    """
    check_count(trials, "the number of trials", "--trials")
    check_count(seed, "a seed", "--seed", minimum=0)
    if chunk_size is None:
        chunk_size = default_chunk_size(trials * len(scenarios), workers)
    check_count(chunk_size, "trials per chunk", "--chunk-size")
    chunk_size = min(chunk_size, trials)
    return [
        Plan(str(i), scenario, seed, trials, chunk_size, out)
        for i, scenario in enumerate(scenarios)
    ]


def execute(plans: Sequence[Plan], backend: Backend, progress: bool = False) -> list[pd.DataFrame]:
    """Run every plan's missing chunks on ``backend`` at once; return each plan's frame.

    Chunks of all plans go to the backend together (a sweep's points balance each other).
    Finished chunks are saved as they arrive; when everything is done the frames are
    assembled and the partial directories removed. On an exception (Ctrl-C included) the
    saved chunks stay, for the next run to resume from.

    Args:
        plans: The studies.
        backend: Where chunks run; closed at the end.
        progress: Whether to draw a progress bar on stderr.

    Returns:
        One ``trials`` frame per plan, in order.
    """
    by_label = {plan.label: plan for plan in plans}
    try:
        done = sum(plan.resume() for plan in plans)
        jobs = [job for plan in plans for job in plan.jobs()]
        total = sum(plan.trials for plan in plans)
        results = backend.map_chunks(jobs)
        try:
            with Progress(total, done, enabled=progress) as bar:
                for job, frame in results:
                    by_label[job.key].store(job, frame)
                    bar.advance(job.stop - job.start)
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # a generator stopped early stops its workers at once
                close()
    finally:
        backend.close()
    frames = [plan.frame() for plan in plans]
    for plan in plans:
        plan.discard()
    return frames


# --- the Python API -------------------------------------------------------------------------


def _load(scenario: Scenario | str | Path, overrides: Sequence[str] = ()) -> Scenario:
    if isinstance(scenario, str | Path):
        from simulator.scenario import load_scenario

        return load_scenario(scenario, overrides)
    if overrides:
        raise UserError("overrides apply to scenario files; give a path, not a Scenario")
    return scenario


def run_study(
    scenario: Scenario | str | Path,
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: str = "local",
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
        scenario: A :class:`~simulator.model.Scenario`, or the path of a scenario file.
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
    from simulator.study import StudyResult

    loaded = _load(scenario, overrides)
    out = None if out is None else Path(out)
    plans = make_plans(
        [loaded], trials=trials, seed=seed, workers=workers, chunk_size=chunk_size, out=out
    )
    (frame,) = execute(plans, get_backend(backend, workers, scheduler), progress)
    result = StudyResult(loaded, frame, seed)
    if out is not None:
        result.save(out, figures=figures)
    return result


def toml_literal(value: object) -> str:
    """Write a Python value (bool, number, string, list, dict) as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_literal(v)}" for k, v in value.items()) + "}"
    raise UserError(f"--grid: got {value!r}; expected numbers, booleans or strings")


def grid_points(grid: Mapping[str, Sequence[object]]) -> list[dict[str, object]]:
    """Every point of a grid, the first key varying slowest.

    Raises:
        UserError: When the grid is empty or a key has no values.
    """
    if not grid:
        raise UserError("--grid: expected at least one KEY=V1,V2,... ")
    for key, values in grid.items():
        if isinstance(values, str | bytes) or not list(values):
            raise UserError(f"--grid {key}: got {values!r}; expected a list of values")
    return [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())]


def run_sweep(
    scenario_path: str | Path,
    grid: Mapping[str, Sequence[object]],
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: str = "local",
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
        scenario_path: The scenario file.
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
    from simulator.scenario import apply_overrides, read_scenario_mapping, scenario_from_mapping
    from simulator.study import StudyResult, SweepResult

    points = grid_points(grid)
    source = str(scenario_path)
    data = read_scenario_mapping(scenario_path)
    scenarios = []
    for point in points:
        texts = [*overrides, *(f"{k}={toml_literal(v)}" for k, v in point.items())]
        scenarios.append(scenario_from_mapping(apply_overrides(data, texts, source), source))
    out = None if out is None else Path(out)
    plans = make_plans(
        scenarios, trials=trials, seed=seed, workers=workers, chunk_size=chunk_size, out=out
    )
    frames = execute(plans, get_backend(backend, workers, scheduler), progress)
    results = [StudyResult(s, f, seed) for s, f in zip(scenarios, frames, strict=True)]
    result = SweepResult(list(grid), points, results)
    if out is not None:
        result.save(out, figures=figures)
    return result


def run_compare(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    trials: int = 10_000,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    *,
    figures: bool = True,
) -> CompareResult:
    """Run two scenarios on the same seeds and estimate the differences of their shares.

    Trial ``i`` of A and trial ``i`` of B draw the same random stream, so the comparison is
    paired; each difference (A − B) comes with Newcombe's hybrid score interval for paired
    proportions (95%, see :class:`~simulator.study.CompareResult`).

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
        figures: With ``out``, also draw the figure.

    Returns:
        Both studies and their differences.
    """
    from simulator.study import CompareResult, StudyResult

    scenarios = [_load(a), _load(b)]
    out = None if out is None else Path(out)
    plans = make_plans(
        scenarios, trials=trials, seed=seed, workers=workers, chunk_size=chunk_size, out=out
    )
    fa, fb = execute(plans, get_backend(backend, workers, scheduler), progress)
    result = CompareResult(StudyResult(scenarios[0], fa, seed), StudyResult(scenarios[1], fb, seed))
    if out is not None:
        result.save(out, figures=figures)
    return result
