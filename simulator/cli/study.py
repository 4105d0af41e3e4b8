"""The ``study`` command: every scenario of a directory, and an index (the main study).

Output and Ctrl-C behave as for ``run`` (:mod:`simulator.cli.run`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.common import user_errors
from simulator.cli.options import (
    RUNS,
    folder_path,
    interruptible,
    method_options,
    method_suffix,
    speaks,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from simulator.studies.method import Method


@click.command()
@click.argument("directory", type=click.Path())
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Output directory (default: results/runs/<DIRECTORY's name>/; make run: results).",
)
@method_options(4_000, "Trials per scenario", "The seed of every study", chunks=False)
@speaks
@user_errors
@interruptible
def study(directory: str, out: Path | None, how: Callable[[], Method]) -> None:
    """Run every scenario (*.toml) of DIRECTORY; write OUT/<stem>/ and OUT/README.md.

    With --exact: every scenario's exact answer instead (no trials, no seed).
    """
    from simulator.report.i18n import tr
    from simulator.report.wording import answer
    from simulator.studies.main_study import run_directory

    method = how()
    if out is None:
        out = RUNS / f"{Path(directory).resolve().name or 'study'}{method_suffix(method)}"
    results = run_directory(directory, method, out=out)
    for path, result in results:
        click.echo(f"{path.stem}: {answer(result.summary_json(), mental=result.has_mental_wounds)}")
    click.echo(f"\n{tr('Index')}: {out / 'README.md'}")


COMMAND = study
