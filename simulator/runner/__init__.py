"""The runner: studies cut into chunks of trials, run on a backend, saved as they finish.

Its face is small. :func:`make_plans` turns scenarios into :class:`Plan` s (trials, seed,
chunks; resumable when given an output folder), :func:`execute` runs the plans' chunks on a
backend (:func:`get_backend`: local processes or Dask) and returns one ``trials`` frame per
plan, :func:`discard_partials` removes the finished chunks once the results are saved.
:func:`run_chunk` is the one place where a chunk of trials is run. :func:`claim` and
:func:`record` keep the output folders (``outdir``: what the tool wrote there, never a file
it did not write).

The names load their module on first use, so that the command line can read
:data:`BACKENDS` without importing pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.lazy import lazy_names

if TYPE_CHECKING:
    from simulator.runner.backends import BACKENDS, Backend, BackendName
    from simulator.runner.chunks import ChunkJob, run_chunk, run_job
    from simulator.runner.execution import (
        check_backend,
        check_chunk_size,
        check_sizes,
        check_trials_and_seed,
        discard_partials,
        execute,
        get_backend,
        make_plans,
        result_key,
        run_keys,
    )
    from simulator.runner.outdir import claim, record, release
    from simulator.runner.plan import Plan
    from simulator.runner.trials import read_trials

_WHERE = {
    "backends": ("BACKENDS", "Backend", "BackendName"),
    "chunks": ("ChunkJob", "run_chunk", "run_job"),
    "execution": (
        "check_backend",
        "check_chunk_size",
        "check_sizes",
        "check_trials_and_seed",
        "discard_partials",
        "execute",
        "get_backend",
        "make_plans",
        "result_key",
        "run_keys",
    ),
    "outdir": ("claim", "record", "release"),
    "plan": ("Plan",),
    "trials": ("read_trials",),
}
__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendName",
    "ChunkJob",
    "Plan",
    "check_backend",
    "check_chunk_size",
    "check_sizes",
    "check_trials_and_seed",
    "claim",
    "discard_partials",
    "execute",
    "get_backend",
    "make_plans",
    "read_trials",
    "record",
    "release",
    "result_key",
    "run_chunk",
    "run_job",
    "run_keys",
]


def __dir__() -> list[str]:
    """Every name, those loaded on first use included (a notebook's completion lists them)."""
    return sorted({*globals(), *__all__})
