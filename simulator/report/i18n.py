"""The words and number formats of every figure and printed table, in English and French.

One catalogue (:data:`FRENCH`, in :mod:`simulator.report.catalogue_fr`) holds every phrase
that a figure, a printed table or a rulebook export shows, keyed by its English text;
:func:`tr` looks a phrase up in the language in force. The language is set for a block
with :func:`language` (the command line's ``--lang``), or given to a function directly.

Numbers go through Babel: French has a decimal comma, a narrow no-break space before
``%`` (``97,7 %``) and between thousands, and its own duration units (``2 j 4 h``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from babel.numbers import format_decimal

from simulator.errors import UserError
from simulator.report.catalogue_fr import FRENCH

LANGUAGES = ("en", "fr")
"""The languages of ``--lang``."""

NNBSP = "\u202f"
"""The narrow no-break space French puts before % and between thousands."""

_LOCALES = {"en": "en_US", "fr": "fr_FR"}
_UNITS = {
    "en": (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)),
    "fr": (("j", 86400), ("h", 3600), ("min", 60), ("s", 1)),
}

_LANGUAGE: ContextVar[str] = ContextVar("harmonies_language", default="en")


def check_language(lang: str) -> str:
    """The language, checked.

    Raises:
        UserError: For a language other than ``en`` and ``fr``.
    """
    if lang not in LANGUAGES:
        raise UserError(f"--lang: got {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return lang


def current_language() -> str:
    """The language in force (``en`` unless a :func:`language` block says otherwise)."""
    return _LANGUAGE.get()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Make ``lang`` the language of everything drawn and printed in the block."""
    token = _LANGUAGE.set(check_language(lang or "en"))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


def tr(text: str, lang: str | None = None) -> str:
    """The phrase in the language (the one in force by default); English is the key.

    A phrase missing from the catalogue comes back in English (a test checks that every
    phrase shown is in it).
    """
    if (lang or _LANGUAGE.get()) == "fr":
        return FRENCH.get(text, text)
    return text


def number_text(value: float, lang: str | None = None, decimals: int | None = None) -> str:
    """A number for a person: ``1,234.5`` or ``1 234,5``; ``decimals`` fixes the decimals."""
    lang = lang or _LANGUAGE.get()
    if decimals is None:
        pattern = "#,##0.######"
    else:
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    text = format_decimal(value, format=pattern, locale=_LOCALES[lang])
    return text.replace("-", "\u2212") if lang == "fr" else text


def percent_text(p: float, decimals: int = 1, lang: str | None = None) -> str:
    """A share as a percent: ``23.4%``, or in French ``23,4 %``.

    A share that the rounding would show as 0% or 100% without being exactly so keeps two
    significant digits of its distance to them (``0.018%``, ``99.95%``): an interval never
    reads "0.0%–0.0%", and a share never reads above its own upper bound.
    """
    lang = lang or _LANGUAGE.get()
    pct = 100 * p
    text = f"{pct:.{decimals}f}"
    if pct > 0 and float(text) == 0:
        text = f"{pct:.2g}"
    elif pct < 100 and float(text) == 100:
        text = f"{100 - float(f'{100 - pct:.2g}'):g}"
    if lang == "en":
        return f"{text}%"
    places = len(text.partition(".")[2]) if "e" not in text else 6
    return number_text(float(text), lang, places) + f"{NNBSP}%"


def duration_text(seconds: float, lang: str | None = None) -> str:
    """A duration in the units a person uses: ``2 d 4 h``, ``16 h 40 min``, ``45 s``.

    French: ``2 j 4 h``, ``15 min``. Every non-zero unit is given, so the text is exact to
    the second (fractions of a second are kept on the seconds).
    """
    lang = lang or _LANGUAGE.get()
    if seconds <= 0:
        return f"0 {_UNITS[lang][-1][0]}"
    whole = math.floor(seconds)
    parts = []
    rest = whole
    for unit, size in _UNITS[lang]:
        count, rest = divmod(rest, size)
        if count:
            parts.append((count, unit))
    fraction = seconds - whole
    if fraction > 1e-9:
        secs = (parts.pop()[0] if parts and parts[-1][1] == "s" else 0) + fraction
        parts.append((number_text(round(secs, 3), lang), "s"))  # type: ignore[arg-type]
    return " ".join(f"{count} {unit}" for count, unit in parts)


def hours_text(hours: float, lang: str | None = None) -> str:
    """A time in hours as days and hours (``17 d 4 h``; ``5.5 hours`` under a day)."""
    lang = lang or _LANGUAGE.get()
    days, rest = divmod(hours, 24.0)
    if days < 1:
        return f"{number_text(hours, lang, 1)} {tr('hours', lang)}"
    day = _UNITS[lang][0][0]
    return f"{int(days)} {day} {rest:.0f} h" if rest >= 0.5 else f"{int(days)} {day}"
