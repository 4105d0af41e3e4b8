"""The survival tests of a trial (S1-S5): their clock and what a failure does.

A collaborator of :class:`simulator.engine.trial.Trial`, through its written context
(:class:`~simulator.engine.context.TrialContext`). S2's clock is a
:class:`~simulator.engine.pacing.TestClock` restarted whenever the pair (worst level, state)
changes; its period comes from :func:`simulator.rules.periods.survival_period`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.engine import trace_templates as tpl
from simulator.engine.clock import PRIO_SURVIVAL
from simulator.engine.pacing import TestClock
from simulator.engine.trace import describe_blow
from simulator.rules import periods
from simulator.rules import transitions as rules
from simulator.rules.dice import TestRoll
from simulator.rules.durations import instant
from simulator.rules.ids import RuleId

if TYPE_CHECKING:
    from simulator.engine.context import TrialContext


class Survival:
    """S1-S5: the survival clock of a trial and its tests."""

    def __init__(self, trial: TrialContext):
        self.trial = trial
        self.clock = TestClock(trial, PRIO_SURVIVAL, self._test)

    def restart(self) -> None:
        """S2: the (worst level, state) pair changed: its clock starts now, or stops."""
        trial = self.trial
        period = periods.survival_period(trial.patient, trial.sc.settings.stable_survival_tests)
        if period is None:
            self.clock.stop()
        else:
            self.clock.start(instant(trial.clock.now + period), period)

    def _test(self) -> bool:
        trial = self.trial
        p = trial.patient
        mods = rules.survival_modifiers(p, trial.sc.patient.cp_rs, trial.mental())
        test = trial.test(RuleId.S1, "survival test", mods)
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
