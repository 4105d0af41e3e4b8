"""The ``calibrate`` command: several free keys solved for several targets at once.

It reads a calibration file (CONTRACT.md, "Calibration files"), calls
:func:`simulator.studies.calibrate_study.calibrate`, prints each free key's value and each
target's value reached, met or not (or ``--json``), and writes its folder. Exit 0 when it
ran, met or not.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator.cli.common import (
    answer_text,
    nothing_to_resume,
    now_resumable,
    printed,
    results_into,
    user_errors,
)
from simulator.cli.options import (
    RUNS,
    exact_limits,
    exact_method,
    folder_path,
    interruptible,
    lang_option,
    progress_wanted,
    stem_of,
)
from simulator.cli.words import WHOLE, WordedCommand, WordedOption
from simulator.errors import N_, Phrase, phrase

if TYPE_CHECKING:
    from simulator.studies.calibrate_result import CalibrationResult
    from simulator.studies.calibrate_study import Progress
    from simulator.studies.method import Method


def progress_line(step: Progress) -> str:
    """One line per round: the targets' distances (in tolerances) and the time left."""
    from simulator.report.i18n import duration_text, ntr, number_text, tr

    distances = ", ".join(
        number_text(round(d / t, 2)) for d, t in zip(step.distances, step.tolerances, strict=True)
    )
    line = ntr(
        "round {n}: {points} point ({new} new); distances in tolerances: {d}",
        "round {n}: {points} points ({new} new); distances in tolerances: {d}",
        step.points,
    ).format(n=step.round, points=step.points, new=step.new, d=distances)
    if step.left is not None:
        line += "; " + tr("{elapsed}, at most about {left} left").format(
            elapsed=duration_text(round(step.elapsed)), left=duration_text(round(step.left))
        )
    return line


def calibrate_text(result: CalibrationResult, out: Path | None = None) -> str:
    """What ``calibrate`` prints: the free keys, the targets met or not, conflicts, notches."""
    from simulator.report.i18n import (
        colon,
        exact_percent_text,
        notch_text,
        percent_text,
        points_text,
        tr,
    )
    from simulator.report.wording import calibration_how, conflict_lines
    from simulator.studies.statistic import shown

    cal = result.calibration
    how = calibration_how(
        result.method == "exact",
        result.trials or 0,
        result.seed,
        result.evaluations,
        result.check_trials or 0,
    )
    lines = [f"{cal.title} — {how}", "", tr("Free keys:")]
    for free, value in zip(cal.free, result.values, strict=True):
        lines.append(
            f"  {free.key.name} = {shown(free.key, value)}  "
            f"({shown(free.key, free.low)} – {shown(free.key, free.high)})"
        )
    lines += ["", tr("Targets:")]
    for target, reached in zip(cal.targets, result.reached, strict=True):
        met = tr("met") if result.met_target(target) else tr("not met")
        lines.append(
            "  "
            + tr("{label}: wanted {value} ± {tolerance}, reached {reached} ({ci}): {met}").format(
                label=target.label,
                value=percent_text(target.value, 2),
                tolerance=points_text(target.tolerance, decimals=2),  # of a share: points
                reached=exact_percent_text(reached.stat)
                if result.method == "exact"  # as run --exact shows a share
                else percent_text(reached.stat, 2),
                ci=tr("exact")
                if result.method == "exact"  # within its dropped mass: no interval to show
                else f"{percent_text(reached.low, 2)}–{percent_text(reached.high, 2)}",
                met=met,
            )
        )
    lines.append("")
    if result.met:
        lines.append(tr("Every target is met."))
    elif len(cal.targets) == 1:
        lines.append(
            tr(
                "The target is not met: the value above is the closest this search found. A "
                "statistic that moves by steps has many valleys, and the search may miss a "
                "closer one: narrowing a range searches again."
            )
        )
    else:
        lines.append(
            tr(
                "Not every target is met: the values above are the closest compromise this "
                "search found, weighted by the tolerances. A statistic that moves by steps has "
                "many valleys, and the search may miss a closer one: narrowing a range, or "
                "fixing a key in a target's set, searches again."
            )
        )
    if not result.met:
        labels = [t.label for t in cal.targets]
        lines += ["  " + line for line in conflict_lines(result.conflicts, labels)]
    ends = [
        f.key.name for f, v in zip(cal.free, result.values, strict=True) if v in (f.low, f.high)
    ]
    if ends and not result.met:  # the search stopped against a wall: the answer may lie beyond
        lines.append(
            tr(
                "At an end of its range: {keys}; the target may lie outside it, and a wider "
                "range searches further."
            ).format(keys=", ".join(ends))
        )
    lines += ["", tr("Sensitivity at the solution (percentage points per notch):")]
    for note in result.notches:
        exact = result.method == "exact"  # four decimals, else one (a sampled difference)
        per = "—" if note.per_notch is None else notch_text(note.per_notch, exact)
        lines.append(f"  {note.key} → {cal.targets[note.target].label}{colon()}{per}")
    return answer_text(lines, out)


@click.command(cls=WordedCommand)
@click.argument("calibration")
@click.option(
    "--exact",
    "solve",
    is_flag=True,
    help="Compute every evaluation exactly (default when every target allows it).",
)
@exact_limits
@click.option(
    "--trials",
    type=WHOLE,
    cls=WordedOption,
    help=phrase(  # 10,000 (10 000 in French), as every other command's default
        "{what} (default {n}).",
        what=Phrase(N_("Trials per evaluation, with Monte Carlo")),
        n=10_000,
    ),
)
@click.option(
    "--seed", type=WHOLE, help="The seed of every evaluation and of the search (default 0)."
)
@click.option(
    "--workers",
    type=WHOLE,
    help="Workers: threads for the kernel, else processes (default: all cores).",
)
@click.option("--out", type=click.Path(), callback=folder_path, help="Output directory.")
@click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout.")
@click.option("--no-figures", is_flag=True, help="Do not draw the figures.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@lang_option
@user_errors
@interruptible
def calibrate(
    calibration: str,
    solve: bool,
    eps: float | None,
    max_states: int | None,
    time_budget: float | None,
    trials: int | None,
    seed: int | None,
    workers: int | None,
    out: Path | None,
    as_json: bool,
    no_figures: bool,
    quiet: bool,
    lang: str | None,
) -> None:
    """Solve several free keys for several targets at once, across scenarios.

    Default output: results/runs/<calibration file stem>-calibrate/ (-exact with --exact).
    """
    from simulator.errors import UserError, phrase
    from simulator.report.i18n import language
    from simulator.studies.calibrate_study import calibrate as solve_it
    from simulator.studies.method import MonteCarlo

    with language(lang):
        method: Method | None = None
        sampled = trials is not None or seed is not None
        # the limits of an exact search: with --exact, or for the default choice (exact when
        # every target allows it); with Monte Carlo's --trials or --seed they are refused
        limits = (("--eps", eps), ("--max-states", max_states), ("--time-budget", time_budget))
        for flag, value in limits if sampled and not solve else ():
            if value is not None:
                _refuse_limit(flag)
        exact = exact_method(True, eps, max_states, time_budget) if not sampled or solve else None
        if exact is not None:
            exact.check()  # a bad limit is refused, whether --exact is given or not
        if solve and exact is not None:
            for flag, value in (("--trials", trials), ("--seed", seed)):
                if value is not None:
                    raise UserError(
                        phrase(
                            "{flag}: given with --exact; expected one or the other (an exact "
                            "answer has no trials and no seed)",
                            flag=flag,
                        )
                    )
            method = exact
        elif sampled:
            method = MonteCarlo(
                10_000 if trials is None else trials, 0 if seed is None else seed, workers
            )
        suffix = "-exact" if method is not None and method.method == "exact" else ""
        folder = out or RUNS / f"{stem_of(calibration)}-calibrate{suffix}"  # --exact's apart
        talk = progress_wanted(quiet)

        def progress(step: Progress) -> None:
            if talk:
                click.echo(progress_line(step), err=True)

        show = printed(as_json, lambda r: r.to_json(), calibrate_text)  # before the figures
        with (
            results_into(folder, not no_figures, not as_json, show=show) as answer,
            nothing_to_resume(True),  # until evaluations are in the folder (kept below)
        ):
            solve_it(
                calibration,
                method,
                out=folder,
                figures=not no_figures,
                progress=progress,
                told=answer,
                exact=exact,  # the default choice's limits (None when sampled)
                workers=workers if method is None else None,  # else inside the method
                kept=now_resumable,  # resumed from the folder, or a round's saved there
            )


def _refuse_limit(flag: str) -> None:
    from simulator.errors import UserError, phrase

    raise UserError(
        phrase(
            "{flag}: given with --trials or --seed (a sampled search); expected it only for an "
            "exact one (--exact, or neither)",
            flag=flag,
        )
    )


COMMAND = calibrate
"""The ``calibrate`` command, named in :data:`simulator.cli.app.COMMANDS`."""
