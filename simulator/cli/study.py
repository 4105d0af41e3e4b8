"""The ``study`` command: every scenario of a directory, and an index (the main study).

Output and Ctrl-C behave as for ``run`` (:mod:`simulator.cli.run`).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.common import user_errors
from simulator.cli.options import (
    RUNS,
    backend_options,
    exact_options,
    folder_path,
    interruptible,
    progress_wanted,
    speaks,
)

if TYPE_CHECKING:
    from simulator.studies.backends import BackendName


@click.command()
@click.argument("directory", type=click.Path())
@click.option("--trials", type=int, default=4_000, show_default=True, help="Trials per scenario.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every study.")
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Output directory (default: results/runs/<DIRECTORY's name>/; make run: results).",
)
@click.option("--written-by", hidden=True, help="What the index says wrote it (make run).")
@exact_options
@backend_options
@speaks
@user_errors
@interruptible
def study(
    directory: str,
    trials: int,
    seed: int,
    out: Path | None,
    exact: bool,
    eps: float,
    max_states: int,
    workers: int | None,
    backend: BackendName,
    scheduler: str | None,
    quiet: bool,
    written_by: str | None,
) -> None:
    """Run every scenario (*.toml) of DIRECTORY; write OUT/<stem>/ and OUT/README.md.

    With --exact: every scenario's exact answer instead (no trials, no seed).
    """
    from simulator.report.i18n import tr
    from simulator.report.wording import answer
    from simulator.studies.main_study import run_directory

    command = written_by or _command_line(directory, trials, seed, out, exact)

    if out is None:
        suffix = "-exact" if exact else ""
        out = RUNS / f"{Path(directory).resolve().name or 'study'}{suffix}"
    if exact:
        from simulator.studies.exact_many import run_exact_directory

        answers = run_exact_directory(
            Path(directory), out=out, eps=eps, max_states=max_states, command=command
        )
        for path, exact_result in answers:
            summary = exact_result.summary_json()
            click.echo(f"{path.stem}: {answer(summary, mental=exact_result.has_mental_wounds)}")
        click.echo(f"\n{tr('Index')}: {out / 'README.md'}")
        return
    results = run_directory(
        directory,
        trials=trials,
        seed=seed,
        out=out,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        progress=progress_wanted(quiet),
        command=command,
    )
    for path, result in results:
        click.echo(f"{path.stem}: {answer(result.summary_json(), mental=result.has_mental_wounds)}")
    click.echo(f"\n{tr('Index')}: {out / 'README.md'}")


def _command_line(directory: str, trials: int, seed: int, out: Path | None, exact: bool) -> str:
    """The ``study`` command that writes this index, as the index says (its main arguments)."""
    from simulator.report.i18n import current_language

    args = ["harmonies-sim", "study", directory]
    args += ["--exact"] if exact else ["--trials", str(trials), "--seed", str(seed)]
    if out is not None:
        args += ["--out", str(out)]
    if current_language() != "en":
        args += ["--lang", current_language()]
    return shlex.join(args)


COMMAND = study
