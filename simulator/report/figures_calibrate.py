"""The figures of ``calibrate``: each target's value along the search, and the sensitivity map."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from simulator.report.i18n import key_label, notch_text, ntr, number_text, percent_text, tr
from simulator.report.style import new_axes, ticks_in_language, title_axes

_GREYS = ("#000000", "#555555", "#888888", "#333333", "#777777", "#222222", "#666666")
_MARKERS = ("o", "s", "^", "D", "v", "x", "*")
_LINES = ("-", "--", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (8, 2)), (0, (1, 1)), (0, (3, 1, 1, 1)))
"""Each target's grey, marker and line style: told apart in colour, in greyscale and in print."""


def search_figure(
    frame: pd.DataFrame,
    labels: Sequence[str],
    values: Sequence[float],
    *,
    name: str | None = None,
    ax: Axes | None = None,
    trials: int | None = None,
    exact: bool = False,
) -> Axes:
    """Each target's value at the best point of each round, its target dotted.

    Args:
        frame: One row per round and target: ``round``, ``target`` (its number), ``reached``.
        labels: Each target's label, by number.
        values: Each target's value wanted, by number.
        name: The calibration's name.
        ax: Where to draw (None: a new figure).
        trials: The trials of each evaluation, for the title (Monte Carlo).
        exact: Exact evaluations: the title says so.

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    for number, (label, value) in enumerate(zip(labels, values, strict=True)):
        colour = _GREYS[number % len(_GREYS)]
        marker = _MARKERS[number % len(_MARKERS)]
        rows = frame[frame["target"] == number].sort_values("round")
        ax.plot(
            rows["round"].to_numpy(dtype=float),
            100 * rows["reached"].to_numpy(dtype=float),
            marker=marker,
            linestyle=_LINES[number % len(_LINES)],
            color=colour,
            markersize=4,
            linewidth=1.0,
            label=label,
        )
        ax.axhline(100 * value, color=colour, linestyle=":", linewidth=1.0)
        ax.plot(  # the target's own marker, hollow, just outside the end of its dotted line:
            [1.03], [100 * value], marker=marker, color=colour, markersize=5,  # no round's point
            markerfacecolor="white", transform=ax.get_yaxis_transform(), clip_on=False,
        )  # fmt: skip
    ax.yaxis.set_major_formatter(ticks_in_language(lambda v, _: percent_text(v / 100, 0, digits=1)))
    ax.set_xlabel(tr("round of the search"))
    ax.set_ylabel(tr("value reached (dotted: the target)"))
    # the legend clear of the targets' hollow markers, which stand at 1.03
    ax.legend(loc="upper left", bbox_to_anchor=(1.07, 1.0), borderaxespad=0, fontsize=8)
    title_axes(ax, tr("Calibration: each target along the search"), _how(name, trials, exact), None)
    return ax


def _how(name: str | None, trials: int | None, exact: bool) -> str | None:
    """The title's second line: the calibration's name, and how each value was made."""
    how = None
    if trials:
        how = ntr("{n} trial per evaluation", "{n} trials per evaluation", trials)
        how = how.format(n=number_text(trials))
    elif exact:
        how = tr("exact")
    return " — ".join(part for part in (name, how) if part) or None


def sensitivity_heatmap(
    matrix: np.ndarray,
    keys: Sequence[str],
    labels: Sequence[str],
    *,
    name: str | None = None,
    ax: Axes | None = None,
    trials: int | None = None,
    exact: bool = False,
) -> Axes:
    """Each target's move (percentage points) per notch of each free key, at the solution.

    Args:
        matrix: ``targets x keys``, each a share moved per notch (NaN: no notch).
        keys: The free keys.
        labels: The targets' labels.
        name: The calibration's name.
        ax: Where to draw (None: a new figure).
        trials: The trials of each evaluation, for the title (Monte Carlo).
        exact: Exact evaluations: each move to four decimals, and the title says so; else
            one decimal, as every difference of sampled shares.

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    points = 100 * np.asarray(matrix, dtype=float)
    finite = points[np.isfinite(points)]
    scale = float(np.max(np.abs(finite))) if finite.size and np.max(np.abs(finite)) > 0 else 1.0
    # greys by size, the sign written: a cell reads the same in colour, greyscale and print
    ax.imshow(np.abs(points), cmap="Greys", vmin=0, vmax=scale * 1.15, aspect="auto")
    for (row, column), value in np.ndenumerate(points):
        text = "—" if not np.isfinite(value) else notch_text(float(value) / 100, exact, figure=True)
        dark = np.isfinite(value) and abs(value) > 0.55 * scale * 1.15
        ax.text(column, row, text, ha="center", va="center", fontsize=8,
                color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(len(keys)), [key_label(k) for k in keys], rotation=20, ha="right")
    ax.set_yticks(range(len(labels)), list(labels))
    ax.set_xlabel(tr("free key (each cell: percentage points per notch)"))
    title_axes(ax, tr("Calibration: sensitivity at the solution"), _how(name, trials, exact), None)
    return ax


__all__ = ["search_figure", "sensitivity_heatmap"]
