"""Figures of studies, for print: greyscale-safe, labelled, titled, no clutter.

Every plotting function takes ``ax=None`` (a new figure then) and returns the Axes, so they
compose in notebooks. Shares are told apart by grey level *and* hatching or line style, so
the figures read the same in colour, in greyscale and in print. :func:`draw_and_save`
draws on an Agg figure (no pyplot, no display) and writes PNG and/or SVG atomically.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from simulator.frames import atomic_write

STYLE: dict[str, Any] = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.linewidth": 0.8,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "hatch.linewidth": 0.6,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "svg.hashsalt": "harmonies-simulator",
    "svg.fonttype": "none",
}
"""Matplotlib settings of every figure saved by this module."""

FATE_STYLE: dict[str, dict[str, Any]] = {
    "dead": {"label": "dead", "color": "#303030", "hatch": "////", "hatchcolor": "#a8a8a8"},
    "incoherent": {"label": "incoherent", "color": "#6e6e6e", "hatch": "xx", "hatchcolor": "#ddd"},
    "wounded": {"label": "still wounded", "color": "#bdbdbd", "hatch": "..", "hatchcolor": "#555"},
    "healed": {"label": "healed", "color": "#f2f2f2", "hatch": "", "hatchcolor": "#f2f2f2"},
}
"""Fill, hatching and label of each fate, from the bottom of the stack to the top."""

LINES: dict[str, dict[str, Any]] = {
    "p_dead": {"label": "dead", "color": "#000000", "linestyle": "-", "marker": "o"},
    "p_healed": {"label": "healed", "color": "#555555", "linestyle": "--", "marker": "s"},
    "p_wounded": {"label": "still wounded", "color": "#8c8c8c", "linestyle": ":", "marker": "^"},
    "p_incoherent": {"label": "incoherent", "color": "#8c8c8c", "linestyle": "-.", "marker": "D"},
}
"""Line style of each share in sweep and comparison charts."""


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`STYLE` for the duration of a block."""
    with mpl.rc_context(STYLE):
        yield


def _axes(ax: Axes | None, size: tuple[float, float] = (7.0, 4.2)) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def _title(
    ax: Axes, what: str, name: str | None, trials: int | None, extra: str | None = None
) -> None:
    count = f"{trials:,} trials" if trials else None
    if count and extra:
        count = f"{count}, {extra}"
    parts = [p for p in (name, count) if p]
    ax.set_title(f"{what}\n{' — '.join(parts)}" if parts else what, loc="left")


def _time_unit(horizon_h: float) -> tuple[float, str]:
    """Hours per displayed unit and the unit's name: days unless the horizon is short."""
    return (24.0, "days") if horizon_h >= 48 else (1.0, "hours")


def fate_over_time(
    curves: pd.DataFrame,
    *,
    name: str | None = None,
    trials: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Stacked shares of campaigns dead, incoherent, still wounded and healed over time.

    Args:
        curves: The frame of :func:`simulator.frames.curves`.
        name: The scenario's name, for the title.
        trials: The number of trials, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax)
    wide = curves.pivot_table(index="time_h", columns="state", values="share", observed=False)
    hours = wide.index.to_numpy(dtype=float)
    scale, unit = _time_unit(hours[-1] if hours.size else 0.0)
    x = hours / scale
    bottom = np.zeros_like(x)
    for state, look in FATE_STYLE.items():
        share = wide[state].to_numpy(dtype=float) * 100
        if state == "incoherent" and not np.any(share > 0):
            continue
        ax.fill_between(
            x, bottom, bottom + share, step="post", linewidth=0.6, edgecolor="#000000", **look
        )
        bottom = bottom + share
    ax.set_xlim(x[0], x[-1])
    ax.set_ylim(0, 100)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel(f"Campaign time ({unit})")
    ax.set_ylabel("Share of campaigns")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0
    )
    _title(ax, "Fate over campaign time", name, trials)
    return ax


def time_to_heal(trials: pd.DataFrame, *, name: str | None = None, ax: Axes | None = None) -> Axes:
    """Histogram of the time to healing (in days) of the trials that ended healed.

    Args:
        trials: A ``trials`` frame.
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax)
    healed = trials.loc[trials["outcome"] == "healed", "healed_h"].to_numpy(dtype=float)
    healed = healed[np.isfinite(healed)]
    scale, unit = _time_unit(float(healed.max()) if healed.size else 0.0)
    share = f"{healed.size / max(len(trials), 1):.1%} ended healed"
    _title(ax, "Time to healing", name, len(trials), share)
    ax.set_xlabel(f"Campaign time when healed ({unit})")
    ax.set_ylabel("Share of healed campaigns")
    if healed.size == 0:
        ax.text(0.5, 0.5, "no campaign ended healed", ha="center", va="center",
                transform=ax.transAxes, color="#555555")  # fmt: skip
        ax.set_xticks([])
        ax.set_yticks([])
        return ax
    x = healed / scale
    bins = _nice_bins(float(x.min()), float(x.max()))
    weights = np.full(x.size, 100.0 / x.size)
    ax.hist(x, bins=bins, weights=weights, color="#bdbdbd", edgecolor="#303030", linewidth=0.6)
    median = float(np.median(x))
    ax.axvline(median, color="#000000", linestyle="--", linewidth=1.2)
    ax.annotate(
        f"median {median:.1f} {unit}",
        xy=(median, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(4, -4),
        textcoords="offset points",
        ha="left",
        va="top",
    )
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)
    return ax


def _nice_bins(low: float, high: float, most: int = 40) -> np.ndarray:
    """Bin edges on whole multiples of a round width (1, 2, 5, 10, ... units)."""
    span = max(high - low, 1e-9)
    width = 1.0
    for factor in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        width = float(factor)
        if span / width <= most:
            break
    start = math.floor(low / width) * width
    stop = (math.floor(high / width) + 1) * width
    return np.arange(start, stop + width / 2, width)


def aggravations(trials: pd.DataFrame, *, name: str | None = None, ax: Axes | None = None) -> Axes:
    """Bar chart of the number of aggravations per campaign.

    Args:
        trials: A ``trials`` frame.
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax)
    counts = trials["aggravations"].to_numpy(dtype=np.int64)
    values = np.bincount(counts) if counts.size else np.zeros(1, dtype=np.int64)
    share = 100 * values / max(counts.size, 1)
    x = np.arange(values.size)
    bars = ax.bar(x, share, width=0.7, color="#8c8c8c", edgecolor="#202020", linewidth=0.6)
    if values.size <= 12:
        labels = [f"{s:.1f}%" if s >= 0.05 else "" for s in share]
        ax.bar_label(bars, labels=labels, padding=2, fontsize=8)
    ax.set_xticks(x if values.size <= 20 else ax.get_xticks())
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.6, values.size - 0.4)
    ax.set_ylim(0, min(100.0, share.max() * 1.15 + 1))
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel("Aggravations in the campaign (count)")
    ax.set_ylabel("Share of campaigns")
    _title(ax, "Aggravations per campaign", name, int(counts.size))
    return ax


def _numeric(values: Sequence[object]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _label(value: object) -> str:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text.replace("-", "\u2212") if _numeric([value]) else text


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
        key: The swept key (x axis); numbers are placed by value, others evenly.
        shares: Which shares to draw.
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax)
    values = list(frame[key])
    x = np.asarray(values, dtype=float) if _numeric(values) else np.arange(len(values))
    order = np.argsort(x, kind="stable")
    for share in shares:
        look = LINES[share]
        y = 100 * frame[share].to_numpy(dtype=float)[order]
        low = 100 * frame[f"{share}_low"].to_numpy(dtype=float)[order]
        high = 100 * frame[f"{share}_high"].to_numpy(dtype=float)[order]
        ax.fill_between(x[order], low, high, color=look["color"], alpha=0.18, linewidth=0)
        ax.plot(x[order], y, markersize=5, linewidth=1.4, **look)
    if not _numeric(values) or len(values) <= 12:
        ax.set_xticks(x, [_label(v) for v in values])
    ax.set_ylim(0, 100)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel(key)
    ax.set_ylabel("Share of campaigns (95% CI band)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    trials = int(frame["trials"].iloc[0]) if "trials" in frame and len(frame) else None
    _title(ax, f"Outcome against {key}", name, trials)
    return ax


def sweep_heatmap(
    frame: pd.DataFrame,
    x_key: str,
    y_key: str,
    *,
    value: str = "p_dead",
    name: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """A heatmap of one share over two swept keys, each cell annotated with its percent.

    Args:
        frame: A sweep frame.
        x_key: The key across (columns).
        y_key: The key down (rows).
        value: The share shown (``p_dead`` by default).
        name: The scenario's name, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax, (6.4, 4.8))
    xs = list(dict.fromkeys(frame[x_key]))
    ys = list(dict.fromkeys(frame[y_key]))
    grid = np.full((len(ys), len(xs)), np.nan)
    for _, row in frame.iterrows():
        grid[ys.index(row[y_key]), xs.index(row[x_key])] = 100 * float(row[value])
    image = ax.imshow(grid, cmap="Greys", vmin=0, vmax=100, aspect="auto", origin="lower")
    for (i, j), cell in np.ndenumerate(grid):
        if math.isfinite(cell):
            colour = "white" if cell > 55 else "black"
            ax.text(j, i, f"{cell:.1f}%", ha="center", va="center", color=colour, fontsize=9)
    ax.set_xticks(np.arange(len(xs)), [_label(v) for v in xs])
    ax.set_yticks(np.arange(len(ys)), [_label(v) for v in ys])
    ax.set_xlabel(x_key)
    ax.set_ylabel(y_key)
    ax.spines[:].set_visible(False)
    what = LINES.get(value, {"label": value})["label"]
    bar = ax.figure.colorbar(image, ax=ax, format=PercentFormatter(decimals=0), shrink=0.9)
    bar.set_label(f"Share {what}")
    bar.outline.set_visible(False)
    trials = int(frame["trials"].iloc[0]) if "trials" in frame and len(frame) else None
    _title(ax, f"Share {what} by {y_key} and {x_key}", name, trials)
    return ax


def compare_differences(
    difference: pd.DataFrame,
    *,
    names: tuple[str, str] = ("A", "B"),
    trials: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Differences of shares (A − B) with their 95% intervals, one row per share.

    Args:
        difference: :attr:`simulator.study.CompareResult.difference`.
        names: The two scenarios' names.
        trials: Trials of each, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = _axes(ax, (7.0, 3.2))
    y = np.arange(len(difference))[::-1]
    est = 100 * difference["difference"].to_numpy(dtype=float)
    low = 100 * difference["low"].to_numpy(dtype=float)
    high = 100 * difference["high"].to_numpy(dtype=float)
    ax.errorbar(est, y, xerr=[est - low, high - est], fmt="o", color="#000000", ecolor="#000000",
                elinewidth=1.2, capsize=4, markersize=5)  # fmt: skip
    ax.axvline(0, color="#8c8c8c", linewidth=0.8, linestyle="--")
    labels = [LINES.get(m, {"label": m})["label"] for m in difference["measure"]]
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(difference) - 0.4)
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _: f"{v:+.0f}".replace("-", "\u2212") if v else "0")
    )
    ax.set_xlabel("Difference in share of campaigns, A − B (percentage points, 95% CI)")
    for yi, e, lo, hi in zip(y, est, low, high, strict=True):
        text = f"{e:+.1f} [{lo:+.1f}, {hi:+.1f}]".replace("-", "\u2212")
        ax.annotate(text, xy=(1.0, yi), xycoords=("axes fraction", "data"), xytext=(6, 0),
                    textcoords="offset points", va="center", ha="left", fontsize=9)  # fmt: skip
    ax.spines["left"].set_visible(False)
    ax.tick_params(axis="y", length=0)
    _title(ax, f"A: {names[0]}  vs  B: {names[1]}", None, trials, "same seeds")
    return ax


# --- saving ---------------------------------------------------------------------------------


_METADATA = {"svg": {"Date": None}, "png": {"Software": None}}
"""Metadata left out of saved files, so that the same figure gives the same bytes."""


def save_figure(fig: Figure, out: Path, stem: str, formats: Sequence[str]) -> list[Path]:
    """Save a figure as ``<out>/<stem>.<format>`` for each format, atomically (Agg).

    Returns:
        The files written.
    """
    FigureCanvasAgg(fig)
    return [
        atomic_write(
            Path(out) / f"{stem}.{fmt}",
            lambda tmp, fmt=fmt: fig.savefig(tmp, format=fmt, metadata=_METADATA.get(fmt)),
        )
        for fmt in formats
    ]


def draw_and_save(
    out: Path,
    stem: str,
    formats: Sequence[str],
    draw: Callable[[Axes], object],
    size: tuple[float, float] = (7.0, 4.2),
) -> list[Path]:
    """Draw on a new Agg figure in :func:`style`, then save it with :func:`save_figure`.

    Args:
        out: The directory.
        stem: The file name without its extension.
        formats: E.g. ``("png", "svg")``.
        draw: Draws on the Axes it is given (one of this module's plotting functions).
        size: The figure's size in inches.

    Returns:
        The files written.
    """
    with style():
        fig = Figure(figsize=size, layout="constrained")
        draw(fig.subplots())
        return save_figure(fig, out, stem, formats)
