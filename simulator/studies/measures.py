"""What a study's estimate needs of the result that holds it, and the names of Q3's shares.

A leaf of ``studies``: :mod:`simulator.studies.sampled` and :mod:`simulator.studies.solved`
write through a :class:`Written` (which :class:`~simulator.studies.result.StudyResult` is)
instead of importing the result that imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from simulator.rules.cause import DEATH_CAUSES

if TYPE_CHECKING:
    import pandas as pd

    from simulator.rules.outcome import Summary
    from simulator.scenario.model import Scenario

CAUSE_MEASURES = tuple(f"p_dead_{cause}" for cause in DEATH_CAUSES)
"""Q3: the share dead of each cause, as a comparison names it (``p_dead_wound``)."""


class Written(Protocol):
    """The face of a study's result that its estimate writes and draws from."""

    scenario: Scenario

    @property
    def title(self) -> str:
        """The scenario's name, with the overrides when there are some."""
        ...

    @property
    def summary(self) -> pd.DataFrame:
        """The summary as a one-row frame."""
        ...

    def summary_json(self) -> Summary:
        """The JSON summary of CONTRACT.md."""
        ...

    def curves(self, points: int = 200, *, times: Sequence[float] | None = None) -> pd.DataFrame:
        """Shares dead, incoherent, wounded, healed and stabilised over campaign time."""
        ...


__all__ = ["CAUSE_MEASURES", "Written"]
