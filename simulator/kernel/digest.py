"""A chunk of the kernel's records made compact and tallied in a few compiled passes.

What a worker does with a chunk once the kernel has run it (the compact columns of
:func:`simulator.runner.compact.narrow`, the tally of
:meth:`simulator.runner.tally.Tally.of`) is a few dozen numpy operations on arrays of some
thousand values. Each lets go of the interpreter's lock and takes it again: on a machine of
many cores, where every worker thread wants it back at once, those hand-overs made a worker
wait for the others more than it computed (a 200-point sweep ran on 16 cores at a third of
the speed its kernel allowed). The same columns and tally are made here by three compiled
passes over the kernel's two record matrices, each run without the lock, plus one numpy sort
per event that came in the chunk: a handful of hand-overs per chunk instead of a hundred.

The functions only fill arrays they are given (the kernel allocates nothing); the caller
(:func:`simulator.runner.chunks.kernel_chunk`) allocates them and checks that the result is
the numpy path's, byte for byte (``tests/runner/test_digest.py``).
"""

from __future__ import annotations

import numpy as np

from simulator.kernel.jit import jit

CODES, U8, U16, I32 = 0, 1, 2, 3
"""Where an integer record column goes: the int8 codes (outcome, cause), or the narrowest of
uint8, uint16 and int32 that holds its values (:func:`simulator.runner.compact.narrow`)."""


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
    floats: np.ndarray,
    sums: np.ndarray,
) -> None:
    """Copy each record column into its row of the block of its type, and sum the counts.

    Integer column ``j`` goes to row ``slot[j]`` of the block ``kind[j]`` says (:data:`CODES`,
    :data:`U8`, :data:`U16`, :data:`I32`), cast as numpy's ``astype`` casts; float column
    ``j`` to row ``j`` of ``floats``. ``sums[j]`` is the int64 sum of column ``j`` as it is
    stored (after the cast), as :meth:`~simulator.runner.tally.Tally.of` sums it.
    """
    n, k = out_i.shape
    for j in range(k):
        s = slot[j]
        total = 0
        if kind[j] == CODES:
            for i in range(n):
                codes[s, i] = out_i[i, j]
                total += int(codes[s, i])
        elif kind[j] == U8:
            for i in range(n):
                b8[s, i] = out_i[i, j]
                total += int(b8[s, i])
        elif kind[j] == U16:
            for i in range(n):
                b16[s, i] = out_i[i, j]
                total += int(b16[s, i])
        else:
            for i in range(n):
                b32[s, i] = out_i[i, j]
                total += int(b32[s, i])
        sums[j] = total
    for j in range(out_f.shape[1]):
        for i in range(n):
            floats[j, i] = out_f[i, j]


SORT_STACK = 128
"""Room for the ranges a sort still has to sort: it always sorts the smaller side of a split
first, so at most log2(n) ranges wait, whatever the values."""

_SMALL = 16
"""Ranges up to this long are sorted by insertion."""


@jit
def sort_range(a: np.ndarray, row: int, size: int, stack: np.ndarray) -> None:
    """Sort ``a[row, :size]`` in place (no NaN in it), ascending, as :func:`numpy.sort` would.

    Quicksort (median of three, Hoare's partition, which splits runs of equal values evenly)
    down to ranges of :data:`_SMALL`, then insertion; ``stack`` holds the ranges waiting
    (:data:`SORT_STACK` numbers). Equal values are equal numbers: the order among them
    changes nothing of what is made of the sorted values (distinct values and their counts).
    """
    top = 0
    lo, hi = 0, size - 1
    while True:
        while hi - lo > _SMALL:
            mid = (lo + hi) // 2
            if a[row, mid] < a[row, lo]:
                a[row, mid], a[row, lo] = a[row, lo], a[row, mid]
            if a[row, hi] < a[row, lo]:
                a[row, hi], a[row, lo] = a[row, lo], a[row, hi]
            if a[row, hi] < a[row, mid]:
                a[row, hi], a[row, mid] = a[row, mid], a[row, hi]
            pivot = a[row, mid]
            i, j = lo - 1, hi + 1
            while True:
                i += 1
                while a[row, i] < pivot:
                    i += 1
                j -= 1
                while a[row, j] > pivot:
                    j -= 1
                if i >= j:
                    break
                a[row, i], a[row, j] = a[row, j], a[row, i]
            # a[lo..j] <= pivot <= a[j+1..hi]: the larger side waits, the smaller goes on
            if j - lo < hi - j - 1:
                stack[top], stack[top + 1] = j + 1, hi
                hi = j
            else:
                stack[top], stack[top + 1] = lo, j
                lo = j + 1
            top += 2
        for i in range(lo + 1, hi + 1):
            x = a[row, i]
            k = i - 1
            while k >= lo and a[row, k] > x:
                a[row, k + 1] = a[row, k]
                k -= 1
            a[row, k + 1] = x
        if top == 0:
            return
        top -= 2
        lo, hi = stack[top], stack[top + 1]


@jit
def events_into(
    outcome: np.ndarray,
    cause: np.ndarray,
    floats: np.ndarray,
    column: np.ndarray,
    outcome_is: np.ndarray,
    cause_is: np.ndarray,
    values: np.ndarray,
    stack: np.ndarray,
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
    ``values[e]``, sorted, and their distinct values and how often each came appended to
    ``distinct`` and ``counts``, ``found[e]`` of them. ``outcomes`` and ``dead_causes``
    count the trials of each outcome and the dead ones of each cause code;
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
        sort_range(values, e, m, stack)
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
