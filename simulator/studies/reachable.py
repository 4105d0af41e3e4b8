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
  B6; no survival or activity test that can fail, S3, X1): then all its rests down to its
  end come first. A lighter wound received before the graver one counts too where nothing
  but its own session raises it: on a track of its own (M3, B4, B6), or where no survival
  or activity test can fail (else it may worsen as the worst wound, S3, before the graver
  one comes, and both heal together) or before it comes (none can fail with the pain of
  the wounds received by then; or no session of its track can come by then, and a graver
  wound received before it is held: it is never the worst wound).
  A wound that alone fills the top of its track (a maximum of 1) leaves no room: a lighter
  wound worsened up to it goes past the top, which ends the trial (W1, S3, X1), so every
  lighter wound held at its session must be gone by then. Each session ends a whole rest
  of its level's heal period, and a wound received within a rest starts it again from
  zero (a track's own rests, M3, B4, B6; a physical wound under the arpeges rules arrives
  unstable, W2, and with ``rest_after_unstable = "restart"`` the rest after it starts from
  zero, R4): a lighter wound's rest that a graver wound breaks comes whole after it. Where
  nothing worsens a wound held, a wound lighter than one received later fills none of the
  levels that one lands through (W1). A wound that cannot be gone by the horizon (O2: a
  session at the horizon still happens) never leaves the patient healed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from simulator.engine.trace_templates import A_WOUND
from simulator.errors import N_, Phrase, phrase
from simulator.rules.durations import format_clock, format_duration, in_microseconds
from simulator.rules.levels import Level, Track
from simulator.rules.outcome import OUTCOMES
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


def ruled_out(scenario: Scenario) -> list[str]:
    """The outcomes no trial of ``scenario`` can end with, in Q1's order (:func:`impossible`).

    The JSON summary's ``impossible``: where an outcome is proven out of reach, the answer
    says so ("cannot die under these rules") instead of a share of 0% and its interval.
    """
    return [outcome for outcome in OUTCOMES if impossible(scenario, outcome) is not None]


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
    rests: Phrase | str
    rules: str
    first: _First | None = None
    """The session of a lighter wound that must come before this wound's first (G1, M3,
    B5), when it makes this wound heal later than its own rests from ``begin`` would."""
    broken: Injury | None = None
    """The last wound received within one of its rests, which started again after it."""


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
    broken: Injury | None = None
    """The wound received within the rest before its first session, which started it again."""
    gone_broken: Injury | None = None
    """The last wound received within one of its later rests, which started it again."""

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
        rests=_broken_said(
            scenario,
            " + ".join(format_duration(scenario.table[lvl].heal_period) for lvl in below),
            first.gone_broken,
        ),
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
    return _healer_never_fails(scenario, injury) or _nothing_worsens(scenario)


def _healer_never_fails(scenario: Scenario, injury: Injury) -> Phrase | None:
    """Why the healer's test never fails a physical wound of ``injury`` (G1, G4), or None."""
    settings, watch, healing = scenario.settings, scenario.watch, scenario.healing
    if healing is None or settings.open_roll or watch.neglect_probability > 0 or watch.neglect_at:
        return None
    gravest = _gravest_landing(scenario, injury)
    held = [lvl for lvl in _track_levels(injury.level) if gravest and lvl.rank <= gravest.rank]
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


@lru_cache(maxsize=256)
def _nothing_worsens(scenario: Scenario, until: float | None = None) -> Phrase | None:
    """Why no physical wound held ever worsens under the arpeges rules, or None when one may.

    Only a failed test worsens a wound held: a survival test while unstable (S3, on the
    worst wound or a relapse's treated one, G4) or an activity test (X1). Both test Cp+Rs
    plus the pain penalty, the missed-watch penalty and the mental wounds' penalties (S1,
    M1; an activity adds its modifier). Until a first wound worsens, pain is at most the sum
    of the pain of each wound received at the gravest level it may land at (W1, W2, H3:
    recovery only lowers it), the missed-watch penalty at most one for each time listed in
    ``neglect_at`` when no watch is neglected at random (R2, R3), and the mental penalties
    those of the mental wounds at their gravest landing (M3: they never worsen). When D1's
    worst roll passes with all of these, no first worsening can happen, so none ever does.
    With ``until`` (seconds), none before it: only the wounds, listed neglects and
    activities before it count.
    """
    settings, watch = scenario.settings, scenario.watch
    if scenario.ruleset is Ruleset.BASIC or settings.open_roll or watch.neglect_probability > 0:
        return None
    end = scenario.horizon if until is None else until
    pain = mental = 0
    for track in Track:
        earlier = 0
        for injury in _received(scenario, track):
            if until is not None and injury.at >= until:
                continue  # received at ``until`` or after
            earlier += injury.count
            top = _highest(scenario, injury.level, earlier - 1)  # the group's last lands highest
            levels = [
                lvl for lvl in _track_levels(injury.level) if top is None or lvl.rank <= top.rank
            ]
            landed = [lvl for lvl in levels if lvl.rank >= injury.level.rank]
            pain += injury.count * max(scenario.table[lvl].pain for lvl in landed)
            if track is Track.MENTAL:  # M1, as _worst_penalties counts them
                worst = min(0, *(scenario.table[lvl].difficulty for lvl in levels))
                mental += injury.count * worst
    missed = sum(1 for at in watch.neglect_at if until is None or at < until)
    activities = [a.modifier for a in scenario.activities if a.at <= end and a.at != until]
    low = WORST_ROLL + scenario.patient.cp_rs - pain - missed + mental + min([0, *activities])
    if low < (0 if settings.tie_succeeds else 1):
        return None
    return phrase(
        N_(
            "no survival or activity test can fail (a margin of {n} at worst: pain {pain} at "
            "most, {missed} watches neglected at most), so no wound ever worsens (S3, X1)"
        ),
        n=low,
        pain=pain,
        missed=missed,
    )


def _breaks(scenario: Scenario, level: Level) -> list[Injury]:
    """The injuries that start every rest of ``level``'s track again from zero, in time order.

    A rest of a track's own (M3, B4, B6) starts from zero at each new wound of its track. A
    physical rest under the arpeges rules ends when a physical wound arrives, unstable (W2,
    R4), and with ``rest_after_unstable = "restart"`` the next starts from zero; with
    ``"resume"`` the time rested before counts, and none is listed.
    """
    own_track = scenario.ruleset is Ruleset.BASIC or not level.is_physical
    if not own_track and scenario.settings.rest_after_unstable is not RestAfterUnstable.RESTART:
        return []
    return sorted(_received(scenario, level.track), key=lambda injury: injury.at)


def _fit(start: float, period: float, breaks: list[Injury]) -> tuple[float, Injury | None]:
    """The soonest session after a whole rest of ``period`` that begins at ``start`` or later.

    Microseconds. A rest that an injury of ``breaks`` falls within (after its first instant,
    up to its last: O1 resolves injuries before sessions) starts again from zero after it.
    Also which injury pushed the session last, if one did.
    """
    session, broken = start + period, None
    for injury in breaks:
        at = in_microseconds(injury.at)
        if session - period < at <= session:
            session, broken = at + period, injury
    return session, broken


def _break_why(scenario: Scenario, level: Level) -> Phrase:
    """Why a wound received starts the rests of ``level``'s track again from zero."""
    if scenario.ruleset is Ruleset.BASIC or not level.is_physical:
        return phrase(
            N_("each new wound of its kind, physical or mental, starts its rest from zero")
        )
    return phrase(
        N_(
            "it arrives unstable (W2), and the rest after it starts from zero "
            '(rest_after_unstable = "restart")'
        )
    )


def _broken_said(scenario: Scenario, rests: Phrase | str, broken: Injury | None) -> Phrase | str:
    """``rests``, and the wound received that starts one of them again from zero, if any."""
    if broken is None:
        return rests
    return phrase(
        N_(
            "{rests}; {wound} received at {at} falls within one of them, which starts "
            "again from zero after it ({why})"
        ),
        rests=rests,
        wound=Phrase(A_WOUND[broken.level.label]),
        at=format_clock(broken.at),
        why=_break_why(scenario, broken.level),
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
    if first.broken is not None:
        said = phrase(
            N_(
                "{wound} received at {at} has its first session at {when} at the soonest "
                "({breaker} received at {broken} falls within any rest before it, which "
                "starts again from zero after it ({why}), then a rest of {period}, {key})"
            ),
            wound=wound,
            at=format_clock(first.injury.at),
            when=format_clock(first.at / 1e6),
            breaker=Phrase(A_WOUND[first.broken.level.label]),
            broken=format_clock(first.broken.at),
            why=_break_why(scenario, first.broken.level),
            period=period,
            key=key,
        )
        if first.before is None:
            return said
        return phrase(
            N_("{earlier}, then {later}"),
            earlier=_sessions_said(scenario, first.before),
            later=said,
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
    received = _received(scenario, injury.level.track)
    index = next(k for k, other in enumerate(received) if other is injury)
    return _landings(scenario, injury.level.track)[index][0]


@lru_cache(maxsize=64)
def _landings(scenario: Scenario, track: Track) -> tuple[tuple[Level | None, Level | None], ...]:
    """The gravest levels the first and the last wound of each injury of ``track`` land at.

    In the order of :func:`_received`; None: past the top (W1). Each wound received before
    may fill a level met, unless it lands lighter than the injury's level and stays so until
    the injury comes: where no wound held ever worsens (:func:`_steady`), or where nothing
    may worsen it by then (:func:`_unraised_until`).
    """
    steady = _steady(scenario, track)
    received = _received(scenario, track)
    found: list[tuple[Level | None, Level | None]] = []
    for injury in received:
        earlier = 0
        for other, (_, last) in zip(received, found, strict=False):
            lighter = last is not None and last.rank < injury.level.rank
            if lighter and (steady or _unraised_until(scenario, other, last, injury.at)):
                continue  # it is lighter than the injury's level when the injury comes
            earlier += other.count
        found.append(
            (
                _highest(scenario, injury.level, earlier),
                _highest(scenario, injury.level, earlier + injury.count - 1),
            )
        )
    return tuple(found)


def _unraised_until(
    scenario: Scenario, injury: Injury, landing: Level | None, until: float
) -> bool:
    """Whether the wounds of ``injury``, landed at ``landing`` at the gravest, stay so by then.

    Until ``until`` (seconds; what happens at that instant after its injuries aside, O1). A
    session of their track must come first for a failed one to worsen a wound (G4, B4, B6),
    and none can before ``until`` when :func:`_soonest_session` is no sooner. Under the
    arpeges rules, a physical wound also worsens when a survival test fails with it the worst
    wound (S3): never while a graver wound received no later is held (with no session, none
    heals), nor where no test before ``until`` can fail (:func:`_nothing_worsens`); or at
    an activity (X1), which tests grave and critical wounds only. Mental wounds under the
    arpeges rules never worsen (M3).
    """
    if landing is None:
        return False
    if not landing.is_physical and scenario.ruleset is not Ruleset.BASIC:
        return True
    if _soonest_session(scenario, landing.track) < in_microseconds(until):
        return False
    if scenario.ruleset is Ruleset.BASIC:
        return True
    if _nothing_worsens(scenario, until) is not None:
        return True  # no test before ``until`` can fail
    if landing.rank > 0 and any(a.at < until for a in scenario.activities):
        return False
    return any(
        other is not injury and other.at <= injury.at and other.level.rank > landing.rank
        for other in _received(scenario, Track.PHYSICAL)
    )


def _soonest_session(scenario: Scenario, track: Track) -> float:
    """The soonest any session of ``track`` may come, in microseconds (inf: none ever).

    A whole rest of the shortest heal period of its levels (:func:`_fit`) from the soonest
    its rests may begin: the first wound of the track received, and for a physical wound
    under the arpeges rules first aid's first attempt after it (A2, A3, R1, R4, M3, B4).
    """
    received = _received(scenario, track)
    own_track = scenario.ruleset is Ruleset.BASIC or track is Track.MENTAL
    if not received or (not own_track and scenario.first_aid is None):
        return float("inf")
    begin = in_microseconds(received[0].at)
    if not own_track:
        assert scenario.first_aid is not None
        begin += in_microseconds(scenario.first_aid.start)
    period = min(
        in_microseconds(scenario.table[lvl].heal_period) for lvl in _track_levels(received[0].level)
    )
    return _fit(begin, period, _breaks(scenario, received[0].level))[0]


def _steady(scenario: Scenario, track: Track) -> bool:
    """Whether no wound of ``track`` ever worsens once held: only landings (W1) raise levels.

    Mental wounds under the arpeges rules never worsen (M3); physical ones when no survival
    or activity test can fail (:func:`_nothing_worsens`); under the basic ruleset when no
    healing roll can fail by 10 or more (B4, B6).
    """
    if scenario.ruleset is Ruleset.BASIC:
        lowest = _basic_lowest_margins(scenario)
        return lowest is not None and lowest[track is Track.MENTAL] > WORSEN_MARGIN
    return track is Track.MENTAL or _nothing_worsens(scenario) is not None


def _lighter_first(
    scenario: Scenario, injury: Injury, level: Level, session: float
) -> list[tuple[Injury, bool]]:
    """The wounds that must have had a session before one that treats ``injury`` at ``level``.

    A session treats the wounds of the least grave level present (G1, M3, B5): a wound
    present and lighter than ``level`` then would be treated instead. A wound of the same
    track received no sooner than ``injury`` and by the soonest that session can come
    (``session``, microseconds) is present at it, unless a session has treated it before:
    its gravest landing (W1) is lighter than ``level``, and nothing else raises it first.
    Only a failed session (G4, B4) worsens the wound it treats; a survival test worsens the
    worst wound (S3), never it while ``injury``, graver, is held; rough activity (X1)
    worsens grave and critical wounds, so a lighter wound that may land grave or worse
    counts only in a scenario without activity. A wound received before ``injury`` is held
    at its receipt too unless a session treated it (it is then counted, its session sooner),
    but before it a failed survival test may worsen it as the worst wound (S3): it counts
    only where nothing worsens it but a session of its own, on a track of its own (M3, B4,
    B6), where no survival or activity test can fail (:func:`_nothing_worsens`), or where
    nothing may worsen it before ``injury`` comes (:func:`_unraised_until`). Where ``injury``
    fills the top of its track (:func:`_full_top`), no wound worsens up to it while it is
    held: a wound received before it and worsened to the top makes its arrival end the
    trial, one worsened less stays lighter. Each wound found comes with whether it may have
    been worsened before its first session (received before ``injury``).
    """
    physical_arpeges = level.is_physical and scenario.ruleset is not Ruleset.BASIC
    steady = physical_arpeges and _nothing_worsens(scenario) is not None
    full = _full_top(scenario, level)
    active = physical_arpeges and any(a.at <= scenario.horizon for a in scenario.activities)
    active = active and not steady and not full  # no activity worsens it up to ``level``
    found = []
    for other in _received(scenario, level.track):
        if other is injury or in_microseconds(other.at) > session:
            continue
        gravest = _gravest_landing(scenario, other)
        before = other.at < injury.at and physical_arpeges and not steady
        raised = before and not _unraised_until(scenario, other, gravest, injury.at)
        if raised and not full:
            continue  # a survival test may worsen it to ``level`` before ``injury`` comes
        if gravest is None or gravest.rank >= level.rank:
            continue  # it may land as grave as the session's level, or past the top
        if active and gravest.rank > 0:
            continue  # an activity may worsen it to the session's level
        found.append((other, raised))
    return found


def _first_session(
    scenario: Scenario, injury: Injury, top: Injury | None = None, raised: bool = False
) -> _First:
    """The soonest session that first treats a wound of ``injury`` (a lower bound).

    The wound is then at a level from its own to its gravest landing (W1; only a failed
    session raises it further, after this one), and the rest before lasts that level's
    heal period (R1, G3 ``fresh``, M3, B4). That rest begins no sooner than the wound's
    rests may (:func:`_rests_begin`), nor before the first session of each lighter wound
    that must come first (:func:`_lighter_first`): after a session, a rest starts from zero.
    Nor before the wound's receipt, which is later when time rested before it counts (R4
    ``"resume"``). Asked for a wound that must be cleared before a session of ``top``, a
    wound at the top of its track that fills it (:func:`_full_top`), it must be gone; one
    that may have been ``raised`` before may be at any level of its track then.
    """
    level = _first_level(scenario, injury, raised)
    period = in_microseconds(scenario.table[level].heal_period)
    begin, why, _ = _rests_begin(scenario, injury)
    breaks = _breaks(scenario, injury.level)
    start, before = _lighter_cleared(scenario, injury, injury.level, begin, period)
    session, broken = _fit(start, period, breaks)
    received = in_microseconds(injury.at)
    found = _First(injury, session, level, begin, why, before, broken=broken)
    if received > session:  # time rested before it counted (R4 "resume")
        found = _First(injury, received, level, received, why, None, on_receipt=True)
    never = None if injury.level.rank == 0 else _never_raised(scenario, injury)
    if never is None and top is not None and injury.level.rank > 0:
        never = phrase(
            N_(
                "{wound} fills the top level, whose maximum is {max}, while held: a wound "
                "worsened up to it would go past it, which ends the trial (W1, S3, M2)"
            ),
            wound=Phrase(A_WOUND[top.level.label]),
            max=scenario.table[top.level].max,
        )
    if never is None:  # a least grave wound is gone at its first session, or else raised
        return found
    gone, gone_broken = found.at, None
    for lvl in reversed(_track_levels(injury.level)[: injury.level.rank]):
        gone, pushed = _fit(gone, in_microseconds(scenario.table[lvl].heal_period), breaks)
        gone_broken = pushed or gone_broken
    return found._replace(gone=gone, never_raised=never, gone_broken=gone_broken)


def _first_level(scenario: Scenario, injury: Injury, raised: bool = False) -> Level:
    """The level of shortest heal period a wound of ``injury`` may be at its first session.

    From its own level to its gravest landing (W1): :func:`_first_session` is asked only of
    a wound that must have it before a graver wound's session (:func:`_lighter_first`), so
    the graver one is held from the later of their receipts on, and no survival test worsens
    it as the worst wound (S3); nor as a relapse's treated wound before its first session
    (G4); nor an activity (X1: one counts only where none may worsen it to that level).
    Unless it was received before the graver one and may have been ``raised`` by then
    (:func:`_lighter_first`): then to the top.
    """
    gravest = None if raised else _gravest_landing(scenario, injury)
    levels = [
        lvl
        for lvl in _track_levels(injury.level)
        if lvl.rank >= injury.level.rank and (gravest is None or lvl.rank <= gravest.rank)
    ]
    return min(levels, key=lambda lvl: in_microseconds(scenario.table[lvl].heal_period))


def _full_top(scenario: Scenario, level: Level) -> bool:
    """Whether a wound at ``level`` fills it alone, the top of its track (maximum 1 or less).

    While it is held there, another wound worsened up to that level goes past the top (W1,
    S3, X1, B4, B6): death or incoherence, the end of the trial (H6, M2). A lighter wound
    held at its session is then gone before it, whatever a failed session does.
    """
    return level.higher() is None and scenario.table[level].max <= 1


def _lighter_cleared(
    scenario: Scenario, injury: Injury, level: Level, begin: float, period: float
) -> tuple[float, _First | None]:
    """The soonest a rest before a session treating ``injury`` at ``level`` may begin.

    No sooner than ``begin``, nor than each lighter wound that must come first is cleared
    (:func:`_lighter_first`, :attr:`_First.cleared`): also which of them clears the latest,
    if it is later. The wounds that must come first are those received by the soonest
    that session can come, a rest of ``period`` (microseconds) after, and no wound of
    :func:`_breaks` within it (:func:`_fit`): each one found may make it later, and find more.
    """
    breaks = _breaks(scenario, level)
    top = injury if _full_top(scenario, level) else None
    start, before, counted = begin, None, 0
    while True:
        found = _lighter_first(scenario, injury, level, _fit(start, period, breaks)[0])
        if len(found) == counted:
            return start, before
        counted = len(found)
        for other, raised in found:
            first = _first_session(scenario, other, top, raised)
            if first.cleared > start:
                start, before = first.cleared, first


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
    breaks = _breaks(scenario, level)
    if not own_track and scenario.settings.rest_per_level is RestPerLevel.CUMULATIVE:
        longest = max(range(len(passed)), key=lambda k: periods[k])
        at, broken = _fit(begin, periods[longest], breaks)  # that level's session ends it
        said = phrase(
            N_(
                "one rest counts for every level it heals (rest_per_level = "
                '"cumulative"), as long as the longest of their heal periods, '
                "{key} = {period}"
            ),
            key=keys[longest],
            period=format_duration(scenario.table[passed[longest]].heal_period),
        )
        return _Soonest(injury, at, begin, why, _broken_said(scenario, said, broken), rules)
    # the session at its own level, whichever comes first: a lighter wound held then is
    # cleared before it as before its first (G1), the wound held at that level or graver
    start, first = _lighter_cleared(scenario, injury, level, begin, periods[0])
    at, broken = start, None
    for period in periods:  # each session after a whole rest of its level (R4 "restart")
        at, pushed = _fit(at, period, breaks)
        broken = pushed or broken
    said = phrase(
        N_("it rests once for each level it heals, one rest after another: {rests} ({keys})"),
        rests=" + ".join(format_duration(scenario.table[lvl].heal_period) for lvl in passed),
        keys=", ".join(keys),
    )
    return _Soonest(
        injury, at, begin, why, _broken_said(scenario, said, broken), rules, first, broken
    )


__all__ = ["impossible", "ruled_out", "soonest_healed"]
