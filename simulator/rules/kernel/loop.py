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
    due,
    redraw,
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
    cell,
    chance,
    destabilise_all,
    find,
    first_aid_total,
    geometric,
    heal_one,
    healing_total,
    least_grave,
    packed_counts,
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
    ACT_WIDTH,
    C_BASE,
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
    INJ_WIDTH,
    P_ACT0,
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
    P_INJ0,
    P_NACT,
    P_NEG0,
    P_NEGLECT_P,
    P_NINJ,
    P_NNEG,
    P_PER_HOUR,
    PEND0,
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
    S_STABLE_SINCE,
    S_SURV_KEY,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    T_DIFFICULTY,
    T_MAX,
    T_SIZE,
    TAB0,
    TRACE_WIDTH,
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
def _test(sc: np.ndarray, rs: np.ndarray, total: float) -> tuple[float, bool]:
    """D1-D3: one test as one uniform draw against its exact chance; (draw, success)."""
    u = uniform(rs)
    return u, u < chance(total, sc)


@jit
def recover(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray) -> None:
    """P1, lazily: the pain recovery of every full stable hour up to now."""
    per_hour = sc[P_PER_HOUR]
    if not (per_hour > 0 and st[S_WAS_STABLE] == 1):
        return
    steps = math.floor((st[S_NOW] - st[S_STABLE_SINCE]) / HOUR) - int(st[S_PAIN_STEPS])
    if steps <= 0:
        return
    before = st[S_PAIN]
    floor = pain_floor(w, int(st[S_NW]), sc)
    st[S_PAIN] = recovered_pain(before, floor, steps, per_hour)
    st[S_PAIN_STEPS] += steps
    if st[S_PAIN] != before:
        needed = math.ceil(np.rint((before - st[S_PAIN]) / per_hour * 1e9) / 1e9)
        when = st[S_STABLE_SINCE] + (st[S_PAIN_STEPS] - steps + needed) * HOUR
        say(st, tr, when, TR_RECOVERY, st[S_STABLE_SINCE], before, st[S_PAIN], 0, 0, int(floor))


@jit
def on_injury(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """W1-W3: the next scheduled injury (file order)."""
    index = int(st[S_INJ_NEXT])
    st[S_INJ_LEFT] -= 1
    row = int(sc[P_INJ0]) + index * INJ_WIDTH  # at, level, count
    for _ in range(int(sc[row + 2])):
        if not receive(st, w, sc, rs, tr, int(sc[row + 1])):
            return
    changed(st, w, sc, rs, tr, EV_W2, False)
    st[S_INJ_NEXT] = index + 1


@jit
def on_activity(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """X1: each grave or critical wound tests; the activity breaks the rest."""
    index = int(st[S_ACT_NEXT])
    st[S_ACT_NEXT] = index + 1
    now = st[S_NOW]
    say(st, tr, now, TR_ACTIVITY, 0.0, 0.0, 0.0, 0, 0, 0)
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
        u, ok = _test(
            sc,
            rs,
            activity_total(sc[P_CP_RS], pain, missed, sc[int(sc[P_ACT0]) + index * ACT_WIDTH + 1]),
        )
        st[C_BASE + I_ACTIVITY_TESTS] += 1
        level = w[W_LEVEL, i]
        if ok:
            say(st, tr, now, TR_ACTIVITY_HOLDS, u, pain, missed, level, 0, index)
            continue
        st[C_BASE + I_ACTIVITY_FAILURES] += 1
        st[C_BASE + I_AGGRAVATIONS] += 1
        say(st, tr, now, TR_ACTIVITY_WORSENS, u, pain, missed, level, 0, index)
        if not worsen(st, w, sc, rs, tr, i, EV_X1):
            return
    breaks = sc[P_BREAKS] == 1
    changed(st, w, sc, rs, tr, EV_X1, breaks)
    if st[S_DONE] == 0 and breaks and st[S_NW] > 0 and all_stable(w, int(st[S_NW])):
        say(st, tr, now, TR_ACTIVITY_REST, 0.0, 0.0, 0.0, 0, 0, 0)
        rest_start(st, w, sc, rs, tr, 0.0)


@jit
def on_first_aid(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """A1-A4: the decisive attempt of the first-aid run."""
    u = take(st, w, sc, tr, FIRST_AID_CLOCK)
    now = st[S_NOW]
    if u == LOST:
        say(st, tr, now, TR_AID_LOST, 0.0, 0.0, 0.0, 0, 0, 0)
        return
    st[S_FA_ATTEMPTS] += 1
    st[C_BASE + I_FA_ATTEMPTS] += 1
    nw = int(st[S_NW])
    difficulty = wound_difficulty(w, nw, sc)
    total = first_aid_total(
        sc[P_FA_LEVEL],
        difficulty,
        sc[P_FA_MOD],
        sc[P_FA_SELF] == 1,
        sc[P_FA_FACTOR],
        st[S_PAIN],
    )
    if u < chance(total, sc):
        st[C_BASE + I_FA_SUCCESSES] += 1
        say(st, tr, now, TR_AID_SUCCEEDS, u, st[S_PAIN], difficulty, packed_counts(w, nw), 0, 0)
        stabilise(w, nw)
        st[S_RELAPSE] = NO_WOUND
        changed(st, w, sc, rs, tr, EV_A2, False)
        return
    say(st, tr, now, TR_AID_FAILED, u, st[S_PAIN], difficulty, packed_counts(w, nw), 0, 0)
    if sc[P_FA_MAX] >= 0 and st[S_FA_ATTEMPTS] >= sc[P_FA_MAX]:
        say(st, tr, now, TR_AID_EXHAUSTED, 0.0, 0.0, 0.0, 0, int(sc[P_FA_MAX]), 0)
        stop(st, w, sc, tr, FIRST_AID_CLOCK)


@jit
def on_watch(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """R2-R3: a neglected watch and its survival test."""
    index, rest, now = st[S_R_WINDEX], st[S_R_COUNT], st[S_NOW]
    st[S_R_WATCH] = math.inf
    if index == st[S_R_RANDOM]:
        st[S_R_RANDOM] = index + geometric(uniform(rs), sc[P_NEGLECT_P])
    neg0 = int(sc[P_NEG0])
    for j in range(int(sc[P_NNEG])):
        if st[PEND0 + j] == 1 and sc[neg0 + j] <= now:
            st[PEND0 + j] = 0
    st[C_BASE + I_NEGLECTED] += 1
    pain, missed = st[S_PAIN], st[S_MISSED]
    u, ok = _test(sc, rs, survival_total(sc[P_CP_RS], pain, missed))
    st[C_BASE + I_SURVIVAL_TESTS] += 1
    if not ok:
        st[C_BASE + I_SURVIVAL_FAILURES] += 1
        destabilise_all(w, int(st[S_NW]))
    st[S_MISSED] = missed + 1
    say(st, tr, now, TR_WATCH, u, pain, missed, 1 if ok else 0, int(index), 0)
    changed(st, w, sc, rs, tr, EV_R3, not ok)
    if rest == st[S_R_COUNT] and st[S_DONE] == 0:
        arm_watch(st, sc, index)


@jit
def on_session(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
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
        total = healing_total(
            sc[P_HEAL_LEVEL], cell(sc, least, T_DIFFICULTY), missed, sc[P_HEAL_MOD]
        )
        u, ok = _test(sc, rs, total)
        st[C_BASE + I_HEALING_TESTS] += 1
        if ok:
            say(st, tr, now, TR_HEALED_ONE, u, 0.0, missed, least, 0, 0)
            st[S_NW] = heal_one(w, int(st[S_NW]), i)
            if st[S_NW] == 0:
                st[S_MISSED] = 0.0  # G5: no wound left, the missed-watch penalty resets
            continue
        st[C_BASE + I_HEALING_FAILURES] += 1
        say(st, tr, now, TR_RELAPSE, u, 0.0, missed, least, 0, 0)
        w[W_STABLE, i] = 0
        st[S_RELAPSE] = last_uid
        failed = True
        break
    changed(st, w, sc, rs, tr, EV_G4, failed)
    if failed or st[S_DONE] == 1:
        return
    if st[S_NW] > 0:
        say(st, tr, now, TR_NEW_REST, 0.0, 0.0, 0.0, 0, 0, 0)
        rest_start(st, w, sc, rs, tr, rested if sc[P_CUMULATIVE] == 1 else 0.0)
    else:
        rest_cancel(st)


@jit
def on_survival(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """S1-S5: the decisive survival test of the run."""
    u = take(st, w, sc, tr, SURVIVAL_CLOCK)
    now = st[S_NOW]
    nw = int(st[S_NW])
    pain, missed = st[S_PAIN], st[S_MISSED]
    total = survival_total(sc[P_CP_RS], pain, missed)
    st[C_BASE + I_SURVIVAL_TESTS] += 1
    stable = all_stable(w, nw)
    state = 1 if stable else 0
    if u < chance(total, sc):
        say(st, tr, now, TR_SURVIVAL_PASSED, u, pain, missed, state, 0, 0)
    else:
        st[C_BASE + I_SURVIVAL_FAILURES] += 1
        if stable:  # S4
            say(st, tr, now, TR_SURVIVAL_UNSTABLE, u, pain, missed, state, 0, 0)
            w[W_STABLE, worst(w, nw)] = 0
        else:  # S3: the treated wound of a relapse (G4), else the worst
            target = NO_WOUND if st[S_RELAPSE] == NO_WOUND else find(w, nw, int(st[S_RELAPSE]))
            treated = 1 if target != NO_WOUND else 0
            if target == NO_WOUND:
                target = worst(w, nw)
            st[C_BASE + I_AGGRAVATIONS] += 1
            say(st, tr, now, TR_SURVIVAL_WORSENS, u, pain, missed, state, treated, 0)
            if not worsen(st, w, sc, rs, tr, target, EV_S3):
                return
    changed(st, w, sc, rs, tr, EV_S4, False)


@jit
def _next(st: np.ndarray, sc: np.ndarray) -> tuple[float, int]:
    """O1: the next event's (time, priority); candidates in priority order, earliest wins."""
    best, prio = math.inf, NONE_DUE
    if st[S_INJ_NEXT] < sc[P_NINJ]:
        best, prio = sc[int(sc[P_INJ0] + st[S_INJ_NEXT] * INJ_WIDTH)], PRIO_INJURY
    if st[S_ACT_NEXT] < sc[P_NACT]:
        t = sc[int(sc[P_ACT0] + st[S_ACT_NEXT] * ACT_WIDTH)]
        if t < best:
            best, prio = t, PRIO_ACTIVITY
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
    if sc[P_HORIZON] < best:
        best, prio = sc[P_HORIZON], PRIO_HORIZON
    return best, prio


@jit
def run_one(
    key: np.uint64,
    trial: int,
    sc: np.ndarray,
    st: np.ndarray,
    w: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> None:
    """Run trial ``trial`` of a study keyed ``key``; its record is left in ``st``.

    ``sc`` is the scenario vector; ``st``, ``w`` and ``rs`` are work arrays (overwritten),
    ``tr`` the trace buffer (no rows: no trace).
    """
    st[:] = 0.0
    w[:] = 0
    st[PEND0 : PEND0 + int(sc[P_NNEG])] = 1.0
    rs[0] = trial_state(key, trial)
    st[S_ALIVE], st[S_WAS_STABLE], st[S_SURV_KEY] = 1.0, 1.0, NO_KEY
    st[S_UNCONSCIOUS], st[S_RELAPSE] = -math.inf, NO_WOUND
    st[S_FIRST_STABLE], st[S_HEALED] = math.nan, math.nan
    st[S_R_SESSION], st[S_R_WATCH], st[S_R_RANDOM] = math.inf, math.inf, math.inf
    st[S_INJ_LEFT] = sc[P_NINJ]
    if sc[P_NINJ] == 0:
        st[S_HEALED] = 0.0
        finish(st, w, sc, tr, OUT_HEALED)
        return
    while st[S_DONE] == 0:
        t, prio = _next(st, sc)
        st[S_NOW], st[S_PRIO] = t, prio
        recover(st, w, sc, tr)
        settle(st, w, sc, tr, SURVIVAL_CLOCK)  # skipped tests before this event told first
        settle(st, w, sc, tr, FIRST_AID_CLOCK)
        if prio == PRIO_INJURY:
            on_injury(st, w, sc, rs, tr)
        elif prio == PRIO_ACTIVITY:
            on_activity(st, w, sc, rs, tr)
        elif prio == PRIO_FIRST_AID:
            on_first_aid(st, w, sc, rs, tr)
        elif prio == PRIO_WATCH:
            on_watch(st, w, sc, rs, tr)
        elif prio == PRIO_HEALING:
            on_session(st, w, sc, rs, tr)
        elif prio == PRIO_SURVIVAL:
            on_survival(st, w, sc, rs, tr)
        else:  # O2: the horizon, after everything else due then
            say(st, tr, t, TR_HORIZON, 0.0, 0.0, 0.0, 0, 0, 0)
            finish(st, w, sc, tr, OUT_HEALED if st[S_NW] == 0 else OUT_WOUNDED)
        if st[S_DONE] == 0:  # runs whose law moved drawn again (the law has no memory)
            redraw(st, w, sc, rs, tr, SURVIVAL_CLOCK)
            redraw(st, w, sc, rs, tr, FIRST_AID_CLOCK)


@jit
def record_floats(st: np.ndarray, out: np.ndarray) -> None:
    """Q1's times (hours) and highest pain of the trial just run, into ``out``."""
    end = st[S_NOW] / HOUR
    dead = st[S_ALIVE] == 0
    out[F_END] = end
    out[F_DEATH] = end if dead else math.nan
    out[F_INCOHERENT] = math.nan
    out[F_HEALED] = st[S_HEALED] if st[C_BASE + I_OUTCOME] == OUT_HEALED else math.nan
    out[F_FIRST_STABLE] = st[S_FIRST_STABLE]
    out[F_MAX_PAIN] = st[S_MAX_PAIN]


@jit
def run_batch(
    key: np.uint64,
    first: int,
    sc: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    out_f: np.ndarray,
    out_i: np.ndarray,
) -> None:
    """Trials ``first .. first + len(out_f) - 1``: one row of ``out_f``/``out_i`` each.

    ``work`` is :func:`work_arrays`' tuple (the kernel allocates nothing itself).
    """
    st, w, rs, tr = work
    for j in range(out_f.shape[0]):
        run_one(key, first + j, sc, st, w, rs, tr)
        record_floats(st, out_f[j])
        for i in range(out_i.shape[1]):
            out_i[j, i] = int(st[C_BASE + i])


def work_arrays(
    sc: np.ndarray, trace: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The work arrays of :func:`run_one`: state, wounds, stream, ``trace`` rows of trace."""
    most = sum(int(sc[TAB0 + level * T_SIZE + T_MAX]) for level in range(3))
    return (
        np.zeros(PEND0 + int(sc[P_NNEG]), dtype=np.float64),
        np.zeros((3, most + 1), dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        np.zeros((trace, TRACE_WIDTH), dtype=np.float64),
    )
