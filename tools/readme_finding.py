"""The main study's finding on Géraldine, in words, and the README's copy of it.

The main study (``harmonies-sim study scenarios``) runs what ``scenarios/studies/geraldine.toml``
describes: the first-aid grid (``first-aid.csv``) and the headline with the stable-period
survival tests on and off (``stable-tests.csv``); that description names :func:`finding_in`
as the writer of its finding, which the study puts into ``results/README.md`` between the
markers of :func:`simulator.studies.main_study.finding_start`. This script writes the same
sentences, computed again from the committed files ``results/geraldine/first-aid.csv``,
``stable-tests.csv`` and ``scenario.toml``, between the same markers in ``README.md``, the
paragraph after its first figure (``make run`` does). It changes nothing else, and nothing
when the markers are missing (it says so and exits 1).

Usage::

    python -m tools.readme_finding [--results results] [--readme README.md] [--check]

``--check`` writes nothing and exits 1 when the README's sentences are not the results'.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from simulator.report.causes import causes_phrase
from simulator.report.wording import percent
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.dice import p_success
from simulator.rules.durations import format_duration, parse_duration
from simulator.rules.levels import Track
from simulator.scenario.model import Scenario
from simulator.scenario.reading import load_scenario
from simulator.studies.main_study import FINDING_END, finding_start

REPO = Path(__file__).resolve().parent.parent

STEM = "geraldine"
"""The scenario (``scenarios/<STEM>.toml``) of the texts' worked example."""

FINDING_START = finding_start(STEM)
"""The marker before Géraldine's finding."""

SAFE = 0.05
""""Plenty of time" holds when she dies in at most this share of campaigns."""


def tries_before_first_test(scenario: Scenario) -> int:
    """First-aid tries due at or before the first survival test of the worst wound (O1)."""
    aid = scenario.first_aid
    physical = [i.level for i in scenario.injuries if i.level.track is Track.PHYSICAL]
    if not physical:
        return 0
    worst = max(physical)
    period = scenario.table[worst].unstable_period
    if aid is None or aid.start > period:
        return 0
    return int((period - aid.start) // aid.interval) + 1


def _every_words(every: str) -> str:
    seconds = parse_duration(every)
    if seconds == 60:
        return "every minute"
    if seconds % 60 == 0:
        return f"every {int(seconds // 60)} minutes"
    return f"every {format_duration(seconds).replace('s', ' s')}"


def _pct(p: float) -> str:
    return percent(p, 0)


def safe_levels(grid: pd.DataFrame) -> dict[str, int | None]:
    """For each cadence, the lowest level from which every level dies in at most SAFE."""
    result: dict[str, int | None] = {}
    for every in dict.fromkeys(grid["every"]):
        rows = grid[grid["every"] == every].sort_values("level")
        safe = None  # the lowest level of the last run of safe levels up to the top
        for level, p in zip(rows["level"], rows["p_dead"], strict=True):
            if p > SAFE:
                safe = None
            elif safe is None:
                safe = int(level)
        result[str(every)] = safe
    return result


def finding(grid: pd.DataFrame, headline: pd.DataFrame, scenario: Scenario) -> str:
    """The sentences a designer can act on, every number read from the two frames.

    Args:
        grid: ``first-aid.csv``.
        headline: ``stable-tests.csv``.
        scenario: Géraldine's scenario as simulated (for her own first aid).
    """
    safe = safe_levels(grid)
    held = [f"{_every_words(e)} from level {lvl} up" for e, lvl in safe.items() if lvl is not None]
    never = [_every_words(e) for e, lvl in safe.items() if lvl is None]
    top = int(grid["level"].max())
    first = (
        f"The texts' “fifteen minutes leaves plenty of time to stabilise her” holds (Géraldine "
        f"dies in at most {_pct(SAFE)} of campaigns) only if her companions try first aid "
        f"{_either(held)}"
        + (f"; {' or '.join(never)}, not even level {top} is enough" if never else "")
        + "."
    )
    aid = scenario.first_aid
    on = headline[headline["stable_survival_tests"]].iloc[0]
    off = headline[~headline["stable_survival_tests"]].iloc[0]
    if aid is None:
        return first
    start = min(i.at for i in scenario.injuries)
    wounds = sum(
        scenario.table[i.level].difficulty * i.count
        for i in scenario.injuries
        if i.at == start and i.level.track is Track.PHYSICAL
    )  # A1
    chance = p_success(
        aid.level + wounds + aid.modifier,
        scenario.settings.open_roll,
        scenario.settings.tie_succeeds,
    )
    tries = tries_before_first_test(scenario)
    second = (
        f"At the scenario's own level {aid.level} {_every_words(format_duration(aid.interval))} "
        f"({tries} tries at {_pct(chance)} before the first survival test) she dies in "
        f"{percent(float(on['p_dead']))} of campaigns; what opened the way: {_causes(on)}; "
        f"without the table's stable-period survival tests she still dies in "
        f"{percent(float(off['p_dead']))} ({_causes(off)})."
    )
    return f"{first} {second}"


def _causes(row: pd.Series) -> str:
    """Q3: the causes of a row of ``stable-tests.csv`` in words, largest first."""
    shares = {c: float(row[f"p_dead_{c}"]) for c in DEATH_CAUSES}
    return causes_phrase({"p_dead_by_cause": shares}, most=4)


def _either(items: list[str]) -> str:
    if not items:
        return "at some level and cadence beyond the grid's"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" or {items[-1]}"


def read(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The committed ``first-aid.csv`` and ``stable-tests.csv`` of a folder."""
    grid = pd.read_csv(out / "first-aid.csv", dtype={"every": str})
    headline = pd.read_csv(out / "stable-tests.csv")
    headline["stable_survival_tests"] = headline["stable_survival_tests"].astype(bool)
    return grid, headline


def finding_in(folder: Path) -> str:
    """The finding, from the files of Géraldine's result folder (the study's writer)."""
    grid, headline = read(folder)
    return finding(grid, headline, load_scenario(folder / "scenario.toml"))


def finding_of(results: Path) -> str:
    """The finding, from the committed files of ``results/geraldine/``."""
    return finding_in(results / STEM)


def marked(text: str) -> str | None:
    """The text between the finding's markers (stripped), or None without them."""
    start, end = text.find(FINDING_START), text.find(FINDING_END)
    if start < 0 or end < start:
        return None
    return text[start + len(FINDING_START) : end].strip()


def with_finding(text: str, finding: str) -> str:
    """``text`` with ``finding`` between the markers (which must be there)."""
    start = text.index(FINDING_START) + len(FINDING_START)
    end = text.index(FINDING_END)
    return text[:start] + "\n" + finding + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the README's finding; 0 when done or equal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "results")
    parser.add_argument("--readme", type=Path, default=REPO / "README.md")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    if marked(text) is None:
        print(
            f"{args.readme}: no finding markers ({FINDING_START} … {FINDING_END})", file=sys.stderr
        )
        return 1
    finding = finding_of(args.results)
    if args.check:
        if marked(text) != finding:
            print(f"{args.readme}: the finding is not the results'; expected:\n{finding}")
            return 1
        return 0
    new = with_finding(text, finding)
    if new != text:
        args.readme.write_text(new, encoding="utf-8")
        print(f"{args.readme}: finding updated from {args.results}/{STEM}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
