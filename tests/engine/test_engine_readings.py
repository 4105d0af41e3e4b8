"""The readings of RULES.md that are settings, each value through the engine (A1, R4, G3, X1,
P1, M3, B6): what changes, at which instant, with scripted dice."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.engine.trial import Trial
from simulator.rules.dice import ScriptedDice
from simulator.rules.levels import Level
from simulator.rules.patient import Patient
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.rules.table import default_table
from simulator.rules.transitions import receive_wound, recover_pain, stabilise
from simulator.scenario.model import (
    Activity,
    FirstAid,
    Healing,
    Injury,
    PatientSpec,
    Ruleset,
    Scenario,
    Settings,
    Watch,
)

MIN, HOUR, DAY, WEEK = 60.0, 3600.0, 86400.0, 604800.0


DEFAULTS = Settings()


def scenario(settings: Settings = DEFAULTS, **kw) -> Scenario:
    """Géraldine's wounds (2 light, 1 grave), stabilised at 5 min, a healer, no neglect."""
    base = dict(
        name="readings",
        horizon=60 * DAY,
        patient=PatientSpec(cp_rs=8, rs_it=8),
        injuries=(Injury(0.0, Level.LIGHT, 2), Injury(0.0, Level.GRAVE)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=0),
        healing=Healing(level=-2, modifier=-1),
        settings=settings,
    )
    base.update(kw)
    return Scenario(**base)


def play(sc: Scenario, rolls=(), default=9, **dice):
    lines: list = []
    record = Trial(sc, ScriptedDice(rolls, default=default, **dice), trace=lines).run()
    return record, lines


def times(lines, rule):
    return [line.time for line in lines if line.rule == rule]


def rolled(lines, what):
    return [line for line in lines if line.test is not None and line.test.what == what]


# --- A1: self_aid_pain_factor -----------------------------------------------------------------
@pytest.mark.parametrize("factor", [0, 1, 2, 3])
def test_a1_self_aid_pain_factor_counts_the_pain_that_many_times(factor):
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=3, self_treat=True)
    sc = scenario(
        Settings(self_aid_pain_factor=factor),
        injuries=(Injury(0.0, Level.GRAVE),),
        patient=PatientSpec(cp_rs=20, rs_it=100),
        first_aid=fa,
        horizon=5 * MIN,
    )
    _, lines = play(sc, [0, 0])  # faint test, then the self-treatment
    (aid,) = [ln.test for ln in lines if ln.test is not None and ln.test.rule == "A1"]
    assert aid.margin == 3 - 3 - 5 * factor  # level, grave wound, pain 5 counted `factor` times
    if factor == 1:  # the French text: "despite the pain penalties", once
        assert ("pain", -5) in aid.modifiers


# --- R4: rest_after_unstable --------------------------------------------------------------------
# Stabilised at 5 min (rest of the light level, 2d); the stable survival test at 1d 00:05 fails
# (S4), first aid at 1d 00:10 stabilises again.
BROKEN_AT_1D = [9, 9, 5, -9, 9]


@pytest.mark.parametrize(
    ("mode", "session"),
    [
        (RestAfterUnstable.RESTART, DAY + 10 * MIN + 2 * DAY),  # from zero: 2d more
        (RestAfterUnstable.RESUME, DAY + 10 * MIN + DAY),  # 1d already rested: 1d more
    ],
)
def test_r4_rest_after_a_failed_stable_survival_test(mode, session):
    sc = scenario(Settings(rest_after_unstable=mode), horizon=4 * DAY)
    _, lines = play(sc, BROKEN_AT_1D)
    assert times(lines, "S4") == [DAY + 5 * MIN]
    assert times(lines, "A2") == [5 * MIN, DAY + 10 * MIN]
    assert times(lines, "G2")[0] == session


@pytest.mark.parametrize("mode", list(RestAfterUnstable))
def test_r4_failed_neglected_watch_restarts_the_rest_in_both_settings(mode):
    sc = scenario(Settings(rest_after_unstable=mode), watch=Watch(neglect_at=(12 * HOUR,)))
    _, lines = play(sc, [9, 9, 5, -9, 9])  # the watch at 12h05 fails; first aid at 12h10
    assert times(lines, "R3") == [12 * HOUR + 5 * MIN]
    assert times(lines, "G2")[0] == 12 * HOUR + 10 * MIN + 2 * DAY


@pytest.mark.parametrize("mode", list(RestAfterUnstable))
def test_r4_failed_healing_restarts_the_rest_in_both_settings(mode):
    sc = scenario(Settings(rest_after_unstable=mode), horizon=5 * DAY)
    # stable at 5 min; session at 2d 00:05 fails on the first light wound; first aid at
    # 2d 00:10 stabilises; the next session comes a whole light rest (2d) later.
    _, lines = play(sc, [9, 9, 5, 9, -9, 9])
    assert times(lines, "G4") == [2 * DAY + 5 * MIN]
    assert times(lines, "G2")[0] == 4 * DAY + 10 * MIN


@pytest.mark.parametrize(
    ("mode", "session"),
    [
        (RestAfterUnstable.RESTART, HOUR + 5 * MIN + 2 * DAY),  # from zero at 1h05
        (RestAfterUnstable.RESUME, HOUR + 5 * MIN + 2 * DAY - 55 * MIN),  # 55 min behind it
    ],
)
def test_r4_a_new_wound_pauses_a_resumed_rest(mode, session):
    injuries = (Injury(0.0, Level.LIGHT), Injury(HOUR, Level.LIGHT))
    sc = scenario(Settings(rest_after_unstable=mode), injuries=injuries, horizon=3 * DAY)
    # stable at 5 min; a new light wound at 1h (unstable), stable again at 1h05: resumed, the
    # rest has 55 min behind it (paused for the 5 unstable minutes).
    _, lines = play(sc, [9, 5, 9, 6])
    assert times(lines, "A2") == [5 * MIN, HOUR + 5 * MIN]
    assert times(lines, "G2")[0] == session


# --- G3: rest_per_level ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "grave_session"),
    [
        (RestPerLevel.FRESH, 2 * DAY + 5 * MIN + WEEK),  # a new week from the light session
        (RestPerLevel.CUMULATIVE, 5 * MIN + WEEK),  # a week from the start of the rest
    ],
)
def test_g3_rest_per_level(mode, grave_session):
    _, lines = play(scenario(Settings(rest_per_level=mode), horizon=30 * DAY))
    sessions = sorted(set(times(lines, "G2")))
    assert sessions[:2] == [2 * DAY + 5 * MIN, grave_session]


def test_g3_cumulative_session_at_once_when_the_time_already_rested_is_enough():
    base = scenario(Settings(rest_per_level=RestPerLevel.CUMULATIVE), horizon=30 * DAY)
    sc = dataclasses.replace(base, table=base.table.with_cells(Level.LIGHT, heal_period=2 * WEEK))
    record, lines = play(sc)
    # the lights at 2w 00:05; the grave at once (2w rested >= 1w), then its light at once
    assert times(lines, "G2") == [2 * WEEK + 5 * MIN] * 4
    assert record.outcome == "healed"
    fresh = dataclasses.replace(sc, settings=Settings())
    _, lines = play(fresh)
    assert sorted(set(times(lines, "G2")))[1] == 2 * WEEK + 5 * MIN + WEEK


# --- X1: activity_breaks_rest --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("breaks", "session"), [(True, DAY + HOUR + 2 * DAY), (False, 2 * DAY + 5 * MIN)]
)
def test_x1_activity_breaks_rest(breaks, session):
    sc = scenario(
        Settings(activity_breaks_rest=breaks),
        activities=(Activity(at=DAY + HOUR),),
        horizon=4 * DAY,
    )
    record, lines = play(sc)
    assert record.activity_tests == 1  # the test happens either way
    assert (DAY + HOUR in times(lines, "R1")) is breaks
    assert times(lines, "G2")[0] == session


@pytest.mark.parametrize(
    ("breaks", "mode", "session"),
    [
        (True, RestAfterUnstable.RESUME, DAY + 5 * MIN + 2 * DAY),  # broken: from zero
        (False, RestAfterUnstable.RESUME, DAY + 5 * MIN + 2 * DAY - (DAY - 5 * MIN)),  # paused
        (False, RestAfterUnstable.RESTART, DAY + 5 * MIN + 2 * DAY),
    ],
)
def test_x1_activity_that_worsens_a_wound_and_r4(breaks, mode, session):
    settings = Settings(activity_breaks_rest=breaks, rest_after_unstable=mode)
    sc = scenario(settings, activities=(Activity(at=DAY),), horizon=4 * DAY)
    # the grave wound fails its activity test at 1d and becomes critical (unstable); its
    # survival tests pass; first aid at 1d 00:05 stabilises again.
    record, lines = play(sc, [9, 9, 5, -9])
    assert record.activity_failures == 1
    assert times(lines, "A2") == [5 * MIN, DAY + 5 * MIN]
    assert times(lines, "G2")[0] == session


# --- P1: fractional recovery and the floor ------------------------------------------------------
def stabilised_grave(settings: Settings, cp_rs: int, activity_at: float) -> Scenario:
    return scenario(
        settings,
        injuries=(Injury(0.0, Level.GRAVE),),
        patient=PatientSpec(cp_rs=cp_rs, rs_it=100),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=10),
        activities=(Activity(at=activity_at),),
        healing=None,
        horizon=activity_at,
    )


@pytest.mark.parametrize(("roll", "success"), [(0, True), (-1, False)])
def test_p1_fractional_recovery_gives_fractional_pain_and_margins(roll, success):
    # pain 5 (floor 3), stable at 5 min, 0.5 a full hour: 4.5 at 1h05; Cp+Rs 5.
    sc = stabilised_grave(Settings(pain_recovery_per_hour=0.5), 5, HOUR + 5 * MIN)
    _, lines = play(sc, [9, 9, roll])  # faint, first aid, activity
    assert any("5 → 4.5" in ln.text for ln in lines if ln.rule == "P1")
    (activity,) = rolled(lines, "activity test")
    assert activity.test.margin == pytest.approx(0.5 + roll)
    assert activity.test.success is success  # D3: margin >= 0, fractions included


def test_p1_tenths_of_points_add_up_to_an_exact_tie():
    # 0.1 a full hour, ten hours: pain 5 - 1 = 4 exactly, so Cp+Rs 4 and a roll of 0 tie.
    sc = stabilised_grave(Settings(pain_recovery_per_hour=0.1), 4, 10 * HOUR + 5 * MIN)
    lines: list = []
    Trial(sc, ScriptedDice([9, 9, 0]), trace=lines).run()
    (activity,) = rolled(lines, "activity test")
    assert activity.test.margin == 0 and activity.test.success


@pytest.mark.parametrize(("craziness", "floor"), [(True, 2), (False, 1)])
def test_p1_pain_floor_craziness(craziness, floor):
    sc = scenario(
        Settings(pain_floor_craziness=craziness),
        injuries=(Injury(0.0, Level.LIGHT), Injury(0.0, Level.SHOCK)),
        patient=PatientSpec(cp_rs=20, rs_it=100),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=10),
        healing=None,
        horizon=10 * HOUR,
    )
    _, lines = play(sc)
    last = [ln.text for ln in lines if ln.rule == "P1"][-1]
    assert f"→ {floor} (floor {floor};" in last  # pain 6: mortality 1, craziness 1


# --- M3 and B6 -----------------------------------------------------------------------------------
def test_m3_mental_healing_has_no_missed_watch_penalty():
    sc = scenario(
        injuries=(Injury(0.0, Level.LIGHT), Injury(0.0, Level.SHOCK)),
        patient=PatientSpec(cp_rs=20, rs_it=100),
        watch=Watch(neglect_at=(HOUR,)),
        healing=Healing(level=5),
        horizon=3 * DAY,
    )
    record, lines = play(sc)
    assert record.neglected_watches == 1  # the watch at 1d 00:05
    mental = [ln.test for ln in lines if ln.rule == "M3" and ln.test is not None]
    physical = [ln.test for ln in lines if ln.rule == "G2"]
    assert mental and dict(mental[0].modifiers) == {
        "healer level": 5,
        "shock wound": -1,
        "circumstances": 0,
    }
    assert physical and dict(physical[0].modifiers)["missed watches"] == -1


def test_b6_basic_mental_wounds_heal_on_their_own_track_testing_rs_it():
    sc = scenario(
        ruleset=Ruleset.BASIC,
        injuries=(Injury(0.0, Level.GRAVE), Injury(0.0, Level.SHOCK)),
        patient=PatientSpec(cp_rs=8, rs_it=3),
        first_aid=None,
        healing=Healing(modifier=-1),
        horizon=3 * DAY,
    )
    record, lines = play(sc)
    (b6,) = [ln for ln in lines if ln.rule == "B6" and ln.test is not None]
    assert b6.time == 2 * DAY  # the shock's placeholder heal period
    assert dict(b6.test.modifiers) == {"Rs+It": 3, "shock": -1, "modifier": -1}
    assert record.shock_left == 0 and record.grave_left == 1


def test_p1_tenths_recovered_hour_by_hour_land_on_the_decimal():
    patient, _ = receive_wound(Patient(table=default_table()), Level.GRAVE)
    patient = stabilise(patient)
    for _ in range(10):  # ten separate steps of 0.1: 5 - 1 is 4, not 4.000000000000001
        patient = recover_pain(patient, 1, 0.1)
    assert patient.pain == 4
    assert recover_pain(patient, 100, 0.1).pain == patient.mortality == 3  # the floor


def test_trace_header_names_the_readings_that_differ_from_the_defaults():
    from simulator.cli.trace import settings_changed

    assert settings_changed(Settings()) == ""
    changed = Settings(rest_after_unstable=RestAfterUnstable.RESUME, activity_breaks_rest=False)
    assert settings_changed(changed) == "rest_after_unstable = resume, activity_breaks_rest = false"


def test_r2_no_watch_once_the_last_physical_wound_has_healed():
    """R1, R2, G3: with only a mental wound left there is no rest, so no watch falls due."""
    sc = scenario(
        injuries=(Injury(0.0, Level.LIGHT), Injury(0.0, Level.TRAUMA)),
        patient=PatientSpec(cp_rs=20, rs_it=100),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=10),
        healing=Healing(level=8),
        watch=Watch(neglect_probability=0.9),
        horizon=20 * DAY,
    )
    _, lines = play(sc, geometrics=[1] * 200)  # every watch of a rest is neglected
    healed = times(lines, "G2")[0]
    assert healed == 2 * DAY + 5 * MIN
    assert times(lines, "R3") and max(times(lines, "R3")) <= healed  # O1: watch, then session
