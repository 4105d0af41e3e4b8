"""Figures of what the texts intend for Géraldine (the main study's grid and comparison).

Two heatmaps side by side (the chance that she dies of the spell her wound opened, Q3, and
over the campaign, by first-aid level and time between tries) and two fate charts side by side
(stable-period survival tests on and off). Greyscale-safe, like every figure here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from simulator.report.figures import fate_over_time
from simulator.report.figures_sweep import sweep_heatmap
from simulator.report.style import save_figure, style

LEVEL = "first-aid level"
EVERY = "one try every"


def first_aid_heatmaps(
    grid: pd.DataFrame, out: Path, formats: Sequence[str], *, name: str, stem: str = "first-aid"
) -> list[Path]:
    """``<stem>.<fmt>``: dead of the wound's spell (Q3), and dead, by level and cadence."""
    frame = grid.rename(columns={"level": LEVEL, "every": EVERY})
    with style():
        fig = Figure(figsize=(13.0, 5.2), layout="constrained")
        left, right = fig.subplots(1, 2)
        sweep_heatmap(
            frame,
            EVERY,
            LEVEL,
            value="p_dead_wound",
            name=name,
            ax=left,
            what="dead of the spell her wound opened",
        )
        sweep_heatmap(
            frame,
            EVERY,
            LEVEL,
            value="p_dead",
            name=name,
            ax=right,
            what="dead by the end of the campaign",
        )
        return save_figure(fig, out, stem, formats)


def stable_tests_side_by_side(
    curves: tuple[pd.DataFrame, pd.DataFrame],
    trials: tuple[int, int],
    out: Path,
    formats: Sequence[str],
    *,
    name: str,
    stem: str = "stable-tests",
) -> list[Path]:
    """``<stem>.<fmt>``: the fate over time with stable-period survival tests, without."""
    with style():
        fig = Figure(figsize=(13.0, 4.4), layout="constrained")
        left, right = fig.subplots(1, 2, sharey=True)
        fate_over_time(
            curves[0],
            name=name,
            trials=trials[0],
            ax=left,
            what="Stable-period survival tests on (the table)",
        )
        fate_over_time(
            curves[1],
            name=name,
            trials=trials[1],
            ax=right,
            what="Stable-period survival tests off",
        )
        legend = left.get_legend()
        if legend is not None:
            legend.remove()
        return save_figure(fig, out, stem, formats)
