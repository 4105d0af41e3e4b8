"""Chunks of trials on a backend: how a study is cut, run, saved as it goes and assembled.

Trial ``i`` of a study seeded ``s`` draws from ``SeedSequence(s, spawn_key=(i,))`` and
nothing else, so the ``trials`` frame is the same whatever the number of workers, the
backend or the chunk size. With an output directory, every finished chunk is written at
once to ``<out>/.partial/<run key>/chunk-<start>-<stop>.arrow``; the run key hashes the
scenario's content and the seed, so the same command started again after a crash or Ctrl-C
(or with another ``--trials``) skips the chunks already done and ends with exactly the frame
of an uninterrupted run. The partial directory is removed at the end: by
:func:`execute`, or, with ``discard=False``, by the caller once the results are saved, so
that a run killed while saving them can be resumed too.

The saving and resuming of chunks is :class:`~simulator.runner.plan.Plan`'s; this module
runs plans on a backend (:func:`execute`). The Python API over it is
:mod:`simulator.studies.api`.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.errors import N_, Phrase, UserError, every_mistake, note, phrase
from simulator.runner.backends import BACKENDS, Backend, BackendName
from simulator.runner.plan import Plan, Progress, run_key, trials_key
from simulator.spelling import spelling

if TYPE_CHECKING:
    from simulator.runner.compact import TrialSet
    from simulator.scenario.model import Scenario

MAX_CHUNK = 20_000
"""The largest default chunk, in trials (about half a second of the compiled kernel: each chunk
is also a file saved for resuming, and 2,000 made the saving cost as much as the trials)."""

DASK_MAX_CHUNK = 100_000
"""The largest default chunk on ``--backend dask``: each chunk is a task, whose scheduling and
transfer cost the client more than a thread's chunk costs the local backend (a 6-million-
trial run on a local cluster of 2 took 38 s in chunks of 20,000, 32 s in chunks of 100,000);
about half a second of the kernel, and a few megabytes of columns."""

CHUNKS_PER_WORKER = 4
"""Default chunking aims at least this many chunks per worker, for balance."""

MAX_TRIALS = 1_000_000_000
"""The most trials of one study (``--trials``, and so ``--chunk-size``)."""

MAX_CHUNKS = 1_000_000
"""The most chunks of one study (a smaller ``--chunk-size`` makes more)."""

MAX_WORKERS = 512
"""The most worker processes (``--workers``)."""

MAX_SEED = 2**63 - 1
"""The largest seed: the ``seed`` column of the trials frame is a 64-bit integer."""


# --- checks and settings -----------------------------------------------------------------


def check_count(
    value: object,
    name: str,
    option: str,
    minimum: int = 1,
    maximum: int | None = None,
    why: str = "",
) -> int:
    """Check a user-given count (trials, workers, chunk size, seed).

    Args:
        value: What the user gave.
        name: What it counts, in words (``"the number of trials"``).
        option: The option that gives it, by its Python name (``"trials"``): messages
            spell it as the caller does (``--trials``, ``MonteCarlo(trials=...)``).
        minimum: The smallest value allowed.
        maximum: The largest value allowed (None: no bound).
        why: Why there is a maximum, in words, added to the message.

    Returns:
        ``value``.

    Raises:
        UserError: Naming the option and the value when it is not an integer from ``minimum``
            to ``maximum``.
    """
    integer = value if isinstance(value, int) and not isinstance(value, bool) else None
    too_big = integer is not None and maximum is not None and integer > maximum
    if integer is None or integer < minimum or too_big:
        if maximum is None:
            expected = phrase("an integer >= {minimum}", minimum=minimum)
        else:
            expected = phrase(
                "an integer from {minimum} to {maximum}", minimum=minimum, maximum=maximum
            )
        reason = phrase(" ({why})", why=Phrase(why)) if too_big and why else ""
        raise UserError(
            phrase(
                "{flag}: got {value}; expected {name}, {expected}{reason}",
                flag=spelling().option(option),
                value=repr(value),
                name=Phrase(name),
                expected=expected,
                reason=reason,
            )
        )
    return integer


def check_backend(name: str, workers: int | None, scheduler: str | None) -> None:
    """Check the backend settings without starting anything.

    Raises:
        UserError: For an unknown backend, a bad number of workers, or a scheduler address
            without ``--backend dask``.
    """
    said = spelling()
    if name not in BACKENDS:
        raise UserError(
            phrase(
                "{flag}: got {value}; expected 'local' or 'dask'",
                flag=said.option("backend"),
                value=repr(name),
            )
        )

    def scheduler_check() -> None:
        if scheduler is not None and name != "dask":
            raise UserError(
                phrase(
                    "{flag}: got {value}; only with {dask} "
                    "(the {name} backend runs on this machine)",
                    flag=said.option("scheduler"),
                    value=repr(scheduler),
                    dask=said.given("backend", "dask"),
                    name=name,
                )
            )

    every_mistake(
        lambda: (
            workers is None
            or check_count(
                workers,
                N_("the number of workers (threads for the kernel, else processes)"),
                "workers",
                maximum=MAX_WORKERS,
                why=N_("each is a process of its own; more than the cores only slows a run down"),
            )
        ),
        scheduler_check,
    )


def check_out_dir(out: str | os.PathLike[str]) -> Path:
    """Make the output directory (and its parents), the output folders' rule applied.

    See :func:`simulator.runner.outdir.claim` (this is it without file names).

    Raises:
        UserError: Naming ``--out``, the path and what is in the way.
    """
    from simulator.runner.outdir import claim

    return claim(out)


def get_backend(name: BackendName, workers: int | None, scheduler: str | None) -> Backend:
    """The backend called ``name``: ``local`` (processes here) or ``dask`` (a cluster).

    Args:
        name: ``"local"`` or ``"dask"``.
        workers: Local processes (None: all cores); for dask, passed on.
        scheduler: The Dask scheduler's address (dask only; None: a local cluster).

    Raises:
        UserError: For an unknown name, bad workers, a scheduler without dask, or dask
            without its extra.
    """
    check_backend(name, workers, scheduler)
    if name == "local":
        from simulator.runner.backends.local import LocalBackend

        return LocalBackend(workers=workers)
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise UserError(
            phrase("the dask backend needs the dask extra: pip install 'harmonies-simulator[dask]'")
        ) from None
    try:
        from simulator.runner.backends.dask_backend import DaskBackend
    except ImportError as exc:
        raise UserError(
            phrase(
                "{dask}: not available in this version ({reason})",
                dask=spelling().given("backend", "dask"),
                reason=exc,
            )
        ) from None
    return DaskBackend(scheduler=scheduler, workers=workers)


def default_chunk_size(trials: int, workers: int | None, backend: str = "local") -> int:
    """The default chunk size: at least ~4 chunks per worker, at most :data:`MAX_CHUNK`.

    On ``backend="dask"`` at most :data:`DASK_MAX_CHUNK`.
    """
    count = workers or os.cpu_count() or 1
    most = DASK_MAX_CHUNK if backend == "dask" else MAX_CHUNK
    return max(1, min(most, math.ceil(trials / (CHUNKS_PER_WORKER * count))))


def check_trials_and_seed(trials: object, seed: object) -> None:
    """Check ``--trials`` and ``--seed``.

    Raises:
        UserError: When either is no integer or out of range.
    """
    every_mistake(  # --trials 0 --seed -1: both said
        lambda: check_count(
            trials,
            N_("the number of trials"),
            "trials",
            maximum=MAX_TRIALS,
            why=N_(
                "a bigger count would build an enormous list of chunks and fill the memory "
                "before anything runs"
            ),
        ),
        lambda: check_count(
            seed,
            N_("a seed"),
            "seed",
            minimum=0,
            maximum=MAX_SEED,
            why=N_("the trials frame keeps the seed as a 64-bit integer: at most 2**63 - 1"),
        ),
    )


def check_chunk_size(chunk_size: object) -> None:
    """Check ``--chunk-size`` alone (a whole number of trials, at least 1).

    Raises:
        UserError: When it is no integer or out of range.
    """
    check_count(chunk_size, N_("trials per chunk"), "chunk_size", maximum=MAX_TRIALS)


def check_sizes(
    trials: int,
    seed: int,
    studies: int,
    chunk_size: int | None,
    workers: int | None,
    backend: str = "local",
) -> int:
    """Check the size of a whole run of ``studies`` studies; return its chunk size.

    The guards apply to the run as a whole (a sweep's points together), not to each study:
    at most :data:`MAX_TRIALS` trials and :data:`MAX_CHUNKS` chunks in all. Cheap: call it
    before building anything.

    Raises:
        UserError: When trials, seed or chunk size are out of range, alone or together.
    """
    check_trials_and_seed(trials, seed)
    studies = max(studies, 1)
    if trials * studies > MAX_TRIALS:  # what all the studies hold in memory together
        raise UserError(
            phrase(
                "{flag}: got {trials} for each of {studies} studies, {total} trials in all; "
                "expected at most {most} in all (every trial's row is kept in memory): fewer "
                "trials or fewer points",
                flag=spelling().option("trials"),
                trials=trials,
                studies=studies,
                total=trials * studies,
                most=MAX_TRIALS,
            )
        )
    if chunk_size is None:
        chunk_size = default_chunk_size(trials * studies, workers, backend)
    check_chunk_size(chunk_size)
    chunk_size = min(chunk_size, trials)
    chunks = math.ceil(trials / chunk_size)
    if chunks * studies > MAX_CHUNKS:
        least = math.ceil(trials * studies / MAX_CHUNKS)
        each = phrase(" for each of {studies} studies", studies=studies) if studies > 1 else ""
        raise UserError(
            phrase(
                "{flag}: got {size} for {trials} trials{each}, which makes {chunks} "
                "chunks; expected at most {most} chunks in all (a chunk size of at least "
                "{least}): the list of chunks would fill the memory before anything runs",
                flag=spelling().option("chunk_size"),
                size=chunk_size,
                trials=trials,
                each=each,
                chunks=chunks * studies,
                most=MAX_CHUNKS,
                least=least,
            )
        )
    return chunk_size


def make_plans(
    scenarios: Sequence[Scenario],
    *,
    trials: int,
    seed: int,
    workers: int | None,
    chunk_size: int | None,
    out: Path | None,
    backend: str = "local",
) -> list[Plan]:
    """One :class:`Plan` per scenario, checked and chunked alike.

    ``backend`` decides the default chunk size (:func:`default_chunk_size`).

    Raises:
        UserError: When trials, seed or chunk size are out of range.
    """
    chunk_size = check_sizes(trials, seed, len(scenarios), chunk_size, workers, backend)
    return [
        Plan(str(i), scenario, seed, trials, chunk_size, out)
        for i, scenario in enumerate(scenarios)
    ]


def result_key(plans: Sequence[Plan], names: Sequence[str]) -> str:
    """What determines the results of these plans saved as ``names``: a short hash.

    An output folder holding the result of this key is resumed by a command of the same
    key; any other result there is replaced whole (:func:`simulator.runner.outdir.claim`).
    """
    keys = [trials_key(p.scenario, p.seed, p.trials) for p in plans]  # any chunks: resumed
    text = "\n".join([*keys, "", *sorted(names)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def run_keys(plans: Sequence[Plan]) -> list[str]:
    """The run keys of these plans' chunks (what an output folder keeps for them to resume)."""
    return sorted({run_key(p.scenario, p.seed) for p in plans})


def stale_partials(plans: Sequence[Plan]) -> list[Path]:
    """The partial directories beside these plans' that belong to other runs (not resumed)."""
    ours = {plan.partial for plan in plans if plan.partial is not None}
    parents = {path.parent for path in ours}
    return sorted(d for parent in parents if parent.is_dir() for d in parent.iterdir()
                  if d.is_dir() and d not in ours)  # fmt: skip


def execute(
    plans: Sequence[Plan], backend: Backend, progress: bool = False, discard: bool = True
) -> list[TrialSet]:
    """Run every plan's missing chunks on ``backend`` at once; return each plan's trials.

    Each plan's trials come as a :class:`~simulator.runner.compact.TrialSet`: the tally of
    every chunk, merged as they arrive (what summaries and figures need), and the chunks
    in their files (or in memory, without an output directory), never one frame of all.

    Chunks of all plans go to the backend together (a sweep's points balance each other).
    Finished chunks are saved as they arrive; when everything is done the frames are
    assembled and (with ``discard``) the partial directories removed. On an exception
    (Ctrl-C included) the saved chunks stay, for the next run to resume from.

    A caller that writes result files should pass ``discard=False`` and call
    :func:`discard_partials` only once they are written: a run killed while writing them
    then resumes from its chunks (at once: every chunk is done) and writes them all again.

    Args:
        plans: The studies.
        backend: Where chunks run; closed at the end.
        progress: Whether to draw a progress bar (on stderr; a widget in Jupyter).
        discard: Whether to remove the partial directories once the frames are assembled.

    Returns:
        One :class:`~simulator.runner.compact.TrialSet` per plan, in order.
    """
    by_label = {plan.label: plan for plan in plans}
    for stale in stale_partials(plans):
        note(
            phrase(
                "{folder} holds the finished chunks of another run (another scenario or "
                "seed); they are not used here. Run that command again to resume it, or "
                "delete the folder.",
                folder=stale,
            )
        )
    try:
        done = sum(plan.resume() for plan in plans)
        jobs = [job for plan in plans for job in plan.jobs()]
        total = sum(plan.trials for plan in plans)
        if done:  # said, so that a resumed run is never taken for a fresh one
            note(
                phrase(
                    "resuming: {done} of the {total} trials are kept from an earlier run of "
                    "the same scenario and seed (the same numbers as a run in one go); only the "
                    "rest are run now",
                    done=done,
                    total=total,
                )
            )
        results = backend.map_chunks(jobs)
        try:
            with Progress(total, done, enabled=progress) as bar:
                for job, chunk in results:
                    by_label[job.key].store(job, chunk)
                    bar.advance(job.stop - job.start)
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # a generator stopped early stops its workers at once
                close()
    finally:
        backend.close()
    found = [plan.trial_set() for plan in plans]
    cores = getattr(backend, "workers", None) or os.cpu_count() or 1
    for trials in found:  # trials.parquet is encoded on as many cores as the trials ran
        trials.encoders = cores
    if discard:
        discard_partials(plans)
    return found


def discard_partials(plans: Sequence[Plan], keep: bool = True) -> None:
    """Remove the plans' partial directories (their results are saved: nothing to resume).

    Args:
        plans: The plans run.
        keep: Whether their trials stay readable (chunks read back into memory unless a
            ``trials.parquet`` holds them); False lets them go (only the tallies answer).
    """
    for plan in plans:  # two plans of one run key (compare A with A) share their files
        plan.hold(keep)
    for plan in plans:
        plan.discard(keep)
