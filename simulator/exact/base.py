"""What every exact handler shares: the reaction to a new state, faints, fatal blows, rests.

The handlers (:mod:`~simulator.exact.wound_events`, :mod:`~simulator.exact.care`,
:mod:`~simulator.exact.healing`) are mixins of :class:`simulator.exact.engine.Engine`. Each
mirrors one handler of the event-by-event engine (``simulator/engine/trial.py`` and
``care.py``) and must stay in step with it: the same order of steps, the same clocks armed,
the same tests. Where the event-by-event engine rolls, a handler splits the state's mass
between the outcomes with the exact chances of :class:`~simulator.exact.odds.Odds`, and adds
each count's expectation. What a rule decides (a test's total, what an outcome does to the
wounds, a period) is asked of :mod:`simulator.rules` (through
:class:`~simulator.exact.wounds.WoundRules` for the wounds); a handler only carries the mass.
Branches go on by continuation (``then(work, mass)``) and end in ``_file`` (a state goes on)
or ``_end`` (the trial ends).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from simulator.exact.state import Session, State, Work
from simulator.exact.wounds import NEVER, View, WoundRules
from simulator.rules import rest, scalar
from simulator.rules.cause import Cause, cause_after
from simulator.rules.ids import RuleId
from simulator.rules.outcome import Count, Outcome
from simulator.rules.patient import Status

if TYPE_CHECKING:
    from simulator.exact.answer import ExactAnswer
    from simulator.exact.odds import Odds
    from simulator.rules.table import LevelRow
    from simulator.scenario.model import Scenario
    from simulator.scenario.prepared import Prepared

Then = Callable[[Work, float], None]

Before = tuple[bool, tuple[int, bool] | None, bool]
"""What a handler notes before it changes a state: stable, S2's clock, any wound."""

ENDS = {Status.DEAD: Outcome.DEAD.value, Status.INCOHERENT: Outcome.INCOHERENT.value}
"""The outcome (Q1) of a fatal blow, by the status it left (H6, M2)."""


class Base:
    """The reactions the handlers of one trial share."""

    if TYPE_CHECKING:  # set and defined by Engine, whose mixin this is
        sc: Scenario
        p: Prepared[int]
        rows: tuple[LevelRow, ...]
        rules: WoundRules
        odds: Odds
        track_rested: bool
        ans: ExactAnswer
        acc: dict[Count, float]
        _state: State
        eps: float

        def _file(self, state: State, mass: float) -> None: ...

    def _end(
        self,
        outcome: str,
        when: int,
        mass: float,
        healed_at: int | None = None,
        cause: Cause = Cause.NONE,
    ) -> None:
        """The trial ends (Q1): its outcome, at ``when`` (or when it healed), with its cause."""
        ans = self.ans
        ans.outcomes[outcome] += mass
        at = when if healed_at is None else healed_at
        times = ans.times[outcome]
        times[at] = times.get(at, 0.0) + mass
        if cause is not Cause.NONE:  # Q3
            times = ans.causes[cause.value]
            times[at] = times.get(at, 0.0) + mass

    def _drop(self, mass: float) -> None:
        """Mass left out (the open roll's truncation)."""
        self.ans.dropped += mass

    def _view(self, w: Work) -> View:
        return self.rules.view(w.wounds)

    def _keep(self, w: Work, mass: float) -> None:
        """The state goes on: filed under its next event."""
        self._file(w.freeze(), mass)

    def _test(self, mass: float, s: float, f: float) -> None:
        """Count the open roll's truncated mass of one test as dropped."""
        if self.p.open_roll:
            lost = 1.0 - s - f
            if lost > 0.0:
                self._drop(mass * lost)

    # --- the reaction to a new state (Trial.changed) ------------------------------------
    def _changed(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        event: RuleId,
        from_start: bool = False,
    ) -> bool:
        """React to a new patient state after ``event``; False when the trial ended (healed).

        ``event`` names the unstable spell it opens (Q3).
        ``from_start``: a rest this change breaks starts again from zero in any case (R3, G4,
        X1), not only under ``rest_after_unstable = "restart"`` (R4).
        """
        view = self.rules.view(w.wounds)
        change = scalar.state_change(
            before[0], view.stable, before[1], view.clock, before[2], bool(w.wounds)
        )
        if not self.p.basic:  # B3: no stability, no survival tests
            if change & scalar.BECAME_STABLE:
                self._became_stable(w, now, mass)
            elif change & scalar.BECAME_UNSTABLE:
                w.cause = cause_after(w.cause, event, True, Status.ALIVE)
                self._became_unstable(w, now, from_start)
            if change & scalar.SURVIVAL_RESTARTS:  # S2: the clock restarts with the new period
                w.surv = NEVER if view.period == NEVER else now + view.period
        if w.wounds:
            w.free = NEVER
        elif change & scalar.WOUND_FREE:  # G5: wound-free from now
            w.free = now
            if w.inj >= len(self.p.injuries):
                self._end(Outcome.HEALED.value, now, mass)
                return False
        return True

    def _became_stable(self, w: Work, now: int, mass: float) -> None:
        if not w.stab:
            w.stab = True
            stab = self.ans.stabilised
            stab[now] = stab.get(now, 0.0) + mass
        w.anchor = now if self.p.per_hour else NEVER
        kept, w.kept = w.kept, 0
        self._start_rest(w, now, kept)

    def _became_unstable(self, w: Work, now: int, from_start: bool) -> None:
        if self.track_rested:
            rested = scalar.rested_so_far(w.rested, w.stretch, now, w.stretch != NEVER)
            w.kept = int(scalar.rested_after_break(self.p.resume, rested, from_start))
        self._stop_rest(w)
        w.anchor = NEVER
        w.fa_n = 0
        w.fa_due = (
            scalar.first_attempt(now, self.p.fa_start) if self.p.first_aid is not None else NEVER
        )

    # --- blows: W1-W3, S3, F1-F2 ----------------------------------------------------------
    def _fatal(self, w: Work, status: Status, event: RuleId, now: int, mass: float) -> None:
        """A blow past critical (or psychosis) after ``event``: the trial ends, with its cause."""
        cause = cause_after(w.cause, event, False, status)
        self._end(ENDS[status], now, mass, cause=cause)

    def _faints(self, w: Work, mass: float, now: int, pain: int, then: Then) -> None:
        """F1-F2: the faint tests of a blow that brought ``pain``; they stop at a failure."""
        n = scalar.faint_tests_due(w.recv5, w.recv5 + pain)
        w.recv5 = scalar.faint_residue(w.recv5 + pain)
        if n <= 0:
            then(w, mass)
            return
        total = scalar.faint_total(self.p.rs_it, w.pain)
        s, f = self.odds.success(total, self._view(w).penalties)
        passed = s**n
        failed = sum(f * s**j for j in range(n))
        self.acc[Count.FAINTS] += mass * failed
        if self.p.open_roll:
            self._drop(mass * max(0.0, 1.0 - passed - failed))
        if not self.p.self_treat:
            then(w, mass * (passed + failed))
            return
        if failed > 0.0:
            other = w.copy()
            other.uncon = scalar.faint_until(other.uncon, now, self.p.faint_duration)
            then(other, mass * failed)
        if passed > 0.0:
            then(w, mass * passed)

    # --- rest (R1-R2) and the healing queue -------------------------------------------------
    def _stop_rest(self, w: Work) -> None:
        w.sess = [e for e in w.sess if e[1] != Session.REST]
        w.rest, w.wp, w.wk = NEVER, 0, 0
        w.rested, w.stretch = 0, NEVER

    def _schedule(self, w: Work, due: int, kind: Session) -> None:
        """Queue a healing session after those due at or before it (SimPy's order)."""
        sess = [e for e in w.sess if e[1] != kind]
        at = len(sess)
        while at > 0 and sess[at - 1][0] > due:
            at -= 1
        sess.insert(at, (due, kind))
        w.sess = sess

    def _start_rest(self, w: Work, now: int, rested: int = 0) -> None:
        """R1: a rest begins now, ``rested`` already counted (R4 resume, G3 cumulative)."""
        self._stop_rest(w)
        periods = self._view(w).rest
        if periods is None:
            return
        heal, watch = periods
        if self.track_rested:
            w.stretch, w.rested = now, rested
        if self.p.healing is not None:
            self._schedule(w, now + int(rest.session_delay(heal, rested)), Session.REST)
        if self.p.neglect_p > 0.0 or w.pend:
            w.rest = now
            w.wp = watch
            self._arm_watch(w, 0)

    def _watch_index(self, w: Work, t: int) -> int:
        """R2: the watch of this rest that a ``neglect_at`` time falls on (or ``NO_WATCH``)."""
        return scalar.watch_index(w.rest, w.wp, t)

    def _arm_watch(self, w: Work, after: int) -> None:
        """R2: arm the next watch of the rest that matters, after the ``after``-th."""
        listed = None
        keep = []
        for t in w.pend:
            k = self._watch_index(w, t)
            if k == scalar.NO_WATCH:
                continue
            keep.append(t)
            if k > after and (listed is None or k < listed):
                listed = k
        w.pend = tuple(keep)
        if self.p.neglect_p > 0.0:
            w.wk = after + 1
        elif listed is not None:
            w.wk = listed
        else:
            w.rest, w.wp, w.wk = NEVER, 0, 0

    def _track_rest(self, w: Work, mental: bool, now: int) -> None:
        """B5/M3: a track's rest starts again (its session due after its heal period)."""
        kind = Session.MENTAL if mental else Session.PHYSICAL
        w.sess = [e for e in w.sess if e[1] != kind]
        heal = self._view(w).track_rest[mental]
        if heal == NEVER or (not self.p.basic and self.p.healing is None):
            return
        self._schedule(w, now + heal, kind)
