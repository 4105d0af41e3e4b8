"""The ``validate`` command: check a scenario file, or show it as it will be simulated."""

from __future__ import annotations

import click

from simulator.cli.common import user_errors
from simulator.rules.durations import format_duration
from simulator.scenario.model import Ruleset, Scenario


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(scenario: Scenario) -> str:
    """A one-line summary of a valid scenario, for ``validate``.

    Args:
        scenario: A validated scenario.

    Returns:
        E.g. ``"Ambush" (ruleset arpeges, horizon 60d, 2 injuries (3 wounds), ...)``.
    """
    wounds = sum(injury.count for injury in scenario.injuries)
    injuries = _plural(len(scenario.injuries), "injury").replace("injurys", "injuries")
    if wounds != len(scenario.injuries):
        injuries += f" ({_plural(wounds, 'wound')})"
    parts = [
        f"ruleset {scenario.ruleset.value}",
        f"horizon {format_duration(scenario.horizon)}",
        injuries,
        _plural(len(scenario.activities), "activity").replace("activitys", "activities"),
        f"profile {scenario.patient.profile}",
    ]
    aid = scenario.first_aid
    if aid is None:
        parts.append("no first aid")
    elif scenario.ruleset is Ruleset.BASIC:
        parts.append("[first_aid] ignored: the basic rules have no first aid (B3)")
    else:
        who = "self" if aid.self_treat else f"level {aid.level}"
        parts.append(
            f"first aid {who} from {format_duration(aid.start)}"
            f" every {format_duration(aid.interval)}"
        )
    healing = scenario.healing
    if scenario.ruleset is Ruleset.BASIC and healing is not None:
        parts.append(f"self-healing modifier {healing.modifier:+d}")
    elif healing is None:
        parts.append("no healer")
    else:
        parts.append(f"healer level {healing.level}, modifier {healing.modifier:+d}")
    return f'"{scenario.name}" ({", ".join(parts)})'


@click.command()
@click.argument("scenario")
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override one scenario key, dotted (first_aid.level=3); repeatable.",
)
@click.option(
    "--show",
    is_flag=True,
    help="Print the scenario as it will be simulated: every default and override, the whole "
    "wound table (a scenario file itself).",
)
@user_errors
def validate(scenario: str, overrides: tuple[str, ...], show: bool) -> None:
    """Check a scenario file; print every problem found (exit status 2) or a summary."""
    from simulator.scenario.reading import load_scenario

    loaded = load_scenario(scenario, overrides)
    if show:
        from simulator.scenario.writing import scenario_to_toml

        given = " ".join(f"--set {text}" for text in overrides)
        comment = f"{scenario}{' ' + given if given else ''}, as it will be simulated"
        click.echo(scenario_to_toml(loaded, comment), nl=False)
        return
    click.echo(f"ok: {scenario}: {describe(loaded)}")


COMMAND = validate
