"""Monte Carlo studies: the Python API, chunks, the resumable plan, backends, frames, stats.

``api`` is the Python API (:func:`run_study`, :func:`run_sweep`, :func:`run_compare`) and
``result`` what it returns. Under it: ``execution`` cuts studies into ``chunks`` and runs
them on a backend (``backends``: local processes or Dask), saving each as it finishes
(``plan``: the resumable plan of one study); ``frames`` turns trial records into the
``trials`` frame and summaries, with ``stats``'s intervals. ``main_study`` is the study
that ``make run`` writes.
"""

from simulator.studies.api import grid_points, run_compare, run_study, run_sweep
from simulator.studies.backends import Backend
from simulator.studies.chunks import ChunkJob, run_chunk, run_job
from simulator.studies.execution import execute, get_backend, make_plans
from simulator.studies.frames import curves, read_trials, summarize, summary_frame
from simulator.studies.main_study import run_directory
from simulator.studies.plan import Plan
from simulator.studies.result import CompareResult, StudyResult, SweepResult
from simulator.studies.stats import newcombe_paired, paired_difference, wilson, wilson_arrays

__all__ = [
    "Backend",
    "ChunkJob",
    "CompareResult",
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
    "run_job",
    "run_study",
    "run_sweep",
    "summarize",
    "summary_frame",
    "wilson",
    "wilson_arrays",
]
