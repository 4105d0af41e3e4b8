"""The exact engine's healing sessions (G1-G5, M3, B4-B6).

Mixins of :class:`~simulator.exact.engine.Engine`.

A session treats the wounds of its order (indices into the state's wounds, oldest first);
a light wound healed away shifts the indices after it down by one (``shift``).
"""

from __future__ import annotations

from simulator.exact.base import Base, Before
from simulator.exact.state import Session, Work
from simulator.exact.wounds import NEVER
from simulator.rules import counts, scalar, transitions
from simulator.rules.ids import RuleId
from simulator.rules.outcome import Count
from simulator.rules.patient import Status


class Healing(Base):
    """Healing sessions: a rest's session (G1) and a track's (B4-B6, M3)."""

    def _session(self, w: Work, mass: float, now: int, before: Before) -> None:
        # O1: at one instant, the physical track's session before the mental track's
        first = min(
            range(len(w.sess)), key=lambda i: (w.sess[i][0], w.sess[i][1] == Session.MENTAL)
        )
        _, kind = w.sess[first]
        w.sess = [e for i, e in enumerate(w.sess) if i != first]
        mental = kind == Session.MENTAL
        order = self._view(w).order[mental]
        if kind == Session.REST:
            rested = scalar.rested_so_far(w.rested, w.stretch, now, w.stretch != NEVER)
            w.rested, w.stretch = 0, NEVER  # the session ends this rest
            after = int(scalar.rested_after_session(self.p.cumulative, rested))
            self._heal_step(w, mass, now, before, order, 0, after)
        else:
            self._track_step(w, mass, now, before, order, 0, mental)

    def _heal(self, w: Work, index: int) -> int:
        """G2 (G5: no wound left, no missed-watch penalty); 1 when the wound went, else 0."""
        change = self.rules.heal(w.wounds, w.relapse, index)
        gone = len(w.wounds) - len(change.wounds)
        w.apply(change)
        if change.resets_missed:
            w.missed = 0
        return gone

    def _heal_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        order: tuple[int, ...],
        i: int,
        rested: int,
        shift: int = 0,
    ) -> None:
        if i == len(order):
            if self._changed(w, mass, now, before, RuleId.G2):
                if self._view(w).physical:
                    self._start_rest(w, now, rested)
                else:  # R1: no physical wound left, no rest: its watches stop too
                    self._stop_rest(w)
                self._keep(w, mass)
            return
        index = order[i] - shift
        healer = self.p.healing
        assert healer is not None  # G1's sessions only happen with a healer
        level = w.wounds[index][0]
        total = counts.healing_total(
            healer.level, self.rows[level].difficulty, w.missed, healer.modifier
        )
        s, f = self.odds.success(total)
        self._test(mass, s, f)
        self.acc[Count.HEALING_TESTS] += mass
        self.acc[Count.HEALING_FAILURES] += mass * f
        if f > 0.0:  # G4: the treated wound relapses
            bad = w.copy()
            bad.apply(self.rules.relapse(bad.wounds, bad.relapse, index))
            if self._changed(bad, mass * f, now, before, RuleId.G4, from_start=True):
                self._keep(bad, mass * f)
        if s > 0.0:
            shift += self._heal(w, index)
            self._heal_step(w, mass * s, now, before, order, i + 1, rested, shift)

    def _track_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        order: tuple[int, ...],
        i: int,
        mental: bool,
        shift: int = 0,
    ) -> None:
        if i == len(order):
            if self._changed(w, mass, now, before, RuleId.M3):
                self._track_rest(w, mental, now)
                self._keep(w, mass)
            return
        index = order[i] - shift
        level = w.wounds[index][0]
        acc = self.acc
        if self.p.basic:
            modifier = self.p.healing.modifier if self.p.healing is not None else 0
            if mental:  # B6: Rs+It and the mental wounds' penalties only
                total = counts.basic_healing_total(self.p.rs_it, 0, modifier)
            else:  # B4: Cp+Rs and every wound's penalty
                difficulty = self._view(w).difficulty
                total = counts.basic_healing_total(self.p.cp_rs, difficulty, modifier)
            s, f, worse = self.odds.three(
                total, transitions.BASIC_WORSEN_MARGIN, self._view(w).penalties
            )
            self._test(mass, s, f + worse)
        else:
            healer = self.p.healing
            assert healer is not None  # M3's sessions only happen with a healer
            total = counts.healing_total(
                healer.level,
                self.rows[level].difficulty,
                w.missed,
                healer.modifier,
                physical=not mental,
            )
            s, f = self.odds.success(total)
            worse = 0.0
            self._test(mass, s, f)
        acc[Count.HEALING_TESTS] += mass
        acc[Count.HEALING_FAILURES] += mass * (f + worse)
        if f > 0.0:  # the tests stop until the next rest
            stop = w.copy()
            self._track_step(stop, mass * f, now, before, (), 0, mental)
        if worse > 0.0:  # B4: a margin of -10 or less also worsens the wound
            acc[Count.AGGRAVATIONS] += mass * worse
            bad = w.copy()
            change = self.rules.worsen(bad.wounds, bad.relapse, index, with_pain=False)
            if change.status is not Status.ALIVE:
                event = RuleId.B6 if mental else RuleId.B4
                self._fatal(bad, change.status, event, now, mass * worse)
            else:
                bad.apply(change)
                self._track_step(bad, mass * worse, now, before, (), 0, mental)
        if s > 0.0:
            shift += self._heal(w, index)
            self._track_step(w, mass * s, now, before, order, i + 1, mental, shift)
