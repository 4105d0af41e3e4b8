"""What Monte Carlo trials estimate: :class:`Sampled`, the ``trials`` frame of one study.

A :class:`~simulator.studies.result.StudyResult` holds a :class:`Sampled` (or an exact
:class:`~simulator.studies.solved.Solved`): the summary, the curves, any statistic, the
paired differences of a comparison and the study's own files come from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from simulator.errors import UserError, phrase
from simulator.studies.frames import (
    cause_curves,
    curves,
    event_times,
    outcome_is,
    summarize,
    write_parquet,
)

if TYPE_CHECKING:
    from simulator.studies.measures import Written

FIGURES = ("fate-first-day", "fate", "causes", "time-to-heal", "aggravations")
"""The figures of one sampled study (``fate-first-day`` only for campaigns over two days)."""

DATA = ("trials.parquet", "summary.csv", "summary.json", "scenario.toml")
"""The data files of one sampled study."""


@dataclass
class Sampled:
    """The trials of one scenario.

    Attributes:
        trials: The ``trials`` frame (one row per trial, sorted by trial).
        seed: The study's seed.
    """

    trials: pd.DataFrame = field(repr=False)
    seed: int

    method = "monte-carlo"
    float_format = "%.10g"
    suffix = ""
    figures = FIGURES
    data = DATA

    @property
    def count(self) -> int:
        """How many trials."""
        return len(self.trials)

    def summary(self, name: str, horizon_h: float) -> dict[str, Any]:
        """CONTRACT.md's JSON summary (without ``overrides``)."""
        del horizon_h
        return summarize(self.trials, name, self.seed)

    def curves(self, horizon_h: float, points: int, times: Sequence[float] | None) -> pd.DataFrame:
        """Shares over campaign time (:func:`simulator.studies.frames.curves`)."""
        return curves(self.trials, horizon_h, points, times=times, events=self._events)

    def cause_curves(self, horizon_h: float, points: int) -> pd.DataFrame:
        """Q3 over campaign time (:func:`simulator.studies.frames.cause_curves`)."""
        return cause_curves(self.trials, horizon_h, points, events=self._events)

    @cached_property
    def _events(self) -> dict[str, np.ndarray]:
        """The sorted times of the curves' events, shared by every curve and figure."""
        return event_times(self.trials)

    def stat(self, name: str, horizon: float) -> float:
        """A statistic by name (``p_dead``, ``p_dead_by_1d``...): the share of trials."""
        from simulator.studies.statistic import Statistic

        stat = Statistic.parse(name, "statistic")
        if stat.by is not None and stat.by > horizon:
            raise UserError(
                phrase(
                    "statistic: got {value}; expected a time within the horizon", value=repr(name)
                )
            )
        return float(stat.indicators(self.trials).mean())

    def indicators(self, key: str) -> np.ndarray:
        """Which trials count in a share of a comparison (``p_dead``, ``p_dead_wound``...)."""
        from simulator.studies.measures import CAUSE_MEASURES

        if key in CAUSE_MEASURES:  # Q3: dead of that cause
            cause = self.trials["cause"] == key[len("p_dead_") :]
            return outcome_is(self.trials, "dead") & cause.to_numpy(dtype=bool)
        return outcome_is(self.trials, key[2:])

    def difference(self, other: Sampled, key: str) -> tuple[float, tuple[float, float]]:
        """A − B of one share, with Newcombe's paired interval (same seeds, trial by trial)."""
        from simulator.studies.stats import paired_difference

        return paired_difference(self.indicators(key), other.indicators(key))

    @cached_property
    def _again(self) -> str:
        return f" --trials {len(self.trials)} --seed {self.seed} --out NEW_FOLDER"

    def write(self, result: Written, out: Path, *, trials_file: bool = True) -> list[Path]:
        """Write the data files of the study (the frame, its summary, the scenario)."""
        from simulator.runner.writers import write_csv, write_json, write_scenario

        written = []
        if trials_file:
            written.append(write_parquet(self.trials, out / "trials.parquet"))
        written.append(write_csv(result.summary, out / "summary.csv"))
        written.append(write_json(result.summary_json(), out / "summary.json"))
        from simulator.report.i18n import tr

        again = tr("Run it again: {command}").format(
            command="harmonies-sim run scenario.toml" + self._again
        )
        written.append(write_scenario(result.scenario, out / "scenario.toml", again, tr))
        return written

    def more_figures(self, result: Written, out: Path, formats: Sequence[str]) -> list[Path]:
        """The figures only trials can draw: time to heal and aggravations."""
        from simulator.report import aggravations, draw_and_save, time_to_heal

        name, trials = result.title, self.trials
        return [
            *draw_and_save(out, "time-to-heal", formats,
                           lambda ax: time_to_heal(trials, name=name, ax=ax)),
            *draw_and_save(out, "aggravations", formats,
                           lambda ax: aggravations(trials, name=name, ax=ax), (6.4, 4.0)),
        ]  # fmt: skip


__all__ = ["DATA", "FIGURES", "Sampled"]
