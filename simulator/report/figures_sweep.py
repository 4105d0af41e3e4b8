"""Figures of sweeps and comparisons: lines with bands, heatmaps, differences with intervals.

The companions of :mod:`simulator.report.figures`, with the same conventions (``ax=None``,
the Axes returned, greyscale-safe); all are importable from :mod:`simulator.report`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle
from matplotlib.ticker import NullLocator

from simulator.errors import DurationError
from simulator.report.i18n import (
    current_language,
    duration_text,
    exact_percent_text,
    key_label,
    number_text,
    percent_text,
    plain,
    reach_text,
    signed_points,
    tr,
    trial_decimals,
)
from simulator.report.style import (
    new_axes,
    number_axis,
    percent_axis,
    tick_decimals,
    ticks_in_language,
    title_axes,
    wrap,
)
from simulator.rules.durations import parse_duration

LINES: dict[str, dict[str, Any]] = {
    "p_dead": {"label": "dead", "color": "#000000", "linestyle": "-", "marker": "o"},
    "p_healed": {"label": "healed", "color": "#555555", "linestyle": "--", "marker": "s"},
    "p_wounded": {"label": "still wounded", "color": "#8c8c8c", "linestyle": ":", "marker": "^"},
    "p_incoherent": {"label": "incoherent", "color": "#8c8c8c", "linestyle": "-.", "marker": "D"},
}
"""Line style of each share in sweep and comparison charts."""


CELL_EDGE = "#8c8c8c"
"""The edge of a heatmap's cells: a cell as white as the paper (near 0%) still reads as one."""


TICK_WIDTH = 16
"""The most characters on one line of a tick label (longer values wrap)."""


def _key(key: str) -> str:
    """A swept key on a figure: in words, as balance's and sensitivity's figures name it."""
    return key_label(key)


def _numeric(values: Sequence[object]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _durations(values: Sequence[object]) -> tuple[np.ndarray, str] | None:
    """Duration strings (``"15min"``, ``"1h"``) as numbers in one readable unit, or None."""
    seconds = []
    for value in values:
        try:
            seconds.append(parse_duration(value))
        except DurationError:
            return None
    top = max(seconds, default=0.0)
    unit, size = next(
        (
            (u, n)
            for u, n in ((tr("days"), 86400.0), (tr("hours"), 3600.0), (tr("minutes"), 60.0))
            if top >= 2 * n
        ),
        (tr("seconds"), 1.0),
    )
    return np.asarray(seconds) / size, unit


def _thin_labels(ax: Axes, x: np.ndarray) -> None:
    """Blank the tick labels that would touch the previous one (values placed to scale)."""
    span = float(x.max() - x.min()) or 1.0
    last = None
    for tick, value in sorted(zip(ax.get_xticklabels(), x, strict=True), key=lambda t: t[1]):
        if last is not None and (value - last) / span < 0.09:
            tick.set_visible(False)
        else:
            last = value


def _label(value: object, most: int = 3) -> str:
    """A grid value as a tick label: numbers plainly, long texts on a few short lines."""
    if isinstance(value, bool):
        return "true" if value else "false"  # as in the scenario file
    english = current_language() == "en"
    if _numeric([value]):
        text = plain(value) if english else number_text(value)  # type: ignore[arg-type]
        return text.replace("-", "\u2212")
    if not english:
        try:
            return duration_text(parse_duration(value))
        except DurationError:
            pass
    return "\n".join(wrap(str(value), TICK_WIDTH, most=most))


def _labels(values: Sequence[object]) -> list[str]:
    """Tick labels of distinct values: cut short only while that keeps them distinct."""
    labels = [_label(v) for v in values]
    if len(set(labels)) < len(set(map(str, values))):
        labels = [_label(v, most=1000) for v in values]
    return labels


def _trials(frame: pd.DataFrame) -> int | None:
    """The trials per point, for the title; None for exact answers (no trials)."""
    if "trials" not in frame or not len(frame) or pd.isna(frame["trials"].iloc[0]):
        return None
    return int(frame["trials"].iloc[0])


def sweep_lines(
    frame: pd.DataFrame,
    key: str,
    *,
    shares: Sequence[str] = ("p_dead", "p_healed", "p_wounded"),
    name: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Shares against one swept key, each with its 95% Wilson band.

    Args:
        frame: A sweep frame (one row per point; ``key`` and the summary's columns).
        key: The swept key (x axis); numbers and durations (``"15min"``, ``"4h"``) are
            placed by value, other values evenly.
        shares: Which shares to draw.
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    values = list(frame[key])
    durations = None if _numeric(values) else _durations(values)
    if _numeric(values):
        x = np.asarray(values, dtype=float)
    elif durations is not None:
        x = durations[0]
    else:
        x = np.arange(len(values))
    order = np.argsort(x, kind="stable")
    for share in shares:
        look = LINES[share]
        y = 100 * frame[share].to_numpy(dtype=float)[order]
        low = 100 * frame[f"{share}_low"].to_numpy(dtype=float)[order]
        high = 100 * frame[f"{share}_high"].to_numpy(dtype=float)[order]
        ax.fill_between(x[order], low, high, color=look["color"], alpha=0.18, linewidth=0)
        ax.plot(x[order], y, markersize=5, linewidth=1.4, **{**look, "label": tr(look["label"])})
    by_value = _numeric(values) or durations is not None
    log = False
    if durations is not None and x.min() > 0 and x.max() / x.min() >= 8:
        ax.set_xscale("log")  # delays that span doublings read best as ratios
        ax.xaxis.set_minor_locator(NullLocator())
        log = True
    if not by_value or len(values) <= 12:
        ax.set_xticks(x, _labels(values))
        if not log and by_value:
            _thin_labels(ax, x)
    elif durations is None:
        number_axis(ax.xaxis)
    ax.set_ylim(0, 100)
    percent_axis(ax.yaxis)
    scale = tr("log scale") if log else tr("to scale")
    numbered = by_value and len(values) > 12  # ticks are numbers, in the unit of _durations
    unit = f"{durations[1]}, " if durations is not None and numbered else ""
    scaled = tr("{label} ({scale})").format(label=_key(key), scale=f"{unit}{scale}")
    ax.set_xlabel(_key(key) if durations is None else scaled)
    trials = _trials(frame)
    ax.set_ylabel(
        tr("Share of campaigns (95% CI band)") if trials else tr("Share of campaigns (exact)")
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    title_axes(ax, tr("Outcome against {key}").format(key=_key(key)), name, trials, per_point=True)
    return ax


def sweep_heatmap(
    frame: pd.DataFrame,
    x_key: str,
    y_key: str,
    *,
    value: str = "p_dead",
    name: str | None = None,
    ax: Axes | None = None,
    what: str | None = None,
) -> Axes:
    """A heatmap of one share over two swept keys, each cell annotated with its percent.

    Args:
        frame: A sweep frame.
        x_key: The key across (columns).
        y_key: The key down (rows).
        value: The share shown (``p_dead`` by default).
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).
        what: The share's words ("dead"); by default those of :data:`LINES`.

    Returns:
        The Axes.
    """
    ax = new_axes(ax, (6.4, 4.8))
    xs = list(dict.fromkeys(frame[x_key]))
    ys = list(dict.fromkeys(frame[y_key]))
    grid = np.full((len(ys), len(xs)), np.nan)
    for _, row in frame.iterrows():
        grid[ys.index(row[y_key]), xs.index(row[x_key])] = 100 * float(row[value])
    image = ax.imshow(grid, cmap="Greys", vmin=0, vmax=100, aspect="auto", origin="lower")
    # a thin grey edge round every cell: one near 0% is as white as the paper, and would vanish
    for (i, j), _ in np.ndenumerate(grid):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="none", edgecolor=CELL_EDGE,
                               linewidth=0.6, clip_on=False))  # fmt: skip
    trials = _trials(frame)
    most = None if trials is None else trial_decimals(trials)  # no digit finer than a trial
    for (i, j), cell in np.ndenumerate(grid):
        if math.isfinite(cell):
            colour = "white" if cell > 55 else "black"
            # an exact share to four decimals, as everywhere else
            shown = (
                exact_percent_text(cell / 100)
                if most is None
                else percent_text(cell / 100, most=most)
            )
            ax.text(j, i, shown, ha="center", va="center", color=colour, fontsize=9)
    ax.set_xticks(np.arange(len(xs)), _labels(xs))
    ax.set_yticks(np.arange(len(ys)), _labels(ys))
    ax.set_xlabel(_key(x_key))
    ax.set_ylabel(_key(y_key))
    ax.spines[:].set_visible(False)
    what = what or tr(LINES.get(value, {"label": value})["label"])
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.9, use_gridspec=False)  # as constrained
    percent_axis(bar.ax.yaxis)
    bar.set_label(tr("Share {what}").format(what=what))
    bar.outline.set_visible(False)
    what_by = tr("Share {what} by {y} and {x}").format(what=what, y=_key(y_key), x=_key(x_key))
    if "method" in frame and len(frame) and (frame["method"] == "exact").all():
        exact = tr("exact")  # as a run's exact figures say it, after the name
        name = f"{name} ({exact})" if name else exact
    title_axes(ax, what_by, name, trials, _reach(frame, value), per_point=True)
    return ax


def _reach(frame: pd.DataFrame, value: str) -> str | None:
    """The widest reach of a cell's 95% interval from its share, in words; None without one.

    A heatmap writes shares without their intervals: its title says how far the widest
    reaches (``95% CI within ±5.7 points``), so that no cell reads surer than it is.
    """
    low, high = f"{value}_low", f"{value}_high"
    if _trials(frame) is None or low not in frame or high not in frame:
        return None
    share = frame[value].to_numpy(dtype=float)
    below = share - frame[low].to_numpy(dtype=float)
    above = frame[high].to_numpy(dtype=float) - share
    reach = np.nanmax(np.maximum(below, above), initial=0.0)
    return tr("95% CI within ±{points}").format(points=reach_text(float(reach)))


MIN_REACH = 1.0
"""The least half-width of the axis of differences (percentage points): differences and
bounds all closer to 0 than this (two exact answers alike but for their dropped mass) are drawn
on ±1 point, whose ticks read apart; their numbers are written beside each row."""


def compare_differences(
    difference: pd.DataFrame,
    *,
    names: tuple[str, str] = ("A", "B"),
    trials: int | None = None,
    ax: Axes | None = None,
    exact: bool = False,
) -> Axes:
    """Differences of shares (A − B) with their 95% intervals, one row per share.

    Args:
        difference: :attr:`simulator.studies.result.CompareResult.difference`; its rows of
            mean counts (``mean_...``), which are not shares, are left out.
        names: The two scenarios' names.
        trials: Trials of each, for the title.
        ax: Where to draw (None: a new figure).
        exact: Exact answers: the differences to four decimals, between the bounds of the
            mass each side dropped (no confidence interval).

    Returns:
        The Axes.
    """
    ax = new_axes(ax, (7.0, 3.2))
    shares = ~difference["measure"].astype(str).str.startswith("mean_")
    difference = difference[shares].reset_index(drop=True)
    y = np.arange(len(difference))[::-1]
    est = 100 * difference["difference"].to_numpy(dtype=float)
    low = 100 * difference["low"].to_numpy(dtype=float)
    high = 100 * difference["high"].to_numpy(dtype=float)
    ax.errorbar(est, y, xerr=[est - low, high - est], fmt="o", color="#000000", ecolor="#000000",
                elinewidth=1.2, capsize=4, markersize=5)  # fmt: skip
    ax.axvline(0, color="#8c8c8c", linewidth=0.8, linestyle="--")
    reach = float(np.nanmax(np.abs(np.concatenate([low, high, [0.0]]))))
    if reach < MIN_REACH:  # two answers alike to 1e-11: ticks 0 0 0 0 0 else
        ax.set_xlim(-MIN_REACH * 1.05, MIN_REACH * 1.05)
    labels = [tr(LINES.get(m, {"label": m})["label"]) for m in difference["measure"]]
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(difference) - 0.4)
    ax.xaxis.set_major_formatter(
        ticks_in_language(
            lambda v, _: signed_points(v / 100, tick_decimals(ax.get_xticks())) if v else "0"
        )
    )  # as many decimals as the ticks need; never "−0"
    ax.set_xlabel(
        tr("Difference in share of campaigns, A − B (percentage points, exact, with its bounds)")
        if exact
        else tr("Difference in share of campaigns, A − B (percentage points, 95% CI)")
    )
    decimals = 4 if exact else 1  # as the terminal and the page show them
    for yi, e, lo, hi in zip(y, est, low, high, strict=True):
        e_, lo_, hi_ = (signed_points(v / 100, decimals) for v in (e, lo, hi))
        french = f"{e_} [{lo_}\u00a0; {hi_}]"  # a no-break space before ;
        text = french if current_language() == "fr" else f"{e_} [{lo_}, {hi_}]"
        ax.annotate(text, xy=(1.0, yi), xycoords=("axes fraction", "data"), xytext=(6, 0),
                    textcoords="offset points", va="center", ha="left", fontsize=9)  # fmt: skip
    ax.spines["left"].set_visible(False)
    ax.tick_params(axis="y", length=0)
    title_axes(ax, tr("A: {a}  vs  B: {b}").format(a=names[0], b=names[1]), None, trials,
               tr("same seeds"))  # fmt: skip
    return ax
