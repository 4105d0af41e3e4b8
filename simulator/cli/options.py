"""What the study commands share: their options, Ctrl-C handling and output helpers.

Used by the commands that run studies: ``run``, ``study``, ``sweep``, ``compare``, ``balance``
and ``sensitivity``; they take their method from one set of options (:func:`method_options`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from functools import partial, wraps
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from simulator import startup
from simulator.cli.words import NUMBER, WHOLE, WordedOption
from simulator.errors import N_, Phrase, phrase
from simulator.runner.backends import BACKENDS, BackendName

if TYPE_CHECKING:
    from simulator.studies.method import Exact, Method

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "interruptible", "stop_interrupted"]

from simulator.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    Terminated,
    nothing_to_resume,
    results_into,
    stop_interrupted,
)

DEFAULT_RESULTS = Path("results")
"""The project's results: ``make run`` writes its main study there (``study --out results``)."""

RUNS = DEFAULT_RESULTS / "runs"
"""Where ``run``, ``sweep``, ``compare`` and ``study`` write when no ``--out`` is given (kept
out of git)."""


def stem_of(path: str) -> str:
    """A scenario file's stem, for a default output folder (``"scenario"`` when it has none).

    Leading dots are dropped: the stem of ``...toml`` is ``..``, and ``results/runs/..`` is
    the main study's folder itself (a hidden ``.x`` would hide the results).
    """
    from simulator.errors import shown_path

    return shown_path(Path(path).stem).lstrip(".") or "scenario"


METHOD_OPTIONS = (
    *("trials", "seed", "solve", "eps", "max_states", "time_budget"),
    *("workers", "backend", "scheduler", "quiet", "chunk_size"),
)
"""The options that say how a study estimates: they reach a command as one ``how``."""


def method_options(
    trials: int = 10_000,
    trials_help: str = N_("Trials to run"),
    seed_help: str = N_("The study's seed"),
    *,
    chunks: bool = True,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options of the method, shared by every study command, as one argument ``how``.

    ``--trials``, ``--seed`` (and ``--chunk-size`` with ``chunks``), ``--workers``,
    ``--backend``, ``--scheduler``, ``--quiet`` (Monte Carlo), or ``--exact``, ``--eps``,
    ``--max-states``: the command gets ``how()``, which checks them and returns the method
    (called inside the command, so that a mistake is a user error). Given checks of the
    command's other arguments (``how(lambda: load(scenario, overrides))``), it tells their
    mistakes too when it refuses the options: every mistake of the command line at once.

    Args:
        trials: Monte Carlo's trials when ``--trials`` is not given.
        trials_help: What the trials are, for ``--help`` (a template marked with ``N_``).
        seed_help: What the seed is, for ``--help`` (a template marked with ``N_``).
        chunks: Offer ``--chunk-size``.
    """

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            settings = {name: kwargs.pop(name, None) for name in METHOD_OPTIONS}
            how = partial(checked_method, partial(method_for, default_trials=trials, **settings))
            with nothing_to_resume(bool(settings.get("solve"))):
                return command(*args, how=how, **kwargs)

        options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
            click.option(
                "--trials",
                type=WHOLE,
                cls=WordedOption,
                help=phrase("{what} (default {n}).", what=Phrase(trials_help), n=trials),
            ),
            click.option(
                "--seed",
                type=WHOLE,
                cls=WordedOption,
                help=phrase("{what} (default {n}).", what=Phrase(seed_help), n=0),
            ),
            click.option(
                "--exact",
                "solve",
                is_flag=True,
                help="Compute the probabilities exactly instead of sampling trials (no seed).",
            ),
            *exact_options(),
            *(
                [
                    click.option(
                        "--chunk-size", type=WHOLE, help="Trials per chunk (default: automatic)."
                    )
                ]
                if chunks
                else []
            ),
            click.option(
                "--workers",
                type=WHOLE,
                help="Workers: threads for the kernel, else processes (default: all cores).",
            ),
            click.option(
                "--backend",
                type=click.Choice(BACKENDS, case_sensitive=False),
                default="local",
                show_default=True,
                help="Where trials run: local processes, or a Dask cluster.",
            ),
            click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler (--backend dask)."),
            click.option("--quiet", is_flag=True, help="No progress bar."),
        ]
        func = wrapper
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def exact_options() -> list[Callable[[Callable[..., Any]], Callable[..., Any]]]:
    """``--eps``, ``--max-states`` and ``--time-budget``: the exact computation's limits.

    Their defaults are applied by :func:`exact_method`, so that a command can tell whether
    they were given (and refuse them without ``--exact``).
    """
    from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES
    from simulator.studies.method import DEFAULT_TIME_BUDGET

    return [
        click.option(
            "--eps",
            type=NUMBER,
            cls=WordedOption,
            help=phrase(
                "{what} (default {n}).",
                what=Phrase(
                    N_("--exact: states below this probability are dropped, their mass reported")
                ),
                n=DEFAULT_EPS,
            ),
        ),
        click.option(
            "--max-states",
            type=WHOLE,
            cls=WordedOption,
            help=phrase(
                "{what} (default {n}).",
                what=Phrase(N_("--exact: give up past this many states, and say so")),
                n=DEFAULT_MAX_STATES,
            ),
        ),
        click.option(
            "--time-budget",
            type=NUMBER,
            metavar="SECONDS",
            cls=WordedOption,
            help=phrase(
                "{what} (default {n}).",
                what=Phrase(N_("--exact: give up past this many CPU seconds, and say so")),
                n=int(DEFAULT_TIME_BUDGET)
                if float(DEFAULT_TIME_BUDGET).is_integer()
                else DEFAULT_TIME_BUDGET,
            ),
        ),
    ]


def exact_limits(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add :func:`exact_options` to a command."""
    for option in reversed(exact_options()):
        func = option(func)
    return func


def exact_method(
    solve: bool, eps: float | None, max_states: int | None, time_budget: float | None
) -> Exact | None:
    """The exact method of ``--eps``, ``--max-states``, ``--time-budget`` (None: not exact).

    Raises:
        UserError: For each of them given without ``--exact`` (Monte Carlo has no such
            limit), one ``error:`` line each.
    """
    from simulator.errors import UserError, phrase, raise_all
    from simulator.exact import DEFAULT_EPS, DEFAULT_MAX_STATES
    from simulator.studies.method import DEFAULT_TIME_BUDGET, Exact

    given = (("--eps", eps), ("--max-states", max_states), ("--time-budget", time_budget))
    if not solve:
        raise_all(
            [
                UserError(
                    phrase(
                        "{flag}: given without --exact; expected it only with --exact (it "
                        "limits the exact computation; Monte Carlo has no such limit)",
                        flag=flag,
                    )
                )
                for flag, value in given
                if value is not None
            ]
        )
        return None
    return Exact(
        DEFAULT_EPS if eps is None else eps,
        DEFAULT_MAX_STATES if max_states is None else max_states,
        DEFAULT_TIME_BUDGET if time_budget is None else time_budget,
    )


def method_for(
    *,
    default_trials: int,
    solve: bool | None,
    eps: float | None,
    max_states: int | None,
    time_budget: float | None,
    trials: int | None,
    seed: int | None,
    workers: int | None,
    backend: BackendName,
    scheduler: str | None,
    quiet: bool | None,
    chunk_size: int | None,
) -> Method:
    """The method of the options (exact, or Monte Carlo), checked before anything runs.

    Every mistake among the options is told at once, one ``error:`` line each: a flag that
    does not go with the method and a bad value of another are both said.

    Raises:
        UserError: For ``--trials``, ``--seed`` or ``--chunk-size`` with ``--exact`` (an exact
            answer has none), a limit of ``--exact`` without it, or bad settings.
    """
    from simulator.errors import UserError, every_mistake, phrase, raise_all
    from simulator.studies.method import MonteCarlo

    if not solve:
        method = MonteCarlo(
            default_trials if trials is None else trials,
            0 if seed is None else seed,
            workers,
            backend,
            scheduler,
            chunk_size,
            progress_wanted(bool(quiet)),
        )
        every_mistake(lambda: exact_method(False, eps, max_states, time_budget), method.check)
        return method
    exact = exact_method(True, eps, max_states, time_budget)
    assert exact is not None  # --exact given: the exact method
    given = (("--trials", trials), ("--seed", seed), ("--chunk-size", chunk_size))
    found = [  # every flag an exact answer has no use for, one error line each
        UserError(
            phrase(
                "{flag}: given with --exact; expected one or the other (an exact "
                "answer has no trials and no seed)",
                flag=flag,
            )
        )
        for flag, value in given
        if value is not None
    ]
    elsewhere = (("--backend", backend != "local"), ("--scheduler", scheduler is not None))
    found += [
        UserError(
            phrase(
                "{flag}: given with --exact; expected one or the other (an exact "
                "answer is computed on this machine, not on a cluster)",
                flag=flag,
            )
        )
        for flag, given_too in elsewhere
        if given_too
    ]
    every_mistake(lambda: raise_all(found), exact.check)
    return exact


def checked_method(method: Callable[[], Method], *also: Callable[[], object]) -> Method:
    """The method of the options; refused, the mistakes of the checks ``also`` come with it.

    A command line with a bad ``--trials`` and a bad ``--set`` is told both, one ``error:``
    line each, not the first alone. The checks run only when the options are refused: a
    command that goes on does its own checks (loading its scenario) once, as before.

    Args:
        method: :func:`method_for` with the command's options.
        *also: Checks of the command's other arguments, each raising a
            :class:`~simulator.errors.UserError` for a mistake.

    Raises:
        UserError: Every mistake of the options, then of ``also``.
    """
    from simulator.errors import UserError, every_mistake

    try:
        return method()
    except UserError as exc:
        refused = exc

    def options() -> None:
        raise refused

    every_mistake(options, *also)
    raise refused  # not reached: every_mistake raised, the options' mistake at least


def method_suffix(method: Method) -> str:
    """What a default output folder adds for the method: ``-exact``, or nothing."""
    return "-exact" if method.method == "exact" else ""


@contextlib.contextmanager
def evaluating(
    how: Callable[[], Method],
    out: Path | None,
    default: str,
    show: Callable[[Any], None],
    as_json: bool,
    no_figures: bool,
) -> Iterator[tuple[Path, Method, Callable[[Any], None]]]:
    """The output folder, the method and the answer's callback of ``balance`` and ``sensitivity``.

    The method is chosen first: the default folder's name ends with its suffix (an exact
    answer beside a sampled one, as run's). Until an evaluation is kept in the folder, a
    Ctrl-C says that nothing is kept to resume from (the study calls ``now_resumable``).

    Args:
        how: The method the options chose.
        out: ``--out``, None for the default folder.
        default: The default folder's name in ``results/runs/``, before the suffix.
        show: Prints the answer, as soon as it is known, before the figure.
        as_json: ``--json``.
        no_figures: ``--no-figures``.
    """
    chosen = how()
    folder = out or RUNS / f"{default}{method_suffix(chosen)}"
    with (
        results_into(folder, not no_figures, not as_json, show=show) as answer,
        chosen as evaluate,
        nothing_to_resume(True),
    ):
        yield folder, evaluate, answer


def folder_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """Callback of ``--out``: a path; the empty name is kept as it is (never ``.``).

    The output folders' rule (:func:`simulator.runner.outdir.claim`) refuses it, with the
    other paths it refuses, as one ``error:`` line.
    """
    if value is None:
        return None
    if value == "":
        return value  # type: ignore[return-value]  # Path("") would be "."
    return Path(value)


lang_option = click.option(
    "--lang",
    type=click.Choice(["en", "fr"], case_sensitive=False),
    help="Language of labels, titles, printed tables and numbers (fr: 97,7 %; default: en).",
)
"""``--lang``: the language of everything a command prints or draws."""


set_option = click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override one scenario key, dotted (first_aid.level=3); repeatable.",
)
"""``--set``: the overrides of a command of one scenario (``run``, ``validate``)."""


def speaks(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--lang`` to a command: its body runs in that language (figures, tables, numbers)."""

    @wraps(func)
    def wrapper(*args: Any, lang: str | None = None, **kwargs: Any) -> Any:
        from simulator.report.i18n import language

        with language(lang):
            return func(*args, **kwargs)

    return lang_option(wrapper)


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options of run, sweep and compare: out, json, no figures, lang."""
    func = speaks(func)
    options = [
        click.option("--out", type=click.Path(), callback=folder_path, help="Output directory."),
        click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout."),
        click.option("--no-figures", is_flag=True, help="Do not draw the figures."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: :class:`Terminated` where it can unwind the command, as Ctrl-C is raised.

    Raised at any line, it was lost or hung the command where Ctrl-C is put off
    (:func:`simulator.startup.interrupt`): inside the import system (a module lock's weakref
    callback drops the exception with the global import lock still held, and the command
    then waits on it forever, the figures' preloading thread on the other side) or a
    ``__del__`` (dropped: the command went on to exit 0). There, it is tried again a few
    milliseconds later, as Ctrl-C is. Outside the command line's process (a command run by a
    test runner or a notebook, which may run it from code of a string: every frame would look
    unsafe), it is raised at once, as before.
    """
    if not startup._command:
        raise Terminated
    try:
        startup.interrupt(signum, frame)
    except KeyboardInterrupt:
        raise Terminated from None


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """For the duration of the block, SIGTERM raises :class:`Terminated` (a KeyboardInterrupt).

    The previous handler is restored afterwards. Only the main thread can set handlers;
    elsewhere the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def interruptible(func: Callable[..., Any]) -> Callable[..., Any]:
    """Ctrl-C or SIGTERM: stop cleanly, say the command resumes, exit without a traceback.

    Both stop the workers and keep what is done (finished chunks, files written whole); the
    exit status is 130 after Ctrl-C and 143 after SIGTERM, as shells report them.
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with sigterm_as_interrupt():
                return func(*args, **kwargs)
        except KeyboardInterrupt as exc:
            stop_interrupted(isinstance(exc, Terminated))

    return wrapper


def progress_wanted(quiet: bool) -> bool:
    """Whether to draw the progress bar: not with ``--quiet``, and only on a terminal."""
    from simulator.runner.plan import wanted

    return wanted(quiet)


def interval_text(pair: list[float]) -> str:
    """A ``[low, high]`` share interval as ``"12.3%–15.0%"`` (in the language in force)."""
    from simulator.report.i18n import percent_text

    return f"{percent_text(pair[0])}–{percent_text(pair[1])}"
