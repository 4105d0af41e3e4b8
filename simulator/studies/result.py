"""What studies produce: results that hold pandas frames and know how to save themselves.

:class:`StudyResult`, :class:`SweepResult` and :class:`CompareResult` are returned by
:func:`~simulator.studies.api.run_study`, :func:`~simulator.studies.api.run_sweep` and
:func:`~simulator.studies.api.run_compare`. The words and numbers they print come from
:mod:`simulator.report.wording`; the main study of ``make run`` is
:mod:`simulator.studies.main_study`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from simulator.errors import UserError, phrase
from simulator.files import user_path
from simulator.report.i18n import tr
from simulator.report.pages import REPORT, write_report
from simulator.report.wording import scenario_text, titled
from simulator.rules.levels import Track
from simulator.runner.outdir import claim, record
from simulator.runner.writers import write_csv, write_json, write_scenario
from simulator.spelling import python_api
from simulator.studies.measures import CAUSE_MEASURES
from simulator.studies.reachable import ruled_out
from simulator.studies.sampled import Sampled
from simulator.studies.solved import Solved

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from simulator.exact import ExactAnswer
    from simulator.rules.outcome import Summary
    from simulator.scenario.model import Scenario

FIRST_DAY_H = 24.0
"""Campaigns longer than two days also get ``fate-first-day``: their first 24 hours."""

FIGURE_FORMATS = ("png", "svg")
"""Formats of the figures of ``run``: PNG, and SVG for the report page (``report.html``)."""

CLAIMED_FORMATS = ("png", "svg")
"""The figure formats whose files a result claims by default (those it writes, or left)."""


def _every(formats: Sequence[str]) -> list[str]:
    """The formats a save claims: its own, and PNG and SVG.

    A run into the main study's folder then replaces the figures of both, never leaving the
    other stale.
    """
    return list(dict.fromkeys([*formats, "png", "svg"]))


def _files(data: Sequence[str], figures: Sequence[str], formats: Sequence[str]) -> list[str]:
    return [*data, REPORT, *(f"{stem}.{fmt}" for stem in figures for fmt in formats)]


Estimate = Sampled | Solved
"""What a study holds: the trials of Monte Carlo, or the exact answer."""


def _check_points(points: object) -> None:
    """A count of curve points: a whole number, 2 or more.

    Raises:
        UserError: Otherwise (``curves(1)`` and ``curves(2.5)`` gave two points in silence).
    """
    import numbers

    if isinstance(points, bool) or not isinstance(points, numbers.Integral) or points < 2:
        raise UserError(
            phrase("points: got {value}; expected a whole number of 2 or more", value=repr(points))
        )


def _sources(*scenarios: Scenario | None) -> list[str]:
    """The files the scenarios were read from: a result saved never writes over them."""
    return [s.source for s in scenarios if s is not None and s.source]


@dataclass
class StudyResult:
    """One scenario, its estimate (trials, or the exact answer) and what is computed from them.

    Attributes:
        scenario: The scenario that was run.
        estimate: :class:`~simulator.studies.sampled.Sampled` (the ``trials`` frame and its
            seed) or :class:`~simulator.studies.solved.Solved` (the exact answer).
        overrides: The overrides the scenario was loaded with (already in ``scenario``),
            as ``KEY=VALUE`` texts: they name the study in titles and summaries.
        source: The scenario's file as told in titles and in the summary (``file``), where
            its name alone would not tell it from another study's (a comparison of two
            files of one name); None otherwise.
    """

    scenario: Scenario
    estimate: Estimate = field(repr=False)
    overrides: tuple[str, ...] = ()
    source: str | None = None

    @property
    def method(self) -> str:
        """``monte-carlo`` or ``exact``."""
        return self.estimate.method

    def __repr__(self) -> str:
        """The study and its headline, not the whole scenario (what a notebook shows)."""
        summary = self._summary
        how = (
            "exact"
            if summary["trials"] is None
            else f"{summary['trials']:,} trials, seed {summary['seed']}"
        )
        low, high = summary["p_dead_ci"]
        share = f"p_dead {summary['p_dead']:.4g} ({low:.4g}-{high:.4g})"
        return f"<StudyResult {self.title!r}: {how}, {share}>"

    @property
    def trials(self) -> pd.DataFrame:
        """The ``trials`` frame (Monte Carlo only).

        Raises:
            UserError: For an exact answer, which has no trials.
        """
        if not isinstance(self.estimate, Sampled):
            raise UserError(phrase("an exact answer has no trials; expected a Monte Carlo study"))
        return self.estimate.trials

    @property
    def seed(self) -> int | None:
        """The study's seed (None when exact)."""
        return self.estimate.seed

    @property
    def answer(self) -> ExactAnswer:
        """The exact engine's answer (exact only)."""
        return self._solved.answer

    @property
    def dropped_mass(self) -> float:
        """The probability an exact answer dropped (0 for trials, which drop nothing)."""
        return self.estimate.dropped_mass if isinstance(self.estimate, Solved) else 0.0

    @property
    def _solved(self) -> Solved:
        if not isinstance(self.estimate, Solved):
            raise UserError(phrase("only an exact answer has this; expected Exact() as the method"))
        return self.estimate

    @property
    def title(self) -> str:
        """The scenario's name, with the overrides when there are some."""
        return titled(scenario_text(self.scenario)[0], self.overrides, self.source)

    @property
    def has_mental_wounds(self) -> bool:
        """Whether the scenario deals mental wounds (the incoherent share then matters)."""
        return any(injury.level.track is Track.MENTAL for injury in self.scenario.injuries)

    @property
    def horizon_h(self) -> float:
        """The scenario's horizon, in hours."""
        return self.scenario.horizon / 3600.0

    @cached_property
    def _summary(self) -> Summary:
        summary = self.estimate.summary(self.scenario.name, self.horizon_h)
        summary["overrides"] = list(self.overrides)
        summary["impossible"] = ruled_out(self.scenario)
        if self.source is not None:
            summary["file"] = self.source
        return summary

    def summary_json(self) -> Summary:
        """The JSON summary of CONTRACT.md (plus extra keys), ready for :func:`json.dumps`."""
        return self._summary.copy()

    @property
    def summary(self) -> pd.DataFrame:
        """The summary as a one-row frame; intervals as ``*_low`` / ``*_high`` columns."""
        from simulator.studies.frames import summary_frame

        return summary_frame(self._summary)

    def stat(self, name: str) -> float:
        """A statistic by name: ``p_dead``, ``p_dead_by_1d``, ``p_dead_wound_by_1d``...

        Raises:
            UserError: For an unknown statistic or a time past the horizon.
        """
        return self.estimate.stat(name, self.scenario.horizon)

    def curves(self, points: int = 200, *, times: Sequence[float] | None = None) -> pd.DataFrame:
        """Shares dead, incoherent, wounded, healed and stabilised over campaign time.

        Args:
            points: Evenly spaced times from 0 to the horizon, both included (2 or more).
            times: Or these times, in hours (e.g. ``[1, 24, 168]``), from 0 to the horizon.

        Raises:
            UserError: For a count of points below 2 or not a whole number, or a time
                outside the campaign.
        """
        if times is None:
            _check_points(points)
        else:
            try:
                hours = np.asarray(times, dtype=np.float64).reshape(-1)
            except (TypeError, ValueError):
                hours = np.empty(0)
            if not hours.size or not np.all((hours >= 0) & (hours <= self.horizon_h)):
                raise UserError(
                    phrase(
                        "times: got {value}; expected hours from 0 to the horizon ({h})",
                        value=repr(times),
                        h=f"{self.horizon_h:g}",
                    )
                )
        return self.estimate.curves(self.horizon_h, points, times)

    def cause_curves(self, points: int = 200) -> pd.DataFrame:
        """Q3: the share dead of each cause by each campaign time."""
        _check_points(points)
        return self.estimate.cause_curves(self.horizon_h, points)

    def distribution(self, outcome: str) -> pd.DataFrame:
        """The exact distribution of the time of an outcome (exact only)."""
        return self._solved.distribution(outcome)

    @property
    def expected(self) -> pd.DataFrame:
        """The exact expected count of each of Q1's counts (exact only)."""
        return self._solved.expected()

    @python_api
    def save(
        self,
        out: Path,
        *,
        figures: bool = True,
        formats: Sequence[str] = FIGURE_FORMATS,
        trials_file: bool = True,
    ) -> list[Path]:
        """Write the data files (``summary.json``, ``scenario.toml``...) and the figures.

        ``scenario.toml`` is the scenario as simulated (defaults filled in, overrides
        applied): running it again with the same method gives the same result. A sampled
        study's ``trials.parquet`` is written on a thread of its own while the figures are
        drawn (a core is free by then), each file atomically as ever.

        Returns:
            The files written.
        """
        inputs = _sources(self.scenario)  # never written over (its own scenario.toml)
        if isinstance(self.estimate, Sampled):  # its trials may be read back from out's file
            self.estimate.set.read_back_from(user_path(out))
        out = claim(
            user_path(out), self.files(_every(formats), self.estimate.method), inputs=inputs
        )
        estimate = self.estimate
        with ThreadPoolExecutor(1, thread_name_prefix="trials-parquet") as pool:
            trials = None  # trials.parquet (pyarrow lets go of the interpreter) beside the rest
            if trials_file and isinstance(estimate, Sampled):
                trials = pool.submit(estimate.set.write_parquet, out / "trials.parquet")
            written = estimate.write(self, out, trials_file=trials_file and trials is None)
            if figures:
                written += self._figures(out, formats)
            if trials is not None:
                written.insert(0, trials.result())
        record(out, written, complete=True, last=write_report if figures else None)
        return written

    @staticmethod
    def files(formats: Sequence[str] = CLAIMED_FORMATS, method: str = "monte-carlo") -> list[str]:
        """Every file name :meth:`save` may write (the output folder's rule checks them)."""
        kind = Solved if method == "exact" else Sampled
        return _files(kind.data, kind.figures, formats)

    def _figures(self, out: Path, formats: Sequence[str]) -> list[Path]:
        from simulator.report import causes_over_time, draw_and_save, fate_over_time
        from simulator.report.i18n import tr

        name, n = self.title + self.estimate.suffix, self.estimate.count
        curves, causes = self.curves(), self.cause_curves()
        early: list[Path] = []
        if self.horizon_h > 2 * FIRST_DAY_H:  # the first hours vanish on a long time axis
            first = self.curves(times=[h / 60 for h in range(int(FIRST_DAY_H * 60) + 1)])
            what = tr("Fate over the first day")
            early = draw_and_save(out, "fate-first-day", formats,
                                  lambda ax: fate_over_time(first, name=name, trials=n, ax=ax,
                                                            what=what))  # fmt: skip
        return [
            *early,
            *draw_and_save(out, "fate", formats,
                           lambda ax: fate_over_time(curves, name=name, trials=n, ax=ax)),
            *draw_and_save(out, "causes", formats,
                           lambda ax: causes_over_time(causes, name=name, trials=n, ax=ax)),
            *self.estimate.more_figures(self, out, formats),
        ]  # fmt: skip


@dataclass
class SweepResult:
    """One study per point of a grid.

    Attributes:
        keys: The grid's keys, in order.
        points: One ``{key: value}`` per point, the first key varying slowest.
        results: The study of each point.
        base: The scenario the grid's values were applied to (None: unknown).
        overrides: The ``--set`` overrides of every point, before the grid's values.
    """

    keys: list[str]
    points: list[dict[str, Any]]
    results: list[StudyResult] = field(repr=False)
    base: Scenario | None = field(default=None, repr=False)
    overrides: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """The grid's keys and size, not every study (what a notebook shows)."""
        name = self.results[0].scenario.name if self.results else ""
        return f"<SweepResult {name!r}: {len(self.points)} points over {', '.join(self.keys)}>"

    @property
    def title(self) -> str:
        """The base scenario's name in the language in force, with the ``--set`` overrides."""
        base = self.base if self.base is not None else self.results[0].scenario
        return titled(scenario_text(base)[0], self.overrides)

    def summaries_json(self) -> list[dict[str, Any]]:
        """One JSON summary per point, each with its ``point`` object first."""
        return [
            {"point": dict(point), **result.summary_json()}
            for point, result in zip(self.points, self.results, strict=True)
        ]

    @property
    def frame(self) -> pd.DataFrame:
        """One row per point: the grid's keys, then the summary's columns.

        A key of durations (``first_aid.interval``: ``30s``, ``5min``) is followed by
        ``hours:<key>``, the same durations in hours as numbers, which a spreadsheet sorts
        and charts (the text ``10min`` sorts before ``1min``).
        """
        import pandas as pd

        from simulator.studies.frames import summary_frame

        frame = pd.concat([summary_frame(s) for s in self.summaries_json()], ignore_index=True)
        for key in self.keys:
            hours = _hours(frame[key]) if key in frame else None
            if hours is not None:
                frame.insert(list(frame.columns).index(key) + 1, f"hours:{key}", hours)
        return frame

    @python_api
    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write ``sweep.csv``, ``sweep.json``, the figure and the base ``scenario.toml``."""
        inputs = _sources(self.base, *(r.scenario for r in self.results))
        out = claim(user_path(out), self.files(_every(formats)), inputs=inputs)
        written = [
            write_csv(self.frame, out / "sweep.csv"),
            write_json(self.summaries_json(), out / "sweep.json"),
        ]
        if self.base is not None:
            says = tr("Each point of the sweep sets {keys} (see sweep.csv).")
            says = says.format(keys=", ".join(self.keys))
            written.append(write_scenario(self.base, out / "scenario.toml", says, tr))
        if figures and len(self.keys) > 2:
            from simulator.errors import note, phrase

            note(
                phrase(
                    "no figure for a sweep of {n} keys (a line chart takes one key, a heatmap "
                    "two); sweep.csv and report.html hold every point",
                    n=len(self.keys),
                )
            )
        if figures and len(self.keys) in (1, 2) and self.results:
            from simulator.report import draw_and_save

            size = SWEEP_SIZES[len(self.keys)]
            written += draw_and_save(out, "sweep", formats, self.figure, size)
        record(out, written, complete=True, last=write_report if figures else None)
        return written

    def figure(self, ax: Axes | None = None) -> Axes:
        """The figure ``sweep.png`` shows, in one call (a notebook's).

        A sweep of one key draws each share against it, with its 95% band
        (:func:`~simulator.report.figures_sweep.sweep_lines`); one of two keys, the share
        dead at each pair of values as a heatmap, the first key down and the second across
        (:func:`~simulator.report.figures_sweep.sweep_heatmap`). It is drawn in the style of
        the saved figures (:data:`~simulator.report.style.STYLE`), in the language in force.

        Example:
            >>> sweep = run_sweep("scenarios/geraldine.toml", {"first_aid.level": [0, 3, 6]})
            >>> ax = sweep.figure()  # doctest: +SKIP
            >>> ax.figure.savefig("sweep.pdf")  # doctest: +SKIP

        Args:
            ax: Where to draw (None: a new pyplot figure, of the saved figure's size).

        Returns:
            The Axes drawn on; ``ax.figure`` is its matplotlib Figure.

        Raises:
            UserError: For a sweep of more than two keys, which no chart shows (its
                :attr:`frame` holds every point).
        """
        if len(self.keys) not in SWEEP_SIZES or not self.results:
            raise UserError(
                phrase(
                    "no figure for a sweep of {n} keys (a line chart takes one key, a heatmap "
                    "two); its frame holds every point",
                    n=len(self.keys),
                )
            )
        from simulator.report import sweep_heatmap, sweep_lines
        from simulator.report.style import style

        name, frame, keys = self.title, self.frame, self.keys
        with style():
            if len(keys) == 1:
                return sweep_lines(frame, keys[0], name=name, ax=ax)
            return sweep_heatmap(frame, keys[1], keys[0], name=name, ax=ax)

    @staticmethod
    def files(formats: Sequence[str] = CLAIMED_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write."""
        return _files(("sweep.csv", "sweep.json", "scenario.toml"), ("sweep",), formats)


SWEEP_SIZES = {1: (7.0, 4.2), 2: (6.4, 4.8)}
"""The size of a sweep's figure (inches), by its number of keys: lines, or a heatmap."""


def _hours(values: pd.Series) -> list[float] | None:
    """A grid key's values in hours, when every one is a duration with its unit; else None."""
    from simulator.rules.durations import parse_duration

    if not all(isinstance(v, str) for v in values):
        return None
    try:
        return [parse_duration(v) / 3600.0 for v in values]
    except ValueError:
        return None


COMPARED = ("p_dead", "p_healed", "p_wounded", "p_incoherent")
"""The shares a comparison draws the differences of."""

COUNTED = (
    "mean_aggravations",
    "mean_survival_tests",
    "mean_first_aid_attempts",
    "mean_healing_tests",
    "mean_faints",
)
"""The mean counts per trial a comparison reports the difference of (the summary's keys)."""

MEASURES = ("p_dead", *CAUSE_MEASURES, *COMPARED[1:], *COUNTED)
"""Every measure a comparison reports the difference of: the shares (the causes follow
``p_dead``), then the mean counts."""


def measure(summary: Summary, key: str) -> float:
    """One of :data:`MEASURES` read from a JSON summary (a cause from ``p_dead_by_cause``)."""
    if key in CAUSE_MEASURES:
        return float(summary["p_dead_by_cause"][key[len("p_dead_") :]])
    return float(cast("dict[str, Any]", summary)[key])  # a measure looked up by its name


def _interval(low: float, high: float) -> list[float] | None:
    """A difference's interval as JSON: null without finite ends (see :class:`CompareResult`)."""
    return [low, high] if math.isfinite(low) and math.isfinite(high) else None


def split_differences(found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A comparison's differences as JSON, under two keys.

    ``difference``: the shares of :data:`COMPARED`, then the mean counts of :data:`COUNTED`;
    ``difference_by_cause``: ``{cause: {"estimate", "ci"}}``, the share dead of each cause of
    Q3.
    """
    return {
        "difference": {k: dict(found[k]) for k in (*COMPARED, *COUNTED)},
        "difference_by_cause": {k[len("p_dead_") :]: dict(found[k]) for k in CAUSE_MEASURES},
    }


COMPARE_SIZE = (7.0, 3.2)
"""The size of a comparison's figure (inches)."""


def drawn(difference: pd.DataFrame) -> pd.DataFrame:
    """The rows of a comparison's differences that its figure draws (:data:`COMPARED`)."""
    return difference[difference["measure"].isin(COMPARED)].reset_index(drop=True)


@dataclass
class CompareResult:
    """Two scenarios run on the same seeds, trial by trial.

    Differences are A minus B: of the shares, then of the mean counts per trial
    (:data:`COUNTED`). Exact answers give them exactly, a share's within ``[d - dropped_b,
    d + dropped_a]``; a mean count's has no bound once some mass was dropped (the dropped
    states' counts are unknown, and unbounded), so its interval is ``None`` then. For
    trials, the shares' 95% intervals are Newcombe's hybrid score intervals for *paired*
    proportions (Newcombe 1998, method 10): trial ``i`` of A and of B draw the same random
    stream, so the two samples are paired, which the interval accounts for through the
    correlation of the indicators (see :func:`simulator.studies.stats.paired_difference`);
    the mean counts' are Student's paired intervals
    (:func:`simulator.studies.stats.paired_mean_difference`).

    Attributes:
        a: The study of the first scenario.
        b: The study of the second.
    """

    a: StudyResult
    b: StudyResult

    def __repr__(self) -> str:
        """The two studies, not their scenarios whole (what a notebook shows)."""
        return f"<CompareResult A={self.a!r} B={self.b!r}>"

    @cached_property
    def _differences(self) -> dict[str, dict[str, Any]]:
        ea, eb = self.a.estimate, self.b.estimate
        if type(ea) is not type(eb):
            raise UserError(phrase("a comparison holds two studies of one method; got one of each"))
        result = {}
        for key in MEASURES:
            estimate, (low, high) = ea.difference(eb, key)  # type: ignore[arg-type]
            result[key] = {"estimate": estimate, "ci": _interval(low, high)}
        return result

    def to_json(self) -> dict[str, Any]:
        """``{"a": summary, "b": summary, "difference": {"p_dead": {"estimate", "ci"}, ...}}``.

        ``difference`` holds the shares, then the mean counts (``mean_aggravations``...);
        ``difference_by_cause`` the same for the share dead of each cause of Q3.
        """
        return {
            "a": self.a.summary_json(),
            "b": self.b.summary_json(),
            **split_differences(self._differences),
            **({"method": "exact"} if self.a.method == "exact" else {}),
        }

    @property
    def difference(self) -> pd.DataFrame:
        """One row per share, then per mean count: A, B, and A − B with its 95% interval.

        An interval without ends (see the class) is NaN on both.
        """
        import pandas as pd

        sa, sb = self.a.summary_json(), self.b.summary_json()
        rows = [
            {
                "measure": key,
                "a": measure(sa, key),
                "b": measure(sb, key),
                "difference": d["estimate"],
                "low": d["ci"][0] if d["ci"] else math.nan,
                "high": d["ci"][1] if d["ci"] else math.nan,
            }
            for key, d in self._differences.items()
        ]
        return pd.DataFrame(rows)

    @python_api
    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write ``compare.csv``, ``compare.json``, the figure and both ``scenario-?.toml``."""
        inputs = _sources(self.a.scenario, self.b.scenario)
        out = claim(user_path(out), self.files(_every(formats)), inputs=inputs)
        written = [
            write_csv(self.difference, out / "compare.csv", self.a.estimate.float_format),
            write_json(self.to_json(), out / "compare.json"),
            write_scenario(
                self.a.scenario, out / "scenario-a.toml", tr("A of the comparison."), tr
            ),
            write_scenario(
                self.b.scenario, out / "scenario-b.toml", tr("B of the comparison."), tr
            ),
        ]
        if figures:
            from simulator.report import draw_and_save

            written += draw_and_save(out, "compare", formats, self.figure, COMPARE_SIZE)
        record(out, written, complete=True, last=write_report if figures else None)
        return written

    def figure(self, ax: Axes | None = None) -> Axes:
        """The figure ``compare.png`` shows, in one call (a notebook's).

        The differences A − B of the shares dead, healed, still wounded and incoherent, each
        with its 95% interval (exact answers: between the bounds of the mass each side
        dropped), its numbers written beside it
        (:func:`~simulator.report.figures_sweep.compare_differences`). It is drawn in the
        style of the saved figures (:data:`~simulator.report.style.STYLE`), in the language
        in force.

        Example:
            >>> both = run_compare("scenarios/geraldine.toml", "scenarios/field_medic.toml")
            >>> ax = both.figure()  # doctest: +SKIP

        Args:
            ax: Where to draw (None: a new pyplot figure, of the saved figure's size).

        Returns:
            The Axes drawn on; ``ax.figure`` is its matplotlib Figure.
        """
        from simulator.report import compare_differences
        from simulator.report.style import style

        names = (self.a.title + self.a.estimate.suffix, self.b.title + self.b.estimate.suffix)
        with style():
            return compare_differences(
                drawn(self.difference),
                names=names,
                trials=self.a.estimate.count,
                ax=ax,
                exact=self.a.method == "exact",
            )

    @staticmethod
    def files(formats: Sequence[str] = CLAIMED_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write."""
        data = ("compare.csv", "compare.json", "scenario-a.toml", "scenario-b.toml")
        return _files(data, ("compare",), formats)


__all__ = [
    "CAUSE_MEASURES",
    "COMPARED",
    "COUNTED",
    "FIGURE_FORMATS",
    "FIRST_DAY_H",
    "MEASURES",
    "CompareResult",
    "Estimate",
    "StudyResult",
    "SweepResult",
    "drawn",
    "measure",
    "split_differences",
]
