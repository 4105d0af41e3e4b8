"""The ``trace`` command: one campaign told as a timeline (CONTRACT.md)."""

from __future__ import annotations

from dataclasses import fields

import click

from simulator.engine.record import TrialRecord
from simulator.engine.trace import points
from simulator.errors import UserError
from simulator.report.wording import plain
from simulator.rules.durations import format_clock, format_duration
from simulator.rules.levels import Track
from simulator.rules.outcome import OUTCOMES, Outcome
from simulator.scenario.model import Ruleset, Scenario, Settings

FIND_LIMIT = 100_000
"""How many trials ``trace --find`` looks through before giving up."""


LAST_INDEX = 2**63 - 1
"""The largest seed or trial index: 64-bit, as a run's (``studies.execution.MAX_SEED``)."""
INDEX = click.IntRange(0, LAST_INDEX)


def impossible(scenario: Scenario, outcome: str) -> str | None:
    """Why no trial of ``scenario`` can end with ``outcome``, or None when one may.

    Sound and conservative: only three outcomes are certain never to happen. Death with no
    physical wound ever received (W1, S3, X1, B4 kill only through a physical wound worsening
    past critical); incoherence with no mental wound (M2, B6); and healing, under the
    advanced rules, with a wound received and no healer (only G1's and M3's sessions remove a
    wound, and without ``[healing]`` there are none). Anything else may happen, and is
    searched for.
    """
    received = [i for i in scenario.injuries if i.count > 0 and i.at <= scenario.horizon]
    tracks = {injury.level.track for injury in received}
    if outcome == "dead" and Track.PHYSICAL not in tracks:
        return (
            "no physical wound is received by the horizon, and only a physical wound can kill "
            "(W1, S3)"
        )
    if outcome == "incoherent" and Track.MENTAL not in tracks:
        return (
            "no mental wound is received by the horizon, and only a mental wound can make the "
            "patient incoherent (M2)"
        )
    no_healer = scenario.healing is None and scenario.ruleset is Ruleset.ARPEGES
    if outcome == "healed" and received and no_healer:
        return (
            "a wound is received and there is no healer ([healing]), and under the "
            "arpeges rules only a healer's session removes a wound (R1, G1, M3)"
        )
    return None


def find_trial(scenario: Scenario, seed: int, first: int, outcome: str) -> int:
    """The first trial index from ``first`` on whose outcome is ``outcome``.

    Raises:
        UserError: At once when no trial can end that way (:func:`impossible`); else when
            none of the next :data:`FIND_LIMIT` trials ends that way.
    """
    from simulator.engine.trial import run_trial

    reason = impossible(scenario, outcome)
    if reason is not None:
        raise UserError(f"--find {outcome}: no trial of this scenario can end {outcome}: {reason}")

    for index in range(first, min(first + FIND_LIMIT, LAST_INDEX + 1)):
        if run_trial(scenario, index, seed).outcome == outcome:
            return index
    raise UserError(
        f"--find {outcome}: none of trials {first}..{first + FIND_LIMIT - 1} of seed {seed} "
        f"ends {outcome}; expected an outcome this scenario can have"
    )


def describe(scenario: Scenario) -> list[str]:
    """A few lines saying who the patient is and what help they get."""
    p = scenario.patient
    lines = [
        f"ruleset {scenario.ruleset.value}, horizon {format_duration(scenario.horizon)}; "
        f"patient Cp+Rs {p.cp_rs:+d}, Rs+It {p.rs_it:+d}, profile {p.profile}"
    ]
    fa = scenario.first_aid
    if fa is None:
        lines.append("first aid: nobody")
    else:
        who = "the patient itself" if fa.self_treat else f"a caregiver at level {fa.level:+d}"
        cap = f", at most {fa.max_attempts} per spell" if fa.max_attempts else ""
        lines.append(
            f"first aid: {who}, from {format_duration(fa.start)} after the state turns "
            f"unstable, every {format_duration(fa.interval)}{cap}"
        )
    h = scenario.healing
    lines.append(
        "healing: nobody" if h is None else f"healing: level {h.level:+d}, modifier {h.modifier:+d}"
    )
    w = scenario.watch
    listed = ", ".join(format_duration(t) for t in w.neglect_at) or "none"
    chance = plain(w.neglect_probability)
    lines.append(f"watches: neglected with probability {chance}; listed: {listed}")
    changed = settings_changed(scenario.settings)
    if changed:
        lines.append(f"rules: {changed} (the other settings as RULES.md's defaults)")
    return lines


def settings_changed(settings: Settings) -> str:
    """``"rest_after_unstable = resume, ..."``: the ``[rules]`` settings not at their default."""
    default = Settings()
    parts = []
    for field in fields(Settings):
        value = getattr(settings, field.name)
        if value != getattr(default, field.name):
            shown = format_duration(value) if field.name == "faint_duration" else value
            shown = str(shown).lower() if isinstance(shown, bool) else shown
            parts.append(f"{field.name} = {shown}")
    return ", ".join(parts)


def verdict(record: TrialRecord) -> str:
    """One line: how the campaign ended."""
    end = format_clock(record.end_h * 3600)
    counts = (
        f"{record.aggravations} aggravations, {record.survival_tests} survival tests "
        f"({record.survival_failures} failed), {record.first_aid_attempts} first-aid attempts, "
        f"{record.healing_tests} healing tests, {record.faints} faints, highest pain "
        f"{points(record.max_pain)}"
    )
    if record.outcome == Outcome.WOUNDED:
        return f"Outcome: still wounded at the horizon ({end}); {counts}."
    return f"Outcome: {record.outcome} at {end}; {counts}."


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
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
    type=click.Choice(OUTCOMES, case_sensitive=False),
    default=None,
    help="Tell the first trial from --trial on that ends this way (e.g. a campaign she heals).",
)
def trace(
    scenario: str, seed: int, trial: int, overrides: tuple[str, ...], find: str | None
) -> None:
    """Tell one campaign as a timeline: every roll, its modifiers, its rule."""
    from simulator.cli.common import user_errors

    @user_errors
    def _run() -> None:
        from simulator.engine.trace import format_trace
        from simulator.engine.trial import trace_trial
        from simulator.scenario.reading import load_scenario

        sc = load_scenario(scenario, overrides)
        chosen = trial if find is None else find_trial(sc, seed, trial, find)
        record, lines = trace_trial(sc, seed=seed, trial=chosen)
        title = f"{sc.name} (seed {seed}, trial {chosen})"
        click.echo(title)
        click.echo("=" * min(len(title), 78))
        for line in describe(sc):
            click.echo(line)
        click.echo(
            "Each line: campaign time (days hh:mm[:ss]), the rule id (each is stated in "
            "docs/rules.md),\nwhat happened; under a test, the roll, each modifier and the "
            "margin (≥ 0 succeeds)."
        )
        click.echo("")
        click.echo(format_trace(lines))
        click.echo("")
        click.echo(verdict(record))

    _run()


COMMAND = trace
