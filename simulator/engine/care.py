"""The engine's care processes: first aid, rest, watches and healing sessions.

First aid (A1-A4), rest and watches (R1-R4), healing sessions (G1-G5), and the rests of one
track (M3, B4). A mixin of :class:`simulator.engine.trial.Trial`, kept apart so that each module
stays small; it uses the trial's state and helpers (``_begin``, ``_test``, ``_say``,
``_changed``...).
"""

from __future__ import annotations

import math

from simulator.engine.clock import PRIO_FIRST_AID, PRIO_HEALING, PRIO_WATCH
from simulator.engine.trace import describe_blow
from simulator.rules import transitions as rules
from simulator.rules.durations import format_duration
from simulator.rules.levels import Track
from simulator.rules.rest import rested_after_session, session_delay


class Care:
    """First aid, rests, watches and healing of a :class:`~simulator.engine.trial.Trial`."""

    # --- first aid (A1-A4) --------------------------------------------------------------
    def _first_aid(self, spell: int, due: float) -> None:
        if self.done or spell != self.spell:
            return
        self._begin()
        fa = self.sc.first_aid
        nxt = due + fa.interval
        if fa.self_treat and self.patient.unconscious(self.env.now):
            self._say("A4", "first aid lost: the patient is unconscious")
            self._at(nxt, PRIO_FIRST_AID, self._first_aid, spell, nxt)
            return
        self.spell_attempts += 1
        self.rec.first_aid_attempts += 1
        mental = self._mental() if fa.self_treat else []
        factor = self.sc.settings.self_aid_pain_factor
        mods = rules.first_aid_modifiers(
            self.patient, fa.level, fa.modifier, fa.self_treat, mental, factor
        )
        who = "self-treatment" if fa.self_treat else "first aid"
        test = self._test("A1", who, mods)
        if test.success:
            self.rec.first_aid_successes += 1
            self.patient = rules.stabilise(self.patient)
            self._say("A2", f"{who} succeeds: every wound is stable", test)
            self._changed()
            return
        self._say("A1", f"{who} fails", test)
        if fa.max_attempts is None or self.spell_attempts < fa.max_attempts:
            self._at(nxt, PRIO_FIRST_AID, self._first_aid, spell, nxt)
        else:
            self._say("A3", f"no more first aid this spell ({fa.max_attempts} attempts made)")

    # --- therapeutic rest and watches (R1-R4) -------------------------------------------
    def _start_rest(self, rested: float = 0.0) -> None:
        """R1: a rest begins now, ``rested`` already counted (R4 resume, G3 cumulative)."""
        self.rest_gen += 1
        p = self.patient
        least, worst = p.least_grave(), p.worst()
        if least is None:
            self.resting = False
            return
        now = self.env.now
        self.resting = True
        self.rest_start = now
        self.rested = rested
        rows = p.table.rows
        delay = session_delay(rows[least].heal_period, rested)
        self.watch_period = rows[worst.level].watch_period
        if self.sc.healing is not None:
            session = f"healing session of the {least.label} wounds in {format_duration(delay)}"
            self._at(now + delay, PRIO_HEALING, self._healing_session, self.rest_gen)
        else:
            session = "no healer, so no healing session"
        begins = f"rest goes on ({format_duration(rested)} rested)" if rested else "rest begins"
        self._say("R1", f"{begins}: {session}; watches every {format_duration(self.watch_period)}")
        prob = self.sc.watch.neglect_probability
        self.random_neglect = self.dice.geometric(prob) if prob > 0 else math.inf
        self._arm_watch(0)

    def _listed_watch(self, after: int) -> float:
        """R2: the first watch index, after ``after``, that a ``neglect_at`` time falls on."""
        best = math.inf
        start, period = self.rest_start, self.watch_period
        keep = []
        for t in self.neglect_pending:
            k = max(1, math.ceil((t - start) / period))
            if start + k * period - t > period:
                continue  # its first watch came too late: that neglect never happens
            keep.append(t)
            if k > after:
                best = min(best, k)
        self.neglect_pending = keep
        return best

    def _arm_watch(self, index: int) -> None:
        k = min(self.random_neglect, self._listed_watch(index))
        if k < math.inf:
            self._at(
                self.rest_start + k * self.watch_period, PRIO_WATCH, self._watch, self.rest_gen, k
            )

    def _watch(self, gen: int, index: int) -> None:
        if self.done or gen != self.rest_gen:
            return
        self._begin()
        now = self.env.now
        if index == self.random_neglect:
            prob = self.sc.watch.neglect_probability
            self.random_neglect = index + self.dice.geometric(prob)
        self.neglect_pending = [t for t in self.neglect_pending if t > now]
        self.rec.neglected_watches += 1
        mods = rules.survival_modifiers(self.patient, self.sc.patient.cp_rs, self._mental())
        test = self._test("R3", "survival test (neglected watch)", mods)
        self.rec.survival_tests += 1
        self.rec.survival_failures += not test.success
        self.patient = rules.neglect_watch(self.patient, test.success)
        outcome = "passed" if test.success else "failed: every wound becomes unstable"
        penalty = -self.patient.missed_watches
        self._say(
            "R3",
            f"watch {index} of this rest neglected; survival test {outcome}; "
            f"missed-watch penalty now {penalty:+d}",
            test,
        )
        self._changed(from_start=not test.success)
        if gen == self.rest_gen:
            self._arm_watch(index)

    # --- healing (G1-G5) ----------------------------------------------------------------
    def _healing_session(self, gen: int) -> None:
        if self.done or gen != self.rest_gen:
            return
        self._begin()
        healer = self.sc.healing
        rested = self.rested + (self.env.now - self.rest_start)
        self.resting = False  # the session ends this rest; G3 or G4 says what follows
        failed = False
        for uid in rules.healing_order(self.patient):
            wound = self.patient.wound(uid)
            mods = rules.healing_modifiers(self.patient, healer.level, wound, healer.modifier)
            test = self._test("G1", "healing test", mods)
            self.rec.healing_tests += 1
            if test.success:
                self.patient = rules.heal(self.patient, uid)
                self._say("G2", f"{wound.level.label} wound healed one level", test)
                continue
            self.rec.healing_failures += 1
            self.patient = rules.healing_failure(self.patient, uid)
            self._say("G4", f"healing fails: the {wound.level.label} wound relapses", test)
            failed = True
            break
        self._changed(from_start=failed)
        if not failed and not self.done and self.patient.physical:
            self._say("G3", "a new rest begins")
            self._start_rest(rested_after_session(self.sc.settings.rest_per_level, rested))

    # --- rests of one track: mental (M3) and the basic ruleset (B4) --------------------
    def _start_track_rest(self, track: Track) -> None:
        self.track_gen[track] += 1
        least = self.patient.least_grave(track)
        if least is None or (not self.basic and self.sc.healing is None):
            return
        heal = self.patient.table.rows[least].heal_period
        self._at(
            self.env.now + heal, PRIO_HEALING, self._track_session, track, self.track_gen[track]
        )

    def _track_session(self, track: Track, gen: int) -> None:
        if self.done or gen != self.track_gen[track]:
            return
        self._begin()
        rule = ("B6" if track is Track.MENTAL else "B4") if self.basic else "M3"
        for uid in rules.healing_order(self.patient, track):
            wound = self.patient.wound(uid)
            modifier = self.sc.healing.modifier if self.sc.healing else 0
            if self.basic and track is Track.MENTAL:
                mods = rules.basic_mental_healing_modifiers(
                    self.sc.patient.rs_it, modifier, self._mental()
                )
            elif self.basic:
                mods = rules.basic_healing_modifiers(
                    self.patient, self.sc.patient.cp_rs, modifier, self._mental()
                )
            else:
                mods = rules.healing_modifiers(
                    self.patient, self.sc.healing.level, wound, self.sc.healing.modifier
                )
            test = self._test(rule, "healing test", mods)
            self.rec.healing_tests += 1
            if test.success:
                self.patient = rules.heal(self.patient, uid)
                self._say(rule, f"{wound.level.label} wound healed one level", test)
                continue
            self.rec.healing_failures += 1
            if self.basic and test.margin <= rules.BASIC_WORSEN_MARGIN:
                self.rec.aggravations += 1
                self._say(
                    rule,
                    f"healing fails by 10 or more: the {wound.level.label} wound worsens",
                    test,
                )
                self.patient, blow = rules.worsen(self.patient, uid, with_pain=False, stable=True)
                if not self._blow(blow, 0, rule, describe_blow(blow)):
                    return
            else:
                self._say(rule, "healing fails; the tests stop until the next rest", test)
            break
        self._changed()
        if not self.done:
            self._start_track_rest(track)
