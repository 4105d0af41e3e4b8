"""O1's choice of the next event in the kernel (:func:`simulator.kernel.loop._next`).

The candidates that most scenarios never have (activities, the sessions of the tracks' rests)
are looked at last, and only where the scenario may have them (``P_RARE``), and the first-aid
spell only while the patient is unstable, the rest's watch and session only while stable (H4):
the choice must still be the earliest candidate, and at one instant the first in O1's priority
order.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel.decisions import geometric_from_log
from simulator.kernel.engine import COMPILED, kernel_columns
from simulator.kernel.events import gap_at_least
from simulator.kernel.layout import (
    CLOCK_BASE,
    CLOCK_DK,
    CLOCK_ON,
    CLOCK_PERIOD,
    P_ACT0,
    P_HORIZON,
    P_INJ0,
    P_NACT,
    P_NINJ,
    P_RARE,
    S_ACT_NEXT,
    S_FA_ON,
    S_INJ_NEXT,
    S_K_MENTAL,
    S_K_PHYSICAL,
    S_LOG_Q,
    S_R_GAP_U,
    S_R_RANDOM,
    S_R_SESSION,
    S_R_START,
    S_R_WATCH,
    S_R_WPERIOD,
    S_SV_ON,
    S_WAS_STABLE,
)
from simulator.kernel.loop import KIND_TRACK_MENTAL, KIND_TRACK_PHYSICAL, _next, work_arrays
from simulator.kernel.params import scenario_vector
from simulator.rules.codes import (
    PRIO_ACTIVITY,
    PRIO_FIRST_AID,
    PRIO_HEALING,
    PRIO_HORIZON,
    PRIO_INJURY,
    PRIO_MENTAL_HEALING,
    PRIO_SURVIVAL,
    PRIO_WATCH,
)
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(COMPILED, reason="compiled, O1's choice has no entry from Python")
def test_the_next_event_is_the_earliest_and_at_one_time_the_first_in_o1s_order():
    sc = scenario_vector(load_scenario(ROOT / "scenarios" / "hydra.toml"))
    assert sc[P_RARE] == 1 and sc[P_NINJ] > 0 and sc[P_NACT] > 0
    st = work_arrays(sc)[0]
    st[S_R_GAP_U] = -1.0  # R2's gaps worked out (as run_one starts)
    draws = np.random.default_rng(5)
    times = [1.0, 2.0, 3.0, math.inf]  # few values: many ties
    kinds = set()
    for _ in range(3000):
        pick = [float(draws.choice(times)) for _ in range(9)]
        pick[8] = float(draws.choice(times[:-1]))  # the horizon: a duration
        stable = bool(draws.integers(2))  # H4: a first-aid spell, or a rest (R1, R4)
        st[S_WAS_STABLE] = 1.0 if stable else 0.0
        if stable:
            pick[2] = math.inf
        else:
            pick[3] = pick[4] = math.inf
        st[S_INJ_NEXT] = 0 if pick[0] < math.inf else sc[P_NINJ]
        sc[int(sc[P_INJ0])] = pick[0]
        st[S_ACT_NEXT] = 0 if pick[1] < math.inf else sc[P_NACT]
        sc[int(sc[P_ACT0])] = pick[1]
        for clock, t in ((S_FA_ON, pick[2]), (S_SV_ON, pick[7])):  # test 0 at base, or none
            st[clock + CLOCK_ON] = 1.0 if t < math.inf else 0.0
            st[clock + CLOCK_BASE], st[clock + CLOCK_PERIOD] = t, 1.0
            st[clock + CLOCK_DK] = 0.0
        st[S_R_WATCH], st[S_R_SESSION] = pick[3], pick[4]
        st[S_K_PHYSICAL], st[S_K_MENTAL] = pick[5], pick[6]
        sc[P_HORIZON] = pick[8]
        order = [  # O1: the candidates in priority order
            PRIO_INJURY,
            PRIO_ACTIVITY,
            PRIO_FIRST_AID,
            PRIO_WATCH,
            PRIO_HEALING,
            KIND_TRACK_PHYSICAL,
            KIND_TRACK_MENTAL,
            PRIO_SURVIVAL,
            PRIO_HORIZON,
        ]
        best = min(pick)
        expected = (best, order[pick.index(best)])
        assert _next(st, sc) == expected, pick
        kinds.add(expected[1])
    kinds_of_o1 = set(range(PRIO_INJURY, PRIO_HORIZON + 1)) - {PRIO_MENTAL_HEALING}
    assert kinds == kinds_of_o1 | {KIND_TRACK_PHYSICAL, KIND_TRACK_MENTAL}
    sc[P_RARE] = 0.0  # a scenario without them: activities and tracks are not looked at
    st[S_ACT_NEXT], sc[int(sc[P_ACT0])], sc[P_HORIZON] = 0, 0.5, 9.0
    assert _next(st, sc)[1] != PRIO_ACTIVITY


def _o1(st: np.ndarray, sc: np.ndarray) -> tuple[float, int]:
    """O1's choice among every candidate in priority order, R2's gap put off worked out by
    libm's log (a copy of the state is read)."""
    watch = st[S_R_WATCH]
    if st[S_R_GAP_U] >= 0.0 and watch < math.inf:
        u, log_q = st[S_R_GAP_U], st[S_LOG_Q]
        index = st[S_R_RANDOM] - gap_at_least(u, log_q)
        watch = st[S_R_START] + (index + geometric_from_log(u, log_q)) * st[S_R_WPERIOD]

    def due(clock: int) -> float:
        if st[clock + CLOCK_ON] == 0 or st[clock + CLOCK_DK] == math.inf:
            return math.inf
        return float(st[clock + CLOCK_BASE] + st[clock + CLOCK_DK] * st[clock + CLOCK_PERIOD])

    injury = activity = math.inf
    if st[S_INJ_NEXT] < sc[P_NINJ]:
        injury = sc[int(sc[P_INJ0] + st[S_INJ_NEXT] * 3)]
    if st[S_ACT_NEXT] < sc[P_NACT]:
        activity = sc[int(sc[P_ACT0] + st[S_ACT_NEXT] * 2)]
    candidates = [
        (injury, PRIO_INJURY),
        (activity, PRIO_ACTIVITY),
        (due(S_FA_ON), PRIO_FIRST_AID),
        (watch, PRIO_WATCH),
        (st[S_R_SESSION], PRIO_HEALING),
        (st[S_K_PHYSICAL], KIND_TRACK_PHYSICAL),
        (st[S_K_MENTAL], KIND_TRACK_MENTAL),
        (due(S_SV_ON), PRIO_SURVIVAL),
        (sc[P_HORIZON], PRIO_HORIZON),
    ]
    best = min(t for t, _ in candidates)
    return best, next(kind for t, kind in candidates if t == best)


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_on_every_shipped_scenario_the_next_event_is_o1s_among_every_candidate(monkeypatch):
    """In the trials themselves: looking only at the first-aid spell while unstable and at
    the rest while stable, and working R2's gap out only when its bound could come first,
    choose what O1 chooses among every candidate; and a gap is seldom worked out."""
    from simulator.kernel import events, loop

    real_next, real_gap = loop._next, events.neglect_gap
    counted = {"events": 0, "gaps": 0}

    def spy_next(st: np.ndarray, sc: np.ndarray) -> tuple[float, int]:
        expected = _o1(st.copy(), sc)
        counted["events"] += 1
        assert real_next(st, sc) == expected
        return expected

    def spy_gap(st: np.ndarray, sc: np.ndarray, u: float) -> float:
        counted["gaps"] += 1
        return float(real_gap(st, sc, u))

    monkeypatch.setattr(loop, "_next", spy_next)
    monkeypatch.setattr(events, "neglect_gap", spy_gap)
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        kernel_columns(load_scenario(path), 1, 0, 100)
    before = dict(counted)
    kernel_columns(load_scenario(ROOT / "scenarios" / "careless_watches.toml"), 1, 0, 200)
    assert counted["events"] - before["events"] > 200 * 30  # about 40 events a trial
    assert counted["gaps"] - before["gaps"] < 200 * 10  # of about 23 gaps, 7.5 worked out
