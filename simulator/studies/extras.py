"""The extra studies of a study description, as files: the grid's and the comparison's.

What a description asks (:mod:`simulator.scenario.described`) is run with the main study
(:mod:`simulator.studies.main_study`); here its results become ``<grid>.csv``,
``<compare>.csv`` and their figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from simulator.scenario.described import Comparison, Extras, Grid
    from simulator.studies.result import StudyResult


def _shares(result: StudyResult) -> dict[str, Any]:
    """Shares and 95% intervals: dead, of each cause (Q3: ``p_dead_<cause>``), healed."""
    summary = result.summary_json()
    row: dict[str, Any] = {"trials": summary["trials"]}
    shares = {"p_dead": (summary["p_dead"], summary["p_dead_ci"])}
    for cause, p in summary["p_dead_by_cause"].items():
        shares[f"p_dead_{cause}"] = (p, summary["p_dead_by_cause_ci"][cause])
    shares["p_healed"] = (summary["p_healed"], summary["p_healed_ci"])
    for name, (p, (low, high)) in shares.items():
        row |= {name: p, f"{name}_low": low, f"{name}_high": high}
    return row


def grid_frame(grid: Grid, results: Sequence[StudyResult]) -> pd.DataFrame:
    """``<grid>.csv``: one row per point, its columns then its shares."""
    rows = [
        {**row, **_shares(result)} for (row, _), result in zip(grid.points(), results, strict=True)
    ]
    return pd.DataFrame(rows)


def compare_frame(compare: Comparison, as_is: StudyResult, changed: StudyResult) -> pd.DataFrame:
    """``<compare>.csv``: the scenario as it is, then changed."""
    rows = [
        {compare.column: compare.as_is, **_shares(as_is)},
        {compare.column: compare.changed, **_shares(changed)},
    ]
    return pd.DataFrame(rows)


def save(
    extras: Extras,
    out: Path,
    grid: list[StudyResult],
    sides: tuple[StudyResult, StudyResult] | None,
    formats: Sequence[str],
) -> list[Path]:
    """Write the extra studies' CSV files and figures into ``out``; return the files."""
    import json

    from simulator.files import atomic_write
    from simulator.report.figures_extras import compare_side_by_side, grid_heatmaps
    from simulator.report.i18n import current_language
    from simulator.scenario.described import WORDS

    lang = current_language()
    written: list[Path] = []
    if extras.grid is not None:
        frame = grid_frame(extras.grid, grid)
        name, path = extras.grid.name, out / f"{extras.grid.name}.csv"
        written.append(atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False)))
    if extras.compare is not None and sides is not None:
        headline = compare_frame(extras.compare, *sides)
        path = out / f"{extras.compare.name}.csv"
        written.append(atomic_write(path, lambda tmp: headline.to_csv(tmp, index=False)))
    if extras.grid is not None or extras.compare is not None:
        text = json.dumps(extras.words(), ensure_ascii=False, indent=1) + "\n"
        written.append(atomic_write(out / WORDS, lambda tmp: tmp.write_text(text, "utf-8")))
    title = sides[0].title if sides is not None else grid[0].title if grid else ""
    if formats and extras.grid is not None and len(extras.grid.axes) == 2:  # none: no figures
        first, second = extras.grid.axes
        written += grid_heatmaps(
            frame,
            out,
            formats,
            name=title,
            stem=name,
            rows=(first.column, first.words(lang)),
            columns=(second.column, second.words(lang)),
        )
    if formats and extras.compare is not None and sides is not None:
        curves = (sides[0].curves(), sides[1].curves())
        counts = (sides[0].estimate.count or 0, sides[1].estimate.count or 0)
        written += compare_side_by_side(
            curves,
            counts,
            out,
            formats,
            name=title,
            stem=extras.compare.name,
            sides=extras.compare.words(lang)[1],
        )
    return written


__all__ = ["compare_frame", "grid_frame", "save"]
