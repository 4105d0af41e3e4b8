"""Studies: the Python API, with one method or the other (sampled or exact), and results.

``api`` is the Python API (:func:`run_study`, :func:`run_sweep`, :func:`run_compare`;
``main_study``'s :func:`run_directory`; :func:`balance`; :func:`calibrate`;
:func:`sensitivity`), each taking a ``method`` (:class:`MonteCarlo` or :class:`Exact`, of
``method``) and returning the result types of ``result`` whichever it is: their estimate is
``sampled`` (the ``trials`` frame) or ``solved`` (the exact answer). Monte Carlo runs on
:mod:`simulator.runner` (chunks, the resumable plan, backends, output folders); ``frames``
turns trials into summaries and curves, with ``stats``'s intervals; ``loading`` builds
scenarios with typed overrides; ``extras`` reads the extra studies a description beside a
scenario asks of the main study.

The names below load their module (and pandas) on first use, so that the command line stays
quick to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.lazy import lazy_names

if TYPE_CHECKING:
    from simulator.studies.api import run_compare, run_study, run_sweep
    from simulator.studies.balance_study import BalanceResult, balance
    from simulator.studies.calibrate_result import CalibrationResult
    from simulator.studies.calibrate_study import calibrate
    from simulator.studies.frames import curves, summarize, summary_frame
    from simulator.studies.loading import grid_points
    from simulator.studies.main_study import run_directory
    from simulator.studies.method import Exact, Method, MonteCarlo
    from simulator.studies.result import CompareResult, StudyResult, SweepResult
    from simulator.studies.sampled import Sampled
    from simulator.studies.sensitivity_study import SensitivityResult, sensitivity
    from simulator.studies.solved import Solved
    from simulator.studies.stats import newcombe_paired, paired_difference, wilson, wilson_arrays

_WHERE = {
    "api": ("run_compare", "run_study", "run_sweep"),
    "balance_study": ("BalanceResult", "balance"),
    "calibrate_result": ("CalibrationResult",),
    "calibrate_study": ("calibrate",),
    "frames": ("curves", "summarize", "summary_frame"),
    "loading": ("grid_points",),
    "main_study": ("run_directory",),
    "method": ("Exact", "Method", "MonteCarlo"),
    "result": ("CompareResult", "StudyResult", "SweepResult"),
    "sampled": ("Sampled",),
    "sensitivity_study": ("SensitivityResult", "sensitivity"),
    "solved": ("Solved",),
    "stats": ("newcombe_paired", "paired_difference", "wilson", "wilson_arrays"),
}
__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "BalanceResult",
    "CalibrationResult",
    "CompareResult",
    "Exact",
    "Method",
    "MonteCarlo",
    "Sampled",
    "SensitivityResult",
    "Solved",
    "StudyResult",
    "SweepResult",
    "balance",
    "calibrate",
    "curves",
    "grid_points",
    "newcombe_paired",
    "paired_difference",
    "run_compare",
    "run_directory",
    "run_study",
    "run_sweep",
    "sensitivity",
    "summarize",
    "summary_frame",
    "wilson",
    "wilson_arrays",
]


def __dir__() -> list[str]:
    """Every name, those loaded on first use included (a notebook's completion lists them)."""
    return sorted({*globals(), *__all__})
