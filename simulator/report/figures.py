"""Figures of studies, for print: greyscale-safe, labelled, titled, no clutter.

Every plotting function takes ``ax=None`` (a new figure then) and returns the Axes, so they
compose in notebooks. Shares are told apart by grey level *and* hatching or line style, so
the figures read the same in colour, in greyscale and in print.

This module holds the figures of one study; those of sweeps and comparisons live in
:mod:`simulator.report.figures_sweep`, the style and saving (:func:`draw_and_save`) in
:mod:`simulator.report.style`; all are importable from :mod:`simulator.report`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from simulator.report.i18n import (
    duration_text,
    ntr,
    number_text,
    percent_text,
    tr,
    trial_decimals,
)
from simulator.report.style import axis_label, new_axes, number_axis, percent_axis, title_axes
from simulator.rules.outcome import Outcome

if TYPE_CHECKING:
    from simulator.runner.tally import Tally

__all__ = ["FATE_STYLE", "aggravations", "fate_over_time", "time_to_heal"]

FATE_STYLE: dict[str, dict[str, Any]] = {
    "dead": {"label": "dead", "color": "#303030", "hatch": "////", "hatchcolor": "#a8a8a8"},
    "incoherent": {"label": "incoherent", "color": "#6e6e6e", "hatch": "xx", "hatchcolor": "#ddd"},
    "wounded": {"label": "still wounded", "color": "#bdbdbd", "hatch": "..", "hatchcolor": "#555"},
    "healed": {"label": "healed", "color": "#f2f2f2", "hatch": "", "hatchcolor": "#f2f2f2"},
}
"""Fill, hatching and label of each fate, from the bottom of the stack to the top."""


def _time_unit(horizon_h: float) -> tuple[float, str]:
    """Hours per displayed unit and the unit's name: days unless the horizon is short."""
    return (24.0, tr("days")) if horizon_h >= 48 else (1.0, tr("hours"))


def over_time(curves: pd.DataFrame, column: str) -> tuple[pd.DataFrame, np.ndarray, str]:
    """A tidy frame of shares over time, one column per ``column`` value; x in days or hours.

    Returns:
        The wide frame (one row per time), the times in the displayed unit, the unit's name.
    """
    wide = curves.pivot_table(index="time_h", columns=column, values="share", observed=False)
    wide = wide[_steps(wide.to_numpy(dtype=float))]
    hours = wide.index.to_numpy(dtype=float)
    scale, unit = _time_unit(hours[-1] if hours.size else 0.0)
    return wide, hours / scale, unit


def _steps(values: np.ndarray) -> np.ndarray:
    """Which rows of a step curve (drawn ``step="post"``) change what is drawn.

    A row equal to the one before it continues that step: leaving it out draws the very
    same figure with fewer points (a figure file a fraction of the size, drawn faster). The
    first and the last rows stay: they give the curve's ends.
    """
    keep = np.ones(len(values), dtype=bool)
    if len(values) > 2:
        same = np.all(
            (values[1:] == values[:-1]) | (np.isnan(values[1:]) & np.isnan(values[:-1])), axis=1
        )
        keep[1:-1] = ~same[:-1]
    return keep


def fate_over_time(
    curves: pd.DataFrame,
    *,
    name: str | None = None,
    trials: int | None = None,
    ax: Axes | None = None,
    what: str | None = None,
) -> Axes:
    """Stacked shares of campaigns dead, incoherent, still wounded and healed over time.

    Args:
        curves: The frame of :func:`simulator.studies.frames.curves`.
        name: The scenario's name, for the title.
        trials: The number of trials, for the title.
        ax: Where to draw (None: a new figure).
        what: The title's first line (default: "Fate over campaign time", translated).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    wide, x, unit = over_time(curves, "state")
    bottom = np.zeros_like(x)
    for state, look in FATE_STYLE.items():
        share = wide[state].to_numpy(dtype=float) * 100
        if state == "incoherent" and not np.any(share > 0):
            continue
        look = {**look, "label": tr(look["label"])}
        fill = look.pop("color")  # as facecolor: "color" would override the black edge too
        ax.fill_between(
            x, bottom, bottom + share, step="post", linewidth=0.6, edgecolor="#000000",
            facecolor=fill, **look,
        )  # fmt: skip
        bottom = bottom + share
    ax.set_xlim(x[0], x[-1])
    ax.set_ylim(0, 100)
    percent_axis(ax.yaxis)
    number_axis(ax.xaxis)
    ax.set_xlabel(f"{tr('Campaign time')} ({unit})")
    ax.set_ylabel(tr("Share of campaigns"))
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0
    )
    title_axes(ax, what or tr("Fate over campaign time"), name, trials)
    return ax


def time_to_heal(
    trials: pd.DataFrame | Tally, *, name: str | None = None, ax: Axes | None = None
) -> Axes:
    """Histogram of the time to healing (in days) of the trials that ended healed.

    Args:
        trials: A ``trials`` frame, or the trials' tally (the same figure).
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    if isinstance(trials, pd.DataFrame):
        healed = trials.loc[trials["outcome"] == Outcome.HEALED, "healed_h"].to_numpy(dtype=float)
        healed = healed[np.isfinite(healed)]
        counts, n, median_of = None, len(trials), None
    else:  # the distinct times, each with its count
        times = trials.events["healed"]
        healed, counts, n, median_of = times.values, times.counts, trials.n, times
    size = int(counts.sum()) if counts is not None else healed.size
    scale, unit = _time_unit(float(healed.max()) if healed.size else 0.0)
    share = tr("{p} ended healed").format(p=percent_text(size / max(n, 1)))
    if size:  # the bars' shares are of so many campaigns: three bars of 33% may be three
        share = ntr(
            "{p} ended healed ({n} campaign)", "{p} ended healed ({n} campaigns)", size
        ).format(p=percent_text(size / max(n, 1)), n=number_text(size))
    title_axes(ax, tr("Time to healing"), name, n, share)
    ax.set_xlabel(f"{tr('Campaign time when healed')} ({unit})")
    ax.set_ylabel(tr("Share of healed campaigns"))
    if healed.size == 0:
        ax.text(0.5, 0.5, tr("no campaign ended healed"), ha="center", va="center",
                transform=ax.transAxes, color="#555555")  # fmt: skip
        ax.set_xticks([])
        ax.set_yticks([])
        return ax
    x = healed / scale
    bins = _nice_bins(float(x.min()), float(x.max()))
    width = duration_text(round((bins[1] - bins[0]) * scale * 3600, 6)) if len(bins) > 1 else ""
    if width:  # each bar is the share of one bin: say how wide, so no one reads a density
        ax.set_ylabel(
            axis_label(tr("Share of healed campaigns, per bar of {width}").format(width=width))
        )
    weights = np.full(x.size, 100.0 / x.size) if counts is None else counts * (100.0 / size)
    ax.hist(x, bins=bins, weights=weights, color="#bdbdbd", edgecolor="#303030", linewidth=0.6)
    median = float(np.median(x)) if median_of is None else (median_of.median(scale) or 0.0)
    ax.axvline(median, color="#000000", linestyle="--", linewidth=1.2)
    ax.annotate(
        f"{tr('median')} {number_text(median, None, 1)} {unit}",
        xy=(median, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(4, -4),
        textcoords="offset points",
        ha="left",
        va="top",
    )
    percent_axis(ax.yaxis)
    number_axis(ax.xaxis)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)
    return ax


def _nice_bins(low: float, high: float, most: int = 40) -> list[float]:
    """Bin edges on whole multiples of a round width (1, 2, 5, 10, ... units)."""
    span = max(high - low, 1e-9)
    width = 1.0
    for factor in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        width = float(factor)
        if span / width <= most:
            break
    start = math.floor(low / width) * width
    stop = (math.floor(high / width) + 1) * width
    return [float(edge) for edge in np.arange(start, stop + width / 2, width)]


def aggravations(
    trials: pd.DataFrame | Tally, *, name: str | None = None, ax: Axes | None = None
) -> Axes:
    """Bar chart of the number of aggravations per campaign.

    Args:
        trials: A ``trials`` frame, or the trials' tally (the same figure).
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    if isinstance(trials, pd.DataFrame):
        counts = trials["aggravations"].to_numpy(dtype=np.int64)
        values = np.bincount(counts) if counts.size else np.zeros(1, dtype=np.int64)
        n = int(counts.size)
    else:
        values, n = trials.aggravations, trials.n
    share = 100 * values / max(n, 1)
    x = np.arange(values.size)
    bars = ax.bar(x, share, width=0.7, color="#8c8c8c", edgecolor="#202020", linewidth=0.6)
    if values.size <= 12:
        # every count that happened says so, however rare (one campaign in 20,000: 0.005%),
        # with no digit finer than one campaign (never 0.0050%)
        most = trial_decimals(n)
        labels = [
            percent_text(s / 100, most=most) if v > 0 else ""
            for s, v in zip(share, values, strict=True)
        ]
        ax.bar_label(bars, labels=labels, padding=2, fontsize=8)
    shown = max(values.size, 3)  # 0, 1 and 2 at least: "never aggravated" reads as such
    if shown <= 20:
        ax.set_xticks(np.arange(shown))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.6, shown - 0.4)
    top = share.max() * 1.12 + 1  # room for the labels above the tallest bar
    ax.set_ylim(0, top)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    ax.set_yticks([t for t in ax.get_yticks() if 0 <= t <= min(100.0, top)])
    ax.set_ylim(0, top)
    percent_axis(ax.yaxis)
    ax.set_xlabel(tr("Aggravations in the campaign (count)"))
    ax.set_ylabel(tr("Share of campaigns"))
    title_axes(ax, tr("Aggravations per campaign"), name, n)
    return ax
