"""The two-sample comparison of ``tests/support/same_laws.py``: passes one law, catches another."""

from __future__ import annotations

import numpy as np

from simulator.rules.levels import Level
from simulator.runner.engines import run_trial
from simulator.scenario.model import FirstAid, Healing, Injury, PatientSpec, Scenario
from tests.support.same_laws import differences, ks_critical, ks_distance, mean_z, proportion_z

HOUR = 3600.0
N = 3000


def grave(first_aid_level: int) -> Scenario:
    return Scenario(
        name="grave",
        horizon=3 * 24 * HOUR,
        patient=PatientSpec(cp_rs=8, rs_it=8),
        injuries=(Injury(0.0, Level.GRAVE),),
        first_aid=FirstAid(start=300.0, interval=300.0, level=first_aid_level),
        healing=Healing(level=0),
    )


def sample(sc: Scenario, seed: int, n: int = N) -> list:
    return [run_trial(sc, i, seed) for i in range(n)]


def test_statistics_of_the_comparison():
    assert proportion_z(50, 100, 50, 100) == 0.0
    assert proportion_z(0, 10, 0, 10) == 0.0
    assert abs(proportion_z(60, 100, 40, 100) - 0.2 / (0.25 * 0.02) ** 0.5) < 1e-12
    assert mean_z(np.array([1.0, 1.0]), np.array([1.0, 1.0])) == 0.0
    # a rare count the small sample happened to miss: 3 in 3000 against none in 300 is
    # chance (pooled error: z 0.5), not the z of 1.7 Welch's error gave it
    rare, none = np.zeros(3000), np.zeros(300)
    rare[:3] = 1.0
    assert abs(mean_z(rare, none)) < 1.0
    assert abs(mean_z(np.array([0.0, 1.0] * 50), np.array([1.0, 2.0] * 50)) + 9.97) < 0.01
    assert ks_distance(np.array([0.0, 1.0]), np.array([0.0, 1.0])) == 0.0
    assert ks_distance(np.array([0.0, 0.0]), np.array([1.0, 1.0])) == 1.0
    assert abs(ks_critical(1000, 1000, 0.05) - 1.358 * (2 / 1000) ** 0.5) < 1e-3


def test_two_seeds_of_one_law_agree():
    assert differences(sample(grave(1), 1), sample(grave(1), 2)) == []


def test_a_different_law_is_caught():
    # First aid one level better: more stabilisations, fewer deaths, fewer attempts.
    found = differences(sample(grave(1), 1), sample(grave(2), 2))
    assert any("first_aid_attempts" in line for line in found), found
