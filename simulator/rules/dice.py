"""The dice of the game (RULES.md D1-D5): rolls, margins and exact odds.

Randomness enters the simulator here and only here: a :class:`RandomDice` wraps one
``numpy.random.Generator`` (one per trial); tests use :class:`ScriptedDice` to replay the
worked examples of the texts roll by roll.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from simulator.rules import scalar
from simulator.rules.ids import RuleId

if TYPE_CHECKING:
    import numpy as np  # only named: the generator comes from the caller

ODDS_PRECISION = 1e-12
"""Bound on the error of the open roll's exact probabilities (D5): the mass left out."""


class Dice(Protocol):
    """What the rules need from randomness."""

    def roll(self) -> int:
        """One test roll: ±d10 (D1), or the open roll ±d10° (D2) if so configured."""
        ...

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (neglected watches, mental penalties)."""
        ...

    def geometric(self, p: float) -> int | float:
        """Number of Bernoulli(p) trials up to and including the first success (inf if p=0)."""
        ...

    def uniform(self) -> float:
        """A uniform draw on [0, 1)."""
        ...


@dataclass(frozen=True, slots=True)
class TestRoll:
    """One resolved test: the roll, each modifier by name, the margin and the outcome.

    Attributes:
        rule: The rule that called for the test (``RuleId.S1``, which reads ``"S1"``).
        what: A few words: ``"survival test"``, ``"first aid"``...
        roll: The dice result.
        modifiers: ``(name, value)`` pairs, summed into the margin (D3).
        margin: ``roll + sum(modifiers)``.
        success: ``margin >= 0`` (or ``> 0`` when ties fail).
    """

    rule: RuleId
    what: str
    roll: int
    modifiers: tuple[tuple[str, float], ...]
    margin: float
    success: bool


def margin_of(roll: int, modifiers: Iterable[tuple[str, float]]) -> float:
    """D3: the margin is the roll plus the sum of the test's modifiers.

    An int when every modifier is; with fractional pain (P1) a float rounded to 9 decimals,
    so that a margin meant to be 0 is 0.
    """
    modifier: float = sum(value for _, value in modifiers)  # (mypyc: not summed after roll)
    margin = roll + modifier
    return round(margin, 9) if isinstance(margin, float) else margin


def succeeds(margin: float, tie_succeeds: bool = True) -> bool:
    """D3: a test succeeds when the margin is at least 0 (above 0 when ties fail)."""
    return scalar.success_threshold(margin, tie_succeeds) <= 0


def resolve(
    dice: Dice,
    rule: RuleId,
    what: str,
    modifiers: Sequence[tuple[str, float]],
    tie_succeeds: bool = True,
) -> TestRoll:
    """Roll a test and resolve it (D1-D3).

    Args:
        dice: Where the roll comes from.
        rule: The rule id that calls for the test.
        what: What the test is, for the trace.
        modifiers: Named modifiers; zero ones may be included and are kept for the trace.
        tie_succeeds: D3's setting.
    """
    roll = dice.roll()
    margin = margin_of(roll, modifiers)
    return TestRoll(rule, what, roll, tuple(modifiers), margin, succeeds(margin, tie_succeeds))


class RandomDice:
    """Dice drawn from one ``numpy.random.Generator`` (one per trial, never global).

    Draws are taken from the generator in blocks and consumed in order, which is both fast
    and deterministic: the same generator state gives the same sequence of rolls.
    """

    __slots__ = ("_d10", "_gen", "_open", "_u")

    _BLOCK = 64

    def __init__(self, generator: np.random.Generator, open_roll: bool = False):
        self._gen = generator
        self._open = open_roll
        self._d10: list[int] = []
        self._u: list[float] = []

    def _die(self) -> int:
        if not self._d10:
            self._d10 = self._gen.integers(1, 11, size=self._BLOCK).tolist()
            self._d10.reverse()
        return self._d10.pop()

    def _open_die(self) -> int:
        total = 0
        face = self._die()
        while face == 10:
            total += 10
            face = self._die()
        return total + face

    def roll(self) -> int:
        """D1 (luck die minus bad-luck die), or D2 when the open roll is on."""
        if self._open:
            return self._open_die() - self._open_die()
        return self._die() - self._die()

    def uniform(self) -> float:
        """A uniform draw on [0, 1)."""
        if not self._u:
            self._u = self._gen.random(self._BLOCK).tolist()
            self._u.reverse()
        return self._u.pop()

    def chance(self, p: float) -> bool:
        """True with probability ``p``; draws nothing when p is 0 or 1."""
        if p >= 1.0:
            return True
        if p <= 0.0:
            return False
        return self.uniform() < p

    def geometric(self, p: float) -> int | float:
        """Trials up to the first success of Bernoulli(p), by inversion of one uniform."""
        if p <= 0.0:
            return math.inf
        if p >= 1.0:
            return 1
        u = self.uniform()
        ratio = math.log1p(-u) / math.log1p(-p)
        if not ratio < 2.0**53:  # a p so small (5e-324) that the count has no float: never
            return math.inf
        return 1 + math.floor(ratio)


class ScriptedDice:
    """Dice that return given results, to replay the texts' examples in tests.

    Args:
        rolls: The test rolls, in order (each already the ±d10 result).
        chances: Results for :meth:`chance` calls with 0 < p < 1, in order.
        geometrics: Results for :meth:`geometric` calls with 0 < p < 1, in order.
        uniforms: Results for :meth:`uniform` calls, in order.
        default: The roll returned once ``rolls`` is used up; ``None`` (the default) makes
            running out an error, so a test states every roll it depends on.
    """

    def __init__(
        self,
        rolls: Iterable[int] = (),
        chances: Iterable[bool] = (),
        geometrics: Iterable[float] = (),
        default: int | None = None,
        uniforms: Iterable[float] = (),
    ):
        self.default = default
        self.rolls = list(rolls)
        self.chances = list(chances)
        self.geometrics = list(geometrics)
        self.uniforms = list(uniforms)
        self.used = 0

    def roll(self) -> int:
        """The next scripted roll."""
        if not self.rolls:
            if self.default is not None:
                self.used += 1
                return self.default
            raise AssertionError("ScriptedDice: no scripted roll left")
        self.used += 1
        return self.rolls.pop(0)

    def chance(self, p: float) -> bool:
        """Certain outcomes for p of 0 or 1, else the next scripted result."""
        if p >= 1.0:
            return True
        if p <= 0.0:
            return False
        if not self.chances:
            raise AssertionError("ScriptedDice: no scripted chance left")
        return self.chances.pop(0)

    def uniform(self) -> float:
        """The next scripted uniform draw."""
        if not self.uniforms:
            raise AssertionError("ScriptedDice: no scripted uniform draw left")
        return self.uniforms.pop(0)

    def geometric(self, p: float) -> int | float:
        """Inf for p=0, 1 for p=1, else the next scripted count (inf when none are left)."""
        if p <= 0.0:
            return math.inf
        if p >= 1.0:
            return 1
        return self.geometrics.pop(0) if self.geometrics else math.inf


def roll_distribution() -> dict[int, Fraction]:
    """D1 exactly: P(x) = (10 - |x|) / 100 for x in -9..9."""
    return {x: Fraction(10 - abs(x), 100) for x in range(-9, 10)}


def open_die_distribution(precision: float = ODDS_PRECISION) -> dict[int, float]:
    """One open d10° (D2): 10k + r with probability 0.1^(k+1), r in 1..9, truncated.

    The mass left out is below ``precision``.
    """
    dist: dict[int, float] = {}
    k = 0
    while 0.1**k >= precision / 10:
        for r in range(1, 10):
            dist[10 * k + r] = 0.1 ** (k + 1)
        k += 1
    return dist


def open_roll_distribution(precision: float = ODDS_PRECISION) -> dict[int, float]:
    """D2 exactly (to ``precision``): the distribution of luck° minus bad-luck°."""
    die = open_die_distribution(precision / 10)
    dist: dict[int, float] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            dist[a - b] = dist.get(a - b, 0.0) + pa * pb
    return dict(sorted(dist.items()))


def p_success(modifier: int, open_roll: bool = False, tie_succeeds: bool = True) -> float:
    """D5: the exact probability that a test with this total modifier succeeds.

    Args:
        modifier: The sum of the test's modifiers.
        open_roll: Use the open roll (D2), exact to :data:`ODDS_PRECISION`.
        tie_succeeds: D3's setting.
    """
    threshold = scalar.success_threshold(modifier, tie_succeeds)  # D3
    if not open_roll:
        return float(sum(p for x, p in roll_distribution().items() if x >= threshold))
    dist = _open_cache()
    return math.fsum(p for x, p in dist.items() if x >= threshold)


_OPEN: dict[int, float] = {}


def _open_cache() -> dict[int, float]:
    if not _OPEN:
        _OPEN.update(open_roll_distribution())
    return _OPEN


def odds_table(
    modifiers: Iterable[int] = range(-12, 13), open_roll: bool = False, tie_succeeds: bool = True
) -> list[dict[str, float | int]]:
    """D5's table: ``[{"modifier": m, "p_success": p}, ...]`` (CONTRACT.md ``odds --json``)."""
    return [{"modifier": m, "p_success": p_success(m, open_roll, tie_succeeds)} for m in modifiers]
