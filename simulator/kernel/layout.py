"""Where each number of a trial lives in the kernel's arrays: state, parameters, table, record.

A trial is one ``float64`` state vector (``st``, indexed by the ``S_*`` constants), three
wound rows (level, stability, uid; physical and mental wounds together, in order of receipt,
H1, Q2) and the record's counts. The scenario is a ``float64`` parameter vector (``P_*``)
and the wound table as a matrix (rows: :class:`~simulator.rules.codes.Lv`, physical then
mental; columns: ``T_*``). The record comes out as two matrices, one row per trial: times
and pain (``F_*``) and integer fields (``I_*``), named after
:class:`~simulator.engine.record.TrialRecord`'s fields by :data:`FLOAT_FIELDS` and
:data:`INT_FIELDS`.
"""

from __future__ import annotations

from simulator.engine.record import COUNT_FIELDS
from simulator.rules.rows import (
    N_LEVELS,
    T_DIFFICULTY,
    T_HEAL,
    T_MAX,
    T_MORTALITY,
    T_PAIN,
    T_SIZE,
    T_STABLE,
    T_UNSTABLE,
    T_WATCH,
    TABLE_CELLS,
    W_LEVEL,
    W_STABLE,
    W_UID,
)

__all__ = [
    "N_LEVELS",
    "T_DIFFICULTY",
    "T_HEAL",
    "T_MAX",
    "T_MORTALITY",
    "T_PAIN",
    "T_SIZE",
    "T_STABLE",
    "T_UNSTABLE",
    "T_WATCH",
    "W_LEVEL",
    "W_STABLE",
    "W_UID",
]

# --- the state vector st -----------------------------------------------------------------
(
    S_NOW,
    S_PRIO,
    S_PAIN,
    S_RECEIVED,
    S_MISSED,
    S_UNCONSCIOUS,
    S_RELAPSE,
    S_ALIVE,
    S_NEXT_UID,
    S_NW,
    S_WAS_STABLE,
    S_STABLE_SINCE,
    S_PAIN_STEPS,
    S_SURV_KEY,
    S_WOUNDED,
    S_CAUSE,
    S_INJ_LEFT,
    S_DONE,
    S_FIRST_STABLE,
    S_HEALED,
    S_MAX_PAIN,
    # the survival clock (S2) and the first-aid clock (A3): a test every period from base
    S_SV_ON,
    S_SV_BASE,
    S_SV_PERIOD,
    S_SV_K,
    S_SV_DK,
    S_SV_DU,
    S_SV_FRESH,
    S_FA_ON,
    S_FA_BASE,
    S_FA_PERIOD,
    S_FA_K,
    S_FA_DK,
    S_FA_DU,
    S_FA_FRESH,
    S_FA_ATTEMPTS,
    # the rest (R1-R4), its watches and its session (G1)
    S_R_ON,
    S_R_START,
    S_R_RESTED,
    S_R_KEPT,
    S_R_WPERIOD,
    S_R_RANDOM,
    S_R_COUNT,
    S_R_SESSION,
    S_R_WATCH,
    S_R_WINDEX,
    S_INJ_NEXT,
    S_ACT_NEXT,
    S_TRACE_N,
    S_HOLD,
    # the rests of a track (B4 physical, B6 and M3 mental): when their sessions fall due
    S_K_PHYSICAL,
    S_K_MENTAL,
    # M1: the mental penalties present at each clock's decisive test
    S_SV_MENTAL,
    S_FA_MENTAL,
    S_SV_SIG,
) = range(55)
"""``S_HOLD``: a number a handler keeps for its follow-up after H4 (the session's rest so
far, G3), see :func:`simulator.kernel.loop.run_one`. ``S_K_PHYSICAL + track`` is the
session of a track's rest (0 physical, 1 mental); ``S_SV_MENTAL``/``S_FA_MENTAL`` the sum
of M1's penalties drawn for the clock's decisive test."""
SIG_SIZE = 5
"""What the law of each clock's run was drawn with (S1, P1, M1; A1, A4, M1), five slots from
its ``S_*_SIG``: while it stays the same, the run drawn stands."""
S_FA_SIG = S_SV_SIG + SIG_SIZE
S_LOG_Q = S_FA_SIG + SIG_SIZE
"""log1p(-p) of R2's neglect probability p, once per trial (when 0 < p < 1)."""
S_FLOOR, S_DIFFICULTY, S_MENTAL_KEY, S_WORST = range(S_LOG_Q + 1, S_LOG_Q + 5)
"""What the clocks read of the wounds' levels, kept while the levels stay (written again by
:func:`simulator.kernel.events.levels_moved` at each change of a level or of the wounds'
count): P1's floor (:func:`~simulator.kernel.decisions.pain_floor`), A1's difficulty
(:func:`~simulator.kernel.decisions.wound_difficulty`), M1's
:func:`~simulator.kernel.decisions.mental_key` and H5's worst wound's row
(:func:`~simulator.kernel.decisions.worst`); all 0 for no wound but ``S_WORST``, -1."""
S_SV_PRESENT, S_FA_PRESENT = S_WORST + 1, S_WORST + 2
"""M1: which mental wounds' penalties were present at each clock's decisive test, as
:func:`~simulator.kernel.decisions.mental_key` packs wounds (a digit a level), for the
trace: beside ``S_SV_MENTAL``/``S_FA_MENTAL``, their sum."""
S_STABLE = S_FA_PRESENT + 1
"""H4: whether every wound is stable now (:func:`~simulator.kernel.decisions.all_stable`, 1 for
no wound), written wherever a wound's stability or the wounds held change, so that H4 and the
handlers read it instead of looking at every wound."""
S_LEAST = S_STABLE + 1
"""R1, G1: the least grave physical level held (:func:`~simulator.kernel.decisions.
least_grave`; -1 for none), kept with ``S_WORST`` by :func:`simulator.kernel.events.
levels_moved`."""
S_WORST_LEVEL = S_LEAST + 1
"""H5: the level of the worst physical wound (the level of row ``S_WORST``; -1 for none), kept
with it, so that S2's key and period and R2's watch period read it in one step."""
S_R_GAP_U = S_WORST_LEVEL + 1
"""R2: the uniform draw of the gap to the next randomly neglected watch while the gap is not
worked out yet, else -1: ``S_R_RANDOM`` then holds a lower bound of that watch's index
(:func:`simulator.kernel.events.defer_gap`), and O1 works the gap out only when the bound's
time could come first (:func:`simulator.kernel.events.gap_worked_out`)."""
S_SIZE = S_R_GAP_U + 1

CLOCK_ON, CLOCK_BASE, CLOCK_PERIOD, CLOCK_K, CLOCK_DK, CLOCK_DU, CLOCK_FRESH = range(7)
"""Offsets within a test clock's block (``S_SV_ON + CLOCK_K`` is the survival clock's k).
``CLOCK_FRESH``: 1 while the run was drawn by :func:`~simulator.kernel.clocks.start` during
the present event (the redraw after the event has nothing to look at)."""

# --- the parameter vector par ------------------------------------------------------------
(
    P_HORIZON,
    P_CP_RS,
    P_RS_IT,
    P_PER_HOUR,
    P_FAINT_DURATION,
    P_STABLE_TESTS,
    P_TIE,
    P_FA,
    P_FA_LEVEL,
    P_FA_MOD,
    P_FA_START,
    P_FA_INTERVAL,
    P_FA_MAX,
    P_FA_SELF,
    P_FA_FACTOR,
    P_NEGLECT_P,
    P_HEALER,
    P_HEAL_LEVEL,
    P_HEAL_MOD,
    P_RESUME,
    P_CUMULATIVE,
    P_BREAKS,
    P_ROLL_LOW,
    P_ROLL_HIGH,
    P_INJ0,
    P_NINJ,
    P_ACT0,
    P_NACT,
    P_NEG0,
    P_NNEG,
    P_BASIC,
    P_MENTAL,
    P_TRIGGER,
    P_FLOOR_CRAZY,
    P_LOG_PASS0,
    P_LOG_FAIL0,
    P_AT0,
    P_SPAN,
    P_RARE,
    P_SIZE,
) = range(TABLE_CELLS, TABLE_CELLS + 40)
"""The scenario vector ``sc`` starts with the wound table
(:func:`simulator.rules.rows.table_vector`: the decisions of :mod:`simulator.rules.rows` read it
there), then these; then the odds, the injuries (at, level, count), the activities (at,
modifier) and the ``neglect_at`` times, each from the offset its ``P_*0`` slot holds.
``P_BASIC``: the basic ruleset (B1-B6); ``P_MENTAL``: the scenario has mental wounds (M1);
``P_TRIGGER``: M1's ``trigger_probability``; ``P_FLOOR_CRAZY``: P1's floor counts craziness.
``P_LOG_PASS0``, ``P_LOG_FAIL0``: where the logs of D5's odds start, log(p) and log(1 - p) of
each ``p`` of the odds (0 where p is 0 or 1), in the odds' order: a clock's run of chance p
reads its log(p) there (the same number as ``math.log(p)``: the same libm function, computed
once per scenario). ``P_AT0``: where a whole total's success threshold falls in the odds, less
the total: ``(0 if ties succeed else 1) - low`` (D3); ``P_SPAN``: ``high - low``, the odds'
last index. ``P_RARE``: 1 when an activity or the session of a track's rest may fall due
(activities listed, the basic ruleset, or mental wounds), 0 when O1 need not look at their
times."""

# --- the wound table (its columns T_* are :mod:`simulator.rules.rows`') ---------------------
TAB0 = 0
"""Where the table starts in ``sc``: cell (level, column) at ``TAB0 + level * T_SIZE + column``."""
ODDS0 = P_SIZE
"""Where D5's odds start in ``sc``: P(roll >= r) at ``ODDS0 + r - low``."""
INJ_WIDTH, ACT_WIDTH = 3, 2

# --- the wound rows: W_LEVEL, W_STABLE, W_UID (simulator.rules.rows) ---------------------

# --- the record ----------------------------------------------------------------------------
FLOAT_FIELDS = ("end_h", "death_h", "incoherent_h", "healed_h", "first_stable_h", "max_pain")
F_END, F_DEATH, F_INCOHERENT, F_HEALED, F_FIRST_STABLE, F_MAX_PAIN = range(6)
INT_FIELDS = ("outcome", "cause", *COUNT_FIELDS)
"""Q1: the outcome and cause codes, then the counts in
:class:`~simulator.rules.outcome.Count`'s order and the wounds left (the record's order)."""
(
    I_OUTCOME,
    I_CAUSE,
    I_AGGRAVATIONS,
    I_SURVIVAL_TESTS,
    I_SURVIVAL_FAILURES,
    I_ACTIVITY_TESTS,
    I_ACTIVITY_FAILURES,
    I_FA_ATTEMPTS,
    I_FA_SUCCESSES,
    I_NEGLECTED,
    I_HEALING_TESTS,
    I_HEALING_FAILURES,
    I_FAINTS,
    I_WOUNDS_LEFT,
    I_LIGHT_LEFT,
    I_GRAVE_LEFT,
    I_CRITICAL_LEFT,
    I_SHOCK_LEFT,
    I_TRAUMA_LEFT,
    I_PSYCHOSIS_LEFT,
) = range(20)

C_BASE = S_SIZE
"""The record's integer fields are kept in ``st`` too (exact as floats): ``st[C_BASE + I_*]``."""
PEND0 = C_BASE + len(INT_FIELDS)
"""Then one flag per ``neglect_at`` time still pending (R2)."""

# --- a trace record: time, u, a, b, code, level, n, m ------------------------------------
TRACE_WIDTH = 8
