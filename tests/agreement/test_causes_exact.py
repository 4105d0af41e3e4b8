"""Q3 by three witnesses: the exact engine, the event-by-event engine and the kernel.

For every scenario of ``scenarios/`` the exact budget allows (horizons shortened as in
``tests/agreement/test_exact_vs_monte_carlo.py``, whose cases these are, plus the careless
watches over two days), the share of trials dead of each cause must agree between a Monte Carlo
study and the exact answer within 4 standard errors, and the exact shares must sum to
``p_dead``; the kernel and the event-by-event engine must give the same law of causes (the
two-sample z-test of ``tests/support/same_laws.py``). Seeds are fixed; nothing is retried.
"""

from __future__ import annotations

import math

import pytest

from simulator.exact import solve
from simulator.rules.cause import CAUSES
from simulator.runner.engines import run_trial
from tests.agreement.test_exact_vs_monte_carlo import CASES, _share_se, _within, load
from tests.support.same_laws import Z_LIMIT, proportion_z

TRIALS = 10_000
SEED = 20_261_202
CAUSE_CASES = {**CASES, "careless_watches-2d": ("careless_watches.toml", ("horizon=2d",))}


def _shares(records) -> dict[str, int]:
    found = dict.fromkeys(CAUSES, 0)
    for r in records:
        if r.cause:
            found[r.cause] += 1
    return found


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CAUSE_CASES))
def test_q3_exact_causes_agree_with_monte_carlo(case):
    scenario = load(*CAUSE_CASES[case])
    answer = solve(scenario)
    by_cause = {cause: answer.p_cause(cause) for cause in CAUSES}
    dead = math.fsum(p for cause, p in by_cause.items() if cause != "mental")
    assert dead == pytest.approx(answer.p("dead"), abs=1e-12)
    assert by_cause["mental"] == pytest.approx(answer.p("incoherent"), abs=1e-12)
    records = [run_trial(scenario, i, SEED) for i in range(TRIALS)]
    counts = _shares(records)
    # by count: every dead or incoherent trial has exactly one cause, and no other trial has one
    ended = sum(r.outcome in ("dead", "incoherent") for r in records)
    assert sum(counts.values()) == ended
    for cause, p in by_cause.items():
        _within(counts[cause] / TRIALS, p, _share_se(p, TRIALS), f"{case}: cause {cause}")


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CAUSE_CASES))
def test_q3_fast_and_event_by_event_engines_give_the_same_causes(case):
    scenario = load(*CAUSE_CASES[case])
    n = 4000
    fast = _shares(run_trial(scenario, i, 1) for i in range(n))
    slow = _shares(run_trial(scenario, i, 2, kernel=False) for i in range(n))
    for cause in CAUSES:
        z = proportion_z(fast[cause], n, slow[cause], n)
        assert abs(z) <= Z_LIMIT, f"{case}: cause {cause}: {fast[cause]} against {slow[cause]}"
