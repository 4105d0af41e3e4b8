"""The campaign engine: SimPy keeps time, the pure functions of ``rules`` decide.

One :class:`Trial` is one campaign of one patient. Everything that falls due is an event on
SimPy's queue; handlers wake up, bring pain recovery up to date, call the rule functions and
arm the next events. Nothing here rolls dice except through the trial's :class:`Dice`.

**Order of simultaneous events (O1).** SimPy orders its queue by ``(time, priority, id)``.
Every event of this engine is scheduled with one of the priorities of
:mod:`simulator.engine.clock`, in O1's order, so
at one instant injuries resolve before activities, then first aid, watches, healing sessions
and survival tests; among equals the insertion order (SimPy's id) keeps file order. Pain
recovery (P1) comes first because it is computed lazily at the start of every handler, for
every full hour up to and including the present instant. A clock that is restarted (S2's
survival clock, a rest, a first-aid spell) gets a new generation number; events of an older
generation wake up, see they are stale and do nothing, so "a test no longer due does not
happen". An event armed at the present instant by an earlier one still happens at it, since
its key ``(now, priority, id)`` is still ahead in the queue.

**The horizon (O2).** ``env.run(until=...)`` would stop before events that fall exactly at
the horizon, so the trial runs until a *stop* event instead; the horizon is an ordinary event
of the lowest priority at the horizon time, so everything else due then happens first.

**Cheap watches.** A watch that is kept changes nothing, so only neglected watches are put
on the queue: the index of the next randomly neglected watch is drawn as a geometric number
of watches (the same law as one Bernoulli draw per watch), and ``neglect_at`` times map to
the first watch due at or after them (R2).
"""

from __future__ import annotations

import math

import numpy as np

from simulator.engine.care import Care
from simulator.engine.clock import (
    HOUR,
    PRIO_ACTIVITY,
    PRIO_FIRST_AID,
    PRIO_HORIZON,
    PRIO_INJURY,
    PRIO_SURVIVAL,
    CampaignEnvironment,
    Due,
)
from simulator.engine.record import TrialRecord
from simulator.engine.trace import TraceLine, describe_blow, points
from simulator.rules import transitions as rules
from simulator.rules.dice import Dice, RandomDice, TestRoll, resolve
from simulator.rules.durations import format_clock
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Patient, Status
from simulator.rules.rest import rested_after_break
from simulator.scenario.model import Ruleset, Scenario


def trial_generator(seed: int, trial: int) -> np.random.Generator:
    """Trial ``trial``'s random stream: child ``trial`` of ``SeedSequence(seed)``.

    ``SeedSequence(seed, spawn_key=(trial,))`` is exactly ``SeedSequence(seed).spawn(n)[trial]``
    for any ``n > trial``, so a trial's numbers depend on nothing but the seed and its index.
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(trial,)))


def run_trial(scenario: Scenario, trial: int, seed: int) -> TrialRecord:
    """Run trial number ``trial`` of a study seeded with ``seed``; same inputs, same record."""
    dice = RandomDice(trial_generator(seed, trial), open_roll=scenario.settings.open_roll)
    return Trial(scenario, dice).run()


def trace_trial(
    scenario: Scenario, seed: int = 0, trial: int = 0
) -> tuple[TrialRecord, list[TraceLine]]:
    """Run one trial and tell it: the record and the timeline of :class:`TraceLine` s."""
    dice = RandomDice(trial_generator(seed, trial), open_roll=scenario.settings.open_roll)
    lines: list[TraceLine] = []
    record = Trial(scenario, dice, trace=lines).run()
    return record, lines


class Trial(Care):
    """One campaign: a SimPy environment, a patient and the clocks of the rules.

    Args:
        scenario: What to simulate (validated).
        dice: Where rolls come from (a :class:`RandomDice`, or scripted in tests).
        trace: A list to append :class:`TraceLine` s to, or ``None`` for speed.
    """

    def __init__(self, scenario: Scenario, dice: Dice, trace: list[TraceLine] | None = None):
        self.sc = scenario
        self.dice = dice
        self.trace = trace
        self.env = CampaignEnvironment()
        self.patient = Patient(table=scenario.table)
        self.rec = TrialRecord()
        self.basic = scenario.ruleset is Ruleset.BASIC
        s = scenario.settings
        self.tie = s.tie_succeeds
        self.trigger = s.trigger_probability
        self.per_hour = 0 if self.basic else s.pain_recovery_per_hour
        self.floor_craziness = s.pain_floor_craziness
        self.done = False
        self.stop = self.env.event()
        # Stability (H4) as last seen, and the clocks that hang on it.
        self.was_stable = True
        self.stable_since = 0.0  # P1's clock
        self.pain_steps = 0  # P1 steps already applied since stable_since
        self.surv_key: tuple[Level, bool] | None = None  # S2: (worst level, stable)
        self.surv_gen = 0
        self.spell = 0  # A3: unstable spells
        self.spell_attempts = 0
        self.rest_gen = 0  # R1: rests
        self.rest_start = 0.0  # when the rest's present stretch began
        self.rested = 0.0  # time rested before that stretch (R4 resume, G3 cumulative)
        self.resting = False  # whether a rest is running
        self.rest_kept = 0.0  # R4: what the next rest starts with
        self.watch_period = 0.0
        self.random_neglect = math.inf  # R2: index of the next randomly neglected watch
        self.neglect_pending = sorted(scenario.watch.neglect_at)
        self.track_gen = {Track.PHYSICAL: 0, Track.MENTAL: 0}  # M3 and B4 rests
        self.wounded = False
        self.injuries_left = sum(1 for i in scenario.injuries if i.at <= scenario.horizon)

    # --- running -----------------------------------------------------------------------
    def run(self) -> TrialRecord:
        """Run the campaign to its end and return its record (Q1)."""
        env = self.env
        if self.injuries_left == 0:
            self._finish("healed")
            self.rec.healed_h = 0.0
            return self.rec
        env.process(self._injuries())
        if not self.basic and self.sc.activities:
            env.process(self._activities())
        Due.at(env, self.sc.horizon, PRIO_HORIZON, self._horizon)
        env.run(until=self.stop)
        return self.rec

    def _at(self, when: float, priority: int, fn, *args) -> None:
        Due.at(self.env, when, priority, fn, args)

    def _say(self, rule: str, text: str, test: TestRoll | None = None) -> None:
        if self.trace is not None:
            self.trace.append(TraceLine(self.env.now, rule, text, test))

    def _finish(self, outcome: str) -> None:
        if self.done:
            return
        self.done = True
        rec, p, now_h = self.rec, self.patient, self.env.now / HOUR
        rec.outcome = outcome
        rec.end_h = now_h
        if outcome != "healed":
            rec.healed_h = math.nan
        if outcome == "dead":
            rec.death_h = now_h
        elif outcome == "incoherent":
            rec.incoherent_h = now_h
        counts = [0] * 6
        for w in p.wounds:
            counts[w.level] += 1
        rec.wounds_left = len(p.wounds)
        (rec.light_left, rec.grave_left, rec.critical_left) = counts[:3]
        (rec.shock_left, rec.trauma_left, rec.psychosis_left) = counts[3:]
        if not self.stop.triggered:
            self.stop.succeed()

    def _horizon(self) -> None:
        if not self.done:
            self._begin()
            self._say("O2", "horizon reached")
            self._finish("healed" if not self.patient.wounds else "wounded")

    # --- bookkeeping shared by every handler -------------------------------------------
    def _begin(self) -> None:
        """P1, lazily: apply the pain recovery of every full stable hour up to now."""
        if self.per_hour and self.was_stable:
            steps = int((self.env.now - self.stable_since) // HOUR) - self.pain_steps
            if steps > 0:
                before = self.patient.pain
                self.patient = rules.recover_pain(
                    self.patient, steps, self.per_hour, self.floor_craziness
                )
                self.pain_steps += steps
                if self.patient.pain != before:
                    since = format_clock(self.stable_since)
                    floor = rules.pain_floor(self.patient, self.floor_craziness)
                    self._say(
                        "P1",
                        f"pain has recovered {points(before)} → {points(self.patient.pain)} "
                        f"(floor {floor}; stable since {since})",
                    )

    def _test(self, rule: str, what: str, modifiers: rules.Modifiers) -> TestRoll:
        return resolve(self.dice, rule, what, modifiers, self.tie)

    def _mental(self) -> rules.Modifiers:
        """M1: the mental penalties present at one of the patient's own tests."""
        if not any(w.level >= 3 for w in self.patient.wounds):
            return []
        return rules.mental_penalties(self.patient, self.dice, self.trigger)

    def _blow(self, blow: rules.Blow, received_before: int, rule: str, text: str) -> bool:
        """Report a blow (W1-W2, S3, X1, B4), make its faint checks; False when fatal."""
        p = self.patient
        if blow.fatal:
            out = "dead" if p.status is Status.DEAD else "incoherent"
            self._say(rule, f"{text}: past {blow.start.label}, the blow leaves the patient {out}")
            self._finish(out)
            return False
        grew = f" (+{blow.pain} pain → {points(p.pain)})" if blow.pain else ""
        self._say(rule, f"{text}{grew}")
        if p.pain > self.rec.max_pain:
            self.rec.max_pain = p.pain
        if blow.pain and not self.basic:
            self._faint_checks(received_before)
        return True

    def _faint_checks(self, received_before: int) -> None:
        """F1-F2: faint tests for the pain just received; they stop at the first failure."""
        p = self.patient
        for _ in range(rules.faint_tests_due(received_before, p.pain_received)):
            mods = rules.faint_modifiers(self.patient, self.sc.patient.rs_it, self._mental())
            test = self._test("F1", "faint test", mods)
            if test.success:
                self._say("F1", "faint test passed", test)
                continue
            self.rec.faints += 1
            self.patient = rules.faint(self.patient, self.env.now, self.sc.settings.faint_duration)
            until = format_clock(self.patient.unconscious_until)
            self._say("F2", f"faint test failed: unconscious until {until}", test)
            break

    def _changed(self, from_start: bool = False) -> None:
        """React to a new patient state: death, stability (H4), S2's clock, G5.

        ``from_start``: a rest this change breaks starts again from zero in any case (R3's
        failed watch, G4's failed session, X1's activity), not only under ``restart`` (R4).
        """
        p = self.patient
        if p.status is not Status.ALIVE:
            self._finish("dead" if p.status is Status.DEAD else "incoherent")
            return
        if not self.basic:
            stable = p.stable
            if stable != self.was_stable:
                self.was_stable = stable
                if stable:
                    self._became_stable()
                else:
                    self._became_unstable(from_start)
            worst = p.worst()
            key = (worst.level, stable) if worst is not None else None
            if key != self.surv_key:
                self.surv_key = key
                self.surv_gen += 1
                self._arm_survival(self.env.now)
        if p.wounds:
            self.wounded = True
        elif self.wounded:
            self.wounded = False
            self.rec.healed_h = self.env.now / HOUR
            self._say("G5", "no wound left: healed")
            if self.injuries_left == 0:
                self._finish("healed")

    def _became_stable(self) -> None:
        now = self.env.now
        if math.isnan(self.rec.first_stable_h):
            self.rec.first_stable_h = now / HOUR
        self.stable_since = now
        self.pain_steps = 0
        self._start_rest(self.rest_kept)

    def _became_unstable(self, from_start: bool) -> None:
        self.rest_gen += 1  # R4: the rest ends
        rested = self.rested + (self.env.now - self.rest_start) if self.resting else 0.0
        self.resting = False
        mode = self.sc.settings.rest_after_unstable
        self.rest_kept = rested_after_break(mode, rested, from_start)
        self.spell += 1  # A3: a new unstable spell
        self.spell_attempts = 0
        fa = self.sc.first_aid
        if fa is not None:
            self._at(
                self.env.now + fa.start,
                PRIO_FIRST_AID,
                self._first_aid,
                self.spell,
                self.env.now + fa.start,
            )

    # --- scheduled injuries and activities (W1-W3, X1) ----------------------------------
    def _injuries(self):
        for injury in self.sc.injuries:
            if injury.at > self.sc.horizon:
                return
            yield Due.at(self.env, injury.at, PRIO_INJURY)
            if self.done:
                return
            self._begin()
            self.injuries_left -= 1
            for _ in range(injury.count):
                if not self._receive(injury.level):
                    return
            self._changed()

    def _receive(self, level: Level) -> bool:
        before = self.patient.pain_received
        self.patient, blow = rules.receive_wound(
            self.patient, level, with_pain=not self.basic, stable=self.basic
        )
        if blow.final == level or blow.final is None:
            rule, text = "W2", f"receives a {level.label} wound"
        else:
            rule, text = "W1", f"receives a {level.label} wound, {blow.final.label} by overflow"
        ok = self._blow(blow, before, rule, text)
        if ok and (self.basic or level.track is Track.MENTAL):
            self._start_track_rest(level.track)  # B4, M3: a rest from zero at each new wound
        return ok

    def _activities(self):
        for activity in self.sc.activities:
            if activity.at > self.sc.horizon:
                return
            yield Due.at(self.env, activity.at, PRIO_ACTIVITY)
            if self.done:
                return
            self._begin()
            self._say("X1", "rough physical activity")
            for uid in rules.activity_tested(self.patient):
                mods = rules.activity_modifiers(
                    self.patient, self.sc.patient.cp_rs, activity.modifier, self._mental()
                )
                test = self._test("X1", "activity test", mods)
                self.rec.activity_tests += 1
                wound = self.patient.wound(uid)
                if test.success:
                    self._say("X1", f"{wound.level.label} wound holds", test)
                    continue
                self.rec.activity_failures += 1
                self.rec.aggravations += 1
                self._say("X1", f"{wound.level.label} wound worsens", test)
                before = self.patient.pain_received
                self.patient, blow = rules.worsen(self.patient, uid)
                if not self._blow(blow, before, "X1", describe_blow(blow)):
                    return
            breaks = self.sc.settings.activity_breaks_rest
            self._changed(from_start=breaks)
            if breaks and self.patient.stable and self.patient.physical:
                self._say("X1", "the rest starts again from zero")
                self._start_rest()

    # --- survival tests (S1-S5) ---------------------------------------------------------
    def _arm_survival(self, since: float) -> None:
        key = self.surv_key
        if key is None:
            return
        level, stable = key
        if stable and not self.sc.settings.stable_survival_tests:
            return
        row = self.patient.table.rows[level]
        due = since + (row.stable_period if stable else row.unstable_period)
        self._at(due, PRIO_SURVIVAL, self._survival, self.surv_gen)

    def _survival(self, gen: int) -> None:
        if self.done or gen != self.surv_gen:
            return
        self._begin()
        p = self.patient
        mods = rules.survival_modifiers(p, self.sc.patient.cp_rs, self._mental())
        test = self._test("S1", "survival test", mods)
        self.rec.survival_tests += 1
        state = "stable" if p.stable else "unstable"
        if test.success:
            self._say("S5", f"survival test ({state}) passed", test)
        else:
            self.rec.survival_failures += 1
            self._fail_survival(test, state)
        if self.done:
            return
        self._changed()
        if gen == self.surv_gen:  # same (worst level, state): the clock runs on (S2)
            self._arm_survival(self.env.now)

    def _fail_survival(self, test: TestRoll, state: str) -> None:
        before = self.patient.pain_received
        self.patient, blow = rules.survival_failure(self.patient)
        if blow is None:
            self._say(
                "S4", f"survival test ({state}) failed: the worst wound becomes unstable", test
            )
            return
        self.rec.aggravations += 1
        target = "treated" if self.patient.relapse_target == blow.uid else "worst"
        self._say("S3", f"survival test ({state}) failed: the {target} wound worsens", test)
        self._blow(blow, before, "S3", describe_blow(blow))
