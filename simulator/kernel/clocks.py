"""The kernel's clocks of repeated tests (S2's survival tests, A3's attempts), by runs.

A clock is a block of the state vector (``base``, ``period``, ``k`` the first test not yet
made nor counted, ``dk`` the decisive test, ``du`` its uniform draw). As the fast Python
engine's :class:`~simulator.engine.pacing.TestClock`, it draws at once how many tests change
nothing before the first that does (geometric while the chance stays the same, test by test
while pain still recovers hour by hour, P1), counts the skipped tests once they are in the
past (:func:`settle`), and after any event draws the rest of the run again from that point
(:func:`draw`): the geometric law has no memory, so every redraw keeps the law of the tests
one by one.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.decisions import (
    LEVEL_BITS,
    all_stable,
    attempt_lost,
    first_aid_total,
    is_mental,
    mental_sum,
    odds_and_log,
    packed_counts,
    passes,
    recovered_pain,
    standing_penalty,
    survival_total,
    wound_difficulty,
)
from simulator.kernel.jit import inlined, internal, spliced
from simulator.kernel.layout import (
    C_BASE,
    CLOCK_BASE,
    CLOCK_DK,
    CLOCK_DU,
    CLOCK_FRESH,
    CLOCK_K,
    CLOCK_ON,
    CLOCK_PERIOD,
    I_FA_ATTEMPTS,
    I_SURVIVAL_TESTS,
    P_CP_RS,
    P_FA_FACTOR,
    P_FA_LEVEL,
    P_FA_MAX,
    P_FA_MOD,
    P_FA_SELF,
    P_HORIZON,
    P_LOG_FAIL0,
    P_LOG_PASS0,
    P_MENTAL,
    P_PER_HOUR,
    P_TRIGGER,
    S_DIFFICULTY,
    S_FA_ATTEMPTS,
    S_FA_MENTAL,
    S_FA_ON,
    S_FA_PRESENT,
    S_FA_SIG,
    S_FLOOR,
    S_MENTAL_KEY,
    S_MISSED,
    S_NOW,
    S_NW,
    S_PAIN,
    S_PAIN_STEPS,
    S_PRIO,
    S_STABLE_SINCE,
    S_SV_MENTAL,
    S_SV_ON,
    S_SV_PRESENT,
    S_SV_SIG,
    S_TRACE_N,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    T_DIFFICULTY,
    W_LEVEL,
)
from simulator.kernel.rng import taken, uniform, uniform_at
from simulator.rules.codes import PRIO_FIRST_AID, PRIO_SURVIVAL, SHOCK, Tr

HOUR = 3_600_000_000.0
"""An hour in the kernel's unit of time, the microsecond (:func:`~simulator.kernel.params.
microseconds_float`)."""
US = 1_000_000.0
"""A second in the kernel's unit of time."""
LOST = 2.0
"""The draw of a first-aid attempt that falls due while the self-treating patient is
unconscious (A4): it is lost, and told one by one. Above every uniform draw, as a known
decisive test's ``-p`` is below (:func:`take`)."""
KEPT_SURVIVAL, KEPT_FIRST_AID = 1, 2
"""Where ``rs`` keeps each clock's position of its run's decisive draw, taken but not mixed
(:data:`~simulator.kernel.rng.STREAM_SIZE`)."""

SURVIVAL_CLOCK = S_SV_ON
FIRST_AID_CLOCK = S_FA_ON

TR_SURVIVAL_RUN = int(Tr.SURVIVAL_RUN)
TR_AID_RUN = int(Tr.AID_RUN)


@inlined
def in_hours(t: float) -> float:
    """A time of the kernel (whole microseconds) in hours, as the record and its cut-offs say.

    Through its seconds first: the same float as the event-by-event engine's ``now / 3600``
    and as a ``_by_1.7s`` cut-off's, where one division by 3.6e9 may round a fraction of a
    second one unit of the last place apart (an event at 1.7 s then fell after its cut-off).
    """
    return t / US / 3600.0


@spliced
def say(
    st: np.ndarray,
    tr: np.ndarray,
    time: float,
    code: int,
    u: float,
    a: float,
    b: float,
    level: int,
    n: int,
    m: int,
) -> None:
    """Write one trace record, when a trace buffer is given and has room."""
    if tr.shape[0] == 0:  # no trace: decided on the buffer's size alone, at no memory read
        return
    i = int(st[S_TRACE_N])
    if i >= tr.shape[0]:
        return
    tr[i, 0], tr[i, 1], tr[i, 2], tr[i, 3] = time, u, a, b
    tr[i, 4], tr[i, 5], tr[i, 6], tr[i, 7] = code, level, n, m
    st[S_TRACE_N] = i + 1


@inlined
def mental_fixed(st: np.ndarray, w: np.ndarray, sc: np.ndarray) -> tuple[float, float, bool]:
    """M1 at the patient's own tests: (sum, which are present, whether a draw decides).

    The sum and which are present hold when no draw decides them. A draw decides when some
    mental wound is held and ``trigger_probability`` is strictly between 0 and 1; then each
    test draws its penalties (:func:`mental_draw`). Which are present: the mental wounds'
    count per level, packed as :func:`~simulator.kernel.decisions.mental_key` packs them
    (every held wound's, at ``trigger_probability`` 1).
    """
    if sc[P_MENTAL] == 0 or sc[P_TRIGGER] <= 0.0 or st[S_MENTAL_KEY] == 0.0:
        return 0.0, 0.0, False
    if sc[P_TRIGGER] >= 1.0:
        return mental_sum(w, int(st[S_NW]), sc, T_DIFFICULTY), st[S_MENTAL_KEY], False
    return 0.0, 0.0, True


@inlined
def mental_draw(w: np.ndarray, nw: int, sc: np.ndarray, rs: np.ndarray) -> tuple[float, float]:
    """M1: the penalties present at one of the patient's own tests, drawn per wound.

    Each mental wound's penalty is present with ``trigger_probability``, independently per
    wound and test (no draw when that chance is 0 or 1). Returns their sum and which are
    present, a count per level packed as :func:`~simulator.kernel.decisions.mental_key`
    packs the wounds held (a trace tells each wound's penalty, as the SimPy engine does).
    """
    if sc[P_MENTAL] == 0:
        return 0.0, 0.0
    q = sc[P_TRIGGER]
    if q <= 0.0:
        return 0.0, 0.0
    total, present = 0.0, 0.0
    for i in range(nw):
        level = w[W_LEVEL, i]
        if is_mental(level) and (q >= 1.0 or uniform(rs) < q):
            total += standing_penalty(sc, level)
            present += float(1 << (LEVEL_BITS * (level - SHOCK)))
    return total, present


@inlined
def pain_at(st: np.ndarray, w: np.ndarray, sc: np.ndarray, t: float) -> float:
    """P1: the pain the patient will have at ``t`` if nothing else changes.

    At or below its floor the pain stays (:func:`~simulator.kernel.decisions.recovered_pain`'s
    own first test), answered before the hours' division, which then waits on nothing.
    """
    if not (sc[P_PER_HOUR] > 0 and st[S_WAS_STABLE] == 1) or st[S_PAIN] <= st[S_FLOOR]:
        return float(st[S_PAIN])
    steps = float(np.floor((t - st[S_STABLE_SINCE]) / HOUR)) - st[S_PAIN_STEPS]
    return recovered_pain(st[S_PAIN], st[S_FLOOR], steps, sc[P_PER_HOUR])


@inlined
def law(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    c: int,
    t: float,
    mental: float,
) -> tuple[float, bool, bool, float, bool]:
    """The test due at ``t``: (chance p it changes nothing, whether that holds later, lost, …).

    The fourth: log(p), when 0 < p < 1 (as ``sc`` holds it, :func:`odds_and_log`). ``mental``:
    M1's penalties at that test (the patient's own tests). The fifth, ``sure``: whether a
    decisive test drawn by :func:`_run` certainly changes something as its handler compares
    it, ``du`` against the chance ``s`` of the odds (:func:`take`). A survival test's ``du``,
    ``p + (1 - p) * v``, is at least ``s = p`` (rounding is monotone): always. First aid's,
    ``(1 - p) * v`` with ``p = 1 - s``, lies below ``a = 1 - p`` for every ``v < 1`` (for
    ``v <= 1 - 2**-53`` the product falls at least half a unit of ``a``'s last place below
    ``a``, a tie only at a power of two, whose even neighbour is below): below ``s`` when
    ``a <= s``. That holds for ``s >= 1/2`` (both subtractions exact), not for every smaller
    ``s``, where ``1 - s`` rounds: tested here, on the odds' own numbers. The handler's chance
    is this ``s``: what the law reads stands until the test (the signature; else the run is
    drawn again), and a steady pain is one that no longer recovers, or at its whole floor.
    """
    if c == SURVIVAL_CLOCK:
        pain = pain_at(st, w, sc, t)
        steady = pain <= st[S_FLOOR] or not (sc[P_PER_HOUR] > 0 and st[S_WAS_STABLE] == 1)
        total = survival_total(sc[P_CP_RS], pain, st[S_MISSED]) + mental
        p, log_p = odds_and_log(total, sc, int(sc[P_LOG_PASS0]))
        return p, steady, False, log_p, True
    self_treat = sc[P_FA_SELF] == 1
    if attempt_lost(self_treat, t, st[S_UNCONSCIOUS]):
        return 0.0, True, True, 0.0, False
    total = first_aid_total(
        sc[P_FA_LEVEL],
        st[S_DIFFICULTY],
        sc[P_FA_MOD],
        self_treat,
        sc[P_FA_FACTOR],
        st[S_PAIN],
    )
    s, log_q = odds_and_log(total + mental, sc, int(sc[P_LOG_FAIL0]))
    return 1.0 - s, True, False, log_q, first_aid_sure(s)


@inlined
def first_aid_sure(s: float) -> bool:
    """Whether every decisive draw of a first-aid run of chance ``s`` compares below ``s``.

    The draw is ``(1 - p) * v``, ``p = 1 - s`` the attempt's chance to fail: below ``s`` for
    every ``v`` when ``1 - p`` is at most ``s`` (:func:`law`). Always for ``s`` of at least
    1/2; below, where ``1 - s`` rounds, not always.
    """
    return 1.0 - (1.0 - s) <= s


@spliced
def time_of(st: np.ndarray, c: int, k: float) -> float:
    """When test ``k`` of clock ``c`` falls due."""
    return float(st[c + CLOCK_BASE] + k * st[c + CLOCK_PERIOD])


@inlined
def count(
    st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, c: int, n: int, first: float
) -> None:
    """Count ``n`` skipped tests of clock ``c`` (from test ``first`` on), and tell them."""
    if c == SURVIVAL_CLOCK:
        st[C_BASE + I_SURVIVAL_TESTS] += n
    else:
        st[C_BASE + I_FA_ATTEMPTS] += n
        st[S_FA_ATTEMPTS] += n
    if tr.shape[0] > 0 and n > 0:  # none skipped: nothing to tell
        tell_run(st, w, sc, tr, c, n, first)


@internal
def tell_run(
    st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, c: int, n: int, first: float
) -> None:
    """The trace record of ``n`` skipped tests of clock ``c`` (from test ``first`` on).

    M1's penalties are told with them when every test of the run had the same: those the
    run was drawn with (``trigger_probability`` 1; none at 0). Drawn test by test (between 0
    and 1), they differ from one test to the next, and the run tells none.
    """
    last, since = time_of(st, c, first + n - 1), time_of(st, c, first)
    nw = int(st[S_NW])
    same = sc[P_MENTAL] == 0 or not (0.0 < sc[P_TRIGGER] < 1.0)
    if c == SURVIVAL_CLOCK:  # S1's modifiers at the last test, and the state (H4)
        pain, stable = pain_at(st, w, sc, last), 1 if all_stable(w, nw) else 0
        told = int(st[S_SV_PRESENT]) if same else 0
        say(st, tr, last, TR_SURVIVAL_RUN, since, pain, st[S_MISSED], stable, n, told)
    else:  # A1's: the wounds and the pain
        counts, difficulty = packed_counts(w, nw), wound_difficulty(w, nw, sc)
        told = int(st[S_FA_PRESENT]) if same else 0
        say(st, tr, last, TR_AID_RUN, since, st[S_PAIN], difficulty, counts, n, told)


@inlined
def settle(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, c: int) -> None:
    """Count the tests of clock ``c``'s run that are now in the past (O1 at equal times).

    The last test at or before now is test ``q``, the floor of a quotient of whole
    microseconds; it is past unless it falls now and comes after this event (O1). Below
    2**53 the quotient's floor is exact but where the quotient rounds up to a whole number
    (possible only when ``now - base + period`` reaches 2**53, 285 years), and then its test
    falls after now: one step back mends it.
    """
    if st[c + CLOCK_ON] == 0:
        return
    now = st[S_NOW]
    k, end = st[c + CLOCK_K], st[c + CLOCK_DK]
    base, period = st[c + CLOCK_BASE], st[c + CLOCK_PERIOD]
    if (k >= end) | (base + k * period > now):
        return
    q = float(np.floor((now - base) / period))
    if base + q * period > now:
        q -= 1.0
    own = PRIO_SURVIVAL if c == SURVIVAL_CLOCK else PRIO_FIRST_AID
    j = q if base + q * period == now and own >= st[S_PRIO] else q + 1.0
    j = min(j, end)  # at least k: test k is at or before now
    count(st, w, sc, tr, c, int(j - k), k)
    st[c + CLOCK_K] = j


@inlined
def stop(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, c: int) -> None:
    """No more tests on clock ``c`` (those skipped so far are counted first)."""
    settle(st, w, sc, tr, c)
    st[c + CLOCK_ON], st[c + CLOCK_DK] = 0.0, math.inf  # due: inf while off


@inlined
def draw(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    c: int,
) -> None:
    """Draw clock ``c``'s run from its test ``k`` on: its decisive test and that test's draw."""
    signature(st, w, sc, c, S_SV_SIG if c == SURVIVAL_CLOCK else S_FA_SIG)
    draw_signed(st, w, sc, rs, tr, c)


@inlined
def draw_signed(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    c: int,
) -> None:
    """:func:`draw`, the clock's signature already written for the present state."""
    k = st[c + CLOCK_K]
    remaining = math.inf
    if c == FIRST_AID_CLOCK and sc[P_FA_MAX] >= 0:
        remaining = sc[P_FA_MAX] - st[S_FA_ATTEMPTS]
    if remaining <= 0:
        stop(st, w, sc, tr, c)
        return
    last_allowed = k + remaining - 1.0
    horizon = sc[P_HORIZON]
    passes_decide = c == FIRST_AID_CLOCK  # first aid changes something when it succeeds
    mental, present, random = 0.0, 0.0, False
    if c == SURVIVAL_CLOCK or sc[P_FA_SELF] == 1:  # M1: the patient's own tests
        mental, present, random = mental_fixed(st, w, sc)
    held = S_SV_MENTAL if c == SURVIVAL_CLOCK else S_FA_MENTAL
    which = S_SV_PRESENT if c == SURVIVAL_CLOCK else S_FA_PRESENT
    while True:
        t = time_of(st, c, k)
        if t > horizon:
            st[c + CLOCK_DK] = math.inf
            return
        if random:
            mental, present = mental_draw(w, int(st[S_NW]), sc, rs)
        p, steady, lost, log_p, sure = law(st, w, sc, c, t, mental)
        st[held], st[which] = mental, present
        if lost:
            st[c + CLOCK_DK], st[c + CLOCK_DU] = k, LOST
            return
        if steady and not random:
            run, v = _run(rs, p, log_p)
            last = k + run
            if last > last_allowed:  # A3: the attempts run out before anything changes
                x = uniform(rs)
                du = (1.0 - p) + p * x if passes_decide else p * x
                st[c + CLOCK_DK], st[c + CLOCK_DU] = last_allowed, du
                return
            if time_of(st, c, last) > horizon:
                st[c + CLOCK_DK] = math.inf
                return
            if v < 0.0:  # its draw taken at rs[0], not mixed
                if sure:  # the handler's comparison known: -p kept, v mixed for a trace only
                    st[c + CLOCK_DK], st[c + CLOCK_DU] = last, -p
                    rs[KEPT_SURVIVAL if c == SURVIVAL_CLOCK else KEPT_FIRST_AID] = rs[0]
                    return
                v = uniform_at(rs[0])
            du = (1.0 - p) * v if passes_decide else p + (1.0 - p) * v
            st[c + CLOCK_DK], st[c + CLOCK_DU] = last, du
            return
        u = uniform(rs)  # test by test: pain still recovers (P1), or M1's penalties are drawn
        changes = u < 1.0 - p if passes_decide else u >= p
        if changes or k >= last_allowed:  # this test changes something, or is the last allowed
            st[c + CLOCK_DK], st[c + CLOCK_DU] = k, u
            return
        k += 1.0


@inlined
def _run(rs: np.ndarray, p: float, log_p: float) -> tuple[float, float]:
    """How many tests pass (chance ``p`` each) before one fails, and a uniform for that one.

    ``log_p`` is log(p), read only for 0 < p < 1 (computed once per scenario, the same number
    as ``math.log(p)``); then the failing test's uniform is only taken (:func:`~simulator.
    kernel.rng.taken`), not mixed: -1 says it is ``uniform_at(rs[0])``, for the caller to mix
    where it reads it.
    """
    u = 1.0 - uniform(rs)
    if p >= 1.0:
        return math.inf, 0.0
    if p <= 0.0:
        return 0.0, 1.0 - u
    taken(rs)
    return passes(u, p, log_p), -1.0


@inlined
def signature(st: np.ndarray, w: np.ndarray, sc: np.ndarray, c: int, out: int) -> bool:
    """Write clock ``c``'s signature at ``st[out:]``; whether it differs from what was there."""
    if c == SURVIVAL_CLOCK:
        a, b = st[S_PAIN], st[S_MISSED]
        x, y = st[S_FLOOR], st[S_STABLE_SINCE] if st[S_WAS_STABLE] == 1 else -1.0
        z = st[S_MENTAL_KEY]
    else:
        a, b = st[S_DIFFICULTY], st[S_PAIN]
        x, y = st[S_UNCONSCIOUS], 0.0
        z = st[S_MENTAL_KEY] if sc[P_FA_SELF] == 1 else 0.0
    moved = (st[out] != a) | (st[out + 1] != b) | (st[out + 2] != x) | (st[out + 3] != y)
    moved = moved | (st[out + 4] != z)
    st[out], st[out + 1], st[out + 2], st[out + 3], st[out + 4] = a, b, x, y, z
    return bool(moved)


@inlined
def redraw(
    st: np.ndarray, w: np.ndarray, sc: np.ndarray, rs: np.ndarray, tr: np.ndarray, c: int
) -> None:
    """After an event: count what is past, and draw the rest again if its law moved.

    A run that :func:`start` drew during this event stands as drawn: nothing between the start
    and this redraw (the rest of H4, the handler's follow-up) moves the law it was drawn with.
    """
    if st[c + CLOCK_ON] == 0:
        return
    if st[c + CLOCK_FRESH] == 1:
        st[c + CLOCK_FRESH] = 0.0
        return
    stale = st[c + CLOCK_DK] < st[c + CLOCK_K]  # its decisive test has just been made
    if signature(st, w, sc, c, S_SV_SIG if c == SURVIVAL_CLOCK else S_FA_SIG) | stale:
        settle(st, w, sc, tr, c)  # counts tests; changes nothing the signature reads
        draw_signed(st, w, sc, rs, tr, c)


@inlined
def start(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    c: int,
    first: float,
    period: float,
) -> None:
    """Tests on clock ``c`` at ``first``, ``first + period``..."""
    settle(st, w, sc, tr, c)
    st[c + CLOCK_ON] = 1.0
    st[c + CLOCK_BASE], st[c + CLOCK_PERIOD] = first, period
    st[c + CLOCK_K], st[c + CLOCK_DK] = 0.0, math.inf
    st[c + CLOCK_FRESH] = 1.0
    draw(st, w, sc, rs, tr, c)


@spliced
def due(st: np.ndarray, c: int) -> float:
    """When clock ``c``'s decisive test falls due (inf when none within the horizon).

    Without a branch: the decisive test ``DK`` is inf while the clock is off (:func:`stop`, and
    each trial's start, with a period of 1 there), and a period is positive (:func:`start`'s
    callers start none of 0), so the time is inf then.
    """
    return time_of(st, c, st[c + CLOCK_DK])


@inlined
def take(
    st: np.ndarray, w: np.ndarray, sc: np.ndarray, rs: np.ndarray, tr: np.ndarray, c: int
) -> tuple[float, bool]:
    """The decisive test of clock ``c`` comes: count the tests before it; return its draw.

    And whether it is known to change something (first aid succeeds, a survival test fails):
    a geometric run's decisive test drawn ``sure`` (:func:`law`) keeps ``-p`` for its draw,
    which is mixed here only for a trace (:func:`kept_draw`); the handler then compares
    nothing. Otherwise (A3's last allowed attempt, a test-by-test run, a lost attempt, a run
    whose chance is 0 or 1, a first-aid chance where rounding could disagree) the draw as
    drawn, for the handler to compare with the chance.
    """
    k, dk = st[c + CLOCK_K], st[c + CLOCK_DK]
    count(st, w, sc, tr, c, int(dk - k), k)  # dk >= k: none skipped counts 0
    st[c + CLOCK_K] = dk + 1.0
    du = float(st[c + CLOCK_DU])
    if du >= 0.0:
        return du, False
    if tr.shape[0] > 0:  # only a trace reads the draw of a known test
        return kept_draw(st, rs, c), True
    return du, True


@inlined
def kept_draw(st: np.ndarray, rs: np.ndarray, c: int) -> float:
    """The decisive draw ``du`` of clock ``c``'s run, kept as ``-p`` and a stream position.

    The same number as :func:`draw_signed` computed when it mixed it at once.
    """
    p = -float(st[c + CLOCK_DU])
    v = uniform_at(rs[KEPT_SURVIVAL if c == SURVIVAL_CLOCK else KEPT_FIRST_AID])
    return (1.0 - p) * v if c == FIRST_AID_CLOCK else p + (1.0 - p) * v
