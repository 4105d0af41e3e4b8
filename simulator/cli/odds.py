"""The ``odds`` command: the exact chance of success of a test, for each modifier (D5)."""

from __future__ import annotations

import json

import click


@click.command()
@click.option("--open-roll", is_flag=True, help="The open roll ±d10° (D2): tens roll again.")
@click.option("--ties-fail", is_flag=True, help="A margin of exactly 0 fails (D3 setting).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def odds(open_roll: bool, ties_fail: bool, as_json: bool) -> None:
    """The exact chance of success for each total modifier, -12 to +12 (D5)."""
    from simulator.rules.dice import odds_table

    table = odds_table(open_roll=open_roll, tie_succeeds=not ties_fail)
    if as_json:
        click.echo(json.dumps(table))
        return
    roll = "open roll ±d10°" if open_roll else "±d10"
    rule = "margin > 0" if ties_fail else "margin ≥ 0"
    click.echo(f"Chance of success with {roll} ({rule} succeeds)")
    click.echo("")
    click.echo("| modifier | chance |")
    click.echo("|---------:|-------:|")
    for row in table:
        pct = 100 * float(row["p_success"])
        shown = f"{pct:.0f}%" if abs(pct - round(pct)) < 1e-9 else f"{pct:.2f}%"
        click.echo(f"| {int(row['modifier']):+d} | {shown} |")


COMMAND = odds
