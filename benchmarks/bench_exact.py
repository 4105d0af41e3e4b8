"""Benchmarks of the exact engine (issues 12 and 18), a table of ``make bench``.

Each row: the scenario (with its ``--set`` overrides), the target, the seconds of one exact
computation on one core (wall, and CPU beside it: a shared machine shows the difference),
the states carried, the most held at once and the dropped mass; a computation refused by the
budget reads "refused" with how far it got. The full rows are issue 18's:
``run scenarios/geraldine.toml --exact`` (60 days) within 10 s, every other scenario exact
within 30 s or refused by the budget within 10 s.

Usage::

    python benchmarks/bench_exact.py [--quick] [--max-states N] [--max-seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.errors import UserError  # noqa: E402
from simulator.exact import DEFAULT_MAX_STATES, solve  # noqa: E402
from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides  # noqa: E402

SCENARIOS = ROOT / "scenarios"


def rows(quick: bool) -> list[tuple[str, tuple[str, ...], str]]:
    """``(file stem, overrides, target)`` of each row of the table."""
    stems = sorted(path.stem for path in SCENARIOS.glob("*.toml"))
    short = [(stem, ("horizon=6h",), "≤ 1 s, dropped ≤ 1e-9") for stem in stems]
    table = [*short, ("geraldine_basic", (), "≤ 1 s, dropped ≤ 1e-9")]
    table += [(stem, ("horizon=1d",), "≤ 5 s") for stem in ("geraldine", "field_medic")]
    if not quick:
        table += [("geraldine", (), "≤ 10 s")]
        table += [
            (stem, (), "exact ≤ 30 s, or refused ≤ 10 s") for stem in stems if stem != "geraldine"
        ]
    return table


def exact_table(
    quick: bool = False, max_states: int = DEFAULT_MAX_STATES, max_seconds: float | None = None
) -> None:
    """Print the table of exact timings."""
    budget = f"--max-states {max_states:,}" + (
        f", a time budget of {max_seconds:g} s" if max_seconds else ""
    )
    print(f"## Exact answers (one core, eps 1e-12, {budget})\n")
    print(
        "| scenario | target | seconds | CPU seconds | states carried | most held | dropped mass |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for stem, overrides, target in rows(quick):
        path = SCENARIOS / f"{stem}.toml"
        scenario = scenario_with_overrides(read_scenario_mapping(path), list(overrides), str(path))
        name = f"{stem} {' '.join(overrides)}".strip()
        start, cpu = time.perf_counter(), time.process_time()
        try:
            answer = solve(scenario, max_states=max_states, max_seconds=max_seconds)
        except UserError as exc:
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            reason = str(exc).split(": ", 1)[-1].split("; raise")[0]
            print(f"| {name} | {target} | {seconds:.3f} | {cpu:.3f} | refused: {reason} | | |")
            continue
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"| {name} | {target} | {seconds:.3f} | {cpu:.3f} | {answer.states:,} | "
            f"{answer.peak:,} | {answer.dropped:.1e} |",
            flush=True,
        )
    print()


def main(argv: list[str] | None = None) -> None:
    """Run the exact benchmarks alone."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Only the short rows.")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    parser.add_argument("--max-seconds", type=float, default=None, help="A time budget.")
    args = parser.parse_args(argv)
    exact_table(args.quick, args.max_states, args.max_seconds)


if __name__ == "__main__":
    main()
