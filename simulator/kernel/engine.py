"""The compiled Monte Carlo kernel, as the engine's fast path: records and traces from it.

:mod:`simulator.kernel` runs trials over the state as numbers; this module gives its
results the engine's shapes: :class:`~simulator.engine.record.TrialRecord` s
(:func:`kernel_records`), the record's columns for a chunk (:func:`kernel_columns`, which the
studies turn into the ``trials`` frame), and one trial told as
:class:`~simulator.engine.trace.TraceLine` s (:func:`kernel_trace`, decoded by
:mod:`simulator.kernel.telling`). It runs every scenario.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simulator.engine.record import RECORD_FIELDS, TrialRecord
from simulator.engine.trace import TraceLine
from simulator.kernel import jit as kernel_jit
from simulator.kernel.layout import (
    FLOAT_FIELDS,
    INT_FIELDS,
    S_TRACE_N,
)
from simulator.kernel.params import scenario_vector
from simulator.kernel.rng import stream_key
from simulator.rules.cause import Cause
from simulator.rules.outcome import Outcome
from simulator.scenario.model import Scenario

__all__ = ["COMPILED", "kernel_columns", "kernel_matrices", "kernel_records", "kernel_trace"]

COMPILED = kernel_jit.COMPILED
"""Whether the kernel runs compiled (numba) or as plain Python (``HARMONIES_NO_JIT=1``)."""

TRACE_CAPACITY = 100_000
"""The most trace records one trial writes (a trace longer than this is cut, and says so)."""

_OUTCOMES = tuple(Outcome)
_CAUSES = tuple(Cause)


@lru_cache(maxsize=32)
def _vector(scenario: Scenario) -> np.ndarray:
    return scenario_vector(scenario)


def kernel_matrices(
    scenario: Scenario, seed: int, start: int, stop: int
) -> tuple[np.ndarray, np.ndarray]:
    """Trials ``start .. stop - 1`` as the kernel writes them: two matrices, a row a trial.

    The first holds :data:`~simulator.kernel.layout.FLOAT_FIELDS` (times and pain), the
    second :data:`~simulator.kernel.layout.INT_FIELDS` (codes and counts, int64: a count can
    pass 2**31, a test every second for a century).
    """
    from simulator.kernel.loop import run_batch, work_arrays

    sc = _vector(scenario)
    n = max(0, stop - start)
    out_f = np.zeros((n, len(FLOAT_FIELDS)), dtype=np.float64)
    out_i = np.zeros((n, len(INT_FIELDS)), dtype=np.int64)
    with np.errstate(over="ignore"):  # plain Python wraps 64-bit integers as numba does
        run_batch(stream_key(seed), start, sc, work_arrays(sc), out_f, out_i)
    return out_f, out_i


def kernel_columns(scenario: Scenario, seed: int, start: int, stop: int) -> dict[str, np.ndarray]:
    """Trials ``start .. stop - 1``: each record field as a column (codes for outcome, cause).

    ``outcome`` holds indices into :class:`~simulator.rules.outcome.Outcome`, ``cause``
    indices into :class:`~simulator.rules.cause.Cause` (0: none).
    """
    out_f, out_i = kernel_matrices(scenario, seed, start, stop)
    columns: dict[str, np.ndarray] = {}
    for name in RECORD_FIELDS:
        if name in FLOAT_FIELDS:
            columns[name] = out_f[:, FLOAT_FIELDS.index(name)]
        elif name in INT_FIELDS:
            columns[name] = out_i[:, INT_FIELDS.index(name)]
        else:  # every field is the kernel's
            raise AssertionError(f"the kernel has no column {name}")
    return columns


def _record(columns: dict[str, np.ndarray], j: int) -> TrialRecord:
    values: dict[str, object] = {}
    for name in RECORD_FIELDS:
        value = columns[name][j]
        if name == "outcome":
            values[name] = _OUTCOMES[int(value)]
        elif name == "cause":
            values[name] = _CAUSES[int(value)]
        elif name in FLOAT_FIELDS:
            values[name] = float(value)
        else:
            values[name] = int(value)
    pain = float(columns["max_pain"][j])  # an int unless P1's recovery gave it fractions
    values["max_pain"] = int(pain) if pain.is_integer() else pain
    return TrialRecord(**values)  # type: ignore[arg-type]


def kernel_records(scenario: Scenario, seed: int, start: int, stop: int) -> list[TrialRecord]:
    """The records of trials ``start .. stop - 1`` of a study seeded ``seed``."""
    columns = kernel_columns(scenario, seed, start, stop)
    return [_record(columns, j) for j in range(max(0, stop - start))]


def kernel_trace(scenario: Scenario, seed: int, trial: int) -> tuple[TrialRecord, list[TraceLine]]:
    """Trial ``trial`` told: the same draws and record as in a run, and its timeline."""
    from simulator.kernel.loop import run_batch, work_arrays
    from simulator.kernel.telling import decode

    sc = _vector(scenario)
    work = work_arrays(sc, TRACE_CAPACITY)
    out_f = np.zeros((1, len(FLOAT_FIELDS)), dtype=np.float64)
    out_i = np.zeros((1, len(INT_FIELDS)), dtype=np.int64)
    with np.errstate(over="ignore"):  # a batch of one, with a trace buffer: the same loop
        run_batch(stream_key(seed), trial, sc, work, out_f, out_i)
    columns: dict[str, np.ndarray] = {
        name: out_f[0, i : i + 1] for i, name in enumerate(FLOAT_FIELDS)
    }
    columns |= {name: out_i[0, i : i + 1] for i, name in enumerate(INT_FIELDS)}
    st, tr = work[0], work[3]
    for name in RECORD_FIELDS:
        columns.setdefault(name, np.zeros(1, dtype=np.int64))
    n = int(st[S_TRACE_N])
    lines = decode(scenario, tr[:n])
    return _record(columns, 0), lines
