"""The ``odds`` command: the exact chance of success of a test, for each modifier (D5)."""

from __future__ import annotations

import json

import click

from simulator.cli.options import speaks
from simulator.cli.words import WordedCommand


@click.command(cls=WordedCommand)
@click.option("--open-roll", is_flag=True, help="The open roll ±d10° (D2): tens roll again.")
@click.option("--ties-fail", is_flag=True, help="A margin of exactly 0 fails (D3 setting).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@speaks
def odds(open_roll: bool, ties_fail: bool, as_json: bool) -> None:
    """The exact chance of success for each total modifier, -12 to +12 (D5)."""
    from simulator.rules.dice import odds_table

    table = odds_table(open_roll=open_roll, tie_succeeds=not ties_fail)
    if as_json:
        click.echo(json.dumps(table))
        return
    from simulator.report.i18n import NNBSP, current_language, number_text, tr

    roll = tr("open roll ±d10°") if open_roll else "±d10"
    rule = tr("margin > 0") if ties_fail else tr("margin ≥ 0")
    click.echo(tr("Chance of success with {roll} ({rule} succeeds)").format(roll=roll, rule=rule))
    click.echo("")
    heads = (tr("modifier"), tr("chance"))
    click.echo(f"| {heads[0]} | {heads[1]} |")
    click.echo("|" + "|".join("-" * (len(head) + 1) + ":" for head in heads) + "|")
    english = current_language() == "en"
    for row in table:
        pct = 100 * float(row["p_success"])
        places = 0 if abs(pct - round(pct)) < 1e-9 else 2
        shown = f"{pct:.{places}f}%" if english else f"{number_text(pct, None, places)}{NNBSP}%"
        modifier = f"{int(row['modifier']):+d}"
        click.echo(f"| {modifier if english else modifier.replace('-', '−')} | {shown} |")


COMMAND = odds
