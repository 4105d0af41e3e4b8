"""What each scheduled or decisive event does (W1-W3, X1, A1-A4, R2-R3, G1-G4, S1-S5).

Injuries, activities, first aid, watches, healing sessions and survival tests: the handlers
of :func:`simulator.kernel.loop.run_one`, over the state vector ``st``, the wound rows
``w``, the scenario vector ``sc``, the stream ``rs`` and the trace ``tr``.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.kernel.clocks import (
    FIRST_AID_CLOCK,
    LOST,
    SURVIVAL_CLOCK,
    mental_draw,
    say,
    stop,
    take,
)
from simulator.kernel.decisions import (
    NO_WOUND,
    activity_tested,
    activity_total,
    basic_healing_total,
    cell,
    chance,
    destabilise,
    destabilise_all,
    first_aid_total,
    healing_total,
    least_of_track,
    missed_after_neglect,
    more_attempts,
    next_of_level,
    packed_counts,
    rested_after_session,
    rested_so_far,
    stabilise,
    survival_target,
    survival_total,
    worsens_by_margin,
)
from simulator.kernel.events import (
    arm_watch,
    defer_gap,
    destabilised,
    heal,
    receive,
    rest_cancel,
    rest_start,
    stabilised,
    stability_moved,
    track_start,
    worsen,
)
from simulator.kernel.jit import inlined
from simulator.kernel.layout import (
    ACT_WIDTH,
    C_BASE,
    CLOCK_FRESH,
    I_ACTIVITY_FAILURES,
    I_ACTIVITY_TESTS,
    I_AGGRAVATIONS,
    I_FA_ATTEMPTS,
    I_FA_SUCCESSES,
    I_HEALING_FAILURES,
    I_HEALING_TESTS,
    I_NEGLECTED,
    I_SURVIVAL_FAILURES,
    I_SURVIVAL_TESTS,
    INJ_WIDTH,
    P_ACT0,
    P_BASIC,
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
    P_INJ0,
    P_NEG0,
    P_NNEG,
    P_RS_IT,
    PEND0,
    S_ACT_NEXT,
    S_DIFFICULTY,
    S_DONE,
    S_FA_ATTEMPTS,
    S_FA_MENTAL,
    S_FA_PRESENT,
    S_HOLD,
    S_INJ_LEFT,
    S_INJ_NEXT,
    S_K_MENTAL,
    S_K_PHYSICAL,
    S_LEAST,
    S_MISSED,
    S_NOW,
    S_NW,
    S_PAIN,
    S_R_COUNT,
    S_R_ON,
    S_R_RANDOM,
    S_R_RESTED,
    S_R_SESSION,
    S_R_START,
    S_R_WATCH,
    S_R_WINDEX,
    S_RELAPSE,
    S_STABLE,
    S_SV_MENTAL,
    S_SV_PRESENT,
    S_WAS_STABLE,
    S_WORST,
    S_WOUNDED,
    T_DIFFICULTY,
    W_LEVEL,
    W_UID,
)
from simulator.kernel.rng import uniform
from simulator.rules.codes import (
    EV_B4,
    EV_G4,
    EV_OTHER,
    EV_R3,
    EV_S3,
    EV_S4,
    EV_W2,
    EV_X1,
    LIGHT,
    PRIO_ACTIVITY,
    PRIO_HEALING,
    PRIO_WATCH,
    Tr,
)

TR_SURVIVAL_PASSED, TR_SURVIVAL_UNSTABLE = int(Tr.SURVIVAL_PASSED), int(Tr.SURVIVAL_UNSTABLE)
TR_SURVIVAL_WORSENS, TR_AID_FAILED = int(Tr.SURVIVAL_WORSENS), int(Tr.AID_FAILED)
TR_AID_SUCCEEDS, TR_AID_EXHAUSTED = int(Tr.AID_SUCCEEDS), int(Tr.AID_EXHAUSTED)
TR_AID_LOST, TR_WATCH, TR_HEALED_ONE = int(Tr.AID_LOST), int(Tr.WATCH), int(Tr.HEALED_ONE)
TR_RELAPSE, TR_NEW_REST, TR_ACTIVITY = int(Tr.RELAPSE), int(Tr.NEW_REST), int(Tr.ACTIVITY)
TR_ACTIVITY_HOLDS, TR_ACTIVITY_WORSENS = int(Tr.ACTIVITY_HOLDS), int(Tr.ACTIVITY_WORSENS)
TR_ACTIVITY_REST = int(Tr.ACTIVITY_REST)
TR_TRACK_HEALED, TR_TRACK_STOPS = int(Tr.TRACK_HEALED), int(Tr.TRACK_STOPS)
TR_TRACK_WORSENS = int(Tr.TRACK_WORSENS)

KIND_TRACK = 100
"""What :func:`simulator.kernel.loop.run_one` dispatches a track's session on (O1's
priority is a healing session's): ``KIND_TRACK + first level of the track``."""

NO_EVENT = -1
"""What a handler returns when the loop has nothing left to do for its event but redraw the
clocks: it changed nothing that H4 looks at, or was fatal, or the handler answered H4 and the
follow-up itself (a watch that held, a survival test but a stable patient's failure)."""
DRAWN = -2
"""What a handler returns when it answered H4 itself and its event left each test clock off
or drawn afresh (:func:`~simulator.kernel.clocks.start`): the loop's redraws would only clear
the fresh marks, which the handler clears itself (:func:`drawn`), so the loop goes on to the
next event (A2; a stable patient made unstable by S4, G4, R3 or W2)."""


@inlined
def drawn(st: np.ndarray) -> int:
    """What the loop's redraws do after an event that left each clock off or fresh.

    A clock that is off is not redrawn, and its fresh mark is read only once
    :func:`~simulator.kernel.clocks.start` has set it again; a fresh one has its mark cleared
    (:func:`~simulator.kernel.clocks.redraw`). Returns :data:`DRAWN`.
    """
    st[SURVIVAL_CLOCK + CLOCK_FRESH] = 0.0
    st[FIRST_AID_CLOCK + CLOCK_FRESH] = 0.0
    return DRAWN


@inlined
def _test(sc: np.ndarray, rs: np.ndarray, total: float) -> tuple[float, bool]:
    """D1-D3: one test as one uniform draw against its exact chance; (draw, success)."""
    u = uniform(rs)
    return u, u < chance(total, sc)


@inlined
def on_injury(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
    """W1-W3: the next scheduled injury (file order).

    An injury that made a stable patient unstable answers H4 here (:func:`destabilised`, H4's
    case for :data:`~simulator.rules.codes.EV_W2` written out; an injury has no follow-up)
    and returns :data:`DRAWN`: the patient was stable as H4 last saw it, so no first-aid
    spell ran, and H4 started the first-aid clock (or left it off) and started or stopped the
    survival clock: both are off or fresh. The others (the patient stable still, or unstable
    already, or the basic ruleset's) leave H4 to the loop.
    """
    index = int(st[S_INJ_NEXT])
    st[S_INJ_LEFT] -= 1
    row = int(sc[P_INJ0]) + index * INJ_WIDTH  # at, level, count
    for _ in range(int(sc[row + 2])):
        if not receive(st, w, sc, rs, tr, int(sc[row + 1])):
            return NO_EVENT, False
    st[S_INJ_NEXT] = index + 1
    if (st[S_STABLE] == 0) & (st[S_WAS_STABLE] == 1) & (sc[P_BASIC] == 0):
        st[S_WOUNDED] = 1.0  # (read by H4 only: set first, as H4 sets it last)
        destabilised(st, w, sc, rs, tr, EV_W2, False)  # H4, its case here
        return drawn(st), False  # both clocks off or fresh
    return EV_W2, False


@inlined
def on_activity(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
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
        mental, present = mental_draw(w, int(st[S_NW]), sc, rs)  # M1
        total = activity_total(
            sc[P_CP_RS], pain, missed, sc[int(sc[P_ACT0]) + index * ACT_WIDTH + 1]
        )
        u, ok = _test(sc, rs, total + mental)
        st[C_BASE + I_ACTIVITY_TESTS] += 1
        level = w[W_LEVEL, i]
        if ok:
            say(st, tr, now, TR_ACTIVITY_HOLDS, u, pain, missed, level, int(present), index)
            continue
        st[C_BASE + I_ACTIVITY_FAILURES] += 1
        st[C_BASE + I_AGGRAVATIONS] += 1
        say(st, tr, now, TR_ACTIVITY_WORSENS, u, pain, missed, level, int(present), index)
        if not worsen(st, w, sc, rs, tr, i, EV_X1):
            return NO_EVENT, False
    return EV_X1, sc[P_BREAKS] == 1


@inlined
def on_first_aid(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
    """A1-A4: the decisive attempt of the first-aid run.

    A success (A2) answers H4 here, as the loop would with
    :data:`~simulator.rules.codes.EV_A2`, and returns :data:`DRAWN`: :func:`stabilised` is
    H4's A2 case written out (stable now, the survival clock restarted, no death nor
    wound-free), and the loop's :func:`follow_up`, which has nothing to do after first aid,
    is not asked. H4 has stopped the first-aid clock (the patient is stable) and started or
    stopped the survival clock (its key's state moved from unstable to stable): both are off
    or fresh.
    """
    u, succeeds = take(st, w, sc, rs, tr, FIRST_AID_CLOCK)  # succeeds: known by the draw
    now = st[S_NOW]
    if u == LOST:
        say(st, tr, now, TR_AID_LOST, 0.0, 0.0, 0.0, 0, 0, 0)
        return NO_EVENT, False
    st[S_FA_ATTEMPTS] += 1
    st[C_BASE + I_FA_ATTEMPTS] += 1
    nw = int(st[S_NW])
    difficulty = st[S_DIFFICULTY]
    told = int(st[S_FA_PRESENT])
    counts = packed_counts(w, nw) if tr.shape[0] > 0 else 0  # the wounds, told with the test
    if not succeeds:  # the draw as drawn, against the chance
        total = first_aid_total(
            sc[P_FA_LEVEL],
            difficulty,
            sc[P_FA_MOD],
            sc[P_FA_SELF] == 1,
            sc[P_FA_FACTOR],
            st[S_PAIN],
        )
        mental = st[S_FA_MENTAL]  # M1, self-treatment: drawn with the run
        succeeds = u < chance(total + mental, sc)
    if succeeds:
        st[C_BASE + I_FA_SUCCESSES] += 1
        say(st, tr, now, TR_AID_SUCCEEDS, u, st[S_PAIN], difficulty, counts, 0, told)
        stabilise(w, nw)
        st[S_STABLE] = 1.0
        st[S_RELAPSE] = NO_WOUND
        stabilised(st, w, sc, rs, tr)  # H4, its A2 case
        return drawn(st), False
    say(st, tr, now, TR_AID_FAILED, u, st[S_PAIN], difficulty, counts, 0, told)
    if not more_attempts(st[S_FA_ATTEMPTS], sc[P_FA_MAX]):  # A3: the spell's attempts spent
        say(st, tr, now, TR_AID_EXHAUSTED, 0.0, 0.0, 0.0, 0, int(sc[P_FA_MAX]), 0)
        stop(st, w, sc, tr, FIRST_AID_CLOCK)
    return NO_EVENT, False


@inlined
def on_watch(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
    """R2-R3: a neglected watch and its survival test.

    A watch that held (its test passed) changed no wound: H4 would find the state it left,
    and its follow-up, R2's next neglected watch of the same rest, is armed here (the rest
    count cannot have moved without H4); it returns :data:`NO_EVENT`. A failed watch (but
    B3's) made the patient unstable (a rest runs only while H4 saw the patient stable, with a
    physical wound): it answers H4 here (:func:`destabilised`, H4's case for
    :data:`~simulator.rules.codes.EV_R3` written out) and returns :data:`DRAWN`, as a relapse
    does; H4 ended the rest, so R2's follow-up has no watch to arm.
    """
    index, now = st[S_R_WINDEX], st[S_NOW]
    st[S_R_WATCH] = math.inf
    if index == st[S_R_RANDOM]:  # (worked out by O1 before this watch could be chosen)
        defer_gap(st, sc, index, uniform(rs))
    neg0 = int(sc[P_NEG0])
    for j in range(int(sc[P_NNEG])):
        if st[PEND0 + j] == 1 and sc[neg0 + j] <= now:
            st[PEND0 + j] = 0
    st[C_BASE + I_NEGLECTED] += 1
    pain, missed = st[S_PAIN], st[S_MISSED]
    mental, present = mental_draw(w, int(st[S_NW]), sc, rs)  # M1
    u, ok = _test(sc, rs, survival_total(sc[P_CP_RS], pain, missed) + mental)
    st[C_BASE + I_SURVIVAL_TESTS] += 1
    if not ok:
        st[C_BASE + I_SURVIVAL_FAILURES] += 1
        destabilise_all(w, int(st[S_NW]))
        stability_moved(st, w)
    st[S_MISSED] = missed_after_neglect(missed)
    say(st, tr, now, TR_WATCH, u, pain, missed, 1 if ok else 0, int(index), int(present))
    if ok:
        arm_watch(st, sc, index)  # R2: the follow-up, the same rest
        return NO_EVENT, False
    if (st[S_STABLE] == 0) & (sc[P_BASIC] == 0):
        destabilised(st, w, sc, rs, tr, EV_R3, True)  # H4, its case here; the rest ended
        return drawn(st), False  # both clocks off or fresh
    return EV_R3, True


@inlined
def on_session(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
    """G1-G4: the healer tests each wound of the least grave level, oldest first.

    A relapse (G4) answers H4 here (:func:`destabilised`, H4's case written out; a relapse has
    no follow-up) and returns :data:`DRAWN`: the patient was stable, so no first-aid spell
    ran, and is unstable now, so H4 started the first-aid clock (or left it off) and started
    or stopped the survival clock: both are off or fresh. A session that healed every wound
    it tested leaves H4 and G3's follow-up to the loop.
    """
    now = st[S_NOW]
    st[S_R_SESSION] = math.inf
    st[S_HOLD] = rested_so_far(st[S_R_RESTED], st[S_R_START], now, True)
    st[S_R_ON] = 0.0
    least = int(st[S_LEAST])
    last_uid = NO_WOUND
    while True:  # the wounds of that level at the session's start, in order of receipt
        i = next_of_level(w, int(st[S_NW]), least, last_uid)
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
            heal(st, w, sc, i)
            if st[S_NW] == 0:
                st[S_MISSED] = 0.0  # G5: no wound left, the missed-watch penalty resets
            continue
        st[C_BASE + I_HEALING_FAILURES] += 1
        say(st, tr, now, TR_RELAPSE, u, 0.0, missed, least, 0, 0)
        destabilise(w, i)  # G4
        st[S_STABLE] = 0.0
        st[S_RELAPSE] = last_uid
        destabilised(st, w, sc, rs, tr, EV_G4, True)  # H4, its case here; no follow-up
        return drawn(st), False  # both clocks off or fresh
    return EV_G4, False


@inlined
def on_survival(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
) -> tuple[int, bool]:
    """S1-S5: the decisive survival test of the run.

    A stable patient's failure (S4, most of them) answers H4 here (:func:`destabilised`, H4's
    case for :data:`~simulator.rules.codes.EV_S4` written out; a survival test has no
    follow-up) and returns :data:`DRAWN`: the patient was stable, so no first-aid spell ran,
    and is unstable now, so H4 started the first-aid clock (or left it off) and started or
    stopped the survival clock (its key's state moved): both are off or fresh. The others (S3,
    or a pass) leave H4 to the loop.
    """
    u, fails = take(st, w, sc, rs, tr, SURVIVAL_CLOCK)  # fails: known by the draw
    now = st[S_NOW]
    nw = int(st[S_NW])
    pain, missed = st[S_PAIN], st[S_MISSED]
    st[C_BASE + I_SURVIVAL_TESTS] += 1
    stable = st[S_STABLE] == 1
    state = 1 if stable else 0
    told = int(st[S_SV_PRESENT])
    mental = st[S_SV_MENTAL]  # M1: drawn with the run
    if not fails and u < chance(survival_total(sc[P_CP_RS], pain, missed) + mental, sc):
        say(st, tr, now, TR_SURVIVAL_PASSED, u, pain, missed, state, 0, told)
    else:
        st[C_BASE + I_SURVIVAL_FAILURES] += 1
        if stable:  # S4
            say(st, tr, now, TR_SURVIVAL_UNSTABLE, u, pain, missed, state, 0, told)
            destabilise(w, int(st[S_WORST]))  # S4: the worst wound (H5)
            st[S_STABLE] = 0.0
            destabilised(st, w, sc, rs, tr, EV_S4, False)  # H4, its case here
            return drawn(st), False  # both clocks off or fresh
        else:  # S3: the treated wound of a relapse (G4), else the worst
            target = survival_target(w, nw, int(st[S_RELAPSE]), int(st[S_WORST]))
            treated = 1 if w[W_UID, target] == st[S_RELAPSE] else 0
            st[C_BASE + I_AGGRAVATIONS] += 1
            say(st, tr, now, TR_SURVIVAL_WORSENS, u, pain, missed, state, treated, told)
            if not worsen(st, w, sc, rs, tr, target, EV_S3):
                return NO_EVENT, False
    return EV_S4, False  # H4, in the loop (its follow-up: none after a survival test)


@inlined
def on_track(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    first: int,
) -> tuple[int, bool]:
    """B4-B6, M3: the session at the end of a rest of the track of level ``first``.

    Each wound of the least grave level of the track, oldest first (B5), is tested. Under
    the basic ruleset the patient tests: Cp+Rs with its physical wounds' penalties (B4), or
    Rs+It (B6), plus M1's penalties and ``healing.modifier``; a failure by 10 or more also
    worsens the wound. On the mental track of the advanced ruleset the healer tests, as G1
    without the missed-watch penalty (M3). A success lowers the wound a level and goes on; the
    first failure stops the session.
    """
    now = st[S_NOW]
    st[S_K_PHYSICAL if first == LIGHT else S_K_MENTAL] = math.inf
    basic = sc[P_BASIC] == 1
    least = least_of_track(w, int(st[S_NW]), first)
    last_uid = NO_WOUND
    while True:  # the wounds of that level at the session's start, in order of receipt
        i = next_of_level(w, int(st[S_NW]), least, last_uid)
        if i == NO_WOUND:
            break
        last_uid = w[W_UID, i]
        nw = int(st[S_NW])
        difficulty, mental, present = 0.0, 0.0, 0.0
        if basic:
            if first == LIGHT:
                attribute, difficulty = sc[P_CP_RS], st[S_DIFFICULTY]
            else:
                attribute = sc[P_RS_IT]
            mental, present = mental_draw(w, nw, sc, rs)  # M1, B2
            total = basic_healing_total(attribute, difficulty, mental + sc[P_HEAL_MOD])
        else:
            difficulty = cell(sc, least, T_DIFFICULTY)
            total = healing_total(sc[P_HEAL_LEVEL], difficulty, 0.0, sc[P_HEAL_MOD])
        u, ok = _test(sc, rs, total)
        st[C_BASE + I_HEALING_TESTS] += 1
        counts = packed_counts(w, nw) if tr.shape[0] > 0 else 0  # for a trace only
        if ok:
            say(st, tr, now, TR_TRACK_HEALED, u, difficulty, present, least, counts, first)
            heal(st, w, sc, i)
            if st[S_NW] == 0:
                st[S_MISSED] = 0.0  # G5: no wound left, the missed-watch penalty resets
            continue
        st[C_BASE + I_HEALING_FAILURES] += 1
        if basic and worsens_by_margin(u, total, sc):  # B4: a margin of -10 or less
            st[C_BASE + I_AGGRAVATIONS] += 1
            say(st, tr, now, TR_TRACK_WORSENS, u, difficulty, present, least, counts, first)
            if not worsen(st, w, sc, rs, tr, i, EV_B4):
                return NO_EVENT, False
        else:
            say(st, tr, now, TR_TRACK_STOPS, u, difficulty, present, least, counts, first)
        break
    return (EV_B4 if basic else EV_OTHER), False


@inlined
def follow_up(
    st: np.ndarray,
    w: np.ndarray,
    sc: np.ndarray,
    rs: np.ndarray,
    tr: np.ndarray,
    prio: int,
    from_start: bool,
    index: float,
    rests: float,
) -> None:
    """What a handler's event does once H4 has answered (:func:`changed`, called before).

    ``from_start`` is the handler's second answer. X1: an activity that breaks the rest
    (``from_start``) of a stable patient starts a new one (R1). R2: a failed watch arms the
    next neglected watch when H4 left the same rest standing (``rests``, the rest count before
    H4, and ``index``, the watch's; a watch that held arms it in :func:`on_watch`). G3: a
    session that healed without a failure (not ``from_start``) starts the next rest, or ends
    the rests when no wound is left.
    """
    if st[S_DONE] == 1:
        return
    if prio == PRIO_ACTIVITY:
        if from_start and st[S_LEAST] != NO_WOUND and st[S_STABLE] == 1:
            say(st, tr, st[S_NOW], TR_ACTIVITY_REST, 0.0, 0.0, 0.0, 0, 0, 0)
            rest_start(st, w, sc, rs, tr, 0.0)
    elif prio == PRIO_WATCH:
        if rests == st[S_R_COUNT]:
            arm_watch(st, sc, index)
    elif prio >= KIND_TRACK:  # B4, B6, M3: a new rest of the track from zero
        track_start(st, w, sc, prio - KIND_TRACK)
    elif prio == PRIO_HEALING and not from_start:
        if st[S_LEAST] != NO_WOUND:  # a physical wound is left
            say(st, tr, st[S_NOW], TR_NEW_REST, 0.0, 0.0, 0.0, 0, 0, 0)
            rested = rested_after_session(sc[P_CUMULATIVE] == 1, st[S_HOLD])
            rest_start(st, w, sc, rs, tr, rested)
        else:
            rest_cancel(st)
