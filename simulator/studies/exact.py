"""Exact answers as a study's result: the summary, curves and distributions as pandas frames.

:func:`run_exact` computes a scenario's answer with :mod:`simulator.exact` and wraps it in an
:class:`ExactResult`, which speaks like a :class:`~simulator.studies.result.StudyResult`
(``summary_json``, ``summary``, ``curves``, ``save``) without trials: CONTRACT.md's "Exact
answers". Statistics at any campaign time are read with :meth:`ExactResult.stat`
(``"p_dead"``, ``"p_dead_by_1d"``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from simulator.errors import UserError
from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES, ExactAnswer, solve
from simulator.exact.answer import COUNTS, CURVE_STATES
from simulator.report.i18n import tr
from simulator.report.pages import REPORT, write_report
from simulator.report.wording import scenario_text, titled
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.levels import Track
from simulator.studies.frames import summary_frame, tidy_causes
from simulator.studies.result import FIGURE_FORMATS, write_csv

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario

FIRST_DAY_H = 24.0
EXACT_FIGURES = ("fate-first-day", "fate", "causes")
"""The figures of an exact answer (``fate-first-day`` only for campaigns over two days)."""


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


@dataclass
class ExactResult:
    """The exact answer of one scenario.

    Attributes:
        scenario: The scenario computed.
        answer: The engine's plain answer (probabilities, distributions, expectations).
        overrides: The ``KEY=VALUE`` overrides the scenario was loaded with.
    """

    scenario: Scenario
    answer: ExactAnswer
    overrides: tuple[str, ...] = ()

    method = "exact"

    @property
    def title(self) -> str:
        """The scenario's name, with the overrides when there are some."""
        return titled(scenario_text(self.scenario)[0], self.overrides)

    @property
    def has_mental_wounds(self) -> bool:
        """Whether the scenario deals mental wounds."""
        return any(injury.level.track is Track.MENTAL for injury in self.scenario.injuries)

    @property
    def horizon_h(self) -> float:
        """The horizon in hours."""
        return self.scenario.horizon / 3600.0

    @property
    def dropped_mass(self) -> float:
        """The probability dropped (states below eps, the open roll's truncation)."""
        return self.answer.dropped

    def stat(self, name: str) -> float:
        """A statistic by name: ``p_dead``... or ``p_dead_by_<duration>`` (e.g. ``p_dead_by_1d``).

        ``p_dead_<cause>`` (``p_dead_healing_failure``, ``p_dead_wound_by_1d``) is the share
        dead of that cause of Q3.

        ``p_<outcome>_by_<duration>`` is the share in that state by that campaign time, read
        from the curves (healed: ended healed and wound-free by then).

        Raises:
            UserError: For an unknown statistic or a time past the horizon.
        """
        from simulator.studies.statistic import Statistic

        stat = Statistic.parse(name, "statistic")
        if stat.cause is not None:  # Q3: the deaths of one cause
            if stat.by is None:
                return self.answer.p_cause(stat.cause)
            self.at("dead", stat.by / 3600.0)  # refuses a time past the horizon
            return self.answer.by_cause(stat.cause, stat.by / 3600.0)
        if stat.by is None:
            return self.answer.p(stat.outcome)
        return self.at(stat.outcome, stat.by / 3600.0)

    def at(self, state: str, hours: float) -> float:
        """The share of trials in ``state`` by campaign time ``hours`` (see :meth:`curves`).

        Raises:
            UserError: For a time outside [0, horizon].
        """
        try:
            return self.answer.by(state, hours)
        except ValueError as exc:
            raise UserError(str(exc)) from None

    @cached_property
    def _summary(self) -> dict[str, Any]:
        a, dropped = self.answer, self.answer.dropped

        def ci(outcome: str) -> list[float]:
            p = a.p(outcome)
            return [_clip(p), _clip(p + dropped)]

        stabilised = a.by("stabilised", self.horizon_h)
        summary: dict[str, Any] = {
            "scenario": self.scenario.name,
            "trials": None,
            "seed": None,
            "p_dead": a.p("dead"),
            "p_dead_ci": ci("dead"),
            "p_healed": a.p("healed"),
            "p_healed_ci": ci("healed"),
            "p_wounded": a.p("wounded"),
            "p_incoherent": a.p("incoherent"),
            "median_time_to_heal_h": a.median_hours("healed"),
            "mean_aggravations": a.mean("aggravations"),
            "p_dead_by_cause": {c: a.p_cause(c) for c in DEATH_CAUSES},
            "p_dead_by_cause_ci": {
                c: [_clip(a.p_cause(c)), _clip(a.p_cause(c) + dropped)] for c in DEATH_CAUSES
            },
            "method": "exact",
            "p_wounded_ci": ci("wounded"),
            "p_incoherent_ci": ci("incoherent"),
            "p_stabilised": stabilised,
            "p_stabilised_ci": [_clip(stabilised), _clip(stabilised + dropped)],
            "median_time_to_death_h": a.median_hours("dead"),
        }
        for name in ("survival_tests", "first_aid_attempts", "healing_tests", "faints"):
            summary[f"mean_{name}"] = a.mean(name)
        summary["dropped_mass"] = dropped
        summary["states"] = a.states
        summary["peak_states"] = a.peak
        summary["eps"] = a.eps
        summary["overrides"] = list(self.overrides)
        return summary

    def summary_json(self) -> dict[str, Any]:
        """The JSON summary of CONTRACT.md with ``"method": "exact"``."""
        return dict(self._summary)

    @property
    def summary(self) -> pd.DataFrame:
        """The summary as a one-row frame; intervals as ``*_low`` / ``*_high`` columns."""
        return summary_frame(self._summary)

    @property
    def expected(self) -> pd.DataFrame:
        """The expected count of each of Q1's counts per trial: columns ``count``, ``mean``."""
        return pd.DataFrame({"count": list(COUNTS), "mean": [self.answer.mean(c) for c in COUNTS]})

    def curves(self, points: int = 200, *, times: Sequence[float] | None = None) -> pd.DataFrame:
        """Shares dead, incoherent, wounded, healed and stabilised over campaign time, exact.

        The same frame as a Monte Carlo study's curves: ``time_h``, ``state``, ``share``,
        ``low`` and ``high``, the band being ``[share, share + dropped]`` (clipped).

        Args:
            points: Evenly spaced times from 0 to the horizon, both included.
            times: Or these times, in hours.
        """
        if times is None:
            grid = np.linspace(0.0, self.horizon_h, max(int(points), 2))
        else:
            grid = np.asarray(times, dtype=np.float64).reshape(-1)
            if grid.size == 0 or not np.all((grid >= 0) & (grid <= self.horizon_h)):
                raise ValueError(
                    f"times: got {list(times)!r}; expected hours from 0 to the horizon "
                    f"({self.horizon_h:g})"
                )
        shares = {
            state: self._cumulative(state, grid) for state in CURVE_STATES if state != "wounded"
        }
        kept = 1.0 - self.answer.dropped
        shares["wounded"] = np.clip(
            kept - shares["dead"] - shares["incoherent"] - shares["healed"], 0.0, 1.0
        )
        dropped = self.answer.dropped
        parts = [
            pd.DataFrame(
                {
                    "time_h": grid,
                    "state": state,
                    "share": shares[state],
                    "low": shares[state],
                    "high": np.clip(shares[state] + dropped, 0.0, 1.0),
                }
            )
            for state in CURVE_STATES
        ]
        frame = pd.concat(parts, ignore_index=True)
        frame["state"] = pd.Categorical(frame["state"], categories=list(CURVE_STATES))
        return frame

    def cause_curves(self, points: int = 200) -> pd.DataFrame:
        """Q3: the share dead of each cause by each campaign time, exact.

        The frame of :func:`simulator.studies.frames.cause_curves`.
        """
        grid = np.linspace(0.0, self.horizon_h, max(int(points), 2))
        causes = self.answer.causes
        shares = {c: self._cumulative(c, grid, causes[c]) for c in DEATH_CAUSES}
        return tidy_causes(grid, shares)

    def _cumulative(
        self, state: str, grid: np.ndarray, dist: dict[int, float] | None = None
    ) -> np.ndarray:
        a = self.answer
        if dist is None:
            dist = a.stabilised if state == "stabilised" else a.times[state]
        if not dist:
            return np.zeros_like(grid)
        keys = np.array(sorted(dist), dtype=np.int64)
        cum = np.cumsum([dist[k] for k in keys])
        limits = np.rint(grid * 3_600_000_000).astype(np.int64)
        idx = np.searchsorted(keys, limits, side="right")
        return np.where(idx > 0, cum[np.maximum(idx - 1, 0)], 0.0)

    def distribution(self, outcome: str) -> pd.DataFrame:
        """The distribution of the time of an outcome (``dead``, ``healed``, ``incoherent``).

        Returns:
            ``time_h``, ``probability`` (of ending so at that time) and ``cumulative``; for
            ``healed`` the time is the last time the patient became wound-free (G5).
        """
        dist = self.answer.times[outcome]
        keys = sorted(dist)
        probs = np.array([dist[k] for k in keys], dtype=np.float64)
        return pd.DataFrame(
            {
                "time_h": np.array(keys, dtype=np.float64) / 3_600_000_000,
                "probability": probs,
                "cumulative": np.cumsum(probs),
            }
        )

    # --- files ------------------------------------------------------------------------
    @staticmethod
    def files(formats: Sequence[str] = FIGURE_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write."""
        data = [
            *("summary.csv", "summary.json", "scenario.toml", "curves.csv", "expected.csv"),
            *("time-of-death.csv", "time-to-heal.csv"),
        ]
        return [*data, REPORT, *(f"{stem}.{fmt}" for stem in EXACT_FIGURES for fmt in formats)]

    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write the summary, curves, distributions, expected counts, scenario and figures."""
        from simulator.studies.outdir import claim, record
        from simulator.studies.result import write_json, write_scenario

        out = claim(out, self.files(formats))
        written = [
            _csv(self.summary, out / "summary.csv"),
            write_json(self.summary_json(), out / "summary.json"),
            _csv(self.curves(), out / "curves.csv"),
            _csv(self.expected, out / "expected.csv"),
            _csv(self.distribution("dead"), out / "time-of-death.csv"),
            _csv(self.distribution("healed"), out / "time-to-heal.csv"),
        ]
        again = tr("Compute it again: {command}").format(
            command=f"harmonies-sim run scenario.toml --exact --eps {self.answer.eps:g} "
            "--out NEW_FOLDER"
        )
        written.append(write_scenario(self.scenario, out / "scenario.toml", again))
        if figures:
            written += self._figures(out, formats)
        record(out, written, complete=True, last=write_report)
        return written

    def _figures(self, out: Path, formats: Sequence[str]) -> list[Path]:
        from simulator.report import causes_over_time, draw_and_save, fate_over_time

        name = f"{self.title} (exact)"
        early: list[Path] = []
        if self.horizon_h > 2 * FIRST_DAY_H:
            first = self.curves(times=[h / 60 for h in range(int(FIRST_DAY_H * 60) + 1)])
            what = "Fate over the first day"

            def draw_first(ax: Any) -> Any:
                return fate_over_time(first, name=name, ax=ax, what=what)

            early = draw_and_save(out, "fate-first-day", formats, draw_first)
        curves, causes = self.curves(), self.cause_curves()
        return [
            *early,
            *draw_and_save(out, "fate", formats,
                           lambda ax: fate_over_time(curves, name=name, ax=ax)),
            *draw_and_save(out, "causes", formats,
                           lambda ax: causes_over_time(causes, name=name, ax=ax)),
        ]  # fmt: skip


def _csv(frame: pd.DataFrame, path: Path) -> Path:
    return write_csv(frame, path, "%.12g")


def check_exact_arguments(eps: object, max_states: object) -> None:
    """Refuse an ``--eps`` outside (0, 1) or a ``--max-states`` below 1.

    Raises:
        UserError: Naming the option, the value and what was expected.
    """
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not (0 < eps < 1):
        raise UserError(f"--eps: got {eps!r}; expected a probability between 0 and 1")
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise UserError(f"--max-states: got {max_states!r}; expected a positive whole number")


def run_exact(
    scenario: Scenario | str | Path,
    *,
    eps: float = DEFAULT_EPS,
    max_states: int = DEFAULT_MAX_STATES,
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    figures: bool = True,
) -> ExactResult:
    """The exact answer of one scenario (CONTRACT.md "Exact answers").

    Example:
        >>> result = run_exact("scenarios/lone_traveller.toml")
        >>> result.stat("p_dead_by_1d")  # doctest: +SKIP

    Args:
        scenario: A :class:`~simulator.scenario.model.Scenario`, or a scenario file's path.
        eps: States whose probability falls below this are dropped (their mass reported).
        max_states: Give up (a :class:`~simulator.errors.UserError`) past this many states.
        overrides: ``KEY=VALUE`` overrides, as ``--set`` (scenario files only).
        out: A folder for the result's files (checked before the work); None writes nothing.
        figures: With ``out``, also draw the figures.

    Raises:
        UserError: For a bad scenario, override or argument, or too many states.
    """
    from simulator.studies.api import _load

    check_exact_arguments(eps, max_states)
    loaded = _load(scenario, overrides)
    folder = None
    if out is not None:
        from simulator.studies.outdir import claim

        inputs = [scenario] if isinstance(scenario, str | Path) else []
        folder = claim(out, ExactResult.files(), inputs=inputs)
    result = ExactResult(loaded, solve(loaded, eps=eps, max_states=max_states), tuple(overrides))
    if folder is not None:
        result.save(folder, figures=figures)
    return result


__all__ = ["ExactResult", "check_exact_arguments", "run_exact"]
