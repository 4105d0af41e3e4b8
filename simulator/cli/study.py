"""The ``study`` command: every scenario of a directory, and an index (the main study).

Output and Ctrl-C behave as for ``run`` (:mod:`simulator.cli.run`).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.common import echo_json, user_errors
from simulator.cli.options import (
    RUNS,
    folder_path,
    interruptible,
    method_options,
    method_suffix,
    speaks,
)
from simulator.cli.words import WordedCommand
from simulator.errors import N_

if TYPE_CHECKING:
    from collections.abc import Callable

    from simulator.studies.method import Method


@click.command(cls=WordedCommand)
@click.argument("directory", type=click.Path())
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Output directory (default: results/runs/<DIRECTORY's name>/; make run: results).",
)
@click.option("--written-by", hidden=True, help="What the index says wrote it (make run).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print only JSON on stdout: a list of each scenario's summary, with its file.",
)
@click.option("--no-figures", is_flag=True, help="Do not draw the figures.")
@method_options(4_000, N_("Trials per scenario"), N_("The seed of every study"), chunks=False)
@speaks
@user_errors
@interruptible
def study(
    directory: str,
    out: Path | None,
    written_by: str | None,
    as_json: bool,
    no_figures: bool,
    how: Callable[..., Method],
) -> None:
    """Run every scenario (*.toml) of DIRECTORY; write OUT/<stem>/ and OUT/README.md.

    With --exact: every scenario's exact answer instead (no trials, no seed).
    """
    from simulator.errors import UserError
    from simulator.report.i18n import colon, tr
    from simulator.report.wording import answer
    from simulator.studies.main_study import run_directory, scenarios_of
    from simulator.studies.result import StudyResult

    method = how(lambda: scenarios_of(directory))  # refused: the folder's mistakes too
    command = written_by or _command_line(directory, method, out, not no_figures)
    if out is None:
        out = RUNS / f"{Path(directory).resolve().name or 'study'}{method_suffix(method)}"

    answers: list[dict[str, object]] = []

    def told(path: Path, result: StudyResult) -> None:  # each answer before its figures
        if as_json:
            answers.append({"file": path.name, **result.summary_json()})
            return
        said = answer(result.summary_json(), mental=result.has_mental_wounds)
        click.echo(f"{path.stem}{colon()}{said}")  # "geraldine : meurt..." in French

    try:
        run_directory(
            directory, method, out=out, command=command, told=told, figures=not no_figures
        )
    except UserError:
        if as_json:  # the answers found before a scenario was refused (--exact) still come
            echo_json(answers)
        raise
    if as_json:  # once every scenario is done: one document (as sweep --json)
        echo_json(answers)
        return
    click.echo(f"\n{tr('Index')}{colon()}{out / 'README.md'}")


def _command_line(directory: str, method: Method, out: Path | None, figures: bool = True) -> str:
    """The ``study`` command that writes this index, as the index says (its main arguments)."""
    from simulator.report.i18n import current_language
    from simulator.studies.method import MonteCarlo

    args = ["harmonies-sim", "study", directory]
    if isinstance(method, MonteCarlo):
        args += ["--trials", str(method.trials), "--seed", str(method.seed)]
    else:
        args += ["--exact"]
    if out is not None:
        args += ["--out", str(out)]
    if not figures:
        args += ["--no-figures"]
    if current_language() != "en":
        args += ["--lang", current_language()]
    return shlex.join(args)


COMMAND = study
