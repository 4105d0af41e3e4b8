"""What Monte Carlo trials estimate: :class:`Sampled`, the trials of one study.

A :class:`~simulator.studies.result.StudyResult` holds a :class:`Sampled` (or an exact
:class:`~simulator.studies.solved.Solved`): the summary, the curves, any statistic, the
paired differences of a comparison and the study's own files come from it.

The summary, the curves and the figures come from the trials' merged tally
(:class:`~simulator.runner.tally.Tally`), the same numbers as from the whole ``trials``
frame; ``trials.parquet`` is written chunk by chunk. The frame itself is built only when
:attr:`Sampled.trials` is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simulator.errors import UserError, phrase
from simulator.runner.compact import TrialSet
from simulator.studies.summary import summarize_tally

if TYPE_CHECKING:
    import pandas as pd

    from simulator.rules.outcome import Summary
    from simulator.runner.tally import Tally
    from simulator.studies.measures import Written

FIGURES = ("fate-first-day", "fate", "causes", "time-to-heal", "aggravations")
"""The figures of one sampled study (``fate-first-day`` only for campaigns over two days)."""

DATA = ("trials.parquet", "summary.csv", "summary.json", "scenario.toml")
"""The data files of one sampled study."""


class Sampled:
    """The trials of one scenario.

    Args:
        trials: The trials as they were run (:class:`~simulator.runner.compact.TrialSet`),
            or a ``trials`` frame (one row per trial, sorted by trial).
        seed: The study's seed.
    """

    def __init__(self, trials: TrialSet | pd.DataFrame, seed: int):
        if not isinstance(trials, TrialSet):  # a frame (pandas imported only when one is used)
            self._frame: pd.DataFrame | None = trials
            trials = TrialSet.of_frame(trials, seed)
        else:
            self._frame = None
        self.set = trials
        self.seed = seed

    def __repr__(self) -> str:
        return f"Sampled(trials={self.count}, seed={self.seed})"

    @property
    def trials(self) -> pd.DataFrame:
        """The ``trials`` frame (one row per trial, sorted by trial), built when first asked."""
        if self._frame is None:
            self._frame = self.set.frame()
        return self._frame

    @property
    def tally(self) -> Tally:
        """What the summary and figures need of the trials, merged chunk by chunk."""
        return self.set.tally

    method = "monte-carlo"
    float_format = "%.10g"
    suffix = ""
    figures = FIGURES
    data = DATA

    @property
    def count(self) -> int:
        """How many trials."""
        return self.set.n

    def summary(self, name: str, horizon_h: float) -> Summary:
        """CONTRACT.md's JSON summary (without ``overrides``)."""
        del horizon_h
        return summarize_tally(self.tally, name, self.seed)

    def curves(self, horizon_h: float, points: int, times: Sequence[float] | None) -> pd.DataFrame:
        """Shares over campaign time (:func:`simulator.studies.frames.curves`)."""
        from simulator.studies.frames import curves

        return curves(self.tally, horizon_h, points, times=times)

    def cause_curves(self, horizon_h: float, points: int) -> pd.DataFrame:
        """Q3 over campaign time (:func:`simulator.studies.frames.cause_curves`)."""
        from simulator.studies.frames import cause_curves

        return cause_curves(self.tally, horizon_h, points)

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
        return stat.count(self.tally) / self.count

    def indicators(self, key: str) -> np.ndarray:
        """Which trials count in a share of a comparison (``p_dead``, ``p_dead_wound``...).

        Read from the outcome and cause codes of every trial (a byte each), not a frame.
        """
        from simulator.runner.compact import CAUSE_CODE, OUTCOME_CODE
        from simulator.studies.measures import CAUSE_MEASURES

        outcome = self.set.codes("outcome")
        if key in CAUSE_MEASURES:  # Q3: dead of that cause (cause codes: 0 is none)
            cause = CAUSE_CODE[key[len("p_dead_") :]]
            dead: np.ndarray = (outcome == OUTCOME_CODE["dead"]) & (
                self.set.codes("cause") == cause
            )
            return dead
        found: np.ndarray = outcome == OUTCOME_CODE[key[2:]]
        return found

    def counts(self, key: str) -> np.ndarray:
        """One count of every trial, for a mean count of a comparison (``mean_faints``...)."""
        return self.set.codes(key[len("mean_") :])

    def difference(self, other: Sampled, key: str) -> tuple[float, tuple[float, float]]:
        """A − B of one share, with Newcombe's paired interval (same seeds, trial by trial).

        Of a mean count (``mean_aggravations``...): Student's paired interval.
        """
        from simulator.studies.stats import paired_difference, paired_mean_difference

        if key.startswith("mean_"):
            return paired_mean_difference(self.counts(key), other.counts(key))
        return paired_difference(self.indicators(key), other.indicators(key))

    @property
    def _again(self) -> str:  # in the language in force: not cached
        from simulator.report.i18n import tr

        folder = tr("NEW_FOLDER")  # a placeholder, in the language of the comments
        return f" --trials {self.count} --seed {self.seed} --out {folder}"

    def write(self, result: Written, out: Path, *, trials_file: bool = True) -> list[Path]:
        """Write the data files of the study (the frame, its summary, the scenario)."""
        from simulator.runner.writers import write_csv, write_json, write_scenario

        written = []
        if trials_file:
            written.append(self.set.write_parquet(out / "trials.parquet"))
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

        name, trials = result.title, self.tally
        return [
            *draw_and_save(out, "time-to-heal", formats,
                           lambda ax: time_to_heal(trials, name=name, ax=ax)),
            *draw_and_save(out, "aggravations", formats,
                           lambda ax: aggravations(trials, name=name, ax=ax), (6.4, 4.0)),
        ]  # fmt: skip


__all__ = ["DATA", "FIGURES", "Sampled"]
