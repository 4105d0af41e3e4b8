"""Ctrl-C while the command line is still starting: one line and exit status 130.

Nothing has started then, so there is nothing to keep; without this, Ctrl-C in the first
fraction of a second prints a traceback from the middle of an import. Installed by
``simulator/__init__.py`` only when the package is being run as the command (``python -m
simulator``, ``harmonies-sim``), never when a program imports it; :func:`started` hands
Ctrl-C back to Python once the command is invoked. A command started with Ctrl-C ignored
(a script's background job, ``nohup``) leaves it ignored, as Python does.
"""

from __future__ import annotations

import _thread
import atexit
import contextlib
import importlib
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from types import FrameType

STOPPED = "\ninterrupted; the same command resumes\n"
"""What Ctrl-C prints while starting (the command line's own line)."""


def _stop(signum: int, frame: object) -> None:
    os.write(2, STOPPED[0 if os.isatty(2) else 1 :].encode())  # a new line after ^C only
    os._exit(128 + signal.SIGINT)


def as_command() -> bool:
    """Whether this interpreter runs the package as the command line."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or os.path.basename(first) == "harmonies-sim"


def starting() -> None:
    """Ctrl-C from now on ends the process at once with the one line (unless ignored)."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _stop)


def started() -> None:
    """Ctrl-C raises :class:`KeyboardInterrupt` again, for the commands to handle.

    Raised where it is safe (:func:`interrupt`), not at any line as Python's own handler does;
    what is safe is judged from the caller's frame up (the command), whatever ran the command.
    The command's frame is kept in the command line's own process even where Ctrl-C is
    ignored (a background job): SIGTERM is raised the same way
    (:func:`simulator.cli.options.sigterm_as_interrupt`). A command run in another program's
    process (a test runner's) keeps none: that program's frames are not the command's to judge.
    """
    if signal.getsignal(signal.SIGINT) is _stop or as_command():
        _command[:] = [sys._getframe(1)]
    if signal.getsignal(signal.SIGINT) is _stop:
        signal.signal(signal.SIGINT, interrupt)


_command: list[FrameType] = []
"""The frame that called :func:`started`: :func:`interrupt` looks at the frames above it."""


RETRY_S = 0.005
"""How soon Ctrl-C that landed where it cannot be raised is tried again, in seconds."""

_retries: queue.SimpleQueue[int] = queue.SimpleQueue()
"""Signals for :func:`_retry` to deliver again (``SimpleQueue.put`` is safe in a handler)."""

_retrying: list[threading.Thread] = []
"""The thread of :func:`_retry`, once started."""


def _retry() -> None:
    while True:
        signum = _retries.get()
        time.sleep(RETRY_S)
        # as if it came again (nothing if no longer handled)
        _thread.interrupt_main(signal.Signals(signum))


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Ctrl-C put off until the end; processes started meanwhile never see it.

    For a pool of processes whose Ctrl-C is the command's to handle (a Dask cluster being
    started): SIGINT is blocked in this thread, so in the threads started meanwhile, which
    inherit that, and in the processes they start, which inherit it in turn and so never
    print a traceback from the middle of their start-up. A Ctrl-C pressed meanwhile is kept
    (one taken by a thread started before, the numerical libraries' own, is only noted) and
    comes once the hold ends, as :class:`KeyboardInterrupt` where this thread then is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    before = signal.signal(signal.SIGINT, lambda number, _frame: came.append(number))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        # None: the handler before was not installed from Python (an embedding program's);
        # it cannot be put back, and the default one (a Ctrl-C ends the process) is the
        # nearest to it
        signal.signal(signal.SIGINT, signal.SIG_DFL if before is None else before)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one still pending comes now
        if came:
            signal.raise_signal(signal.SIGINT)


def unsafe(frame: FrameType | None, until: FrameType | None = None) -> bool:
    """Whether a :class:`KeyboardInterrupt` raised in ``frame`` could be lost or do harm.

    Python's own handler raises it at whatever line runs, and three places break then: the
    import system (a module lock taken and never given back: every other thread that imports
    waits forever, the preloading one and the kernel's chunk threads among them, so the run
    hangs with Ctrl-C lost), a ``__del__`` or a weak reference's callback (the exception is
    printed and dropped: Ctrl-C is lost) and code that ``exec`` or ``eval`` runs from a
    string, as ``dataclasses`` and ``namedtuple`` do (the interpreter remembers it and at
    exit kills itself with SIGINT instead of ending with the command's status 130).

    Args:
        frame: Where the interpreter is.
        until: The frame of the command: it and the frames that called it are not looked at
            (``python -c``, ``runpy`` or a test runner may run the command from a string).
    """
    while frame is not None and frame is not until:
        code = frame.f_code
        name = code.co_filename
        if name.startswith("<frozen importlib") or name == "<string>" or code.co_name == "__del__":
            return True
        if name.endswith(_WEAKREF_FILES):  # a weakref's callback: raised there, it is dropped
            return True
        frame = frame.f_back
    return False


_WEAKREF_FILES = (f"{os.sep}weakref.py", f"{os.sep}_weakrefset.py")
"""The standard library's files whose functions run as weak references' callbacks (a
``WeakKeyDictionary`` forgetting a key): an exception raised there is printed and dropped, as
in a ``__del__``."""


def interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: :class:`KeyboardInterrupt` now, or a few milliseconds later if :func:`unsafe`.

    Raises:
        KeyboardInterrupt: Where it can safely unwind the command.
    """
    if not unsafe(frame, _command[0] if _command else None):
        raise KeyboardInterrupt
    if not _retrying:
        _retrying.append(threading.Thread(target=_retry, name="ctrl-c", daemon=True))
        _retrying[0].start()
    _retries.put(signum)


PLAIN_KERNEL_TRIALS = 200
"""Up to this many trials, a command runs the rules kernel as plain Python (no numba).

Loading numba and the kernel's cached machine code costs about 0.8 s of CPU more than the
plain-Python kernel's start; the plain kernel runs 250 (``careless_watches``) to 4,500
(``field_medic``) trials a second, so up to here it is never slower by much and a run of
100 trials of ``geraldine`` takes 0.1 s instead of 1 s. Both give byte-identical records
(``tests/kernel/test_kernel.py``), so the numbers do not depend on it.
"""


NO_JIT_VARIABLE = "HARMONIES_NO_JIT"
"""The environment variable of :mod:`simulator.kernel.jit` (read when it is imported)."""

KERNEL_JIT = "simulator.kernel.jit"
"""The module that decides, once, when first imported, whether the kernel is compiled."""


def plain_kernel_for(trials: int) -> bool:
    """Run the kernel as plain Python in this process if a study of ``trials`` is small.

    Only before the kernel is first imported, and only when ``HARMONIES_NO_JIT`` is not
    set (a choice made in the environment stands); the environment is left as it was, so
    worker processes decide for themselves (compiled: the same numbers).

    Returns:
        Whether this call made the kernel of this process plain Python.
    """
    if KERNEL_JIT in sys.modules or trials > PLAIN_KERNEL_TRIALS:
        return False
    if os.environ.get(NO_JIT_VARIABLE) is not None:
        return False
    os.environ[NO_JIT_VARIABLE] = "1"
    try:
        importlib.import_module(KERNEL_JIT)
    finally:
        del os.environ[NO_JIT_VARIABLE]
    return True


OUTPUT_MODULES = (
    "matplotlib.figure",
    "matplotlib.backends.backend_agg",
    "jinja2",
    "simulator.report.style",
    "simulator.report.figures",
    "simulator.report.causes",
    "simulator.report.figures_causes",
)
"""What a study imports only at its end, to draw its figures and write its report."""


STOP_WAIT_S = 3.0
"""How long the end of the process waits for the background import in progress, at most."""


def preload(modules: Sequence[str] = OUTPUT_MODULES) -> threading.Thread:
    """Import ``modules`` in a background thread, while this one goes on.

    For a study whose trials run in the compiled kernel, which releases the interpreter: the
    figures' libraries (about 2 s of imports) are then loaded while the trials run instead
    of after them. A module that fails to import here fails again, with its usual error,
    where it is imported for use; importing is thread-safe (the thread that comes second
    waits for the module).

    The thread stops before the next module once the process is ending (an error, Ctrl-C),
    and the end waits for the module it is importing then (at most :data:`STOP_WAIT_S`), so
    that the interpreter does not shut down under a thread in the middle of an import.

    Returns:
        The thread.
    """
    ending = threading.Event()

    def load() -> None:
        for name in modules:
            if ending.is_set():
                return
            with contextlib.suppress(Exception):
                importlib.import_module(name)

    thread = threading.Thread(target=load, name="preload", daemon=True)

    def stop() -> None:
        ending.set()
        # At most a few seconds: Ctrl-C that lands inside the main thread's own import can
        # leave that module's lock held, and this thread would wait for it forever (the
        # command said "interrupted" and never ended); a daemon thread then ends with us.
        # Ctrl-C that lands before the thread started leaves nothing to wait for (joining a
        # thread never started raises, printed under the one line "interrupted").
        if thread.is_alive():
            thread.join(timeout=STOP_WAIT_S)

    atexit.register(stop)
    thread.start()
    return thread
