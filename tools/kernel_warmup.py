"""Compile the rules kernel once and cache it: ``python -m tools.kernel_warmup [--json]``.

``make venv`` runs it, so that the first ``run`` finds the kernel compiled, and prints how
long it took and how many functions it compiled (none when the cache, keyed by the kernel's
content, already holds them: a second checkout of the same sources). ``--json`` prints the
same as one JSON object (``benchmarks/bench.py`` reads it).
"""

from __future__ import annotations

import json
import sys
import time


def measured() -> dict[str, object]:
    """Run a few trials of a scenario that reaches every handler, traced and not, as a chunk.

    Returns:
        ``seconds`` (wall), ``cpu_seconds`` (this process), ``compiled`` and ``loaded`` (the
        kernel functions numba compiled, and loaded from the cache; both 0 when the kernel
        runs as plain Python) and ``status`` (:func:`simulator.kernel.jit.status`).
    """
    from simulator.kernel.engine import kernel_matrices, kernel_trace
    from simulator.kernel.jit import COMPILED, status
    from simulator.rules.levels import Level
    from simulator.runner.compact import kernel_chunk
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
    start, cpu = time.perf_counter(), time.process_time()
    kernel_chunk(0, *kernel_matrices(scenario, 0, 0, 50))  # a worker's chunk, digested
    kernel_trace(scenario, 0, 1)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    compiled = loaded = 0
    if COMPILED:
        from simulator.kernel.cache import Counts

        compiled, loaded = Counts.compiled, Counts.loaded
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "compiled": compiled,
        "loaded": loaded,
        "status": status(),
    }


def warm_up() -> str:
    """Compile (or load) the kernel; one line that says how long and what it compiled."""
    done = measured()
    return (
        f"{done['status']}: ready in {done['seconds']:.1f} s "
        f"({done['compiled']} functions compiled, {done['loaded']} loaded from the cache)"
    )


if __name__ == "__main__":
    if "--json" in sys.argv[1:]:
        print(json.dumps(measured()))
    else:
        print(warm_up())
