"""The exact engine's events, dispatched in O1's order to the handlers of each concern.

:class:`Handlers` gathers the mixins of :class:`~simulator.exact.engine.Engine`: the events
that strike the wounds (:mod:`~simulator.exact.wound_events`), care
(:mod:`~simulator.exact.care`) and healing (:mod:`~simulator.exact.healing`); what they share
is :mod:`~simulator.exact.base`'s.
"""

from __future__ import annotations

from simulator.exact.base import Before
from simulator.exact.care import Care
from simulator.exact.healing import Healing
from simulator.exact.state import State, Work
from simulator.exact.wound_events import WoundEvents
from simulator.rules.order import Priority
from simulator.rules.outcome import Outcome


class Handlers(WoundEvents, Care, Healing):
    """The events of one trial, applied to a distribution's states."""

    def _handle(self, state: State, mass: float, now: int, prio: Priority) -> None:
        w = Work(state)
        self._state = state
        view = self.rules.view(state.wounds)
        before: Before = (view.stable, view.clock, bool(state.wounds))
        if prio is Priority.INJURY:
            self._injury(w, mass, now, before)
        elif prio is Priority.ACTIVITY:
            self._activity(w, mass, now, before)
        elif prio is Priority.FIRST_AID:
            self._first_aid(w, mass, now, before)
        elif prio is Priority.WATCH:
            self._watch(w, mass, now, before)
        elif prio is Priority.HEALING:
            self._session(w, mass, now, before)
        elif prio is Priority.SURVIVAL:
            self._survival(w, mass, now, before)
        elif w.wounds:  # O2: the horizon
            self._end(Outcome.WOUNDED.value, now, mass)
        else:
            self._end(Outcome.HEALED.value, now, mass, w.free if w.free >= 0 else now)
