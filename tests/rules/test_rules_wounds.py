"""The patient, receiving wounds, fainting, survival (RULES.md H1-H6, W1-W3, F1-F2, S1-S5,
Q1-Q2)."""

import math

import pytest

from simulator.rules.dice import ScriptedDice, resolve
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level, Track
from simulator.rules.patient import FIELDS, Patient, Status, Wound
from simulator.rules.table import default_table, table_for_profile
from simulator.rules.transitions import (
    destabilise,
    faint,
    faint_modifiers,
    faint_tests_due,
    heal,
    healing_failure,
    overflow,
    receive_wound,
    recover_pain,
    stabilise,
    survival_failure,
    survival_modifiers,
    survival_target,
    worsen,
)
from tests.support import build_patient

L, G, C = Level.LIGHT, Level.GRAVE, Level.CRITICAL


build = build_patient


def levels(patient):
    return [w.level for w in patient.wounds]


# --- H: the patient ------------------------------------------------------------------------


def test_h1_a_wound_has_a_level_and_a_stability():
    patient = build(L, G)
    assert patient.wounds == (Wound(0, L, False), Wound(1, G, False))
    assert all(w.stable for w in stabilise(patient).wounds)


def test_h2_mortality_follows_wounds():
    patient = build(L, L, G)
    assert patient.mortality == 1 + 1 + 3
    worse, _ = worsen(patient, 0)  # light -> grave: +2
    assert worse.mortality == 3 + 1 + 3
    healed = heal(worse, 2)  # grave -> light: -2
    assert healed.mortality == 3 + 1 + 1
    gone = heal(healed, 1)  # a light wound disappears: -1
    assert gone.mortality == 3 + 1


def test_h2_mortality_is_never_stored_apart_from_wounds():
    assert "mortality" not in FIELDS
    slots = getattr(Patient, "__slots__", None) or Patient.__mypyc_attrs__  # (compiled)
    # the wounds are stored as rules.rows' rows (their count, the table as rows reads it and
    # their Wound views kept beside them)
    kept = {"_wounds", "_reads", "_w"}
    assert set(FIELDS) - {"wounds"} | {"rows", "size", "tab"} | kept == set(slots)
    patient = build(L)
    try:
        changed = patient.evolve(mortality=0)
    except TypeError:  # a strict evolve refuses it; a fast one ignores it: either is fine
        changed = patient
    assert changed.mortality == 1
    with pytest.raises((AttributeError, TypeError)):
        patient.mortality = 0  # type: ignore[misc]


def test_h2_critical_healed_entirely_loses_five_mortality():
    # The text: "Another which heal entirely his critical wound will have 5 less mortality".
    patient = build(C)
    assert patient.mortality == 5
    patient = heal(heal(heal(patient, 0), 0), 0)
    assert patient.mortality == 0
    assert patient.wounds == ()


def test_h3_pain_rises_on_receipt_and_worsening_only():
    patient = build(L)
    assert patient.pain == 3
    patient, _ = receive_wound(patient, G)
    assert patient.pain == 3 + 5
    patient, _ = worsen(patient, 0)
    assert patient.pain == 3 + 5 + 5
    for other in (stabilise(patient), heal(patient, 0), destabilise(patient)):
        assert other.pain == patient.pain
    assert healing_failure(patient, 0).pain == patient.pain
    recovered = recover_pain(stabilise(patient), steps=3, per_hour=1)
    assert recovered.pain == patient.pain - 3


def test_h4_state_is_unstable_when_any_wound_is_unstable():
    patient = build(L, G, stable=True)
    assert patient.stable
    assert not destabilise(patient, [0]).stable
    assert not build(L).stable
    assert Patient(default_table()).stable


def test_h5_worst_is_highest_level_then_first_received():
    patient = build(L, G, L, G)
    assert patient.worst().uid == 1
    patient, _ = receive_wound(patient, C)
    assert patient.worst().uid == 4
    assert build().worst() is None
    assert build(L, L).worst().uid == 0


def test_h6_alive_dead_incoherent():
    patient = build(C)
    assert patient.status is Status.ALIVE and patient.alive
    dead, blow = receive_wound(patient, C)
    assert blow.fatal
    assert dead.status is Status.DEAD and not dead.alive
    mad, _ = receive_wound(Patient(default_table()), Level.PSYCHOSIS)
    mad, blow = receive_wound(mad, Level.PSYCHOSIS)
    assert blow.fatal
    assert mad.status is Status.INCOHERENT and not mad.alive


# --- W: receiving a wound ------------------------------------------------------------------


def test_w1_overflow_pushes_light_to_grave():
    patient = build(L, L, L, L)
    patient, blow = receive_wound(patient, L)
    assert (blow.start, blow.final) == (L, G)
    assert levels(patient) == [L, L, L, L, G]


def test_w1_overflow_climbs_two_levels_when_the_next_is_full():
    patient = build(L, L, L, L, G, G)
    patient, blow = receive_wound(patient, L)
    assert (blow.start, blow.final) == (L, C)
    assert patient.count(C) == 1


def test_w1_past_critical_the_blow_is_fatal():
    patient = build(L, L, L, L, G, G, C)
    dead, blow = receive_wound(patient, L)
    assert blow.fatal and blow.final is None and blow.uid == -1
    assert dead.status is Status.DEAD
    assert dead.wounds == patient.wounds  # nothing is added
    critical, _ = receive_wound(build(C), G)  # grave not full: no overflow
    assert critical.alive


def test_w1_only_a_full_level_overflows():
    assert overflow(build(L, L, L), L) is L
    assert overflow(build(L, L, L, L), L) is G
    assert overflow(build(G, G), G) is C
    assert overflow(build(G, G, C), G) is None
    assert overflow(build(G, G, C), L) is L


def test_w1_overflow_uses_the_table_maxima():
    hydra = table_for_profile("hydra")  # 4 / 3 / 3
    patient = build(C, C, table=hydra)
    patient, blow = receive_wound(patient, C)
    assert blow.final is C and patient.alive
    _, blow = receive_wound(patient, C)
    assert blow.fatal
    no_grave = default_table().with_maxima({G: 0})
    _, blow = receive_wound(Patient(no_grave), G)
    assert blow.final is C


def test_w2_new_wound_is_unstable_with_pain_of_final_level():
    patient = build(L, L, L, L, stable=True)
    patient, blow = receive_wound(patient, L)
    assert blow.pain == 5  # the pain of a grave wound, its final level
    assert patient.pain == 4 * 3 + 5
    assert patient.wounds[-1] == Wound(4, G, False)
    assert blow.uid == 4
    assert not patient.stable
    assert patient.next_uid == 5


def test_w2_fatal_blow_brings_no_pain():
    patient = build(C, G, G, L, L, L, L)
    dead, blow = receive_wound(patient, L)
    assert blow.pain == 0
    assert dead.pain == patient.pain and dead.pain_received == patient.pain_received


def test_w3_received_pain_calls_for_faint_checks():
    patient = build(L)  # pain received 0 -> 3
    assert faint_tests_due(0, patient.pain_received) == 0
    patient2, blow = receive_wound(patient, L)  # 3 -> 6: crosses 5
    assert faint_tests_due(patient.pain_received, patient2.pain_received) == 1
    patient3, blow = receive_wound(patient2, C)  # 6 -> 16: a blow of 10 pain, one test
    assert blow.pain == 10
    assert faint_tests_due(patient2.pain_received, patient3.pain_received) == 1


# --- F: fainting ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "tests"),
    [
        (0, 3, 0),
        (0, 5, 1),  # reaching exactly 5 counts
        (3, 6, 1),
        (5, 8, 0),
        (4, 9, 1),
        (6, 11, 1),
        (2, 10, 2),  # a blow of 8: from 0 to 2 multiples of 5
        (0, 10, 1),  # a blow of 10 or more: a single test
        (3, 13, 1),
        (7, 22, 1),
        (11, 16, 1),
    ],
)
def test_f1_faint_tests_due(before, after, tests):
    assert faint_tests_due(before, after) == tests


def test_f1_pain_received_ignores_recovery_and_counts_mental_pain():
    patient = build(L, G, stable=True)
    recovered = recover_pain(patient, steps=10, per_hour=1)
    assert recovered.pain == 4
    assert recovered.pain_received == 8
    shocked, _ = receive_wound(recovered, Level.SHOCK)
    assert shocked.pain_received == 11 and shocked.pain == 7


def test_f1_faint_test_modifiers():
    patient = build(G, L)
    mods = faint_modifiers(patient, rs_it=6, mental=[("shock", -1)])
    assert mods == [("Rs+It", 6), ("pain", -8), ("shock", -1)]
    test = resolve(ScriptedDice([1]), RuleId.F1, "faint test", mods)
    assert test.margin == -2 and not test.success


def test_f2_faint_is_half_open():
    patient = faint(build(G), now=100.0, duration=900.0)
    assert patient.unconscious_until == 1000.0
    assert patient.unconscious(100.0)
    assert patient.unconscious(999.9)
    assert not patient.unconscious(1000.0)
    assert not build(G).unconscious(0.0)
    assert build(G).unconscious_until == -math.inf


def test_f2_failure_while_unconscious_extends_to_now_plus_duration():
    patient = faint(build(G), now=100.0, duration=900.0)
    patient = faint(patient, now=500.0, duration=900.0)
    assert patient.unconscious_until == 1400.0
    assert faint(patient, now=600.0, duration=60.0).unconscious_until == 1400.0


# --- S: stability and survival -------------------------------------------------------------


def test_s1_survival_test_modifiers():
    patient = build(L, G).evolve(missed_watches=2)
    mods = survival_modifiers(patient, cp_rs=8, mental=[("trauma", -3)])
    assert mods == [("Cp+Rs", 8), ("pain", -8), ("missed watches", -2), ("trauma", -3)]
    assert sum(v for _, v in mods) == -5


def test_s3_failure_while_unstable_worsens_the_worst_wound():
    patient = build(L, G, L)
    worse, blow = survival_failure(patient)
    assert blow is not None
    assert (blow.start, blow.final, blow.uid) == (G, C, 1)
    assert levels(worse) == [L, C, L]
    assert worse.pain == patient.pain + 10
    assert worse.pain_received == patient.pain_received + 10
    assert worse.mortality == patient.mortality + 2
    assert not worse.wound(1).stable


def test_s3_worsened_wound_is_unstable_even_if_it_was_stable():
    patient = destabilise(build(L, G, stable=True), [0])  # the light is unstable, grave stable
    worse, blow = survival_failure(patient)
    assert blow.uid == 1
    assert worse.wound(1) == Wound(1, C, False)


def test_s3_worsening_overflows_as_w1():
    patient = build(G, G, L)
    worse, blow = worsen(patient, 2)  # light -> grave is full -> critical
    assert (blow.start, blow.final) == (L, C)
    assert worse.wound(2).level is C
    assert worse.pain == patient.pain + 10
    assert worse.mortality == patient.mortality - 1 + 5


def test_s3_worsening_does_not_count_the_wound_itself():
    patient = build(G, C)
    worse, blow = worsen(patient, 0)  # grave -> critical, which is full: fatal
    assert blow.fatal and worse.status is Status.DEAD
    patient = build(L, L, L, L, G)
    worse, blow = worsen(patient, 0)  # the light leaves its level and lands on grave (1 of 2)
    assert blow.final is G


def test_s3_worsening_critical_is_fatal():
    patient = build(L, C)
    dead, blow = survival_failure(patient)
    assert blow.fatal and blow.uid == 1 and blow.start is C and blow.pain == 0
    assert dead.status is Status.DEAD
    assert dead.pain == patient.pain


def test_s3_relapse_target_worsens_instead_of_worst():
    patient = build(L, G, stable=True)
    relapse = healing_failure(patient, 0)
    assert survival_target(relapse).uid == 0
    worse, blow = survival_failure(relapse)
    assert (blow.uid, blow.start, blow.final) == (0, L, G)
    assert worse.wound(1).level is G  # the worst wound is untouched
    assert worse.relapse_target == 0
    _, blow = survival_failure(worse)  # still the treated wound, now the worst too
    assert (blow.uid, blow.final) == (0, C)


def test_s3_unknown_wound_cannot_worsen():
    with pytest.raises(ValueError, match="uid 7"):
        worsen(build(L), 7)


def test_s4_failure_while_stable_makes_the_worst_wound_unstable():
    patient = build(L, G, G, stable=True)
    changed, blow = survival_failure(patient)
    assert blow is None
    assert [w.stable for w in changed.wounds] == [True, False, True]
    assert levels(changed) == levels(patient)
    assert changed.pain == patient.pain and changed.mortality == patient.mortality
    assert not changed.stable


def test_s5_passed_test_changes_nothing():
    patient = build(L, G)
    mods = survival_modifiers(patient, cp_rs=8, mental=[])
    test = resolve(ScriptedDice([0]), RuleId.S1, "survival test", mods)
    assert test.success  # 8 - 8 + 0 = 0: a tie succeeds
    assert patient == build(L, G)  # the patient is a value: resolving changes nothing


# --- Q: reporting --------------------------------------------------------------------------


def test_q1_aggravation_is_one_blow_on_an_existing_wound():
    patient = build(G, G, L)
    worse, blow = worsen(patient, 2)  # two levels up by overflow: still one aggravation
    assert blow.uid == 2 and blow.start is L and blow.final is C and not blow.fatal
    assert worse.next_uid == patient.next_uid  # no new wound


def test_q1_overflow_on_receipt_is_a_new_wound_not_an_aggravation():
    patient = build(L, L, L, L)
    received, blow = receive_wound(patient, L)
    assert blow.uid == patient.next_uid  # a new wound, at a higher level
    assert (blow.start, blow.final) == (L, G)
    assert levels(received)[:4] == levels(patient)  # no existing wound went up


def test_q1_fatal_aggravation_is_reported():
    _, blow = worsen(build(C), 0)
    assert blow.fatal and blow.uid == 0 and blow.start is C
    _, blow = receive_wound(build(C), C)
    assert blow.fatal and blow.uid == -1


def test_q2_receipt_order_survives_level_changes():
    patient = build(L, G)
    patient, _ = worsen(patient, 0)  # the first wound becomes grave after the second was
    assert [w.uid for w in patient.wounds] == [0, 1]
    assert patient.worst().uid == 0
    patient, _ = worsen(patient, 1)
    patient = heal(patient, 1)
    assert [w.uid for w in patient.wounds] == [0, 1]
    assert patient.worst().uid == 0


def test_q2_maxima_checked_on_receipt_and_worsening_not_healing():
    table = default_table().with_maxima({C: 2, G: 1})
    patient = build(C, C, table=table)
    patient = heal(heal(patient, 0), 1)  # two graves with a maximum of one: allowed
    assert patient.count(G) == 2
    _, blow = receive_wound(patient, G)
    assert blow.final is C  # the full level still overflows
    _, blow = worsen(patient.evolve(wounds=(*patient.wounds, Wound(9, L, False))), 9)
    assert blow.final is C


def test_h5_worst_wound_is_looked_up_per_track():
    patient, _ = receive_wound(build(L), Level.TRAUMA)
    assert patient.worst().level is L
    assert patient.worst(Track.MENTAL).level is Level.TRAUMA


def test_h1_no_code_assigns_to_a_patient_or_a_wound_after_it_is_built():
    # Patient and Wound are immutable by their Final attributes (mypy refuses assignments;
    # plain classes so that building one is cheap): the rules and the engine never assign
    # an attribute of a patient or a wound outside their constructors.
    import ast
    from pathlib import Path

    from tests.support.source import assigned

    root = Path(__file__).resolve().parents[2] / "simulator"
    paths = sorted((root / "rules").rglob("*.py")) + sorted((root / "engine").rglob("*.py"))
    names = set(FIELDS) | {"uid", "level", "stable"}
    found = []
    for path in paths:  # (the exact engine has a working state of its own)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, target in assigned(tree):
            if not (isinstance(target, ast.Attribute) and target.attr in names):
                continue
            owner = ast.unparse(target.value)
            if owner == "self" and path.name == "patient.py":
                continue  # the constructors
            if owner == "self" and target.attr in ("table", "status", "level"):
                continue  # attributes of the same name on other classes
            if "patient" in owner or "wound" in owner or owner in ("p", "w"):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(target)}")
    assert found == []
    patient = build(L)
    with pytest.raises(AttributeError):
        patient.status_of = 0  # type: ignore[attr-defined]  # slots: no stray attribute
