"""One campaign told as a timeline, as ``trace`` prints it, and finding one that ends a given way.

What ``harmonies-sim trace`` prints (:func:`story`) and how ``--find`` looks for a trial
(:func:`find_trial`); the command (:mod:`simulator.cli.trace`) and the workbench's trace
(:mod:`simulator.web`) both tell it from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from simulator.engine.record import TrialRecord
from simulator.engine.trace import TraceLine, points
from simulator.report.wording import plain
from simulator.rules.outcome import Outcome
from simulator.scenario.model import Ruleset, Scenario, Settings


def describe(scenario: Scenario) -> list[str]:
    """A few lines saying who the patient is and what help they get (in the language in force)."""
    from simulator.report.i18n import said, tr

    p = scenario.patient
    lines = [
        tr("ruleset {r}, horizon {h}; patient Cp+Rs {cp}, Rs+It {ri}, profile {p}").format(
            r=said(scenario.ruleset.value),
            h=_duration(scenario.horizon),
            cp=_signed(p.cp_rs),
            ri=_signed(p.rs_it),
            p=said(p.profile),
        )
    ]
    if scenario.ruleset is Ruleset.BASIC:  # B3: no first aid, no watches; B4: heals alone
        text = tr("healing: the patient tests alone at the end of each rest (B4), modifier {m}")
        m = 0 if scenario.healing is None else scenario.healing.modifier
        lines.append(text.format(m=_signed(m)))
    else:
        lines += _care(scenario)
    changed = settings_changed(scenario.settings)
    if changed:
        text = tr("rules: {changed} (the other settings at their defaults, docs/rules.md)")
        lines.append(text.format(changed=changed))
    return lines


def _care(scenario: Scenario) -> list[str]:
    """The advanced ruleset's help: first aid, the healer, the watches (a line each)."""
    from simulator.report.i18n import ptr, tr

    lines = []
    fa = scenario.first_aid
    if fa is None:
        lines.append(tr("first aid: nobody"))
    else:
        if fa.self_treat:
            who = tr("the patient itself")
        else:
            who = tr("a caregiver at level {level}").format(level=_signed(fa.level))
        cap = tr(", at most {n} per spell").format(n=fa.max_attempts) if fa.max_attempts else ""
        text = tr(
            "first aid: {who}, from {start} after the state turns unstable, every {every}{cap}"
        )
        lines.append(
            text.format(who=who, start=_duration(fa.start), every=_every(fa.interval), cap=cap)
        )
    h = scenario.healing
    if h is None:
        lines.append(tr("healing: nobody"))
    else:
        text = tr("healing: level {level}, modifier {m}")
        lines.append(text.format(level=_signed(h.level), m=_signed(h.modifier)))
    w = scenario.watch
    listed = ", ".join(_duration(t) for t in w.neglect_at) or ptr("neglects", "none")
    chance = _number(plain(w.neglect_probability))
    text = tr("watches: neglected with probability {p}; listed: {listed}")
    lines.append(text.format(p=chance, listed=listed))
    return lines


def _duration(seconds: float) -> str:
    """A duration as a scenario writes it (``5min``), or in French units (``5 min``)."""
    from simulator.report.timeline import duration_text

    return duration_text(seconds)


def _every(seconds: float) -> str:
    """A period after "every" (French: "toutes les minutes", not "toutes les 1 min")."""
    from simulator.report.timeline import every_text

    return every_text(seconds)


def _number(text: str) -> str:
    from simulator.report.i18n import current_language
    from simulator.report.timeline import french_number

    return text if current_language() == "en" else french_number(text)


def _signed(value: int) -> str:
    return _number(f"{value:+d}")


def settings_changed(settings: Settings) -> str:
    """``"rest_after_unstable = resume, ..."``: the ``[rules]`` settings not at their default.

    A key is written as a scenario writes it; a number or a duration as the trace writes
    them in the language in force (French: ``trigger_probability = 0,5``, ``15 min``).
    """
    default = Settings()
    parts = []
    for field in fields(Settings):
        value = getattr(settings, field.name)
        if value != getattr(default, field.name):
            if field.name == "faint_duration":
                shown = _duration(value)
            elif isinstance(value, bool):
                shown = str(value).lower()
            elif isinstance(value, int | float):
                shown = _number(str(value))
            else:
                shown = value
            parts.append(f"{field.name} = {shown}")
    return ", ".join(parts)


def verdict(record: TrialRecord) -> str:
    """One line: how the campaign ended (in the language in force)."""
    from simulator.report.i18n import ntr, tr
    from simulator.report.timeline import clock_text

    end = clock_text(record.end_h * 3600)
    s, f = record.survival_tests, record.survival_failures
    counts = ", ".join(  # each count in its own number: "1 faint", "2 faints"
        [
            ntr("{n} aggravation", "{n} aggravations", record.aggravations).format(
                n=record.aggravations
            ),
            tr("{tests} ({failed})").format(
                tests=ntr("{n} survival test", "{n} survival tests", s).format(n=s),
                failed=ntr("{n} failed", "{n} failed", f).format(n=f),
            ),
            ntr(
                "{n} first-aid attempt", "{n} first-aid attempts", record.first_aid_attempts
            ).format(n=record.first_aid_attempts),
            ntr("{n} healing test", "{n} healing tests", record.healing_tests).format(
                n=record.healing_tests
            ),
            ntr("{n} faint", "{n} faints", record.faints).format(n=record.faints),
            tr("highest pain {p}").format(p=_number(points(record.max_pain))),
        ]
    )
    if record.outcome == Outcome.WOUNDED:
        return tr("Outcome: still wounded at the horizon ({end}); {counts}.").format(
            end=end, counts=counts
        )
    outcome = tr(str(record.outcome))
    if record.cause:  # Q3: what opened the way
        from simulator.report.causes import cause_label

        outcome = tr("{outcome} (cause: {cause})").format(
            outcome=outcome, cause=cause_label(str(record.cause))
        )
    text = tr("Outcome: {outcome} at {end}; {counts}.")
    return text.format(outcome=outcome, end=end, counts=counts)


def story_text(
    sc: Scenario,
    seed: int,
    chosen: int,
    record: TrialRecord,
    lines: Sequence[TraceLine],
    reference: bool = False,
    overrides: Sequence[str] = (),
) -> str:
    """The whole text ``trace`` prints for trial ``chosen`` of ``seed`` (in the language in force).

    The title, who the patient is, how to read the lines, the timeline of ``lines`` and the
    verdict of ``record`` (the workbench's trace tells the same). Running the trial is
    :func:`simulator.studies.campaign.story`'s. ``reference``: the trial is the event-by-event
    engine's, which the title says. ``overrides``: the ``--set`` lines of ``sc``, told in the
    title (a changed table cell shows nowhere else).
    """
    from simulator.report.i18n import tr
    from simulator.report.timeline import trace_text
    from simulator.report.wording import scenario_text, titled

    name = titled(scenario_text(sc)[0], overrides)
    title = tr("{name} (seed {seed}, trial {trial})").format(name=name, seed=seed, trial=chosen)
    if reference:
        title = tr(
            "{name} (seed {seed}, trial {trial} of the event-by-event reference engine)"
        ).format(name=name, seed=seed, trial=chosen)
    legend = tr(
        "Each line: campaign time (days hh:mm[:ss]), the rule id (each is stated in "
        "docs/rules.md),\nwhat happened; under a test, the roll, each modifier and the "
        "margin (≥ 0 succeeds)."
    )
    if not sc.settings.tie_succeeds:  # D3: a margin of exactly 0 fails
        legend = tr(
            "Each line: campaign time (days hh:mm[:ss]), the rule id (each is stated in "
            "docs/rules.md),\nwhat happened; under a test, the roll, each modifier and the "
            "margin (> 0 succeeds: tie_succeeds = false)."
        )
    timeline = trace_text(list(lines))
    parts = [title, "=" * min(len(title), 78), *describe(sc), legend, "", timeline, ""]
    return "\n".join([*parts, verdict(record)])
