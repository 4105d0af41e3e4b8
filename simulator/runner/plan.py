"""How far a run has got: the chunks already saved, and a progress bar.

A :class:`Plan` is one study's chunks. With an output directory, every finished chunk is
written at once (atomically) to ``<out>/.partial/<run key>/chunk-<start>-<stop>.arrow``;
the run key hashes the scenario's content and the seed (not the number of trials, the chunk
size, the workers nor the backend: every trial has its own stream), so the same command
started again after a crash or Ctrl-C, with any workers or chunks or another ``--trials``,
finds the chunks already done (those within its trials) and runs only the others (a chunk
file found damaged, which our atomic writes never leave but a full disk or another program
might, is deleted and run again). The partial directory is removed once the run is complete.

The progress bar (tqdm, on stderr) shows trials done, rate and time left; the commands show
it only when stderr is a terminal, so scripts, pipes and ``--json`` output stay clean. In
Jupyter (a study run with ``progress=True``) it is tqdm's notebook widget instead
(:func:`bar_type`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simulator import __version__
from simulator.engine.record import RECORD_FIELDS
from simulator.errors import UserError, note, phrase
from simulator.files import real_folder
from simulator.runner.chunks import ChunkJob
from simulator.runner.compact import (
    CHUNK_SUFFIX,
    RUN_METADATA,
    Chunk,
    Columns,
    TrialSet,
    read_chunk,
    read_chunk_table,
    write_chunk_file,
)
from simulator.runner.marker import CHUNK_FILE, clear_chunks, own_chunk_file, recorded_tokens
from simulator.runner.outdir import temporary_token
from simulator.runner.tally import Tally

if TYPE_CHECKING:
    import pandas as pd
    from tqdm import tqdm

    from simulator.scenario.model import Scenario

PARTIAL_DIR = ".partial"
"""The directory, inside a run's output directory, of the chunks of unfinished runs."""


def wanted(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """Whether a progress bar should show: not quiet, and the stream is a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def bar_type() -> type[tqdm[Any]]:
    """The progress bar's class for where the study runs: a widget in Jupyter, else text.

    ``tqdm.autonotebook`` chooses, once, at its first import: under a Jupyter kernel with
    ipywidgets, tqdm's notebook widget (plain tqdm's text, redrawn with carriage returns on
    stderr, reads poorly in a notebook's output); anywhere else, on a terminal above all,
    plain tqdm, the bar the commands have always drawn. A Jupyter kernel without ipywidgets
    gets the text bar, quietly: tqdm's warnings about that (and about its widget being
    experimental) are not the library's to print. ``tqdm.auto`` chooses the same way, but
    loads asyncio too.
    """
    import warnings

    from tqdm import TqdmWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TqdmWarning)
        from tqdm.autonotebook import tqdm as chosen
    return chosen


class Progress:
    """Counts trials done; a no-op when disabled.

    Args:
        total: Trials in the whole run.
        done: Trials already done (resumed from an earlier, interrupted run).
        enabled: Whether to draw the bar at all.
        label: Text in front of the bar.
    """

    def __init__(self, total: int, done: int = 0, enabled: bool = True, label: str = "trials"):
        self._bar: tqdm[Any] | None = None
        if enabled:
            self._bar = bar_type()(
                total=total,
                initial=done,
                desc=label,
                unit=" trials",
                unit_scale=True,
                file=sys.stderr,
                dynamic_ncols=True,
                smoothing=0.1,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                "[{elapsed}<{remaining}, {rate_fmt}]",
            )

    def advance(self, trials: int) -> None:
        """Record ``trials`` more trials done."""
        if self._bar is not None:
            self._bar.update(trials)

    def close(self) -> None:
        """Finish the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def run_key(scenario: Scenario, seed: int) -> str:
    """A short hash naming one run's chunks (its folder ``.partial/<run key>``).

    It covers the scenario's content (not its path), the seed, the record's fields and the
    package version; not the number of trials, the chunk size, the workers nor the backend:
    each trial has its own stream, so chunks of any size are the same trials, and a run
    resumed with other ones, or with another ``--trials``, keeps every chunk it finished
    (those past the new count wait unused, and go with the result).
    """
    content = repr(dataclasses.replace(scenario, source=""))
    text = "\n".join([content, str(seed), ",".join(RECORD_FIELDS), __version__, "chunks"])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def trials_key(scenario: Scenario, seed: int, trials: int) -> str:
    """A short hash of one study's trials: the scenario's content, the seed, the trials.

    What a result's identity is made of (:func:`~simulator.runner.execution.result_key`):
    another ``--trials`` is another result, though it resumes from the same chunks.
    """
    content = repr(dataclasses.replace(scenario, source=""))
    text = "\n".join([content, str(seed), str(trials), ",".join(RECORD_FIELDS), __version__])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


DAMAGED, OTHER_RUN = "damaged", "another run's"
"""What :func:`chunk_problem` finds wrong with a chunk file."""


def chunk_problem(path: Path, start: int, stop: int) -> str | None:
    """What keeps ``path`` from being this run's chunk of trials ``start`` to ``stop - 1``.

    None when it is one; :data:`DAMAGED` when it is not a readable chunk of those trials in
    order; :data:`OTHER_RUN` when it names another run's folder than the one it lies in
    (:data:`~simulator.runner.compact.RUN_METADATA`: moved there by hand). Chunks of
    earlier versions name none, and are kept.
    """
    try:
        if path.suffix == ".parquet":
            if pq.read_metadata(path).num_rows != stop - start:
                return DAMAGED
            table = pq.read_table(path, columns=["trial"])
        else:
            table = read_chunk_table(path)
            if table.num_rows != stop - start:
                return DAMAGED
        trials = table.column("trial").to_numpy()
    except (OSError, ValueError, KeyError, pa.ArrowException):
        return DAMAGED
    if not bool((trials == np.arange(start, stop)).all()):
        return DAMAGED
    run = (table.schema.metadata or {}).get(RUN_METADATA)
    if run is not None and run != path.parent.name.encode("utf-8"):
        return OTHER_RUN
    return None


# --- plans: one study's chunks, on disk or not ---------------------------------------------


@dataclass
class Plan:
    """One study to run: a scenario, its seed and trials, how they are chunked and saved.

    Attributes:
        label: Names the study among others run together (a sweep point's index).
        scenario: The scenario.
        seed: The study's seed.
        trials: How many trials.
        chunk_size: Trials per chunk.
        out: Where partial chunks are kept (``<out>/.partial/<run key>/``); None keeps
            them in memory only (no resuming).

    Finished chunks are merged into the plan's :class:`~simulator.runner.tally.Tally` as
    they come; their columns are kept in their chunk files when there are some (not in
    memory), else in memory as compact columns.
    """

    label: str
    scenario: Scenario
    seed: int
    trials: int
    chunk_size: int
    out: Path | None = None
    _done: dict[int, Columns | Path] = field(default_factory=dict, repr=False)
    _spans: list[tuple[int, int]] | None = field(default=None, repr=False)
    _tally: Tally = field(default_factory=Tally, repr=False)
    _set: TrialSet | None = field(default=None, repr=False)

    @property
    def partial(self) -> Path | None:
        """This run's directory of finished chunks, or None."""
        if self.out is None:
            return None
        return Path(self.out) / PARTIAL_DIR / run_key(self.scenario, self.seed)

    def ranges(self) -> list[tuple[int, int]]:
        """The ``(start, stop)`` of every chunk, in trial order.

        The chunks an earlier run finished (:meth:`resume`), whatever their size, and the
        trials between them cut every ``chunk_size``.
        """
        if self._spans is None:
            self._spans = self._cut([])
        return self._spans

    def _cut(self, kept: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``kept`` spans (apart, in order) and the gaps between them cut in chunks."""
        spans: list[tuple[int, int]] = []
        at = 0
        for start, stop in [*kept, (self.trials, self.trials)]:
            spans += [
                (a, min(a + self.chunk_size, start)) for a in range(at, start, self.chunk_size)
            ]
            if stop > start:
                spans.append((start, stop))
            at = stop
        return spans

    def resume(self) -> int:
        """Find the chunks an earlier run of the same key left; return their trials.

        Chunks of any size are kept (another ``--chunk-size``, other workers or backend), as
        long as they do not overlap one kept before; the rest is cut in ``chunk_size``.
        """
        partial = self.partial
        if partial is None or not (partial.is_dir() or partial.parent.is_symlink()):
            return 0
        self._real_folders(partial)
        recorded = recorded_tokens(self.out)
        for leftover in partial.glob(".*.tmp"):
            if own_chunk_file(leftover, recorded):  # a killed run's; never a user's
                leftover.unlink(missing_ok=True)
        found = []
        for path in partial.iterdir():
            match = CHUNK_FILE.match(path.name)
            if match and 0 <= int(match[1]) < int(match[2]) <= self.trials:
                found.append(((int(match[1]), int(match[2])), path))
        kept = [(a, b) for a, b in self.ranges() if a in self._done]
        for span, path in sorted(found, key=lambda item: (item[0][0], -item[0][1])):
            if span in kept:  # kept already (resumed before, or run here)
                continue
            if any(span[0] < b and a < span[1] for a, b in kept):
                continue  # overlaps a chunk kept: a third run's; left for the end to remove
            if path.is_symlink():
                raise UserError(
                    phrase(
                        "{path}: a link where a chunk file goes; harmonies-sim never reads or "
                        "writes through a link: expected it gone",
                        path=path,
                    )
                )
            problem = chunk_problem(path, *span) if path.is_file() else None
            if path.is_file() and problem is None:
                self._tally.add(Tally.of(read_chunk(path)))
                self._done[span[0]] = path
                kept = sorted([*kept, span])
            elif path.is_file():
                path.unlink(missing_ok=True)
                if problem == OTHER_RUN:
                    told = phrase(
                        "{path} was saved by another run (another scenario or seed), not this "
                        "one; it is deleted and its trials are run again.",
                        path=path,
                    )
                else:
                    told = phrase(
                        "{path} is damaged (not a readable chunk of trials {first} to {last}); "
                        "it is deleted and its trials are run again.",
                        path=path,
                        first=span[0],
                        last=span[1] - 1,
                    )
                note(told)
            else:  # a folder of that name: not ours to delete, and no chunk can go there
                raise UserError(
                    phrase("{path}: a folder where a chunk file goes; expected it gone", path=path)
                )
        self._spans = self._cut(kept)
        return sum(b - a for a, b in kept)

    @staticmethod
    def _real_folders(partial: Path) -> None:
        """Make ``.partial`` and this run's folder in it, real folders (never through a link)."""
        real_folder(partial.parent)
        real_folder(partial)

    def _chunk_file(self, start: int, stop: int) -> Path | None:
        partial = self.partial
        return None if partial is None else partial / f"chunk-{start}-{stop}{CHUNK_SUFFIX}"

    def jobs(self) -> list[ChunkJob]:
        """The chunks still to run; with a partial dir, each saved by whoever runs it."""
        partial = self.partial
        if partial is not None:
            self._real_folders(partial)
        token = self._token()
        return [
            ChunkJob(
                self.label, self.scenario, self.seed, a, b, self._chunk_file(a, b), token=token
            )
            for a, b in self.ranges()
            if a not in self._done
        ]

    def _token(self) -> str | None:
        """The token of the chunks' temporary files: the output folder's, when it is held."""
        return temporary_token(self.out)

    def store(self, job: ChunkJob, chunk: Chunk) -> None:
        """Merge a finished chunk's tally; keep its file, or save it (atomically) if unsaved.

        Without a partial dir its compact columns are kept in memory.
        """
        self._tally.add(chunk.tally)
        path = self._chunk_file(job.start, job.stop)
        if chunk.saved is not None and path is not None and chunk.saved == path:
            self._done[job.start] = path
            return
        assert chunk.columns is not None, "a chunk saved elsewhere than its plan's file"
        if path is not None:
            self._real_folders(path.parent)
            self._done[job.start] = write_chunk_file(chunk.columns, job.start, path, self._token())
        else:
            self._done[job.start] = chunk.columns

    def trial_set(self) -> TrialSet:
        """Every trial: the merged tally and the chunks in trial order (none held in memory)."""
        parts = [(a, self._done[a]) for a, _ in self.ranges()]
        self._set = TrialSet(self.seed, self._tally, parts)
        return self._set

    def frame(self) -> pd.DataFrame:
        """All trials as one ``trials`` frame, sorted by trial (built now, whole)."""
        return self.trial_set().frame()

    def hold(self, keep: bool = True) -> None:
        """Let the trials handed out (:meth:`trial_set`) do without the chunk files.

        They keep their chunks in memory, unless their ``trials.parquet`` is written (later
        reads come from it). Plans of the same run key share their chunk files: hold every
        one before any discards.

        Args:
            keep: False: let the chunks go instead (nothing read back; only the tally
                answers), for a result that is only summarised.
        """
        if self._set is None:
            return
        if not keep:
            self._set.release()
        elif self.partial is not None:
            self._set.keep()

    def discard(self, keep: bool = True) -> None:
        """Remove the partial directory (and ``.partial`` itself when it is empty).

        The trials handed out (:meth:`trial_set`) keep their chunks in memory first, unless
        their ``trials.parquet`` is written (later reads come from it), or unless not
        ``keep`` (see :meth:`hold`).
        """
        self.hold(keep)
        self._done.clear()
        self._spans = None
        partial = self.partial
        if partial is None:
            return
        clear_chunks(partial)  # its chunk files only (a user's file there stays), never via a link
