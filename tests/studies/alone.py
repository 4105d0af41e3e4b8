"""What the ``balance``, ``sensitivity`` and kept-evaluation tests share: one scenario, one method.

A lone grave wound with nobody to help, read within a day (:func:`grave_alone`): its
survival tests fall every unstable period (S2), so its odds are worked out by hand; written
into a test's folder by :func:`write`; studied by Monte Carlo on one worker
(:func:`one_worker`), so that the numbers are the same on every machine.
"""

from __future__ import annotations

from pathlib import Path

from simulator.studies.method import MonteCarlo
from tests.support import one_wound


def grave_alone(cp_rs: int = 6, period: str = "2h") -> str:
    """A scenario file's text: one grave wound from the start, its unstable period ``period``."""
    return one_wound("Alone with a grave wound", cp_rs=cp_rs, period=period)


def write(tmp_path: Path, text: str, name: str = "s.toml") -> str:
    """Write ``text`` as the scenario file ``name`` in ``tmp_path``; its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_worker(trials: int, seed: int) -> MonteCarlo:
    """Monte Carlo of ``trials`` on ``seed``, on one worker (used ``with``: closed after)."""
    return MonteCarlo(trials=trials, seed=seed, workers=1)
