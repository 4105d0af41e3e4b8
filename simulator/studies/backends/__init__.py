"""Where chunks of trials run: local processes (default) or a Dask cluster (optional extra).

A backend maps :class:`ChunkJob` s to trial frames. Every trial's random stream depends
only on the scenario seed and the trial index, so results never depend on the backend, the
number of workers or the chunking.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from simulator.scenario.model import Scenario


@dataclass(frozen=True)
class ChunkJob:
    """Trials ``start`` (included) to ``stop`` (excluded) of one scenario.

    Attributes:
        key: Which study the chunk belongs to (e.g. a sweep point's index), opaque here.
        scenario: The scenario to run (picklable, self-contained: no files are read).
        seed: The study's seed; trial ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``.
        start: First trial index.
        stop: One past the last trial index.
    """

    key: str
    scenario: Scenario
    seed: int
    start: int
    stop: int


class Backend(Protocol):
    """Runs chunks somewhere and yields each one's trials frame as it completes."""

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, pd.DataFrame]]:
        """Run every job; yield ``(job, frame)`` pairs in completion order."""
        ...

    def close(self) -> None:
        """Release workers, clusters and clients."""
        ...
