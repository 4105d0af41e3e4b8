"""What one trial reports (RULES.md Q1): one flat record, plain Python, no pandas."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from operator import attrgetter

from simulator.rules.cause import Cause
from simulator.rules.levels import Level
from simulator.rules.outcome import COUNTS, Outcome

NAN = math.nan


@dataclass(slots=True)
class TrialRecord:
    """Q1: the outcome of one trial and its counts. Times are campaign hours since 0.

    Attributes:
        outcome: How the trial ended (:class:`~simulator.rules.outcome.Outcome`).
        cause: What opened the way to a death or an incoherent end (Q3,
            :class:`~simulator.rules.cause.Cause`); ``Cause.NONE`` for any other end.
        end_h: When the trial ended: death, incoherence, healing (with no injury to come)
            or the horizon.
        death_h: Time of death, NaN unless dead.
        incoherent_h: Time the patient became incoherent (M2), NaN otherwise.
        healed_h: Time the patient last became wound-free (G5), NaN when wounded at the end.
        first_stable_h: Time of the first stabilisation (A2), NaN if never.
        aggravations: Existing wounds going up a level (S3, X1, B4), fatal ones included;
            a wound received higher by overflow (W1) is not one.
        survival_tests: Survival tests made (S1-S2, R3; not X1's activity tests).
        survival_failures: Of those, failed.
        activity_tests: Tests of rough activity (X1).
        activity_failures: Of those, failed.
        first_aid_attempts: Stabilisation tests made (A1-A4).
        first_aid_successes: Of those, succeeded.
        neglected_watches: Watches neglected (R2-R3).
        healing_tests: Healing tests made (G1, B4, M3).
        healing_failures: Of those, failed.
        faints: Failed faint tests (F1-F2).
        max_pain: The highest pain reached (with fractions only under a fractional P1).
        wounds_left: Wounds at the end, all levels.
        light_left, grave_left, critical_left, shock_left, trauma_left, psychosis_left:
            Wounds at the end, per level.
    """

    outcome: Outcome = Outcome.WOUNDED
    cause: Cause = Cause.NONE
    end_h: float = NAN
    death_h: float = NAN
    incoherent_h: float = NAN
    healed_h: float = NAN
    first_stable_h: float = NAN
    aggravations: int = 0
    survival_tests: int = 0
    survival_failures: int = 0
    activity_tests: int = 0
    activity_failures: int = 0
    first_aid_attempts: int = 0
    first_aid_successes: int = 0
    neglected_watches: int = 0
    healing_tests: int = 0
    healing_failures: int = 0
    faints: int = 0
    max_pain: float = 0
    wounds_left: int = 0
    light_left: int = 0
    grave_left: int = 0
    critical_left: int = 0
    shock_left: int = 0
    trauma_left: int = 0
    psychosis_left: int = 0

    def as_tuple(self) -> tuple[object, ...]:
        """The values in the order of :data:`RECORD_FIELDS`."""
        return _VALUES(self)


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TrialRecord))
"""The record's field names, in order; the columns of the ``trials`` frame after
``trial`` and ``seed``."""

_VALUES = attrgetter(*RECORD_FIELDS)

TIME_FIELDS = ("end_h", "death_h", "incoherent_h", "healed_h", "first_stable_h")
LEFT_FIELDS = ("wounds_left", *(f"{level.label}_left" for level in Level))
"""Q1: the wounds left at the end, in all and per level."""
COUNT_FIELDS = (*(count.value for count in COUNTS), *LEFT_FIELDS)
"""The integer fields: Q1's counts in :class:`~simulator.rules.outcome.Count`'s order, then
the wounds left; ``max_pain`` is a float (pain has fractions under a fractional P1). A test
holds the record's fields to this order."""
