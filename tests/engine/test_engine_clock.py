"""The engine's house (issue 10): timers, the two queues, rule decisions made in rules."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from simulator.engine.clock import PRIO_HEALING, PRIO_SURVIVAL, SimPyClock, Timer
from simulator.engine.ruleset import ADVANCED, BASIC, ruleset_of
from simulator.rules.levels import Level, Track
from simulator.rules.periods import rest_periods, survival_period
from simulator.rules.table import default_table
from simulator.rules.transitions import (
    basic_failure_worsens,
    healing_failure,
    stabilise,
    survival_failure,
)
from simulator.scenario.model import Injury, PatientSpec, Ruleset, Scenario
from tests.support import build_patient

HOUR, DAY = 3600.0, 86400.0


def recorder(clock_type):
    fired = []
    clock = clock_type(lambda timer, gen, prio, fn, args: fired.append(fn(*args)))
    return clock, fired


def test_o1_a_timer_armed_again_makes_its_older_events_stale():
    for clock_type in (SimPyClock,):
        dispatched = []

        def dispatch(timer, gen, prio, fn, args, out=dispatched):
            if timer is None or timer.live(gen):
                out.append(fn(*args))

        clock = clock_type(dispatch)
        timer = Timer(clock, PRIO_SURVIVAL)
        timer.arm(10.0, lambda: "first")
        timer.arm(20.0, lambda: "second")  # the first is stale now
        other = Timer(clock, PRIO_HEALING)
        other.arm(15.0, lambda: "other")
        other.cancel()
        clock.at(99.0, 9, None, 0, clock.stop, ())  # the horizon stops the run
        clock.run()
        assert dispatched == ["second", None]


@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from([2, 4, 5, 7, 9])), max_size=30))
def test_o1_the_queue_orders_by_time_then_priority_then_arming(items):
    clock, fired = recorder(SimPyClock)
    for i, (when, prio) in enumerate(items):
        clock.at(float(when), prio, None, 0, str, (i,))
    clock.at(99.0, 9, None, 0, clock.stop, ())
    clock.run()
    expected = [str(i) for i, _ in sorted(enumerate(items), key=lambda e: (e[1][0], e[1][1], e[0]))]
    assert fired[:-1] == expected


def test_s2_survival_period_is_the_rules_decision():
    p = build_patient(Level.LIGHT, Level.GRAVE)
    rows = p.table.rows
    assert survival_period(p) == rows[Level.GRAVE].unstable_period
    assert survival_period(stabilise(p)) == rows[Level.GRAVE].stable_period
    assert survival_period(stabilise(p), stable_tests=False) is None
    assert survival_period(build_patient(Level.SHOCK)) is None


def test_r1_r2_rest_periods_are_the_rules_decision():
    p = build_patient(Level.LIGHT, Level.GRAVE, stable=True)
    rows = p.table.rows
    periods = rest_periods(p)
    assert periods.least is Level.LIGHT
    assert periods.heal == rows[Level.LIGHT].heal_period
    assert periods.watch == rows[Level.GRAVE].watch_period
    assert rest_periods(build_patient(Level.SHOCK)) is None


def test_s3_survival_failure_says_which_wound_it_chose():
    p = build_patient(Level.LIGHT, Level.GRAVE, stable=True)
    _, blow = survival_failure(healing_failure(p, 0))  # relapse of the light wound
    assert blow.treated and blow.uid == 0
    _, blow = survival_failure(build_patient(Level.LIGHT, Level.GRAVE))
    assert not blow.treated and blow.uid == 1


def test_b4_margin_check_is_the_rules_decision():
    assert basic_failure_worsens(-10) and basic_failure_worsens(-12)
    assert not basic_failure_worsens(-9)


def test_b3_the_ruleset_is_a_strategy():
    def scenario(ruleset):
        return Scenario(
            name="r",
            horizon=DAY,
            patient=PatientSpec(cp_rs=5, rs_it=5),
            injuries=(Injury(0.0, Level.GRAVE),),
            ruleset=ruleset,
        )

    assert ruleset_of(scenario(Ruleset.BASIC)) is BASIC
    assert ruleset_of(scenario(Ruleset.ARPEGES)) is ADVANCED
    assert not BASIC.stability and not BASIC.pain and ADVANCED.stability and ADVANCED.pain
    assert BASIC.rests_on_track(Level.LIGHT) and not ADVANCED.rests_on_track(Level.LIGHT)
    assert ADVANCED.rests_on_track(Level.SHOCK)
    assert BASIC.track_rule(Track.MENTAL) == "B6" and BASIC.track_rule(Track.PHYSICAL) == "B4"
    assert ADVANCED.track_rule(Track.MENTAL) == "M3"
    assert math.isfinite(default_table().rows[Level.LIGHT].heal_period)
