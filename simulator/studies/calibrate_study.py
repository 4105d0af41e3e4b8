"""``calibrate``: the values of several free keys that meet several targets at once.

:func:`calibrate` reads the calibration file (:mod:`~simulator.studies.calibrate_file`),
chooses the method (exact when every target's scenario is exact within its budget at the
ranges' ends and middle, else Monte Carlo on common random numbers), searches
(:mod:`~simulator.studies.calibrate_solve`), checks the solution (exact again, or fresh
seeds with four times the trials, with intervals), measures the sensitivity there and says
which targets pull against those not met. The evaluations are saved in the output folder
after every round: the same command, interrupted, resumes from them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.errors import UserError, display, note, phrase
from simulator.files import user_path
from simulator.runner.marker import read_marker
from simulator.runner.outdir import check_claim, claim, release
from simulator.spelling import python_api
from simulator.studies.calibrate_file import Calibration, Free, free_columns, read_calibration
from simulator.studies.calibrate_result import EVALUATIONS, CalibrationResult, save_evaluations
from simulator.studies.calibrate_solve import (
    MAX_ROUNDS,
    Point,
    Reached,
    Search,
    conflicts,
    run_search,
    sensitivity,
)
from simulator.studies.method import Exact, Method, MonteCarlo, check_method

CHECK_FACTOR = 4
"""The check run of a sampled calibration runs this many times the search's trials."""


@dataclass(frozen=True)
class Progress:
    """One round of the search, for a progress line.

    Attributes:
        round: The round's number, from 1.
        points: Points of the round.
        new: Evaluations made (the others were cached).
        distances: Each target's distance from its value at the best point so far.
        tolerances: Each target's tolerance.
        elapsed: Seconds since the search began.
        left: About how many seconds are left at most (None before a round is timed).
    """

    round: int
    points: int
    new: int
    distances: list[float]
    tolerances: list[float]
    elapsed: float
    left: float | None


def choose_method(
    calibration: Calibration, time_budget: float | None = None, exact: Exact | None = None
) -> Method | None:
    """Exact when every target is exact within its budget at the ends and middle, else None.

    ``exact``: the exact method to try, with its limits (``--max-states``...); by default
    :class:`Exact`'s, ``time_budget`` seconds if given.
    """
    if exact is None:
        exact = Exact() if time_budget is None else Exact(time_budget=time_budget)
    free = calibration.free
    probes = [
        [f.setting(0) for f in free],
        [f.setting(len(f.grid) // 2) for f in free],
        [f.setting(len(f.grid) - 1) for f in free],
    ]
    for target in calibration.targets:
        for sets in probes:
            try:
                exact([target.build(sets)], target.stat)
            except UserError:
                return None
    return exact


def _resume(search: Search, folder: Path) -> int:
    """Read back the search's evaluations an interrupted command saved; how many."""
    import pandas as pd

    path = folder / EVALUATIONS
    if not path.is_file():
        return 0
    frame = pd.read_parquet(path)
    count = 0
    cal = search.calibration
    columns = [f"index:{f.key.name}" for f in cal.free]
    if not set(columns) <= set(frame.columns):
        return 0
    for row in frame[frame["phase"] == "search"].to_dict("records"):
        point: Point = tuple(int(row[c]) for c in columns)
        search.cache[point, int(row["target"])] = Reached(
            float(row["reached"]), float(row["low"]), float(row["high"])
        )
        count += 1
    return count


@python_api
def calibrate(
    path: str | Path,
    method: Method | None = None,
    *,
    out: str | Path | None = None,
    figures: bool = True,
    rounds: int = MAX_ROUNDS,
    progress: Callable[[Progress], None] | None = None,
    told: Callable[[CalibrationResult], None] | None = None,
    exact: Exact | None = None,
    workers: int | None = None,
    kept: Callable[[], None] | None = None,
) -> CalibrationResult:
    """Solve a calibration file's free keys for its targets together.

    Without a ``method``: exact (``exact``'s limits, by default :class:`Exact`'s) when every
    target allows it, else Monte Carlo.

    Example:
        >>> found = calibrate("calibrations/texts.toml")  # doctest: +SKIP
        >>> found.met, found.values  # doctest: +SKIP

    Args:
        path: The calibration file (CONTRACT.md, "Calibration files").
        method: :class:`Exact` or :class:`MonteCarlo` (its seed seeds the search too);
            None: exact when every target allows it, else Monte Carlo (10,000 trials, seed 0).
        out: The output folder (claimed before anything runs); None writes nothing.
        figures: With ``out``, also draw the figures and ``report.html``.
        rounds: The search's generations at most (1 or more).
        progress: Told each round (the command line prints one line).
        told: Given the result once found, before its files are written (the command line
            prints it then: the answer comes before the figures).
        exact: Without ``method``, the exact method tried first, with its limits.
        workers: Without ``method``, the workers of Monte Carlo if it is chosen.
        kept: Told once ``out`` holds evaluations that the same call would resume from
            (found there at the start, or a round's saved): the command line's Ctrl-C then
            says that the same command resumes.

    Returns:
        The solution, each target met or not, the sensitivity and the conflicts.

    Raises:
        UserError: For every mistake in the file, naming it, the key and what was expected;
            for ``rounds`` not a whole number of 1 or more.
    """
    out = user_path(out)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise UserError(  # 0 or -1 searched nothing and returned the first guesses as found
            phrase(
                "{name}: got {value}; expected an integer of 1 or more, the search's "
                "generations at most",
                name="rounds",
                value=display(rounds),
            )
        )
    if method is not None and workers is not None:
        raise UserError(
            phrase(
                "got a method and workers; expected the workers inside the method "
                "(MonteCarlo(..., workers={workers}))",
                workers=workers,
            )
        )
    calibration = read_calibration(path)
    if method is None:
        fallback = MonteCarlo(trials=10_000, seed=0, workers=workers)
        method = choose_method(calibration, exact=exact) or fallback
    check_method(method)
    method.check()
    settings: dict[str, Any] = {"method": method.method, "rounds": rounds}
    if isinstance(method, MonteCarlo):
        settings.update(trials=method.trials, seed=method.seed)
    else:
        settings.update(eps=method.eps, max_states=method.max_states)
    folder = _Folder(None, [], [], "")
    if out is not None:
        names = CalibrationResult.files(calibration.targets)
        inputs = [calibration.path, *(t.scenario for t in calibration.targets)]
        folder = _Folder(Path(out), names, inputs, calibration.identity(settings), kept=kept)
        folder.check()
    try:
        return _solve(calibration, method, folder, rounds, progress, told, figures)
    except BaseException:
        if folder.claimed is not None:
            release(folder.claimed)  # a notebook's next command may claim it; an empty one goes
        raise


@dataclass
class _Folder:
    """The output folder of a calibration, claimed as late as it can be.

    At once to resume the same calibration's saved evaluations; else only when the first
    round's are saved, so that a refusal met before (a target the exact engine cannot solve)
    leaves an earlier result in place.
    """

    out: Path | None
    names: list[str]
    inputs: list[Any]
    identity: str
    claimed: Path | None = None
    kept: Callable[[], None] | None = None
    """Told when the folder holds evaluations to resume from (:func:`calibrate`'s ``kept``)."""
    finished: bool = False
    """The folder already held this calibration's whole result (read back without a note)."""

    def check(self) -> None:
        """Refuse now what claiming would; claim now to resume this calibration's own."""
        if self.out is None:
            return
        check_claim(self.out, self.names, inputs=self.inputs, identity=self.identity, whole=True)
        marker = read_marker(self.out) if self.out.is_dir() else None
        if marker is not None and marker.get("result") == self.identity:
            self.finished = bool(marker.get("complete"))
            self.claim()
            if (self.out / EVALUATIONS).is_file():
                self.saved()

    def saved(self) -> None:
        """Evaluations are in the folder, for the same calibration to resume from."""
        if self.kept is not None:
            self.kept()

    def claim(self) -> Path | None:
        """The folder, claimed (None: no output folder)."""
        if self.out is not None and self.claimed is None:
            self.claimed = claim(self.out, self.names, inputs=self.inputs, identity=self.identity)
        return self.claimed


def _solve(
    calibration: Calibration,
    method: Method,
    folder: _Folder,
    rounds: int,
    progress: Callable[[Progress], None] | None,
    told: Callable[[CalibrationResult], None] | None,
    figures: bool,
) -> CalibrationResult:
    """:func:`calibrate`'s search, check and sensitivity, into ``folder`` (claimed)."""
    sampled = isinstance(method, MonteCarlo)
    search = Search(calibration, method)
    resumed = _resume(search, folder.claimed) if folder.claimed is not None else 0
    if resumed and not folder.finished:  # said as balance and sensitivity say it (kept.py)
        note(
            phrase(
                "resuming: the evaluations an earlier run of this command kept in {folder} "
                "are read back ({count} of them; the same numbers as a run in one go); "
                "only the others are made now",
                folder=folder.claimed,
                count=resumed,
            )
        )
    start, timed = time.monotonic(), list[float]()

    def on_round(number: int, points: int, new: int, best: Point) -> None:
        if new and (claimed := folder.claim()) is not None:
            save_evaluations(search.rows_with(resumed_rows), claimed)
            folder.saved()
        timed.append(time.monotonic())
        if progress is None:
            return
        reached = search.evaluate([best])[0]
        per = (timed[-1] - start) / len(timed)
        progress(
            Progress(
                number,
                points,
                new,
                [abs(r.stat - t.value) for r, t in zip(reached, calibration.targets, strict=True)],
                [t.tolerance for t in calibration.targets],
                timed[-1] - start,
                per * max(2 * rounds + 1 - number, 0),
            )
        )

    resumed_rows = _saved_rows(folder.claimed, calibration.free)
    search.on_round = on_round
    seed = method.seed if isinstance(method, MonteCarlo) else 0
    with method:
        best = run_search(search, seed, rounds)
        values = search.values(best)
        settings_at = search.settings(best)
        if isinstance(method, MonteCarlo):
            check: Method = MonteCarlo(
                trials=method.trials * CHECK_FACTOR,
                seed=method.seed + 1,
                workers=method.workers,
                backend=method.backend,
                scheduler=method.scheduler,
            )
        else:
            check = Exact(method.eps, method.max_states, method.time_budget)
        with check:
            reached = [search.measure(check, t, [settings_at])[0] for t in calibration.targets]
        for target, got in zip(calibration.targets, reached, strict=True):
            search.rows.append(
                {
                    "phase": "check",
                    "round": search.rounds,
                    **_point_columns(search, best),
                    "target": target.number,
                    "label": target.label,
                    "reached": got.stat,
                    "low": got.low,
                    "high": got.high,
                }
            )
        notches = sensitivity(search, method, best)
    result = CalibrationResult(
        calibration,
        method.method,
        values,
        reached,
        notches,
        conflicts(calibration.targets, [r.stat for r in reached], notches),
        len(search.cache),
        search.rows_with(resumed_rows),
        method.trials if sampled and isinstance(method, MonteCarlo) else None,
        method.seed if isinstance(method, MonteCarlo) else None,
        check.trials if isinstance(check, MonteCarlo) else None,
        check.seed if isinstance(check, MonteCarlo) else None,
        resumed,
    )
    if told is not None:
        told(result)
    if (claimed := folder.claim()) is not None:
        result.save(claimed, figures=figures)
    return result


def _point_columns(search: Search, point: Point) -> dict[str, Any]:
    return free_columns(search.calibration.free, point)


def _saved_rows(folder: Path | None, free: Sequence[Free]) -> list[dict[str, Any]]:
    """The search rows an interrupted command saved (kept at the head of the new file).

    Each free key's value is written again from its grid index, as this version writes it
    (a file of an earlier version held an integer key's values as text).
    """
    import pandas as pd

    if folder is None or not (folder / EVALUATIONS).is_file():
        return []
    frame = pd.read_parquet(folder / EVALUATIONS)
    records = frame[frame["phase"] == "search"].to_dict("records")
    rows = [{str(k): v for k, v in row.items()} for row in records]
    for row in rows:
        indices: list[Any] = [row.get(f"index:{f.key.name}") for f in free]
        if all(i is not None and not pd.isna(i) for i in indices):
            row.update(free_columns(free, [int(i) for i in indices]))  # as this version writes
    return rows


__all__ = ["CHECK_FACTOR", "Progress", "calibrate", "choose_method"]
