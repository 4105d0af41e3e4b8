"""Commands of Monte Carlo studies: ``run``, ``sweep``, ``compare``, ``study``.

Each command parses, calls :mod:`simulator.runner` (or :mod:`simulator.study`) and prints.
With ``--json`` only the JSON document goes to stdout; the progress bar goes to stderr and
shows only on a terminal. A run stopped by Ctrl-C keeps its finished chunks: the same
command started again resumes it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from simulator.cli_common import user_errors
from simulator.errors import UserError

COMMANDS: list[click.Command] = []

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells use."""

DEFAULT_RESULTS = Path("results")


def _backend_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options every study command shares: workers, backend, scheduler, quiet."""
    options = [
        click.option("--workers", type=int, help="Worker processes (default: all cores)."),
        click.option(
            "--backend",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help="Where trials run: local processes, or a Dask cluster.",
        ),
        click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler (--backend dask)."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options of run, sweep and compare: out, json, chunk size, no figures."""
    options = [
        click.option("--out", type=click.Path(path_type=Path), help="Output directory."),
        click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout."),
        click.option("--chunk-size", type=int, help="Trials per chunk (default: automatic)."),
        click.option("--no-figures", is_flag=True, help="Do not draw the figures."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _interruptible(func: Callable[..., Any]) -> Callable[..., Any]:
    """Ctrl-C: say how to resume, and exit with status 130 without a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo(
                "\ninterrupted: the finished chunks are kept; "
                "run the same command again to resume.",
                err=True,
            )
            sys.exit(EXIT_INTERRUPTED)

    return wrapper


def _progress(quiet: bool) -> bool:
    from simulator.progress import wanted

    return wanted(quiet)


def _execution(
    workers: int | None,
    backend: str,
    scheduler: str | None,
    chunk_size: int | None,
    quiet: bool,
    no_figures: bool,
) -> dict[str, Any]:
    """The keyword arguments of ``run_study``/``run_sweep``/``run_compare`` shared by commands."""
    return {
        "workers": workers,
        "backend": backend,
        "scheduler": scheduler,
        "chunk_size": chunk_size,
        "progress": _progress(quiet),
        "figures": not no_figures,
    }


def _echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, default=str))


def _ci(pair: list[float]) -> str:
    from simulator.study import percent

    return f"{percent(pair[0])}–{percent(pair[1])}"


def summary_table(summary: dict[str, Any], out: Path | None = None) -> str:
    """The plain-text summary of ``run``: what a designer reads at a glance."""
    from simulator.study import days_hours, percent

    lines = [f"{summary['scenario']} — {summary['trials']:,} trials, seed {summary['seed']}", ""]
    rows = [
        ("dies", "p_dead"),
        ("heals", "p_healed"),
        ("still wounded", "p_wounded"),
        ("incoherent", "p_incoherent"),
    ]
    for label, key in rows:
        lines.append(
            f"  {label:<15}{percent(summary[key]):>7}   (95% CI {_ci(summary[f'{key}_ci'])})"
        )
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
@_output_options
@_backend_options
@user_errors
@_interruptible
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
    """Monte Carlo study of one scenario (default output: results/<scenario file stem>/)."""
    from simulator.runner import run_study

    out = out if out is not None else DEFAULT_RESULTS / Path(scenario).stem
    result = run_study(
        scenario,
        trials=trials,
        seed=seed,
        out=out,
        overrides=overrides,
        **_execution(workers, backend, scheduler, chunk_size, quiet, no_figures),
    )
    if as_json:
        _echo_json(result.summary_json())
    else:
        click.echo(summary_table(result.summary_json(), out))


COMMANDS.append(run)


def split_values(raw: str) -> list[str]:
    """Split ``V1,V2,...`` on the commas outside quotes, brackets and braces."""
    pieces, current, depth, quote = [], [], 0, ""
    for char in raw:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            pieces.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    pieces.append("".join(current).strip())
    return pieces


def parse_grid(texts: tuple[str, ...]) -> dict[str, list[object]]:
    """Read ``--grid KEY=V1,V2,...`` options into ``{key: [values]}``.

    Values are read like ``--set`` values: TOML when they parse as TOML, else strings.
    Commas inside quotes, brackets or braces do not split values.

    Raises:
        UserError: Naming the ``--grid`` text when it has no ``=``, no key, an empty value
            or a key given twice.
    """
    from simulator.scenario import parse_override

    grid: dict[str, list[object]] = {}
    for text in texts:
        key, sep, raw = text.partition("=")
        key = key.strip()
        expected = "KEY=V1,V2,... with a dotted KEY, e.g. first_aid.level=0,1,2"
        if not sep or not key or not raw.strip():
            raise UserError(f"--grid: got {text!r}; expected {expected}")
        pieces = split_values(raw)
        if any(not p for p in pieces):
            raise UserError(f"--grid {key}: got {raw!r}; expected values separated by commas")
        if key in grid:
            raise UserError(f"--grid {key}: given twice; expected each key once")
        grid[key] = [parse_override(f"{key}={piece}")[1] for piece in pieces]
    if not grid:
        raise UserError("--grid: missing; expected at least one KEY=V1,V2,...")
    return grid


@click.command()
@click.argument("scenario")
@click.option(
    "--grid",
    "grid_texts",
    multiple=True,
    required=True,
    metavar="KEY=V1,V2,...",
    help="A scenario key and its values; repeat for a grid (first key slowest).",
)
@click.option("--trials", type=int, default=10_000, show_default=True, help="Trials per point.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every point.")
@click.option(
    "--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key everywhere."
)
@_output_options
@_backend_options
@user_errors
@_interruptible
def sweep(
    scenario: str,
    grid_texts: tuple[str, ...],
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
    """One study per point of a grid: sweep.csv, sweep.json and a figure."""
    from simulator.runner import run_sweep
    from simulator.study import days_hours, percent

    grid = parse_grid(grid_texts)
    out = out if out is not None else DEFAULT_RESULTS / Path(scenario).stem
    result = run_sweep(
        scenario,
        grid,
        trials=trials,
        seed=seed,
        out=out,
        overrides=overrides,
        **_execution(workers, backend, scheduler, chunk_size, quiet, no_figures),
    )
    summaries = result.summaries_json()
    if as_json:
        _echo_json(summaries)
        return
    click.echo(f"{summaries[0]['scenario']} — {trials:,} trials per point, seed {seed}\n")
    header = [*grid, "dies", "heals", "still wounded", "median heal"]
    rows = []
    for s in summaries:
        median = s["median_time_to_heal_h"]
        rows.append(
            [
                *(json.dumps(v, ensure_ascii=False) for v in s["point"].values()),
                f"{percent(s['p_dead'])} ({_ci(s['p_dead_ci'])})",
                f"{percent(s['p_healed'])} ({_ci(s['p_healed_ci'])})",
                percent(s["p_wounded"]),
                "—" if median is None else days_hours(median),
            ]
        )
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    for row in (header, *rows):
        cells = (str(c).ljust(w) for c, w in zip(row, widths, strict=True))
        click.echo(("  " + "  ".join(cells)).rstrip())
    click.echo(f"\nResults in {out}/")


COMMANDS.append(sweep)


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--trials", type=int, default=10_000, show_default=True, help="Trials of each.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of both.")
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
@_output_options
@_backend_options
@user_errors
@_interruptible
def compare(
    a: str,
    b: str,
    trials: int,
    seed: int,
    overrides: tuple[str, ...],
    set_a: tuple[str, ...],
    set_b: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    chunk_size: int | None,
    no_figures: bool,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Two scenarios on the same seeds; differences (A − B) with 95% paired intervals."""
    from simulator.runner import run_compare
    from simulator.scenario import load_scenario
    from simulator.study import percent

    out = out if out is not None else DEFAULT_RESULTS / f"{Path(a).stem}-vs-{Path(b).stem}"
    scenario_a = load_scenario(a, [*overrides, *set_a])
    scenario_b = load_scenario(b, [*overrides, *set_b])
    result = run_compare(
        scenario_a,
        scenario_b,
        trials=trials,
        seed=seed,
        out=out,
        **_execution(workers, backend, scheduler, chunk_size, quiet, no_figures),
    )
    if as_json:
        _echo_json(result.to_json())
        return
    with_a = f" (with {', '.join(set_a)})" if set_a else ""
    with_b = f" (with {', '.join(set_b)})" if set_b else ""
    click.echo(f"A: {result.a.scenario.name}{with_a}\nB: {result.b.scenario.name}{with_b}")
    click.echo(f"{trials:,} trials each, seed {seed}, same random streams\n")
    click.echo(f"  {'':<15}{'A':>7}  {'B':>7}   A − B (95% CI, percentage points)")
    labels = {"p_dead": "dies", "p_healed": "heals", "p_wounded": "still wounded"}
    labels["p_incoherent"] = "incoherent"
    for _, row in result.difference.iterrows():
        diff = (
            f"{100 * row['difference']:+.1f} ({100 * row['low']:+.1f} to {100 * row['high']:+.1f})"
        )
        click.echo(
            f"  {labels[row['measure']]:<15}{percent(row['a']):>7}  {percent(row['b']):>7}   {diff}"
        )
    click.echo(f"\nResults in {out}/")


COMMANDS.append(compare)


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--trials", type=int, default=4_000, show_default=True, help="Trials per scenario.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every study.")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_RESULTS, show_default=True)
@_backend_options
@user_errors
@_interruptible
def study(
    directory: Path,
    trials: int,
    seed: int,
    out: Path,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Run every scenario (*.toml) of DIRECTORY; write OUT/<stem>/ and OUT/README.md."""
    from simulator.study import answer, run_directory

    results = run_directory(
        directory,
        trials=trials,
        seed=seed,
        out=out,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        progress=_progress(quiet),
    )
    for path, result in results:
        click.echo(f"{path.stem}: {answer(result.summary_json())}")
    click.echo(f"\nIndex: {out / 'README.md'}")


COMMANDS.append(study)
