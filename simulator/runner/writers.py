"""The files a study writes: text, CSV, JSON and the scenario as simulated, each atomically."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from simulator.errors import N_
from simulator.files import atomic_write

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

    from simulator.scenario.model import Scenario


def write_text(path: Path, text: str, newline: str | None = None) -> Path:
    """Write UTF-8 text atomically (``newline`` as :func:`open` takes it)."""
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8", newline=newline))


def write_csv(frame: pd.DataFrame, path: Path, float_format: str | None = "%.10g") -> Path:
    """Write a frame as CSV atomically, every row readable back as written.

    Python's csv quotes a text holding the line terminator (a newline) but not a lone
    carriage return, which every reader takes for a line break: a frame with one (a
    scenario named so) has its texts quoted.
    """
    texts = [*map(str, frame.columns), *(v for v in frame.to_numpy().ravel() if isinstance(v, str))]
    quoting: Literal[0, 2] = (
        csv.QUOTE_NONNUMERIC if any("\r" in text for text in texts) else csv.QUOTE_MINIMAL
    )
    shown = None if float_format is None else _float_text(float_format)
    return atomic_write(
        path, lambda tmp: frame.to_csv(tmp, index=False, float_format=shown, quoting=quoting)
    )


def _float_text(float_format: str) -> Callable[[object], str]:
    """``float_format``, but a whole number keeps its ``.0``.

    A share of exactly 0 or a median of 1056 h reads back as a float (pandas, a spreadsheet),
    as every other row of its column does, instead of turning the column's type with the
    value.
    """

    def text(value: object) -> str:
        written = float_format % value
        if any(mark in written for mark in ".eEn"):  # 0.25, 1e-05, nan, inf
            return written
        return written + ".0"

    return text


def write_json(data: object, path: Path) -> Path:
    """Write JSON (pretty, UTF-8, trailing newline) atomically."""
    return write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def write_scenario(
    scenario: Scenario, path: Path, note: str = "", tr: Callable[[str], str] = str
) -> Path:
    """Write the scenario as simulated (a scenario file, every default given) atomically.

    ``tr`` translates the file's comments (the studies pass the language in force's).
    """
    from simulator.scenario.writing import scenario_to_toml

    if scenario.source:
        comment = tr(N_("The scenario of these results (from {path}), as simulated."))
        comment = comment.format(path=scenario.source)
    else:
        comment = tr(N_("The scenario of these results, as simulated."))
    return write_text(path, scenario_to_toml(scenario, f"{comment}\n{note}".rstrip(), tr))


__all__ = ["write_csv", "write_json", "write_scenario", "write_text"]
