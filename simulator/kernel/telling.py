"""The kernel's trace records told as :class:`~simulator.engine.trace.TraceLine` s.

The compiled kernel writes one record per thing it tells (time, the test's uniform draw,
two numbers, a :class:`~simulator.rules.codes.Tr` code, a level and two counts:
:mod:`simulator.kernel.layout`); :func:`decode` rebuilds each test (the roll its draw
stands for, its named modifiers, margin and verdict) and says what happened, in the words of
the engine of Python objects. All the words of a kernel trace are here.
"""

from __future__ import annotations

import numpy as np

from simulator.engine import trace_templates as tpl
from simulator.engine.trace import TraceLine, healed_words
from simulator.errors import Phrase
from simulator.kernel.decisions import packed_count
from simulator.rules.chances import roll_table
from simulator.rules.codes import Ev, Tr
from simulator.rules.dice import TestRoll, margin_of
from simulator.rules.ids import RuleId, received_rule
from simulator.rules.levels import MENTAL_LEVELS, Level
from simulator.rules.patient import Patient, Wound
from simulator.rules.scalar import SURVIVAL_TERMS, survival_terms
from simulator.rules.transitions import (
    Modifiers,
    basic_healing_modifiers,
    basic_mental_healing_modifiers,
    first_aid_modifiers,
    healing_named,
    named,
)
from simulator.scenario.model import Ruleset, Scenario

Record = tuple[float, float, float, float, int, int, int, int]
"""time, u, a, b, code, level, n, m (what each means depends on the code)."""

_EVENT_RULE = {Ev.W2: RuleId.W2, Ev.S3: RuleId.S3, Ev.X1: RuleId.X1, Ev.B4: RuleId.B4}


def _number(value: float) -> int | float:
    """A kernel number as the engine writes it: an int unless it has a fraction."""
    return int(value) if float(value).is_integer() else float(value)


class _Teller:
    """Tells one trial's records for a scenario."""

    def __init__(self, scenario: Scenario):
        self.sc = scenario
        s = scenario.settings
        self.table = roll_table(s.open_roll, s.tie_succeeds)
        fa = scenario.first_aid
        self.who = "self-treatment" if fa is not None and fa.self_treat else "first aid"

    def test(self, rule: RuleId, what: str, u: float, modifiers: Modifiers) -> TestRoll:
        roll = self.table.roll(u)
        total = sum(value for _, value in modifiers)
        success = u < self.table.chance(total)
        return TestRoll(rule, what, roll, tuple(modifiers), margin_of(roll, modifiers), success)

    def mental(self, present: int) -> Modifiers:
        """M1's penalties present at a test, one modifier a wound, as the SimPy engine says them.

        The kernel records which were present as their count per level (a digit a level, as
        :func:`~simulator.kernel.decisions.mental_key` packs the wounds held); they are told
        by level, shock first, each with its standing penalty (the table's difficulty).
        """
        modifiers: Modifiers = []
        for level in MENTAL_LEVELS:
            count = packed_count(int(present), level - Level.SHOCK)  # a digit a level, as A1
            penalty = int(self.sc.table.rows[level].difficulty)
            modifiers += [(level.label, penalty)] * count
        return modifiers

    def survival(self, pain: float, missed: float, told: int = 0) -> Modifiers:
        terms = survival_terms(self.sc.patient.cp_rs, _number(pain), int(missed))
        return [*named(SURVIVAL_TERMS, terms), *self.mental(told)]

    def patient(self, counts: int, pain: float = 0) -> Patient:
        """A patient with the physical wounds of a ``packed_counts`` number ``counts``."""
        wounds: list[Wound] = []
        for level in (Level.LIGHT, Level.GRAVE, Level.CRITICAL):
            wounds += [Wound(len(wounds), level, False)] * packed_count(counts, level)
        return Patient(self.sc.table, tuple(wounds), pain=_number(pain))

    def first_aid(self, pain: float, counts: int, told: int = 0) -> Modifiers:
        fa = self.sc.first_aid
        assert fa is not None, "first aid is told only when there is a policy"
        patient = self.patient(counts, pain)
        factor = self.sc.settings.self_aid_pain_factor
        mental = self.mental(told) if fa.self_treat else []
        return first_aid_modifiers(patient, fa.level, fa.modifier, fa.self_treat, mental, factor)

    def track(self, level: Level, counts: int, present: float) -> tuple[RuleId, Modifiers]:
        """B4, B6, M3: the rule and the modifiers of a test of a track's session."""
        healer = self.sc.healing
        modifier = healer.modifier if healer is not None else 0
        told = self.mental(int(present))
        if self.sc.ruleset is Ruleset.BASIC:
            if level.is_physical:
                patient = self.patient(counts)
                cp_rs = self.sc.patient.cp_rs
                return RuleId.B4, basic_healing_modifiers(patient, cp_rs, modifier, told)
            rs_it = self.sc.patient.rs_it
            return RuleId.B6, basic_mental_healing_modifiers(rs_it, modifier, told)
        assert healer is not None, "a mental session is told only when there is a healer"
        difficulty = self.sc.table.rows[level].difficulty
        return RuleId.M3, healing_named(healer.level, level, difficulty, 0, healer.modifier)

    def received(self, level: int) -> RuleId:
        """The rule told for a wound received: W2, or B1 (basic), or M1 (mental)."""
        return received_rule(self.sc.ruleset is Ruleset.BASIC, Level(level).is_physical)

    def rule_of(self, event: int, level: int) -> RuleId:
        """The rule of a blow: W2 (or B1, M1), S3, X1, or a basic session's (B4; B6 mental)."""
        rule = _EVENT_RULE.get(Ev(event), RuleId.S3)
        if rule is RuleId.W2:
            return self.received(level)
        if rule is RuleId.B4 and not Level(level).is_physical:
            return RuleId.B6
        return rule

    def healing(self, level: Level, missed: float) -> Modifiers:
        healer = self.sc.healing
        assert healer is not None, "a session is told only when there is a healer"
        difficulty = self.sc.table.rows[level].difficulty
        return healing_named(healer.level, level, difficulty, int(missed), healer.modifier)

    def line(self, r: Record) -> TraceLine:
        """One record as the engine of objects says it (see :mod:`~simulator.kernel.loop`)."""
        time, u, a, b, code, lv, n, m = r
        tr = Tr(code)
        state = "stable" if lv else "unstable"
        if tr in (Tr.RECEIVE, Tr.OVERFLOW):
            level = Level(lv).label
            if tr is Tr.RECEIVE:
                received = Phrase(tpl.RECEIVES, (("what", tpl.A_WOUND[level]),))
                return _blow(time, self.received(lv), received, a, b)
            final = (("what", tpl.A_WOUND[level]), ("what_final", tpl.A_WOUND[Level(n).label]))
            return _blow(time, RuleId.W1, Phrase(tpl.RECEIVES_OVERFLOW, final), a, b)
        if tr is Tr.BLOW_FATAL:
            label, rule, new = Level(lv).label, self.rule_of(m, lv), Ev(m) is Ev.W2
            blown = tpl.RECEIVES if new else tpl.WORSENS
            subject = tpl.A_WOUND[label] if new else tpl.THE_WOUND[label]
            what = Phrase(blown, (("what", subject),))
            out = "dead" if Level(lv).is_physical else "incoherent"
            past = Level(lv).top().label  # W1: an overflow carries a lighter blow past the top
            return _say(time, rule, tpl.BLOW_FATAL, what=what, what_level=past, what_out=out)
        if tr is Tr.WORSENS:
            the, becomes = tpl.THE_WOUND[Level(lv).label], tpl.A_WOUND[Level(n).label]
            to = (("what", the), ("what_final", becomes))
            return _blow(time, self.rule_of(m, lv), Phrase(tpl.WORSENS_TO, to), a, b)
        if tr in (Tr.TRACK_HEALED, Tr.TRACK_STOPS, Tr.TRACK_WORSENS):
            wound = Level(lv)
            rule, mods = self.track(wound, n, b)
            test = self.test(rule, "healing test", u, mods)
            if tr is Tr.TRACK_HEALED:
                template, words = healed_words(wound)
                return _say(time, rule, template, test, **words)
            if tr is Tr.TRACK_WORSENS:
                the = tpl.THE_WOUND[wound.label]
                return _say(time, rule, tpl.HEALING_WORSENS, test, what=the)
            return _say(time, rule, tpl.HEALING_STOPS, test)
        if tr in (Tr.FAINT_PASSED, Tr.FAINT_FAILED):
            faint: Modifiers = [
                ("Rs+It", self.sc.patient.rs_it),
                ("pain", -_number(a)),
                *self.mental(m),
            ]
            test = self.test(RuleId.F1, "faint test", u, faint)
            if tr is Tr.FAINT_PASSED:
                return _say(time, RuleId.F1, tpl.FAINT_PASSED, test)
            return _say(time, RuleId.F2, tpl.FAINT_FAILED, test, t=b)
        if tr in (Tr.SURVIVAL_PASSED, Tr.SURVIVAL_UNSTABLE, Tr.SURVIVAL_WORSENS):
            test = self.test(RuleId.S1, "survival test", u, self.survival(a, b, m))
            if tr is Tr.SURVIVAL_PASSED:
                return _say(time, RuleId.S5, tpl.SURVIVAL_PASSED, test, what=state)
            if tr is Tr.SURVIVAL_UNSTABLE:
                return _say(time, RuleId.S4, tpl.SURVIVAL_UNSTABLE, test, what=state)
            target = "treated" if n else "worst"
            return _say(time, RuleId.S3, tpl.SURVIVAL_WORSENS, test, what=state, what_level=target)
        if tr is Tr.SURVIVAL_RUN:
            return _run(time, RuleId.S5, tpl.SURVIVAL_RUN, n, state, u, self.survival(a, b, m))
        if tr in (Tr.AID_FAILED, Tr.AID_SUCCEEDS):
            test = self.test(RuleId.A1, self.who, u, self.first_aid(a, lv, m))
            if tr is Tr.AID_FAILED:
                return _say(time, RuleId.A1, tpl.FIRST_AID_FAILS, test, what=self.who)
            return _say(time, RuleId.A2, tpl.FIRST_AID_SUCCEEDS, test, what=self.who)
        if tr is Tr.AID_RUN:
            mods = self.first_aid(a, lv, m)
            return _run(time, RuleId.A1, tpl.FIRST_AID_RUN, n, self.who, u, mods)
        if tr is Tr.AID_EXHAUSTED:
            return _say(time, RuleId.A3, tpl.FIRST_AID_NO_MORE, n=n)
        if tr is Tr.REST_BEGINS:
            session = Phrase(tpl.NO_SESSION)
            if n:
                least = tpl.THE_WOUNDS[Level(lv).label]
                session = (
                    Phrase(tpl.SESSION, (("what", least), ("wait", a)))
                    if a
                    else Phrase(tpl.SESSION_AT_ONCE, (("what", least),))
                )
            begins = Phrase(tpl.REST_GOES_ON, (("d", b),)) if b else Phrase(tpl.REST_BEGINS)
            return _say(
                time, RuleId.R1, tpl.REST, what_begins=begins, what_session=session, every=u
            )
        if tr is Tr.WATCH:
            mods = self.survival(a, b, m)
            test = self.test(RuleId.R3, "survival test (neglected watch)", u, mods)
            outcome = "passed" if lv else "failed: every wound becomes unstable"
            penalty = -int(b) - 1
            return _say(time, RuleId.R3, tpl.WATCH_NEGLECTED, test, i=n, what=outcome, p=penalty)
        if tr in (Tr.HEALED_ONE, Tr.RELAPSE):
            wound = Level(lv)
            test = self.test(RuleId.G1, "healing test", u, self.healing(wound, b))
            if tr is Tr.HEALED_ONE:
                template, words = healed_words(wound)
                return _say(time, RuleId.G2, template, test, **words)
            return _say(time, RuleId.G4, tpl.RELAPSES, test, what=tpl.THE_WOUND[wound.label])
        if tr in (Tr.ACTIVITY_HOLDS, Tr.ACTIVITY_WORSENS):
            activity = sorted(self.sc.activities, key=lambda x: x.at)[m]  # as the kernel's
            mods = [*self.survival(a, b, n), ("activity", activity.modifier)]
            test = self.test(RuleId.X1, "activity test", u, mods)
            verb = tpl.ACTIVITY_HOLDS if tr is Tr.ACTIVITY_HOLDS else tpl.ACTIVITY_WORSENS
            return _say(time, RuleId.X1, verb, test, what=Level(lv).label)
        if tr is Tr.RECOVERY:
            before, after = _number(a), _number(b)
            return _say(time, RuleId.P1, tpl.PAIN_RECOVERED, a=before, b=after, f=m, t=u)
        return _say(time, *_PLAIN[tr])


def _say(
    time: float, rule: RuleId, template: str, test: TestRoll | None = None, **args: object
) -> TraceLine:
    """A line as :meth:`~simulator.engine.trial.Trial.say` makes it: a template and its values."""
    return TraceLine(time, rule, template, test, tuple(args.items()))


def _blow(time: float, rule: RuleId, what: Phrase, pain: float, total: float) -> TraceLine:
    """A blow that leaves the patient alive, with the pain it gives (W1, W2, S3, X1)."""
    if not pain:
        return _say(time, rule, tpl.PLAIN, what=what)
    return _say(time, rule, tpl.BLOW_PAIN, what=what, n=_number(pain), total=_number(total))


def _run(
    time: float,
    rule: RuleId,
    template: tuple[str, str],
    n: int,
    what: str,
    first: float,
    mods: Modifiers,
) -> TraceLine:
    """``n`` skipped tests told in one line (S5, A1): the run the kernel skipped."""
    times, told = (first, time), tuple(mods)
    return _say(time, rule, template[0], n=n, what=what, times=times, what_mods=told)


_PLAIN: dict[Tr, tuple[RuleId, str]] = {
    Tr.AID_LOST: (RuleId.A4, tpl.FIRST_AID_LOST),
    Tr.NEW_REST: (RuleId.G3, tpl.NEW_REST),
    Tr.WOUND_FREE: (RuleId.G5, tpl.HEALED),
    Tr.ACTIVITY: (RuleId.X1, tpl.ACTIVITY),
    Tr.ACTIVITY_REST: (RuleId.X1, tpl.REST_FROM_ZERO),
    Tr.HORIZON: (RuleId.O2, tpl.HORIZON),
}
"""The lines without values."""


US = 1_000_000.0
"""The kernel's times are whole microseconds (:func:`~simulator.kernel.params.
microseconds_float`); a trace tells seconds."""

_TIMES: dict[int, tuple[bool, bool, bool]] = {
    int(Tr.FAINT_FAILED): (False, False, True),  # b: unconscious until
    int(Tr.SURVIVAL_RUN): (True, False, False),  # u: the run's first test
    int(Tr.AID_RUN): (True, False, False),
    int(Tr.REST_BEGINS): (True, True, True),  # the watches' period, the wait, the rest so far
    int(Tr.RECOVERY): (True, False, False),  # u: stable since
}
"""Which of a record's values ``u``, ``a``, ``b`` are times or durations, by code."""


def _in_seconds(code: int, time: float, u: float, a: float, b: float) -> tuple[float, ...]:
    """A record's time, and those of its values that are times, in seconds.

    Each is a whole number of microseconds: divided once, it is the float nearest the
    instant in seconds, as a scenario's duration reads (``"61.2s"``).
    """
    which = _TIMES.get(code, (False, False, False))
    values = [v / US if told else v for v, told in zip((u, a, b), which, strict=True)]
    return (time / US, *values)


def decode(scenario: Scenario, records: np.ndarray) -> list[TraceLine]:
    """One trial's trace records as its timeline, in time order.

    Rows of :data:`~simulator.kernel.layout.TRACE_WIDTH` numbers; P1's recovery comes
    first at its instant, as O1 says.
    """
    teller = _Teller(scenario)
    lines = []
    for row in records.tolist():
        time, u, a, b, code, lv, n, m = row
        time, u, a, b = _in_seconds(int(code), time, u, a, b)
        lines.append(teller.line((time, u, a, b, int(code), int(lv), int(n), int(m))))
    lines.sort(key=lambda line: (line.time, line.rule is not RuleId.P1))
    return lines
