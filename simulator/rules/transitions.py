"""Every transition of RULES.md as a small pure function over a :class:`Patient`.

Nothing here knows about time or SimPy: the engine decides *when*, these functions decide
*what*. Each function names its rule id; ``docs/rules.md`` maps every id to its function.
Functions that need a roll take a :class:`~simulator.rules.dice.Dice`; the others are plain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulator.rules import counts, rows, scalar
from simulator.rules.dice import Dice
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Patient, Status, Wound, room, sealed
from simulator.rules.wound_names import describe_wounds as describe_wounds
from simulator.rules.wound_names import pain_times_name, wounds_name

LEVELS = tuple(Level)
"""A stored level's :class:`Level`, by value."""

Modifiers = list[tuple[str, float]]
"""Named modifiers of a test; ints, except pain with fractions (P1)."""


@dataclass(frozen=True, slots=True)
class Blow:
    """What a new wound (W1-W2) or an aggravation (S3, X1, B4) did.

    Attributes:
        start: The level the wound was (aggravation) or would have been (new wound).
        final: The level it ended at, or ``None`` when the blow was fatal (or drove the
            patient incoherent, M2).
        pain: Pain points received (W2, S3); 0 when fatal or without pain (B2).
        uid: The wound's uid (``-1`` when fatal on receipt).
        treated: True when a failed survival test chose the treated wound of a relapse (G4)
            rather than the worst one (S3).
    """

    start: Level
    final: Level | None
    pain: int
    uid: int
    treated: bool = False

    @property
    def fatal(self) -> bool:
        """Past the top of the track: dead (physical) or incoherent (mental)."""
        return self.final is None


def _out_of_play(level: Level) -> Status:
    """H6, M2: past the top of the physical track dead, of the mental track incoherent."""
    return Status.INCOHERENT if rows.is_mental(int(level)) else Status.DEAD


def overflow(patient: Patient, level: Level, exclude_uid: int = -1) -> Level | None:
    """W1: while the patient already holds the maximum of ``level``, go up one level.

    Args:
        patient: The patient before the blow.
        level: The level the wound would have.
        exclude_uid: A wound not to count (the one that is worsening).

    Returns:
        The final level, or ``None`` past the top level of the track (W1 fatal blow, M2).
    """
    final = patient.kept(
        ("W1", level, exclude_uid),
        lambda: rows.overflow(patient.w, patient.size, patient.tab, int(level), exclude_uid),
    )
    return None if final == rows.NO_WOUND else LEVELS[final]


def receive_wound(
    patient: Patient, level: Level, *, with_pain: bool = True, stable: bool = False
) -> tuple[Patient, Blow]:
    """W1-W2 (and M1-M2, B1): receive a wound of ``level``.

    The wound climbs levels while the one it lands on is full (W1); past the top it is fatal
    (physical) or makes the patient incoherent (mental, M2). Physical wounds arrive unstable,
    mental ones stable (M3). Pain rises by the pain of the final level (W2, H3), unless the
    ruleset has no pain (B2). The faint checks of W3 are the caller's next step.

    Args:
        patient: The patient before the blow.
        level: The level of the blow.
        with_pain: False for the basic ruleset, which has no pain (B2).
        stable: True for the basic ruleset, which has no stability (B3).
    """
    final = overflow(patient, level)
    if final is None:
        return patient.evolve(status=_out_of_play(level)), Blow(level, None, 0, -1)
    uid = patient.next_uid
    pain = int(rows.blow_pain(patient.tab, int(final), not with_pain))

    def add() -> np.ndarray:
        w = room(patient.rows, 1)
        rows.add(w, patient.size, int(final), rows.arrives_stable(int(final), stable), uid)
        return sealed(w)

    changed = patient.evolve(
        wounds=patient.kept(("W2", final, stable, uid), add),
        pain=patient.pain + pain,
        pain_received=patient.pain_received + pain,
        next_uid=uid + 1,
    )
    return changed, Blow(level, final, pain, uid)


def worsen(
    patient: Patient, uid: int, *, with_pain: bool = True, stable: bool = False
) -> tuple[Patient, Blow]:
    """S3 (also X1, B4): the wound ``uid`` goes up one level, with W1's overflow.

    The wound becomes unstable (physical) and pain rises by the pain of its new level, as
    for a new wound; mortality follows the level (H2). Past the top level it is fatal.
    ``with_pain`` and ``stable`` are as in :func:`receive_wound`.
    """
    i = patient.index(uid)
    if i == rows.NO_WOUND:
        raise ValueError(f"no current wound with uid {uid}")
    level = LEVELS[patient.w[rows.W_LEVEL, i]]
    final = patient.kept(("S3", i), lambda: rows.worsened(patient.w, patient.size, patient.tab, i))
    if final == rows.NO_WOUND:
        return patient.evolve(status=_out_of_play(level)), Blow(level, None, 0, uid)
    pain = int(rows.blow_pain(patient.tab, int(final), not with_pain))

    def worse() -> np.ndarray:
        w = room(patient.rows)
        rows.set_level(w, i, int(final), rows.arrives_stable(int(final), stable))
        return sealed(w)

    changed = patient.evolve(
        wounds=patient.kept(("S3 rows", i, stable), worse),
        pain=patient.pain + pain,
        pain_received=patient.pain_received + pain,
    )
    return changed, Blow(level, LEVELS[final], pain, uid)


def faint_tests_due(received_before: int, received_after: int) -> int:
    """F1: how many faint tests a blow calls for.

    ``⌊b/5⌋ - ⌊a/5⌋`` tests when the total of pain ever received goes from ``a`` to ``b``
    (reaching exactly 5 counts), but a single test when the blow brought 10 or more.
    """
    return scalar.faint_tests_due(received_before, received_after)


def mental_penalties(patient: Patient, dice: Dice, trigger_probability: float) -> Modifiers:
    """M1: each mental wound's standing penalty, present with ``trigger_probability``.

    Drawn independently per wound and per test; applies to the patient's own tests only.
    """
    penalties = zip(patient.mental, counts.mental_penalties(patient), strict=True)
    return [(w.level.label, v) for w, v in penalties if dice.chance(trigger_probability)]


def pain_penalty(patient: Patient) -> float:
    """D4: minus the current pain points."""
    return -patient.pain


def missed_watch_penalty(patient: Patient) -> int:
    """D4: minus the number of watches neglected since the patient last had no wound."""
    return -patient.missed_watches


def named(names: Sequence[str | None], terms: Sequence[float]) -> Modifiers:
    """A test's terms (:mod:`simulator.rules.scalar`'s ``*_terms``) beside their names.

    A term named ``None`` is one the test does not have here (always 0: B6's difficulty, the
    second pain term of a factor other than 2), left out of what a trace shows.
    """
    return [(name, value) for name, value in zip(names, terms, strict=True) if name is not None]


def faint_modifiers(patient: Patient, rs_it: int, mental: Modifiers) -> Modifiers:
    """F1: Rs+It (racial bonus excluded) plus the pain penalty after the blow, difficulty 0."""
    return [*named(scalar.FAINT_TERMS, scalar.faint_terms(rs_it, patient.pain)), *mental]


def faint(patient: Patient, now: float, duration: float) -> Patient:
    """F2: a failed faint test leaves the patient unconscious until ``now + duration``.

    A failure while already unconscious extends the faint to ``now + duration``.
    """
    return patient.evolve(
        unconscious_until=scalar.faint_until(patient.unconscious_until, now, duration)
    )


def survival_modifiers(patient: Patient, cp_rs: int, mental: Modifiers) -> Modifiers:
    """S1: Cp+Rs plus the pain penalty plus the missed-watch penalty, difficulty 0."""
    terms = scalar.survival_terms(cp_rs, patient.pain, patient.missed_watches)
    return [*named(scalar.SURVIVAL_TERMS, terms), *mental]


def survival_target(patient: Patient) -> Wound | None:
    """S3/G4: the wound a failed survival test worsens while unstable.

    The treated wound during a relapse (G4), otherwise the worst wound (H5).
    """
    relapse = rows.NO_WOUND if patient.relapse_target is None else patient.relapse_target
    worst = rows.worst(patient.w, patient.size)
    i = rows.survival_target(patient.w, patient.size, relapse, worst)
    return None if i == rows.NO_WOUND else patient.wounds[i]


def survival_failure(patient: Patient) -> tuple[Patient, Blow | None]:
    """S3-S4: the consequence of a failed survival test.

    Unstable: the target wound worsens (S3); the blow says whether the target was the treated
    wound of a relapse (G4). Stable: the worst wound becomes unstable (S4), and no blow is
    returned.
    """
    if patient.stable:  # S4: the worst wound (H5)

        def worst_unstable() -> np.ndarray:
            w = room(patient.rows)
            rows.destabilise(w, rows.worst(patient.w, patient.size))
            return sealed(w)

        return patient.evolve(wounds=patient.kept("S4", worst_unstable)), None
    target = survival_target(patient)
    assert target is not None, "an unstable patient has a physical wound"
    changed, blow = worsen(patient, target.uid)
    if target.uid == patient.relapse_target:
        blow = Blow(blow.start, blow.final, blow.pain, blow.uid, treated=True)
    return changed, blow


def survival_modifier(patient: Patient, cp_rs: int, mental: float = 0) -> float:
    """S1 as one number: Cp+Rs, minus pain, minus neglected watches, plus ``mental``."""
    result: float = scalar.survival_total(cp_rs, patient.pain, patient.missed_watches) + mental
    return result


def destabilise(patient: Patient, uids: list[int] | None = None) -> Patient:
    """S4, R3, G4: make some physical wounds (all when ``uids`` is None) unstable."""

    def unstable() -> np.ndarray:
        w = room(patient.rows)
        if uids is None:
            rows.destabilise_all(w, patient.size)
        else:
            for uid in uids:
                i = patient.index(uid)
                if i != rows.NO_WOUND and patient.wounds[i].level.is_physical:
                    rows.destabilise(w, i)
        return sealed(w)

    key = ("R3",) if uids is None else ("G4", *uids)
    return patient.evolve(wounds=patient.kept(key, unstable))


def wound_difficulty(patient: Patient) -> int:
    """A1: the sum of the difficulties of the patient's current physical wounds."""
    return patient.difficulty


def first_aid_modifiers(
    patient: Patient,
    level: int,
    modifier: int,
    self_treat: bool,
    mental: Modifiers,
    pain_factor: int = 2,
) -> Modifiers:
    """A1: the caregiver's level plus the wounds' difficulties plus the circumstances.

    When the patient treats itself, its pain penalty counts ``pain_factor`` times (setting
    ``self_aid_pain_factor``: 2, task and person, by default) and its mental penalties apply
    (M1).
    """
    terms = scalar.first_aid_terms(
        level, wound_difficulty(patient), modifier, self_treat, pain_factor, patient.pain
    )
    task: str | None = scalar.FIRST_AID_TERMS[3]
    person: str | None = scalar.FIRST_AID_TERMS[4]
    if not self_treat:
        task = person = None
    elif pain_factor == 1:
        task, person = "pain", None
    elif pain_factor != 2:
        task, person = pain_times_name(pain_factor), None
    names = ("first-aid level", wounds_name(patient), "circumstances", task, person)
    return [*named(names, terms), *(mental if self_treat else [])]


def first_aid_modifier(
    patient: Patient,
    level: int,
    modifier: int,
    self_treat: bool,
    mental: float = 0,
    pain_factor: int = 2,
) -> float:
    """A1 as one number: the sum of :func:`first_aid_modifiers` (``mental`` summed too)."""
    difficulty = wound_difficulty(patient)
    total = scalar.first_aid_total(
        level, difficulty, modifier, self_treat, pain_factor, patient.pain
    )
    return float(total + mental) if self_treat else float(total)


def stabilise(patient: Patient) -> Patient:
    """A2: every unstable wound becomes stable; a relapse (G4) ends with it."""

    def stable() -> np.ndarray:
        w = room(patient.rows)
        rows.stabilise(w, patient.size)
        return sealed(w)

    return patient.evolve(wounds=patient.kept("A2", stable), relapse_target=None)


def activity_modifiers(
    patient: Patient, cp_rs: int, activity_modifier: int, mental: Modifiers
) -> Modifiers:
    """X1: the survival test's modifiers plus the activity's modifier."""
    terms = scalar.activity_terms(cp_rs, patient.pain, patient.missed_watches, activity_modifier)
    shown = named(scalar.ACTIVITY_TERMS, terms)
    return [*shown[:-1], *mental, shown[-1]]  # the survival test's, its mental ones included


def activity_tested(patient: Patient) -> list[int]:
    """X1: the uids of the grave and critical wounds, stable or not, in order of receipt."""
    return [w.uid for w in patient.wounds if scalar.activity_tested(w.level)]


def neglect_watch(patient: Patient, survived: bool) -> Patient:
    """R3: the consequence of a neglected watch's survival test.

    The missed-watch penalty grows by one whatever the result; on a failure every wound
    becomes unstable.
    """
    changed = patient.evolve(missed_watches=scalar.missed_after_neglect(patient.missed_watches))
    return changed if survived else destabilise(changed)


def healing_modifiers(
    patient: Patient, healer_level: int, wound: Wound, modifier: int
) -> Modifiers:
    """G1: healer's level + wound's difficulty + missed-watch penalty + circumstances.

    The patient's pain does not apply to the healer's test. A mental wound's test (M3) has no
    missed-watch penalty: that penalty belongs to the watched physical wounds.
    """
    physical = wound.level.is_physical
    return healing_named(
        healer_level,
        wound.level,
        patient.table.rows[wound.level].difficulty,
        patient.missed_watches if physical else 0,
        modifier,
    )


def healing_named(
    healer_level: int, level: Level, difficulty: int, missed: int, modifier: int
) -> Modifiers:
    """G1, M3: :func:`scalar.healing_terms` named as a trace says them.

    The wound is named by its level; a mental wound's test has no missed-watch penalty.
    """
    names: tuple[str | None, ...] = (
        "healer level",
        f"{level.label} wound",
        "missed watches",
        "circumstances",
    )
    if not level.is_physical:
        names = (names[0], names[1], None, names[3])
    return named(names, scalar.healing_terms(healer_level, difficulty, missed, modifier))


def heal(patient: Patient, uid: int) -> Patient:
    """G2 (and B4, M3): the wound goes down one level; a light (or shock) wound disappears.

    Mortality follows (H2). G5: with no wound left, the missed-watch penalty resets.
    """
    i = patient.index(uid)
    if i == rows.NO_WOUND:
        raise ValueError(f"no current wound with uid {uid}")

    def healed() -> np.ndarray:
        w = room(patient.rows)
        left = rows.heal_one(w, patient.size, i)
        return sealed(np.ascontiguousarray(w[:, :left]))

    w = patient.kept(("G2", i), healed)
    missed = patient.missed_watches if w.shape[1] else 0
    return patient.evolve(wounds=w, missed_watches=missed)


def healing_failure(patient: Patient, uid: int) -> Patient:
    """G4: the treated wound becomes unstable and is the relapse target until stable again."""
    return destabilise(patient, [uid]).evolve(relapse_target=uid)


def healing_order(patient: Patient, track: Track = Track.PHYSICAL) -> list[int]:
    """G1/B5: the uids of the wounds of the least grave level present, oldest first (Q2)."""
    level = patient.least_grave(track)
    return [w.uid for w in patient.wounds if w.level == level]


PAIN_DIGITS = 9
"""P1: pain with fractions is rounded to this many decimals after each recovery, so that a
sum of steps such as 0.1 lands on the decimal it means (a margin of 0 stays 0)."""


def pain_floor(patient: Patient, craziness: bool = True) -> int:
    """P1: mortality, plus craziness unless setting ``pain_floor_craziness`` is false."""
    return patient.floor(craziness)


def recovered_pain(
    patient: Patient, steps: int, per_hour: float, floor_craziness: bool = True
) -> float:
    """P1: the pain after ``steps`` more full stable hours (see :func:`recover_pain`)."""
    if steps <= 0 or per_hour <= 0:
        return patient.pain
    floor = pain_floor(patient, floor_craziness)
    pain: float = scalar.pain_after(patient.pain, floor, steps, per_hour)
    if patient.pain > floor and isinstance(pain, float):
        pain = round(pain, PAIN_DIGITS)
    return pain


def recover_pain(
    patient: Patient, steps: int, per_hour: float, floor_craziness: bool = True
) -> Patient:
    """P1: pain goes down ``per_hour`` per full hour of stable state, never below the floor.

    It never rises to reach the floor: pain already at or below it stays as it is. With a
    fractional ``per_hour`` pain gets fractions, rounded to :data:`PAIN_DIGITS` decimals.
    ``floor_craziness`` is the setting ``pain_floor_craziness``.
    """
    pain = recovered_pain(patient, steps, per_hour, floor_craziness)
    return patient if pain == patient.pain else patient.evolve(pain=pain)


def basic_healing_modifiers(
    patient: Patient, cp_rs: int, modifier: int, mental: Modifiers
) -> Modifiers:
    """B4 (with B2): Cp+Rs plus every wound's standing penalty plus ``healing.modifier``.

    The physical wounds' penalties are their difficulty column [assumption B2]; the mental
    wounds' come through ``mental`` (M1).
    """
    terms = scalar.basic_healing_terms(cp_rs, wound_difficulty(patient), modifier)
    shown = named(("Cp+Rs", wounds_name(patient), "modifier"), terms)
    return [*shown[:-1], *mental, shown[-1]]  # the standing penalties together, then B4's


def basic_mental_healing_modifiers(rs_it: int, modifier: int, mental: Modifiers) -> Modifiers:
    """B6: a mental wound's basic test: Rs+It, the mental wounds' penalties, the modifier.

    The mental penalties come through ``mental`` (M1); the physical wounds' do not apply.
    """
    terms = scalar.basic_healing_terms(rs_it, 0, modifier)
    shown = named(("Rs+It", None, "modifier"), terms)
    return [*shown[:-1], *mental, shown[-1]]


BASIC_WORSEN_MARGIN = scalar.BASIC_WORSEN_MARGIN
"""B4: a healing test failed by this margin or worse also worsens the wound."""


def basic_failure_worsens(margin: float) -> bool:
    """B4: whether a failed healing test also worsens the wound (a margin of -10 or less)."""
    return scalar.basic_worsens(margin)


def is_wound_free(patient: Patient) -> bool:
    """G5: no wound left, physical or mental."""
    return not patient.wounds
