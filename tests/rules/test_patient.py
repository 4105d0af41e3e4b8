"""The patient state (H1-H6): derived quantities and copying."""

from simulator.rules.levels import Level, Track
from simulator.rules.patient import FIELDS, Patient, Status, Wound
from simulator.rules.table import default_table


def test_h1_evolve_keeps_every_field_it_is_not_told_to_change():
    table = default_table()
    p = Patient(table, (Wound(0, Level.GRAVE, False),), 7, 9, 2, Status.ALIVE, 0, 123.0, 1)
    assert p.evolve() == p and p.evolve() is not p
    other_table = table.with_cells(Level.GRAVE, pain=6)
    new = {  # of the right types: a compiled patient checks them
        "table": other_table,
        "wounds": (),
        "pain": 8,
        "pain_received": 10,
        "missed_watches": 3,
        "status": Status.DEAD,
        "relapse_target": 4,
        "unconscious_until": 5.0,
        "next_uid": 6,
    }
    assert set(new) == set(FIELDS)
    for name in FIELDS:
        assert getattr(p.evolve(), name) == getattr(p, name)
        changed = p.evolve(**{name: new[name]})
        assert getattr(changed, name) == new[name] != getattr(p, name)
        assert all(
            getattr(changed, other) == getattr(p, other) for other in FIELDS if other != name
        )
    q = p.evolve(pain=1, next_uid=5)
    assert (q.pain, q.next_uid, q.pain_received, q.missed_watches) == (1, 5, 9, 2)


def test_h4_h5_worst_wound_and_state():
    table = default_table()
    wounds = (
        Wound(0, Level.LIGHT, True),
        Wound(1, Level.GRAVE, True),
        Wound(2, Level.GRAVE, False),
        Wound(3, Level.SHOCK, True),
    )
    p = Patient(table, wounds)
    assert p.worst().uid == 1  # the first received among the gravest (H5)
    assert not p.stable  # one unstable wound makes the state unstable (H4)
    assert p.least_grave() is Level.LIGHT and p.least_grave(Track.MENTAL) is Level.SHOCK
    assert p.mortality == 1 + 3 + 3 and p.craziness == 1 and p.pain_floor == 8


def test_h1_evolve_refuses_a_field_that_does_not_exist():
    import pytest

    with pytest.raises(TypeError, match="pian"):
        Patient(default_table()).evolve(pian=3)


def test_h1_patients_and_wounds_compare_and_hash_by_value():
    table = default_table()
    a = Patient(table, (Wound(0, Level.GRAVE, False),), 7)
    b = Patient(table, (Wound(0, Level.GRAVE, False),), 7)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.evolve(pain=6) and Wound(0, Level.GRAVE, False) != Wound(0, Level.GRAVE, True)
    assert "pain=7" in repr(a) and "Wound(uid=0, level=" in repr(a)
