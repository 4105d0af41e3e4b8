"""A chunk's time beside a thread that runs Python: how often it hands the lock over.

On a machine of many cores, a worker thread that lets go of the interpreter's lock and takes
it back many times a chunk waits, at each take-back, for whichever thread holds it, up to
Python's switch interval (``docs/scaling.md``, "Checked on 16 cores"). This script shows it
on any machine: one thread runs pure Python without a pause while this one runs chunks of
``hydra`` (20,000 trials) three ways, and prints each chunk's time:

- ``numpy``: the kernel, then the compact columns and tally by numpy (the path before
  :mod:`simulator.kernel.digest`);
- ``digest``: the kernel, then the compiled passes (what the workers run);
- ``kernel``: the kernel alone.

Usage::

    python benchmarks/bench_gil.py [--interval 0.005]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.kernel.engine import kernel_columns, kernel_matrices  # noqa: E402
from simulator.runner.compact import Chunk, kernel_chunk, narrow  # noqa: E402
from simulator.scenario.reading import load_scenario  # noqa: E402

N = 20_000


def beside_python(run: Callable[[int], object], seconds: float = 2.0) -> float:
    """Milliseconds a call of ``run`` takes while another thread runs Python all along."""
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            pass

    other = threading.Thread(target=busy)
    other.start()
    start, calls = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        run(calls)
        calls += 1
    elapsed = time.perf_counter() - start
    stop.set()
    other.join()
    return elapsed / calls * 1e3


def main() -> None:
    """Print each way's time per chunk, alone and beside a busy thread."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=sys.getswitchinterval())
    interval = parser.parse_args().interval
    scenario = load_scenario(ROOT / "scenarios" / "hydra.toml")
    ways: dict[str, Callable[[int], object]] = {
        "numpy": lambda i: Chunk.of(0, narrow(kernel_columns(scenario, 1, i * N, i * N + N))),
        "digest": lambda i: kernel_chunk(i * N, *kernel_matrices(scenario, 1, i * N, i * N + N)),
        "kernel": lambda i: kernel_matrices(scenario, 1, i * N, i * N + N),
    }
    print(f"hydra, chunks of {N:,} trials; switch interval {interval * 1e3:g} ms\n")
    print("| way | alone | beside a busy Python thread |")
    print("|---|---:|---:|")
    for name, run in ways.items():
        run(0)  # compiled or loaded first
        start = time.perf_counter()
        for i in range(20):
            run(i)
        alone = (time.perf_counter() - start) / 20 * 1e3
        sys.setswitchinterval(interval)
        try:
            beside = beside_python(run)
        finally:
            sys.setswitchinterval(0.005)
        print(f"| {name} | {alone:.1f} ms | {beside:.1f} ms |", flush=True)


if __name__ == "__main__":
    main()
