"""Benchmarks of scale (issue 33), a table of ``make bench``.

Each row runs the command a designer types, in a fresh process, and reads its wall time
and the peak resident size of that process and its workers (``ru_maxrss`` of the children
of a parent that only runs it):

- ``run careless_watches --trials 10000000`` on 1 worker and on 2 (files and figures
  included): the speed-up, and the peak memory of each, beside the peak of the same run of
  1,000,000 trials (memory must not grow with the trials);
- ``run geraldine --trials 100``: the time to the printed answer (the figures follow);
- ``sweep`` of 20 points of a one-week scenario (``hydra``, 250,000 trials a point) on 1
  worker and on 2;
- the 10,000,000-trial run on ``--backend dask`` (a local cluster of 2 processes) beside
  the local backend's 2 workers.

The commands of one comparison run one after the other, and the load average is printed:
on a shared machine only the ratios compare.

Usage::

    python benchmarks/bench_scale.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
CAMPAIGN = SCENARIOS / "careless_watches.toml"
GERALDINE = SCENARIOS / "geraldine.toml"
WEEK = SCENARIOS / "hydra.toml"

from bench import _mib, to_answer  # noqa: E402  (benchmarks/ is this script's folder)

_PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)
"""A fresh process that runs a command and prints the largest peak (``ru_maxrss``, KiB) of
its own children: the command's process and its workers, nothing run before."""


def _harmonies(*args: str) -> list[str]:
    return [sys.executable, "-m", "simulator", *args]


def measured(command: list[str]) -> tuple[float, int]:
    """Wall seconds of ``command`` (``{out}``: a fresh folder) and its peak memory in bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        line = [part.replace("{out}", str(Path(tmp) / "out")) for part in command]
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, *line],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        seconds = time.perf_counter() - start
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return seconds, int(done.stdout.split()[-1]) * scale


def _row(
    what: str, measured_: str, ref: str, ratio: float | None, target: str, met: bool | None
) -> None:
    ratio_text = f"{ratio:.2f}×" if ratio is not None else ""
    met_text = "" if met is None else "yes" if met else "no"
    print(f"| {what} | {measured_} | {ref} | {ratio_text} | {target} | {met_text} |", flush=True)


def _dask_installed() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def scale_table(quick: bool = False) -> None:
    """Issue 33's table: every row measured, its reference beside it, met or not."""
    big = 1_000_000 if quick else 10_000_000
    small = big // 10
    per_point = 25_000 if quick else 250_000
    print(f"## Issue 33's targets: scale ({os.cpu_count()} cores)\n")
    print(f"(load average {os.getloadavg()[0]:.2f} at the start)\n")
    print("| what | measured | reference | ratio | target | met |")
    print("|---|---:|---:|---:|---:|:-:|")

    def run(trials: int, workers: int, *more: str) -> list[str]:
        return _harmonies(
            "run", str(CAMPAIGN), "--trials", str(trials), "--seed", "1",
            "--workers", str(workers), "--out", "{out}", *more,
        )  # fmt: skip

    one, one_peak = measured(run(big, 1))
    two, two_peak = measured(run(big, 2))
    _row(
        f"`run {CAMPAIGN.stem} --trials {big:,}`: 2 workers ÷ 1 worker, wall",
        f"{two:.1f} s",
        f"{one:.1f} s",
        one / two,
        "≥ 1.75×",
        one / two >= 1.75,
    )
    _, small_peak = measured(run(small, 2))
    peak = max(one_peak, two_peak)
    _row(
        f"the same, peak memory (largest process; 1 worker {_mib(one_peak)}, 2 workers "
        f"{_mib(two_peak)}); reference: {small:,} trials on 2 workers",
        _mib(peak),
        _mib(small_peak),
        peak / small_peak,
        "≤ 1,024 MiB, not growing with the trials",
        peak <= 2**30,
    )
    answer = _harmonies(
        "run", str(GERALDINE), "--trials", "100", "--seed", "1", "--workers", "1",
        "--out", "{out}",
    )  # fmt: skip
    first = min(to_answer(answer) for _ in range(3))
    _row(
        f"`run {GERALDINE.stem} --trials 100`: time to the printed answer (best of 3)",
        f"{first:.2f} s",
        "",
        None,
        "≤ 0.6 s",
        first <= 0.6,
    )
    grid = "patient.cp_rs=" + ",".join(str(v) for v in range(1, 21))

    def sweep(workers: int, trials: int = per_point) -> list[str]:
        return _harmonies(
            "sweep", str(WEEK), "--grid", grid, "--trials", str(trials), "--seed", "1",
            "--workers", str(workers), "--out", "{out}", "--json",
        )  # fmt: skip

    sweep_one, _ = measured(sweep(1))
    sweep_two, sweep_peak = measured(sweep(2))
    _row(
        f"`sweep {WEEK.stem} --grid {grid.split('=')[0]}=1..20 --trials {per_point:,}` "
        f"(a 7-day scenario; peak {_mib(sweep_peak)}): 2 workers ÷ 1",
        f"{sweep_two:.1f} s",
        f"{sweep_one:.1f} s",
        sweep_one / sweep_two,
        "≥ 1.8×",
        sweep_one / sweep_two >= 1.8,
    )
    fixed = min(measured(sweep(1, 100))[0] for _ in range(2))
    _row(
        f"the same sweep less its fixed part (start, imports, figure, report: the same sweep "
        f"of 100 trials a point, {fixed:.1f} s), 2 workers ÷ 1",
        f"{sweep_two - fixed:.1f} s",
        f"{sweep_one - fixed:.1f} s",
        (sweep_one - fixed) / (sweep_two - fixed),
        "(how busy the cores are)",
        None,
    )
    if not _dask_installed():
        print("| `--backend dask` | (the dask extra is not installed) | | | ≥ 0.9× | |")
    else:
        dask, dask_peak = measured(run(big, 2, "--backend", "dask"))
        _row(
            f"`run {CAMPAIGN.stem} --trials {big:,} --backend dask` (a local cluster of 2 "
            f"processes, started by the run; peak {_mib(dask_peak)}) ÷ local, 2 workers",
            f"{dask:.1f} s",
            f"{two:.1f} s",
            two / dask,
            "≥ 0.9×",
            two / dask >= 0.9,
        )
    print(f"\n(load average {os.getloadavg()[0]:.2f} at the end)\n", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Ten times fewer trials.")
    scale_table(parser.parse_args().quick)
