"""The patient's state (RULES.md H1-H6), immutable; every rule returns a new one."""

from __future__ import annotations

import math
from enum import Enum
from typing import Final, final

from simulator.rules import scalar
from simulator.rules.levels import Level, Track
from simulator.rules.table import WoundTable

_FIRST_MENTAL = Level.SHOCK
"""Levels below it are physical, the others mental (T1, M1): one comparison, no lookup."""


class _Keep(Enum):
    """The default of :meth:`Patient.evolve`'s keywords: keep the present value."""

    KEEP = "keep"


_KEEP: Final = _Keep.KEEP


class Status(Enum):
    """H6: alive, dead or incoherent (M2). Dead and incoherent patients are out of play."""

    ALIVE = "alive"
    DEAD = "dead"
    INCOHERENT = "incoherent"


@final
class Wound:
    """H1: one wound. ``uid`` is its order of receipt (Q2), kept when its level changes.

    Immutable: its attributes are ``Final`` (mypy refuses any assignment outside
    ``__init__``), and it compares and hashes by value.
    """

    __slots__ = ("level", "stable", "uid")

    def __init__(self, uid: int, level: Level, stable: bool):
        self.uid: Final = uid
        self.level: Final = level
        self.stable: Final = stable

    def _key(self) -> tuple[int, Level, bool]:
        return (self.uid, self.level, self.stable)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Wound):
            return NotImplemented
        return self.uid == other.uid and self.level == other.level and self.stable == other.stable

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Wound(uid={self.uid!r}, level={self.level!r}, stable={self.stable!r})"


@final
class Patient:
    """A patient: wounds, pain and the few counters the rules need.

    Mortality and craziness are derived from the wounds (H2), never stored. Immutable: its
    attributes are ``Final`` (mypy refuses any assignment outside ``__init__``); every rule
    returns a new patient (:meth:`evolve`). It compares and hashes by value.

    Attributes:
        table: The wound table in force (shared, immutable).
        wounds: Current wounds in order of receipt.
        pain: Current pain points (H3, P1); an int, with fractions only when pain recovers
            by a fractional number of points per hour.
        pain_received: Total of all pain ever received, for faint checks (F1).
        missed_watches: Neglected watches since the patient last had no wound (D4, R3, G5).
        status: Alive, dead or incoherent (H6).
        relapse_target: The uid of the treated wound during a relapse (G4), else ``None``.
        unconscious_until: End of the current faint, half-open (F2).
        next_uid: The uid the next wound will get.
    """

    __slots__ = (
        "missed_watches",
        "next_uid",
        "pain",
        "pain_received",
        "relapse_target",
        "status",
        "table",
        "unconscious_until",
        "wounds",
    )

    def __init__(
        self,
        table: WoundTable,
        wounds: tuple[Wound, ...] = (),
        pain: int | float = 0,
        pain_received: int = 0,
        missed_watches: int = 0,
        status: Status = Status.ALIVE,
        relapse_target: int | None = None,
        unconscious_until: float = -math.inf,
        next_uid: int = 0,
    ):
        self.table: Final = table
        self.wounds: Final = wounds
        self.pain: Final = pain
        self.pain_received: Final = pain_received
        self.missed_watches: Final = missed_watches
        self.status: Final = status
        self.relapse_target: Final = relapse_target
        self.unconscious_until: Final = unconscious_until
        self.next_uid: Final = next_uid

    def _key(self) -> tuple[object, ...]:
        return (
            self.table,
            self.wounds,
            self.pain,
            self.pain_received,
            self.missed_watches,
            self.status,
            self.relapse_target,
            self.unconscious_until,
            self.next_uid,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Patient):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        values = ", ".join(
            f"{name}={value!r}" for name, value in zip(FIELDS, self._key(), strict=True)
        )
        return f"Patient({values})"

    # --- derived quantities -------------------------------------------------------------
    @property
    def mortality(self) -> int:
        """H2: the sum of the mortality of the current physical wounds."""
        rows = self.table.rows
        total = 0
        for w in self.wounds:
            if w.level < _FIRST_MENTAL:
                total += rows[w.level].mortality
        return total

    @property
    def craziness(self) -> int:
        """M1: the sum of the craziness points of the current mental wounds."""
        rows = self.table.rows
        total = 0
        for w in self.wounds:
            if w.level >= _FIRST_MENTAL:
                total += rows[w.level].mortality
        return total

    @property
    def pain_floor(self) -> int:
        """P1: pain never recovers below mortality plus craziness."""
        rows = self.table.rows
        total = 0
        for w in self.wounds:
            total += rows[w.level].mortality
        return total

    @property
    def alive(self) -> bool:
        """Whether the patient still takes part (H6)."""
        return self.status is Status.ALIVE

    @property
    def stable(self) -> bool:
        """H4: stable unless some wound is unstable."""
        for w in self.wounds:  # noqa: SIM110 (a loop is cheaper than all() over a generator)
            if not w.stable:
                return False
        return True

    @property
    def physical(self) -> tuple[Wound, ...]:
        """The physical wounds, in order of receipt."""
        return tuple(w for w in self.wounds if w.level < _FIRST_MENTAL)

    @property
    def mental(self) -> tuple[Wound, ...]:
        """The mental wounds, in order of receipt."""
        return tuple(w for w in self.wounds if w.level >= _FIRST_MENTAL)

    def worst(self, track: Track = Track.PHYSICAL) -> Wound | None:
        """H5: the wound of highest level of a track; among equals, the one received first."""
        best: Wound | None = None
        mental = track is Track.MENTAL
        for w in self.wounds:
            if (w.level >= _FIRST_MENTAL) is mental and (best is None or w.level > best.level):
                best = w
        return best

    def least_grave(self, track: Track = Track.PHYSICAL) -> Level | None:
        """The least grave level present in a track (R1, G1, B4), or ``None``."""
        least: Level | None = None
        mental = track is Track.MENTAL
        for w in self.wounds:
            if (w.level >= _FIRST_MENTAL) is mental and (least is None or w.level < least):
                least = w.level
        return least

    def count(self, level: Level) -> int:
        """How many current wounds are of this level."""
        return sum(1 for w in self.wounds if w.level == level)

    def wound(self, uid: int) -> Wound | None:
        """The current wound with this uid, or ``None`` once healed."""
        for w in self.wounds:
            if w.uid == uid:
                return w
        return None

    def unconscious(self, now: float) -> bool:
        """F2: unconscious over [faint, faint + duration)."""
        return scalar.unconscious(now, self.unconscious_until)

    def evolve(
        self,
        *,
        table: WoundTable | _Keep = _KEEP,
        wounds: tuple[Wound, ...] | _Keep = _KEEP,
        pain: int | float | _Keep = _KEEP,
        pain_received: int | _Keep = _KEEP,
        missed_watches: int | _Keep = _KEEP,
        status: Status | _Keep = _KEEP,
        relapse_target: int | _Keep | None = _KEEP,
        unconscious_until: float | _Keep = _KEEP,
        next_uid: int | _Keep = _KEEP,
    ) -> Patient:
        """A copy with some attributes changed (keywords only; an unknown one is a TypeError)."""
        return Patient(
            self.table if table is _KEEP else table,
            self.wounds if wounds is _KEEP else wounds,
            self.pain if pain is _KEEP else pain,
            self.pain_received if pain_received is _KEEP else pain_received,
            self.missed_watches if missed_watches is _KEEP else missed_watches,
            self.status if status is _KEEP else status,
            self.relapse_target if relapse_target is _KEEP else relapse_target,
            self.unconscious_until if unconscious_until is _KEEP else unconscious_until,
            self.next_uid if next_uid is _KEEP else next_uid,
        )


FIELDS = (
    "table",
    "wounds",
    "pain",
    "pain_received",
    "missed_watches",
    "status",
    "relapse_target",
    "unconscious_until",
    "next_uid",
)
"""A patient's attributes, in the order of its constructor."""
