"""The ``trace`` command: one campaign told as a timeline (CONTRACT.md).

The search of ``--find`` and the run of the campaign are :mod:`simulator.studies.campaign`'s;
its words, :mod:`simulator.report.campaign`'s.
"""

from __future__ import annotations

import click

from simulator.cli.options import speaks
from simulator.cli.words import WholeRange, WordedCommand, WordedOption
from simulator.errors import phrase
from simulator.report.campaign import describe, settings_changed, verdict
from simulator.rules.outcome import OUTCOMES
from simulator.studies.campaign import (
    FIND_LIMIT,
    FIND_SECONDS,
    LAST_INDEX,
    REFERENCE_FIND_LIMIT,
    find_trial,
    impossible,
    story,
)

__all__ = [
    "FIND_LIMIT",
    "LAST_INDEX",
    "describe",
    "find_trial",
    "impossible",
    "settings_changed",
    "story",
    "verdict",
]

INDEX = WholeRange(0, LAST_INDEX)


@click.command(cls=WordedCommand)
@click.argument("scenario")
@click.option(
    "--seed",
    type=INDEX,
    default=0,
    show_default=True,
    help="The study seed (0 to 2**63-1, as for run).",
)
@click.option(
    "--trial",
    type=INDEX,
    default=0,
    show_default=True,
    help="Which trial of that seed to tell (the same trial as in a run).",
)
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key.")
@click.option(
    "--find",
    cls=WordedOption,
    type=click.Choice(OUTCOMES, case_sensitive=False),
    default=None,
    help=phrase(
        "Tell the first trial from --trial on that ends this way (e.g. a campaign where the "
        "patient heals). An end the rules rule out is refused at once; the search stops after "
        "{n} trials ({m} with --reference) or {s} seconds, and says how to search on.",
        n=FIND_LIMIT,
        m=REFERENCE_FIND_LIMIT,
        s=round(FIND_SECONDS),
    ),
)
@click.option(
    "--reference",
    is_flag=True,
    help="Tell it with the event-by-event engine (SimPy), every test on a line of its own; "
    "its trials are its own: trial N there is not trial N of run.",
)
@speaks
def trace(
    scenario: str,
    seed: int,
    trial: int,
    overrides: tuple[str, ...],
    find: str | None,
    reference: bool,
) -> None:
    """Tell one campaign as a timeline: every roll, its modifiers, its rule."""
    from simulator.cli.common import user_errors

    @user_errors
    def _run() -> None:
        from simulator.scenario.reading import load_scenario
        from simulator.startup import plain_kernel_for

        if find is None and not reference:  # one trial: the kernel as plain Python
            plain_kernel_for(1)  # (without loading numba)

        sc = load_scenario(scenario, overrides)
        from simulator.scenario.late import tell_late

        kernel = not reference
        chosen = trial if find is None else find_trial(sc, seed, trial, find, kernel=kernel)
        tell_late([sc])  # after a --find refused (its line says why), not before
        click.echo(story(sc, seed, chosen, kernel=kernel, overrides=overrides))

    _run()


COMMAND = trace
