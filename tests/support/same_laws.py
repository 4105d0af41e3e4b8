"""Two samples of trials, one law? The two-sample comparison behind the kernel's tests.

Two lists of :class:`~simulator.engine.record.TrialRecord` (say, the fast path's and the
event-by-event path's, each with its own fixed seed) are compared column by column:

- each outcome's share, and the share of trials where each time is known (a two-proportion
  z-test with the pooled standard error);
- each time column, given it is known (a two-sample Kolmogorov-Smirnov test, asymptotic);
- each count column: its mean (a z-test on the difference, standard error from both sample
  variances) and its distribution (the same KS test, conservative on whole numbers).

A comparison fails when ``|z| > Z_LIMIT`` or when the KS distance exceeds its critical value
at level ``KS_ALPHA``. With about thirty comparisons per scenario and a few hundred in the
suite, a false alarm anywhere has a probability of a few in a thousand; the seeds are fixed,
so a given run either passes or fails for good, and no test is ever retried.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simulator.engine.record import COUNT_FIELDS, TIME_FIELDS, TrialRecord
from simulator.rules.cause import CAUSES
from simulator.rules.outcome import OUTCOMES

Z_LIMIT = 4.5
"""Two-sided z beyond which two shares or two means differ (false alarm about 7e-6)."""

KS_ALPHA = 1e-5
"""Level of each two-sample Kolmogorov-Smirnov test."""

MIN_KS = 30
"""Fewer known values than this in either sample: the KS test is skipped (shares still
compared)."""


def _column(records: Sequence[TrialRecord], name: str) -> np.ndarray:
    return np.array([getattr(r, name) for r in records], dtype=float)


def proportion_z(hits_a: int, n_a: int, hits_b: int, n_b: int) -> float:
    """Two-proportion z statistic with the pooled standard error (0 when both are 0 or 1)."""
    pooled = (hits_a + hits_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0.0:
        return 0.0
    return (hits_a / n_a - hits_b / n_b) / se


def mean_z(a: np.ndarray, b: np.ndarray) -> float:
    """z statistic of the difference of two means (0 when both are constant and equal, inf
    when both are constant and differ).

    The standard error is the pooled one: under the law tested (one distribution for both
    samples) the variance of both is that of the two together. Welch's, each sample's own,
    called a rare count different whenever the smaller sample happened to hold none of it
    (its variance 0, the error then the larger sample's alone): the fuzzing round of stop
    54 saw every false alarm of its thousand scenarios come that way.
    """
    pooled = np.concatenate([a, b]).var(ddof=1)
    se = math.sqrt(pooled * (1 / len(a) + 1 / len(b)))
    diff = a.mean() - b.mean()
    if se == 0.0:
        return 0.0 if diff == 0 else math.inf
    return diff / se


def ks_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The largest gap between the two empirical distribution functions."""
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, grid, side="right") / len(a)
    cdf_b = np.searchsorted(b, grid, side="right") / len(b)
    return float(np.max(np.abs(cdf_a - cdf_b)))


def ks_critical(n_a: int, n_b: int, alpha: float = KS_ALPHA) -> float:
    """The asymptotic critical distance of the two-sample KS test at level ``alpha``."""
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n_a + n_b) / (n_a * n_b))


def differences(
    a: Sequence[TrialRecord],
    b: Sequence[TrialRecord],
    z_limit: float = Z_LIMIT,
    alpha: float = KS_ALPHA,
) -> list[str]:
    """Every column where the two samples disagree beyond chance, in words (empty: agree).

    Args:
        a: One sample of records.
        b: The other.
        z_limit: The largest ``|z|`` accepted for shares and means.
        alpha: The level of each KS test.
    """
    problems: list[str] = []
    n_a, n_b = len(a), len(b)
    outcomes_a = [r.outcome for r in a]
    outcomes_b = [r.outcome for r in b]
    for outcome in OUTCOMES:
        hits_a, hits_b = outcomes_a.count(outcome), outcomes_b.count(outcome)
        z = proportion_z(hits_a, n_a, hits_b, n_b)
        if abs(z) > z_limit:
            problems.append(
                f"share {outcome}: {hits_a / n_a:.4f} against {hits_b / n_b:.4f} (z = {z:+.1f})"
            )
    for name in TIME_FIELDS:
        col_a, col_b = _column(a, name), _column(b, name)
        known_a, known_b = col_a[np.isfinite(col_a)], col_b[np.isfinite(col_b)]
        z = proportion_z(len(known_a), n_a, len(known_b), n_b)
        if abs(z) > z_limit:
            problems.append(
                f"{name} known in {len(known_a) / n_a:.4f} against {len(known_b) / n_b:.4f} "
                f"(z = {z:+.1f})"
            )
        problems += _distribution(name, known_a, known_b, alpha)
    for name in dict.fromkeys((*COUNT_FIELDS, "max_pain")):
        col_a, col_b = _column(a, name), _column(b, name)
        z = mean_z(col_a, col_b)
        if abs(z) > z_limit:
            problems.append(
                f"mean {name}: {col_a.mean():.4f} against {col_b.mean():.4f} (z = {z:+.1f})"
            )
        problems += _distribution(name, col_a, col_b, alpha)
    return problems


def _distribution(name: str, a: np.ndarray, b: np.ndarray, alpha: float) -> list[str]:
    if min(len(a), len(b)) < MIN_KS:
        return []
    distance, critical = ks_distance(a, b), ks_critical(len(a), len(b), alpha)
    if distance > critical:
        return [f"distribution of {name}: KS distance {distance:.4f} > {critical:.4f}"]
    return []


def cause_differences(a: Sequence[TrialRecord], b: Sequence[TrialRecord]) -> list[str]:
    """Q3: every cause whose share differs between the two samples by more than ``Z_LIMIT``."""
    problems = []
    for cause in CAUSES:
        hits_a = sum(1 for r in a if r.cause == cause)
        hits_b = sum(1 for r in b if r.cause == cause)
        z = proportion_z(hits_a, len(a), hits_b, len(b))
        if abs(z) > Z_LIMIT:
            problems.append(f"share {cause}: {hits_a / len(a):.4f} against {hits_b / len(b):.4f}")
    return problems
