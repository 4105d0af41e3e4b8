"""Commands of Monte Carlo studies: ``run`` (one scenario) and ``study`` (a directory).

Each command parses, calls :mod:`simulator.studies.api` (or
:mod:`simulator.studies.result`) and prints.
With ``--json`` only the JSON document goes to stdout; the progress bar goes to stderr and
shows only on a terminal. A run stopped by Ctrl-C keeps its finished chunks: the same
command started again resumes it. ``sweep`` and ``compare`` are in
:mod:`simulator.cli.sweep`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from simulator.cli.common import user_errors
from simulator.cli.options import (
    RUNS,
    backend_options,
    echo_json,
    execution,
    folder_path,
    interruptible,
    interval_text,
    output_options,
    progress_wanted,
    stem_of,
)

COMMANDS: list[click.Command] = []


def summary_table(summary: dict[str, Any], out: Path | None = None) -> str:
    """The plain-text summary of ``run``: what a designer reads at a glance."""
    from simulator.studies.result import days_hours, percent, titled

    name = titled(summary["scenario"], summary.get("overrides", ()))
    lines = [f"{name} — {summary['trials']:,} trials, seed {summary['seed']}", ""]
    rows = [
        ("dies", "p_dead"),
        ("heals", "p_healed"),
        ("still wounded", "p_wounded"),
        ("incoherent", "p_incoherent"),
    ]
    for label, key in rows:
        interval = interval_text(summary[f"{key}_ci"])
        lines.append(f"  {label:<15}{percent(summary[key]):>7}   (95% CI {interval})")
    median = summary["median_time_to_heal_h"]
    shown = "none healed" if median is None else f"{days_hours(median)} ({median:.1f} h)"
    lines += [
        "",
        f"  {'median time to heal':<22}{shown}",
        f"  {'mean aggravations':<22}{summary['mean_aggravations']:.2f}",
    ]
    if out is not None:
        lines += ["", f"Results in {out}/"]
    return "\n".join(lines)


@click.command()
@click.argument("scenario")
@click.option("--trials", type=int, default=10_000, show_default=True, help="Trials to run.")
@click.option("--seed", type=int, default=0, show_default=True, help="The study's seed.")
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override one scenario key, dotted (first_aid.level=3); repeatable.",
)
@output_options
@backend_options
@user_errors
@interruptible
def run(
    scenario: str,
    trials: int,
    seed: int,
    overrides: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    chunk_size: int | None,
    no_figures: bool,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Monte Carlo study of one scenario (default output: results/runs/<file stem>/)."""
    from simulator.studies.api import run_study

    out = out if out is not None else RUNS / stem_of(scenario)
    result = run_study(
        scenario,
        trials=trials,
        seed=seed,
        out=out,
        overrides=overrides,
        **execution(workers, backend, scheduler, chunk_size, quiet, no_figures),
    )
    if as_json:
        echo_json(result.summary_json())
    else:
        click.echo(summary_table(result.summary_json(), out))


COMMANDS.append(run)


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--trials", type=int, default=4_000, show_default=True, help="Trials per scenario.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every study.")
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Output directory (default: results/runs/<DIRECTORY's name>/; make run: results).",
)
@backend_options
@user_errors
@interruptible
def study(
    directory: Path,
    trials: int,
    seed: int,
    out: Path | None,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Run every scenario (*.toml) of DIRECTORY; write OUT/<stem>/ and OUT/README.md."""
    from simulator.studies.main_study import run_directory
    from simulator.studies.result import answer

    if out is None:
        out = RUNS / (Path(directory).resolve().name or "study")
    results = run_directory(
        directory,
        trials=trials,
        seed=seed,
        out=out,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        progress=progress_wanted(quiet),
    )
    for path, result in results:
        click.echo(f"{path.stem}: {answer(result.summary_json(), mental=result.has_mental_wounds)}")
    click.echo(f"\nIndex: {out / 'README.md'}")


COMMANDS.append(study)
