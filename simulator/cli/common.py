"""What every command shares: the handling of user mistakes (exit status 2, no traceback).

Kept apart from :mod:`simulator.cli.app` so that the modules of commands can import it at import
time without a cycle (``app`` imports them to register their commands).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TextIO

import click

from simulator.errors import HarmoniesNote, ScenarioError, UserError

EXIT_USER_ERROR = 2
"""The exit status of a command refused because of what the user gave."""

EXIT_SYSTEM_ERROR = 1
"""The exit status when the machine fails a command (a full disk, say)."""

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells use."""

EXIT_TERMINATED = 143
"""The exit status after SIGTERM (128 + SIGTERM), as shells use."""

EXIT_BROKEN_PIPE = 141
"""The exit status when the reader of stdout went away (128 + SIGPIPE, as shells report a
filter such as ``yes`` stopped by ``head``)."""


def drop_stdout() -> None:
    """Point stdout at the null device, so that what is still buffered can go nowhere quietly.

    After a closed pipe or a full disk the interpreter would try to flush stdout once more on
    its way out, and print a second complaint.
    """
    try:
        stream = sys.stdout
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # no real stdout (a test's runner): nothing is left to flush


def _write_failed(exc: OSError) -> None:
    """End a command whose output could not be written: silently for a closed pipe."""
    drop_stdout()
    if exc.errno == errno.EPIPE:
        sys.exit(EXIT_BROKEN_PIPE)
    where = f"{exc.filename}: " if exc.filename else "the output: "
    click.echo(f"error: {where}{exc.strerror or exc}", err=True)
    sys.exit(EXIT_SYSTEM_ERROR)


INTERRUPTED = "interrupted; the same command resumes"
"""The one line printed after Ctrl-C (or SIGTERM): the command again goes on where it stopped."""


def stop_interrupted(terminated: bool = False) -> None:
    """End the command after Ctrl-C (or SIGTERM): one line, exit status 130 (or 143)."""
    with contextlib.suppress(OSError, ValueError):
        click.echo(f"\n{INTERRUPTED}" + (" (SIGTERM)" if terminated else ""), err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


@contextlib.contextmanager
def notes_on_stderr() -> Iterator[None]:
    """Print every :class:`~simulator.errors.HarmoniesNote` of the block as ``note: ...``.

    Each goes to stderr at once, as one line; other warnings are shown as Python shows them.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("always", HarmoniesNote)
        shown = warnings.showwarning

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if issubclass(category, HarmoniesNote):
                click.echo(f"note: {message}", err=True)
            else:
                shown(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield


def native_note() -> None:
    """Print the one ``note:`` line about a damaged native build, if there is one to print."""
    from simulator import native

    text = native.take_note()
    if text is not None:
        click.echo(f"note: {text}", err=True)


class FilterGroup(click.Group):
    """The command group: every command ends as a Unix filter does, never with a traceback.

    A closed pipe (``harmonies-sim trace ... | head``) ends the command silently, with status
    141; any other failure to write (a full disk) is one ``error:`` line and status 1. The
    library's notes (:class:`~simulator.errors.HarmoniesNote`) are printed as ``note: ...``.
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a failed write ends it as a filter ends, Ctrl-C in one line."""
        try:
            with notes_on_stderr():
                return super().invoke(ctx)
        except OSError as exc:
            _write_failed(exc)
        except KeyboardInterrupt:
            stop_interrupted()
        finally:
            native_note()  # the compiled engine failed to load during the command

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """The whole command line, ``--help`` and ``--version`` included, ends the same way."""
        native_note()
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            _write_failed(exc)


def _error_lines(exc: UserError) -> list[str]:
    """The lines of an error; a scenario's problems in the language in force (``--lang``)."""
    if isinstance(exc, ScenarioError) and exc.problems:
        from simulator.report.i18n import current_language, problem_text

        if current_language() != "en":
            return [line for p in exc.problems for line in problem_text(p).splitlines()]
    return str(exc).splitlines()


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
            for line in _error_lines(exc):
                click.echo(f"error: {line}", err=True)
            sys.exit(EXIT_USER_ERROR)
        except OSError as exc:  # the machine's, not the user's: a full disk, a lost mount
            if exc.errno == errno.EPIPE:
                raise  # the reader went away: the group ends quietly
            drop_stdout()
            where = f"{exc.filename}: " if exc.filename else ""
            text = f"error: {where}{exc.strerror or exc}; nothing is half-written (a study's "
            text += "finished chunks are kept): fix it and run the same command again"
            click.echo(text, err=True)
            sys.exit(EXIT_SYSTEM_ERROR)

    return wrapper
