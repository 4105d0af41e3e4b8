"""The ``run`` command: a study of one scenario, sampled or exact (CONTRACT.md).

It parses, calls :func:`simulator.studies.api.run_study` with the method and prints. With
``--json`` only the JSON document goes to stdout; the progress bar goes to stderr and shows
only on a terminal. A run stopped by Ctrl-C keeps its finished chunks: the same command
started again resumes it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from simulator.cli.common import answer_text, printed, results_into, user_errors
from simulator.cli.options import (
    RUNS,
    interruptible,
    interval_text,
    method_options,
    method_suffix,
    output_options,
    set_option,
    stem_of,
)
from simulator.cli.words import WordedCommand

if TYPE_CHECKING:
    from collections.abc import Callable

    from simulator.rules.outcome import Summary
    from simulator.studies.method import Method


def cause_rows(summary: Summary) -> list[tuple[str, float, list[float]]]:
    """Q3: the causes of death of a summary as rows under "dies", largest first, zeros out."""
    from simulator.report.causes import cause_label, ranked_causes

    return [(cause_label(c), p, ci) for c, p, ci in ranked_causes(summary)]


def cause_width(summary: Summary) -> int:
    """The width of the causes' names under "dies" (the shares then line up)."""
    return max((len(name) for name, _, _ in cause_rows(summary)), default=0) + 2


def summary_table(summary: Summary, out: Path | None = None, title: str = "") -> str:
    """The plain-text summary of ``run``: what a designer reads at a glance.

    ``title``: the scenario's name in the language in force (by default the summary's).
    """
    from simulator.report.i18n import ntr, number_text, tr
    from simulator.report.wording import OUTCOME_ROWS, percent, ruled_out, titled

    name = title or titled(summary["scenario"], summary.get("overrides", ()))
    width = cause_width(summary)
    trials = summary["trials"] or 0
    count = ntr("{n} trial, seed {seed}", "{n} trials, seed {seed}", trials).format(
        n=number_text(trials), seed=summary["seed"]
    )
    lines = [f"{name} — {count}", ""]
    ci, gone = tr("95% CI"), ruled_out(summary)
    fields = cast("dict[str, Any]", summary)  # each outcome looked up by its key
    for label, key in OUTCOME_ROWS:
        interval = f"{ci} {interval_text(fields[f'{key}_ci'])}"
        if key[2:] in gone:  # proven out of reach: no sampling interval to tell
            interval = tr("ruled out by the rules")
        lines.append(f"  {tr(label):<15}{percent(fields[key]):>7}   ({interval})")
        if key == "p_dead":
            lines += [f"    {name:<{width}}{percent(p):>7}   ({ci} {interval_text(low_high)})"
                      for name, p, low_high in cause_rows(summary)]  # fmt: skip
    lines += ["", *_measures(summary, 2)]
    return answer_text(lines, out)


def _measures(summary: Summary, decimals: int) -> list[str]:
    """The median time to heal and the mean aggravations, as ``run`` prints them."""
    from simulator.report.i18n import hours_and_raw, number_text, tr

    median = summary["median_time_to_heal_h"]
    shown = tr("none healed") if median is None else hours_and_raw(median)
    heal, aggravations = tr("median time to heal"), tr("mean aggravations")
    width = max(22, len(heal) + 2, len(aggravations) + 2)
    mean = number_text(summary["mean_aggravations"], None, decimals)
    return [f"  {heal:<{width}}{shown}", f"  {aggravations:<{width}}{mean}"]


def exact_table(summary: Summary, out: Path | None = None, title: str = "") -> str:
    """The plain-text summary of ``run --exact``: exact shares, and the mass dropped."""
    from simulator.report.i18n import exact_percent_text, mass_text, ntr, number_text, tr
    from simulator.report.wording import OUTCOME_ROWS, ruled_out, titled

    name = title or titled(summary["scenario"], summary.get("overrides", ()))
    width = cause_width(summary)
    dropped = mass_text(summary["dropped_mass"])
    head = ntr(
        "exact answer (dropped mass {m}, {n} state carried)",
        "exact answer (dropped mass {m}, {n} states carried)",
        summary["states"],
    ).format(m=dropped, n=number_text(summary["states"]))
    lines = [f"{name} — {head}", ""]
    exact, gone = tr("exact"), ruled_out(summary)
    fields = cast("dict[str, Any]", summary)  # each outcome looked up by its key
    for label, key in OUTCOME_ROWS:
        how = tr("ruled out by the rules") if key[2:] in gone else exact
        lines.append(f"  {tr(label):<15}{exact_percent_text(fields[key]):>10}   ({how})")
        if key == "p_dead":
            lines += [f"    {name:<{width}}{exact_percent_text(p):>10}   ({exact})"
                      for name, p, _ in cause_rows(summary)]  # fmt: skip
    lines += [
        "",
        *_measures(summary, 4),
        "",
        tr("Exact up to the dropped mass: each true share lies in [share, share + {m}].").format(
            m=dropped
        ),
    ]
    return answer_text(lines, out)


def table_of(summary: Summary, out: Path | None = None, title: str = "") -> str:
    """The plain-text summary of ``run``, sampled or exact (as the summary's method says)."""
    table = exact_table if summary.get("method") == "exact" else summary_table
    return table(summary, out, title)


@click.command(cls=WordedCommand)
@click.argument("scenario")
@set_option
@output_options
@method_options()
@user_errors
@interruptible
def run(
    scenario: str,
    overrides: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    how: Callable[..., Method],
) -> None:
    """Monte Carlo study of one scenario, or its exact answer with --exact.

    Default output: results/runs/<file stem>/ (with --exact: results/runs/<file stem>-exact/).
    """
    from simulator.startup import NO_JIT_VARIABLE, plain_kernel_for, preload
    from simulator.studies.api import run_study
    from simulator.studies.loading import load
    from simulator.studies.method import MonteCarlo
    from simulator.studies.result import StudyResult

    method = how(lambda: load(scenario, overrides))  # refused: the scenario's mistakes too
    # A small run does not wait for numba; a larger one loads the figures' libraries while
    # its compiled trials run (trials in plain Python, HARMONIES_NO_JIT=1, hold the
    # interpreter: loading beside them would only delay the answer).
    compiled = os.environ.get(NO_JIT_VARIABLE) != "1"
    if (
        isinstance(method, MonteCarlo)
        and not plain_kernel_for(method.trials)
        and compiled
        and not no_figures
    ):
        preload()
    out = out if out is not None else RUNS / f"{stem_of(scenario)}{method_suffix(method)}"

    def text(result: StudyResult) -> str:
        return table_of(result.summary_json(), title=result.title)

    show = printed(as_json, lambda r: r.summary_json(), text)  # before the figures
    with results_into(out, not no_figures, not as_json, show=show) as answer:
        run_study(
            scenario, method, out=out, overrides=overrides, figures=not no_figures, told=answer
        )


COMMAND = run
