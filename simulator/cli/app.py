"""The ``harmonies-sim`` command (CONTRACT.md): the group, and the registration of commands.

Commands stay thin: they parse, call the package, print. User mistakes print one clear
message per problem and exit with status 2 (:mod:`simulator.cli.common`).

Each command is a module of this package that defines ``COMMAND`` (a click command):
:func:`register` finds them all, so adding a command is adding its module.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from simulator.cli.common import FilterGroup

__all__ = ["main", "register"]


@click.group(cls=FilterGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="harmonies-simulator")
def main() -> None:
    """Simulate the wound rules of Les Arpèges over campaign time.

    \b
    A first tour (see README.md):
      harmonies-sim serve scenarios                       the workbench: edit a table, see the odds
      harmonies-sim trace scenarios/geraldine.toml        one campaign, roll by roll
      harmonies-sim run scenarios/geraldine.toml          how often she dies or heals
      harmonies-sim sweep scenarios/geraldine.toml --grid first_aid.level=0,3,6
      harmonies-sim compare scenarios/geraldine.toml scenarios/geraldine_basic.toml
      harmonies-sim odds                                  the dice, exactly
      harmonies-sim balance scenarios/lone_traveller.toml \\
          --vary rules.table.grave.unstable_period=15min..1d --target p_dead_by_1d=0.2
      harmonies-sim sensitivity scenarios/lone_traveller.toml --stat p_dead_by_1d
      harmonies-sim balance scenarios/lone_traveller.toml \\
          --vary rules.table.grave.unstable_period=15min..1d --target p_dead_by_1d=0.2
      harmonies-sim sensitivity scenarios/lone_traveller.toml --stat p_dead_by_1d
    """  # noqa: D301 (click's \b keeps the lines as they are)


def register(group: click.Group) -> None:
    """Add to ``group`` the ``COMMAND`` of every module of :mod:`simulator.cli` that has one."""
    package = importlib.import_module("simulator.cli")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"simulator.cli.{info.name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, click.Command):
            group.add_command(command)


register(main)
