"""The tests of one trial (D1-D3, M1): rolled by the dice, or drawn as one number (fast).

A mixin of :class:`simulator.engine.trial.Trial`, whose attributes it reads: ``fast``,
``dice``, ``tie``, ``table`` (the odds of :mod:`simulator.rules.chances`), ``trace``,
``patient`` and ``trigger``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.engine.care import FAILED, PASSED
from simulator.rules import transitions as rules
from simulator.rules.dice import TestRoll, margin_of, resolve

if TYPE_CHECKING:
    from simulator.engine.trace import TraceLine
    from simulator.rules.chances import RollTable
    from simulator.rules.dice import Dice
    from simulator.rules.ids import RuleId
    from simulator.rules.patient import Patient


class Rolling:
    """How a trial rolls its tests."""

    if TYPE_CHECKING:  # set by Trial, whose mixin this is
        fast: bool
        dice: Dice
        tie: bool
        table: RollTable
        trace: list[TraceLine] | None
        patient: Patient
        trigger: float

    def test(
        self,
        rule: RuleId,
        what: str,
        modifiers: rules.Modifiers,
        u: float | None = None,
        expect: float | None = None,
        margin: bool = False,
    ) -> TestRoll:
        """A test (D1-D3).

        Event by event the dice roll it. In the fast engine it is one uniform draw ``u``
        (drawn now when None) against the exact odds, and the roll ``u`` stands for is built
        only when traced or when the ``margin`` is needed.

        ``expect`` is the chance the fast engine drew the test's run with: the test's own
        chance must be the same, or a change went by without a redraw (a bug).
        """
        if not self.fast:
            return resolve(self.dice, rule, what, modifiers, self.tie)
        total: float = 0.0
        for _, value in modifiers:
            total += value
        chance = self.table.chance(total)
        if expect is not None and abs(chance - expect) > 1e-12:
            raise AssertionError(f"{rule}: chance {chance} at the test, {expect} when drawn")
        if u is None:
            u = self.dice.uniform()
        if self.trace is None and not margin:
            return PASSED if u < chance else FAILED
        roll = self.table.roll(u)
        result = margin_of(roll, modifiers)
        return TestRoll(rule, what, roll, tuple(modifiers), result, u < chance)

    def verdict(self, total: float, u: float | None, expect: float | None) -> bool:
        """A test of the fast engine, untraced: its modifiers summed to ``total`` (D1-D3)."""
        chance = self.table.chance(total)
        if expect is not None and abs(chance - expect) > 1e-12:
            raise AssertionError(f"chance {chance} at the test, {expect} when drawn")
        return (self.dice.uniform() if u is None else u) < chance

    def mental(self) -> rules.Modifiers:
        """M1: the mental penalties present at one of the patient's own tests."""
        if not any(w.level.is_mental for w in self.patient.wounds):
            return []
        return rules.mental_penalties(self.patient, self.dice, self.trigger)

    def mental_fixed(self) -> float | None:
        """M1 as one number when no draw decides it (trigger 0 or 1); None otherwise."""
        if self.trigger <= 0:
            return 0
        total = 0
        rows = self.patient.table.rows
        for w in self.patient.wounds:
            if w.level.is_mental:
                if self.trigger < 1:
                    return None
                total += rows[w.level].difficulty
        return total
