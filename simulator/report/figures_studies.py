"""Figures of the designer's questions: ``balance`` and ``sensitivity``.

``balance``: the statistic against the key, the target and the bracket; ``sensitivity``: a
tornado chart a rulebook can print.

Same conventions as :mod:`simulator.report.figures`: ``ax=None`` draws on a new figure, the
Axes is returned, greys and line styles carry the meaning; words come from the catalogue of
:mod:`simulator.report.i18n` in the language in force.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator, NullLocator
from matplotlib.transforms import ScaledTranslation

from simulator.report.figures_zoom import inset_place, zoom_on, zoom_window
from simulator.report.i18n import (
    colon,
    exact_percent_text,
    key_label,
    ntr,
    number_text,
    percent_text,
    points_value,
    stat_label,
    tr,
)
from simulator.report.style import (
    axis_label,
    new_axes,
    tick_decimals,
    ticks_in_language,
    title_axes,
)

BAND_FACE, BAND_EDGE, BAND_HATCH, BAND_WIDTH = "#d9d9d9", "#555555", "///", 0.8
"""The bracket's band: grey and hatched, so that it reads in greyscale and in print."""


def _duration_axis(ax: Axes, low: float, high: float) -> bool:
    """Durations placed by value (log scale when they span doublings), ticks at round ones.

    Returns:
        Whether the axis is on a log scale (its label says so, as a sweep's does).
    """
    from simulator.report.i18n import duration_text
    from simulator.rules.durations import ROUND_DURATIONS

    log = low > 0 and high / low >= 8
    if log:
        ax.set_xscale("log")
        ax.xaxis.set_minor_locator(NullLocator())
    ticks = [t for t in ROUND_DURATIONS if low <= t <= high]
    step = -(-len(ticks) // 7)
    ticks = ticks[::-1][::step][::-1]  # at most 7, the longest kept
    ax.set_xticks(ticks, [duration_text(t) for t in ticks])
    return log


def _percent_axis(ax: Axes, axis: str = "y") -> None:
    """Percents on an axis of percent points, with as many decimals as its ticks need."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    formatter = ticks_in_language(
        lambda v, _: percent_text(v / 100, tick_decimals(target.get_majorticklocs()), digits=1)
    )
    target.set_major_formatter(formatter)


def _text_width(text: str, size: float) -> float:
    """How wide ``text`` is drawn at ``size`` points, in points (no renderer needed)."""
    font = FontProperties(size=size)
    return float(TextToPath().get_text_width_height_descent(str(text), font, ismath=False)[0])


def _points_across(ax: Axes, points: float) -> ScaledTranslation:
    """A shift of ``points`` to the right, whatever the figure's size and dpi."""
    return ScaledTranslation(points / 72, 0, ax.figure.dpi_scale_trans)


def balance_figure(
    frame: pd.DataFrame,
    *,
    key: str,
    kind: str,
    stat: str,
    target: float,
    brackets: Sequence[tuple[float, float]] = (),
    best: float | None = None,
    name: str | None = None,
    trials: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """The statistic against the key's value, with its 95% intervals, the target and the bracket.

    The value nearest the target is marked apart. When the search piled its evaluations near
    the target (points closer than their markers on the whole range), an inset shows them
    apart, labelled at the bracket and the best only, in the corner the curve leaves free.

    Args:
        frame: One row per value evaluated: ``x`` (the value: an integer, seconds, or a
            probability), ``shown`` (as a person reads it), ``p``, ``low``, ``high``.
        key: The key's dotted name.
        kind: ``integer``, ``duration``, ``probability`` or ``number``.
        stat: The statistic's name (``p_dead_by_1d``).
        target: The target value.
        brackets: The ``(x, x)`` pairs of neighbouring values around the target.
        best: The value evaluated nearest the target (None: not marked).
        name: The scenario's title.
        trials: Trials per value (None: exact).
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    frame = frame.sort_values("x")
    x = frame["x"].to_numpy(dtype=float)
    y = 100 * frame["p"].to_numpy(dtype=float)
    low = 100 * frame["low"].to_numpy(dtype=float)
    high = 100 * frame["high"].to_numpy(dtype=float)
    bounds = tr("95% CI") if trials else tr("exact")
    look: dict[str, Any] = {"fmt": "o-", "color": "#000000", "ecolor": "#8c8c8c", "markersize": 3.5,
            "linewidth": 1.0, "elinewidth": 0.8, "capsize": 2}  # fmt: skip
    curve = ax.errorbar(x, y, yerr=[y - low, high - y], label=f"{stat_label(stat)} ({bounds})",
                        **look)  # fmt: skip
    goal = ax.axhline(100 * target, color="#000000", linestyle=":", linewidth=1.0,
                      label=f"{tr('target')} {percent_text(target)}")  # fmt: skip
    shown = dict(zip(x, frame["shown"], strict=True))
    handles: list[Any] = [curve, goal]  # an errorbar's container is no Artist
    _bands(ax, brackets)
    near = None if best is None or float(best) not in shown else float(best)
    if near is not None:
        p = float(y[list(x).index(near)]) / 100
        said = percent_text(p) if trials else exact_percent_text(p)
        handles.append(_best(ax, near, 100 * p, f"{tr('best')}{colon()}{shown[near]} ({said})"))
    if brackets:
        xa, xb = brackets[0]
        text = f"{tr('bracket')}{colon()}{shown.get(xa, xa)} – {shown.get(xb, xb)}"
        handles.append(Patch(facecolor=BAND_FACE, edgecolor=BAND_EDGE, hatch=BAND_HATCH,
                             linewidth=BAND_WIDTH, label=text, linestyle="--"))  # fmt: skip
    log = False
    if kind == "duration":
        log = _duration_axis(ax, float(x.min()), float(x.max()))
    elif kind != "integer":
        ax.xaxis.set_major_formatter(ticks_in_language(lambda v, _: number_text(round(v, 6))))
    ax.set_ylim(0, 100)
    _percent_axis(ax)
    scaled = tr("{label} ({scale})").format(label=key_label(key), scale=tr("log scale"))
    xlabel = axis_label(scaled if log else key_label(key))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(stat_label(stat))
    # below the plot, past its ticks and its label: beside it, it took half the figure's width
    labels = [str(handle.get_label()) for handle in handles]
    figure = ax.get_figure(root=True)
    assert figure is not None  # an axes drawn on is on a figure
    across = figure.get_figwidth() * ax.get_position().width * 72  # the axes' width, points
    widths = [_text_width(label, 9) + 40 for label in labels]  # a handle and its gaps each
    columns = next(n for n in (3, 2, 1) if n == 1 or sum(sorted(widths)[-n:]) <= across)
    down = ScaledTranslation(
        0, -(26 + 12 * (xlabel.count("\n") + 1)) / 72, ax.figure.dpi_scale_trans
    )
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(0, 0), ncols=columns,
              bbox_transform=ax.transAxes + down, borderaxespad=0, frameon=False)  # fmt: skip
    title_axes(ax, tr("Balancing {key}").format(key=key_label(key)), name, trials)
    focus = [float(v) for pair in brackets[:1] for v in pair] + ([near] if near is not None else [])
    window = zoom_window(ax, x, y, focus)
    if window is not None:
        inset = ax.inset_axes(inset_place(ax, x, y, low, high, window))
        inset.errorbar(x, y, yerr=[y - low, high - y], **look)
        inset.axhline(100 * target, color="#000000", linestyle=":", linewidth=1.0)
        _bands(inset, brackets)
        if near is not None:
            _best(inset, near, 100 * p, None)
        labelled = {v: shown[v] for v in focus}  # the bracket's first, where they crowd
        zoom_on(ax, inset, x, low, high, 100 * target, window, labelled, order=focus)
        _percent_axis(inset)
    return ax


def _bands(ax: Axes, brackets: Sequence[tuple[float, float]]) -> None:
    """Each bracket's band, between dashed lines at its two values."""
    for xa, xb in brackets:
        # hatched as well as grey: a light grey alone all but vanishes in print
        ax.axvspan(xa, xb, zorder=0, facecolor=BAND_FACE, edgecolor=BAND_EDGE, hatch=BAND_HATCH,
                   linewidth=BAND_WIDTH)  # fmt: skip
        ax.axvline(xa, color="#555555", linestyle="--", linewidth=0.8)
        ax.axvline(xb, color="#555555", linestyle="--", linewidth=0.8)


def _best(ax: Axes, x: float, y: float, label: str | None) -> Any:
    """The value nearest the target: an open diamond, larger than the other points."""
    (mark,) = ax.plot([x], [y], linestyle="none", marker="D", markersize=7, zorder=5,
                      markerfacecolor="white", markeredgecolor="#000000", markeredgewidth=1.4,
                      label=label or "_best")  # fmt: skip
    return mark


def tornado(
    frame: pd.DataFrame,
    *,
    base: float,
    stat: str,
    name: str | None = None,
    trials: int | None = None,
    ax: Axes | None = None,
    most: int = 20,
    table: str | None = None,
) -> Axes:
    """One bar per key from its notch down to its notch up, the largest swing on top.

    Args:
        frame: One row per key, largest swing first: ``key``, ``down_shown``, ``up_shown``,
            ``down_stat``, ``up_stat`` (NaN for a notch left out), ``swing``.
        base: The statistic of the scenario as it is.
        stat: The statistic's name (``p_dead``).
        name: The scenario's title.
        trials: Trials per value (None: exact).
        ax: Where to draw (None: a new figure).
        most: The most keys drawn (the largest swings).
        table: The file that lists every key (``sensitivity.csv``), named under the chart
            beside the count of keys left out; None names none (a chart drawn in a notebook).

    Returns:
        The Axes.
    """
    decimals = 1 if trials else 4  # a swing printed as 0 (to its shown decimals) moves nothing
    if not trials:  # exact: the title says so where a sampled one says its trials
        name = f"{name} ({tr('exact')})" if name else tr("exact")
    moving = [row for _, row in frame.iterrows() if points_value(row["swing"], decimals) != 0]
    rows = moving[:most]
    ax = new_axes(ax, (7.5, 1.2 + 0.32 * max(len(rows), 3)))
    if not rows:  # no bar to draw: the chart says so, with no legend nor empty axis
        level = percent_text(base) if trials else exact_percent_text(base)
        said = tr("No key moves “{stat}”").format(stat=stat_label(stat))
        ax.text(0.5, 0.5, f"{said}\n({tr('the scenario as it is')}{colon()}{level})",
                ha="center", va="center", transform=ax.transAxes)  # fmt: skip
        ax.set_axis_off()
        title_axes(ax, tr("What moves the result most"), name, trials)
        return ax
    total = len(frame)
    base = 100 * base
    hanging = {"left": [0.0], "right": [0.0]}  # the widths (points) of each side's labels
    for y, row in enumerate(reversed(rows)):
        ends = [
            (side, 100 * float(row[f"{side}_stat"]))
            for side in ("down", "up")
            if pd.notna(row[f"{side}_stat"])
        ]
        for i, (side, value) in enumerate(ends):
            hatch = "////" if side == "down" else ""
            colour = "#8c8c8c" if side == "down" else "#d9d9d9"
            ax.barh(y, value - base, left=base, height=0.6, color=colour, hatch=hatch,
                    edgecolor="#303030", linewidth=0.6)  # fmt: skip
            # the larger end's label to its right, the smaller's to its left (down's, when
            # equal): two ends on one side of the base never print one over the other
            other = [v for j, (_, v) in enumerate(ends) if j != i]
            if other:
                right = value > other[0] or (value == other[0] and side == "up")
            else:
                right = value >= base
            ax.annotate(row[f"{side}_shown"], (value, y), xytext=(4 if right else -4, 0),
                        textcoords="offset points", ha="left" if right else "right",
                        va="center", fontsize=8)  # fmt: skip
            hanging["right" if right else "left"].append(_text_width(row[f"{side}_shown"], 8))
    still = total - len(rows)
    if still:
        note = ntr(
            "{n} other key moves it less, or not at all",
            "{n} other keys move it less, or not at all",
            still,
        ).format(n=still)
        if table is not None:
            note += f" ({table})"
        ax.annotate(note, xy=(0, 0), xycoords="axes fraction", xytext=(0, -36),
                    textcoords="offset points", fontsize=8, color="#555555", va="top")  # fmt: skip
    ax.axvline(base, color="#000000", linewidth=1.0)
    ax.margins(x=0.12)
    low, high = ax.get_xlim()  # a share's axis never runs past 0% or 100%
    ax.set_xlim(max(low, 0.0), min(high, 100.0))
    # few enough ticks, at round values, that "82,5 %" and "85,0 %" never run into each other
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    ax.set_yticks(range(len(rows)), [key_label(r["key"]) for r in reversed(rows)])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    _percent_axis(ax, "x")
    ax.set_xlabel(
        f"{stat_label(stat)} ({tr('line')}{colon()}{tr('the scenario as it is')}, "
        f"{percent_text(base / 100) if trials else exact_percent_text(base / 100)})"
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
        # past the labels that may hang beyond the axis's end (a bar at 100%): never over them
        bbox_transform=ax.transAxes + _points_across(ax, max(hanging["right"]) + 8),
        borderaxespad=0,
    )
    ax.spines["left"].set_visible(False)
    # the keys' names clear of the labels left of the bars (one at 0% hangs past the axis)
    ax.tick_params(axis="y", length=0, pad=max(hanging["left"]) + 8)
    title_axes(ax, tr("What moves the result most"), name, trials)
    return ax
