"""What the exact engine gives: plain numbers and distributions, no pandas.

The four outcome probabilities sum to ``1 - dropped``. ``times[outcome]`` maps a campaign
time (integer microseconds) to the probability of ending with that outcome at that time (for
``healed``, the time the patient last became wound-free, G5; for ``wounded``, the horizon).
``stabilised`` maps the time of the first stabilisation to its probability; ``causes[cause]``
the time of a death (or incoherent end, ``mental``) of that cause (Q3) to its probability.
``expected`` holds the expected counts of Q1 (``aggravations``, ``survival_tests``...).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

from simulator.rules.cause import CAUSES
from simulator.rules.outcome import OUTCOMES, Count

US_PER_HOUR = 3_600_000_000


COUNTS = tuple(Count)
"""The counts of Q1 whose expectations the exact engine gives: every :class:`Count`."""

CURVE_STATES = ("dead", "incoherent", "wounded", "healed", "stabilised")

ROUNDING = 1e-13
"""How far from 0 or 1 a share summed or subtracted in floats may land by rounding alone.

The engine adds thousands of masses: the four outcomes and the dropped mass sum to 1 within
some 40 units of the last place of 1 (1e-14) in the project's scenarios; 1e-13 leaves room
for larger ones, and stays ten times below the default ``eps`` (1e-12), the smallest state
the engine carries. Nothing closer to 0 or 1 than this can be told from rounding."""


def summed_share(p: float) -> float:
    """A share summed from many probabilities, 1 when only rounding keeps it from 1.

    ``0.9999999999999986`` (or ``1.0000000000000002``) is 1: within :data:`ROUNDING` of
    it; anything farther is kept.
    """
    return 1.0 if abs(1.0 - p) <= ROUNDING else p


def rest_share(p: float) -> float:
    """A share computed as what is left (``1 - dropped - dead - ...``), its rounding cleaned.

    Within :data:`ROUNDING` of 0 it is 0 (``4.4e-16`` is the leftover of the subtractions,
    not a share), within it of 1 it is 1; never negative.
    """
    return 0.0 if p <= ROUNDING else summed_share(p)


@dataclass
class ExactAnswer:
    """The exact answer of one scenario.

    Attributes:
        horizon_s: The scenario's horizon in seconds.
        eps: The threshold below which states were dropped.
        outcomes: Probability of each outcome (Q1).
        times: Per outcome, ``{time_us: probability}``.
        stabilised: ``{time_us: probability}`` of the first stabilisation.
        causes: Per cause of Q3, ``{time_us: probability}`` of the ends of that cause.
        expected: Expected counts per trial.
        dropped: Probability mass dropped (states below ``eps``, open roll's truncation).
        states: The states taken through one event each (the measure of the work).
        carried: The states carried as ``max_states`` counts them: the most, at any check,
            of those taken through an event so far and those waiting. The summary's
            ``states``: ``--max-states`` set to it lets the same computation through.
        peak: The most states held at once.
        seconds: Wall time of the computation.
    """

    horizon_s: float
    eps: float
    outcomes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0.0))
    times: dict[str, dict[int, float]] = field(
        default_factory=lambda: {name: {} for name in OUTCOMES}
    )
    stabilised: dict[int, float] = field(default_factory=dict)
    causes: dict[str, dict[int, float]] = field(
        default_factory=lambda: {name: {} for name in CAUSES}
    )
    expected: dict[Count, float] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0.0))
    dropped: float = 0.0
    states: int = 0
    carried: int = 0
    peak: int = 0
    seconds: float = 0.0

    @property
    def horizon_h(self) -> float:
        """The horizon in hours."""
        return self.horizon_s / 3600.0

    def p(self, outcome: str) -> float:
        """The probability of an outcome (``dead``, ``healed``, ``wounded``, ``incoherent``).

        A sum within rounding of 1 is 1 (:func:`summed_share`).
        """
        return summed_share(self.outcomes[outcome])

    def interval(self, outcome: str) -> list[float]:
        """``[p, p + dropped]`` clipped to [0, 1]: where the true probability lies."""
        p = self.p(outcome)
        return [min(1.0, max(0.0, p)), summed_share(min(1.0, p + self.dropped))]

    def p_cause(self, cause: str) -> float:
        """The probability of ending (dead, or incoherent for ``mental``) of a cause (Q3)."""
        return summed_share(math.fsum(self.causes[cause].values()))

    def by_cause(self, cause: str, hours: float) -> float:
        """The share of trials ended of ``cause`` by campaign time ``hours``."""
        limit = round(hours * US_PER_HOUR)
        return summed_share(math.fsum(p for t, p in self.causes[cause].items() if t <= limit))

    def _cumulative(self, dist: dict[int, float]) -> tuple[list[float], list[float]]:
        keys = sorted(dist)
        hours = [k / US_PER_HOUR for k in keys]
        cum, acc = [], 0.0
        for k in keys:
            acc += dist[k]
            cum.append(acc)
        return hours, cum

    def by(self, state: str, hours: float) -> float:
        """The share of trials in ``state`` by campaign time ``hours`` (as the curves read).

        ``dead``, ``incoherent``, ``healed`` (ended healed, wound-free since at most
        ``hours``) and ``stabilised`` (ever stabilised) accumulate; ``wounded`` is the rest
        (of the mass not dropped), 0 when only the subtractions' rounding is left
        (:func:`rest_share`).

        Raises:
            ValueError: For a time outside [0, horizon] or an unknown state.
        """
        if not (0.0 <= hours <= self.horizon_h + 1e-9):
            raise ValueError(
                f"time: got {hours!r} h; expected hours from 0 to the horizon ({self.horizon_h:g})"
            )
        if state == "wounded":
            kept = 1.0 - self.dropped
            return rest_share(
                kept - sum(self.by(s, hours) for s in ("dead", "incoherent", "healed"))
            )
        if state == "stabilised":
            dist = self.stabilised
        elif state in ("dead", "incoherent", "healed"):
            dist = self.times[state]
        else:
            raise ValueError(f"state: got {state!r}; expected one of {CURVE_STATES}")
        limit = round(hours * US_PER_HOUR)
        return summed_share(math.fsum(p for t, p in dist.items() if t <= limit))

    def median_hours(self, outcome: str) -> float | None:
        """The median time of an outcome given that outcome, in hours; None when impossible.

        The median of a discrete distribution, as :func:`numpy.median` reads a sample: the
        mean of the two middle values when the cumulative probability sits exactly at 1/2.
        """
        total = self.outcomes[outcome]
        if total <= 0.0:
            return None
        hours, cum = self._cumulative(self.times[outcome])
        half = total / 2.0
        i = bisect.bisect_left(cum, half * (1 - 1e-12))
        i = min(i, len(hours) - 1)
        if abs(cum[i] - half) <= 1e-12 * total and i + 1 < len(hours):
            return (hours[i] + hours[i + 1]) / 2.0
        return hours[i]

    def mean(self, count: str) -> float:
        """The expected value of one of Q1's counts (a :class:`Count` or its name)."""
        return self.expected[Count(count)]
