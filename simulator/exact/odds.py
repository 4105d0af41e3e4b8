"""Exact chances of a test's outcomes (D1-D5, M1), for the exact engine.

A test succeeds when ``roll + modifiers >= 0`` (D3). Modifiers may have fractions (fractional
pain, P1): the roll is an integer, so success is ``roll >= ceil(-m)``. The patient's own tests
carry each mental wound's penalty with ``trigger_probability`` (M1), drawn independently: the
chance of an outcome is averaged over the distribution of the sum of those penalties. The open
roll (D2) is truncated; the mass it leaves out is reported by :meth:`Odds.lost`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from simulator.rules import scalar
from simulator.rules.dice import open_roll_distribution, roll_distribution

Number = int | Fraction


class Odds:
    """The chances of success and failure of tests, for one dice setting.

    Args:
        open_roll: D2's setting.
        tie_succeeds: D3's setting.
        eps: The open roll is truncated where the mass left is below this.
        trigger_probability: M1's chance that a mental wound's penalty is present.
    """

    def __init__(self, open_roll: bool, tie_succeeds: bool, eps: float, trigger: float):
        if open_roll:
            dist = open_roll_distribution(precision=min(eps, 1e-12))
        else:
            dist = {x: float(p) for x, p in roll_distribution().items()}
        self.values = sorted(dist)
        self.low, self.high = self.values[0], self.values[-1]
        self.probs = [dist[x] for x in self.values]
        # cumulative: at_least[i] = P(roll >= values[i])
        self._at_least: dict[int, float] = {}
        acc = 0.0
        for x in reversed(self.values):
            acc += dist[x]
            self._at_least[x] = acc
        self.total = math.fsum(self.probs)
        self.tie = tie_succeeds
        self.trigger = trigger
        self.success = lru_cache(maxsize=None)(self._success)
        self.three = lru_cache(maxsize=None)(self._three)
        self.mental = lru_cache(maxsize=None)(self._mental)

    @property
    def lost(self) -> float:
        """The mass of one roll left out by the truncation of the open roll (0 when closed)."""
        return max(0.0, 1.0 - self.total)

    def at_least(self, threshold: int) -> float:
        """P(roll >= threshold), within the truncated support."""
        if threshold <= self.low:
            return self.total
        if threshold > self.high:
            return 0.0
        return self._at_least[threshold]

    def _threshold(self, modifier: Number) -> int:
        """The smallest roll that succeeds with this total modifier (D3)."""
        return scalar.success_threshold(modifier, self.tie)

    def _mental(self, penalties: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
        """The distribution of the sum of mental penalties present at one test (M1)."""
        dist: dict[int, float] = {0: 1.0}
        q = self.trigger
        for d in penalties:
            nxt: dict[int, float] = {}
            for value, p in dist.items():
                if q < 1.0:
                    nxt[value] = nxt.get(value, 0.0) + p * (1.0 - q)
                if q > 0.0:
                    nxt[value + d] = nxt.get(value + d, 0.0) + p * q
            dist = nxt
        return tuple(sorted(dist.items()))

    def _success(self, modifier: Number, penalties: tuple[int, ...] = ()) -> tuple[float, float]:
        """``(P(success), P(failure))`` of a test with this modifier and these mental penalties."""
        ok = 0.0
        for extra, p in self.mental(penalties):
            ok += p * self.at_least(self._threshold(modifier + extra))
        return ok, max(0.0, self.total - ok)

    def _three(
        self, modifier: Number, worse_margin: int, penalties: tuple[int, ...] = ()
    ) -> tuple[float, float, float]:
        """B4: ``(P(success), P(failure above worse_margin), P(margin <= worse_margin))``."""
        ok = bad = 0.0
        for extra, p in self.mental(penalties):
            m = modifier + extra
            ok += p * self.at_least(self._threshold(m))
            # margin <= w  <=>  roll <= w - m  <=>  not roll >= floor(w - m) + 1
            bad += p * (self.total - self.at_least(math.floor(worse_margin - m) + 1))
        return ok, max(0.0, self.total - ok - bad), bad
