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
  them when one rest counts for all (G3 ``cumulative``). Where rests follow one another
  (G3 ``fresh``, and a track's own rests, M3, B4), a session treats only the wounds of the
  least grave level present (G1, M3, B5): the first session of a graver wound comes after a
  session that treats each lighter wound held then, a rest of the lighter one's heal period
  more. That counts only a wound that nothing but a failed session of its own can raise to
  the graver level (W1's landing, S3, X1 ruled out), and only its first session, not its
  whole healing (the failed one, G4 or B4, might raise it instead), unless no failed
  session can raise it either (M3; a healer who cannot fail, G4; no roll failed by 10, B4,
  B6): then all its rests down to its end come first. A wound that cannot be
  gone by the horizon (O2: a session at the horizon still happens) never leaves the
  patient healed.
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
    latest = _latest_healed(scenario)
    if latest is None or latest.at <= in_microseconds(scenario.horizon):
        return None
    if latest.first is not None:  # a lighter wound's session must come before its first
        return phrase(
            N_(
                "the patient receives {wound} at {at}, which heals at {soonest} at the "
                "soonest, after the horizon ({horizon}): a session treats only the wounds of "
                "the least grave level present ({least}), so before its first session, "
                "{sessions}; then {rests} ({rules})"
            ),
            wound=Phrase(A_WOUND[latest.injury.level.label]),
            at=format_clock(latest.injury.at),
            soonest=format_clock(latest.at / 1e6),
            horizon=format_duration(scenario.horizon),
            least=_least_rule(scenario, latest.injury.level),
            sessions=_sessions_said(scenario, latest.first),
            rests=latest.rests,
            rules=latest.rules,
        )
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


def soonest_healed(scenario: Scenario) -> float | None:
    """The bound of the proof for ``healed``: no trial heals sooner, in seconds.

    None: no wound is received by the horizon, or none can rest at all (under the arpeges
    rules, without a healer, or a physical wound without first aid: :func:`impossible`
    says so).
    """
    if scenario.ruleset is not Ruleset.BASIC and (
        scenario.healing is None
        or (scenario.first_aid is None and _received(scenario, Track.PHYSICAL))
    ):
        return None
    latest = _latest_healed(scenario)
    return None if latest is None else latest.at / 1e6


def _latest_healed(scenario: Scenario) -> _Soonest | None:
    """The wound received by the horizon that heals the latest at the soonest, and when."""
    latest: _Soonest | None = None
    for injury in [*_received(scenario, Track.PHYSICAL), *_received(scenario, Track.MENTAL)]:
        soonest = _soonest_healed(scenario, injury)
        if latest is None or soonest.at > latest.at:
            latest = soonest
    return latest


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
    first: _First | None = None
    """The session of a lighter wound that must come before this wound's first (G1, M3,
    B5), when it makes this wound heal later than its own rests from ``begin`` would."""


class _First(NamedTuple):
    """The soonest first session of a wound (its first step down), and the proof of it."""

    injury: Injury
    at: float
    """That instant, in whole microseconds."""
    level: Level
    """The level whose heal period the rest before it lasts (the least of those it may be at)."""
    begin: float
    """The soonest instant its rests may begin counting, in whole microseconds."""
    why: Phrase
    before: _First | None
    """The session of a lighter wound that must come before it, when that makes it later."""
    on_receipt: bool = False
    """Whether it may come on the wound's receipt, after time rested before it (R4)."""
    gone: float | None = None
    """The soonest the wound is gone, in whole microseconds, where no failed session can
    raise it (:func:`_never_raised`): then it must be gone, not only treated once."""
    never_raised: Phrase | None = None
    """Why no failed session raises it."""

    @property
    def cleared(self) -> float:
        """The soonest a graver wound's session may follow: this one gone, or treated once."""
        return self.at if self.gone is None else self.gone


def _least_rule(scenario: Scenario, level: Level) -> str:
    """The rule that a session treats only the wounds of the least grave level present."""
    if scenario.ruleset is Ruleset.BASIC:
        return "B4, B5" if level.is_physical else "B6"
    return "G1" if level.is_physical else "M3"


def _sessions_said(scenario: Scenario, first: _First) -> Phrase:
    """The lighter wounds' sessions that come first, the earliest first."""
    said = _first_said(scenario, first)
    if first.gone is None:
        return said
    below = [lvl for lvl in _track_levels(first.injury.level) if lvl.rank < first.injury.level.rank]
    below.sort(key=lambda lvl: -lvl.rank)
    return phrase(
        N_("{session}, and it is gone at {gone} at the soonest ({rests} more, {keys}: {reason})"),
        session=said,
        gone=format_clock(first.gone / 1e6),
        rests=" + ".join(format_duration(scenario.table[lvl].heal_period) for lvl in below),
        keys=", ".join(f"rules.table.{lvl.label}.heal_period" for lvl in below),
        reason=first.never_raised,
    )


def _track_levels(level: Level) -> list[Level]:
    """The levels of ``level``'s track, the least grave first."""
    return [lvl for lvl in Level if lvl.track is level.track]


def _never_raised(scenario: Scenario, injury: Injury) -> Phrase | None:
    """Why no failed session can raise a wound of ``injury``, or None when one may.

    A failed session raises only the wound it treats: under the arpeges rules a physical
    one through the relapse it opens (G4, then S3 on the treated wound), never a mental
    one (M3); under the basic ruleset at a roll failed by 10 or more (B4, B6). A healer
    whose test cannot fail (D1's worst roll, no open roll, no watch ever neglected so no
    missed-watch penalty) opens no relapse.
    """
    level = injury.level
    if scenario.ruleset is Ruleset.BASIC:
        lowest = _basic_lowest_margins(scenario)
        if lowest is None:
            return None
        low = lowest[0] if level.is_physical else lowest[1]
        if low <= WORSEN_MARGIN:
            return None
        return phrase(
            N_(
                "no healing roll can fail by 10 or more (by {n} at worst), so none worsens ({rule})"
            ),
            n=max(0, -low),
            rule="B4" if level.is_physical else "B6",
        )
    if not level.is_physical:
        return phrase(N_("a failed session never worsens a mental wound (M3)"))
    settings, watch, healing = scenario.settings, scenario.watch, scenario.healing
    if healing is None or settings.open_roll or watch.neglect_probability > 0 or watch.neglect_at:
        return None
    gravest = _gravest_landing(scenario, injury)
    held = [lvl for lvl in _track_levels(level) if gravest and lvl.rank <= gravest.rank]
    hardest = min((scenario.table[lvl].difficulty for lvl in held), default=None)
    if hardest is None:
        return None
    low = WORST_ROLL + healing.level + hardest + healing.modifier
    if low < (0 if settings.tie_succeeds else 1):
        return None
    return phrase(
        N_(
            "the healer's test never fails it (a margin of {n} at worst, and no watch is "
            "ever neglected), so it never relapses (G4)"
        ),
        n=low,
    )


def _first_said(scenario: Scenario, first: _First) -> Phrase:
    """A lighter wound's first session, and those that come before it."""
    level = first.level
    period = format_duration(scenario.table[level].heal_period)
    key = f"rules.table.{level.label}.heal_period"
    wound = Phrase(A_WOUND[first.injury.level.label])
    if first.on_receipt:
        return phrase(
            N_(
                "{wound} received at {at} has its first session on its receipt at the "
                'soonest, the time rested before it counted (rest_after_unstable = "resume")'
            ),
            wound=wound,
            at=format_clock(first.injury.at),
        )
    if first.before is None:
        return phrase(
            N_(
                "{wound} received at {at} has its first session at {when} at the soonest "
                "(its rests begin at {begin} at the soonest ({why}), then a rest of {period}, "
                "{key})"
            ),
            wound=wound,
            at=format_clock(first.injury.at),
            when=format_clock(first.at / 1e6),
            begin=format_clock(first.begin / 1e6),
            why=first.why,
            period=period,
            key=key,
        )
    return phrase(
        N_(
            "{earlier}, then {wound} received at {at} has its first at {when} at the soonest "
            "(a rest of {period} after that one, {key})"
        ),
        earlier=_sessions_said(scenario, first.before),
        wound=wound,
        at=format_clock(first.injury.at),
        when=format_clock(first.at / 1e6),
        period=period,
        key=key,
    )


def _rests_begin(scenario: Scenario, injury: Injury) -> tuple[float, Phrase, str]:
    """The soonest instant a wound's rests may begin counting (microseconds), why, the rules.

    A rest of a track's own (M3, B4, B6) starts from zero at each new wound of its track
    and after each session: from the wound's receipt. A physical rest under the arpeges
    rules begins at a stabilisation, at the soonest ``first_aid.start`` after the first
    physical wound (A2, A3); with ``rest_after_unstable = "restart"`` one after the wound's
    receipt (it arrives unstable, W2), while ``"resume"`` may count time rested before it
    (R4).
    """
    level = injury.level
    at = in_microseconds(injury.at)
    if scenario.ruleset is Ruleset.BASIC or not level.is_physical:
        why = phrase(
            N_("each new wound of its kind, physical or mental, starts its rest from zero")
        )
        rules = ("B4" if level.is_physical else "B6") if scenario.ruleset is Ruleset.BASIC else "M3"
        return at, why, rules
    assert scenario.first_aid is not None, "checked before: no first aid, no rest"
    first = min(i.at for i in _received(scenario, Track.PHYSICAL))
    begin = in_microseconds(first) + in_microseconds(scenario.first_aid.start)
    why = phrase(
        N_("the first physical wound at {first}, then first aid's first attempt {start} later"),
        first=format_clock(first),
        start=format_duration(scenario.first_aid.start),
    )
    if scenario.settings.rest_after_unstable is RestAfterUnstable.RESTART and at > begin:
        begin, why = (
            at,
            phrase(
                N_(
                    "it arrives unstable (W2), and the rest after it starts from zero "
                    '(rest_after_unstable = "restart")'
                )
            ),
        )
    return begin, why, "A2, A3, R1, R4, G1-G3"


def _gravest_landing(scenario: Scenario, injury: Injury) -> Level | None:
    """The gravest level the first wound of ``injury`` can land at (W1); None: past the top."""
    earlier = 0
    for other in _received(scenario, injury.level.track):
        if other is injury:
            break
        earlier += other.count
    return _highest(scenario, injury.level, earlier)


def _lighter_first(
    scenario: Scenario, injury: Injury, level: Level, session: float
) -> list[Injury]:
    """The wounds that must have had a session before one that treats ``injury`` at ``level``.

    A session treats the wounds of the least grave level present (G1, M3, B5): a wound
    present and lighter than ``level`` then would be treated instead. A wound of the same
    track received no sooner than ``injury`` and by the soonest that session can come
    (``session``, microseconds) is present at it, unless a session has treated it before:
    its gravest landing (W1) is lighter than ``level``, and nothing else raises it first.
    Only a failed session (G4, B4) worsens the wound it treats; a survival test worsens the
    worst wound (S3), never it while ``injury``, graver, is held; rough activity (X1)
    worsens grave and critical wounds, so a lighter wound that may land grave or worse
    counts only in a scenario without activity.
    """
    physical_arpeges = level.is_physical and scenario.ruleset is not Ruleset.BASIC
    active = physical_arpeges and any(a.at <= scenario.horizon for a in scenario.activities)
    found = []
    for other in _received(scenario, level.track):
        if other is injury or other.at < injury.at or in_microseconds(other.at) > session:
            continue
        gravest = _gravest_landing(scenario, other)
        if gravest is None or gravest.rank >= level.rank:
            continue  # it may land as grave as the session's level, or past the top
        if active and gravest.rank > 0:
            continue  # an activity may worsen it to the session's level
        found.append(other)
    return found


def _first_session(scenario: Scenario, injury: Injury) -> _First:
    """The soonest session that first treats a wound of ``injury`` (a lower bound).

    The wound is then at a level from its own to its gravest landing (W1; only a failed
    session raises it further, after this one), and the rest before lasts that level's
    heal period (R1, G3 ``fresh``, M3, B4). That rest begins no sooner than the wound's
    rests may (:func:`_rests_begin`), nor before the first session of each lighter wound
    that must come first (:func:`_lighter_first`): after a session, a rest starts from zero.
    Nor before the wound's receipt, which is later when time rested before it counts (R4
    ``"resume"``).
    """
    gravest = _gravest_landing(scenario, injury)
    levels = [
        lvl
        for lvl in Level
        if lvl.track is injury.level.track
        and injury.level.rank <= lvl.rank <= (gravest.rank if gravest is not None else 2)
    ]
    level = min(levels, key=lambda lvl: in_microseconds(scenario.table[lvl].heal_period))
    period = in_microseconds(scenario.table[level].heal_period)
    begin, why, _ = _rests_begin(scenario, injury)
    start, before = begin, None
    for other in _lighter_first(scenario, injury, injury.level, begin + period):
        first = _first_session(scenario, other)
        if first.cleared > start:
            start, before = first.cleared, first
    received = in_microseconds(injury.at)
    found = _First(injury, start + period, level, begin, why, before)
    if received > start + period:  # time rested before it counted (R4 "resume")
        found = _First(injury, received, level, received, why, None, on_receipt=True)
    never = None if injury.level.rank == 0 else _never_raised(scenario, injury)
    if never is None:  # a least grave wound is gone at its first session, or else raised
        return found
    below = sum(
        in_microseconds(scenario.table[lvl].heal_period)
        for lvl in _track_levels(injury.level)
        if lvl.rank < injury.level.rank
    )
    return found._replace(gone=found.at + below, never_raised=never)


def _soonest_healed(scenario: Scenario, injury: Injury) -> _Soonest:
    """The soonest a wound of ``injury`` can be gone (a lower bound, never too late).

    It lands at its level or higher (W1) and goes down one level a session (G2, B4), each
    session of the least grave level present after a rest of that level's heal period
    (R1, M3, B4), from the soonest its rests may begin (:func:`_rests_begin`). Its rests
    follow one another (``rest_per_level = "fresh"``, and always on a track's own rests),
    or one rest counts for every level (``"cumulative"``, G3): then the longest heal period
    bounds it. With rests that follow one another, its first session at its own level also
    comes after the first session of each lighter wound present then (G1, M3, B5:
    :func:`_lighter_first`), which adds that wound's rest to its own.
    """
    level = injury.level
    passed = [lvl for lvl in Level if lvl.track is level.track and lvl.rank <= level.rank]
    passed.sort(key=lambda lvl: -lvl.rank)  # the order it heals in: its own level first
    periods = [in_microseconds(scenario.table[lvl].heal_period) for lvl in passed]
    keys = [f"rules.table.{lvl.label}.heal_period" for lvl in passed]
    begin, why, rules = _rests_begin(scenario, injury)
    own_track = scenario.ruleset is Ruleset.BASIC or not level.is_physical
    if not own_track and scenario.settings.rest_per_level is RestPerLevel.CUMULATIVE:
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
    start, first = begin, None
    for other in _lighter_first(scenario, injury, level, begin + periods[0]):
        before = _first_session(scenario, other)
        if before.cleared > start:
            start, first = before.cleared, before
    return _Soonest(
        injury,
        start + sum(periods),
        begin,
        why,
        phrase(
            N_("it rests once for each level it heals, one rest after another: {rests} ({keys})"),
            rests=" + ".join(format_duration(scenario.table[lvl].heal_period) for lvl in passed),
            keys=", ".join(keys),
        ),
        rules,
        first,
    )


__all__ = ["impossible", "soonest_healed"]
