"""Where chunks of trials run: local processes (default) or a Dask cluster (optional extra).

A backend maps :class:`~simulator.runner.chunks.ChunkJob` s to
:class:`~simulator.runner.compact.Chunk` s (compact columns and their tally). Every trial's
random stream depends only on the scenario seed and the trial index, so results never depend
on the backend, the number of workers or the chunking.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, get_args

if TYPE_CHECKING:
    from simulator.runner.chunks import ChunkJob
    from simulator.runner.compact import Chunk

__all__ = ["BACKENDS", "Backend", "BackendName"]


BackendName = Literal["local", "dask"]
"""The backends by name: ``local`` (processes here, the default) or ``dask`` (a cluster)."""

BACKENDS: tuple[BackendName, ...] = get_args(BackendName)
"""Every backend's name, the default first."""


class Backend(Protocol):
    """Runs chunks somewhere and yields each one's chunk of trials as it completes."""

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, Chunk]]:
        """Run every job; yield ``(job, chunk)`` pairs in completion order."""
        ...

    def close(self) -> None:
        """Release workers, clusters and clients."""
        ...
