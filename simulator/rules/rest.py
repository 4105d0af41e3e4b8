"""The readings of rest as settings (R4, G3): how much of a rest survives a break or a session.

A rest is kept by the engine as the time already rested before its present stretch, plus the
stretch running since the last (re)start. These pure functions decide what that time becomes
when the state turns unstable (R4) and when a healing session moves on to the next level
(G3), and when the next session falls due; the engine only keeps the clock.
"""

from __future__ import annotations

from enum import StrEnum

from simulator.rules import scalar


class RestAfterUnstable(StrEnum):
    """R4: what a rest broken by an unstable state becomes at the next stabilisation."""

    RESTART = "restart"
    """The next rest starts from zero (the texts' reading for the two cases they tell)."""
    RESUME = "resume"
    """The rest pauses while unstable and goes on with the time already rested."""


class RestPerLevel(StrEnum):
    """G3: the rest that follows a session that healed every wound of its level."""

    FRESH = "fresh"
    """A new rest from zero for the new least grave level."""
    CUMULATIVE = "cumulative"
    """The rest already taken counts towards the new level's heal period."""


def rested_after_break(mode: RestAfterUnstable, rested: float, from_start: bool) -> float:
    """R4: the time rested that the next rest starts with, once the state is stable again.

    Args:
        mode: The ``rest_after_unstable`` setting.
        rested: The time rested so far in the broken rest (0 when none was running).
        from_start: True when the break restarts the rest in both settings: a failed
            neglected-watch test (R3), a failed healing test (G4), or rough activity that
            breaks the rest (X1).

    Returns:
        0 with ``restart`` or ``from_start``; else ``rested``.
    """
    result: float = scalar.rested_after_break(mode is RestAfterUnstable.RESUME, rested, from_start)
    return result


def rested_after_session(mode: RestPerLevel, rested: float) -> float:
    """G3: the time rested that the next level's rest starts with after a full session."""
    result: float = scalar.rested_after_session(mode is RestPerLevel.CUMULATIVE, rested)
    return result


def session_delay(heal_period: float, rested: float) -> float:
    """R1, R4, G3: how long after the rest's (re)start the session falls due (0: at once)."""
    result: float = scalar.session_delay(heal_period, rested)
    return result
