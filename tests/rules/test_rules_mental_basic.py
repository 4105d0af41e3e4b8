"""Mental wounds (RULES.md M1-M2, the pure part of M3) and the basic ruleset (B1-B5)."""

import pytest

from simulator.rules.dice import ScriptedDice, resolve
from simulator.rules.ids import RuleId
from simulator.rules.levels import MENTAL_LEVELS, Level, Track
from simulator.rules.patient import Patient, Status, Wound
from simulator.rules.table import default_table
from simulator.rules.transitions import (
    BASIC_WORSEN_MARGIN,
    basic_healing_modifiers,
    faint_tests_due,
    heal,
    healing_modifiers,
    healing_order,
    mental_penalties,
    receive_wound,
    stabilise,
    worsen,
    wound_difficulty,
)

L, G, C = Level.LIGHT, Level.GRAVE, Level.CRITICAL
S, T, P = Level.SHOCK, Level.TRAUMA, Level.PSYCHOSIS
D, W = 86400, 604800


def build(*levels, basic=False):
    patient = Patient(default_table())
    for level in levels:
        patient, blow = receive_wound(patient, level, with_pain=not basic, stable=basic)
        assert not blow.fatal
    return patient


# --- M1 ------------------------------------------------------------------------------------


def test_m1_mental_table():
    table = default_table()
    rows = [table[lv] for lv in MENTAL_LEVELS]
    assert [r.max for r in rows] == [4, 2, 1]
    assert [r.pain for r in rows] == [3, 5, 10]
    assert [r.mortality for r in rows] == [1, 3, 5]  # craziness [assumption]
    assert [r.difficulty for r in rows] == [-1, -3, -5]
    assert [r.heal_period for r in rows] == [2 * D, 1 * W, 2 * W]  # placeholders
    assert all(r.placeholder for r in rows)


def test_m1_mental_wound_arrives_stable_with_pain_and_craziness():
    patient = build(L)
    patient, blow = receive_wound(patient, T)
    assert blow.pain == 5
    assert patient.wounds[-1] == Wound(1, T, True)
    assert patient.pain == 3 + 5 and patient.pain_received == 8
    assert patient.craziness == 3
    assert patient.mortality == 1  # craziness is not mortality
    assert patient.pain_floor == 4
    assert not patient.stable  # the light wound is unstable; the trauma is not
    assert stabilise(patient).stable


def test_m1_mental_wounds_overflow_in_their_own_track():
    patient = build(L, L, L, L, S, S, S, S)
    patient, blow = receive_wound(patient, S)
    assert (blow.start, blow.final) == (S, T)
    patient, blow = receive_wound(patient, L)  # physical track: four lights, so grave
    assert blow.final is G
    assert patient.count(S) == 4 and patient.count(T) == 1


def test_m1_mental_wounds_need_no_first_aid():
    assert wound_difficulty(build(S, T, P)) == 0
    assert build(S, T, P).stable


def test_m1_penalties_drawn_per_wound_and_test():
    patient = build(S, L, T, P)
    dice = ScriptedDice(chances=[True, False, True])
    assert mental_penalties(patient, dice, 0.5) == [("shock", -1), ("psychosis", -5)]
    assert dice.chances == []  # one draw per mental wound, none for the light wound


def test_m1_trigger_probability_one_and_zero_draw_nothing():
    patient = build(S, T)
    dice = ScriptedDice()  # would refuse any draw
    assert mental_penalties(patient, dice, 1.0) == [("shock", -1), ("trauma", -3)]
    assert mental_penalties(patient, dice, 0.0) == []
    assert mental_penalties(build(L, G), dice, 0.5) == []


def test_m1_penalties_apply_to_the_patients_tests_not_the_healers():
    patient = build(S, L)
    # the healer's test takes no mental modifiers at all: only its wound's difficulty
    mods = healing_modifiers(patient, healer_level=0, wound=patient.wounds[1], modifier=0)
    assert sum(v for _, v in mods) == -1


def test_m1_mental_healing_uses_the_mental_difficulty_and_lowers_a_level():
    patient = build(P, S)
    mods = healing_modifiers(patient, healer_level=2, wound=patient.wounds[0], modifier=0)
    assert ("psychosis wound", -5) in mods
    assert healing_order(patient, Track.MENTAL) == [1]
    healed = heal(heal(patient, 0), 1)
    assert healed.wounds == (Wound(0, T, True),)
    assert healed.craziness == 3


# --- M2 ------------------------------------------------------------------------------------


def test_m2_past_psychosis_the_patient_is_incoherent_not_dead():
    patient = build(S, S, S, S, T, T, P)
    out, blow = receive_wound(patient, S)
    assert blow.fatal
    assert out.status is Status.INCOHERENT
    assert not out.alive


def test_m2_physical_fatal_blow_is_death():
    patient = build(C, P)
    out, _ = receive_wound(patient, C)
    assert out.status is Status.DEAD


# --- B: the basic ruleset ------------------------------------------------------------------


def test_b1_basic_same_maxima_overflow_and_fatal_blow():
    patient = build(L, L, L, L, basic=True)
    patient, blow = receive_wound(patient, L, with_pain=False, stable=True)
    assert blow.final is G
    patient = build(L, L, L, L, G, G, basic=True)
    patient, blow = receive_wound(patient, L, with_pain=False, stable=True)
    assert blow.final is C
    dead, blow = receive_wound(patient, G, with_pain=False, stable=True)
    assert blow.fatal and dead.status is Status.DEAD


def test_b2_basic_wounds_have_no_pain_and_no_stability():
    patient = build(L, G, C, basic=True)
    assert patient.pain == 0 and patient.pain_received == 0
    assert faint_tests_due(0, patient.pain_received) == 0
    assert patient.stable and all(w.stable for w in patient.wounds)
    assert patient.mortality == 9  # mortality still follows the wounds (H2)


def test_b2_standing_penalty_is_the_difficulty_column():
    patient = build(L, L, G, basic=True)
    assert wound_difficulty(patient) == -5


def test_b4_basic_healing_test_is_cp_rs_plus_wound_penalties_plus_modifier():
    patient = build(L, G, S, basic=True)
    mods = basic_healing_modifiers(patient, cp_rs=9, modifier=1, mental=[("shock", -1)])
    assert mods == [
        ("Cp+Rs", 9),
        ("wounds (1 light, 1 grave)", -4),
        ("shock", -1),
        ("modifier", 1),
    ]


@pytest.mark.parametrize(("roll", "worsens"), [(-9, True), (-8, True), (-7, False), (-2, False)])
def test_b4_margin_of_minus_ten_or_less_worsens(roll, worsens):
    assert BASIC_WORSEN_MARGIN == -10
    patient = build(L, G, basic=True)
    mods = basic_healing_modifiers(patient, cp_rs=2, modifier=0, mental=[])  # total -2
    test = resolve(ScriptedDice([roll]), RuleId.B4, "basic healing", mods)
    assert not test.success
    assert (test.margin <= BASIC_WORSEN_MARGIN) is worsens


def test_b4_basic_worsening_has_no_pain_stays_stable_and_can_kill():
    patient = build(L, G, C, basic=True)
    worse, blow = worsen(patient, 0, with_pain=False, stable=True)
    assert (blow.start, blow.final, blow.pain) == (L, G, 0)
    assert worse.wound(0) == Wound(0, G, True)
    assert worse.pain == 0 and worse.stable
    worse, blow = worsen(worse, 0, with_pain=False, stable=True)  # critical is full: fatal
    assert blow.fatal and worse.status is Status.DEAD


def test_b4_success_lowers_one_level():
    patient = build(G, L, basic=True)
    healed = heal(patient, 1)
    assert healed.wounds == (Wound(0, G, True),)


def test_b5_wounds_heal_in_order_of_gravity():
    patient = build(C, G, L, G, L, basic=True)
    assert healing_order(patient) == [2, 4]
    patient = heal(heal(patient, 2), 4)
    assert healing_order(patient) == [1, 3]
    patient = heal(heal(patient, 1), 3)
    assert healing_order(patient) == [1, 3]  # now light, still oldest first
    patient = heal(heal(patient, 1), 3)
    assert healing_order(patient) == [0]
