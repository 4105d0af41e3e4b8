"""The exact engine against hand computations (issue 12): the chances worked out on paper."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.exact import solve
from simulator.rules.dice import p_success
from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def scenario(text: str, *overrides: str):
    """A scenario from TOML text, with ``--set`` overrides."""
    import tomllib

    return scenario_with_overrides(tomllib.loads(text), list(overrides), "test.toml")


def repo_scenario(name: str, *overrides: str):
    """A scenario of ``scenarios/`` with overrides."""
    path = SCENARIOS / name
    return scenario_with_overrides(read_scenario_mapping(path), list(overrides), str(path))


def closed(modifier: int) -> float:
    """D5's chance of success of the closed roll."""
    return p_success(modifier)


LIGHT = """
name = "Lone light wound"
horizon = "2h"
[patient]
cp_rs = 6
rs_it = 6
[[injuries]]
at = "0s"
level = "light"
"""


def test_s2_s3_o2_lone_light_wound_over_two_hours_by_hand():
    # Unstable light wound, pain 3: survival tests at 1h and 2h (the horizon is included,
    # O2) at 6 - 3. A failure makes it grave (pain 8): tests every 15 minutes at 6 - 8; a
    # failed grave test makes it critical (pain 18), whose test 15 s later cannot succeed.
    a, g = closed(3), closed(-2)
    assert closed(-12) == 0.0
    answer = solve(scenario(LIGHT))
    dead = (1 - a) * (1 - g**3)  # grave failures at 1h15, 1h30, 1h45 kill 15 s later
    assert answer.p("dead") == pytest.approx(dead, abs=1e-12)
    assert answer.p("wounded") == pytest.approx(1 - dead, abs=1e-12)
    assert answer.p("healed") == 0.0
    aggravations = a * (1 - a) + (1 - a) * (1 + 2 * (1 - g) * (1 + g + g * g) + g**3 * (1 - g))
    assert answer.mean("aggravations") == pytest.approx(aggravations, abs=1e-12)
    # tests: 1h and 2h on the passing path; on the failing one the grave tests at 1h15...2h
    # up to a failure, then one critical test 15 s later unless the failure was at 2h
    grave_tests = 1 + g + g * g + g**3  # tests made at 1h15, 1h30, 1h45, 2h
    tests = a * 2 + (1 - a) * (1 + grave_tests + (1 - g**3))
    assert answer.mean("survival_tests") == pytest.approx(tests, abs=1e-12)
    assert answer.dropped < 1e-12
    assert sum(answer.outcomes.values()) + answer.dropped == pytest.approx(1.0, abs=1e-15)
    assert answer.by("dead", 1.25) == pytest.approx(0.0, abs=1e-15)
    assert answer.by("dead", 1.26) == pytest.approx((1 - a) * (1 - g), abs=1e-12)


def test_a3_o1_geraldine_first_unstable_spell_by_hand():
    # Géraldine: first aid at 0 + (-1 -1 -3) = -5 at 5, 10 and 15 minutes; her survival test
    # at 15 minutes (8 - 11 = -3) comes after the first aid of that instant (O1), and does not
    # happen at all once that first aid has stabilised her (S2's clock restarted).
    answer = solve(repo_scenario("geraldine.toml", "horizon=15min"))
    fa, surv = closed(-5), closed(-3)
    assert fa == pytest.approx(0.15) and surv == pytest.approx(0.28)
    unstable = (1 - fa) ** 3
    assert answer.by("stabilised", 5 / 60) == pytest.approx(fa, abs=1e-12)
    assert answer.by("stabilised", 10 / 60) == pytest.approx(1 - (1 - fa) ** 2, abs=1e-12)
    assert answer.by("stabilised", 0.25) == pytest.approx(1 - unstable, abs=1e-12)
    assert answer.mean("first_aid_attempts") == pytest.approx(1 + (1 - fa) + (1 - fa) ** 2)
    assert answer.mean("survival_tests") == pytest.approx(unstable, abs=1e-12)
    assert answer.mean("aggravations") == pytest.approx(unstable * (1 - surv), abs=1e-12)
    assert answer.p("dead") == 0.0  # the worsened wound is critical: its test is 15 s away
    assert answer.p("wounded") == pytest.approx(1.0, abs=1e-12)


BASIC_LIGHT = """
name = "Basic light wound"
ruleset = "basic"
horizon = "6d"
[patient]
cp_rs = {cp_rs}
rs_it = 8
[[injuries]]
at = "0s"
level = "light"
[healing]
modifier = -1
"""


def test_b4_basic_healing_tests_by_hand():
    # One light wound: a test every 2 days at Cp+Rs - 1 (its penalty) - 1 (modifier).
    answer = solve(scenario(BASIC_LIGHT.format(cp_rs=8)))
    s = closed(6)
    assert answer.by("healed", 48) == pytest.approx(s, abs=1e-12)
    assert answer.by("healed", 95.9) == pytest.approx(s, abs=1e-12)
    assert answer.by("healed", 96) == pytest.approx(1 - (1 - s) ** 2, abs=1e-12)
    assert answer.p("healed") == pytest.approx(1 - (1 - s) ** 3, abs=1e-12)
    assert answer.median_hours("healed") == 48.0
    assert answer.mean("healing_tests") == pytest.approx(1 + (1 - s) + (1 - s) ** 2)


def test_b4_basic_failure_by_ten_worsens_by_hand():
    # Cp+Rs 0: margin = roll - 2; a margin of -10 or less (roll <= -8) worsens the light
    # wound to grave, whose tests come a week later (past the horizon).
    answer = solve(scenario(BASIC_LIGHT.format(cp_rs=0), "horizon=2d"))
    worse = 0.03  # rolls -9 and -8: 1% + 2%
    assert answer.mean("aggravations") == pytest.approx(worse, abs=1e-12)
    assert answer.p("healed") == pytest.approx(closed(-2), abs=1e-12)
    assert answer.mean("healing_failures") == pytest.approx(1 - closed(-2), abs=1e-12)


def test_b4_geraldine_basic_first_session_by_hand():
    # Two light wounds and a grave one: the first light at 8 - 5 - 1, the second (once the
    # first healed) at 8 - 4 - 1; the first failure stops the session.
    answer = solve(repo_scenario("geraldine_basic.toml", "horizon=2d"))
    first, second = closed(2), closed(3)
    assert answer.mean("healing_tests") == pytest.approx(1 + first, abs=1e-12)
    failures = (1 - first) + first * (1 - second)
    assert answer.mean("healing_failures") == pytest.approx(failures, abs=1e-12)


CRITICAL = """
name = "Critical wound, open roll"
horizon = "15s"
[patient]
cp_rs = 0
rs_it = 30
[[injuries]]
at = "0s"
level = "critical"
[rules]
open_roll = true
"""


def test_d2_open_roll_critical_wound_by_hand():
    # Pain 10: the test at 15 s needs roll >= 10, impossible with the closed roll, possible
    # with the open one (D2); a failure is fatal (past critical).
    answer = solve(scenario(CRITICAL))
    p = p_success(-10, open_roll=True)
    assert 0.01 < p < 0.1
    assert answer.p("wounded") == pytest.approx(p, abs=1e-11)
    assert answer.p("dead") == pytest.approx(1 - p, abs=1e-11)
    assert answer.dropped < 1e-9
    closed_answer = solve(scenario(CRITICAL.replace("open_roll = true", "open_roll = false")))
    assert closed_answer.p("dead") == 1.0


def test_d3_ties_fail_by_hand():
    answer = solve(scenario(LIGHT, "rules.tie_succeeds=false", "horizon=1h"))
    assert answer.p("wounded") == pytest.approx(1.0)
    assert answer.mean("aggravations") == pytest.approx(1 - p_success(3, tie_succeeds=False))


def test_exact_probabilities_sum_to_one_minus_dropped():
    for name in ("lone_traveller.toml", "hydra.toml", "shaken.toml", "geraldine_basic.toml"):
        answer = solve(repo_scenario(name, "horizon=2d"))
        total = math.fsum(answer.outcomes.values()) + answer.dropped
        assert total == pytest.approx(1.0, abs=1e-12), name
        assert answer.dropped <= 1e-9


def test_exact_refuses_past_max_states_saying_how_far_it_got():
    with pytest.raises(UserError) as info:
        solve(repo_scenario("field_medic.toml"), max_states=50)
    text = str(info.value)
    assert "--max-states" in text and "Monte Carlo" in text and "campaign time" in text


def test_exact_eps_is_checked():
    with pytest.raises(UserError, match="--eps"):
        solve(scenario(LIGHT), eps=0.0)
