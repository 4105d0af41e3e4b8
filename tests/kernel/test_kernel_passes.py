"""A run's length and R2's neglect gap, partly without libm's log: the same number (issue 29).

:func:`simulator.kernel.decisions.passes` skips the log of a geometric draw when the draw lies
above the chance by a margin (:data:`~simulator.kernel.decisions.NONE_PASS`), or between two
successive powers of the chance by margins (:data:`~simulator.kernel.decisions.SOME_PASS`
below the upper one, up to :data:`~simulator.kernel.decisions.BANDS`); it must give
:func:`~simulator.kernel.decisions.passes_from_log`'s number for every draw, at the margins'
edges above all. R2's neglect gap is put off at a lower bound computed without the log
(:func:`~simulator.kernel.events.gap_at_least`), which must never lie above the gap
(:func:`~simulator.kernel.decisions.geometric_from_log`), checked one unit of the last place
apart around each whole quotient, for chances from 5e-324 to 1 - 2**-52.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from simulator.kernel.decisions import (
    BANDS,
    NONE_PASS,
    SOME_PASS,
    geometric_from_log,
    passes,
    passes_from_log,
)
from simulator.kernel.events import gap_at_least
from simulator.kernel.jit import COMPILED


def _chances() -> list[float]:
    """Chances from the tiniest to the nearest to 1, and a few thousand drawn in between."""
    rng = np.random.default_rng(29)
    fixed = [5e-324, 1e-300, 1e-12, 0.001, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999999]
    fixed += [1.0 - 2.0**-52, 1.0 - 2.0**-40, 1.0 - 2.0**-20]
    return fixed + list(rng.random(2000)) + list(10.0 ** -rng.uniform(0, 300, 500))


def _edges(p: float) -> list[float]:
    """Each power of ``p`` that bounds a band read without the log, and its margins."""
    edges = []
    power = p
    for _ in range(BANDS):  # p, p**2, ... p**BANDS: the bands' edges, from both sides
        edges += [power, power * NONE_PASS, power * (1.0 + 2.0**-40), power * SOME_PASS]
        edges += [power * (1.0 - 2.0**-40)]
        power *= p
    return edges


def _draws(p: float, around: int = 64) -> list[float]:
    """Draws on both sides of each edge and margin, one unit of the last place apart."""
    out = []
    for edge in _edges(p):
        u = edge
        for _ in range(around):
            u = math.nextafter(u, 0.0)
        for _ in range(2 * around):
            out.append(u)
            u = math.nextafter(u, 2.0)
    out += [1.0, 2.0 * p, p / 2.0, p**2.5, p**3.5]
    return [u for u in out if 2.0**-53 <= u <= 1.0]  # the draws of 1 - uniform


def _both(us: np.ndarray, ps: np.ndarray, shortcut: np.ndarray, logged: np.ndarray) -> None:
    """Each draw's passes, by :func:`passes` and by :func:`passes_from_log`."""
    for i in range(us.shape[0]):
        log_p = math.log(ps[i])
        shortcut[i] = passes(us[i], ps[i], log_p)
        logged[i] = passes_from_log(us[i], log_p)


def _compiled() -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], None]:
    """:func:`_both`, compiled where the kernel is: its functions then have no wrapper for
    Python callers, and are called from compiled code, as the kernel calls them."""
    if not COMPILED:
        return _both
    from numba import njit

    return njit(_both)  # type: ignore[no-any-return]


both = _compiled()


def _compare(us: list[float], ps: list[float]) -> None:
    u, p = np.array(us), np.array(ps)
    shortcut, logged = np.empty_like(u), np.empty_like(u)
    both(u, p, shortcut, logged)
    differ = np.flatnonzero(shortcut != logged)
    assert differ.size == 0, [(u[i], p[i], shortcut[i], logged[i]) for i in differ[:5]]


def test_a_run_without_its_log_is_the_run_with_it() -> None:
    """Every draw near a chance and its margins: the same number of passes, log or not."""
    us, ps = [], []
    for p in _chances():
        draws = _draws(p, 16)
        us += draws
        ps += [p] * len(draws)
    assert len(us) > 500_000
    _compare(us, ps)


def test_no_pass_is_read_without_the_log_only_beyond_the_margin() -> None:
    """Just above the chance, within the margin, the log decides (it may say 1 there)."""
    p = 0.3
    inside = p * (1.0 + 2.0**-45)
    assert not inside > p * NONE_PASS
    _compare([inside], [p])


def _crossings(log_b: float) -> list[float]:
    """Where log(x) / log_b is whole (x = b**n, by ``exp``) for some n from 1 to where x
    falls below 2**-53."""
    out = []
    n, top = 1.0, min(53.0 * math.log(2.0) / -log_b, 2.0**60)
    while n <= top:
        x = math.exp(n * log_b)
        out.append(x)
        n = n + 1.0 if n < 40 else math.floor(n * 1.37)
    return out


def _compile(fn: Callable[..., None]) -> Callable[..., None]:
    """``fn`` compiled where the kernel is (see :func:`_compiled`)."""
    if not COMPILED:
        return fn
    from numba import njit

    return njit(fn)  # type: ignore[no-any-return]


def _grid(xs: list[float], steps: int) -> list[float]:
    """The draws ``1 - uniform`` that the kernel makes nearest each of ``xs`` (on the 2**-53
    grid), and ``steps`` grid points on each side."""
    near = {round(x * 2.0**53) + i for x in xs for i in range(-steps, steps + 1)}
    return sorted(k / 2.0**53 for k in near if 1 <= k <= 2**53)


def _gap_draws() -> tuple[list[float], list[float]]:
    """R2's draws nearest each whole quotient of the gap, with the log of each chance's q."""
    us: list[float] = []
    logs: list[float] = []
    for p in _chances()[::4]:
        if p < 1.0:
            log_q = math.log1p(-p)
            grid = _grid(_crossings(log_q), 8)
            us += [1.0 - x for x in grid]
            logs += [log_q] * len(grid)
    return us, logs


def _bounds(us: np.ndarray, logs: np.ndarray, bound: np.ndarray, logged: np.ndarray) -> None:
    """Each draw's gap by libm and :func:`~simulator.kernel.events.gap_at_least`'s bound."""
    for i in range(us.shape[0]):
        bound[i] = gap_at_least(us[i], logs[i])
        logged[i] = geometric_from_log(us[i], logs[i])


bounds = _compile(_bounds)


def test_a_neglect_gaps_bound_without_the_log_is_never_above_it() -> None:
    """R2's gap put off (:func:`~simulator.kernel.events.defer_gap`): its lower bound, for the
    draws nearest each whole quotient and a few hundred thousand drawn, is never above the
    gap; for ``careless_watches``' chance of 0.05, it is the gap for about half the draws."""
    us, logs = _gap_draws()
    rng = np.random.default_rng(11)
    drawn = list(np.floor(rng.random(200_000) * 2.0**53) / 2.0**53)
    us += [*drawn, 0.0, 2.0**-53, 1.0 - 2.0**-53]
    logs += [math.log1p(-0.05)] * (len(drawn) + 3)
    u, bases = np.array(us), np.array(logs)
    bound, logged = np.empty_like(u), np.empty_like(u)
    with np.errstate(all="ignore"):  # plain Python: a chance of 5e-324 waits forever
        bounds(u, bases, bound, logged)
    above = np.flatnonzero(bound > logged)
    assert above.size == 0, [(u[i], bases[i], bound[i], logged[i]) for i in above[:5]]
    assert (bound == logged)[-len(drawn) - 3 :].mean() > 0.4
