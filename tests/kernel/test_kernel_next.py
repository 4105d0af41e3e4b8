"""O1's choice of the next event in the kernel (:func:`simulator.kernel.loop._next`).

The candidates that most scenarios never have (activities, the sessions of the tracks' rests)
are looked at last, and only where the scenario may have them (``P_RARE``): the choice must
still be the earliest candidate, and at one instant the first in O1's priority order.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel.engine import COMPILED
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
    S_R_SESSION,
    S_R_WATCH,
    S_SV_ON,
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
    draws = np.random.default_rng(5)
    times = [1.0, 2.0, 3.0, math.inf]  # few values: many ties
    kinds = set()
    for _ in range(3000):
        pick = [float(draws.choice(times)) for _ in range(9)]
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
        expected = (best, order[pick.index(best)]) if best < math.inf else (math.inf, -1)
        assert _next(st, sc) == expected, pick
        kinds.add(expected[1])
    kinds_of_o1 = set(range(PRIO_INJURY, PRIO_HORIZON + 1)) - {PRIO_MENTAL_HEALING}
    assert kinds == kinds_of_o1 | {KIND_TRACK_PHYSICAL, KIND_TRACK_MENTAL}
    sc[P_RARE] = 0.0  # a scenario without them: activities and tracks are not looked at
    st[S_ACT_NEXT], sc[int(sc[P_ACT0])], sc[P_HORIZON] = 0, 0.5, 9.0
    assert _next(st, sc)[1] != PRIO_ACTIVITY
