"""What each event does to the trial's numbers: blows, faints, spells, rests (W, F, S2, R, G5).

The bookkeeping that every handler of :mod:`simulator.kernel.loop` shares, written
once over the state vector ``st``, the wound rows ``w`` and the record's counts ``ct``; the
decisions themselves are :mod:`simulator.kernel.decisions`'.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.clocks import (
    FIRST_AID_CLOCK,
    SURVIVAL_CLOCK,
    in_hours,
    mental_draw,
    say,
    settle,
    start,
    stop,
)
from simulator.kernel.decisions import (
    NO_WOUND,
    add,
    all_stable,
    arrives_stable,
    blow_pain,
    cause_after,
    cell,
    chance,
    faint_tests_due,
    faint_total,
    faint_until,
    first_attempt,
    geometric,
    geometric_from_log,
    heal_one,
    is_mental,
    least_grave,
    least_of_track,
    mental_key,
    overflow,
    pain_floor,
    rested_after_break,
    rested_so_far,
    session_delay,
    set_level,
    state_change,
    survival_period,
    watch_index,
    worsened,
    worst,
    wound_difficulty,
)
from simulator.kernel.jit import inlined, internal, jit
from simulator.kernel.layout import (
    C_BASE,
    I_CAUSE,
    I_FAINTS,
    I_LIGHT_LEFT,
    I_OUTCOME,
    I_WOUNDS_LEFT,
    P_BASIC,
    P_FA,
    P_FA_INTERVAL,
    P_FA_START,
    P_FAINT_DURATION,
    P_HEALER,
    P_NEG0,
    P_NEGLECT_P,
    P_NNEG,
    P_PER_HOUR,
    P_RESUME,
    P_RS_IT,
    P_STABLE_TESTS,
    PEND0,
    S_ALIVE,
    S_CAUSE,
    S_DIFFICULTY,
    S_DONE,
    S_FA_ATTEMPTS,
    S_FA_ON,
    S_FIRST_STABLE,
    S_FLOOR,
    S_HEALED,
    S_INJ_LEFT,
    S_K_MENTAL,
    S_K_PHYSICAL,
    S_LEAST,
    S_LOG_Q,
    S_MAX_PAIN,
    S_MENTAL_KEY,
    S_NEXT_UID,
    S_NOW,
    S_NW,
    S_PAIN,
    S_PAIN_STEPS,
    S_R_COUNT,
    S_R_GAP_U,
    S_R_KEPT,
    S_R_ON,
    S_R_RANDOM,
    S_R_RESTED,
    S_R_SESSION,
    S_R_START,
    S_R_WATCH,
    S_R_WINDEX,
    S_R_WPERIOD,
    S_RECEIVED,
    S_STABLE,
    S_STABLE_SINCE,
    S_SURV_KEY,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    S_WORST,
    S_WORST_LEVEL,
    S_WOUNDED,
    T_HEAL,
    T_WATCH,
    W_LEVEL,
)
from simulator.kernel.rng import uniform
from simulator.rules.codes import (
    EV_A2,
    EV_W2,
    LIGHT,
    OUT_DEAD,
    OUT_HEALED,
    OUT_INCOHERENT,
    TRACK_SIZE,
    WHY_MENTAL,
    WHY_NONE,
    Tr,
)
from simulator.rules.scalar import (
    BECAME_STABLE,
    BECAME_UNSTABLE,
    NO_WATCH,
    SURVIVAL_RESTARTS,
    WOUND_FREE,
)

HOUR = 3_600_000_000.0
"""An hour in the kernel's unit of time, the microsecond (:func:`~simulator.kernel.params.
microseconds_float`)."""
NO_KEY = -1.0
"""S2's key (worst level, stable) of a patient without wounds."""
TR_RECEIVE, TR_OVERFLOW, TR_BLOW_FATAL = int(Tr.RECEIVE), int(Tr.OVERFLOW), int(Tr.BLOW_FATAL)
TR_WORSENS, TR_FAINT_PASSED, TR_FAINT_FAILED = (
    int(Tr.WORSENS),
    int(Tr.FAINT_PASSED),
    int(Tr.FAINT_FAILED),
)
TR_REST_BEGINS, TR_WOUND_FREE = int(Tr.REST_BEGINS), int(Tr.WOUND_FREE)


@inlined
def hours_counted(st: np.ndarray, sc: np.ndarray) -> None:
    """P1: the full stable hours up to now counted, as the loop's ``recover`` counts them.

    ``recover`` does not count them while the pain is at its floor (nothing recovers then,
    whatever their number); whoever raises the pain or lowers the floor counts them first,
    so that only the hours from now on take the pain down. The same number as ``recover``'s
    sum of its steps: each step is the whole number of hours less the sum so far.
    """
    if sc[P_PER_HOUR] > 0 and st[S_WAS_STABLE] == 1:
        st[S_PAIN_STEPS] = float(np.floor((st[S_NOW] - st[S_STABLE_SINCE]) / HOUR))


@inlined
def levels_moved(st: np.ndarray, w: np.ndarray, sc: np.ndarray) -> None:
    """The wounds' levels or count just changed: what the clocks read of them, again.

    The same functions over the same rows as when each use computed its own (the same
    numbers), once per change instead of at every test and redraw. The floor may fall:
    the stable hours so far are counted first (:func:`hours_counted`).
    """
    hours_counted(st, sc)
    nw = int(st[S_NW])
    st[S_FLOOR] = pain_floor(w, nw, sc)
    st[S_DIFFICULTY] = wound_difficulty(w, nw, sc)
    st[S_MENTAL_KEY] = mental_key(w, nw, sc)
    wi = worst(w, nw)
    st[S_WORST] = wi
    st[S_WORST_LEVEL] = NO_WOUND if wi == NO_WOUND else w[W_LEVEL, wi]
    st[S_LEAST] = least_grave(w, nw)


@inlined
def wound_added(st: np.ndarray, w: np.ndarray, sc: np.ndarray) -> None:
    """:func:`levels_moved` after W2's :func:`add` put a wound last: the same numbers, in a step.

    Each number kept is a sum or a search over the wounds in their order, and the new wound
    comes last: each sum takes the one term more that its loop adds last (the same addition,
    so the same float), each search the one candidate more, found by the same functions over
    the new wound alone. H5: a physical wound is the worst only when graver than the worst so
    far (among equals, the one received first).
    """
    nw = int(st[S_NW])
    i = nw - 1
    new = w[:, i:nw]  # the new wound, as the rows' functions read wounds
    st[S_FLOOR] += pain_floor(new, 1, sc)
    st[S_DIFFICULTY] += wound_difficulty(new, 1, sc)
    st[S_MENTAL_KEY] += mental_key(new, 1, sc)
    level = least_grave(new, 1)
    if level == NO_WOUND:  # a mental wound: no physical level moved
        return
    if st[S_WORST] == NO_WOUND or level > st[S_WORST_LEVEL]:
        st[S_WORST], st[S_WORST_LEVEL] = i, level
    least = int(st[S_LEAST])
    if least == NO_WOUND or level < least:
        st[S_LEAST] = level


@internal
def heal(st: np.ndarray, w: np.ndarray, sc: np.ndarray, i: int) -> None:
    """G2, B4, M3: wound ``i`` goes down a level, or disappears (:func:`heal_one`)."""
    st[S_NW] = heal_one(w, int(st[S_NW]), i)
    levels_moved(st, w, sc)
    if st[S_STABLE] == 0:  # the unstable wound may be the one gone
        stability_moved(st, w)


@inlined
def stability_moved(st: np.ndarray, w: np.ndarray) -> None:
    """H4: some wound's stability changed in a way only a look at every wound tells."""
    st[S_STABLE] = 1.0 if all_stable(w, int(st[S_NW])) else 0.0


@internal
def finish(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, out: int) -> None:
    """Q1: the trial ends with outcome ``out`` (the skipped tests so far are counted first)."""
    if st[S_DONE] == 1:
        return
    settle(st, w, sc, tr, SURVIVAL_CLOCK)
    settle(st, w, sc, tr, FIRST_AID_CLOCK)
    st[S_DONE] = 1.0
    st[C_BASE + I_OUTCOME] = out
    out_of_play = out in (OUT_DEAD, OUT_INCOHERENT)
    st[C_BASE + I_CAUSE] = int(st[S_CAUSE]) if out_of_play else WHY_NONE
    nw = int(st[S_NW])
    st[C_BASE + I_WOUNDS_LEFT] = nw
    for i in range(nw):
        st[C_BASE + I_LIGHT_LEFT + w[W_LEVEL, i]] += 1  # light .. psychosis: in level order


@inlined
def faint_checks(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    before: float,
) -> None:
    """F1-F2: faint tests for the pain just received; they stop at the first failure."""
    now = st[S_NOW]
    for _ in range(faint_tests_due(before, st[S_RECEIVED])):
        mental, present = mental_draw(w, int(st[S_NW]), sc, rs)  # M1
        u = uniform(rs)
        told = int(present)
        if u < chance(faint_total(sc[P_RS_IT], st[S_PAIN]) + mental, sc):
            say(st, tr, now, TR_FAINT_PASSED, u, st[S_PAIN], 0.0, 0, 0, told)
            continue
        st[C_BASE + I_FAINTS] += 1
        st[S_UNCONSCIOUS] = faint_until(st[S_UNCONSCIOUS], now, sc[P_FAINT_DURATION])
        say(st, tr, now, TR_FAINT_FAILED, u, st[S_PAIN], st[S_UNCONSCIOUS], 0, 0, told)
        break


@internal
def fatal(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    tr: np.ndarray,
    event: int,
    level: int,
) -> None:
    """W1, S3, X1, B4: a blow past critical: dead, with Q3's cause for ``event``.

    M2, B6: a blow past psychosis: incoherent, of cause ``mental``.
    """
    st[S_ALIVE] = 0.0
    say(st, tr, st[S_NOW], TR_BLOW_FATAL, 0.0, 0.0, 0.0, level, 0, event)
    if is_mental(level):
        st[S_CAUSE] = WHY_MENTAL
        finish(st, w, sc, tr, OUT_INCOHERENT)
        return
    st[S_CAUSE] = cause_after(int(st[S_CAUSE]), event, False, True)
    finish(st, w, sc, tr, OUT_DEAD)


@inlined
def grow_pain(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    pain: float,
) -> None:
    """H3, W3: pain rises by ``pain``; the highest pain and F1's faint checks follow.

    The stable hours so far are counted first (:func:`hours_counted`): the pain may have been
    at its floor.
    """
    if pain:
        hours_counted(st, sc)
    before = st[S_RECEIVED]
    st[S_PAIN] += pain
    st[S_RECEIVED] += pain
    if st[S_PAIN] > st[S_MAX_PAIN]:
        st[S_MAX_PAIN] = st[S_PAIN]
    if pain:
        faint_checks(st, w, sc, rs, tr, before)


@jit
def receive(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    level: int,
) -> bool:
    """W1-W3, M1-M3, B1-B4: receive a wound of ``level``; False when the blow is fatal.

    Physical wounds arrive unstable and mental ones stable (M3); under the basic ruleset every
    wound is stable and brings no pain (B2, B3). A mental wound (M3, B6), and any wound under
    the basic ruleset (B4), starts a rest of its track from zero.
    """
    nw = int(st[S_NW])
    final = overflow(w, nw, sc, level, NO_WOUND)
    if final == NO_WOUND:
        fatal(st, w, sc, tr, EV_W2, level)
        return False
    basic = sc[P_BASIC] == 1
    on_track = arrives_stable(final, basic)
    st[S_NW] = add(w, nw, final, on_track, int(st[S_NEXT_UID]))
    st[S_NEXT_UID] += 1
    if not on_track:
        st[S_STABLE] = 0.0
    wound_added(st, w, sc)
    pain = blow_pain(sc, final, basic)
    code = TR_RECEIVE if final == level else TR_OVERFLOW
    say(st, tr, st[S_NOW], code, 0.0, pain, st[S_PAIN] + pain, level, final, 0)
    grow_pain(st, w, sc, rs, tr, pain)
    if on_track:
        track_start(st, w, sc, final - final % TRACK_SIZE)
    return True


@internal
def worsen(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    i: int,
    event: int,
) -> bool:
    """S3, X1, B4, B6: wound ``i`` goes up a level with W1's overflow; False when fatal.

    A physical wound becomes unstable and brings its new level's pain; under the basic
    ruleset it stays stable and brings none (B2, B3).
    """
    level = w[W_LEVEL, i]
    final = worsened(w, int(st[S_NW]), sc, i)
    if final == NO_WOUND:
        fatal(st, w, sc, tr, event, level)
        return False
    basic = sc[P_BASIC] == 1
    set_level(w, i, final, arrives_stable(final, basic))
    levels_moved(st, w, sc)
    stability_moved(st, w)
    pain = blow_pain(sc, final, basic)
    say(st, tr, st[S_NOW], TR_WORSENS, 0.0, pain, st[S_PAIN] + pain, level, final, event)
    grow_pain(st, w, sc, rs, tr, pain)
    return True


@inlined
def track_start(st: np.ndarray, w: np.ndarray, sc: np.ndarray, first: int) -> None:
    """B4, B6, M3: a rest of the track of level ``first`` from zero, ending in a session.

    It lasts the heal period of the least grave level of the track present; no session
    when the track holds no wound, nor on the mental track of the advanced ruleset without
    a healer (M3).
    """
    slot = S_K_PHYSICAL if first == LIGHT else S_K_MENTAL
    st[slot] = math.inf
    if not (sc[P_BASIC] == 1 or sc[P_HEALER] == 1):
        return
    least = least_of_track(w, int(st[S_NW]), first)
    if least != NO_WOUND:
        st[slot] = st[S_NOW] + cell(sc, least, T_HEAL)


@inlined
def rest_cancel(st: np.ndarray) -> None:
    """No session nor watch of the present rest any more (a new rest count)."""
    st[S_R_COUNT] += 1
    st[S_R_SESSION] = math.inf
    st[S_R_WATCH] = math.inf
    st[S_R_GAP_U] = -1.0


@inlined
def listed_watch(st: np.ndarray, sc: np.ndarray, after: float) -> float:
    """R2: the first watch index after ``after`` that a ``neglect_at`` time falls on."""
    best = math.inf
    begin, period = st[S_R_START], st[S_R_WPERIOD]
    neg0 = int(sc[P_NEG0])
    for j in range(int(sc[P_NNEG])):
        if st[PEND0 + j] == 0:
            continue
        k = watch_index(begin, period, sc[neg0 + j])
        if k == NO_WATCH:
            st[PEND0 + j] = 0  # its first watch came too late: that neglect never happens
            continue
        if k > after:
            best = min(best, float(k))
    return best


@inlined
def arm_watch(st: np.ndarray, sc: np.ndarray, index: float) -> None:
    """R2: the next neglected watch of this rest, randomly or by ``neglect_at``."""
    k = st[S_R_RANDOM]
    if sc[P_NNEG] > 0:
        k = min(k, listed_watch(st, sc, index))
    if k < math.inf:
        st[S_R_WATCH] = st[S_R_START] + k * st[S_R_WPERIOD]
        st[S_R_WINDEX] = k
    else:
        st[S_R_WATCH] = math.inf


@inlined
def rest_start(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    rested: float,
) -> None:
    """R1: a rest begins now, ``rested`` already counted (R4 resume, G3 cumulative)."""
    rest_cancel(st)
    least = int(st[S_LEAST])
    if least == NO_WOUND:  # no physical wound: no rest (R1)
        st[S_R_ON] = 0.0
        return
    now = st[S_NOW]
    st[S_R_ON], st[S_R_START], st[S_R_RESTED] = 1.0, now, rested
    delay = session_delay(cell(sc, least, T_HEAL), rested)
    st[S_R_WPERIOD] = cell(sc, int(st[S_WORST_LEVEL]), T_WATCH)
    if sc[P_HEALER] == 1:
        st[S_R_SESSION] = now + delay
    say(st, tr, now, TR_REST_BEGINS, st[S_R_WPERIOD], delay, rested, least, int(sc[P_HEALER]), 0)
    if sc[P_NEGLECT_P] > 0:
        defer_gap(st, sc, 0.0, uniform(rs))
    else:
        st[S_R_RANDOM] = math.inf
    arm_watch(st, sc, 0.0)


@inlined
def neglect_gap(st: np.ndarray, sc: np.ndarray, u: float) -> float:
    """R2: :func:`geometric` watches up to the next neglected one, log1p(-p) kept per trial."""
    p = sc[P_NEGLECT_P]
    if 0.0 < p < 1.0:
        return geometric_from_log(u, st[S_LOG_Q])
    return geometric(u, p)


GAP_SHRINK = 1.0 - 2.0**-20
""":func:`gap_at_least`'s margin: its bound shrunk by far more than its roundings and libm's."""


@inlined
def gap_at_least(u: float, log_q: float) -> float:
    """R2: a whole number of watches at most :func:`geometric_from_log`'s gap, without a log.

    For 0 <= u < 1 and log_q = log1p(-p) < 0. The gap is 1 + floor(Q), Q = log(1 - u) / log_q
    as libm's log and the division give it (its inline log answers only where it is libm's).
    For y = 1 - u in (0, 1] (exact), -log y = 2 atanh((1 - y) / (1 + y)) >= 2 (1 - y) / (1 + y)
    = 2u / (2 - u). libm's log is within one unit of the last place and the division rounds
    once, so Q >= (2u / (2 - u)) / |log_q| (1 - 2**-51). The bound B computed here takes
    four roundings, each within 2**-53 of its value: B <= (2u / (2 - u)) / |log_q|
    (1 + 2**-50) (1 - 2**-20) < Q where u > 0, and B = 0 <= Q where u = 0. So
    1 + floor(B) <= 1 + floor(Q).

    The two divisions are independent (the second reads only ``log_q``), so the CPU runs them
    side by side: one division's wait on the draw's chain, not two in a row (stop 67: the
    line took 5% of the loop's time for 1.4% of its instructions, 3% once written so).
    """
    return 1.0 + float(np.floor(2.0 * u / (2.0 - u) * (GAP_SHRINK / -log_q)))


@inlined
def defer_gap(st: np.ndarray, sc: np.ndarray, index: float, u: float) -> None:
    """R2: the next randomly neglected watch after watch ``index``, drawn with ``u``.

    As ``S_R_RANDOM = index + neglect_gap(u)``, but where the gap has a log to take (0 < p < 1)
    and no ``neglect_at`` time is listed, ``S_R_RANDOM`` gets a lower bound of it
    (:func:`gap_at_least`) and ``S_R_GAP_U`` keeps ``u``: most rests end before their
    neglected watch, and O1 works the gap out (:func:`gap_worked_out`) only when the bound's
    watch could come first. The same draw, so the same gap, whenever it is worked out.
    """
    log_q = st[S_LOG_Q]
    if log_q < 0.0 and sc[P_NNEG] == 0:
        st[S_R_GAP_U] = u
        st[S_R_RANDOM] = index + gap_at_least(u, log_q)
    else:
        st[S_R_RANDOM] = index + neglect_gap(st, sc, u)


@inlined
def gap_worked_out(st: np.ndarray, sc: np.ndarray) -> None:
    """R2: the gap :func:`defer_gap` put off, worked out; the watch armed at its true index.

    The watch was armed at the bound's index (:func:`arm_watch`, no ``neglect_at`` time
    listed); the bound, computed again from the same draw, gives the index it was added to.
    """
    u = st[S_R_GAP_U]
    st[S_R_GAP_U] = -1.0
    index = st[S_R_RANDOM] - gap_at_least(u, st[S_LOG_Q])
    st[S_R_RANDOM] = index + neglect_gap(st, sc, u)
    arm_watch(st, sc, index)


@inlined
def rest_end(st: np.ndarray, sc: np.ndarray, from_start: bool) -> None:
    """R4: the state turned unstable; what the next rest starts with."""
    rest_cancel(st)
    rested = rested_so_far(st[S_R_RESTED], st[S_R_START], st[S_NOW], st[S_R_ON] == 1)
    st[S_R_ON] = 0.0
    st[S_R_KEPT] = rested_after_break(sc[P_RESUME] == 1, rested, from_start)


@internal
def died(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray, event: int) -> None:
    """Q3: the patient died of ``event`` (H4's rare case, out of the loop's code)."""
    st[S_CAUSE] = cause_after(int(st[S_CAUSE]), event, False, True)
    finish(st, w, sc, tr, OUT_DEAD)


@internal
def wound_free(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray) -> None:
    """G5: the last wound is gone (H4's rare case, out of the loop's code)."""
    now = st[S_NOW]
    st[S_WOUNDED] = 0.0
    st[S_HEALED] = in_hours(now)
    say(st, tr, now, TR_WOUND_FREE, 0.0, 0.0, 0.0, 0, 0, 0)
    if st[S_INJ_LEFT] == 0:
        finish(st, w, sc, tr, OUT_HEALED)


@inlined
def survival_restart(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    key: float,
    level: float,
    stable: bool,
) -> None:
    """S2: the survival tests start again for S2's ``key`` (worst ``level``, state ``stable``).

    One period after now, or none (no physical wound, or a period of 0: no test).
    """
    now = st[S_NOW]
    st[S_SURV_KEY] = key
    period = (
        0.0
        if level == NO_WOUND
        else survival_period(int(level), stable, sc, sc[P_STABLE_TESTS] == 1)
    )
    if period > 0:
        start(st, w, sc, rs, tr, SURVIVAL_CLOCK, now + period, period)
    else:
        stop(st, w, sc, tr, SURVIVAL_CLOCK)


@inlined
def turned_unstable(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    event: int,
    from_start: bool,
) -> None:
    """H4's turn to unstable: the cause, R4's end of the rest, A3's first-aid spell anew."""
    st[S_CAUSE] = cause_after(int(st[S_CAUSE]), event, True, False)
    rest_end(st, sc, from_start)
    st[S_FA_ATTEMPTS] = 0.0
    if sc[P_FA] == 1:
        first = first_attempt(st[S_NOW], sc[P_FA_START])
        start(st, w, sc, rs, tr, FIRST_AID_CLOCK, first, sc[P_FA_INTERVAL])


@inlined
def stabilised(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """H4 after first aid's success (A2): :func:`changed`'s case for ``EV_A2``, written out.

    First aid falls due only while its clock runs, which H4 starts when the state turns
    unstable and stops when it turns stable: so H4 last saw the patient alive, wounded and
    unstable, with S2's key of the unstable state, and the first-aid clock is on. The success
    stabilises every wound and kills no one: the change is always ``BECAME_STABLE`` and
    ``SURVIVAL_RESTARTS`` (the key's state moved), never ``WOUND_FREE``, and ``S_WOUNDED``
    is 1 already. The same writes as :func:`changed`'s, in its order, without its tests.
    """
    now = st[S_NOW]
    level = st[S_WORST_LEVEL]
    st[S_WAS_STABLE] = 1.0
    if math.isnan(st[S_FIRST_STABLE]):
        st[S_FIRST_STABLE] = in_hours(now)
    st[S_STABLE_SINCE], st[S_PAIN_STEPS] = now, 0.0
    stop(st, w, sc, tr, FIRST_AID_CLOCK)
    rest_start(st, w, sc, rs, tr, st[S_R_KEPT])
    # (no physical wound: no survival test; never, unstable)
    survival_restart(
        st, w, sc, rs, tr, NO_KEY if level == NO_WOUND else 2.0 * level + 1.0, level, True
    )


@inlined
def destabilised(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    event: int,
    from_start: bool,
) -> None:
    """H4 after a stable patient turned unstable: :func:`changed`'s case, written out.

    For S4 (a stable patient's failed survival test), G4 (a relapse, ``from_start``), R3 (a
    failed watch, ``from_start``), W2 (an injury, H4 last seeing the patient stable). A test
    falls due only while stable (a survival clock H4 started with S2's key of the stable state;
    a rest's session or watch): H4 last saw the patient alive and stable, with no first-aid
    spell. The event made a physical wound unstable and killed no one: always ``BECAME_UNSTABLE``
    and ``SURVIVAL_RESTARTS``, never ``WOUND_FREE``; ``S_WOUNDED`` is 1 (an injury's handler
    sets it first: only H4 reads it). :func:`changed`'s writes, in its order, without its tests.
    """
    level = st[S_WORST_LEVEL]
    st[S_WAS_STABLE] = 0.0
    turned_unstable(st, w, sc, rs, tr, event, from_start)
    survival_restart(st, w, sc, rs, tr, 2.0 * level, level, False)


@inlined
def changed(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    event: int,
    from_start: bool,
) -> None:
    """H4, S2, A3, R1, R4, G5, Q3: what a new state after ``event`` restarts or stops."""
    if st[S_ALIVE] == 0:
        died(st, w, sc, tr, event)
        return
    nw = int(st[S_NW])
    now = st[S_NOW]
    stable = st[S_STABLE] == 1
    level = st[S_WORST_LEVEL]
    # S2's pair (worst level, stable) as one number; no physical wound: NO_KEY (then stable)
    key = NO_KEY if level == NO_WOUND else 2.0 * level + (1.0 if stable else 0.0)
    if event == EV_A2:  # every wound stabilised by first aid, which runs while H4 saw unstable
        change = state_change(False, True, st[S_SURV_KEY], key, True, True)
    else:
        change = state_change(
            st[S_WAS_STABLE] == 1, stable, st[S_SURV_KEY], key, st[S_WOUNDED] == 1, nw > 0
        )
        if sc[P_BASIC] == 1:  # B3: no stability, no survival tests (nor first aid)
            change &= WOUND_FREE
    if change & (BECAME_STABLE | BECAME_UNSTABLE):
        st[S_WAS_STABLE] = 1.0 if stable else 0.0
        if change & BECAME_STABLE:
            if math.isnan(st[S_FIRST_STABLE]):
                st[S_FIRST_STABLE] = in_hours(now)
            st[S_STABLE_SINCE], st[S_PAIN_STEPS] = now, 0.0
            if st[S_FA_ON] == 1:
                stop(st, w, sc, tr, FIRST_AID_CLOCK)
            rest_start(st, w, sc, rs, tr, st[S_R_KEPT])
        else:
            turned_unstable(st, w, sc, rs, tr, event, from_start)
    if change & SURVIVAL_RESTARTS:
        survival_restart(st, w, sc, rs, tr, key, level, stable)
    if nw > 0:
        st[S_WOUNDED] = 1.0
    elif change & WOUND_FREE:
        wound_free(st, w, sc, tr)
