"""The ``harmonies-sim`` command (CONTRACT.md): the group, and the commands it holds.

Commands stay thin: they parse, call the package, print. User mistakes print one clear
message per problem and exit with status 2 (:mod:`simulator.cli.common`).

Each command is a module of this package that defines ``COMMAND`` (a click command), named
in :data:`COMMANDS`: a command's module, and what it imports (pandas, matplotlib, the exact
engine), is imported only when that command runs, so that ``validate`` and ``odds`` start
quickly; ``--help`` still lists every command, and a mistyped one still gets its hint.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click

from simulator.cli.common import FilterGroup
from simulator.cli.words import WordedGroup, given_language

__all__ = ["COMMANDS", "CommandGroup", "main"]

COMMANDS = (
    "balance",
    "calibrate",
    "compare",
    "odds",
    "run",
    "sensitivity",
    "serve",
    "study",
    "sweep",
    "trace",
    "validate",
)
"""Every command, by name: each is the ``COMMAND`` of the module of this package so named."""


class CommandGroup(WordedGroup, FilterGroup):
    """The group of :data:`COMMANDS`, each module imported on the command's first use.

    The whole command line runs in the language of its ``--lang`` (:func:`given_language`),
    read before click parses it: ``--help`` and click's usage errors are worded in it too.
    """

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        """Run the command line in the language it asks for."""
        from simulator.report.i18n import language

        given = sys.argv[1:] if args is None else list(args)
        with language(given_language(given)):
            return super().main(args, *rest, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, loaded or not (for ``--help``)."""
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command so named, its module imported now if it was not yet."""
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            self.load((cmd_name,))
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Find the command; a name that is none loads them all, for click's hint of the nearest."""
        if args and args[0] not in COMMANDS:
            self.load(COMMANDS)
        return super().resolve_command(ctx, args)

    def load(self, names: Iterable[str]) -> None:
        """Import the module of each command of ``names`` not yet loaded, and add its command."""
        for name in names:
            if name not in self.commands:
                command = importlib.import_module(f"simulator.cli.{name}").COMMAND
                assert isinstance(command, click.Command) and command.name == name, name
                self.add_command(command)


def load_for(args: list[str]) -> None:
    """Import now what the command line ``args`` will run: its command, or every command.

    :mod:`simulator.__main__` calls it while start-up's Ctrl-C is in force, so that Ctrl-C
    during these imports ends the command as it did when every command was imported at start.
    ``--help``, ``--version`` and mistakes load every command, as then.
    """
    main.load(args[:1] if args[:1] and args[0] in COMMANDS else COMMANDS)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the version, and whether the compiled rules kernel is in use."""
    if not value or ctx.resilient_parsing:
        return
    from simulator import __version__
    from simulator.kernel.jit import status

    click.echo(f"harmonies-sim, version {__version__}\n{status()}")
    ctx.exit()


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show the version and whether the compiled rules kernel is in use, and exit.",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "fr"], case_sensitive=False),
    expose_value=False,
    help="Language of the help and of every message (fr); the same as a command's --lang.",
)
def main() -> None:
    """Simulate the wound rules of Les Arpèges over campaign time.

    \b
    A first tour (see README.md):
      harmonies-sim serve scenarios                       the workbench: edit a table, see the odds
      harmonies-sim trace scenarios/field_medic.toml      one campaign, roll by roll
      harmonies-sim run scenarios/field_medic.toml        how often the soldier dies or heals
      harmonies-sim sweep scenarios/field_medic.toml --grid first_aid.level=0,3,6
      harmonies-sim compare scenarios/geraldine.toml scenarios/geraldine_basic.toml
                                                          the table's rules, then the basic ones
      harmonies-sim odds                                  the dice, exactly
      harmonies-sim balance scenarios/lone_traveller.toml \\
          --vary rules.table.grave.unstable_period=15min..1d --target p_dead_by_1d=0.2
      harmonies-sim sensitivity scenarios/lone_traveller.toml --set horizon=1d \\
          --set rules.table.grave.unstable_period=12h --stat p_dead_by_1d
    """  # noqa: D301 (click's \b keeps the lines as they are)
