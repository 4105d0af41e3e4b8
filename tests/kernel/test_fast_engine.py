"""The fast path (the compiled kernel, skipping by runs) keeps the laws of the event-by-event
reference on SimPy (issues 11 and 29).

For each scenario of ``scenarios/`` and for each kind of run the kernel skips, the two engines
run tens of thousands of trials each, with fixed seeds, and ``tests/support/same_laws.py``
compares the outcome shares, the times and every count column (two-sample tests, tolerance
from the standard error). Long campaigns are cut to a shorter horizon where the runs they
skip already show in it. The odds tables and the run lengths the kernel draws from are
checked exactly; its trace tells the same trial as ``run``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from simulator.engine.trace import format_trace
from simulator.rules.chances import RollTable, run_length
from simulator.rules.dice import p_success
from simulator.rules.levels import Level
from simulator.runner.engines import run_trial, trace_trial
from simulator.scenario.model import (
    FirstAid,
    Healing,
    Injury,
    PatientSpec,
    Scenario,
    Settings,
    Watch,
)
from simulator.scenario.reading import load_scenario
from tests.engine.test_engine_properties import scenarios
from tests.support.same_laws import differences

ROOT = Path(__file__).resolve().parents[2]
MIN, HOUR, DAY = 60.0, 3600.0, 86400.0
N = 20_000
FAST_SEED, EVENT_SEED = 20261201, 20261202

HORIZONS = {"careless_watches": 8 * DAY, "geraldine": 10 * DAY, "shaken": 20 * DAY}
"""Scenarios cut shorter for the comparison (every kind of run they skip shows by then)."""


def both(sc: Scenario, n: int = N) -> list[str]:
    fast = [run_trial(sc, i, FAST_SEED) for i in range(n)]
    event = [run_trial(sc, i, EVENT_SEED, kernel=False) for i in range(n)]
    return differences(fast, event)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.toml")), ids=lambda p: p.stem)
def test_each_scenario_has_the_same_laws_fast_and_event_by_event(path: Path):
    sc = load_scenario(path)
    if path.stem in HORIZONS:
        sc = dataclasses.replace(sc, horizon=HORIZONS[path.stem])
    assert both(sc) == []


def lone(level: Level, cp_rs: int, horizon: float, **kw) -> Scenario:
    return Scenario(
        name="lone",
        horizon=horizon,
        patient=PatientSpec(cp_rs=cp_rs, rs_it=kw.pop("rs_it", 8)),
        injuries=kw.pop("injuries", (Injury(0.0, level),)),
        **kw,
    )


RUNS = {
    # S5: runs of stable survival tests, while pain recovers (walked) and after (jumped).
    "stable survival tests": lone(
        Level.GRAVE,
        6,
        8 * DAY,
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=6),
    ),
    # A1 against S1: failed attempts every minute against survival tests every 15 minutes.
    "first aid against survival tests": lone(
        Level.GRAVE,
        9,
        2 * DAY,
        first_aid=FirstAid(start=MIN, interval=MIN, level=-1),
    ),
    # A3-A4: at most 4 attempts a spell, self-treatment lost while unconscious.
    "first aid with a limit and faints": lone(
        Level.GRAVE,
        9,
        2 * DAY,
        rs_it=2,
        injuries=(Injury(0.0, Level.GRAVE), Injury(0.0, Level.LIGHT, count=2)),
        first_aid=FirstAid(start=0.0, interval=2 * MIN, level=4, max_attempts=4, self_treat=True),
    ),
    # Runs broken by neglected watches (R3) and healing sessions (G1-G4), P1 with fractions.
    "runs broken by watches and healing": lone(
        Level.GRAVE,
        5,
        8 * DAY,
        injuries=(Injury(0.0, Level.GRAVE), Injury(3 * DAY, Level.LIGHT)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=3),
        watch=Watch(neglect_probability=0.2, neglect_at=(12 * HOUR,)),
        healing=Healing(level=1),
        settings=Settings(pain_recovery_per_hour=0.5),
    ),
    # M1 with mental tracks: fixed penalties (trigger 1) skip; drawn ones (0.5) go one by one.
    "mental tracks, fixed penalties": lone(
        Level.GRAVE,
        9,
        5 * DAY,
        injuries=(Injury(0.0, Level.GRAVE), Injury(DAY, Level.SHOCK)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=2),
        healing=Healing(level=2),
    ),
    "mental tracks, drawn penalties": lone(
        Level.GRAVE,
        9,
        5 * DAY,
        injuries=(Injury(0.0, Level.GRAVE), Injury(DAY, Level.TRAUMA)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=2),
        healing=Healing(level=2),
        settings=Settings(trigger_probability=0.5),
    ),
    # D2-D3: the open roll and ties that fail, through the odds tables.
    "open roll, ties fail": lone(
        Level.GRAVE,
        7,
        5 * DAY,
        first_aid=FirstAid(start=MIN, interval=MIN, level=0),
        settings=Settings(open_roll=True, tie_succeeds=False),
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(RUNS))
def test_each_kind_of_skipped_run_has_the_same_laws(kind: str):
    assert both(RUNS[kind]) == []


# --- the pieces the kernel draws with --------------------------------------------------
@pytest.mark.parametrize("open_roll", [False, True])
@pytest.mark.parametrize("tie", [True, False])
def test_d5_odds_tables_are_the_exact_odds(open_roll: bool, tie: bool):
    table = RollTable(open_roll, tie)
    for modifier in range(-40, 41):
        assert table.chance(modifier) == pytest.approx(
            p_success(modifier, open_roll, tie), abs=1e-12
        )
    if not open_roll:  # fractions of P1: the margin x + m keeps them
        for m in (-2.5, -0.1, 0.5, 2.5):
            exact = sum(
                (10 - abs(x)) / 100 for x in range(-9, 10) if (x + m >= 0 if tie else x + m > 0)
            )
            assert table.chance(m) == pytest.approx(exact, abs=1e-12)
    for modifier in (-12, -3, 0, 4, 11):
        chance = table.chance(modifier)
        for i in range(1000):
            u = (i + 0.5) / 1000
            margin = table.roll(u) + modifier
            assert (margin >= 0 if tie else margin > 0) == (u < chance)


def test_run_lengths_are_geometric_with_a_uniform_draw_left_for_the_decisive_test():
    p = 0.8
    assert run_length(1.0, p) == (0.0, 0.0)
    assert run_length(0.5, 1.0)[0] == math.inf
    assert run_length(0.5, 0.0) == (0.0, 0.5)
    # k tests pass when p^(k+1) < u <= p^k; w spreads u over that interval, uniformly
    for k in range(5):
        top, bottom = p**k, p ** (k + 1)
        for frac in (0.999999, 0.75, 0.5, 0.25, 1e-6):
            u = bottom + frac * (top - bottom)
            got, w = run_length(u, p)
            assert got == k
            assert 0.0 <= w < 1.0
            assert w == pytest.approx(1 - frac, abs=1e-6)


def test_same_seed_same_numbers_and_the_trace_tells_the_same_trial():
    sc = load_scenario(ROOT / "scenarios" / "careless_watches.toml")
    for trial in range(30):
        record = repr(run_trial(sc, trial, 5))  # compared as printed: NaN is NaN
        assert repr(run_trial(sc, trial, 5)) == record
        traced, lines = trace_trial(sc, seed=5, trial=trial)
        assert repr(traced) == record
        assert [line.time for line in lines] == sorted(line.time for line in lines)


def test_skipped_runs_are_told_in_one_line_each():
    sc = RUNS["stable survival tests"]
    record, lines = trace_trial(sc, seed=1, trial=0)
    text = format_trace(lines)
    runs = [line for line in lines if line.rule == "S5" and "×" in line.text]
    assert runs, text
    told = 0
    for line in lines:
        if line.rule == "S5" and "×" in line.text:
            told += int(line.text.split("×")[1].split()[0])
        elif line.rule in ("S1", "S3", "S4", "S5", "R3") and line.test is not None:
            told += 1
    assert told == record.survival_tests
    assert re.search(r"S5   ×\d+ survival tests \(stable\) passed, \d+d \d\d:\d\d … \d+d", text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), __import__("hypothesis").strategies.integers(0, 2**32 - 1))
def test_q1_any_scenario_runs_fast_with_a_record_that_holds_together(sc: Scenario, seed: int):
    rec = run_trial(sc, 0, seed)
    assert 0.0 <= rec.end_h <= sc.horizon / HOUR + 1e-9
    assert rec.survival_failures <= rec.survival_tests
    assert rec.first_aid_successes <= rec.first_aid_attempts
    per_level = (rec.light_left, rec.grave_left, rec.critical_left)
    mental = (rec.shock_left, rec.trauma_left, rec.psychosis_left)
    assert rec.wounds_left == sum(per_level) + sum(mental)
    if sc.first_aid is not None and sc.first_aid.max_attempts is not None:
        assert rec.first_aid_attempts <= sc.first_aid.max_attempts * (
            1 + rec.survival_tests + rec.healing_tests + rec.activity_tests + len(sc.injuries)
        )


def test_p1_the_fast_trace_tells_pain_recovery_at_the_hour_it_was_complete():
    # Stabilised at once, then nothing happens for days but skipped survival tests: the
    # kernel applies P1 only at its next event, yet tells the recovery at the hour the pain
    # reached its new value (so many hours after the stabilisation, at one point an hour).
    sc = RUNS["stable survival tests"]
    checked = 0
    for trial in range(40):
        _, lines = trace_trial(sc, seed=3, trial=trial)
        stable_at = {line.time for line in lines if line.rule == "A2"}
        for line in lines:
            if line.rule != "P1":
                continue
            match = re.search(
                r"recovered (\d+) → (\d+) \(floor \d+; stable since (\d+)d (\d\d):(\d\d)", line.text
            )
            assert match, line.text
            before, after, day, hour, minute = map(int, match.groups())
            since = day * DAY + hour * HOUR + minute * MIN
            if since in stable_at and before - after > 1:
                assert line.time == pytest.approx(since + (before - after) * HOUR)
                checked += 1
    assert checked >= 10
