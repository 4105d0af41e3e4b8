"""What the texts intend for Géraldine: the part of the main study that reads the headline.

The texts' worked example says fifteen minutes "leaves plenty of time for her companions to
stabilise her", and that the rules add drama and a longer recovery, not dead heroes. What
decides her fate is not in the texts: how good her companions are at first aid and how often
they try (the texts give the difficulty, −5, and nothing else). So the main study adds, for
the scenario file ``geraldine.toml``:

- ``first-aid.csv`` and the heatmaps ``first-aid.png``/``.svg``: the chance that she dies
  of the spell her wound opened (Q3's ``wound``: for her single blow, before she is ever
  stabilised), and over the whole campaign, by first-aid level
  (:data:`LEVELS`) and by the time between tries (:data:`EVERY`, the first try one such
  interval after the state turns unstable, A3);
- ``stable-tests.csv`` and ``stable-tests.png``/``.svg``: the headline with the stable-period
  survival tests on (the table) and off (``stable_survival_tests = false``), side by side,
  each with the share dead of each cause of Q3 (``p_dead_<cause>``);
- :func:`finding`: the one or two sentences a designer can act on, written from those files
  into ``results/README.md`` (and, by ``tools/readme_finding.py``, into the README).

Everything here is computed from trial frames; the sentences' numbers come from the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from simulator.files import atomic_write
from simulator.report.causes import causes_phrase
from simulator.report.wording import percent
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.dice import p_success
from simulator.rules.durations import format_duration, parse_duration
from simulator.rules.levels import Track
from simulator.scenario.model import Scenario
from simulator.studies.frames import cause_counts
from simulator.studies.stats import wilson

STEM = "geraldine"
"""The scenario file (``<STEM>.toml``) of the texts' worked example."""

LEVELS = tuple(range(-2, 9))
"""First-aid levels of the grid: −2 to 8."""

EVERY = ("30s", "1min", "2min", "3min", "5min", "10min")
"""Time between first-aid tries in the grid: one try every 30 s to every 10 minutes."""

GRID_SHARE = 5
"""Each point of the grid runs the study's trials divided by this (4,000 for 20,000)."""

SAFE = 0.05
""""Plenty of time" holds when she dies in at most this share of campaigns."""

DATA = ("first-aid.csv", "stable-tests.csv")
FIGURES = ("first-aid", "stable-tests")


def files(formats: Sequence[str]) -> list[str]:
    """Every file name this part writes into the scenario's folder."""
    return [*DATA, *(f"{stem}.{fmt}" for stem in FIGURES for fmt in formats)]


def grid_trials(trials: int) -> int:
    """Trials per point of the grid."""
    return max(10, trials // GRID_SHARE)


def grid_overrides() -> list[tuple[int, str, list[str]]]:
    """``(level, every, overrides)`` of each point, the level varying slowest."""
    return [
        (
            level,
            every,
            [
                f"first_aid.level={level}",
                f'first_aid.start="{every}"',
                f'first_aid.interval="{every}"',
            ],
        )
        for level in LEVELS
        for every in EVERY
    ]


OFF = ["rules.stable_survival_tests=false"]
"""The override of the headline's other half."""


def _shares(trials: pd.DataFrame) -> dict[str, Any]:
    """Shares and 95% Wilson intervals: dead, of each cause (Q3: ``p_dead_<cause>``), healed."""
    n = len(trials)
    counts = {"p_dead": int((trials["outcome"] == "dead").sum())}
    counts |= {f"p_dead_{cause}": k for cause, k in cause_counts(trials).items()}
    counts["p_healed"] = int((trials["outcome"] == "healed").sum())
    row: dict[str, Any] = {"trials": n}
    for name, k in counts.items():
        low, high = wilson(k, n)
        row |= {name: k / n, f"{name}_low": low, f"{name}_high": high}
    return row


def grid_frame(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """``first-aid.csv``: one row per (level, every) of :func:`grid_overrides`."""
    rows = []
    for (level, every, _), trials in zip(grid_overrides(), frames, strict=True):
        rows.append(
            {"level": level, "every": every, "every_s": parse_duration(every), **_shares(trials)}
        )
    return pd.DataFrame(rows)


def headline_frame(on: pd.DataFrame, off: pd.DataFrame) -> pd.DataFrame:
    """``stable-tests.csv``: the scenario as it is, then without stable-period tests."""
    rows = [
        {"stable_survival_tests": flag, **_shares(frame)}
        for flag, frame in ((True, on), (False, off))
    ]
    return pd.DataFrame(rows)


# --- the finding --------------------------------------------------------------------------


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
    top = max(LEVELS)
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


# --- saving -------------------------------------------------------------------------------


def save(
    out: Path,
    grid: pd.DataFrame,
    headline: pd.DataFrame,
    curves: tuple[pd.DataFrame, pd.DataFrame],
    *,
    name: str,
    formats: Sequence[str],
) -> list[Path]:
    """Write the two CSV files and the two figures into ``out``; return the files."""
    from simulator.report.figures_texts import first_aid_heatmaps, stable_tests_side_by_side

    written = [
        atomic_write(out / "first-aid.csv", lambda tmp: grid.to_csv(tmp, index=False)),
        atomic_write(out / "stable-tests.csv", lambda tmp: headline.to_csv(tmp, index=False)),
    ]
    written += first_aid_heatmaps(grid, out, formats, name=name)
    trials = (int(headline["trials"].iloc[0]), int(headline["trials"].iloc[1]))
    written += stable_tests_side_by_side(curves, trials, out, formats, name=name)
    return written


def read(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The committed ``first-aid.csv`` and ``stable-tests.csv`` of a folder."""
    grid = pd.read_csv(out / "first-aid.csv", dtype={"every": str})
    headline = pd.read_csv(out / "stable-tests.csv")
    headline["stable_survival_tests"] = headline["stable_survival_tests"].astype(bool)
    return grid, headline
