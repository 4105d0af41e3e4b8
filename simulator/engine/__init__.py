"""Campaign time, event by event: the SimPy reference the compiled kernel is tested against.

The clock and O1's priorities (``clock``), one trial (``trial``), the care processes of first
aid, rest, watches and healing (``care``), the trial's flat record (``record``) and its
timeline (``trace``). It imports ``rules`` and the scenario model only.
"""

from simulator.engine.record import RECORD_FIELDS, TrialRecord
from simulator.engine.trace import TraceLine, format_trace
from simulator.engine.trial import Trial, run_trial, trace_trial, trial_generator

__all__ = [
    "RECORD_FIELDS",
    "TraceLine",
    "Trial",
    "TrialRecord",
    "format_trace",
    "run_trial",
    "trace_trial",
    "trial_generator",
]
