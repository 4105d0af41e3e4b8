"""Campaign time: O1's priorities, the timers every clock is armed with, and the queue.

Every event of the engine is queued by ``(time, priority, id)``: the time it falls due, one of
the priorities below in the order of RULES.md O1, and the order in which it was queued. So at
one instant injuries resolve before activities, then first aid, watches, healing sessions and
survival tests, and the horizon comes last (O2); among equals, file order and arming order
hold. Pain recovery (P1) is not queued: the dispatcher applies it before every handler.

:class:`SimPyClock`, SimPy's own queue, keeps that discipline. A :class:`Timer` is a clock of
the rules that can be restarted (S2's survival clock, A3's spell, a rest's watches and session,
a track's rest): arming it invalidates what it armed before, and the dispatcher drops the stale
events it finds.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappush
from typing import Protocol

from simpy import Environment
from simpy.events import Event

from simulator.rules.order import Priority

# O1 (one enum, simulator.rules.order.Priority): pain recovery (applied by the dispatcher
# before each handler, so always first), injuries, activities, first aid, watches, healing,
# survival tests; the horizon last. Plain ints here: the queues compare them at every event.
PRIO_INJURY = int(Priority.INJURY)
PRIO_ACTIVITY = int(Priority.ACTIVITY)
PRIO_FIRST_AID = int(Priority.FIRST_AID)
PRIO_WATCH = int(Priority.WATCH)
PRIO_HEALING = int(Priority.HEALING)
PRIO_MENTAL_HEALING = int(Priority.MENTAL_HEALING)
PRIO_SURVIVAL = int(Priority.SURVIVAL)
PRIO_HORIZON = int(Priority.HORIZON)

HOUR = 3600.0

Handler = Callable[..., None]
Dispatch = Callable[["Timer | None", int, int, Handler, tuple[object, ...]], None]
"""What a clock calls for each event: ``dispatch(timer, generation, priority, fn, args)``."""


class CampaignEnvironment(Environment):
    """SimPy's environment, able to put an event on its queue at an absolute time.

    :meth:`Environment.schedule` takes a delay and queues the event at ``now + delay``. In
    floating point that sum is not always the time meant (``now + (when - now)`` can be a
    rounding error away from ``when``, and for some pairs no delay at all gives ``when``
    exactly), and two events of one instant would then come apart and break O1's order.
    :meth:`schedule_at` queues the event at ``when`` itself, on the same queue, ordered by
    the same ``(time, priority, id)`` key as SimPy's own ``schedule``.
    """

    def schedule_at(self, event: Event, priority: int, when: float) -> None:
        """Queue ``event`` at campaign time ``when`` (not before now) with ``priority``.

        Raises:
            ValueError: When ``when`` is before now.
        """
        if when < self._now:
            raise ValueError(f"cannot schedule at {when!r}, before now ({self._now!r})")
        # SimPy types its priorities as an enum of its own two; O1's are plain ints
        heappush(self._queue, (when, priority, next(self._eid), event))  # type: ignore[misc]


class Due(Event):
    """An event that fires at ``now + delay`` with a given priority, calling ``fn(*args)``.

    The engine builds them with :meth:`at`, from the campaign time they are due at; a delay
    of None leaves the event unscheduled.
    """

    def __init__(
        self,
        env: Environment,
        delay: float | None,
        priority: int,
        fn: Callable[..., None] | None = None,
        args: tuple[object, ...] = (),
    ):
        self.env = env
        self.callbacks = [self._fire] if fn is not None else []
        self._value = None
        self._ok = True
        self.fn = fn
        self.args = args
        if delay is not None:
            env.schedule(self, priority, delay)  # type: ignore[arg-type]

    @classmethod
    def at(
        cls,
        env: CampaignEnvironment,
        when: float,
        priority: int,
        fn: Callable[..., None] | None = None,
        args: tuple[object, ...] = (),
    ) -> Due:
        """The event due at campaign time ``when`` exactly (see :class:`CampaignEnvironment`)."""
        event = cls(env, None, priority, fn, args)
        env.schedule_at(event, priority, when)
        return event

    def _fire(self, _event: Event) -> None:
        if self.fn is not None:
            self.fn(*self.args)


class Clock(Protocol):
    """A queue of campaign time: what the trial needs from SimPy or from the sorted list."""

    @property
    def now(self) -> float:
        """The present campaign time, in seconds."""
        ...

    def at(
        self,
        when: float,
        priority: int,
        timer: Timer | None,
        gen: int,
        fn: Handler,
        args: tuple[object, ...],
    ) -> None:
        """Queue ``fn(*args)`` at ``when`` with ``priority``, armed by ``timer`` (gen ``gen``)."""
        ...

    def drop(self, timer: Timer) -> None:
        """Take what ``timer`` queued off the queue, where the queue can (else it goes stale)."""
        ...

    def run(self) -> None:
        """Dispatch events in ``(time, priority, id)`` order until :meth:`stop`."""
        ...

    def stop(self) -> None:
        """End the run once the present event is handled."""
        ...


class SimPyClock:
    """O1's queue on SimPy: one :class:`Due` event per queued call (the reference engine)."""

    def __init__(self, dispatch: Dispatch):
        self.env = CampaignEnvironment()
        self._dispatch = dispatch
        self._stop = self.env.event()

    @property
    def now(self) -> float:
        """SimPy's present time."""
        return self.env.now

    def at(
        self,
        when: float,
        priority: int,
        timer: Timer | None,
        gen: int,
        fn: Handler,
        args: tuple[object, ...],
    ) -> None:
        """Queue a :class:`Due` event that dispatches ``fn(*args)``."""
        Due.at(self.env, when, priority, self._dispatch, (timer, gen, priority, fn, args))

    def drop(self, timer: Timer) -> None:
        """Nothing: SimPy's queue keeps the event, and the dispatcher drops it as stale."""

    def run(self) -> None:
        """SimPy's run, until the stop event (``run(until=horizon)`` would miss O2's end)."""
        self.env.run(until=self._stop)

    def stop(self) -> None:
        """Trigger the stop event (SimPy processes it before anything else still queued)."""
        if not self._stop.triggered:
            self._stop.succeed()


class Timer:
    """A clock of the rules that can be restarted: arming it invalidates what it armed before.

    Args:
        clock: The queue.
        priority: Its events' priority (O1).
    """

    __slots__ = ("clock", "gen", "priority")

    def __init__(self, clock: Clock, priority: int):
        self.clock = clock
        self.priority = priority
        self.gen = 0

    def arm(self, when: float, fn: Handler, *args: object) -> None:
        """Queue ``fn(*args)`` at ``when``, and make every event armed before stale."""
        self.gen += 1
        self.clock.at(when, self.priority, self, self.gen, fn, args)

    def cancel(self) -> None:
        """Make every event armed so far stale (the dispatcher drops them)."""
        self.gen += 1
        self.clock.drop(self)

    def live(self, gen: int) -> bool:
        """Whether an event of generation ``gen`` is still due (not superseded)."""
        return gen == self.gen
