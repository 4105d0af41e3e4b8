"""The exact engine's events: the rules of RULES.md applied to a state, branching on tests.

A mixin of :class:`simulator.exact.engine.Engine`. Each handler mirrors one handler of the
event-by-event engine (``simulator/engine/trial.py`` and ``care.py``) and must stay in step
with it: the same order of steps, the same clocks armed, the same tests. Where the
event-by-event engine rolls, a handler splits the state's mass between the outcomes, with the
exact chances of :class:`~simulator.exact.odds.Odds`, and adds each count's expectation.
Branches go on by continuation (``then(work, mass)``) and end in ``_file`` (a state goes on)
or ``_end`` (the trial ends).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from simulator.exact.state import SESSION, TRACK_MENTAL, TRACK_PHYSICAL, State, Work
from simulator.rules.cause import Cause, cause_after
from simulator.rules.ids import RuleId
from simulator.rules.patient import Status

if TYPE_CHECKING:
    from simulator.exact.answer import ExactAnswer
    from simulator.exact.odds import Odds
    from simulator.rules.table import LevelRow
    from simulator.scenario.model import Activity, FirstAid, Healing, Injury, Scenario

Then = Callable[[Work, float], None]

Before = tuple[bool, tuple[int, bool] | None, bool]
"""What a handler notes before it changes a state: stable, S2's clock key, any wound."""


class Handlers:
    """The events of one trial, applied to a distribution's states."""

    if TYPE_CHECKING:  # set and defined by Engine, whose mixin this is
        sc: Scenario
        basic: bool
        rows: tuple[LevelRow, ...]
        odds: Odds
        lossy: bool
        per_hour: int | Fraction
        faint_us: int
        injuries: list[Injury]
        activities: list[Activity]
        fa: FirstAid | None
        fa_start: int
        fa_interval: int
        track_uncon: bool
        neglect_p: float
        healer: Healing | None
        period: dict[tuple[int, bool], int]
        heal_us: list[int]
        watch_us: list[int]
        breaks_rest: bool
        self_aid_factor: int | Fraction
        resume: bool
        cumulative: bool
        track_rested: bool
        ans: ExactAnswer
        acc: dict[str, float]
        _state: State

        def _file(self, state: State, mass: float) -> None: ...
        def _end(
            self,
            outcome: str,
            when: int,
            mass: float,
            healed_at: int | None = None,
            cause: Cause = Cause.NONE,
        ) -> None: ...
        def _drop(self, mass: float) -> None: ...

    # --- dispatch ---------------------------------------------------------------------
    def _handle(self, state: State, mass: float, now: int, prio: int) -> None:
        w = Work(state)
        self._state = state
        before = self._before(w)
        if prio == 2:
            self._injury(w, mass, now, before)
        elif prio == 3:
            self._activity(w, mass, now, before)
        elif prio == 4:
            self._first_aid(w, mass, now, before)
        elif prio == 5:
            self._watch(w, mass, now, before)
        elif prio == 6:
            self._session(w, mass, now, before)
        elif prio == 7:
            self._survival(w, mass, now, before)
        else:
            if w.wounds:
                self._end("wounded", now, mass)
            else:
                self._end("healed", now, mass, w.free if w.free >= 0 else now)

    def _before(self, w: Work) -> tuple[bool, tuple[int, bool] | None, bool]:
        stable = w.stable()
        return stable, self._surv_key(w, stable), bool(w.wounds)

    def _surv_key(self, w: Work, stable: bool) -> tuple[int, bool] | None:
        worst = w.worst()
        return None if worst is None else (worst[1], stable)

    def _surv_due(self, key: tuple[int, bool] | None, now: int) -> int:
        if key is None:
            return -1
        period = self.period[key]
        return -1 if period < 0 else now + period

    def _test(self, mass: float, s: float, f: float) -> None:
        """Count the open roll's truncated mass of one test as dropped."""
        if self.lossy:
            lost = 1.0 - s - f
            if lost > 0.0:
                self._drop(mass * lost)

    def _penalties(self, w: Work) -> tuple[int, ...]:
        rows = self.rows
        return tuple(sorted(rows[lv].difficulty for _, lv, _ in w.wounds if lv >= 3))

    def _difficulty(self, w: Work) -> int:
        rows = self.rows
        return sum(rows[lv].difficulty for _, lv, _ in w.wounds if lv < 3)

    # --- the reaction to a new state (Trial._changed) -----------------------------------
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
        if not self.basic:
            stable = w.stable()
            if stable != before[0]:
                if stable:
                    self._became_stable(w, now, mass)
                else:
                    w.cause = cause_after(w.cause, event, True, Status.ALIVE)
                    self._became_unstable(w, now, from_start)
            key = self._surv_key(w, stable)
            if key != before[1]:
                w.surv = self._surv_due(key, now)
        if w.wounds:
            w.free = -1
        elif before[2]:
            w.free = now
            if w.inj >= len(self.injuries):
                self._end("healed", now, mass)
                return False
        return True

    def _became_stable(self, w: Work, now: int, mass: float) -> None:
        if not w.stab:
            w.stab = True
            stab = self.ans.stabilised
            stab[now] = stab.get(now, 0.0) + mass
        w.anchor = now if self.per_hour else -1
        kept, w.kept = w.kept, 0
        self._start_rest(w, now, kept)

    def _became_unstable(self, w: Work, now: int, from_start: bool) -> None:
        if self.track_rested:
            rested = w.rested + (now - w.stretch) if w.stretch >= 0 else 0
            w.kept = 0 if (from_start or not self.resume) else rested
        self._stop_rest(w)
        w.anchor = -1
        w.fa_n = 0
        w.fa_due = now + self.fa_start if self.fa is not None else -1

    # --- wounds: W1-W3, S3, F1-F2 ---------------------------------------------------------
    def _overflow(self, w: Work, level: int, exclude: int = -1) -> int | None:
        rows = self.rows
        cur: int | None = level
        while cur is not None:
            held = sum(1 for uid, lv, _ in w.wounds if lv == cur and uid != exclude)
            if held < rows[cur].max:
                return cur
            cur = None if cur % 3 == 2 else cur + 1
        return None

    def _fatal(self, w: Work, level: int, event: RuleId, now: int, mass: float) -> None:
        """A blow past critical (or psychosis) after ``event``: the trial ends, with its cause."""
        status = Status.DEAD if level < 3 else Status.INCOHERENT
        cause = cause_after(w.cause, event, False, status)
        self._end("dead" if level < 3 else "incoherent", now, mass, cause=cause)

    def _worsen(self, w: Work, uid: int, with_pain: bool = True) -> int | None:
        """S3: the wound goes up one level (W1's overflow); its pain, or None when fatal."""
        wound = w.wound(uid)
        lv = wound[1]
        final = None if lv % 3 == 2 else self._overflow(w, lv + 1, exclude=uid)
        if final is None:
            return None
        pain = self.rows[final].pain if with_pain else 0
        wound[1] = final
        wound[2] = self.basic or final >= 3
        w.pain += pain
        return pain

    def _faints(self, w: Work, mass: float, now: int, pain: int, then: Then) -> None:
        """F1-F2: the faint tests of a blow that brought ``pain``; they stop at a failure."""
        total = w.recv5 + pain
        n = 1 if pain >= 10 else total // 5
        w.recv5 = total % 5
        if n <= 0:
            then(w, mass)
            return
        s, f = self.odds.success(self.sc.patient.rs_it - w.pain, self._penalties(w))
        passed = s**n
        failed = sum(f * s**j for j in range(n))
        self.acc["faints"] += mass * failed
        if self.lossy:
            self._drop(mass * max(0.0, 1.0 - passed - failed))
        if not self.track_uncon:
            then(w, mass * (passed + failed))
            return
        if failed > 0.0:
            other = w.copy()
            other.uncon = max(other.uncon, now + self.faint_us)
            then(other, mass * failed)
        if passed > 0.0:
            then(w, mass * passed)

    # --- scheduled injuries (W1-W3) -----------------------------------------------------
    def _injury(self, w: Work, mass: float, now: int, before: Before) -> None:
        injury = self.injuries[w.inj]
        w.inj += 1
        self._receive(w, mass, now, before, int(injury.level), injury.count)

    def _receive(
        self, w: Work, mass: float, now: int, before: Before, level: int, left: int
    ) -> None:
        if left == 0:
            if self._changed(w, mass, now, before, RuleId.W2):
                self._file(w.freeze(), mass)
            return
        final = self._overflow(w, level)
        if final is None:
            self._fatal(w, level, RuleId.W1, now, mass)
            return
        uid = w.next_uid
        w.next_uid += 1
        pain = 0 if self.basic else self.rows[final].pain
        w.wounds.append([uid, final, self.basic or final >= 3])
        w.pain += pain

        def then(w: Work, mass: float) -> None:
            if self.basic or level >= 3:
                self._track_rest(w, level >= 3, now)
            self._receive(w, mass, now, before, level, left - 1)

        if pain:
            self._faints(w, mass, now, pain, then)
        else:
            then(w, mass)

    # --- rough activity (X1) -------------------------------------------------------------
    def _activity(self, w: Work, mass: float, now: int, before: Before) -> None:
        activity = self.activities[w.act]
        w.act += 1
        tested = [uid for uid, lv, _ in w.wounds if lv in (1, 2)]
        self._activity_step(w, mass, now, before, activity.modifier, tested, 0)

    def _activity_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        modifier: int,
        tested: list[int],
        i: int,
    ) -> None:
        if i == len(tested):
            if not self._changed(w, mass, now, before, RuleId.X1, from_start=self.breaks_rest):
                return
            if self.breaks_rest and w.stable() and w.physical():
                self._start_rest(w, now)
            self._file(w.freeze(), mass)
            return
        mods = self.sc.patient.cp_rs - w.pain - w.missed + modifier
        s, f = self.odds.success(mods, self._penalties(w))
        self._test(mass, s, f)
        acc = self.acc
        acc["activity_tests"] += mass
        acc["activity_failures"] += mass * f
        acc["aggravations"] += mass * f
        if f > 0.0:
            other = w.copy()
            pain = self._worsen(other, tested[i])
            if pain is None:
                self._fatal(other, 0, RuleId.X1, now, mass * f)
            else:

                def then(w2: Work, m2: float) -> None:
                    self._activity_step(w2, m2, now, before, modifier, tested, i + 1)

                self._faints(other, mass * f, now, pain, then)
        if s > 0.0:
            self._activity_step(w, mass * s, now, before, modifier, tested, i + 1)

    # --- first aid (A1-A4) ------------------------------------------------------------
    def _first_aid(self, w: Work, mass: float, now: int, before: Before) -> None:
        fa = self.fa
        assert fa is not None  # first aid is only ever due with a caregiver
        nxt = w.fa_due + self.fa_interval
        if fa.self_treat and w.uncon > now:
            w.fa_due = nxt  # A4: lost, the next one at its usual time
            self._file(w.freeze(), mass)
            return
        if fa.max_attempts is not None:
            w.fa_n += 1
        self.acc["first_aid_attempts"] += mass
        mods: int | Fraction = fa.level + self._difficulty(w) + fa.modifier
        penalties: tuple[int, ...] = ()
        if fa.self_treat:
            mods -= self.self_aid_factor * w.pain
            penalties = self._penalties(w)
        s, f = self.odds.success(mods, penalties)
        self._test(mass, s, f)
        if s > 0.0:
            ok = w.copy()
            self.acc["first_aid_successes"] += mass * s
            for wound in ok.wounds:
                wound[2] = True
            ok.relapse = -1
            ok.fa_due = -1
            if self._changed(ok, mass * s, now, before, RuleId.A2):
                self._file(ok.freeze(), mass * s)
        if f > 0.0:
            more = fa.max_attempts is None or w.fa_n < fa.max_attempts
            w.fa_due = nxt if more else -1
            self._file(w.freeze(), mass * f)

    # --- survival tests (S1-S5) -----------------------------------------------------------
    def _survival(self, w: Work, mass: float, now: int, before: Before) -> None:
        w.surv = -1
        mods = self.sc.patient.cp_rs - w.pain - w.missed
        s, f = self.odds.success(mods, self._penalties(w))
        self._test(mass, s, f)
        self.acc["survival_tests"] += mass
        self.acc["survival_failures"] += mass * f
        if f > 0.0:
            bad = w.copy()
            if before[0]:  # S4: stable, the worst wound becomes unstable
                bad.worst_wound()[2] = False
                self._after_survival(bad, mass * f, now, before)
            else:  # S3: the target wound worsens
                target = bad.find(bad.relapse) if bad.relapse >= 0 else None
                if target is None:
                    target = bad.worst_wound()
                self.acc["aggravations"] += mass * f
                pain = self._worsen(bad, target[0])
                if pain is None:
                    self._fatal(bad, 0, RuleId.S3, now, mass * f)
                else:
                    self._faints(
                        bad,
                        mass * f,
                        now,
                        pain,
                        lambda w2, m2: self._after_survival(w2, m2, now, before),
                    )
        if s > 0.0:
            self._after_survival(w, mass * s, now, before)

    def _after_survival(self, w: Work, mass: float, now: int, before: Before) -> None:
        if not self._changed(w, mass, now, before, RuleId.S4):
            return
        key = self._surv_key(w, w.stable())
        if key == before[1]:  # same (worst level, state): the clock runs on (S2)
            w.surv = self._surv_due(key, now)
        self._file(w.freeze(), mass)

    # --- rest and watches (R1-R4) ---------------------------------------------------------
    def _stop_rest(self, w: Work) -> None:
        w.sess = [e for e in w.sess if e[1] != SESSION]
        w.rest, w.wp, w.wk = -1, 0, 0
        w.rested, w.stretch = 0, -1

    def _schedule(self, w: Work, due: int, kind: int) -> None:
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
        least = w.least()
        if least is None:
            return
        if self.track_rested:
            w.stretch, w.rested = now, rested
        if self.healer is not None:
            self._schedule(w, now + max(0, self.heal_us[least] - rested), SESSION)
        if self.neglect_p > 0.0 or w.pend:
            w.rest = now
            w.wp = self.watch_us[w.worst_wound()[1]]
            self._arm_watch(w, 0)

    def _watch_index(self, w: Work, t: int) -> int | None:
        """R2: the watch of this rest that a ``neglect_at`` time falls on (None: too late)."""
        k = max(1, -((w.rest - t) // w.wp))
        return None if w.rest + k * w.wp - t > w.wp else k

    def _arm_watch(self, w: Work, after: int) -> None:
        listed = None
        keep = []
        for t in w.pend:
            k = self._watch_index(w, t)
            if k is None:
                continue
            keep.append(t)
            if k > after and (listed is None or k < listed):
                listed = k
        w.pend = tuple(keep)
        if self.neglect_p > 0.0:
            w.wk = after + 1
        elif listed is not None:
            w.wk = listed
        else:
            w.rest, w.wp, w.wk = -1, 0, 0

    def _watch(self, w: Work, mass: float, now: int, before: Before) -> None:
        k = w.wk
        listed = any(self._watch_index(w, t) == k for t in w.pend)
        q = 1.0 if listed else self.neglect_p
        if q < 1.0:  # kept: nothing happens but the next watch (R2)
            if self.neglect_p > 0.0:
                self._file(self._state._replace(wk=k + 1), mass * (1.0 - q))
            else:
                kept = w.copy()
                self._arm_watch(kept, k)
                self._file(kept.freeze(), mass * (1.0 - q))
        if q <= 0.0:
            return
        mass *= q
        acc = self.acc
        acc["neglected_watches"] += mass
        w.pend = tuple(t for t in w.pend if t > now)
        s, f = self.odds.success(self.sc.patient.cp_rs - w.pain - w.missed, self._penalties(w))
        self._test(mass, s, f)
        acc["survival_tests"] += mass
        acc["survival_failures"] += mass * f
        for ok, p in ((True, s), (False, f)):
            if p <= 0.0:
                continue
            branch = w.copy()
            branch.missed += 1
            if not ok:  # R3: every wound becomes unstable
                for wound in branch.wounds:
                    if wound[1] < 3:
                        wound[2] = False
            if not self._changed(branch, mass * p, now, before, RuleId.R3, from_start=not ok):
                continue
            if branch.rest >= 0 and branch.stable():
                self._arm_watch(branch, k)
            self._file(branch.freeze(), mass * p)

    # --- healing (G1-G5, M3, B4) -----------------------------------------------------------
    def _session(self, w: Work, mass: float, now: int, before: Before) -> None:
        first = min(range(len(w.sess)), key=lambda i: w.sess[i][0])
        _, kind = w.sess[first]
        w.sess = [e for i, e in enumerate(w.sess) if i != first]
        mental = kind == TRACK_MENTAL
        least = w.least(mental)
        order = [uid for uid, lv, _ in w.wounds if lv == least]
        if kind == SESSION:
            rested = w.rested + (now - w.stretch) if w.stretch >= 0 else 0
            w.rested, w.stretch = 0, -1  # the session ends this rest
            self._heal_step(w, mass, now, before, order, 0, rested if self.cumulative else 0)
        else:
            self._track_step(w, mass, now, before, order, 0, mental)

    def _heal(self, w: Work, uid: int) -> None:
        """G2: down one level; a light (or shock) wound disappears; G5 resets the penalty."""
        wound = w.wound(uid)
        if wound[1] % 3 == 0:
            w.wounds.remove(wound)
        else:
            wound[1] -= 1
        if not w.wounds:
            w.missed = 0

    def _heal_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        order: list[int],
        i: int,
        rested: int,
    ) -> None:
        if i == len(order):
            if self._changed(w, mass, now, before, RuleId.G2):
                if w.physical():
                    self._start_rest(w, now, rested)
                self._file(w.freeze(), mass)
            return
        uid = order[i]
        healer = self.healer
        assert healer is not None  # G1's sessions only happen with a healer
        level = w.wound(uid)[1]
        mods = healer.level + self.rows[level].difficulty - w.missed + healer.modifier
        s, f = self.odds.success(mods)
        self._test(mass, s, f)
        self.acc["healing_tests"] += mass
        self.acc["healing_failures"] += mass * f
        if f > 0.0:  # G4: the treated wound relapses
            bad = w.copy()
            bad.wound(uid)[2] = False
            bad.relapse = uid
            if self._changed(bad, mass * f, now, before, RuleId.G4, from_start=True):
                self._file(bad.freeze(), mass * f)
        if s > 0.0:
            self._heal(w, uid)
            self._heal_step(w, mass * s, now, before, order, i + 1, rested)

    def _track_rest(self, w: Work, mental: bool, now: int) -> None:
        kind = TRACK_MENTAL if mental else TRACK_PHYSICAL
        w.sess = [e for e in w.sess if e[1] != kind]
        least = w.least(mental)
        if least is None or (not self.basic and self.healer is None):
            return
        self._schedule(w, now + self.heal_us[least], kind)

    def _track_step(
        self,
        w: Work,
        mass: float,
        now: int,
        before: Before,
        order: list[int],
        i: int,
        mental: bool,
    ) -> None:
        if i == len(order):
            if self._changed(w, mass, now, before, RuleId.M3):
                self._track_rest(w, mental, now)
                self._file(w.freeze(), mass)
            return
        uid = order[i]
        level = w.wound(uid)[1]
        acc = self.acc
        if self.basic:
            modifier = self.healer.modifier if self.healer is not None else 0
            if mental:  # B6: Rs+It and the mental wounds' penalties only
                mods = self.sc.patient.rs_it + modifier
            else:  # B4: Cp+Rs and every wound's penalty
                mods = self.sc.patient.cp_rs + self._difficulty(w) + modifier
            s, f, worse = self.odds.three(mods, -10, self._penalties(w))
            self._test(mass, s, f + worse)
        else:
            healer = self.healer
            assert healer is not None  # M3's sessions only happen with a healer
            # M3: the healer's test of a mental wound has no missed-watch penalty
            mods = healer.level + self.rows[level].difficulty + healer.modifier
            s, f = self.odds.success(mods)
            worse = 0.0
            self._test(mass, s, f)
        acc["healing_tests"] += mass
        acc["healing_failures"] += mass * (f + worse)
        if f > 0.0:  # the tests stop until the next rest
            stop = w.copy()
            self._track_step(stop, mass * f, now, before, [], 0, mental)
        if worse > 0.0:  # B4: a margin of -10 or less also worsens the wound
            acc["aggravations"] += mass * worse
            bad = w.copy()
            if self._worsen(bad, uid, with_pain=False) is None:
                self._fatal(bad, level, RuleId.B6 if mental else RuleId.B4, now, mass * worse)
            else:
                self._track_step(bad, mass * worse, now, before, [], 0, mental)
        if s > 0.0:
            self._heal(w, uid)
            self._track_step(w, mass * s, now, before, order, i + 1, mental)
