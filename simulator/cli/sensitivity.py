"""The ``sensitivity`` command: each key one notch down and up, ranked by how far it moves.

It parses, calls :func:`simulator.studies.sensitivity_study.sensitivity` over a Monte Carlo
evaluator, prints a table and writes ``sensitivity.csv`` and a tornado chart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.balance import shared_options
from simulator.cli.common import answer_text, now_resumable, printed, user_errors
from simulator.cli.options import evaluating, interruptible, stem_of
from simulator.cli.words import WordedCommand

if TYPE_CHECKING:
    from simulator.studies.method import Method
    from simulator.studies.sensitivity_study import SensitivityResult


def sensitivity_text(result: SensitivityResult, out: Path | None = None) -> str:
    """What ``sensitivity`` prints: a table of keys, the largest swing first."""
    from simulator.report.i18n import (
        exact_percent_text,
        ntr,
        number_text,
        percent_text,
        points_text,
        tr,
    )
    from simulator.studies.statistic import shown

    base = result.base
    share = exact_percent_text if result.method == "exact" else percent_text  # as run --exact
    lines = [f"{result.title or result.name} — {result.stat.text} = {share(base.stat)}"]
    if result.method == "monte-carlo":
        lines.append(
            ntr(
                "Monte Carlo: {trials} trial at each value, seed {seed}, the same "
                "seeds at every value",
                "Monte Carlo: {trials} trials at each value, seed {seed}, the same "
                "seeds at every value",
                result.trials or 0,
            ).format(trials=number_text(result.trials or 0), seed=result.seed)
        )
    else:
        lines.append(tr("Exact"))
    lines.append("")
    header = [tr("key"), tr("value"), tr("one notch down"), tr("one notch up"), tr("swing")]
    rows: list[list[str]] = []
    for row in result.rows:
        cells = []
        for side in ("down", "up"):
            ev = row.down if side == "down" else row.up
            text = row.shown(side)
            told = tr("{value}: {p}").format(value=text, p=share(ev.stat)) if ev else ""
            cells.append(text if ev is None else told)
        rows.append(
            [
                row.key.name,
                shown(row.key, row.value),
                *cells,
                points_text(row.swing, None, 4 if result.method == "exact" else 1)
                + (" *" if row.within_chance else "")
                + (" †" if row.within_dropped_mass else ""),
            ]
        )
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    for line in (header, *rows):
        lines.append(
            ("  " + "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True))).rstrip()
        )
    if any(row.within_chance for row in result.rows):
        lines += [
            "",
            tr(
                "* chance alone could give a swing this size (the two values compared trial by "
                "trial, on the same seeds, at 95%): more trials would tell"
            ),
        ]
    if any(row.within_dropped_mass for row in result.rows):
        from simulator.report.wording import DROPPED_NOTE

        lines += ["", tr(DROPPED_NOTE)]
    return answer_text(lines, out)


@click.command(cls=WordedCommand)
@click.argument("scenario")
@click.option(
    "--keys",
    "keys_text",
    metavar="K1,K2,...",
    help="The keys to move (default: the cells of the rows used, the attributes, "
    "first aid, healing and neglect).",
)
@click.option(
    "--stat",
    default="p_dead",
    show_default=True,
    metavar="STAT",
    help="The statistic, e.g. p_dead or p_dead_by_1d.",
)
@click.option(
    "--notch",
    multiple=True,
    metavar="KEY=DOWN,UP",
    help="The two values of a key (default: one notch each way); repeatable.",
)
@shared_options
@user_errors
@interruptible
def sensitivity(
    scenario: str,
    keys_text: str | None,
    stat: str,
    notch: tuple[str, ...],
    how: Callable[[], Method],
    overrides: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    lang: str | None,
) -> None:
    """Each key one notch down and up, ranked by swing (sensitivity.csv and a tornado chart).

    Default output: results/runs/<scenario file stem>-sensitivity/ (-exact with --exact).
    """
    from simulator.errors import UserError, phrase
    from simulator.report.i18n import language
    from simulator.studies.sensitivity_study import sensitivity as rank

    with language(lang):
        keys = None
        if keys_text is not None:
            keys = [k.strip() for k in keys_text.split(",")]
            if not all(keys):
                raise UserError(
                    phrase(
                        "--keys: got {value}; expected K1,K2,... dotted keys", value=repr(keys_text)
                    )
                )
        show = printed(as_json, lambda r: r.to_json(), sensitivity_text)
        default = f"{stem_of(scenario)}-sensitivity"
        with evaluating(how, out, default, show, as_json, no_figures) as (folder, evaluate, answer):
            rank(
                scenario,
                evaluate,
                keys=keys,
                stat=stat,
                notch=notch,
                overrides=overrides,
                out=folder,
                figures=not no_figures,
                told=answer,
                kept=now_resumable,  # resumed from the folder, or an evaluation kept there
            )


COMMAND = sensitivity
"""The ``sensitivity`` command, named in :data:`simulator.cli.app.COMMANDS`."""
