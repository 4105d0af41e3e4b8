"""Confidence intervals for shares of trials, and for differences of mean counts.

Wilson's score interval for one share, Newcombe's hybrid score interval for the difference
of two shares measured on the same trials, Student's interval for the mean of paired
differences of counts. Plain numpy (scipy for Student's quantile), no pandas.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

Z95 = 1.959963984540054
"""The two-sided 95% standard normal quantile."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a binomial proportion.

    Valid for every ``0 <= successes <= n`` (with ``0/n`` the low end is exactly 0, with
    ``n/n`` the high end is exactly 1).

    Args:
        successes: Number of trials with the event.
        n: Number of trials, at least 1.
        z: The normal quantile (1.96 for 95%).

    Returns:
        ``(low, high)``, both in [0, 1].

    Raises:
        ValueError: When ``n < 1`` or ``successes`` is outside ``[0, n]``.
    """
    if n < 1:
        raise ValueError(f"a Wilson interval needs n >= 1 trials, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within [0, {n}], got {successes}")
    low, high = wilson_arrays(np.asarray([successes]), n, z)
    return float(low[0]), float(high[0])


def wilson_arrays(
    successes: npt.ArrayLike, n: int, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson intervals for many counts out of the same ``n`` (vectorised :func:`wilson`).

    Args:
        successes: Counts, each within ``[0, n]``.
        n: Number of trials, at least 1.
        z: The normal quantile.

    Returns:
        Arrays ``(low, high)`` shaped like ``successes``.
    """
    k = np.asarray(successes, dtype=np.float64)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def paired_difference(
    a: npt.ArrayLike, b: npt.ArrayLike, z: float = Z95
) -> tuple[float, tuple[float, float]]:
    """Difference of two proportions measured on the same trials, with Newcombe's interval.

    ``a[i]`` and ``b[i]`` are the event indicators of trial ``i`` under two scenarios run on
    the same random streams, so the samples are paired, not independent. The interval is
    Newcombe's hybrid score interval for paired data (Newcombe 1998, *Statistics in Medicine*
    17:2635-2650, method 10): Wilson intervals of both margins, combined with the
    continuity-corrected phi correlation of the 2x2 table. It stays a proper interval when a
    share is 0 or 1, unlike the normal (Wald) interval of paired differences.

    Args:
        a: Boolean indicators under the first scenario.
        b: Boolean indicators under the second, same length.
        z: The normal quantile.

    Returns:
        ``(estimate, (low, high))`` for ``mean(a) - mean(b)``.

    Raises:
        ValueError: When the lengths differ or are zero.
    """
    xa = np.asarray(a, dtype=bool)
    xb = np.asarray(b, dtype=bool)
    if xa.shape != xb.shape or xa.size == 0:
        raise ValueError(f"paired samples need the same non-zero length, got {xa.size}, {xb.size}")
    return newcombe_paired(
        both=int(np.sum(xa & xb)),
        only_a=int(np.sum(xa & ~xb)),
        only_b=int(np.sum(~xa & xb)),
        neither=int(np.sum(~xa & ~xb)),
        z=z,
    )


FEW_DIFFER = 10
"""Trials that must differ from the most common paired difference for Student's interval."""


def paired_mean_difference(
    a: npt.ArrayLike, b: npt.ArrayLike, level: float = 0.95
) -> tuple[float, tuple[float, float]]:
    """Difference of two mean counts measured on the same trials, with Student's interval.

    ``a[i]`` and ``b[i]`` are one count of trial ``i`` (aggravations, survival tests...) under
    two scenarios run on the same random streams. The interval is the paired t interval of
    the mean of ``a[i] - b[i]``: the pairing removes what both trials share, so it is
    narrower than two independent intervals whenever the counts move together.

    Args:
        a: The counts under the first scenario.
        b: The counts under the second, same length.
        level: The interval's coverage.

    Returns:
        ``(estimate, (low, high))`` for ``mean(a) - mean(b)``. The interval is NaN on both
        ends when fewer than :data:`FEW_DIFFER` trials differ from the most common
        difference: a count that rarely moves (a faint in one trial of thirty) gives no
        spread to read, and Student's interval then claims a certainty it does not have (a
        review's coverage runs: 45% to 80% instead of 95%). Unbounded counts allow no
        honest interval there; more trials give one.

    Raises:
        ValueError: When the lengths differ or are zero.
    """
    xa = np.asarray(a, dtype=np.float64)
    xb = np.asarray(b, dtype=np.float64)
    if xa.shape != xb.shape or xa.size == 0:
        raise ValueError(f"paired samples need the same non-zero length, got {xa.size}, {xb.size}")
    d = xa - xb
    n = d.size
    mean = float(np.mean(d))
    _, counts = np.unique(d, return_counts=True)
    if n - int(counts.max()) < FEW_DIFFER:
        return mean, (math.nan, math.nan)
    sd = float(np.std(d, ddof=1))
    from scipy.stats import t as student

    half = float(student.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)


def newcombe_paired(
    both: int, only_a: int, only_b: int, neither: int, z: float = Z95
) -> tuple[float, tuple[float, float]]:
    """Newcombe's method 10 interval for a paired difference, from the 2x2 table's cells.

    Args:
        both: Trials with the event under both scenarios.
        only_a: With the event under A only.
        only_b: With the event under B only.
        neither: With the event under neither.
        z: The normal quantile.

    Returns:
        ``(estimate, (low, high))`` for ``p_a - p_b``, the interval within [-1, 1].
    """
    n = both + only_a + only_b + neither
    if n < 1:
        raise ValueError("a paired difference needs at least one trial")
    p1 = (both + only_a) / n
    p2 = (both + only_b) / n
    l1, u1 = wilson(both + only_a, n, z)
    l2, u2 = wilson(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross = both * neither - only_a * only_b
    if margins == 0:
        phi = 0.0
    else:
        numerator = max(cross - n / 2, 0.0) if cross > 0 else float(cross)
        phi = numerator / math.sqrt(margins)
    delta = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    eps = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    theta = p1 - p2
    return theta, (max(theta - delta, -1.0), min(theta + eps, 1.0))


def median_or_none(values: npt.ArrayLike) -> float | None:
    """The median of the finite values, or None when there are none."""
    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x)]
    return float(np.median(x)) if x.size else None
