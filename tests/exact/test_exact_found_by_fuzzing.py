"""Mistakes of the exact engine that fuzzing rounds found (kernel and reference agreed).

Each scenario is small enough that its answer is worked out by hand, here in the comments.
"""

from __future__ import annotations

import tomllib

import pytest

from simulator.exact import solve
from simulator.scenario.reading import scenario_with_overrides
from tests.agreement.test_exact_vs_monte_carlo import BASIC_SAME_INSTANT, HEALED_THEN_WOUNDED
from tests.support import tiny_scenario


def scenario(text: str):
    return scenario_with_overrides(tomllib.loads(text), [], "test.toml")


def test_r1_the_rest_and_its_watches_end_with_the_last_physical_wound():
    """The light wound heals at 2 h (a level 20 healer cannot fail), leaving no wound: no rest,
    so no watch at 1 d, and no missed watch to weigh on the grave wound that comes at 25 h.
    First aid cannot stabilise it (level 20 against the cell's difficulty −40); its one
    unstable test, at 25 h 15 min (the horizon), is Cp+Rs 0 − mortality 3: it fails with
    P(roll < 3) = 0.45, and the blow past the critical maximum of 0 kills.

    The exact engine kept the healed rest's watches: one neglected (p = 1) at 1 d, its −1
    carried into that test (0.55 dead), and the neglect's own survival test (two in all).
    """
    answer = solve(scenario(HEALED_THEN_WOUNDED))
    assert answer.outcomes["dead"] == pytest.approx(0.45, abs=1e-12)
    assert answer.mean("survival_tests") == pytest.approx(1.0, abs=1e-12)
    assert answer.mean("neglected_watches") == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("shock_first", [True, False])
def test_o1_the_physical_session_comes_before_the_mental_one_at_one_instant(shock_first):
    """Basic ruleset, a shock and a light wound at 0 s, both tracks' sessions at 6 h. The
    physical one is first (O1) and still carries the shock's −1 (B6): Cp+Rs 1 − light 1 −
    shock 1 = −1, healed with P(roll ≥ 1) = 0.45; whatever order the file lists them in.
    The exact engine ran the mental session first when the shock was listed first (0.55).
    """
    text = BASIC_SAME_INSTANT
    if not shock_first:
        text = (
            text.replace('level = "shock"', 'level = "LIGHT"')
            .replace('level = "light"', 'level = "shock"')
            .replace('level = "LIGHT"', 'level = "light"')
        )
    assert text.index('"shock"') < text.index('"light"') or not shock_first
    answer = solve(scenario(text))
    assert answer.outcomes["healed"] == pytest.approx(0.45, abs=1e-12)


@pytest.mark.parametrize("level", ["light", "shock"])
def test_a_thousand_wounds_at_one_instant_are_followed_to_the_end(level):
    """An injury's count goes up to 1000 (CONTRACT): each wound is received in a call of its
    own, with its faint tests between. Past about 330 the exact engine once hit Python's
    recursion limit and printed a traceback. A second later nothing has happened yet: every
    campaign is still wounded, with a thousand wounds. Python's limit is as it was after."""
    import sys

    limit = sys.getrecursionlimit()
    answer = solve(
        scenario(
            f'name = "many"\nhorizon = "1s"\n[patient]\ncp_rs = 6\nrs_it = 6\n'
            f'[patient.maxima]\n{level} = 1000\n[[injuries]]\nat = "0s"\nlevel = "{level}"\n'
            "count = 1000\n"
        )
    )
    assert answer.outcomes["wounded"] == pytest.approx(1.0, abs=1e-12)
    assert sys.getrecursionlimit() == limit  # a notebook's process is left as it was


WATCHED = tiny_scenario(first_aid_level=5, healing_level=2) + (
    "[watch]\nneglect_probability = 0.05\nneglect_at = {late}\n"
)
"""A grave wound, stabilised in minutes, then ten days of rest with careless watches."""


def test_r2_a_listed_neglect_past_the_horizon_is_forgotten_and_watches_merge_again():
    """A neglect_at time after the horizon can never be met (its watch would come after the
    campaign): the answer, and the states carried, are those of a scenario without it. The
    exact engine kept it pending, so no two states of different watch counts ever merged:
    Géraldine's campaign with ["61d"] ran past its time budget where [] takes seconds."""
    without = solve(scenario(WATCHED.format(late="[]")))
    late = solve(scenario(WATCHED.format(late='["11d", "1000d"]')))
    assert late.outcomes == without.outcomes
    assert late.states == without.states
    assert late.mean("survival_tests") == without.mean("survival_tests")
