"""The patient's state (RULES.md H1-H6), immutable; every rule returns a new one."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from simulator.rules.levels import Level, Track
from simulator.rules.table import WoundTable


class Status(Enum):
    """H6: alive, dead or incoherent (M2). Dead and incoherent patients are out of play."""

    ALIVE = "alive"
    DEAD = "dead"
    INCOHERENT = "incoherent"


@dataclass(frozen=True, slots=True)
class Wound:
    """H1: one wound. ``uid`` is its order of receipt (Q2), kept when its level changes."""

    uid: int
    level: Level
    stable: bool


@dataclass(frozen=True, slots=True)
class Patient:
    """A patient: wounds, pain and the few counters the rules need.

    Mortality and craziness are derived from the wounds (H2), never stored.

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

    table: WoundTable
    wounds: tuple[Wound, ...] = ()
    pain: int | float = 0
    pain_received: int = 0
    missed_watches: int = 0
    status: Status = Status.ALIVE
    relapse_target: int | None = None
    unconscious_until: float = -math.inf
    next_uid: int = 0

    # --- derived quantities -------------------------------------------------------------
    @property
    def mortality(self) -> int:
        """H2: the sum of the mortality of the current physical wounds."""
        rows = self.table.rows
        return sum(rows[w.level].mortality for w in self.wounds if w.level.is_physical)

    @property
    def craziness(self) -> int:
        """M1: the sum of the craziness points of the current mental wounds."""
        rows = self.table.rows
        return sum(rows[w.level].mortality for w in self.wounds if w.level.is_mental)

    @property
    def pain_floor(self) -> int:
        """P1: pain never recovers below mortality plus craziness."""
        rows = self.table.rows
        return sum(rows[w.level].mortality for w in self.wounds)

    @property
    def alive(self) -> bool:
        """Whether the patient still takes part (H6)."""
        return self.status is Status.ALIVE

    @property
    def stable(self) -> bool:
        """H4: stable unless some wound is unstable."""
        return all(w.stable for w in self.wounds)

    @property
    def physical(self) -> tuple[Wound, ...]:
        """The physical wounds, in order of receipt."""
        return tuple(w for w in self.wounds if w.level.is_physical)

    @property
    def mental(self) -> tuple[Wound, ...]:
        """The mental wounds, in order of receipt."""
        return tuple(w for w in self.wounds if w.level.is_mental)

    def worst(self, track: Track = Track.PHYSICAL) -> Wound | None:
        """H5: the wound of highest level of a track; among equals, the one received first."""
        best: Wound | None = None
        for w in self.wounds:
            if w.level.track is track and (best is None or w.level > best.level):
                best = w
        return best

    def least_grave(self, track: Track = Track.PHYSICAL) -> Level | None:
        """The least grave level present in a track (R1, G1, B4), or ``None``."""
        levels = [w.level for w in self.wounds if w.level.track is track]
        return min(levels) if levels else None

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
        return now < self.unconscious_until

    def evolve(self, **changes: object) -> Patient:
        """A copy with some fields changed (a faster ``dataclasses.replace``).

        Raises:
            TypeError: When a keyword names no field.
        """
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"Patient has no field {sorted(changes.keys() - _FIELDS)}")
        get = changes.get
        return Patient(
            get("table", self.table),  # type: ignore[arg-type]
            get("wounds", self.wounds),  # type: ignore[arg-type]
            get("pain", self.pain),  # type: ignore[arg-type]
            get("pain_received", self.pain_received),  # type: ignore[arg-type]
            get("missed_watches", self.missed_watches),  # type: ignore[arg-type]
            get("status", self.status),  # type: ignore[arg-type]
            get("relapse_target", self.relapse_target),  # type: ignore[arg-type]
            get("unconscious_until", self.unconscious_until),  # type: ignore[arg-type]
            get("next_uid", self.next_uid),  # type: ignore[arg-type]
        )


_FIELDS = frozenset(Patient.__dataclass_fields__)
