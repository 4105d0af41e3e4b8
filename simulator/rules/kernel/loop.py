"""The Monte Carlo kernel: one trial's event loop over the state as numbers, and batches.

:func:`run_batch` runs trials ``first .. first + n - 1`` of a study into two record
matrices (:mod:`simulator.rules.kernel.layout`); :func:`run_one` runs one, optionally writing
trace records into a buffer. At each step the loop takes the next event in O1's order
(time, then priority: injuries, activities, first aid, watches, healing, survival tests, the
horizon last, O2), applies P1's recovery, counts the skipped tests now in the past, handles
the event, and draws the runs of the two test clocks again from the new state.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.rules.kernel.clocks import (
    FIRST_AID_CLOCK,
    LOST,
    SURVIVAL_CLOCK,
    draw,
    due,
    say,
    settle,
    stop,
    take,
)
from simulator.rules.kernel.codes import (
    EV_A2,
    EV_G4,
    EV_R3,
    EV_S3,
    EV_S4,
    EV_W2,
    EV_X1,
    OUT_HEALED,
    OUT_WOUNDED,
    PRIO_ACTIVITY,
    PRIO_FIRST_AID,
    PRIO_HEALING,
    PRIO_HORIZON,
    PRIO_INJURY,
    PRIO_SURVIVAL,
    PRIO_WATCH,
    Tr,
)
from simulator.rules.kernel.decisions import (
    NO_WOUND,
    activity_tested,
    activity_total,
    all_stable,
    chance,
    destabilise_all,
    find,
    first_aid_total,
    geometric,
    heal_one,
    healing_total,
    least_grave,
    pain_floor,
    recovered_pain,
    stabilise,
    survival_total,
    worst,
    wound_difficulty,
)
from simulator.rules.kernel.events import (
    HOUR,
    NO_KEY,
    arm_watch,
    changed,
    finish,
    receive,
    rest_cancel,
    rest_start,
    worsen,
)
from simulator.rules.kernel.jit import jit
from simulator.rules.kernel.layout import (
    CLOCK_ON,
    F_DEATH,
    F_END,
    F_FIRST_STABLE,
    F_HEALED,
    F_INCOHERENT,
    F_MAX_PAIN,
    I_ACTIVITY_FAILURES,
    I_ACTIVITY_TESTS,
    I_AGGRAVATIONS,
    I_FA_ATTEMPTS,
    I_FA_SUCCESSES,
    I_HEALING_FAILURES,
    I_HEALING_TESTS,
    I_NEGLECTED,
    I_OUTCOME,
    I_SURVIVAL_FAILURES,
    I_SURVIVAL_TESTS,
    INT_FIELDS,
    P_BREAKS,
    P_CP_RS,
    P_CUMULATIVE,
    P_FA_FACTOR,
    P_FA_LEVEL,
    P_FA_MAX,
    P_FA_MOD,
    P_FA_SELF,
    P_HEAL_LEVEL,
    P_HEAL_MOD,
    P_HORIZON,
    P_NEGLECT_P,
    P_PER_HOUR,
    P_ROLL_HIGH,
    P_ROLL_LOW,
    P_TIE,
    S_ACT_NEXT,
    S_ALIVE,
    S_DONE,
    S_FA_ATTEMPTS,
    S_FIRST_STABLE,
    S_HEALED,
    S_INJ_LEFT,
    S_INJ_NEXT,
    S_MAX_PAIN,
    S_MISSED,
    S_NOW,
    S_NW,
    S_PAIN,
    S_PAIN_STEPS,
    S_PRIO,
    S_R_COUNT,
    S_R_ON,
    S_R_RANDOM,
    S_R_RESTED,
    S_R_SESSION,
    S_R_START,
    S_R_WATCH,
    S_R_WINDEX,
    S_RELAPSE,
    S_SIZE,
    S_STABLE_SINCE,
    S_SURV_KEY,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    T_DIFFICULTY,
    TRACE_FLOATS,
    TRACE_INTS,
    W_LEVEL,
    W_STABLE,
    W_UID,
)
from simulator.rules.kernel.rng import trial_state, uniform

TR_SURVIVAL_PASSED, TR_SURVIVAL_UNSTABLE = int(Tr.SURVIVAL_PASSED), int(Tr.SURVIVAL_UNSTABLE)
TR_SURVIVAL_WORSENS, TR_AID_FAILED = int(Tr.SURVIVAL_WORSENS), int(Tr.AID_FAILED)
TR_AID_SUCCEEDS, TR_AID_EXHAUSTED = int(Tr.AID_SUCCEEDS), int(Tr.AID_EXHAUSTED)
TR_AID_LOST, TR_WATCH, TR_HEALED_ONE = int(Tr.AID_LOST), int(Tr.WATCH), int(Tr.HEALED_ONE)
TR_RELAPSE, TR_NEW_REST, TR_ACTIVITY = int(Tr.RELAPSE), int(Tr.NEW_REST), int(Tr.ACTIVITY)
TR_ACTIVITY_HOLDS, TR_ACTIVITY_WORSENS = int(Tr.ACTIVITY_HOLDS), int(Tr.ACTIVITY_WORSENS)
TR_ACTIVITY_REST, TR_HORIZON, TR_RECOVERY = int(Tr.ACTIVITY_REST), int(Tr.HORIZON), int(Tr.RECOVERY)
NONE_DUE = -1
"""The event chosen when nothing is due (never: the horizon always is)."""


@jit
def _test(par: np.ndarray, odds: np.ndarray, rs: np.ndarray, total: float) -> tuple[float, bool]:
    """D1-D3: one test as one uniform draw against its exact chance; (draw, success)."""
    u = uniform(rs)
    low, high, tie = int(par[P_ROLL_LOW]), int(par[P_ROLL_HIGH]), par[P_TIE] == 1
    return u, u < chance(total, odds, low, high, tie)


@jit
def recover(
    st: np.ndarray, w: np.ndarray, par: np.ndarray, tab: np.ndarray, tf: np.ndarray, ti: np.ndarray
) -> None:
    """P1, lazily: the pain recovery of every full stable hour up to now."""
    per_hour = par[P_PER_HOUR]
    if not (per_hour > 0 and st[S_WAS_STABLE] == 1):
        return
    steps = int((st[S_NOW] - st[S_STABLE_SINCE]) // HOUR) - int(st[S_PAIN_STEPS])
    if steps <= 0:
        return
    before = st[S_PAIN]
    floor = pain_floor(w, int(st[S_NW]), tab)
    st[S_PAIN] = recovered_pain(before, floor, steps, per_hour)
    st[S_PAIN_STEPS] += steps
    if st[S_PAIN] != before:
        needed = math.ceil(np.rint((before - st[S_PAIN]) / per_hour * 1e9) / 1e9)
        when = st[S_STABLE_SINCE] + (st[S_PAIN_STEPS] - steps + needed) * HOUR
        say(st, tf, ti, when, TR_RECOVERY, st[S_STABLE_SINCE], before, st[S_PAIN], 0, 0, int(floor))


@jit
def on_injury(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    inj: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """W1-W3: the next scheduled injury (file order)."""
    index = int(st[S_INJ_NEXT])
    st[S_INJ_LEFT] -= 1
    for _ in range(int(inj[index, 2])):
        if not receive(st, w, ct, par, tab, odds, rs, tf, ti, int(inj[index, 1])):
            return
    changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_W2, False)
    st[S_INJ_NEXT] = index + 1


@jit
def on_activity(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    act: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """X1: each grave or critical wound tests; the activity breaks the rest."""
    index = int(st[S_ACT_NEXT])
    st[S_ACT_NEXT] = index + 1
    now = st[S_NOW]
    say(st, tf, ti, now, TR_ACTIVITY, 0.0, 0.0, 0.0, 0, 0, 0)
    last_uid = NO_WOUND
    while True:  # the wounds tested, in order of receipt (uids rise with it, Q2)
        i = NO_WOUND
        for j in range(int(st[S_NW])):
            if w[W_UID, j] > last_uid and activity_tested(w[W_LEVEL, j]):
                i = j
                break
        if i == NO_WOUND:
            break
        last_uid = w[W_UID, i]
        pain, missed = st[S_PAIN], st[S_MISSED]
        u, ok = _test(par, odds, rs, activity_total(par[P_CP_RS], pain, missed, act[index, 1]))
        ct[I_ACTIVITY_TESTS] += 1
        level = w[W_LEVEL, i]
        if ok:
            say(st, tf, ti, now, TR_ACTIVITY_HOLDS, u, pain, missed, level, 0, index)
            continue
        ct[I_ACTIVITY_FAILURES] += 1
        ct[I_AGGRAVATIONS] += 1
        say(st, tf, ti, now, TR_ACTIVITY_WORSENS, u, pain, missed, level, 0, index)
        if not worsen(st, w, ct, par, tab, odds, rs, tf, ti, i, EV_X1):
            return
    breaks = par[P_BREAKS] == 1
    changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_X1, breaks)
    if st[S_DONE] == 0 and breaks and st[S_NW] > 0 and all_stable(w, int(st[S_NW])):
        say(st, tf, ti, now, TR_ACTIVITY_REST, 0.0, 0.0, 0.0, 0, 0, 0)
        rest_start(st, w, par, tab, neg, pend, rs, tf, ti, 0.0)


@jit
def on_first_aid(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """A1-A4: the decisive attempt of the first-aid run."""
    u = take(st, ct, tf, ti, FIRST_AID_CLOCK)
    now = st[S_NOW]
    if u == LOST:
        say(st, tf, ti, now, TR_AID_LOST, 0.0, 0.0, 0.0, 0, 0, 0)
        return
    st[S_FA_ATTEMPTS] += 1
    ct[I_FA_ATTEMPTS] += 1
    nw = int(st[S_NW])
    difficulty = wound_difficulty(w, nw, tab)
    total = first_aid_total(
        par[P_FA_LEVEL],
        difficulty,
        par[P_FA_MOD],
        par[P_FA_SELF] == 1,
        par[P_FA_FACTOR],
        st[S_PAIN],
    )
    low, high, tie = int(par[P_ROLL_LOW]), int(par[P_ROLL_HIGH]), par[P_TIE] == 1
    if u < chance(total, odds, low, high, tie):
        ct[I_FA_SUCCESSES] += 1
        say(st, tf, ti, now, TR_AID_SUCCEEDS, u, st[S_PAIN], difficulty, 0, 0, 0)
        stabilise(w, nw)
        st[S_RELAPSE] = NO_WOUND
        changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_A2, False)
        return
    say(st, tf, ti, now, TR_AID_FAILED, u, st[S_PAIN], difficulty, 0, 0, 0)
    if par[P_FA_MAX] >= 0 and st[S_FA_ATTEMPTS] >= par[P_FA_MAX]:
        say(st, tf, ti, now, TR_AID_EXHAUSTED, 0.0, 0.0, 0.0, 0, int(par[P_FA_MAX]), 0)
        stop(st, ct, tf, ti, FIRST_AID_CLOCK)


@jit
def on_watch(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """R2-R3: a neglected watch and its survival test."""
    index, rest, now = st[S_R_WINDEX], st[S_R_COUNT], st[S_NOW]
    st[S_R_WATCH] = math.inf
    if index == st[S_R_RANDOM]:
        st[S_R_RANDOM] = index + geometric(uniform(rs), par[P_NEGLECT_P])
    for j in range(neg.shape[0]):
        if pend[j] == 1 and neg[j] <= now:
            pend[j] = 0
    ct[I_NEGLECTED] += 1
    pain, missed = st[S_PAIN], st[S_MISSED]
    u, ok = _test(par, odds, rs, survival_total(par[P_CP_RS], pain, missed))
    ct[I_SURVIVAL_TESTS] += 1
    if not ok:
        ct[I_SURVIVAL_FAILURES] += 1
        destabilise_all(w, int(st[S_NW]))
    st[S_MISSED] = missed + 1
    say(st, tf, ti, now, TR_WATCH, u, pain, missed, 1 if ok else 0, int(index), 0)
    changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_R3, not ok)
    if rest == st[S_R_COUNT] and st[S_DONE] == 0:
        arm_watch(st, neg, pend, index)


@jit
def on_session(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """G1-G4: the healer tests each wound of the least grave level, oldest first."""
    now = st[S_NOW]
    st[S_R_SESSION] = math.inf
    rested = st[S_R_RESTED] + (now - st[S_R_START])
    st[S_R_ON] = 0.0
    least = least_grave(w, int(st[S_NW]))
    failed = False
    last_uid = NO_WOUND
    while True:  # the wounds of that level at the session's start, in order of receipt
        i = NO_WOUND
        for j in range(int(st[S_NW])):
            if w[W_UID, j] > last_uid and w[W_LEVEL, j] == least:
                i = j
                break
        if i == NO_WOUND:
            break
        last_uid = w[W_UID, i]
        missed = st[S_MISSED]
        total = healing_total(par[P_HEAL_LEVEL], tab[least, T_DIFFICULTY], missed, par[P_HEAL_MOD])
        u, ok = _test(par, odds, rs, total)
        ct[I_HEALING_TESTS] += 1
        if ok:
            say(st, tf, ti, now, TR_HEALED_ONE, u, 0.0, missed, least, 0, 0)
            st[S_NW] = heal_one(w, int(st[S_NW]), i)
            if st[S_NW] == 0:
                st[S_MISSED] = 0.0  # G5: no wound left, the missed-watch penalty resets
            continue
        ct[I_HEALING_FAILURES] += 1
        say(st, tf, ti, now, TR_RELAPSE, u, 0.0, missed, least, 0, 0)
        w[W_STABLE, i] = 0
        st[S_RELAPSE] = last_uid
        failed = True
        break
    changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_G4, failed)
    if failed or st[S_DONE] == 1:
        return
    if st[S_NW] > 0:
        say(st, tf, ti, now, TR_NEW_REST, 0.0, 0.0, 0.0, 0, 0, 0)
        rest_start(
            st, w, par, tab, neg, pend, rs, tf, ti, rested if par[P_CUMULATIVE] == 1 else 0.0
        )
    else:
        rest_cancel(st)


@jit
def on_survival(
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    neg: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """S1-S5: the decisive survival test of the run."""
    u = take(st, ct, tf, ti, SURVIVAL_CLOCK)
    now = st[S_NOW]
    nw = int(st[S_NW])
    pain, missed = st[S_PAIN], st[S_MISSED]
    total = survival_total(par[P_CP_RS], pain, missed)
    low, high, tie = int(par[P_ROLL_LOW]), int(par[P_ROLL_HIGH]), par[P_TIE] == 1
    ct[I_SURVIVAL_TESTS] += 1
    stable = all_stable(w, nw)
    state = 1 if stable else 0
    if u < chance(total, odds, low, high, tie):
        say(st, tf, ti, now, TR_SURVIVAL_PASSED, u, pain, missed, state, 0, 0)
    else:
        ct[I_SURVIVAL_FAILURES] += 1
        if stable:  # S4
            say(st, tf, ti, now, TR_SURVIVAL_UNSTABLE, u, pain, missed, state, 0, 0)
            w[W_STABLE, worst(w, nw)] = 0
        else:  # S3: the treated wound of a relapse (G4), else the worst
            target = NO_WOUND if st[S_RELAPSE] == NO_WOUND else find(w, nw, int(st[S_RELAPSE]))
            treated = 1 if target != NO_WOUND else 0
            if target == NO_WOUND:
                target = worst(w, nw)
            ct[I_AGGRAVATIONS] += 1
            say(st, tf, ti, now, TR_SURVIVAL_WORSENS, u, pain, missed, state, treated, 0)
            if not worsen(st, w, ct, par, tab, odds, rs, tf, ti, target, EV_S3):
                return
    changed(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti, EV_S4, False)


@jit
def _next(st: np.ndarray, par: np.ndarray, inj: np.ndarray, act: np.ndarray) -> tuple[float, int]:
    """O1: the next event's (time, priority); candidates in priority order, earliest wins."""
    best, prio = math.inf, NONE_DUE
    if st[S_INJ_NEXT] < inj.shape[0]:
        best, prio = inj[int(st[S_INJ_NEXT]), 0], PRIO_INJURY
    if st[S_ACT_NEXT] < act.shape[0] and act[int(st[S_ACT_NEXT]), 0] < best:
        best, prio = act[int(st[S_ACT_NEXT]), 0], PRIO_ACTIVITY
    t = due(st, FIRST_AID_CLOCK)
    if t < best:
        best, prio = t, PRIO_FIRST_AID
    if st[S_R_WATCH] < best:
        best, prio = st[S_R_WATCH], PRIO_WATCH
    if st[S_R_SESSION] < best:
        best, prio = st[S_R_SESSION], PRIO_HEALING
    t = due(st, SURVIVAL_CLOCK)
    if t < best:
        best, prio = t, PRIO_SURVIVAL
    if par[P_HORIZON] < best:
        best, prio = par[P_HORIZON], PRIO_HORIZON
    return best, prio


@jit
def run_one(
    key: np.uint64,
    trial: int,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    inj: np.ndarray,
    act: np.ndarray,
    neg: np.ndarray,
    st: np.ndarray,
    w: np.ndarray,
    ct: np.ndarray,
    pend: np.ndarray,
    rs: np.ndarray,
    tf: np.ndarray,
    ti: np.ndarray,
) -> None:
    """Run trial ``trial`` of a study keyed ``key``; its record is left in ``st`` and ``ct``.

    ``inj`` holds the injuries within the horizon (at, level, count), ``act`` the activities
    (at, modifier), ``neg`` the ``neglect_at`` times; ``st``, ``w``, ``ct``, ``pend`` and
    ``rs`` are work arrays (overwritten); ``tf``/``ti`` the trace buffer (no rows: no trace).
    """
    st[:] = 0.0
    w[:] = 0
    ct[:] = 0
    pend[:] = 1
    rs[0] = trial_state(key, trial)
    st[S_ALIVE], st[S_WAS_STABLE], st[S_SURV_KEY] = 1.0, 1.0, NO_KEY
    st[S_UNCONSCIOUS], st[S_RELAPSE] = -math.inf, NO_WOUND
    st[S_FIRST_STABLE], st[S_HEALED] = math.nan, math.nan
    st[S_R_SESSION], st[S_R_WATCH], st[S_R_RANDOM] = math.inf, math.inf, math.inf
    st[S_INJ_LEFT] = inj.shape[0]
    if inj.shape[0] == 0:
        st[S_HEALED] = 0.0
        finish(st, w, ct, tf, ti, OUT_HEALED)
        return
    while st[S_DONE] == 0:
        t, prio = _next(st, par, inj, act)
        st[S_NOW], st[S_PRIO] = t, prio
        recover(st, w, par, tab, tf, ti)
        settle(st, ct, tf, ti, SURVIVAL_CLOCK)  # skipped tests before this event told first
        settle(st, ct, tf, ti, FIRST_AID_CLOCK)
        if prio == PRIO_INJURY:
            on_injury(st, w, ct, par, tab, odds, inj, neg, pend, rs, tf, ti)
        elif prio == PRIO_ACTIVITY:
            on_activity(st, w, ct, par, tab, odds, act, neg, pend, rs, tf, ti)
        elif prio == PRIO_FIRST_AID:
            on_first_aid(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti)
        elif prio == PRIO_WATCH:
            on_watch(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti)
        elif prio == PRIO_HEALING:
            on_session(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti)
        elif prio == PRIO_SURVIVAL:
            on_survival(st, w, ct, par, tab, odds, neg, pend, rs, tf, ti)
        else:  # O2: the horizon, after everything else due then
            say(st, tf, ti, t, TR_HORIZON, 0.0, 0.0, 0.0, 0, 0, 0)
            finish(st, w, ct, tf, ti, OUT_HEALED if st[S_NW] == 0 else OUT_WOUNDED)
        if st[S_DONE] == 0:  # the runs drawn again from the new state (no memory lost)
            for c in (SURVIVAL_CLOCK, FIRST_AID_CLOCK):
                if st[c + CLOCK_ON] == 1:
                    settle(st, ct, tf, ti, c)
                    draw(st, w, ct, par, tab, odds, rs, tf, ti, c)


@jit
def record_floats(st: np.ndarray, ct: np.ndarray, out: np.ndarray) -> None:
    """Q1's times (hours) and highest pain of the trial just run, into ``out``."""
    end = st[S_NOW] / HOUR
    dead = st[S_ALIVE] == 0
    out[F_END] = end
    out[F_DEATH] = end if dead else math.nan
    out[F_INCOHERENT] = math.nan
    out[F_HEALED] = st[S_HEALED] if ct[I_OUTCOME] == OUT_HEALED else math.nan
    out[F_FIRST_STABLE] = st[S_FIRST_STABLE]
    out[F_MAX_PAIN] = st[S_MAX_PAIN]


@jit
def run_batch(
    key: np.uint64,
    first: int,
    par: np.ndarray,
    tab: np.ndarray,
    odds: np.ndarray,
    inj: np.ndarray,
    act: np.ndarray,
    neg: np.ndarray,
    work: tuple[np.ndarray, ...],
    out_f: np.ndarray,
    out_i: np.ndarray,
) -> None:
    """Trials ``first .. first + len(out_f) - 1``: one row of ``out_f``/``out_i`` each.

    ``work`` is :func:`work_arrays`' tuple (the kernel allocates nothing itself).
    """
    st, w, ct, pend, rs, tf, ti = work
    for j in range(out_f.shape[0]):
        run_one(key, first + j, par, tab, odds, inj, act, neg, st, w, ct, pend, rs, tf, ti)
        record_floats(st, ct, out_f[j])
        for i in range(ct.shape[0]):
            out_i[j, i] = ct[i]


def work_arrays(
    tab: np.ndarray, neg: np.ndarray, trace: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The work arrays of :func:`run_one` (``trace`` rows of trace buffer)."""
    return (
        np.zeros(S_SIZE, dtype=np.float64),
        np.zeros((3, max(1, int(tab[:, 0].sum()) + 1)), dtype=np.int64),
        np.zeros(len(INT_FIELDS), dtype=np.int64),
        np.ones(max(1, neg.shape[0]), dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        np.zeros((trace, TRACE_FLOATS), dtype=np.float64),
        np.zeros((trace, TRACE_INTS), dtype=np.int64),
    )
