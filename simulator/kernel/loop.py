"""The Monte Carlo kernel: one trial's event loop over the state as numbers, and batches.

:func:`run_batch` runs trials ``first .. first + n - 1`` of a study into two record
matrices (:mod:`simulator.kernel.layout`); :func:`run_one` runs one, optionally writing
trace records into a buffer. At each step the loop takes the next event in O1's order
(time, then priority: injuries, activities, first aid, watches, healing, survival tests, the
horizon last, O2), applies P1's recovery, handles the event, and draws the runs of the two
test clocks again from the new state. The skipped tests of a run are counted when it is
drawn again, taken, stopped or the trial ends (the same counts whenever they are made); a
trace tells them at each event, before it.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.clocks import (
    FIRST_AID_CLOCK,
    SURVIVAL_CLOCK,
    due,
    in_hours,
    redraw,
    say,
    settle,
)
from simulator.kernel.decisions import (
    NO_WOUND,
    hours_to_recover,
    recovered_pain,
)
from simulator.kernel.events import (
    HOUR,
    NO_KEY,
    changed,
    finish,
    gap_worked_out,
)
from simulator.kernel.handlers import (
    DRAWN,
    KIND_TRACK,
    NO_EVENT,
    follow_up,
    on_activity,
    on_first_aid,
    on_injury,
    on_session,
    on_survival,
    on_track,
    on_watch,
)
from simulator.kernel.jit import inlined, internal, jit
from simulator.kernel.layout import (
    ACT_WIDTH,
    C_BASE,
    CLOCK_DK,
    CLOCK_PERIOD,
    F_DEATH,
    F_END,
    F_FIRST_STABLE,
    F_HEALED,
    F_INCOHERENT,
    F_MAX_PAIN,
    I_OUTCOME,
    INJ_WIDTH,
    N_LEVELS,
    P_ACT0,
    P_HORIZON,
    P_INJ0,
    P_NACT,
    P_NEGLECT_P,
    P_NINJ,
    P_NNEG,
    P_PER_HOUR,
    P_RARE,
    PEND0,
    S_ACT_NEXT,
    S_ALIVE,
    S_DONE,
    S_FIRST_STABLE,
    S_FLOOR,
    S_HEALED,
    S_INJ_LEFT,
    S_INJ_NEXT,
    S_K_MENTAL,
    S_K_PHYSICAL,
    S_LEAST,
    S_LOG_Q,
    S_MAX_PAIN,
    S_NOW,
    S_NW,
    S_PAIN,
    S_PAIN_STEPS,
    S_PRIO,
    S_R_COUNT,
    S_R_GAP_U,
    S_R_RANDOM,
    S_R_SESSION,
    S_R_WATCH,
    S_R_WINDEX,
    S_RELAPSE,
    S_STABLE,
    S_STABLE_SINCE,
    S_SURV_KEY,
    S_UNCONSCIOUS,
    S_WAS_STABLE,
    S_WORST,
    S_WORST_LEVEL,
    T_MAX,
    T_SIZE,
    TAB0,
    TRACE_WIDTH,
)
from simulator.kernel.rng import STREAM_SIZE, trial_state
from simulator.rules.codes import (
    LIGHT,
    OUT_DEAD,
    OUT_HEALED,
    OUT_INCOHERENT,
    OUT_WOUNDED,
    PRIO_ACTIVITY,
    PRIO_FIRST_AID,
    PRIO_HEALING,
    PRIO_HORIZON,
    PRIO_INJURY,
    PRIO_MENTAL_HEALING,
    PRIO_SURVIVAL,
    PRIO_WATCH,
    SHOCK,
    Tr,
)

TR_HORIZON, TR_RECOVERY = int(Tr.HORIZON), int(Tr.RECOVERY)
KIND_TRACK_PHYSICAL, KIND_TRACK_MENTAL = KIND_TRACK + LIGHT, KIND_TRACK + SHOCK
"""The sessions of the tracks' rests (B4; B6, M3): O1's healing sessions, the physical
track's (priority ``HEALING``) before the mental track's (``MENTAL_HEALING``)."""


@inlined
def recover(st: np.ndarray, w: np.ndarray, sc: np.ndarray, tr: np.ndarray) -> None:
    """P1, lazily: the pain recovery of every full stable hour up to now.

    Nothing recovers while the pain is at its floor: those hours are left uncounted, and
    whoever raises the pain or lowers the floor counts them
    (:func:`~simulator.kernel.events.hours_counted`). One branch, mostly taken: the three
    tests are made with ``&``.
    """
    per_hour = sc[P_PER_HOUR]
    if not ((per_hour > 0) & (st[S_WAS_STABLE] == 1) & (st[S_PAIN] > st[S_FLOOR])):
        return
    steps = float(np.floor((st[S_NOW] - st[S_STABLE_SINCE]) / HOUR)) - st[S_PAIN_STEPS]
    if steps <= 0:
        return
    before = st[S_PAIN]
    floor = st[S_FLOOR]
    st[S_PAIN] = recovered_pain(before, floor, steps, per_hour)
    st[S_PAIN_STEPS] += steps
    if st[S_PAIN] != before and tr.shape[0] > 0:  # told at the hour it was complete
        needed = hours_to_recover(before, st[S_PAIN], floor, steps, per_hour)
        when = st[S_STABLE_SINCE] + (st[S_PAIN_STEPS] - steps + needed) * HOUR
        say(st, tr, when, TR_RECOVERY, st[S_STABLE_SINCE], before, st[S_PAIN], 0, 0, int(floor))


@inlined
def _next(st: np.ndarray, sc: np.ndarray) -> tuple[float, int]:
    """O1: the next event's (time, kind); the earliest wins, and at one time O1's priority.

    The candidates are looked at from the last in O1's order to the first, each taking the
    place of those before it at an equal time (``<=``), from the horizon's (O2: after
    everything due at its time). While the patient is stable (``S_WAS_STABLE``, as H4 left
    it) no first-aid spell runs, and while unstable no rest, so neither a watch nor a session
    (H4, R1, R4): only the kind that can fall due is looked at. A watch whose gap R2 put off
    (:func:`~simulator.kernel.events.defer_gap`) is armed at a lower bound of its time: where
    that bound could come first, the gap is worked out here (the state written) and the
    watch's own time compared.

    Activities and the sessions of the tracks' rests are looked at last, and only where the
    scenario may have them (``P_RARE``): each wins a tie against the kinds after it in O1's
    order only, so the choice is the same as looking at every candidate in priority order.

    The kind is the event's priority, or :data:`KIND_TRACK_PHYSICAL`/:data:`KIND_TRACK_MENTAL`
    for the session of a track's rest (a healing session's priority: physical first, O1).
    """
    best, prio = sc[P_HORIZON], PRIO_HORIZON
    t = due(st, SURVIVAL_CLOCK)
    if t <= best:
        best, prio = t, PRIO_SURVIVAL
    if st[S_WAS_STABLE] == 1:  # no first-aid spell; a rest may run
        if st[S_R_SESSION] <= best:
            best, prio = st[S_R_SESSION], PRIO_HEALING
        if st[S_R_WATCH] <= best:
            if st[S_R_GAP_U] >= 0.0:  # R2: a gap put off, whose watch could come first
                gap_worked_out(st, sc)
            if st[S_R_WATCH] <= best:
                best, prio = st[S_R_WATCH], PRIO_WATCH
    else:  # no rest; a first-aid spell may run
        t = due(st, FIRST_AID_CLOCK)
        if t <= best:
            best, prio = t, PRIO_FIRST_AID
    if st[S_INJ_NEXT] < sc[P_NINJ]:
        t = sc[int(sc[P_INJ0] + st[S_INJ_NEXT] * INJ_WIDTH)]
        if t <= best:
            best, prio = t, PRIO_INJURY
    if sc[P_RARE] == 0:  # no activity nor track's session can fall due
        return best, prio
    # looked at last, each wins a tie against the candidates after it in O1's order
    if st[S_ACT_NEXT] < sc[P_NACT]:
        t = sc[int(sc[P_ACT0] + st[S_ACT_NEXT] * ACT_WIDTH)]
        if t < best or (t == best and prio > PRIO_ACTIVITY):
            best, prio = t, PRIO_ACTIVITY
    t = st[S_K_PHYSICAL]
    if t < best or (t == best and PRIO_SURVIVAL <= prio <= PRIO_HORIZON):
        best, prio = t, KIND_TRACK_PHYSICAL
    t = st[S_K_MENTAL]
    if t < best or (t == best and PRIO_SURVIVAL <= prio <= PRIO_HORIZON):
        best, prio = t, KIND_TRACK_MENTAL
    return best, prio


@inlined  # into run_batch, its one caller (stop 66: fewer instructions, no code of its own)
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
    st[S_ALIVE], st[S_WAS_STABLE], st[S_SURV_KEY], st[S_STABLE] = 1.0, 1.0, NO_KEY, 1.0
    st[S_UNCONSCIOUS], st[S_RELAPSE], st[S_WORST] = -math.inf, NO_WOUND, NO_WOUND
    st[S_LEAST], st[S_WORST_LEVEL] = NO_WOUND, NO_WOUND
    st[S_FIRST_STABLE], st[S_HEALED] = math.nan, math.nan
    st[S_R_SESSION], st[S_R_WATCH], st[S_R_RANDOM] = math.inf, math.inf, math.inf
    st[S_R_GAP_U] = -1.0
    st[S_K_PHYSICAL], st[S_K_MENTAL] = math.inf, math.inf
    for c in (SURVIVAL_CLOCK, FIRST_AID_CLOCK):  # off: due at inf (clocks.due), never NaN
        st[c + CLOCK_DK], st[c + CLOCK_PERIOD] = math.inf, 1.0
    st[S_INJ_LEFT] = sc[P_NINJ]
    if 0.0 < sc[P_NEGLECT_P] < 1.0:
        st[S_LOG_Q] = math.log1p(-sc[P_NEGLECT_P])
    if sc[P_NINJ] == 0:
        st[S_HEALED] = 0.0
        finish(st, w, sc, tr, OUT_HEALED)
        return
    while st[S_DONE] == 0:
        t, prio = _next(st, sc)
        st[S_NOW], st[S_PRIO] = t, prio
        if prio == KIND_TRACK_PHYSICAL:
            st[S_PRIO] = PRIO_HEALING
        elif prio == KIND_TRACK_MENTAL:
            st[S_PRIO] = PRIO_MENTAL_HEALING
        recover(st, w, sc, tr)
        if tr.shape[0] > 0:  # a trace tells the skipped tests before this event first
            settle(st, w, sc, tr, SURVIVAL_CLOCK)
            settle(st, w, sc, tr, FIRST_AID_CLOCK)
        event, from_start = NO_EVENT, False
        if prio >= PRIO_HEALING:  # a tree of tests, not one jump table (a branch per level)
            if prio == PRIO_SURVIVAL:
                event, from_start = on_survival(st, w, sc, rs, tr)
            elif prio == PRIO_HEALING:
                event, from_start = on_session(st, w, sc, rs, tr)
            elif prio == PRIO_HORIZON:  # O2: the horizon, after everything else due then
                say(st, tr, t, TR_HORIZON, 0.0, 0.0, 0.0, 0, 0, 0)
                finish(st, w, sc, tr, OUT_HEALED if st[S_NW] == 0 else OUT_WOUNDED)
            elif prio == KIND_TRACK_PHYSICAL:
                event, from_start = on_track(st, w, sc, rs, tr, LIGHT)
            else:
                event, from_start = on_track(st, w, sc, rs, tr, SHOCK)
        elif prio == PRIO_WATCH:
            event, from_start = on_watch(st, w, sc, rs, tr)
        elif prio == PRIO_FIRST_AID:
            event, from_start = on_first_aid(st, w, sc, rs, tr)
        elif prio == PRIO_INJURY:
            event, from_start = on_injury(st, w, sc, rs, tr)
        else:
            event, from_start = on_activity(st, w, sc, rs, tr)
        if event == DRAWN:  # each clock off or drawn afresh: the next event
            continue
        if event != NO_EVENT:  # H4 (A2, S4, G4, R3, W2 turning unstable: in handlers)
            index, rests = st[S_R_WINDEX], st[S_R_COUNT]
            changed(st, w, sc, rs, tr, event, from_start)
            follow_up(st, w, sc, rs, tr, prio, from_start, index, rests)
        if st[S_DONE] == 0:  # runs whose law moved drawn again (the law has no memory)
            # a run drawn afresh during this event stands (clocks.redraw: CLOCK_FRESH)
            redraw(st, w, sc, rs, tr, SURVIVAL_CLOCK)
            redraw(st, w, sc, rs, tr, FIRST_AID_CLOCK)


@internal
def record_floats(st: np.ndarray, out: np.ndarray) -> None:
    """Q1's times (hours) and highest pain of the trial just run, into ``out``."""
    end = in_hours(st[S_NOW])
    outcome = st[C_BASE + I_OUTCOME]
    out[F_END] = end
    out[F_DEATH] = end if outcome == OUT_DEAD else math.nan
    out[F_INCOHERENT] = end if outcome == OUT_INCOHERENT else math.nan
    out[F_HEALED] = st[S_HEALED] if outcome == OUT_HEALED else math.nan
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
    most = sum(int(sc[TAB0 + level * T_SIZE + T_MAX]) for level in range(N_LEVELS))
    return (
        np.zeros(PEND0 + int(sc[P_NNEG]), dtype=np.float64),
        np.zeros((3, most + 1), dtype=np.int64),
        np.zeros(STREAM_SIZE, dtype=np.uint64),
        np.zeros((trace, TRACE_WIDTH), dtype=np.float64),
    )
