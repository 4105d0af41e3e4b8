"""The rules' decisions as the kernel compiles them.

The kernel's loop (:mod:`simulator.kernel.loop`) decides *when*; these functions decide
*what*. The decisions over plain numbers are :mod:`simulator.rules.scalar`'s, and those over
the wound rows ``w`` (levels, stability, uids in order of receipt) and the wound table at the
start of the scenario vector ``sc`` are :mod:`simulator.rules.rows`', each compiled as it is
written there. What is left here is the kernel's own: D5's odds as its scenario vector holds
them, the caches of its state vector (M1's key, the trace's packed counts) and the draws of
its skipped runs.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.jit import compiled_module, inlined
from simulator.kernel.layout import (
    ODDS0,
    P_AT0,
    P_FLOOR_CRAZY,
    P_MENTAL,
    P_ROLL_HIGH,
    P_ROLL_LOW,
    P_SPAN,
    P_TIE,
    T_DIFFICULTY,
    T_STABLE,
    T_UNSTABLE,
    W_LEVEL,
)
from simulator.rules import rows, scalar
from simulator.rules.codes import CRITICAL, SHOCK

NO_WOUND = rows.NO_WOUND
"""What a search over the wounds returns when no wound qualifies (also a fatal blow's level)."""

PAIN_SCALE = 1e9
"""P1: pain with fractions is rounded to nine decimals after each recovery."""

WHOLE_EXACT = 9e6
"""Up to this size, a whole number times :data:`PAIN_SCALE` is whole and below 2**53, so exact:
rounding it to nine decimals gives it back (:func:`nine_decimals`)."""

# The decisions over plain numbers are written once, in :mod:`simulator.rules.scalar`
# (which every engine calls as plain Python); here they are compiled for the kernel.
from_scalar = compiled_module(scalar)
success_threshold = from_scalar(scalar.success_threshold)
survival_total = from_scalar(scalar.survival_total)
activity_total = from_scalar(scalar.activity_total)
faint_total = from_scalar(scalar.faint_total)
first_aid_total = from_scalar(scalar.first_aid_total)
healing_total = from_scalar(scalar.healing_total)
basic_healing_total = from_scalar(scalar.basic_healing_total)
basic_worsens = from_scalar(scalar.basic_worsens)
faint_tests_due = from_scalar(scalar.faint_tests_due)
faint_until = from_scalar(scalar.faint_until)
unconscious = from_scalar(scalar.unconscious)
attempt_lost = from_scalar(scalar.attempt_lost)
first_attempt = from_scalar(scalar.first_attempt)
next_attempt = from_scalar(scalar.next_attempt)
more_attempts = from_scalar(scalar.more_attempts)
missed_after_neglect = from_scalar(scalar.missed_after_neglect)
activity_tested = from_scalar(scalar.activity_tested)
watch_index = from_scalar(scalar.watch_index)
rested_so_far = from_scalar(scalar.rested_so_far)
rested_after_break = from_scalar(scalar.rested_after_break)
rested_after_session = from_scalar(scalar.rested_after_session)
session_delay = from_scalar(scalar.session_delay)
pain_after = from_scalar(scalar.pain_after)
hours_to_recover = from_scalar(scalar.hours_to_recover)
state_change = from_scalar(scalar.state_change)
cause_after = from_scalar(scalar.cause_after)

# The decisions over the wound rows are written once, in :mod:`simulator.rules.rows` (which the
# ``Patient`` of the other engines calls as plain Python); here they are compiled for the kernel.
from_rows = compiled_module(rows)
cell = from_rows(rows.cell)
is_mental = from_rows(rows.is_mental)
blow_pain = from_rows(rows.blow_pain)
standing_penalty = from_rows(rows.standing_penalty)
track_top = from_rows(rows.track_top)
held = from_rows(rows.held)
overflow = from_rows(rows.overflow)
arrives_stable = from_rows(rows.arrives_stable)
worsened = from_rows(rows.worsened)
worst = from_rows(rows.worst)
least_grave = from_rows(rows.least_grave)
least_of_track = from_rows(rows.least_of_track)
next_of_level = from_rows(rows.next_of_level)
physical_count = from_rows(rows.physical_count)
find = from_rows(rows.find)
all_stable = from_rows(rows.all_stable)
column_sum = from_rows(rows.column_sum)
physical_sum = from_rows(rows.physical_sum)
mental_sum = from_rows(rows.mental_sum)
rows_pain_floor = from_rows(rows.pain_floor)
survival_target = from_rows(rows.survival_target)
add = from_rows(rows.add)
set_level = from_rows(rows.set_level)
destabilise = from_rows(rows.destabilise)
destabilise_all = from_rows(rows.destabilise_all)
stabilise = from_rows(rows.stabilise)
heal_one = from_rows(rows.heal_one)


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


@inlined
def index_of(total: float, sc: np.ndarray) -> float:
    """D3, D5: where the lowest roll that succeeds with modifiers ``total`` is in the odds.

    The test succeeds when roll + total >= 0 (ties succeed, D3's setting) or > 0; the odds
    start at the lowest roll (``sc[ODDS0]`` is P(roll >= low)). A whole number: at most 0
    when every roll succeeds, above ``sc[P_SPAN]`` when none does.

    A whole total is its own rounding (:func:`nine_decimals`) and its own floor and ceiling:
    success_threshold's number less low, without rounding it again nor making it an integer
    (``P_AT0`` holds the tie's 0 or 1 less low). Beyond :data:`WHOLE_EXACT`, where rounding
    may move a whole total, both numbers are millions of rolls past D5's: the test as sure,
    or as hopeless, either way.
    """
    if total == np.floor(total):
        return float(sc[P_AT0] - total)
    return float(success_threshold(nine_decimals(total), sc[P_TIE] == 1) - sc[P_ROLL_LOW])


@inlined
def odds_and_log(total: float, sc: np.ndarray, logs: int) -> tuple[float, float]:
    """D3, D5: P(success) of a test whose modifiers sum to ``total``, and ``sc[logs + at]``.

    ``sc[ODDS0 + at]`` is P(roll >= low + at) (:func:`index_of`). ``logs`` is where a log of
    each of the odds is, in their order (``P_LOG_PASS0``'s or ``P_LOG_FAIL0``'s value): the
    second number is the log of this test's chance, read in the same step (0 outside the
    rolls, where the test always succeeds or never, and no run reads it). The indices are
    unsigned: never negative here, and numba's indexing then tests no sign.
    """
    x = index_of(total, sc)
    if x <= 0.0:
        return 1.0, 0.0
    if x > sc[P_SPAN]:
        return 0.0, 0.0
    at = int(x)
    return float(sc[np.uint64(ODDS0 + at)]), float(sc[np.uint64(logs + at)])


@inlined
def chance(total: float, sc: np.ndarray) -> float:
    """D3, D5: P(success) of a test whose modifiers sum to ``total``."""
    x = index_of(total, sc)
    if x <= 0.0:
        return 1.0
    if x > sc[P_SPAN]:
        return 0.0
    return float(sc[np.uint64(ODDS0 + int(x))])


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


LEVEL_BITS = 10
"""The bits of each level's digit in the kernel's packed counts (:data:`LEVEL_BASE`)."""
LEVEL_BASE = 1 << LEVEL_BITS
"""How the kernel packs a count of wounds per level into one number (:func:`mental_key`,
:func:`packed_counts`): one digit of this base a level. A patient holds at most a level's
maximum of its wounds (W1), and a maximum is at most 1,000 (the scenario's integer limit,
:data:`simulator.scenario.checks.INT_LIMIT`), so no digit carries into the next: with base 16,
a patient of twenty light wounds was told as four light and one grave. The numbers stay
whole and exact in a float (three digits: below 2**30). A level's digit is a shift, not a
power: the power cost the loop some 70 instructions at each first-aid attempt."""
MENTAL_BASE = LEVEL_BASE
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
            key += float(1 << (LEVEL_BITS * (level - SHOCK)))
    return key


COUNT_BASE = LEVEL_BASE
"""How :func:`packed_counts` packs the wounds of each level into one number (a trace's)."""


@inlined
def packed_counts(w: np.ndarray, nw: int) -> int:
    """The wounds per level, light + 1024 × grave + 1024² × critical (told by A1's trace)."""
    packed = 0
    for i in range(nw):
        if w[W_LEVEL, i] <= CRITICAL:
            packed += 1 << (LEVEL_BITS * w[W_LEVEL, i])
    return packed


def packed_count(packed: int, level: int) -> int:
    """How many wounds of ``level`` a :func:`packed_counts` number holds (for the decoder)."""
    return int(packed // COUNT_BASE**level % COUNT_BASE)


@inlined
def pain_floor(w: np.ndarray, nw: int, sc: np.ndarray) -> float:
    """P1: :func:`simulator.rules.rows.pain_floor` with setting ``pain_floor_craziness``.

    Craziness counts when the setting says so, or when there is no mental wound to count.
    """
    return rows_pain_floor(w, nw, sc, sc[P_FLOOR_CRAZY] == 1 or sc[P_MENTAL] == 0)


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


NONE_PASS = 1.0 + 2.0**-30
"""A draw ``u`` above ``p * NONE_PASS`` lets no test pass (:func:`passes`), without a log.

Exact: for u >= p (1 + e), log(u) / log(p) <= 1 - e / |log p| in reals, and |log p| < 745 for
any float p > 0, so with e = 2**-30 the quotient stays below 1 by at least 2**-40 of itself,
far more than the few units of the last place (2**-53) that ``log``, the product and the
division may each be off by: :func:`passes_from_log` would give 0 as well."""


SOME_PASS = 1.0 - 2.0**-30
"""A draw ``u`` below ``p**n * SOME_PASS`` lets at least ``n`` tests pass: the quotient is
above ``n`` by the same margin as :data:`NONE_PASS`'s below ``n + 1`` (:func:`passes`)."""

WITHIN = SOME_PASS / NONE_PASS
"""``p**n * NONE_PASS * WITHIN`` is ``p**n * SOME_PASS``, within a few units of the last place
(:func:`passes` keeps the first product and reads the second from it)."""

BANDS = 4
""":func:`passes` reads runs of fewer than this many passing tests without the log: 0 to 3,
about two thirds of ``careless_watches``' draws (a third pass none, a sixth one, a tenth two,
a sixteenth three)."""


@inlined
def passes(u: float, p: float, log_p: float) -> float:
    """:func:`passes_from_log`, without the log where fewer than :data:`BANDS` tests pass.

    ``n`` tests pass when ``p**(n + 1) < u <= p**n`` (in reals; ``u = 1 - uniform``). With
    margins: when ``p**(n + 1) * NONE_PASS < u < p**n * SOME_PASS``, log(u) / log(p) lies
    between ``n`` and ``n + 1`` by at least 2**-30 / |log p| (|log p| < 745 for any float
    p > 0), more than 2**-42 of a quotient below 4: far more than the few units of the last place
    (2**-53) that ``log``, the product and the division may each be off by, and than the
    roundings of the edges (each edge is the last one times ``p``, rounded: n + 2 roundings
    at most). So the floor is ``n`` exactly. Where an edge underflows (p**n below 2**-1022,
    its rounding no longer relative), it is far below any draw, at least 2**-53, as the
    true power is: the draw lies above both. The few draws within a margin take the log.
    The edges are tried from the most frequent band (none passes) on, one product and one
    comparison each; the upper edge is computed only in the band the draw falls in.
    """
    edge = p * NONE_PASS  # p**n * NONE_PASS, for n = 1, 2...
    if u > edge:
        return 0.0
    for n in range(1, BANDS):
        below = edge
        edge *= p
        if u > edge:
            if u < below * WITHIN:  # p**n * SOME_PASS
                return float(n)
            break
    return passes_from_log(u, log_p)


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
    """:func:`geometric` for 0 < p < 1 given ``log_q`` = log1p(-p) (which a caller caches).

    1 + floor(log(1 - u) / log_q) by libm's log; 1 - u is exact for ``u`` on the 2**-53 grid.
    (Stops 61-66 took an inline log here, a few instructions shorter; sampled, its chain of
    two divisions and a polynomial took 4.5% of the loop's time for 1.8% of its instructions,
    and no measure favoured it over libm's call: docs/kernel-speed.md, stop 67.)
    """
    ratio = math.log(1.0 - u) / log_q
    if not ratio < 2.0**53:
        return math.inf
    return 1.0 + float(np.floor(ratio))
