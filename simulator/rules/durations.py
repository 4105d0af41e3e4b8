"""Durations: parsed from strings with a unit, kept in seconds, printed for humans."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

from simulator.errors import DurationError

UNITS: dict[str, float] = {
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "d": 86400.0,
    "w": 604800.0,
}
"""Seconds per unit accepted in scenario files and tables."""

_PART = r"([0-9]+(?:\.[0-9]+)?)\s*(sem|w|d|j|h|min|s)"
_PATTERN = re.compile(rf"(?:{_PART}\s*)+")
_PARTS = re.compile(_PART)
_ORDER = ("w", "d", "h", "min", "s")
_ALIASES = {"j": "d", "sem": "w"}
"""French's day and week (``jour``, ``semaine``), as ``--lang fr`` writes them (``2 j 4 h``)."""
"""A compound duration names its units from the largest down, each once (``"2d 4h 30min"``)."""

MAX_DIGITS = 30
"""The most digits before a duration's decimal point (a hundred years is 10 digits of seconds)."""

MAX_DECIMALS = 1100
"""The most digits after it (a float's exact decimal expansion has at most 1074)."""
MICROSECONDS = 1_000_000
"""A duration is rounded once to the microsecond (RULES.md)."""


def microseconds(seconds: Fraction | float) -> int:
    """``seconds`` rounded to whole microseconds, half to even (RULES.md, every duration).

    A float is taken at its exact value.
    """
    return round(Fraction(seconds) * MICROSECONDS)


def instant(seconds: float) -> float:
    """A time made by adding durations (in seconds, as floats), as the instant it means.

    Every duration is a whole number of microseconds (RULES.md), so every time made of them
    is too; in floating point their sum is not always that instant (``7 * 61.2`` is
    428.40000000000003, after a test due at 428.4 s, and O1 then orders them wrongly). The
    sum is within far less than a microsecond of the instant: rounded to it, it is the float
    nearest the instant, the same float a scenario's duration of that length reads as.
    """
    if not math.isfinite(seconds):
        return seconds
    return round(seconds * MICROSECONDS) / MICROSECONDS


def in_microseconds(seconds: float) -> float:
    """An instant or a duration in seconds as its whole microseconds (a float).

    For exact arithmetic on it: an index of watches, the whole hours between two instants.
    """
    if not math.isfinite(seconds):
        return seconds
    return float(round(seconds * MICROSECONDS))


EXPECTED = 'a duration with a unit, e.g. "15s", "15min", "1.5h", "2d", "1w", "2h 20min"'


def parse_duration(text: object, *, allow_zero: bool = True) -> float:
    """Parse a duration such as ``"15min"`` or ``"1.5h"`` into seconds.

    A duration may add several parts, from the largest unit down, each unit once, with or
    without spaces (``"2h20min"``, ``"2 d 1 h 23 min"``, as the tool writes durations for a
    person).

    Args:
        text: The duration as written by a user.
        allow_zero: Whether ``"0s"`` is acceptable.

    Returns:
        The duration in seconds: the exact value of the decimal number times the unit,
        rounded once to the microsecond (half to even), as RULES.md says, so that one
        instant written two ways (``"1.1h"`` and ``"66min"``, or ``"1s"`` and
        ``"1.0000004s"``) is one instant (O1, O2); then the float nearest that.

    Raises:
        DurationError: When ``text`` is not a non-negative number followed by one of
            the units s, min, h, d, w (no space), or is zero when zero is refused.
    """
    if not isinstance(text, str):
        raise DurationError(f"{text!r} is not {EXPECTED}")
    written = text.strip()
    if _PATTERN.fullmatch(written) is None:
        raise DurationError(f"{text!r} is not {EXPECTED}")
    parts = [(number, _ALIASES.get(unit, unit)) for number, unit in _PARTS.findall(written)]
    ranks = [_ORDER.index(unit) for _, unit in parts]
    if any(a >= b for a, b in itertools.pairwise(ranks)):  # "1h 1h", "30min 1h"
        raise DurationError(f"{text!r} is not {EXPECTED} (units from the largest down, once)")
    for number, _ in parts:
        whole, _, decimals = number.partition(".")
        if len(whole.lstrip("0")) > MAX_DIGITS or len(decimals) > MAX_DECIMALS:
            raise DurationError(f"{text!r} has too many digits; expected {EXPECTED}")
    try:
        exact = sum((Fraction(number) * int(UNITS[unit]) for number, unit in parts), Fraction(0))
        seconds = float(Fraction(microseconds(exact), MICROSECONDS))
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds):
        raise DurationError(f"{text!r} is not {EXPECTED}")
    if not allow_zero and seconds <= 0:
        raise DurationError(f"{text!r} must be longer than zero")
    return seconds


_SPELLED = {
    "s": ("sec", "secs", "second", "seconds", "seconde", "secondes"),
    "min": ("m", "mn", "mins", "minute", "minutes"),
    "h": ("hr", "hrs", "hour", "hours", "heure", "heures"),
    "d": ("day", "days", "jour", "jours"),
    "w": ("wk", "wks", "week", "weeks", "semaine", "semaines"),
}
"""Units a person may spell out, or abbreviate as other tools do, and the unit they mean."""
_UNIT_OF = {word: unit for unit, words in _SPELLED.items() for word in (unit, *words)}
_SPELLED_PART = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([A-Za-zéè]+)")
_HOURS_MINUTES = re.compile(r"([0-9]+)\s*h\s*([0-9]+)", re.IGNORECASE)
"""``1h30``, as French writes an hour and a half."""


def spelled_unit(text: object) -> str | None:
    """``text`` with its units written as a duration takes them, when that is all it lacks.

    ``"30m"`` is ``"30min"``, ``"2 days"`` is ``"2d"``, ``"1 hour 30 mins"`` is ``"1h 30min"``,
    ``"2D"`` is ``"2d"`` and ``"1h30"`` is ``"1h 30min"``; None when that does not make a
    duration (or ``text`` already is one). ``M`` is left alone: other tools write months so.
    """
    if not isinstance(text, str) or _PATTERN.fullmatch(text.strip()):
        return None

    def unit(match: re.Match[str]) -> str:
        word = match.group(2)
        meant = _UNIT_OF.get(word if word == "M" else word.lower())
        return match.group(1) + (word if meant is None else meant)

    fixed = _HOURS_MINUTES.sub(r"\1h \2min", text.strip())
    fixed = _SPELLED_PART.sub(unit, fixed)
    try:
        parse_duration(fixed)
    except DurationError:
        return None
    return fixed


def format_duration(seconds: float) -> str:
    """Write a duration in the shortest exact unit form, e.g. ``900 -> "15min"``.

    Args:
        seconds: A non-negative duration.

    Returns:
        A string that :func:`parse_duration` reads back to the same value.
    """
    for unit in ("w", "d", "h", "min", "s"):
        size = UNITS[unit]
        count = round(seconds / size)
        if count >= 1 and abs(seconds - count * size) < 5e-7:  # exact to the microsecond
            return f"{count}{unit}"
    text = f"{seconds:.6f}".rstrip("0").rstrip(".")  # never an exponent: a valid duration
    return f"{text}s"


def format_clock(seconds: float) -> str:
    """Campaign time for a trace line: ``"2d 06:15"``, with seconds when needed.

    Args:
        seconds: Campaign time since 0.

    Returns:
        Days, then hours and minutes (and ``:ss`` when the time has seconds, ``:ss.cc``
        with hundredths), the time rounded to the hundredth of a second first.
    """
    centis = round(seconds * 100)  # shown to the hundredth at most: round once, here
    whole, frac = divmod(centis, 100)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{days}d {hours:02d}:{minutes:02d}"
    if secs or frac:
        text += f":{secs:02d}" if not frac else f":{secs:02d}.{frac:02d}"
    return text


ROUND_DURATIONS = tuple(
    [0.0]
    + [float(s) for s in (1, 2, 5, 10, 15, 30)]
    + [60.0 * m for m in (1, 2, 5, 10, 15, 30)]
    + [3600.0 * h for h in (1, 2, 3, 4, 6, 8, 12)]
    + [86400.0 * d for d in (1, 2, 3, 4, 5)]
    + [604800.0 * w for w in (1, 2, 3, 4, 6, 8, 13, 26, 52, 104, 260, 520, 1040, 5200)]
)
"""The "round" durations a notch moves a period to (15min: down 10min, up 30min)."""
