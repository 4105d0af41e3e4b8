"""The trial's state as numbers: named codes for levels, priorities, outcomes, causes, events.

The kernel keeps one trial in a few numeric arrays; every number it compares or stores with a
meaning has a name here, never a bare literal in the loop. Each code is an ``IntEnum`` (for
Python: decoding, tests) mirrored by module constants (what numba freezes into the compiled
code). They follow the project's enums: :class:`~simulator.rules.levels.Level`'s values,
O1's priorities (defined here, as :class:`Prio`, for every engine), the order of
:data:`~simulator.rules.outcome.OUTCOMES` and of :class:`~simulator.rules.cause.Cause`; a test
checks that they agree.
"""

from __future__ import annotations

from enum import IntEnum


class Lv(IntEnum):
    """Wound levels, physical (T1) then mental (M1), as :class:`~simulator.rules.levels.Level`'s."""

    LIGHT = 0
    GRAVE = 1
    CRITICAL = 2
    SHOCK = 3
    TRAUMA = 4
    PSYCHOSIS = 5


class Prio(IntEnum):
    """O1's order of simultaneous events, lowest first (P1 is applied before every event).

    ``MENTAL_HEALING`` is the session of a mental rest (M3, B6): a healing session, after the
    physical track's at one instant (O1).

    The one definition of O1's priorities: :class:`simulator.rules.order.Priority` is this
    enum, and :mod:`simulator.engine.clock`'s ``PRIO_*`` are its values.
    """

    INJURY = 2
    ACTIVITY = 3
    FIRST_AID = 4
    WATCH = 5
    HEALING = 6
    MENTAL_HEALING = 7
    SURVIVAL = 8
    HORIZON = 9


class Out(IntEnum):
    """Q1's outcomes, in the order of :data:`~simulator.rules.outcome.OUTCOMES`."""

    DEAD = 0
    INCOHERENT = 1
    HEALED = 2
    WOUNDED = 3


class Why(IntEnum):
    """Q3's causes, in the order of :class:`~simulator.rules.cause.Cause` (NONE first)."""

    NONE = 0
    BLOW = 1
    WOUND = 2
    STABLE_TEST = 3
    NEGLECTED_WATCH = 4
    HEALING_FAILURE = 5
    ACTIVITY = 6
    BASIC_HEALING = 7
    MENTAL = 8


class Ev(IntEnum):
    """The events that change the patient (what Q3's cause rule is asked about)."""

    W1 = 0
    W2 = 1
    S3 = 2
    S4 = 3
    R3 = 4
    G4 = 5
    X1 = 6
    A2 = 7
    B4 = 8
    OTHER = 9


class Tr(IntEnum):
    """What a trace record tells (decoded into words by :mod:`simulator.kernel.telling`)."""

    RECEIVE = 0
    OVERFLOW = 1
    BLOW_FATAL = 2
    WORSENS = 3
    FAINT_PASSED = 4
    FAINT_FAILED = 5
    SURVIVAL_PASSED = 6
    SURVIVAL_RUN = 7
    SURVIVAL_UNSTABLE = 8
    SURVIVAL_WORSENS = 9
    AID_FAILED = 10
    AID_RUN = 11
    AID_SUCCEEDS = 12
    AID_EXHAUSTED = 13
    AID_LOST = 14
    REST_BEGINS = 15
    WATCH = 16
    HEALED_ONE = 17
    RELAPSE = 18
    NEW_REST = 19
    WOUND_FREE = 20
    ACTIVITY = 21
    ACTIVITY_HOLDS = 22
    ACTIVITY_WORSENS = 23
    ACTIVITY_REST = 24
    HORIZON = 25
    RECOVERY = 26
    TRACK_HEALED = 27
    TRACK_STOPS = 28
    TRACK_WORSENS = 29


# Module constants for the compiled code (numba freezes globals; IntEnum members stay Python).
LIGHT, GRAVE, CRITICAL = int(Lv.LIGHT), int(Lv.GRAVE), int(Lv.CRITICAL)
SHOCK, TRAUMA, PSYCHOSIS = int(Lv.SHOCK), int(Lv.TRAUMA), int(Lv.PSYCHOSIS)
TRACK_SIZE = SHOCK
"""Levels per track: a level's rank is ``level % TRACK_SIZE``, its track's first level
``level - rank`` (:data:`LIGHT` or :data:`SHOCK`)."""
TOP_RANK = CRITICAL
PRIO_INJURY, PRIO_ACTIVITY = int(Prio.INJURY), int(Prio.ACTIVITY)
PRIO_FIRST_AID, PRIO_WATCH = int(Prio.FIRST_AID), int(Prio.WATCH)
PRIO_HEALING, PRIO_SURVIVAL, PRIO_HORIZON = int(Prio.HEALING), int(Prio.SURVIVAL), int(Prio.HORIZON)
PRIO_MENTAL_HEALING = int(Prio.MENTAL_HEALING)
OUT_DEAD, OUT_HEALED, OUT_WOUNDED = int(Out.DEAD), int(Out.HEALED), int(Out.WOUNDED)
OUT_INCOHERENT = int(Out.INCOHERENT)
WHY_NONE, WHY_BLOW, WHY_WOUND = int(Why.NONE), int(Why.BLOW), int(Why.WOUND)
WHY_STABLE_TEST, WHY_NEGLECTED_WATCH = int(Why.STABLE_TEST), int(Why.NEGLECTED_WATCH)
WHY_HEALING_FAILURE, WHY_ACTIVITY = int(Why.HEALING_FAILURE), int(Why.ACTIVITY)
WHY_BASIC_HEALING, WHY_MENTAL = int(Why.BASIC_HEALING), int(Why.MENTAL)
EV_W1, EV_W2, EV_S3, EV_S4 = int(Ev.W1), int(Ev.W2), int(Ev.S3), int(Ev.S4)
EV_R3, EV_G4, EV_X1, EV_A2 = int(Ev.R3), int(Ev.G4), int(Ev.X1), int(Ev.A2)
EV_B4, EV_OTHER = int(Ev.B4), int(Ev.OTHER)
