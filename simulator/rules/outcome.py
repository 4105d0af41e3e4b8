"""How a trial ends (RULES.md Q1, H6, G5), and what it counts on the way, as enums.

An :class:`Outcome` is a ``str`` (``Outcome.DEAD == "dead"``): the ``outcome`` column of the
trials frame, the JSON summaries and the command line read exactly as with plain strings. A
:class:`Count` is the same for Q1's counts (``Count.FAINTS == "faints"``): one order, one
place, for every engine's record and for the expectations of the exact engine.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypedDict

__all__ = ["COUNTS", "OUTCOMES", "Count", "Outcome", "Summary"]


class Outcome(StrEnum):
    """The end of one trial, in the order used for categoricals and charts."""

    DEAD = "dead"
    """Killed (H6): a physical blow past critical."""

    INCOHERENT = "incoherent"
    """Out of play without dying (M2): a mental blow past psychosis."""

    HEALED = "healed"
    """No wound left (G5), at the end of the trial."""

    WOUNDED = "wounded"
    """Still wounded at the horizon (O2)."""


OUTCOMES: tuple[str, ...] = tuple(outcome.value for outcome in Outcome)
"""The outcomes' values in :class:`Outcome`'s order (for categoricals and choices)."""


class Count(StrEnum):
    """Q1's counts of one trial, in the order of the record and of the tables."""

    AGGRAVATIONS = "aggravations"
    """An existing wound up a level (S3, X1, B4), the fatal one past critical included."""

    SURVIVAL_TESTS = "survival_tests"
    """S1's tests (and R3's test of a neglected watch)."""

    SURVIVAL_FAILURES = "survival_failures"
    """Those failed."""

    ACTIVITY_TESTS = "activity_tests"
    """X1's tests of rough activity."""

    ACTIVITY_FAILURES = "activity_failures"
    """Those failed."""

    FIRST_AID_ATTEMPTS = "first_aid_attempts"
    """A1's attempts."""

    FIRST_AID_SUCCESSES = "first_aid_successes"
    """Those that stabilised (A2)."""

    NEGLECTED_WATCHES = "neglected_watches"
    """R2's watches neglected."""

    HEALING_TESTS = "healing_tests"
    """G1's healer tests (M3's, B4's and B6's too)."""

    HEALING_FAILURES = "healing_failures"
    """Those failed."""

    FAINTS = "faints"
    """F1's faint tests failed."""


COUNTS: tuple[Count, ...] = tuple(Count)
"""Q1's counts in :class:`Count`'s order."""


class Summary(TypedDict, total=False):
    """The JSON summary of a study (CONTRACT.md), as a type: each key with its value's type.

    What ``StudyResult.summary_json()`` returns, sampled (``"method": "monte-carlo"``) or
    exact (``"exact"``: ``trials`` and ``seed`` None, and the exact engine's own keys); a key
    read or written with a typo, or a value of the wrong type, is a type error. Shares are in
    [0, 1], intervals ``[low, high]``, times in hours (None when no trial got there).
    """

    scenario: str
    trials: int | None
    seed: int | None
    method: str
    p_dead: float
    p_dead_ci: list[float]
    p_healed: float
    p_healed_ci: list[float]
    p_wounded: float
    p_wounded_ci: list[float]
    p_incoherent: float
    p_incoherent_ci: list[float]
    p_stabilised: float
    p_stabilised_ci: list[float]
    p_dead_by_cause: dict[str, float]
    p_dead_by_cause_ci: dict[str, list[float]]
    median_time_to_heal_h: float | None
    median_time_to_death_h: float | None
    mean_aggravations: float
    mean_survival_tests: float
    mean_first_aid_attempts: float
    mean_healing_tests: float
    mean_faints: float
    overrides: list[str]
    impossible: list[str]  # the outcomes the rules put out of reach (studies.reachable)
    file: str  # a comparison of two files of one name: the side's file, as titles tell it
    dropped_mass: float
    states: int
    peak_states: int
    eps: float
