"""What every command shares: the handling of user mistakes (exit status 2, no traceback).

Kept apart from :mod:`simulator.cli.app` so that the modules of commands can import it at import
time without a cycle (``app`` imports them to register their commands).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from simulator.errors import UserError

EXIT_USER_ERROR = 2
"""The exit status of a command refused because of what the user gave."""

EXIT_SYSTEM_ERROR = 1
"""The exit status when the machine fails a command (a full disk, say)."""


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the project's :class:`UserError` into a message on stderr and exit status 2.

    An ``OSError`` from the machine (a full disk) becomes one line and exit status 1.

    Each line of the error becomes one ``error: ...`` line (a :class:`ScenarioError` has one
    line per problem).
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except UserError as exc:
            for line in str(exc).splitlines():
                click.echo(f"error: {line}", err=True)
            sys.exit(EXIT_USER_ERROR)
        except OSError as exc:  # the machine's, not the user's: a full disk, a lost mount
            where = f"{exc.filename}: " if exc.filename else ""
            text = f"error: {where}{exc.strerror or exc}; nothing is half-written (finished "
            click.echo(text + "chunks are kept): fix it and run the same command again", err=True)
            sys.exit(EXIT_SYSTEM_ERROR)

    return wrapper
