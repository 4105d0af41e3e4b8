"""Monte Carlo studies: the Python API, chunks, the resumable plan, backends, frames, stats.

``api`` is the Python API (:func:`run_study`, :func:`run_sweep`, :func:`run_compare`) and
``result`` what it returns; ``exact`` and ``exact_many`` give the exact answers of
:mod:`simulator.exact` the same faces (:func:`run_exact`, ``--exact``). Under it:
``execution`` cuts studies into ``chunks`` and runs them on a backend (``backends``: local
processes or Dask), saving each as it finishes (``plan``: the resumable plan of one study);
``frames`` turns trial records into the ``trials`` frame and summaries, with ``stats``'s
intervals. ``main_study`` is the study
that ``make run`` writes.

The names below load their module (and pandas) on first use, so that the command line can
read :data:`~simulator.studies.backends.BACKENDS` without importing pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.studies.api import grid_points, run_compare, run_study, run_sweep
    from simulator.studies.backends import BACKENDS, Backend, BackendName
    from simulator.studies.chunks import ChunkJob, run_chunk, run_job
    from simulator.studies.exact import ExactResult, run_exact
    from simulator.studies.exact_many import (
        ExactCompareResult,
        run_exact_compare,
        run_exact_directory,
        run_exact_sweep,
    )
    from simulator.studies.execution import execute, get_backend, make_plans
    from simulator.studies.frames import curves, read_trials, summarize, summary_frame
    from simulator.studies.main_study import run_directory
    from simulator.studies.plan import Plan
    from simulator.studies.result import CompareResult, StudyResult, SweepResult
    from simulator.studies.stats import newcombe_paired, paired_difference, wilson, wilson_arrays

_WHERE = {
    "api": ("grid_points", "run_compare", "run_study", "run_sweep"),
    "backends": ("BACKENDS", "Backend", "BackendName"),
    "chunks": ("ChunkJob", "run_chunk", "run_job"),
    "exact": ("ExactResult", "run_exact"),
    "exact_many": (
        "ExactCompareResult",
        "run_exact_compare",
        "run_exact_directory",
        "run_exact_sweep",
    ),
    "execution": ("execute", "get_backend", "make_plans"),
    "frames": ("curves", "read_trials", "summarize", "summary_frame"),
    "main_study": ("run_directory",),
    "plan": ("Plan",),
    "result": ("CompareResult", "StudyResult", "SweepResult"),
    "stats": ("newcombe_paired", "paired_difference", "wilson", "wilson_arrays"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str) -> Any:
    """Load the module that holds ``name`` the first time it is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendName",
    "ChunkJob",
    "CompareResult",
    "ExactCompareResult",
    "ExactResult",
    "Plan",
    "StudyResult",
    "SweepResult",
    "curves",
    "execute",
    "get_backend",
    "grid_points",
    "make_plans",
    "newcombe_paired",
    "paired_difference",
    "read_trials",
    "run_chunk",
    "run_compare",
    "run_directory",
    "run_exact",
    "run_exact_compare",
    "run_exact_directory",
    "run_exact_sweep",
    "run_job",
    "run_study",
    "run_sweep",
    "summarize",
    "summary_frame",
    "wilson",
    "wilson_arrays",
]
