"""P1's lazy recovery in the kernel (:func:`simulator.kernel.loop.recover`).

``recover`` leaves the stable hours uncounted while the pain is at its floor (nothing
recovers then); whoever raises the pain or lowers the floor counts them
(:func:`simulator.kernel.events.hours_counted`). Whenever there is pain to recover, the
hours counted must then be those that counting them at every event gives: the whole hours
from the stable state's start to the previous event.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel import loop
from simulator.kernel.engine import COMPILED, kernel_columns
from simulator.kernel.events import HOUR
from simulator.kernel.layout import (
    P_PER_HOUR,
    S_FLOOR,
    S_NOW,
    S_PAIN,
    S_PAIN_STEPS,
    S_STABLE_SINCE,
    S_WAS_STABLE,
)
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(COMPILED, reason="compiled, recover has no entry from Python")
@pytest.mark.parametrize("name", ["careless_watches", "geraldine"])
def test_the_hours_counted_are_those_of_counting_at_every_event(
    monkeypatch: pytest.MonkeyPatch, name: str
):
    real = loop.recover
    previous = [0.0]  # the previous event's time in this trial
    seen = [0, 0]  # events with pain to recover; those after hours left uncounted

    def watched(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray) -> None:
        now, since = st[S_NOW], st[S_STABLE_SINCE]
        if now < previous[0]:  # a new trial
            previous[0] = 0.0
        stable = sc[P_PER_HOUR] > 0 and st[S_WAS_STABLE] == 1
        if stable and st[S_PAIN] > st[S_FLOOR]:
            every_event = math.floor((max(previous[0], since) - since) / HOUR)
            assert st[S_PAIN_STEPS] == every_event, (now, since, previous[0])
            seen[0] += 1
        elif stable and math.floor((now - since) / HOUR) > st[S_PAIN_STEPS]:
            seen[1] += 1
        real(st, w, sc, tr)
        previous[0] = now

    monkeypatch.setattr(loop, "recover", watched)
    kernel_columns(load_scenario(ROOT / "scenarios" / f"{name}.toml"), 7, 0, 300)
    assert seen[0] > 50 and seen[1] > 50, seen
