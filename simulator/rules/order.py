"""O1's order of the events of one instant, as one enum.

At one instant injuries resolve before activities, then first aid, watches, healing sessions
and survival tests; the horizon comes last (O2). Pain recovery (P1) is applied before every
event and has no priority of its own. The values are those of
:mod:`simulator.engine.clock`'s ``PRIO_*`` (a test keeps them equal).
"""

from __future__ import annotations

from enum import IntEnum


class Priority(IntEnum):
    """O1: the order of simultaneous events, lowest first."""

    INJURY = 2
    ACTIVITY = 3
    FIRST_AID = 4
    WATCH = 5
    HEALING = 6
    SURVIVAL = 7
    HORIZON = 9
