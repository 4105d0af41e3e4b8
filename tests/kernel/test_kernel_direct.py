"""The events whose handlers answer H4 and the follow-up themselves (the direct paths).

First aid's success (A2) and a watch that held (R2) are the two most frequent events of
``careless_watches`` after which the loop's generic H4 and follow-up have nothing to decide:
their handlers do what those would do (:func:`simulator.kernel.handlers.on_first_aid`,
:func:`simulator.kernel.handlers.on_watch`) and return ``NO_EVENT``. The pinned digests check
that the numbers stay the same; this checks that the loop's generic path is indeed not taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.kernel.engine import COMPILED, kernel_columns
from simulator.kernel.layout import C_BASE, I_SURVIVAL_FAILURES, S_R_COUNT
from simulator.rules.codes import EV_A2, PRIO_WATCH
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(COMPILED, reason="spies on the plain-Python kernel")
def test_first_aid_and_held_watches_never_reach_the_loops_h4_nor_its_follow_up(monkeypatch):
    """On every shipped scenario: A2's H4 is asked by the handler only, and a watch that held
    arms the next watch of the same rest itself, without the loop's H4 or follow-up."""
    from simulator.kernel import handlers, loop

    generic: list[tuple[int, int]] = []
    direct_a2, held, just_held = [0], [0], [False]
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
        assert event == EV_A2  # the handlers' own copy of H4 is first aid's
        direct_a2[0] += 1
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
    assert direct_a2[0] > 100 and held[0] > 100
    assert all(event != EV_A2 for event, _ in generic)
