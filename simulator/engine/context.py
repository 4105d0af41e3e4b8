"""What the collaborators of a trial may use of it: a small written context.

The care processes (:mod:`simulator.engine.care`), the survival clock
(:mod:`simulator.engine.survival`), the test clocks (:mod:`simulator.engine.pacing`) and the
rulesets (:mod:`simulator.engine.ruleset`) take a :class:`TrialContext`, which
:class:`~simulator.engine.trial.Trial` is, instead of the whole trial: they depend on this
leaf, and the trial on them, with no circle between them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from simulator.engine.clock import Clock
    from simulator.engine.record import TrialRecord
    from simulator.engine.trace import TraceLine
    from simulator.errors import Phrase
    from simulator.rules import transitions as rules
    from simulator.rules.dice import Dice, TestRoll
    from simulator.rules.ids import RuleId
    from simulator.rules.levels import Level, Track
    from simulator.rules.patient import Patient, Wound
    from simulator.scenario.model import Scenario


class TrackRules(Protocol):
    """What the rests of a track ask the ruleset (M3 under ``arpeges``; B4, B6 under ``basic``)."""

    def rests_on_track(self, level: Level) -> bool:
        """Whether a new wound of ``level`` starts a rest of its track."""
        ...

    def track_heals(self, scenario: Scenario) -> bool:
        """Whether the rests of a track end in healing tests."""
        ...

    def track_rule(self, track: Track) -> RuleId:
        """The rule id of a track's session."""
        ...

    def track_modifiers(self, trial: TrialContext, track: Track, wound: Wound) -> rules.Modifiers:
        """The named modifiers of a track's healing test for ``wound``."""
        ...

    def track_failure_worsens(self, test: TestRoll) -> bool:
        """Whether a failed track test also worsens the wound."""
        ...


class TrialContext(Protocol):
    """The members of a trial its collaborators use, and nothing else."""

    patient: Patient
    """The patient now (a new value after each transition)."""

    @property
    def sc(self) -> Scenario:
        """The scenario."""
        ...

    @property
    def rec(self) -> TrialRecord:
        """The record being filled (Q1)."""
        ...

    @property
    def clock(self) -> Clock:
        """The trial's clock: now, and the queue of events."""
        ...

    @property
    def dice(self) -> Dice:
        """Where the trial's random numbers come from."""
        ...

    @property
    def trace(self) -> list[TraceLine] | None:
        """The lines told so far, or None when the trial is not traced."""
        ...

    @property
    def ruleset(self) -> TrackRules:
        """What the ruleset decides for the rests of a track."""
        ...

    @property
    def done(self) -> bool:
        """Whether the trial has ended."""
        ...

    def say(
        self, rule: RuleId, template: str, test: TestRoll | None = None, **args: object
    ) -> None:
        """Add a line to the trace, if one is written."""
        ...

    def test(self, rule: RuleId, what: str, modifiers: rules.Modifiers) -> TestRoll:
        """Roll a test (D1-D3) against its named modifiers."""
        ...

    def mental(self) -> rules.Modifiers:
        """M1: the mental penalties present at one of the patient's own tests."""
        ...

    def blow(self, blow: rules.Blow, received_before: int, rule: RuleId, what: Phrase) -> bool:
        """Report a blow and make its faint checks; False when it was fatal."""
        ...

    def changed(self, event: RuleId, from_start: bool = False) -> None:
        """React to a new patient state after ``event`` (H4, S2, G5, Q3)."""
        ...


__all__ = ["TrackRules", "TrialContext"]
