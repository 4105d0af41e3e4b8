"""What a person reads: the words of numbers, Markdown tables, figures and their style.

The words (``wording``) load at once. The tables (``tables``) need pandas and the figures
(``figures`` for one study, ``figures_sweep`` for sweeps and comparisons, ``figures_studies``
for ``balance`` and ``sensitivity``, ``style`` for the look and the saving) matplotlib, both
slow to import: their names below load them on first use, so that reading a scenario or
printing the odds never does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from simulator.report.wording import answer, days_hours, percent, titled

if TYPE_CHECKING:
    from simulator.report.figures import FATE_STYLE, aggravations, fate_over_time, time_to_heal
    from simulator.report.figures_causes import causes_over_time
    from simulator.report.figures_studies import balance_figure, tornado
    from simulator.report.figures_sweep import (
        LINES,
        compare_differences,
        sweep_heatmap,
        sweep_lines,
    )
    from simulator.report.style import STYLE, draw_and_save, new_axes, save_figure
    from simulator.report.tables import markdown_table

_FIGURES = {
    "FATE_STYLE": "figures",
    "aggravations": "figures",
    "fate_over_time": "figures",
    "time_to_heal": "figures",
    "causes_over_time": "figures_causes",
    "LINES": "figures_sweep",
    "compare_differences": "figures_sweep",
    "sweep_heatmap": "figures_sweep",
    "sweep_lines": "figures_sweep",
    "balance_figure": "figures_studies",
    "tornado": "figures_studies",
    "STYLE": "style",
    "draw_and_save": "style",
    "new_axes": "style",
    "save_figure": "style",
    "markdown_table": "tables",
}
"""Each figure's or table's name and the module that holds it (imported on first use).

The style module's ``style()`` context manager is not among them: ``report.style`` is the
module.
"""


def __getattr__(name: str) -> Any:
    """Load a figure's module (and matplotlib), or the tables' (and pandas), on first use."""
    module = _FIGURES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "FATE_STYLE",
    "LINES",
    "STYLE",
    "aggravations",
    "answer",
    "balance_figure",
    "causes_over_time",
    "compare_differences",
    "days_hours",
    "draw_and_save",
    "fate_over_time",
    "markdown_table",
    "new_axes",
    "percent",
    "save_figure",
    "sweep_heatmap",
    "sweep_lines",
    "time_to_heal",
    "titled",
    "tornado",
]


def __dir__() -> list[str]:
    """Every name, those loaded on first use included (a notebook's completion lists them)."""
    return sorted({*globals(), *__all__})
