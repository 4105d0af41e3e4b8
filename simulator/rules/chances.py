"""The dice as numbers (D1-D5): success tables, the roll a uniform draw stands for, and runs.

The compiled kernel (and the exact engine's odds) draws one uniform number ``u`` per test
instead of two dice: the test
succeeds when ``u < P(success)``, with P(success) the exact odds of D5 for the test's total
modifier, precomputed once per scenario in a :class:`RollTable`. The roll a trace shows is the
one ``u`` stands for (the inverse of the distribution, so that a small ``u`` is a high roll):
the same ``u`` gives the same verdict and the same roll, and a trace tells the same trial as
a run without one.

A run of tests that each change nothing with the same chance ``p`` ends at the first test that
does: the number of tests that come before it is geometric, and :func:`run_length` draws it,
with the decisive test's own ``u``, from one uniform number (RULES.md: the same law as one
draw per test, since the geometric law has no memory).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from functools import cache

from simulator.rules import scalar
from simulator.rules.dice import open_roll_distribution, roll_distribution


class RollTable:
    """D5 for one setting of D2 (open roll) and D3 (ties): P(roll >= r), and its inverse.

    Args:
        open_roll: D2's setting (the open roll's odds are exact to ``ODDS_PRECISION``).
        tie_succeeds: D3's setting.
    """

    __slots__ = ("_at_least", "_cum", "_high", "_low", "_rolls", "tie_succeeds")

    def __init__(self, open_roll: bool = False, tie_succeeds: bool = True):
        if open_roll:
            dist = open_roll_distribution()
        else:
            dist = {x: float(p) for x, p in roll_distribution().items()}
        self.tie_succeeds = tie_succeeds
        self._low, self._high = min(dist), max(dist)
        rolls = list(range(self._high, self._low - 1, -1))  # high rolls first
        cum, total = [], 0.0
        for r in rolls:
            total += dist.get(r, 0.0)
            cum.append(min(total, 1.0))
        cum[-1] = 1.0  # the lowest roll is always reached
        self._rolls = rolls
        self._cum = cum  # cum[i] = P(roll >= rolls[i]), rising
        self._at_least = dict(zip(rolls, cum, strict=True))

    def threshold(self, total: float) -> int:
        """The lowest roll that succeeds with this total modifier (D3: margin >= 0, or > 0)."""
        total = round(total, 9) if isinstance(total, float) else total
        return scalar.success_threshold(total, self.tie_succeeds)

    def chance(self, total: float) -> float:
        """P(success) of a test whose modifiers sum to ``total`` (D5)."""
        whole = int(total)
        if whole == total:  # an int, or a float with no fraction (compiled code passes floats)
            t = scalar.success_threshold(whole, self.tie_succeeds)
        else:
            t = self.threshold(total)
        if t <= self._low:
            return 1.0
        if t > self._high:
            return 0.0
        return self._at_least[t]

    def at_least(self) -> tuple[int, int, list[float]]:
        """``(low, high, p)``: ``p[r - low]`` is P(roll >= r) for r in low..high (the kernel's)."""
        return self._low, self._high, [self._at_least[r] for r in range(self._low, self._high + 1)]

    def roll(self, u: float) -> int:
        """The roll that the uniform draw ``u`` in [0, 1) stands for.

        The highest ``r`` with P(roll >= r) > u, so that ``roll(u) >= threshold`` exactly
        when ``u < chance``.
        """
        i = bisect_right(self._cum, u)
        return self._rolls[min(i, len(self._rolls) - 1)]


def run_length(u: float, p: float) -> tuple[float, float]:
    """A run of tests that each pass with chance ``p``: how many pass before the first fails.

    Args:
        u: A uniform draw in (0, 1].
        p: The chance that a test passes (changes nothing).

    Returns:
        ``(k, w)``: ``k`` tests pass, the next one fails (``k`` is ``inf`` when ``p`` is 1);
        ``w`` is a uniform draw in [0, 1), independent of ``k``, for the failing test
        itself (its verdict is known; ``w`` places it within the failing outcomes).
    """
    if p >= 1.0:
        return math.inf, 0.0
    if p <= 0.0:
        return 0.0, 1.0 - u
    x = math.log(u) / math.log(p)
    k = math.floor(x)
    w = (1.0 - p ** (x - k)) / (1.0 - p)  # P(v <= x | k) = (1 - p**x) / (1 - p): uniform
    return float(k), min(max(w, 0.0), math.nextafter(1.0, 0.0))


@cache
def roll_table(open_roll: bool, tie_succeeds: bool) -> RollTable:
    """D5's table for one setting of the dice (made once, shared by every trial)."""
    return RollTable(open_roll, tie_succeeds)
