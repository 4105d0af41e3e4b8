"""One statistic of a scenario, evaluated at many variants of it.

What ``balance`` and ``sensitivity`` stand on.

A statistic is one of the four shares of CONTRACT.md's summary (``p_dead``, ``p_healed``,
``p_wounded``, ``p_incoherent``) read at the horizon, or the same read at a campaign time:
``p_dead_by_1d`` is the share of trials dead within a day, as the fate curves read it
(:func:`simulator.studies.frames.curves`). The share dead of one cause of Q3 is one too:
``p_dead_healing_failure``, ``p_dead_stable_test_by_1w``.

An *evaluator* takes scenarios and gives the statistic of each: :class:`MonteCarlo` runs the
same seeds at every scenario (trial ``i`` draws the same random stream everywhere), so the
differences between variants come from the variants, not from luck; :class:`Exact` computes
it exactly (:func:`simulator.studies.exact.run_exact`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np
import pandas as pd

from simulator.errors import DurationError, UserError
from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.durations import parse_duration
from simulator.studies.stats import Z95, wilson

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.studies.backends import Backend, BackendName
    from simulator.studies.chunks import ChunkJob

OUTCOMES = ("dead", "healed", "wounded", "incoherent")
"""The outcomes a statistic may count."""

_STAT = re.compile(
    rf"^p_(dead|healed|wounded|incoherent)(?:_({'|'.join(DEATH_CAUSES)}))?(?:_by_(.+))?$"
)
STAT_EXPECTED = (
    "p_dead, p_healed, p_wounded or p_incoherent, or the same by a campaign time such as "
    "p_dead_by_1d or p_healed_by_12h, or the share dead of one cause, p_dead_<cause> "
    f"({', '.join(DEATH_CAUSES)}), such as p_dead_healing_failure or p_dead_wound_by_1d"
)


@dataclass(frozen=True)
class Statistic:
    """A share of trials in one outcome, at the horizon or by a campaign time.

    Attributes:
        outcome: ``dead``, ``healed``, ``wounded`` or ``incoherent``.
        by: The campaign time in seconds (None: at the horizon).
        text: As the user wrote it (``p_dead_by_1d``).
        cause: Only the deaths of this cause of Q3 (``healing_failure``...), or None.
    """

    outcome: str
    by: float | None
    text: str
    cause: str | None = None

    @classmethod
    def parse(cls, text: str, flag: str = "--target") -> Statistic:
        """Read ``p_dead``, ``p_dead_by_1d``, ``p_dead_stable_test`` or ``p_dead_wound_by_1d``.

        Raises:
            UserError: Naming ``flag`` and the text, for anything else.
        """
        match = _STAT.match(text.strip())
        if match is None:
            raise UserError(f"{flag}: got {text!r}; expected {STAT_EXPECTED}")
        by = None
        outcome, cause, when = match.groups()
        if cause is not None and outcome != "dead":
            raise UserError(f"{flag}: got {text!r}; a cause names deaths only: expected "
                            f"p_dead_{cause}")  # fmt: skip
        if when is not None:
            try:
                by = parse_duration(when)
            except DurationError:
                raise UserError(
                    f"{flag}: got {text!r}; expected a duration with a unit after _by_ "
                    "(p_dead_by_1d, p_dead_by_90min)"
                ) from None
        return cls(outcome, by, text.strip(), cause)

    def check(self, scenario: Scenario, flag: str = "--target") -> None:
        """Refuse a campaign time past the scenario's horizon (nothing is known there).

        Raises:
            UserError: Naming ``flag``, the time and the horizon.
        """
        if self.by is not None and self.by > scenario.horizon:
            from simulator.rules.durations import format_duration

            raise UserError(
                f"{flag} {self.text}: {format_duration(self.by)} lies past the scenario's "
                f"horizon ({format_duration(scenario.horizon)}); expected a time within it "
                f"(or a longer horizon: --set horizon={format_duration(self.by)})"
            )

    def indicators(self, trials: pd.DataFrame) -> np.ndarray:
        """Which trials count (a boolean per trial of a ``trials`` frame)."""
        outcome = (trials["outcome"] == self.outcome).to_numpy(dtype=bool)
        if self.cause is not None:  # Q3: the deaths of one cause
            outcome = outcome & (trials["cause"] == self.cause).to_numpy(dtype=bool)
        if self.by is None:
            return outcome
        hours = self.by / 3600.0

        def by(column: str) -> np.ndarray:
            within: np.ndarray = (
                np.nan_to_num(trials[column].to_numpy(dtype=float), nan=np.inf) <= hours
            )
            return within

        dead, incoherent = by("death_h"), by("incoherent_h")
        healed: np.ndarray = (trials["outcome"] == "healed").to_numpy(dtype=bool) & by("healed_h")
        if self.outcome == "dead":
            return dead & outcome if self.cause is not None else dead
        if self.outcome == "incoherent":
            return incoherent
        if self.outcome == "healed":
            return healed
        wounded: np.ndarray = ~(dead | incoherent | healed)
        return wounded


@dataclass(frozen=True)
class Evaluation:
    """The statistic of one scenario.

    Attributes:
        stat: Its value (a share, 0 to 1).
        ci: Its 95% interval: Wilson's when sampled; ``[p, p]`` when exact.
        trials: The trials it comes from (None when exact).
        indicators: Which trials counted (Monte Carlo), for paired comparisons.
    """

    stat: float
    ci: tuple[float, float]
    trials: int | None = None
    indicators: np.ndarray | None = field(default=None, repr=False, compare=False)

    def overlaps(self, target: float) -> bool:
        """Whether the interval holds the target (sampling cannot tell which side it is)."""
        return self.ci[0] <= target <= self.ci[1] and self.trials is not None

    def trials_to_separate(self, target: float) -> int | None:
        """About how many trials would put the target outside the 95% interval.

        None when the estimate equals the target (no number of trials separates them).
        """
        gap = abs(self.stat - target)
        if gap == 0:
            return None
        p = min(max(self.stat, 1e-9), 1 - 1e-9)
        return int(np.ceil(Z95**2 * p * (1 - p) / gap**2))


class Evaluator(Protocol):
    """Gives a statistic of each scenario; ``method`` says how (``monte-carlo``, ``exact``)."""

    method: str

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, in order."""
        ...


class _KeptOpen:
    """A backend that survives :func:`execute` closing it, so that workers start once."""

    def __init__(self, backend: Backend):
        self.backend = backend

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, pd.DataFrame]]:
        """Run the jobs on the kept backend."""
        return self.backend.map_chunks(jobs)

    def close(self) -> None:
        """Kept open: :meth:`MonteCarlo.close` closes it."""


@dataclass
class MonteCarlo:
    """Evaluate by Monte Carlo: ``trials`` trials of each scenario, all on ``seed``.

    Use as a context manager (or call :meth:`close`): the worker processes start at the
    first evaluation and serve every later one.

    Attributes:
        trials: Trials per scenario.
        seed: The seed of every scenario (common random numbers).
        workers: Local worker processes (None: all cores; 1: in this process).
        backend: ``"local"`` or ``"dask"``.
        scheduler: The Dask scheduler's address.
        progress: Draw a progress bar on stderr.
    """

    trials: int = 10_000
    seed: int = 0
    workers: int | None = None
    backend: BackendName = "local"
    scheduler: str | None = None
    progress: bool = False
    method: str = field(default="monte-carlo", init=False)
    _backend: Backend | None = field(default=None, init=False, repr=False)
    runs: int = field(default=0, init=False)

    def check(self) -> None:
        """Check the settings before anything runs.

        Raises:
            UserError: For bad trials, seed, workers or backend.
        """
        from simulator.studies.execution import check_backend, check_trials_and_seed

        check_trials_and_seed(self.trials, self.seed)
        check_backend(self.backend, self.workers, self.scheduler)

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, from the same seeds."""
        from simulator.studies.execution import execute, get_backend, make_plans

        if not scenarios:
            return []
        plans = make_plans(
            scenarios,
            trials=self.trials,
            seed=self.seed,
            workers=self.workers,
            chunk_size=None,
            out=None,
        )
        if self._backend is None:
            self._backend = get_backend(self.backend, self.workers, self.scheduler)
        frames = execute(plans, _KeptOpen(self._backend), self.progress)
        self.runs += len(scenarios)
        result = []
        for frame in frames:
            hits = stat.indicators(frame)
            k, n = int(hits.sum()), len(hits)
            result.append(Evaluation(k / n, wilson(k, n), n, hits))
        return result

    def close(self) -> None:
        """Stop the workers."""
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def __enter__(self) -> MonteCarlo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Exact:
    """Evaluate exactly (:func:`simulator.studies.exact.run_exact`): no trials, no seed.

    The interval of each value is ``[p, p + dropped]`` clipped to [0, 1] (CONTRACT.md), the
    probability dropped with the states below ``eps``.

    Attributes:
        eps: States whose probability falls below this are dropped.
        max_states: Give up (a user error) past this many states.
    """

    eps: float = DEFAULT_EPS
    max_states: int = DEFAULT_MAX_STATES
    method: str = field(default="exact", init=False)
    runs: int = field(default=0, init=False)

    def check(self) -> None:
        """Check ``eps`` and ``max_states`` before anything runs.

        Raises:
            UserError: For values out of range.
        """
        from simulator.studies.exact import check_exact_arguments

        check_exact_arguments(self.eps, self.max_states)

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, exactly."""
        from simulator.studies.exact import run_exact

        found = []
        for scenario in scenarios:
            result = run_exact(scenario, eps=self.eps, max_states=self.max_states)
            p = result.stat(stat.text)
            found.append(Evaluation(p, (p, min(1.0, p + result.dropped_mass))))
            self.runs += 1
        return found

    def close(self) -> None:
        """Nothing to stop."""

    def __enter__(self) -> Exact:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
