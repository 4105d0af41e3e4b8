"""A run of survival tests carried in one go, up to the next other event.

While a patient is unstable, a survived test changes nothing but the time of the next one
(S2): the chances stay the same (the wounds, pain and missed watches do not change), so the
state that goes on is the same state with its clock moved on and its mass multiplied by the
chance of surviving. :meth:`Run._run` walks that run in one loop, up to the next event of
any other kind (first aid included), and files only what branches off it (a worsened wound;
a death ends there) and the state it reaches. Each step is the handler's own
(:meth:`~simulator.exact.wound_events.WoundEvents._survival`): the answer is the same, the
states carried are counted the same, only the queue is spared.
"""

from __future__ import annotations

from simulator.exact.base import Before
from simulator.exact.state import State, Work
from simulator.exact.wound_events import WoundEvents
from simulator.exact.wounds import NEVER
from simulator.rules.order import Priority


class Run(WoundEvents):
    """An unstable patient's run of survival tests, in one loop."""

    def _in_run(self, s: State) -> bool:
        """Whether the state's survival test begins a run (see above)."""
        return not self.basic and s.anchor < 0 and not self.rules.view(s.wounds).stable

    def _run(self, state: State, mass: float) -> None:
        """Carry ``state``, due for a survival test, along its run."""
        view = self.rules.view(state.wounds)
        before: Before = (view.stable, view.clock, bool(state.wounds))
        self._state = state
        w = Work(state)
        other = self._other(state)
        if state.fa_due >= 0:
            other = min(other, (state.fa_due, Priority.FIRST_AID))
        surv, period = state.surv, view.period
        s, f = self._survival_odds(w)
        ans, acc, eps = self.ans, self.acc, self.eps
        first = True  # the bucket's own step, counted already
        while (surv, Priority.SURVIVAL) < other:
            if first:
                first = False
            else:  # a state taken through one more event, as the queue would count it
                if mass < eps:
                    ans.dropped += mass
                    return
                ans.states += 1
            self._test(mass, s, f)
            acc["survival_tests"] += mass
            acc["survival_failures"] += mass * f
            if f > 0.0:
                bad = w.copy()
                bad.surv = NEVER
                self._survival_failure(bad, mass * f, surv, before)
            if s <= 0.0:
                return
            surv += period  # S2: survived, the clock runs on
            mass *= s
        w.surv = surv
        self._keep(w, mass)
