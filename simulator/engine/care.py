"""The care processes of a trial: first aid, rest and watches, and the rests of one track.

Each is a collaborator of :class:`simulator.engine.trial.Trial`, composed into it: first aid
(A1-A4, :class:`FirstAid`), therapeutic rest, its watches and healing sessions (R1-R4, G1-G5,
:class:`Rest`), and the rests of a track, mental (M3) or under the basic ruleset (B4, B6)
(:class:`TrackRests`). Each keeps its own state and timers, and reaches the patient, the dice,
the record and the trace through the trial's written context
(:class:`~simulator.engine.context.TrialContext`), not the whole trial.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simulator.engine import trace_templates as tpl
from simulator.engine.clock import (
    PRIO_FIRST_AID,
    PRIO_HEALING,
    PRIO_MENTAL_HEALING,
    PRIO_WATCH,
    Timer,
)
from simulator.engine.pacing import TestClock
from simulator.engine.trace import describe_blow, healed_words
from simulator.errors import Phrase
from simulator.rules import periods, scalar
from simulator.rules import transitions as rules
from simulator.rules.durations import in_microseconds, instant
from simulator.rules.ids import RuleId
from simulator.rules.levels import Track
from simulator.rules.rest import rested_after_break, rested_after_session, session_delay
from simulator.scenario.model import FirstAid as Policy

if TYPE_CHECKING:
    from simulator.engine.context import TrialContext


class FirstAid:
    """A1-A4: attempts every ``interval`` from ``start`` after the state turns unstable."""

    def __init__(self, trial: TrialContext):
        self.trial = trial
        self.policy = trial.sc.first_aid
        self.attempts = 0  # A3: attempts made in the present unstable spell
        self.clock = TestClock(trial, PRIO_FIRST_AID, self._attempt)
        fa = self.policy
        self.who = "self-treatment" if fa is not None and fa.self_treat else "first aid"

    def spell_begins(self) -> None:
        """A3: a new unstable spell; its first attempt comes ``start`` from now."""
        self.attempts = 0
        fa = self.policy
        if fa is not None:
            self.clock.start(
                instant(scalar.first_attempt(self.trial.clock.now, fa.start)), fa.interval
            )

    def spell_ends(self) -> None:
        """The state is stable: no more attempts (those skipped so far are counted)."""
        if self.clock.active:
            self.clock.stop()

    @property
    def fa(self) -> Policy:
        """The first-aid policy (the clock only runs when the scenario has one)."""
        assert self.policy is not None, "no first aid without a [first_aid] policy"
        return self.policy

    def _modifiers(self, mental: rules.Modifiers) -> rules.Modifiers:
        fa, trial = self.fa, self.trial
        factor = trial.sc.settings.self_aid_pain_factor
        return rules.first_aid_modifiers(
            trial.patient, fa.level, fa.modifier, fa.self_treat, mental, factor
        )

    def _attempt(self) -> bool:
        trial, fa = self.trial, self.fa
        if scalar.attempt_lost(fa.self_treat, trial.clock.now, trial.patient.unconscious_until):
            trial.say(RuleId.A4, tpl.FIRST_AID_LOST)
            return True
        self.attempts += 1
        trial.rec.first_aid_attempts += 1
        mental = trial.mental() if fa.self_treat else []
        test = trial.test(RuleId.A1, self.who, self._modifiers(mental))
        if test.success:
            trial.rec.first_aid_successes += 1
            trial.patient = rules.stabilise(trial.patient)
            trial.say(RuleId.A2, tpl.FIRST_AID_SUCCEEDS, test, what=self.who)
            trial.changed(RuleId.A2)
            return False
        trial.say(RuleId.A1, tpl.FIRST_AID_FAILS, test, what=self.who)
        if scalar.more_attempts(
            self.attempts, scalar.UNLIMITED if fa.max_attempts is None else fa.max_attempts
        ):
            return True
        trial.say(RuleId.A3, tpl.FIRST_AID_NO_MORE, n=fa.max_attempts)
        return False


class Rest:
    """R1-R4 and G1-G5: a rest, its watches, and the healing session at its end."""

    def __init__(self, trial: TrialContext):
        self.trial = trial
        self.session = Timer(trial.clock, PRIO_HEALING)
        self.watches = Timer(trial.clock, PRIO_WATCH)
        self.count = 0  # rests begun or ended so far: a watch goes on only in its own rest
        self.start_time = 0.0  # when the rest's present stretch began
        self.rested = 0.0  # time rested before that stretch (R4 resume, G3 cumulative)
        self.resting = False  # whether a rest is running
        self.kept = 0.0  # R4: what the next rest starts with
        self.watch_period = 0.0
        self.random_neglect: int | float = math.inf  # R2: index of next randomly neglected watch
        self.neglect_pending = sorted(trial.sc.watch.neglect_at)

    def start(self, rested: float = 0.0) -> None:
        """R1: a rest begins now, ``rested`` already counted (R4 resume, G3 cumulative)."""
        trial = self.trial
        self._cancel()
        rest = periods.rest_periods(trial.patient)
        if rest is None:
            self.resting = False
            return
        now = trial.clock.now
        self.resting = True
        self.start_time = now
        self.rested = rested
        delay = session_delay(rest.heal, rested)
        self.watch_period = rest.watch
        if trial.sc.healing is not None:
            self.session.arm(instant(now + delay), self._healing_session)
        if trial.trace is not None:
            session = Phrase(tpl.NO_SESSION)
            if trial.sc.healing is not None:
                least = tpl.THE_WOUNDS[rest.least.label]
                session = (
                    Phrase(tpl.SESSION, (("what", least), ("wait", delay)))
                    if delay
                    else Phrase(tpl.SESSION_AT_ONCE, (("what", least),))
                )
            begins = (
                Phrase(tpl.REST_GOES_ON, (("d", rested),)) if rested else Phrase(tpl.REST_BEGINS)
            )
            trial.say(
                RuleId.R1,
                tpl.REST,
                what_begins=begins,
                what_session=session,
                every=self.watch_period,
            )
        prob = trial.sc.watch.neglect_probability
        self.random_neglect = trial.dice.geometric(prob) if prob > 0 else math.inf
        self._arm_watch(0)

    def end(self, from_start: bool) -> None:
        """R4: the state turned unstable; what the next rest starts with."""
        trial = self.trial
        self._cancel()
        rested = scalar.rested_so_far(self.rested, self.start_time, trial.clock.now, self.resting)
        self.resting = False
        mode = trial.sc.settings.rest_after_unstable
        self.kept = rested_after_break(mode, rested, from_start)

    def _cancel(self) -> None:
        self.count += 1
        self.session.cancel()
        self.watches.cancel()

    def _listed_watch(self, after: int | float) -> int | float:
        """R2: the first watch index, after ``after``, that a ``neglect_at`` time falls on."""
        best: int | float = math.inf
        start, period = self.start_time, self.watch_period
        keep = []
        for t in self.neglect_pending:
            k = scalar.watch_index(*map(in_microseconds, (start, period, t)))  # exact
            if k == scalar.NO_WATCH:
                continue  # its first watch came too late: that neglect never happens
            keep.append(t)
            if k > after:
                best = min(best, k)
        self.neglect_pending = keep
        return best

    def _arm_watch(self, index: int | float) -> None:
        k = (
            min(self.random_neglect, self._listed_watch(index))
            if self.neglect_pending
            else (self.random_neglect)
        )
        if k < math.inf:
            self.watches.arm(instant(self.start_time + k * self.watch_period), self._watch, k)

    def _watch(self, index: int | float) -> None:
        trial = self.trial
        rest = self.count
        now = trial.clock.now
        if index == self.random_neglect:
            prob = trial.sc.watch.neglect_probability
            self.random_neglect = index + trial.dice.geometric(prob)
        if self.neglect_pending:
            self.neglect_pending = [t for t in self.neglect_pending if t > now]
        trial.rec.neglected_watches += 1
        mods = rules.survival_modifiers(trial.patient, trial.sc.patient.cp_rs, trial.mental())
        test = trial.test(RuleId.R3, "survival test (neglected watch)", mods)
        trial.rec.survival_tests += 1
        trial.rec.survival_failures += not test.success
        trial.patient = rules.neglect_watch(trial.patient, test.success)
        if trial.trace is not None:
            outcome = "passed" if test.success else "failed: every wound becomes unstable"
            penalty = -trial.patient.missed_watches
            trial.say(RuleId.R3, tpl.WATCH_NEGLECTED, test, i=index, what=outcome, p=penalty)
        trial.changed(RuleId.R3, from_start=not test.success)
        if rest == self.count and not trial.done:
            self._arm_watch(index)

    def _healing_session(self) -> None:
        trial = self.trial
        healer = trial.sc.healing
        assert healer is not None, "a session is armed only when there is a healer"
        rested = scalar.rested_so_far(self.rested, self.start_time, trial.clock.now, True)
        self.resting = False  # the session ends this rest; G3 or G4 says what follows
        failed = False
        for uid in rules.healing_order(trial.patient):
            wound = trial.patient.wound(uid)
            assert wound is not None
            mods = rules.healing_modifiers(trial.patient, healer.level, wound, healer.modifier)
            test = trial.test(RuleId.G1, "healing test", mods)
            trial.rec.healing_tests += 1
            if test.success:
                trial.patient = rules.heal(trial.patient, uid)
                template, words = healed_words(wound.level)
                trial.say(RuleId.G2, template, test, **words)
                continue
            trial.rec.healing_failures += 1
            trial.patient = rules.healing_failure(trial.patient, uid)
            trial.say(RuleId.G4, tpl.RELAPSES, test, what=tpl.THE_WOUND[wound.level.label])
            failed = True
            break
        trial.changed(RuleId.G4, from_start=failed)
        if failed or trial.done:
            return
        if trial.patient.physical:
            trial.say(RuleId.G3, tpl.NEW_REST)
            self.start(rested_after_session(trial.sc.settings.rest_per_level, rested))
        else:
            self._cancel()  # R1, R2: no physical wound left, no rest and no watches


class TrackRests:
    """M3, B4, B6: the rests of one track and the sessions at their ends."""

    def __init__(self, trial: TrialContext):
        self.trial = trial
        self.timers = {
            Track.PHYSICAL: Timer(trial.clock, PRIO_HEALING),
            Track.MENTAL: Timer(trial.clock, PRIO_MENTAL_HEALING),  # after the physical (O1)
        }

    def start(self, track: Track) -> None:
        """A rest of ``track`` from zero, ending in a session (if anyone can heal)."""
        trial = self.trial
        timer = self.timers[track]
        timer.cancel()
        least = trial.patient.least_grave(track)
        if least is None or not trial.ruleset.track_heals(trial.sc):
            return
        heal = trial.patient.table.rows[least].heal_period
        timer.arm(instant(trial.clock.now + heal), self._session, track)

    def _session(self, track: Track) -> None:
        trial = self.trial
        ruleset = trial.ruleset
        rule = ruleset.track_rule(track)
        for uid in rules.healing_order(trial.patient, track):
            wound = trial.patient.wound(uid)
            assert wound is not None
            mods = ruleset.track_modifiers(trial, track, wound)
            test = trial.test(rule, "healing test", mods)
            trial.rec.healing_tests += 1
            if test.success:
                trial.patient = rules.heal(trial.patient, uid)
                template, words = healed_words(wound.level)
                trial.say(rule, template, test, **words)
                continue
            trial.rec.healing_failures += 1
            if ruleset.track_failure_worsens(test):
                trial.rec.aggravations += 1
                the = tpl.THE_WOUND[wound.level.label]
                trial.say(rule, tpl.HEALING_WORSENS, test, what=the)
                trial.patient, blow = rules.worsen(trial.patient, uid, with_pain=False, stable=True)
                if not trial.blow(blow, 0, rule, describe_blow(blow)):
                    return
            else:
                trial.say(rule, tpl.HEALING_STOPS, test)
            break
        trial.changed(rule)
        if not trial.done:
            self.start(track)
