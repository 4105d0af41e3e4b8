"""The one place that picks an engine: the compiled kernel, or the SimPy reference.

Every command runs its trials in the compiled kernel (:mod:`simulator.kernel.engine`), which
runs every scenario; ``kernel=False`` runs the event-by-event reference
(:mod:`simulator.engine.trial`), which the kernel is tested against (same laws, other numbers
for a seed). The runner's chunks (:mod:`simulator.runner.chunks`), ``trace`` and the studies
ask here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simulator.engine.record import TrialRecord
    from simulator.engine.trace import TraceLine
    from simulator.scenario.model import Scenario


def run_trial(scenario: Scenario, trial: int, seed: int, *, kernel: bool = True) -> TrialRecord:
    """Run trial number ``trial`` of a study seeded with ``seed``; same inputs, same record.

    Args:
        scenario: The scenario.
        trial: The trial's index.
        seed: The study's seed.
        kernel: The compiled kernel (the default); False, the SimPy reference.
    """
    if kernel:
        from simulator.kernel.engine import kernel_records

        return kernel_records(scenario, seed, trial, trial + 1)[0]
    from simulator.engine.trial import run_trial as reference

    return reference(scenario, trial, seed)


def trace_trial(
    scenario: Scenario, seed: int = 0, trial: int = 0, *, kernel: bool = True
) -> tuple[TrialRecord, list[TraceLine]]:
    """Run one trial and tell it: the record and the timeline of :class:`TraceLine` s.

    The same trial as :func:`run_trial` with the same arguments: the same draws, the same
    record (``trace --trial N`` tells trial N of ``run``).
    """
    if kernel:
        from simulator.kernel.engine import kernel_trace

        return kernel_trace(scenario, seed, trial)
    from simulator.engine.trial import trace_trial as reference

    return reference(scenario, seed, trial)


__all__ = ["run_trial", "trace_trial"]
