"""One trial told as a timeline: the lines the engine emits and how they are printed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.rules.dice import TestRoll
from simulator.rules.durations import format_clock
from simulator.rules.ids import RuleId
from simulator.rules.transitions import Blow


@dataclass(frozen=True, slots=True)
class TraceLine:
    """One thing that happened in a trial.

    Attributes:
        time: Campaign time in seconds.
        rule: The rule id that fired (``"S3"``, ``"A2"``...).
        text: What happened, in words.
        test: The test behind it, when there was one.
    """

    time: float
    rule: RuleId
    text: str
    test: TestRoll | None = None


def _decimal(value: float, sign: str = "") -> str:
    """A float to six decimals at most, never in exponent form (``1e-05`` is ``0.00001``)."""
    text = f"{value:{sign}.6f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "+0", "") else f"{sign}0".replace("-", "")


def _signed(value: float) -> str:
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
        f"{name} {_signed(value)}" for i, (name, value) in enumerate(modifiers) if value or not i
    ]


def format_test(test: TestRoll) -> str:
    """``roll +3, Cp+Rs +8, pain -5 → margin +6: success``.

    The first modifier (the attribute or level the test is made with) is always shown; the
    others only when they are not zero.
    """
    parts = [f"roll {_signed(test.roll)}", *format_modifiers(test.modifiers)]
    verdict = "success" if test.success else "FAILURE"
    return f"{', '.join(parts)} → margin {_signed(test.margin)}: {verdict}"


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


def describe_blow(blow: Blow) -> str:
    """``"the light wound worsens to grave"`` (or just ``"worsens"`` when fatal)."""
    if blow.final is None:
        return f"the {blow.start.label} wound worsens"
    return f"the {blow.start.label} wound worsens to {blow.final.label}"
