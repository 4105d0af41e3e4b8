"""First aid, watches, healing, pain recovery, rough activity (RULES.md A1-A2, R3, G1-G5,
P1, X1)."""

import pytest

from simulator.rules.dice import ScriptedDice, resolve
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Wound
from simulator.rules.transitions import (
    activity_modifiers,
    activity_tested,
    destabilise,
    first_aid_modifiers,
    heal,
    healing_failure,
    healing_modifiers,
    healing_order,
    is_wound_free,
    neglect_watch,
    receive_wound,
    recover_pain,
    stabilise,
    survival_failure,
    survival_modifiers,
    worsen,
    wound_difficulty,
)
from tests.support import build_patient

L, G, C = Level.LIGHT, Level.GRAVE, Level.CRITICAL


build = build_patient


def total(mods):
    return sum(v for _, v in mods)


# --- A: first aid --------------------------------------------------------------------------


def test_a1_difficulty_is_the_sum_over_current_wounds():
    assert wound_difficulty(build(L, L, G)) == -5
    assert wound_difficulty(build(C)) == -5
    assert wound_difficulty(build(L, L, L, L, G, G, C)) == -4 - 6 - 5
    assert wound_difficulty(build()) == 0
    # stable wounds count too: "the sum of the difficulties of all the patient's wounds"
    assert wound_difficulty(destabilise(build(L, G, stable=True), [0])) == -4


def test_a1_companion_test_has_level_wounds_and_circumstances():
    patient = build(L, L, G)
    mods = first_aid_modifiers(patient, level=3, modifier=-2, self_treat=False, mental=[])
    assert mods == [
        ("first-aid level", 3),
        ("wounds (2 light, 1 grave)", -5),
        ("circumstances", -2),
    ]


def test_a1_self_treatment_counts_pain_twice_and_mental_penalties():
    patient, _ = receive_wound(build(L, L, G), Level.SHOCK)
    mods = first_aid_modifiers(patient, level=2, modifier=0, self_treat=True, mental=[("s", -1)])
    assert ("pain, task", -14) in mods and ("pain, person", -14) in mods
    assert ("s", -1) in mods
    assert total(mods) == 2 - 5 - 28 - 1


def test_a1_companion_ignores_the_patients_pain_and_mental_wounds():
    patient, _ = receive_wound(build(L), Level.TRAUMA)
    mods = first_aid_modifiers(patient, level=0, modifier=0, self_treat=False, mental=[("t", -3)])
    assert total(mods) == -1  # only the light wound: mental wounds need no first aid


def test_a2_success_stabilises_every_unstable_wound():
    patient = build(L, G, L)
    test = resolve(
        ScriptedDice([5]), RuleId.A1, "first aid", first_aid_modifiers(patient, 0, 0, False, [])
    )
    assert test.success
    stable = stabilise(patient)
    assert stable.stable
    assert [w.level for w in stable.wounds] == [L, G, L]
    assert stable.pain == patient.pain and stable.mortality == patient.mortality


def test_a2_failure_changes_nothing():
    patient = build(L, G, L)
    test = resolve(
        ScriptedDice([4]), RuleId.A1, "first aid", first_aid_modifiers(patient, 0, 0, False, [])
    )
    assert not test.success
    assert not patient.stable  # no transition is applied on a failure


def test_a2_stabilisation_ends_a_relapse():
    relapse = healing_failure(build(L, G, stable=True), 0)
    assert relapse.relapse_target == 0
    assert stabilise(relapse).relapse_target is None
    assert stabilise(relapse).stable


# --- R3: neglected watches -----------------------------------------------------------------


def test_r3_neglected_watch_passed_adds_one_to_the_penalty_only():
    patient = build(L, G, stable=True)
    after = neglect_watch(patient, survived=True)
    assert after.missed_watches == 1
    assert after.stable
    assert after.wounds == patient.wounds


def test_r3_neglected_watch_failed_makes_every_wound_unstable():
    patient, _ = receive_wound(build(L, G, stable=True), Level.SHOCK)
    after = neglect_watch(patient, survived=False)
    assert after.missed_watches == 1
    assert [w.stable for w in after.physical] == [False, False]
    assert all(w.stable for w in after.mental)  # mental wounds have no stability (M3)
    assert not after.stable


def test_r3_penalty_accumulates_on_survival_and_healing_tests():
    patient = build(L, G, stable=True)
    for _ in range(3):
        patient = neglect_watch(patient, survived=True)
    assert ("missed watches", -3) in survival_modifiers(patient, 8, [])
    assert ("missed watches", -3) in healing_modifiers(patient, 0, patient.wounds[0], 0)


def test_r3_survival_test_of_a_watch_uses_penalties_as_they_stand():
    patient = neglect_watch(build(L, G, stable=True), survived=True)
    mods = survival_modifiers(patient, cp_rs=5, mental=[])
    assert total(mods) == 5 - 8 - 1  # the second neglect is tested with -1


# --- G: healing ----------------------------------------------------------------------------


def test_g1_healing_order_is_least_grave_level_oldest_first():
    patient = build(G, L, C, L)
    assert healing_order(patient) == [1, 3]
    assert healing_order(build(C, G, G)) == [1, 2]
    assert healing_order(build()) == []
    mental, _ = receive_wound(build(L), Level.TRAUMA)
    assert healing_order(mental) == [0]
    assert healing_order(mental, Track.MENTAL) == [1]


def test_g1_healer_test_ignores_the_patients_pain():
    patient = build(L, L, G, stable=True).evolve(missed_watches=2)
    mods = healing_modifiers(patient, healer_level=4, wound=patient.wounds[2], modifier=-1)
    assert mods == [
        ("healer level", 4),
        ("grave wound", -3),
        ("missed watches", -2),
        ("circumstances", -1),
    ]
    assert all(name != "pain" for name, _ in mods)


def test_g2_success_lowers_one_level_and_light_disappears():
    patient = build(C, L, stable=True)
    healed = heal(patient, 0)
    assert healed.wounds == (Wound(0, G, True), Wound(1, L, True))
    healed = heal(healed, 1)
    assert healed.wounds == (Wound(0, G, True),)
    healed = heal(healed, 0)
    assert healed.wounds == (Wound(0, L, True),)
    assert healed.pain == patient.pain  # healing lowers mortality, not pain


def test_g2_unknown_wound_cannot_heal():
    with pytest.raises(ValueError, match="uid 3"):
        heal(build(L), 3)


def test_g4_failure_makes_the_treated_wound_unstable_and_the_relapse_target():
    patient = build(G, L, L, stable=True)
    relapse = healing_failure(patient, 2)
    assert [w.stable for w in relapse.wounds] == [True, True, False]
    assert not relapse.stable
    assert relapse.relapse_target == 2
    assert relapse.pain == patient.pain


def test_g4_relapse_target_holds_whatever_else_happens():
    relapse = healing_failure(build(G, L, stable=True), 1)
    relapse, _ = receive_wound(relapse, C)  # a worse wound arrives meanwhile
    worse, blow = survival_failure(relapse)
    assert (blow.uid, blow.start, blow.final) == (1, L, G)
    assert worse.wound(2).level is C


def test_g4_relapse_on_a_healed_target_falls_back_to_the_worst():
    relapse = healing_failure(build(G, L, stable=True), 1)
    gone = relapse.evolve(wounds=tuple(w for w in relapse.wounds if w.uid != 1))
    _, blow = survival_failure(destabilise(gone))
    assert blow.uid == 0


def test_g5_wound_free_resets_the_missed_watch_penalty():
    patient = neglect_watch(build(L, stable=True), survived=True)
    assert patient.missed_watches == 1
    healed = heal(patient, 0)
    assert is_wound_free(healed)
    assert healed.missed_watches == 0
    assert healed.mortality == 0


def test_g5_a_mental_wound_left_is_still_a_wound():
    patient, _ = receive_wound(build(L, stable=True), Level.SHOCK)
    patient = neglect_watch(patient, survived=True)
    healed = heal(patient, 0)
    assert not is_wound_free(healed)
    assert healed.missed_watches == 1
    healed = heal(healed, 1)
    assert is_wound_free(healed) and healed.missed_watches == 0


def test_g5_partial_healing_keeps_the_penalty():
    patient = neglect_watch(build(L, L, stable=True), survived=True)
    assert heal(patient, 0).missed_watches == 1


# --- P1: pain recovery ---------------------------------------------------------------------


def test_p1_pain_goes_down_per_full_hour_to_the_floor():
    patient = build(L, L, G, stable=True)  # pain 11, floor 5
    assert patient.pain == 11 and patient.pain_floor == 5
    assert recover_pain(patient, steps=1, per_hour=1).pain == 10
    assert recover_pain(patient, steps=4, per_hour=1).pain == 7
    assert recover_pain(patient, steps=6, per_hour=1).pain == 5
    assert recover_pain(patient, steps=100, per_hour=1).pain == 5
    assert recover_pain(patient, steps=2, per_hour=2).pain == 7


def test_p1_pain_never_rises_to_the_floor():
    patient = build(G, stable=True).evolve(pain=1)
    assert recover_pain(patient, steps=5, per_hour=1).pain == 1


def test_p1_zero_switches_recovery_off():
    patient = build(L, L, G, stable=True)
    assert recover_pain(patient, steps=5, per_hour=0) == patient
    assert recover_pain(patient, steps=0, per_hour=1) == patient


def test_p1_floor_includes_craziness():
    patient, _ = receive_wound(build(L, stable=True), Level.TRAUMA)  # pain 8, floor 1 + 3
    assert patient.pain_floor == 4
    assert recover_pain(patient, steps=10, per_hour=1).pain == 4


def test_p1_healing_lowers_the_floor_not_the_pain():
    patient = recover_pain(build(L, L, G, stable=True), steps=10, per_hour=1)
    assert patient.pain == 5
    healed = heal(patient, 0)
    assert healed.pain == 5 and healed.pain_floor == 4
    assert recover_pain(healed, steps=1, per_hour=1).pain == 4


# --- X1: rough activity (the pure part; the schedule is the engine's) ----------------------


def test_x1_activity_tests_grave_and_critical_wounds_stable_or_not():
    patient = destabilise(build(L, G, C, L, G, stable=True), [1])
    assert activity_tested(patient) == [1, 2, 4]
    assert activity_tested(build(L, L)) == []


def test_x1_activity_modifiers_are_survival_plus_activity():
    patient = build(G, stable=True).evolve(missed_watches=1)
    mods = activity_modifiers(patient, cp_rs=7, activity_modifier=-2, mental=[("shock", -1)])
    assert mods == [*survival_modifiers(patient, 7, [("shock", -1)]), ("activity", -2)]
    assert total(mods) == 7 - 5 - 1 - 1 - 2


def test_x1_failed_activity_worsens_the_tested_wound_not_the_relapse_target():
    relapse = healing_failure(build(L, G, stable=True), 0)
    tested = activity_tested(relapse)
    assert tested == [1]
    worse, blow = worsen(relapse, tested[0])
    assert (blow.uid, blow.start, blow.final) == (1, G, C)
    assert worse.wound(0).level is L
    stable_grave, blow = worsen(build(G, stable=True), 0)  # stable or not, it can worsen
    assert not stable_grave.stable and blow.pain == 10
