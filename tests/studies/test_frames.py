"""The trials frame, its summary (CONTRACT.md keys) and its curves over campaign time."""

import math

import numpy as np
import pandas as pd
import pytest

from simulator.engine.record import COUNT_FIELDS, RECORD_FIELDS, TIME_FIELDS, TrialRecord
from simulator.rules.outcome import OUTCOMES
from simulator.studies.frames import (
    CURVE_STATES,
    OUTCOME_DTYPE,
    coerce,
    concat_chunks,
    curves,
    records_to_frame,
    summarize,
    summary_frame,
)
from simulator.studies.stats import wilson

CONTRACT_KEYS = [
    "scenario",
    "trials",
    "seed",
    "p_dead",
    "p_dead_ci",
    "p_healed",
    "p_healed_ci",
    "p_wounded",
    "p_incoherent",
    "median_time_to_heal_h",
    "mean_aggravations",
    "p_dead_by_cause",
    "p_dead_by_cause_ci",
]


def hand_made() -> pd.DataFrame:
    """Four trials: dead at 10 h, healed at 30 h, wounded to the end, incoherent at 20 h."""
    records = [
        TrialRecord(outcome="dead", end_h=10.0, death_h=10.0, aggravations=2),
        TrialRecord(outcome="healed", end_h=30.0, healed_h=30.0, first_stable_h=1.0),
        TrialRecord(outcome="wounded", end_h=40.0, first_stable_h=5.0, aggravations=1),
        TrialRecord(outcome="incoherent", end_h=20.0, incoherent_h=20.0),
    ]
    return records_to_frame(records, start=0, seed=7)


def test_frame_columns_and_dtypes():
    frame = hand_made()
    assert list(frame.columns) == ["trial", "seed", *RECORD_FIELDS]
    assert frame["trial"].dtype == np.int64
    assert frame["seed"].dtype == np.int64
    assert frame["outcome"].dtype == OUTCOME_DTYPE
    assert list(frame["outcome"].cat.categories) == list(OUTCOMES)
    for name in TIME_FIELDS:
        assert frame[name].dtype == np.float64
    for name in COUNT_FIELDS:
        assert frame[name].dtype == np.int64  # a count passes 2**31 with a test a second
    assert frame["trial"].tolist() == [0, 1, 2, 3]
    assert (frame["seed"] == 7).all()


def test_chunks_concatenate_sorted_by_trial():
    frame = hand_made()
    later = records_to_frame([TrialRecord(outcome="healed", healed_h=3.0)], start=4, seed=7)
    joined = concat_chunks([later, frame.iloc[2:], frame.iloc[:2]])
    assert joined["trial"].tolist() == [0, 1, 2, 3, 4]
    assert joined.index.tolist() == [0, 1, 2, 3, 4]
    assert joined["outcome"].dtype == OUTCOME_DTYPE
    pd.testing.assert_frame_equal(coerce(joined), joined)


def test_empty_chunk_has_the_columns():
    empty = records_to_frame([], start=10, seed=0)
    assert list(empty.columns) == ["trial", "seed", *RECORD_FIELDS]
    assert len(empty) == 0


def test_summary_has_contract_keys_and_values():
    summary = summarize(hand_made(), "Hand-made", seed=7)
    assert list(summary)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert summary["scenario"] == "Hand-made"
    assert summary["trials"] == 4
    assert summary["seed"] == 7
    assert summary["p_dead"] == summary["p_healed"] == summary["p_incoherent"] == 0.25
    assert summary["p_wounded"] == 0.25
    assert summary["p_dead_ci"] == pytest.approx(list(wilson(1, 4)))
    assert summary["median_time_to_heal_h"] == 30.0
    assert summary["mean_aggravations"] == 0.75
    assert summary["p_stabilised"] == 0.5
    assert isinstance(summary["p_dead_ci"], list)


def test_summary_median_is_none_when_none_healed():
    frame = records_to_frame([TrialRecord(outcome="dead", death_h=1.0)] * 3, 0, 0)
    summary = summarize(frame, "Doom", 0)
    assert summary["median_time_to_heal_h"] is None
    assert summary["p_healed_ci"][0] == 0.0
    assert summary["p_healed_ci"][1] > 0.0
    row = summary_frame(summary)
    assert len(row) == 1
    assert math.isnan(row["median_time_to_heal_h"].iloc[0])
    assert {"p_dead", "p_dead_low", "p_dead_high"} <= set(row.columns)


def test_curves_of_a_hand_made_frame():
    table = curves(hand_made(), horizon_h=40.0, points=5)
    assert list(table.columns) == ["time_h", "state", "share", "low", "high"]
    assert list(table["state"].cat.categories) == list(CURVE_STATES)
    wide = table.pivot(index="time_h", columns="state", values="share")
    assert wide.index.tolist() == [0.0, 10.0, 20.0, 30.0, 40.0]
    expected = {
        "dead": [0, 1, 1, 1, 1],
        "incoherent": [0, 0, 1, 1, 1],
        "healed": [0, 0, 0, 1, 1],
        "wounded": [4, 3, 2, 1, 1],
        "stabilised": [0, 2, 2, 2, 2],
    }
    for state, counts in expected.items():
        assert wide[state].tolist() == [c / 4 for c in counts], state
    partition = wide[["dead", "incoherent", "healed", "wounded"]].sum(axis=1)
    assert np.allclose(partition, 1.0)
    band = table[(table["state"] == "dead") & (table["time_h"] == 10.0)].iloc[0]
    assert (band["low"], band["high"]) == pytest.approx(wilson(1, 4))


def test_curves_count_healed_only_for_trials_that_ended_healed():
    # A record that ended wounded never counts as healed, whatever healed_h says.
    odd = records_to_frame([TrialRecord(outcome="wounded", healed_h=5.0)], 0, 0)
    table = curves(odd, horizon_h=10.0, points=3)
    healed = table[table["state"] == "healed"]["share"]
    assert healed.tolist() == [0.0, 0.0, 0.0]


def test_curves_at_chosen_times_read_the_same_as_on_the_even_grid():
    # "Within an hour, a day, ...": any times, in the order given, equal to the even grid's.
    even = curves(hand_made(), horizon_h=40.0, points=5)
    chosen = curves(hand_made(), horizon_h=40.0, times=[30.0, 10.0, 40.0])
    assert chosen[chosen["state"] == "dead"]["time_h"].tolist() == [30.0, 10.0, 40.0]
    for time_h in (10.0, 30.0, 40.0):
        a = even[even["time_h"] == time_h].reset_index(drop=True)
        b = chosen[chosen["time_h"] == time_h].reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)
    between = curves(hand_made(), horizon_h=40.0, times=[15.0])
    assert between.set_index("state")["share"]["wounded"] == 3 / 4


@pytest.mark.parametrize("times", [[], [-1.0], [41.0], [float("nan")]])
def test_curves_refuse_times_outside_the_horizon(times):
    with pytest.raises(ValueError, match="from 0 to the horizon"):
        curves(hand_made(), horizon_h=40.0, times=times)


def test_cause_curves_count_each_cause_on_codes_as_on_texts():
    from simulator.studies.frames import cause_curves

    records = [
        TrialRecord(outcome="dead", end_h=10.0, death_h=10.0, cause="wound"),
        TrialRecord(outcome="dead", end_h=20.0, death_h=20.0, cause="stable_test"),
        TrialRecord(outcome="dead", end_h=30.0, death_h=30.0, cause="wound"),
        TrialRecord(outcome="wounded", end_h=40.0),
    ]
    frame = records_to_frame(records, start=0, seed=7)
    table = cause_curves(frame, horizon_h=40.0, points=5)
    wide = table.pivot(index="time_h", columns="cause", values="share")
    assert wide["wound"].tolist() == [0, 0.25, 0.25, 0.5, 0.5]
    assert wide["stable_test"].tolist() == [0, 0, 0.25, 0.25, 0.25]
    assert wide["blow"].tolist() == [0.0] * 5
    texts = frame.assign(cause=frame["cause"].astype(object))  # not categorical: read as texts
    pd.testing.assert_frame_equal(table, cause_curves(texts, horizon_h=40.0, points=5))
