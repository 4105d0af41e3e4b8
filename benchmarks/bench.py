"""Benchmarks of the runner (``make bench``).

Prints, as markdown tables:

1. for every scenario of ``scenarios/`` (files left out): trials per second per worker of
   the fast path (the kernel; a run sized to last about 6 s on one worker) and of the
   event-by-event reference on SimPy (2,000 trials) side by side, and the speed-up of the
   fast path from one worker to two on that run;
2. issue 18's table of targets, each row with its figure, its reference, the target and
   whether it is met: the compiled kernel alone on the 60-day campaign
   (``scenarios/careless_watches.toml``, trials per CPU-second) beside the event-by-event
   reference on SimPy; ``run --trials 1000000`` end to end (files and figures included) on one
   worker beside the same run on the SimPy reference (:data:`_ON_OBJECTS`), its peak
   memory, and two workers against one; ``validate`` and ``run --trials 100`` on Géraldine;
   Géraldine ``--exact``;
3. the speed-up from one worker to all cores on the Géraldine scenario (a run of about 12 s
   on one worker);
4. the peak memory of a run of 1,000,000 trials of the Géraldine scenario, measured in a
   separate process (``ru_maxrss`` of that process and of its largest worker);
5. a Dask LocalCluster row (see the marked place below);
6. the exact engine's timings against issue 12's targets (``benchmarks/bench_exact.py``);
7. issue 29's kernel alone beside the hand-written reference kernel of ``careless_watches``
   (``../shared/bench/``, where the workplace has it), and its compilation targets: the
   kernel's first compile into an empty cache (a fresh ``NUMBA_CACHE_DIR``, in a
   subprocess), and the first warm-up of a second checkout of the
   same sources (another path, new file times) with that cache: what it compiled and wrote;
8. ``calibrate``'s two rows of issue 32 (``benchmarks/bench_calibrate.py``);
9. issue 33's table of scale (``benchmarks/bench_scale.py``): 10,000,000 trials on 1 and 2
   workers (wall and peak memory), the time to ``run geraldine``'s answer, a 20-point
   sweep on 1 and 2 workers, and ``--backend dask`` beside the local backend.

Usage::

    python benchmarks/bench.py [--quick] [--kernel-only] [--trials N] [--trials-big N]
        [--workers W]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.runner import chunks  # noqa: E402
from simulator.studies.api import run_study  # noqa: E402

SCENARIOS = ROOT / "scenarios"
GERALDINE = SCENARIOS / "geraldine.toml"
CAMPAIGN = SCENARIOS / "careless_watches.toml"

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


def _timed(scenario: Path, trials: int, workers: int, kernel: bool = True) -> float:
    """Seconds for a run (no output directory: the run itself, frames included).

    ``kernel=False`` runs the event-by-event reference (in this process, so one worker only).
    """
    if not kernel and workers != 1:
        raise ValueError("the event-by-event engine is benchmarked with one worker")
    lookup = chunks._trial_fn
    if not kernel:
        from simulator.runner.engines import run_trial

        chunks._trial_fn = lambda: partial(run_trial, kernel=False)
    try:
        start = time.perf_counter()
        run_study(scenario, trials=trials, seed=1, workers=workers)
        return time.perf_counter() - start
    finally:
        chunks._trial_fn = lookup


def sized(path: Path, seconds: float, probe: int) -> tuple[int, float]:
    """Trials of the kernel that take about ``seconds`` on one worker, and that rate.

    A run of ``probe`` trials gives the rate; the run sized from it is timed again. Runs of a
    second or two would measure starting the worker processes and assembling the frames
    more than the trials, and hide the speed-up from one worker to two.
    """
    rate = probe / _timed(path, probe, 1)
    many = max(probe, int(rate * seconds))
    return many, many / _timed(path, many, 1)


def per_scenario(trials: int, seconds: float) -> None:
    """Trials per second per worker, fast and event by event, and the speed-up to 2 workers.

    The event-by-event engine runs ``trials`` trials; the fast one as many as take about
    ``seconds`` on one worker (:func:`sized`), then the same number on two.
    """
    print(
        f"## Every scenario (trials/s per worker; event by event {trials:,} trials, "
        f"fast about {seconds:g} s of trials on one worker, then the same on two)\n"
    )
    print(
        "| scenario | fast trials | fast, 1 worker | event by event, 1 worker | fast ÷ event "
        "| fast, 2 workers | speed-up 1 → 2 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in sorted(SCENARIOS.glob("*.toml")):
        many, fast = sized(path, seconds, 10 * trials)
        event = trials / _timed(path, trials, 1, kernel=False)
        two = many / _timed(path, many, 2)
        print(
            f"| {path.stem} | {many:,} | {fast:,.0f} | {event:,.0f} | {fast / event:.2f} | "
            f"{two / 2:,.0f} | {two / fast:.2f} |",
            flush=True,
        )
    print()


def engine_rate(path: Path, trials: int, kernel: bool = False) -> float:
    """Trials per CPU-second of the engine alone (one process, no frames, no files).

    ``kernel``: the compiled kernel, by batch; else trial by trial, the event-by-event
    reference on SimPy.
    """
    from simulator.kernel.engine import kernel_columns
    from simulator.runner.engines import run_trial
    from simulator.scenario.reading import load_scenario

    scenario = load_scenario(path)
    if kernel:
        kernel_columns(scenario, 1, 0, 10)  # compiled (or loaded from the cache) first
        start = time.process_time()
        kernel_columns(scenario, 1, 0, trials)
        return trials / (time.process_time() - start)
    start = time.process_time()
    for i in range(trials):
        run_trial(scenario, i, 1, kernel=False)
    return trials / (time.process_time() - start)


ROUNDS = 5
"""Rounds of the engine-alone rates of issue 18's table (each the best of its rounds)."""


REFERENCE_KERNEL = ROOT.parent / "shared" / "bench" / "campaign_careless_watches.py"
"""The hand-written numba kernel of ``careless_watches`` (a yardstick beside ours, never code
of the project), where the workplace provides it."""


def reference_kernel_row(trials: int = 200_000, rounds: int = 3) -> None:
    """Issue 29's first row: our kernel alone beside the hand-written one, in this process.

    Both on ``careless_watches``, interleaved, best of ``rounds``, in trials per CPU-second of
    the engine alone (no frames, no files): the ratio holds on a shared machine where the
    absolute rates do not. Skipped (said so) where the reference is not there.

    A second row, for information, sets ours beside the reference built with ``--count``: as
    the bench runs it, the reference computes no count of tests (its ``count=False`` compiles
    them out), where our kernel records every count of Q1 in each trial's row; with its counts
    it gives what ours gives.
    """
    print("## Issue 29's kernel against a hand-written one\n")
    if not REFERENCE_KERNEL.is_file():
        print(f"(skipped: no {REFERENCE_KERNEL})\n")
        return
    import importlib.util

    spec = importlib.util.spec_from_file_location("reference_kernel", REFERENCE_KERNEL)
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    for counted in (False, True):  # compiled first, as ours is by engine_rate
        reference.simulate("b", 1_000, 3, count=counted)

    def theirs(counted: bool) -> float:
        start = time.process_time()
        reference.simulate("b", trials, 3, count=counted)
        return trials / (time.process_time() - start)

    ours = ref = ref_counted = 0.0
    paired: list[float] = []  # each round's ratio, its two batches run one after the other
    for _ in range(rounds):
        mine, its = engine_rate(CAMPAIGN, trials, kernel=True), theirs(False)
        paired.append(mine / its)
        ours, ref = max(ours, mine), max(ref, its)
        ref_counted = max(ref_counted, theirs(True))
    print(f"(load average {os.getloadavg()[0]:.2f})\n")
    print(
        "(each round's own ratio, for how far the machine's moments move it: "
        + ", ".join(f"{r:.2f}×" for r in paired)
        + f"; their median {statistics.median(paired):.2f}×)\n"
    )
    print("| what | ours | reference | ratio | target | met |")
    print("|---|---:|---:|---:|---:|:-:|")
    print(
        f"| kernel alone on {CAMPAIGN.stem}, {trials:,} trials, best of {rounds}, "
        f"against `--variant b` | {ours:,.0f} trials/CPU-s | {ref:,.0f} trials/CPU-s | "
        f"{ours / ref:.2f}× | ≥ 1.0× | {'yes' if ours >= ref else 'no'} |"
    )
    print(
        f"| the same, against `--variant b --count` (the reference's counts of tests "
        f"computed, as ours are; for information) | {ours:,.0f} trials/CPU-s | "
        f"{ref_counted:,.0f} trials/CPU-s | {ours / ref_counted:.2f}× | | |\n",
        flush=True,
    )


def campaign(trials: int, reference: int, end_to_end: int, reference_run: int) -> None:
    """Issue 18's table of targets: each row measured, its reference beside it, met or not.

    The kernel alone beside the pure-Python reference engine (by runs) in this process, then
    ``run --trials N`` end to end (files and figures) with the kernel on one and two workers
    beside the same run on the SimPy reference (:data:`_ON_OBJECTS`, fewer trials),
    then ``validate`` and ``run --trials 100`` on Géraldine, and Géraldine ``--exact``. The
    load average is printed with it: on a shared machine only the ratios compare.
    """
    from simulator.kernel.jit import status

    print(f"## Issue 18's targets, one worker ({status()})\n")
    print(f"(load average {os.getloadavg()[0]:.2f} at the start)\n")
    print(
        f"(engine alone: the best of {ROUNDS} rounds of each, interleaved; `run` end to end with "
        "the kernel, `validate` and `run --trials 100`: the best of 2 or 3. As timeit does: "
        "the speed of a shared machine varies up to twofold from one second to the next, and "
        "the best is the least disturbed.)\n"
    )
    print("| what | measured | reference | ratio | target | met |")
    print("|---|---:|---:|---:|---:|:-:|")
    pure, ours = 0.0, 0.0
    for _ in range(ROUNDS):  # interleaved, so that both see the machine's good and bad moments
        pure = max(pure, engine_rate(CAMPAIGN, reference // ROUNDS))
        ours = max(ours, engine_rate(CAMPAIGN, trials // ROUNDS, kernel=True))
    _row(
        f"kernel on {CAMPAIGN.stem}, engine alone ({trials:,} trials; reference: the "
        f"event-by-event reference on SimPy, {reference:,})",
        f"{ours:,.0f} trials/s",
        f"{pure:,.0f} trials/s",
        ours / pure,
        "≥ 150,000 trials/s",
        ours >= 150_000,
    )
    (one, memory), (slow, _) = (
        min(end_to_end_run(end_to_end, workers=1) for _ in range(2)),
        end_to_end_run(reference_run, workers=1, kernel=False),
    )
    rate, slow_rate = end_to_end / one, reference_run / slow
    _row(
        f"`run {CAMPAIGN.name} --trials {end_to_end:,} --workers 1`, end to end (reference: "
        f"pure-Python engine, {reference_run:,} trials)",
        f"{rate:,.0f} trials/s ({one:.1f} s)",
        f"{slow_rate:,.0f} trials/s",
        rate / slow_rate,
        f"≥ 60,000 trials/s (≤ {end_to_end / 60_000:.1f} s)",
        rate >= 60_000,
    )
    _row("the same, peak memory (largest process)", _mib(memory), "", None, "≤ 1,536 MiB",
         memory <= 1.5 * 2**30)  # fmt: skip
    two, _ = min(end_to_end_run(end_to_end, workers=2) for _ in range(2))
    _row("the same on 2 workers against 1", f"{two:.1f} s", f"{one:.1f} s", one / two, "≥ 1.8×",
         one / two >= 1.8)  # fmt: skip
    trials_s = end_to_end / ours  # the trials alone, at the engine-alone rate
    rest = max(one - trials_s, 0.0)
    _row(
        f"(what 2 workers could give at best: the trials, {trials_s:.1f} s, halved; the rest, "
        f"{rest:.1f} s of start, files and figures, as it is)",
        f"{rest + trials_s / 2:.1f} s", f"{one:.1f} s", one / (rest + trials_s / 2), "", None,
    )  # fmt: skip
    validate = [sys.executable, "-m", "simulator", "validate", str(GERALDINE)]
    check = min(wall(validate) for _ in range(3))
    _row(f"`validate {GERALDINE.name}`, wall", f"{check:.2f} s", "", None, "≤ 0.3 s", check <= 0.3)
    small = min(wall([*_run_command(GERALDINE, 100, 1), "--out", "{out}"]) for _ in range(3))
    _row(f"`run {GERALDINE.name} --trials 100`, wall", f"{small:.2f} s", "", None, "≤ 1 s",
         small <= 1.0)  # fmt: skip
    first = min(to_answer([*_run_command(GERALDINE, 100, 1), "--out", "{out}"]) for _ in range(3))
    _row("the same, time to the printed answer (issue 33; the figures follow)", f"{first:.2f} s",
         f"{small:.2f} s", small / first, "≤ 0.6 s", first <= 0.6)  # fmt: skip
    exact = wall([sys.executable, "-m", "simulator", "run", str(GERALDINE), "--exact", "--out",
                  "{out}"])  # fmt: skip
    _row(f"`run {GERALDINE.name} --exact` (60 days), wall", f"{exact:.1f} s", "", None, "≤ 10 s",
         exact <= 10.0)  # fmt: skip
    print(
        "| every other scenario `--exact` | see the exact table | | | ≤ 30 s, or refused ≤ 10 s | |"
    )
    print(f"\n(load average {os.getloadavg()[0]:.2f} at the end)\n", flush=True)


def _row(
    what: str, measured: str, ref: str, ratio: float | None, target: str, met: bool | None
) -> None:
    ratio_text = f"{ratio:.1f}×" if ratio is not None else ""
    met_text = "" if met is None else "yes" if met else "no"
    print(f"| {what} | {measured} | {ref} | {ratio_text} | {target} | {met_text} |", flush=True)


_ON_OBJECTS = (
    "import sys; from functools import partial; from simulator.runner import chunks; "
    "from simulator.runner.engines import run_trial; "
    "chunks._trial_fn = lambda: partial(run_trial, kernel=False); "
    "sys.argv[0] = 'harmonies-sim'; from simulator.__main__ import run; run()"
)
"""``harmonies-sim`` with every trial on the event-by-event reference on SimPy: the runner's
own lookup of the trial function replaced, as its tests do (the kernel runs every scenario,
so no setting of the command sends a run elsewhere)."""


def _run_command(scenario: Path, trials: int, workers: int, kernel: bool = True) -> list[str]:
    start = [sys.executable, "-m", "simulator"] if kernel else [sys.executable, "-c", _ON_OBJECTS]
    return [
        *start, "run", str(scenario), "--trials", str(trials),
        "--workers", str(workers), "--seed", "1",
    ]  # fmt: skip


_PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)
"""A fresh process that runs a command and prints the largest peak (ru_maxrss) of its own
children: of that command's process and of its workers, not of anything run before."""


def wall(command: list[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of a command (``{out}`` in it: a fresh folder that does not exist yet)."""
    with tempfile.TemporaryDirectory() as tmp:
        line = [part.replace("{out}", str(Path(tmp) / "run")) for part in command]
        start = time.perf_counter()
        subprocess.run(line, check=True, capture_output=True, cwd=ROOT, env=env)
        return time.perf_counter() - start


def to_answer(command: list[str]) -> float:
    """Wall seconds from a command's start to its first line on stdout (its answer)."""
    with tempfile.TemporaryDirectory() as tmp:
        line = [part.replace("{out}", str(Path(tmp) / "run")) for part in command]
        start = time.perf_counter()
        process = subprocess.Popen(
            line, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT
        )
        assert process.stdout is not None
        process.stdout.readline()
        first = time.perf_counter() - start
        process.stdout.read()
        if process.wait() != 0:
            raise RuntimeError(f"{line}: exit status {process.returncode}")
        return first


def end_to_end_run(trials: int, workers: int, kernel: bool = True) -> tuple[float, int]:
    """Wall seconds of ``harmonies-sim run`` on the campaign (files and figures), and its peak.

    The peak is the largest resident size of the run's process or one of its workers, in
    bytes. ``kernel=False``: every trial on the SimPy reference (:data:`_ON_OBJECTS`).
    """
    with tempfile.TemporaryDirectory() as out:
        run = _run_command(CAMPAIGN, trials, workers, kernel)
        command = [*run, "--out", str(Path(out) / "run")]
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, *command],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        seconds = time.perf_counter() - start
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return seconds, int(done.stdout.split()[-1]) * scale


def speed_up(probe: int, workers: int, seconds: float) -> None:
    """The speed-up from one worker to ``workers`` on the Géraldine scenario.

    The run is sized to take about ``seconds`` on one worker (:func:`sized`).
    """
    trials, rate = sized(GERALDINE, seconds, probe)
    base = trials / rate
    print(f"## Speed-up on {GERALDINE.stem}, {trials:,} trials\n")
    print("| workers | seconds | trials/s | speed-up |")
    print("|---:|---:|---:|---:|")
    print(f"| 1 | {base:.2f} | {rate:,.0f} | 1.00 |", flush=True)
    if workers > 1:
        elapsed = _timed(GERALDINE, trials, workers)
        print(f"| {workers} | {elapsed:.2f} | {trials / elapsed:,.0f} | {base / elapsed:.2f} |")
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
    from simulator.runner.backends.dask_backend import DaskBackend
    from simulator.runner.execution import make_plans
    from simulator.scenario.reading import load_scenario

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


def _warm_up(root: Path, env: dict[str, str]) -> dict[str, Any]:
    """``python -m tools.kernel_warmup --json`` run from the checkout ``root``."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.kernel_warmup", "--json"],
        capture_output=True, text=True, check=True, cwd=root, env={**env, "PYTHONPATH": str(root)},
    )  # fmt: skip
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def _files(folder: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def basic_mental_rows(trials: int = 20_000, reference: int = 400) -> None:
    """Issue 29: the kernel alone on the basic ruleset and on mental wounds, beside SimPy.

    ``geraldine_basic`` and ``shaken``, trials per CPU-second of the engine alone: the kernel
    on ``trials`` trials, the event-by-event reference on ``reference``, interleaved, the
    best of :data:`ROUNDS` rounds of each.
    """
    print("## Issue 29: the kernel on the basic ruleset and on mental wounds\n")
    print(f"(load average {os.getloadavg()[0]:.2f} at the start)\n")
    print("| what | kernel | SimPy reference | ratio | target | met |")
    print("|---|---:|---:|---:|---:|:-:|")
    for name in ("geraldine_basic", "shaken"):
        path = SCENARIOS / f"{name}.toml"
        ours = theirs = 0.0
        for _ in range(ROUNDS):
            ours = max(ours, engine_rate(path, trials // ROUNDS, kernel=True))
            theirs = max(theirs, engine_rate(path, reference // ROUNDS))
        _row(
            f"kernel alone on {name} ({trials:,} trials; reference {reference:,})",
            f"{ours:,.0f} trials/CPU-s", f"{theirs:,.0f} trials/CPU-s", ours / theirs,
            "≥ 100×", ours >= 100 * theirs,
        )  # fmt: skip
    print(flush=True)


def compile_rows() -> None:
    """Issue 29's compilation targets: a first compile, and a second checkout's first run.

    The first runs the warm-up into a new, empty ``NUMBA_CACHE_DIR``; the second copies the
    sources (``simulator/``, ``tools/``) to another folder, so other paths and file times, and
    runs the warm-up there with the same cache: it should compile and write nothing.
    """
    from simulator.kernel.cache import FALLBACK_VARIABLE

    print("## Issue 29's compilation targets\n")
    print(f"(load average {os.getloadavg()[0]:.2f} at the start)\n")
    print("| what | measured | reference | ratio | target | met |")
    print("|---|---:|---:|---:|---:|:-:|")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "numba"
        env = {
            k: v for k, v in os.environ.items() if k not in (FALLBACK_VARIABLE, "HARMONIES_NO_JIT")
        }
        env["NUMBA_CACHE_DIR"] = str(cache)
        first = _warm_up(ROOT, env)
        seconds = float(first["seconds"])
        _row(
            "first compile into an empty cache (`tools.kernel_warmup`, a new `NUMBA_CACHE_DIR`; "
            f"{first['compiled']} functions, {first['cpu_seconds']:.1f} s of CPU)",
            f"{seconds:.1f} s", "163 s (2e0bfaf)", None, "≤ 30 s", seconds <= 30,
        )  # fmt: skip
        clone = Path(tmp) / "second checkout"
        for part in ("simulator", "tools"):
            shutil.copytree(ROOT / part, clone / part, ignore=shutil.ignore_patterns("__pycache__"))
        before = _files(cache)
        second = _warm_up(clone, env)
        written = sum(1 for p, stamp in _files(cache).items() if before.get(p) != stamp)
        _row(
            "a second checkout of the same sources (another path, new file times), first run "
            "with that cache",
            f"{second['compiled']} functions compiled, {written} cache files written "
            f"({float(second['seconds']):.1f} s)",
            "compiles again", None, "nothing compiled", second["compiled"] == 0 and written == 0,
        )  # fmt: skip
    print(flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmarks and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer trials everywhere.")
    parser.add_argument("--trials", type=int, default=None, help="Trials per scenario.")
    parser.add_argument("--trials-big", type=int, default=None, help="Trials of the big run.")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--exact-only", action="store_true", help="Only the exact engine.")
    parser.add_argument("--kernel-only", action="store_true", help="Only issue 18's table.")
    args = parser.parse_args(argv)
    from bench_exact import exact_table

    if args.exact_only:
        exact_table(args.quick)
        return
    if args.kernel_only:
        compile_rows()
        basic_mental_rows(4_000 if args.quick else 20_000, 100 if args.quick else 400)
        campaign(
            20_000 if args.quick else 200_000,
            500 if args.quick else 4_000,
            50_000 if args.quick else 1_000_000,
            2_000 if args.quick else 20_000,
        )
        return
    trials = args.trials or (500 if args.quick else 2_000)
    big = args.trials_big or (50_000 if args.quick else 1_000_000)
    print(f"# Benchmarks ({os.cpu_count()} cores, Python {sys.version.split()[0]})\n")
    seconds = 1.5 if args.quick else 6.0
    per_scenario(trials, seconds)
    campaign(
        20_000 if args.quick else 200_000,
        500 if args.quick else 4_000,
        50_000 if args.quick else 1_000_000,
        2_000 if args.quick else 20_000,
    )
    parallel = max(10 * trials, 2_000 * args.workers)
    speed_up(parallel, args.workers, 2 * seconds)
    dask_rows(parallel, args.workers)
    peak_memory(big, args.workers)
    exact_table(args.quick)
    reference_kernel_row(20_000 if args.quick else 200_000)
    basic_mental_rows(4_000 if args.quick else 20_000, 100 if args.quick else 400)
    compile_rows()
    from bench_calibrate import calibrate_table

    calibrate_table()
    from bench_scale import scale_table

    scale_table(args.quick)
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024
    print(f"(this benchmark process itself peaked at {_mib(usage * scale)})")


if __name__ == "__main__":
    main()
