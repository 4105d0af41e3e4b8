"""One trial told as a timeline: the lines the engine emits and how they are printed.

A line carries its rule id, a template of :mod:`simulator.engine.trace_templates` and the
values of its placeholders; :func:`line_text` fills it in English (the report's timeline
translates the template first, :mod:`simulator.report.timeline`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from simulator.engine import trace_templates as tpl
from simulator.errors import Phrase, fill
from simulator.rules.dice import TestRoll
from simulator.rules.durations import format_clock, format_duration
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.transitions import Blow


def format_run(times: tuple[float, float]) -> str:
    """``1d 00:05 … 17d 00:05``: the first and last test of a run (one time for one test)."""
    first, last = times
    if first == last:
        return format_clock(first)
    return f"{format_clock(first)} … {format_clock(last)}"


@dataclass(frozen=True, slots=True)
class TraceLine:
    """One thing that happened in a trial.

    Attributes:
        time: Campaign time in seconds.
        rule: The rule id that fired (``"S3"``, ``"A2"``...).
        template: What happened: a template of :mod:`~simulator.engine.trace_templates`.
        test: The test behind it, when there was one.
        args: The values of the template's placeholders, by name.
    """

    time: float
    rule: RuleId
    template: str
    test: TestRoll | None = None
    args: tuple[tuple[str, object], ...] = ()

    @property
    def text(self) -> str:
        """What happened, in English."""
        return words(self.template, self.args, str, english_value)


def _decimal(value: float, sign: str = "") -> str:
    """A float to six decimals at most, never in exponent form (``1e-05`` is ``0.00001``)."""
    text = f"{value:{sign}.6f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "+0", "") else f"{sign}0".replace("-", "")


def signed(value: float) -> str:
    """``+3``, ``-5``, ``+0.5``: a modifier, a roll or a margin as a trace writes it."""
    return f"{value:+d}" if isinstance(value, int) else _decimal(value, "+")


def points(value: float) -> str:
    """Pain points as written: ``11``, ``10.5`` (fractions come only from P1's setting)."""
    return str(value) if isinstance(value, int) else _decimal(value)


def format_modifiers(modifiers: Sequence[tuple[str, float]]) -> list[str]:
    """``["Cp+Rs +8", "pain -5"]``: named modifiers as a trace shows them.

    The first modifier (the attribute or level the test is made with) always, the others
    only when they are not zero.
    """
    return [
        f"{name} {signed(value)}" for i, (name, value) in enumerate(modifiers) if value or not i
    ]


def kind_of(name: str) -> str:
    """What a placeholder's value is, by its name (``trace_templates.KINDS``)."""
    return tpl.KINDS.get(name, "word" if name.startswith("what") else "number")


def _modifiers_text(modifiers: Any) -> str:
    return ", ".join(format_modifiers(modifiers))


_ENGLISH: dict[str, Callable[[Any], str]] = {
    "modifiers": _modifiers_text,
    "run": format_run,
    "clock": format_clock,
    "duration": format_duration,
    "every": format_duration,
    "signed": signed,
}


def english_value(name: str, value: object) -> str:
    """A placeholder's value in English, as its name's kind says (:func:`kind_of`)."""
    kind = kind_of(name)
    if kind in _ENGLISH:
        return _ENGLISH[kind](value)
    return points(value) if kind == "number" and isinstance(value, int | float) else str(value)


def words(
    template: str,
    args: tuple[tuple[str, object], ...],
    translate: Callable[[str], str],
    value: Callable[[str, object], str],
    plural: Callable[[str, str, int], str] | None = None,
) -> str:
    """A line's template in words: translated (``plural`` picks a count's form), then filled.

    In English (the defaults) the template is its own translation and a count of one takes
    the singular.
    """
    many = tpl.PLURALS.get(template)
    if many is not None:
        n = int(dict(args)["n"])  # type: ignore[call-overload]
        template = plural(template, many, n) if plural else (template if n == 1 else many)
    return fill(template, args, translate, value)


def format_test(test: TestRoll) -> str:
    """``roll +3, Cp+Rs +8, pain -5 → margin +6: success``.

    The first modifier (the attribute or level the test is made with) is always shown; the
    others only when they are not zero.
    """
    parts = [tpl.ROLL.format(n=signed(test.roll)), *format_modifiers(test.modifiers)]
    verdict = "success" if test.success else "FAILURE"
    return f"{', '.join(parts)} → {tpl.MARGIN.format(n=signed(test.margin), verdict=verdict)}"


def format_line(line: TraceLine, width: int = 14) -> str:
    """One timeline line: time, rule id, what happened, and the test when there is one."""
    head = f"{format_clock(line.time):>{width}}  {line.rule:<3}  {line.text}"
    if line.test is None:
        return head
    return f"{head}\n{'':>{width}}       {format_test(line.test)}"


def format_trace(lines: list[TraceLine], title: str = "") -> str:
    """The whole timeline, with an optional title line."""
    body = [format_line(line) for line in lines]
    if title:
        body.insert(0, title)
        body.insert(1, "=" * min(len(title), 78))
    return "\n".join(body)


def healed_words(level: Level) -> tuple[str, dict[str, str]]:
    """G2, M3, B4, B6: the template and words of a wound of ``level`` healing one level."""
    lower = level.lower()
    return tpl.healed(level.label, None if lower is None else lower.label)


def describe_blow(blow: Blow) -> Phrase:
    """``"the light wound worsens to a grave wound"`` (or just ``"worsens"`` when fatal)."""
    if blow.final is None:
        return Phrase(tpl.WORSENS, (("what", tpl.THE_WOUND[blow.start.label]),))
    the = tpl.THE_WOUND[blow.start.label]
    return Phrase(tpl.WORSENS_TO, (("what", the), ("what_final", tpl.A_WOUND[blow.final.label])))
