"""Figures of a study description's extra studies: its grid's heatmaps, its comparison's fates.

A grid of two axes gets two heatmaps side by side: the chance of dying of a spell that a wound
received opened (Q3's cause ``wound``), and of dying by the end of the campaign, by the two
axes. A comparison gets two fate charts side by side, the scenario as it is and changed. What
the axes and the sides are called is the description's (:mod:`simulator.scenario.described`),
never this module's. Greyscale-safe, like every figure here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from simulator.report.figures import fate_over_time
from simulator.report.figures_sweep import sweep_heatmap
from simulator.report.i18n import tr
from simulator.report.style import save_figure, style


def grid_heatmaps(
    grid: pd.DataFrame,
    out: Path,
    formats: Sequence[str],
    *,
    name: str,
    stem: str,
    rows: tuple[str, str],
    columns: tuple[str, str],
) -> list[Path]:
    """``<stem>.<fmt>``: dead of a wound's spell (Q3), and dead, by the grid's two axes.

    Args:
        grid: The grid's frame (``<stem>.csv``).
        out: The folder.
        formats: The figures' formats.
        name: The scenario's title.
        stem: The files' stem.
        rows: The first axis: its column and what a reader calls it (the heatmap's rows).
        columns: The second axis, likewise (the heatmap's columns).
    """
    frame = grid.rename(columns={rows[0]: rows[1], columns[0]: columns[1]})
    with style():
        fig = Figure(figsize=(13.0, 5.2), layout="constrained")
        shown = (
            ("p_dead_wound", tr("dead in a new wound's unstable spell")),
            ("p_dead", tr("dead by the end of the campaign")),
        )
        for ax, (value, what) in zip(fig.subplots(1, 2), shown, strict=True):
            sweep_heatmap(frame, columns[1], rows[1], value=value, name=name, ax=ax, what=what)
        return save_figure(fig, out, stem, formats)


def compare_side_by_side(
    curves: tuple[pd.DataFrame, pd.DataFrame],
    trials: tuple[int, int],
    out: Path,
    formats: Sequence[str],
    *,
    name: str,
    stem: str,
    sides: tuple[str, str],
) -> list[Path]:
    """``<stem>.<fmt>``: the fate over time of the scenario as it is and changed.

    ``sides``: what a reader calls each (the description's ``sides``).
    """
    with style():
        fig = Figure(figsize=(13.0, 4.4), layout="constrained")
        left, right = fig.subplots(1, 2, sharey=True)
        fate_over_time(curves[0], name=name, trials=trials[0], ax=left, what=sides[0])
        fate_over_time(curves[1], name=name, trials=trials[1], ax=right, what=sides[1])
        legend = left.get_legend()
        if legend is not None:
            legend.remove()
        return save_figure(fig, out, stem, formats)
