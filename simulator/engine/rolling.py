"""The tests of one trial (D1-D3, M1), rolled by its dice.

A mixin of :class:`simulator.engine.trial.Trial`, whose attributes it reads: ``dice``,
``tie``, ``patient`` and ``trigger``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.rules import transitions as rules
from simulator.rules.dice import TestRoll, resolve

if TYPE_CHECKING:
    from simulator.rules.dice import Dice
    from simulator.rules.ids import RuleId
    from simulator.rules.patient import Patient


class Rolling:
    """How a trial rolls its tests."""

    if TYPE_CHECKING:  # set by Trial, whose mixin this is
        dice: Dice
        tie: bool
        patient: Patient
        trigger: float

    def test(self, rule: RuleId, what: str, modifiers: rules.Modifiers) -> TestRoll:
        """A test (D1-D3): the dice roll it against its named modifiers."""
        return resolve(self.dice, rule, what, modifiers, self.tie)

    def mental(self) -> rules.Modifiers:
        """M1: the mental penalties present at one of the patient's own tests."""
        if not any(w.level.is_mental for w in self.patient.wounds):
            return []
        return rules.mental_penalties(self.patient, self.dice, self.trigger)
