"""The ``balance`` command: the value of one key that brings a statistic to a target.

It and ``sensitivity`` (:mod:`simulator.cli.sensitivity`, which shares its options) are the
designer's questions, each one command. Both parse, call :mod:`simulator.studies.balance_study`
(or :mod:`simulator.studies.sensitivity_study`) with a method
(:class:`~simulator.studies.method.MonteCarlo` or ``Exact``), print, and write their
results (``balance.csv``, ``sensitivity.csv``, a figure) to ``--out``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from simulator.cli.common import answer_text, now_resumable, printed, user_errors
from simulator.cli.options import (
    evaluating,
    folder_path,
    interruptible,
    lang_option,
    method_options,
    stem_of,
)
from simulator.cli.words import WordedCommand
from simulator.errors import N_

if TYPE_CHECKING:
    from simulator.studies.balance_study import BalanceResult, Point
    from simulator.studies.method import Method


def shared_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Options of both commands: how to evaluate (one ``how``), set, out, json, figures, lang."""
    options = [
        click.option(
            "--set",
            "overrides",
            multiple=True,
            metavar="KEY=VALUE",
            help="Override a scenario key first; repeatable.",
        ),
        click.option("--out", type=click.Path(), callback=folder_path, help="Output directory."),
        click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout."),
        click.option("--no-figures", is_flag=True, help="Do not draw the figure."),
        lang_option,
    ]
    func = method_options(
        10_000,
        N_("Trials at each value (Monte Carlo)"),
        N_("The seed of every value, the same random streams everywhere"),
        chunks=False,
    )(func)
    for option in reversed(options):
        func = option(func)
    return func


NOTE = "note: "
"""The prefix of each note in balance's answer, the same in every language: scripts look for
it, as for the ``note:`` lines on stderr (:func:`~simulator.cli.common.tell`)."""


def _at(result: BalanceResult, point: Point) -> str:
    from simulator.cli.options import interval_text
    from simulator.report.i18n import exact_percent_text, percent_text, tr
    from simulator.studies.statistic import shown

    ev = point.evaluation
    ci = f" ({interval_text(list(ev.ci))})" if ev.trials is not None else ""
    share = percent_text if ev.trials is not None else exact_percent_text  # as run --exact
    return tr("{value}: {stat} = {p}{ci}").format(
        value=shown(result.key, point.value), stat=result.stat.text, p=share(ev.stat), ci=ci
    )


def balance_text(result: BalanceResult, out: Path | None = None) -> str:
    """What ``balance`` prints: the bracket, or where the range's ends stand, and notes."""
    from simulator.report.i18n import ntr, number_text, percent_text, tr
    from simulator.report.wording import STEPS, overlap_note, steps_across
    from simulator.studies.statistic import shown

    key, low, high = result.key, result.points[0], result.points[-1]
    name = result.title or result.name
    lines = [
        f"{name} — {key.name} {tr('from')} {shown(key, low.value)} {tr('to')} "
        f"{shown(key, high.value)}, {tr('target')} {result.stat.text} = "
        f"{percent_text(result.target)}",
    ]
    evaluated = tr("{n} values evaluated").format(n=len(result.points))
    if result.method == "monte-carlo":
        lines.append(
            ntr(
                "Monte Carlo: {trials} trial at each value, seed {seed}, the same seeds at "
                "every value; {evaluated}",
                "Monte Carlo: {trials} trials at each value, seed {seed}, the same seeds at "
                "every value; {evaluated}",
                result.trials or 0,
            ).format(trials=number_text(result.trials or 0), seed=result.seed, evaluated=evaluated)
        )
    else:
        lines.append(tr("Exact; {evaluated}").format(evaluated=evaluated))
    lines.append("")
    if not result.monotone:
        lines.append(
            NOTE
            + tr(
                "the statistic is not monotone over the range (it rises and "
                "falls over the values evaluated); every crossing found is listed."
            )
        )
        lines.append("")
    if result.outside:
        lines.append(tr("The target lies outside the range: no value evaluated reaches it."))
        lines.append(f"  {_at(result, low)}")
        lines.append(f"  {_at(result, high)}")
    for point in result.hits:
        lines.append(tr("Exactly on the target: {at}").format(at=_at(result, point)))
    for number, (a, b) in enumerate(result.crossings, 1):
        many = f" ({number}/{len(result.crossings)})" if len(result.crossings) > 1 else ""
        head = tr("The target lies between two neighbouring values{count}:").format(count=many)
        lines += [head, f"  {_at(result, a)}", f"  {_at(result, b)}"]
        if steps_across(a.stat, b.stat, result.target):
            lines.append("  " + NOTE + tr(STEPS).format(key=key.name))
        overlaps, needed = result.overlap((a, b))
        if overlaps:
            lines.append("  " + NOTE + overlap_note(needed))
    if len(result.crossings) + len(result.hits) > 1:
        lines += ["", tr("Nearest the target: {at}").format(at=_at(result, result.best))]
    return answer_text(lines, out)


@click.command(cls=WordedCommand)
@click.argument("scenario")
@click.option(
    "--vary",
    required=True,
    metavar="KEY=LOW..HIGH",
    help="The key to move and its range, e.g. rules.table.grave.unstable_period=15min..1d",
)
@click.option(
    "--target",
    required=True,
    metavar="STAT=VALUE",
    help="The statistic and its target, e.g. p_dead_by_1d=0.2",
)
@shared_options
@user_errors
@interruptible
def balance(
    scenario: str,
    vary: str,
    target: str,
    how: Callable[[], Method],
    overrides: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    lang: str | None,
) -> None:
    """The value of one key that brings a statistic to a target (balance.csv and a figure).

    Default output: results/runs/<scenario file stem>-balance-<key>/ (-exact with --exact).
    """
    from simulator.report.i18n import language
    from simulator.studies.balance_study import balance as find

    with language(lang):
        name = vary.partition("=")[0].strip() or "key"
        show = printed(as_json, lambda r: r.to_json(), balance_text)
        default = f"{stem_of(scenario)}-balance-{name[:80]}"
        with evaluating(how, out, default, show, as_json, no_figures) as (folder, evaluate, answer):
            find(
                scenario,
                vary,
                target,
                evaluate,
                overrides=overrides,
                out=folder,
                figures=not no_figures,
                told=answer,
                kept=now_resumable,  # resumed from the folder, or an evaluation kept there
            )


COMMAND = balance
"""The ``balance`` command, named in :data:`simulator.cli.app.COMMANDS`."""
