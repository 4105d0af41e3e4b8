"""Each rule decision once, as a pure function of numbers that numba can compile.

The kernel's loop (:mod:`simulator.kernel.loop`) decides *when*; these functions decide
*what*, over the wound rows ``w`` (levels, stability, uids in order of receipt) and the wound
table in the scenario vector ``sc`` (:mod:`simulator.kernel.layout`). The functions that
change the wounds do so in place and say so; the others only read. Their docstrings name the
rule of RULES.md.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.jit import inlined, jit
from simulator.kernel.layout import (
    ODDS0,
    P_FLOOR_CRAZY,
    P_MENTAL,
    P_ROLL_HIGH,
    P_ROLL_LOW,
    P_TIE,
    T_DIFFICULTY,
    T_MAX,
    T_MORTALITY,
    T_SIZE,
    T_STABLE,
    T_UNSTABLE,
    TAB0,
    W_LEVEL,
    W_STABLE,
    W_UID,
)
from simulator.rules import scalar
from simulator.rules.codes import CRITICAL, LIGHT, SHOCK, TOP_RANK, TRACK_SIZE

NO_WOUND = -1
"""What a search over the wounds returns when no wound qualifies (also a fatal blow's level)."""

PAIN_SCALE = 1e9
"""P1: pain with fractions is rounded to nine decimals after each recovery."""

WHOLE_EXACT = 9e6
"""Up to this size, a whole number times :data:`PAIN_SCALE` is whole and below 2**53, so exact:
rounding it to nine decimals gives it back (:func:`nine_decimals`)."""

# The decisions over plain numbers are written once, in :mod:`simulator.rules.scalar`
# (which every engine calls as plain Python); here they are compiled for the kernel.
success_threshold = inlined(scalar.success_threshold)
survival_total = inlined(scalar.survival_total)
activity_total = inlined(scalar.activity_total)
faint_total = inlined(scalar.faint_total)
first_aid_total = inlined(scalar.first_aid_total)
healing_total = inlined(scalar.healing_total)
basic_healing_total = inlined(scalar.basic_healing_total)
basic_worsens = inlined(scalar.basic_worsens)
faint_tests_due = inlined(scalar.faint_tests_due)
faint_until = inlined(scalar.faint_until)
unconscious = inlined(scalar.unconscious)
attempt_lost = inlined(scalar.attempt_lost)
first_attempt = inlined(scalar.first_attempt)
next_attempt = inlined(scalar.next_attempt)
more_attempts = inlined(scalar.more_attempts)
missed_after_neglect = inlined(scalar.missed_after_neglect)
activity_tested = inlined(scalar.activity_tested)
watch_index = inlined(scalar.watch_index)
rested_so_far = inlined(scalar.rested_so_far)
rested_after_break = inlined(scalar.rested_after_break)
rested_after_session = inlined(scalar.rested_after_session)
session_delay = inlined(scalar.session_delay)
pain_after = inlined(scalar.pain_after)
state_change = inlined(scalar.state_change)
cause_after = jit(scalar.cause_after)


@inlined
def nine_decimals(x: float) -> float:
    """``np.rint(x * 1e9) / 1e9``: ``x`` rounded to nine decimals (P1, D3).

    A whole ``x`` of at most :data:`WHOLE_EXACT` is its own rounding (``x * 1e9`` is exact and
    whole, and so is the quotient): the same number without the product, the rounding and the
    division, for the whole totals and pains of most tests.
    """
    if abs(x) <= WHOLE_EXACT and x == np.floor(x):
        return x
    return float(np.rint(x * PAIN_SCALE)) / PAIN_SCALE


SURE, NEVER = -1, -2
"""What :func:`odds_at` says of a test that always succeeds, or never."""


@inlined
def odds_at(total: float, sc: np.ndarray) -> int:
    """D3, D5: where P(success) of a test whose modifiers sum to ``total`` is in D5's odds.

    ``sc[ODDS0 + r - low]`` is P(roll >= r); the test succeeds when roll + total >= 0 (ties
    succeed, D3's setting) or > 0. :data:`SURE` or :data:`NEVER` outside the rolls.
    """
    tie = sc[P_TIE] == 1
    if abs(total) <= WHOLE_EXACT and total == np.floor(total):
        # a whole total is its own rounding (nine_decimals) and its own floor and ceiling:
        # success_threshold's number, without rounding it again nor making it an integer
        threshold = (0.0 if tie else 1.0) - total
    else:
        threshold = float(success_threshold(nine_decimals(total), tie))
    low = sc[P_ROLL_LOW]
    if threshold <= low:
        return SURE
    if threshold > sc[P_ROLL_HIGH]:
        return NEVER
    return int(threshold - low)


@inlined
def odds(at: int, sc: np.ndarray) -> float:
    """The chance :func:`odds_at` places at ``at``."""
    if at == SURE:
        return 1.0
    if at == NEVER:
        return 0.0
    return float(sc[ODDS0 + at])


@inlined
def chance(total: float, sc: np.ndarray) -> float:
    """D3, D5: P(success) of a test whose modifiers sum to ``total``."""
    return odds(odds_at(total, sc), sc)


@inlined
def at_least(r: float, sc: np.ndarray) -> float:
    """D5: P(roll >= r) for a whole ``r`` (1 below the lowest roll, 0 above the highest)."""
    low = sc[P_ROLL_LOW]
    if r <= low:
        return 1.0
    if r > sc[P_ROLL_HIGH]:
        return 0.0
    return float(sc[ODDS0 + int(r - low)])


@inlined
def worsens_by_margin(u: float, total: float, sc: np.ndarray) -> bool:
    """B4: whether the failed test of draw ``u`` had a margin of -10 or less.

    The roll ``u`` stands for (the highest r with P(roll >= r) > u, as
    :meth:`~simulator.rules.chances.RollTable.roll`) is at most ``m`` exactly when
    ``u >= P(roll >= m + 1)``; the margin, roll + total, is at most -10 when the roll is at
    most ``floor(-10 - total)``.
    """
    t = nine_decimals(total)
    return u >= at_least(math.floor(scalar.BASIC_WORSEN_MARGIN - t) + 1.0, sc)


@inlined
def cell(sc: np.ndarray, level: int, column: int) -> float:
    """T1-T2: the table's cell for ``level`` and ``column`` (a ``T_*`` constant)."""
    return float(sc[TAB0 + level * T_SIZE + column])


@inlined
def held(w: np.ndarray, nw: int, level: int, exclude: int) -> int:
    """How many wounds of ``level`` the patient holds, the wound of uid ``exclude`` apart."""
    n = 0
    for i in range(nw):
        if w[W_LEVEL, i] == level and w[W_UID, i] != exclude:
            n += 1
    return n


@inlined
def next_of_level(w: np.ndarray, nw: int, level: int, after: int) -> int:
    """G1, B5 (Q2): the row of the first wound of ``level`` received after uid ``after``.

    :data:`NO_WOUND` when there is none: a session tests the wounds of one level in order of
    receipt (uids rise with it), each found after the one before.
    """
    for j in range(nw):
        if w[W_UID, j] > after and w[W_LEVEL, j] == level:
            return j
    return NO_WOUND


@inlined
def track_top(level: int) -> int:
    """The top level of ``level``'s track: critical (T1) or psychosis (M1)."""
    return level - level % TRACK_SIZE + TOP_RANK


@jit
def overflow(w: np.ndarray, nw: int, sc: np.ndarray, level: int, exclude: int) -> int:
    """W1, M2: go up while ``level`` is full; :data:`NO_WOUND` past the top of its track.

    Past critical the blow is fatal (W1); past psychosis the patient is incoherent (M2).
    """
    current = level
    top = track_top(level)
    while current <= top:
        if held(w, nw, current, exclude) < cell(sc, current, T_MAX):
            return current
        current += 1
    return NO_WOUND


@inlined
def worst(w: np.ndarray, nw: int) -> int:
    """H5: the index of the worst physical wound (highest level, first received), or NO_WOUND."""
    best = NO_WOUND
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level <= CRITICAL and (best == NO_WOUND or level > w[W_LEVEL, best]):
            best = i
    return best


@inlined
def least_grave(w: np.ndarray, nw: int) -> int:
    """R1, G1: the least grave physical level present, or NO_WOUND."""
    least = NO_WOUND
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level <= CRITICAL and (least == NO_WOUND or level < least):
            least = level
    return least


@inlined
def least_of_track(w: np.ndarray, nw: int, first: int) -> int:
    """B4, B6, M3: the least grave level present on the track of level ``first``, or NO_WOUND."""
    least = NO_WOUND
    top = first + TOP_RANK
    for i in range(nw):
        level = w[W_LEVEL, i]
        if first <= level <= top and (least == NO_WOUND or level < least):
            least = level
    return least


@inlined
def physical_count(w: np.ndarray, nw: int) -> int:
    """How many physical wounds the patient holds (R1: a rest needs one)."""
    n = 0
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            n += 1
    return n


@inlined
def is_mental(level: int) -> bool:
    """M1: whether ``level`` is on the mental track."""
    return level >= SHOCK


MENTAL_BASE = 16
"""How :func:`mental_key` packs the mental wounds of each level into one number."""


@inlined
def mental_key(w: np.ndarray, nw: int, sc: np.ndarray) -> float:
    """M1: the mental wounds per level as one number (what the penalties' law depends on)."""
    if sc[P_MENTAL] == 0:
        return 0.0
    key = 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level >= SHOCK:
            key += float(MENTAL_BASE ** (level - SHOCK))
    return key


@inlined
def mental_sum(w: np.ndarray, nw: int, sc: np.ndarray) -> float:
    """M1: the sum of every mental wound's standing penalty (their difficulty column)."""
    total = 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level >= SHOCK:
            total += cell(sc, level, T_DIFFICULTY)
    return total


@inlined
def find(w: np.ndarray, nw: int, uid: int) -> int:
    """The index of the wound of uid ``uid``, or NO_WOUND once healed."""
    for i in range(nw):
        if w[W_UID, i] == uid:
            return i
    return NO_WOUND


@inlined
def all_stable(w: np.ndarray, nw: int) -> bool:
    """H4: stable unless some wound is unstable."""
    for i in range(nw):  # noqa: SIM110 (no generators in compiled code)
        if w[W_STABLE, i] == 0:
            return False
    return True


@inlined
def column_sum(w: np.ndarray, nw: int, sc: np.ndarray, column: int) -> float:
    """The sum of a table column over the wounds: mortality and craziness (P1's floor)."""
    total = 0.0
    for i in range(nw):
        total += cell(sc, w[W_LEVEL, i], column)
    return total


@inlined
def physical_sum(w: np.ndarray, nw: int, sc: np.ndarray, column: int) -> float:
    """The sum of a table column over the physical wounds: mortality (H2), difficulty (A1)."""
    total = 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if level <= CRITICAL:
            total += cell(sc, level, column)
    return total


COUNT_BASE = 16
"""How :func:`packed_counts` packs the wounds of each level into one number (a trace's)."""


@inlined
def packed_counts(w: np.ndarray, nw: int) -> int:
    """The wounds per level, light + 16 × grave + 256 × critical (told by A1's trace)."""
    packed = 0
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            packed += COUNT_BASE ** w[W_LEVEL, i]
    return packed


def packed_count(packed: int, level: int) -> int:
    """How many wounds of ``level`` a :func:`packed_counts` number holds (for the decoder)."""
    return int(packed // COUNT_BASE**level % COUNT_BASE)


@inlined
def pain_floor(w: np.ndarray, nw: int, sc: np.ndarray) -> float:
    """P1: mortality plus craziness (setting ``pain_floor_craziness``), or mortality alone."""
    if sc[P_FLOOR_CRAZY] == 1 or sc[P_MENTAL] == 0:
        return column_sum(w, nw, sc, T_MORTALITY)
    return physical_sum(w, nw, sc, T_MORTALITY)


@inlined
def wound_difficulty(w: np.ndarray, nw: int, sc: np.ndarray) -> float:
    """A1, B4: the sum of the difficulties of the current physical wounds."""
    return physical_sum(w, nw, sc, T_DIFFICULTY)


@inlined
def recovered_pain(pain: float, floor: float, steps: float, per_hour: float) -> float:
    """P1: the pain after ``steps`` more full stable hours, never below the floor.

    :func:`pain_after`, rounded to nine decimals when it moved (rounding after the floor or
    before gives the same number: the floor is whole).
    """
    if steps <= 0 or per_hour <= 0 or pain <= floor:
        return pain
    return nine_decimals(pain_after(pain, floor, steps, per_hour))


@inlined
def survival_period(level: int, stable: bool, sc: np.ndarray, stable_tests: bool) -> float:
    """S2: the worst wound's unstable or stable period; 0 for no test (stable tests off)."""
    if stable:
        return cell(sc, level, T_STABLE) if stable_tests else 0.0
    return cell(sc, level, T_UNSTABLE)


@jit
def destabilise_all(w: np.ndarray, nw: int) -> None:
    """R3: every physical wound becomes unstable (in place; mental ones stay stable, M3)."""
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            w[W_STABLE, i] = 0


@jit
def stabilise(w: np.ndarray, nw: int) -> None:
    """A2: every wound becomes stable (in place; the caller ends the relapse)."""
    for i in range(nw):
        w[W_STABLE, i] = 1


@jit
def heal_one(w: np.ndarray, nw: int, i: int) -> int:
    """G2, B4, M3: wound ``i`` goes down a level; a light or shock one disappears.

    Returns the new count.
    """
    if w[W_LEVEL, i] % TRACK_SIZE > LIGHT:
        w[W_LEVEL, i] -= 1
        return nw
    for j in range(i, nw - 1):
        w[W_LEVEL, j] = w[W_LEVEL, j + 1]
        w[W_STABLE, j] = w[W_STABLE, j + 1]
        w[W_UID, j] = w[W_UID, j + 1]
    return nw - 1


@inlined
def passes_from_log(u: float, log_p: float) -> float:
    """How many tests pass before the first that fails, each passing with chance p.

    Geometric, by inversion of ``u``, uniform on (0, 1], for 0 < p < 1 given ``log_p`` =
    log(p) (which a caller caches). See :func:`simulator.rules.chances.run_length`, which
    also gives the failing test's uniform (the kernel draws a fresh one instead: the count and
    where the failing test falls within its own chance are independent, so the law is the same).
    """
    return float(np.floor(math.log(u) / log_p)) + 0.0  # + 0.0: 0, not -0, for u = 1


@inlined
def geometric(u: float, p: float) -> float:
    """Trials up to the first success of Bernoulli(p), by inversion of ``u`` (R2's watches)."""
    if p <= 0.0:
        return math.inf
    if p >= 1.0:
        return 1.0
    return geometric_from_log(u, math.log1p(-p))


@inlined
def geometric_from_log(u: float, log_q: float) -> float:
    """:func:`geometric` for 0 < p < 1 given ``log_q`` = log1p(-p) (which a caller caches)."""
    ratio = math.log(1.0 - u) / log_q  # 1 - u is exact for u on a 2**-53 grid; log is cheaper
    if not ratio < 2.0**53:
        return math.inf
    return 1.0 + float(np.floor(ratio))
