"""Chunks as compact columns and tallies (issue 33): the same files and numbers as the frame.

The reference everywhere is the whole ``trials`` frame and what was computed from it before
chunks came back compact: :func:`~simulator.studies.frames.summarize`, ``curves``,
``cause_curves``, :meth:`~simulator.studies.statistic.Statistic.indicators` and
``write_parquet``. Trial counts are small; the scenarios are the project's, one on the
compiled kernel (when compiled), one with mental wounds.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.errors import HarmoniesNote, UserError
from simulator.runner import trials as trials_module
from simulator.runner.compact import TrialSet, frame_columns
from simulator.runner.tally import Tally, ValueCounts
from simulator.scenario.reading import load_scenario
from simulator.studies.api import run_study
from simulator.studies.frames import cause_curves, curves, summarize, summarize_tally
from simulator.studies.statistic import Statistic

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "scenarios" / "careless_watches.toml"
SHAKEN = ROOT / "scenarios" / "shaken.toml"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def outputs(folder: Path) -> dict[str, str]:
    """The hash of every data file a run wrote (figures are drawn from the same tallies)."""
    names = ("trials.parquet", "summary.json", "summary.csv", "scenario.toml")
    return {name: digest(folder / name) for name in names}


@pytest.mark.parametrize(
    ("path", "trials"), [(CAMPAIGN, 6_000), (SHAKEN, 600)], ids=["physical", "mental"]
)
def test_files_are_byte_identical_for_workers_and_chunk_sizes(tmp_path, path, trials):
    found = {}
    for workers, chunk in ((1, None), (2, None), (1, 350), (2, 1_001)):
        out = tmp_path / f"w{workers}-c{chunk}"
        result = run_study(
            path, trials=trials, seed=5, workers=workers, chunk_size=chunk, out=out, figures=False
        )
        found[(workers, chunk)] = outputs(out)
        assert not (out / ".partial").exists()
    assert len({tuple(sorted(v.items())) for v in found.values()}) == 1, found
    frame = result.trials  # built from trials.parquet now (the chunks are discarded)
    assert len(frame) == trials and frame["outcome"].nunique() > 1
    whole = tmp_path / "whole.parquet"
    trials_module.write_parquet(frame, whole)  # the file as it was written from the frame
    assert digest(whole) == found[(1, None)]["trials.parquet"]
    pd.testing.assert_frame_equal(trials_module.read_trials(out / "trials.parquet"), frame)


def test_the_streamed_file_is_the_frames_across_row_groups(tmp_path, monkeypatch):
    frame = run_study(CAMPAIGN, trials=3_000, seed=2, workers=1).trials
    monkeypatch.setattr(trials_module, "ROW_GROUP", 700)  # row groups end inside chunks
    columns = frame_columns(frame)
    parts = [
        (a, {k: v[a : a + 450] for k, v in columns.items()}) for a in range(0, len(frame), 450)
    ]
    streamed = trials_module.write_streamed(iter(parts), 2, tmp_path / "streamed.parquet")
    whole = tmp_path / "whole.parquet"
    frame.to_parquet(whole, engine="pyarrow", index=False, row_group_size=700)
    assert digest(streamed) == digest(whole)


def test_compact_columns_are_narrow_and_give_the_frame_back():
    frame = run_study(SHAKEN, trials=300, seed=4, workers=1).trials
    columns = frame_columns(frame)
    assert columns["outcome"].dtype == np.int8 and columns["cause"].dtype == np.int8
    assert columns["aggravations"].dtype == np.uint8
    assert columns["death_h"].dtype == np.float64
    again = TrialSet(4, Tally.of(columns), [(0, columns)]).frame()
    pd.testing.assert_frame_equal(again, frame)


def merged(frame: pd.DataFrame, size: int, reverse: bool = False) -> Tally:
    """The tally of a frame, merged chunk by chunk of ``size`` rows (last chunk first)."""
    columns = frame_columns(frame)
    starts = list(range(0, len(frame), size))
    tally = Tally()
    for a in reversed(starts) if reverse else starts:
        tally.add(Tally.of({k: v[a : a + size] for k, v in columns.items()}))
    return tally


@pytest.mark.parametrize(
    ("path", "trials"), [(CAMPAIGN, 5_000), (SHAKEN, 500)], ids=["physical", "mental"]
)
def test_merged_tallies_give_the_frames_summary_curves_and_statistics(path, trials):
    frame = run_study(path, trials=trials, seed=11, workers=1).trials
    horizon_h = load_scenario(path).horizon / 3600
    reference = summarize(frame, "x", 11)
    for size, reverse in ((trials, False), (333, False), (97, True)):
        tally = merged(frame, size, reverse)
        assert summarize_tally(tally, "x", 11) == reference  # every number, exactly
        pd.testing.assert_frame_equal(curves(tally, horizon_h), curves(frame, horizon_h))
        early = [h / 60 for h in range(0, 24 * 60 + 1, 7)]
        pd.testing.assert_frame_equal(
            curves(tally, horizon_h, times=early), curves(frame, horizon_h, times=early)
        )
        pd.testing.assert_frame_equal(
            cause_curves(tally, horizon_h), cause_curves(frame, horizon_h)
        )
        assert np.array_equal(tally.aggravations, np.bincount(frame["aggravations"]))
    names = [
        *(f"p_{o}" for o in ("dead", "healed", "wounded", "incoherent")),
        *(f"p_{o}_by_{t}" for o in ("dead", "healed", "wounded", "incoherent")
          for t in ("1h", "1d", "3d", "1w")),
        "p_dead_wound", "p_dead_stable_test_by_1d", "p_dead_healing_failure_by_1w",
    ]  # fmt: skip
    tally = merged(frame, 250)
    for name in names:
        stat = Statistic.parse(name)
        assert stat.count(tally) == int(stat.indicators(frame).sum()), name
        parts = [frame.iloc[i : i + 1_700] for i in range(0, len(frame), 1_700)]
        by_chunks = [stat.indicators_of(frame_columns(part)) for part in parts]
        assert np.array_equal(np.concatenate(by_chunks), stat.indicators(frame)), name
    medians = (reference["median_time_to_death_h"], reference["median_time_to_heal_h"])
    assert any(m is not None for m in medians)  # the medians are really compared


def test_value_counts_give_numpys_median_and_counts():
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 400, 1001):
        values = np.round(rng.exponential(30.0, size), 1)  # many repeated values
        values[rng.random(size) < 0.2] = np.nan  # missing: not counted
        counts = ValueCounts()
        for part in np.array_split(values, 5):
            counts.add(ValueCounts.of(part))
        finite = values[np.isfinite(values)]
        assert counts.total == finite.size
        if finite.size:
            assert counts.median() == float(np.median(finite))
            assert counts.median(24.0) == float(np.median(finite / 24.0))
        else:
            assert counts.median() is None
        grid = np.linspace(0, 200, 57)
        expected = np.searchsorted(np.sort(finite), grid, side="right")
        assert np.array_equal(counts.count_le(grid), expected)


def test_a_run_without_a_folder_keeps_compact_chunks_and_gives_the_frame(tmp_path):
    kept = run_study(CAMPAIGN, trials=2_000, seed=8, workers=2, chunk_size=300)
    saved = run_study(CAMPAIGN, trials=2_000, seed=8, workers=1, out=tmp_path / "o")
    pd.testing.assert_frame_equal(kept.trials, saved.trials)
    assert kept.summary_json() == saved.summary_json()
    assert kept.estimate.count == 2_000


def test_a_result_saved_again_into_its_own_folder_keeps_its_trials(tmp_path):
    """A study saved with ``out=`` reads its trials back from that folder's trials.parquet.

    Saving it there again (a notebook's ``result.save(out)``) replaces the folder's earlier
    result whole: the trials are read into memory first, so that removing that file neither
    fails the save nor loses the trials, and the folder gets the very same files again.
    """
    out = tmp_path / "o"
    result = run_study(CAMPAIGN, trials=800, seed=3, workers=1, chunk_size=300, out=out,
                       figures=False)  # fmt: skip
    first = outputs(out)
    frame = result.trials
    result.save(out, figures=False)
    assert outputs(out) == first
    pd.testing.assert_frame_equal(result.trials, frame)
    result.save(tmp_path / "elsewhere", figures=False)  # and it still saves anywhere else
    assert outputs(tmp_path / "elsewhere") == first


def test_a_result_whose_trials_file_was_replaced_never_gives_another_results_trials(tmp_path):
    """Its trials read back from ``out/trials.parquet``, which another study then replaced.

    The result once gave the other study's trials as its own, and saved them beside its own
    summary: files of two results side by side. It now says what happened, and a save
    elsewhere is refused before anything is written there.
    """
    out = tmp_path / "o"
    mine = run_study(CAMPAIGN, trials=300, seed=1, workers=1, out=out, figures=False)
    with pytest.warns(HarmoniesNote, match="replacing the earlier result"):
        run_study(SHAKEN, trials=300, seed=1, workers=1, out=out, figures=False)
    with pytest.raises(UserError, match=r"trials\.parquet.*replaced or changed since"):
        mine.trials  # noqa: B018 - the property reads the file
    with pytest.raises(UserError, match="replaced or changed since"):
        mine.save(tmp_path / "elsewhere", figures=False)
    assert not (tmp_path / "elsewhere").exists()
    assert mine.summary_json()["trials"] == 300  # its tally still answers
