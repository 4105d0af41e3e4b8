"""Benchmarks of the exact engine (issue 12's targets), a table of ``make bench``.

Each row: the scenario (with its ``--set`` overrides), the target, the seconds of one exact
computation on one core, the states carried, the most held at once and the dropped mass; a
computation refused by the state budget reads "refused" with how far it got.

Usage::

    python benchmarks/bench_exact.py [--quick] [--max-states N]
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
    short = [
        (path.stem, ("horizon=6h",), "≤ 1 s, dropped ≤ 1e-9")
        for path in sorted(SCENARIOS.glob("*.toml"))
    ]
    table = [*short, ("geraldine_basic", (), "≤ 1 s, dropped ≤ 1e-9")]
    table += [(stem, ("horizon=1d",), "≤ 5 s") for stem in ("geraldine", "field_medic")]
    if not quick:
        table += [
            (stem, ("horizon=1w",), "≤ 60 s or refusal") for stem in ("geraldine", "field_medic")
        ]
        table += [
            (stem, (), "as far as the budget allows") for stem in ("geraldine", "field_medic")
        ]
    return table


def exact_table(quick: bool = False, max_states: int = DEFAULT_MAX_STATES) -> None:
    """Print the table of exact timings."""
    print(f"## Exact answers (one core, eps 1e-12, --max-states {max_states:,})\n")
    print("| scenario | target | seconds | states carried | most held | dropped mass |")
    print("|---|---|---:|---:|---:|---:|")
    for stem, overrides, target in rows(quick):
        path = SCENARIOS / f"{stem}.toml"
        scenario = scenario_with_overrides(read_scenario_mapping(path), list(overrides), str(path))
        name = f"{stem} {' '.join(overrides)}".strip()
        start = time.perf_counter()
        try:
            answer = solve(scenario, max_states=max_states)
        except UserError as exc:
            seconds = time.perf_counter() - start
            reason = str(exc).split(": ", 1)[-1].split(", over")[0]
            print(f"| {name} | {target} | {seconds:.3f} | refused: {reason} | | |", flush=True)
            continue
        seconds = time.perf_counter() - start
        print(
            f"| {name} | {target} | {seconds:.3f} | {answer.states:,} | {answer.peak:,} | "
            f"{answer.dropped:.1e} |",
            flush=True,
        )
    print()


def main(argv: list[str] | None = None) -> None:
    """Run the exact benchmarks alone."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Only the short rows.")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    args = parser.parse_args(argv)
    exact_table(args.quick, args.max_states)


if __name__ == "__main__":
    main()
