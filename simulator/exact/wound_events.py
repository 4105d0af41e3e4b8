"""The exact engine's events that strike the wounds: injuries, rough activity, survival tests.

Injuries (W1-W3), rough activity (X1) and survival tests (S1-S5), as mixins of
:class:`~simulator.exact.engine.Engine`.
"""

from __future__ import annotations

from simulator.exact.base import Base, Before
from simulator.exact.state import Work
from simulator.exact.wounds import LEVELS, NEVER
from simulator.rules import counts
from simulator.rules.ids import RuleId
from simulator.rules.outcome import Count
from simulator.rules.patient import Status


class WoundEvents(Base):
    """Injuries, activities and survival tests."""

    # --- scheduled injuries (W1-W3) -----------------------------------------------------
    def _injury(self, w: Work, mass: float, now: int, before: Before) -> None:
        injury = self.p.injuries[w.inj]
        w.inj += 1
        self._receive(w, mass, now, before, int(injury.level), injury.count)

    def _receive(
        self, w: Work, mass: float, now: int, before: Before, level: int, left: int
    ) -> None:
        if left == 0:
            if self._changed(w, mass, now, before, RuleId.W2):
                self._keep(w, mass)
            return
        change = self.rules.receive(w.wounds, w.relapse, level)
        if change.status is not Status.ALIVE:
            self._fatal(w, change.status, RuleId.W1, now, mass)
            return
        w.apply(change)
        w.pain += change.pain
        mental = LEVELS[level].is_mental

        def then(w: Work, mass: float) -> None:
            if self.p.basic or mental:  # B5, M3: the track's rest starts again
                self._track_rest(w, mental, now)
            self._receive(w, mass, now, before, level, left - 1)

        if change.pain:
            self._faints(w, mass, now, change.pain, then)
        else:
            then(w, mass)

    # --- rough activity (X1) -------------------------------------------------------------
    def _activity(self, w: Work, mass: float, now: int, before: Before) -> None:
        activity = self.p.activities[w.act]
        w.act += 1
        tested = self._view(w).tested  # indices: an aggravation removes no wound
        self._activity_step(w, mass, now, before, activity.modifier, tested, 0)

    def _activity_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        modifier: int,
        tested: tuple[int, ...],
        i: int,
    ) -> None:
        if i == len(tested):
            if not self._changed(w, mass, now, before, RuleId.X1, from_start=self.p.breaks_rest):
                return
            view = self._view(w)
            if self.p.breaks_rest and view.stable and view.physical:
                self._start_rest(w, now)
            self._keep(w, mass)
            return
        total = counts.survival_total(self.p.cp_rs, w.pain, w.missed, modifier)
        s, f = self.odds.success(total, self._view(w).penalties)
        self._test(mass, s, f)
        acc = self.acc
        acc[Count.ACTIVITY_TESTS] += mass
        acc[Count.ACTIVITY_FAILURES] += mass * f
        acc[Count.AGGRAVATIONS] += mass * f
        if f > 0.0:
            other = w.copy()
            change = self.rules.worsen(other.wounds, other.relapse, tested[i])
            if change.status is not Status.ALIVE:
                self._fatal(other, change.status, RuleId.X1, now, mass * f)
            else:
                other.apply(change)
                other.pain += change.pain

                def then(w2: Work, m2: float) -> None:
                    self._activity_step(w2, m2, now, before, modifier, tested, i + 1)

                self._faints(other, mass * f, now, change.pain, then)
        if s > 0.0:
            self._activity_step(w, mass * s, now, before, modifier, tested, i + 1)

    # --- survival tests (S1-S5) -----------------------------------------------------------
    def _survival(self, w: Work, mass: float, now: int, before: Before) -> None:
        w.surv = NEVER
        s, f = self._survival_odds(w)
        self._test(mass, s, f)
        self.acc[Count.SURVIVAL_TESTS] += mass
        self.acc[Count.SURVIVAL_FAILURES] += mass * f
        if f > 0.0:
            self._survival_failure(w.copy(), mass * f, now, before)
        if s > 0.0:
            self._after_survival(w, mass * s, now, before)

    def _survival_odds(self, w: Work) -> tuple[float, float]:
        """S1: the chances of success and failure of the patient's survival test."""
        total = counts.survival_total(self.p.cp_rs, w.pain, w.missed)
        return self.odds.success(total, self._view(w).penalties)

    def _survival_failure(self, bad: Work, mass: float, now: int, before: Before) -> None:
        """S3-S4: a failed survival test (``mass`` the failure's)."""
        change, worsened = self.rules.survival_failure(bad.wounds, bad.relapse)
        if not worsened:  # S4: stable, the worst wound becomes unstable
            bad.apply(change)
            self._after_survival(bad, mass, now, before)
            return
        self.acc[Count.AGGRAVATIONS] += mass  # S3: the target wound worsens
        if change.status is not Status.ALIVE:
            self._fatal(bad, change.status, RuleId.S3, now, mass)
            return
        bad.apply(change)
        bad.pain += change.pain
        self._faints(
            bad, mass, now, change.pain, lambda w2, m2: self._after_survival(w2, m2, now, before)
        )

    def _after_survival(self, w: Work, mass: float, now: int, before: Before) -> None:
        if not self._changed(w, mass, now, before, RuleId.S4):
            return
        view = self._view(w)
        if view.clock == before[1]:  # same (worst level, state): the clock runs on (S2)
            w.surv = NEVER if view.period == NEVER else now + view.period
        self._keep(w, mass)
