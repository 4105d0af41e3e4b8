"""Property-based tests: random sequences of the pure transitions keep the rules' invariants.

The harness below plays the engine's part: it applies transitions to a patient until the
patient is out of play (H6), keeping its own ledger of mortality, craziness and pain from
what each transition reports, and checks the patient against it after every step.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.rules.dice import p_success
from simulator.rules.levels import MENTAL_LEVELS, PHYSICAL_LEVELS, Level, Track
from simulator.rules.patient import Patient, Status
from simulator.rules.table import default_table
from simulator.rules.transitions import (
    destabilise,
    faint_tests_due,
    heal,
    healing_failure,
    healing_order,
    neglect_watch,
    receive_wound,
    recover_pain,
    stabilise,
    survival_failure,
    worsen,
)

FAST = settings(max_examples=200, deadline=None)

maxima = st.one_of(
    st.just((4, 2, 1)),
    st.tuples(*(st.integers(0, 5) for _ in PHYSICAL_LEVELS)),
)
# blows are mostly light, as in play, so that patients live long enough to be tested
blow_level = st.sampled_from(
    [*[Level.LIGHT] * 4, *[Level.GRAVE] * 2, Level.CRITICAL, *MENTAL_LEVELS]
)
index = st.integers(0, 50)
action = st.one_of(
    st.tuples(st.just("receive"), blow_level),
    st.tuples(st.just("worsen"), index),
    st.tuples(st.just("survival_failure")),
    st.tuples(st.just("stabilise")),
    st.tuples(st.just("heal"), index),
    st.tuples(st.just("heal_session"), st.sampled_from(list(Track))),
    st.tuples(st.just("healing_failure"), index),
    st.tuples(st.just("neglect_watch"), st.booleans()),
    st.tuples(st.just("recover_pain"), st.integers(0, 30), st.integers(0, 3)),
)


def within_maxima(patient):
    rows = patient.table.rows
    return all(patient.count(level) <= rows[level].max for level in Level)


def non_increasing(table, levels):
    values = [table[level].max for level in levels]
    return values == sorted(values, reverse=True)


class Ledger:
    """The harness's own account of what the patient should hold."""

    def __init__(self, table):
        self.rows = table.rows
        self.mortality = 0
        self.craziness = 0
        self.pain = 0
        self.received = 0

    def points(self, level, delta):
        if level is None:
            return
        if level.track is Track.PHYSICAL:
            self.mortality += delta * self.rows[level].mortality
        else:
            self.craziness += delta * self.rows[level].mortality

    def blow(self, blow, new_wound):
        if blow.fatal:
            return
        if not new_wound:
            self.points(blow.start, -1)
        self.points(blow.final, +1)
        assert blow.pain == self.rows[blow.final].pain
        self.pain += blow.pain
        self.received += blow.pain

    def healed(self, level):
        self.points(level, -1)
        self.points(level.lower(), +1)


def transitions(patient, step):
    """Apply one action; return the new patient and the blow, or None when not applicable."""
    kind = step[0]
    wounds = patient.wounds
    physical = patient.physical
    if kind == "receive":
        return (*receive_wound(patient, step[1]), True)
    if kind == "worsen" and wounds:
        return (*worsen(patient, wounds[step[1] % len(wounds)].uid), False)
    if kind == "survival_failure" and physical:
        changed, blow = survival_failure(patient)
        return changed, blow, False
    if kind == "stabilise":
        return stabilise(patient), None, False
    if kind == "heal" and wounds:
        return heal(patient, wounds[step[1] % len(wounds)].uid), None, False
    if kind == "healing_failure" and physical:
        return healing_failure(patient, physical[step[1] % len(physical)].uid), None, False
    if kind == "neglect_watch" and wounds:
        return neglect_watch(patient, step[1]), None, False
    if kind == "recover_pain":
        return recover_pain(patient, step[1], step[2]), None, False
    return None


def out_of_play_stays_out(patient):
    """No transition ever brings an out-of-play patient back (H6, M2)."""
    probes = [("receive", lv) for lv in Level] + [
        ("worsen", 0),
        ("survival_failure",),
        ("stabilise",),
        ("heal", 0),
        ("healing_failure", 0),
        ("neglect_watch", True),
        ("neglect_watch", False),
        ("recover_pain", 5, 1),
    ]
    for probe in probes:
        result = transitions(patient, probe)
        if result is not None:
            assert result[0].status is not Status.ALIVE, probe


@FAST
@given(maxima=maxima, steps=st.lists(action, min_size=20, max_size=100))
def test_h2_w1_p1_h6_invariants_over_random_transitions(maxima, steps):
    table = default_table().with_maxima(dict(zip(PHYSICAL_LEVELS, maxima, strict=True)))
    patient = Patient(table)
    ledger = Ledger(table)
    for step in steps:
        before = patient
        kind = step[0]
        if kind == "heal_session":
            # G1-G2 (and B5, M3): every wound of the least grave level, oldest first
            order = healing_order(patient, step[1])
            for uid in order:
                level = patient.wound(uid).level
                patient = heal(patient, uid)
                ledger.healed(level)
            assert not set(order) & {
                w.uid for w in patient.wounds if w.level == before.least_grave(step[1])
            }
            levels = PHYSICAL_LEVELS if step[1] is Track.PHYSICAL else MENTAL_LEVELS
            if within_maxima(before) and non_increasing(table, levels):
                assert within_maxima(patient)  # Q2: only custom maxima can exceed
            blow = None
        else:
            result = transitions(patient, step)
            if result is None:
                continue
            patient, blow, new_wound = result
            if blow is not None:
                ledger.blow(blow, new_wound)
            elif kind == "heal":
                healed = next(w for w in before.wounds if patient.wound(w.uid) != w)
                ledger.healed(healed.level)

        # W1/S3/Q2: a wound received or worsened never lands on a full level
        if blow is not None and not blow.fatal:
            assert patient.count(blow.final) <= table[blow.final].max
        if kind in ("receive", "worsen", "survival_failure") and within_maxima(before):
            assert within_maxima(patient)

        # H2, M1: mortality and craziness follow the wounds, and match the ledger
        rows = table.rows
        assert patient.mortality == sum(rows[w.level].mortality for w in patient.physical)
        assert patient.craziness == sum(rows[w.level].mortality for w in patient.mental)
        assert patient.mortality == ledger.mortality
        assert patient.craziness == ledger.craziness
        assert patient.pain_floor == patient.mortality + patient.craziness

        # H3, F1: pain rises only by blows; pain received never decreases
        assert patient.pain_received >= before.pain_received
        assert patient.pain_received == ledger.received
        if kind == "recover_pain":
            floor = before.pain_floor
            assert patient.pain <= before.pain
            assert patient.pain >= min(before.pain, floor)  # P1: never below the floor
            if step[1] > 0 and step[2] > 0 and before.pain > floor:
                assert patient.pain == max(floor, before.pain - step[1] * step[2])
            ledger.pain = patient.pain
        assert patient.pain == ledger.pain

        # H1, M3, Q2: wounds keep their order of receipt; mental wounds are always stable
        uids = [w.uid for w in patient.wounds]
        assert uids == sorted(uids) and len(set(uids)) == len(uids)
        assert all(uid < patient.next_uid for uid in uids)
        assert all(w.stable for w in patient.mental)
        assert patient.stable == all(w.stable for w in patient.wounds)  # H4
        if kind == "stabilise":
            assert patient.stable and patient.relapse_target is None

        # D4, R3, G5: the missed-watch penalty counts up and resets when wound-free
        assert patient.missed_watches >= 0
        if not patient.wounds and kind in ("heal", "heal_session"):
            assert patient.missed_watches == 0
        if kind == "neglect_watch":
            assert patient.missed_watches == before.missed_watches + 1
            if not step[1]:
                assert all(not w.stable for w in patient.physical)

        # G4: the relapse target is a current wound made unstable by the failure
        if kind == "healing_failure":
            assert not patient.wound(patient.relapse_target).stable

        # S3, S4, G4: which wound a failed survival test touches
        if kind == "survival_failure":
            worst = before.worst()
            if before.stable:
                assert blow is None
                assert [w.level for w in patient.wounds] == [w.level for w in before.wounds]
                changed = [w.uid for w in before.wounds if patient.wound(w.uid) != w]
                assert changed == [worst.uid]
                assert not patient.wound(worst.uid).stable
            elif before.relapse_target is not None and before.wound(before.relapse_target):
                assert blow.uid == before.relapse_target
            else:
                assert blow.uid == worst.uid

        # H6: dead and incoherent are absorbing; the harness, like the engine, stops here
        if patient.status is not Status.ALIVE:
            assert blow is not None and blow.fatal
            expected = Status.DEAD if blow.start.track is Track.PHYSICAL else Status.INCOHERENT
            assert patient.status is expected
            assert patient.wounds == before.wounds  # a fatal blow adds or changes no wound
            out_of_play_stays_out(patient)
            break
        assert blow is None or not blow.fatal


@FAST
@given(
    maxima=maxima,
    levels=st.lists(st.sampled_from(list(Level)), min_size=1, max_size=12),
)
def test_w1_received_wound_overflows_to_the_first_level_with_room(maxima, levels):
    table = default_table().with_maxima(dict(zip(PHYSICAL_LEVELS, maxima, strict=True)))
    patient = Patient(table)
    for level in levels:
        new, blow = receive_wound(patient, level)
        climbed = level
        while climbed is not None and patient.count(climbed) >= table[climbed].max:
            climbed = climbed.higher()
        assert blow.final == climbed
        if climbed is None:
            assert new.status is not Status.ALIVE
            break
        assert all(
            patient.count(lv) >= table[lv].max
            for lv in Level
            if lv.track is level.track and level <= lv < climbed
        )
        patient = new


@FAST
@given(blows=st.lists(st.sampled_from([3, 5, 10]), max_size=30), start=st.integers(0, 40))
def test_f1_faint_tests_telescope_for_small_blows(blows, start):
    received = start
    total = 0
    for pain in blows:
        due = faint_tests_due(received, received + pain)
        if pain >= 10:
            assert due == 1
        else:
            assert due == (received + pain) // 5 - received // 5
            assert due in (0, 1)
        total += due if pain < 10 else 0
        received += pain
    if all(pain < 10 for pain in blows):
        assert total == received // 5 - start // 5


@FAST
@given(
    levels=st.lists(st.sampled_from(list(Level)), max_size=8),
    pain=st.integers(0, 60),
    first=st.integers(0, 20),
    second=st.integers(0, 20),
    per_hour=st.integers(0, 3),
)
def test_p1_recovery_hour_by_hour_equals_recovery_at_once(levels, pain, first, second, per_hour):
    patient = Patient(default_table())
    for level in levels:
        patient, _ = receive_wound(patient, level)
    patient = stabilise(patient.evolve(status=Status.ALIVE, pain=pain))
    once = recover_pain(patient, first + second, per_hour)
    twice = recover_pain(recover_pain(patient, first, per_hour), second, per_hour)
    assert once == twice
    assert once.pain >= min(pain, patient.pain_floor)


@FAST
@given(modifier=st.integers(-30, 30), open_roll=st.booleans())
def test_d5_odds_are_symmetric(modifier, open_roll):
    # The roll is symmetric: P(X >= -m) + P(X > m) = 1
    total = p_success(modifier, open_roll) + p_success(-modifier, open_roll, tie_succeeds=False)
    assert total == pytest.approx(1.0, abs=1e-9)


@FAST
@given(levels=st.lists(st.sampled_from(PHYSICAL_LEVELS), min_size=1, max_size=7))
def test_a2_stabilise_then_destabilise_changes_only_stability(levels):
    patient = Patient(default_table())
    for level in levels:
        patient, _ = receive_wound(patient, level)
    if not patient.alive:
        return
    stable = stabilise(patient)
    assert [w.level for w in stable.wounds] == [w.level for w in patient.wounds]
    assert destabilise(stable).wounds == patient.wounds
