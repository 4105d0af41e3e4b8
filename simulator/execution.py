"""Chunks of trials on a backend: how a study is cut, run, saved as it goes and assembled.

Trial ``i`` of a study seeded ``s`` draws from ``SeedSequence(s, spawn_key=(i,))`` and
nothing else, so the ``trials`` frame is the same whatever the number of workers, the
backend or the chunk size. With an output directory, every finished chunk is written at
once to ``<out>/.partial/<run key>/chunk-<start>-<stop>.parquet``; the run key hashes the
scenario's content, the seed, the number of trials and the chunk size, so the same command
started again after a crash or Ctrl-C skips the chunks already done and ends with exactly
the frame of an uninterrupted run. The partial directory is removed at the end.

The saving and resuming of chunks is :class:`~simulator.progress.Plan`'s; this module
runs plans on a backend (:func:`execute`). The Python API over it is
:mod:`simulator.runner`.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
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


def stale_partials(plans: Sequence[Plan]) -> list[Path]:
    """The partial directories beside these plans' that belong to other runs (not resumed)."""
    ours = {plan.partial for plan in plans if plan.partial is not None}
    parents = {path.parent for path in ours}
    return sorted(d for parent in parents if parent.is_dir() for d in parent.iterdir()
                  if d.is_dir() and d not in ours)  # fmt: skip


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
    for stale in stale_partials(plans):
        print(
            f"note: {stale} holds the finished chunks of another run (another scenario, seed, "
            "--trials or --chunk-size); they are not used here. Run that command again to "
            "resume it, or delete the folder.",
            file=sys.stderr,
        )
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
