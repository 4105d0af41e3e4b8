"""Scaling on a machine of many cores: docs/scaling.md's predictions, checked (issue 33).

The project's machine has two cores, so ``docs/scaling.md`` predicts the time of large runs
on 16 cores and more from the parts measured there: a fixed part (start, imports, figures),
a serial part per trial (the command's own thread: tallies merged, ``trials.parquet``
encoded) and a parallel part per trial (the kernel, on ``--workers`` threads). On a machine
with more cores this script runs the commands a designer types, each in a fresh process,
and prints each wall time beside the prediction, then fits the three parts again from the
runs of one size on every worker count (least squares of ``T = F + n s + n k / P``).

Each row is printed (and flushed) as soon as it is measured, so that a run cut short still
tells what it measured; ``--only`` picks the rows.

Usage::

    python benchmarks/bench_cores.py [--workers 1,2,4,8,16] [--big 10000000]
        [--huge 100000000] [--points 200] [--only runs,sweep,huge,dask]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import _mib
from bench_scale import CAMPAIGN, WEEK, _dask_installed, _harmonies, measured

FIXED_S = 5.0
SERIAL_US = 1.0
KERNEL_US = 4.5
"""docs/scaling.md's model of ``run careless_watches`` on the 2-core machine (figures
included): ``T = 5 s + n × 1.0 µs + n × 4.5 µs / P``."""

SWEEP_FIXED_S = 3.4
SWEEP_US = 1.1
"""docs/scaling.md's model of a sweep of hydra: 3.4 s fixed, 1.1 µs a trial over P cores."""


def predicted_run(trials: int, cores: int) -> float:
    """docs/scaling.md's prediction of ``run careless_watches`` on ``cores`` workers."""
    return FIXED_S + trials * SERIAL_US * 1e-6 + trials * KERNEL_US * 1e-6 / cores


def predicted_sweep(points: int, per_point: int, cores: int) -> float:
    """docs/scaling.md's prediction of a sweep of hydra on ``cores`` workers."""
    return SWEEP_FIXED_S + points * per_point * SWEEP_US * 1e-6 / cores


def fit(trials: int, walls: dict[int, float]) -> tuple[float, float] | None:
    """``(F + n s, k)`` of ``T = F + n s + n k / P`` by least squares over the worker counts.

    Runs of one size cannot tell the fixed part from the serial one: their sum is given.
    """
    if len(walls) < 2:
        return None
    cores = np.array(sorted(walls), dtype=float)
    wall = np.array([walls[int(p)] for p in cores])
    design = np.column_stack([np.ones_like(cores), trials / cores])
    (serial, kernel), *_ = np.linalg.lstsq(design, wall, rcond=None)
    return float(serial), float(kernel) * 1e6


def _row(what: str, measured_: float, predicted: float | None, note: str = "") -> None:
    ratio = f"{measured_ / predicted:.2f}" if predicted else ""
    pred = f"{predicted:.1f} s" if predicted else ""
    print(f"| {what} | {measured_:.1f} s | {pred} | {ratio} | {note} |", flush=True)


def main() -> None:
    """Measure the rows asked for and print them as a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default=None, help="Worker counts, e.g. 1,2,4,8,16.")
    parser.add_argument("--big", type=int, default=10_000_000, help="Trials of the runs.")
    parser.add_argument("--huge", type=int, default=100_000_000, help="Trials of the huge run.")
    parser.add_argument("--points", type=int, default=200, help="Points of the sweep.")
    parser.add_argument("--per-point", type=int, default=250_000, help="Trials a point.")
    parser.add_argument("--only", default="runs,sweep,huge,dask", help="Rows to measure.")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = (
        [int(w) for w in args.workers.split(",")]
        if args.workers
        else sorted({1, 2, 4, 8, cores} & set(range(1, cores + 1)))
    )
    top = max(counts)
    only = set(args.only.split(","))
    print(f"## Scaling on {cores} cores (load average {os.getloadavg()[0]:.2f} at the start)\n")
    print("| what | measured | docs/scaling.md's prediction | measured ÷ predicted | note |")
    print("|---|---:|---:|---:|---|", flush=True)

    def run(trials: int, workers: int, *more: str) -> list[str]:
        return _harmonies(
            "run", str(CAMPAIGN), "--trials", str(trials), "--seed", "1",
            "--workers", str(workers), "--out", "{out}", *more,
        )  # fmt: skip

    def row(what: str, command: list[str], predicted: float | None, note: str = "") -> float:
        wall, peak = measured(command)
        _row(what, wall, predicted, f"peak {_mib(peak)}{note}")
        return wall

    walls: dict[int, float] = {}
    if "runs" in only:
        for workers in counts:
            walls[workers] = row(
                f"`run {CAMPAIGN.stem} --trials {args.big:,} --workers {workers}`",
                run(args.big, workers),
                predicted_run(args.big, workers),
            )
    if "sweep" in only:
        # hydra's cp_rs from 1 to 20 (the make bench sweep's grid) times as many values of
        # its rs_it (12 down) as make the points asked for.
        cp_rs = "patient.cp_rs=" + ",".join(str(v) for v in range(1, 21))
        rs_it = "patient.rs_it=" + ",".join(str(12 - v) for v in range(max(1, args.points // 20)))
        sweep = _harmonies(
            "sweep", str(WEEK), "--grid", cp_rs, "--grid", rs_it, "--trials",
            str(args.per_point), "--seed", "1", "--workers", str(top), "--out", "{out}", "--json",
        )  # fmt: skip
        row(
            f"`sweep {WEEK.stem}`, {args.points} points × {args.per_point:,} trials, {top} workers",
            sweep,
            predicted_sweep(args.points, args.per_point, top),
        )
    if "huge" in only:
        row(
            f"`run {CAMPAIGN.stem} --trials {args.huge:,} --workers {top}`",
            run(args.huge, top),
            predicted_run(args.huge, top),
        )
    if "dask" in only:
        if not _dask_installed():
            print("| `--backend dask` | | | | the dask extra is not installed |", flush=True)
        else:
            dask = row(
                f"`run {CAMPAIGN.stem} --trials {args.big:,} --workers {top} --backend dask` "
                f"(a local cluster of {top} processes)",
                run(args.big, top, "--backend", "dask"),
                None,
            )
            if top in walls:
                print(f"(local ÷ dask: {walls[top] / dask:.2f}×)", flush=True)
    fitted = fit(args.big, walls)
    if fitted is not None:
        serial, kernel = fitted
        print(
            f"\nFitted over {sorted(walls)} workers, {args.big:,} trials: fixed + serial "
            f"{serial:.1f} s ({(serial - FIXED_S) / args.big * 1e6:.2f} µs a trial beyond "
            f"{FIXED_S:.0f} s fixed; the model says {SERIAL_US} µs), kernel {kernel:.2f} µs a "
            f"trial over the workers (the model says {KERNEL_US} µs).",
            flush=True,
        )
    print(f"\n(load average {os.getloadavg()[0]:.2f} at the end)", flush=True)


if __name__ == "__main__":
    main()
