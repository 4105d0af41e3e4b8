"""The command line in the language of ``--lang``: its ``--help``, and click's own messages.

The language is read from the command line before click parses it (:func:`given_language`:
the last ``--lang`` before a ``--``), so that ``--help`` and the library's usage errors
(an unknown option, a missing argument) are worded in it too. Option names, choices and
values stay as written; the placeholders of values (metavars: ``KEY=VALUE``, ``INTEGER``,
``SCENARIO``) are words of the language (``CLÉ=VALEUR``, ``ENTIER``, ``SCÉNARIO``).

- **Help texts** are English templates: a command's docstring, an option's ``help``
  (found by ``pybabel extract`` through :mod:`simulator.cli.help_extract`). A command of
  class :class:`WordedCommand` (and the group, :class:`WordedGroup`) translates them while
  it formats its help, and puts the English back after; an option whose help has values
  (``--trials``' default) is a :class:`WordedOption` given a :class:`~simulator.errors.Phrase`.
- **Click's messages** (``Usage:``, ``Options``, ``No such option``...) go through the
  module-level ``gettext`` names click imports (``from gettext import gettext as _``): click
  offers no other hook. :func:`speak_click` points them at the project's catalogue, whose
  entries for them are the templates of :data:`CLICK_MESSAGES` (tests/report/test_catalogue.py
  checks that click still has each, and that each message click can print to a user is here).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import click

from simulator.errors import N_, Nn_, Phrase, counted, fill

CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types")
"""The modules of click whose messages a user of the command line can read."""

CLICK_MESSAGES = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("deprecated"),
    N_("Aborted!"),
    N_("Missing command."),
    N_("Value must be an iterable."),
    N_("env var: {var}"),
    N_("default: {default}"),
    N_("(dynamic)"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("unknown error"),
    N_("Could not open file {filename!r}: {message}"),
    N_("Invalid start character for option ({option})"),
    N_("Argument {name!r} takes {nargs} values."),
    N_("Option {name!r} does not take a value."),
    N_("Choose from:\n\t{choices}"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{value!r} is not a valid UUID."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
    Nn_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    Nn_("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."),
    Nn_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    Nn_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    Nn_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    Nn_(
        "{value!r} does not match the format {format}.",
        "{value!r} does not match the formats {formats}.",
    ),
    Nn_(
        "{len_type} values are required, but {len_value} was given.",
        "{len_type} values are required, but {len_value} were given.",
    ),
)
"""Every message of click's :data:`CLICK_MODULES` that a user can read, as the catalogue's
templates (the others are for a program's author: a parameter declared twice...)."""


CLICK_WORDS = (N_("required"),)
"""Words click translates by value (``_(extra["required"])`` in an option's help), which
the extractor cannot find in click's source: marked here for the catalogue."""


def given_language(args: Sequence[str]) -> str:
    """The language the command line asks for (its last ``--lang``), or ``en``.

    A language with no catalogue is English here: click then refuses it, in English.
    """
    from simulator.report.i18n import LANGUAGES

    found = "en"
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        if token == "--lang":
            found = next(tokens, found)
        elif token.startswith("--lang="):
            found = token.partition("=")[2]
    found = found.lower()
    return found if found in LANGUAGES else "en"


def _gettext(message: str) -> str:
    from simulator.report.i18n import tr

    return tr(message)


def _ngettext(one: str, many: str, n: int) -> str:
    from simulator.report.i18n import ntr

    return ntr(one, many, n)


def speak_click() -> None:
    """Make click's messages go through the catalogue of the language in force."""
    for name in CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = _gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = _ngettext  # type: ignore[attr-defined]


def help_template(text: str) -> str:
    """A help text as the catalogue holds it: cleaned as click cleans it, up to a form feed."""
    return inspect.cleandoc(text).partition("\f")[0]


def _shown(name: str, value: object) -> str:
    """A value of a help phrase: a whole number as the language writes it."""
    from simulator.report.i18n import number_text

    if isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    return str(value)


METAVARS = (
    N_("KEY=VALUE"),
    N_("KEY=V1,V2,..."),
    N_("KEY=LOW..HIGH"),
    N_("KEY=DOWN,UP"),
    N_("K1,K2,..."),
    N_("STAT"),
    N_("STAT=VALUE"),
    N_("PATH"),
    N_("INTEGER"),
    N_("INTEGER RANGE"),
    N_("FLOAT"),
    N_("TEXT"),
    N_("SECONDS"),
    N_("ADDRESS"),
    N_("SCENARIO"),
    N_("[SCENARIO | DIR]"),
    N_("DIRECTORY"),
    N_("CALIBRATION"),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
)
"""The placeholders of ``--help`` (metavars, and the usage line's), worded in the language."""


@contextlib.contextmanager
def _worded_metavars(commands: Iterable[click.Command], ctx: click.Context) -> Iterator[None]:
    """For the block, the placeholders of ``commands``' values in the language in force."""
    from simulator.report.i18n import tr

    saved: list[tuple[Any, str, Any]] = []

    def put(item: Any, name: str, value: Any) -> None:
        saved.append((item, name, getattr(item, name)))
        setattr(item, name, value)

    try:
        for command in commands:
            put(command, "options_metavar", tr(command.options_metavar or "[OPTIONS]"))
            if isinstance(command, click.Group):
                put(command, "subcommand_metavar", tr(command.subcommand_metavar or ""))
            for param in command.params:
                if isinstance(param, click.Option) and (param.is_flag or param.count):
                    continue
                shown = param.make_metavar(ctx)
                if shown in METAVARS:
                    put(param, "metavar", tr(shown))
        yield
    finally:
        for item, name, value in reversed(saved):
            setattr(item, name, value)


@contextlib.contextmanager
def worded_help(
    commands: Iterable[click.Command], ctx: click.Context | None = None
) -> Iterator[None]:
    """For the block, the help texts of ``commands`` and their options are in the language.

    In English nothing changes; otherwise each text is translated (an option's phrase
    translated, then filled), and put back as it was at the end of the block; with ``ctx``,
    the placeholders of values too.
    """
    from simulator.report.i18n import bound_spaces, current_language, tr

    if current_language() == "en":
        yield
        return
    commands = list(commands)
    saved: list[tuple[Any, str | None]] = []
    for command in commands:
        items: list[Any] = [command, *command.params]
        for item in items:
            text = getattr(item, "help", None)
            if text is None:
                continue
            saved.append((item, text))
            phrase = getattr(item, "phrase", None)
            if isinstance(phrase, Phrase):
                item.help = fill(phrase.template, phrase.args, tr, _shown)
            else:
                item.help = tr(help_template(text))
            item.help = bound_spaces(item.help)  # French: no break before : ; %
    try:
        if ctx is None:
            yield
        else:
            with _worded_metavars(commands, ctx):
                yield
    finally:
        for item, text in saved:
            item.help = text


_GLUED = re.compile(r"(?<=[^\s\u00a0]);(?= )")
"""click's ``0; 0<=x``: a semicolon written against its word."""


class WordedFormatter(click.HelpFormatter):
    """click's help formatter, whose headings take French's space before the colon."""

    def write_heading(self, heading: str) -> None:
        """``Options:``, or ``Options :`` in French."""
        from simulator.report.i18n import current_language

        if current_language() != "fr":
            super().write_heading(heading)
            return
        self.write(f"{'':>{self.current_indent}}{heading}\u00a0:\n")

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        """The options' rows, the semicolon of click's own brackets bound in French.

        click writes ``[par défaut : 0; 0<=x<=9]`` itself; French takes a no-break space
        before the semicolon, as the translated texts do.
        """
        from simulator.report.i18n import bound_spaces, current_language

        if current_language() == "fr":
            rows = [(term, _GLUED.sub("\u00a0;", bound_spaces(text))) for term, text in rows]
        super().write_dl(rows, col_max, col_spacing)


class WordedContext(click.Context):
    """The context of a worded command: its help written by :class:`WordedFormatter`."""

    formatter_class = WordedFormatter


class UsageErrors(click.UsageError):
    """Several mistakes click found on one command line, told together (one line each).

    Attributes:
        errors: Each mistake, in the order click met them.
    """

    def __init__(self, errors: Sequence[click.UsageError], ctx: click.Context | None) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(e.format_message() for e in self.errors), ctx)


def without_option(args: Sequence[str], param: click.Parameter) -> list[str] | None:
    """``args`` without the option ``param`` and its values; None if it is not among them.

    Only what comes before a ``--`` is an option; ``--trials=x`` and ``--trials x`` are
    both taken out (every time it is given).
    """
    if not isinstance(param, click.Option):
        return None
    names = {*param.opts, *param.secondary_opts}
    takes_value = not param.is_flag and not param.count
    kept: list[str] = []
    found = False
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            kept += [token, *tokens]
            break
        if token in names:
            found = True
            if takes_value:
                next(tokens, None)
        elif token.startswith("--") and token.partition("=")[0] in names:
            found = True
        else:
            kept.append(token)
    return kept if found else None


class WordedCommand(click.Command):
    """A command whose ``--help`` is in the language in force (see :func:`worded_help`).

    Its options' mistakes are told all at once, as a scenario file's are (CONTRACT.md: one
    ``error:`` line per problem), where click stops at the first (:meth:`parse_args`).
    """

    context_class = WordedContext

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Write the help, its texts translated."""
        with worded_help([self], ctx):
            super().format_help(ctx, formatter)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the command line; a value click refuses is told with every other mistake.

        click stops at the first value its types refuse (``--trials abc``). The command line
        is then parsed again, apart, without that option, to find the next mistake (another
        refused value, an unknown option, a missing argument), and so on: each is told, one
        line each, in the order click met them. What the command's own checks would say of
        the other values (``--seed -1``) is told once click accepts every value.

        Raises:
            click.UsageError: The one mistake, or :class:`UsageErrors` of several.
        """
        given = list(args)  # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter as exc:
            rest = None if exc.param is None else without_option(given, exc.param)
            if rest is None:
                raise
            try:  # a context of its own, thrown away: nothing of it reaches the command
                self.make_context(ctx.info_name, rest, parent=ctx.parent).close()
            except UsageErrors as more:
                raise UsageErrors([exc, *more.errors], ctx) from None
            except click.UsageError as more:
                raise UsageErrors([exc, more], ctx) from None
            raise


class WordedGroup(click.Group):
    """A group whose ``--help`` (its commands' short help too) is in the language in force."""

    context_class = WordedContext

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Write the help, its texts and those of its commands translated."""
        commands = [c for n in self.list_commands(ctx) if (c := self.get_command(ctx, n))]
        with worded_help([self, *commands], ctx):
            super().format_help(ctx, formatter)


class WordedOption(click.Option):
    """An option whose help has values: given as a :class:`~simulator.errors.Phrase`.

    Its ``help`` is the English, filled; :func:`worded_help` words the phrase in another
    language.
    """

    def __init__(self, *args: Any, help: str | Phrase | None = None, **kwargs: Any) -> None:
        self.phrase = help if isinstance(help, Phrase) else None
        if isinstance(help, Phrase):
            help = fill(help.template, help.args, show=counted)
        kwargs["help"] = help
        super().__init__(*args, **kwargs)


def _not_a_number(value: object, whole: bool) -> str:
    """Why ``value`` is not a number (whole when ``whole``): a decimal comma told with its point."""
    from simulator.report.i18n import tr
    from simulator.scenario.checks import decimal_point

    if whole:
        text = str(value).strip()
        if re.fullmatch(r"\d{1,3}([,. \u00a0\u202f']\d{3})+", text):  # 1,000 or 2 000
            return tr(
                "{value!r} is not a whole number; write it without separators: {fixed}"
            ).format(value=value, fixed=re.sub(r"\D", "", text))
        return tr("{value!r} is not a whole number.").format(value=value)
    fixed = decimal_point(value, (float,))
    text = str(value).strip()
    if re.fullmatch(r"\d{1,3},\d{3}", text):  # 1,000: a thousand, or one with a comma?
        told = tr(
            "{value!r} is not a number; write {fixed} for a decimal, or {whole} without separators"
        )
        return told.format(value=value, fixed=fixed, whole=text.replace(",", ""))
    if fixed is not None:  # '0,5' as a French hand writes it
        return tr("{value!r} is not a number; write it with a decimal point: {fixed}").format(
            value=value, fixed=fixed
        )
    return tr("{value!r} is not a number.").format(value=value)


class NumberType(click.types.FloatParamType):
    """click's float, whose refusal says "a number" in the language (and ``0,5`` → ``0.5``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The number (told as typed in a message: ``1e-400``, never ``0.0``), or a refusal."""
        from simulator.errors import TypedFloat

        try:
            number = super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(_not_a_number(value, False), param, ctx)
        typed = value.strip() if isinstance(value, str) else None
        if typed is not None and isinstance(number, float) and repr(number) != typed:
            return TypedFloat(number, typed)
        return number


class WholeType(click.types.IntParamType):
    """click's integer, whose refusal says "a whole number" in the language."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The whole number, or a refusal worded for a designer."""
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(_not_a_number(value, True), param, ctx)


class WholeRange(click.IntRange):
    """click's integer range, whose refusal of a non-number says "a whole number"."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The whole number in the range, or a refusal worded for a designer."""
        from simulator.report.i18n import number_text, tr

        number = WHOLE.convert(value, param, ctx)
        low, high = self.min, self.max
        if (low is None or number >= low) and (high is None or number <= high):
            return number
        if high is None or (high >= 2**53 and number < (low or 0)):  # only the bound met
            why = tr("{value} is not a whole number of at least {low}.")
        else:
            why = tr("{value} is not a whole number from {low} to {high}.")
        shown = {"low": number_text(low or 0), "high": number_text(high or 0)}
        self.fail(why.format(value=number, **shown), param, ctx)


NUMBER = NumberType()
"""A number option (``--eps``, ``--time-budget``)."""

WHOLE = WholeType()
"""A whole-number option (``--trials``, ``--seed``, ``--workers``...)."""

speak_click()
