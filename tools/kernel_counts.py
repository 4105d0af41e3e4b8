"""What one trial costs the kernel in instructions and mispredicted branches, counted, not timed.

    python -m tools.kernel_counts [SCENARIO] [--trials N] [--reference]

For whoever makes the kernel faster (issue 29). A wall-clock comparison of two builds of the
kernel moves by ±5% (and up to ±10%) with edits that only move machine code around, so a
change of a few per cent cannot be seen in one. valgrind's ``cachegrind`` counts the
instructions a process executes and simulates a branch predictor: the same build gives the
same counts on every run, on any machine, whatever else runs there. This tool runs the kernel
under it twice, ``N`` trials of the scenario and none (after the same warm-up), and prints the
difference per trial: instructions, conditional and indirect branches mispredicted.
``--reference`` counts the hand-written kernel of ``careless_watches``
(``../shared/bench/campaign_careless_watches.py``, ``--variant b``) the same way, beside it,
twice: with numba's MT19937, as ``make bench`` times it, and with its ``--rng xoshiro``, so that
its generator's instructions are seen apart from its logic's (stop 69: about 9,000 of its
22,800 a trial are MT19937's; its logic is about 12,000 where ours is about 22,000).

Read the counts knowing what they are not. Instructions are exact; what a mispredicted branch
is, is valgrind's model of a simple predictor, far cruder than a recent CPU's (read them as a
ranking). Neither is the time, but it comes close: the kernel and the reference run their
instructions at about the same rate, so ``make bench``'s ratio of their speeds is the ratio of
their counts within about 10% (``docs/kernel-speed.md``, stop 45). Edits that removed
mispredicted branches by computing both sides were slower, as their added instructions say.
A change is believed when ``make bench`` shows it; this tells why, and what changed.

valgrind's CPU lacks the host's newest instructions, so numba compiles the kernel again for
it, under valgrind (about 4 minutes the first time, in a cache folder of its own:
``<the kernel's cache base>/valgrind``); later runs take about a minute. ``--haswell``
compiles it for that CPU outside valgrind instead (about 30 seconds, into ``valgrind-haswell``):
the counts every stop since 45 reports are of that code (``python -m tools.kernel_counts
--trials 5000 --haswell``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = ROOT / "scenarios" / "careless_watches.toml"
REFERENCE = ROOT.parent / "shared" / "bench" / "campaign_careless_watches.py"
HASWELL = {
    "NUMBA_CPU_NAME": "haswell",
    "NUMBA_CPU_FEATURES": (
        "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+invpcid,"
        "+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,"
        "+ssse3,+xsave,+xsaveopt"
    ),
}
"""numba's target for ``--haswell``: a CPU that valgrind runs, compiled for natively first."""
WARM_UP = 10
"""Trials run first in both processes, so that both compile (or load) the same code."""


@dataclass(frozen=True)
class Counts:
    """What cachegrind says of one process (or of a difference of two)."""

    instructions: int
    cond_mispredicted: int
    ind_mispredicted: int

    def __sub__(self, other: Counts) -> Counts:
        return Counts(
            self.instructions - other.instructions,
            self.cond_mispredicted - other.cond_mispredicted,
            self.ind_mispredicted - other.ind_mispredicted,
        )


def parse(summary: str) -> Counts:
    """The totals of cachegrind's summary (``--branch-sim=yes``), from its standard error."""
    text = summary.replace(",", "")
    refs = re.search(r"I\s+refs:\s+(\d+)", text)
    wrong = re.search(r"Mispredicts:\s+(\d+)\s+\(\s*(\d+)\s+cond\s+\+\s+(\d+)\s+ind", text)
    if refs is None or wrong is None:
        raise ValueError("no instruction count and branch simulation in cachegrind's summary")
    return Counts(int(refs.group(1)), int(wrong.group(2)), int(wrong.group(3)))


def per_trial(many: Counts, none: Counts, trials: int) -> str:
    """One line: the difference of two runs, per trial."""
    d = many - none
    return (
        f"{d.instructions / trials:,.0f} instructions, "
        f"{d.cond_mispredicted / trials:,.1f} conditional and "
        f"{d.ind_mispredicted / trials:,.1f} indirect branches mispredicted a trial"
    )


REFERENCE_RNGS = ("np", "xoshiro")
"""The reference's generators: numba's MT19937 (what ``make bench`` times), and xoshiro256+."""


def _child(scenario: Path, trials: int, reference: str | None) -> None:
    """Run the warm-up, then ``trials`` trials, of our kernel or of the reference.

    ``reference``: None for ours, else the reference's generator (:data:`REFERENCE_RNGS`).
    """
    if reference is not None:
        import importlib.util

        spec = importlib.util.spec_from_file_location("reference_kernel", REFERENCE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.simulate("b", WARM_UP, 3, rng=reference)
        if trials:
            module.simulate("b", trials, 3, rng=reference)
        return
    from simulator.kernel.engine import kernel_matrices
    from simulator.scenario.reading import load_scenario

    loaded = load_scenario(scenario)
    kernel_matrices(loaded, 1, 0, WARM_UP)
    if trials:
        kernel_matrices(loaded, 1, 0, trials)


def _environment(haswell: bool) -> dict[str, str]:
    """The child's environment: its own cache folder, one BLAS thread, Python's hash fixed."""
    from simulator.kernel.cache import cache_base

    # OpenBLAS's idle threads spin a varying while (numpy starts them at import): counted, they
    # moved a run's total by 2% from one run to the next; one thread, and the count is exact.
    env = os.environ | {
        "NUMBA_CACHE_DIR": str(cache_base() / ("valgrind-haswell" if haswell else "valgrind")),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "PYTHONHASHSEED": "0",
    }
    return env | HASWELL if haswell else env


def compiled_natively(scenario: Path, haswell: bool) -> None:
    """With ``haswell``, compile the kernel for that CPU outside valgrind, into the child's cache.

    Under valgrind numba would compile it for valgrind's CPU at about a tenth of the speed
    (minutes); compiled here for a CPU valgrind runs, the counted children load it.
    """
    if haswell:
        command = [sys.executable, "-m", "tools.kernel_counts", str(scenario), "--trials", "0"]
        env = _environment(haswell)
        subprocess.run([*command, "--child"], cwd=ROOT, env=env, check=True)


def child_command(scenario: Path, trials: int, reference: str | None) -> list[str]:
    """The child's command line under valgrind: ours, or the reference with a generator."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--branch-sim=yes",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "tools.kernel_counts",
        str(scenario),
        "--trials",
        str(trials),
        "--child",
    ]
    return command + ([] if reference is None else ["--reference-rng", reference])


def counted(scenario: Path, trials: int, reference: str | None, haswell: bool = False) -> Counts:
    """The counts valgrind's cachegrind gives of one child process."""
    env = _environment(haswell)
    command = child_command(scenario, trials, reference)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the counted process failed:\n{done.stderr[-2000:]}")
    return parse(done.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", type=Path, default=DEFAULT_SCENARIO)
    parser.add_argument("--trials", type=int, default=20_000)
    parser.add_argument("--reference", action="store_true", help="count the reference too")
    parser.add_argument(
        "--haswell",
        action="store_true",
        help="count code compiled for haswell outside valgrind (seconds, not minutes, to compile)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--reference-rng", choices=REFERENCE_RNGS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.scenario, args.trials, args.reference_rng)
        return 0
    if shutil.which("valgrind") is None:
        print("kernel_counts needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    scenario = args.scenario.resolve()
    rows: list[tuple[str, str | None]] = [("ours", None)]
    if args.reference:
        if not REFERENCE.is_file():
            print(f"no reference kernel at {REFERENCE}", file=sys.stderr)
            return 2
        rows.append(("reference --variant b (MT19937, as make bench times it)", "np"))
        rows.append(("reference --variant b --rng xoshiro (its generator's cost apart)", "xoshiro"))
    compiled_natively(scenario, args.haswell)
    target = " (haswell code)" if args.haswell else ""
    print(f"{scenario.stem}, {args.trials:,} trials less none, counted by valgrind{target}:")
    for name, reference in rows:
        counted(scenario, 0, reference, args.haswell)  # compiled first, if it must be
        none = counted(scenario, 0, reference, args.haswell)
        many = counted(scenario, args.trials, reference, args.haswell)
        print(f"  {name}: {per_trial(many, none, args.trials)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
