"""What kills (RULES.md Q3): the cause of a death or an incoherent end, as an enum and a rule.

A trial holds one :class:`Cause`, the cause of its present unstable spell; every engine asks
:func:`cause_after` what an event makes of it. A :class:`Cause` is a ``str``
(``Cause.WOUND == "wound"``): the ``cause`` column of the trials frame and the keys of
``p_dead_by_cause`` read as plain strings.
"""

from __future__ import annotations

from enum import StrEnum

from simulator.rules import codes, scalar
from simulator.rules.ids import RuleId
from simulator.rules.patient import Status

__all__ = ["CAUSES", "DEATH_CAUSES", "Cause", "cause_after"]


class Cause(StrEnum):
    """Q3: what opened the way to a death (or an incoherent end)."""

    NONE = ""
    """No cause yet (no spell opened), or a trial that did not end dead or incoherent."""

    BLOW = "blow"
    """A wound received past critical (W1): dead on arrival."""

    WOUND = "wound"
    """The unstable spell a received wound opened (W2, then S3)."""

    STABLE_TEST = "stable_test"
    """The spell a failed survival test at the stable periodicity opened (S4)."""

    NEGLECTED_WATCH = "neglected_watch"
    """The spell a failed survival test after a neglected watch opened (R3)."""

    HEALING_FAILURE = "healing_failure"
    """The spell a failed healing test opened (G4: the treated wound relapses)."""

    ACTIVITY = "activity"
    """Rough activity (X1): a failed activity test that kills, or the spell it opened."""

    BASIC_HEALING = "basic_healing"
    """The basic ruleset: a healing roll failed by 10 or more that kills (B4)."""

    MENTAL = "mental"
    """An incoherent end (M2, B6): not a death."""


CAUSES: tuple[str, ...] = tuple(c.value for c in Cause if c is not Cause.NONE)
"""Every cause's name, in :class:`Cause`'s order (the categories of the ``cause`` column)."""

DEATH_CAUSES: tuple[str, ...] = tuple(c for c in CAUSES if c != Cause.MENTAL.value)
"""The causes of a death: the keys of ``p_dead_by_cause``."""

_EVENTS: dict[RuleId, int] = {
    RuleId.W1: codes.EV_W1,
    RuleId.W2: codes.EV_W2,
    RuleId.S3: codes.EV_S3,
    RuleId.S4: codes.EV_S4,
    RuleId.R3: codes.EV_R3,
    RuleId.G4: codes.EV_G4,
    RuleId.X1: codes.EV_X1,
    RuleId.A2: codes.EV_A2,
    RuleId.B4: codes.EV_B4,
}
"""The events :func:`simulator.rules.scalar.cause_after` tells apart, as its codes."""

_BY_CODE: tuple[Cause, ...] = tuple(Cause)
"""A cause by its code (:class:`~simulator.rules.codes.Why` follows :class:`Cause`)."""

_CODES: dict[Cause, int] = {cause: code for code, cause in enumerate(_BY_CODE)}


def cause_after(cause: Cause, event: RuleId, opened: bool, status: Status) -> Cause:
    """Q3: the trial's cause after ``event``.

    Args:
        cause: The cause the trial held (that of its present or last unstable spell).
        event: The rule of the event: ``W1``/``W2`` a wound received, ``S3``/``S4`` a failed
            survival test, ``R3`` a neglected watch, ``G4`` a failed healing test, ``X1``
            rough activity, ``B4``/``B6`` a basic healing roll.
        opened: Whether the event turned the state from stable to unstable (for a patient
            never yet stable, its first wound does).
        status: The patient's status after the event (H6).

    Returns:
        ``mental`` for an incoherent end; for a death, the event's own cause when it kills
        by itself (a blow, an activity test, a basic healing roll), else the spell's; for an
        event that opened a spell, that event's cause; else ``cause`` unchanged.
    """
    if status is Status.INCOHERENT:  # M2: only the mental track ends so
        return Cause.MENTAL
    dead = status is Status.DEAD
    code = scalar.cause_after(_CODES[cause], _EVENTS.get(event, codes.EV_OTHER), opened, dead)
    return _BY_CODE[code]
