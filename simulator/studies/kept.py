"""Evaluations kept as they finish, so that ``balance`` and ``sensitivity`` resume.

A study that evaluates one statistic at many variants of a scenario (``balance``,
``sensitivity``) keeps each evaluation in its output folder the moment it is finished, in
:data:`KEPT` (rewritten atomically: a kill leaves the file before or after, never half of
it). Interrupted, the same command reads them back and evaluates only the others; its
answer is the one a run in one go gives, byte for byte (Monte Carlo's per-trial indicators
are kept with each share, for the paired comparisons).

Each evaluation is kept under a key (:func:`evaluation_key`) that hashes everything that
decides its number: the variant's whole content (the key and value moved included), the
statistic, the method's settings (trials and seed, or the exact engine's ``eps`` and
``max_states``) and the simulator's version. The folder itself is claimed with the identity
of the whole command (:class:`KeptFolder`): another scenario, range, target or setting
replaces the folder's result whole, its kept evaluations with it, never mixed with them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import numpy as np

from simulator.errors import ExactLimitError, Phrase, UserError, note, phrase

if TYPE_CHECKING:
    import pandas as pd

    from simulator.scenario.model import Scenario
    from simulator.studies.statistic import Evaluation, Evaluator, Statistic

KEPT = "kept-evaluations.parquet"
"""The file of an output folder that holds the evaluations finished so far."""


def method_settings(evaluator: object) -> dict[str, Any] | None:
    """What of a method decides its numbers; None for an evaluator that is no method of ours.

    Monte Carlo: its trials and seed (not the workers, chunks or backend: every trial has its
    own stream). Exact: ``eps`` and ``max_states`` (not the time budget: it refuses, it does
    not change an answer).
    """
    from simulator.studies.method import Exact, MonteCarlo

    if isinstance(evaluator, MonteCarlo):
        return {"method": evaluator.method, "trials": evaluator.trials, "seed": evaluator.seed}
    if isinstance(evaluator, Exact):
        return {
            "method": evaluator.method,
            "eps": evaluator.eps,
            "max_states": evaluator.max_states,
        }
    return None


def _version() -> str:
    import simulator

    return simulator.__version__


def study_identity(command: str, settings: dict[str, Any], *parts: object) -> str:
    """The identity of a study's folder: the command, the method's settings, the version, parts.

    ``parts``: the scenario's content and the study's own arguments (range, target, keys...).
    """
    text = json.dumps(
        [command, settings, _version(), *parts], sort_keys=True, default=repr, ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def evaluation_key(scenario: Scenario, stat: Statistic, settings: dict[str, Any]) -> str:
    """The key of one evaluation: the variant's content, the statistic, the method, the version."""
    from simulator.engine.record import RECORD_FIELDS

    content = repr(dataclasses.replace(scenario, source=""))  # content, not where it was read
    text = json.dumps(
        [content, stat.text, settings, _version(), list(RECORD_FIELDS)],
        sort_keys=True,
        default=repr,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _phrase_json(value: object) -> object:
    """A phrase's template and values as JSON (a phrase inside it too); other values as text."""
    if isinstance(value, Phrase):
        return {"phrase": value.template, "args": [[k, _phrase_json(v)] for k, v in value.args]}
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, numbers.Integral):  # a count of numpy's
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


def _phrase_read(value: object) -> object:
    """What :func:`_phrase_json` wrote, back as a :class:`~simulator.errors.Phrase`."""
    if isinstance(value, dict):
        args = tuple((str(k), _phrase_read(v)) for k, v in value["args"])
        return Phrase(str(value["phrase"]), args)
    return value


@dataclass(frozen=True)
class Refused:
    """An evaluation the exact engine gave up on, kept so that the same study resumes past it.

    The same scenario, statistic, ``eps`` and ``max_states`` give up again (its key says
    them), so a resumed study tells the same refusal without spending the engine's budget on
    it. A time limit holds for a time budget no larger than the one it ran under: a larger
    one (the refusal's own advice) evaluates it again.

    Attributes:
        message: The refusal, as the engine worded it.
        limit: ``"states"`` or ``"time"`` (:class:`~simulator.errors.ExactLimitError`).
        states: The states carried when it gave up.
        reached_h: The campaign time it had reached, in hours.
        horizon_h: The scenario's horizon, in hours.
        budget: The time budget it ran under, in seconds (None: none).
        facts: What the engine worded the refusal from (``ExactLimitError.facts``), to word
            it again as the command that reads it back spells its options (None: a file
            kept before they were, or a refusal that is not the engine's own: its
            ``message`` as it is).
    """

    message: Phrase | str
    limit: str
    states: int
    reached_h: float
    horizon_h: float
    budget: float | None
    facts: dict[str, str | int | float] | None = None

    @classmethod
    def of(cls, exc: ExactLimitError, evaluator: object) -> Refused:
        """The refusal ``exc`` that ``evaluator`` met."""
        message = exc.phrase if exc.phrase is not None else str(exc)
        budget = getattr(evaluator, "time_budget", None)
        facts = getattr(exc, "facts", None)
        return cls(message, exc.limit, exc.states, exc.reached_h, exc.horizon_h, budget, facts)

    def error(self, source: str | None = None) -> ExactLimitError:
        """The refusal, raised again as the engine raises it now.

        Worded again from its facts in the words in force (:mod:`simulator.spelling`): a
        refusal a notebook kept (``raise Exact(max_states=...)``) is told to the command
        line as ``raise --max-states``, and the other way round.

        Args:
            source: The scenario's file (or name) as this run reached it (the same content
                read from another path shares its kept evaluations); None: as kept.
        """
        message = self.message
        if self.facts is not None:
            from simulator.exact.engine import over_limit

            facts = self.facts if source is None else {**self.facts, "source": source}
            message = over_limit(self.limit, facts)
        return ExactLimitError(
            message, self.limit, self.states, self.reached_h, self.horizon_h, self.facts
        )

    def holds_for(self, evaluator: object) -> bool:
        """Whether ``evaluator`` would give up too (a time limit: no larger budget)."""
        if self.limit != "time":
            return True
        budget = getattr(evaluator, "time_budget", None)
        return budget is not None and self.budget is not None and budget <= self.budget

    def to_text(self) -> str:
        """The refusal as one JSON text (:data:`KEPT`'s ``refused`` column)."""
        return json.dumps(
            {
                "message": _phrase_json(self.message),
                "limit": self.limit,
                "states": self.states,
                "reached_h": self.reached_h,
                "horizon_h": self.horizon_h,
                "budget": self.budget,
                "facts": self.facts,
            },
            sort_keys=True,
            ensure_ascii=False,
        )

    @classmethod
    def from_text(cls, text: str) -> Refused:
        """What :meth:`to_text` wrote."""
        data = json.loads(text)
        message = _phrase_read(data["message"])
        assert isinstance(message, Phrase | str)
        budget, facts = data["budget"], data.get("facts")
        return cls(
            message,
            str(data["limit"]),
            int(data["states"]),
            float(data["reached_h"]),
            float(data["horizon_h"]),
            None if budget is None else float(budget),
            None if facts is None else dict(facts),
        )


def read_kept(path: Path) -> dict[str, Evaluation | Refused]:
    """The evaluations a file of :data:`KEPT` holds, by key; none from a damaged file (said).

    A row with a ``refused`` text is one the exact engine gave up on (:class:`Refused`).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simulator.studies.statistic import Evaluation

    if not path.is_file():
        return {}
    try:
        rows = pq.read_table(path).to_pylist()
        found: dict[str, Evaluation | Refused] = {}
        for row in rows:
            if row.get("refused") is not None:
                found[str(row["key"])] = Refused.from_text(str(row["refused"]))
                continue
            trials, packed = row["trials"], row["indicators"]
            hits = None
            if trials is not None and packed is not None:
                bits = np.frombuffer(packed, dtype=np.uint8)
                hits = np.unpackbits(bits, count=int(trials)).astype(bool)
            ci = (float(row["low"]), float(row["high"]))
            found[str(row["key"])] = Evaluation(
                float(row["stat"]), ci, None if trials is None else int(trials), hits
            )
        return found
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
        note(
            phrase(
                "{path} is damaged (not a readable file of kept evaluations); its evaluations "
                "are made again.",
                path=path,
            )
        )
        return {}


def write_kept(path: Path, kept: Iterable[tuple[str, Evaluation | Refused]]) -> Path:
    """Write the evaluations as :data:`KEPT`, atomically, in the order given.

    A :class:`Refused` one has no numbers, and its ``refused`` text.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simulator.files import atomic_write

    items = list(kept)
    done = [None if isinstance(e, Refused) else e for _, e in items]
    table = pa.table(
        {
            "key": pa.array([k for k, _ in items], pa.string()),
            "stat": pa.array([None if e is None else e.stat for e in done], pa.float64()),
            "low": pa.array([None if e is None else e.ci[0] for e in done], pa.float64()),
            "high": pa.array([None if e is None else e.ci[1] for e in done], pa.float64()),
            "trials": pa.array([None if e is None else e.trials for e in done], pa.int64()),
            "indicators": pa.array(
                [
                    None
                    if e is None or e.indicators is None
                    else np.packbits(e.indicators).tobytes()
                    for e in done
                ],
                pa.binary(),
            ),
            "refused": pa.array(
                [e.to_text() if isinstance(e, Refused) else None for _, e in items], pa.string()
            ),
        }
    )
    return atomic_write(path, lambda tmp: pq.write_table(table, tmp))


@dataclass
class KeptFolder:
    """A study's output folder, claimed as late as it can be, that keeps its evaluations.

    At once when it holds this study's own kept evaluations (to resume from them); else only
    when the first evaluation is finished, so that a refusal met before (a scenario the
    exact engine cannot solve) leaves an earlier result in place.

    Attributes:
        out: The folder (None: nothing kept).
        names: Every file the study may write there.
        inputs: The files the study reads.
        identity: The study's identity (:func:`study_identity`).
        kept: Told once the folder holds evaluations to resume from (found there at the
            start, or the first one saved): the command line's Ctrl-C then says that the
            same command resumes.
    """

    out: Path | None
    names: list[str]
    inputs: list[Any]
    identity: str
    kept: Callable[[], None] | None = None
    claimed: Path | None = None
    _told: bool = field(default=False, repr=False)

    def open(self) -> dict[str, Evaluation | Refused]:
        """Refuse now what claiming would; claim now and read back this study's own kept ones."""
        from simulator.runner.marker import read_marker
        from simulator.runner.outdir import check_claim

        if self.out is None:
            return {}
        check_claim(self.out, self.names, inputs=self.inputs, identity=self.identity, whole=True)
        marker = read_marker(self.out) if self.out.is_dir() else None
        if marker is None or marker.get("result") != self.identity:
            return {}
        folder = self.claim()
        assert folder is not None
        found = read_kept(folder / KEPT)
        if found and not marker.get("complete"):  # a resumed study is never taken for fresh
            note(
                phrase(
                    "resuming: the evaluations an earlier run of this command kept in {folder} "
                    "are read back ({count} of them; the same numbers as a run in one go); "
                    "only the others are made now",
                    folder=folder,
                    count=len(found),
                )
            )
        if found:  # (a finished study run again reads its evaluations back without a word)
            self.saved()
        return found

    def claim(self) -> Path | None:
        """The folder, claimed (None: no output folder)."""
        from simulator.runner.outdir import claim

        if self.out is not None and self.claimed is None:
            self.claimed = claim(self.out, self.names, inputs=self.inputs, identity=self.identity)
        return self.claimed

    def saved(self) -> None:
        """Evaluations are in the folder, for the same study to resume from."""
        if self.kept is not None and not self._told:
            self._told = True
            self.kept()

    def release(self) -> None:
        """Let the folder go (a failed or interrupted study): the next command may claim it."""
        from simulator.runner.outdir import release

        if self.claimed is not None:
            release(self.claimed)


@dataclass
class Keeping:
    """An evaluator that keeps each evaluation it finishes, and reads kept ones back.

    It evaluates the scenarios one at a time, each saved as soon as it is finished (Monte
    Carlo's trials of one scenario still run on every worker), and reads back those already
    kept under the same key instead of evaluating them again.

    Attributes:
        inner: The method (:class:`~simulator.studies.method.MonteCarlo` or ``Exact``).
        folder: Where the evaluations are kept.
        settings: The method's settings (:func:`method_settings`).
        kept: The evaluations kept, by key (read back, then made here), and those the exact
            engine gave up on (:class:`Refused`).
        used: The keys this study asked for, in order (what the final file holds).
    """

    inner: Evaluator
    folder: KeptFolder
    settings: dict[str, Any]
    kept: dict[str, Evaluation | Refused] = field(default_factory=dict)
    used: dict[str, None] = field(default_factory=dict)
    made: int = 0

    @property
    def method(self) -> str:
        """The inner method's name."""
        return self.inner.method

    def _known(self, key: str) -> Evaluation | Refused | None:
        """What is kept under ``key`` and still holds (a refusal the method would meet too)."""
        found = self.kept.get(key)
        if isinstance(found, Refused) and not found.holds_for(self.inner):
            return None
        return found

    def __call__(self, scenarios: Sequence[Scenario], stat: Statistic) -> list[Evaluation]:
        """The statistic of each scenario: kept, or evaluated now and kept.

        A scenario the exact engine gives up on is kept as such (:class:`Refused`) and its
        :class:`~simulator.errors.ExactLimitError` raised, now and when asked again.
        """
        from simulator.runner.plan import Progress

        keys = [evaluation_key(s, stat, self.settings) for s in scenarios]
        missing = [i for i, key in enumerate(keys) if self._known(key) is None]
        bar = bool(getattr(self.inner, "progress", False))
        trials = int(getattr(self.inner, "trials", 0) or 0)
        if bar:  # one bar for the batch, not one per scenario
            self.inner.progress = False  # type: ignore[attr-defined]
        try:
            with Progress(trials * len(missing), enabled=bar and bool(missing)) as progress:
                for index, key in enumerate(keys):
                    self._evaluate(scenarios, index, key, stat, keys)
                    if index in missing:
                        progress.advance(trials)
        finally:
            if bar:
                self.inner.progress = True  # type: ignore[attr-defined]
        self.used.update(dict.fromkeys(keys))
        return [cast("Evaluation", self.kept[key]) for key in keys]

    def _evaluate(
        self,
        scenarios: Sequence[Scenario],
        index: int,
        key: str,
        stat: Statistic,
        keys: Sequence[str],
    ) -> None:
        """Evaluate scenario ``index`` of the batch and keep it, unless it is kept already.

        Raises:
            ExactLimitError: The exact engine gave up on it (now, or when it was kept).
        """
        known = self._known(key)
        if isinstance(known, Refused):
            self.used.update(dict.fromkeys(keys))
            error = known.error(scenarios[index].source or scenarios[index].name)
            error.index = index  # type: ignore[attr-defined]
            raise error
        if known is not None:
            return
        try:
            (found,) = self.inner([scenarios[index]], stat)
        except ExactLimitError as exc:  # kept as such: the same study never tries it again
            self.kept[key] = Refused.of(exc, self.inner)
            self.made += 1
            self.used.update(dict.fromkeys(keys))
            if self.folder.claimed is not None:  # never claimed for a refusal alone: a
                self.save()  # scenario refused first leaves an earlier result in place
            if getattr(exc, "index", None) is not None:
                exc.index = index  # type: ignore[attr-defined]
            raise
        except UserError as exc:  # which scenario of the batch: its caller names it
            if getattr(exc, "index", None) is not None:
                exc.index = index  # type: ignore[attr-defined]
            raise
        self.kept[key] = found
        self.made += 1
        self.save()

    def _ordered(self) -> list[tuple[str, Evaluation | Refused]]:
        """The evaluations this study used, in order; then those kept it has not come to."""
        rest = [key for key in self.kept if key not in self.used]
        return [(key, self.kept[key]) for key in [*self.used, *rest]]

    def save(self) -> None:
        """Keep every evaluation finished so far in the folder (claimed now if it is not)."""
        folder = self.folder.claim()
        if folder is None:
            return
        write_kept(folder / KEPT, self._ordered())
        self.folder.saved()

    def save_used(self, folder: Path) -> Path:
        """Write the evaluations the study used, in the order it asked them (with the result)."""
        return write_kept(folder / KEPT, [(key, self.kept[key]) for key in self.used])


def keeping(
    evaluator: Evaluator,
    out: str | Path | None,
    names: Sequence[str],
    inputs: Sequence[Any],
    identity: Callable[[dict[str, Any]], str],
    kept: Callable[[], None] | None = None,
) -> tuple[Evaluator, KeptFolder | None, Keeping | None]:
    """The evaluator a study runs: keeping in ``out`` when there is one and a method of ours.

    Args:
        evaluator: The study's method.
        out: Its output folder (None: nothing kept).
        names: Every file the study may write there.
        inputs: The files it reads.
        identity: The study's identity, given the method's settings.
        kept: Told once the folder holds evaluations to resume from.

    Returns:
        The evaluator to call, the folder (checked; claimed if it holds the same study's
        kept evaluations) and the keeping evaluator (None when nothing is kept).
    """
    settings = method_settings(evaluator)
    if out is None or settings is None:
        return evaluator, None, None
    folder = KeptFolder(Path(out), list(names), list(inputs), identity(settings), kept)
    kept_ones = folder.open()
    keeper = Keeping(evaluator, folder, settings, kept_ones)
    return keeper, folder, keeper


class SavedAnswer(Protocol):
    """What ``balance`` and ``sensitivity`` answer: a result that saves its files."""

    def save(self, out: Path, *, figures: bool = True) -> Any:
        """Write the result's files into ``out``."""
        ...

    def to_json(self) -> Any:
        """The result as the command's ``--json`` prints it."""
        ...

    @property
    def frame(self) -> pd.DataFrame:
        """The result's table, as its CSV file holds it."""
        ...


A = TypeVar("A", bound=SavedAnswer)


def kept_files(stem: str, figure: str, formats: Sequence[str]) -> list[str]:
    """Every file ``balance``'s or ``sensitivity``'s ``save`` may write (the folder checks them).

    ``STEM.csv``, ``STEM.json``, the report, the figure in each format, and :data:`KEPT`
    (the evaluations, kept as they finish: the command resumes from them).
    """
    from simulator.report.pages import REPORT

    return [f"{stem}.csv", f"{stem}.json", REPORT, *(f"{figure}.{fmt}" for fmt in formats), KEPT]


def save_answer(
    result: SavedAnswer,
    out: Path,
    names: Sequence[str],
    stem: str,
    draw: Callable[[Path], list[Path]] | None,
    title: str | None,
) -> list[Path]:
    """Write ``balance``'s or ``sensitivity``'s answer: table, JSON, figure, the report last.

    Args:
        result: The answer.
        out: The output folder, claimed here for ``names`` (:func:`kept_files`).
        names: Every file the study may write there.
        stem: The name of the table (``STEM.csv``, ten significant digits) and of the JSON.
        draw: Draws the figure into the folder and gives its files; None with
            ``--no-figures``, which writes no report either (CONTRACT.md).
        title: The report's title.

    Returns:
        The files written.
    """
    from functools import partial

    from simulator.files import user_path
    from simulator.report.pages import write_report
    from simulator.runner.outdir import claim, record
    from simulator.runner.writers import write_csv, write_json

    out = claim(user_path(out), names)
    written = [
        write_csv(result.frame, out / f"{stem}.csv", "%.10g"),
        write_json(result.to_json(), out / f"{stem}.json"),
    ]
    if draw is not None:
        written += draw(out)
    report = partial(write_report, title=title) if draw is not None else None
    record(out, written, complete=True, last=report)
    return written


def answer_and_save(
    compute: Callable[[], A],
    told: Callable[[A], None] | None,
    out: str | Path | None,
    names: Sequence[str],
    inputs: Sequence[Any],
    chosen: tuple[KeptFolder | None, Keeping | None],
    figures: bool,
    base_content: str,
) -> A:
    """A study's answer, told first, then saved whole into its folder (CONTRACT.md).

    With kept evaluations (:func:`keeping`), the folder is claimed with the study's identity
    and its evaluations are saved with the result; without, the folder is checked at once and
    claimed only once the answer is known, so that a refusal on the way leaves an earlier
    result in place. Whatever happens on the way, a claimed folder is let go.

    Args:
        compute: Works the answer out.
        told: Given the answer before any file is written (the summary printed first).
        out: The output folder (None: nothing written).
        names: Every file the study may write there.
        inputs: The files it reads.
        chosen: :func:`keeping`'s folder and keeping evaluator (None, None: nothing kept).
        figures: Whether figures and the report are drawn.
        base_content: The base scenario's content, in the answer's identity.
    """
    from functools import partial

    from simulator.runner.outdir import answer_identity, check_claim, claim_and_save

    folder, keeper = chosen
    if out is not None and folder is None:  # an evaluator of the caller's: nothing kept
        check_claim(out, names, inputs=inputs, whole=True)
    try:
        result = compute()
        if told is not None:  # the answer first, then the files (CONTRACT.md)
            told(result)
        if out is not None and keeper is not None and folder is not None:

            def save_all(where: Path) -> None:
                keeper.save_used(where)
                result.save(where, figures=figures)

            claim_and_save(out, names, save_all, inputs=inputs, identity=folder.identity)
        elif out is not None:  # claimed only now: a refusal on the way left the earlier result
            save = partial(result.save, figures=figures)
            identity = answer_identity(result.to_json(), base_content)
            claim_and_save(out, names, save, inputs=inputs, identity=identity)
    except BaseException:
        if folder is not None:
            folder.release()  # a notebook's next command may claim it; an empty one goes
        raise
    return result


def kept_answer(
    command: str,
    compute: Callable[[Evaluator], A],
    evaluator: Evaluator,
    out: str | Path | None,
    names: Sequence[str],
    inputs: Sequence[Any],
    asked: Sequence[object],
    base_content: str,
    told: Callable[[A], None] | None,
    kept: Callable[[], None] | None,
    figures: bool,
) -> A:
    """``balance``'s or ``sensitivity``'s answer: kept as it is evaluated, told, then saved.

    The folder is refused at once (:func:`keeping`), and an earlier result there replaced
    once the first evaluation is kept; the answer is then told and saved whole
    (:func:`answer_and_save`).

    Args:
        command: The study's command (``balance``), in its identity.
        compute: Works the answer out with the evaluator it is given (the keeping one).
        evaluator: The study's method.
        out: Its output folder (None: nothing kept nor written).
        names: Every file the study may write there.
        inputs: The files it reads.
        asked: The study's own arguments (range, target, keys...), in its identity.
        base_content: The base scenario's content, in its identity.
        told: Given the answer before any file is written.
        kept: Told once the folder holds evaluations to resume from.
        figures: Whether figures and the report are drawn.
    """
    measure, folder, keeper = keeping(
        evaluator,
        out,
        names,
        inputs,
        lambda settings: study_identity(command, settings, base_content, *asked),
        kept,
    )
    return answer_and_save(
        lambda: compute(measure),
        told,
        out,
        names,
        inputs,
        (folder, keeper),
        figures,
        base_content,
    )


__all__ = [
    "KEPT",
    "Keeping",
    "KeptFolder",
    "Refused",
    "SavedAnswer",
    "answer_and_save",
    "evaluation_key",
    "keeping",
    "kept_answer",
    "method_settings",
    "read_kept",
    "study_identity",
    "write_kept",
]
