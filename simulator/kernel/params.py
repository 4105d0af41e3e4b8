"""A scenario as the kernel's numbers.

:func:`scenario_vector` turns any scenario (either ruleset, mental wounds, injuries and
activities in any file order) into the scenario vector of :mod:`simulator.kernel.layout`.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from simulator.kernel.layout import (
    ODDS0,
    P_ACT0,
    P_AT0,
    P_BASIC,
    P_BREAKS,
    P_CP_RS,
    P_CUMULATIVE,
    P_FA,
    P_FA_FACTOR,
    P_FA_INTERVAL,
    P_FA_LEVEL,
    P_FA_MAX,
    P_FA_MOD,
    P_FA_SELF,
    P_FA_START,
    P_FAINT_DURATION,
    P_FLOOR_CRAZY,
    P_HEAL_LEVEL,
    P_HEAL_MOD,
    P_HEALER,
    P_HORIZON,
    P_INJ0,
    P_LOG_FAIL0,
    P_LOG_PASS0,
    P_MENTAL,
    P_NACT,
    P_NEG0,
    P_NEGLECT_P,
    P_NINJ,
    P_NNEG,
    P_PER_HOUR,
    P_RARE,
    P_RESUME,
    P_ROLL_HIGH,
    P_ROLL_LOW,
    P_RS_IT,
    P_SIZE,
    P_SPAN,
    P_STABLE_TESTS,
    P_TIE,
    P_TRIGGER,
    TAB0,
)
from simulator.rules.chances import RollTable
from simulator.rules.durations import microseconds
from simulator.rules.rows import (
    N_LEVELS,
    T_HEAL,
    T_SIZE,
    T_STABLE,
    T_UNSTABLE,
    T_WATCH,
    TABLE_CELLS,
)
from simulator.scenario.model import Scenario
from simulator.scenario.prepared import Prepared, prepare


@cache
def _odds(open_roll: bool, tie: bool) -> tuple[int, int, np.ndarray]:
    low, high, at_least = RollTable(open_roll, tie).at_least()
    return low, high, np.asarray(at_least, dtype=np.float64)


def _log(p: float) -> float:
    """``math.log(p)`` for 0 < p < 1, else 0 (a run of such a chance reads no log)."""
    return math.log(p) if 0.0 < p < 1.0 else 0.0


@cache
def _log_odds(open_roll: bool, tie: bool) -> np.ndarray:
    """log(p), then log(1 - p), of each of D5's odds p: what the kernel's runs read.

    ``math.log`` of the same doubles (``1.0 - p`` as the kernel computes it) is the libm
    function the compiled kernel calls, so each is the number it would compute.
    """
    odds = _odds(open_roll, tie)[2]
    passes = [_log(float(p)) for p in odds]
    fails = [_log(1.0 - float(p)) for p in odds]
    return np.asarray(passes + fails, dtype=np.float64)


def microseconds_float(seconds: float) -> float:
    """A time or duration in the kernel's unit: whole microseconds, as a float.

    Every duration of a scenario is a whole number of microseconds (RULES.md); as floats
    those are exact integers (below 2**53, 285 years), so that the sum of durations the
    kernel makes (test k of a clock at ``base + k * period``, the first attempt ``start``
    after a spell began) is exact, and two events of one instant are one instant (O1, O2).
    In seconds, ``7 * 61.2`` is 428.40000000000003, after the test at 428.4.
    """
    return float(microseconds(seconds)) if math.isfinite(seconds) else float(seconds)


def scenario_vector(scenario: Scenario) -> np.ndarray:
    """The kernel's scenario vector ``sc`` of ``scenario``: its prepared numbers, packed."""
    return pack(prepare(scenario, microseconds_float))


def pack(p: Prepared[float]) -> np.ndarray:
    """A prepared scenario as the kernel's scenario vector ``sc`` (:mod:`.layout`).

    Injuries and activities come in time order, file order at equal times (O1); under the
    basic ruleset there is no activity (B3) and no pain to recover (B2): the prepared
    scenario says so.
    """
    par = np.zeros(P_SIZE, dtype=np.float64)
    low, high, odds = _odds(p.open_roll, p.tie_succeeds)
    tab = p.tab.reshape(N_LEVELS, T_SIZE).copy()
    for column in (T_UNSTABLE, T_STABLE, T_WATCH, T_HEAL):  # periods, in microseconds too
        tab[:, column] = [microseconds_float(float(x)) for x in tab[:, column]]
    par[TAB0 : TAB0 + TABLE_CELLS] = tab.ravel()
    par[P_HORIZON] = p.horizon
    par[P_CP_RS], par[P_RS_IT] = p.cp_rs, p.rs_it
    par[P_PER_HOUR] = p.per_hour
    par[P_FAINT_DURATION] = p.faint_duration
    par[P_STABLE_TESTS] = p.stable_tests
    par[P_TIE] = p.tie_succeeds
    par[P_ROLL_LOW], par[P_ROLL_HIGH] = low, high
    par[P_AT0], par[P_SPAN] = (0 if p.tie_succeeds else 1) - low, high - low
    par[P_BASIC] = p.basic
    par[P_MENTAL] = p.mental
    par[P_TRIGGER] = p.trigger
    par[P_FLOOR_CRAZY] = p.floor_craziness
    fa = p.first_aid
    par[P_FA_MAX] = p.fa_max
    if fa is not None:
        par[P_FA], par[P_FA_LEVEL], par[P_FA_MOD] = 1.0, fa.level, fa.modifier
        par[P_FA_START], par[P_FA_INTERVAL] = p.fa_start, p.fa_interval
        par[P_FA_SELF], par[P_FA_FACTOR] = p.self_treat, p.self_aid_factor
    par[P_NEGLECT_P] = p.neglect_p
    if p.healing is not None:
        par[P_HEALER] = 1.0
        par[P_HEAL_LEVEL], par[P_HEAL_MOD] = p.healing.level, p.healing.modifier
    par[P_RESUME] = p.resume
    par[P_CUMULATIVE] = p.cumulative
    par[P_BREAKS] = p.breaks_rest
    inj = np.array(
        [(at, int(i.level), i.count) for at, i in zip(p.inj_at, p.injuries, strict=True)],
        dtype=np.float64,
    ).reshape(-1, 3)
    act = np.array(
        [(at, a.modifier) for at, a in zip(p.act_at, p.activities, strict=True)],
        dtype=np.float64,
    ).reshape(-1, 2)
    neg = np.array(p.neglect_at, dtype=np.float64)
    par[P_NINJ], par[P_NACT], par[P_NNEG] = len(inj), len(act), len(neg)
    par[P_RARE] = len(act) > 0 or bool(p.basic) or bool(p.mental)  # activities, tracks' rests
    logs = _log_odds(p.open_roll, p.tie_succeeds)
    par[P_LOG_PASS0] = ODDS0 + len(odds)
    par[P_LOG_FAIL0] = par[P_LOG_PASS0] + len(odds)
    par[P_INJ0] = par[P_LOG_PASS0] + logs.size
    par[P_ACT0] = par[P_INJ0] + inj.size
    par[P_NEG0] = par[P_ACT0] + act.size
    return np.concatenate([par, odds, logs, inj.ravel(), act.ravel(), neg])
