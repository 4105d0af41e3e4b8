"""A chunk of the kernel digested in compiled passes: the numpy path's columns and tally, byte
for byte (:func:`simulator.runner.compact.kernel_chunk`, :mod:`simulator.kernel.digest`).

The reference is what a chunk was before: :func:`~simulator.runner.compact.narrow` of the
kernel's columns and :meth:`~simulator.runner.tally.Tally.of` of them. Every shipped scenario
(a few hundred trials each, so that ``make check`` runs the kernel as plain Python), and
matrices made by hand for what the scenarios never give in a few hundred trials: counts that
need uint16 and int32, negative values, infinities, long runs of equal times.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.ipc as pa_ipc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.kernel import digest
from simulator.kernel.engine import kernel_columns, kernel_matrices
from simulator.kernel.layout import FLOAT_FIELDS, INT_FIELDS
from simulator.runner.compact import (
    Chunk,
    chunk_table,
    kernel_chunk,
    narrow,
    read_chunk,
    write_chunk_file,
)
from simulator.runner.tally import Tally
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def assert_same_chunk(found: Chunk, expected: Chunk) -> None:
    """The same columns (names, order, types, bytes) and the same tally, array for array."""
    assert (found.start, found.stop) == (expected.start, expected.stop)
    assert found.columns is not None and expected.columns is not None
    assert list(found.columns) == list(expected.columns)
    for name, values in expected.columns.items():
        assert found.columns[name].dtype == values.dtype, name
        assert found.columns[name].tobytes() == values.tobytes(), name
    a, b = found.tally, expected.tally
    assert a.n == b.n
    assert list(a.sums.items()) == list(b.sums.items())
    for name in ("outcomes", "dead_causes", "aggravations"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), name
    assert list(a.events) == list(b.events)
    for name, counts in b.events.items():
        mine = a.events[name]
        assert mine.values.dtype == counts.values.dtype, name
        assert mine.values.tobytes() == counts.values.tobytes(), name
        assert mine.counts.dtype == counts.counts.dtype, name
        assert mine.counts.tobytes() == counts.counts.tobytes(), name


def by_numpy(start: int, out_f: np.ndarray, out_i: np.ndarray) -> Chunk:
    """The chunk as narrow and Tally.of make it (the path before the compiled digest)."""
    raw = {name: out_i[:, j] for j, name in enumerate(INT_FIELDS)}
    raw |= {name: out_f[:, j] for j, name in enumerate(FLOAT_FIELDS)}
    return Chunk.of(start, narrow(raw))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_digests_to_the_numpy_columns_and_tally(path):
    scenario = load_scenario(path)
    for start, n in ((0, 0), (3, 1), (40, 240)):
        out_f, out_i = kernel_matrices(scenario, 11, start, start + n)
        expected = Chunk.of(start, narrow(kernel_columns(scenario, 11, start, start + n)))
        assert_same_chunk(kernel_chunk(start, out_f, out_i), expected)


def made_up(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Record matrices of every kind of column: small, uint16, int32 and int64 counts, negatives,
    NaN and infinite times, and times on a coarse grid (long runs of equal values)."""
    rng = np.random.default_rng(seed)
    out_i = rng.integers(0, 3, size=(n, len(INT_FIELDS)), dtype=np.int64)  # as the kernel's
    out_i[:, INT_FIELDS.index("outcome")] = rng.integers(0, 4, size=n)
    out_i[:, INT_FIELDS.index("cause")] = rng.integers(0, 9, size=n)
    out_i[:, INT_FIELDS.index("aggravations")] = rng.integers(0, 40, size=n)
    out_i[:, INT_FIELDS.index("survival_tests")] = rng.integers(0, 60_000, size=n)
    out_i[:, INT_FIELDS.index("faints")] = rng.integers(-5, 5, size=n)
    out_i[:, INT_FIELDS.index("healing_tests")] = rng.integers(0, 2**20, size=n)
    # a test every second for a century: past 2**31 (stop 44's fuzz round)
    out_i[:, INT_FIELDS.index("first_aid_attempts")] = rng.integers(2**31 - 3, 2**32, size=n)
    out_f = np.round(rng.uniform(0, 48, size=(n, len(FLOAT_FIELDS))) * 4) / 4
    out_f[rng.random((n, len(FLOAT_FIELDS))) < 0.3] = np.nan
    out_f[rng.random((n, len(FLOAT_FIELDS))) < 0.05] = np.inf
    out_f[:, FLOAT_FIELDS.index("first_stable_h")] = 0.5  # one value, n times
    out_f[: n // 3, FLOAT_FIELDS.index("healed_h")] = rng.uniform(0, 1, size=n // 3)  # distinct
    return out_f, out_i


@pytest.mark.parametrize("n", [1, 2, 17, 2_000])
def test_made_up_matrices_digest_to_the_numpy_columns_and_tally(n):
    out_f, out_i = made_up(n, n)
    found = kernel_chunk(500, out_f, out_i)
    assert_same_chunk(found, by_numpy(500, out_f, out_i))
    if n < 2_000:  # a few values may all fit a narrower type
        return
    types = {name: found.columns[name].dtype for name in found.columns}
    assert types["survival_tests"] == np.uint16 and types["healing_tests"] == np.int32
    assert types["faints"] == np.int32 and types["outcome"] == np.int8
    assert types["first_aid_attempts"] == np.int64


def test_tallies_of_digested_chunks_merge_as_the_whole_frames_do():
    out_f, out_i = made_up(3_000, 3)
    merged = Tally()
    for a in range(0, 3_000, 700):
        merged.add(kernel_chunk(a, out_f[a : a + 700], out_i[a : a + 700]).tally)
    whole = by_numpy(0, out_f, out_i).tally
    assert merged.n == whole.n and merged.sums == whole.sums
    for name, counts in whole.events.items():
        np.testing.assert_array_equal(merged.events[name].values, counts.values)
        np.testing.assert_array_equal(merged.events[name].counts, counts.counts)


def sorted_by_the_kernel(values: np.ndarray) -> np.ndarray:
    rows = np.zeros((2, max(1, len(values)) + 3))
    rows[1, : len(values)] = values
    scratch = np.empty((2, rows.shape[1]), dtype=np.uint64)
    digest.sort_range(rows.view(np.uint64), 1, len(values), scratch, np.empty(256, np.int64))
    assert not rows[0].any()  # only its row is touched
    return rows[1, : len(values)]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.sampled_from([0.0, 0.25, 1.5, 2.0, 7.75, 1e6, -3.5])
        | st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False).map(lambda x: x + 0.0),
        max_size=300,
    )
)
def test_the_compiled_sort_sorts_as_numpy_does(values):
    expected = np.sort(np.array(values, dtype=np.float64))
    found = sorted_by_the_kernel(np.array(values, dtype=np.float64))
    assert found.tobytes() == expected.tobytes()


def test_the_sort_of_a_large_range_of_few_values_of_sorted_values_and_of_infinities():
    rng = np.random.default_rng(1)
    for values in (
        rng.integers(0, 5, 5_000).astype(float),
        np.arange(5_000.0)[::-1],
        np.ones(5_000),
        np.round(rng.uniform(0, 1_440, 5_000) * 4) / 4,
        np.array([np.inf, -np.inf, 3.0, -1e-300, 1e-300, 0.0]),
    ):
        assert sorted_by_the_kernel(values).tobytes() == np.sort(values).tobytes()


def test_chunk_files_are_compressed_and_read_back_whole(tmp_path):
    scenario = load_scenario(ROOT / "scenarios" / "hydra.toml")
    chunk = kernel_chunk(100, *kernel_matrices(scenario, 3, 100, 1_100))
    assert chunk.columns is not None
    path = write_chunk_file(chunk.columns, 100, tmp_path / "chunk-100-1100.arrow")
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    plain = chunk_table(chunk.columns, 100).nbytes
    assert path.stat().st_size < plain / 2
    back = read_chunk(path)
    for name, values in chunk.columns.items():
        assert back[name].dtype == values.dtype and back[name].tobytes() == values.tobytes()


def test_an_uncompressed_chunk_file_of_an_earlier_version_is_read(tmp_path):
    out_f, out_i = made_up(300, 9)
    chunk = kernel_chunk(0, out_f, out_i)
    assert chunk.columns is not None
    table = chunk_table(chunk.columns, 0)
    path = tmp_path / "chunk-0-300.arrow"
    with pa.OSFile(str(path), "wb") as sink, pa_ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)  # as the last version wrote them
    back = read_chunk(path)
    for name, values in chunk.columns.items():
        assert back[name].tobytes() == values.tobytes(), name


def test_a_chunk_file_replaces_an_old_one_whole_and_leaves_no_temporary_file(tmp_path):
    out_f, out_i = made_up(50, 2)
    chunk = kernel_chunk(0, out_f, out_i)
    assert chunk.columns is not None
    target = tmp_path / "chunk-0-50.arrow"
    target.write_bytes(b"an older, damaged chunk")
    write_chunk_file(chunk.columns, 0, target)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    assert read_chunk(target)["outcome"].tobytes() == chunk.columns["outcome"].tobytes()


def test_the_threads_of_the_kernel_restore_the_switch_interval():
    from simulator.runner.backends import local
    from simulator.runner.chunks import ChunkJob

    scenario = load_scenario(ROOT / "scenarios" / "hydra.toml")
    before = sys.getswitchinterval()
    jobs = [ChunkJob("0", scenario, 1, a, a + 20) for a in range(0, 80, 20)]
    seen = []
    for _, chunk in local._in_threads(jobs, 2):
        seen.append(sys.getswitchinterval())
        assert chunk.tally.n == 20
    assert seen and max(seen) <= local.SWITCH_INTERVAL_S
    assert sys.getswitchinterval() == before
