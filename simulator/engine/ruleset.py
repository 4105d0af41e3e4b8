"""The two rulesets as strategies: what the trial does differently under each.

:class:`Advanced` is the ruleset of the wound texts (``arpeges``): pain, faints, stability,
survival tests, first aid, watches, rough activity, healing by a healer; only mental wounds
rest on a track of their own (M3). :class:`Basic` is the older text (B1-B6): no pain, no
stability, and every wound rests on its track and is healed by the patient's own tests (B4,
B6). The trial asks its ruleset instead of testing which one it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.rules import transitions as rules
from simulator.rules.dice import TestRoll
from simulator.rules.ids import RuleId, received_rule
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Wound
from simulator.scenario.model import Ruleset, Scenario

if TYPE_CHECKING:
    from simulator.engine.context import TrialContext


class Advanced:
    """The wound texts' ruleset (``arpeges``)."""

    pain = True
    """W2, S3: blows bring pain (and faint checks, F1)."""
    stability = True
    """H4, S1-S5, A1-A4, R1-R4: wounds are stable or not, with the clocks that follow."""

    def pain_recovery_per_hour(self, scenario: Scenario) -> float:
        """P1's setting."""
        return scenario.settings.pain_recovery_per_hour

    def received_rule(self, level: Level) -> RuleId:
        """The rule a wound received is told by: W2, or M1 for a mental one."""
        return received_rule(False, level.is_physical)

    def rests_on_track(self, level: Level) -> bool:
        """Whether a new wound of ``level`` starts a rest of its track: mental ones (M3)."""
        return level.track is Track.MENTAL

    def track_heals(self, scenario: Scenario) -> bool:
        """M3: no healer, no mental healing."""
        return scenario.healing is not None

    def track_rule(self, track: Track) -> RuleId:
        """The rule id of a track's session."""
        return RuleId.M3

    def track_modifiers(self, trial: TrialContext, track: Track, wound: Wound) -> rules.Modifiers:
        """M3: the healer's test, as G1 without the missed-watch penalty."""
        healer = trial.sc.healing
        assert healer is not None
        return rules.healing_modifiers(trial.patient, healer.level, wound, healer.modifier)

    def track_failure_worsens(self, test: TestRoll) -> bool:
        """M3: a failure only starts a new mental rest."""
        return False


class Basic(Advanced):
    """The older text's ruleset (B1-B6)."""

    pain = False
    stability = False

    def pain_recovery_per_hour(self, scenario: Scenario) -> float:
        """B2: no pain, so nothing to recover."""
        return 0

    def received_rule(self, level: Level) -> RuleId:
        """B1: a wound received has no stability and no pain (B2-B3), so not W2's."""
        return received_rule(True, level.is_physical)

    def rests_on_track(self, level: Level) -> bool:
        """B4, B6: every new wound starts a rest of its track."""
        return True

    def track_heals(self, scenario: Scenario) -> bool:
        """B4: the patient heals itself."""
        return True

    def track_rule(self, track: Track) -> RuleId:
        """B4 for physical wounds, B6 for mental ones."""
        return RuleId.B6 if track is Track.MENTAL else RuleId.B4

    def track_modifiers(self, trial: TrialContext, track: Track, wound: Wound) -> rules.Modifiers:
        """B4: Cp+Rs and the wounds' penalties; B6: Rs+It and the mental penalties."""
        sc = trial.sc
        modifier = sc.healing.modifier if sc.healing else 0
        if track is Track.MENTAL:
            return rules.basic_mental_healing_modifiers(sc.patient.rs_it, modifier, trial.mental())
        return rules.basic_healing_modifiers(
            trial.patient, sc.patient.cp_rs, modifier, trial.mental()
        )

    def track_failure_worsens(self, test: TestRoll) -> bool:
        """B4: a failure by 10 or more also worsens the wound."""
        return rules.basic_failure_worsens(test.margin)


def ruleset_of(scenario: Scenario) -> Advanced:
    """The strategy of the scenario's ruleset."""
    return BASIC if scenario.ruleset is Ruleset.BASIC else ADVANCED


ADVANCED = Advanced()
BASIC = Basic()
