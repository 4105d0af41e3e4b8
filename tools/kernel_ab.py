"""Two builds of the kernel timed in one process, batch after batch: which is faster, by how much.

    python -m tools.kernel_ab [REVISION] [--scenario FILE] [--trials N] [--rounds R]
                              [--processes P]

For whoever makes the kernel faster (issue 29). On a shared machine the wall clock of one build
moves by ±10% from one minute to the next, and two processes run one after the other or side by
side cannot tell 2-3% apart (docs/kernel-speed.md, stop 67). Here the working tree's kernel and
the kernel of ``REVISION`` (``HEAD`` by default: the same sources twice, which says how far the
tool itself can be trusted) run in one process, in turn, ``R`` rounds of ``N`` trials of the
same scenario each (the order swapped every round: ABBA), each batch timed in CPU seconds.
Whatever slows the machine in a moment slows both batches of a round alike, so each round's
ratio of the two times holds where the times themselves do not. Each process prints the median
of its rounds' ratios (the working tree's speed over the revision's) with a 95% interval from
the order statistics alone.

That interval is of the process, not of the builds: the same sources compiled twice in one
process are laid out in memory differently and run up to 2-3% apart there, one way in one
process, the other way in the next (stop 68: medians of 1.004, 1.028, 0.997 and 1.018 for one
revision against itself). So ``P`` processes run one after another, each loading the working
tree's kernel first or the revision's first in turn, and the verdict is the mean of their
medians with a t interval over the processes: a change is faster when that interval lies above
1.

The revision's ``simulator`` package is copied out of git (``git archive``) into a temporary
folder as the package ``simulator_base`` (its imports renamed to match), so that both import
side by side; numba compiles it once (its cache is keyed by the sources' content, so a later
run of the same revision loads it). Both give the same numbers or the tool says so: a speed
is compared only between builds that run the same trials to the same records (pass
``--differ`` to time builds whose numbers differ on purpose).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = ROOT / "scenarios" / "careless_watches.toml"
BASE_PACKAGE = "simulator_base"
_IMPORTS = re.compile(r"\bsimulator(?=\.[A-Za-z_]|[ \t]+import\b)")
"""``simulator`` where it names the package: ``simulator.x`` and ``from simulator import``."""
_BARE = re.compile(r"^(\s*)import simulator\s*$", re.MULTILINE)
"""``import simulator``, which keeps its name as ``import simulator_base as simulator``."""


def renamed(text: str, package: str = BASE_PACKAGE) -> str:
    """A module's source with the package ``simulator`` named ``package`` wherever it is named.

    ``simulator.kernel``, ``"simulator.rules"`` and ``from simulator import x`` are renamed;
    ``import simulator`` becomes ``import <package> as simulator``; a word that merely
    contains the name (``harmonies-simulator``, ``simulator_x``) is left as it is.
    """
    return _IMPORTS.sub(package, _BARE.sub(rf"\1import {package} as simulator", text))


@dataclass(frozen=True)
class Verdict:
    """What the rounds say: the median ratio (the working tree's speed ÷ the revision's)."""

    rounds: int
    median: float
    low: float
    """The 95% interval of the median, from the order statistics (distribution-free)."""
    high: float
    quartiles: tuple[float, float]

    def __str__(self) -> str:
        return (
            f"working tree ÷ revision, trials per CPU-second: median {self.median:.3f} "
            f"(95% interval {self.low:.3f}-{self.high:.3f}; middle half "
            f"{self.quartiles[0]:.3f}-{self.quartiles[1]:.3f}; {self.rounds} rounds)"
        )


def median_interval(n: int, confidence: float = 0.95) -> tuple[int, int]:
    """The ranks (0-based) bounding a ``confidence`` interval of the median of ``n`` values.

    The number of values below the median is Binomial(n, 1/2) whatever their law: the interval
    is ``[x_(j), x_(n-1-j)]`` for the largest ``j`` whose two tails together hold at most
    ``1 - confidence``. Below 6 values no such ``j`` exists for 95%: the whole range.
    """
    if n < 1:
        raise ValueError("no rounds")
    tail = (1.0 - confidence) / 2.0
    j, below = -1, 0.0
    while j + 1 < n // 2:
        below += math.comb(n, j + 1) / 2.0**n
        if below > tail:
            break
        j += 1
    j = max(j, 0)
    return j, n - 1 - j


def verdict(ratios: Sequence[float]) -> Verdict:
    """The median of the rounds' ratios, its 95% interval and the middle half."""
    values = sorted(ratios)
    n = len(values)
    if n == 0:
        raise ValueError("no rounds")

    def at(q: float) -> float:  # linear interpolation between order statistics
        x = q * (n - 1)
        i = math.floor(x)
        return values[i] if i + 1 >= n else values[i] + (x - i) * (values[i + 1] - values[i])

    low, high = median_interval(n)
    return Verdict(n, at(0.5), values[low], values[high], (at(0.25), at(0.75)))


def base_package(revision: str, into: Path) -> Path:
    """``revision``'s ``simulator`` package, written under ``into`` as :data:`BASE_PACKAGE`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "simulator"],
        check=True,
        capture_output=True,
    ).stdout
    tar_path = into / "base.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on: git's own paths, checked
            tar.extractall(into / "unpacked", filter="data")
        else:  # pragma: no cover (older 3.11)
            tar.extractall(into / "unpacked")  # our own repository's archive
    source = into / "unpacked" / "simulator"
    target = into / BASE_PACKAGE
    for path in sorted(source.rglob("*")):
        out = target / path.relative_to(source)
        if path.is_dir():
            out.mkdir(parents=True, exist_ok=True)
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py":
            out.write_text(renamed(path.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            out.write_bytes(path.read_bytes())
    return target


def _runner(package: str, scenario: Path, seed: int) -> Callable[[int, int], Any]:
    engine = importlib.import_module(f"{package}.kernel.engine")
    reading = importlib.import_module(f"{package}.scenario.reading")
    loaded = reading.load_scenario(scenario)

    def run(start: int, stop: int) -> Any:
        return engine.kernel_matrices(loaded, seed, start, stop)

    return run


def timed(run: Callable[[int, int], Any], trials: int) -> float:
    """CPU seconds of one batch of ``trials`` trials."""
    began = time.process_time()
    run(0, trials)
    return time.process_time() - began


def one_process(
    folder: Path, scenario: Path, trials: int, rounds: int, seed: int, ours_first: bool = True
) -> dict[str, Any]:
    """The rounds of one process: both kernels loaded, checked alike, timed in turn (ABBA).

    ``ours_first``: whether the working tree's kernel is imported and loaded (its machine code
    placed in memory) before the revision's; the parent alternates it from process to process.
    """
    import numpy as np

    sys.path.insert(0, str(folder))
    check = 2_000
    if ours_first:
        ours = _runner("simulator", scenario, seed)
        a = ours(0, check)
        theirs = _runner(BASE_PACKAGE, scenario, seed)
        b = theirs(0, check)
    else:
        theirs = _runner(BASE_PACKAGE, scenario, seed)
        b = theirs(0, check)
        ours = _runner("simulator", scenario, seed)
        a = ours(0, check)
    same = all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b, strict=True))
    ratios: list[float] = []
    for r in range(rounds):
        if r % 2 == 0:
            mine, base = timed(ours, trials), timed(theirs, trials)
        else:
            base, mine = timed(theirs, trials), timed(ours, trials)
        ratios.append(base / mine)
    return {"same": bool(same), "ratios": ratios}


@dataclass(frozen=True)
class Across:
    """What several processes say: the mean of their medians, with a t interval (95%)."""

    medians: tuple[float, ...]
    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        each = ", ".join(f"{m:.3f}" for m in self.medians)
        return (
            f"working tree ÷ revision over {len(self.medians)} processes: {self.mean:.3f} "
            f"(95% interval {self.low:.3f}-{self.high:.3f}; each process's median: {each})"
        )


def across(medians: Sequence[float]) -> Across:
    """The mean of the processes' medians and its 95% t interval (none for one process).

    The processes are the units: two copies of the same sources, compiled in two processes,
    are laid out in memory differently and may run a few per cent apart in one process and not
    in the next (docs/kernel-speed.md), which no number of rounds within one process averages.
    """
    from scipy import stats

    values = tuple(float(m) for m in medians)
    n = len(values)
    if n == 0:
        raise ValueError("no processes")
    mean = sum(values) / n
    if n == 1:
        return Across(values, mean, math.nan, math.nan)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return Across(values, mean, mean - half, mean + half)


def main(argv: Sequence[str] | None = None) -> None:
    """Time the working tree's kernel against a revision's, in turn within each process."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.kernel_ab",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("revision", nargs="?", default="HEAD")
    parser.add_argument("--scenario", type=Path, default=DEFAULT_SCENARIO)
    parser.add_argument("--trials", type=int, default=20_000, help="trials a batch")
    parser.add_argument("--rounds", type=int, default=16, help="rounds a process")
    parser.add_argument("--processes", type=int, default=4, help="processes, one after another")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--differ", action="store_true", help="time them even if their numbers differ"
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--base-first", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:  # one process's rounds, for the parent to read
        print(
            json.dumps(one_process(args.child, args.scenario, args.trials, args.rounds, args.seed))
        )
        return
    with tempfile.TemporaryDirectory(prefix="kernel_ab_") as folder:
        base_package(args.revision, Path(folder))
        medians: list[float] = []
        same = True
        for i in range(args.processes):
            command = [
                sys.executable, "-m", "tools.kernel_ab", "--child", folder,
                "--scenario", str(args.scenario), "--trials", str(args.trials),
                "--rounds", str(args.rounds), "--seed", str(args.seed),
            ] + (["--base-first"] if i % 2 else [])  # fmt: skip
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
            answer = json.loads(done.stdout.strip().splitlines()[-1])
            same = same and answer["same"]
            if not same and not args.differ:
                raise SystemExit(
                    f"the working tree and {args.revision} give different records on "
                    f"{args.scenario.name}: not the same trials to time (--differ times them)"
                )
            one = verdict(answer["ratios"])
            medians.append(one.median)
            print(f"process {i + 1}: {one}", flush=True)
        print(
            f"{args.scenario.name}, {args.trials:,} trials a batch, {args.rounds} rounds a "
            f"process, against {args.revision}{'' if same else ' (numbers differ)'}"
        )
        print(across(medians))


if __name__ == "__main__":
    main()
