"""Figures of the designer's questions: ``balance`` and ``sensitivity``.

``balance``: the statistic against the key, the target and the bracket; ``sensitivity``: a
tornado chart a rulebook can print.

Same conventions as :mod:`simulator.report.figures`: ``ax=None`` draws on a new figure, the
Axes is returned, greys and line styles carry the meaning; words come from the catalogue of
:mod:`simulator.report.i18n` in the language in force.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, NullLocator

from simulator.report.i18n import number_text, percent_text, tr
from simulator.report.style import new_axes, title_axes
from simulator.studies.keys import Kind

if TYPE_CHECKING:
    from simulator.studies.balance import BalanceResult
    from simulator.studies.sensitivity import SensitivityResult


def _duration_axis(ax: Axes, low: float, high: float) -> None:
    """Durations placed by value (log scale when they span doublings), ticks at round ones."""
    from simulator.report.i18n import duration_text
    from simulator.studies.keys import ROUND_DURATIONS

    if low > 0 and high / low >= 8:
        ax.set_xscale("log")
        ax.xaxis.set_minor_locator(NullLocator())
    ticks = [t for t in ROUND_DURATIONS if low <= t <= high]
    step = -(-len(ticks) // 7)
    ticks = ticks[::-1][::step][::-1]  # at most 7, the longest kept
    ax.set_xticks(ticks, [duration_text(t) for t in ticks])


def _percent_axis(ax: Axes, axis: str = "y") -> None:
    formatter = FuncFormatter(lambda v, _: percent_text(v / 100, 0))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(formatter)


def stat_label(text: str) -> str:
    """A statistic's name for a person: ``p_dead_by_1d`` -> "Share dead by 1 d"."""
    from simulator.report.i18n import duration_text
    from simulator.studies.statistic import Statistic

    stat = Statistic.parse(text)
    what = tr(f"Share {stat.outcome}")
    if stat.by is None:
        return f"{what} {tr('at the horizon')}"
    return f"{what} {tr('by')} {duration_text(stat.by)}"


def key_label(name: str) -> str:
    """A key's name for a person: ``rules.table.grave.pain`` -> "grave wound: pain"."""
    parts = name.split(".")
    if len(parts) == 4 and parts[:2] == ["rules", "table"]:
        return f"{tr(parts[2] + ' wound')}: {tr(parts[3].replace('_', ' '))}"
    return tr(KEY_LABELS.get(name, name))


KEY_LABELS = {
    "patient.cp_rs": "Cp+Rs",
    "patient.rs_it": "Rs+It",
    "first_aid.level": "first-aid level",
    "first_aid.start": "first aid: start",
    "first_aid.interval": "first aid: interval",
    "first_aid.modifier": "first aid: modifier",
    "healing.level": "healer's level",
    "healing.modifier": "healing: modifier",
    "watch.neglect_probability": "neglect probability",
    "rules.trigger_probability": "trigger probability",
}
"""How the keys moved by default are named in figures (then translated)."""


def balance_figure(result: BalanceResult, *, ax: Axes | None = None) -> Axes:
    """The statistic against the key's value, with its 95% intervals, the target and the bracket.

    Args:
        result: What :func:`simulator.studies.balance.balance` found.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    points = result.points
    x = np.asarray([p.value for p in points], dtype=float)
    y = 100 * np.asarray([p.stat for p in points])
    low = 100 * np.asarray([p.evaluation.ci[0] for p in points])
    high = 100 * np.asarray([p.evaluation.ci[1] for p in points])
    ax.errorbar(x, y, yerr=[y - low, high - y], fmt="o-", color="#000000", ecolor="#8c8c8c",
                markersize=3.5, linewidth=1.0, elinewidth=0.8, capsize=2,
                label=f"{result.stat.text} ({tr('95% CI')})")  # fmt: skip
    ax.axhline(100 * result.target, color="#000000", linestyle=":", linewidth=1.0,
               label=f"{tr('target')} {percent_text(result.target)}")  # fmt: skip
    for a, b in result.crossings or []:
        xa, xb = (x[points.index(a)], x[points.index(b)])
        ax.axvspan(xa, xb, color="#bdbdbd", alpha=0.6, linewidth=0)
        ax.axvline(xa, color="#555555", linestyle="--", linewidth=0.8)
        ax.axvline(xb, color="#555555", linestyle="--", linewidth=0.8)
    if result.crossings:
        a, b = result.crossings[0]
        text = f"{tr('bracket')}: {result.key.shown(a.value)} – {result.key.shown(b.value)}"
        ax.plot([], [], color="#555555", linestyle="--", linewidth=0.8, label=text)
    if result.key.kind is Kind.DURATION:
        _duration_axis(ax, float(x.min()), float(x.max()))
    elif result.key.kind is not Kind.INTEGER:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: number_text(round(v, 6))))
    ax.set_ylim(0, 100)
    _percent_axis(ax)
    ax.set_xlabel(key_label(result.key.name))
    ax.set_ylabel(stat_label(result.stat.text))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    what = f"{tr('Balancing')} {key_label(result.key.name)}"
    title_axes(ax, what, result.name, result.trials)
    return ax


def tornado(result: SensitivityResult, *, ax: Axes | None = None, most: int = 20) -> Axes:
    """One bar per key from its notch down to its notch up, the largest swing on top.

    Args:
        result: What :func:`simulator.studies.sensitivity.sensitivity` found.
        ax: Where to draw (None: a new figure).
        most: The most keys drawn (the largest swings).

    Returns:
        The Axes.
    """
    moving = [row for row in result.rows if row.swing > 0]
    rows = moving[:most]
    ax = new_axes(ax, (7.5, 1.2 + 0.32 * max(len(rows), 3)))
    base = 100 * result.base.stat
    for y, row in enumerate(reversed(rows)):
        ends = [(side, 100 * ev.stat) for side, ev in (("down", row.down), ("up", row.up)) if ev]
        others = [v for _, v in ends]
        for side, value in ends:
            hatch = "////" if side == "down" else ""
            colour = "#8c8c8c" if side == "down" else "#d9d9d9"
            ax.barh(y, value - base, left=base, height=0.6, color=colour, hatch=hatch,
                    edgecolor="#303030", linewidth=0.6)  # fmt: skip
            right = value > base or (value == base and min(others) < base)
            ax.annotate(row.shown(side), (value, y), xytext=(4 if right else -4, 0),
                        textcoords="offset points", ha="left" if right else "right",
                        va="center", fontsize=8)  # fmt: skip
    still = len(result.rows) - len(rows)
    if not rows:
        ax.text(0.5, 0.5, tr("no key moves it"), ha="center", va="center",
                transform=ax.transAxes, color="#555555")  # fmt: skip
    elif still:
        note = tr("{n} other keys move it less, or not at all (sensitivity.csv)").format(n=still)
        ax.annotate(note, xy=(0, 0), xycoords="axes fraction", xytext=(0, -36),
                    textcoords="offset points", fontsize=8, color="#555555", va="top")  # fmt: skip
    ax.axvline(base, color="#000000", linewidth=1.0)
    ax.margins(x=0.12)
    ax.set_yticks(range(len(rows)), [key_label(r.key.name) for r in reversed(rows)])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    _percent_axis(ax, "x")
    ax.set_xlabel(
        f"{stat_label(result.stat.text)} ({tr('line')}: {tr('the scenario as it is')}, "
        f"{percent_text(result.base.stat)})"
    )
    ax.legend(
        handles=[
            Patch(
                facecolor="#8c8c8c", hatch="////", edgecolor="#303030", label=tr("one notch down")
            ),
            Patch(facecolor="#d9d9d9", edgecolor="#303030", label=tr("one notch up")),
        ],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0,
    )
    ax.spines["left"].set_visible(False)
    ax.tick_params(axis="y", length=0)
    title_axes(ax, tr("What moves the result most"), result.name, result.trials)
    return ax
