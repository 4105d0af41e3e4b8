"""What every command shares: the handling of user mistakes (exit status 2, no traceback).

Kept apart from :mod:`simulator.cli` so that the modules of commands can import it at import
time without a cycle (``cli`` imports them to register their commands).
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


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the project's :class:`UserError` into a message on stderr and exit status 2.

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

    return wrapper
