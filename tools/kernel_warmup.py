"""Compile the rules kernel once and cache it: ``python -m tools.kernel_warmup``.

``make venv`` runs it, so that the first ``run`` finds the kernel compiled.
"""

from __future__ import annotations

import time


def warm_up() -> str:
    """Run a few trials of a scenario that reaches every handler, traced and not; say so."""
    from simulator.kernel.engine import kernel_columns, kernel_trace
    from simulator.kernel.jit import status
    from simulator.rules.levels import Level
    from simulator.scenario.model import (
        Activity,
        FirstAid,
        Healing,
        Injury,
        PatientSpec,
        Scenario,
        Watch,
    )

    hour = 3600.0
    scenario = Scenario(
        name="warm-up",
        horizon=20 * 24 * hour,
        patient=PatientSpec(cp_rs=9, rs_it=6),
        injuries=(Injury(0.0, Level.GRAVE), Injury(2 * hour, Level.LIGHT, count=2)),
        first_aid=FirstAid(start=300.0, interval=300.0, level=2, max_attempts=20),
        watch=Watch(neglect_probability=0.1, neglect_at=(12 * hour,)),
        healing=Healing(level=1),
        activities=(Activity(24 * hour),),
    )
    start = time.perf_counter()
    kernel_columns(scenario, 0, 0, 50)
    kernel_trace(scenario, 0, 1)
    return f"{status()}: ready in {time.perf_counter() - start:.1f} s"


if __name__ == "__main__":
    print(warm_up())
