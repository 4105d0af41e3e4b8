"""What every command shares: the handling of user mistakes (exit status 2, no traceback).

Kept apart from :mod:`simulator.cli.app` so that the modules of commands can import it at import
time without a cycle (``app`` imports them to add their commands).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import shlex
import sys
import unicodedata
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

import click

from simulator.cli.words import UsageErrors
from simulator.errors import (
    N_,
    CombinedUserError,
    HarmoniesNote,
    Phrase,
    ScenarioError,
    UserError,
    fill,
)

EXIT_USER_ERROR = 2
"""The exit status of a command refused because of what the user gave."""

EXIT_SYSTEM_ERROR = 1
"""The exit status when the machine fails a command (a full disk, say)."""

NOT_WRITABLE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
"""What a folder made read-only says when a command writes into it (``chmod``, a read-only
mount): the user's setting, refused with exit status 2 as :func:`~simulator.runner.outdir.claim`
refuses that folder before a command starts, not the machine's fault (exit status 1)."""
USERS_OS_ERRORS = NOT_WRITABLE | {errno.ENAMETOOLONG}
"""The system's refusals that come of what the user gave (exit status 2): a read-only folder,
a name too long for the file system (a path typed, or a folder named after a long scenario)."""

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
    from simulator.report.i18n import tr

    where = f"{exc.filename}: " if exc.filename else tr("the output: ")
    tell("error", f"{where}{exc.strerror or exc}")
    sys.exit(EXIT_SYSTEM_ERROR)


INTERRUPTED = N_("interrupted; the same command resumes")
"""The one line printed after Ctrl-C (or SIGTERM): the command again goes on where it stopped."""

INTERRUPTED_EXACT = N_("interrupted")
"""The line after Ctrl-C of a command that keeps nothing to resume from (an exact answer,
``balance``, ``sensitivity``)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that it stops a command as Ctrl-C does."""


WRITING = N_(
    "interrupted while writing the results: {folder} holds only {files} so far; the same "
    "command again writes them all"
)
"""The line after Ctrl-C once the answer is printed and its files are being written."""

WRITING_FIGURES = N_(
    "interrupted while writing the results: {folder} holds only {files} so far (the figures "
    "and report.html unfinished); the same command again writes them all"
)
"""The same, while the figures and the report are still to be drawn."""

WRITING_NOTHING = N_(
    "interrupted before the results were written into {folder}; the same command again writes them"
)
"""The same, before any file of the result is in the folder."""

RESULTS_IN = N_("Results in")
"""The command's last line once every file of its result is written: ``Results in R/``."""


@dataclass
class _Writing:
    """The output folder a command writes into once its answer is told (:func:`results_into`).

    Attributes:
        out: The folder.
        figures: Whether the figures and ``report.html`` are drawn.
        told: Whether the answer is told (its files are being written from then on).
    """

    out: Path
    figures: bool
    told: bool = False


_WRITING: list[_Writing] = []
"""The folder the command in progress writes its result into (:func:`results_into`)."""

_TOLD: list[bool] = []
"""Whether :func:`stop_interrupted` has told its line (once per process)."""

_EXACT: list[bool] = []
"""Whether this command computes exact answers (:func:`nothing_to_resume`)."""


@contextlib.contextmanager
def nothing_to_resume(nothing: bool) -> Iterator[None]:
    """While the block runs, Ctrl-C says only ``interrupted`` when ``nothing`` is kept.

    Nothing of an exact answer is kept, nor of ``balance``'s and ``sensitivity``'s
    evaluations: the line then never says that the same command resumes.
    """
    _EXACT.append(nothing)
    try:
        yield
    except KeyboardInterrupt as exc:
        if nothing:  # told here, while this block's word holds
            stop_interrupted(isinstance(exc, Terminated))
        raise
    finally:
        _EXACT.pop()


def now_resumable() -> None:
    """From now on, Ctrl-C says that the same command resumes: something is kept.

    For a command that keeps nothing at first and its work later (``calibrate`` saves its
    evaluations from the end of its first round on), begun under
    :func:`nothing_to_resume` ``(True)``.
    """
    if _EXACT:
        _EXACT[-1] = False


R = TypeVar("R")
"""The result a command's study answers with (:func:`results_into`)."""


@contextlib.contextmanager
def results_into(
    out: Path, figures: bool, shown: bool = True, *, show: Callable[[R], None]
) -> Iterator[Callable[[R], None]]:
    """Print the answer, then say where its files are, or what of them is there after Ctrl-C.

    A command prints its answer before it writes its files (CONTRACT.md); ``Results in
    R/`` comes only once they are all written, as the command's last line. The block gets
    ``answer``, the callback the command hands its study: it prints the answer (``show``),
    and from then on a Ctrl-C says which of the result's files the folder holds and which
    are unfinished (:func:`interrupted_writing`), not that the results are there.

    Args:
        out: The output folder.
        figures: Whether the command draws the figures and ``report.html``.
        shown: Whether to print ``Results in`` (not with ``--json``: stdout holds the JSON
            alone).
        show: Prints the answer (:func:`printed`, or a command's own table).
    """
    writing = _Writing(out, figures)

    def answer(result: R) -> None:
        show(result)
        sys.stdout.flush()  # the answer out before the files are written
        writing.told = True  # its files from now on: "Results in" once they are all written

    _WRITING.append(writing)
    try:
        yield answer
    except KeyboardInterrupt as exc:
        if writing.told:  # told here, while the folder is known
            stop_interrupted(isinstance(exc, Terminated))
        raise
    finally:
        _WRITING.remove(writing)
    if shown:
        click.echo(f"\n{results_in(out)}")


def results_in(out: Path) -> str:
    """The line ``Results in R/``: a command's last, once every file of its result is written."""
    from simulator.report.i18n import tr

    return f"{tr(RESULTS_IN)} {out}/"


def answer_text(lines: list[str], out: Path | None) -> str:
    """A command's answer as text: its lines, then ``Results in R/`` when ``out`` is given."""
    return "\n".join(lines if out is None else [*lines, "", results_in(out)])


def echo_json(data: object) -> None:
    """Print one JSON document on stdout (non-ASCII kept as it is)."""
    click.echo(json.dumps(data, ensure_ascii=False, default=str))


def printed(
    as_json: bool, data: Callable[[R], object], text: Callable[[R], str]
) -> Callable[[R], None]:
    """Print a command's answer: as one JSON document with ``--json``, else as its text.

    Args:
        as_json: Whether the command was given ``--json`` (stdout then holds the JSON alone).
        data: The result as JSON data.
        text: The result as the lines the command prints.
    """

    def show(result: R) -> None:
        if as_json:
            echo_json(data(result))
        else:
            click.echo(text(result))

    return show


def interrupted_writing(out: Path, figures: bool) -> str:
    """The line after Ctrl-C while a result's files are written into ``out``: what is there.

    The files the folder's marker lists as written and that are there; whether the figures
    and ``report.html`` (the folder's last file) are unfinished; and that the same command
    again writes them all (a run's trials, a study's evaluations are kept; an exact answer
    is worked out again).
    """
    from simulator.report.i18n import tr
    from simulator.runner.marker import MARKER, read_marker

    marker = None
    with contextlib.suppress(OSError, ValueError):
        marker = read_marker(out) if out.is_dir() else None
    listed = marker.get("files", {}) if isinstance(marker, dict) else {}
    files = sorted(name for name in listed if name != MARKER and (out / name).is_file())
    folder = f"{out}/"
    if not files:
        return one_line(tr(WRITING_NOTHING).format(folder=folder))
    template = WRITING_FIGURES if figures and "report.html" not in files else WRITING
    return one_line(tr(template).format(folder=folder, files=", ".join(files)))  # one line


def stop_interrupted(terminated: bool = False) -> None:
    """End the command after Ctrl-C (or SIGTERM): one line, exit status 130 (or 143).

    The line is told once: a second interruption on the way out (an exception that unwinds
    through a block that waits) only ends with the same status. Once the answer is told and
    its files are being written (:func:`results_into`), the line says what the folder holds.
    """
    from simulator.report.i18n import tr

    if not _TOLD:
        _TOLD.append(True)
        writing = _WRITING[-1] if _WRITING and _WRITING[-1].told else None
        if writing is not None:
            line = interrupted_writing(writing.out, writing.figures)
        else:
            line = tr(INTERRUPTED_EXACT if _EXACT and _EXACT[-1] else INTERRUPTED)
        with contextlib.suppress(OSError, ValueError):
            # a new line first only on a terminal, after its echoed ^C or a progress bar
            start = "\n" if sys.stderr is not None and sys.stderr.isatty() else ""
            click.echo(f"{start}{line}" + (" (SIGTERM)" if terminated else ""), err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


@contextlib.contextmanager
def notes_on_stderr() -> Iterator[None]:
    """Print every :class:`~simulator.errors.HarmoniesNote` of the block as ``note: ...``.

    Each goes to stderr at once, as one line; other warnings are shown as Python shows them.
    """
    with warnings.catch_warnings():
        _notes_shown_as_lines()
        yield


def notes_as_lines() -> None:
    """From now on, show each note as one ``note: ...`` line on stderr, every time it is said.

    What each command does (:func:`notes_on_stderr`), for a notebook or a script: Python would
    show a :class:`~simulator.errors.HarmoniesNote` as a warning, with the library's file and
    line. Other warnings are shown as Python shows them.
    """
    _notes_shown_as_lines()


def _notes_shown_as_lines() -> None:
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
            said = getattr(message, "phrase", None)
            if said is not None:  # a template and its values, worded now
                from simulator.report.i18n import tr

                message = fill(said.template, said.args, tr, _shown)  # 1,500,000
            tell("note", str(message))
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional controls, which reorder what a terminal shows (they can hide text)."""


def _escaped(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:  # as a JSON string writes it too: two surrogates
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def shown_text(text: str, keep: str = "\n\t") -> str:
    r"""``text`` as a terminal should show it: control characters escaped (``\u001b``).

    A scenario's name (or anything else read from a file) holding an escape sequence would
    otherwise set the terminal's title, move the cursor or hide a line. Each control
    character (and each bidirectional control, which can reorder a line) is written as a
    JSON string escapes it, so a JSON document stays valid; those of ``keep`` stay as they are.
    """
    if text.isprintable():
        return text
    return "".join(
        _escaped(c) if c not in keep and (c in _BIDI or unicodedata.category(c) == "Cc") else c
        for c in text
    )


_LINE_BREAKING = frozenset(("Cc", "Zl", "Zp"))
"""The categories of the characters that break a line or act on it: controls (a newline,
an escape) and the line and paragraph separators."""


def one_line(text: str) -> str:
    r"""``text`` as one line of a message: each control character escaped as Python writes it.

    A path or a value holding a newline (a scenario file named ``a\nb.toml``, an ``--out``
    with a line break) would otherwise split one ``error:`` line in two, and a script that
    reads one line per error would read two. Each control character, line or paragraph
    separator and bidirectional control is written as in a Python string (``\n``, ``\t``,
    ``\x1b``, ``\u202e``), as a value's ``repr`` in the same message writes it; every other
    character (accents, no-break spaces) stays as it is.
    """
    if text.isprintable():
        return text
    return "".join(
        repr(c)[1:-1] if c in _BIDI or unicodedata.category(c) in _LINE_BREAKING else c
        for c in text
    )


def tell(kind: str, text: str) -> None:
    """Print one ``error: ...`` or ``note: ...`` line (``kind``) on stderr: ``text`` on one line.

    Every error and note of the command line is printed here, so that each is exactly one
    line whatever paths and values it quotes (:func:`one_line`).
    """
    click.echo(f"{kind}: {one_line(text)}", err=True)


class EscapingStream(io.TextIOBase):
    """A text stream that writes through to another with :func:`shown_text` applied.

    On stderr, a write that begins with a carriage return keeps it (a progress bar redraws
    its line so); every other control character is escaped.
    """

    def __init__(self, stream: TextIO, bar: bool = False) -> None:
        self._stream = stream
        self._bar = bar

    def write(self, text: str) -> int:
        """Write ``text``, control characters escaped."""
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        head = "\r" if self._bar and text.startswith("\r") else ""
        self._stream.write(head + shown_text(text[len(head) :]))
        return len(text)

    def flush(self) -> None:
        """Flush the stream beneath."""
        self._stream.flush()

    def isatty(self) -> bool:
        """Whether the stream beneath is a terminal."""
        return self._stream.isatty()

    def fileno(self) -> int:
        """The stream beneath's file descriptor."""
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The stream beneath's encoding."""
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        """The stream beneath's error handler."""
        return getattr(self._stream, "errors", None)


@contextlib.contextmanager
def escaped_output() -> Iterator[None]:
    """For the block, stdout and stderr show control characters escaped (see :func:`shown_text`)."""
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, EscapingStream):
        sys.stdout = EscapingStream(sys.stdout)
    if not isinstance(sys.stderr, EscapingStream):
        sys.stderr = EscapingStream(sys.stderr, bar=True)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        sys.stdout, sys.stderr = saved


def repeated_options(command: click.Command, args: list[str]) -> list[str]:
    """The options of ``command`` that take one value and are given more than once in ``args``.

    Flags (``--json``) may be repeated harmlessly, and options declared ``multiple``
    (``--set``, ``--grid``) are meant to be; for any other, the last one given would
    silently win.
    """
    takes_value: dict[str, click.Option] = {}
    for declared in command.params:
        if isinstance(declared, click.Option) and not declared.is_flag and not declared.count:
            for opt in [*declared.opts, *declared.secondary_opts]:
                takes_value[opt] = declared
    seen: dict[str, int] = {}
    names: dict[str, str] = {}
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        opt = token.split("=", 1)[0] if token.startswith("--") else token
        param = takes_value.get(opt)
        if param is None:
            continue
        if "=" not in token:
            next(tokens, None)  # its value, whatever it looks like
        if not param.multiple and param.nargs == 1:
            key = param.name or opt
            seen[key] = seen.get(key, 0) + 1
            names.setdefault(key, param.opts[-1])
    return [names[key] for key, count in seen.items() if count > 1]


def _usage_error(exc: click.UsageError) -> NoReturn:
    """A mistake on the command line (an unknown option, a missing argument): one line, exit 2.

    Click's own form (``Usage: ...``, then ``Error: ...``) would break the project's rule
    that every refusal is ``error:`` lines; asking for help with no arguments stays help.
    """
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        exc.show()
        sys.exit(exc.exit_code)
    from simulator.report.i18n import tr

    see = ""
    if exc.ctx is not None:
        see = tr(" (see {command} --help)").format(command=exc.ctx.command_path)
    hint = _split_pair(sys.argv[1:])
    for one in exc.errors if isinstance(exc, UsageErrors) else [exc]:  # one line each
        message, where = one.format_message(), see
        # click lays a list of choices out on lines of its own: on the line, as the rest
        message = message.replace(":\n\t", ": ").replace(",\n\t", ", ")
        if hint is not None and (f"({hint[2]}" in message or f"'{hint[2]}'" in message):
            # --set first_aid.level 3: the value left over, as an extra argument or an unknown
            # option (-2), in any language
            option, key, value = hint
            value = shlex.quote(value.removeprefix("="))  # as the shell must be given it
            said = tr("; {option} takes KEY=VALUE as one word: {option} {key}={value}")
            where = said.format(option=option, key=key, value=value) + where
            message = message.rstrip(".")  # "No such option '-2'." then "; --set takes..."
        tell("error", f"{message or one}{where}")  # a value's newline escaped: one line
    sys.exit(EXIT_USER_ERROR)


PAIRED_OPTIONS = ("--set", "--set-a", "--set-b", "--grid", "--vary", "--target", "--notch")
"""The options whose one value is ``KEY=VALUE`` (or ``KEY=V1,V2``...)."""


def _split_pair(words: list[str]) -> tuple[str, str, str] | None:
    """``--set KEY VALUE`` typed with a space for the ``=``: the option, the key and the value.

    ``--set KEY =VALUE`` too; a value that starts with ``-`` only when it is a number (``-2``),
    not an option. The value comes back as the shell needs it written (quoted when it must).
    """
    for option, key, value in zip(words, words[1:], words[2:], strict=False):
        if option not in PAIRED_OPTIONS or "=" in key or not key.strip():
            continue
        if value.startswith("-") and not re.fullmatch(r"-\d[\d.,]*\w*", value):
            continue
        return option, key, value
    return None


class FilterGroup(click.Group):
    """The command group: every command ends as a Unix filter does, never with a traceback.

    A closed pipe (``harmonies-sim trace ... | head``) ends the command silently, with status
    141; any other failure to write (a full disk) is one ``error:`` line and status 1. The
    library's notes (:class:`~simulator.errors.HarmoniesNote`) are printed as ``note: ...``.
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a failed write ends it as a filter ends, Ctrl-C in one line.

        Ctrl-C is handed back to Python only here (:func:`simulator.startup.started`): until
        now, while click parses the group's options, start-up's handler ends the process with
        the same line and status (else click would print "Aborted!" and exit with 1).
        """
        from simulator import startup

        startup.started()
        try:
            with escaped_output(), notes_on_stderr():
                return super().invoke(ctx)
        except OSError as exc:
            _write_failed(exc)
        except KeyboardInterrupt:
            stop_interrupted()
        except click.UsageError as exc:
            _usage_error(exc)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        """Parse the group's own options; a mistake in them is an ``error:`` line too."""
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            _usage_error(exc)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Find the command; an option of one value given twice is refused (exit 2)."""
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            repeated = repeated_options(command, rest)
            if repeated:
                from simulator.report.i18n import tr

                for option in repeated:
                    text = tr(
                        "{option}: given more than once; expected it once (it takes one value: "
                        "the last would silently replace the others)"
                    )
                    tell("error", text.format(option=option))
                sys.exit(EXIT_USER_ERROR)
        return name, command, rest

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """The whole command line, ``--help`` and ``--version`` included, ends the same way."""
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            _write_failed(exc)


def _shown(name: str, value: object) -> str:
    """A value of an error's message: a number as the language writes it."""
    from simulator.report.i18n import value_shown

    return value_shown(name, value)


def _error_lines(exc: UserError, lang: str | None = None) -> list[str]:
    """The lines of an error in the language in force, or ``lang`` (the command's ``--lang``).

    One line per mistake: each problem of a scenario, each error of several, never a line
    break inside one (a path's newline is escaped where it is printed: :func:`tell`). A
    scenario's problems and an error given as a template are worded in that language.
    """
    from simulator.report.i18n import current_language, language, problem_text, tr

    if isinstance(exc, CombinedUserError):
        return [line for one in exc.errors for line in _error_lines(one, lang)]
    with language(lang or current_language()):
        if isinstance(exc, ScenarioError) and exc.problems:
            return [problem_text(p) for p in exc.problems]
        if current_language() != "en" and exc.phrase is not None:  # worded now
            return [fill(exc.phrase.template, exc.phrase.args, tr, _shown)]
    return [str(exc)] if str(exc) else []


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the project's :class:`UserError` into a message on stderr and exit status 2.

    An ``OSError`` from the machine (a full disk) becomes one line and exit status 1; one
    that says a file or folder may not be written (:data:`NOT_WRITABLE`: a folder made
    read-only while the command ran) is the same line with exit status 2, as that folder is
    refused at the start.

    Each line of the error becomes one ``error: ...`` line (a :class:`ScenarioError` has one
    line per problem). Messages name the command line's flags (``--trials``), not the
    Python API's arguments (:mod:`simulator.spelling`).
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from simulator.spelling import COMMAND_LINE, spelled

        try:
            with spelled(COMMAND_LINE):  # the API it runs through names its flags, not arguments
                return func(*args, **kwargs)
        except UserError as exc:
            lang = kwargs.get("lang")  # a command that sets its language in its body
            for line in _error_lines(exc, lang if isinstance(lang, str) else None):
                tell("error", line)
            sys.exit(EXIT_USER_ERROR)
        except OSError as exc:  # the machine's (a full disk, a lost mount), or a folder made
            # read-only meanwhile (the user's, as at the start)
            if exc.errno == errno.EPIPE:
                raise  # the reader went away: the group ends quietly
            drop_stdout()
            from simulator.report.i18n import tr

            where = f"{exc.filename}: " if exc.filename else ""
            said = getattr(exc, "phrase", None)  # a cluster lost says it in the language too
            error = fill(said.template, said.args, tr) if isinstance(said, Phrase) else None
            text = tr(
                "{where}{error}; nothing is half-written (a study's finished chunks are kept): "
                "fix it and run the same command again"
            ).format(where=where, error=error or exc.strerror or exc)
            tell("error", text)
            sys.exit(EXIT_USER_ERROR if exc.errno in USERS_OS_ERRORS else EXIT_SYSTEM_ERROR)

    return wrapper
