"""What the exact engine computes: :class:`Solved`, the exact answer of one study.

A :class:`~simulator.studies.result.StudyResult` holding a :class:`Solved` speaks like one
holding trials (``summary_json``, ``summary``, ``curves``, ``save``), without trials:
CONTRACT.md's "Exact answers". Its intervals are ``[p, p + dropped]``, the probability
dropped with the states below ``eps``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simulator.errors import UserError, phrase
from simulator.exact import ExactAnswer
from simulator.exact.answer import COUNTS, CURVE_STATES, ROUNDING, summed_share
from simulator.rules.cause import DEATH_CAUSES

if TYPE_CHECKING:
    import pandas as pd

    from simulator.rules.outcome import Summary
    from simulator.studies.measures import Written

FIGURES = ("fate-first-day", "fate", "causes")
"""The figures of an exact answer (``fate-first-day`` only for campaigns over two days)."""

DATA = (
    *("summary.csv", "summary.json", "scenario.toml", "curves.csv", "expected.csv"),
    *("time-of-death.csv", "time-to-heal.csv"),
)
"""The data files of an exact answer."""


def _clip(x: float) -> float:
    """A bound of an interval, in [0, 1]; within rounding of 1, 1 (``p + dropped``)."""
    return summed_share(min(1.0, max(0.0, x)))


def _clip_array(x: np.ndarray) -> np.ndarray:
    """:func:`_clip` of each share of an array."""
    return np.where(np.abs(1.0 - x) <= ROUNDING, 1.0, np.clip(x, 0.0, 1.0))


@dataclass
class Solved:
    """The exact answer of one scenario.

    Attributes:
        answer: The engine's plain answer (probabilities, distributions, expectations).
    """

    answer: ExactAnswer

    method = "exact"
    float_format = "%.12g"
    suffix = " (exact)"
    figures = FIGURES
    data = DATA
    count = None
    seed = None

    @property
    def dropped_mass(self) -> float:
        """The probability dropped (states below eps, the open roll's truncation)."""
        return self.answer.dropped

    def stat(self, name: str, horizon: float) -> float:
        """A statistic by name: ``p_dead``... or ``p_dead_by_<duration>`` (e.g. ``p_dead_by_1d``).

        ``p_dead_<cause>`` (``p_dead_healing_failure``, ``p_dead_wound_by_1d``) is the share
        dead of that cause of Q3; ``p_<outcome>_by_<duration>`` the share in that state by
        that campaign time, read from the curves (healed: ended healed and wound-free by then).

        Raises:
            UserError: For an unknown statistic or a time past the horizon.
        """
        del horizon
        from simulator.studies.statistic import Statistic

        stat = Statistic.parse(name, "statistic")
        if stat.cause is not None:  # Q3: the deaths of one cause
            if stat.by is None:
                return self.answer.p_cause(stat.cause)
            self._at("dead", stat.by / 3600.0)  # refuses a time past the horizon
            return self.answer.by_cause(stat.cause, stat.by / 3600.0)
        if stat.by is None:
            return self.answer.p(stat.outcome)
        return self._at(stat.outcome, stat.by / 3600.0)

    def _at(self, state: str, hours: float) -> float:
        try:
            return self.answer.by(state, hours)
        except ValueError as exc:
            raise UserError(str(exc)) from None

    def summary(self, name: str, horizon_h: float) -> Summary:
        """CONTRACT.md's JSON summary with ``"method": "exact"`` (without ``overrides``)."""
        a, dropped = self.answer, self.answer.dropped

        def ci(outcome: str) -> list[float]:
            p = a.p(outcome)
            return [_clip(p), _clip(p + dropped)]

        stabilised = a.by("stabilised", horizon_h)
        summary: Summary = {
            "scenario": name,
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
        summary["mean_survival_tests"] = a.mean("survival_tests")
        summary["mean_first_aid_attempts"] = a.mean("first_aid_attempts")
        summary["mean_healing_tests"] = a.mean("healing_tests")
        summary["mean_faints"] = a.mean("faints")
        summary["dropped_mass"] = dropped
        summary["states"] = a.carried  # as --max-states counts them (CONTRACT)
        summary["peak_states"] = a.peak
        summary["eps"] = a.eps
        return summary

    def expected(self) -> pd.DataFrame:
        """The expected count of each of Q1's counts per trial: columns ``count``, ``mean``."""
        import pandas as pd

        return pd.DataFrame({"count": list(COUNTS), "mean": [self.answer.mean(c) for c in COUNTS]})

    def share(self, key: str) -> float:
        """One share of a comparison (``p_dead``, ``p_dead_wound``...)."""
        if key[len("p_dead_") :] in DEATH_CAUSES and key.startswith("p_dead_"):
            return self.answer.p_cause(key[len("p_dead_") :])
        return self.answer.p(key[2:])

    def difference(self, other: Solved, key: str) -> tuple[float, tuple[float, float]]:
        """A − B of one share: within ``[d - dropped_b, d + dropped_a]``.

        Of a mean count (``mean_aggravations``...): the difference of the expectations, its
        interval that one number when neither side dropped any mass, else NaN on both ends
        (what the dropped states would have counted is unbounded).
        """
        if key.startswith("mean_"):
            d = self.answer.mean(key[len("mean_") :]) - other.answer.mean(key[len("mean_") :])
            exact = self.dropped_mass == 0 and other.dropped_mass == 0
            return d, ((d, d) if exact else (math.nan, math.nan))
        d = self.share(key) - other.share(key)
        return d, (d - other.dropped_mass, d + self.dropped_mass)

    def curves(self, horizon_h: float, points: int, times: Sequence[float] | None) -> pd.DataFrame:
        """Shares dead, incoherent, wounded, healed and stabilised over campaign time, exact.

        The band is ``[share, share + dropped]`` (clipped). A share within float rounding of
        0 or 1 is 0 or 1 (:data:`~simulator.exact.answer.ROUNDING`): ``wounded``, the rest of
        the others, reads 0, not ``4.4e-16``.
        """
        import pandas as pd

        if times is None:
            grid = np.linspace(0.0, horizon_h, max(int(points), 2))
        else:
            grid = np.asarray(times, dtype=np.float64).reshape(-1)
            if grid.size == 0 or not np.all((grid >= 0) & (grid <= horizon_h)):
                raise ValueError(
                    f"times: got {list(times)!r}; expected hours from 0 to the horizon "
                    f"({horizon_h:g})"
                )
        shares = {
            state: self._cumulative(state, grid) for state in CURVE_STATES if state != "wounded"
        }
        kept = 1.0 - self.answer.dropped
        rest = kept - shares["dead"] - shares["incoherent"] - shares["healed"]
        shares["wounded"] = np.where(rest <= ROUNDING, 0.0, rest)  # 4.4e-16: rounding's leftover
        shares = {state: _clip_array(share) for state, share in shares.items()}
        dropped = self.answer.dropped
        parts = [
            pd.DataFrame(
                {
                    "time_h": grid,
                    "state": state,
                    "share": shares[state],
                    "low": shares[state],
                    "high": _clip_array(shares[state] + dropped),
                }
            )
            for state in CURVE_STATES
        ]
        frame = pd.concat(parts, ignore_index=True)
        frame["state"] = pd.Categorical(frame["state"], categories=list(CURVE_STATES))
        return frame

    def cause_curves(self, horizon_h: float, points: int) -> pd.DataFrame:
        """Q3: the share dead of each cause by each campaign time, exact."""
        grid = np.linspace(0.0, horizon_h, max(int(points), 2))
        causes = self.answer.causes
        shares = {c: self._cumulative(c, grid, causes[c]) for c in DEATH_CAUSES}
        from simulator.studies.frames import tidy_causes

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
        import pandas as pd

        if outcome not in self.answer.times:
            raise UserError(
                phrase(
                    "distribution: got {value}; expected one of {known}",
                    value=repr(outcome),
                    known=", ".join(sorted(self.answer.times)),
                )
            )
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

    def write(self, result: Written, out: Path, *, trials_file: bool = True) -> list[Path]:
        """Write the summary, curves, distributions, expected counts and the scenario."""
        from simulator.runner.writers import write_csv, write_json, write_scenario

        del trials_file

        def csv(frame: pd.DataFrame, path: Path) -> Path:
            return write_csv(frame, path, self.float_format)

        written = [
            csv(result.summary, out / "summary.csv"),
            write_json(result.summary_json(), out / "summary.json"),
            csv(result.curves(), out / "curves.csv"),
            csv(self.expected(), out / "expected.csv"),
            csv(self.distribution("dead"), out / "time-of-death.csv"),
            csv(self.distribution("healed"), out / "time-to-heal.csv"),
        ]
        from simulator.report.i18n import tr

        folder = tr("NEW_FOLDER")  # a placeholder, in the language of the comments
        again = tr("Compute it again: {command}").format(
            command=f"harmonies-sim run scenario.toml --exact --eps {self.answer.eps:g} "
            f"--out {folder}"
        )
        written.append(write_scenario(result.scenario, out / "scenario.toml", again, tr))
        return written

    def more_figures(self, result: Written, out: Path, formats: Sequence[str]) -> list[Path]:
        """None: the distributions of trials are not drawn for an exact answer."""
        del result, out, formats
        return []


__all__ = ["DATA", "FIGURES", "Solved"]
