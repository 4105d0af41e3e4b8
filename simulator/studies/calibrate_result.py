"""What ``calibrate`` found, as JSON (CONTRACT.md), frames and the files of its folder."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator.report.pages import REPORT, write_report
from simulator.runner.outdir import record
from simulator.runner.writers import write_csv, write_json, write_text
from simulator.spelling import python_api
from simulator.studies.calibrate_file import Calibration, Target
from simulator.studies.calibrate_solve import Notch, Reached
from simulator.studies.result import FIGURE_FORMATS
from simulator.studies.statistic import shown

EVALUATIONS = "evaluations.parquet"
"""Every evaluation, in order; also what a resumed command reads back."""

SEARCH_FIGURE = "calibrate_search"
SENSITIVITY_FIGURE = "calibrate_sensitivity"


@dataclass
class CalibrationResult:
    """The free keys' values found, each target's value there, and the sensitivity.

    Attributes:
        calibration: The file's free keys and targets.
        method: ``exact`` or ``monte-carlo``.
        values: Each free key's value at the solution.
        reached: Each target's value at the check run (exact, or fresh seeds and more trials).
        notches: Each target's move per notch of each free key.
        conflicts: ``{"target", "against", "keys"}`` for each target not met and each that
            pulls against it.
        evaluations: Evaluations made by the search (each one target at one point).
        rows: Every evaluation, as ``evaluations.parquet`` holds them.
        trials: Trials per evaluation in the search (Monte Carlo), else None.
        seed: The search's seed (Monte Carlo), else None.
        check_trials: Trials of the check run (Monte Carlo), else None.
        check_seed: Its seed (Monte Carlo), else None.
        resumed: Evaluations read back from an earlier, interrupted command.
    """

    calibration: Calibration
    method: str
    values: list[float]
    reached: list[Reached]
    notches: list[Notch]
    conflicts: list[dict[str, Any]]
    evaluations: int
    rows: list[dict[str, Any]] = field(repr=False, default_factory=list)
    trials: int | None = None
    seed: int | None = None
    check_trials: int | None = None
    check_seed: int | None = None
    resumed: int = 0

    def met_target(self, target: Target) -> bool:
        """Whether the target is within its tolerance at the check run."""
        return abs(self.reached[target.number].stat - target.value) <= target.tolerance

    @property
    def met(self) -> bool:
        """Whether every target is met."""
        return all(self.met_target(t) for t in self.calibration.targets)

    def to_json(self) -> dict[str, Any]:
        """CONTRACT.md's object, then ``conflicts``, ``trials``, ``seed``, ``check``."""
        cal = self.calibration
        return {
            "name": cal.name,
            "method": self.method,
            "met": self.met,
            "free": [
                {
                    "key": f.key.name,
                    "value": f.key.json_value(v),
                    "low": f.key.json_value(f.low),
                    "high": f.key.json_value(f.high),
                }
                for f, v in zip(cal.free, self.values, strict=True)
            ],
            "targets": [
                {
                    "scenario": t.written,
                    "stat": t.stat.text,
                    "value": t.value,
                    "tolerance": t.tolerance,
                    "reached": r.stat,
                    "ci": [r.low, r.high],
                    "met": self.met_target(t),
                    "set": list(t.overrides),
                }
                for t, r in zip(cal.targets, self.reached, strict=True)
            ],
            "evaluations": self.evaluations,
            "sensitivity": [
                {"key": n.key, "target": n.target, "per_notch": n.per_notch} for n in self.notches
            ],
            "conflicts": self.conflicts,
            "trials": self.trials,
            "seed": self.seed,
            "check": {"trials": self.check_trials, "seed": self.check_seed},
            "resumed": self.resumed,
        }

    def answer_json(self) -> dict[str, Any]:
        """``calibration.json``: :meth:`to_json` less ``resumed``, how this run got there.

        The file is the answer: the same bytes whether the command ran at once or was
        stopped and resumed (``--json`` still tells how many evaluations it read back).
        """
        return {key: value for key, value in self.to_json().items() if key != "resumed"}

    def free_frame(self) -> pd.DataFrame:
        """``calibration.csv``: each free key's value (as ``--set`` takes it) and range."""
        return pd.DataFrame(
            [
                {
                    "key": f.key.name,
                    "value": f.key.literal(v),
                    "shown": shown(f.key, v, "en"),  # a file: the same in every language
                    "low": f.key.literal(f.low),
                    "high": f.key.literal(f.high),
                    "kind": f.key.kind.value,
                }
                for f, v in zip(self.calibration.free, self.values, strict=True)
            ]
        )

    def targets_frame(self) -> pd.DataFrame:
        """``targets.csv``: each target, the value reached, its interval, met or not."""
        return pd.DataFrame(
            [
                {
                    "target": t.number,
                    "label": t.label,
                    "scenario": t.written,
                    "stat": t.stat.text,
                    "value": t.value,
                    "tolerance": t.tolerance,
                    "reached": r.stat,
                    "low": r.low,
                    "high": r.high,
                    "met": self.met_target(t),
                    "set": "; ".join(t.overrides),
                }
                for t, r in zip(self.calibration.targets, self.reached, strict=True)
            ]
        )

    def sensitivity_matrix(self) -> np.ndarray:
        """``targets x keys``: each target's move per notch (NaN where no notch)."""
        cal = self.calibration
        keys = [f.key.name for f in cal.free]
        matrix = np.full((len(cal.targets), len(keys)), np.nan)
        for n in self.notches:
            if n.per_notch is not None:
                matrix[n.target, keys.index(n.key)] = n.per_notch
        return matrix

    def sensitivity_frame(self) -> pd.DataFrame:
        """``calibrate_sensitivity.csv``: each target's move per notch of each free key."""
        labels = [t.label for t in self.calibration.targets]
        return pd.DataFrame(
            [
                {
                    "key": n.key,
                    "target": n.target,
                    "label": labels[n.target],
                    "per_notch": n.per_notch,
                }
                for n in self.notches
            ]
        )

    def search_frame(self) -> pd.DataFrame:
        """Each round's best point so far: each target's value there (the search figure)."""
        frame = pd.DataFrame(self.rows)
        if frame.empty:
            return pd.DataFrame(columns=["round", "target", "reached"])
        search = frame[frame["phase"] == "search"]
        cal = self.calibration
        index_columns = [f"index:{f.key.name}" for f in cal.free]
        best: tuple[float, tuple[int, ...]] | None = None
        table: dict[tuple[int, ...], dict[int, float]] = {}
        out = []
        for round_, rows in search.groupby("round", sort=True):
            for row in rows.to_dict("records"):
                point = tuple(int(row[c]) for c in index_columns)
                table.setdefault(point, {})[int(row["target"])] = float(row["reached"])
            for point, got in table.items():
                if len(got) == len(cal.targets):
                    cost = sum(((got[t.number] - t.value) / t.tolerance) ** 2 for t in cal.targets)
                    if best is None or (cost, point) < best:
                        best = (cost, point)
            if best is not None:
                out += [
                    {
                        "round": int(str(round_)),
                        "target": t.number,
                        "reached": table[best[1]][t.number],
                    }
                    for t in cal.targets
                ]
        return pd.DataFrame(out, columns=["round", "target", "reached"])

    def evaluations_frame(self) -> pd.DataFrame:
        """Every evaluation (``evaluations.parquet``)."""
        return evaluations_frame(self.rows)

    def calibrated_names(self) -> list[str]:
        """Each target's ``<stem>.calibrated.toml`` (one per distinct scenario and ``set``)."""
        names: list[str] = []
        seen: dict[tuple[str, tuple[str, ...]], str] = {}
        # a target file of its own named lone_traveller-2 keeps that name: a second
        # lone_traveller target is numbered past it, never given another file's name
        natural = {f"{t.scenario.stem}.calibrated.toml" for t in self.calibration.targets}
        for t in self.calibration.targets:
            key = (str(t.scenario.resolve()), t.overrides)
            if key not in seen:
                stem, number = t.scenario.stem, 1
                name = f"{stem}.calibrated.toml"
                while name in seen.values() or (number > 1 and name in natural):
                    number += 1
                    name = f"{stem}-{number}.calibrated.toml"
                seen[key] = name
            names.append(seen[key])
        return names

    @staticmethod
    def files(targets: Sequence[Target], formats: Sequence[str] = FIGURE_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write (the output folder's rule checks them)."""
        stems = [t.scenario.stem for t in targets]
        calibrated = [f"{s}.calibrated.toml" for s in stems]
        calibrated += [
            f"{s}-{n}.calibrated.toml" for s in stems for n in range(2, 2 * len(stems) + 2)
        ]  # numbered past the other targets' own names (calibrated_names)
        figures = [
            f"{stem}.{fmt}" for stem in (SEARCH_FIGURE, SENSITIVITY_FIGURE) for fmt in formats
        ]
        return [
            *("calibration.csv", "targets.csv", "calibrate_sensitivity.csv", "calibration.json"),
            EVALUATIONS,
            REPORT,
            *calibrated,
            *figures,
        ]

    @python_api
    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write every file of the folder, the report last.

        The folder is claimed as a command's (``calibrate`` has claimed it already): a folder
        of the user's, or a file there that the tool did not write, is refused, never written
        over.
        """
        from simulator.files import user_path
        from simulator.report.i18n import tr
        from simulator.runner.outdir import claim
        from simulator.scenario.overrides import Override, edited_toml

        cal = self.calibration
        inputs = [cal.path, *(t.scenario for t in cal.targets)]
        out = claim(user_path(out), self.files(cal.targets, formats), inputs=inputs)
        written = [
            write_csv(self.free_frame(), out / "calibration.csv"),
            write_csv(self.targets_frame(), out / "targets.csv"),
            write_csv(self.sensitivity_frame(), out / "calibrate_sensitivity.csv"),
            write_json(self.answer_json(), out / "calibration.json"),
            save_evaluations(self.rows, out),
        ]
        settings = [f.key.setting(v) for f, v in zip(cal.free, self.values, strict=True)]
        done: set[str] = set()
        for target, name in zip(cal.targets, self.calibrated_names(), strict=True):
            if name in done:
                continue
            done.add(name)
            comment = tr("{scenario}, calibrated by {calibration} ({name}): {values}").format(
                scenario=_from(out, target.scenario),
                calibration=_from(out, cal.path),
                name=cal.title,
                values=", ".join(s.text for s in settings),
            )
            lines = [comment]
            if target.overrides:  # why a table the scenario's name says nothing of is there
                lines.append(
                    tr("its target {label} also sets: {settings}").format(
                        label=target.label, settings=", ".join(target.overrides)
                    )
                )  # fmt: skip
            changes: list[Override | str] = [*target.overrides, *settings]  # as it is built
            # the scenario file's own text, as read to build the target, edited in place;
            # the note only where it could not be (written anew from its keys)
            lost = [tr("(the comments of the original file are not kept)")]
            text = edited_toml(target.mapping, changes, lines, target.text, lost, target.newline)
            written.append(write_text(out / name, text, newline=""))  # its line ends kept
        if figures:
            written += self._figures(out, formats)
        report = partial(write_report, title=cal.title) if figures else None  # --no-figures
        record(out, written, complete=True, last=report)
        return written

    def _figures(self, out: Path, formats: Sequence[str]) -> list[Path]:
        from simulator.report.figures_calibrate import search_figure, sensitivity_heatmap
        from simulator.report.style import draw_and_save

        cal = self.calibration
        labels = [t.label for t in cal.targets]
        frame = self.search_frame()
        trials, exact = self.trials, self.method == "exact"  # how, for the titles
        draw_search = partial(search_figure, frame, labels, [t.value for t in cal.targets],
                              name=cal.title, trials=trials, exact=exact)  # fmt: skip
        keys = [f.key.name for f in cal.free]
        draw_map = partial(sensitivity_heatmap, self.sensitivity_matrix(), keys, labels,
                           name=cal.title, trials=trials, exact=exact)  # fmt: skip
        written = draw_and_save(out, SEARCH_FIGURE, formats, lambda ax: draw_search(ax=ax))
        written += draw_and_save(out, SENSITIVITY_FIGURE, formats, lambda ax: draw_map(ax=ax))
        return written


def evaluations_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """The evaluations as a frame (``phase``, ``round``, each key, ``target``, ``reached``...)."""
    return pd.DataFrame(list(rows))


def save_evaluations(rows: Sequence[dict[str, Any]], out: Path) -> Path:
    """Write ``evaluations.parquet`` atomically (after each round, and at the end)."""
    from simulator.files import atomic_write

    frame = evaluations_frame(rows)
    return atomic_write(out / EVALUATIONS, lambda tmp: frame.to_parquet(tmp, index=False))


__all__ = ["EVALUATIONS", "CalibrationResult", "evaluations_frame", "save_evaluations"]


def _from(folder: Path, path: Path) -> str:
    """``path`` as seen from ``folder``, where the calibrated file lies.

    Never a machine's absolute path in a file meant to travel; absolute only across drives.
    """
    try:
        return os.path.relpath(Path(path).absolute(), Path(folder).absolute())
    except ValueError:  # another drive (Windows): no relative path
        return str(Path(path).absolute())
