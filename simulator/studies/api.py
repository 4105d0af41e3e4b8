"""The Python API of studies: :func:`run_study`, :func:`run_sweep`, :func:`run_compare`.

Each takes a method (:class:`~simulator.studies.method.MonteCarlo` or
:class:`~simulator.studies.method.Exact`) and returns the same result types whichever it is
(:class:`~simulator.studies.result.StudyResult` and its kin, which compute summaries and draw
figures). Monte Carlo cuts the studies into chunks and runs them on a backend
(:mod:`simulator.runner`: reproducible whatever the workers, backend or chunk size, and
resumable after an interruption when an output directory is given).

Every argument, and the output directory, is checked before anything runs. The finished
chunks of a run with an output directory are removed only once its result files are
written, so a run killed while writing them resumes (without simulating again) and writes
them all anew.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from simulator.errors import N_, Problem, ScenarioError, UserError, located, note, phrase
from simulator.files import user_path
from simulator.runner.outdir import check_claim, claim, held_until_clean, release
from simulator.scenario.late import tell_basic_ignores
from simulator.scenario.overrides import Given, given_overrides
from simulator.spelling import PythonSpelling, python_api, spelling
from simulator.studies.loading import (
    as_mapping,
    grid_points,
    in_effect,
    inputs,
    labels,
    load,
    point_overrides,
)
from simulator.studies.method import Method, MonteCarlo, method_of

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario
    from simulator.studies.result import CompareResult, Estimate, StudyResult, SweepResult

_Result = TypeVar("_Result", "StudyResult", "SweepResult", "CompareResult")


class Finish(Protocol):
    """What :func:`run` hands back: tell the result, save it, clean up; the result again."""

    def __call__(
        self, result: _Result, figures: bool, told: Callable[[_Result], None] | None = None
    ) -> _Result:
        """Tell ``result`` (``told``), save it with its figures if asked, and return it."""
        ...


def run(
    scenarios: Sequence[Scenario],
    method: Method,
    out: str | os.PathLike[str] | None,
    writes: Sequence[str] = (),
    given: Sequence[str | os.PathLike[str]] = (),
    keep_trials: bool = True,
) -> tuple[list[Estimate], Finish]:
    """Check the method, make the output directory, estimate every scenario.

    Args:
        scenarios: The studies to run.
        method: How.
        out: The output directory (None: nothing written).
        writes: Every file the result may write into the output folder (checked first).
        given: The files read, never written over.
        keep_trials: Whether the estimates' trials stay readable once the finished chunks
            are removed (read back into memory unless a ``trials.parquet`` holds them);
            False lets them go, for a result only summarised.

    Returns:
        One estimate per scenario, and ``finish(result, figures, told)``: it tells the
        result (``told``, when given: the command line prints the answer then), saves it in
        the output directory (if any), then removes the finished chunks, and returns it.

    Raises:
        UserError: For a bad setting or an output directory that cannot be written.
    """
    out = user_path(out)
    method.check()
    work = method.prepare(scenarios)
    folder = None
    identity = work.identity(writes)
    later = None if isinstance(method, MonteCarlo) else out  # no chunks to keep: claim late
    if later is not None:  # refused at once, but the earlier result replaced once answered
        check_claim(later, writes, inputs=given, identity=identity, whole=True)
    elif out is not None:
        folder = claim(out, writes, inputs=given, identity=identity, resumes=work.runs())
    try:
        estimates: list[Estimate] = list(work.run(folder))
    except BaseException:
        if folder is not None:
            release(folder)  # a notebook's Ctrl-C: the folder is free for the next command
        raise

    def finish(
        result: _Result, figures: bool, told: Callable[[_Result], None] | None = None
    ) -> _Result:
        nonlocal folder
        try:
            if told is not None:  # the answer first, then the files (CONTRACT.md)
                told(result)
            if later is not None:  # claimed only now: a refusal on the way left the result
                folder = claim(later, writes, inputs=given, identity=identity)
            with held_until_clean(folder):  # no other command there until the chunks are gone
                if folder is not None:
                    result.save(folder, figures=figures)
                work.done(keep_trials)  # only now: a run killed while saving can still resume
        except BaseException:  # a notebook's Ctrl-C while printing or saving: folder let go
            if folder is not None:
                release(folder)
            raise
        return result

    return estimates, finish


@python_api
def run_study(
    scenario: Scenario | str | Path,
    method: Method | None = None,
    *,
    out: str | Path | None = None,
    overrides: Sequence[Given] = (),
    figures: bool = True,
    told: Callable[[StudyResult], None] | None = None,
    **sampling: Any,
) -> StudyResult:
    """Study one scenario: its trials (Monte Carlo) or its exact answer.

    Local workers are started with ``spawn``: a script (not a notebook) that runs with
    several workers must call this under ``if __name__ == "__main__":``.

    Example:
        >>> result = run_study("scenarios/field_medic.toml", MonteCarlo(trials=2_000, seed=1))
        >>> result.summary_json()["p_dead"]  # doctest: +SKIP
        >>> exact = run_study("scenarios/lone_traveller.toml", Exact())
        >>> exact.stat("p_dead_by_1d")  # doctest: +SKIP

    Args:
        scenario: A :class:`~simulator.scenario.model.Scenario`, or the path of a scenario file.
        method: :class:`~simulator.studies.method.MonteCarlo` or
            :class:`~simulator.studies.method.Exact` (None: Monte Carlo with ``sampling``).
        out: A directory for the result's files (``summary.json``, figures...) and, for
            Monte Carlo, the partial chunks that let an interrupted run resume; None writes
            nothing.
        overrides: Overrides (typed, or ``KEY=VALUE`` as ``--set``), of a file or a Scenario.
        figures: With ``out``, also draw the figures.
        told: Given the result as soon as it is computed, before its files and figures are
            written (the command line prints the answer then: CONTRACT.md).
        **sampling: Without a method, :class:`~simulator.studies.method.MonteCarlo`'s
            settings (``trials``, ``seed``, ``workers``, ``backend``, ``scheduler``,
            ``chunk_size``, ``progress``).

    Returns:
        The estimate and what is computed from it.

    Raises:
        UserError: For a bad scenario file, override, or argument.
    """
    from simulator.studies.result import StudyResult

    chosen = method_of(method, sampling)
    overrides = given_overrides(overrides)
    loaded = load(scenario, overrides)
    tell_basic_ignores(loaded, _said_name(loaded))
    writes = StudyResult.files(method=chosen.method)
    (estimate,), finish = run([loaded], chosen, out, writes, inputs(scenario))
    return finish(StudyResult(loaded, estimate, labels(overrides)), figures, told)


@python_api
def run_sweep(
    scenario: Scenario | str | Path,
    grid: Mapping[str, Sequence[object]],
    method: Method | None = None,
    *,
    out: str | Path | None = None,
    overrides: Sequence[Given] = (),
    figures: bool = True,
    told: Callable[[SweepResult], None] | None = None,
    keep_trials: bool = True,
    **sampling: Any,
) -> SweepResult:
    """Study one scenario at every point of a grid of its keys, all with one method.

    Monte Carlo runs every point on the same seed, and hands the chunks of all points to the
    backend at once, so workers stay busy.

    Args:
        scenario: The scenario file, or a :class:`~simulator.scenario.model.Scenario` (its grid keys
            are then applied to the scenario as it is).
        grid: ``{dotted key: [values]}``, e.g. ``{"first_aid.level": [0, 1, 2]}``: each value
            typed as a scenario file holds it (numbers, booleans, strings such as ``"30min"``,
            lists, tables); it is the value simulated and the point's label.
        method: As :func:`run_study`; Monte Carlo's trials are per point.
        out: Receives ``sweep.csv``, ``sweep.json`` and the figure, and the partial chunks.
        overrides: ``--set`` overrides applied before the grid's.
        figures: With ``out``, also draw the sweep's figure.
        told: Given the result as soon as it is computed, before its files and figures are
            written (the command line prints the answer then: CONTRACT.md).
        keep_trials: Whether each point's trials (``result.results[i].trials``) stay
            readable. False spares reading every chunk back into memory once the files
            are written (the command line's sweep, which only summarises): the summaries,
            curves and frame of the sweep remain.
        **sampling: As :func:`run_study`.

    Returns:
        The studies of every point and their frame.
    """
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides
    from simulator.studies.result import StudyResult, SweepResult

    chosen = method_of(method, sampling)
    overrides = given_overrides(overrides)
    points = grid_points(grid)
    moved = in_effect(overrides, list(grid))
    said = spelling()
    for given in labels([item for item in overrides if item not in moved]):
        note(  # run as the grid says (its values at every point), but not silently
            phrase(
                "{given}: the grid sets that key at every point, so {this} changes nothing "
                "(it is left out of the points' labels)",
                given=said.item("overrides", given),
                this=(  # "this overrides" is no English: one of them is an override
                    phrase("this override")
                    if isinstance(said, PythonSpelling)
                    else phrase("this {flag}", flag=said.option("overrides"))
                ),
            )
        )
    if isinstance(chosen, MonteCarlo):  # the sizes, before building the points
        from simulator.runner import check_sizes

        check_sizes(
            chosen.trials,
            chosen.seed,
            len(points),
            chosen.chunk_size,
            chosen.workers,
            chosen.backend,
        )
    if isinstance(scenario, str | Path):
        source, data = str(scenario), read_scenario_mapping(scenario)
    else:
        source, data = scenario.source, as_mapping(scenario)
    settings = [point_overrides(point) for point in points]
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    try:  # a mistake of --set told with the grid's, not before them (one run to fix both)
        base = scenario_with_overrides(data, overrides, source)
    except ScenarioError as exc:
        _add_new(problems, exc.problems, _once_a_key)
    for setting in settings:  # every point's mistake told at once, each once (x, y, z)
        try:
            scenarios.append(scenario_with_overrides(data, overrides, source, more=setting))
        except ScenarioError as exc:  # a key unknown: once, not once a value (1, 2, 3)
            _add_new(problems, exc.problems, _once_a_key)
    if problems:
        raise ScenarioError(problems)
    tell_basic_ignores(scenarios, _said_name(scenarios[0]) if scenarios else "")
    writes = SweepResult.files()
    try:
        estimates, finish = run(scenarios, chosen, out, writes, inputs(scenario), keep_trials)
    except UserError as exc:  # an exact answer over its limits: at which point of the grid
        index = getattr(exc, "index", None)
        if index is None or len(scenarios) < 2:
            raise
        point = ", ".join(labels(settings[index]))
        raise located(exc, N_("the point {point} of the grid: {error}"), point=point) from None
    kept = labels(in_effect(overrides, list(grid)))  # a --set the grid moves is no label
    results = [
        StudyResult(s, e, (*kept, *labels(p)))
        for s, e, p in zip(scenarios, estimates, settings, strict=True)
    ]
    return finish(SweepResult(list(grid), points, results, base, kept), figures, told)


@python_api
def run_compare(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    method: Method | None = None,
    *,
    out: str | Path | None = None,
    overrides: Sequence[Given] = (),
    overrides_a: Sequence[Given] = (),
    overrides_b: Sequence[Given] = (),
    figures: bool = True,
    told: Callable[[CompareResult], None] | None = None,
    **sampling: Any,
) -> CompareResult:
    """Study two scenarios with one method and estimate the differences of their shares.

    Monte Carlo runs trial ``i`` of A and trial ``i`` of B on the same random stream, so the
    comparison is paired; each difference (A − B) comes with Newcombe's hybrid score interval
    for paired proportions (95%, see :class:`~simulator.studies.result.CompareResult`).
    Exact differences lie within the mass each side dropped.

    Args:
        a: The first scenario (or its file).
        b: The second.
        method: As :func:`run_study`.
        out: Receives ``compare.csv``, ``compare.json`` and a figure, and partial chunks.
        overrides: ``--set`` overrides of both, files or Scenarios.
        overrides_a: Overrides of A only, after ``overrides``.
        overrides_b: Overrides of B only (e.g. the same file as A with ``ruleset=basic``).
        figures: With ``out``, also draw the figure.
        told: Given the result as soon as it is computed, before its files and figures are
            written (the command line prints the answer then: CONTRACT.md).
        **sampling: As :func:`run_study`.

    Returns:
        Both studies and their differences.
    """
    from simulator.studies.result import CompareResult, StudyResult

    chosen = method_of(method, sampling)
    overrides = given_overrides(overrides)
    overrides_a = given_overrides(overrides_a, "overrides_a")
    overrides_b = given_overrides(overrides_b, "overrides_b")
    set_a, set_b = (*overrides, *overrides_a), (*overrides, *overrides_b)
    scenarios = load_both(a, b, overrides, overrides_a, overrides_b)
    for side, loaded in zip("AB", scenarios, strict=True):
        tell_basic_ignores(loaded, side)
    writes = CompareResult.files()
    (ea, eb), finish = run(scenarios, chosen, out, writes, inputs(a, b))
    a_study = StudyResult(scenarios[0], ea, labels(set_a))
    b_study = StudyResult(scenarios[1], eb, labels(set_b))
    if a_study.title == b_study.title:  # two files of one name: told apart by their files
        sources = _sources(a, b)
        if sources is not None:
            a_study = dataclasses.replace(a_study, source=sources[0])
            b_study = dataclasses.replace(b_study, source=sources[1])
    return finish(CompareResult(a_study, b_study), figures, told)


def load_both(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    overrides: Sequence[Given] = (),
    overrides_a: Sequence[Given] = (),
    overrides_b: Sequence[Given] = (),
) -> list[Scenario]:
    """A comparison's two scenarios, each with ``overrides`` then its own.

    Raises:
        ScenarioError: The problems of both at once, each naming its option as the caller
            spells it (``--set-a``, ``overrides_a``: :mod:`simulator.spelling`); one the two
            sides share (the same file, the same ``--set``) told once.
    """
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    sides = ((a, overrides_a, "overrides_a"), (b, overrides_b, "overrides_b"))
    for which, own, flag in sides:
        try:
            scenarios.append(load(which, overrides, own, flag))
        except ScenarioError as exc:
            _add_new(problems, exc.problems)
    if problems:
        raise ScenarioError(problems)
    return scenarios


def _sources(a: Scenario | str | Path, b: Scenario | str | Path) -> tuple[str, str] | None:
    """How to tell two scenario files apart in titles: their names, else their paths as given.

    None when either side is no file, or both are the same file.
    """
    if not isinstance(a, str | os.PathLike) or not isinstance(b, str | os.PathLike):
        return None
    pa, pb = Path(a), Path(b)
    if pa.resolve() == pb.resolve():
        return None
    if pa.name != pb.name:
        return pa.name, pb.name
    return Path(os.path.normpath(pa)).as_posix(), Path(os.path.normpath(pb)).as_posix()


def _add_new(
    problems: list[Problem],
    found: Sequence[Problem],
    same: Callable[[Problem], object] = str,
) -> None:
    """Add to ``problems`` those of ``found`` not told already (each line once).

    Two problems are one when ``same`` says so (by default, when their lines are).
    """
    told = {same(p) for p in problems}
    for problem in found:
        if same(problem) not in told:
            told.add(same(problem))
            problems.append(problem)


def _once_a_key(problem: Problem) -> object:
    """What tells a sweep's problems apart: a key's own problem is one whatever its value.

    An unknown key (``keyed``) that the grid sets to 1 and 2 is one mistake, told once (at
    its first value); a bad value is told at each value it has.
    """
    if problem.keyed:
        return ("keyed", problem.key, problem.expected)
    return str(problem)


def _said_name(scenario: Scenario) -> str:
    """The scenario's name in the language in force (``name_fr`` under ``--lang fr``)."""
    from simulator.report.wording import scenario_text

    return scenario_text(scenario)[0]


__all__ = [
    "method_of",
    "run",
    "run_compare",
    "run_study",
    "run_sweep",
]
