"""The workbench's answer: exact when the exact engine answers within its budget, else sampled.

The policy is the studies' (:class:`~simulator.studies.method.ExactFirst`: the exact engine
first, within :data:`~simulator.studies.method.EXACT_FIRST_STATES` states, about a second
here); a scenario over it is sampled instead, trials ``0, 1, 2...`` of the seed in
chunks (:mod:`simulator.web.sampling`), exactly the trials of ``harmonies-sim run`` with
that seed. The numbers
are sent after every chunk, so the page shows the 95% interval narrowing; the figures come
last, drawn by the project's own figure code as SVG.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, cast

import pandas as pd
from starlette.concurrency import run_in_threadpool

from simulator.scenario.model import Scenario
from simulator.web.sampling import Pool, chunks
from simulator.web.words import word

DAY_H = 24.0

UPDATE_SECONDS = 0.2
"""A sampled answer's numbers are sent at most this often (and always after the first chunk
and the last), and never more often than twice the time their summary takes: a million
trials in chunks of a thousand are not summarized a thousand times over."""

Numbers = dict[str, Any]
"""The raw numbers of an answer: shares, intervals, medians, method, trials."""


def _by_day(scenario: Scenario) -> bool:
    return scenario.horizon > DAY_H * 3600


def try_exact(scenario: Scenario) -> Any | None:
    """The exact :class:`~simulator.studies.result.StudyResult` within the budget, or None.

    The policy is the studies' :class:`~simulator.studies.method.ExactFirst` (its budget a
    count of states; its answers remembered: undoing an edit, or changing the trials, does not
    try the same table again).
    """
    from simulator.studies.method import ExactFirst
    from simulator.studies.result import StudyResult

    solved = ExactFirst().answer(scenario)
    return None if solved is None else StudyResult(scenario, solved)


def _numbers_of(summary: Any, by_day: tuple[float, list[float]] | None) -> Numbers:
    """The numbers of a summary, sampled or exact, in the page's order.

    The four outcomes, death within the first day (``by_day``: its share and interval, where
    the scenario asks), each cause of death (Q3: what opened the way) and the two medians;
    each share with its interval.
    """
    fields = cast("dict[str, Any]", summary)  # each outcome looked up by its key
    numbers: Numbers = {}
    for k in ("p_dead", "p_healed", "p_wounded", "p_incoherent"):
        numbers[k], numbers[f"{k}_ci"] = fields[k], list(fields[f"{k}_ci"])
    if by_day is not None:
        numbers["p_dead_by_1d"], numbers["p_dead_by_1d_ci"] = by_day
    for cause, p in summary["p_dead_by_cause"].items():
        numbers[f"p_dead_{cause}"] = p
        numbers[f"p_dead_{cause}_ci"] = list(summary["p_dead_by_cause_ci"][cause])
    numbers["median_time_to_heal_h"] = summary["median_time_to_heal_h"]
    numbers["median_time_to_death_h"] = summary["median_time_to_death_h"]
    return numbers


def exact_numbers(result: Any) -> Numbers:
    """The numbers of an exact answer.

    Each share's ``_ci`` is ``run --exact --json``'s: ``[p, p + dropped_mass]`` clipped to
    [0, 1] (CONTRACT.md), where the true share lies.
    """
    summary = result.summary_json()
    by_day = None
    if _by_day(result.scenario):
        p = result.stat("p_dead_by_1d")
        by_day = p, exact_interval(p, summary["dropped_mass"])
    numbers = _numbers_of(summary, by_day)
    numbers["impossible"] = list(summary.get("impossible", ()))
    numbers["method"] = "exact"
    numbers["dropped"] = summary["dropped_mass"]
    numbers["trials"] = None
    return numbers


def exact_interval(p: float, dropped: float) -> list[float]:
    """``[p, p + dropped]`` clipped to [0, 1], as the exact summary's intervals."""
    from simulator.exact.answer import summed_share

    return [min(1.0, max(0.0, p)), summed_share(min(1.0, p + dropped))]


def sampled_numbers(scenario: Scenario, trials: pd.DataFrame, seed: int) -> Numbers:
    """The numbers of the trials run so far."""
    from simulator.studies.frames import summarize
    from simulator.studies.reachable import ruled_out
    from simulator.studies.statistic import Statistic
    from simulator.studies.stats import wilson

    summary = summarize(trials, scenario.name, seed)
    by_day = None
    if _by_day(scenario):
        hits = int(Statistic.parse("p_dead_by_1d").indicators(trials).sum())
        by_day = hits / len(trials), list(wilson(hits, len(trials)))
    numbers = _numbers_of(summary, by_day)
    numbers["impossible"] = ruled_out(scenario)
    numbers["method"] = "sampled"
    numbers["trials"] = len(trials)
    numbers["seed"] = seed
    return numbers


_DRAWING = threading.Lock()
"""One figure at a time: matplotlib's settings (the style's) are the whole process's, and a
figure drawn while another thread leaves :func:`~simulator.report.style.style` would lose
them (its text drawn as paths)."""


def svg(draw: Callable[[Any], object]) -> str:
    """A figure of :mod:`simulator.report` as inline SVG (text as text)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from simulator.report.style import style

    with _DRAWING, style():
        fig = Figure(figsize=(7.0, 4.2), layout="constrained")
        draw(fig.subplots())
        FigureCanvasAgg(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


@dataclass
class Job:
    """One computation the page asked for.

    Attributes:
        scenario: The scenario with the page's edits.
        overrides: Those edits as ``--set`` texts (they title the figures).
        trials: How many trials when sampled.
        seed: The seed when sampled.
        lang: The page's language.
        current: Whether this job is still the newest (a newer edit stops it).
        pool: The runner's workers (None: trials run in the server's process).
    """

    scenario: Scenario
    overrides: tuple[str, ...]
    trials: int
    seed: int
    lang: str
    current: Callable[[], bool]
    pool: Pool | None = None


async def full_numbers(scenario: Scenario, trials: int, seed: int, pool: Pool | None) -> Numbers:
    """The whole answer at once (the scenario as written, the base of the changes)."""
    exact = await run_in_threadpool(try_exact, scenario)
    if exact is not None:
        return exact_numbers(exact)
    frames = [f async for f in chunks(pool, scenario, seed, trials, lambda: True)]
    return sampled_numbers(scenario, _in_order(frames), seed)


def _in_order(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The chunks' trials as one frame sorted by trial, as ``run``'s."""
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    return frame.sort_values("trial", kind="stable").reset_index(drop=True)


def figure(result: Any, which: str, lang: str) -> str:
    """The fate curves over campaign time (``fate``) or the first day (``first_day``), as SVG."""
    from simulator.report import fate_over_time
    from simulator.report.i18n import language, tr

    with language(lang):
        trials = None if getattr(result, "method", "") == "exact" else len(result.trials)
        name = result.title + (f" ({word('exact', lang)})" if trials is None else "")
        if which == "fate":
            curves = result.curves()
            return svg(lambda ax: fate_over_time(curves, name=name, trials=trials, ax=ax))
        first = result.curves(times=[m / 60 for m in range(int(DAY_H * 60) + 1)])
        what = tr("Fate over the first day")
        return svg(lambda ax: fate_over_time(first, name=name, trials=trials, ax=ax, what=what))


def figure_names(result: Any) -> tuple[str, ...]:
    """The figures of an answer: the first day too when the campaign is over two days."""
    return ("fate", "first_day") if result.horizon_h > 2 * DAY_H else ("fate",)


async def _figures(result: Any, job: Job) -> AsyncIterator[dict[str, Any]]:
    names = figure_names(result)
    for which in names:
        if not job.current():
            return
        shown = await run_in_threadpool(figure, result, which, job.lang)
        yield {"type": "figure", "which": which, "svg": shown, "last": which == names[-1]}


async def events(job: Job) -> AsyncIterator[dict[str, Any]]:
    """The answer as it comes: ``numbers`` events (after each chunk), then each ``figure``.

    Each event is ``{"type": "numbers", "numbers": {...}, "final": bool}`` or
    ``{"type": "figure", "which": "fate" | "first_day", "svg": "<svg..."}``. Stops early,
    quietly, once :attr:`Job.current` says a newer job came.
    """
    from simulator.studies.result import StudyResult
    from simulator.studies.sampled import Sampled

    exact = await run_in_threadpool(try_exact, job.scenario)
    if exact is not None:
        exact.overrides = job.overrides
        yield {"type": "numbers", "numbers": exact_numbers(exact), "final": True}
        async for event in _figures(exact, job):
            yield event
        return
    frames: list[pd.DataFrame] = []
    done = 0
    sent, wait = -1.0, 0.0
    async for frame in chunks(job.pool, job.scenario, job.seed, job.trials, job.current):
        done += len(frame)
        final = done >= job.trials
        frames.append(frame)
        if not final and sent >= 0 and time.perf_counter() - sent < wait:
            continue  # the next numbers a little later, with more trials
        started = time.perf_counter()
        frames = [_in_order(frames)] if final else [pd.concat(frames, ignore_index=True)]
        numbers = sampled_numbers(job.scenario, frames[0], job.seed)
        numbers["total"] = job.trials
        sent = time.perf_counter()
        wait = max(UPDATE_SECONDS, 2 * (sent - started))
        yield {"type": "numbers", "numbers": numbers, "final": final}
    if done < job.trials:
        return
    result = StudyResult(job.scenario, Sampled(frames[0], job.seed), job.overrides)
    async for event in _figures(result, job):
        yield event
