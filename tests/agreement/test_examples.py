"""The worked examples of the texts, replayed roll by roll with ScriptedDice.

Sources: seeds/002_*.txt (English, "Geraldine") and seeds/000_*.txt (French original):
"Receiving a wound" (W1), "Wounds Aggravation and Stabilization" (A1, S3), "Periodical
Check" (R2-R3, P1), "Healing" (G1-G2, G4, S3).
"""

from simulator.rules.dice import ScriptedDice, resolve
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.patient import Patient, Status, Wound
from simulator.rules.table import default_table
from simulator.rules.transitions import (
    faint_tests_due,
    first_aid_modifiers,
    heal,
    healing_failure,
    healing_modifiers,
    healing_order,
    neglect_watch,
    receive_wound,
    recover_pain,
    stabilise,
    survival_failure,
    survival_modifiers,
)

L, G, C = Level.LIGHT, Level.GRAVE, Level.CRITICAL
MIN, H, D, W = 60, 3600, 86400, 604800
GERALDINE_CP_RS = 8  # "She roll Cp+Rs (without the racial bonus) for +8"


def receive(patient, *levels):
    for level in levels:
        patient, _ = receive_wound(patient, level)
    return patient


def geraldine_wounded():
    """Two light wounds and a grave one, all unstable."""
    return receive(Patient(default_table()), L, L, G)


def geraldine_resting():
    """Stabilised, pain down to her minimum (her mortality points, 5), no watch missed."""
    patient = stabilise(geraldine_wounded())
    return patient.evolve(pain=5)


def test_example_w1_light_wound_becomes_grave_then_critical_then_fatal():
    man = receive(Patient(default_table()), L, L, L, L)  # "his maximum in light wounds"
    man, blow = receive_wound(man, L)
    assert (blow.start, blow.final) == (L, G)  # "automatically became a grave wound"

    man = receive(Patient(default_table()), L, L, L, L, G, G)  # also his maximum in grave
    man, blow = receive_wound(man, L)
    assert (blow.start, blow.final) == (L, C)  # "the wound become critical"
    assert man.status is Status.ALIVE

    man, blow = receive_wound(man, L)  # "already has a critical wound (his maximum)"
    assert blow.fatal and blow.start is L  # "although light at the start, are mortal"
    assert man.status is Status.DEAD


def test_example_a1_geraldine_first_aid_at_minus_five():
    patient = geraldine_wounded()
    assert [(w.level, w.stable) for w in patient.wounds] == [(L, False), (L, False), (G, False)]
    mods = first_aid_modifiers(patient, level=0, modifier=0, self_treat=False, mental=[])
    assert dict(mods)["wounds (2 light, 1 grave)"] == -1 - 1 - 3 == -5
    # a rescue team with first aid +2 rolls +3: margin 0, a success that stabilises all
    team = resolve(
        ScriptedDice([3]),
        RuleId.A1,
        "first aid",
        first_aid_modifiers(patient, level=2, modifier=0, self_treat=False, mental=[]),
    )
    assert (team.margin, team.success) == (0, True)
    assert stabilise(patient).stable
    # by herself, "the pain count double": -11 as the task's difficulty and as a person's
    alone = first_aid_modifiers(patient, level=2, modifier=0, self_treat=True, mental=[])
    assert sum(v for _, v in alone) == 2 - 5 - 11 - 11


def test_example_s3_geraldine_grave_turns_critical_for_ten_pain_two_mortality():
    patient = geraldine_wounded()
    assert default_table()[patient.worst().level].unstable_period == 15 * MIN  # "each 15 min"
    mods = survival_modifiers(patient, GERALDINE_CP_RS, mental=[])  # "Cp+Rs-Pain"
    assert sum(v for _, v in mods) == 8 - 11
    test = resolve(ScriptedDice([2]), RuleId.S1, "survival test", mods)
    assert (test.margin, test.success) == (-1, False)
    worse, blow = survival_failure(patient)
    assert (blow.start, blow.final) == (G, C)  # "her grave wound would became critical"
    assert worse.pain - patient.pain == 10  # "10 more pain points"
    assert worse.mortality - patient.mortality == 2  # "only have 2 more mortality points"
    assert [w.level for w in worse.wounds] == [L, L, C]


def test_example_r3_geraldine_neglected_watch_plus_eight_against_minus_five():
    patient = geraldine_resting()
    assert patient.pain == patient.mortality == patient.pain_floor == 5
    table = default_table()
    watch = table[patient.worst().level].watch_period
    assert watch == 6 * H and D / watch == 4  # "four time a day"
    mods = survival_modifiers(patient, GERALDINE_CP_RS, mental=[])
    assert mods == [("Cp+Rs", 8), ("pain", -5), ("missed watches", 0)]
    test = resolve(ScriptedDice([-3]), RuleId.R3, "neglected watch", mods)
    assert test.success  # "Luck is on her side"
    after = neglect_watch(patient, survived=test.success)
    assert after.missed_watches == 1
    assert after.stable and after.wounds == patient.wounds
    # "all her next survival and healing rolls after this one will got a -1 penalty"
    assert ("missed watches", -1) in survival_modifiers(after, GERALDINE_CP_RS, mental=[])
    light = after.wounds[0]
    assert ("missed watches", -1) in healing_modifiers(after, -2, light, -1)
    # had she failed: unstable again, survival rolls every 15 minutes
    failed = neglect_watch(patient, survived=False)
    assert not failed.stable and failed.missed_watches == 1
    assert table[failed.worst().level].unstable_period == 15 * MIN


def test_example_p1_geraldine_pain_recovers_to_her_mortality():
    patient = stabilise(geraldine_wounded())
    assert patient.pain == 11
    after_12h = recover_pain(patient, steps=12, per_hour=1)
    assert after_12h.pain == 5  # "-5, which is also her current minimum"
    assert after_12h == geraldine_resting()


def test_example_g1_geraldine_healing_roll_of_plus_six_margin_plus_one():
    patient = neglect_watch(geraldine_resting(), survived=True)
    assert default_table()[patient.least_grave()].heal_period == 2 * D  # "two days of rest"
    order = healing_order(patient)
    assert order == [0, 1]  # her light wounds, oldest first
    first = patient.wound(order[0])
    mods = healing_modifiers(patient, healer_level=-2, wound=first, modifier=-1)  # tools -1
    difficulty = sum(v for name, v in mods if name != "healer level")
    assert difficulty == -3  # -1 equipment, -1 light wound, -1 missed check
    test = resolve(ScriptedDice([6]), RuleId.G1, "healing", mods)
    assert (test.margin, test.success) == (1, True)
    healed = heal(patient, first.uid)
    assert healed.wound(first.uid) is None  # "healed and disappear"
    assert patient.mortality - healed.mortality == 1  # "another point of mortality"
    assert healed.pain == patient.pain  # healing lowers the floor, not the pain
    second = healed.wound(order[1])
    assert healing_modifiers(healed, -2, second, -1) == mods  # "same difficulty"


def test_example_g4_geraldine_relapse_worsens_the_treated_light_wound():
    patient = neglect_watch(geraldine_resting(), survived=True)
    patient = heal(patient, 0)  # the first light wound healed (roll +6)
    mods = healing_modifiers(patient, -2, patient.wound(1), -1)
    test = resolve(ScriptedDice([-2]), RuleId.G1, "healing", mods)
    assert not test.success  # "this time, the roll fail"
    relapse = healing_failure(patient, 1)
    assert not relapse.stable  # "the Geraldine's health state become unstable"
    assert relapse.relapse_target == 1
    # "with the periodicity of the more grave wound": 15 minutes
    assert default_table()[relapse.worst().level].unstable_period == 15 * MIN
    survival = resolve(
        ScriptedDice([-3]),
        RuleId.S1,
        "survival test",
        survival_modifiers(relapse, GERALDINE_CP_RS, mental=[]),
    )
    assert survival.margin == -3 + 8 - 5 - 1 and not survival.success
    worse, blow = survival_failure(relapse)
    # "Geraldine's light wound would aggravated and became a grave wound"
    assert (blow.uid, blow.start, blow.final) == (1, L, G)
    assert worse.wounds == (Wound(1, G, False), Wound(2, G, True))  # not the worst wound
    assert worse.pain - relapse.pain == 5  # "5 new points of pain"
    assert worse.mortality - relapse.mortality == 2  # "only 2 points of mortality"
    # "(and so, must make a faintness roll)": 11 -> 16 pain received crosses 15
    assert faint_tests_due(relapse.pain_received, worse.pain_received) == 1
    # stabilised again, the next healing period is the least grave level's: now a week
    again = stabilise(worse)
    assert again.relapse_target is None and again.stable
    assert default_table()[again.least_grave()].heal_period == 1 * W


def test_example_geraldine_whole_story_chained():
    dice = ScriptedDice(rolls=[3, -3, 6, -2, -3, 4])
    table = default_table()
    patient = geraldine_wounded()
    # first aid by a companion of level +2 at -5: +3 -> margin 0, stabilised
    aid = resolve(dice, RuleId.A1, "first aid", first_aid_modifiers(patient, 2, 0, False, []))
    assert aid.success
    patient = recover_pain(stabilise(patient), steps=12, per_hour=1)
    # after 12 h, a neglected watch: +8 -5, roll -3 -> margin 0, passed
    watch = resolve(dice, RuleId.R3, "watch", survival_modifiers(patient, GERALDINE_CP_RS, []))
    assert watch.success
    patient = neglect_watch(patient, watch.success)
    # after 2 days the healer tests the light wounds
    results = []
    for uid in healing_order(patient):
        test = resolve(
            dice, RuleId.G1, "healing", healing_modifiers(patient, -2, patient.wound(uid), -1)
        )
        results.append(test.margin)
        if not test.success:
            patient = healing_failure(patient, uid)
            break
        patient = heal(patient, uid)
    assert results == [1, -7]
    assert patient.mortality == 4 and not patient.stable
    survival = resolve(
        dice, RuleId.S1, "survival", survival_modifiers(patient, GERALDINE_CP_RS, [])
    )
    assert not survival.success
    patient, blow = survival_failure(patient)
    assert blow.final is G and patient.mortality == 6 and patient.pain == 10
    aid = resolve(dice, RuleId.A1, "first aid", first_aid_modifiers(patient, 2, 0, False, []))
    assert aid.success  # 4 + 2 - 6 = 0
    patient = stabilise(patient)
    assert [w.level for w in patient.wounds] == [G, G]
    assert patient.missed_watches == 1 and patient.relapse_target is None
    assert table[patient.least_grave()].heal_period == 1 * W
    assert dice.rolls == []
