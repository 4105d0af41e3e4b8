"""Clocks of repeated tests (S2's survival tests, A3's first-aid attempts), one by one or by runs.

A :class:`TestClock` makes a test every ``period`` from a ``base``. Most of those tests change
nothing: a stable survival test that passes (S5), a first-aid attempt that fails (A1). Paced
*event by event*, each test is an event on the queue. Paced *by runs* (the fast engine), the
clock draws at once how many tests change nothing before the first one that does (a geometric
number while the chance stays the same: :func:`~simulator.rules.chances.run_length`) and
queues only that decisive test, whose verdict is then known. The tests skipped are still
counted, once they are in the past: when the decisive test comes, when the trial ends, or when
anything changes the patient, after which the rest of the run is drawn again from that point
(the geometric law has no memory, so a redrawn run has the same law as the tests one by one).

While the chance of the next tests still moves with time (pain recovering hour by hour, P1) the
clock walks test by test without queueing them; once it no longer moves, it jumps. A test whose
modifiers are themselves random (mental penalties present with a probability strictly between 0
and 1, M1) or that falls due at the very instant the run is drawn is queued as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from simulator.engine.clock import Timer
from simulator.rules.chances import run_length
from simulator.rules.durations import format_clock

if TYPE_CHECKING:
    from simulator.engine.trial import Trial

Law = Callable[[float], "tuple[float, bool] | None"]
"""The law of the test due at a time: ``(chance it changes nothing, whether that chance holds
for every later test)``, or None when the test must be queued as it is."""


class TestClock:
    """A test every ``period`` from ``base``, paced one by one (``fast`` False) or by runs.

    Args:
        trial: The trial.
        priority: The tests' priority (O1).
        fire: The handler: ``fire(u)`` makes the test with the uniform draw ``u`` (None: draw
            it now) and returns whether the clock goes on.
        law: The law of the test due at a time (fast pacing only).
        decisive_passes: True when the test that changes something is a success (first aid);
            False when it is a failure (survival tests).
        skipped: Called with the number of tests found skipped and the times of the first and
            last, to count them (and tell them in the trace).
        signature: What the law of the coming tests depends on (beyond time, which the law
            itself takes into account): while it stays the same, a run drawn stays valid.
        remaining: How many more tests may be made (A3's ``max_attempts``; no limit by default).
    """

    __slots__ = (
        "active",
        "base",
        "decisive",
        "decisive_passes",
        "drawn",
        "drawn_for",
        "fast",
        "fire",
        "k",
        "law",
        "next_time",
        "period",
        "predicted",
        "priority",
        "remaining",
        "signature",
        "skipped",
        "timer",
        "trial",
    )

    def __init__(
        self,
        trial: Trial,
        priority: int,
        fire: Callable[[float | None], bool],
        law: Law,
        decisive_passes: bool,
        skipped: Callable[[int, float, float], None],
        signature: Callable[[], object],
        remaining: Callable[[], float] = lambda: math.inf,
    ):
        self.trial = trial
        self.timer = Timer(trial.clock, priority)
        self.priority = priority
        self.fire = fire
        self.law = law
        self.decisive_passes = decisive_passes
        self.skipped = skipped
        self.remaining = remaining
        self.signature = signature
        self.drawn_for: object = None  # the signature of the law the run was drawn with
        self.fast = trial.fast
        self.active = False
        self.base = 0.0
        self.period = 0.0
        self.next_time = 0.0
        self.k = 0  # the first test not yet made nor counted
        self.decisive = math.inf  # the index of the queued test (fast pacing)
        self.predicted: float | None = None  # the decisive test's chance, as drawn
        self.drawn = -1  # the trial's epoch when the run was drawn

    # --- starting and stopping --------------------------------------------------------
    def start(self, first: float, period: float) -> None:
        """Tests at ``first``, ``first + period``..."""
        self.settle()
        self.active = True
        self.period = period
        self.next_time = first
        self.base = first
        self.k = 0
        self.decisive = math.inf
        if self.fast:
            self.draw()
        else:
            self.timer.arm(first, self._fired_one)

    def stop(self) -> None:
        """No more tests (the tests skipped so far are counted first)."""
        self.settle()
        self.active = False
        self.timer.cancel()

    def time_of(self, k: float) -> float:
        """The time the test of index ``k`` falls due."""
        return self.base + k * self.period

    # --- event by event -----------------------------------------------------------------
    def _fired_one(self) -> None:
        gen = self.timer.gen
        self.k += 1
        go_on = self.fire(None)
        if not go_on:
            self.active = False
        elif self.active and self.timer.gen == gen and not self.trial.done:
            self.next_time = self.next_time + self.period
            self.timer.arm(self.next_time, self._fired_one)

    # --- by runs ------------------------------------------------------------------------
    def draw(self, signature: object = None) -> None:
        """Draw the rest of the run from test ``k`` on, and queue its decisive test."""
        trial = self.trial
        self.drawn = trial.epoch
        self.drawn_for = self.signature() if signature is None else signature
        now, horizon = trial.clock.now, trial.sc.horizon
        k = self.k
        remaining = self.remaining()
        if remaining <= 0:
            self.stop()
            return
        last_allowed = k + remaining - 1
        base, period, dice = self.base, self.period, trial.dice
        while True:
            t = base + k * period
            if t > horizon:
                self.decisive = math.inf
                self.timer.cancel()
                return
            law = None if t <= now else self.law(t)
            if law is None:  # queued as it is, its verdict drawn when it comes
                self._queue(k, None, None)
                return
            p, steady = law
            if steady:
                run, w = run_length(1.0 - dice.uniform(), p)
                last = k + run
                if last > last_allowed:  # A3: the attempts run out before anything changes
                    self._queue(last_allowed, self._nothing(p, dice.uniform()), p)
                    return
                if base + last * period > horizon:
                    self.decisive = math.inf
                    self.timer.cancel()
                    return
                self._queue(last, self._change(p, w), p)
                return
            u = dice.uniform()
            if u >= p or k >= last_allowed:  # this test changes something, or is the last
                self._queue(k, u, p)
                return
            k += 1

    def _change(self, p: float, w: float) -> float:
        """The draw of a test known to change something, ``w`` uniform on [0, 1)."""
        if self.decisive_passes:
            return (1.0 - p) * w  # a success: u below the chance of success, 1 - p
        return p + (1.0 - p) * w  # a failure: u at or above the chance of success, p

    def _nothing(self, p: float, w: float) -> float:
        """The draw of a test known to change nothing, ``w`` uniform on [0, 1)."""
        if self.decisive_passes:
            return (1.0 - p) + p * w  # a failure
        return p * w  # a success

    def _queue(self, k: float, u: float | None, p: float | None) -> None:
        self.decisive = k
        self.predicted = p
        self.timer.arm(self.time_of(k), self._fired_run, u)

    def _fired_run(self, u: float | None) -> None:
        gen = self.timer.gen
        passed = int(self.decisive) - self.k
        if passed > 0:
            self.skipped(passed, self.time_of(self.k), self.time_of(self.decisive - 1))
        self.k = int(self.decisive) + 1
        go_on = self.fire(u)
        if not go_on:
            self.active = False
        elif self.active and self.timer.gen == gen and not self.trial.done:
            self.draw()

    def _before(self, k: float, now: float, priority: int) -> bool:
        """Whether test ``k`` of the run came before the event ``(now, priority)`` (O1)."""
        t = self.base + k * self.period
        return t < now or (t == now and self.priority < priority)

    def settle(self) -> None:
        """Count the tests of the run that are now in the past (fast pacing)."""
        if not (self.fast and self.active):
            return
        now, priority = self.trial.clock.now, self.trial.priority
        k, end = self.k, self.decisive
        if k >= end or self.base + k * self.period > now:
            return  # no test of the run has come yet
        j: float = max(float(k), math.floor((now - self.base) / self.period) - 1)
        j = min(j, end)
        while j < end and self._before(j, now, priority):
            j += 1
        while j > k and not self._before(j - 1, now, priority):
            j -= 1
        if j > k:
            self.skipped(int(j - k), self.time_of(k), self.time_of(j - 1))
            self.k = int(j)

    def redraw(self) -> None:
        """Something changed the patient: count what is past, draw the rest again."""
        if self.active and self.drawn != self.trial.epoch:
            signature = self.signature()
            if signature == self.drawn_for:
                return  # the same law for every coming test: the run drawn stands
            self.settle()
            self.draw(signature)


def format_run(times: tuple[float, float]) -> str:
    """``1d 00:05 … 17d 00:05`` (one time when the run is one test)."""
    first, last = times
    if first == last:
        return format_clock(first)
    return f"{format_clock(first)} … {format_clock(last)}"
