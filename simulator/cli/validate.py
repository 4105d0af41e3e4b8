"""The ``validate`` command: check a scenario file, or show it as it will be simulated."""

from __future__ import annotations

import click

from simulator.cli.common import one_line, user_errors
from simulator.cli.options import set_option, speaks
from simulator.cli.words import WordedCommand
from simulator.rules.durations import format_duration
from simulator.scenario.model import Ruleset, Scenario


def _duration(seconds: float) -> str:
    """A duration as the scenario writes it (``5min``), or in French units (``5 min``)."""
    from simulator.report.i18n import current_language, duration_text

    return format_duration(seconds) if current_language() == "en" else duration_text(seconds)


def _every(seconds: float) -> str:
    """A period after "every": as :func:`_duration`, French "toutes les minutes" for one unit."""
    from simulator.report.i18n import one_unit_every

    return one_unit_every(seconds) or _duration(seconds)


def _signed(value: int) -> str:
    from simulator.report.i18n import current_language

    text = f"{value:+d}"
    return text if current_language() == "en" else text.replace("-", "\u2212")


def describe(scenario: Scenario) -> str:
    """A one-line summary of a valid scenario, for ``validate``, in the language in force.

    Args:
        scenario: A validated scenario.

    Returns:
        E.g. ``"Ambush" (ruleset arpeges, horizon 60d, 2 injuries (3 wounds), ...)``.
    """
    from simulator.report.i18n import ntr, tr

    wounds = sum(injury.count for injury in scenario.injuries)
    count = len(scenario.injuries)
    injuries = ntr("{n} injury", "{n} injuries", count).format(n=count)
    if wounds != count:
        injuries += " (" + ntr("{n} wound", "{n} wounds", wounds).format(n=wounds) + ")"
    activities = len(scenario.activities)
    parts = [
        tr("ruleset {name}").format(name=tr(scenario.ruleset.value)),
        tr("horizon {t}").format(t=_duration(scenario.horizon)),
        injuries,
        ntr("{n} activity", "{n} activities", activities).format(n=activities),
        tr("profile {name}").format(name=tr(scenario.patient.profile)),
    ]
    aid = scenario.first_aid
    if aid is None:
        parts.append(tr("no first aid"))
    elif scenario.ruleset is Ruleset.BASIC:
        parts.append(tr("[first_aid] ignored: the basic rules have no first aid (B3)"))
    else:
        when = {"start": _duration(aid.start), "every": _every(aid.interval)}
        level = _signed(aid.level).lstrip("+")
        if aid.self_treat:  # A1: the patient's own level
            text = tr("first aid by the patient, level {level}, from {start} every {every}")
        else:
            text = tr("first aid level {level} from {start} every {every}")
        parts.append(text.format(level=level, **when))
    healing = scenario.healing
    if scenario.ruleset is Ruleset.BASIC and healing is not None:
        parts.append(tr("self-healing modifier {m}").format(m=_signed(healing.modifier)))
    elif healing is None:
        parts.append(tr("no healer"))
    else:
        text = tr("healer level {level}, modifier {m}")
        parts.append(
            text.format(level=_signed(healing.level).lstrip("+"), m=_signed(healing.modifier))
        )
    from simulator.report.i18n import current_language
    from simulator.report.wording import scenario_text

    left, right = ("« ", " »") if current_language() == "fr" else ('"', '"')  # its name, quoted
    return f"{left}{scenario_text(scenario)[0]}{right} ({', '.join(parts)})"


@click.command(cls=WordedCommand)
@click.argument("scenario")
@set_option
@click.option(
    "--show",
    is_flag=True,
    help="Print the scenario as it will be simulated: every default and override, the whole "
    "wound table (a scenario file itself).",
)
@speaks
@user_errors
def validate(scenario: str, overrides: tuple[str, ...], show: bool) -> None:
    """Check a scenario file; print every problem found (exit status 2) or a summary."""
    from simulator.report.i18n import tr
    from simulator.scenario.reading import load_scenario

    loaded = load_scenario(scenario, overrides)
    from simulator.scenario.late import tell_late

    tell_late([loaded])  # a mistyped horizon is caught here first
    from simulator.scenario.late import tell_basic_ignores

    said = ("[first_aid] does not apply under the basic rules (B3)",)  # the ok line says it
    tell_basic_ignores(loaded, loaded.name, leave=said)  # what the basic rules never read
    if show:
        from simulator.scenario.writing import scenario_to_toml

        given = " ".join(f"--set {text}" for text in overrides)
        path = f"{scenario}{' ' + given if given else ''}"
        comment = tr("{path}, as it will be simulated").format(path=one_line(path))
        click.echo(scenario_to_toml(loaded, comment, tr), nl=False)
        return
    click.echo(f"ok: {one_line(scenario)}: {describe(loaded)}")  # one line, as error: lines


COMMAND = validate
