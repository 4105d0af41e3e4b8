"""The default backend: chunks run in local worker processes, or threads, or in this process.

Chunks of the compiled kernel, which releases the interpreter's lock, run on threads of this
process (nothing to start, nothing to send back); other chunks on worker processes; one
worker, or a run too small for a worker's start, runs in this process alone.

Workers are started with the ``spawn`` method on every platform, so nothing depends on
state inherited by ``fork``: each worker imports the package afresh and receives
self-contained :class:`~simulator.runner.chunks.ChunkJob` s.

A worker whose parent process is gone (killed with SIGKILL, which leaves it no chance to
stop its pool) exits by itself within about :data:`ORPHAN_CHECK_S` seconds, instead of
waiting forever for work that will never come while holding the caller's terminal or pipes
open.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)

from simulator.runner.chunks import ChunkJob, releases_gil, run_compact
from simulator.runner.compact import Chunk

ORPHAN_CHECK_S = 1.0
"""How often a worker checks that its parent process is still there, in seconds."""

EXIT_ORPHANED = 1
"""The exit status of a worker that ends itself because its parent is gone."""


def _exit_when_orphaned(parent: int, interval: float = ORPHAN_CHECK_S) -> None:
    """A worker's watchdog thread: end the worker once ``parent`` is not its parent any more."""
    while True:
        if os.getppid() != parent:
            os._exit(EXIT_ORPHANED)  # no cleanup to do: the parent that wanted results is gone
        time.sleep(interval)


def worker_setup(parent: int) -> None:
    """Worker initializer: leave Ctrl-C to the parent, and end with the parent.

    ``parent`` is the pool's process id, passed by the pool rather than read here: a worker
    still starting when the parent is killed would otherwise read its new parent's id and
    watch the wrong process forever.

    Ctrl-C is the parent's to handle (it cancels the pool). A daemon thread ends the worker
    when its parent process is gone: an orphan is adopted by another process, so its parent
    id changes.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watchdog = threading.Thread(
        target=_exit_when_orphaned, args=(parent,), name="orphan-watchdog", daemon=True
    )
    watchdog.start()


IN_PROCESS_TRIALS = 5_000
"""With the workers left to the default (all cores), a run of at most this many trials runs in
this process: starting a worker (a fresh interpreter that imports the package and loads the
compiled kernel, a few CPU-seconds) would cost more than the trials themselves."""

IN_PROCESS_KERNEL_TRIALS = 200_000
"""The same for a run whose every chunk runs in the compiled kernel: it runs 100,000 to a
million trials a second, so up to here its trials take about as long as a worker's start."""

SWITCH_INTERVAL_S = 0.0005
"""How long a thread that wants the interpreter's lock waits before asking its holder to let
go, while the kernel's threads run (Python's default is 5 ms). A worker thread takes the lock
back after each compiled pass and each write of a chunk; while another thread runs Python for
long (the figures' libraries loading in the background, say), each of those waits would last
the whole interval, and a thread of a short scenario waited longer than its kernel ran."""

ABORT_WAIT_S = 2.0
"""How long a stopped run waits for its workers to end before killing them, in seconds."""


def _small(jobs: Sequence[ChunkJob]) -> bool:
    """Whether these jobs take less time in this process than the workers would to start."""
    trials = sum(job.stop - job.start for job in jobs)
    if trials <= IN_PROCESS_TRIALS:
        return True
    return trials <= IN_PROCESS_KERNEL_TRIALS and all(releases_gil(job) for job in jobs)


def _in_process(jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, Chunk]]:
    """The jobs one after the other in this process, in order.

    A job of the compiled kernel (:func:`~simulator.runner.chunks.releases_gil`) runs in a
    helper thread while the caller stores the job before, so that writing a chunk's file costs
    the trials no time; still one chunk at a time, each as it would run alone (the same
    numbers). Any other job runs here. Closing the iterator early (Ctrl-C) waits only for a
    kernel's chunk already running (a fraction of a second).
    """
    pool: ThreadPoolExecutor | None = None
    ahead: Future[Chunk] | None = None
    try:
        for i, job in enumerate(jobs):
            chunk = ahead.result() if ahead is not None else run_compact(job)
            ahead = None
            if i + 1 < len(jobs) and releases_gil(jobs[i + 1]):
                if pool is None:
                    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chunk")
                ahead = pool.submit(run_compact, jobs[i + 1])
            yield job, chunk
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _in_threads(jobs: Sequence[ChunkJob], workers: int) -> Iterator[tuple[ChunkJob, Chunk]]:
    """The jobs of the compiled kernel on ``workers`` threads of this process.

    The kernel releases the interpreter's lock while it runs (numba's ``nogil``), so threads
    run its chunks on every core at once, with neither a worker's start (a fresh interpreter
    that loads the compiled kernel, a few CPU-seconds) nor anything pickled back to this
    process. Each chunk runs as it would alone (the same numbers, whatever the threads); at
    most two per thread are in flight, and they are yielded in the order they finish, as the
    pool of processes does.

    Closing the iterator early (Ctrl-C, an error) gives the threads no more work and waits
    for the chunk each has in hand, up to :data:`ABORT_WAIT_S` (a fraction of a second but
    for a first compile): a thread still writing its chunk's file (pyarrow's C++) when the
    interpreter shuts down would abort the process ("terminate called without an active
    exception"). The threads are daemons of their own (not a ``ThreadPoolExecutor``'s, which
    the interpreter joins at exit without a limit), so one still compiling after that does
    not hold the command's end.
    """
    size = min(workers, len(jobs))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL_S))
    todo: queue.SimpleQueue[ChunkJob | None] = queue.SimpleQueue()
    done: queue.SimpleQueue[tuple[ChunkJob, Chunk | None, BaseException | None]]
    done = queue.SimpleQueue()

    def work() -> None:
        while (job := todo.get()) is not None:
            try:
                done.put((job, run_compact(job), None))
            except BaseException as exc:  # handed to the caller, raised there
                done.put((job, None, exc))

    threads = [threading.Thread(target=work, name=f"chunk-{i}", daemon=True) for i in range(size)]
    for thread in threads:
        thread.start()
    pending = iter(jobs)
    flying = 0
    try:
        for job in pending:
            todo.put(job)
            flying += 1
            if flying >= 2 * size:
                break
        while flying:
            job, chunk, error = done.get()
            flying -= 1
            if error is not None:
                raise error
            nxt = next(pending, None)
            if nxt is not None:
                todo.put(nxt)
                flying += 1
            assert chunk is not None
            yield job, chunk
    finally:
        with contextlib.suppress(queue.Empty):
            while True:  # the jobs not yet started are not run
                todo.get_nowait()
        for _ in threads:  # no more work: each thread ends after its chunk in hand
            todo.put(None)
        deadline = time.monotonic() + ABORT_WAIT_S
        for thread in threads:  # at most a few seconds (a first compile takes longer)
            thread.join(max(0.0, deadline - time.monotonic()))
        sys.setswitchinterval(interval)


HELD = (signal.SIGINT, signal.SIGTERM)
"""The signals a command stops on (Ctrl-C; ``kill``, ``timeout``: :func:`interruptible`)."""


def _submit(pool: ProcessPoolExecutor, job: ChunkJob) -> Future[Chunk]:
    """Submit a job with Ctrl-C (and SIGTERM) held back meanwhile: a new worker never gets it.

    Submitting may start a worker process. It inherits this thread's blocked signals, so a
    Ctrl-C of the terminal (sent to every process of the group) reaches only this one, which
    stops the pool, instead of printing a traceback from a worker still importing the
    package. This process's other threads (the pool's own, the progress bar's) do not block
    them, and one of them may take one: so their Python handlers are put off too, or the
    ``KeyboardInterrupt`` would come between starting a worker and sending it its task,
    and the worker would print ``EOFError: Ran out of input``. A signal held back meanwhile
    arrives here as soon as the submission is done.
    """
    if threading.current_thread() is not threading.main_thread():
        return pool.submit(run_compact, job)
    # a handler not set from Python (None) is left alone
    held = [number for number in HELD if signal.getsignal(number) is not None]
    came: list[int] = []
    handlers = {n: signal.signal(n, lambda number, _frame: came.append(number)) for n in held}
    signal.pthread_sigmask(signal.SIG_BLOCK, set(held))
    try:
        return pool.submit(run_compact, job)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(held))
        for held_number, handler in handlers.items():
            signal.signal(held_number, handler)
        for number in dict.fromkeys(came):
            signal.raise_signal(number)


class LocalBackend:
    """Runs chunks in a pool of local processes.

    Args:
        workers: Processes to use; None means all cores (``os.cpu_count()``), except for a
            run of at most :data:`IN_PROCESS_TRIALS` trials (:data:`IN_PROCESS_KERNEL_TRIALS`
            when the compiled kernel runs every chunk), which runs in this process.
            With 1, chunks run one after the other in this process, with no pool.
        start_method: The multiprocessing start method (``spawn`` by default).

    Raises:
        ValueError: When ``workers < 1``.
    """

    def __init__(self, workers: int | None = None, start_method: str = "spawn"):
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise ValueError(f"workers must be at least 1, got {count}")
        self.workers = count
        self._auto = workers is None
        self._start_method = start_method
        self._pool: ProcessPoolExecutor | None = None

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, Chunk]]:
        """Run every job; yield ``(job, chunk)`` pairs in completion order.

        At most two jobs per worker are in flight at once, so memory stays flat however
        many chunks there are. Closing the iterator early (or an exception such as
        ``KeyboardInterrupt`` in the caller) cancels the jobs not yet started.
        """
        if not jobs:
            return
        small = self._auto and _small(jobs)
        if self.workers == 1 or len(jobs) == 1 or small:
            yield from _in_process(jobs)
            return
        if all(releases_gil(job) for job in jobs):
            yield from _in_threads(jobs, self.workers)
            return
        pool = self._ensure_pool(min(self.workers, len(jobs)))
        # a worker process saves its chunk and sends back only its tally (no columns to pickle)
        pending = (dataclasses.replace(job, keep=False) if job.save else job for job in jobs)
        running: dict[Future[Chunk], ChunkJob] = {}
        finished = False
        try:
            for job in pending:
                running[_submit(pool, job)] = job
                if len(running) >= 2 * self.workers:
                    break
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    job = running.pop(future)
                    chunk = future.result()
                    nxt = next(pending, None)
                    if nxt is not None:
                        running[_submit(pool, nxt)] = nxt
                    yield job, chunk
            finished = True
        finally:
            if not finished:
                self._abort()

    def _abort(self) -> None:
        """Stop at once (Ctrl-C, an error): cancel queued chunks, end running workers."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        deadline = time.monotonic() + ABORT_WAIT_S
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():  # stuck (in a lock, say): SIGTERM is not enough
                process.kill()
                process.join(ABORT_WAIT_S)
        _unblock_results(pool)
        pool.shutdown(wait=False, cancel_futures=True)

    def _ensure_pool(self, size: int) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context(self._start_method)
            self._pool = ProcessPoolExecutor(
                max_workers=size,
                mp_context=context,
                initializer=worker_setup,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (chunks not yet started are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unblock_results(pool: ProcessPoolExecutor) -> None:
    """Let the pool's own thread see that its stopped workers will send nothing more.

    A worker ended while it was sending a chunk leaves half a message in the result
    pipe; the pool's thread then waits forever for the rest, and the end of the process
    waits for that thread (Ctrl-C would say "interrupted" and never exit). This end of the
    pipe was the last one open for writing: closed, the thread reads the end of the pipe and
    stops, as for any broken pool.
    """
    queue = getattr(pool, "_result_queue", None)
    writer = getattr(queue, "_writer", None)
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()
