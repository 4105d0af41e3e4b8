"""Campaign time on SimPy's queue: O1's priorities and the event every clock arms.

SimPy orders its queue by ``(time, priority, id)``. Every event of the engine is scheduled
with one of the priorities below, in the order of RULES.md O1, so that at one instant
injuries resolve before activities, then first aid, watches, healing sessions and survival
tests; the horizon comes last (O2). SimPy's own URGENT (0) and NORMAL (1) go to SimPy's
events (process starts, the stop event), which therefore come before all of these.
"""

from __future__ import annotations

from collections.abc import Callable

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


class Due(Event):
    """An event that fires at ``now + delay`` with a given priority, calling ``fn(*args)``."""

    def __init__(
        self,
        env: Environment,
        delay: float,
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
        env.schedule(self, priority, delay)

    def _fire(self, _event: Event) -> None:
        self.fn(*self.args)
