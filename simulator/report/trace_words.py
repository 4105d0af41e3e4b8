"""A trace in the language in force: the engine's English lines, told again in French.

The engine writes its timeline in English (:class:`~simulator.engine.trace.TraceLine`), and
knows nothing of languages. Here each line's text is translated whole through the
catalogue's patterns (:func:`~simulator.report.i18n.translate`); a test is written again
from its numbers (:class:`~simulator.rules.dice.TestRoll`); times, durations and numbers
are written the French way (``2 j 04:05``, ``15 min``, ``−5``, ``10,5``). Rule ids, keys
and the scenario's own names stay as written. In English the engine's own text is printed.
"""

from __future__ import annotations

import re

from simulator.engine.trace import TraceLine, format_line, format_trace
from simulator.report.i18n import current_language, tr, translate
from simulator.rules.dice import TestRoll
from simulator.rules.durations import format_clock

_UNITS_FR = {"w": "sem", "d": "j", "h": "h", "min": "min", "s": "s"}
_CLOCK = re.compile(r"\b(\d+)d (\d\d:\d\d(?::\d\d(?:\.\d\d)?)?)")
_DURATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(w|d|h|min|s)\b")
_MODIFIER = re.compile(r"(.+?) ([+-]\d+(?:\.\d+)?)(?:, |$)")
_WOUNDS = re.compile(r"^wounds \((.*)\)$")
_COUNTED = re.compile(r"(\d+) (\w+)")


def number_fr(text: str) -> str:
    """``-5`` -> ``−5``, ``10.5`` -> ``10,5``: the numbers of a text written the French way."""
    text = re.sub(r"(?<![\w.])-(?=\d)", "\u2212", text)
    return re.sub(r"(?<=\d)\.(?=\d)", ",", text)


def clock_fr(text: str) -> str:
    """Campaign times and durations of a text in French: ``2d 06:15`` -> ``2 j 06:15``."""
    text = _CLOCK.sub(lambda m: f"{m.group(1)} j {m.group(2)}", text)
    return _DURATION.sub(lambda m: f"{m.group(1)} {_UNITS_FR[m.group(2)]}", text)


def modifier_name(name: str) -> str:
    """A modifier's name in the language: ``wounds (2 light, 1 grave)`` -> ``blessures (...)``."""
    wounds = _WOUNDS.match(name)
    if wounds is None:
        return translate(name)
    counted = _COUNTED.sub(lambda m: f"{m.group(1)} × {tr(m.group(2))}", wounds.group(1))
    return tr("wounds ({list})").format(list=counted)


def value_fr(text: str) -> str:
    """What fills a placeholder of a trace phrase: a list of modifiers, a time, a number."""
    found = _MODIFIER.findall(text)
    if found and "".join(f"{n} {v}, " for n, v in found)[:-2] == text:
        return ", ".join(f"{modifier_name(n)} {number_fr(v)}" for n, v in found)
    return number_fr(clock_fr(text))


def _signed(value: float) -> str:
    text = f"{value:+d}" if isinstance(value, int) else f"{value:+.6f}".rstrip("0").rstrip(".")
    return number_fr(text)


def test_text(test: TestRoll) -> str:
    """``jet +3, Cp+Rs +8, douleur −5 → marge +6 : réussite`` (the engine's ``format_test``)."""
    parts = [tr("roll {n}").format(n=_signed(test.roll))]
    parts += [
        f"{modifier_name(name)} {_signed(value)}"
        for i, (name, value) in enumerate(test.modifiers)
        if value or not i
    ]
    verdict = tr("success") if test.success else tr("FAILURE")
    margin = tr("margin {n}: {verdict}").format(n=_signed(test.margin), verdict=verdict)
    return f"{', '.join(parts)} → {margin}"


def line_text(line: TraceLine, width: int = 14) -> str:
    """One timeline line in the language in force (the engine's ``format_line`` in English)."""
    if current_language() == "en":
        return format_line(line, width)
    time = clock_fr(format_clock(line.time))
    head = f"{time:>{width}}  {line.rule:<3}  {translate(line.text, value=value_fr)}"
    if line.test is None:
        return head
    return f"{head}\n{'':>{width}}       {test_text(line.test)}"


def trace_text(lines: list[TraceLine]) -> str:
    """The whole timeline in the language in force."""
    if current_language() == "en":
        return format_trace(lines)
    return "\n".join(line_text(line) for line in lines)
