"""The main study's finding on Géraldine, in words: what the texts intend.

The main study (``harmonies-sim study scenarios``) runs what ``scenarios/studies/geraldine.toml``
describes: the first-aid grid (``first-aid.csv``) and the headline with the stable-period
survival tests on and off (``stable-tests.csv``). That description names :func:`finding_in`
as the writer of its finding, which the study puts into ``results/README.md`` between the
markers of :func:`simulator.studies.main_study.finding_start`; ``python -m tools.readme_finding``
copies the same sentences into the project's README. The description names this file beside
it (``geraldine_finding.py:finding_in``), so the study finds it from any folder, with the
package installed or not, and in a copy of ``scenarios/``; the library itself holds no word of
the case study.

The sentences are templates of the project's catalogue (``simulator/locale``), worded in the
language in force (``study --lang fr`` writes them in French into its index).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator.report.causes import causes_phrase
from simulator.report.i18n import duration_text, ntr, number_text, tr
from simulator.report.wording import percent
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.dice import p_success
from simulator.rules.durations import parse_duration
from simulator.rules.levels import Track
from simulator.scenario.model import Scenario
from simulator.scenario.reading import load_scenario
from simulator.studies.main_study import finding_start

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


def _every_words(every: str | float) -> str:
    """A cadence in words: ``every minute``, ``every 5 minutes``, ``every 30 s``."""
    seconds = parse_duration(every) if isinstance(every, str) else every
    if seconds == 60:
        return tr("every minute")
    if seconds % 60 == 0:  # two minutes or more: never a count of one
        return tr("every {n} minutes").format(n=number_text(seconds // 60))
    return tr("every {duration}").format(duration=duration_text(seconds))


def _pct(p: float) -> str:
    return percent(p, 0)


def _last_run_from(levels: list[int], ok: list[bool]) -> int | None:
    """The lowest level of the last run of ``ok`` levels that reaches the top, or None."""
    lowest = None
    for level, good in zip(levels, ok, strict=True):
        if not good:
            lowest = None
        elif lowest is None:
            lowest = level
    return lowest


def safe_levels(grid: pd.DataFrame) -> dict[str, tuple[int | None, int | None]]:
    """For each cadence, where "she dies in at most SAFE" begins, read with its interval.

    Two levels: the lowest from which every level *may* be safe (its interval reaches down to
    SAFE: ``p_dead_low <= SAFE``), and the lowest from which every level *surely* is (its
    whole interval below: ``p_dead_high <= SAFE``); None where none up to the top is. Levels
    between the two straddle the line: which side they fall on is the seed's doing, and the
    finding names them as such (CONTRACT.md, "a finding that names a threshold").
    """
    result: dict[str, tuple[int | None, int | None]] = {}
    for every in dict.fromkeys(grid["every"]):
        rows = grid[grid["every"] == every].sort_values("level")
        levels = [int(level) for level in rows["level"]]
        may = _last_run_from(levels, [bool(p <= SAFE) for p in rows["p_dead_low"]])
        sure = _last_run_from(levels, [bool(p <= SAFE) for p in rows["p_dead_high"]])
        result[str(every)] = (may, sure)
    return result


def _from_level(every: str, may: int, sure: int | None) -> str:
    """A cadence and the level from which it keeps her alive, straddling levels named so."""
    cadence = _every_words(every)
    if sure == may:
        return tr("{every} from level {level} up").format(every=cadence, level=number_text(may))
    if sure is None:
        return tr("{every} perhaps from level {level} up (within the interval of {safe})").format(
            every=cadence, level=number_text(may), safe=_pct(SAFE)
        )
    if sure == may + 1:
        return tr("{every} from level {level}, within its interval of {safe}, or {sure} up").format(
            every=cadence, level=number_text(may), safe=_pct(SAFE), sure=number_text(sure)
        )
    return tr(
        "{every} from level {level} to {last}, within their intervals of {safe}, or {sure} up"
    ).format(
        every=cadence,
        level=number_text(may),
        last=number_text(sure - 1),
        safe=_pct(SAFE),
        sure=number_text(sure),
    )


def finding(grid: pd.DataFrame, headline: pd.DataFrame, scenario: Scenario) -> str:
    """The sentences a designer can act on, every number read from the two frames.

    Args:
        grid: ``first-aid.csv``.
        headline: ``stable-tests.csv``.
        scenario: Géraldine's scenario as simulated (for her own first aid).
    """
    safe = safe_levels(grid)
    held = [_from_level(e, may, sure) for e, (may, sure) in safe.items() if may is not None]
    never = [_every_words(e) for e, (may, _) in safe.items() if may is None]
    top = int(grid["level"].max())
    first = tr(
        "The texts' “fifteen minutes leaves plenty of time to stabilise her” holds (Géraldine "
        "dies in at most {safe} of campaigns) only if her companions try first aid {when}"
    ).format(safe=_pct(SAFE), when=_either(held))
    if never:
        first = tr("{claim}; {cadences}, not even level {top} is enough").format(
            claim=first, cadences=_or(never), top=number_text(top)
        )
    first += "."
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
    second = tr(
        "At the scenario's own level {level} {every} ({tries} before the first survival test) "
        "she dies in {p} of campaigns; what opened the way: {causes}; without the table's "
        "stable-period survival tests she still dies in {p_off} ({causes_off})."
    ).format(
        level=number_text(aid.level),
        every=_every_words(aid.interval),
        tries=ntr("{n} try at {chance}", "{n} tries at {chance}", tries).format(
            n=number_text(tries), chance=_pct(chance)
        ),
        p=percent(float(on["p_dead"])),
        causes=_causes(on),
        p_off=percent(float(off["p_dead"])),
        causes_off=_causes(off),
    )
    return f"{first} {second}"


def _causes(row: pd.Series) -> str:
    """Q3: the causes of a row of ``stable-tests.csv`` in words, largest first."""
    shares = {c: float(row[f"p_dead_{c}"]) for c in DEATH_CAUSES}
    return causes_phrase({"p_dead_by_cause": shares}, most=4)


def _either(items: list[str]) -> str:
    if not items:
        return tr("at some level and cadence beyond the grid's")
    return _or(items)


def _or(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: the items as alternatives, in the language in force."""
    if len(items) == 1:
        return items[0]
    return tr("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


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
