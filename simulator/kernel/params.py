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
    P_RESUME,
    P_ROLL_HIGH,
    P_ROLL_LOW,
    P_RS_IT,
    P_SIZE,
    P_STABLE_TESTS,
    P_TIE,
    P_TRIGGER,
    TAB0,
)
from simulator.rules.chances import RollTable
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.rules.rows import TABLE_CELLS, table_vector
from simulator.scenario.model import Ruleset, Scenario


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


def scenario_vector(scenario: Scenario) -> np.ndarray:
    """The kernel's scenario vector ``sc`` of ``scenario``.

    Injuries and activities are taken in time order, file order at equal times (O1); under
    the basic ruleset there is no activity (B3) and no pain to recover (B2).
    """
    s = scenario.settings
    par = np.zeros(P_SIZE, dtype=np.float64)
    low, high, odds = _odds(s.open_roll, s.tie_succeeds)
    par[P_HORIZON] = scenario.horizon
    par[P_CP_RS], par[P_RS_IT] = scenario.patient.cp_rs, scenario.patient.rs_it
    par[P_PER_HOUR] = s.pain_recovery_per_hour
    par[P_FAINT_DURATION] = s.faint_duration
    par[P_STABLE_TESTS] = s.stable_survival_tests
    par[P_TIE] = s.tie_succeeds
    par[P_ROLL_LOW], par[P_ROLL_HIGH] = low, high
    basic = scenario.ruleset is Ruleset.BASIC
    par[P_BASIC] = basic
    par[P_MENTAL] = any(not injury.level.is_physical for injury in scenario.injuries)
    par[P_TRIGGER] = s.trigger_probability
    par[P_FLOOR_CRAZY] = s.pain_floor_craziness
    if basic:  # B2: no pain to recover
        par[P_PER_HOUR] = 0.0
    fa = scenario.first_aid
    par[P_FA_MAX] = -1.0
    if fa is not None:
        par[P_FA], par[P_FA_LEVEL], par[P_FA_MOD] = 1.0, fa.level, fa.modifier
        par[P_FA_START], par[P_FA_INTERVAL] = fa.start, fa.interval
        par[P_FA_MAX] = -1.0 if fa.max_attempts is None else fa.max_attempts
        par[P_FA_SELF], par[P_FA_FACTOR] = fa.self_treat, s.self_aid_pain_factor
    par[P_NEGLECT_P] = scenario.watch.neglect_probability
    if scenario.healing is not None:
        par[P_HEALER] = 1.0
        par[P_HEAL_LEVEL], par[P_HEAL_MOD] = scenario.healing.level, scenario.healing.modifier
    par[P_RESUME] = s.rest_after_unstable is RestAfterUnstable.RESUME
    par[P_CUMULATIVE] = s.rest_per_level is RestPerLevel.CUMULATIVE
    par[P_BREAKS] = s.activity_breaks_rest
    par[TAB0 : TAB0 + TABLE_CELLS] = table_vector(scenario.table)
    horizon = scenario.horizon
    injuries = sorted(scenario.injuries, key=lambda injury: injury.at)  # file order at ties
    inj = np.array(
        [(i.at, int(i.level), i.count) for i in injuries if i.at <= horizon],
        dtype=np.float64,
    ).reshape(-1, 3)
    activities = () if basic else sorted(scenario.activities, key=lambda a: a.at)  # B3
    act = np.array(
        [(a.at, a.modifier) for a in activities if a.at <= horizon], dtype=np.float64
    ).reshape(-1, 2)
    neg = np.array(sorted(scenario.watch.neglect_at), dtype=np.float64)
    par[P_NINJ], par[P_NACT], par[P_NNEG] = len(inj), len(act), len(neg)
    logs = _log_odds(s.open_roll, s.tie_succeeds)
    par[P_LOG_PASS0] = ODDS0 + len(odds)
    par[P_LOG_FAIL0] = par[P_LOG_PASS0] + len(odds)
    par[P_INJ0] = par[P_LOG_PASS0] + logs.size
    par[P_ACT0] = par[P_INJ0] + inj.size
    par[P_NEG0] = par[P_ACT0] + act.size
    return np.concatenate([par, odds, logs, inj.ravel(), act.ravel(), neg])
