"""Clocks of repeated tests (S2's survival tests, A3's first-aid attempts), test by test.

A :class:`TestClock` makes a test every ``period`` from a ``base``: each test is an event on the
trial's queue, and the next is armed when it has been made, unless the handler says the clock
stops (a first aid that succeeded, the last attempt allowed) or the clock was restarted
meanwhile. This is the event-by-event reference; the compiled kernel skips the tests that change
nothing by runs (:mod:`simulator.kernel.clocks`), with the same laws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from simulator.engine.clock import Timer
from simulator.rules.durations import instant

if TYPE_CHECKING:
    from simulator.engine.context import TrialContext


class TestClock:
    """A test every ``period`` from ``base``, each an event.

    Args:
        trial: The trial whose clock it runs on.
        priority: The tests' priority (O1).
        fire: The handler: ``fire()`` makes the test and returns whether the clock goes on.
    """

    __slots__ = ("active", "base", "fire", "k", "next_time", "period", "timer", "trial")

    def __init__(self, trial: TrialContext, priority: int, fire: Callable[[], bool]):
        self.trial = trial
        self.timer = Timer(trial.clock, priority)
        self.fire = fire
        self.active = False
        self.base = 0.0
        self.period = 0.0
        self.next_time = 0.0
        self.k = 0  # the tests made since the clock started

    def start(self, first: float, period: float) -> None:
        """Tests at ``first``, ``first + period``..."""
        self.active = True
        self.period = period
        self.next_time = first
        self.base = first
        self.k = 0
        self.timer.arm(first, self._fired)

    def stop(self) -> None:
        """No more tests."""
        self.active = False
        self.timer.cancel()

    def time_of(self, k: float) -> float:
        """The time the test of index ``k`` falls due (A3's cadence ``base + k * period``)."""
        return instant(self.base + k * self.period)

    def _fired(self) -> None:
        gen = self.timer.gen
        self.k += 1
        go_on = self.fire()
        if not go_on:
            self.active = False
        elif self.active and self.timer.gen == gen and not self.trial.done:
            self.next_time = instant(self.next_time + self.period)
            self.timer.arm(self.next_time, self._fired)
