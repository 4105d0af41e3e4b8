"""Q1's outcomes and counts: one order, in one place, that every engine's record follows."""

from __future__ import annotations

from simulator.engine.record import COUNT_FIELDS, RECORD_FIELDS
from simulator.exact.answer import COUNTS as EXACT_COUNTS
from simulator.exact.answer import ExactAnswer
from simulator.kernel.layout import INT_FIELDS
from simulator.rules.codes import Out
from simulator.rules.outcome import COUNTS, OUTCOMES, Count, Outcome


def test_q1_counts_in_one_order_that_every_record_follows():
    names = [c.value for c in COUNTS]
    assert names == [f for f in RECORD_FIELDS if f in names]  # the object engine's record
    assert list(COUNT_FIELDS[: len(names)]) == names
    assert list(INT_FIELDS[2 : 2 + len(names)]) == names  # the kernel's record
    assert EXACT_COUNTS == COUNTS  # the exact engine's expectations


def test_q1_a_count_reads_as_its_name():
    assert Count.FAINTS == "faints"
    expected = ExactAnswer(horizon_s=0.0, eps=0.0).expected
    expected[Count.FAINTS] += 2.5
    assert expected["faints"] == 2.5  # the JSON and the tables read it by name
    assert list(expected) == list(COUNTS)


def test_q1_outcomes_in_one_order():
    assert tuple(o.value for o in Outcome) == OUTCOMES
    assert [o.name for o in Out] == [o.name for o in Outcome]  # the kernel's codes
    assert list(ExactAnswer(horizon_s=0.0, eps=0.0).outcomes) == list(OUTCOMES)
