"""W2's bookkeeping: what the state keeps of the wounds' levels, kept step by step.

The kernel keeps P1's floor, A1's difficulty, M1's key, H5's worst wound (its row and its
level) and the least grave physical level in its state
(:func:`simulator.kernel.events.levels_moved`); a wound received updates them from the wound
alone (:func:`simulator.kernel.events.wound_added`). Each must be the very number a count over
every wound gives, whatever the blows, the wounds' kinds and the settings that choose what is
counted.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel.decisions import LEVEL_BITS
from simulator.kernel.engine import COMPILED, kernel_columns
from simulator.kernel.events import receive
from simulator.kernel.layout import (
    P_BASIC,
    P_FLOOR_CRAZY,
    P_MENTAL,
    S_ALIVE,
    S_DIFFICULTY,
    S_FA_ON,
    S_FLOOR,
    S_K_MENTAL,
    S_K_PHYSICAL,
    S_LEAST,
    S_MENTAL_KEY,
    S_NW,
    S_STABLE,
    S_SURV_KEY,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    S_WORST,
    S_WORST_LEVEL,
    S_WOUNDED,
    T_DIFFICULTY,
    T_MORTALITY,
)
from simulator.kernel.loop import work_arrays
from simulator.kernel.params import scenario_vector
from simulator.rules import rows
from simulator.rules.codes import SHOCK
from simulator.rules.levels import Level
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def recounted(w: np.ndarray, nw: int, sc: np.ndarray) -> tuple[float, float, float, int, int, int]:
    """The six numbers counted over every wound, by the rules' functions (plain Python)."""
    craziness = sc[P_FLOOR_CRAZY] == 1 or sc[P_MENTAL] == 0
    key = 0.0
    if sc[P_MENTAL] != 0:
        for i in range(nw):
            if w[rows.W_LEVEL, i] >= SHOCK:
                key += float(1 << (LEVEL_BITS * (int(w[rows.W_LEVEL, i]) - SHOCK)))
    worst = rows.worst(w, nw)
    return (
        rows.pain_floor(w, nw, sc, craziness),
        rows.physical_sum(w, nw, sc, T_DIFFICULTY),
        key,
        worst,
        rows.NO_WOUND if worst == rows.NO_WOUND else int(w[rows.W_LEVEL, worst]),
        rows.least_grave(w, nw),
    )


def kept(st: np.ndarray) -> tuple[float, float, float, int, int, int]:
    """The same six numbers as the state keeps them."""
    return (
        float(st[S_FLOOR]),
        float(st[S_DIFFICULTY]),
        float(st[S_MENTAL_KEY]),
        int(st[S_WORST]),
        int(st[S_WORST_LEVEL]),
        int(st[S_LEAST]),
    )


@pytest.mark.parametrize("crazy", [0.0, 1.0])
@pytest.mark.parametrize("basic", [0.0, 1.0])
@pytest.mark.parametrize("name", ["shaken", "careless_watches"])
def test_a_wound_received_keeps_the_numbers_a_full_count_gives(name: str, basic: float, crazy):
    sc = scenario_vector(load_scenario(ROOT / "scenarios" / f"{name}.toml"))
    sc[P_BASIC], sc[P_FLOOR_CRAZY] = basic, crazy
    sc[T_MORTALITY :: rows.T_SIZE][: len(Level)] += 0.1 * np.arange(len(Level))  # no whole sums
    st, w, rs, tr = work_arrays(sc)
    draws = np.random.default_rng(11)
    checked = 0
    for trial in range(40):
        st[:] = 0.0
        w[:] = 0
        rs[0] = np.uint64(trial + 1)
        st[S_ALIVE], st[S_STABLE], st[S_UNCONSCIOUS] = 1.0, 1.0, -math.inf
        st[S_WORST], st[S_WORST_LEVEL], st[S_LEAST] = (rows.NO_WOUND,) * 3
        st[S_K_PHYSICAL], st[S_K_MENTAL] = math.inf, math.inf
        levels = list(Level) if sc[P_MENTAL] != 0 else list(Level)[:SHOCK]
        for _ in range(8):
            with np.errstate(over="ignore"):  # plain Python wraps 64-bit integers as numba does
                alive = receive(st, w, sc, rs, tr, int(draws.choice(levels)))
            if not alive:
                break  # fatal: the trial is over
            assert kept(st) == recounted(w, int(st[S_NW]), sc)
            checked += 1
    assert checked > 100


@pytest.mark.skipif(COMPILED, reason="spies on H4 in the plain-Python kernel")
def test_first_aid_succeeds_only_where_h4_last_saw_an_unstable_wounded_patient(monkeypatch):
    """What H4 takes for granted at A2 (:func:`simulator.kernel.events.stabilised`), on every
    shipped scenario: first aid runs from the change to unstable to the change to stable (its
    clock on, S2's key that of an unstable state), never under the basic ruleset, and its
    success leaves every wound stable."""
    from simulator.kernel import handlers

    seen: list[tuple[float, ...]] = []
    real = handlers.stabilised

    def spy(st, w, sc, rs, tr):
        seen.append(
            (
                st[S_WAS_STABLE],
                st[S_WOUNDED],
                sc[P_BASIC],
                st[S_STABLE],
                float(st[S_NW] > 0),
                st[S_FA_ON],
                st[S_SURV_KEY] % 2.0,
            )
        )
        real(st, w, sc, rs, tr)

    monkeypatch.setattr(handlers, "stabilised", spy)  # A2's H4, written out in the handler
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        kernel_columns(load_scenario(path), 1, 0, 100)
    assert len(seen) > 100
    assert set(seen) == {(0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0)}
