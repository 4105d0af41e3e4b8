"""A chunk of the kernel's records made compact and tallied in a few compiled passes.

What a worker does with a chunk once the kernel has run it (the compact columns of
:func:`simulator.runner.compact.narrow`, the tally of
:meth:`simulator.runner.tally.Tally.of`) was a hundred numpy operations on arrays of some
thousand values. Each let go of the interpreter's lock and took it back: on a machine of
many cores, where every worker thread wants it back at once, those hand-overs made a worker
wait for the others more than it computed (a 200-point sweep ran on 16 cores at a third of
the speed its kernel allowed). The same columns and tally are made here by three compiled
passes over the kernel's two record matrices (:func:`int_ranges`, :func:`compact_into`,
:func:`events_into`, which sorts each event's times itself, :func:`sort_range`), each run
without the lock: three hand-overs a chunk.

The functions only fill arrays they are given (the kernel allocates nothing); the caller,
:func:`simulator.runner.compact.kernel_chunk`, allocates them. The result is the numpy
path's, byte for byte (``tests/runner/test_digest.py``).
"""

from __future__ import annotations

import numpy as np

from simulator.kernel.jit import jit

CODES, U8, U16, I32, I64 = 0, 1, 2, 3, 4
"""Where an integer record column goes: the int8 codes (outcome, cause), or the narrowest of
uint8, uint16, int32 and int64 that holds its values (:func:`simulator.runner.compact.narrow`)."""


@jit
def int_ranges(out_i: np.ndarray, low: np.ndarray, high: np.ndarray) -> None:
    """The least and greatest value of each column of ``out_i`` (one row per trial; n > 0)."""
    n, k = out_i.shape
    for j in range(k):
        low[j] = out_i[0, j]
        high[j] = out_i[0, j]
    for i in range(1, n):
        for j in range(k):
            v = out_i[i, j]
            if v < low[j]:
                low[j] = v
            if v > high[j]:
                high[j] = v


@jit
def compact_into(
    out_i: np.ndarray,
    out_f: np.ndarray,
    kind: np.ndarray,
    slot: np.ndarray,
    codes: np.ndarray,
    b8: np.ndarray,
    b16: np.ndarray,
    b32: np.ndarray,
    b64: np.ndarray,
    floats: np.ndarray,
    sums: np.ndarray,
) -> None:
    """Copy each record column into its row of the block of its type, and sum the counts.

    Integer column ``j`` goes to row ``slot[j]`` of the block ``kind[j]`` says (:data:`CODES`,
    :data:`U8`, :data:`U16`, :data:`I32`, :data:`I64`), cast as numpy's ``astype`` casts;
    float column ``j`` to row ``j`` of ``floats``. ``sums[j]`` is the int64 sum of column
    ``j`` as it is stored (after the cast), as :meth:`~simulator.runner.tally.Tally.of` sums
    it.
    """
    n, k = out_i.shape
    for j in range(k):
        sums[j] = 0
    for i in range(n):  # row by row: the matrix is read once, in the order it lies
        for j in range(k):
            s = slot[j]
            kind_j = kind[j]
            if kind_j == CODES:
                codes[s, i] = out_i[i, j]
                sums[j] += int(codes[s, i])
            elif kind_j == U8:
                b8[s, i] = out_i[i, j]
                sums[j] += int(b8[s, i])
            elif kind_j == U16:
                b16[s, i] = out_i[i, j]
                sums[j] += int(b16[s, i])
            elif kind_j == I32:
                b32[s, i] = out_i[i, j]
                sums[j] += int(b32[s, i])
            else:
                b64[s, i] = out_i[i, j]
                sums[j] += int(b64[s, i])
    for i in range(n):
        for j in range(out_f.shape[1]):
            floats[j, i] = out_f[i, j]


SIGN = np.uint64(1 << 63)
BYTE = np.uint64(0xFF)
EIGHT = np.uint64(8)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit
def sort_range(
    bits: np.ndarray, row: int, size: int, scratch: np.ndarray, count: np.ndarray
) -> None:
    """Sort the floats of ``bits[row, :size]`` in place, ascending (``bits``: their uint64 view).

    A radix sort of their bits, eight bits a pass from the lowest, through ``scratch`` (two
    rows of at least ``size``) and ``count`` (256 numbers): each float is first made an
    unsigned number in the same order (the sign bit set for a positive float, every bit
    flipped for a negative one), and a pass whose eight bits are the same for every value is
    skipped (times on a grid of hours share most of theirs). No NaN may be given; -0.0 sorts
    before 0.0, which are equal numbers (nothing made of the sorted values tells them apart
    but their sign).
    """
    for i in range(size):
        b = bits[row, i]
        scratch[0, i] = (b ^ ALL) if (b & SIGN) else (b | SIGN)
    src = 0
    shift = np.uint64(0)
    for _ in range(8):
        for d in range(256):
            count[d] = 0
        for i in range(size):
            count[(scratch[src, i] >> shift) & BYTE] += 1
        same = False
        for d in range(256):
            if count[d] == size:
                same = True
        if not same:
            at = 0
            for d in range(256):
                c = count[d]
                count[d] = at
                at += c
            dst = 1 - src
            for i in range(size):
                key = scratch[src, i]
                d = (key >> shift) & BYTE
                scratch[dst, count[d]] = key
                count[d] += 1
            src = dst
        shift += EIGHT
    for i in range(size):
        key = scratch[src, i]
        bits[row, i] = (key ^ SIGN) if (key & SIGN) else (key ^ ALL)


@jit
def events_into(
    outcome: np.ndarray,
    cause: np.ndarray,
    floats: np.ndarray,
    column: np.ndarray,
    outcome_is: np.ndarray,
    cause_is: np.ndarray,
    values: np.ndarray,
    bits: np.ndarray,
    scratch: np.ndarray,
    count: np.ndarray,
    distinct: np.ndarray,
    counts: np.ndarray,
    found: np.ndarray,
    outcomes: np.ndarray,
    dead_causes: np.ndarray,
    aggravations: np.ndarray,
    aggravated: np.ndarray,
    dead: int,
) -> int:
    """Each event's times as distinct values and counts; outcomes, causes, aggravations.

    Event ``e`` is the finite values of ``floats[column[e]]`` of the trials whose outcome
    is ``outcome_is[e]`` and whose cause is ``cause_is[e]`` (-1: any), as
    :meth:`~simulator.runner.tally.ValueCounts.of` counts them: gathered into
    ``values[e]``, sorted (:func:`sort_range`, through ``bits``, the same memory as
    ``values`` seen as uint64, ``scratch`` and ``count``), and their distinct values and
    how often each came appended to ``distinct`` and ``counts``, ``found[e]`` of them.
    ``outcomes`` and ``dead_causes`` count the trials of each outcome and the dead ones of
    each cause code;
    ``aggravations`` the trials of each number of ``aggravated``. Returns how many distinct
    values were written in all.
    """
    n = outcome.shape[0]
    at = 0
    for e in range(column.shape[0]):
        c = column[e]
        want_outcome = outcome_is[e]
        want_cause = cause_is[e]
        m = 0
        for i in range(n):
            x = floats[c, i]
            if not np.isfinite(x):
                continue
            if want_outcome >= 0 and outcome[i] != want_outcome:
                continue
            if want_cause >= 0 and cause[i] != want_cause:
                continue
            values[e, m] = x
            m += 1
        sort_range(bits, e, m, scratch, count)
        first = at
        for i in range(m):
            x = values[e, i]
            if i > 0 and x == values[e, i - 1]:
                counts[at - 1] += 1
            else:
                distinct[at] = x
                counts[at] = 1
                at += 1
        found[e] = at - first
    for i in range(n):
        outcomes[outcome[i]] += 1
        if outcome[i] == dead:
            dead_causes[cause[i]] += 1
        aggravations[aggravated[i]] += 1
    return at
