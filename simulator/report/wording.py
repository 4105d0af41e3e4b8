"""How numbers are told to a designer: shares as percents, durations, titles, one-line answers.

Pure text functions with no dependency: the command line, the saved results, the
notebooks and the main study's index all word their numbers the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any


def titled(name: str, overrides: Sequence[str]) -> str:
    """A study's name for titles: ``"Ambush (with first_aid.level=3)"``."""
    return f"{name} (with {', '.join(overrides)})" if overrides else name


def percent(p: float, decimals: int = 1) -> str:
    """A share as a percent with one decimal (or ``decimals``), e.g. ``"23.4%"``.

    A share that the rounding would show as 0% or 100% without being exactly so keeps two
    significant digits of its distance to them (``"0.018%"``, ``"99.95%"``): an interval
    never reads "0.0%–0.0%", and a share never reads above its own upper bound.
    """
    pct = 100 * p
    text = f"{pct:.{decimals}f}"
    if pct > 0 and float(text) == 0:
        return f"{plain(float(f'{pct:.2g}'))}%"
    if pct < 100 and float(text) == 100:
        return f"{plain(100 - Decimal(f'{100 - pct:.2g}'))}%"
    return f"{text}%"


def plain(number: float | Decimal) -> str:
    """A number as a person writes it: never in exponent form (``1e-05`` is ``0.00001``)."""
    text = format(Decimal(repr(number)) if isinstance(number, float) else number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def days_hours(hours: float) -> str:
    """A duration in hours as days and hours, e.g. ``"17 d 4 h"`` (hours under a day).

    Rounded to the hour once, first: 47.7 hours is ``"2 d"``, never ``"1 d 24 h"``.
    """
    if round(hours, 1) < 24:
        return f"{hours:.1f} hours"
    days, rest = divmod(round(hours), 24)
    return f"{days} d {rest} h" if rest else f"{days} d"


def answer(summary: dict[str, Any], *, mental: bool = False) -> str:
    """A one-line answer a designer reads at a glance, from a JSON summary.

    Args:
        summary: A JSON summary (:meth:`StudyResult.summary_json`).
        mental: Whether the scenario has mental wounds: the share incoherent is then
            always told, with its interval, even when it is zero.
    """
    lo, hi = summary["p_dead_ci"]
    text = f"dies in {percent(summary['p_dead'])} of campaigns (95% CI {percent(lo)}–{percent(hi)})"
    lo, hi = summary["p_healed_ci"]
    text += f", heals in {percent(summary['p_healed'])} ({percent(lo)}–{percent(hi)})"
    median = summary["median_time_to_heal_h"]
    if median is not None:
        text += f", median time to heal {days_hours(median)}"
    if summary["p_wounded"] > 0:
        text += f"; still wounded at the end in {percent(summary['p_wounded'])}"
    if summary["p_incoherent"] > 0 or mental:
        text += f"; incoherent in {percent(summary['p_incoherent'])}"
        if "p_incoherent_ci" in summary:
            lo, hi = summary["p_incoherent_ci"]
            text += f" ({percent(lo)}–{percent(hi)})"
    return text + "."
