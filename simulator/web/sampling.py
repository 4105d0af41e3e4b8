"""The workbench's trials: in the server's process, or in worker processes kept warm.

Both give the chunks of trials ``0 .. trials-1`` of a seed as they finish
(:func:`chunks`): the very trials of ``harmonies-sim run`` with that seed, since trial ``i``
draws from ``SeedSequence(seed, spawn_key=(i,))`` whatever the chunk or process. With one
core to spare or fewer, chunks run in the server's process, one after the other, each sized
to take about :data:`CHUNK_SECONDS`; with more, in a pool of processes started once with
the server (``spawn``, as ``run``'s local backend), at most two chunks per worker in flight.
A newer edit stops the older one between chunks: no further chunk is started, and those
queued are cancelled (those running finish, a fraction of a second).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ProcessPoolExecutor

import pandas as pd
from starlette.concurrency import run_in_threadpool

from simulator.runner.backends.local import worker_setup
from simulator.runner.chunks import ChunkJob, run_job
from simulator.scenario.model import Scenario

FIRST_CHUNK = 250
"""Trials of the first chunk: a first number in a few hundredths of a second."""

CHUNK_SECONDS = 0.2
"""In the server's process, later chunks are sized to take about this long."""

MAX_CHUNK = 5_000

POOL_CHUNK = 1_000
"""Trials per chunk in the pool (after a first round of :data:`FIRST_CHUNK`)."""


def default_workers() -> int:
    """Worker processes: every core but one (the server's), none on two cores or fewer."""
    count = os.cpu_count() or 1
    return count - 1 if count > 2 else 0


class Pool:
    """Worker processes kept for the server's life.

    Args:
        workers: How many (at least 2; fewer is the server's own process, no pool).
    """

    def __init__(self, workers: int):
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_setup,
            initargs=(os.getpid(),),
        )

    def warm(self, scenario: Scenario) -> None:
        """Start every worker (each imports the package) with a few trials of ``scenario``."""
        jobs = [ChunkJob("warm", scenario, 0, i, i + 1) for i in range(self.workers)]
        for future in [self._pool.submit(run_job, job) for job in jobs]:
            future.result()

    def submit(self, job: ChunkJob) -> Future[pd.DataFrame]:
        """Run one chunk in a worker."""
        return self._pool.submit(run_job, job)

    def close(self) -> None:
        """Stop the workers (queued chunks cancelled)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


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
    pending = iter(_plan(trials, pool.workers))
    running: set[asyncio.Future[pd.DataFrame]] = set()
    sent: list[Future[pd.DataFrame]] = []

    def more() -> None:
        while len(running) < 2 * pool.workers and current():
            bounds = next(pending, None)
            if bounds is None:
                return
            future = pool.submit(ChunkJob("page", scenario, seed, *bounds))
            sent.append(future)
            running.add(asyncio.wrap_future(future))

    try:
        more()
        while running:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            running.difference_update(done)
            for finished in done:
                yield finished.result()
            if not current():
                return
            more()
    finally:
        for future in sent:
            future.cancel()  # those queued; a running chunk finishes, its frame unread


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
