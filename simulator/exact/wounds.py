"""The rules of wounds for the exact engine: each decision asked of ``rules/`` once, then kept.

A state's wounds are a tuple of ``(level, stable)`` pairs in order of receipt (Q2), the
treated wound of a relapse (G4) an index into it. Everything a rule makes of them (H4's
stability, H5's worst wound, P1's floor, S2's period, R1-R2's periods, X1's tested wounds,
G1's order, W1-W2's new wound, S3-S4's failed survival test, G2's healing, A2, R3, G4)
depends on that tuple alone: :class:`WoundRules` builds a
:class:`~simulator.rules.patient.Patient` from it the first time, asks the pure functions of
:mod:`simulator.rules`, and keeps the answer. The exact engine decides nothing about wounds
itself, and pays a dictionary look-up per question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from simulator.rules import counts, periods, transitions
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Patient, Status, Wound
from simulator.rules.table import WoundTable

Wounds = tuple[tuple[int, bool], ...]
"""``(level, stable)`` per wound, in order of receipt; a level is a :class:`Level`'s value."""

LEVELS = tuple(Level)
"""A stored level's :class:`Level`, by value."""

US = 1_000_000
"""Microseconds per second."""

NEVER = -1
"""A clock that is not armed, a period that does not run, an index of no wound."""


def micro(seconds: float) -> int:
    """A duration or time in seconds as integer microseconds (durations are exact to 1 µs)."""
    return round(seconds * US)


class View(NamedTuple):
    """What the rules read from a tuple of wounds (times in microseconds).

    Attributes:
        stable: H4.
        physical: Whether any physical wound is held.
        worst: The index of H5's worst physical wound, or :data:`NEVER`.
        clock: S2's clock: ``(worst level, stable)``, None without a physical wound; the
            survival clock restarts when it changes.
        period: S2's period, or :data:`NEVER` when no survival test falls due.
        penalties: M1: the mental wounds' penalties, sorted.
        difficulty: A1: the physical wounds' difficulties summed.
        floor: P1's floor.
        rest: R1-R2: the rest's length and its watches' period, None without a physical
            wound.
        tested: X1: the indices of the wounds an activity tests.
        order: G1/B5: per track (physical, mental), the indices of the wounds a session
            treats.
        track_rest: B5/M3: per track, the heal period of its least grave level, or
            :data:`NEVER`.
    """

    stable: bool
    physical: bool
    worst: int
    clock: tuple[int, bool] | None
    period: int
    penalties: tuple[int, ...]
    difficulty: int
    floor: int
    rest: tuple[int, int] | None
    tested: tuple[int, ...]
    order: tuple[tuple[int, ...], tuple[int, ...]]
    track_rest: tuple[int, int]


class Change(NamedTuple):
    """What a transition made of the wounds.

    Attributes:
        wounds: The wounds after it.
        relapse: The treated wound of a relapse (G4) after it, or :data:`NEVER`.
        pain: The pain it brought (W2, S3).
        status: :attr:`Status.ALIVE`, or what a fatal blow made of the patient (H6, M2).
        resets_missed: G5: no wound is left, and with it the missed-watch penalty.
    """

    wounds: Wounds
    relapse: int
    pain: int
    status: Status
    resets_missed: bool = False


K = TypeVar("K")
V = TypeVar("V")


def _kept(cache: dict[K, V], key: K, compute: Callable[[], V]) -> V:
    found = cache.get(key)
    if found is None:
        found = cache[key] = compute()
    return found


class WoundRules:
    """The rules of wounds of one scenario, over :data:`Wounds`, asked once each.

    Args:
        table: The wound table in force.
        basic: The basic ruleset: no pain (B2), no stability (B3).
        stable_tests: Setting ``stable_survival_tests`` (S2).
        floor_craziness: Setting ``pain_floor_craziness`` (P1).
    """

    def __init__(self, table: WoundTable, basic: bool, stable_tests: bool, floor_craziness: bool):
        self.table = table
        self.pain = not basic
        self.stable = basic
        self.stable_tests = stable_tests
        self.floor_craziness = floor_craziness
        self._views: dict[Wounds, View] = {}
        self._changes: dict[tuple[object, ...], Change] = {}

    def patient(self, wounds: Wounds, relapse: int = NEVER, missed: int = 0) -> Patient:
        """The :class:`Patient` of these wounds (uids: their indices)."""
        return Patient(
            self.table,
            tuple(Wound(i, LEVELS[lv], st) for i, (lv, st) in enumerate(wounds)),
            missed_watches=missed,
            relapse_target=None if relapse == NEVER else relapse,
            next_uid=len(wounds),
        )

    def view(self, wounds: Wounds) -> View:
        """What the rules read from ``wounds``."""
        found = self._views.get(wounds)
        if found is None:
            found = self._views[wounds] = self._read(wounds)
        return found

    def _read(self, wounds: Wounds) -> View:
        p = self.patient(wounds)
        rows = self.table.rows
        worst = p.worst()
        period = periods.survival_period(p, self.stable_tests)
        rest = periods.rest_periods(p)
        track_rest = []
        for track in (Track.PHYSICAL, Track.MENTAL):
            least = p.least_grave(track)
            track_rest.append(NEVER if least is None else micro(rows[least].heal_period))
        return View(
            stable=p.stable,
            physical=bool(p.physical),
            worst=NEVER if worst is None else worst.uid,
            clock=None if worst is None else (int(worst.level), p.stable),
            period=NEVER if period is None else micro(period),
            penalties=tuple(sorted(counts.mental_penalties(p))),
            difficulty=transitions.wound_difficulty(p),
            floor=transitions.pain_floor(p, self.floor_craziness),
            rest=None if rest is None else (micro(rest.heal), micro(rest.watch)),
            tested=tuple(transitions.activity_tested(p)),
            order=(
                tuple(transitions.healing_order(p, Track.PHYSICAL)),
                tuple(transitions.healing_order(p, Track.MENTAL)),
            ),
            track_rest=(track_rest[0], track_rest[1]),
        )

    def _back(self, p: Patient, pain: int = 0, resets_missed: bool = False) -> Change:
        relapse = NEVER
        for i, w in enumerate(p.wounds):
            if w.uid == p.relapse_target:
                relapse = i
        wounds = tuple((int(w.level), w.stable) for w in p.wounds)
        return Change(wounds, relapse, pain, p.status, resets_missed)

    # --- transitions -------------------------------------------------------------------
    def receive(self, wounds: Wounds, relapse: int, level: int) -> Change:
        """W1-W2 (M1-M2, B1-B3): a new wound of ``level``; fatal past the top of its track."""

        def compute() -> Change:
            p, blow = transitions.receive_wound(
                self.patient(wounds, relapse),
                LEVELS[level],
                with_pain=self.pain,
                stable=self.stable,
            )
            return self._back(p, blow.pain)

        return _kept(self._changes, ("W1", wounds, relapse, level), compute)

    def worsen(self, wounds: Wounds, relapse: int, index: int, with_pain: bool = True) -> Change:
        """S3 (X1, B4): the wound at ``index`` goes up one level, with W1's overflow."""

        def compute() -> Change:
            p, blow = transitions.worsen(
                self.patient(wounds, relapse),
                index,
                with_pain=with_pain and self.pain,
                stable=self.stable,
            )
            return self._back(p, blow.pain)

        return _kept(self._changes, ("S3", wounds, relapse, index, with_pain), compute)

    def survival_failure(self, wounds: Wounds, relapse: int) -> tuple[Change, bool]:
        """S3-S4: a failed survival test; True with it when a wound worsened (S3)."""
        change = _kept(
            self._changes,
            ("S4", wounds, relapse),
            lambda: self._failure(wounds, relapse),
        )
        return change, not self.view(wounds).stable

    def _failure(self, wounds: Wounds, relapse: int) -> Change:
        p, blow = transitions.survival_failure(self.patient(wounds, relapse))
        return self._back(p, 0 if blow is None else blow.pain)

    def heal(self, wounds: Wounds, relapse: int, index: int) -> Change:
        """G2 (B4, M3): the wound at ``index`` goes down one level (a light one disappears)."""

        def compute() -> Change:
            p = transitions.heal(self.patient(wounds, relapse, missed=1), index)
            return self._back(p, resets_missed=p.missed_watches == 0)

        return _kept(self._changes, ("G2", wounds, relapse, index), compute)

    def stabilise(self, wounds: Wounds) -> Wounds:
        """A2: every wound stable (a relapse ends with it)."""
        key = ("A2", wounds)
        return _kept(
            self._changes, key, lambda: self._back(transitions.stabilise(self.patient(wounds)))
        ).wounds

    def neglected(self, wounds: Wounds, relapse: int) -> Change:
        """R3: a failed neglected-watch test makes every physical wound unstable."""
        return _kept(
            self._changes,
            ("R3", wounds, relapse),
            lambda: self._back(transitions.destabilise(self.patient(wounds, relapse))),
        )

    def relapse(self, wounds: Wounds, relapse: int, index: int) -> Change:
        """G4: the treated wound at ``index`` becomes unstable and the relapse's target."""
        return _kept(
            self._changes,
            ("G4", wounds, relapse, index),
            lambda: self._back(transitions.healing_failure(self.patient(wounds, relapse), index)),
        )
