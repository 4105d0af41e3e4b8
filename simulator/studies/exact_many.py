"""Exact answers of several scenarios: a sweep over a grid, and a comparison of two.

:func:`run_exact_sweep` gives a :class:`~simulator.studies.result.SweepResult` whose points are
:class:`~simulator.studies.exact.ExactResult` s (the same frame, files and figure as a Monte
Carlo sweep, with ``"method": "exact"``); :func:`run_exact_compare` an
:class:`ExactCompareResult`, whose differences are exact, their interval widened only by the
mass each side dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from simulator.errors import ScenarioError
from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES, solve
from simulator.report.i18n import tr
from simulator.report.pages import INDEX_HTML, REPORT, write_index, write_report
from simulator.studies.exact import ExactResult, check_exact_arguments
from simulator.studies.result import FIGURE_FORMATS, MEASURES, drawn, measure, split_differences

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.studies.result import SweepResult

COMPARED = ("p_dead", "p_healed", "p_wounded", "p_incoherent")


def run_exact_sweep(
    scenario: Scenario | str | Path,
    grid: Mapping[str, Sequence[object]],
    *,
    eps: float = DEFAULT_EPS,
    max_states: int = DEFAULT_MAX_STATES,
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    figures: bool = True,
) -> SweepResult:
    """The exact answer at each point of a grid of scenario keys (as ``sweep --exact``).

    Args:
        scenario: A scenario file, or a :class:`~simulator.scenario.model.Scenario`.
        grid: ``{dotted key: [values]}``, applied like ``--set``.
        eps: As :func:`~simulator.studies.exact.run_exact`.
        max_states: As :func:`~simulator.studies.exact.run_exact`, per point.
        overrides: ``--set`` overrides applied before the grid's.
        out: Receives ``sweep.csv``, ``sweep.json``, the base scenario and the figure.
        figures: With ``out``, also draw the figure.

    Raises:
        UserError: For a bad scenario, grid value or argument, or too many states.
    """
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides
    from simulator.studies.api import grid_points, in_effect, toml_literal
    from simulator.studies.result import SweepResult

    check_exact_arguments(eps, max_states)
    points = grid_points(grid)
    if isinstance(scenario, str | Path):
        source, data = str(scenario), read_scenario_mapping(scenario)
    else:
        from simulator.scenario.writing import scenario_to_mapping

        source, data = scenario.source, scenario_to_mapping(scenario)
    base = scenario_with_overrides(data, overrides, source)
    texts = [[f"{k}={toml_literal(v)}" for k, v in point.items()] for point in points]
    scenarios = [scenario_with_overrides(data, overrides, source, more=t) for t in texts]
    folder = _claim(out, SweepResult.files(), [scenario])
    kept = in_effect(overrides, list(grid))  # a --set the grid moves is no point's label
    results = [
        ExactResult(s, solve(s, eps=eps, max_states=max_states), (*kept, *t))
        for s, t in zip(scenarios, texts, strict=True)
    ]
    result = SweepResult(list(grid), points, results, base, kept)  # type: ignore[arg-type]
    if folder is not None:
        result.save(folder, figures=figures)
    return result


def _claim(out: str | Path | None, files: Sequence[str], given: Sequence[object]) -> Path | None:
    if out is None:
        return None
    from simulator.studies.outdir import claim

    return claim(out, files, inputs=[g for g in given if isinstance(g, str | Path)])


@dataclass
class ExactCompareResult:
    """Two exact answers side by side; differences A − B.

    Each difference's interval is ``[d - dropped_b, d + dropped_a]``: where A − B lies when
    each side's true share is within its own ``[p, p + dropped]``.
    """

    a: ExactResult
    b: ExactResult

    def _differences(self) -> dict[str, dict[str, Any]]:
        sa, sb = self.a.summary_json(), self.b.summary_json()
        da, db = self.a.dropped_mass, self.b.dropped_mass
        result = {}
        for key in MEASURES:  # the shares, and each cause's share dead (Q3)
            d = measure(sa, key) - measure(sb, key)
            result[key] = {"estimate": d, "ci": [d - db, d + da]}
        return result

    def to_json(self) -> dict[str, Any]:
        """``{"a": summary, "b": summary, "difference": {"p_dead": {"estimate", "ci"}, ...}}``."""
        return {
            "a": self.a.summary_json(),
            "b": self.b.summary_json(),
            **split_differences(self._differences()),
            "method": "exact",
        }

    @property
    def difference(self) -> pd.DataFrame:
        """One row per share: A, B, and A − B with its interval."""
        sa, sb = self.a.summary_json(), self.b.summary_json()
        rows = [
            {
                "measure": key,
                "a": measure(sa, key),
                "b": measure(sb, key),
                "difference": d["estimate"],
                "low": d["ci"][0],
                "high": d["ci"][1],
            }
            for key, d in self._differences().items()
        ]
        return pd.DataFrame(rows)

    @staticmethod
    def files(formats: Sequence[str] = FIGURE_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write."""
        data = ["compare.csv", "compare.json", "scenario-a.toml", "scenario-b.toml"]
        return [*data, REPORT, *(f"compare.{fmt}" for fmt in formats)]

    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write ``compare.csv``, ``compare.json``, both scenarios and the figure."""
        from simulator.studies.exact import _csv
        from simulator.studies.outdir import claim, record
        from simulator.studies.result import write_json, write_scenario

        out = claim(out, self.files(formats))
        written = [
            _csv(self.difference, out / "compare.csv"),
            write_json(self.to_json(), out / "compare.json"),
            write_scenario(self.a.scenario, out / "scenario-a.toml", tr("A of the comparison.")),
            write_scenario(self.b.scenario, out / "scenario-b.toml", tr("B of the comparison.")),
        ]
        if figures:
            from simulator.report import compare_differences, draw_and_save

            names = (f"{self.a.title} (exact)", f"{self.b.title} (exact)")
            draw = partial(compare_differences, drawn(self.difference), names=names)
            written += draw_and_save(out, "compare", formats, lambda ax: draw(ax=ax), (7.0, 3.2))
        record(out, written, complete=True, last=write_report)
        return written


def run_exact_compare(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    *,
    eps: float = DEFAULT_EPS,
    max_states: int = DEFAULT_MAX_STATES,
    overrides: Sequence[str] = (),
    overrides_a: Sequence[str] = (),
    overrides_b: Sequence[str] = (),
    out: str | Path | None = None,
    figures: bool = True,
) -> ExactCompareResult:
    """The exact answers of two scenarios and their differences (as ``compare --exact``).

    Raises:
        UserError: For a bad scenario, override or argument, or too many states.
    """
    from simulator.studies.api import _load

    check_exact_arguments(eps, max_states)
    scenarios, problems = [], []
    for which, own, flag in ((a, overrides_a, "--set-a"), (b, overrides_b, "--set-b")):
        try:
            scenarios.append(_load(which, overrides, own, flag))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    folder = _claim(out, ExactCompareResult.files(), [a, b])
    sides = [
        ExactResult(s, solve(s, eps=eps, max_states=max_states), (*overrides, *own))
        for s, own in zip(scenarios, (overrides_a, overrides_b), strict=True)
    ]
    result = ExactCompareResult(*sides)
    if folder is not None:
        result.save(folder, figures=figures)
    return result


def run_exact_directory(
    directory: Path,
    *,
    out: Path,
    eps: float = DEFAULT_EPS,
    max_states: int = DEFAULT_MAX_STATES,
    command: str | None = None,
) -> list[tuple[Path, ExactResult]]:
    """The exact answer of every ``*.toml`` scenario of ``directory`` (as ``study --exact``).

    Each answer goes to ``<out>/<file stem>/``; ``<out>/README.md`` indexes them. A scenario
    whose states exceed ``max_states`` is left out of the index; once the others are
    written, a :class:`~simulator.errors.UserError` names every one left out. ``command``:
    what wrote the index (as :func:`~simulator.studies.main_study.run_directory`'s).

    Raises:
        UserError: For a missing or empty directory, a bad scenario, or scenarios refused.
    """
    from simulator.errors import UserError
    from simulator.scenario.reading import load_scenario
    from simulator.studies.main_study import FORMATS, INDEX, index_markdown
    from simulator.studies.outdir import claim, record
    from simulator.studies.result import write_text

    check_exact_arguments(eps, max_states)
    directory = Path(directory)
    if not directory.is_dir():
        raise UserError(f"{directory}: expected a directory of scenario files (*.toml)")
    paths = sorted(directory.glob("*.toml"))
    if not paths:
        raise UserError(f"{directory}: no scenario files (*.toml) in it")
    scenarios, problems = [], []
    for path in paths:
        try:
            scenarios.append(load_scenario(path))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    claim(out, [INDEX, INDEX_HTML], inputs=paths)
    for path in paths:
        claim(Path(out) / path.stem, ExactResult.files(FORMATS), inputs=paths)
    results, refused = [], []
    for path, scenario in zip(paths, scenarios, strict=True):
        try:
            answer = solve(scenario, eps=eps, max_states=max_states)
        except UserError as exc:
            refused.append(str(exc))
            continue
        result = ExactResult(scenario, answer)
        result.save(Path(out) / path.stem, formats=FORMATS)
        results.append((path, result))
    text = index_markdown(results, directory, None, 0, command=command, eps=eps)
    if refused:
        text += "\n" + tr("Left out (too many states for --exact; use Monte Carlo):") + "\n\n"
        text += "".join(f"- {reason}\n" for reason in refused)
    index = write_text(Path(out) / INDEX, text)
    stems = [path.stem for path, _ in results]
    record(out, [index, write_index(out, stems, directory, None, 0)], complete=True)
    if refused:
        raise UserError("\n".join(refused))
    return results


__all__ = ["ExactCompareResult", "run_exact_compare", "run_exact_directory", "run_exact_sweep"]
