"""Decimal durations are exact instants in every engine (RULES.md's durations, O1, O2).

A duration is a whole number of microseconds, so every instant made of durations is too. In
seconds as floats their sums are not: ``7 * 61.2`` is 428.40000000000003, after a survival
test due at 428.4 s, and a test every 1.1 s reached the 22 s horizon at 22.000000000000004.
The fuzzing round of stop 54 found the compiled kernel ordering first aid after that survival
test (O1) and the event-by-event engine counting one test too few at the horizon (O2); the
exact engine, in whole microseconds, was right. Each engine is held here to the instant.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction

import numpy as np
import pytest

from simulator.exact import solve
from simulator.kernel.engine import kernel_columns
from simulator.runner.engines import run_trial
from simulator.scenario.reading import scenario_with_overrides
from tests.support import one_wound


def ticking(horizon: str) -> str:
    """Cp+Rs 30: a survival test every 1.1 s, each passed, up to ``horizon``."""
    return one_wound("a test every 1.1 s", cp_rs=30, rs_it=30, period="1.1s", horizon=horizon)


CROSSING = one_wound(
    "first aid and a survival test at 428.4 s",
    cp_rs=5,
    rs_it=30,
    period="7.14min",
    horizon="2h",
    more='\n[first_aid]\nlevel = 0\nstart = "1.02min"\ninterval = "1.02min"\n',
)


def scenario(text: str):
    return scenario_with_overrides(tomllib.loads(text), [], "test.toml")


@pytest.mark.parametrize("horizon", ["7.7s", "13.2s", "22s", "23.1s", "33s"])
def test_o2_a_test_due_at_the_horizon_is_made_in_every_engine(horizon):
    """Cp+Rs 30 passes every test: one every 1.1 s from 1.1 s up to the horizon, ends
    included (O2), is horizon ÷ 1.1 s tests, counted in exact decimals."""
    expected = int(Fraction(horizon[:-1]) / Fraction("1.1"))
    sc = scenario(ticking(horizon))
    assert kernel_columns(sc, 1, 0, 3)["survival_tests"].tolist() == [expected] * 3
    assert run_trial(sc, 0, 1, kernel=False).survival_tests == expected
    assert solve(sc).mean("survival_tests") == pytest.approx(expected, abs=1e-9)


def test_o1_first_aid_comes_before_the_survival_test_of_the_same_instant():
    """The 7th attempt (7 × 1.02 min) and the first survival test (7.14 min) fall at 428.4 s:
    first aid first (O1). A trial stabilised then has made no survival test, in either
    engine; and the kernel's mean count of tests agrees with the exact engine's."""
    sc = scenario(CROSSING)
    n = 4_000
    columns = kernel_columns(sc, 1, 0, n)
    then = np.isclose(columns["first_stable_h"], 428.4 / 3600, rtol=0, atol=1e-12)
    assert then.sum() > 50  # the case is there to be seen
    assert not columns["survival_tests"][then].any()
    reference = [run_trial(sc, i, 1, kernel=False) for i in range(300)]
    assert all(r.survival_tests == 0 for r in reference if r.first_stable_h == pytest.approx(0.119))
    tests = columns["survival_tests"].astype(float)
    exact = solve(sc).mean("survival_tests")
    assert abs(tests.mean() - exact) <= 4.5 * tests.std(ddof=1) / np.sqrt(n)


CUT = one_wound(
    "dead at the first test, 1.7 s in",
    level="critical",
    cp_rs=-30,
    rs_it=30,
    period="1.7s",
    horizon="1h",
)


def test_a_time_of_a_fraction_of_a_second_is_the_same_hours_as_its_cut_off():
    """The first test, at 1.7 s, kills: the death's time in hours is the float of 1.7 s
    over 3600, in both engines and in the kernel's record, so that p_dead_by_1.7s counts
    it (the kernel's microseconds over 3.6e9 rounded one unit of the last place above it,
    and the share read 0 where the exact engine says 1)."""
    from simulator.studies import MonteCarlo, run_study

    sc = scenario(CUT)
    hours = 1.7 / 3600.0
    assert kernel_columns(sc, 1, 0, 2)["death_h"].tolist() == [hours, hours]
    assert run_trial(sc, 0, 1, kernel=False).death_h == hours
    sampled = run_study(sc, MonteCarlo(trials=20, seed=1, workers=1))
    assert sampled.stat("p_dead_by_1.7s") == 1.0
