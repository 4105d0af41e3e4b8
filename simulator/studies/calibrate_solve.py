"""The search of ``calibrate``: every free key at once, for every target at once.

The search method is :func:`scipy.optimize.differential_evolution` over the free keys'
grids (:class:`~simulator.scenario.keys.Grid`), minimising the sum over targets of the
squared residual in tolerances, ``((reached - value) / tolerance) ** 2``: the compromise,
when the targets cannot all be met, is weighted by the tolerances. Why this method:

- the statistics are step functions of the keys (integer cells, minutes, thousandths) and,
  sampled, noisy: gradients (least squares, L-BFGS) see flat steps and noise; a
  population search needs neither;
- it takes integer and continuous keys together: integer cells are integer coordinates
  (``integrality=``), a duration's or a probability's coordinate runs continuously over its
  grid (in the logarithm when the range spans doublings) and is read on the grid's nearest
  value;
- a generation is evaluated as one batch (``vectorized=True``): under Monte Carlo one run
  of the same seeds per target for the whole generation (common random numbers: every
  evaluation compares like with like), and every point already evaluated is read from the
  cache (the grid makes repeats common, and Ctrl-C resumes from them);
- it is seeded (``rng=``): the same seed gives the same search, whatever the workers.

A few generations find the region; a compass search on the grid then polishes the best
point (scipy's polish needs gradients). Both stop as soon as a point meets every target (by
its estimate), or after :data:`MAX_ROUNDS` rounds each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.errors import UserError, phrase
from simulator.scenario.keys import Kind, notches
from simulator.studies.calibrate_file import Calibration, Free, Target, free_columns

if TYPE_CHECKING:
    from simulator.studies.statistic import Evaluator

MAX_ROUNDS = 12
"""Rounds at most of each phase of the search (evolution, then polish)."""

POPULATION = 5
"""Points per free key in each generation (scipy's ``popsize``)."""

Point = tuple[int, ...]
"""A point of the search: an index on each free key's grid."""


@dataclass(frozen=True)
class Reached:
    """A target's statistic at a point: its value and interval (``[p, p + dropped]`` exact).

    Attributes:
        stat: The value reached.
        low: The interval's low end.
        high: Its high end.
    """

    stat: float
    low: float
    high: float


def _log(free: Free) -> bool:
    return free.key.kind is Kind.DURATION and free.low > 0 and free.high / free.low >= 8


def coordinate_bounds(free: Free) -> tuple[float, float]:
    """The coordinate the optimiser moves for a key: its grid index, or [0, 1] (log)."""
    if free.key.kind is Kind.INTEGER:
        return 0.0, float(len(free.grid) - 1)
    return 0.0, 1.0


def index_of(free: Free, coordinate: float) -> int:
    """The grid index a coordinate stands for."""
    last = len(free.grid) - 1
    if free.key.kind is Kind.INTEGER:
        return int(min(max(round(coordinate), 0), last))
    u = min(max(coordinate, 0.0), 1.0)
    if _log(free):
        return free.grid.index_near(free.low * (free.high / free.low) ** u)
    return free.grid.index_near(free.low + u * (free.high - free.low))


@dataclass
class Search:
    """Evaluations of the targets at points, cached; the round-by-round record.

    Attributes:
        calibration: The free keys and targets.
        evaluator: :class:`~simulator.studies.method.Exact` or ``MonteCarlo``.
        cache: ``(point, target number) -> Reached``, the search's (resumed ones included).
        rows: Every evaluation in order, as ``evaluations.parquet`` holds them.
        on_round: Told ``(round, points, new, best)`` after each round.
        rounds: Rounds done.
        asked: The points this search has asked for so far, in order (a resumed evaluation
            counts once the search comes to its point, not before: the search then takes the
            same path, and finds the same answer, as one that was never interrupted).
    """

    calibration: Calibration
    evaluator: Evaluator
    cache: dict[tuple[Point, int], Reached] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    on_round: Callable[[int, int, int, Point], None] | None = None
    rounds: int = 0
    fresh: int = 0
    asked: dict[Point, None] = field(default_factory=dict)

    def rows_with(self, earlier: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows of an interrupted command (``earlier``), then this one's."""
        return [*earlier, *self.rows]

    def settings(self, point: Point) -> list[Any]:
        """The overrides that set the free keys to a point's values."""
        return [f.setting(i) for f, i in zip(self.calibration.free, point, strict=True)]

    def values(self, point: Point) -> list[float]:
        """A point's value of each free key."""
        return [f.value(i) for f, i in zip(self.calibration.free, point, strict=True)]

    def _record(self, phase: str, point: Point, target: Target, reached: Reached) -> None:
        row: dict[str, Any] = {"phase": phase, "round": self.rounds}
        row.update(free_columns(self.calibration.free, point))
        row.update(
            target=target.number,
            label=target.label,
            reached=reached.stat,
            low=reached.low,
            high=reached.high,
        )
        self.rows.append(row)

    def measure(
        self, evaluator: Evaluator, target: Target, sets: Sequence[Sequence[Any]]
    ) -> list[Reached]:
        """A target's statistic with each of several settings of the free keys."""
        scenarios = [target.build(s) for s in sets]
        try:
            found = evaluator(scenarios, target.stat)
        except UserError as exc:  # say where the search was (the exact engine's budget, say)
            index = getattr(exc, "index", 0 if len(sets) == 1 else None)
            if index is None:
                raise
            error = exc.phrase if exc.phrase is not None else str(exc)
            raise UserError(
                phrase(
                    "target {label}, with {settings}: {error}",
                    label=target.label,
                    settings=", ".join(s.text for s in sets[index]),
                    error=error,
                )
            ) from None
        return [Reached(e.stat, e.ci[0], e.ci[1]) for e in found]

    def evaluate(self, points: Sequence[Point]) -> list[list[Reached]]:
        """Every target at every point (cached points read back); one batch per target."""
        unique = list(dict.fromkeys(points))
        self.asked.update(dict.fromkeys(unique))
        for target in self.calibration.targets:
            missing = [p for p in unique if (p, target.number) not in self.cache]
            if not missing:
                continue
            found = self.measure(self.evaluator, target, [self.settings(p) for p in missing])
            for point, reached in zip(missing, found, strict=True):
                self.cache[point, target.number] = reached
                self._record("search", point, target, reached)
                self.fresh += 1
        return [[self.cache[p, t.number] for t in self.calibration.targets] for p in points]

    def cost(self, reached: Sequence[Reached]) -> float:
        """The squared residuals in tolerances, summed over targets."""
        return sum(
            ((r.stat - t.value) / t.tolerance) ** 2
            for r, t in zip(reached, self.calibration.targets, strict=True)
        )

    def met(self, reached: Sequence[Reached]) -> bool:
        """Whether every target is within its tolerance (by the estimate)."""
        return all(
            abs(r.stat - t.value) <= t.tolerance
            for r, t in zip(reached, self.calibration.targets, strict=True)
        )

    def evaluated(self) -> list[Point]:
        """Every point this search asked for, every target evaluated there, in order asked.

        Resumed evaluations the search has not come to yet are not among them: the best so far
        is the best of what this search saw, as if it had never been interrupted.
        """
        targets = [t.number for t in self.calibration.targets]
        return [p for p in self.asked if all((p, t) in self.cache for t in targets)]

    def best(self) -> Point:
        """The point of least cost evaluated (the first of equals, then the lowest indices)."""
        points = self.evaluated()
        return min(points, key=lambda p: (self.cost(self.evaluate([p])[0]), p))


def _round(search: Search, points: Sequence[Point]) -> list[list[Reached]]:
    """Evaluate one round of points and tell :attr:`Search.on_round`."""
    before = search.fresh
    reached = search.evaluate(points)
    search.rounds += 1
    if search.on_round is not None:
        search.on_round(search.rounds, len(set(points)), search.fresh - before, search.best())
    return reached


def _evolve(search: Search, seed: int, rounds: int) -> None:
    """The global phase: differential evolution over the grids, stopped once all are met."""
    from scipy.optimize import OptimizeResult, differential_evolution

    from simulator.errors import UserError

    free = search.calibration.free
    bounds = [coordinate_bounds(f) for f in free]
    integrality = [f.key.kind is Kind.INTEGER for f in free]

    failed: list[UserError] = []  # scipy wraps what its function raises: kept, raised after

    def objective(x: np.ndarray) -> np.ndarray:
        columns = x.reshape(len(free), -1)
        if failed:
            return np.full(columns.shape[1], np.inf)
        points = [
            tuple(index_of(f, float(c)) for f, c in zip(free, column, strict=True))
            for column in columns.T
        ]
        try:
            return np.array([search.cost(r) for r in _round(search, points)])
        except UserError as error:  # a limit met during the search (--max-states, --trials)
            failed.append(error)
            return np.full(columns.shape[1], np.inf)

    def stop(intermediate_result: OptimizeResult) -> None:
        del intermediate_result
        if failed or search.met(search.evaluate([search.best()])[0]):
            raise StopIteration

    with np.errstate(all="ignore"):
        differential_evolution(
            objective,
            bounds,
            maxiter=rounds,
            popsize=POPULATION,
            rng=np.random.default_rng(seed),
            integrality=integrality,
            vectorized=True,
            updating="deferred",
            polish=False,
            init="latinhypercube",
            tol=0.0,
            callback=stop,
        )
    if failed:
        raise failed[0]


def _polish(search: Search, rounds: int) -> None:
    """The local phase: from the best point, each key a step each way and to its ends.

    scipy's own polish (L-BFGS-B) needs gradients, which the grid's steps do not have, and
    is skipped with integer keys: this compass search on the grid takes its place. Each
    round is one batch (two neighbours per key); a round that finds nothing better halves
    the steps; it ends when every step is below one grid place, or every target is met.
    """
    free = search.calibration.free
    steps = [max(1, (len(f.grid) - 1) // 8) for f in free]
    for _ in range(rounds):
        best = search.best()
        if search.met(search.evaluate([best])[0]) or not any(steps):
            return
        here = search.cost(search.evaluate([best])[0])
        candidates = []
        for k, f in enumerate(free):
            moves = [min(max(best[k] + sign * steps[k], 0), len(f.grid) - 1) for sign in (-1, 1)]
            # each key at its range's ends too: a statistic is often flat over a long stretch
            # (no survival test falls before the horizon until a period crosses it), where
            # no small step sees the way out; the cache makes the ends free after once
            for index in (*moves, 0, len(f.grid) - 1) if steps[k] else ():
                point = (*best[:k], index, *best[k + 1 :])
                if index != best[k] and point not in candidates:
                    candidates.append(point)
        if not candidates:
            return
        reached = _round(search, candidates)
        if min(search.cost(r) for r in reached) >= here:
            steps = [s // 2 for s in steps]


def run_search(search: Search, seed: int, rounds: int = MAX_ROUNDS) -> Point:
    """Search the free keys' grids: differential evolution, then a compass polish on the grid.

    Args:
        search: The calibration, the evaluator and the cache (resumed evaluations in it).
        seed: The optimiser's seed (the same seed, the same search).
        rounds: Rounds at most of each phase.

    Returns:
        The best point evaluated (least cost; the lowest indices among equals).
    """
    _evolve(search, seed, rounds)
    _polish(search, rounds)
    return search.best()


@dataclass(frozen=True)
class Notch:
    """One target's move for one notch of one free key at the solution.

    Attributes:
        key: The free key.
        target: The target's number.
        per_notch: ``(up - down) / 2`` (or the one side there is); None with neither.
        down: The value one notch down, or None.
        up: One notch up, or None.
    """

    key: str
    target: int
    per_notch: float | None
    down: float | None
    up: float | None


def sensitivity(search: Search, evaluator: Evaluator, point: Point) -> list[Notch]:
    """Each target's move per notch of each free key at ``point`` (the same seeds).

    A notch may leave the free range (one notch past its end) when the scenario takes it;
    one the scenario refuses is left out (None).
    """
    from simulator.errors import UserError

    cal = search.calibration
    base = search.evaluate([point])[0]
    result = []
    for k, free in enumerate(cal.free):
        value = free.value(point[k])
        down, up = notches(free.key.kind, value)
        sides: dict[str, float | None] = {"down": down, "up": up}
        moved: dict[str, list[Reached] | None] = {}
        for side, at in sides.items():
            if at is None:
                moved[side] = None
                continue
            sets = search.settings(point)
            sets[k] = free.key.setting(at)
            try:
                found = [search.measure(evaluator, t, [sets])[0] for t in cal.targets]
            except UserError:  # a notch the scenario cannot take (a level below its minimum)
                found = None
                sides[side] = None
            moved[side] = found
        for t, target in enumerate(cal.targets):
            lo, hi = moved["down"], moved["up"]
            if lo is not None and hi is not None:
                per = (hi[t].stat - lo[t].stat) / 2
            elif hi is not None:
                per = hi[t].stat - base[t].stat
            elif lo is not None:
                per = base[t].stat - lo[t].stat
            else:
                per = None
            result.append(Notch(free.key.name, target.number, per, sides["down"], sides["up"]))
    return result


def conflicts(
    targets: Sequence[Target], reached: Sequence[float], notches_found: Sequence[Notch]
) -> list[dict[str, Any]]:
    """Which targets pull against each target not met, and on which keys.

    A target ``j`` pulls against an unmet target ``i`` on a key when the notch that brings
    ``i`` nearer its value takes ``j`` away from its own (or off it, when ``j`` is on it).
    """
    per = {(n.key, n.target): n.per_notch for n in notches_found}
    keys = list(dict.fromkeys(n.key for n in notches_found))
    found = []
    for i, ti in enumerate(targets):
        ri = reached[i] - ti.value
        if abs(ri) <= ti.tolerance:
            continue
        against: dict[int, list[str]] = {}
        for key in keys:
            si = per.get((key, i))
            if not si:
                continue
            direction = -math.copysign(1.0, ri) * math.copysign(1.0, si)  # the notch i wants
            for j, tj in enumerate(targets):
                sj = per.get((key, j))
                if j == i or not sj:
                    continue
                rj = reached[j] - tj.value
                after = abs(rj + direction * sj)
                if after > abs(rj):
                    against.setdefault(j, []).append(key)
        for j, ks in against.items():
            found.append({"target": i, "against": j, "keys": ks})
    return found


__all__ = [
    "MAX_ROUNDS",
    "Notch",
    "Reached",
    "Search",
    "conflicts",
    "run_search",
    "sensitivity",
]
