"""Allow ``python -m simulator``; :func:`run` is also the ``harmonies-sim`` command.

Ctrl-C while the command is still being imported ends it at once with the command line's one
line and exit status 130 (nothing has started: there is nothing to keep), not a traceback
from the middle of an import; once the command has ended, Ctrl-C is ignored while the
interpreter shuts down.
"""

import os
import signal
import sys

_STOPPED = "\ninterrupted; the same command resumes\n"


def _interrupted_while_starting(signum: int, frame: object) -> None:
    os.write(sys.stderr.fileno(), _STOPPED.encode())
    os._exit(128 + signal.SIGINT)


def run() -> None:
    """The command line, Ctrl-C handled from its first moment to its last."""
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    from simulator.cli.app import main

    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":  # pragma: no cover
    run()
