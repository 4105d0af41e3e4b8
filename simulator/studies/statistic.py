"""One statistic of a scenario, evaluated at many variants of it.

What ``balance`` and ``sensitivity`` stand on.

A statistic is one of the four shares of CONTRACT.md's summary (``p_dead``, ``p_healed``,
``p_wounded``, ``p_incoherent``) read at the horizon, or the same read at a campaign time:
``p_dead_by_1d`` is the share of trials dead within a day, as the fate curves read it
(:func:`simulator.studies.frames.curves`). The share dead of one cause of Q3 is one too:
``p_dead_healing_failure``, ``p_dead_stable_test_by_1w``.

An *evaluator* takes scenarios and gives the statistic of each: the methods of
:mod:`simulator.studies.method` are evaluators. :class:`~simulator.studies.method.MonteCarlo`
runs the same seeds at every scenario (trial ``i`` draws the same random stream everywhere),
so the differences between variants come from the variants, not from luck;
:class:`~simulator.studies.method.Exact` computes it exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from simulator.errors import N_, DurationError, UserError, phrase
from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.durations import parse_duration, spelled_unit
from simulator.rules.outcome import OUTCOMES
from simulator.spelling import spelling
from simulator.studies.stats import Z95

if TYPE_CHECKING:
    import pandas as pd

    from simulator.runner.tally import Tally
    from simulator.scenario.keys import Key
    from simulator.scenario.model import Scenario

_STAT = re.compile(rf"^p_({'|'.join(OUTCOMES)})(?:_({'|'.join(DEATH_CAUSES)}))?(?:_by_(.+))?$")
STAT_EXPECTED = N_(
    "p_dead, p_healed, p_wounded or p_incoherent, or the same by a campaign time such as "
    "p_dead_by_1d or p_healed_by_12h, or the share dead of one cause, p_dead_<cause> "
    "({causes}), such as p_dead_healing_failure or p_dead_wound_by_1d"
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
    def parse(cls, text: str, flag: str = "target") -> Statistic:
        """Read ``p_dead``, ``p_dead_by_1d``, ``p_dead_stable_test`` or ``p_dead_wound_by_1d``.

        ``flag``: the option that gave the text, by its Python name (``"target"``, ``"stat"``),
        spelt in messages as the caller spells it (:mod:`simulator.spelling`); any other
        label (a calibration file's place) is said as it is.

        Raises:
            UserError: Naming ``flag`` and the text, for anything else.
        """
        match = _STAT.match(text.strip()) if isinstance(text, str) else None  # stat=3 too
        if match is None:
            expected = phrase(STAT_EXPECTED, causes=", ".join(DEATH_CAUSES))
            guess = _nearest(text.strip()) if isinstance(text, str) else None
            if guess is not None:  # p_died_by_1d: p_dead_by_1d
                expected = phrase("{what} (did you mean {name}?)", what=expected, name=guess)
            raise UserError(
                phrase(
                    "{flag}: got {value}; expected {expected}",
                    flag=spelling().option(flag),
                    value=repr(text),
                    expected=expected,
                )
            )
        by = None
        outcome, cause, when = match.groups()
        if cause is not None and outcome != "dead":
            raise UserError(
                phrase(
                    "{flag}: got {value}; a cause names deaths only: expected p_dead_{cause}",
                    flag=spelling().option(flag),
                    value=repr(text),
                    cause=cause,
                )
            )
        if when is not None:
            try:
                by = parse_duration(when)
            except DurationError:
                said = phrase(
                    "{flag}: got {value}; expected a duration with a unit after _by_ "
                    "(p_dead_by_1d, p_dead_by_90min)",
                    flag=spelling().option(flag),
                    value=repr(text),
                )
                meant = spelled_unit(when)
                if meant is not None:  # p_dead_by_30m: p_dead_by_30min
                    guess = text.strip()[: -len(when)] + meant.replace(" ", "")
                    said = phrase("{what} (did you mean {name}?)", what=said, name=guess)
                raise UserError(said) from None
        return cls(outcome, by, text.strip(), cause)

    def check(self, scenario: Scenario, flag: str = "target", longer: str | None = None) -> None:
        """Refuse a campaign time past the scenario's horizon (nothing is known there).

        ``flag``: the option that gave the statistic, as :meth:`parse` takes it. ``longer``:
        how the user gives a longer horizon where the mistake was made (``{by}`` the time
        asked), a target's ``set`` in a calibration file; None: an override, as the caller
        spells it (``--set horizon=...`` on the command line, ``overrides: horizon=...``).

        Raises:
            UserError: Naming ``flag``, the time and the horizon.
        """
        if self.by is not None and self.by > scenario.horizon:
            from simulator.rules.durations import format_duration

            raise UserError(
                phrase(
                    "{flag} {text}: {by} lies past the scenario's horizon ({horizon}); "
                    "expected a time within it (or a longer horizon: {longer})",
                    flag=spelling().lead(flag),
                    text=self.text,
                    by=format_duration(self.by),
                    horizon=format_duration(scenario.horizon),
                    longer=(
                        spelling().item("overrides", f"horizon={format_duration(self.by)}")
                        if longer is None
                        else phrase(longer, by=format_duration(self.by))
                    ),
                )
            )

    def count(self, tally: Tally) -> int:
        """How many trials count, from the trials' tally (as many as :meth:`indicators`)."""
        if self.by is None:
            if self.cause is not None:
                return tally.dead_of(self.cause) if self.outcome == "dead" else 0
            return tally.count(self.outcome)
        hours = np.asarray([self.by / 3600.0])

        def by(event: str) -> int:
            return int(tally.events[event].count_le(hours)[0])

        if self.outcome == "dead":
            return by(f"dead_{self.cause}" if self.cause is not None else "dead")
        if self.outcome == "incoherent":
            return by("incoherent")
        if self.outcome == "healed":
            return by("healed")
        return tally.n - by("dead") - by("incoherent") - by("healed")

    def indicators(self, trials: pd.DataFrame) -> np.ndarray:
        """Which trials count (a boolean per trial of a ``trials`` frame)."""
        return self._hits(
            lambda name: (trials["outcome"] == name).to_numpy(dtype=bool),
            lambda: (trials["cause"] == self.cause).to_numpy(dtype=bool),
            lambda column: trials[column].to_numpy(dtype=float),
        )

    def indicators_of(self, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """Which trials count, from a chunk's compact columns (as :meth:`indicators` does).

        The same booleans as from the chunk's ``trials`` frame, without building it.
        """
        from simulator.runner.compact import CAUSE_CODE, OUTCOME_CODE

        return self._hits(
            lambda name: np.asarray(columns["outcome"] == OUTCOME_CODE[name], dtype=bool),
            lambda: np.asarray(columns["cause"] == CAUSE_CODE[str(self.cause)], dtype=bool),
            lambda column: np.asarray(columns[column], dtype=float),
        )

    def _hits(
        self,
        outcome_is: Callable[[str], np.ndarray],
        cause_is: Callable[[], np.ndarray],
        times: Callable[[str], np.ndarray],
    ) -> np.ndarray:
        """Which trials count, given the trials' outcome, the cause and each time column."""
        outcome = outcome_is(self.outcome)
        if self.cause is not None:  # Q3: the deaths of one cause
            outcome = outcome & cause_is()
        if self.by is None:
            return outcome
        hours = self.by / 3600.0

        def by(column: str) -> np.ndarray:
            within: np.ndarray = np.nan_to_num(times(column), nan=np.inf) <= hours
            return within

        dead, incoherent = by("death_h"), by("incoherent_h")
        healed: np.ndarray = outcome_is("healed") & by("healed_h")
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

    @property
    def method(self) -> str:
        """``monte-carlo`` or ``exact``."""
        ...

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, in order."""
        ...


def shown(key: Key, value: float, lang: str | None = None) -> str:
    """A key's value for a person: ``3``, ``16 h 40 min``, ``0.25`` (``0,25`` in French)."""
    from simulator.report.i18n import value_text

    return value_text(key, value, lang)


def _nearest(text: str) -> str | None:
    """The statistic ``text`` most likely meant (a misspelt outcome or cause), or None."""
    import difflib

    head, by, when = text.partition("_by_")
    names = ["p_dead", "p_healed", "p_wounded", "p_incoherent"]
    names += [f"p_dead_{cause}" for cause in DEATH_CAUSES]
    close = difflib.get_close_matches(head.lower(), names, n=1, cutoff=0.7)
    if not close:
        return None
    guess = close[0] + by + when
    return guess if _STAT.match(guess) else None
