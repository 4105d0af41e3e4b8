"""The ``sweep`` command: one study per point of a grid of scenario keys.

All the points' chunks go to the backend at once (:func:`simulator.studies.api.run_sweep`);
output and Ctrl-C behave as for ``run``.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from simulator.cli.common import echo_json, results_into, user_errors
from simulator.cli.options import (
    RUNS,
    interruptible,
    interval_text,
    method_options,
    method_suffix,
    output_options,
    stem_of,
)
from simulator.cli.words import WordedCommand
from simulator.errors import N_, ScenarioError, UserError, display, phrase

if TYPE_CHECKING:
    from collections.abc import Callable

    from simulator.studies.method import Method


def split_values(raw: str) -> list[str]:
    """Split ``V1,V2,...`` on the commas outside quotes, brackets and braces."""
    pieces: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in raw:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            pieces.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    pieces.append("".join(current).strip())
    return pieces


def _same_point(value: object) -> tuple[str, object]:
    """What makes two values of a ``--grid`` key the same point (``60s`` and ``1min``: one).

    A duration by its seconds, a number by its value (``1`` and ``1.0``).
    """
    from simulator.errors import DurationError
    from simulator.rules.durations import parse_duration

    if isinstance(value, str):
        try:
            return "duration", parse_duration(value)
        except DurationError:
            pass
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number", float(value)  # 1 and 1.0: one number (a rate, a probability)
    return type(value).__name__, value


def _note_whole_pairs(key: str, raw: str, pieces: list[str]) -> None:
    """A note when ``0,5`` of a key that takes fractions may have meant ``0.5``.

    Run as written (the two values 0 and 5 are a grid too), but said, so that a French
    hand's decimal comma is not taken silently for two points.
    """
    from simulator.errors import note
    from simulator.scenario.keys import NUMBER_KEYS, PROBABILITY_KEYS

    if key not in (*NUMBER_KEYS, *PROBABILITY_KEYS) or len(pieces) != 2:
        return  # 1,2,3 is a grid of three; only a lone 0,5 looks like one number split
    for a, b in itertools.pairwise(pieces):
        if re.fullmatch(r"\d+", a) and re.fullmatch(r"\d+", b):
            note(
                phrase(
                    "--grid {key}={raw}: {a} and {b} are two values (commas separate the "
                    "values); for one number, write {a}.{b}",
                    key=key,
                    raw=raw,
                    a=a,
                    b=b,
                )
            )
            return


def parse_grid(texts: tuple[str, ...]) -> dict[str, list[object]]:
    """Read ``--grid KEY=V1,V2,...`` options into ``{key: [values]}``.

    Values are read like ``--set`` values: TOML when they parse as TOML, else strings.
    Commas inside quotes, brackets or braces do not split values.

    Raises:
        UserError: Naming the ``--grid`` text when it has no ``=``, no key, an empty value
            or a key given twice.
    """
    from simulator.scenario.checks import decimal_commas
    from simulator.scenario.keys import NUMBER_KEYS, PROBABILITY_KEYS
    from simulator.scenario.overrides import parse_override

    grid: dict[str, list[object]] = {}
    for text in texts:
        key, sep, raw = text.partition("=")
        key = key.strip()
        expected = phrase(
            "--grid: got {value}; expected KEY=V1,V2,... with a dotted KEY, e.g. "
            "first_aid.level=0,1,2",
            value=repr(text),
        )
        if not sep or not key or not raw.strip():
            raise UserError(expected)
        pieces = split_values(raw)
        if any(not p for p in pieces):
            raise UserError(
                phrase(
                    "--grid {key}: got {value}; expected values separated by commas",
                    key=key,
                    value=repr(raw),
                )
            )
        if key in grid:
            raise UserError(phrase("--grid {key}: given twice; expected each key once", key=key))
        fixed = decimal_commas(
            pieces,
            fractions=key in (*PROBABILITY_KEYS, *NUMBER_KEYS),
            probability=key in PROBABILITY_KEYS,
        )
        bare = [p for p in pieces if re.fullmatch(r"[+-]?\d+", p.strip())]
        fraction_key = key in (*PROBABILITY_KEYS, *NUMBER_KEYS)
        if fixed is not None and bare and not fraction_key and len(pieces) > 2:
            # 15min,30,1h: a value without its unit as likely as a decimal comma (30.1h)
            raise UserError(
                phrase(
                    "--grid {key}: got {value}; commas separate the values, and {piece} has "
                    "no unit: expected a unit on every value, or a decimal point where two "
                    "pieces are one value, {fixed}",
                    key=key,
                    value=repr(raw),
                    piece=bare[0].strip(),
                    fixed=fixed,
                )
            )
        if fixed is not None:  # 0,05 read as the two values 0 and 05
            raise UserError(
                phrase(
                    "--grid {key}: got {value}; commas separate the values: expected a decimal "
                    "point, {fixed}",
                    key=key,
                    value=repr(raw),
                    fixed=fixed,
                )
            )
        _note_whole_pairs(key, raw, pieces)
        try:
            values = [parse_override(f"{key}={piece}")[1] for piece in pieces]
        except ScenarioError:
            raise UserError(expected) from None
        seen = [_same_point(v) for v in values]  # 1 and true are two values, 60s and 1min one
        twice = [
            (values[seen.index(s)], v)
            for i, (s, v) in enumerate(zip(seen, values, strict=True))
            if s in seen[:i]
        ]
        if twice:  # the same point twice: the same numbers twice, under two rows
            first, again = twice[0]
            if display(first) != display(again):  # 1.5h and 90min: say that they are one
                raise UserError(
                    phrase(
                        "--grid {key}: {value} and {other} are the same value; expected each "
                        "value once",
                        key=key,
                        value=display(first),
                        other=display(again),
                    )
                )
            raise UserError(
                phrase(
                    "--grid {key}: {value} given twice; expected each value once",
                    key=key,
                    value=display(again),
                )
            )
        for value in values:
            if isinstance(value, float) and not math.isfinite(value):
                raise UserError(
                    phrase(
                        "--grid {key}: got {value}; expected finite numbers",
                        key=key,
                        value=repr(value),
                    )
                )
        grid[key] = values
    if not grid:
        raise UserError(phrase("--grid: missing; expected at least one KEY=V1,V2,..."))
    return grid


@click.command(cls=WordedCommand)
@click.argument("scenario")
@click.option(
    "--grid",
    "grid_texts",
    multiple=True,
    required=True,
    metavar="KEY=V1,V2,...",
    help="A scenario key and its values; repeat for a grid (first key slowest).",
)
@click.option(
    "--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key everywhere."
)
@output_options
@method_options(10_000, N_("Trials per point"), N_("The seed of every point"))
@user_errors
@interruptible
def sweep(
    scenario: str,
    grid_texts: tuple[str, ...],
    overrides: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    how: Callable[..., Method],
) -> None:
    """One study per point of a grid (exact answers with --exact): sweep.csv, sweep.json, a figure.

    Default output: results/runs/<scenario file stem>-sweep-<keys>/.
    """
    from simulator.report.i18n import mass_text, ntr, number_text, tr
    from simulator.report.wording import days_hours
    from simulator.startup import OUTPUT_MODULES, preload
    from simulator.studies.api import run_sweep
    from simulator.studies.loading import load
    from simulator.studies.method import MonteCarlo
    from simulator.studies.result import SweepResult

    # refused, the options are told with the grid's and the scenario's mistakes
    method = how(lambda: parse_grid(grid_texts), lambda: load(scenario, overrides))
    grid = parse_grid(grid_texts)
    if isinstance(method, MonteCarlo) and not no_figures:  # loaded while the trials run
        preload((*OUTPUT_MODULES, "simulator.report.figures_sweep", "pandas"))
    if out is None:  # apart from run's results/<stem>/, and one folder per set of keys
        keys = "-".join(grid)
        if len(keys) > 80:  # a folder name has its limits: the first key and how many more
            keys = f"{next(iter(grid))}-and-{len(grid) - 1}-more"
        out = RUNS / f"{stem_of(scenario)}-sweep-{keys}{method_suffix(method)}"

    def show(result: SweepResult) -> None:  # as soon as it is known, before the figure
        summaries = result.summaries_json()
        if as_json:
            echo_json(summaries)
            return
        name = result.title
        if summaries[0]["method"] == "exact":
            dropped = max(s["dropped_mass"] for s in summaries)
            head = tr("exact answers (dropped mass at most {m})").format(m=mass_text(dropped))
            click.echo(f"{name} — {head}\n")
        else:
            n, seed = summaries[0]["trials"], summaries[0]["seed"]
            count = ntr(
                "{n} trial per point, seed {seed}", "{n} trials per point, seed {seed}", n
            ).format(n=number_text(n), seed=seed)
            click.echo(f"{name} — {count}\n")
        header = [*grid, *(tr(w) for w in ("dies", "heals", "still wounded", "median heal"))]
        rows = []
        for s in summaries:
            median = s["median_time_to_heal_h"]
            rows.append(
                [
                    *(_point_text(v) for v in s["point"].values()),
                    _share(s, "p_dead"),
                    _share(s, "p_healed"),
                    _share(s, "p_wounded", interval=False),
                    "—" if median is None else days_hours(median),
                ]
            )
        widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
        for row in (header, *rows):
            cells = (str(c).ljust(w) for c, w in zip(row, widths, strict=True))
            click.echo(("  " + "  ".join(cells)).rstrip())

    with results_into(out, not no_figures, not as_json, show=show) as answer:
        run_sweep(
            scenario,
            grid,
            method,
            out=out,
            overrides=overrides,
            figures=not no_figures,
            told=answer,
            keep_trials=False,  # only summarised: no chunk read back once the files are written
        )


def _point_text(value: object) -> str:
    """A point's value in the table, as typed (``15min``, ``true``, ``3``).

    A fraction as the language writes it (``0,5`` in French); a table or a list as JSON.
    """
    from simulator.report.i18n import number_text

    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _share(summary: dict[str, Any], key: str, *, interval: bool = True) -> str:
    """A share as the table shows it: exact to four decimals, or sampled (with its interval)."""
    from simulator.report.i18n import exact_percent_text, tr
    from simulator.report.wording import percent, ruled_out

    gone = key[2:] in ruled_out(summary)  # type: ignore[arg-type]
    ruled = tr("ruled out by the rules")
    if summary["method"] == "exact":
        shown = exact_percent_text(summary[key])
        return f"{shown} ({ruled})" if gone else shown
    if not interval:
        return percent(summary[key])
    said = ruled if gone else interval_text(summary[f"{key}_ci"])
    return f"{percent(summary[key])} ({said})"


COMMAND = sweep
