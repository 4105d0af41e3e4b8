"""The exact engine against the event-by-event engine: two implementations, one set of laws.

For every scenario of ``scenarios/`` (horizons shortened where a long campaign would make the
Monte Carlo side slow) and a few scenarios that switch on what those leave off (self-treatment
with faints, open roll, ties failing, triggers, activities, neglected watches, the settings of
R4, G3, X1 and P1, the basic ruleset's mental track), a study of 20,000 trials must agree with
the exact answer: every outcome probability, the expected counts and the curves at a few
times within 4 standard errors. The seed is fixed; nothing is retried.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simulator.exact import solve
from simulator.exact.answer import COUNTS
from simulator.runner.engines import run_trial
from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

ROOT = Path(__file__).resolve().parents[2]
TRIALS = 20_000
SEED = 20_261_201
Z = 4.0

SELF_AID = """
name = "Self-treatment, faints, open roll, triggers, activities, watches"
horizon = "8h"
[patient]
cp_rs = 16
rs_it = 4
[[injuries]]
at = "0s"
level = "grave"
[[injuries]]
at = "0s"
level = "light"
[[injuries]]
at = "2h"
level = "trauma"
[first_aid]
level = 12
start = "0s"
interval = "5min"
max_attempts = 4
self = true
[watch]
neglect_probability = 0.05
neglect_at = ["3h"]
[healing]
level = 3
[[activities]]
at = "1h"
modifier = -2
[[activities]]
at = "4h"
[rules]
open_roll = true
tie_succeeds = false
trigger_probability = 0.5
faint_duration = "20min"
self_aid_pain_factor = 1
[rules.table.grave]
heal_period = "2h"
stable_period = "1h"
watch_period = "30min"
[rules.table.light]
heal_period = "1h"
"""

RESUME = """
name = "Resumed rests, cumulative sessions, fractional pain"
horizon = "8d"
[patient]
cp_rs = 8
rs_it = 6
[[injuries]]
at = "0s"
level = "grave"
[[injuries]]
at = "0s"
level = "light"
[[injuries]]
at = "3d"
level = "light"
[[injuries]]
at = "4d"
level = "shock"
[first_aid]
level = 4
start = "5min"
interval = "10min"
[watch]
neglect_at = ["84h"]
[healing]
level = 4
[[activities]]
at = "2d"
[rules]
rest_after_unstable = "resume"
rest_per_level = "cumulative"
pain_recovery_per_hour = 0.3
pain_floor_craziness = false
[rules.table.grave]
stable_period = "2d"
"""

BASIC_MENTAL = """
name = "Basic ruleset with mental wounds"
ruleset = "basic"
horizon = "30d"
[patient]
cp_rs = 6
rs_it = 5
[[injuries]]
at = "0s"
level = "grave"
count = 2
[[injuries]]
at = "1d"
level = "trauma"
[[injuries]]
at = "2d"
level = "shock"
[healing]
modifier = -2
"""

HEALED_THEN_WOUNDED = """
name = "A rest ends with its last physical wound: no watch after"
horizon = "25h15min"
[patient]
cp_rs = 0
rs_it = 20
[patient.maxima]
critical = 0
[[injuries]]
at = "0s"
level = "light"
[[injuries]]
at = "25h"
level = "grave"
[first_aid]
level = 20
start = "0s"
interval = "1min"
[watch]
neglect_probability = 1
[healing]
level = 20
[rules.table.light]
heal_period = "2h"
pain = 0
[rules.table.grave]
pain = 0
difficulty = -40
"""
"""The light wound heals at 2 h; the grave one comes at 25 h: no watch may fall between
(R1: no physical wound, no rest), and none may carry its −1 into the grave wound's test
(the exact engine kept the rest's watches going: p_dead 0.55 for 0.45). A fuzzing round's."""

BASIC_SAME_INSTANT = """
name = "basic: same-instant sessions, mental wound listed first"
ruleset = "basic"
horizon = "6h"
[patient]
cp_rs = 1
rs_it = 20
[[injuries]]
at = "0s"
level = "shock"
[[injuries]]
at = "0s"
level = "light"
[rules.table.light]
heal_period = "6h"
[rules.table.shock]
heal_period = "6h"
"""
"""Two sessions at 6 h, the mental one listed first: the physical track's test comes first
(O1) and still carries the shock's −1 (M1, B6); the exact engine ran them in file order."""

CASES = {
    "lone_traveller": ("lone_traveller.toml", ()),
    "geraldine-2d": ("geraldine.toml", ("horizon=2d",)),
    "geraldine-heals": (
        "geraldine.toml",
        ("horizon=12d", "first_aid.level=4", "healing.level=3", "rules.table.grave.heal_period=3d"),
    ),
    "geraldine_basic": ("geraldine_basic.toml", ()),
    "field_medic-1d": ("field_medic.toml", ("horizon=1d",)),
    "hydra-2d": ("hydra.toml", ("horizon=2d",)),
    "shaken": ("shaken.toml", ()),
    "self-aid": (SELF_AID, ()),
    "resume": (RESUME, ()),
    "resume-restart": (RESUME, ("rules.activity_breaks_rest=false",)),
    "basic-mental": (BASIC_MENTAL, ()),
    "healed-then-wounded": (HEALED_THEN_WOUNDED, ()),
    "basic-same-instant": (BASIC_SAME_INSTANT, ()),
}


def load(source: str, overrides: tuple[str, ...]):
    if source.endswith(".toml"):
        path = ROOT / "scenarios" / source
        return scenario_with_overrides(read_scenario_mapping(path), list(overrides), str(path))
    return scenario_with_overrides(tomllib.loads(source), list(overrides), "test.toml")


def _within(estimate: float, exact: float, se: float, what: str) -> None:
    assert abs(estimate - exact) <= Z * se + 1e-12, (
        f"{what}: Monte Carlo {estimate:.5f}, exact {exact:.5f}, "
        f"{(estimate - exact) / se if se else math.inf:+.1f} standard errors"
    )


def _share_se(p: float, n: int) -> float:
    # never below the error of one trial in n, so that a tiny exact share is not a zero SE
    return math.sqrt(max(p * (1 - p), 1.0 / n) / n)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_exact_agrees_with_monte_carlo(case):
    scenario = load(*CASES[case])
    answer = solve(scenario)
    assert answer.dropped <= 1e-8
    assert sum(answer.outcomes.values()) + answer.dropped == pytest.approx(1.0, abs=1e-12)
    records = [run_trial(scenario, i, SEED) for i in range(TRIALS)]
    n = len(records)
    for outcome, p in answer.outcomes.items():
        share = sum(r.outcome == outcome for r in records) / n
        _within(share, p, _share_se(p, n), f"{case}: p_{outcome}")
    for count in COUNTS:
        values = np.array([getattr(r, count) for r in records], dtype=float)
        se = math.sqrt(max(values.var(ddof=1), 1.0 / n) / n)  # at least one trial's worth
        _within(values.mean(), answer.mean(count), se, f"{case}: mean {count}")
    horizon_h = answer.horizon_h
    times = {
        "dead": np.array([r.death_h for r in records]),
        "incoherent": np.array([r.incoherent_h for r in records]),
        "healed": np.array([r.healed_h if r.outcome == "healed" else math.nan for r in records]),
        "stabilised": np.array([r.first_stable_h for r in records]),
    }
    for fraction in (0.05, 0.25, 0.5, 1.0):
        t = horizon_h * fraction
        for state, when in times.items():
            share = np.count_nonzero(when <= t) / n
            exact = answer.by(state, t)
            _within(share, exact, _share_se(exact, n), f"{case}: {state} by {t:g} h")
