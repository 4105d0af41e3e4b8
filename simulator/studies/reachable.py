"""Which ends a scenario can never reach: ``trace --find`` says so at once instead of searching.

Each verdict is a proof from the rules, sound and conservative: an outcome is called
impossible only when no trial of any seed can end so; anything else may happen, and is
searched for (:func:`simulator.studies.campaign.find_trial`). The proofs:

- **dead**: only a physical wound kills: a blow past critical (W1, B1) or a wound worsening
  past it (S3, X1, B4). A blow past critical needs every level from the blow's up to critical
  full, so at least that many wounds held, each one received earlier (worsening raises levels,
  never adds wounds). Under the basic ruleset a wound worsens only at a healing roll failed by
  10 or more (B4), which a closed roll (D1, -9 at worst) cannot reach when the test's
  modifiers are high enough even with every wound held at its worst.
- **incoherent**: the same on the mental track (M2): a blow past psychosis, or a mental wound
  worsening, which the arpeges rules never do (M3) and the basic ones only at B6's roll
  failed by 10 or more.
- **wounded**: a patient who receives no wound by the horizon is never wounded (O2, G5).
- **healed**: under the arpeges rules, only a healer's session removes a wound (R1, G1, M3);
  under either, a wound goes down a level only after a rest as long as that level's heal
  period, rested within [0, horizon]: a wound received that must pass a level whose heal
  period is longer than the horizon never heals by then.
"""

from __future__ import annotations

from simulator.engine.trace_templates import A_WOUND
from simulator.errors import N_, Phrase, phrase
from simulator.rules.durations import format_duration
from simulator.rules.levels import Level, Track
from simulator.scenario.model import Injury, Ruleset, Scenario

WORST_ROLL = -9
"""D1: the lowest closed roll (a luck die of 1, a bad-luck die of 10)."""

WORSEN_MARGIN = -10
"""B4, B6: a healing roll failed by this margin or worse also worsens the wound."""


def impossible(scenario: Scenario, outcome: str) -> Phrase | None:
    """Why no trial of ``scenario`` can end with ``outcome``, or None when one may.

    Sound and conservative (the module's docstring says each proof): None means only that
    no proof was found, and the outcome is searched for.
    """
    if outcome == "dead":
        return _no_death(scenario)
    if outcome == "incoherent":
        return _no_incoherence(scenario)
    if outcome == "healed":
        return _no_healing(scenario)
    if not _received(scenario, Track.PHYSICAL) and not _received(scenario, Track.MENTAL):
        return phrase(  # wounded
            N_("no wound is received by the horizon (O2), so the patient is never wounded (G5)")
        )
    return None


def _received(scenario: Scenario, track: Track) -> list[Injury]:
    """The injuries of ``track`` received by the horizon, in the order they happen (O1)."""
    return [
        i
        for i in scenario.injuries
        if i.count > 0 and i.at <= scenario.horizon and i.level.track is track
    ]


def _highest(scenario: Scenario, level: Level, earlier: int) -> Level | None:
    """The gravest level a wound of ``level`` can land at with ``earlier`` wounds held (W1).

    None: it may overflow past the top of its track (a fatal blow, or incoherence). A level is
    full only with its maximum of wounds held, so passing levels ``level``..k needs at least
    the sum of their maxima held, each a wound received earlier on that track.
    """
    current: Level | None = level
    need = scenario.table[level].max
    while current is not None and earlier >= need:
        current = current.higher()
        if current is not None:
            need += scenario.table[current].max
    return current


def _blow_may_end(scenario: Scenario, track: Track) -> bool:
    """Whether a wound received may overflow past the top of ``track`` (W1, B1, M2)."""
    earlier = 0
    for injury in _received(scenario, track):
        earlier += injury.count
        if _highest(scenario, injury.level, earlier - 1) is None:  # the last of the group
            return True
    return False


def _worst_penalties(scenario: Scenario, track: Track, worsens: bool) -> int:
    """The lowest sum of ``track``'s wounds' difficulties a test can meet (B2, M1).

    Each wound received counts at the lowest difficulty (or 0, healed or absent) of the
    levels it may hold: any level of its track when its track may worsen, else those up to
    where it may land (healing only lowers it).
    """
    total = 0
    earlier = 0
    levels = [level for level in Level if level.track is track]
    for injury in _received(scenario, track):
        earlier += injury.count
        top = None if worsens else _highest(scenario, injury.level, earlier - 1)
        held = [level for level in levels if top is None or level.rank <= top.rank]
        worst = min(0, *(scenario.table[level].difficulty for level in held))
        total += injury.count * worst
    return total


def _basic_lowest_margins(scenario: Scenario) -> tuple[int, int] | None:
    """The lowest margins of B4's and B6's healing rolls, or None when unbounded (D2).

    Mental first: its roll (Rs+It, the mental wounds' penalties, B6) decides whether mental
    wounds may worsen, and their penalties then weigh on the physical roll too (M1).
    """
    if scenario.settings.open_roll:  # D2: the roll has no lowest value
        return None
    modifier = scenario.healing.modifier if scenario.healing is not None else 0
    mental_fixed = _worst_penalties(scenario, Track.MENTAL, worsens=False)
    mental_low = WORST_ROLL + scenario.patient.rs_it + mental_fixed + modifier
    mental = _worst_penalties(scenario, Track.MENTAL, worsens=mental_low <= WORSEN_MARGIN)
    physical = _worst_penalties(scenario, Track.PHYSICAL, worsens=False)
    physical_low = WORST_ROLL + scenario.patient.cp_rs + physical + mental + modifier
    return physical_low, mental_low


def _no_death(scenario: Scenario) -> Phrase | None:
    """Why no trial ends dead (W1, S3, X1, B1, B4), or None."""
    if not _received(scenario, Track.PHYSICAL):
        return phrase(
            N_(
                "no physical wound is received by the horizon, and only a physical wound can "
                "kill (W1, S3)"
            )
        )
    if scenario.ruleset is not Ruleset.BASIC or _blow_may_end(scenario, Track.PHYSICAL):
        return None
    lowest = _basic_lowest_margins(scenario)
    if lowest is None or lowest[0] <= WORSEN_MARGIN:
        return None
    return phrase(
        N_(
            "the wounds received never fill every level up to critical, so no blow kills "
            "(B1); and no healing roll can fail by 10 or more (by {n} at worst), so no wound "
            "worsens (B4)"
        ),
        n=max(0, -lowest[0]),
    )


def _no_incoherence(scenario: Scenario) -> Phrase | None:
    """Why no trial ends incoherent (M2, M3, B6), or None."""
    if not _received(scenario, Track.MENTAL):
        return phrase(
            N_(
                "no mental wound is received by the horizon, and only a mental wound can make "
                "the patient incoherent (M2)"
            )
        )
    if _blow_may_end(scenario, Track.MENTAL):
        return None
    if scenario.ruleset is not Ruleset.BASIC:
        return phrase(
            N_(
                "the mental wounds received never fill every level up to psychosis, so no "
                "blow makes the patient incoherent (M2); and under the arpeges rules a mental "
                "wound never worsens (M3)"
            )
        )
    lowest = _basic_lowest_margins(scenario)
    if lowest is None or lowest[1] <= WORSEN_MARGIN:
        return None
    return phrase(
        N_(
            "the mental wounds received never fill every level up to psychosis, so no blow "
            "makes the patient incoherent (M2); and no healing roll of a mental wound can "
            "fail by 10 or more (by {n} at worst), so none worsens (B6)"
        ),
        n=max(0, -lowest[1]),
    )


def _no_healing(scenario: Scenario) -> Phrase | None:
    """Why no trial ends healed (R1, G1, M3, B4, B6), or None."""
    received = [*_received(scenario, Track.PHYSICAL), *_received(scenario, Track.MENTAL)]
    basic = scenario.ruleset is Ruleset.BASIC
    if received and scenario.healing is None and not basic:
        return phrase(
            N_(
                "a wound is received and there is no healer ([healing]), and under the "
                "arpeges rules only a healer's session removes a wound (R1, G1, M3)"
            )
        )
    for injury in received:  # each level up to its own must be rested through
        track = [lvl for lvl in Level if lvl.track is injury.level.track]
        passed = [lvl for lvl in track if lvl.rank <= injury.level.rank]
        level = max(reversed(passed), key=lambda lvl: scenario.table[lvl].heal_period)
        period = scenario.table[level].heal_period  # the longest of them, the gravest
        if period > scenario.horizon:
            physical = level.is_physical
            rules = ("B4" if physical else "B6") if basic else ("R1, G1" if physical else "M3")
            return phrase(
                N_(
                    "the patient receives {wound}, which heals only after a rest of at "
                    "least {key} = {period}, longer than the horizon ({horizon}) ({rules})"
                ),
                wound=Phrase(A_WOUND[injury.level.label]),  # as the trace names it
                key=f"rules.table.{level.label}.heal_period",
                period=format_duration(period),
                horizon=format_duration(scenario.horizon),
                rules=rules,
            )
    return None


__all__ = ["impossible"]
