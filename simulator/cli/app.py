"""The ``harmonies-sim`` command (CONTRACT.md).

Commands stay thin: they parse, call the package, print. User mistakes print one clear
message per problem and exit with status 2.
"""

from __future__ import annotations

import json

import click

from simulator.cli.common import EXIT_USER_ERROR, user_errors

__all__ = ["EXIT_USER_ERROR", "main", "user_errors"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="harmonies-simulator")
def main() -> None:
    """Simulate the wound rules of Les Arpèges over campaign time.

    \b
    A first tour (see README.md):
      harmonies-sim trace scenarios/geraldine.toml        one campaign, roll by roll
      harmonies-sim run scenarios/geraldine.toml          how often she dies or heals
      harmonies-sim sweep scenarios/geraldine.toml --grid first_aid.level=0,3,6
      harmonies-sim compare scenarios/geraldine.toml scenarios/geraldine_basic.toml
      harmonies-sim odds                                  the dice, exactly
    """  # noqa: D301 (click's \b keeps the lines as they are)


@main.command()
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


def _register_optional() -> None:
    """Attach the commands that live in other modules (kept apart to stay small)."""
    from simulator.cli import scenario as cli_scenario
    from simulator.cli import study as cli_study
    from simulator.cli import sweep as cli_sweep
    from simulator.cli import trace as cli_trace

    modules = (cli_scenario, cli_trace, cli_study, cli_sweep)
    for command in (c for module in modules for c in module.COMMANDS):
        main.add_command(command)


_register_optional()
