"""The ``compare`` command: two scenarios on the same random streams, and their differences.

Both studies' chunks go to the backend at once (:func:`simulator.studies.api.run_compare`);
output and Ctrl-C behave as for ``run``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.common import echo_json, results_into, tell, user_errors
from simulator.cli.options import (
    RUNS,
    interruptible,
    method_options,
    method_suffix,
    output_options,
    stem_of,
)
from simulator.cli.words import WordedCommand
from simulator.errors import N_

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

    from simulator.studies.method import Method


def _points(value: float, decimals: int = 1) -> str:
    """A difference of shares in points, signed; ``0.0`` when it rounds to 0.

    One decimal, four for exact answers (as their shares), rounded as the report page rounds
    the CSV's number.
    """
    from simulator.report.i18n import current_language, signed_points

    text = signed_points(value, decimals)
    return text.replace("\u2212", "-") if current_language() == "en" else text


COUNT_LABELS = {
    "mean_aggravations": N_("aggravations"),
    "mean_survival_tests": N_("survival tests"),
    "mean_first_aid_attempts": N_("first-aid attempts"),
    "mean_healing_tests": N_("healing tests"),
    "mean_faints": N_("faints"),
}
"""The rows of the mean counts, under their own header."""


def _counts(rows: pd.DataFrame, exact: bool, width: int, cell: int, dropped: float) -> None:
    """The mean counts per trial of both sides, and A − B with its interval.

    Two decimals, four for exact answers (as ``run`` shows a mean). An exact difference has
    no interval to tell: it is the number itself, or, when some mass was dropped, its bounds
    are unknown (the dropped states' later tests are not counted), which a line says.
    """
    from simulator.report.i18n import number_text, signed_number, tr

    decimals = 4 if exact else 2
    values = [number_text(row[side], None, decimals) for _, row in rows.iterrows() for side in "ab"]
    cell = max(cell, *(len(v) for v in values))
    width = max(width, *(len(tr(COUNT_LABELS[m])) + 2 for m in rows["measure"]))
    header = tr("A − B (exact)") if exact else tr("A − B (95% CI)")
    title = tr("mean per trial")
    click.echo(f"\n  {title:<{width}}{'A':>{cell}}  {'B':>{cell}}   {header}")
    for _, row in rows.iterrows():
        diff = signed_number(row["difference"], decimals)
        if not (exact and row["low"] == row["high"]) and math.isfinite(row["low"]):
            low, high = (signed_number(row[k], decimals) for k in ("low", "high"))
            diff = f"{diff} ({low} {tr('to')} {high})"
        elif not exact:  # a count that rarely moves: no interval claimed (see the stats)
            unbounded = tr("(the same difference in every trial but at most nine: no interval)")
            diff = f"{diff} {unbounded}"
        a_text, b_text = (number_text(row[k], None, decimals) for k in "ab")
        label = tr(COUNT_LABELS[row["measure"]])
        click.echo(f"  {label:<{width}}{a_text:>{cell}}  {b_text:>{cell}}   {diff}")
    if exact and dropped > 0:
        click.echo(
            "  "
            + tr("(means of the mass kept: what the dropped mass would count is unknown, "
                 "so no bounds)")
        )  # fmt: skip


@click.command(cls=WordedCommand)
@click.argument("a")
@click.argument("b")
@click.option(
    "--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key of both."
)
@click.option("--set-a", "set_a", multiple=True, metavar="KEY=VALUE", help="Override a key of A.")
@click.option(
    "--set-b",
    "set_b",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a key of B (e.g. the same file as A with --set-b ruleset=basic).",
)
@output_options
@method_options(10_000, N_("Trials of each"), N_("The seed of both"))
@user_errors
@interruptible
def compare(
    a: str,
    b: str,
    overrides: tuple[str, ...],
    set_a: tuple[str, ...],
    set_b: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    how: Callable[..., Method],
) -> None:
    """Two scenarios on the same seeds; differences (A − B) with 95% paired intervals.

    With --exact: both answers exact, the differences too (up to the mass each dropped).

    Default output: results/runs/<A's file stem>-vs-<B's file stem>/ (-exact with --exact).
    """
    from simulator.report.causes import cause_label, cause_order
    from simulator.report.i18n import colon, exact_percent_text, tr
    from simulator.report.pages.sections import both_ruled_out
    from simulator.report.wording import OUTCOME_ROWS, comparison_how, horizons_note, percent
    from simulator.studies.api import load_both, run_compare
    from simulator.studies.result import CAUSE_MEASURES, COUNTED, CompareResult

    # refused, the options are told with both scenarios' mistakes
    method = how(lambda: load_both(a, b, overrides, set_a, set_b))
    suffix = method_suffix(method)
    out = out if out is not None else RUNS / f"{stem_of(a)}-vs-{stem_of(b)}{suffix}"

    def show(result: CompareResult) -> None:  # as soon as it is known, before the figure
        horizons = horizons_note(result.a.scenario.horizon, result.b.scenario.horizon)
        if horizons is not None:
            # the ``note:`` prefix is tell's, the same in every language (scripts look for it)
            tell("note", horizons)
        if as_json:
            echo_json(result.to_json())
            return
        click.echo(f"A{colon()}{result.a.title}\nB{colon()}{result.b.title}")
        rows = result.difference[["measure", "a", "b"]].itertuples(index=False)
        shown = [m[len("p_dead_") :] for m, a_, b_ in rows if m in CAUSE_MEASURES and (a_ or b_)]
        width = max([15, *(len(cause_label(c)) + 4 for c in shown)])
        dropped = max(result.a.dropped_mass, result.b.dropped_mass)
        n = result.a.estimate.count or 0
        head = comparison_how(result.a.method == "exact", n, result.a.seed, dropped)
        click.echo(f"{head}\n")
        if result.a.method == "exact":
            header = tr("A − B (exact, percentage points)")
        else:
            header = tr("A − B (95% CI, percentage points)")
        labels = {key: word for word, key in OUTCOME_ROWS}
        exact = result.a.method == "exact"  # exact shares to four decimals, as run shows them
        share = exact_percent_text if exact else percent
        cell = max(  # a sampled share near 0 or 1 keeps its digits (99.95%): columns follow
            7,
            *(len(share(row[side])) for _, row in result.difference.iterrows() for side in "ab"),
        )
        shares = result.difference[~result.difference["measure"].isin(COUNTED)]
        counted = result.difference[result.difference["measure"].isin(COUNTED)]
        click.echo(f"  {'':<{width}}{'A':>{cell}}  {'B':>{cell}}   {header}")
        by_measure = {row["measure"]: row for _, row in shares.iterrows()}
        a_shares = {c: float(by_measure[f"p_dead_{c}"]["a"]) for c in shown}
        ranked = [by_measure[f"p_dead_{c}"] for c in cause_order(a_shares, shown)]
        ordered = []  # Q3: the causes under "dies", A's largest first (as run A prints them)
        for _, row in shares.iterrows():
            if row["measure"] not in CAUSE_MEASURES:  # a cause of neither side's deaths: out
                ordered.append(row)
                if row["measure"] == "p_dead":
                    ordered += ranked
        both = both_ruled_out({"a": result.a.summary_json(), "b": result.b.summary_json()})
        ruled = tr("ruled out by the rules")
        for row in ordered:
            cause = row["measure"][len("p_dead_") :] if row["measure"] in CAUSE_MEASURES else None
            parts = [_points(row[k], 4 if exact else 1) for k in ("difference", "low", "high")]
            diff = f"{parts[0]} ({parts[1]} {tr('to')} {parts[2]})"
            if row["measure"][2:] in both:  # 0 on both sides by proof, not by sampling
                diff = f"{parts[0]} ({ruled})"
            label = f"  {cause_label(cause)}" if cause else tr(labels[row["measure"]])
            a_text, b_text = share(row["a"]), share(row["b"])
            click.echo(f"  {label:<{width}}{a_text:>{cell}}  {b_text:>{cell}}   {diff}")
        dropped = max(result.a.dropped_mass, result.b.dropped_mass) if exact else 0.0
        _counts(counted, exact, width, cell, dropped)

    with results_into(out, not no_figures, not as_json, show=show) as answer:
        run_compare(
            a,
            b,
            method,
            out=out,
            overrides=overrides,
            overrides_a=set_a,
            overrides_b=set_b,
            figures=not no_figures,
            told=answer,
        )


COMMAND = compare
