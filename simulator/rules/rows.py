"""The one representation of a patient's wounds, and every decision over it, written once.

The wounds are **rows of numbers**: a 2-D integer array ``w`` whose columns ``0 .. nw - 1``
are the wounds in order of receipt (Q2), and whose rows are the level (:data:`W_LEVEL`, a
:class:`~simulator.rules.levels.Level`'s value, physical then mental, T1 and M1), the
stability (:data:`W_STABLE`, 1 stable, 0 unstable; H1) and the uid (:data:`W_UID`, the order of
receipt, kept when the level changes). The wound table is a flat ``float64`` vector ``tab``
whose cell (level, column) is ``tab[level * T_SIZE + column]`` (columns ``T_*``, T1-T2, M1):
:func:`table_vector` makes it. The compiled kernel keeps a trial's wounds in such an array and
the table at the start of its scenario vector; a :class:`~simulator.rules.patient.Patient`
holds its wounds as such an array too (``Patient.rows``), and its properties and the
transitions of :mod:`simulator.rules.transitions` are these functions.

Every wound-state decision is written here once (H1-H5, W1-W2, S3-S4, A2, R1, R3, G1-G2, G4,
B1, B4-B6, M1-M3, Q2) as plain Python that numba can compile: numbers and arrays only, no
objects, no generators. :mod:`simulator.kernel.decisions` compiles them as they are
(:func:`simulator.kernel.jit.compiled_module`); the object and exact engines call them as
plain Python through the ``Patient``. The functions that change the wounds do so in place and
say so; the others only read.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from simulator.rules.codes import CRITICAL, LIGHT, SHOCK, TOP_RANK, TRACK_SIZE

Rows: TypeAlias = Any
"""The wound rows: a 2-D ``int64`` array indexed ``w[row, column]`` (the kernel's, a patient's),
or a ``memoryview`` of one (what a patient hands these functions from Python: its items are
plain ints)."""

Vector: TypeAlias = Any
"""The wound table as a flat ``float64`` vector (:func:`table_vector`), or a ``memoryview`` of
one, or the kernel's scenario vector, which starts with it."""

# --- the wound rows ------------------------------------------------------------------------
W_LEVEL, W_STABLE, W_UID = range(3)
"""The rows of ``w``: level, stability (1 stable), uid (order of receipt)."""
W_ROWS = 3

NO_WOUND = -1
"""What a search over the wounds returns when no wound qualifies (also a fatal blow's level)."""

# --- the wound table -----------------------------------------------------------------------
T_MAX, T_MORTALITY, T_PAIN, T_UNSTABLE, T_STABLE, T_WATCH, T_HEAL, T_DIFFICULTY = range(8)
"""The table's columns (T1-T2): maximum, mortality (craziness on the mental track, M1), pain,
unstable and stable periods, watch and heal periods (seconds), difficulty."""
T_SIZE = 8
N_LEVELS = 6
"""The table's rows: light, grave, critical, shock, trauma, psychosis (T1, M1)."""
TABLE_CELLS = N_LEVELS * T_SIZE


def table_vector(table: object) -> np.ndarray:
    """The wound table as the flat vector the decisions read.

    Cell (level, column) is at ``level * T_SIZE + column``. Not compiled: the kernel packs it
    into its scenario vector.

    Args:
        table: A :class:`~simulator.rules.table.WoundTable`.
    """
    rows = table.rows  # type: ignore[attr-defined]
    tab = np.zeros((N_LEVELS, T_SIZE), dtype=np.float64)
    for level in range(N_LEVELS):
        row = rows[level]
        tab[level, T_MAX], tab[level, T_MORTALITY] = row.max, row.mortality
        tab[level, T_PAIN], tab[level, T_DIFFICULTY] = row.pain, row.difficulty
        tab[level, T_UNSTABLE], tab[level, T_STABLE] = row.unstable_period, row.stable_period
        tab[level, T_WATCH], tab[level, T_HEAL] = row.watch_period, row.heal_period
    return tab.ravel()


def cell(tab: Vector, level: int, column: int) -> float:
    """T1-T2: the table's cell for ``level`` and ``column`` (a ``T_*`` constant)."""
    return float(tab[level * T_SIZE + column])


# --- reading the wounds --------------------------------------------------------------------
def is_mental(level: int) -> bool:
    """M1: whether ``level`` is on the mental track."""
    return level >= SHOCK


def blow_pain(tab: Vector, level: int, basic: bool) -> float:
    """H3, W2, S3: the pain a wound brings on receipt or worsening: its final level's pain.

    None under the basic ruleset, which has no pain (B2).
    """
    return 0.0 if basic else cell(tab, level, T_PAIN)


def standing_penalty(tab: Vector, level: int) -> float:
    """M1: a wound's standing penalty at the patient's own tests.

    A mental wound's is its difficulty (present with ``trigger_probability``, drawn per wound
    and test by the caller); a physical wound has none here (A1 and B4 count it apart).
    """
    return cell(tab, level, T_DIFFICULTY) if level >= SHOCK else 0.0


def track_top(level: int) -> int:
    """The top level of ``level``'s track: critical (T1) or psychosis (M1)."""
    return level - level % TRACK_SIZE + TOP_RANK


def held(w: Rows, nw: int, level: int, exclude: int) -> int:
    """Q2: how many wounds of ``level`` the patient holds, the wound of uid ``exclude`` apart."""
    n = 0
    for i in range(nw):
        if w[W_LEVEL, i] == level and w[W_UID, i] != exclude:
            n += 1
    return n


def overflow(w: Rows, nw: int, tab: Vector, level: int, exclude: int) -> int:
    """W1, M2, B1: go up while ``level`` is full; :data:`NO_WOUND` past the top of its track.

    Past critical the blow is fatal (W1); past psychosis the patient is incoherent (M2). The
    wound of uid ``exclude`` (the one that worsens, S3) is not counted; the maxima are checked
    on receipt and worsening only (Q2).
    """
    current = level
    top = track_top(level)
    while current <= top:
        if held(w, nw, current, exclude) < cell(tab, current, T_MAX):
            return current
        current += 1
    return NO_WOUND


def arrives_stable(level: int, basic: bool) -> bool:
    """W2, M3, B3: whether a wound of ``level`` arrives (or worsens) stable.

    A physical wound arrives unstable, a mental one stable; under the basic ruleset every
    wound is stable.
    """
    return basic or is_mental(level)


def worsened(w: Rows, nw: int, tab: Vector, i: int) -> int:
    """S3, X1, B4: the level wound ``i`` goes up to, with W1's overflow (itself apart).

    :data:`NO_WOUND` past the top of its track (fatal; incoherent on the mental track, M2).
    """
    level = w[W_LEVEL, i]
    if level == track_top(level):
        return NO_WOUND
    return overflow(w, nw, tab, level + 1, w[W_UID, i])


def worst_of_track(w: Rows, nw: int, first: int) -> int:
    """H5: the row of the worst wound of the track of level ``first``, or :data:`NO_WOUND`.

    The highest level; among equals, the one received first.
    """
    best = NO_WOUND
    top = first + TOP_RANK
    for i in range(nw):
        level = w[W_LEVEL, i]
        if first <= level <= top and (best == NO_WOUND or level > w[W_LEVEL, best]):
            best = i
    return best


def worst(w: Rows, nw: int) -> int:
    """H5: the row of the worst physical wound, or :data:`NO_WOUND`."""
    return worst_of_track(w, nw, LIGHT)


def least_of_track(w: Rows, nw: int, first: int) -> int:
    """R1, G1, B4, B6, M3: the least grave level present on the track of level ``first``.

    :data:`NO_WOUND` when the track holds no wound.
    """
    least = NO_WOUND
    top = first + TOP_RANK
    for i in range(nw):
        level = w[W_LEVEL, i]
        if first <= level <= top and (least == NO_WOUND or level < least):
            least = level
    return least


def least_grave(w: Rows, nw: int) -> int:
    """R1, G1: the least grave physical level present, or :data:`NO_WOUND`."""
    return least_of_track(w, nw, LIGHT)


def next_of_level(w: Rows, nw: int, level: int, after: int) -> int:
    """G1, B5 (Q2): the row of the first wound of ``level`` received after uid ``after``.

    :data:`NO_WOUND` when there is none: a session tests the wounds of one level in order of
    receipt (uids rise with it), each found after the one before.
    """
    for j in range(nw):
        if w[W_UID, j] > after and w[W_LEVEL, j] == level:
            return j
    return NO_WOUND


def physical_count(w: Rows, nw: int) -> int:
    """How many physical wounds the patient holds (R1: a rest needs one)."""
    n = 0
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            n += 1
    return n


def find(w: Rows, nw: int, uid: int) -> int:
    """The row of the wound of uid ``uid``, or :data:`NO_WOUND` once healed."""
    for i in range(nw):
        if w[W_UID, i] == uid:
            return i
    return NO_WOUND


def all_stable(w: Rows, nw: int) -> bool:
    """H4: stable unless some wound is unstable."""
    for i in range(nw):  # noqa: SIM110 (no generators in compiled code)
        if w[W_STABLE, i] == 0:
            return False
    return True


def column_sum(w: Rows, nw: int, tab: Vector, column: int) -> float:
    """The sum of a table column over every wound: mortality plus craziness (P1's floor)."""
    total = 0.0
    for i in range(nw):
        total += cell(tab, w[W_LEVEL, i], column)
    return total


def physical_sum(w: Rows, nw: int, tab: Vector, column: int) -> float:
    """The sum of a table column over the physical wounds: mortality (H2), difficulty (A1)."""
    total = 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level <= CRITICAL:
            total += cell(tab, level, column)
    return total


def mental_sum(w: Rows, nw: int, tab: Vector, column: int) -> float:
    """M1: the sum of a table column over the mental wounds.

    Craziness is their mortality column, the standing penalties their difficulty column.
    """
    total = 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level >= SHOCK:
            total += cell(tab, level, column)
    return total


def pain_floor(w: Rows, nw: int, tab: Vector, craziness: bool) -> float:
    """P1: mortality plus craziness (setting ``pain_floor_craziness``), or mortality alone."""
    if craziness:
        return column_sum(w, nw, tab, T_MORTALITY)
    return physical_sum(w, nw, tab, T_MORTALITY)


def survival_target(w: Rows, nw: int, relapse: int, worst_row: int) -> int:
    """S3, G4: the row a failed survival test worsens while unstable.

    The treated wound of a relapse (uid ``relapse``; :data:`NO_WOUND` for none) while it is
    held, else the worst wound (H5), whose row ``worst_row`` is :func:`worst`'s (the caller
    may keep it).
    """
    if relapse != NO_WOUND:
        target = find(w, nw, relapse)
        if target != NO_WOUND:
            return target
    return worst_row


# --- changing the wounds (in place) --------------------------------------------------------
def add(w: Rows, nw: int, level: int, stable: bool, uid: int) -> int:
    """W2, Q2: a wound of ``level`` and uid ``uid`` joins the rows, last (in place).

    ``w`` has room for it. Returns the new count.
    """
    w[W_LEVEL, nw] = level
    w[W_STABLE, nw] = 1 if stable else 0
    w[W_UID, nw] = uid
    return nw + 1


def set_level(w: Rows, i: int, level: int, stable: bool) -> None:
    """S3, X1, B4: wound ``i`` is now of ``level`` and of that stability (in place)."""
    w[W_LEVEL, i] = level
    w[W_STABLE, i] = 1 if stable else 0


def destabilise(w: Rows, i: int) -> None:
    """S4, G4: wound ``i`` becomes unstable (in place)."""
    w[W_STABLE, i] = 0


def destabilise_all(w: Rows, nw: int) -> None:
    """R3: every physical wound becomes unstable (in place; mental ones stay stable, M3)."""
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            w[W_STABLE, i] = 0


def stabilise(w: Rows, nw: int) -> None:
    """A2: every wound becomes stable (in place; the caller ends the relapse)."""
    for i in range(nw):
        w[W_STABLE, i] = 1


def heal_one(w: Rows, nw: int, i: int) -> int:
    """G2, B4, M3: wound ``i`` goes down a level; a light or shock one disappears (in place).

    Returns the new count; the wounds after ``i`` move up a column, in order of receipt (Q2).
    """
    if w[W_LEVEL, i] % TRACK_SIZE > LIGHT:
        w[W_LEVEL, i] -= 1
        return nw
    for j in range(i, nw - 1):
        w[W_LEVEL, j] = w[W_LEVEL, j + 1]
        w[W_STABLE, j] = w[W_STABLE, j + 1]
        w[W_UID, j] = w[W_UID, j + 1]
    return nw - 1


COMPILED = {
    "cell": "inlined",
    "is_mental": "inlined",
    "blow_pain": "inlined",
    "standing_penalty": "inlined",
    "track_top": "inlined",
    "held": "inlined",
    "overflow": "inlined",
    "arrives_stable": "inlined",
    "worsened": "inlined",
    "worst_of_track": "inlined",
    "worst": "inlined",
    "least_of_track": "inlined",
    "least_grave": "inlined",
    "next_of_level": "inlined",
    "physical_count": "inlined",
    "find": "inlined",
    "all_stable": "inlined",
    "column_sum": "inlined",
    "physical_sum": "inlined",
    "mental_sum": "inlined",
    "pain_floor": "inlined",
    "survival_target": "inlined",
    "add": "inlined",
    "set_level": "inlined",
    "destabilise": "inlined",
    "destabilise_all": "internal",
    "stabilise": "internal",
    "heal_one": "internal",
}
"""How the kernel compiles each function (:mod:`simulator.kernel.jit`'s decorators): the ones
of every step written into their callers, the ones run once per wound called (W1's ``overflow``
is written into the blows' own functions, which are called)."""
