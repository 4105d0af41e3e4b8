"""The exact engine's care: first aid (A1-A4) and the watches of a rest (R2-R3).

Mixins of :class:`~simulator.exact.engine.Engine`.
"""

from __future__ import annotations

from simulator.exact.base import Base, Before
from simulator.exact.state import Work
from simulator.exact.wounds import NEVER
from simulator.rules import counts, scalar
from simulator.rules.ids import RuleId
from simulator.rules.outcome import Count


class Care(Base):
    """First aid and watches."""

    # --- first aid (A1-A4) ------------------------------------------------------------
    def _first_aid(self, w: Work, mass: float, now: int, before: Before) -> None:
        fa = self.p.first_aid
        assert fa is not None  # first aid is only ever due with a caregiver
        nxt = scalar.next_attempt(w.fa_due, self.p.fa_interval)
        if scalar.attempt_lost(fa.self_treat, now, w.uncon):
            w.fa_due = nxt  # A4: lost, the next one at its usual time
            self._keep(w, mass)
            return
        if fa.max_attempts is not None:
            w.fa_n += 1
        self.acc[Count.FIRST_AID_ATTEMPTS] += mass
        s, f = self._first_aid_odds(w)
        self._test(mass, s, f)
        if s > 0.0:
            self._stabilised(w.copy(), mass * s, now, before)
        if f > 0.0:
            limit = scalar.UNLIMITED if fa.max_attempts is None else fa.max_attempts
            w.fa_due = nxt if scalar.more_attempts(w.fa_n, limit) else NEVER
            self._keep(w, mass * f)

    def _first_aid_odds(self, w: Work) -> tuple[float, float]:
        """A1: the chances of success and failure of a first-aid attempt."""
        fa = self.p.first_aid
        assert fa is not None
        view = self._view(w)
        total = counts.first_aid_total(
            fa.level, view.difficulty, fa.modifier, fa.self_treat, w.pain, self.p.self_aid_factor
        )
        return self.odds.success(total, view.penalties if fa.self_treat else ())

    def _stabilised(self, ok: Work, mass: float, now: int, before: Before) -> None:
        """A2: a successful attempt (``mass`` the success's) stabilises every wound."""
        self.acc[Count.FIRST_AID_SUCCESSES] += mass
        ok.wounds = self.rules.stabilise(ok.wounds)
        ok.relapse = NEVER
        ok.fa_due = NEVER
        if self._changed(ok, mass, now, before, RuleId.A2):
            self._keep(ok, mass)

    # --- watches (R2-R3) ------------------------------------------------------------------
    def _watch(self, w: Work, mass: float, now: int, before: Before) -> None:
        k = w.wk
        listed = any(self._watch_index(w, t) == k for t in w.pend)
        q = 1.0 if listed else self.p.neglect_p
        if q < 1.0:  # kept: nothing happens but the next watch (R2)
            if self.p.neglect_p > 0.0:
                self._file(self._state._replace(wk=k + 1), mass * (1.0 - q))
            else:
                kept = w.copy()
                self._arm_watch(kept, k)
                self._keep(kept, mass * (1.0 - q))
        if q <= 0.0:
            return
        mass *= q
        acc = self.acc
        acc[Count.NEGLECTED_WATCHES] += mass
        w.pend = tuple(t for t in w.pend if t > now)
        total = counts.survival_total(self.p.cp_rs, w.pain, w.missed)
        s, f = self.odds.success(total, self._view(w).penalties)
        self._test(mass, s, f)
        acc[Count.SURVIVAL_TESTS] += mass
        acc[Count.SURVIVAL_FAILURES] += mass * f
        for ok, p in ((True, s), (False, f)):
            if p <= 0.0:
                continue
            branch = w.copy()
            branch.missed = scalar.missed_after_neglect(branch.missed)
            if not ok:  # R3: every wound becomes unstable
                branch.apply(self.rules.neglected(branch.wounds, branch.relapse))
            if not self._changed(branch, mass * p, now, before, RuleId.R3, from_start=not ok):
                continue
            if branch.rest >= 0 and self._view(branch).stable:
                self._arm_watch(branch, k)
            self._keep(branch, mass * p)
