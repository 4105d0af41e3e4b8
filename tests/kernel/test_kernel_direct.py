"""The events whose handlers answer H4 and the follow-up themselves (the direct paths).

First aid's success (A2), a watch that held (R2) and survival tests (S1-S5) are the most
frequent events of ``careless_watches``. Their handlers ask H4 themselves, each copy told its
event, and do the follow-up the loop's would (:mod:`simulator.kernel.handlers`), then return
``NO_EVENT``. The pinned digests check that
the numbers stay the same; this checks that the loop's generic path is indeed not taken.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from simulator.kernel.engine import COMPILED, kernel_columns
from simulator.kernel.layout import C_BASE, I_SURVIVAL_FAILURES, S_R_COUNT
from simulator.rules.codes import (
    EV_A2,
    EV_S4,
    PRIO_FIRST_AID,
    PRIO_SURVIVAL,
    PRIO_WATCH,
)
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DIRECT = {EV_A2: PRIO_FIRST_AID, EV_S4: PRIO_SURVIVAL}
"""The events whose handlers ask H4 themselves, and their kinds (O1's priorities)."""


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_the_direct_events_never_reach_the_loops_h4_nor_its_follow_up(monkeypatch):
    """On every shipped scenario: first aid and survival tests ask H4 themselves (and do
    their follow-up), never the loop, and a watch that held arms the next
    watch of the same rest itself, without the loop's H4 or follow-up."""
    from simulator.kernel import handlers, loop

    generic: list[tuple[int, int]] = []
    direct: collections.Counter[int] = collections.Counter()
    held, just_held = [0], [False]
    real_changed, real_follow_up = loop.changed, loop.follow_up
    real_direct = getattr(handlers, "changed", real_changed)
    real_watch, real_next = loop.on_watch, loop._next

    def spy_changed(st, w, sc, rs, tr, event, from_start):
        generic.append((event, -1))
        assert not just_held[0]
        real_changed(st, w, sc, rs, tr, event, from_start)

    def spy_follow_up(st, w, sc, rs, tr, prio, from_start, index, rests):
        generic.append((-1, prio))
        assert not (prio == PRIO_WATCH and just_held[0])
        real_follow_up(st, w, sc, rs, tr, prio, from_start, index, rests)

    def spy_direct(st, w, sc, rs, tr, event, from_start):
        direct[event] += 1
        real_direct(st, w, sc, rs, tr, event, from_start)

    def spy_watch(st, w, sc, rs, tr):
        failures, rests = st[C_BASE + I_SURVIVAL_FAILURES], st[S_R_COUNT]
        answer = real_watch(st, w, sc, rs, tr)
        just_held[0] = st[C_BASE + I_SURVIVAL_FAILURES] == failures
        if just_held[0]:
            held[0] += 1
            assert st[S_R_COUNT] == rests  # the same rest
        return answer

    def spy_next(st, sc):
        just_held[0] = False
        return real_next(st, sc)

    monkeypatch.setattr(loop, "changed", spy_changed)
    monkeypatch.setattr(loop, "follow_up", spy_follow_up)
    monkeypatch.setattr(handlers, "changed", spy_direct, raising=False)
    monkeypatch.setattr(loop, "on_watch", spy_watch)
    monkeypatch.setattr(loop, "_next", spy_next)
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        before = len(generic)
        kernel_columns(load_scenario(path), 1, 0, 100)
        if path.stem == "careless_watches":
            assert len(generic) > before
    assert held[0] > 100 and all(direct[event] > 100 for event in DIRECT)
    assert set(direct) == set(DIRECT)
    assert not any(event in DIRECT or prio in DIRECT.values() for event, prio in generic)
