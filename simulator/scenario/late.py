"""O2: what a scenario lists after its horizon never happens in a trial; a note says so.

Once per scenario and what it cuts in a process (a sweep's points, a study's scenarios, a
balance over the horizon: the first horizon is named): a designer who looks at the first
days of a long scenario (``--set horizon=3d``) is told what is cut, and one who mistyped the
horizon is not left with a patient "healed" at 0 h.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simulator.errors import note, phrase
from simulator.rules.durations import format_duration

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario

_TOLD_LATE: set[tuple[str, int, int]] = set()
"""The scenarios :func:`tell_late` has told of in this process (a sweep's points, once)."""


def tell_late(scenarios: Sequence[Scenario]) -> None:
    """A note for each scenario with injuries or activities after its horizon (O2).

    They never happen in a trial. That is how a designer looks at the first days of a longer
    scenario (``--set horizon=3d``), but a mistyped horizon reads the same way, and a patient
    never wounded is "healed" at 0 h: so it is said, once per scenario and count of what is
    cut (a balance over the horizon would say it at each value).
    """
    for scenario in scenarios:
        if not scenario.injuries and (scenario.source or scenario.name, -1, -1) not in _TOLD_LATE:
            _TOLD_LATE.add((scenario.source or scenario.name, -1, -1))
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
        told = (scenario.source or scenario.name, injuries, activities)
        if not (injuries or activities) or told in _TOLD_LATE:
            continue
        _TOLD_LATE.add(told)
        what = []
        if injuries:
            what.append(phrase("injuries, {n} of {m}", n=injuries, m=len(scenario.injuries)))
        if activities:
            what.append(phrase("activities, {n} of {m}", n=activities, m=len(scenario.activities)))
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
