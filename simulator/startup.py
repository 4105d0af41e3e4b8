"""Ctrl-C while the command line is still starting: one line and exit status 130.

Nothing has started then, so there is nothing to keep; without this, Ctrl-C in the first
fraction of a second prints a traceback from the middle of an import. Installed by
``simulator/__init__.py`` only when the package is being run as the command (``python -m
simulator``, ``harmonies-sim``), never when a program imports it; :func:`started` hands
Ctrl-C back to Python once the command is invoked. A command started with Ctrl-C ignored
(a script's background job, ``nohup``) leaves it ignored, as Python does.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Sequence

STOPPED = "\ninterrupted; the same command resumes\n"
"""What Ctrl-C prints while starting (the command line's own line)."""


def _stop(signum: int, frame: object) -> None:
    os.write(2, STOPPED.encode())
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
    """Ctrl-C raises :class:`KeyboardInterrupt` again, for the commands to handle."""
    if signal.getsignal(signal.SIGINT) is _stop:
        signal.signal(signal.SIGINT, signal.default_int_handler)


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
        thread.join(timeout=STOP_WAIT_S)

    atexit.register(stop)
    thread.start()
    return thread
