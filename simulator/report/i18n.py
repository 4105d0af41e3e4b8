"""The words and number formats of every figure and printed text, in English and French.

Every sentence a person reads is an English template with named placeholders, translated
first (:func:`tr`, :func:`ntr` for a count, :func:`ptr` with a context) through the gettext
catalogue of the language (:mod:`simulator.report.catalogue`, a ``.po`` file), and filled
with its values after. The language is set for a block with :func:`language` (the command
line's ``--lang``), or given to a function directly.

Numbers go through Babel: French has a decimal comma, a narrow no-break space before
``%`` (``97,7 %``) and between thousands, and its own duration units (``2 j 4 h``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from simulator.errors import MISSING, N_, Problem, UserError, display, fill, phrase
from simulator.report.catalogue import catalogue, languages

if TYPE_CHECKING:
    from simulator.scenario.keys import Key

LANGUAGES = languages()
"""The languages of ``--lang``: English and every language with a ``.po`` file."""

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
        UserError: For a language with no catalogue.
    """
    if lang not in LANGUAGES:
        raise UserError(
            phrase(
                "--lang: got {value}; expected one of {choices}",
                value=repr(lang),
                choices=", ".join(LANGUAGES),
            )
        )
    return lang


def current_language() -> str:
    """The language in force (``en`` unless a :func:`language` block says otherwise)."""
    return _LANGUAGE.get()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Make ``lang`` the language of everything drawn and printed in the block.

    ``None`` keeps the language in force (a command without ``--lang`` speaks the language
    the whole command line asks for).
    """
    token = _LANGUAGE.set(check_language(lang or _LANGUAGE.get()))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


def tr(text: str, lang: str | None = None) -> str:
    """The template in the language (the one in force by default); English is the msgid.

    A template missing from the catalogue comes back in English (a test checks that every
    template the code marks is in it).
    """
    found = catalogue(lang or _LANGUAGE.get())
    return text if found is None else found.gettext(text)


def said(value: str, lang: str | None = None) -> str:
    """A value the file writes (a ruleset, a profile), as the language says it.

    ``Arpèges (arpeges)`` where the language says it otherwise, the value itself where not
    (English).
    """
    shown = tr(value, lang)
    return value if shown == value else f"{shown} ({value})"


def ptr(context: str, text: str, lang: str | None = None) -> str:
    """:func:`tr` for a template whose translation depends on where it is shown."""
    found = catalogue(lang or _LANGUAGE.get())
    return text if found is None else found.gettext(text, context)


def ntr(one: str, many: str, n: int, lang: str | None = None) -> str:
    """The template of the count ``n`` in the language: ``"{n} wound"`` or ``"{n} wounds"``."""
    found = catalogue(lang or _LANGUAGE.get())
    if found is None:
        return one if n == 1 else many
    return found.ngettext(one, many, n)


def problem_text(problem: Problem, lang: str | None = None) -> str:
    """One problem of a scenario in the language; the file, key and value stay as written."""
    lang = lang or _LANGUAGE.get()
    if lang == "en":
        return str(problem)
    shown = (
        tr("missing", lang)
        if problem.value is MISSING
        else tr("got {value}", lang).format(value=display(problem.value))
    )
    expected = problem.expected_text(lambda text: tr(text, lang), values_in(lang))
    return tr("{source}: {key}: {shown}; expected {expected}", lang).format(
        source=fill("{what}", {"what": problem.source}, lambda text: tr(text, lang)),
        key=place_text(problem.key, lang),
        shown=shown,
        expected=expected,
    )


_LINE_KEY = re.compile(r"line (\d+)")
_PLACES = (N_("(file)"), N_("end of file"))
"""The places in a file a problem may name instead of a key."""


def place_text(key: str, lang: str) -> str:
    """A problem's key in the language when it is a place in the file, not a key of it.

    ``line 3``, ``(file)`` and ``end of file`` are the reader's words; keys stay as written.
    """
    if key in _PLACES:
        return tr(key, lang)
    found = _LINE_KEY.fullmatch(key)
    if found is not None:
        return tr("line {n}", lang).format(n=found.group(1))
    return key


def value_shown(name: str, value: object, lang: str | None = None) -> str:
    """A value of a message's template: a number as the language writes it (``2 945 949``).

    A number typed by the person (a :class:`~simulator.errors.TypedFloat`) as typed.
    """
    from simulator.errors import TypedFloat

    del name
    if isinstance(value, TypedFloat):  # a number as the person typed it: 1e-400, 0.50
        return value.typed
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number_text(value, lang)
    return str(value)


def values_in(lang: str) -> Callable[[str, object], str] | None:
    """How a problem's expected values are written in ``lang`` (``de −1 000 à 1 000``).

    Its numbers as the language writes them, as every other number of the page and the
    terminal is; None in English, whose messages keep them as the command line writes them.
    """
    if lang == "en":
        return None
    return lambda name, value: value_shown(name, value, lang)


def number_text(value: float, lang: str | None = None, decimals: int | None = None) -> str:
    """A number for a person: ``1,234.5`` or ``1 234,5``; ``decimals`` fixes the decimals."""
    lang = lang or _LANGUAGE.get()
    if decimals is None:  # six decimals, or six significant digits of a small number
        small = 0 < abs(value) < 0.1
        pattern = "#,##0." + "#" * (min(20, 5 - math.floor(math.log10(abs(value)))) if small else 6)
    else:
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    text = format_decimal(value, format=pattern, locale=_LOCALES[lang])
    return text.replace("-", "\u2212") if lang == "fr" else text


def percent_text(
    p: float,
    decimals: int = 1,
    lang: str | None = None,
    *,
    digits: int = 2,
    most: int | None = None,
) -> str:
    """A share as a percent: ``23.4%``, or in French ``23,4 %``.

    A share keeps ``decimals`` decimals; one within 1% of 0% or of 100% keeps more where it
    needs them for ``digits`` significant digits of that distance: ``0.018%``, ``0.072%``,
    ``0.50%``, ``99.40%``, ``99.982%``. A share and the bounds of its interval then read at
    the same precision (never ``0.035% (0.017%–0.1%)``), an interval never reads
    "0.0%–0.0%", and a share never reads above its own upper bound. 0% and 100% are exact;
    a share farther from them keeps ``decimals`` (``5%`` at none, ``23.4%`` at one).

    Args:
        p: The share, between 0 and 1.
        decimals: The decimals of a share far from 0% and 100%.
        lang: The language (by default the one in force).
        digits: The fewest significant digits: 2 for a share estimated or computed, 1 for an
            axis's tick (``0.5%`` stays ``0.5%``).
        most: The most decimals, whatever ``digits`` asks (None: no limit): a share shown
            without its interval keeps no digit finer than one trial (:func:`trial_decimals`).
    """
    lang = lang or _LANGUAGE.get()
    if math.isfinite(p):
        value = Decimal(f"{p:.10g}") * 100
        distance = min(value, 100 - value)  # to 0% or to 100%
        places = max(decimals, _places_for(distance, digits)) if distance < 1 else decimals
        if most is not None:
            places = min(places, max(most, decimals))
        text = f"{_percent_value(p, places):f}"
    else:
        text = f"{100 * p:.{decimals}f}"
    if lang == "en":
        return f"{text}%"
    places = len(text.partition(".")[2])
    return number_text(float(text), lang, places) + f"{NNBSP}%"


def trial_decimals(trials: int) -> int:
    """The decimals of a percent that one trial of ``trials`` moves: one at least.

    A share of a count of trials without its interval (a heatmap's cell, a bar's label)
    keeps no digit that no count can move: one trial in 300 is 0.33 points (``0.3%``), in
    2,000 0.05 (``99.95%``, never ``99.950%``), in 20,000 0.005 (``0.005%``). One trial's
    step is never smaller than the last decimal kept, so a share short of 0% or 100% by
    one trial never reads as 0% or 100%.
    """
    return max(1, math.ceil(math.log10(max(trials, 1) / 100) - 1e-9))


def _places_for(distance: Decimal, digits: int) -> int:
    """The decimals that show ``digits`` significant digits of a positive distance (else 0)."""
    if distance <= 0:
        return 0
    shown = round(distance, digits - 1 - distance.adjusted())  # 0.0996 reads 0.10, not 0.100
    return digits - 1 - shown.adjusted()


def _percent_value(p: float, decimals: int) -> Decimal:
    """A share in percent, rounded as :func:`points_value` rounds a difference of two.

    Read at the ten significant digits the CSV files keep, then rounded half up (away from
    zero), as a person rounds: a share of 0.1435 and its difference from 0 both read 14.4
    (as floats, 100 × 0.1435 is 14.3499... and the difference's estimate 0.14350...01: they
    read 14.3 beside +14.4), and 94.65% reads 94.7% whatever the float's last bit.
    """
    return (Decimal(f"{p:.10g}") * 100).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)


def exact_percent_text(p: float, lang: str | None = None) -> str:
    """An exact share to four decimals: ``12.3457%``, or in French ``12,3457 %``."""
    lang = lang or _LANGUAGE.get()
    if lang == "en":
        return f"{100 * p:.4f}%"
    return f"{number_text(100 * p, lang, 4)}{NNBSP}%"


def mass_text(mass: float, lang: str | None = None) -> str:
    """A dropped probability mass, two significant digits: ``1.4e-11`` (``1,4e−11``)."""
    text = f"{mass:.2g}"
    if (lang or _LANGUAGE.get()) == "en":
        return text
    return text.replace(".", ",").replace("-", "\u2212")


def value_text(key: Key, value: float, lang: str | None = None) -> str:
    """A key's value for a person: ``3``, ``16 h 40 min``, ``0.25`` (``0,25`` in French)."""
    from simulator.scenario.keys import Kind

    if key.kind is Kind.INTEGER:
        return number_text(int(value), lang)
    if key.kind is Kind.DURATION:
        return duration_text(float(value), lang)
    return number_text(float(f"{float(value):.6g}"), lang)  # six significant digits


def points_value(difference: float, decimals: int = 1) -> float:
    """A difference of shares in percentage points, one decimal, as every output rounds it.

    ``decimals``: four for exact answers, which show their shares to four decimals.

    Read at the ten significant digits the CSV files keep (``%.10g``), then rounded half up
    (away from zero), as :func:`percent_text` rounds a share: the terminal, which holds the
    float, and a page, which reads the CSV, then print the same digits (0.579 − 0.3605 is
    0.21849999... as a float and 0.2185 in the file), and a difference from 0 reads as the
    share itself.
    """
    if not math.isfinite(difference):
        return difference
    step = Decimal(1).scaleb(-decimals)
    points = (Decimal(f"{difference:.10g}") * 100).quantize(step, ROUND_HALF_UP)
    return float(points) + 0.0  # never -0.0


def points_text(difference: float, lang: str | None = None, decimals: int = 1) -> str:
    """:func:`points_value` with its unit: ``21.8 points``, ``0,0 point`` (French: below 2)."""
    lang = lang or _LANGUAGE.get()
    value = points_value(difference, decimals)
    n = int(abs(value)) if lang == "fr" else 2  # English shows decimals: always "points"
    return ntr("{n} point", "{n} points", n, lang).format(n=number_text(value, lang, decimals))


def reach_text(reach: float, lang: str | None = None) -> str:
    """An interval's widest reach in points, rounded *up* to the tenth: ``1.549`` → ``1.6 points``.

    A title that says "95% CI within ±…" promises that no cell's interval reaches further; half
    up would write 1.5 for a reach of 1.549 points. Read at the CSV files' ten digits first, as
    :func:`points_value` reads them (a reach of exactly 1.5 points stays 1.5).
    """
    if not math.isfinite(reach):
        return points_text(reach, lang)
    tenths = (Decimal(f"{reach:.10g}") * 1000).to_integral_value(ROUND_CEILING)
    return points_text(float(tenths) / 1000.0, lang)


def signed_points(difference: float, decimals: int = 1, lang: str | None = None) -> str:
    """A difference of shares in points, signed (``+1.5``, ``−1,5``), ``0.0`` when it rounds to 0.

    Rounded as :func:`points_value`; the minus is U+2212 (French, and figures in English).
    """
    lang = lang or _LANGUAGE.get()
    value = points_value(difference, decimals)
    text = number_text(abs(value), lang, decimals)
    if value == 0:
        return text
    return ("+" if value > 0 else "\u2212") + text


def notch_text(
    share: float, exact: bool = False, lang: str | None = None, *, figure: bool = False
) -> str:
    """A statistic's move per notch in points, signed: ``-2.9``, ``+0.1``, ``0``.

    One decimal when sampled, as every difference of sampled shares is shown (a move of
    400 trials is never ``-2.875``); four when exact. Rounded as :func:`points_value`. The
    minus is U+2212 in French and on a figure, ``-`` in English text, as
    :func:`signed_number` and :func:`signed_points` write theirs.
    """
    lang = lang or _LANGUAGE.get()
    value = points_value(share, 4 if exact else 1)
    text = number_text(abs(value), lang)
    if value == 0:
        return text
    minus = "\u2212" if figure or lang == "fr" else "-"
    return ("+" if value > 0 else minus) + text


def signed_number(value: float, decimals: int = 2, lang: str | None = None) -> str:
    """A difference of two numbers, signed (``+0.81``, ``−0,81``), unsigned when it rounds to 0.

    The minus is U+2212 in French, as :func:`number_text` writes it, and ``-`` in English.
    """
    lang = lang or _LANGUAGE.get()
    if not math.isfinite(value):
        return "—"
    text = number_text(abs(value), lang, decimals)
    if not any(c in "123456789" for c in text):
        return text
    if value > 0:
        return "+" + text
    return ("−" if lang == "fr" else "-") + text


def plain(number: float | Decimal) -> str:
    """A number as a person writes it: never in exponent form (``1e-05`` is ``0.00001``)."""
    text = format(Decimal(repr(number)) if isinstance(number, float) else number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


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
    """A time in hours as a person reads it: ``17 d 4 h``, ``5.5 hours``, ``42 min 30 s``.

    Days and hours from a day up, hours under a day, minutes and seconds under an hour.
    Rounded to the hour once, first: 47.7 hours is ``2 d``, never ``1 d 24 h``; under an hour,
    to the second (15 s is never ``0.0 hours``).
    """
    lang = lang or _LANGUAGE.get()
    if round(hours, 1) < 1:
        return duration_text(round(hours * 3600), lang)
    if round(hours, 1) < 24:
        shown = number_text(hours, lang, 1)
        unit = tr("hour", lang) if lang == "fr" and round(hours, 1) < 2 else tr("hours", lang)
        return f"{shown} {unit}"  # French: the singular below 2 (1,5 heure)
    days, rest = divmod(round(hours), 24)
    day = _UNITS[lang][0][0]
    return f"{days} {day} {rest} h" if rest else f"{days} {day}"


def hours_and_raw(hours: float, lang: str | None = None) -> str:
    """:func:`hours_text`, with the hours a file holds beside days (``2 d 4 h (52.0 h)``)."""
    shown = hours_text(hours, lang)
    if round(hours, 1) >= 24:
        shown += f" ({number_text(hours, lang or _LANGUAGE.get(), 1)} h)"
    return shown


def stat_label(text: str) -> str:
    """A statistic's name for a person: ``p_dead_by_1d`` -> "Share dead by 1 d"."""
    from simulator.report.messages import CAUSE_LABELS
    from simulator.rules.durations import parse_duration

    causes = "|".join(CAUSE_LABELS)
    match = re.match(rf"^p_(dead|healed|wounded|incoherent)(?:_({causes}))?(?:_by_(.+))?$", text)
    if match is None:
        return text
    what = tr(f"Share {match.group(1)}")
    if match.group(2) is not None:  # Q3: the deaths of one cause
        what = tr("Share dead after {cause}").format(cause=tr(CAUSE_LABELS[match.group(2)]))
    if match.group(3) is None:
        return f"{what} {tr('at the horizon')}"
    return f"{what} {tr('by')} {duration_text(parse_duration(match.group(3)))}"


_BOUND = re.compile(r" ([:;?!%»])|(«) ")


def bound_spaces(text: str) -> str:
    """French spaces that never break a line: before ``: ; ? ! % »`` and after ``«``.

    click wraps a help text at its spaces, and a browser a page's lines: ``97,7 %`` and
    ``défaut : en`` stay whole (a no-break space is no space to either).
    """
    return _BOUND.sub(lambda m: f"\u00a0{m.group(1)}" if m.group(1) else "«\u00a0", text)


_EVERY_ONE = {604800: "semaines", 86400: "24 h", 3600: "heures", 60: "minutes", 1: "secondes"}
"""French "toutes les …" of one unit: "toutes les minutes", never "toutes les 1 min"."""


def one_unit_every(seconds: float, lang: str | None = None) -> str | None:
    """What French writes after "toutes les" for a period of one unit; None otherwise."""
    if (lang or _LANGUAGE.get()) != "fr":
        return None
    for unit, word in _EVERY_ONE.items():
        if abs(seconds - unit) < 5e-7:
            return word
    return None


def colon(lang: str | None = None) -> str:
    """A colon as the language writes it before what it introduces: ``": "``, ``" : "``."""
    return " : " if (lang or _LANGUAGE.get()) == "fr" else ": "


def key_label(name: str, lang: str | None = None) -> str:
    """A key's name for a person: ``rules.table.grave.pain`` -> "grave wound: pain".

    Both spellings of an item of a list are one key (``injuries[0].at`` and
    ``injuries.0.at``: "injury 1: time"). Keys without a label stay as they are (a dotted
    key is no English).
    """
    parts = re.sub(r"\[(\d+)\]", r".\1", name.strip()).split(".")
    cell = None
    if len(parts) == 4 and parts[:2] == ["rules", "table"]:
        cell = parts[2], parts[3]
    elif len(parts) == 3 and parts[:2] == ["patient", "maxima"]:  # the max that wins (T2)
        cell = parts[2], "max"
    if cell is not None:
        wound, column = cell[0] + " wound", cell[1].replace("_", " ")  # marked in messages
        level, column = tr(wound, lang), tr(column, lang)
        # French: "périodicité instable (blessure grave)", which a sentence can hold
        return tr("{level}: {column}", lang).format(level=level, column=column)
    if len(parts) == 3 and parts[0] in ITEM_LABELS and parts[1].isdigit():
        field = tr(ITEM_FIELDS.get(parts[2], parts[2]), lang)
        return tr(ITEM_LABELS[parts[0]], lang).format(n=int(parts[1]) + 1, field=field)
    return tr(KEY_LABELS.get(name, name), lang)


ITEM_LABELS = {"injuries": N_("injury {n}: {field}"), "activities": N_("activity {n}: {field}")}
"""How an item of ``[[injuries]]`` or ``[[activities]]`` is named, counted from 1."""

ITEM_FIELDS = {"at": "time", "level": "level", "count": "count", "modifier": "modifier"}
"""The words of an item's keys (then translated)."""


KEY_LABELS = {
    "patient.cp_rs": "Cp+Rs",
    "patient.rs_it": "Rs+It",
    "first_aid.level": "first-aid level",
    "first_aid.start": "first aid: start",
    "first_aid.interval": "first aid: interval",
    "first_aid.modifier": "first aid: modifier",
    "first_aid.self": "first aid by the patient itself",
    "first_aid.max_attempts": "tries at most, per spell",
    "healing.level": "healer's level",
    "healing.modifier": "healing: modifier",
    "watch.neglect_probability": "neglect probability",
    "rules.trigger_probability": "trigger probability",
    "rules.pain_recovery_per_hour": "pain recovered per hour",
    "rules.self_aid_pain_factor": "pain factor when the patient treats itself",
    "rules.tie_succeeds": "a tie succeeds",
    "rules.open_roll": "open roll (10s rolled again)",
    "rules.faint_duration": "faint duration",
    "rules.stable_survival_tests": "survival tests while stable",
    "rules.rest_after_unstable": "rest after an unstable period",
    "rules.rest_per_level": "rest per level",
    "rules.activity_breaks_rest": "rough activity breaks the rest",
    "rules.pain_floor_craziness": "the pain floor counts craziness",
    "horizon": "horizon",
    "ruleset": "ruleset",
    "patient.profile": "profile",
}
"""How the keys moved by default are named in figures (then translated)."""
