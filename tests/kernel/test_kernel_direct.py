"""The events whose handlers answer H4 and the follow-up themselves (the direct paths).

First aid's success (A2), a watch that held (R2), a stable patient's failed survival test (S4),
a relapse at a healing session (G4), a failed watch (R3) and an injury that makes a stable
patient unstable (W2) are the most frequent events of ``careless_watches``.
Their handlers answer H4 themselves, by its case for their event written out
(:func:`~simulator.kernel.events.stabilised`, :func:`~simulator.kernel.events.destabilised`),
or have nothing for it to do (a watch that held arms the next itself), and return ``DRAWN`` or
``NO_EVENT``. The pinned digests check that
the numbers stay the same; this checks that the loop's generic path is indeed not taken, that
each case written out is H4's, and that ``DRAWN`` is said only where the loop's redraws would
do nothing.
"""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel.engine import COMPILED, kernel_columns, kernel_trace
from simulator.kernel.layout import (
    C_BASE,
    I_HEALING_FAILURES,
    I_SURVIVAL_FAILURES,
    P_BASIC,
    S_ALIVE,
    S_PRIO,
    S_R_COUNT,
    S_STABLE,
    S_WAS_STABLE,
)
from simulator.rules.codes import (
    EV_A2,
    EV_G4,
    EV_R3,
    EV_S4,
    EV_W2,
    PRIO_FIRST_AID,
    PRIO_HEALING,
    PRIO_INJURY,
    PRIO_SURVIVAL,
    PRIO_WATCH,
)
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
WRITTEN_OUT = ("stabilised", "destabilised")
"""H4's cases written out (:mod:`simulator.kernel.events`)."""


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_the_direct_events_never_reach_the_loops_h4_nor_its_follow_up(monkeypatch):
    """On every shipped scenario: first aid's success, a stable patient's failed survival test,
    a relapse, a failed watch and an injury that makes a stable patient unstable answer H4
    themselves (they leave no follow-up to do), never the loop, and a watch that held arms the
    next watch of the same rest itself, without the loop's H4 or follow-up."""
    from simulator.kernel import handlers, loop

    generic: list[tuple[int, int]] = []
    direct: collections.Counter[str] = collections.Counter()
    held, just_held, stable_test = [0], [False], [False]
    turns: collections.Counter[int] = collections.Counter()
    real_changed, real_follow_up = loop.changed, loop.follow_up
    real_watch, real_survival, real_next = loop.on_watch, loop.on_survival, loop._next
    real_session, real_injury = loop.on_session, loop.on_injury

    def spy_changed(st, w, sc, rs, tr, event, from_start):
        generic.append((event, -1))
        assert not just_held[0] and not stable_test[0] and event != EV_A2
        real_changed(st, w, sc, rs, tr, event, from_start)

    def spy_follow_up(st, w, sc, rs, tr, prio, from_start, index, rests):
        generic.append((-1, prio))
        assert prio != PRIO_FIRST_AID and not stable_test[0]
        assert not (prio == PRIO_WATCH and just_held[0])
        real_follow_up(st, w, sc, rs, tr, prio, from_start, index, rests)

    def spy(name):
        real = getattr(handlers, name)

        def written_out(st, w, sc, rs, tr, *event):
            direct[name] += 1
            real(st, w, sc, rs, tr, *event)

        return written_out

    def spy_watch(st, w, sc, rs, tr):
        failures, rests = st[C_BASE + I_SURVIVAL_FAILURES], st[S_R_COUNT]
        answer = real_watch(st, w, sc, rs, tr)
        just_held[0] = st[C_BASE + I_SURVIVAL_FAILURES] == failures
        if just_held[0]:
            held[0] += 1
            assert st[S_R_COUNT] == rests  # the same rest
        else:  # R3: unstable now (the rest ran while stable), but under the basic ruleset
            stable_test[0] = sc[P_BASIC] == 0 and st[S_STABLE] == 0
            turns[EV_R3] += stable_test[0]
        return answer

    def spy_injury(st, w, sc, rs, tr):
        was_stable = st[S_WAS_STABLE] == 1
        answer = real_injury(st, w, sc, rs, tr)
        turned = st[S_ALIVE] == 1 and st[S_STABLE] == 0  # W2: alive, and unstable now
        stable_test[0] = sc[P_BASIC] == 0 and was_stable and turned
        turns[EV_W2] += stable_test[0]
        return answer

    def spy_survival(st, w, sc, rs, tr):
        stable, failures = st[S_STABLE] == 1, st[C_BASE + I_SURVIVAL_FAILURES]
        answer = real_survival(st, w, sc, rs, tr)
        stable_test[0] = stable and st[C_BASE + I_SURVIVAL_FAILURES] > failures
        return answer

    def spy_session(st, w, sc, rs, tr):
        failures = st[C_BASE + I_HEALING_FAILURES]
        answer = real_session(st, w, sc, rs, tr)
        stable_test[0] = st[C_BASE + I_HEALING_FAILURES] > failures  # a relapse
        return answer

    def spy_next(st, sc):
        just_held[0] = stable_test[0] = False
        return real_next(st, sc)

    monkeypatch.setattr(loop, "changed", spy_changed)
    monkeypatch.setattr(loop, "follow_up", spy_follow_up)
    for name in WRITTEN_OUT:
        monkeypatch.setattr(handlers, name, spy(name))
    monkeypatch.setattr(loop, "on_watch", spy_watch)
    monkeypatch.setattr(loop, "on_survival", spy_survival)
    monkeypatch.setattr(loop, "on_session", spy_session)
    monkeypatch.setattr(loop, "on_injury", spy_injury)
    monkeypatch.setattr(loop, "_next", spy_next)
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        before = len(generic)
        kernel_columns(load_scenario(path), 1, 0, 100)
        if path.stem == "careless_watches":
            assert len(generic) > before
    assert held[0] > 100 and all(direct[name] > 100 for name in WRITTEN_OUT)
    assert turns[EV_R3] > 100 and turns[EV_W2] > 100


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_a_handler_says_drawn_only_where_the_loops_redraws_would_change_nothing(monkeypatch):
    """First aid's success, a stable patient's failed survival test, a relapse, a failed
    watch and an injury that makes a stable patient unstable leave each clock off or fresh:
    the loop's two redraws, run on a copy where the handler says ``DRAWN``, draw nothing and
    leave the state as the handler's clearing of the fresh marks does."""
    from simulator.kernel import handlers, loop
    from simulator.kernel.clocks import FIRST_AID_CLOCK, SURVIVAL_CLOCK
    from simulator.kernel.layout import CLOCK_FRESH, CLOCK_ON

    real_drawn = handlers.drawn
    said: collections.Counter[int] = collections.Counter()

    def spy_drawn(st):
        w, sc, rs, tr = spy_drawn.args  # type: ignore[attr-defined]
        expected, stream = st.copy(), rs.copy()
        loop.redraw(expected, w.copy(), sc, stream, tr, SURVIVAL_CLOCK)
        loop.redraw(expected, w.copy(), sc, stream, tr, FIRST_AID_CLOCK)
        answer = real_drawn(st)
        assert stream[0] == rs[0]  # nothing drawn
        for clock in (SURVIVAL_CLOCK, FIRST_AID_CLOCK):
            if st[clock + CLOCK_ON] == 0:  # an off clock's mark is read after start only
                expected[clock + CLOCK_FRESH] = st[clock + CLOCK_FRESH]
        np.testing.assert_array_equal(st, expected)
        said[int(st[S_PRIO])] += 1
        return answer

    real_run_one = loop.run_one

    def spy_run_one(key, trial, sc, st, w, rs, tr):
        spy_drawn.args = (w, sc, rs, tr)  # type: ignore[attr-defined]
        real_run_one(key, trial, sc, st, w, rs, tr)

    monkeypatch.setattr(handlers, "drawn", spy_drawn)
    monkeypatch.setattr(loop, "run_one", spy_run_one)
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        kernel_columns(load_scenario(path), 1, 0, 100)
    assert said[PRIO_FIRST_AID] > 1000 and said[PRIO_SURVIVAL] > 300 and said[PRIO_HEALING] > 300
    assert said[PRIO_WATCH] > 100 and said[PRIO_INJURY] > 100


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
@pytest.mark.parametrize("name", sorted(WRITTEN_OUT))
def test_h4_written_out_is_h4s_case_for_its_event(monkeypatch, name):
    """:func:`~simulator.kernel.events.stabilised` (first aid's success) and
    :func:`~simulator.kernel.events.destabilised` (a stable patient's failed survival test, a
    relapse, a failed watch, an injury that makes a stable patient unstable), at each call on
    every shipped scenario: the state, wounds, stream and trace that H4 told their event
    leaves."""
    from simulator.kernel import events, handlers

    real = getattr(handlers, name)
    calls: collections.Counter[int] = collections.Counter()

    def spy(st, w, sc, rs, tr, *event):
        told = tuple(event) or (EV_A2, False)  # (event, from_start)
        copies = st.copy(), w.copy(), rs.copy(), tr.copy()
        events.changed(*copies[:2], sc, copies[2], copies[3], *told)
        real(st, w, sc, rs, tr, *event)
        for theirs, ours in zip(copies, (st, w, rs, tr), strict=True):
            np.testing.assert_array_equal(ours, theirs)
        calls[told[0]] += 1

    monkeypatch.setattr(handlers, name, spy)
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        kernel_columns(load_scenario(path), 1, 0, 100)
        for trial in range(3):  # told: the trace records too
            kernel_trace(load_scenario(path), 1, trial)
    if name == "stabilised":
        assert calls[EV_A2] > 300
    else:
        assert all(calls[event] > 100 for event in (EV_S4, EV_G4, EV_R3, EV_W2)), calls
