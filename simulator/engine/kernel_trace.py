"""The kernel's trace records told as :class:`~simulator.engine.trace.TraceLine` s.

The compiled kernel writes one record per thing it tells (time, the test's uniform draw,
two numbers, a :class:`~simulator.rules.kernel.codes.Tr` code, a level and two counts:
:mod:`simulator.rules.kernel.layout`); :func:`decode` rebuilds each test (the roll its draw
stands for, its named modifiers, margin and verdict) and says what happened, in the words of
the engine of Python objects. All the words of a kernel trace are here.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.pacing import format_run
from simulator.engine.trace import TraceLine, format_modifiers, points
from simulator.engine.trial import roll_table
from simulator.rules.dice import TestRoll, margin_of
from simulator.rules.durations import format_clock, format_duration
from simulator.rules.ids import RuleId
from simulator.rules.kernel.codes import Ev, Tr
from simulator.rules.kernel.decisions import COUNT_BASE
from simulator.rules.levels import Level
from simulator.rules.transitions import Modifiers, first_aid_modifiers
from simulator.scenario.model import Scenario

Record = tuple[float, float, float, float, int, int, int, int]
"""time, u, a, b, code, level, n, m (what each means depends on the code)."""

_EVENT_RULE = {Ev.W2: RuleId.W2, Ev.S3: RuleId.S3, Ev.X1: RuleId.X1}


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

    def survival(self, pain: float, missed: float) -> Modifiers:
        return [
            ("Cp+Rs", self.sc.patient.cp_rs),
            ("pain", -_number(pain)),
            ("missed watches", -int(missed)),
        ]

    def first_aid(self, pain: float, counts: int) -> Modifiers:
        from simulator.rules.patient import Patient, Wound

        fa = self.sc.first_aid
        assert fa is not None, "first aid is told only when there is a policy"
        wounds: list[Wound] = []
        for level in (Level.LIGHT, Level.GRAVE, Level.CRITICAL):
            wounds += [Wound(len(wounds), level, False)] * ((counts // COUNT_BASE**level) % 16)
        patient = Patient(self.sc.table, tuple(wounds), pain=_number(pain))
        factor = self.sc.settings.self_aid_pain_factor
        return first_aid_modifiers(patient, fa.level, fa.modifier, fa.self_treat, [], factor)

    def healing(self, level: Level, missed: float) -> Modifiers:
        healer = self.sc.healing
        assert healer is not None, "a session is told only when there is a healer"
        return [
            ("healer level", healer.level),
            (f"{level.label} wound", self.sc.table.rows[level].difficulty),
            ("missed watches", -int(missed)),
            ("circumstances", healer.modifier),
        ]

    def line(self, r: Record) -> TraceLine:
        """One record in words (see :mod:`simulator.rules.kernel.loop` for what it holds)."""
        time, u, a, b, code, lv, n, m = r
        tr = Tr(code)
        grew = f" (+{points(_number(a))} pain → {points(_number(b))})" if a else ""
        state = "stable" if lv else "unstable"
        if tr in (Tr.RECEIVE, Tr.OVERFLOW):
            level, final = Level(lv), Level(n)
            if tr is Tr.RECEIVE:
                return TraceLine(time, RuleId.W2, f"receives a {level.label} wound{grew}")
            text = f"receives a {level.label} wound, {final.label} by overflow{grew}"
            return TraceLine(time, RuleId.W1, text)
        if tr is Tr.BLOW_FATAL:
            label, rule = Level(lv).label, _EVENT_RULE.get(Ev(m), RuleId.S3)
            what = (
                f"receives a {label} wound" if rule is RuleId.W2 else f"the {label} wound worsens"
            )
            return TraceLine(time, rule, f"{what}: past {label}, the blow leaves the patient dead")
        if tr is Tr.WORSENS:
            text = f"the {Level(lv).label} wound worsens to {Level(n).label}{grew}"
            return TraceLine(time, _EVENT_RULE.get(Ev(m), RuleId.S3), text)
        if tr in (Tr.FAINT_PASSED, Tr.FAINT_FAILED):
            mods: Modifiers = [("Rs+It", self.sc.patient.rs_it), ("pain", -_number(a))]
            test = self.test(RuleId.F1, "faint test", u, mods)
            if tr is Tr.FAINT_PASSED:
                return TraceLine(time, RuleId.F1, "faint test passed", test)
            text = f"faint test failed: unconscious until {format_clock(b)}"
            return TraceLine(time, RuleId.F2, text, test)
        if tr in (Tr.SURVIVAL_PASSED, Tr.SURVIVAL_UNSTABLE, Tr.SURVIVAL_WORSENS):
            test = self.test(RuleId.S1, "survival test", u, self.survival(a, b))
            if tr is Tr.SURVIVAL_PASSED:
                return TraceLine(time, RuleId.S5, f"survival test ({state}) passed", test)
            if tr is Tr.SURVIVAL_UNSTABLE:
                text = f"survival test ({state}) failed: the worst wound becomes unstable"
                return TraceLine(time, RuleId.S4, text, test)
            target = "treated" if n else "worst"
            text = f"survival test ({state}) failed: the {target} wound worsens"
            return TraceLine(time, RuleId.S3, text, test)
        if tr is Tr.SURVIVAL_RUN:
            tests = "survival test" if n == 1 else "survival tests"
            told = ", ".join(format_modifiers(self.survival(a, b)))
            last_one = ", the last" if n > 1 else ""
            text = f"×{n} {tests} ({state}) passed, {format_run((u, time))} ({told}{last_one})"
            return TraceLine(time, RuleId.S5, text)
        if tr in (Tr.AID_FAILED, Tr.AID_SUCCEEDS):
            test = self.test(RuleId.A1, self.who, u, self.first_aid(a, lv))
            if tr is Tr.AID_FAILED:
                return TraceLine(time, RuleId.A1, f"{self.who} fails", test)
            text = f"{self.who} succeeds: every wound is stable"
            return TraceLine(time, RuleId.A2, text, test)
        if tr is Tr.AID_RUN:
            attempts = "attempt" if n == 1 else "attempts"
            mods_text = ", ".join(format_modifiers(self.first_aid(a, lv)))
            text = f"×{n} {self.who} {attempts} failed, {format_run((u, time))} ({mods_text})"
            return TraceLine(time, RuleId.A1, text)
        if tr is Tr.AID_EXHAUSTED:
            text = f"no more first aid this spell ({n} attempts made)"
            return TraceLine(time, RuleId.A3, text)
        if tr is Tr.AID_LOST:
            return TraceLine(time, RuleId.A4, "first aid lost: the patient is unconscious")
        if tr is Tr.REST_BEGINS:
            if n:
                session = f"healing session of the {Level(lv).label} wounds in {format_duration(a)}"
            else:
                session = "no healer, so no healing session"
            begins = f"rest goes on ({format_duration(b)} rested)" if b else "rest begins"
            text = f"{begins}: {session}; watches every {format_duration(u)}"
            return TraceLine(time, RuleId.R1, text)
        if tr is Tr.WATCH:
            test = self.test(RuleId.R3, "survival test (neglected watch)", u, self.survival(a, b))
            outcome = "passed" if lv else "failed: every wound becomes unstable"
            text = (
                f"watch {n} of this rest neglected; survival test {outcome}; "
                f"missed-watch penalty now {-int(b) - 1:+d}"
            )
            return TraceLine(time, RuleId.R3, text, test)
        if tr in (Tr.HEALED_ONE, Tr.RELAPSE):
            level = Level(lv)
            test = self.test(RuleId.G1, "healing test", u, self.healing(level, b))
            if tr is Tr.HEALED_ONE:
                return TraceLine(time, RuleId.G2, f"{level.label} wound healed one level", test)
            text = f"healing fails: the {level.label} wound relapses"
            return TraceLine(time, RuleId.G4, text, test)
        if tr in (Tr.ACTIVITY_HOLDS, Tr.ACTIVITY_WORSENS):
            mods = [*self.survival(a, b), ("activity", self.sc.activities[m].modifier)]
            test = self.test(RuleId.X1, "activity test", u, mods)
            verb = "holds" if tr is Tr.ACTIVITY_HOLDS else "worsens"
            return TraceLine(time, RuleId.X1, f"{Level(lv).label} wound {verb}", test)
        if tr is Tr.RECOVERY:
            text = (
                f"pain has recovered {points(_number(a))} → {points(_number(b))} "
                f"(floor {m}; stable since {format_clock(u)})"
            )
            return TraceLine(time, RuleId.P1, text)
        return TraceLine(time, *_PLAIN[tr])


_PLAIN: dict[Tr, tuple[RuleId, str]] = {
    Tr.NEW_REST: (RuleId.G3, "a new rest begins"),
    Tr.WOUND_FREE: (RuleId.G5, "no wound left: healed"),
    Tr.ACTIVITY: (RuleId.X1, "rough physical activity"),
    Tr.ACTIVITY_REST: (RuleId.X1, "the rest starts again from zero"),
    Tr.HORIZON: (RuleId.O2, "horizon reached"),
}
"""What the records without numbers say."""


def decode(scenario: Scenario, records: np.ndarray) -> list[TraceLine]:
    """One trial's trace records as its timeline, in time order.

    Rows of :data:`~simulator.rules.kernel.layout.TRACE_WIDTH` numbers; P1's recovery comes
    first at its instant, as O1 says.
    """
    teller = _Teller(scenario)
    lines = []
    for row in records.tolist():
        time, u, a, b, code, lv, n, m = row
        lines.append(teller.line((time, u, a, b, int(code), int(lv), int(n), int(m))))
    lines.sort(key=lambda line: (line.time, line.rule is not RuleId.P1))
    return lines
