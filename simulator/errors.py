"""The project's own error types: user mistakes, reported without a traceback; and notes.

The library never prints. What a user should know about a run that still goes on (another
run's chunks left beside this one, a damaged chunk run again) is a :class:`HarmoniesNote`
warning, raised by :func:`note`; the command line prints each as one ``note: ...`` line on
stderr, and a Python caller sees it as any warning (or filters it: ``warnings.simplefilter``).
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import math
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from types import FrameType


def display(value: object) -> str:
    """A value as a message quotes it, never a Python object's repr.

    Strings and numbers as before (``'5min'``, ``3``); booleans, arrays, tables and dates as
    TOML writes them (``true``, ``["1h"]``, ``{level = 3}``, ``1979-05-27``): a person who
    wrote ``true`` reads ``true``, never Python's ``True``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple | dict):
        return _inline(value)
    return repr(value)


class TypedFloat(float):
    """A float of a TOML text, quoted as it was typed (``1e3``, ``1e400``, ``0.50``).

    It is the float TOML gives (``1e400`` is infinite, refused wherever a finite number is
    expected), but a message quotes what the person wrote: ``got 1e3``, never ``got 1000.0``,
    and ``got 1e400``, never ``got inf``.
    """

    typed: str

    def __new__(cls, value: float, typed: str) -> TypedFloat:  # noqa: D102
        made = super().__new__(cls, value)
        made.typed = typed
        return made

    def __repr__(self) -> str:
        return self.typed

    def __reduce__(self) -> tuple[type[TypedFloat], tuple[float, str]]:
        return TypedFloat, (float(self), self.typed)  # copied and pickled whole


def toml_float(text: str) -> float:
    """``parse_float`` for :mod:`tomllib`: the float, a :class:`TypedFloat` where typed otherwise.

    ``2.5`` stays a plain float; ``1e3``, ``0.50`` and ``1e400`` keep their text. TOML's own
    ``inf`` and ``nan`` stay plain floats.
    """
    value = float(text)
    if math.isnan(value) or repr(value) == text or "inf" in text.lower():
        return value
    return TypedFloat(value, text)


def _inline(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + "}"
    return display(value)


def shown_path(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """A path as a person reads it: bytes that are not UTF-8 shown escaped, never a repr."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def path_problem(
    path: str | bytes | os.PathLike[str] | os.PathLike[bytes], what: str
) -> Phrase | None:
    """Why ``path`` cannot name ``what`` (empty, not in UTF-8, too long for the system), or None.

    ``what`` is a template marked with :func:`N_` (``N_("folder")``), worded where shown.
    """
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if text == "":
        return phrase("the path of the {what} is empty; expected a path", what=Phrase(what))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return phrase(
            "{path}: the name of the {what} is not valid UTF-8; expected a name in UTF-8 "
            "(rename it)",
            path=shown_path(text),
            what=Phrase(what),
        )
    try:  # a name the system refuses outright: the user's path, not the machine (exit 2)
        os.lstat(text)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return phrase(
                "{path}: the name of the {what} is too long for the file system; expected a "
                "shorter name",
                path=shown_path(text),
                what=Phrase(what),
            )
    return None


def N_(text: str) -> str:  # noqa: N802 (gettext's name for a deferred translation)
    """Mark a template kept in a constant for Babel's extractor; it is translated where shown."""
    return text


def Nn_(one: str, many: str) -> tuple[str, str]:  # noqa: N802 (as N_, for a plural)
    """Mark the singular and plural templates of a count for the extractor."""
    return (one, many)


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence for a person, not yet in words: an English template and its values.

    The template has named placeholders (``"an integer from {low} to {high}"``); it is
    translated first, then filled (:func:`fill`), so that no code ever reads a finished
    sentence back. A value that is a :class:`Phrase` is a phrase inside the phrase.

    Attributes:
        template: The English template (a msgid of the catalogue).
        args: Its placeholders' values, by name.
    """

    template: str
    args: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return fill(self.template, self.args)


class PhraseText(str):
    """A finished English text that keeps the :class:`Phrase` it says, for another language.

    It is the English wherever a string is (equal to it, hashed as it); a reader in another
    language words :attr:`phrase` instead of reading the English back. A modifier's name
    ``wounds (2 light, 1 grave)`` is one (its phrase: ``wounds ({list})`` and the counts).
    """

    phrase: Phrase

    def __new__(cls, text: str, said: Phrase) -> PhraseText:
        """The English ``text`` of the phrase ``said``."""
        made = super().__new__(cls, text)
        made.phrase = said
        return made

    def __getnewargs__(self) -> tuple[str, Phrase]:  # type: ignore[override]
        """Pickled with its phrase (a trace sent between processes)."""
        return (str(self), self.phrase)


def phrase(template: str, **args: object) -> Phrase:
    """``phrase("one of {choices}", choices="a, b")``: a :class:`Phrase` from keywords."""
    return Phrase(template, tuple(args.items()))


def fill(
    template: str,
    args: tuple[tuple[str, object], ...] | dict[str, object],
    translate: Callable[[str], str] = str,
    show: Callable[[str, object], str] | None = None,
) -> str:
    """A template translated (``translate``), then filled with its values written out.

    A value that is a :class:`Phrase` is translated and filled in turn; ``show`` writes the
    others (``str`` by default) from their placeholder's name and value.
    """
    values = {}
    for name, value in args.items() if isinstance(args, dict) else args:
        if isinstance(value, Phrase):
            values[name] = fill(value.template, value.args, translate, show)
        else:
            values[name] = show(name, value) if show is not None else str(value)
    return translate(template).format(**values) if values else translate(template)


@dataclass(frozen=True)
class Problem:
    """One mistake in what a user gave.

    Attributes:
        source: The file (or ``--set``, or a flag) the value came from (a phrase for a flag
            on a file).
        key: The dotted key, e.g. ``first_aid.interval``.
        value: The bad value, as the user wrote it (``None`` when missing).
        expected: What was expected instead, in English words.
        template: The template of ``expected`` (a catalogue msgid), when it has values...
        args: ...and those values (a :class:`Phrase`'s); see :meth:`of`.
        keyed: Whether the mistake is the key's whatever its value (a key the scenario does
            not know): a sweep that sets that key to several values tells it once.
    """

    source: str | Phrase
    key: str
    value: object
    expected: str
    template: str = ""
    args: tuple[tuple[str, object], ...] = ()
    keyed: bool = False

    @classmethod
    def of(
        cls,
        source: str | Phrase,
        key: str,
        value: object,
        expected: str | Phrase,
    ) -> Problem:
        """A problem whose ``expected`` is a template and its values, filled in English here."""
        if isinstance(expected, str):
            return cls(source, key, value, expected, expected)
        english = fill(expected.template, expected.args)
        return cls(source, key, value, english, expected.template, expected.args)

    @property
    def phrase(self) -> Phrase:
        """What was expected, as a template and its values (to be worded in a language)."""
        return Phrase(self.template or self.expected, self.args)

    def expected_text(
        self,
        translate: Callable[[str], str] = str,
        show: Callable[[str, object], str] | None = None,
    ) -> str:
        """What was expected, in the language of ``translate``; ``show`` writes its values."""
        return fill(self.template or self.expected, self.args, translate, show)

    def __str__(self) -> str:
        shown = "missing" if self.value is _MISSING else f"got {display(self.value)}"
        return f"{self.source}: {self.key}: {shown}; expected {self.expected}"


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
MISSING: object = _MISSING
"""Marker for a required value that is absent."""


class UserError(ValueError):
    """A mistake in user input; the command line prints it and exits with status 2.

    Given a :class:`Phrase` (an English template and its values), the message is worded in
    the language in force where it is shown (the command line's ``--lang``); ``str()`` of
    the error is its English.

    Attributes:
        phrase: The message as a template and its values (None: given as finished English).
    """

    def __init__(self, message: str | Phrase = "") -> None:
        self.phrase = message if isinstance(message, Phrase) else None
        if isinstance(message, Phrase):
            message = fill(message.template, message.args, show=counted)
        super().__init__(message)


def counted(name: str, value: object) -> str:
    """A message's value in English: a whole number with its thousands (``1,000,000``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


class ExactLimitError(UserError):
    """The exact engine gave up, over its state or time budget: the scenario is for Monte Carlo.

    A notebook that falls back to sampling catches this one, not the words of its message.

    Attributes:
        limit: ``"states"`` (``max_states``) or ``"time"`` (``time_budget``).
        states: The states carried when it gave up.
        reached_h: The campaign time it had reached, in hours.
        horizon_h: The scenario's horizon, in hours.
        facts: What the engine's refusal is worded from
            (:func:`simulator.exact.engine.over_limit`), so that it can be worded again in
            another caller's words; None for a message that is not the engine's own (one
            :func:`located` told where it happened).
    """

    def __init__(
        self,
        message: str | Phrase,
        limit: str = "states",
        states: int = 0,
        reached_h: float = 0.0,
        horizon_h: float = 0.0,
        facts: Mapping[str, str | int | float] | None = None,
    ) -> None:
        super().__init__(message)
        self.limit, self.states = limit, states
        self.reached_h, self.horizon_h = reached_h, horizon_h
        self.facts = None if facts is None else dict(facts)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (a notebook's process pool sends it back): message and numbers."""
        message = self.phrase if self.phrase is not None else str(self)
        numbers = (self.limit, self.states, self.reached_h, self.horizon_h, self.facts)
        return (type(self), (message, *numbers))


def located(exc: UserError, template: str, **args: object) -> UserError:
    """``exc`` told with where it happened, an error of the same kind.

    An exact answer's limit stays an :class:`ExactLimitError`, for a notebook that falls back
    to sampling.

    Args:
        exc: The error.
        template: Where, with ``{error}`` for what went wrong (marked with :func:`N_`).
        **args: The template's other values.
    """
    error = exc.phrase if exc.phrase is not None else str(exc)
    told = phrase(template, error=error, **args)
    if isinstance(exc, ExactLimitError):
        return ExactLimitError(told, exc.limit, exc.states, exc.reached_h, exc.horizon_h)
    return UserError(told)


class ScenarioError(UserError):
    """One or more problems in a scenario file or its overrides.

    Attributes:
        problems: Every problem found, in the order found.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CombinedUserError(UserError):
    """Several mistakes found together (a file with three gets three ``error:`` lines).

    Attributes:
        errors: Each mistake, in the order found.
    """

    def __init__(self, errors: list[UserError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def every_mistake(*checks: Callable[[], object]) -> None:
    """Run every check; raise the mistakes they found, all of them (one ``error:`` line each).

    Raises:
        UserError: The one mistake, or a :class:`CombinedUserError` of several.
    """
    found: list[UserError] = []
    for check in checks:
        try:
            check()
        except CombinedUserError as exc:
            found += exc.errors
        except UserError as exc:
            found.append(exc)
    raise_all(found)


def raise_all(found: list[UserError]) -> None:
    """Raise the mistakes found, if any: the one, or a :class:`CombinedUserError` of several.

    Raises:
        UserError: When ``found`` is not empty.
    """
    if len(found) == 1:
        raise found[0]
    if found:
        raise CombinedUserError(found)


class TableError(UserError):
    """A wound table that breaks T2 (negative maximum, bad period, missing level)."""


class DurationError(UserError):
    """A duration string that does not parse (e.g. ``"15 minutes"`` or ``"-1h"``)."""


class HarmoniesNote(UserWarning):
    """Something a user should know about a run that goes on; not an error.

    Attributes:
        phrase: The note as a template and its values (None: given as finished English);
            ``str()`` of the note is its English.
    """

    def __init__(self, text: str | Phrase = "") -> None:
        self.phrase = text if isinstance(text, Phrase) else None
        super().__init__(str(text))


OS_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EISDIR: N_("Is a directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENOSPC: N_("No space left on device"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EEXIST: N_("File exists"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
}
"""The operating system's reasons a person meets most, as phrases (said in French too)."""


def os_reason(exc: OSError) -> Phrase | str:
    """Why the operating system refused, in words the catalogue translates where it can.

    A reason not listed in :data:`OS_REASONS` stays as the system said it (in English).
    """
    if exc.errno in OS_REASONS:
        return Phrase(OS_REASONS[exc.errno])
    return exc.strerror or type(exc).__name__


def note(text: str | Phrase) -> None:
    """Tell the user ``text`` as a :class:`HarmoniesNote` (``note: <text>`` on the command line).

    Args:
        text: One or more sentences, without the ``note:`` in front; a :class:`Phrase` is
            worded in the language in force where it is shown.

    Shown from Python (a notebook), the note names the caller's line, not the package's own,
    and it is shown each time it is given, not once per line of code.
    """
    warnings.warn(HarmoniesNote(text), stacklevel=_caller_level())


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this package (the user's line)."""
    level, frame = 2, cast("FrameType | None", sys._getframe(2))
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    return level


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
"""This package's folder: frames whose code lies here are the package's own."""

# A note is shown each time it is given: Python's default shows a warning once per line of
# code, and a notebook that made the same mistake twice heard of it once. This category only,
# and last: a filter the user set (-W ignore, simplefilter) still wins.
warnings.filterwarnings("always", category=HarmoniesNote, append=True)
