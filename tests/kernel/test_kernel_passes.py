"""A run's length without its log where zero to three tests pass: the same number (issue 29).

:func:`simulator.kernel.decisions.passes` skips the log of a geometric draw when the draw lies
above the chance by a margin (:data:`~simulator.kernel.decisions.NONE_PASS`), or between two
successive powers of the chance by margins (:data:`~simulator.kernel.decisions.SOME_PASS`
below the upper one, up to :data:`~simulator.kernel.decisions.BANDS`); it must give
:func:`~simulator.kernel.decisions.passes_from_log`'s number for every draw, at the margins'
edges above all.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from simulator.kernel.decisions import BANDS, NONE_PASS, SOME_PASS, passes, passes_from_log
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
