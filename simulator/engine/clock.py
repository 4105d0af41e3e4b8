"""Campaign time on SimPy's queue: O1's priorities and the event every clock arms.

SimPy orders its queue by ``(time, priority, id)``. Every event of the engine is scheduled
with one of the priorities below, in the order of RULES.md O1, so that at one instant
injuries resolve before activities, then first aid, watches, healing sessions and survival
tests; the horizon comes last (O2). SimPy's own URGENT (0) and NORMAL (1) go to SimPy's
events (process starts, the stop event), which therefore come before all of these.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappush

from simpy import Environment
from simpy.events import Event

# O1: pain recovery (computed lazily at the start of each handler, so always first),
# injuries, activities, first aid, watches, healing, survival tests; the horizon last.
PRIO_INJURY = 2
PRIO_ACTIVITY = 3
PRIO_FIRST_AID = 4
PRIO_WATCH = 5
PRIO_HEALING = 6
PRIO_SURVIVAL = 7
PRIO_HORIZON = 9

HOUR = 3600.0


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
        heappush(self._queue, (when, priority, next(self._eid), event))


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
        args: tuple = (),
    ):
        self.env = env
        self.callbacks = [self._fire] if fn is not None else []
        self._value = None
        self._ok = True
        self.fn = fn
        self.args = args
        if delay is not None:
            env.schedule(self, priority, delay)

    @classmethod
    def at(
        cls,
        env: CampaignEnvironment,
        when: float,
        priority: int,
        fn: Callable[..., None] | None = None,
        args: tuple = (),
    ) -> Due:
        """The event due at campaign time ``when`` exactly (see :class:`CampaignEnvironment`)."""
        event = cls(env, None, priority, fn, args)
        env.schedule_at(event, priority, when)
        return event

    def _fire(self, _event: Event) -> None:
        self.fn(*self.args)
