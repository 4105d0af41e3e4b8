"""Rule decisions over plain numbers, for engines that keep a trial's state as numbers.

:mod:`simulator.rules.transitions` states the rules over a
:class:`~simulator.rules.patient.Patient`; an engine that keeps only numbers (the exact
engine's states) asks these instead. Each is the decision of :mod:`simulator.rules.scalar`
(written once there for every engine, the kernel included), with the exact engine's argument
names; the tests check that they agree with the :class:`~simulator.rules.patient.Patient`
versions.
"""

from __future__ import annotations

from fractions import Fraction

from simulator.rules import rows, scalar
from simulator.rules.patient import Patient

Number = int | float | Fraction
"""A modifier: an int, or with fractional pain (P1) a fraction."""

FAINT_STEP = scalar.FAINT_STEP
"""F1: a faint test for every 5 points of pain ever received."""


def faint_residue(received: int) -> int:
    """F1: all that later faint tests depend on, of the pain ever received (its rest mod 5)."""
    return scalar.faint_residue(received)


def survival_total(cp_rs: int, pain: Number, missed: int, extra: Number = 0) -> Number:
    """S1 (and X1, R3's test): Cp+Rs, minus pain, minus neglected watches (D4), plus ``extra``.

    ``extra`` is an activity's modifier (X1); mental penalties (M1) come apart.
    """
    result: Number = scalar.survival_total(cp_rs, pain, missed) + extra
    return result


def faint_total(rs_it: int, pain: Number) -> Number:
    """F1: Rs+It minus the pain after the blow (mental penalties apart)."""
    result: Number = scalar.faint_total(rs_it, pain)
    return result


def first_aid_total(
    level: int,
    difficulty: int,
    modifier: int,
    self_treat: bool,
    pain: Number,
    pain_factor: Number = 2,
) -> Number:
    """A1: the caregiver's level, the wounds' difficulty and the circumstances.

    A patient who treats itself also counts its pain ``pain_factor`` times (setting
    ``self_aid_pain_factor``); its mental penalties (M1) come apart.
    """
    result: Number = scalar.first_aid_total(
        level, difficulty, modifier, self_treat, pain_factor, pain
    )
    return result


def healing_total(
    level: int, difficulty: int, missed: int, modifier: int, physical: bool = True
) -> int:
    """G1 (M3 for a mental wound): healer's level, wound's difficulty, D4, circumstances.

    The patient's pain does not count; a mental wound's test has no missed-watch penalty.
    """
    result: int = scalar.healing_total(level, difficulty, missed if physical else 0, modifier)
    return result


def basic_healing_total(attribute: int, difficulty: int, modifier: int) -> int:
    """B4 (B6 with Rs+It and no physical difficulty): the attribute, the wounds, the modifier."""
    result: int = scalar.basic_healing_total(attribute, difficulty, modifier)
    return result


def mental_penalties(patient: Patient) -> tuple[int, ...]:
    """M1: each mental wound's standing penalty (its difficulty), in order of receipt."""
    tab = patient.tab
    return tuple(int(rows.standing_penalty(tab, int(w.level))) for w in patient.mental)


def missed_after_neglect(missed: int) -> int:
    """R3: a neglected watch adds one to the missed-watch penalty, whatever its test gives."""
    return scalar.missed_after_neglect(missed)
