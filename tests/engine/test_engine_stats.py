"""Monte Carlo against exact values computed by hand (fixed seeds; tolerance from the SE).

Each test runs N trials with one fixed seed and accepts the estimate within 4 standard
errors of the exact value: a false alarm has probability about 6e-5, and a test is never
retried.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.rules.dice import p_success
from simulator.rules.levels import Level
from simulator.runner.engines import run_trial
from simulator.scenario.model import FirstAid, Injury, PatientSpec, Scenario, Settings, Watch

MIN, HOUR = 60.0, 3600.0
N = 4000
SEED = 20261130


def within(estimate: float, exact: float, se: float, k: float = 4.0) -> bool:
    return abs(estimate - exact) <= k * se


def share(sc: Scenario, predicate, n: int = N, seed: int = SEED) -> float:
    return sum(bool(predicate(run_trial(sc, i, seed))) for i in range(n)) / n


def proportion_se(p: float, n: int = N) -> float:
    return math.sqrt(p * (1 - p) / n)


def lone(level: Level, cp_rs: int, horizon: float, **kw) -> Scenario:
    return Scenario(
        name="lone",
        horizon=horizon,
        patient=PatientSpec(cp_rs=cp_rs, rs_it=kw.pop("rs_it", 5)),
        injuries=(Injury(0.0, level),),
        **kw,
    )


def test_s1_s3_lone_light_wound_worsened_after_one_hour_is_one_failed_test():
    # Cp+Rs 3, pain 3: one survival test at 1h with modifier 0 (and no faint test at 3 pain).
    exact = 1 - p_success(0)
    got = share(lone(Level.LIGHT, 3, HOUR), lambda r: r.aggravations == 1)
    assert within(got, exact, proportion_se(exact))


def test_s3_w1_grave_wound_dead_after_two_failed_tests():
    # Fails at 15 min (10 - 5), then as a critical wound at 15 min 15 s (10 - 15).
    exact = (1 - p_success(5)) * (1 - p_success(-5))
    got = share(lone(Level.GRAVE, 10, 15 * MIN + 15), lambda r: r.outcome == "dead")
    assert within(got, exact, proportion_se(exact))


def test_d2_open_roll_survival_matches_exact_open_odds():
    settings = Settings(open_roll=True)
    exact = 1 - p_success(-2, open_roll=True)
    got = share(lone(Level.LIGHT, 1, HOUR, settings=settings), lambda r: r.aggravations == 1)
    assert within(got, exact, proportion_se(exact))


def test_d3_ties_fail_setting_changes_the_odds():
    settings = Settings(tie_succeeds=False)
    exact = 1 - p_success(0, tie_succeeds=False)
    got = share(lone(Level.LIGHT, 3, HOUR, settings=settings), lambda r: r.aggravations == 1)
    assert within(got, exact, proportion_se(exact))


def test_a1_a3_first_aid_attempts_are_geometric():
    # Level 1 against a grave wound (-3): q = P(success at -2); the survival tests always pass.
    q = p_success(-2)
    fa = FirstAid(start=5 * MIN, interval=5 * MIN, level=1)
    sc = lone(Level.GRAVE, 100, 6 * HOUR, first_aid=fa, rs_it=100)
    attempts = np.array([run_trial(sc, i, SEED).first_aid_attempts for i in range(N)])
    mean, sd = 1 / q, math.sqrt(1 - q) / q
    assert within(attempts.mean(), mean, sd / math.sqrt(N))
    assert within((attempts == 1).mean(), q, proportion_se(q))


def test_r2_random_neglects_are_binomial_per_watch():
    # Stabilised at 5 min, rest with 6h watches, no stable tests, tests always pass:
    # exactly 10 watches fall due before the horizon, each neglected with probability 0.3.
    p, watches = 0.3, 10
    sc = lone(
        Level.GRAVE,
        100,
        5 * MIN + watches * 6 * HOUR,
        rs_it=100,
        first_aid=FirstAid(start=5 * MIN, interval=5 * MIN, level=20),
        watch=Watch(neglect_probability=p),
        settings=Settings(stable_survival_tests=False),
    )
    counts = np.array([run_trial(sc, i, SEED).neglected_watches for i in range(N)])
    assert within(counts.mean(), watches * p, math.sqrt(watches * p * (1 - p) / N))
    none = (1 - p) ** watches
    assert within((counts == 0).mean(), none, proportion_se(none))


def test_m1_mental_penalty_present_with_trigger_probability():
    # A shock and a light wound (pain 6): the survival test at 1h has Cp+Rs 6, pain -6, and
    # the shock's -1 with probability 0.5, drawn independently of the faint test's draw.
    sc = Scenario(
        name="m1",
        horizon=HOUR,
        patient=PatientSpec(cp_rs=6, rs_it=50),
        injuries=(Injury(0.0, Level.SHOCK), Injury(0.0, Level.LIGHT)),
        settings=Settings(trigger_probability=0.5),
    )
    exact = 0.5 * (1 - p_success(0)) + 0.5 * (1 - p_success(-1))
    got = share(sc, lambda r: r.aggravations == 1)
    assert within(got, exact, proportion_se(exact))
