"""``trials.parquet`` of row groups encoded apart and joined: pyarrow's one-go file, byte for
byte (:mod:`simulator.runner.row_groups`, :func:`simulator.runner.trials.write_streamed`).

The reference is the file pyarrow's writer makes of the same row groups in one go, as
``write_streamed`` wrote it before its row groups were encoded on several threads; and, for
a file of one row group, ``write_parquet`` of the whole frame.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from simulator.engine.record import RECORD_FIELDS, TIME_FIELDS
from simulator.runner import row_groups
from simulator.runner import trials as trials_module


def compact(n: int, seed: int) -> dict[str, np.ndarray]:
    """Made-up compact columns of ``n`` trials (every type a chunk holds, NaN times)."""
    rng = np.random.default_rng(seed)
    columns: dict[str, np.ndarray] = {}
    for name in RECORD_FIELDS:
        if name == "outcome":
            columns[name] = rng.integers(0, 4, n).astype(np.int8)
        elif name == "cause":
            columns[name] = rng.integers(0, 9, n).astype(np.int8)
        elif name in (*TIME_FIELDS, "max_pain"):
            values = np.round(rng.uniform(0, 1_440, n) * 4) / 4
            values[rng.random(n) < 0.4] = np.nan
            columns[name] = values
        else:
            columns[name] = rng.integers(0, 300, n).astype(np.uint16)
    return columns


def chunks(n: int, size: int, seed: int = 1) -> list[tuple[int, dict[str, np.ndarray]]]:
    whole = compact(n, seed)
    return [(a, {k: v[a : a + size] for k, v in whole.items()}) for a in range(0, n, size)]


def in_one_go(parts: list[tuple[int, dict[str, np.ndarray]]], seed: int, path: Path) -> bytes:
    """The file pyarrow writes of the same row groups one after the other, on one thread."""
    schema = trials_module._arrow_schema()
    whole = {k: np.concatenate([c[k] for _, c in parts]) for k in parts[0][1]}
    n, size = len(whole["outcome"]), trials_module.ROW_GROUP
    with pq.ParquetWriter(path, schema, compression="snappy") as writer:
        for a in range(0, n, size):
            part = {k: v[a : a + size] for k, v in whole.items()}
            table = trials_module._arrow_table(part, a, seed, schema)
            writer.write_table(table, row_group_size=size)
    return path.read_bytes()


@pytest.mark.parametrize("encoders", [1, 2, 3, 8])
def test_row_groups_encoded_apart_make_pyarrows_file_byte_for_byte(tmp_path, monkeypatch, encoders):
    monkeypatch.setattr(trials_module, "ROW_GROUP", 1_000)
    parts = chunks(5_432, 700)  # row groups that cut chunks, and a short last one
    expected = in_one_go(parts, 3, tmp_path / "one-go.parquet")
    written = trials_module.write_streamed(iter(parts), 3, tmp_path / "t.parquet", encoders)
    assert written.read_bytes() == expected
    assert pq.ParquetFile(written).metadata.num_row_groups == 6
    back = trials_module.read_trials(written)
    assert back["trial"].tolist() == list(range(5_432)) and (back["seed"] == 3).all()
    assert {p.name for p in tmp_path.iterdir()} == {"one-go.parquet", "t.parquet"}  # no .tmp


def test_one_row_group_is_the_whole_frames_file(tmp_path):
    parts = chunks(3_000, 1_001, seed=4)
    frame = trials_module.concat_chunks([trials_module.columns_to_frame(c, s, 9) for s, c in parts])
    whole = trials_module.write_parquet(frame, tmp_path / "whole.parquet")
    streamed = trials_module.write_streamed(iter(parts), 9, tmp_path / "streamed.parquet", 4)
    assert streamed.read_bytes() == whole.read_bytes()
    pd.testing.assert_frame_equal(trials_module.read_trials(streamed), frame)


def test_no_trials_is_pyarrows_file_of_no_row_group(tmp_path):
    path = trials_module.write_streamed(iter([]), 1, tmp_path / "none.parquet", 2)
    assert pq.ParquetFile(path).metadata.num_row_groups == 0
    assert pq.read_table(path).num_rows == 0


def test_a_footer_is_read_and_written_back_to_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(trials_module, "ROW_GROUP", 500)
    data = in_one_go(chunks(2_000, 2_000), 1, tmp_path / "f.parquet")
    footer, start = row_groups._footer(data)
    again = bytearray()
    row_groups._write(again, footer)
    assert bytes(again) == data[start:-8]
    assert len(footer.get(4)[2][1]) == 4  # FileMetaData.row_groups


def test_what_is_not_parquet_is_refused():
    with pytest.raises(ValueError, match="not a parquet file"):
        row_groups.Joiner(io.BytesIO()).add(b"PAR1 but not at the end")
    with pytest.raises(ValueError, match="no parquet file"):
        row_groups.Joiner(io.BytesIO()).close()


@pytest.mark.parametrize("workers", [1, 2])
def test_trials_parquet_is_encoded_on_as_many_threads_as_the_run_had_workers(tmp_path, workers):
    from simulator.studies.api import run_study

    hydra = Path(__file__).resolve().parents[2] / "scenarios" / "hydra.toml"
    result = run_study(hydra, trials=400, seed=2, workers=workers, out=tmp_path, figures=False)
    assert result.estimate.set.encoders == workers
