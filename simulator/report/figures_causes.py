"""The figure of Q3: what kills, the share dead of each cause over campaign time, stacked.

Greyscale-safe like every figure of :mod:`simulator.report.figures`: each cause has its own
grey *and* hatching, so the stack reads the same in colour, in greyscale and in print.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from simulator.report.causes import cause_label
from simulator.report.figures import over_time
from simulator.report.i18n import tr
from simulator.report.style import (
    axis_label,
    new_axes,
    number_axis,
    percent_axis,
    title_axes,
)
from simulator.rules.cause import DEATH_CAUSES

__all__ = ["CAUSE_STYLE", "causes_over_time"]

CAUSE_STYLE: dict[str, dict[str, Any]] = {
    "blow": {"color": "#111111", "hatch": "", "hatchcolor": "#111111"},
    "wound": {"color": "#303030", "hatch": "////", "hatchcolor": "#a8a8a8"},
    "stable_test": {"color": "#5a5a5a", "hatch": "xx", "hatchcolor": "#cfcfcf"},
    "neglected_watch": {"color": "#858585", "hatch": "\\\\\\\\", "hatchcolor": "#e8e8e8"},
    "healing_failure": {"color": "#aaaaaa", "hatch": "..", "hatchcolor": "#404040"},
    "activity": {"color": "#cccccc", "hatch": "--", "hatchcolor": "#505050"},
    "basic_healing": {"color": "#ececec", "hatch": "++", "hatchcolor": "#606060"},
}
"""Fill and hatching of each cause, from the bottom of the stack to the top."""


def causes_over_time(
    curves: pd.DataFrame,
    *,
    name: str | None = None,
    trials: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Stacked shares of campaigns dead of each cause of Q3, over campaign time.

    The causes no campaign died of are left out; the top of the stack is the share dead.

    Args:
        curves: The frame of :func:`simulator.studies.frames.cause_curves`.
        name: The scenario's name, for the title.
        trials: The number of trials, for the title.
        ax: Where to draw (None: a new figure).

    Returns:
        The Axes.
    """
    ax = new_axes(ax)
    wide, x, unit = over_time(curves, "cause")
    bottom = np.zeros_like(x)
    for cause in DEATH_CAUSES:
        share = wide[cause].to_numpy(dtype=float) * 100 if cause in wide else np.zeros_like(x)
        if not np.any(share > 0):
            continue
        look = dict(CAUSE_STYLE[cause])
        fill = look.pop("color")  # as facecolor: "color" would override the black edge too
        ax.fill_between(x, bottom, bottom + share, step="post", linewidth=0.6,
                        edgecolor="#000000", facecolor=fill, label=cause_label(cause),
                        **look)  # fmt: skip
        bottom = bottom + share
    if x.size:
        ax.set_xlim(x[0], x[-1])
    top = float(bottom.max()) if bottom.size else 0.0
    ax.set_ylim(0, max(5.0, min(100.0, top * 1.08)))
    percent_axis(ax.yaxis)
    number_axis(ax.xaxis)
    ax.set_xlabel(f"{tr('Campaign time')} ({unit})")
    ax.set_ylabel(axis_label(tr("Share of campaigns dead, by what opened the way")))
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0)  # fmt: skip
    else:
        ax.text(0.5, 0.5, tr("no campaign died"), ha="center", va="center",
                transform=ax.transAxes, color="#555555")  # fmt: skip
    title_axes(ax, tr("What kills, over campaign time"), name, trials)
    return ax
