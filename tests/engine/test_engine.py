"""The campaign engine with scripted dice: when each rule fires, and what it does (S2, O1...)."""

from __future__ import annotations

import math

import pytest

from simulator.engine.trial import Trial
from simulator.rules.dice import ScriptedDice
from simulator.rules.levels import Level
from simulator.runner.engines import run_trial
from simulator.scenario.model import (
    Activity,
    FirstAid,
    Healing,
    Injury,
    PatientSpec,
    Scenario,
    Settings,
    Watch,
)

MIN, HOUR, DAY, WEEK = 60.0, 3600.0, 86400.0, 604800.0


def scenario(**kw) -> Scenario:
    base = dict(
        name="test",
        horizon=HOUR,
        patient=PatientSpec(cp_rs=kw.pop("cp_rs", 20), rs_it=kw.pop("rs_it", 100)),
        injuries=(Injury(0.0, Level.GRAVE),),
    )
    base.update(kw)
    return Scenario(**base)


def play(sc: Scenario, rolls=(), default=None, **dice):
    lines = []
    d = ScriptedDice(rolls, default=default, **dice)
    record = Trial(sc, d, trace=lines).run()
    return record, lines, d


def times(lines, rule=None, rules=None, text=None):
    keep = rules or {rule}
    return [
        line.time for line in lines if line.rule in keep and (text is None or text in line.text)
    ]


def survival_times(lines):
    return [ln.time for ln in lines if ln.test is not None and ln.test.what == "survival test"]


# --- S2: the survival clock ------------------------------------------------------------------
def test_s2_unstable_grave_wound_tested_every_15_minutes_and_o2_horizon_included():
    sc = scenario(horizon=HOUR)
    record, lines, _ = play(sc, [0, 0, 0, 0, 0])  # one faint test, then four survival tests
    assert survival_times(lines) == [15 * MIN, 30 * MIN, 45 * MIN, 60 * MIN]
    assert record.survival_tests == 4 and record.outcome == "wounded"
    assert record.end_h == 1.0


def test_s2_s3_turning_critical_next_test_15_seconds_later():
    sc = scenario(cp_rs=10, horizon=15 * MIN + 15)
    # faint at the blow; survival fails (10 - 5 - 9); faint after aggravation; passes (10-15+9)
    record, lines, _ = play(sc, [0, -9, 0, 9])
    assert survival_times(lines) == [15 * MIN, 15 * MIN + 15]
    assert record.aggravations == 1
    assert record.critical_left == 1 and record.max_pain == 15


def test_s2_after_stabilisation_next_test_a_stable_period_later():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=10)
    sc = scenario(first_aid=fa, horizon=5 * MIN + DAY)
    record, lines, _ = play(sc, [0, 0, 0])  # faint, first aid (10-3+0), stable survival
    assert times(lines, "A2") == [5 * MIN]
    assert survival_times(lines) == [5 * MIN + DAY]
    assert record.first_stable_h == pytest.approx(5 / 60)


def test_s2_other_changes_do_not_restart_the_clock():
    # A light wound arriving at 10 min while the grave one is worst and unstable: the
    # pair (grave, unstable) is unchanged, so the test stays at 15 min.
    sc = scenario(
        injuries=(Injury(0, Level.GRAVE), Injury(10 * MIN, Level.LIGHT)), horizon=15 * MIN
    )
    _, lines, _ = play(sc, default=0)
    assert survival_times(lines) == [15 * MIN]


def test_s2_worse_level_restarts_the_clock():
    # A grave wound at 10 min while a light one is unstable: the worst level changes, so the
    # next test is 15 minutes after it, not at the light wound's hour.
    sc = scenario(injuries=(Injury(0, Level.LIGHT), Injury(10 * MIN, Level.GRAVE)), horizon=HOUR)
    _, lines, _ = play(sc, default=0)
    assert survival_times(lines) == [25 * MIN, 40 * MIN, 55 * MIN]


def test_s4_failed_stable_test_makes_worst_wound_unstable_and_first_aid_resumes():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=10)
    sc = scenario(first_aid=fa, cp_rs=0, horizon=DAY + 10 * MIN)
    # faint, first aid ok at 5min, stable test at 1d05 fails (-9), first aid ok at 1d10
    record, lines, _ = play(sc, [0, 0, -9, 0])
    assert times(lines, "S4") == [DAY + 5 * MIN]
    assert times(lines, "A2") == [5 * MIN, DAY + 10 * MIN]
    assert record.aggravations == 0 and record.survival_failures == 1


def test_stable_survival_tests_setting_switches_them_off():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=10)
    sc = scenario(first_aid=fa, horizon=3 * DAY, settings=Settings(stable_survival_tests=False))
    record, _lines, _ = play(sc, [0, 0])
    assert record.survival_tests == 0


# --- O1: simultaneous events ------------------------------------------------------------------
def test_o1_first_aid_before_survival_test_at_the_same_instant():
    # First aid due at 15 min succeeds, so the survival test due then no longer happens.
    fa = FirstAid(start=15 * MIN, interval=5 * MIN, level=10)
    sc = scenario(first_aid=fa, horizon=30 * MIN)
    record, lines, _ = play(sc, [0, 0])
    assert times(lines, "A2") == [15 * MIN]
    assert record.survival_tests == 0


def test_o1_event_made_due_now_still_happens_in_order():
    # A survival failure at 15 min turns a stable patient unstable; first aid with start 0s
    # is then due at that very instant and still happens, after the test.
    fa = FirstAid(start=0.0, interval=5 * MIN, level=10)
    sc = scenario(first_aid=fa, cp_rs=0, horizon=DAY)
    # faint; first aid at 0s ok; stable test at 1d fails; first aid at 1d (start 0s) ok
    _record, lines, _ = play(sc, [0, 0, -9, 0])
    assert times(lines, "A2") == [0.0, DAY]
    order = [ln.rule for ln in lines if ln.time == DAY and ln.test is not None]
    assert order == ["S4", "A2"]


def test_o1_injury_before_survival_test_and_in_file_order():
    sc = scenario(
        injuries=(
            Injury(0, Level.GRAVE),
            Injury(15 * MIN, Level.LIGHT),
            Injury(15 * MIN, Level.SHOCK),
        ),
        horizon=15 * MIN,
    )
    _, lines, _ = play(sc, default=0)
    at15 = [(ln.rule, ln.text) for ln in lines if ln.time == 15 * MIN]
    assert at15[0][1].startswith("receives a light")
    assert at15[1][1].startswith("receives a shock")
    assert any(
        ln.test is not None and ln.test.what == "survival test"
        for ln in lines
        if ln.time == 15 * MIN
    )


# --- A3, A4: first aid policy -------------------------------------------------------------------
def test_a3_attempts_every_interval_up_to_max_per_spell():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=-20, max_attempts=2)
    sc = scenario(first_aid=fa, horizon=HOUR)
    record, lines, _ = play(sc, default=0)
    assert times(lines, "A1") == [5 * MIN, 10 * MIN]
    assert record.first_aid_attempts == 2


def test_a3_no_caregiver_no_attempts():
    record, _, _ = play(scenario(horizon=HOUR), default=0)
    assert record.first_aid_attempts == 0


def test_a4_unconscious_patient_loses_self_treatment_without_counting():
    # Self-treatment; the faint test at the blow fails: unconscious for 15 minutes, so the
    # attempts at 5 and 10 min are lost, the one at 15 min (end of the half-open faint) is made.
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=20, self_treat=True, max_attempts=1)
    sc = scenario(first_aid=fa, rs_it=0, horizon=20 * MIN)
    record, lines, _ = play(sc, [-9, 0])  # faint test fails; first aid at 15 min succeeds
    assert times(lines, "A4") == [5 * MIN, 10 * MIN]
    assert times(lines, "A2") == [15 * MIN]
    assert record.first_aid_attempts == 1 and record.faints == 1


def test_a1_self_treatment_counts_pain_twice():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=3, self_treat=True)
    sc = scenario(first_aid=fa, horizon=5 * MIN)
    _, lines, _ = play(sc, [0, 0])
    test = next(ln.test for ln in lines if ln.rule in ("A1", "A2"))
    mods = dict(test.modifiers)
    assert mods["pain, task"] == -5 and mods["pain, person"] == -5
    assert test.margin == 3 - 3 - 10


# --- R2, R3: watches ----------------------------------------------------------------------------
def geraldine(**kw) -> Scenario:
    base = dict(
        name="Géraldine",
        horizon=60 * DAY,
        patient=PatientSpec(cp_rs=8, rs_it=8),
        injuries=(Injury(0.0, Level.LIGHT, 2), Injury(0.0, Level.GRAVE)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=0),
        watch=Watch(neglect_at=(12 * HOUR,)),
        healing=Healing(level=-2, modifier=-1),
    )
    base.update(kw)
    return Scenario(**base)


def test_r2_neglect_at_hits_the_first_watch_at_or_after_it():
    record, lines, _ = play(geraldine(horizon=DAY), [9, 9, 5, 0], default=9)
    assert times(lines, "R3") == [12 * HOUR + 5 * MIN]
    assert record.neglected_watches == 1


def test_r2_random_neglect_probability_uses_geometric_watch_index():
    # geometric draws say: the 3rd watch of the rest is neglected, then 4 watches later.
    sc = geraldine(watch=Watch(neglect_probability=0.3), horizon=2 * DAY)
    _, lines, _ = play(sc, [9, 9, 5], default=9, geometrics=[3, 4])
    assert times(lines, "R3") == [5 * MIN + 3 * 6 * HOUR, 5 * MIN + 7 * 6 * HOUR]


def test_r3_neglected_watch_makes_one_survival_test_and_minus_one_in_next_healing():
    _record, lines, _ = play(geraldine(horizon=2 * DAY + 5 * MIN), [9, 9, 5, 0], default=9)
    watch = next(ln for ln in lines if ln.rule == "R3")
    assert dict(watch.test.modifiers) == {"Cp+Rs": 8, "pain": -5, "missed watches": 0}
    healing = [ln.test for ln in lines if ln.test is not None and ln.test.what == "healing test"]
    assert healing and all(dict(t.modifiers)["missed watches"] == -1 for t in healing)


def test_r3_failed_watch_test_ends_the_rest_and_first_aid_resumes():
    _, lines, _ = play(geraldine(horizon=DAY), [9, 9, 5, -9, 9], default=9)
    assert times(lines, "R3") == [12 * HOUR + 5 * MIN]
    assert 12 * HOUR + 10 * MIN in times(lines, "A2")
    # the rest starts from zero at the new stabilisation (R4)
    assert times(lines, "R1")[-1] == 12 * HOUR + 10 * MIN


# --- G1-G5 and the whole of Géraldine's story ---------------------------------------------------
def test_geraldine_story_end_to_end():
    """The texts' story, roll by roll, then every later roll passes (+9) to healing."""
    rolls = [
        9,
        9,  # faint tests at the blows (pain 6, then 11)
        5,  # first aid at 5 min: level 0, wounds -1 -1 -3 = -5, roll +5 -> margin 0
        0,  # neglected watch at 12h05: Cp+Rs +8, pain -5 -> +3, she holds
        9,  # stable survival test at 1d 00:05
        6,  # healing of the first light wound: +6 -2 -1 -1 -1 = +1
        -9,  # healing of the second light wound fails: relapse
        -9,
        -9,
        -9,  # first aid at 2d 00:10, 00:15, 00:20 fails
        -9,  # survival test at 2d 00:20 fails: the treated light wound becomes grave
    ]
    record, lines, _dice = play(geraldine(), rolls, default=9)
    tests = {(ln.rule, ln.time): ln.test for ln in lines if ln.test is not None}
    first_aid = tests[("A2", 5 * MIN)]
    assert dict(first_aid.modifiers)["wounds (2 light, 1 grave)"] == -5
    watch = tests[("R3", 12 * HOUR + 5 * MIN)]
    assert (watch.roll, watch.margin, watch.success) == (0, 3, True)
    heal = tests[("G2", 2 * DAY + 5 * MIN)]
    assert (heal.roll, heal.margin) == (6, 1)
    relapse = tests[("G4", 2 * DAY + 5 * MIN)]
    assert not relapse.success
    worsened = [ln for ln in lines if ln.rule == "S3" and ln.test is None]
    assert worsened[0].time == 2 * DAY + 20 * MIN
    assert "light wound worsens to a grave wound (+5 pain → 10)" in worsened[0].text
    fail = tests[("S3", 2 * DAY + 20 * MIN)]
    assert "treated" in next(ln.text for ln in lines if ln.test is fail)
    # then stabilised at 00:25, a week of rest, both graves heal, two days, both lights heal
    assert times(lines, "A2")[-1] == 2 * DAY + 25 * MIN
    assert record.outcome == "healed"
    assert record.healed_h == pytest.approx((11 * DAY + 25 * MIN) / HOUR)
    assert record.end_h == record.healed_h
    assert record.aggravations == 1 and record.neglected_watches == 1
    assert record.healing_tests == 2 + 2 + 2 and record.healing_failures == 1
    assert record.wounds_left == 0 and record.max_pain == 11


def test_g3_new_rest_after_every_wound_of_the_level_healed():
    _, lines, _ = play(geraldine(watch=Watch(), horizon=30 * DAY), default=9)
    rests = times(lines, "R1")
    assert rests[0] == 5 * MIN  # first stabilisation, rest of the light level: 2d
    sessions = sorted(set(t for t in times(lines, "G2")))
    assert sessions[0] == 2 * DAY + 5 * MIN
    assert sessions[1] == sessions[0] + WEEK  # then the grave one: 1w


def test_g5_healed_patient_goes_on_when_an_injury_is_still_to_come():
    sc = geraldine(
        watch=Watch(),
        injuries=(Injury(0, Level.LIGHT), Injury(10 * DAY, Level.LIGHT)),
        horizon=20 * DAY,
    )
    record, lines, _ = play(sc, default=9)
    assert times(lines, "G5") == [2 * DAY + 5 * MIN, 12 * DAY + 5 * MIN]
    assert record.outcome == "healed" and record.end_h == pytest.approx((12 * DAY + 5 * MIN) / HOUR)


def test_g5_healed_before_a_later_injury_then_wounded_at_horizon():
    sc = geraldine(
        watch=Watch(),
        injuries=(Injury(0, Level.LIGHT), Injury(10 * DAY, Level.LIGHT)),
        horizon=11 * DAY,
    )
    record, _, _ = play(sc, default=9)
    assert record.outcome == "wounded" and math.isnan(record.healed_h)


def test_r1_no_healer_no_session_watches_go_on():
    sc = geraldine(healing=None, watch=Watch(neglect_probability=0.5), horizon=5 * DAY)
    record, lines, _ = play(sc, [9, 9, 9], default=9, geometrics=[1] * 40)
    assert record.healing_tests == 0
    assert record.neglected_watches == len(times(lines, "R3")) > 10


# --- X1: rough activity -------------------------------------------------------------------------
def test_x1_activity_tests_grave_and_critical_wounds_and_restarts_rest():
    sc = geraldine(
        activities=(Activity(at=DAY + HOUR, modifier=-2),), watch=Watch(), horizon=4 * DAY
    )
    record, lines, _ = play(sc, default=9)
    assert record.activity_tests == 1  # only the grave wound is tested
    assert DAY + HOUR in times(lines, "R1")  # the rest starts from zero
    sessions = times(lines, "G2")
    assert sessions and sessions[0] == DAY + HOUR + 2 * DAY


def test_x1_failed_activity_test_worsens_the_tested_wound():
    sc = geraldine(activities=(Activity(at=DAY + HOUR),), watch=Watch(), horizon=DAY + HOUR)
    record, _lines, _ = play(sc, [9, 9, 9, 9, -9, 9], default=9)
    assert record.activity_failures == 1 and record.aggravations == 1
    assert record.critical_left == 1


# --- P1: pain recovery --------------------------------------------------------------------------
def test_p1_lazy_recovery_matches_hourly_steps():
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=10)
    sc = scenario(
        injuries=(Injury(0, Level.LIGHT, 3),),
        first_aid=fa,
        horizon=3 * HOUR + 5 * MIN,
        activities=(Activity(at=2 * HOUR + 5 * MIN),),
    )
    # pain 9, floor 3: stable at 5 min; full hours at 1h05, 2h05 -> 7; the activity at 2h05
    # sees pain recovered first (O1: pain recovery before activities).
    _, lines, _ = play(sc, default=9)
    p1 = [ln for ln in lines if ln.rule == "P1"]
    assert p1 and p1[0].time == 2 * HOUR + 5 * MIN and "9 → 7" in p1[0].text


def test_p1_no_recovery_while_unstable():
    _record, lines, _ = play(
        scenario(horizon=5 * HOUR, injuries=(Injury(0, Level.LIGHT),)), default=9
    )
    assert not times(lines, "P1")


# --- M3 and B4 --------------------------------------------------------------------------------
def test_m3_mental_wounds_stable_no_survival_tests_healed_by_healer():
    sc = scenario(injuries=(Injury(0, Level.SHOCK),), healing=Healing(level=5), horizon=10 * DAY)
    record, lines, _ = play(sc, default=0)
    assert record.survival_tests == 0 and record.first_aid_attempts == 0
    assert times(lines, "M3") == [2 * DAY]
    assert record.outcome == "healed"


def test_m3_failed_mental_healing_starts_a_new_mental_rest():
    sc = scenario(injuries=(Injury(0, Level.SHOCK),), healing=Healing(level=0), horizon=10 * DAY)
    _, lines, _ = play(sc, [-9, 9])  # (3 pain: no faint test) fail at 2d; success at 4d
    assert times(lines, "M3") == [2 * DAY, 4 * DAY]


def test_m3_no_healer_no_mental_healing():
    record, _, _ = play(scenario(injuries=(Injury(0, Level.SHOCK),), horizon=10 * DAY), default=0)
    assert record.healing_tests == 0 and record.outcome == "wounded"


def test_m2_past_psychosis_is_incoherent():
    sc = scenario(injuries=(Injury(0, Level.PSYCHOSIS), Injury(HOUR, Level.PSYCHOSIS)), horizon=DAY)
    record, _, _ = play(sc, default=9)
    assert record.outcome == "incoherent" and record.incoherent_h == 1.0


def basic(**kw) -> Scenario:
    from simulator.scenario.model import Ruleset

    return geraldine(
        ruleset=Ruleset.BASIC, first_aid=None, watch=Watch(), healing=Healing(modifier=-1), **kw
    )


def test_b3_basic_ruleset_has_no_survival_tests_first_aid_or_pain():
    record, _lines, _dice = play(basic(horizon=2 * DAY), default=9)
    assert record.survival_tests == 0 and record.first_aid_attempts == 0
    assert record.max_pain == 0 and record.faints == 0


def test_b4_basic_rest_then_own_tests_lightest_first():
    record, lines, _ = play(basic(horizon=60 * DAY), default=9)
    b4 = [ln for ln in lines if ln.rule == "B4"]
    assert b4[0].time == 2 * DAY and "light" in b4[0].text
    mods = dict(b4[0].test.modifiers)
    assert mods["Cp+Rs"] == 8 and mods["wounds (2 light, 1 grave)"] == -5 and mods["modifier"] == -1
    assert record.outcome == "healed"


def test_b4_failure_by_ten_worsens_and_stops_the_tests():
    record, _, _ = play(basic(horizon=2 * DAY), [-9])  # 8 - 5 - 1 - 9 = -7: fails, no worsening
    assert record.aggravations == 0 and record.healing_failures == 1
    sc = basic(horizon=2 * DAY, patient=PatientSpec(cp_rs=0, rs_it=0))
    record, _lines, _ = play(sc, [-9])  # 0 - 5 - 1 - 9 = -15: the light wound worsens
    assert record.aggravations == 1 and record.grave_left == 2 and record.light_left == 1


def test_b4_new_wound_restarts_the_basic_rest():
    sc = basic(injuries=(Injury(0, Level.LIGHT), Injury(DAY, Level.LIGHT)), horizon=3 * DAY)
    _, lines, _ = play(sc, default=9)
    assert times(lines, "B4")[0] == 3 * DAY


# --- W1-W3 through the engine -----------------------------------------------------------------
def test_w1_fatal_blow_ends_the_trial_dead():
    sc = scenario(
        injuries=(Injury(0, Level.CRITICAL), Injury(HOUR / 2, Level.CRITICAL)), horizon=HOUR
    )
    record, _, _ = play(sc, default=9)
    assert record.outcome == "dead" and record.death_h == 0.5 and record.aggravations == 0


def test_w3_faint_checks_counted():
    sc = scenario(rs_it=0, injuries=(Injury(0, Level.CRITICAL),), horizon=0.0)
    record, _, _ = play(sc, [-9])
    assert record.faints == 1


# --- reproducibility -------------------------------------------------------------------------
def test_same_seed_same_record_and_trials_differ():
    sc = geraldine(watch=Watch(neglect_probability=0.1))
    # compared as printed: NaN is NaN (a compiled engine's NaNs are not all one object)
    a = [repr(run_trial(sc, i, 42).as_tuple()) for i in range(20)]
    b = [repr(run_trial(sc, i, 42).as_tuple()) for i in range(20)]
    assert a == b
    assert len({str(t) for t in a}) > 1


def test_o1_o2_one_instant_written_two_ways_keeps_the_order_and_the_horizon(tmp_path):
    # A light wound's 66-minute survival test and an injury at "1.1h" are one instant: the
    # injury comes first (O1), the worst wound changes and the test no longer happens.
    from simulator.runner.engines import trace_trial
    from simulator.scenario.reading import load_scenario

    path = tmp_path / "instant.toml"
    path.write_text(
        'name = "one instant"\nhorizon = "2h"\n[patient]\ncp_rs = 20\nrs_it = 20\n'
        '[[injuries]]\nat = "0s"\nlevel = "light"\n'
        '[[injuries]]\nat = "1.1h"\nlevel = "grave"\n'
        '[rules.table.light]\nunstable_period = "66min"\n',
        encoding="utf-8",
    )
    _, lines = trace_trial(load_scenario(path), seed=0)
    at = [ln.rule for ln in lines if ln.time == 66 * MIN]
    assert at and at[0] == "W2" and "S5" not in at and "S3" not in at
    # An injury at the horizon, written another way, still happens (O2).
    path.write_text(path.read_text(encoding="utf-8").replace('"2h"', '"66min"'), "utf-8")
    record, lines = trace_trial(load_scenario(path), seed=0)
    assert any(ln.rule == "W2" and ln.time == 66 * MIN for ln in lines)
    assert record.outcome == "wounded" and record.grave_left == 1
