"""A trace in the language in force: each line's template translated, then filled.

The engine's lines (:class:`~simulator.engine.trace.TraceLine`) carry a template of
:mod:`simulator.engine.trace_templates` and its values, never a finished sentence. Here the
template goes through the catalogue (:func:`~simulator.report.i18n.tr`, the plural form of a
count through :func:`~simulator.report.i18n.ntr`), and each value is written the way of the
language: words translated, campaign times and durations in its units (``2 j 04:05``,
``15 min``), numbers with its signs and decimals (``−5``, ``10,5``). Rule ids, keys and the
scenario's own names stay as written. In English the engine's own text is printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simulator.engine import trace_templates as tpl
from simulator.engine.trace import (
    TraceLine,
    format_line,
    format_trace,
    kind_of,
    points,
    signed,
    words,
)
from simulator.errors import Phrase, fill
from simulator.report.i18n import current_language, ntr, number_text, one_unit_every, tr
from simulator.rules.dice import TestRoll
from simulator.rules.durations import UNITS, format_clock, format_duration

_UNITS = {"w": "sem", "d": "j", "h": "h", "min": "min", "s": "s"}
"""The short units of a duration, in French."""


def french_number(text: str) -> str:
    """A number the engine wrote (``-5``, ``10.5``) with French signs: ``−5``, ``10,5``."""
    return text.replace("-", "\u2212").replace(".", ",")


def _number(text: str) -> str:
    return text if current_language() == "en" else french_number(text)


def clock_text(seconds: float) -> str:
    """A campaign time: ``2d 06:15`` in English, ``2 j 06:15`` in French."""
    text = format_clock(seconds)
    if current_language() == "en":
        return text
    days, _, rest = text.partition("d ")
    return f"{days} j {french_number(rest)}"


def duration_text(seconds: float) -> str:
    """A duration as a scenario writes it (``15min``), or in French units (``15 min``)."""
    if current_language() == "en":
        return format_duration(seconds)
    for unit in ("w", "d", "h", "min", "s"):
        count = round(seconds / UNITS[unit])
        if count >= 1 and abs(seconds - count * UNITS[unit]) < 5e-7:
            return f"{count} {_UNITS[unit]}"
    return f"{number_text(round(seconds, 6))} s"


def every_text(seconds: float) -> str:
    """A period after "every": :func:`duration_text`, but one unit in French as French says it.

    "toutes les minutes", "toutes les 24 h" (not "toutes les 1 min", "toutes les 1 j").
    """
    return one_unit_every(seconds) or duration_text(seconds)


def signed_text(value: float) -> str:
    """``+3``, ``−5``: a roll, a modifier or a margin in the language in force."""
    return _number(signed(value))


def modifier_name(name: str) -> str:
    """A modifier's name in the language: ``wounds (2 light, 1 grave)`` -> ``blessures (...)``.

    A name with values (a :class:`~simulator.errors.PhraseText`: A1's wounds and their
    counts) is worded from its phrase; any other is a word of the catalogue.
    """
    said = getattr(name, "phrase", None)
    if isinstance(said, Phrase):
        return fill(said.template, said.args, tr, _counts)
    return tr(name)


def _counts(name: str, value: object) -> str:
    """``2 légères, 1 grave``: counts of levels (``aucune`` for none), or a value as is."""
    if not isinstance(value, tuple):
        return str(value)
    return ", ".join(_counted(n, label) for n, label in value) or tr("none")


def _counted(n: int, label: str) -> str:
    """``2 légères``: a count of wounds of a level, the level agreed with it."""
    if label in tpl.COUNTED:
        return ntr(*tpl.COUNTED[label], n).format(n=n)
    return f"{n} × {tr(label)}"


def modifiers_text(modifiers: Sequence[tuple[str, float]]) -> str:
    """The modifiers of a test: the first always, the others when they are not zero."""
    shown = (
        f"{modifier_name(name)} {signed_text(value)}"
        for i, (name, value) in enumerate(modifiers)
        if value or not i
    )
    return ", ".join(shown)


def run_text(times: tuple[float, float]) -> str:
    """A run of tests: ``1 j 00:05 … 17 j 00:05`` (one time when the run is one test)."""
    first, last = times
    return clock_text(first) if first == last else f"{clock_text(first)} … {clock_text(last)}"


def _word(value: object) -> str:
    return tr(str(value))


_WRITERS: dict[str, Callable[[Any], str]] = {
    "modifiers": modifiers_text,
    "run": run_text,
    "clock": clock_text,
    "duration": duration_text,
    "every": every_text,
    "signed": signed_text,
    "word": _word,
}


def value_text(name: str, value: object) -> str:
    """A placeholder's value in the language, as its name's kind says (``kind_of``)."""
    kind = kind_of(name)
    if kind in _WRITERS:
        return _WRITERS[kind](value)
    return _number(points(value)) if isinstance(value, int | float) else str(value)


def phrase_text(template: str, args: tuple[tuple[str, object], ...]) -> str:
    """A trace template and its values, in the language in force."""
    return words(template, args, tr, value_text, ntr)


def test_text(test: TestRoll) -> str:
    """``jet +3, Cp+Rs +8, douleur −5 → marge +6 : réussite`` (the engine's ``format_test``)."""
    parts = [tr(tpl.ROLL).format(n=signed_text(test.roll)), modifiers_text(test.modifiers)]
    verdict = tr("success") if test.success else tr("FAILURE")
    margin = tr(tpl.MARGIN).format(n=signed_text(test.margin), verdict=verdict)
    return f"{', '.join(p for p in parts if p)} → {margin}"


def line_text(line: TraceLine, width: int = 14) -> str:
    """One timeline line in the language in force (the engine's ``format_line`` in English)."""
    if current_language() == "en":
        return format_line(line, width)
    head = f"{clock_text(line.time):>{width}}  {line.rule:<3}  "
    head += phrase_text(line.template, line.args)
    if line.test is None:
        return head
    return f"{head}\n{'':>{width}}       {test_text(line.test)}"


def trace_text(lines: list[TraceLine]) -> str:
    """The whole timeline in the language in force."""
    if current_language() == "en":
        return format_trace(lines)
    return "\n".join(line_text(line) for line in lines)
