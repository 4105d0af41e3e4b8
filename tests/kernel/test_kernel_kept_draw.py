"""The decisive test's draw, taken with its run and mixed only where it is read.

A geometric run's decisive test keeps ``-p`` and the stream's position of its draw
(:func:`~simulator.kernel.clocks.draw_signed`); :func:`~simulator.kernel.clocks.take` mixes it
only for a trace, and tells the handler that the test changes something, without its
comparison with the chance. The pinned digests check that the numbers stay the same; these
check each piece on its own: that the draw kept is the one drawn at once (against a copy of
the eager code), that each handler's comparison would have said what the draw says, on every
decisive test of every shipped scenario, and that the rounding edge of first aid's comparison
is guarded.
"""

from __future__ import annotations

import collections
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel.clocks import (
    FIRST_AID_CLOCK,
    LOST,
    SURVIVAL_CLOCK,
    first_aid_sure,
    kept_draw,
    law,
    mental_draw,
    mental_fixed,
    stop,
    time_of,
)
from simulator.kernel.decisions import (
    chance,
    first_aid_total,
    passes,
    survival_total,
)
from simulator.kernel.engine import COMPILED, kernel_columns, kernel_trace
from simulator.kernel.layout import (
    CLOCK_DK,
    CLOCK_DU,
    CLOCK_K,
    P_CP_RS,
    P_FA_FACTOR,
    P_FA_LEVEL,
    P_FA_MAX,
    P_FA_MOD,
    P_FA_SELF,
    P_HORIZON,
    S_DIFFICULTY,
    S_FA_ATTEMPTS,
    S_FA_MENTAL,
    S_FA_PRESENT,
    S_MISSED,
    S_NW,
    S_PAIN,
    S_SV_MENTAL,
    S_SV_PRESENT,
)
from simulator.kernel.params import _odds
from simulator.kernel.rng import uniform
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
LAST_DRAW = 1.0 - 2.0**-53
"""The largest uniform draw (53 bits)."""


def _eager_draw_signed(st, w, sc, rs, tr, c):
    """``draw_signed`` as it was before its decisive draw was kept: mixed at once."""
    k = st[c + CLOCK_K]
    remaining = math.inf
    if c == FIRST_AID_CLOCK and sc[P_FA_MAX] >= 0:
        remaining = sc[P_FA_MAX] - st[S_FA_ATTEMPTS]
    if remaining <= 0:
        stop(st, w, sc, tr, c)
        return
    last_allowed = k + remaining - 1.0
    horizon = sc[P_HORIZON]
    passes_decide = c == FIRST_AID_CLOCK
    mental, present, random = 0.0, 0.0, False
    if c == SURVIVAL_CLOCK or sc[P_FA_SELF] == 1:
        mental, present, random = mental_fixed(st, w, sc)
    held = S_SV_MENTAL if c == SURVIVAL_CLOCK else S_FA_MENTAL
    which = S_SV_PRESENT if c == SURVIVAL_CLOCK else S_FA_PRESENT
    while True:
        t = time_of(st, c, k)
        if t > horizon:
            st[c + CLOCK_DK] = math.inf
            return
        if random:
            mental, present = mental_draw(w, int(st[S_NW]), sc, rs)
        p, steady, lost, log_p, _ = law(st, w, sc, c, t, mental)
        st[held], st[which] = mental, present
        if lost:
            st[c + CLOCK_DK], st[c + CLOCK_DU] = k, LOST
            return
        if steady and not random:
            u = 1.0 - uniform(rs)
            if p >= 1.0:
                run, v = math.inf, 0.0
            elif p <= 0.0:
                run, v = 0.0, 1.0 - u
            else:
                run, v = passes(u, p, log_p), uniform(rs)
            last = k + run
            if last > last_allowed:
                x = uniform(rs)
                du = (1.0 - p) + p * x if passes_decide else p * x
                st[c + CLOCK_DK], st[c + CLOCK_DU] = last_allowed, du
                return
            if time_of(st, c, last) > horizon:
                st[c + CLOCK_DK] = math.inf
                return
            du = (1.0 - p) * v if passes_decide else p + (1.0 - p) * v
            st[c + CLOCK_DK], st[c + CLOCK_DU] = last, du
            return
        u = uniform(rs)
        changes = u < 1.0 - p if passes_decide else u >= p
        if changes or k >= last_allowed:
            st[c + CLOCK_DK], st[c + CLOCK_DU] = k, u
            return
        k += 1.0


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_a_kept_draw_is_the_draw_mixed_at_once(monkeypatch):
    """Every run drawn on every shipped scenario (traced and not): the stream, the state and
    the decisive test drawn as the eager code drew them, the draw kept (``-p`` and a position)
    giving, mixed later, the very number it mixed at once."""
    from simulator.kernel import clocks

    real = clocks.draw_signed
    seen: collections.Counter[str] = collections.Counter()

    def spy(st, w, sc, rs, tr, c):
        copies = st.copy(), w.copy(), rs.copy(), tr.copy()
        _eager_draw_signed(copies[0], copies[1], sc, copies[2], copies[3], c)
        real(st, w, sc, rs, tr, c)
        eager = copies[0]
        assert rs[0] == copies[2][0]  # the same draws taken
        np.testing.assert_array_equal(w, copies[1])
        np.testing.assert_array_equal(tr, copies[3])
        du = st[c + CLOCK_DU]
        if du < 0.0 and st[c + CLOCK_DK] != math.inf:  # kept: mixed where it is read
            assert kept_draw(st, rs, c) == eager[c + CLOCK_DU]
            seen["kept"] += 1
            st_eager = st.copy()
            st_eager[c + CLOCK_DU] = eager[c + CLOCK_DU]
            np.testing.assert_array_equal(st_eager, eager)
        else:
            seen["eager"] += 1
            np.testing.assert_array_equal(st, eager)

    monkeypatch.setattr(clocks, "draw_signed", spy)
    for path in SCENARIOS:
        kernel_columns(load_scenario(path), 1, 0, 60)
        for trial in range(2):
            kernel_trace(load_scenario(path), 1, trial)
    assert seen["kept"] > 1000 and seen["eager"] > 100


def _handler_succeeds(st, sc, c, du):
    """What the handler compared before the draw told it: whether the test succeeds."""
    if c == FIRST_AID_CLOCK:
        total = first_aid_total(
            sc[P_FA_LEVEL],
            st[S_DIFFICULTY],
            sc[P_FA_MOD],
            sc[P_FA_SELF] == 1,
            sc[P_FA_FACTOR],
            st[S_PAIN],
        )
        return du < chance(total + st[S_FA_MENTAL], sc)
    return du < chance(survival_total(sc[P_CP_RS], st[S_PAIN], st[S_MISSED]) + st[S_SV_MENTAL], sc)


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_a_known_decisive_test_is_what_the_handler_would_have_compared(monkeypatch):
    """Every decisive test of every shipped scenario that ``take`` says is known (first aid
    succeeds, a survival test fails): the handler's comparison of the draw, mixed, with the
    chance of the state at that test would have said the same; where it is not known, the
    draw as drawn is returned for the handler to compare."""
    from simulator.kernel import handlers

    real = handlers.take
    known: collections.Counter[int] = collections.Counter()

    def spy(st, w, sc, rs, tr, c):
        du, changes = real(st, w, sc, rs, tr, c)
        if changes:
            drawn = kept_draw(st, rs, c)
            if tr.shape[0] > 0:
                assert du == drawn
            else:
                assert du == st[c + CLOCK_DU] < 0.0
            assert _handler_succeeds(st, sc, c, drawn) == (c == FIRST_AID_CLOCK)
            known[c] += 1
        else:
            assert du == st[c + CLOCK_DU] and (du >= 0.0)
        return du, changes

    monkeypatch.setattr(handlers, "take", spy)
    for path in SCENARIOS:
        kernel_columns(load_scenario(path), 1, 0, 100)
        for trial in range(3):
            kernel_trace(load_scenario(path), 1, trial)
    assert known[FIRST_AID_CLOCK] > 1000 and known[SURVIVAL_CLOCK] > 300


sure = getattr(first_aid_sure, "py_func", first_aid_sure)
""":func:`~simulator.kernel.clocks.first_aid_sure` as Python runs it (compiled, it is written
into its callers only): the same operations on the same doubles."""


def _all_odds() -> list[float]:
    return sorted(
        {
            float(s)
            for open_roll in (False, True)
            for tie in (False, True)
            for s in _odds(open_roll, tie)[2]
        }
    )


def _first_aid_draw(s: float, v: float) -> float:
    """First aid's decisive draw as ``draw_signed`` makes it: ``(1 - p) * v``, ``p = 1 - s``."""
    p = 1.0 - s
    return (1.0 - p) * v


def test_where_first_aid_is_sure_every_draw_succeeds_and_where_not_the_guard_is_needed():
    """``first_aid_sure(s)`` implies that every draw of a geometric run's decisive attempt, up to
    the largest, compares below ``s`` as the handler compares it, for each of D5's odds and for
    chances one unit of the last place around them; and the guard is not idle: some chances
    below one half, where ``1 - s`` rounds, would let the largest draws compare at or above
    ``s``, and ``first_aid_sure`` says no there."""
    chances = []
    for s in _all_odds():
        if 0.0 < s < 1.0:
            chances += [s, math.nextafter(s, 0.0), math.nextafter(s, 1.0)]
    rng = np.random.default_rng(29)
    chances += [float(x) for x in rng.uniform(0.0, 0.5, 20_000)]
    guarded = 0
    for s in chances:
        worst = _first_aid_draw(s, LAST_DRAW)  # rounding is monotone: the largest draw's
        if sure(s):
            assert worst < s, s
        elif worst >= s:
            guarded += 1
    assert guarded > 100
    assert all(sure(s) for s in _all_odds() if s >= 0.5)


def test_a_survival_tests_draw_is_never_below_its_chance():
    """A survival run's decisive draw ``p + (1 - p) * v`` is at least ``p`` for every draw,
    from the smallest (0) up (rounding is monotone): the test fails, as the handler finds."""
    for p in _all_odds():
        if 0.0 < p < 1.0:
            for v in (0.0, 2.0**-53, 0.5, LAST_DRAW):
                assert not p + (1.0 - p) * v < p
