"""The figures of ``calibrate``: each target's value along the search, and the sensitivity map."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter

from simulator.report.i18n import key_label, number_text, percent_text, tr
from simulator.report.style import new_axes, title_axes

_COLOURS = ("#000000", "#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")


def search_figure(
    frame: pd.DataFrame,
    labels: Sequence[str],
    values: Sequence[float],
    *,
    name: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Each target's value at the best point of each round, its target dotted.

    Args:
        frame: One row per round and target: ``round``, ``target`` (its number), ``reached``.
        labels: Each target's label, by number.
        values: Each target's value wanted, by number.
        name: The calibration's name.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    for number, (label, value) in enumerate(zip(labels, values, strict=True)):
        colour = _COLOURS[number % len(_COLOURS)]
        rows = frame[frame["target"] == number].sort_values("round")
        ax.plot(
            rows["round"].to_numpy(dtype=float),
            100 * rows["reached"].to_numpy(dtype=float),
            "o-",
            color=colour,
            markersize=3,
            linewidth=1.0,
            label=label,
        )
        ax.axhline(100 * value, color=colour, linestyle=":", linewidth=1.0)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: percent_text(v / 100, 0)))
    ax.set_xlabel(tr("round of the search"))
    ax.set_ylabel(tr("value reached (dotted: the target)"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8)
    title_axes(ax, tr("Calibration: each target along the search"), name, None)
    return ax


def sensitivity_heatmap(
    matrix: np.ndarray,
    keys: Sequence[str],
    labels: Sequence[str],
    *,
    name: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Each target's move (percentage points) per notch of each free key, at the solution.

    Args:
        matrix: ``targets x keys``, each a share moved per notch (NaN: no notch).
        keys: The free keys.
        labels: The targets' labels.
        name: The calibration's name.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    points = 100 * np.asarray(matrix, dtype=float)
    finite = points[np.isfinite(points)]
    scale = float(np.max(np.abs(finite))) if finite.size and np.max(np.abs(finite)) > 0 else 1.0
    ax.imshow(points, cmap="RdBu_r", vmin=-scale, vmax=scale, aspect="auto")
    for (row, column), value in np.ndenumerate(points):
        text = "—" if not np.isfinite(value) else number_text(round(float(value), 2))
        ax.text(column, row, text, ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(keys)), [key_label(k) for k in keys], rotation=20, ha="right")
    ax.set_yticks(range(len(labels)), list(labels))
    ax.set_xlabel(tr("free key (each cell: percentage points per notch)"))
    title_axes(ax, tr("Calibration: sensitivity at the solution"), name, None)
    return ax


__all__ = ["search_figure", "sensitivity_heatmap"]
