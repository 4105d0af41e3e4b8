"""The JSON summary of a study's trials from their merged tally: numbers, no frame.

Kept apart from :mod:`simulator.studies.frames` (pandas): the command line prints its
answer from here before pandas is imported (CONTRACT.md: the answer first).
:func:`~simulator.studies.frames.summarize` gives the same dict from a ``trials`` frame.
"""

from __future__ import annotations

from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.outcome import OUTCOMES, Summary
from simulator.runner.tally import Tally
from simulator.studies.stats import wilson

__all__ = ["MEAN_COUNTS", "summarize_tally", "summary_dict", "tally_share"]


def tally_share(k: int, n: int) -> tuple[float, list[float]]:
    """``k`` of ``n`` as a share and its Wilson interval."""
    low, high = wilson(k, n)
    return k / n, [low, high]


def summarize_tally(tally: Tally, scenario: str, seed: int) -> Summary:
    """:func:`~simulator.studies.frames.summarize` from the trials' tally: the same dict."""
    n = tally.n
    if n == 0:
        raise ValueError("cannot summarize a study of zero trials")
    return summary_dict(
        scenario,
        seed,
        n,
        {name: tally_share(tally.count(name), n) for name in OUTCOMES},
        tally_share(tally.events["stabilised"].total, n),
        {cause: tally.dead_of(cause) for cause in DEATH_CAUSES},
        (tally.events["healed"].median(), tally.events["dead"].median()),
        {name: tally.mean(name) for name in MEAN_COUNTS},
    )


MEAN_COUNTS = ("aggravations", "survival_tests", "first_aid_attempts", "healing_tests", "faints")
"""The counts whose means a summary gives (``mean_aggravations`` is the contract's)."""


def summary_dict(
    scenario: str,
    seed: int,
    n: int,
    shares: dict[str, tuple[float, list[float]]],
    stabilised: tuple[float, list[float]],
    causes: dict[str, int],
    medians: tuple[float | None, float | None],
    means: dict[str, float],
) -> Summary:
    """The JSON summary in its order, from its numbers (however they were counted)."""
    summary: Summary = {
        "scenario": scenario,
        "trials": n,
        "seed": int(seed),
        "p_dead": shares["dead"][0],
        "p_dead_ci": shares["dead"][1],
        "p_healed": shares["healed"][0],
        "p_healed_ci": shares["healed"][1],
        "p_wounded": shares["wounded"][0],
        "p_incoherent": shares["incoherent"][0],
        "median_time_to_heal_h": medians[0],
        "mean_aggravations": means["aggravations"],
        "p_dead_by_cause": {cause: k / n for cause, k in causes.items()},
        "p_dead_by_cause_ci": {cause: list(wilson(k, n)) for cause, k in causes.items()},
        "method": "monte-carlo",
        "p_wounded_ci": shares["wounded"][1],
        "p_incoherent_ci": shares["incoherent"][1],
        "p_stabilised": stabilised[0],
        "p_stabilised_ci": stabilised[1],
        "median_time_to_death_h": medians[1],
    }
    summary["mean_survival_tests"] = means["survival_tests"]
    summary["mean_first_aid_attempts"] = means["first_aid_attempts"]
    summary["mean_healing_tests"] = means["healing_tests"]
    summary["mean_faints"] = means["faints"]
    return summary
