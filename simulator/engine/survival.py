"""The survival tests of a trial (S1-S5): their clock and what a failure does.

A collaborator of :class:`simulator.engine.trial.Trial`. S2's clock is a
:class:`~simulator.engine.pacing.TestClock` restarted whenever the pair (worst level, state)
changes; its period comes from :func:`simulator.rules.periods.survival_period`. For the fast
engine it also says the law of the coming tests (their chance of passing, with pain recovering
hour by hour, P1) and what that law depends on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.engine import trace_templates as tpl
from simulator.engine.care import FAILED, PASSED, sum_values
from simulator.engine.clock import PRIO_SURVIVAL
from simulator.engine.pacing import TestClock
from simulator.engine.trace import TraceLine, describe_blow
from simulator.rules import periods
from simulator.rules import transitions as rules
from simulator.rules.dice import TestRoll
from simulator.rules.ids import RuleId

if TYPE_CHECKING:
    from simulator.engine.trial import Trial


class Survival:
    """S1-S5: the survival clock of a trial and its tests."""

    def __init__(self, trial: Trial):
        self.trial = trial
        self.clock = TestClock(
            trial,
            PRIO_SURVIVAL,
            self._test,
            self._law,
            decisive_passes=False,
            skipped=self._skipped,
            signature=self._signature,
        )

    def restart(self) -> None:
        """S2: the (worst level, state) pair changed: its clock starts now, or stops."""
        trial = self.trial
        period = periods.survival_period(trial.patient, trial.sc.settings.stable_survival_tests)
        if period is None:
            self.clock.stop()
        else:
            self.clock.start(trial.clock.now + period, period)

    def _law(self, when: float) -> tuple[float, bool] | None:
        """The chance that the survival test due at ``when`` passes, and whether it holds."""
        trial = self.trial
        mental = trial.mental_fixed()
        if mental is None:
            return None
        p = trial.patient
        base = trial.sc.patient.cp_rs - p.missed_watches + mental
        if not (trial.per_hour and trial.was_stable):
            return trial.table.chance(base - p.pain), True
        pain = trial.pain_at(when)
        steady = pain <= rules.pain_floor(p, trial.floor_craziness)
        return trial.table.chance(base - pain), steady

    def _signature(self) -> object:
        """What the law of the coming survival tests depends on, besides time (S1, P1).

        Their modifier once pain no longer moves, else what moves it.
        """
        trial = self.trial
        p = trial.patient
        mental = trial.mental_fixed()
        base = trial.sc.patient.cp_rs - p.missed_watches
        if mental is None:
            return None
        if not (trial.per_hour and trial.was_stable):
            return base + mental - p.pain
        floor = rules.pain_floor(p, trial.floor_craziness)
        if p.pain <= floor:
            return base + mental - p.pain
        return (trial.stable_since, p.pain_received, floor, base + mental)

    def _skipped(self, n: int, first: float, last: float) -> None:
        trial = self.trial
        trial.rec.survival_tests += n
        if trial.trace is not None:
            state = "stable" if trial.patient.stable else "unstable"
            p = trial.patient.evolve(pain=trial.pain_at(last))
            mental = [("mental", trial.mental_fixed() or 0)]
            mods = tuple(rules.survival_modifiers(p, trial.sc.patient.cp_rs, mental))
            args = (("n", n), ("what", state), ("times", (first, last)), ("what_mods", mods))
            trial.trace.append(TraceLine(last, RuleId.S5, tpl.SURVIVAL_RUN[0], None, args))

    def _test(self, u: float | None) -> bool:
        trial = self.trial
        p = trial.patient
        mental = trial.mental()
        expect = None if u is None else self.clock.predicted
        if trial.quick:
            total = rules.survival_modifier(p, trial.sc.patient.cp_rs, sum_values(mental))
            test = PASSED if trial.verdict(total, u, expect) else FAILED
        else:
            mods = rules.survival_modifiers(p, trial.sc.patient.cp_rs, mental)
            test = trial.test(RuleId.S1, "survival test", mods, u, expect)
        trial.rec.survival_tests += 1
        state = "stable" if p.stable else "unstable"
        if test.success:
            trial.say(RuleId.S5, tpl.SURVIVAL_PASSED, test, what=state)
        else:
            trial.rec.survival_failures += 1
            self._fail(test, state)
        if trial.done:
            return False
        trial.changed(RuleId.S4)  # a failure opens a spell only when stable (S4)
        return True

    def _fail(self, test: TestRoll, state: str) -> None:
        trial = self.trial
        before = trial.patient.pain_received
        trial.patient, blow = rules.survival_failure(trial.patient)
        if blow is None:
            trial.say(RuleId.S4, tpl.SURVIVAL_UNSTABLE, test, what=state)
            return
        trial.rec.aggravations += 1
        target = "treated" if blow.treated else "worst"
        trial.say(RuleId.S3, tpl.SURVIVAL_WORSENS, test, what=state, what_level=target)
        trial.blow(blow, before, RuleId.S3, describe_blow(blow))
