"""Chunks of trials as compact columns, and a study's trials as the chunks it ran.

A chunk comes back from a worker as plain numpy columns of the narrowest types that hold
them (:func:`narrow`): ``outcome`` as int8 indices into
:data:`~simulator.rules.outcome.OUTCOMES`, ``cause`` as int8 codes of
:class:`~simulator.rules.cause.Cause` (0: none), each count as uint8, uint16 or int32 when it fits
(else int64, as the ``trials`` frame holds it), times and pain as float64; with its
:class:`~simulator.runner.tally.Tally`, computed where it ran. A chunk saved by its worker
(the local backend, which shares this machine's files) comes back without its columns.

A :class:`TrialSet` is one study's trials: its merged tally, which answers the summary and
draws the figures, and its chunks in trial order, in memory or in the files kept for
resuming. The ``trials`` frame (:mod:`simulator.runner.trials`) is built only when asked
for, and ``trials.parquet`` is written from the chunks one after the other
(:func:`~simulator.runner.trials.write_streamed`): the same file, byte for byte, as the
frame's, without the frame.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.ipc as pa_ipc
import pyarrow.parquet as pq

from simulator.engine.record import COUNT_FIELDS, RECORD_FIELDS, TIME_FIELDS, TrialRecord
from simulator.errors import UserError, phrase
from simulator.files import replace_file
from simulator.rules.cause import Cause
from simulator.rules.outcome import OUTCOMES
from simulator.runner.tally import EVENT_SPECS, EVENTS, Tally, ValueCounts

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Chunk",
    "TrialSet",
    "count_type",
    "kernel_chunk",
    "narrow",
    "read_chunk",
    "write_chunk_file",
]

Columns = dict[str, np.ndarray]
"""A chunk's compact columns, by record field."""

_FLOATS = frozenset((*TIME_FIELDS, "max_pain"))
OUTCOME_CODE = {name: i for i, name in enumerate(OUTCOMES)}
"""The ``outcome`` column's code of each outcome."""
CAUSE_CODE = {cause.value: i for i, cause in enumerate(Cause)}
"""The ``cause`` column's code of each cause (0: none)."""


def count_type(low: int, high: int) -> type[np.integer[Any]]:
    """The narrowest type of a count column whose values lie in ``low .. high``.

    uint8 or uint16 when they fit, else int32, else int64 (the frame's own type: a count
    passes 2**31 with a test every second for 69 years).
    """
    if low >= 0 and high <= np.iinfo(np.uint8).max:
        return np.uint8
    if low >= 0 and high <= np.iinfo(np.uint16).max:
        return np.uint16
    if np.iinfo(np.int32).min <= low and high <= np.iinfo(np.int32).max:
        return np.int32
    return np.int64


def _narrowest(values: np.ndarray) -> np.ndarray:
    """A count column in its :func:`count_type`."""
    if values.size == 0:
        return values.astype(np.uint8)
    return values.astype(count_type(int(values.min()), int(values.max())))


def narrow(columns: dict[str, Any]) -> Columns:
    """Record columns (codes for outcome and cause, as the kernel gives) made compact."""
    found: Columns = {}
    for name in RECORD_FIELDS:
        values = np.asarray(columns[name])
        if name in ("outcome", "cause"):
            found[name] = values.astype(np.int8)
        elif name in _FLOATS:
            found[name] = values.astype(np.float64)
        else:
            found[name] = _narrowest(values)
    return found


def records_columns(records: Sequence[TrialRecord]) -> Columns:
    """The compact columns of trial records (the event-by-event engines')."""
    rows = list(zip(*(r.as_tuple() for r in records), strict=True)) if records else []
    raw: dict[str, Any] = {}
    for i, name in enumerate(RECORD_FIELDS):
        values = rows[i] if rows else ()
        if name == "outcome":
            raw[name] = np.array([OUTCOME_CODE[str(v)] for v in values], dtype=np.int8)
        elif name == "cause":
            raw[name] = np.array([CAUSE_CODE[str(v)] for v in values], dtype=np.int8)
        elif name in _FLOATS:
            raw[name] = np.asarray(values, dtype=np.float64)
        else:  # as the frame holds them (int64), then narrowed
            raw[name] = np.asarray(values, dtype=np.int64)
    return narrow(raw)


def frame_columns(frame: pd.DataFrame) -> Columns:
    """The compact columns of a ``trials`` frame (or of part of one)."""
    import pandas as pd

    raw: dict[str, Any] = {}
    for name in RECORD_FIELDS:
        column = frame[name]
        if name in ("outcome", "cause"):
            if isinstance(column.dtype, pd.CategoricalDtype):
                codes = column.cat.codes.to_numpy().astype(np.int16)
                mapping = OUTCOME_CODE if name == "outcome" else CAUSE_CODE
                table = np.array([mapping[str(c)] for c in column.cat.categories] or [0])
                values = np.where(codes < 0, 0, table[np.maximum(codes, 0)])
            else:
                texts = column.fillna("").astype(str).to_numpy()
                mapping = OUTCOME_CODE if name == "outcome" else CAUSE_CODE
                values = np.array([mapping[t] for t in texts], dtype=np.int8)
            raw[name] = values
        else:
            raw[name] = column.to_numpy()
    return narrow(raw)


@dataclass
class Chunk:
    """Trials ``start`` to ``stop - 1`` of a study, as they came back from a worker.

    Attributes:
        start: First trial index.
        stop: One past the last.
        tally: What the summary and figures need of these trials.
        columns: The compact columns, or None when the worker saved them in ``saved``.
        saved: The chunk file the worker wrote (None: not saved).
    """

    start: int
    stop: int
    tally: Tally
    columns: Columns | None = None
    saved: Path | None = None

    def __len__(self) -> int:
        return self.stop - self.start

    @classmethod
    def of(cls, start: int, columns: Columns) -> Chunk:
        """A chunk of compact columns, its tally computed."""
        n = len(columns["outcome"])
        return cls(start, start + n, Tally.of(columns), columns)


def kernel_chunk(start: int, out_f: np.ndarray, out_i: np.ndarray) -> Chunk:
    """The chunk of the kernel's two record matrices (``kernel_matrices``).

    ``out_f`` and ``out_i`` are :func:`~simulator.kernel.engine.kernel_matrices`'. The very
    columns of :func:`narrow` and tally of :meth:`Tally.of
    <simulator.runner.tally.Tally.of>`, made by the compiled passes of
    :mod:`simulator.kernel.digest`, which hand the interpreter's lock over a few times a
    chunk instead of a hundred (what kept many worker threads from their cores).
    """
    from simulator.kernel import digest
    from simulator.kernel.layout import FLOAT_FIELDS, INT_FIELDS

    n, k = out_i.shape
    if n == 0:
        raw = {name: out_i[:, i] for i, name in enumerate(INT_FIELDS)}
        raw |= {name: out_f[:, i] for i, name in enumerate(FLOAT_FIELDS)}
        return Chunk.of(start, narrow(raw))
    low, high = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    digest.int_ranges(out_i, low, high)
    kind, slot = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
    types = (np.int8, np.uint8, np.uint16, np.int32, np.int64)  # digest.CODES, U8 .. I64
    taken = [0, 0, 0, 0, 0]
    for j, name in enumerate(INT_FIELDS):  # the types of narrow
        is_code = name in ("outcome", "cause")
        kind[j] = digest.CODES if is_code else types.index(count_type(int(low[j]), int(high[j])))
        slot[j] = taken[kind[j]]
        taken[kind[j]] += 1
    blocks = [np.empty((taken[t], n), dtype=d) for t, d in enumerate(types)]
    floats = np.empty((out_f.shape[1], n), dtype=np.float64)
    sums = np.empty(k, dtype=np.int64)
    codes, b8, b16, b32, b64 = blocks
    digest.compact_into(out_i, out_f, kind, slot, codes, b8, b16, b32, b64, floats, sums)
    by_name = {name: blocks[kind[j]][slot[j]] for j, name in enumerate(INT_FIELDS)}
    by_name |= {name: floats[j] for j, name in enumerate(FLOAT_FIELDS)}
    columns = {name: by_name[name] for name in RECORD_FIELDS}

    column = np.array([FLOAT_FIELDS.index(e.column) for e in EVENT_SPECS], dtype=np.int64)
    outcome_is = np.array([e.outcome for e in EVENT_SPECS], dtype=np.int64)
    cause_is = np.array([e.cause for e in EVENT_SPECS], dtype=np.int64)
    values = np.empty((len(EVENTS), n), dtype=np.float64)
    distinct = np.empty(len(EVENTS) * n, dtype=np.float64)
    counts = np.empty(len(EVENTS) * n, dtype=np.int64)
    found = np.zeros(len(EVENTS), dtype=np.int64)
    outcomes = np.zeros(len(OUTCOMES), dtype=np.int64)
    dead_causes = np.zeros(len(Cause), dtype=np.int64)
    aggravations = np.zeros(int(high[INT_FIELDS.index("aggravations")]) + 1, dtype=np.int64)
    digest.events_into(
        columns["outcome"], columns["cause"], floats, column, outcome_is, cause_is, values,
        values.view(np.uint64), np.empty((2, n), dtype=np.uint64),
        np.empty(256, dtype=np.int64), distinct, counts, found, outcomes, dead_causes,
        aggravations, columns["aggravations"], OUTCOMES.index("dead"),
    )  # fmt: skip
    ends = np.cumsum(found)
    events = {  # each its own copy: a view would keep the whole chunk's buffer while it waits
        name: ValueCounts(distinct[end - size : end].copy(), counts[end - size : end].copy())
        for name, size, end in zip(EVENTS, found.tolist(), ends.tolist(), strict=True)
    }
    tally = Tally(
        n=n,
        outcomes=outcomes,
        dead_causes=dead_causes,
        sums={name: int(sums[INT_FIELDS.index(name)]) for name in COUNT_FIELDS},
        aggravations=aggravations,
        events=events,
    )
    return Chunk(start, start + n, tally, columns)


def _arrow(values: np.ndarray) -> pa.Array:
    """A numpy column as an Arrow array over the same bytes (NaN stays a value, not null).

    Built from its buffer: ``pa.array`` would import pandas, which the answer of a small
    run does without (its chunk file is written before the answer is printed).
    """
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(
        pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)]
    )


RUN_METADATA = b"harmonies-run"
"""The key of a chunk file's schema metadata that names the run it belongs to: the name of
the ``.partial/<run key>/`` folder it was written in. A chunk moved into another run's
folder (by hand: the tool never does) is then told apart and run again, not mixed in."""


def chunk_table(columns: Columns, start: int, run: str | None = None) -> pa.Table:
    """A chunk file's table: ``trial``, then the compact columns as they are.

    ``run``: the run key it is saved under (:data:`RUN_METADATA`), if any.
    """
    n = len(columns["outcome"])
    data = {"trial": np.arange(start, start + n, dtype=np.int64), **columns}
    metadata = None if run is None else {RUN_METADATA: run.encode("utf-8")}
    return pa.Table.from_arrays(
        [_arrow(v) for v in data.values()], names=list(data), metadata=metadata
    )


CHUNK_SUFFIX = ".arrow"
"""The chunk files' format: Arrow's IPC file, each buffer compressed by LZ4
(:data:`CHUNK_COMPRESSION`).

About eight times faster to write than the plainest parquet, and ten times faster to read
back (what a chunk file costs was a third of a short scenario's kernel time). Chunk files
saved as ``.parquet`` by earlier versions, or uncompressed, are still read."""

CHUNK_COMPRESSION = "lz4"
"""How a chunk file's buffers are compressed. LZ4 makes them 3 to 6 times smaller (12 bytes a
trial of a one-week scenario instead of 76, 29 instead of 76 for a 60-day one) for about
0.05 µs a trial, on the worker's thread without the interpreter's lock: a stopped run's
``.partial/`` takes a third of the disk or less, and a sweep on 2 cores spends half the
system time filling and emptying the page cache (on 16 cores no gain in time was measured)."""


def _write_ipc(table: pa.Table, path: Path) -> None:
    """Write a table as an Arrow IPC file compressed by :data:`CHUNK_COMPRESSION`.

    pyarrow writes it in one call that lets go of the interpreter's lock once.
    """
    options = pa_ipc.IpcWriteOptions(compression=CHUNK_COMPRESSION)
    with (
        pa.OSFile(str(path), "wb") as sink,
        pa_ipc.new_file(sink, table.schema, options=options) as writer,
    ):
        writer.write_table(table)


def read_chunk_table(path: Path) -> pa.Table:
    """A chunk file's table, read whole into memory (the file may go once it is read)."""
    if path.suffix == ".parquet":  # an earlier version's chunk
        return pq.read_table(path)
    with pa.OSFile(str(path), "rb") as source:
        return pa_ipc.open_file(source).read_all()


def write_chunk_file(columns: Columns, start: int, path: Path, token: str | None = None) -> Path:
    """Save a chunk for resuming, atomically, as :data:`CHUNK_SUFFIX` says.

    Chunk files go into the run's own ``.partial/<key>/`` folder, which no output folder's
    listing watches: they are written without asking for a watcher
    (:func:`~simulator.files.replace_file`), which took a dozen more system calls a chunk,
    each a hand-over of the interpreter's lock that worker threads on many cores waited for.
    The file names its folder, the run's key, in its metadata (:data:`RUN_METADATA`). Its
    temporary file carries ``token``, the output folder's (see
    :func:`simulator.runner.outdir.temporary_token`), so that a kill's leftover is known
    for the tool's.
    """
    table = chunk_table(columns, start, run=path.parent.name)
    return replace_file(path, lambda tmp: _write_ipc(table, tmp), token=token)


def read_chunk(path: Path) -> Columns:
    """A saved chunk's compact columns (also from a chunk of the frame's types)."""
    table = read_chunk_table(path)
    if pa.types.is_dictionary(table.schema.field("outcome").type):  # a frame's chunk
        from simulator.runner.trials import coerce

        return frame_columns(coerce(table.to_pandas()))
    return {name: table.column(name).to_numpy() for name in RECORD_FIELDS}


def _stamp(path: Path) -> tuple[int, int, int, int]:
    """What tells a file from another put under its name: device, inode, size, change time."""
    info = os.stat(path)
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


class TrialSet:
    """One study's trials: the merged tally, and the chunks in trial order (see the module).

    Args:
        seed: The study's seed.
        tally: The tally of every trial.
        parts: ``(start, columns or chunk file)`` of every chunk, in trial order.
    """

    def __init__(self, seed: int, tally: Tally, parts: Sequence[tuple[int, Columns | Path]]):
        self.seed = seed
        self.tally = tally
        self._parts: list[tuple[int, Columns | Path]] | None = list(parts)
        self._written: Path | None = None
        self._stamp: tuple[int, int, int, int] | None = None
        """The written file's device, inode, size and time of change, as written."""
        self.encoders = 1
        """How many threads encode ``trials.parquet`` (the run's workers: the runner sets it)."""

    @classmethod
    def of_frame(cls, frame: pd.DataFrame, seed: int) -> TrialSet:
        """The trials of a ``trials`` frame (its rows in trial order, the first one's index)."""
        columns = frame_columns(frame)
        start = int(frame["trial"].iloc[0]) if len(frame) else 0
        return cls(seed, Tally.of(columns), [(start, columns)])

    @property
    def n(self) -> int:
        """How many trials."""
        return self.tally.n

    def chunks(self) -> Iterator[tuple[int, Columns]]:
        """``(start, compact columns)`` of every chunk, in trial order, one at a time.

        Raises:
            UserError: When the chunks were let go (:meth:`release`) and no file holds them.
        """
        if self._parts is None:
            raise UserError(
                phrase(
                    "these trials were let go once the result was saved (keep_trials=False): "
                    "its summaries and curves remain; run it again with keep_trials=True to "
                    "read the trials"
                )
            )
        if self._written is not None and any(isinstance(p, Path) and not p.exists()
                                             for _, p in self._parts):  # fmt: skip
            from simulator.runner.trials import read_trials

            self._check_written()
            yield 0, frame_columns(read_trials(self._written))
            return
        for start, part in self._parts:
            yield start, (read_chunk(part) if isinstance(part, Path) else part)

    def frame(self) -> pd.DataFrame:
        """The ``trials`` frame of every trial (built now: the memory of every row)."""
        from simulator.runner.trials import columns_to_frame, concat_chunks

        return concat_chunks([columns_to_frame(c, s, self.seed) for s, c in self.chunks()])

    def codes(self, name: str) -> np.ndarray:
        """One compact column of every trial (``outcome``, ``cause``: a byte per trial)."""
        parts = [columns[name] for _, columns in self.chunks()]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int8)

    def write_parquet(self, path: Path) -> Path:
        """Write ``trials.parquet`` chunk by chunk: the frame's very file, without the frame.

        Later reads of a chunk whose file is gone (once the run's chunks are discarded)
        come from this file.
        """
        from simulator.runner.trials import write_streamed

        written = write_streamed(self.chunks(), self.seed, path, self.encoders)
        self._written, self._stamp = written, _stamp(written)
        return written

    def _check_written(self) -> None:
        """Make sure the file the trials are read back from is still the one written.

        Raises:
            UserError: When it is gone, or was replaced or changed since (another result
                saved into its folder): its trials are not this result's.
        """
        if self._written is None:
            return
        try:
            same = _stamp(self._written) == self._stamp
        except OSError:
            same = False
        if not same:
            raise UserError(
                phrase(
                    "{path}: this result's trials were read back from that file, which was "
                    "replaced or changed since (another result saved into its folder?), so "
                    "they are not read from it; its summaries and curves remain: run the "
                    "study again to read or save its trials",
                    path=str(self._written),
                )
            )

    def read_back_from(self, folder: object) -> None:
        """Hold the trials in memory if the only file that holds them lies in ``folder``.

        Called before a result is saved into ``folder``: saving replaces the folder's earlier
        result whole, its ``trials.parquet`` included, which may be the very file these
        trials are read back from (a study run with ``out=`` and saved there again).
        """
        if self._written is None or self._parts is None:
            return
        if all(not isinstance(p, Path) or p.exists() for _, p in self._parts):
            return  # the chunks themselves are still at hand
        self._check_written()  # refused before the save claims any folder
        if not isinstance(folder, str | os.PathLike):
            return  # no folder (None, a mistake): the save's own check names it
        try:
            elsewhere = not os.path.samefile(self._written.parent, folder)
        except (OSError, TypeError, ValueError):  # no such folder yet, a bad name: another one
            return
        if elsewhere:
            return
        self._parts = [next(self.chunks())]  # read from that file (chunks() says how)
        self._written = self._stamp = None

    def release(self) -> None:
        """Let go of the chunks (their files are about to go): only the tally answers now.

        For a result only summarised (the command line's sweep): nothing is read back.
        Later reads of the trials raise, unless a written ``trials.parquet`` holds them.
        """
        if self._written is None:
            self._parts = None

    def keep(self) -> None:
        """Hold every chunk in memory (its file is about to go), unless a written file holds them.

        Called before the chunk files of the run are removed.
        """
        if self._written is not None or self._parts is None:
            return
        self._parts = [(s, read_chunk(p) if isinstance(p, Path) else p) for s, p in self._parts]
