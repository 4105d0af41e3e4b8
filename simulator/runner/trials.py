"""The ``trials`` frame: trial records as a typed pandas frame, joined, written and read.

The ``trials`` frame has one row per trial: ``trial`` and ``seed`` (int64), then the fields
of :class:`~simulator.engine.record.TrialRecord` in order. ``outcome`` is a categorical with the
categories :data:`~simulator.engine.record.OUTCOMES`; ``cause`` a categorical with the categories
:data:`~simulator.rules.cause.CAUSES`, missing for a trial that did not end dead or incoherent
(Q3); times are hours (float64, NaN when the event
did not happen); counts are small integers; ``max_pain`` is a float64 (P1 allows fractions).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator.engine.record import RECORD_FIELDS, TIME_FIELDS, TrialRecord
from simulator.files import atomic_write
from simulator.rules.cause import CAUSES
from simulator.rules.outcome import OUTCOMES

OUTCOME_DTYPE = pd.CategoricalDtype(categories=list(OUTCOMES), ordered=False)
"""The dtype of the ``outcome`` column."""

CAUSE_DTYPE = pd.CategoricalDtype(categories=list(CAUSES), ordered=False)
"""The dtype of the ``cause`` column (Q3); missing (NaN) when the trial did not end so."""


def column_dtypes() -> dict[str, Any]:
    """The dtype of every column of the ``trials`` frame, in column order."""
    dtypes: dict[str, Any] = {"trial": np.int64, "seed": np.int64}
    for name in RECORD_FIELDS:
        if name == "outcome":
            dtypes[name] = OUTCOME_DTYPE
        elif name == "cause":
            dtypes[name] = CAUSE_DTYPE
        elif name in TIME_FIELDS or name == "max_pain":  # pain may have fractions (P1)
            dtypes[name] = np.float64
        else:  # a count passes 2**31 with a test every second for 69 years
            dtypes[name] = np.int64
    return dtypes


def records_to_frame(records: Sequence[TrialRecord], start: int, seed: int) -> pd.DataFrame:
    """Build the frame of consecutive trials ``start, start + 1, ...`` from their records.

    Args:
        records: One record per trial, in trial order (one chunk: a few thousand at most).
        start: The index of the first trial.
        seed: The study's seed.

    Returns:
        The ``trials`` frame of these trials, columns typed as :func:`column_dtypes`.
    """
    n = len(records)
    columns = list(zip(*(r.as_tuple() for r in records), strict=True)) if n else []
    data: dict[str, Any] = {
        "trial": np.arange(start, start + n, dtype=np.int64),
        "seed": np.full(n, seed, dtype=np.int64),
    }
    dtypes = column_dtypes()
    for i, name in enumerate(RECORD_FIELDS):
        values = columns[i] if n else ()
        if name == "outcome":
            data[name] = pd.Categorical(values, dtype=OUTCOME_DTYPE)
        elif name == "cause":  # Cause.NONE ("") is no category: missing
            data[name] = pd.Categorical([str(v) or None for v in values], dtype=CAUSE_DTYPE)
        else:
            data[name] = np.asarray(values, dtype=dtypes[name])
    return pd.DataFrame(data)


def columns_to_frame(columns: dict[str, np.ndarray], start: int, seed: int) -> pd.DataFrame:
    """The ``trials`` frame of consecutive trials from the kernel's columns.

    ``outcome`` comes as indices into :data:`~simulator.rules.outcome.OUTCOMES` (the
    categories' order), ``cause`` as indices into :class:`~simulator.rules.cause.Cause`,
    whose first member (none) is no category: missing.
    """
    n = len(columns["outcome"])
    data: dict[str, Any] = {
        "trial": np.arange(start, start + n, dtype=np.int64),
        "seed": np.full(n, seed, dtype=np.int64),
    }
    dtypes = column_dtypes()
    for name in RECORD_FIELDS:
        values = columns[name]
        if name == "outcome":
            data[name] = pd.Categorical.from_codes(values.astype(np.int8), dtype=OUTCOME_DTYPE)
        elif name == "cause":
            data[name] = pd.Categorical.from_codes(values.astype(np.int8) - 1, dtype=CAUSE_DTYPE)
        else:
            data[name] = values.astype(dtypes[name])
    return pd.DataFrame(data)


def coerce(frame: pd.DataFrame) -> pd.DataFrame:
    """Give a trials frame (e.g. read back from parquet) exactly the standard dtypes."""
    dtypes = column_dtypes()
    return frame.astype(dtypes)[list(dtypes)]


def concat_chunks(chunks: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Join chunk frames into one ``trials`` frame sorted by trial, index 0..n-1.

    Chunks given in trial order are joined without a sort (one copy of the data).
    """
    if not chunks:
        return coerce(records_to_frame([], 0, 0))
    frame = pd.concat(chunks, ignore_index=True)
    if not frame["trial"].is_monotonic_increasing:
        frame = frame.sort_values("trial", kind="stable", ignore_index=True)
    return coerce(frame)


def write_parquet(frame: pd.DataFrame, path: Path) -> Path:
    """Write a frame to parquet atomically (no index)."""
    return atomic_write(
        path,
        lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=False, row_group_size=ROW_GROUP),
    )


ROW_GROUP = 512 * 1024
"""Rows per row group of ``trials.parquet``, whichever writes it (:func:`write_parquet`,
:func:`write_streamed`: the same file). Half pyarrow's default: a row group is held whole,
as an Arrow table, while it is encoded, and since the counts are int64 (stop 44) a million
rows made a 10-million-trial run on 2 workers peak at 1,073 MiB; half a million, 732 MiB."""


def _arrow_schema() -> Any:
    """The Arrow schema (pandas metadata included) of a ``trials`` frame, as pyarrow makes it."""
    import pyarrow as pa

    return pa.Table.from_pandas(coerce(records_to_frame([], 0, 0)), preserve_index=False).schema


def _arrow_table(columns: dict[str, np.ndarray], start: int, seed: int, schema: Any) -> Any:
    """The Arrow table pyarrow makes of these trials' frame, built from compact columns.

    ``outcome`` and ``cause`` come as codes (:func:`columns_to_frame`); NaN times are missing
    values, as pyarrow reads pandas' NaN.
    """
    import pyarrow as pa

    n = len(columns["outcome"])
    dtypes = column_dtypes()
    arrays = [
        pa.array(np.arange(start, start + n, dtype=np.int64)),
        pa.array(np.full(n, seed, dtype=np.int64)),
    ]
    for name in RECORD_FIELDS:
        values = columns[name]
        if name == "outcome":
            codes = pa.array(values.astype(np.int8, copy=False))
            arrays.append(pa.DictionaryArray.from_arrays(codes, pa.array(list(OUTCOMES))))
        elif name == "cause":
            codes = values.astype(np.int8) - np.int8(1)
            indices = pa.array(codes, mask=codes < 0)
            arrays.append(pa.DictionaryArray.from_arrays(indices, pa.array(list(CAUSES))))
        elif dtypes[name] is np.float64:
            arrays.append(pa.array(values.astype(np.float64, copy=False), from_pandas=True))
        else:
            arrays.append(pa.array(values.astype(dtypes[name])))
    return pa.Table.from_arrays(arrays, schema=schema)


ENCODERS_MAX = 3
"""The most row groups of ``trials.parquet`` encoded at once: each holds a row group's trials
as the frame's types while it is encoded (about 100 MB more at the peak for each), so the
memory stays flat on a machine of many cores."""


def write_streamed(
    parts: Iterable[tuple[int, dict[str, np.ndarray]]], seed: int, path: Path, encoders: int = 1
) -> Path:
    """Write consecutive chunks of trials as one ``trials.parquet`` file, atomically.

    ``parts`` gives ``(start, compact columns)`` of every chunk in trial order
    (:mod:`simulator.runner.compact`). The file is byte for byte the one
    :func:`write_parquet` writes of the whole frame (the same schema and pandas metadata,
    row groups of :data:`ROW_GROUP` rows, snappy), while only a few row groups' trials are
    held at a time.

    Each row group is encoded alone, on one of ``encoders`` threads (at most
    :data:`ENCODERS_MAX`; pyarrow lets go of the interpreter meanwhile), as a parquet file
    in memory, and the files are joined in order (:class:`~simulator.runner.row_groups.Joiner`):
    pyarrow's writer encodes the row groups of one file one after the other, which made this
    file the part of a large run that more cores did not shorten.
    """
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    import pyarrow.parquet as pq

    from simulator.runner.row_groups import Joiner, encode

    schema = _arrow_schema()

    def writer(sink: Any) -> Any:
        return pq.ParquetWriter(sink, schema, compression="snappy")

    def encoded(columns: dict[str, np.ndarray], first: int) -> memoryview:
        table = _arrow_table(columns, first, seed, schema)

        def write(sink: Any) -> None:
            with writer(sink) as one:
                one.write_table(table, row_group_size=ROW_GROUP)

        return encode(write)

    def joined(held: list[tuple[int, dict[str, np.ndarray]]]) -> dict[str, np.ndarray]:
        return {k: np.concatenate([c[k] for _, c in held]) for k in held[0][1]}

    def groups() -> Iterator[tuple[dict[str, np.ndarray], int]]:
        """Each row group's compact columns and first trial, in order."""
        held: list[tuple[int, dict[str, np.ndarray]]] = []
        rows = 0
        for start, columns in parts:
            held.append((start, columns))
            rows += len(columns["outcome"])
            while rows >= ROW_GROUP:
                count = ROW_GROUP
                first, together = held[0][0], joined(held)
                yield {k: v[:count] for k, v in together.items()}, first
                rows -= count
                rest = {k: v[count:] for k, v in together.items()}
                held = [(first + count, rest)] if rows else []
        if rows:
            yield joined(held), held[0][0]

    def write(tmp: Path) -> None:
        size = max(1, min(encoders, ENCODERS_MAX))
        if size == 1:  # pyarrow's writer, streaming each row group's pages to the file
            with writer(tmp) as one:
                for columns, first in groups():
                    table = _arrow_table(columns, first, seed, schema)
                    one.write_table(table, row_group_size=ROW_GROUP)
                    del table, columns  # let go before the next row group is gathered
            return
        with open(tmp, "wb") as out, ThreadPoolExecutor(size, "row-group") as pool:
            joiner = Joiner(out)
            pending: deque[Future[memoryview]] = deque()
            for columns, first in groups():
                pending.append(pool.submit(encoded, columns, first))
                del columns  # held by its job only, let go once encoded
                while len(pending) >= size:  # at most ``size`` row groups held at once
                    joiner.add(pending.popleft().result())
            while pending:
                joiner.add(pending.popleft().result())
            if joiner.files:
                joiner.close()
            else:  # no trial: pyarrow's file of no row group
                out.write(encode(lambda sink: writer(sink).close()))

    return atomic_write(path, write)


def read_trials(path: Path) -> pd.DataFrame:
    """Read a ``trials`` parquet file back with the standard dtypes."""
    return coerce(pd.read_parquet(path, engine="pyarrow"))
