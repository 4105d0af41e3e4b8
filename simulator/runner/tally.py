"""What a study's summary and figures need of its trials, merged chunk by chunk.

A :class:`Tally` holds, for the trials of one or more chunks: how many ended in each outcome,
how many died of each cause (Q3), the sum of every count, how many trials had each number of
aggravations, and the times of the curves' events (death, incoherence, healing, first
stabilisation, death of each cause) as exact value counts (:class:`ValueCounts`). Tallies
merge in any order and give the same numbers: the summary's shares, means and medians and
every curve come out exactly as from the whole ``trials`` frame
(:mod:`simulator.studies.frames`).

The memory of a tally does not grow with the trials but with the distinct times of its
events: the engines put events on a grid of campaign time (a watch's steps), so a 60-day
campaign has a few hundred thousand distinct times at most, whatever the trials. A scenario
whose times were all distinct would keep one value and one count per event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from simulator.engine.record import COUNT_FIELDS
from simulator.rules.cause import CAUSES, DEATH_CAUSES
from simulator.rules.outcome import OUTCOMES

__all__ = ["EVENTS", "EVENT_SPECS", "EventSpec", "Tally", "ValueCounts"]

_DEAD = OUTCOMES.index("dead")
_HEALED = OUTCOMES.index("healed")
_CAUSE_CODE = {c: i + 1 for i, c in enumerate(CAUSES)}  # 0: no cause (Cause.NONE)


@dataclass(frozen=True)
class EventSpec:
    """An event of the curves: the finite times of one column, in the trials that qualify.

    Attributes:
        name: The event's name (:data:`EVENTS`).
        column: The record's time column.
        outcome: Only trials of this outcome code (-1: any).
        cause: Only trials of this cause code (-1: any).
    """

    name: str
    column: str
    outcome: int = -1
    cause: int = -1


EVENT_SPECS = (
    EventSpec("dead", "death_h"),
    EventSpec("incoherent", "incoherent_h"),
    EventSpec("healed", "healed_h", outcome=_HEALED),
    EventSpec("stabilised", "first_stable_h"),
    *(EventSpec(f"dead_{c}", "death_h", cause=_CAUSE_CODE[c]) for c in DEATH_CAUSES),
)
"""Each event's times, as :meth:`Tally.of` and the compiled digest
(:func:`simulator.runner.compact.kernel_chunk`) both pick them."""

EVENTS = tuple(e.name for e in EVENT_SPECS)
"""The events of the curves (:func:`simulator.studies.frames.event_times`' keys)."""


@dataclass
class ValueCounts:
    """A multiset of finite floats: its sorted distinct values and how often each came.

    Chunks are added as they come and put together only when the added ones outweigh the
    settled ones, so that adding costs, over a whole run, a few sorts of the distinct values.
    """

    _values: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))
    _counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    _pending: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list, repr=False)
    _waiting: int = 0

    @classmethod
    def of(cls, values: np.ndarray) -> ValueCounts:
        """The value counts of the finite values of an array."""
        x = np.asarray(values, dtype=np.float64)
        x = x[np.isfinite(x)]
        found, counts = np.unique(x, return_counts=True)
        return cls(found, counts.astype(np.int64))

    def add(self, other: ValueCounts) -> None:
        """Add another multiset to this one."""
        other.settle()
        if other._values.size == 0:
            return
        self._pending.append((other._values, other._counts))
        self._waiting += other._values.size
        if self._waiting > max(1 << 16, 2 * self._values.size):
            self.settle()

    def settle(self) -> None:
        """Put the added values together with the settled ones (sorted, distinct)."""
        if not self._pending:
            return
        values = np.concatenate([self._values, *(v for v, _ in self._pending)])
        counts = np.concatenate([self._counts, *(c for _, c in self._pending)])
        self._pending, self._waiting = [], 0
        order = np.argsort(values, kind="stable")
        values, counts = values[order], counts[order]
        starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
        self._values = values[starts]
        self._counts = np.add.reduceat(counts, starts) if values.size else counts

    @property
    def values(self) -> np.ndarray:
        """The distinct values, sorted."""
        self.settle()
        return self._values

    @property
    def counts(self) -> np.ndarray:
        """How many times each of :attr:`values` came."""
        self.settle()
        return self._counts

    @property
    def total(self) -> int:
        """How many values in all."""
        return int(self.counts.sum())

    def count_le(self, times: np.ndarray) -> np.ndarray:
        """How many values are ``<= t``, for each ``t`` of ``times`` (int64)."""
        cumulative = np.r_[0, np.cumsum(self.counts)]
        found: np.ndarray = cumulative[np.searchsorted(self.values, times, side="right")]
        return found.astype(np.int64)

    def median(self, scale: float = 1.0) -> float | None:
        """The median of the values divided by ``scale``, as :func:`numpy.median` gives it.

        None when there are none.
        """
        n = self.total
        if n == 0:
            return None
        values = self.values / scale if scale != 1.0 else self.values
        cumulative = np.cumsum(self.counts)

        def at(rank: int) -> np.float64:  # the value of rank ``rank`` (0-based) once sorted
            return np.float64(values[int(np.searchsorted(cumulative, rank, side="right"))])

        if n % 2:
            return float(at(n // 2))
        return float((at(n // 2 - 1) + at(n // 2)) / 2)


@dataclass
class Tally:
    """The numbers of a study's trials that its summary and figures need (see the module).

    Attributes:
        n: Trials.
        outcomes: Trials per outcome, in :data:`~simulator.rules.outcome.OUTCOMES`' order.
        dead_causes: Dead trials per cause code (0: none, then
            :data:`~simulator.rules.cause.CAUSES`' order).
        sums: The sum of each count of :data:`~simulator.engine.record.COUNT_FIELDS`.
        aggravations: Trials per number of aggravations (index: the number).
        events: The times of each event of :data:`EVENTS`.
    """

    n: int = 0
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros(len(OUTCOMES), np.int64))
    dead_causes: np.ndarray = field(default_factory=lambda: np.zeros(len(CAUSES) + 1, np.int64))
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_FIELDS, 0))
    aggravations: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    events: dict[str, ValueCounts] = field(
        default_factory=lambda: {name: ValueCounts() for name in EVENTS}
    )

    @classmethod
    def of(cls, columns: Mapping[str, np.ndarray]) -> Tally:
        """The tally of one chunk's compact columns (:mod:`simulator.runner.compact`)."""
        outcome = np.asarray(columns["outcome"])
        cause = np.asarray(columns["cause"])
        n = int(outcome.size)
        dead_cause = cause[outcome == _DEAD]
        aggravations = np.asarray(columns["aggravations"]).astype(np.int64)
        events = {}
        for event in EVENT_SPECS:
            times = np.asarray(columns[event.column], dtype=np.float64)
            if event.outcome >= 0:
                times = times[outcome == event.outcome]
            if event.cause >= 0:
                times = times[cause == event.cause]
            events[event.name] = ValueCounts.of(times)
        return cls(
            n=n,
            outcomes=np.bincount(outcome.astype(np.int64), minlength=len(OUTCOMES)),
            dead_causes=np.bincount(dead_cause.astype(np.int64), minlength=len(CAUSES) + 1),
            sums={
                name: int(np.asarray(columns[name]).sum(dtype=np.int64)) for name in COUNT_FIELDS
            },
            aggravations=np.bincount(aggravations) if n else np.zeros(1, np.int64),
            events=events,
        )

    def add(self, other: Tally) -> None:
        """Merge another tally into this one (any order gives the same numbers)."""
        self.n += other.n
        self.outcomes = self.outcomes + other.outcomes
        self.dead_causes = self.dead_causes + other.dead_causes
        for name, value in other.sums.items():
            self.sums[name] = self.sums.get(name, 0) + value
        size = max(self.aggravations.size, other.aggravations.size)
        both = np.zeros(size, np.int64)
        both[: self.aggravations.size] += self.aggravations
        both[: other.aggravations.size] += other.aggravations
        self.aggravations = both
        for name, counts in other.events.items():
            self.events.setdefault(name, ValueCounts()).add(counts)

    def count(self, outcome: str) -> int:
        """Trials that ended with ``outcome``."""
        return int(self.outcomes[OUTCOMES.index(outcome)])

    def dead_of(self, cause: str) -> int:
        """Dead trials of one cause of Q3."""
        return int(self.dead_causes[_CAUSE_CODE[cause]])

    def mean(self, name: str) -> float:
        """The mean of one count over the trials (as pandas gives it: the exact sum over n)."""
        return float(self.sums[name] / self.n) if self.n else float("nan")
