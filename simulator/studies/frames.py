"""What a ``trials`` frame says: its summary and its curves.

The ``trials`` frame itself (one row per trial, typed columns) is
:mod:`simulator.runner.trials`'s; its names are given here too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
import pandas as pd

from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.outcome import OUTCOMES
from simulator.runner.tally import Tally, ValueCounts
from simulator.runner.trials import (
    CAUSE_DTYPE,
    OUTCOME_DTYPE,
    coerce,
    column_dtypes,
    concat_chunks,
    read_trials,
    records_to_frame,
    write_parquet,
)
from simulator.studies.stats import median_or_none, wilson_arrays
from simulator.studies.summary import MEAN_COUNTS, summarize_tally, summary_dict, tally_share

if TYPE_CHECKING:
    from simulator.rules.outcome import Summary


def outcome_is(trials: pd.DataFrame, outcome: str) -> np.ndarray:
    """Boolean array: which trials ended with ``outcome`` (compared on category codes)."""
    return (trials["outcome"] == outcome).to_numpy(dtype=bool)


def _share(mask: np.ndarray, n: int) -> tuple[float, list[float]]:
    return tally_share(int(np.count_nonzero(mask)), n)


def cause_counts(trials: pd.DataFrame) -> dict[str, int]:
    """Q3: how many trials died of each cause (:data:`DEATH_CAUSES`, in order)."""
    dead = trials["cause"][outcome_is(trials, "dead")]
    counts = dead.value_counts()
    return {cause: int(counts.get(cause, 0)) for cause in DEATH_CAUSES}


Trials: TypeAlias = pd.DataFrame | Tally
"""A study's trials: their whole ``trials`` frame, or their merged
:class:`~simulator.runner.tally.Tally` (which gives the very same numbers)."""


def summarize(trials: pd.DataFrame, scenario: str, seed: int) -> Summary:
    """The JSON summary of CONTRACT.md, plus a few extra keys.

    The contract's keys come first, exactly as specified: ``scenario``, ``trials``, ``seed``,
    ``p_dead``, ``p_dead_ci``, ``p_healed``, ``p_healed_ci``, ``p_wounded``, ``p_incoherent``,
    ``median_time_to_heal_h`` (None when none healed), ``mean_aggravations``,
    ``p_dead_by_cause`` and ``p_dead_by_cause_ci`` (Q3, Wilson intervals). Extra keys:
    the intervals of the other shares, ``p_stabilised`` (ever stabilised) with its interval,
    ``median_time_to_death_h`` and the means of the main counts.

    Args:
        trials: A ``trials`` frame with at least one row.
        scenario: The scenario's name.
        seed: The study's seed.

    Returns:
        A JSON-ready dict (plain floats, lists and None).
    """
    n = len(trials)
    if n == 0:
        raise ValueError("cannot summarize a study of zero trials")
    masks = {name: outcome_is(trials, name) for name in OUTCOMES}
    shares = {name: _share(mask, n) for name, mask in masks.items()}
    stabilised = _share(np.isfinite(trials["first_stable_h"].to_numpy()), n)
    healed_h = trials["healed_h"].to_numpy()[masks["healed"]]
    death_h = trials["death_h"].to_numpy()[masks["dead"]]
    causes = cause_counts(trials)
    return summary_dict(
        scenario,
        seed,
        n,
        shares,
        stabilised,
        causes,
        (median_or_none(healed_h), median_or_none(death_h)),
        {name: float(trials[name].mean()) for name in MEAN_COUNTS},
    )


def summary_frame(summary: Summary | dict[str, Any]) -> pd.DataFrame:
    """One summary dict as a one-row frame; each ``*_ci`` pair becomes ``*_low``/``*_high``.

    Each interval's two columns come right after their share. A ``point`` (sweeps) becomes
    one column per key; ``overrides`` one text column, the ``KEY=VALUE`` texts joined by
    ``"; "`` (empty when none), and ``impossible`` the same of its outcomes.
    """
    row: dict[str, Any] = {}
    for key, value in cast("dict[str, Any]", summary).items():  # each key as it is
        if key == "p_dead_by_cause":  # one column per cause: p_dead_<cause>
            row.update({f"p_dead_{cause}": share for cause, share in value.items()})
        elif key == "p_dead_by_cause_ci":
            for cause, (low, high) in value.items():
                row[f"p_dead_{cause}_low"], row[f"p_dead_{cause}_high"] = low, high
        elif key.endswith("_ci"):
            row[f"{key[:-3]}_low"], row[f"{key[:-3]}_high"] = value
        elif key == "point":  # arrays and tables as their TOML text: one plain cell each
            row.update({k: _cell(v) for k, v in value.items()})
        elif key in ("overrides", "impossible"):
            row[key] = "; ".join(value)
        else:
            row[key] = math.nan if value is None else value
    return pd.DataFrame([_beside(row)])


def _beside(row: dict[str, Any]) -> dict[str, Any]:
    """The row with each share's ``_low`` and ``_high`` right after it; else the order kept.

    A spreadsheet reads ``p_wounded`` beside its interval, not 25 columns further.
    """
    ordered: dict[str, Any] = {}
    for key, value in row.items():
        if key.endswith(("_low", "_high")) and key.rpartition("_")[0] in row:
            continue  # placed with its share
        ordered[key] = value
        for end in ("_low", "_high"):
            if key + end in row:
                ordered[key + end] = row[key + end]
    return ordered


def _cell(value: object) -> object:
    """A grid value as a frame cell: numbers, booleans and strings as they are, else TOML."""
    if isinstance(value, list | tuple | dict):
        from simulator.scenario.writing import toml_value

        return toml_value(value)
    return value


CURVE_STATES = ("dead", "incoherent", "wounded", "healed", "stabilised")
"""The states of :func:`curves`: the first four share out the trials at each time; the last
one (ever stabilised) overlaps them."""


def curves(
    trials: Trials,
    horizon_h: float,
    points: int = 200,
    *,
    times: Sequence[float] | None = None,
    events: Events | None = None,
) -> pd.DataFrame:
    """Shares of trials in each state over campaign time, with 95% Wilson bands.

    The states are read from each trial's end state and its times, which keeps them simple
    and cheap: by time ``t`` a trial is *dead* when ``death_h <= t``, *incoherent* when
    ``incoherent_h <= t``, *healed* when it ended healed and ``healed_h <= t`` (the last time
    it became wound-free, so a trial healed, wounded again and healed again counts as healed
    from the last time only; one healed then wounded until the horizon never counts), and
    *wounded* otherwise. *Stabilised* (``first_stable_h <= t``) is the share ever stabilised
    and overlaps the others.

    Args:
        trials: A ``trials`` frame, or the trials' tally.
        horizon_h: The scenario's horizon, in hours.
        points: Number of evenly spaced times from 0 to the horizon, both included.
        times: The times to read instead, in hours, in the order given (e.g. ``[1, 24,
            168]`` for "within an hour, a day, a week"), within the horizon; ``points`` is
            then ignored.
        events: :func:`event_times` of ``trials``, when already computed (a study draws
            several figures from the same trials).

    Returns:
        A tidy frame with columns ``time_h``, ``state`` (categorical, :data:`CURVE_STATES`),
        ``share``, ``low`` and ``high``.

    Raises:
        ValueError: For zero trials, or times outside ``[0, horizon_h]``.
    """
    n = trials.n if isinstance(trials, Tally) else len(trials)
    if n == 0:
        raise ValueError("cannot draw curves of zero trials")
    if times is None:
        grid = np.linspace(0.0, float(horizon_h), max(int(points), 2))
    else:
        grid = np.asarray(times, dtype=np.float64).reshape(-1)
        if grid.size == 0 or not np.all((grid >= 0) & (grid <= horizon_h)):
            raise ValueError(
                f"times: got {list(times)!r}; expected hours from 0 to the horizon ({horizon_h:g})"
            )
    events = _events_of(trials) if events is None else events
    counts = {state: _count_by(events[state], grid) for state in _EVENT_STATES}
    counts["wounded"] = n - counts["dead"] - counts["incoherent"] - counts["healed"]
    parts = []
    for state in CURVE_STATES:
        low, high = wilson_arrays(counts[state], n)
        parts.append(
            pd.DataFrame(
                {
                    "time_h": grid,
                    "state": state,
                    "share": counts[state] / n,
                    "low": low,
                    "high": high,
                }
            )
        )
    frame = pd.concat(parts, ignore_index=True)
    frame["state"] = pd.Categorical(frame["state"], categories=list(CURVE_STATES))
    return frame


def cause_curves(
    trials: Trials,
    horizon_h: float,
    points: int = 200,
    *,
    events: Events | None = None,
) -> pd.DataFrame:
    """Q3: the share of trials dead of each cause by each campaign time.

    Args:
        trials: A ``trials`` frame, or the trials' tally.
        horizon_h: The scenario's horizon, in hours.
        points: Number of evenly spaced times from 0 to the horizon, both included.
        events: :func:`event_times` of ``trials``, when already computed.

    Returns:
        A tidy frame with columns ``time_h``, ``cause`` (categorical, :data:`DEATH_CAUSES`)
        and ``share``: by time ``t``, the trials with ``death_h <= t`` of that cause.
    """
    grid = np.linspace(0.0, float(horizon_h), max(int(points), 2))
    n = max(trials.n if isinstance(trials, Tally) else len(trials), 1)
    events = _events_of(trials) if events is None else events
    shares = {c: _count_by(events[f"dead_{c}"], grid) / n for c in DEATH_CAUSES}
    return tidy_causes(grid, shares)


_EVENT_STATES = ("dead", "incoherent", "healed", "stabilised")
"""The states of :func:`curves` read from one time column each (*wounded* is the rest)."""


Events: TypeAlias = Mapping[str, np.ndarray] | Mapping[str, ValueCounts]
"""The times of the curves' events: sorted arrays (:func:`event_times`) or value counts."""


def _events_of(trials: Trials) -> Events:
    return trials.events if isinstance(trials, Tally) else event_times(trials)


def event_times(trials: pd.DataFrame) -> dict[str, np.ndarray]:
    """The sorted finite times of each event of the curves, read once from a ``trials`` frame.

    Every curve, and every figure drawn from one, counts the trials whose event came by each
    time of its grid: with these sorted times that is one binary search per time
    (:func:`numpy.searchsorted`), however many trials, instead of a pass over the frame.

    Returns:
        ``dead``, ``incoherent``, ``healed`` (the trials that ended healed), ``stabilised``
        and ``dead_<cause>`` for each cause of Q3 (:data:`DEATH_CAUSES`): each a sorted
        float64 array of hours, without the trials the event never came to.
    """
    death_h = trials["death_h"].to_numpy(dtype=np.float64)
    healed_h = trials["healed_h"].to_numpy(dtype=np.float64)[outcome_is(trials, "healed")]
    events = {
        "dead": death_h,
        "incoherent": trials["incoherent_h"].to_numpy(dtype=np.float64),
        "healed": healed_h,
        "stabilised": trials["first_stable_h"].to_numpy(dtype=np.float64),
    }
    column = trials["cause"]
    if isinstance(column.dtype, pd.CategoricalDtype):  # compared on category codes
        codes = column.cat.codes.to_numpy()
        index = {str(c): i for i, c in enumerate(column.cat.categories)}
        for c in DEATH_CAUSES:
            events[f"dead_{c}"] = death_h[codes == index[c]] if c in index else death_h[:0]
    else:
        cause = column.to_numpy(dtype=object)
        events.update({f"dead_{c}": death_h[cause == c] for c in DEATH_CAUSES})
    return {key: np.sort(times[np.isfinite(times)]) for key, times in events.items()}


def tidy_causes(grid: np.ndarray, shares: dict[str, np.ndarray]) -> pd.DataFrame:
    """The frame of :func:`cause_curves` from each cause's shares over ``grid``."""
    parts = [pd.DataFrame({"time_h": grid, "cause": c, "share": shares[c]}) for c in DEATH_CAUSES]
    frame = pd.concat(parts, ignore_index=True)
    frame["cause"] = pd.Categorical(frame["cause"], categories=list(DEATH_CAUSES))
    return frame


def _count_by(sorted_h: np.ndarray | ValueCounts, times: np.ndarray) -> np.ndarray:
    """How many of the sorted finite event times are ``<= t``, for each ``t`` of ``times``."""
    if isinstance(sorted_h, ValueCounts):
        return sorted_h.count_le(times)
    return np.searchsorted(sorted_h, times, side="right").astype(np.int64)


__all__ = [
    "CAUSE_DTYPE",
    "CURVE_STATES",
    "OUTCOME_DTYPE",
    "cause_counts",
    "cause_curves",
    "coerce",
    "column_dtypes",
    "concat_chunks",
    "curves",
    "event_times",
    "outcome_is",
    "read_trials",
    "records_to_frame",
    "summarize",
    "summarize_tally",
    "summary_frame",
    "tidy_causes",
    "write_parquet",
]
