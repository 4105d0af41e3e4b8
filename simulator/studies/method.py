"""How a study estimates: :class:`MonteCarlo` (sampled trials) or :class:`Exact` (computed).

Every kind of study (:func:`~simulator.studies.api.run_study`, ``run_sweep``, ``run_compare``,
``run_directory``, ``balance``, ``sensitivity``) takes one of these and returns the same
result types whichever it is: a method turns scenarios into estimates
(:class:`~simulator.studies.sampled.Sampled` or :class:`~simulator.studies.solved.Solved`).
Monte Carlo runs every scenario on the same seeds (trial ``i`` draws the same random stream
everywhere, so differences between scenarios come from the scenarios, not from luck), through
:mod:`simulator.runner`: chunks, a backend, a resumable plan. Both are also *evaluators*
(:class:`~simulator.studies.statistic.Evaluator`): they give one statistic of many scenarios.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from simulator.errors import UserError, note, phrase
from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES
from simulator.spelling import spelling
from simulator.studies.stats import wilson

if TYPE_CHECKING:
    from simulator.runner import Backend, BackendName, ChunkJob, Plan
    from simulator.runner.compact import Chunk
    from simulator.scenario.model import Scenario
    from simulator.studies.sampled import Sampled
    from simulator.studies.solved import Solved
    from simulator.studies.statistic import Evaluation, Statistic


class _KeptOpen:
    """A backend that survives :func:`execute` closing it, so that workers start once."""

    def __init__(self, backend: Backend):
        self.backend = backend

    @property
    def workers(self) -> int | None:
        """The kept backend's workers (what encodes ``trials.parquet`` on as many threads)."""
        found: int | None = getattr(self.backend, "workers", None)
        return found

    def map_chunks(self, jobs: Sequence[ChunkJob]) -> Iterator[tuple[ChunkJob, Chunk]]:
        """Run the jobs on the kept backend."""
        return self.backend.map_chunks(jobs)

    def close(self) -> None:
        """Kept open: :meth:`MonteCarlo.close` closes it."""


@dataclass
class Sampling:
    """The plans of a Monte Carlo run: what it will simulate, and where it keeps chunks."""

    method: MonteCarlo
    plans: list[Plan]

    def identity(self, names: Sequence[str]) -> str | None:
        """What determines the results saved as ``names`` (the output folder resumes it)."""
        from simulator.runner import result_key

        return result_key(self.plans, names)

    def runs(self) -> list[str]:
        """The run keys of these plans' chunks: an earlier result replaced leaves them.

        Another ``--trials`` of the same scenarios and seed is another result, but the
        trials both share are the same numbers: their finished chunks are resumed.
        """
        from simulator.runner import run_keys

        return run_keys(self.plans)

    def __add__(self, other: Sampling) -> Sampling:
        return Sampling(self.method, [*self.plans, *other.plans])

    def split(self) -> list[Sampling]:
        """One part per plan (chunked as together: the chunk size stays the one of all)."""
        return [Sampling(self.method, [plan]) for plan in self.plans]

    def place(self, folder: Path | None) -> None:
        """Keep the partial chunks of these plans in ``folder`` (None: nowhere)."""
        for plan in self.plans:
            plan.out = folder

    def run(self, folder: Path | None) -> list[Sampled]:
        """Run every plan's chunks together (partials kept in ``folder``); one per plan."""
        from simulator.runner import execute
        from simulator.studies.sampled import Sampled

        if folder is not None:
            self.place(folder)
        for i, plan in enumerate(self.plans):  # parts prepared apart: each its own label
            plan.label = str(i)
        was_open = self.method._backend is not None
        try:
            found = execute(self.plans, self.method.backend_kept(), self.method.progress, False)
        finally:
            if not was_open:
                self.method.close()
        return [Sampled(trials, plan.seed) for trials, plan in zip(found, self.plans, strict=True)]

    def done(self, keep: bool = True) -> None:
        """Remove the finished chunks (only once the results are saved).

        Args:
            keep: Whether the trials stay readable afterwards (see
                :func:`~simulator.runner.discard_partials`).
        """
        from simulator.runner import discard_partials

        discard_partials(self.plans, keep)


@dataclass
class Solving:
    """The scenarios an exact run computes."""

    method: Exact
    scenarios: list[Scenario]

    def identity(self, names: Sequence[str]) -> str | None:
        """What determines the answers saved as ``names``: the scenarios and the limits.

        Nothing is resumed (an exact answer is computed whole), but an earlier exact answer
        of another scenario in the folder is then told as replaced, as a run's would be.
        """
        import dataclasses
        import hashlib

        contents = [repr(dataclasses.replace(s, source="")) for s in self.scenarios]
        limits = f"exact {self.method.eps!r} {self.method.max_states!r}"
        text = "\n".join([*contents, limits, "", *sorted(names)])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def runs(self) -> list[str]:
        """No chunks: an exact answer is computed whole."""
        return []

    def __add__(self, other: Solving) -> Solving:
        return Solving(self.method, [*self.scenarios, *other.scenarios])

    def split(self) -> list[Solving]:
        """One part per scenario."""
        return [Solving(self.method, [scenario]) for scenario in self.scenarios]

    def place(self, folder: Path | None) -> None:
        """Nothing to keep: an exact answer is computed whole."""
        del folder

    def run(self, folder: Path | None) -> list[Solved]:
        """Compute every answer, in order."""
        del folder
        found = []
        for index, scenario in enumerate(self.scenarios):
            try:
                found.append(self.method.solve(scenario))
            except UserError as exc:  # which scenario of the batch: its caller can name it
                exc.index = index  # type: ignore[attr-defined]
                raise
        return found

    def done(self, keep: bool = True) -> None:
        """Nothing to remove."""
        del keep


@dataclass
class MonteCarlo:
    """Sample: ``trials`` trials of each scenario, all on ``seed``.

    Used as a context manager (or with :meth:`close`) across evaluations, its worker
    processes start at the first and serve every later one.

    Attributes:
        trials: Trials per scenario.
        seed: The seed of every scenario; trial ``i`` draws from
            ``SeedSequence(seed, spawn_key=(i,))``.
        workers: Local workers: threads for the compiled kernel, else processes (None: all
            cores; 1: in this process).
        backend: ``"local"`` or ``"dask"``.
        scheduler: The Dask scheduler's address (dask only).
        chunk_size: Trials per chunk (None: up to 2,000, at least 4 chunks per worker).
        progress: Draw a progress bar: on stderr, or a widget in Jupyter (with ipywidgets).
    """

    trials: int = 10_000
    seed: int = 0
    workers: int | None = None
    backend: BackendName = "local"
    scheduler: str | None = None
    chunk_size: int | None = None
    progress: bool = False
    method: Literal["monte-carlo"] = field(default="monte-carlo", init=False)
    _backend: Backend | None = field(default=None, init=False, repr=False)
    runs: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        for name in ("trials", "seed", "workers", "chunk_size"):
            value = getattr(self, name)
            if isinstance(value, np.integer):  # np.int64, as a notebook's numpy gives them
                setattr(self, name, int(value))

    def check(self) -> None:
        """Check the settings before anything runs.

        Raises:
            UserError: For bad trials, seed, workers or backend.
        """
        from simulator.errors import every_mistake
        from simulator.runner import check_backend, check_chunk_size, check_trials_and_seed

        def chunks() -> None:
            if self.chunk_size is not None:
                check_chunk_size(self.chunk_size)

        every_mistake(  # every bad setting at once, one error: line each
            lambda: check_trials_and_seed(self.trials, self.seed),
            chunks,
            lambda: check_backend(self.backend, self.workers, self.scheduler),
        )

    def share(self, share: int) -> MonteCarlo:
        """The same sampling with the trials divided by ``share`` (at least 10)."""
        return dataclasses.replace(self, trials=max(10, self.trials // share))

    def prepare(self, scenarios: Sequence[Scenario]) -> Sampling:
        """The plans of these scenarios (checked: trials, seed, chunk size, backend).

        Raises:
            UserError: For a bad setting.
        """
        from simulator.runner import check_backend, make_plans
        from simulator.scenario.late import tell_late

        tell_late(scenarios)
        plans = make_plans(
            scenarios,
            trials=self.trials,
            seed=self.seed,
            workers=self.workers,
            chunk_size=self.chunk_size,
            out=None,
            backend=self.backend,
        )
        check_backend(self.backend, self.workers, self.scheduler)
        return Sampling(self, plans)

    def backend_kept(self) -> _KeptOpen:
        """The backend, started once and kept open until :meth:`close`."""
        from simulator.runner import get_backend

        if self._backend is None:
            self._backend = get_backend(self.backend, self.workers, self.scheduler)
        return _KeptOpen(self._backend)

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, from the same seeds."""
        from simulator.runner import execute
        from simulator.studies.statistic import Evaluation

        if not scenarios:
            return []
        found = execute(self.prepare(scenarios).plans, self.backend_kept(), self.progress)
        self.runs += len(scenarios)
        result = []
        for trials in found:  # chunk by chunk, from the compact columns: no frame built
            parts = [stat.indicators_of(columns) for _, columns in trials.chunks()]
            hits = np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
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


def check_exact_arguments(eps: object, max_states: object) -> None:
    """Refuse an ``--eps`` outside (0, 1) or a ``--max-states`` below 1.

    Both are checked: two bad values are two mistakes, told together, each named as the
    caller spells it (``--eps``, ``Exact(eps=...)``: :mod:`simulator.spelling`).

    Raises:
        UserError: Naming the option, the value and what was expected (a
            :class:`~simulator.errors.CombinedUserError` for both).
    """
    from simulator.errors import raise_all

    said = spelling()
    found = []
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not (0 < eps < 1):
        found.append(
            UserError(
                phrase(
                    "{flag}: got {value}; expected a probability between 0 and 1",
                    flag=said.option("eps"),
                    value=repr(eps),
                )
            )
        )
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        found.append(
            UserError(
                phrase(
                    "{flag}: got {value}; expected a positive whole number",
                    flag=said.option("max_states"),
                    value=repr(max_states),
                )
            )
        )
    raise_all(found)


DEFAULT_TIME_BUDGET = 8.0
"""CPU seconds of computation after which :class:`Exact` gives up (``--time-budget``).

The state budget (``max_states``) bounds memory and is the same on every machine; this one
makes a scenario the exact engine cannot carry (``careless_watches``: millions of states
within a fifth of its horizon) a refusal, saying how far it got, within about 10 s of the
command's start, while every other scenario of ``scenarios/`` is answered in a few seconds.
It counts the CPU seconds of the thread computing, so that a busy machine answers what an
idle one does, and another thread's work (another request of the workbench's server) never
counts against it.
"""


LOST_TOO_MUCH = 1e-3
"""A dropped mass above this is said (a note): the shares may be that much higher."""


def _plain_number(value: Any, kind: type) -> Any:
    """A numpy number as the Python ``kind`` it holds (``np.int64(3)`` is 3); else as given."""
    whole = kind is int
    if isinstance(value, bool | int | float) or not isinstance(
        value, numbers.Integral if whole else numbers.Real
    ):
        return value
    return int(value) if whole else float(value)  # type: ignore[call-overload]


@dataclass
class Exact:
    """Compute exactly (:mod:`simulator.exact`): no trials, no seed.

    The interval of each share is ``[p, p + dropped]`` clipped to [0, 1] (CONTRACT.md), the
    probability dropped with the states below ``eps``.

    Attributes:
        eps: States whose probability falls below this are dropped (their mass reported).
        max_states: Give up (a user error) past this many states.
        time_budget: Give up (a user error, saying how far it got) past this many seconds of
            computation (:data:`DEFAULT_TIME_BUDGET`; None: no limit): the scenario is then
            for Monte Carlo.
    """

    eps: float = DEFAULT_EPS
    max_states: int = DEFAULT_MAX_STATES
    time_budget: float | None = DEFAULT_TIME_BUDGET
    method: Literal["exact"] = field(default="exact", init=False)
    runs: int = field(default=0, init=False)

    def check(self) -> None:
        """Check ``eps``, ``max_states`` and ``time_budget`` before anything runs.

        A numpy number is taken as the Python number it holds.

        Raises:
            UserError: For values out of range, every one of them (one ``error:`` line each).
        """
        from simulator.errors import every_mistake

        self.eps = _plain_number(self.eps, float)
        self.max_states = _plain_number(self.max_states, int)
        if self.time_budget is not None:
            self.time_budget = _plain_number(self.time_budget, float)

        def budget() -> None:
            given = self.time_budget
            if given is not None and (
                isinstance(given, bool) or not isinstance(given, int | float) or not given > 0
            ):
                raise UserError(
                    phrase(
                        "{flag}: got {value}; expected a positive number of seconds",
                        flag=spelling().option("time_budget"),
                        value=repr(given),
                    )
                )

        every_mistake(lambda: check_exact_arguments(self.eps, self.max_states), budget)

    def share(self, share: int) -> Exact:
        """Itself: an exact answer has no trials to divide."""
        del share
        return self

    def prepare(self, scenarios: Sequence[Scenario]) -> Solving:
        """The scenarios to compute."""
        from simulator.scenario.late import tell_late

        tell_late(scenarios)
        return Solving(self, list(scenarios))

    def solve(self, scenario: Scenario) -> Solved:
        """The exact answer of one scenario.

        Raises:
            UserError: Past ``max_states`` states or the time budget.
        """
        from simulator.exact import solve
        from simulator.studies.solved import Solved

        answer = solve(
            scenario, eps=self.eps, max_states=self.max_states, max_seconds=self.time_budget
        )
        self.runs += 1
        if answer.dropped > LOST_TOO_MUCH:  # --eps 0.5: an "exact" answer of almost nothing
            note(
                phrase(
                    "{name}: the exact answer dropped {mass} of the probability (states "
                    "below {eps}): each share may be that much higher; lower {flag}",
                    name=scenario.name,
                    mass=f"{answer.dropped:.2g}",
                    eps=spelling().setting("eps", f"{self.eps:g}"),
                    flag=spelling().option("eps"),
                )
            )
        return Solved(answer)

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario, exactly."""
        from simulator.studies.statistic import Evaluation

        found = []
        for index, scenario in enumerate(scenarios):
            try:
                solved = self.solve(scenario)
            except UserError as exc:  # which scenario of the batch: its caller can name it
                exc.index = index  # type: ignore[attr-defined]
                raise
            p = solved.stat(stat.text, scenario.horizon)
            found.append(Evaluation(p, (p, min(1.0, p + solved.dropped_mass))))
        return found

    def close(self) -> None:
        """Nothing to stop."""

    def __enter__(self) -> Exact:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Method = MonteCarlo | Exact
"""How a study estimates."""


def check_method(method: object) -> None:
    """A study's method is one: ``MonteCarlo(...)`` or ``Exact()``, not a class nor a name.

    Raises:
        UserError: Saying what was given and what is expected.
    """
    if isinstance(method, type) or not isinstance(getattr(method, "method", None), str):
        raise UserError(
            phrase(
                "method: got {value}; expected MonteCarlo(trials=..., seed=...) or Exact()",
                value=method.__name__ if isinstance(method, type) else repr(method),
            )
        )


EXACT_FIRST_STATES = 6_000
""":class:`ExactFirst`'s budget, in states carried: about a second on one core here.

A count, not a clock, so that the same table gets the same method on every machine and under
any load (a test, a screenshot and the command line agree on which answer it is)."""


@lru_cache(maxsize=64)
def _within(scenario: Scenario, max_states: int) -> Solved | None:
    try:
        return Exact(max_states=max_states, time_budget=None).solve(scenario)
    except UserError:  # over the budget, or a setting the exact engine cannot compute
        return None


@dataclass(frozen=True)
class ExactFirst:
    """Choose the method per scenario: exact when it answers within a budget, else sampled.

    The workbench's policy (``harmonies-sim serve``): a small table is answered exactly at
    once; a larger one is sampled with :attr:`sampled`'s trials and seed. The exact answers
    are remembered (undoing an edit does not compute the same table again).

    Attributes:
        sampled: The Monte Carlo method for the scenarios over the budget.
        max_states: The exact engine's budget, in states carried.
    """

    sampled: MonteCarlo = field(default_factory=MonteCarlo)
    max_states: int = EXACT_FIRST_STATES

    def answer(self, scenario: Scenario) -> Solved | None:
        """The exact answer of ``scenario`` within the budget, or None."""
        return _within(scenario, self.max_states)

    def choose(self, scenario: Scenario) -> Method:
        """The method for ``scenario``: :class:`Exact` within the budget, else :attr:`sampled`."""
        if self.answer(scenario) is None:
            return self.sampled
        return Exact(max_states=self.max_states, time_budget=None)


def method_of(method: Method | None, sampling: Mapping[str, Any]) -> Method:
    """The method: as given, or Monte Carlo with the given settings (``trials=``, ``seed=``...).

    Raises:
        UserError: For both a method and Monte Carlo settings.
        TypeError: For a keyword that is no setting of Monte Carlo (as Python says of any
            unexpected keyword argument: the study's own, misspelt).
    """
    settings = {f.name for f in dataclasses.fields(MonteCarlo) if f.init}
    unknown = sorted(set(sampling) - settings)
    if unknown:  # a misspelt argument of the study (key= for keys=), not a setting
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    if method is not None:
        check_method(method)
        if sampling:
            raise UserError(
                phrase(
                    "got a method and {settings}; expected the settings inside the method "
                    "(MonteCarlo(trials=..., seed=...))",
                    settings=", ".join(sorted(sampling)),
                )
            )
        return method
    try:
        return MonteCarlo(**sampling)
    except TypeError as exc:
        raise UserError(phrase("{error}; expected MonteCarlo's settings", error=exc)) from None


def either_method(
    evaluator: object, method: object, sampling: Mapping[str, Any], name: str = "evaluator"
) -> Method:
    """The method of a study that takes it positionally (``name``) or as ``method=``.

    Raises:
        UserError: For both, or what :func:`method_of` refuses.
    """
    if evaluator is not None and method is not None:
        raise UserError(
            phrase(
                "got {name} and method; expected the method once (MonteCarlo(...) or Exact())",
                name=name,
            )
        )
    return method_of(evaluator if evaluator is not None else method, sampling)  # type: ignore[arg-type]


__all__ = [
    "DEFAULT_TIME_BUDGET",
    "EXACT_FIRST_STATES",
    "Exact",
    "ExactFirst",
    "Method",
    "MonteCarlo",
    "check_exact_arguments",
    "either_method",
    "method_of",
]
