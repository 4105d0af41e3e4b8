"""When the clocks of the rules fall due (S2, R1, R2): the periods the engine keeps.

The engine decides nothing about time itself: which period the survival clock runs with, how
long a rest lasts and how often its watches come are read from the patient and the table
here, and the engine only arms its timers with them.
"""

from __future__ import annotations

from typing import NamedTuple

from simulator.rules.levels import Level
from simulator.rules.patient import Patient


def survival_period(patient: Patient, stable_tests: bool = True) -> float | None:
    """S2: the period of the survival clock.

    The worst wound's unstable period while the state is unstable, its stable period while
    stable; None when the patient has no physical wound, or is stable and setting
    ``stable_survival_tests`` is off.
    """
    worst = patient.worst()
    if worst is None:
        return None
    row = patient.table.rows[worst.level]
    if patient.stable:
        return row.stable_period if stable_tests else None
    return row.unstable_period


class RestPeriods(NamedTuple):
    """R1-R2: the periods of a rest.

    Attributes:
        least: The least grave physical level present, whose wounds the session treats.
        heal: Its heal period: the length of the rest (R1).
        watch: The worst wound's watch period (R2).
    """

    least: Level
    heal: float
    watch: float


def rest_periods(patient: Patient) -> RestPeriods | None:
    """R1-R2: the rest's length and its watches' period (None without a physical wound)."""
    least, worst = patient.least_grave(), patient.worst()
    if least is None or worst is None:
        return None
    rows = patient.table.rows
    return RestPeriods(least, rows[least].heal_period, rows[worst.level].watch_period)
