"""The ``harmonies-sim`` command: one module per command, ``app`` the group that holds them.

A command is a module here that defines ``COMMAND`` (a click command): ``run``, ``trace``,
``sweep``, ``compare``, ``odds``, ``validate``, ``study``, named in
:data:`~simulator.cli.app.COMMANDS`; the group imports a command's module only when the
command runs. What they share: ``common`` (user mistakes: one line each, exit status 2) and
``options`` (the options of study commands, Ctrl-C and SIGTERM).
"""

from simulator.cli.app import main

__all__ = ["main"]
