"""O2: what a scenario lists after its horizon never happens in a trial; a note says so.

B2-B4 too: what the basic ruleset never reads of a scenario (:func:`tell_basic_ignores`).

Once per scenario and what it cuts in a process (a sweep's points, a study's scenarios, a
balance over the horizon: the first horizon is named): a designer who looks at the first
days of a long scenario (``--set horizon=3d``) is told what is cut, and one who mistyped the
horizon is not left with a patient "healed" at 0 h.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from simulator.errors import N_, Phrase, note, phrase
from simulator.rules.durations import format_duration

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario

_TOLD_LATE: set[tuple[str, int, int, int]] = set()
"""The scenarios :func:`tell_late` has told of in this process (a sweep's points, once)."""


def tell_late(scenarios: Sequence[Scenario]) -> None:
    """A note for each scenario with injuries, activities or listed neglects after its horizon.

    They never happen in a trial. That is how a designer looks at the first days of a longer
    scenario (``--set horizon=3d``), but a mistyped horizon reads the same way, and a patient
    never wounded is "healed" at 0 h: so it is said, once per scenario and count of what is
    cut (a balance over the horizon would say it at each value).
    """
    for scenario in scenarios:
        unwounded = (scenario.source or scenario.name, -1, -1, -1)
        if not scenario.injuries and unwounded not in _TOLD_LATE:
            _TOLD_LATE.add(unwounded)
            note(  # a scenario written without its [[injuries]]: "heals 100%" is no answer
                phrase(
                    "{scenario}: no [[injuries]]: the patient is never wounded, and every "
                    "trial ends healed at 0 h",
                    scenario=scenario.source or scenario.name,
                )
            )
            continue
        injuries = sum(1 for i in scenario.injuries if i.at > scenario.horizon)
        activities = sum(1 for a in scenario.activities if a.at > scenario.horizon)
        listed = scenario.watch.neglect_at
        neglects = sum(1 for t in listed if t > scenario.horizon)
        told = (scenario.source or scenario.name, injuries, activities, neglects)
        if not (injuries or activities or neglects) or told in _TOLD_LATE:
            continue
        _TOLD_LATE.add(told)
        what = []
        if injuries:
            what.append(phrase("injuries, {n} of {m}", n=injuries, m=len(scenario.injuries)))
        if activities:
            what.append(phrase("activities, {n} of {m}", n=activities, m=len(scenario.activities)))
        if neglects:
            what.append(phrase("neglected watches listed, {n} of {m}", n=neglects, m=len(listed)))
        if injuries and injuries == len(scenario.injuries):
            what.append(phrase("the patient is never wounded"))
        said = what[0]
        for more in what[1:]:
            said = phrase("{a}; {b}", a=said, b=more)
        note(
            phrase(
                "{scenario}: what falls after the horizon ({horizon}) never happens (O2): {what}",
                scenario=told[0],
                horizon=format_duration(scenario.horizon),
                what=said,
            )
        )


__all__ = ["tell_late"]


BASIC_IGNORES_RULES = (
    "pain_recovery_per_hour",
    "faint_duration",
    "stable_survival_tests",
    "self_aid_pain_factor",
    "rest_after_unstable",
    "rest_per_level",
    "activity_breaks_rest",
    "pain_floor_craziness",
)
"""The settings of RULES.md that the basic ruleset has no use for: no pain nor faint (B2), no
stability, survival test, first aid, watch nor rough activity (B3), its own rests (B4)."""


BASIC_CELLS = ("max", "heal_period", "difficulty")
"""The cells of a wound's row that the basic ruleset reads (B1, B4, B2)."""


def basic_unused_keys(scenario: Scenario) -> list[str]:
    """The settings and table cells the basic rules never read, given other than the book's.

    A default (the book's table for the scenario's profile, RULES.md's settings) changes
    nothing either way, so it is not told.
    """
    from simulator.rules.levels import Level
    from simulator.rules.table import CELLS, default_table, table_for_profile
    from simulator.scenario.model import Ruleset, Settings

    if scenario.ruleset is not Ruleset.BASIC:
        return []
    book = Settings()
    unused = [
        f"rules.{name}"
        for name in BASIC_IGNORES_RULES
        if getattr(scenario.settings, name) != getattr(book, name)
    ]
    printed = table_for_profile(scenario.patient.profile, default_table())
    for level in Level:
        row = scenario.table[level]
        for cell in CELLS:
            if cell not in BASIC_CELLS and getattr(row, cell) != getattr(printed[level], cell):
                unused.append(f"rules.table.{level.label}.{cell}")
    return unused


def basic_ignores(scenario: Scenario, *, keys: bool = True) -> list[Phrase]:
    """What the basic ruleset leaves out of a scenario that gives it (B2-B4), in words.

    ``keys``: with the phrase of the settings and cells it never reads
    (:func:`basic_unused_keys`).
    """
    from simulator.scenario.model import Ruleset

    if scenario.ruleset is not Ruleset.BASIC:
        return []
    ignored = []
    if scenario.first_aid is not None:
        ignored.append(Phrase(N_("[first_aid] does not apply under the basic rules (B3)"), ()))
    if scenario.healing is not None and scenario.healing.level != 0:  # 0 changes nothing
        ignored.append(
            Phrase(
                N_(
                    "healing.level does not apply under the basic rules: the patient heals "
                    "itself (B4)"
                ),
                (),
            )
        )
    if scenario.activities:
        ignored.append(
            Phrase(
                N_("[[activities]] do not apply under the basic rules: no rough activity (B3)"), ()
            )
        )
    if scenario.watch.neglect_probability > 0 or scenario.watch.neglect_at:
        ignored.append(
            Phrase(N_("[watch] does not apply under the basic rules: no watches (B3)"), ())
        )
    unused = basic_unused_keys(scenario) if keys else []
    if unused:
        ignored.append(_unused_phrase(unused))
    return ignored


def _unused_phrase(unused: Sequence[str]) -> Phrase:
    return Phrase(
        N_(
            "{keys}: not used under the basic rules (no pain, no faint, no stability, "
            "no first aid, no watch, no rough activity: B2, B3)"
        ),
        (("keys", ", ".join(unused)),),
    )


def basic_unread(scenario: Scenario, keys: Sequence[str]) -> list[str]:
    """Those of ``keys`` (dotted, as ``--keys`` names them) the basic rules never read."""
    from simulator.scenario.model import Ruleset

    if scenario.ruleset is not Ruleset.BASIC:
        return []
    unread = []
    for key in keys:
        parts = key.replace("[", ".").replace("]", "").split(".")
        cell = len(parts) == 4 and parts[:2] == ["rules", "table"] and parts[3] not in BASIC_CELLS
        setting = len(parts) == 2 and parts[0] == "rules" and parts[1] in BASIC_IGNORES_RULES
        if cell or setting:
            unread.append(key)
    return unread


def tell_basic_ignores(
    scenarios: Scenario | Sequence[Scenario],
    who: str,
    *,
    leave: Sequence[str] = (),
    keys: Sequence[str] = (),
) -> None:
    """Say what the basic ruleset leaves out of the scenarios that give it: a note each, once.

    A comparison of the two rulesets on one file would otherwise drop its first aid and its
    healer's level without a word, a sweep of a key the basic rules never read would draw
    the same numbers at every point (``validate`` says it too). The keys never read are
    gathered over every scenario into one note, with those of ``keys`` (a sensitivity's
    ``--keys``) they never read. ``leave``: templates already said otherwise.
    """
    told: list[Phrase] = []
    unused: list[str] = []
    items = cast(
        "list[Scenario]", list(scenarios) if isinstance(scenarios, list | tuple) else [scenarios]
    )
    for scenario in items:
        told += [
            what
            for what in basic_ignores(scenario, keys=False)
            if what not in told and what.template not in leave
        ]
        unused += [key for key in basic_unused_keys(scenario) if key not in unused]
        unused += [key for key in basic_unread(scenario, keys) if key not in unused]
    if unused:
        told.append(_unused_phrase(unused))
    for what in told:
        note(phrase("{who}: {what}", who=who, what=what))
