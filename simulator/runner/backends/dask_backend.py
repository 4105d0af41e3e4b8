"""The Dask backend: chunks of trials run on a Dask cluster (``pip install '...[dask]'``).

This module imports :mod:`dask.distributed` at import time, so it is imported only when the
Dask backend is chosen (:func:`simulator.runner.execution.get_backend`); the local backend never
needs Dask.

With a scheduler address, chunks go to that cluster; without one, a
:class:`~dask.distributed.LocalCluster` is started on this machine (loopback only, no
dashboard, one single-threaded worker process per core or per ``--workers``) and closed at
the end.

Each chunk is one task: a pure function of its :class:`~simulator.runner.chunks.ChunkJob`
(self-contained: the scenario travels with it, no file is read and no global state is
touched), so when a worker dies Dask simply runs its chunks again elsewhere and the
results are the same. Trial ``i``'s random stream depends only on the seed and ``i``, so the
chunks are bit for bit those of the local backend. A chunk comes back as compact columns
and its tally (:mod:`simulator.runner.compact`), not as a frame.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from multiprocessing import resource_tracker

from dask.distributed import Client, Future, LocalCluster, WorkerPlugin, as_completed
from distributed.client import FutureCancelledError
from distributed.comm.addressing import get_address_host_port, normalize_address
from distributed.comm.core import CommClosedError

from simulator import __version__
from simulator.errors import Phrase, UserError, fill, note, phrase
from simulator.runner.chunks import ChunkJob, run_compact
from simulator.runner.compact import Chunk
from simulator.startup import sigint_held

CONNECT_TIMEOUT_S = 10.0
"""How long to wait for a scheduler to answer before giving up, in seconds."""

POLL_S = 5.0
"""How often, while no chunk finishes, the backend looks whether the cluster still has workers."""

WAIT_S = 0.02
"""How long the backend sleeps between two looks at the chunks finished (none yet)."""

WORKERLESS_S = 300.0
"""How long chunks wait for a worker to join a cluster that has none, before the command
stops with exit 1 (CONTRACT: a lost worker is the machine's fault); the finished chunks are
kept, and the same command resumes."""

TASK_PREFIX = "harmonies-chunk"
"""The start of every task's key (as shown on the Dask dashboard)."""


def run_chunk_task(job: ChunkJob, client_version: str) -> Chunk:
    """Run one chunk on a worker, refusing when the worker's package differs from ours.

    A worker with another version of harmonies-simulator could compute other numbers; the
    run stops with a clear error instead.

    Args:
        job: The chunk.
        client_version: The version of harmonies-simulator that submitted the chunk.

    Returns:
        The chunk: its compact columns and its tally (no file is written on the worker).

    Raises:
        UserError: When this worker's harmonies-simulator is not ``client_version``.
    """
    if __version__ != client_version:
        raise UserError(
            phrase(
                "a Dask worker has harmonies-simulator {theirs}, this machine has {ours}; "
                "install the same version on the workers: {command}",
                theirs=__version__,
                ours=client_version,
                command=f"pip install 'harmonies-simulator[dask]=={client_version}'",
            )
        )
    return run_compact(dataclasses.replace(job, save=None))


def _not_a_cancelled_chunk(record: logging.LogRecord) -> bool:
    """Logging filter: drop the warning a worker logs for each chunk we cancel."""
    return "ended with CancelledError" not in record.getMessage()


def _not_a_lost_connection(record: logging.LogRecord) -> bool:
    """Logging filter: drop the client's tracebacks of a lost connection to the scheduler.

    The command says it in one ``error:`` line (:class:`ClusterLostError`), instead of the
    thirty lines and three tracebacks of the client's reconnection attempts.
    """
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, OSError | asyncio.CancelledError):
        return False
    return "reconnect" not in record.getMessage()


_QUIET_LOCK = threading.Lock()
_QUIET_USERS = [0]


def _client_log_quiet(change: int) -> None:
    """One more (+1) or one fewer (-1) open backend that filters the client's log.

    The filter is on while any backend is open, and off once the last has closed.
    """
    client_log = logging.getLogger("distributed.client")
    with _QUIET_LOCK:
        _QUIET_USERS[0] += change
        if _QUIET_USERS[0] > 0:
            client_log.addFilter(_not_a_lost_connection)  # once: a filter is never added twice
        else:
            _QUIET_USERS[0] = 0
            client_log.removeFilter(_not_a_lost_connection)


class ClusterLostError(ConnectionError):
    """The Dask cluster went away during a run, or kept no worker: exit 1, one line.

    The machine's fault (CONTRACT: "a lost worker"), never a wait without end nor a traceback.

    Its :attr:`phrase` is what the command prints after ``error:`` (``strerror`` the same in
    English); the finished chunks are kept, and the same command resumes.
    """

    def __init__(self, said: Phrase):
        self.phrase = said
        super().__init__(errno.ECONNABORTED, fill(said.template, said.args))


class LocalWorkerSetup(WorkerPlugin):
    """Makes the workers of a local cluster leave Ctrl-C to the command that started them.

    Ctrl-C reaches every process of the terminal's group; the command cancels the chunks
    and closes the cluster itself (as the local backend does with its pool), so workers
    ignore it instead of each printing a traceback, and do not warn about the chunks
    cancelled. Workers restarted by their nanny get the plugin too.
    """

    name = "harmonies-local-worker"

    def setup(self, worker: object) -> None:
        """Ignore SIGINT in this worker process (its event loop runs in the main thread)."""
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        logging.getLogger("distributed.worker.state_machine").addFilter(_not_a_cancelled_chunk)


def check_address(address: str) -> str:
    """Check the form of a scheduler address; return it normalised (``tcp://`` added).

    Raises:
        UserError: Naming the address when it is not ``[scheme://]host:port``.
    """
    try:
        normalised = normalize_address(address)
        get_address_host_port(normalised)
    except (ValueError, TypeError) as exc:
        raise UserError(
            phrase(
                "--scheduler: got {address}; expected a Dask scheduler address such as "
                "tcp://host:8786 ({error})",
                address=repr(address),
                error=exc,
            )
        ) from None
    return normalised


def _quiet_start(count: int) -> LocalCluster:
    """A local cluster whose processes leave Ctrl-C to this command, from their first moment.

    Ctrl-C reaches every process of the terminal's group: a worker still starting printed
    its traceback (``Fatal Python error: init_import_site``) before :class:`LocalWorkerSetup`
    could tell it to ignore it. Started under :func:`simulator.startup.sigint_held`, the
    nannies and their workers ignore it from their start; a Ctrl-C pressed while the cluster
    starts (a second or more) stops the command as soon as the cluster is up.
    """
    # multiprocessing's resource tracker, started on the way, unblocks SIGINT in the thread
    # that starts it (after its own block): started first, it leaves the hold alone
    resource_tracker.ensure_running()
    cluster = None
    try:
        with sigint_held():
            cluster = _cluster(count)
    except BaseException:  # Ctrl-C pressed meanwhile comes here: the cluster is closed first
        if cluster is not None:
            cluster.close()
        raise
    return cluster


def _cluster(count: int) -> LocalCluster:
    return LocalCluster(
        n_workers=count,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )


class DaskBackend:
    """Runs chunks on a Dask cluster: an existing one, or a local one started for the run.

    Args:
        scheduler: The scheduler's address (e.g. ``tcp://host:8786``); None starts a
            :class:`~dask.distributed.LocalCluster` here, closed by :meth:`close`.
        workers: For a local cluster, its worker processes (None: all cores). With a
            scheduler the cluster's size is its own; this is then unused here (the runner
            still chunks trials for this many workers).
        connect_timeout: Seconds to wait for the scheduler to answer.
        workerless: Seconds the chunks wait for a worker on a cluster that has none, before
            :class:`ClusterLostError` (None: :data:`WORKERLESS_S`).

    Raises:
        UserError: For a malformed address, or a scheduler that does not answer in time.
        ValueError: When ``workers < 1``.
    """

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        workerless: float | None = None,
    ):
        self.scheduler = scheduler
        self.workerless = WORKERLESS_S if workerless is None else workerless
        self._workerless_since: float | None = None
        self._cluster: LocalCluster | None = None
        self._client: Client | None = None
        self._had_workers = True  # a cluster with none at the start says so there, once
        self._quiet = False  # the client's reconnection tracebacks filtered (until close)
        if scheduler is None:
            count = (os.cpu_count() or 1) if workers is None else workers
            if count < 1:
                raise ValueError(f"workers must be at least 1, got {count}")
            self.workers: int | None = count
            self._cluster = _quiet_start(count)
            try:
                self._client = Client(self._cluster, set_as_default=False)
                self._client.register_plugin(LocalWorkerSetup())
            except BaseException:
                self.close()
                raise
        else:
            self.workers = workers
            address = check_address(scheduler)
            try:
                self._client = Client(address, timeout=connect_timeout, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                detail = "" if str(exc).startswith("Timed out") else f" ({exc})"
                raise UserError(
                    phrase(
                        "--scheduler {address}: no Dask scheduler answered within {seconds} "
                        "s{detail}; is `dask scheduler` running there and reachable? (leave "
                        "out --scheduler to run on a local cluster)",
                        address=scheduler,
                        seconds=f"{connect_timeout:g}",
                        detail=detail,
                    )
                ) from None
            if not self._client.nthreads():
                self._had_workers = False
                note(
                    phrase(
                        "the Dask scheduler at {address} has no workers yet; the chunks wait "
                        "for workers to join (dask worker ADDRESS --nthreads 1 --nworkers N)",
                        address=scheduler,
                    )
                )
        self._quiet = True  # the client is up: its reconnection tracebacks filtered until close
        _client_log_quiet(+1)

    @property
    def client(self) -> Client:
        """The Dask client (while the backend is open).

        Raises:
            RuntimeError: After :meth:`close`.
        """
        if self._client is None:
            raise RuntimeError("the Dask backend is closed")
        return self._client

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, Chunk]]:
        """Run every job on the cluster; yield ``(job, chunk)`` pairs in completion order.

        A chunk comes back as compact columns with its tally (workers need no shared
        files: the caller saves what it keeps).

        All jobs are submitted at once (the scheduler queues them); each finished chunk is
        fetched and released from the cluster as it is yielded. Closing the
        iterator early (or an exception in the caller, Ctrl-C included) cancels the chunks
        not yet fetched. An error in a chunk is raised here, as it was raised there.
        """
        if not jobs:
            return
        client = self.client
        run = uuid.uuid4().hex[:12]
        keys = [f"{TASK_PREFIX}-{run}-{job.key}-{job.start}-{job.stop}" for job in jobs]
        futures = client.map(run_chunk_task, jobs, client_version=__version__, key=keys)
        by_key: dict[str, ChunkJob] = dict(zip(keys, jobs, strict=True))
        waiting: dict[str, Future[Chunk]] = {str(f.key): f for f in futures}
        del futures
        told, since = False, time.monotonic()
        self._workerless_since = None  # each call waits its own full patience
        finished = as_completed(list(waiting.values()), loop=client.loop)
        lost = False
        try:
            while waiting:
                done = finished.next_batch(block=False)
                if not done:  # nothing back yet: is anybody still working on them?
                    if time.monotonic() - since > POLL_S:
                        told = self._tell_if_no_workers(told, len(waiting))
                        since = time.monotonic()
                    time.sleep(WAIT_S)
                    continue
                told, since = False, time.monotonic()
                self._workerless_since = None  # a chunk came back: somebody works
                for future in done:
                    key = str(future.key)
                    while True:  # its data lost with its worker, the chunk is run again
                        try:
                            chunk = future.result(timeout=POLL_S)
                            break
                        except TimeoutError:
                            told = self._tell_if_no_workers(told, len(waiting))
                    waiting.pop(key, None)
                    future.release()
                    yield by_key[key], chunk
        except (FutureCancelledError, CommClosedError) as exc:  # the scheduler is gone
            lost = True  # (a chunk's own error, an OSError included, is raised as it was)
            lines = str(exc).splitlines()
            reason = getattr(exc, "reason", None) or (lines[0] if lines else type(exc).__name__)
            if self.scheduler is None:
                said = phrase("lost the local Dask cluster ({reason})", reason=reason)
            else:
                said = phrase(
                    "lost the Dask scheduler at {address} ({reason})",
                    address=self.scheduler,
                    reason=reason,
                )
            raise ClusterLostError(said) from None
        finally:
            if waiting and self._client is not None and not lost:
                self._client.cancel(list(waiting.values()))

    def _tell_if_no_workers(self, told: bool, waiting: int) -> bool:
        """A note, once, when the cluster has no worker left and chunks wait (never silent).

        Dask keeps the chunks for workers to come (it runs a lost worker's again elsewhere);
        with none left, the command would wait without a word. Returns whether it is told.
        """
        if self.client.nthreads():
            self._had_workers, self._workerless_since = True, None
            return False
        now = time.monotonic()
        if self._workerless_since is None:
            self._workerless_since = now
        elif now - self._workerless_since > self.workerless:
            raise ClusterLostError(
                phrase(
                    "the Dask cluster has had no worker for {seconds} s; chunks not run: {n}",
                    seconds=f"{self.workerless:g}",
                    n=waiting,
                )
            )
        if not told and self._had_workers:  # none yet at the start was said then
            note(
                phrase(
                    "the Dask cluster has no worker left; the chunks still to run ({n}) wait up "
                    "to {seconds} s for workers to join (dask worker ADDRESS --nthreads 1 "
                    "--nworkers N), or press Ctrl-C: the finished chunks are kept, and the same "
                    "command resumes",
                    n=waiting,
                    seconds=f"{self.workerless:g}",
                )
            )
        return True

    def close(self) -> None:
        """Close the client, and the local cluster when this backend started one."""
        client, self._client = self._client, None
        cluster, self._cluster = self._cluster, None
        try:
            if client is not None:
                client.close()
        finally:
            if self._quiet:
                self._quiet = False
                _client_log_quiet(-1)
            if cluster is not None:
                cluster.close()

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
