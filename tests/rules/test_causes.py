"""Q3, what kills: each cause forced with scripted dice, and the causes a scenario cannot have.

Each campaign below is built so that one path to death is the only one the dice leave open;
the trial must name the event that opened that path (RULES.md Q3).
"""

from __future__ import annotations

import pytest

from simulator.engine.trial import Trial
from simulator.rules.cause import CAUSES, DEATH_CAUSES, Cause, cause_after
from simulator.rules.dice import ScriptedDice
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.patient import Status
from simulator.runner.engines import run_trial
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
G, C = Level.GRAVE, Level.CRITICAL
OFF = Settings(stable_survival_tests=False)
ONCE = FirstAid(start=5 * MIN, interval=5 * MIN, level=10, max_attempts=1)
"""First aid that stabilises at its first try (roll 0 or better), and tries once a spell."""
QUICK = FirstAid(start=5.0, interval=5.0, level=10, max_attempts=1)
"""The same, in time for a critical wound (tested every 15 s)."""


def scenario(**kw) -> Scenario:
    """A patient who never faints (Rs+It 100) and fails every test on a bad roll (Cp+Rs 0)."""
    base = dict(
        name="cause",
        horizon=DAY,
        patient=PatientSpec(cp_rs=0, rs_it=100),
        injuries=(Injury(0.0, G),),
    )
    base.update(kw)
    return Scenario(**base)


def play(sc: Scenario, rolls=(), default=-9):
    """The campaign with these rolls, then ``default`` for every later one."""
    lines: list = []
    record = Trial(sc, ScriptedDice(rolls, default=default), trace=lines).run()
    return record, lines


# --- the rule itself ---------------------------------------------------------------------------
def test_q3_cause_after_opens_on_the_events_that_unsettle_and_keeps_the_spells_cause():
    alive, dead = Status.ALIVE, Status.DEAD
    opened = {
        RuleId.W2: Cause.WOUND,
        RuleId.S4: Cause.STABLE_TEST,
        RuleId.R3: Cause.NEGLECTED_WATCH,
        RuleId.G4: Cause.HEALING_FAILURE,
        RuleId.X1: Cause.ACTIVITY,
    }
    for event, cause in opened.items():
        assert cause_after(Cause.NONE, event, True, alive) is cause
        assert cause_after(Cause.WOUND, event, False, alive) is Cause.WOUND  # within a spell
    assert cause_after(Cause.STABLE_TEST, RuleId.S3, False, dead) is Cause.STABLE_TEST
    assert cause_after(Cause.STABLE_TEST, RuleId.W1, False, dead) is Cause.BLOW
    assert cause_after(Cause.STABLE_TEST, RuleId.X1, False, dead) is Cause.ACTIVITY
    assert cause_after(Cause.NONE, RuleId.B4, False, dead) is Cause.BASIC_HEALING
    assert cause_after(Cause.WOUND, RuleId.W1, False, Status.INCOHERENT) is Cause.MENTAL
    assert set(CAUSES) == set(DEATH_CAUSES) | {"mental"}


# --- one campaign per cause ------------------------------------------------------------------
def test_q3_blow_a_wound_received_past_critical_is_dead_on_arrival():
    sc = scenario(injuries=(Injury(0.0, C), Injury(MIN, C)), horizon=HOUR, first_aid=QUICK)
    record, _ = play(sc, [0, 0], default=9)  # stabilised at 5 s; the second critical kills
    assert record.outcome == "dead" and record.death_h == MIN / HOUR
    assert record.cause is Cause.BLOW


def test_q3_wound_a_lone_untreated_grave_wound_dies_of_its_spell():
    record, _ = play(scenario())  # grave, then critical at 15 min, dead 15 s later
    assert record.outcome == "dead" and record.cause is Cause.WOUND
    assert record.death_h == pytest.approx((15 * MIN + 15) / HOUR)


def test_q3_stable_test_a_failed_stable_period_test_opens_the_fatal_spell():
    sc = scenario(first_aid=ONCE, horizon=2 * DAY)
    # faint test passes, first aid at 5 min succeeds; every later roll fails: the stable
    # test at 1 d 5 min (S4), the one attempt of the new spell, then the unstable tests
    record, lines = play(sc, [0, 0])
    assert [line.time for line in lines if line.rule == "S4"] == [DAY + 5 * MIN]
    assert record.outcome == "dead" and record.cause is Cause.STABLE_TEST


def test_q3_a_wound_received_within_the_spell_does_not_change_its_cause():
    sc = scenario(
        first_aid=ONCE,
        horizon=2 * DAY,
        injuries=(Injury(0.0, G), Injury(DAY + 7 * MIN, Level.LIGHT)),
    )
    record, _ = play(sc, [0, 0])
    assert record.death_h > (DAY + 7 * MIN) / HOUR  # the light wound came in S4's spell
    assert record.outcome == "dead" and record.cause is Cause.STABLE_TEST


def test_q3_a_blow_within_the_spell_kills_by_itself():
    injuries = (Injury(0.0, G), Injury(DAY + 6 * MIN, C, 2))  # the second one past critical
    record, _ = play(scenario(first_aid=ONCE, horizon=2 * DAY, injuries=injuries), [0, 0])
    assert record.death_h == pytest.approx((DAY + 6 * MIN) / HOUR)
    assert record.cause is Cause.BLOW


def test_q3_neglected_watch_a_failed_watch_test_opens_the_fatal_spell():
    sc = scenario(first_aid=ONCE, watch=Watch(neglect_at=(12 * HOUR,)), settings=OFF)
    record, lines = play(sc, [0, 0])
    assert [line.time for line in lines if line.rule == "R3"] == [12 * HOUR + 5 * MIN]
    assert record.outcome == "dead" and record.cause is Cause.NEGLECTED_WATCH


def test_q3_healing_failure_a_relapse_opens_the_fatal_spell():
    sc = scenario(first_aid=ONCE, healing=Healing(level=0), settings=OFF, horizon=2 * WEEK)
    record, lines = play(sc, [0, 0])  # the session at 1 w 5 min fails: G4
    assert [line.time for line in lines if line.rule == "G4"] == [WEEK + 5 * MIN]
    assert record.outcome == "dead" and record.cause is Cause.HEALING_FAILURE


def test_q3_activity_a_failed_activity_test_that_kills_by_itself():
    sc = scenario(injuries=(Injury(0.0, C),), first_aid=QUICK, settings=OFF,
                  activities=(Activity(at=HOUR),))  # fmt: skip
    record, _ = play(sc, [0, 0])  # stabilised at 5 s; the activity test fails: past critical
    assert record.outcome == "dead" and record.death_h == 1.0
    assert record.activity_failures == 1 and record.cause is Cause.ACTIVITY


def test_q3_activity_the_spell_a_failed_activity_test_opened():
    sc = scenario(first_aid=ONCE, settings=OFF, activities=(Activity(at=HOUR),))
    record, _ = play(sc, [0, 0])  # grave worsens to critical at 1 h, unstable; then S3
    assert record.outcome == "dead" and record.death_h > 1.0
    assert record.cause is Cause.ACTIVITY


def test_q3_basic_healing_a_healing_roll_failed_by_ten_kills():
    sc = scenario(ruleset=Ruleset.BASIC, injuries=(Injury(0.0, C),), healing=Healing(),
                  horizon=3 * WEEK)  # fmt: skip
    record, _ = play(sc)  # at 2 w: 0 - 5 - 9 = -14, the critical wound worsens: fatal (B4)
    assert record.outcome == "dead" and record.death_h == 2 * WEEK / HOUR
    assert record.cause is Cause.BASIC_HEALING


def test_q3_mental_an_incoherent_end():
    injuries = (Injury(0.0, Level.PSYCHOSIS), Injury(HOUR, Level.PSYCHOSIS))
    record, _ = play(scenario(injuries=injuries), default=9)
    assert record.outcome == "incoherent" and record.cause is Cause.MENTAL


def test_q3_a_trial_that_does_not_end_dead_or_incoherent_has_no_cause():
    sc = scenario(first_aid=ONCE, settings=OFF, horizon=HOUR)
    record, _ = play(sc, [0, 0], default=9)
    assert record.outcome == "wounded" and record.cause is Cause.NONE


# --- the causes a scenario cannot have --------------------------------------------------------
def geraldine(**kw) -> Scenario:
    """The texts' worked example (cp_rs 8, two light and one grave wound), for 60 days."""
    base = dict(
        name="Géraldine",
        horizon=60 * DAY,
        patient=PatientSpec(cp_rs=8, rs_it=8),
        injuries=(Injury(0.0, Level.LIGHT, 2), Injury(0.0, G)),
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=0),
        watch=Watch(neglect_probability=0.02, neglect_at=(12 * HOUR,)),
        healing=Healing(level=-2, modifier=-1),
    )
    base.update(kw)
    return Scenario(**base)


def causes(sc: Scenario, n: int = 1500, kernel: bool = True) -> dict[str, int]:
    found: dict[str, int] = {}
    for i in range(n):
        record = run_trial(sc, i, 7, kernel=kernel)
        if record.outcome == "dead":
            found[record.cause] = found.get(record.cause, 0) + 1
    return found


def test_q3_geraldine_dies_of_every_cause_her_scenario_opens():
    found = causes(geraldine())
    assert {"wound", "stable_test", "neglected_watch", "healing_failure"} <= set(found), found
    assert set(found) <= set(DEATH_CAUSES)


@pytest.mark.parametrize("kernel", [True, False])
def test_q3_a_lone_untreated_grave_wound_dies_of_wound_only(kernel):
    sc = geraldine(injuries=(Injury(0.0, G),), first_aid=None, horizon=10 * DAY)
    found = causes(sc, 500, kernel)
    assert set(found) == {"wound"} and found["wound"] > 400


def test_q3_without_stable_period_tests_no_stable_test():
    found = causes(geraldine(settings=OFF))
    assert "stable_test" not in found and sum(found.values()) > 500, found


def test_q3_without_neglect_no_neglected_watch():
    found = causes(geraldine(watch=Watch()))
    assert "neglected_watch" not in found and sum(found.values()) > 500, found


def test_q3_without_a_healer_no_healing_failure():
    found = causes(geraldine(healing=None))
    assert "healing_failure" not in found and sum(found.values()) > 500, found
