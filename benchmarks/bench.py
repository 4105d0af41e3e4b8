"""Benchmarks of the runner (``make bench``).

Prints, as markdown tables:

1. trials per second with one worker on every scenario of ``scenarios/`` (2,000 trials each);
2. the speed-up from one worker to all cores on the Géraldine scenario;
3. the peak memory of a run of 1,000,000 trials of the Géraldine scenario, measured in a
   separate process (``ru_maxrss`` of that process and of its largest worker);
4. a Dask LocalCluster row (see the marked place below);
5. the exact engine's timings against issue 12's targets (``benchmarks/bench_exact.py``).

Usage::

    python benchmarks/bench.py [--quick] [--trials N] [--trials-big N] [--workers W]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.studies.api import run_study  # noqa: E402

SCENARIOS = ROOT / "scenarios"
GERALDINE = SCENARIOS / "geraldine.toml"

_CHILD = """
import json, resource, sys, tempfile, time
from pathlib import Path
from simulator.studies.api import run_study

def main():
    trials, workers = int(sys.argv[1]), int(sys.argv[2])
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = run_study(sys.argv[3], trials=trials, seed=1, workers=workers, out=Path(out),
                           figures=False)
        seconds = time.perf_counter() - start
        rows = len(result.trials)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    print(json.dumps({
        "rows": rows,
        "seconds": seconds,
        "self_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale,
        "children_bytes": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale,
    }))

if __name__ == "__main__":
    main()
"""


def _mib(size: float) -> str:
    return f"{size / 2**20:,.0f} MiB"


def _timed(scenario: Path, trials: int, workers: int) -> float:
    """Seconds for a run (no output directory: the run itself, frames included)."""
    start = time.perf_counter()
    run_study(scenario, trials=trials, seed=1, workers=workers)
    return time.perf_counter() - start


def per_scenario(trials: int) -> None:
    """Trials per second with one worker, for every scenario."""
    print(f"## One worker, {trials:,} trials per scenario\n")
    print("| scenario | seconds | trials/s per worker |")
    print("|---|---:|---:|")
    for path in sorted(SCENARIOS.glob("*.toml")):
        seconds = _timed(path, trials, 1)
        print(f"| {path.stem} | {seconds:.2f} | {trials / seconds:,.0f} |", flush=True)
    print()


def speed_up(trials: int, workers: int) -> None:
    """The speed-up from one worker to ``workers`` on the Géraldine scenario."""
    print(f"## Speed-up on {GERALDINE.stem}, {trials:,} trials\n")
    print("| workers | seconds | trials/s | speed-up |")
    print("|---:|---:|---:|---:|")
    base = _timed(GERALDINE, trials, 1)
    print(f"| 1 | {base:.2f} | {trials / base:,.0f} | 1.00 |", flush=True)
    if workers > 1:
        seconds = _timed(GERALDINE, trials, workers)
        print(f"| {workers} | {seconds:.2f} | {trials / seconds:,.0f} | {base / seconds:.2f} |")
    print()


def peak_memory(trials: int, workers: int) -> None:
    """Peak memory of a big run, in a fresh process (with its files written, as ``run``)."""
    print(f"## Peak memory, {trials:,} trials of {GERALDINE.stem}, {workers} workers\n")
    with tempfile.TemporaryDirectory() as tmp:
        child = Path(tmp) / "child.py"
        child.write_text(_CHILD, encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, str(child), str(trials), str(workers), str(GERALDINE)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print("| trials | seconds | trials/s | main process peak | largest worker peak |")
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {report['rows']:,} | {report['seconds']:.1f} | "
        f"{report['rows'] / report['seconds']:,.0f} | {_mib(report['self_bytes'])} | "
        f"{_mib(report['children_bytes'])} |"
    )
    print()


# --- Dask LocalCluster row ----------------------------------------------------------------
# The same Géraldine run on a 2-worker Dask LocalCluster, next to the local backend's.


def dask_rate(path: Path, trials: int, workers: int = 2) -> tuple[float, float]:
    """Trials per second on a Dask LocalCluster, once started, and the whole run's seconds.

    Returns:
        ``(trials per second from the cluster up to the last chunk back, seconds of the
        whole run: the cluster's start, the trials and its shutdown)``.
    """
    from simulator.scenario.reading import load_scenario
    from simulator.studies.backends.dask_backend import DaskBackend
    from simulator.studies.execution import make_plans

    (plan,) = make_plans(
        [load_scenario(path)], trials=trials, seed=1, workers=workers, chunk_size=None, out=None
    )
    start = time.perf_counter()
    with DaskBackend(workers=workers) as backend:
        ready = time.perf_counter()
        done = sum(job.stop - job.start for job, _ in backend.map_chunks(plan.jobs()))
        seconds = time.perf_counter() - ready
    return done / seconds, time.perf_counter() - start


def dask_rows(trials: int, workers: int) -> None:
    """Trials per second on a 2-worker Dask LocalCluster next to 2 local worker processes."""
    del workers
    print(f"## Dask LocalCluster, {trials:,} trials of {GERALDINE.stem}\n")
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        print("(the dask extra is not installed: pip install 'harmonies-simulator[dask]')\n")
        return
    local = _timed(GERALDINE, trials, 2)
    rate, whole = dask_rate(GERALDINE, trials, workers=2)
    print("| backend | workers | seconds | trials/s |")
    print("|---|---:|---:|---:|")
    print(f"| local processes | 2 | {local:.2f} | {trials / local:,.0f} |")
    print(f"| dask LocalCluster, whole run | 2 | {whole:.2f} | {trials / whole:,.0f} |")
    print(f"| dask LocalCluster, once started | 2 | {trials / rate:.2f} | {rate:,.0f} |")
    print(flush=True)


# ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Run the benchmarks and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer trials everywhere.")
    parser.add_argument("--trials", type=int, default=None, help="Trials per scenario.")
    parser.add_argument("--trials-big", type=int, default=None, help="Trials of the big run.")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--exact-only", action="store_true", help="Only the exact engine.")
    args = parser.parse_args(argv)
    from bench_exact import exact_table

    if args.exact_only:
        exact_table(args.quick)
        return
    trials = args.trials or (500 if args.quick else 2_000)
    big = args.trials_big or (50_000 if args.quick else 1_000_000)
    print(f"# Benchmarks ({os.cpu_count()} cores, Python {sys.version.split()[0]})\n")
    per_scenario(trials)
    parallel = max(10 * trials, 2_000 * args.workers)
    speed_up(parallel, args.workers)
    dask_rows(parallel, args.workers)
    peak_memory(big, args.workers)
    exact_table(args.quick)
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024
    print(f"(this benchmark process itself peaked at {_mib(usage * scale)})")


if __name__ == "__main__":
    main()
