"""Allow ``python -m simulator``; :func:`run` is also the ``harmonies-sim`` command.

Ctrl-C while the command is still being imported ends it at once with the command line's one
line and exit status 130 (:mod:`simulator.startup`); once the command has ended, Ctrl-C is
ignored while the interpreter shuts down.
"""

import signal
import sys

from simulator import startup


def run() -> None:
    """The command line, Ctrl-C handled from its first moment to its last."""
    startup.starting()
    from simulator.cli.app import load_for, main

    load_for(sys.argv[1:])  # the command's module too, under start-up's Ctrl-C
    try:  # start-up's Ctrl-C lasts until the command is invoked (FilterGroup.invoke)
        main()
    except KeyboardInterrupt:  # one that escaped the command's own handling: the same end
        from simulator.cli.common import stop_interrupted

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop_interrupted()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":  # pragma: no cover
    run()
