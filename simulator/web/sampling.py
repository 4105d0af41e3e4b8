"""The workbench's trials: in the server's process, or on the runner's workers kept warm.

Both give the chunks of trials ``0 .. trials-1`` of a seed as they finish
(:func:`chunks`): the very trials of ``harmonies-sim run`` with that seed, since trial ``i``
draws from ``SeedSequence(seed, spawn_key=(i,))`` whatever the chunk or worker. With one
core to spare or fewer, chunks run in the server's process, one after the other, each sized
to take about :data:`CHUNK_SECONDS`; with more, on the runner's own backend
(:class:`~simulator.runner.backends.local.LocalBackend`, kept for the server's life: the
compiled kernel's chunks run on its threads, which release the interpreter), at most two
chunks per worker in flight, as ``run``'s. A newer edit stops the older one between chunks:
no further chunk is started (those running finish, a fraction of a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator, Callable

import pandas as pd
from starlette.concurrency import run_in_threadpool

from simulator.runner.backends.local import LocalBackend
from simulator.runner.chunks import ChunkJob
from simulator.runner.trials import columns_to_frame
from simulator.scenario.model import Scenario

FIRST_CHUNK = 250
"""Trials of the first chunk: a first number in a few hundredths of a second."""

CHUNK_SECONDS = 0.2
"""In the server's process, later chunks are sized to take about this long."""

MAX_CHUNK = 5_000

POOL_CHUNK = 1_000
"""Trials per chunk in the pool (after a first round of :data:`FIRST_CHUNK`)."""


def default_workers() -> int:
    """Workers: every core but one (the server's), none on two cores or fewer."""
    count = os.cpu_count() or 1
    return count - 1 if count > 2 else 0


class Pool:
    """The runner's backend, kept for the server's life.

    Args:
        workers: How many (at least 2; fewer is the server's own process, no pool).
    """

    def __init__(self, workers: int):
        self.workers = workers
        self.backend = LocalBackend(workers)

    def warm(self, scenario: Scenario) -> None:
        """Ready every worker (the compiled kernel loaded) with a few trials of ``scenario``."""
        jobs = [ChunkJob("warm", scenario, 0, i, i + 1) for i in range(self.workers)]
        for _ in self.backend.map_chunks(jobs):
            pass

    def close(self) -> None:
        """Stop the workers."""
        self.backend.close()


def _run_chunk(scenario: Scenario, seed: int, start: int, stop: int) -> pd.DataFrame:
    from simulator.runner.chunks import run_chunk

    return run_chunk(scenario, seed, start, stop)


async def _here(
    scenario: Scenario, seed: int, trials: int, current: Callable[[], bool]
) -> AsyncIterator[pd.DataFrame]:
    done, size = 0, min(FIRST_CHUNK, trials)
    while done < trials and current():
        started = time.perf_counter()
        stop = min(trials, done + size)
        yield await run_in_threadpool(_run_chunk, scenario, seed, done, stop)
        rate = (stop - done) / max(time.perf_counter() - started, 1e-6)
        done, size = stop, int(min(MAX_CHUNK, max(FIRST_CHUNK, rate * CHUNK_SECONDS)))


def _plan(trials: int, workers: int) -> list[tuple[int, int]]:
    """The chunks: a first round of small ones (first numbers soon), then bigger ones."""
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < trials:
        size = FIRST_CHUNK if len(bounds) < workers else POOL_CHUNK
        bounds.append((start, min(trials, start + size)))
        start = bounds[-1][1]
    return bounds


async def _pooled(
    pool: Pool, scenario: Scenario, seed: int, trials: int, current: Callable[[], bool]
) -> AsyncIterator[pd.DataFrame]:
    """The chunks on the runner's backend (its ``map_chunks``, in completion order).

    The backend's iterator runs in a thread of its own, which hands each chunk's frame to
    this loop; once ``current()`` turns false (or the page goes), the iterator is closed, and
    the backend starts no further chunk.
    """
    jobs = [ChunkJob("page", scenario, seed, *bounds) for bounds in _plan(trials, pool.workers)]
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[pd.DataFrame | BaseException | None] = asyncio.Queue()
    stop = threading.Event()

    def hand(item: pd.DataFrame | BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is reading
            loop.call_soon_threadsafe(frames.put_nowait, item)

    def feed() -> None:
        chunks = pool.backend.map_chunks(jobs)
        try:
            for job, chunk in chunks:
                if stop.is_set():
                    break
                assert chunk.columns is not None
                hand(columns_to_frame(chunk.columns, job.start, job.seed))
        except BaseException as exc:  # raised in the loop, where the page's answer is made
            hand(exc)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # the chunks not yet started are not run
            hand(None)

    thread = threading.Thread(target=feed, name="page-chunks", daemon=True)
    thread.start()
    try:
        while (item := await frames.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
            if not current():
                return
    finally:
        stop.set()


def chunks(
    pool: Pool | None, scenario: Scenario, seed: int, trials: int, current: Callable[[], bool]
) -> AsyncIterator[pd.DataFrame]:
    """The frames of trials ``0 .. trials-1`` of ``seed``, by chunks, as they finish.

    In completion order (sort by ``trial`` once all have come); stops early, quietly, when
    ``current()`` turns false.
    """
    if pool is None:
        return _here(scenario, seed, trials, current)
    return _pooled(pool, scenario, seed, trials, current)
