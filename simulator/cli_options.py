"""What the study commands share: their options, Ctrl-C handling and output helpers.

Used by :mod:`simulator.cli_study` (``run``, ``study``) and :mod:`simulator.cli_sweep`
(``sweep``, ``compare``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells use."""

DEFAULT_RESULTS = Path("results")
"""Where studies write when no ``--out`` is given."""


def backend_options(func: Callable[..., Any]) -> Callable[..., Any]:
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


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
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


def interruptible(func: Callable[..., Any]) -> Callable[..., Any]:
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


def progress_wanted(quiet: bool) -> bool:
    """Whether to draw the progress bar: not with ``--quiet``, and only on a terminal."""
    from simulator.progress import wanted

    return wanted(quiet)


def execution(
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
        "progress": progress_wanted(quiet),
        "figures": not no_figures,
    }


def echo_json(data: object) -> None:
    """Print one JSON document on stdout (non-ASCII kept as it is)."""
    click.echo(json.dumps(data, ensure_ascii=False, default=str))


def interval_text(pair: list[float]) -> str:
    """A ``[low, high]`` share interval as ``"12.3%–15.0%"``."""
    from simulator.study import percent

    return f"{percent(pair[0])}–{percent(pair[1])}"
