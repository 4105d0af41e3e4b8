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
- **healed**: under the arpeges rules, only a healer's session removes a wound (R1, G1, M3),
  and a physical wound rests only once first aid has made it stable (A2, A3). A wound goes
  down one level a session (G2, B4), each after a rest of that level's heal period; the
  soonest it can be gone is when its rests can begin (its receipt; for a physical wound
  under the arpeges rules, no sooner than ``first_aid.start`` after the first physical
  wound, R4) plus the rests of every level it passes, one after another, or the longest of
  them when one rest counts for all (G3 ``cumulative``). A wound that cannot be gone by the
  horizon (O2: a session at the horizon still happens) never leaves the patient healed.
"""

from __future__ import annotations

from typing import NamedTuple

from simulator.engine.trace_templates import A_WOUND
from simulator.errors import N_, Phrase, phrase
from simulator.rules.durations import format_clock, format_duration, in_microseconds
from simulator.rules.levels import Level, Track
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
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
    """Why no trial ends healed (A2, A3, R1, R4, G1-G3, M3, B4, B6), or None."""
    received = [*_received(scenario, Track.PHYSICAL), *_received(scenario, Track.MENTAL)]
    basic = scenario.ruleset is Ruleset.BASIC
    if received and scenario.healing is None and not basic:
        return phrase(
            N_(
                "a wound is received and there is no healer ([healing]), and under the "
                "arpeges rules only a healer's session removes a wound (R1, G1, M3)"
            )
        )
    if _received(scenario, Track.PHYSICAL) and scenario.first_aid is None and not basic:
        return phrase(
            N_(
                "a physical wound is received and nobody gives first aid ([first_aid]): it "
                "stays unstable, only first aid makes a wound stable (A2, A3), and a rest "
                "begins only when the state is stable (R1)"
            )
        )
    latest: _Soonest | None = None
    for injury in received:
        soonest = _soonest_healed(scenario, injury)
        if latest is None or soonest.at > latest.at:
            latest = soonest
    if latest is None or latest.at <= in_microseconds(scenario.horizon):
        return None
    return phrase(
        N_(
            "the patient receives {wound} at {at}, which heals at {soonest} at the soonest, "
            "after the horizon ({horizon}): its rests begin at {begin} at the soonest "
            "({why}) and {rests} ({rules})"
        ),
        wound=Phrase(A_WOUND[latest.injury.level.label]),  # as the trace names it
        at=format_clock(latest.injury.at),
        soonest=format_clock(latest.at / 1e6),
        horizon=format_duration(scenario.horizon),
        begin=format_clock(latest.begin / 1e6),
        why=latest.why,
        rests=latest.rests,
        rules=latest.rules,
    )


class _Soonest(NamedTuple):
    """The soonest instant a wound received can be healed, and the proof of it."""

    injury: Injury
    at: float
    """That instant, in whole microseconds (exact: compared with the horizon's)."""
    begin: float
    """The soonest instant its rests may begin counting, in whole microseconds."""
    why: Phrase
    rests: Phrase
    rules: str


def _soonest_healed(scenario: Scenario, injury: Injury) -> _Soonest:
    """The soonest a wound of ``injury`` can be gone (a lower bound, never too late).

    It lands at its level or higher (W1) and goes down one level a session (G2, B4), each
    session of the least grave level present after a rest of that level's heal period
    (R1, M3, B4). A rest of a track's own (M3, B4, B6) starts from zero at each new wound of
    its track and after each session, so the wound's rests follow one another, from its
    receipt. A physical rest under the arpeges rules begins at a stabilisation, at the
    soonest ``first_aid.start`` after the first physical wound (A2, A3); with
    ``rest_after_unstable = "restart"`` one after the wound's receipt (it arrives unstable,
    W2), while ``"resume"`` may count time rested before it (R4). Its rests follow one
    another (``rest_per_level = "fresh"``), or one rest counts for every level
    (``"cumulative"``, G3): then the longest heal period bounds it.
    """
    level = injury.level
    passed = [lvl for lvl in Level if lvl.track is level.track and lvl.rank <= level.rank]
    passed.sort(key=lambda lvl: -lvl.rank)  # the order it heals in: its own level first
    periods = [in_microseconds(scenario.table[lvl].heal_period) for lvl in passed]
    keys = [f"rules.table.{lvl.label}.heal_period" for lvl in passed]
    at = in_microseconds(injury.at)
    own_track = scenario.ruleset is Ruleset.BASIC or not level.is_physical
    if own_track:
        begin, why = (
            at,
            phrase(N_("each new wound of its kind, physical or mental, starts its rest from zero")),
        )
        rules = ("B4" if level.is_physical else "B6") if scenario.ruleset is Ruleset.BASIC else "M3"
    else:
        assert scenario.first_aid is not None, "checked before: no first aid, no rest"
        first = min(i.at for i in _received(scenario, Track.PHYSICAL))
        begin = in_microseconds(first) + in_microseconds(scenario.first_aid.start)
        why = phrase(
            N_("the first physical wound at {first}, then first aid's first attempt {start} later"),
            first=format_clock(first),
            start=format_duration(scenario.first_aid.start),
        )
        settings = scenario.settings
        if settings.rest_after_unstable is RestAfterUnstable.RESTART and at > begin:
            begin, why = (
                at,
                phrase(
                    N_(
                        "it arrives unstable (W2), and the rest after it starts from zero "
                        '(rest_after_unstable = "restart")'
                    )
                ),
            )
        rules = "A2, A3, R1, R4, G1-G3"
        if settings.rest_per_level is RestPerLevel.CUMULATIVE:
            longest = max(range(len(passed)), key=lambda k: periods[k])
            return _Soonest(
                injury,
                begin + periods[longest],
                begin,
                why,
                phrase(
                    N_(
                        "one rest counts for every level it heals (rest_per_level = "
                        '"cumulative"), as long as the longest of their heal periods, '
                        "{key} = {period}"
                    ),
                    key=keys[longest],
                    period=format_duration(scenario.table[passed[longest]].heal_period),
                ),
                rules,
            )
    return _Soonest(
        injury,
        begin + sum(periods),
        begin,
        why,
        phrase(
            N_("it rests once for each level it heals, one rest after another: {rests} ({keys})"),
            rests=" + ".join(format_duration(scenario.table[lvl].heal_period) for lvl in passed),
            keys=", ".join(keys),
        ),
        rules,
    )


__all__ = ["impossible"]
