"""The campaign engine: a clock keeps time, the pure functions of ``rules`` decide.

One :class:`Trial` is one campaign of one patient. Everything that falls due is an event on
the clock's queue (:mod:`simulator.engine.clock`); the dispatcher drops the events of a timer
armed again since, brings pain recovery (P1) up to date, and calls the handler, which calls
the rule functions and arms the next events. Nothing here rolls dice except through the
trial's :class:`Dice`. The care processes (first aid, rest and watches, the rests of a track)
are collaborators of the trial (:mod:`simulator.engine.care`); what the two rulesets do
differently is a strategy (:mod:`simulator.engine.ruleset`).

**Order of simultaneous events (O1).** Events are ordered by ``(time, priority, id)``, with
O1's priorities, so at one instant injuries resolve before activities, then first aid,
watches, healing sessions and survival tests; among equals the order they were queued in
keeps file order. Pain recovery comes first because the dispatcher applies it before every
handler, for every full hour up to and including the present instant. A clock that is
restarted is a :class:`~simulator.engine.clock.Timer`: arming it again makes its older events
stale, and the dispatcher drops them, so "a test no longer due does not happen". An event armed
at the present instant by an earlier one still happens at it, since its key
``(now, priority, id)`` is still ahead in the queue.

**The horizon (O2).** The horizon is an ordinary event of the lowest priority at the horizon
time, so everything else due then happens first; the clock runs until the trial stops it.

**Event by event.** Every survival test and first-aid attempt is an event on SimPy's queue
(:mod:`simulator.engine.pacing`), rolled by the dice: this engine is the readable reference
that the compiled kernel (:mod:`simulator.kernel`), which skips by runs what changes nothing,
is tested against.

**Cheap watches.** A watch that is kept changes nothing, so only neglected watches are put on
the queue: the index of the next randomly neglected watch is drawn as a
geometric number of watches (the same law as one Bernoulli draw per watch), and
``neglect_at`` times map to the first watch due at or after them (R2).
"""

from __future__ import annotations

import math

import numpy as np

from simulator.engine import trace_templates as tpl
from simulator.engine.care import FirstAid, Rest, TrackRests
from simulator.engine.clock import (
    HOUR,
    PRIO_ACTIVITY,
    PRIO_HORIZON,
    PRIO_INJURY,
    Handler,
    SimPyClock,
    Timer,
)
from simulator.engine.record import TrialRecord
from simulator.engine.rolling import Rolling
from simulator.engine.ruleset import ruleset_of
from simulator.engine.survival import Survival
from simulator.engine.trace import TraceLine, describe_blow
from simulator.errors import Phrase
from simulator.rules import scalar
from simulator.rules import transitions as rules
from simulator.rules.cause import Cause, cause_after
from simulator.rules.dice import Dice, RandomDice, TestRoll
from simulator.rules.durations import in_microseconds, instant
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.outcome import Outcome
from simulator.rules.patient import Patient, Status
from simulator.scenario.model import Activity, Injury, Scenario


def trial_generator(seed: int, trial: int) -> np.random.Generator:
    """Trial ``trial``'s random stream: child ``trial`` of ``SeedSequence(seed)``.

    ``SeedSequence(seed, spawn_key=(trial,))`` is exactly ``SeedSequence(seed).spawn(n)[trial]``
    for any ``n > trial``, so a trial's numbers depend on nothing but the seed and its index.
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(trial,)))


def run_trial(scenario: Scenario, trial: int, seed: int) -> TrialRecord:
    """Run trial number ``trial`` of a study seeded with ``seed`` event by event, on SimPy.

    The reference the compiled kernel is tested against (same laws, other numbers for a
    seed); the runner picks the engine a command runs (:mod:`simulator.runner.engines`).
    """
    dice = RandomDice(trial_generator(seed, trial), open_roll=scenario.settings.open_roll)
    return Trial(scenario, dice).run()


def trace_trial(
    scenario: Scenario, seed: int = 0, trial: int = 0
) -> tuple[TrialRecord, list[TraceLine]]:
    """Run one trial event by event and tell it: the record and its :class:`TraceLine` s.

    The same trial as :func:`run_trial` with the same arguments: the same draws, the same
    record.
    """
    dice = RandomDice(trial_generator(seed, trial), open_roll=scenario.settings.open_roll)
    lines: list[TraceLine] = []
    record = Trial(scenario, dice, trace=lines).run()
    return record, lines


class Trial(Rolling):
    """One campaign: a clock, a patient and the clocks of the rules.

    Args:
        scenario: What to simulate (validated).
        dice: Where rolls come from (a :class:`RandomDice`, or scripted in tests).
        trace: A list to append :class:`TraceLine` s to, or ``None`` for speed.
    """

    def __init__(self, scenario: Scenario, dice: Dice, trace: list[TraceLine] | None = None):
        self.sc = scenario
        self.dice = dice
        self.trace = trace
        self.clock = SimPyClock(self._dispatch)
        self.patient = Patient(table=scenario.table)
        self.rec = TrialRecord()
        self.ruleset = ruleset_of(scenario)
        s = scenario.settings
        self.tie = s.tie_succeeds
        self.trigger = s.trigger_probability
        self.per_hour = self.ruleset.pain_recovery_per_hour(scenario)
        self.floor_craziness = s.pain_floor_craziness
        self.done = False
        # Stability (H4) as last seen, and the clocks that hang on it.
        self.was_stable = True
        self.stable_since = 0.0  # P1's clock
        self.pain_steps = 0  # P1 steps already applied since stable_since
        self.surv_key: tuple[Level, bool] | None = None  # S2: (worst level, stable)
        self.survival = Survival(self)
        self.first_aid = FirstAid(self)
        self.rest = Rest(self)
        self.tracks = TrackRests(self)
        self.wounded = False
        self.cause = Cause.NONE  # Q3: what opened the present (or last) unstable spell
        self.injuries_left = sum(1 for i in scenario.injuries if i.at <= scenario.horizon)

    # --- running -----------------------------------------------------------------------
    def run(self) -> TrialRecord:
        """Run the campaign to its end and return its record (Q1)."""
        if self.injuries_left == 0:
            self._finish(Outcome.HEALED)
            self.rec.healed_h = 0.0
            return self.rec
        self._queue_next(self.sc.injuries, 0, PRIO_INJURY, self._injury)
        if self.ruleset.stability and self.sc.activities:
            self._queue_next(self.sc.activities, 0, PRIO_ACTIVITY, self._activity)
        self.clock.at(self.sc.horizon, PRIO_HORIZON, None, 0, self._horizon, ())
        self.clock.run()
        return self.rec

    def _queue_next(
        self,
        items: tuple[Injury, ...] | tuple[Activity, ...],
        index: int,
        priority: int,
        fn: Handler,
    ) -> None:
        """Queue the ``index``-th injury or activity (each queues the next when it comes)."""
        if index < len(items) and items[index].at <= self.sc.horizon:
            self.clock.at(items[index].at, priority, None, 0, fn, (index,))

    def _dispatch(
        self, timer: Timer | None, gen: int, priority: int, fn: Handler, args: tuple[object, ...]
    ) -> None:
        """Every event goes through here: the dispatcher of the trial.

        Stale events are dropped, P1 is applied, then the handler runs.
        """
        if self.done or (timer is not None and gen != timer.gen):
            return
        self._begin()
        fn(*args)

    def say(
        self, rule: RuleId, template: str, test: TestRoll | None = None, **args: object
    ) -> None:
        """Add a line to the trace, if one is written: a template and its values."""
        if self.trace is not None:
            self.trace.append(TraceLine(self.clock.now, rule, template, test, tuple(args.items())))

    def _finish(self, outcome: Outcome) -> None:
        if self.done:
            return
        self.done = True
        rec, p, now_h = self.rec, self.patient, self.clock.now / HOUR
        rec.outcome = outcome
        rec.cause = self.cause if outcome in (Outcome.DEAD, Outcome.INCOHERENT) else Cause.NONE
        rec.end_h = now_h
        if outcome != Outcome.HEALED:
            rec.healed_h = math.nan
        if outcome == Outcome.DEAD:
            rec.death_h = now_h
        elif outcome == Outcome.INCOHERENT:
            rec.incoherent_h = now_h
        counts = [0] * 6
        for w in p.wounds:
            counts[w.level] += 1
        rec.wounds_left = len(p.wounds)
        (rec.light_left, rec.grave_left, rec.critical_left) = counts[:3]
        (rec.shock_left, rec.trauma_left, rec.psychosis_left) = counts[3:]
        self.clock.stop()

    def _horizon(self) -> None:
        self.say(RuleId.O2, tpl.HORIZON)
        self._finish(Outcome.HEALED if not self.patient.wounds else Outcome.WOUNDED)

    # --- bookkeeping shared by every handler -------------------------------------------
    def _begin(self) -> None:
        """P1, lazily: apply the pain recovery of every full stable hour up to now."""
        if self.per_hour and self.was_stable:
            since = in_microseconds(self.clock.now) - in_microseconds(self.stable_since)
            steps = int(since // in_microseconds(HOUR)) - self.pain_steps  # exact
            if steps > 0:
                before = self.patient.pain
                self.patient = rules.recover_pain(
                    self.patient, steps, self.per_hour, self.floor_craziness
                )
                self.pain_steps += steps
                if self.trace is not None and self.patient.pain != before:
                    self._tell_recovery(before, self.pain_steps - steps)

    def _tell_recovery(self, before: float, done: int) -> None:
        """Tell P1's recovery, applied at this event, at the full stable hour it was complete.

        ``done``: the hours applied before this event's steps. The line comes before the
        event's, at a time between the last event and this one (as the kernel tells it).
        """
        after = self.patient.pain
        floor = rules.pain_floor(self.patient, self.floor_craziness)
        steps = self.pain_steps - done
        hours = done + scalar.hours_to_recover(before, after, floor, steps, self.per_hour)
        when = instant(self.stable_since + hours * HOUR)
        args = (("a", before), ("b", after), ("f", floor), ("t", self.stable_since))
        if self.trace is not None:
            self.trace.append(TraceLine(when, RuleId.P1, tpl.PAIN_RECOVERED, None, args))

    def blow(
        self,
        blow: rules.Blow,
        received_before: int,
        rule: RuleId,
        what: Phrase,
        told: RuleId | None = None,
    ) -> bool:
        """Report a blow (W1-W2, S3, X1, B4), make its faint checks; False when fatal.

        ``rule`` is the blow's event (Q3's causes); ``told``, when given, the rule its line
        names instead (B1 or M1 for a wound received that W2 does not describe).
        """
        p = self.patient
        told = rule if told is None else told
        if blow.fatal:
            self.cause = cause_after(self.cause, rule, False, p.status)  # Q3
            out = Outcome.DEAD if p.status is Status.DEAD else Outcome.INCOHERENT
            self.say(
                told,
                tpl.BLOW_FATAL,
                what=what,
                what_level=blow.start.top().label,
                what_out=str(out),
            )
            self._finish(out)
            return False
        if self.trace is not None:
            if blow.pain:
                self.say(told, tpl.BLOW_PAIN, what=what, n=blow.pain, total=p.pain)
            else:
                self.say(told, tpl.PLAIN, what=what)
        if p.pain > self.rec.max_pain:
            self.rec.max_pain = p.pain
        if blow.pain and self.ruleset.pain:
            self._faint_checks(received_before)
        return True

    def _faint_checks(self, received_before: int) -> None:
        """F1-F2: faint tests for the pain just received; they stop at the first failure."""
        p = self.patient
        for _ in range(rules.faint_tests_due(received_before, p.pain_received)):
            mods = rules.faint_modifiers(self.patient, self.sc.patient.rs_it, self.mental())
            test = self.test(RuleId.F1, "faint test", mods)
            if test.success:
                self.say(RuleId.F1, tpl.FAINT_PASSED, test)
                continue
            self.rec.faints += 1
            self.patient = rules.faint(
                self.patient, self.clock.now, self.sc.settings.faint_duration
            )
            until = instant(self.patient.unconscious_until)  # the instant, to the microsecond
            self.patient = self.patient.evolve(unconscious_until=until)
            self.say(RuleId.F2, tpl.FAINT_FAILED, test, t=self.patient.unconscious_until)
            break

    def changed(self, event: RuleId, from_start: bool = False) -> None:
        """React to a new patient state after ``event``: death, stability (H4), S2, G5, Q3.

        ``event``: the rule of what changed it (``W2``, ``S4``, ``R3``, ``G4``, ``X1``...),
        which names the unstable spell it opens (Q3).
        ``from_start``: a rest this change breaks starts again from zero in any case (R3's
        failed watch, G4's failed session, X1's activity), not only under ``restart`` (R4).
        """
        p = self.patient
        if p.status is not Status.ALIVE:
            self.cause = cause_after(self.cause, event, False, p.status)
            self._finish(Outcome.DEAD if p.status is Status.DEAD else Outcome.INCOHERENT)
            return
        stable, worst, wounded = p.stable, p.worst(), bool(p.wounds)
        key = (worst.level, stable) if worst is not None else None
        change = scalar.state_change(
            self.was_stable, stable, self.surv_key, key, self.wounded, wounded
        )
        if self.ruleset.stability:  # B3: no stability, no survival tests
            self.was_stable = stable
            if change & scalar.BECAME_STABLE:
                self._became_stable()
            elif change & scalar.BECAME_UNSTABLE:
                self.cause = cause_after(self.cause, event, True, p.status)
                self._became_unstable(from_start)
            if change & scalar.SURVIVAL_RESTARTS:
                self.surv_key = key
                self.survival.restart()
        self.wounded = wounded
        if change & scalar.WOUND_FREE:
            self.rec.healed_h = self.clock.now / HOUR
            self.say(RuleId.G5, tpl.HEALED)
            if self.injuries_left == 0:
                self._finish(Outcome.HEALED)

    def _became_stable(self) -> None:
        now = self.clock.now
        if math.isnan(self.rec.first_stable_h):
            self.rec.first_stable_h = now / HOUR
        self.stable_since = now
        self.pain_steps = 0
        self.first_aid.spell_ends()
        self.rest.start(self.rest.kept)

    def _became_unstable(self, from_start: bool) -> None:
        self.rest.end(from_start)  # R4
        self.first_aid.spell_begins()  # A3

    # --- scheduled injuries and activities (W1-W3, X1) ----------------------------------
    def _injury(self, index: int) -> None:
        injury = self.sc.injuries[index]
        self.injuries_left -= 1
        for _ in range(injury.count):
            if not self._receive(injury.level):
                return
        self.changed(RuleId.W2)
        self._queue_next(self.sc.injuries, index + 1, PRIO_INJURY, self._injury)

    def _receive(self, level: Level) -> bool:
        before = self.patient.pain_received
        ruleset = self.ruleset
        self.patient, blow = rules.receive_wound(
            self.patient, level, with_pain=ruleset.pain, stable=not ruleset.stability
        )
        if blow.final == level or blow.final is None:
            rule, what = RuleId.W2, Phrase(tpl.RECEIVES, (("what", tpl.A_WOUND[level.label]),))
        else:
            final = (
                ("what", tpl.A_WOUND[level.label]),
                ("what_final", tpl.A_WOUND[blow.final.label]),
            )
            rule, what = RuleId.W1, Phrase(tpl.RECEIVES_OVERFLOW, final)
        # B1, M1: a wound that W2 does not describe names its own rule (its cause stays W2's)
        told = ruleset.received_rule(level) if rule is RuleId.W2 else None
        ok = self.blow(blow, before, rule, what, told)
        if ok and ruleset.rests_on_track(level):
            self.tracks.start(level.track)  # B4, M3: a rest from zero at each new wound
        return ok

    def _activity(self, index: int) -> None:
        activity = self.sc.activities[index]
        self.say(RuleId.X1, tpl.ACTIVITY)
        for uid in rules.activity_tested(self.patient):
            mods = rules.activity_modifiers(
                self.patient, self.sc.patient.cp_rs, activity.modifier, self.mental()
            )
            test = self.test(RuleId.X1, "activity test", mods)
            self.rec.activity_tests += 1
            wound = self.patient.wound(uid)
            assert wound is not None
            if test.success:
                self.say(RuleId.X1, tpl.ACTIVITY_HOLDS, test, what=wound.level.label)
                continue
            self.rec.activity_failures += 1
            self.rec.aggravations += 1
            self.say(RuleId.X1, tpl.ACTIVITY_WORSENS, test, what=wound.level.label)
            before = self.patient.pain_received
            self.patient, blow = rules.worsen(self.patient, uid)
            if not self.blow(blow, before, RuleId.X1, describe_blow(blow)):
                return
        breaks = self.sc.settings.activity_breaks_rest
        self.changed(RuleId.X1, from_start=breaks)
        if breaks and self.patient.stable and self.patient.physical:
            self.say(RuleId.X1, tpl.REST_FROM_ZERO)
            self.rest.start()
        self._queue_next(self.sc.activities, index + 1, PRIO_ACTIVITY, self._activity)
