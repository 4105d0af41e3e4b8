"""A chunk of trials: what a backend is given (:class:`ChunkJob`) and how it runs it.

Both :mod:`simulator.runner.execution` (which cuts studies into chunks) and the backends
(which run them, in whatever process) import this module; neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.engine.record import TrialRecord
from simulator.runner.compact import Chunk, Columns, records_columns, write_chunk_file

if TYPE_CHECKING:
    import pandas as pd

    from simulator.scenario.model import Scenario

__all__ = [
    "ChunkJob",
    "TrialFn",
    "chunk_columns",
    "releases_gil",
    "run_chunk",
    "run_compact",
    "run_job",
]


@dataclass(frozen=True)
class ChunkJob:
    """Trials ``start`` (included) to ``stop`` (excluded) of one scenario.

    Attributes:
        key: Which study the chunk belongs to (e.g. a sweep point's index), opaque here.
        scenario: The scenario to run (picklable, self-contained: no files are read).
        seed: The study's seed; trial ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``.
        start: First trial index.
        stop: One past the last trial index.
        save: Where the worker saves the chunk for resuming (None: the caller does, if
            anyone): a backend whose workers share this machine's files keeps it.
        keep: Whether a saved chunk still comes back with its columns (a thread's do: they
            cost nothing to hand over; a process's are left in the file).
        token: The token the saved chunk's temporary file carries (the output folder's
            marker records it), or None.
    """

    key: str
    scenario: Scenario
    seed: int
    start: int
    stop: int
    save: Path | None = None
    keep: bool = True
    token: str | None = None


TrialFn = Callable[["Scenario", int, int], TrialRecord]
"""Runs trial ``i`` of a scenario for a seed: ``trial(scenario, i, seed)``."""


def _engine_trial() -> TrialFn:
    from simulator.runner.engines import run_trial

    return run_trial


def _trial_fn() -> TrialFn:
    """The function that runs one trial (the engine's; tests may replace this lookup)."""
    return _engine_trial()


def run_chunk(scenario: Scenario, seed: int, start: int, stop: int) -> pd.DataFrame:
    """Run trials ``start`` to ``stop - 1`` of a study and return their ``trials`` frame.

    Args:
        scenario: The scenario.
        seed: The study's seed.
        start: First trial index (included).
        stop: Last trial index (excluded).

    Returns:
        One row per trial: ``trial``, ``seed`` and the record's fields (see
        :mod:`simulator.runner.trials`).
    """
    trial = _trial_fn()
    if trial is _engine_trial():  # the compiled kernel, by chunk
        from simulator.kernel.engine import kernel_columns
        from simulator.runner.trials import columns_to_frame

        return columns_to_frame(kernel_columns(scenario, seed, start, stop), start, seed)
    records = [trial(scenario, i, seed) for i in range(start, stop)]
    from simulator.runner.trials import records_to_frame

    return records_to_frame(records, start, seed)


def chunk_columns(scenario: Scenario, seed: int, start: int, stop: int) -> Columns:
    """Run trials ``start`` to ``stop - 1`` of a study; return their compact columns.

    See :mod:`simulator.runner.compact` for the columns' types.
    """
    trial = _trial_fn()
    if trial is _engine_trial():  # the compiled kernel, by chunk
        from simulator.kernel.engine import kernel_columns
        from simulator.runner.compact import narrow

        return narrow(kernel_columns(scenario, seed, start, stop))
    return records_columns([trial(scenario, i, seed) for i in range(start, stop)])


def _chunk(job: ChunkJob) -> Chunk:
    """Run a job's trials: their compact columns and tally (:class:`Chunk`)."""
    if _trial_fn() is _engine_trial():  # the compiled kernel: its matrices, digested compiled
        from simulator.kernel.engine import kernel_matrices
        from simulator.runner.compact import kernel_chunk

        out_f, out_i = kernel_matrices(job.scenario, job.seed, job.start, job.stop)
        return kernel_chunk(job.start, out_f, out_i)
    return Chunk.of(job.start, chunk_columns(job.scenario, job.seed, job.start, job.stop))


def run_compact(job: ChunkJob) -> Chunk:
    """Run one :class:`ChunkJob` (what backends call, in whatever process): its :class:`Chunk`.

    The chunk's tally is computed here, where it ran; with ``job.save`` the chunk is saved
    here too, and comes back without its columns unless ``job.keep``.
    """
    chunk = _chunk(job)
    if job.save is not None:
        assert chunk.columns is not None
        chunk.saved = write_chunk_file(chunk.columns, job.start, job.save, job.token)
        if not job.keep:
            chunk.columns = None
    return chunk


def releases_gil(job: ChunkJob) -> bool:
    """Whether ``job`` runs in the compiled kernel, which lets other threads run meanwhile.

    Then a backend may run it in a thread while this one stores the chunk before (numba's
    ``nogil``); any other chunk holds the interpreter and gains nothing from a thread.
    """
    if _trial_fn() is not _engine_trial():
        return False
    from simulator.kernel.jit import COMPILED

    return COMPILED


def run_job(job: ChunkJob) -> pd.DataFrame:
    """Run one :class:`ChunkJob` (what backends call, in whatever process)."""
    return run_chunk(job.scenario, job.seed, job.start, job.stop)
