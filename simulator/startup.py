"""Ctrl-C while the command line is still starting: one line and exit status 130.

Nothing has started then, so there is nothing to keep; without this, Ctrl-C in the first
fraction of a second prints a traceback from the middle of an import. Installed by
``simulator/__init__.py`` only when the package is being run as the command (``python -m
simulator``, ``harmonies-sim``), never when a program imports it; :func:`started` hands
Ctrl-C back to Python once the command is imported. A command started with Ctrl-C ignored
(a script's background job, ``nohup``) leaves it ignored, as Python does.
"""

from __future__ import annotations

import os
import signal
import sys

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
