"""The patient's state (RULES.md H1-H6), immutable; every rule returns a new one.

A patient's wounds are the rows of :mod:`simulator.rules.rows`, the one representation every
engine keeps (the kernel its own array per trial); :attr:`Patient.rows` holds them, and what
the rules read from them (H2's mortality, H4's state, H5's worst wound...) is the function of
:mod:`simulator.rules.rows` that decides it, called as plain Python. :class:`Wound` is a view
of one column, for the readers and the writers of words.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import Enum
from typing import Final, TypeVar, final

import numpy as np

from simulator.rules import rows as r
from simulator.rules import scalar
from simulator.rules.levels import Level, Track
from simulator.rules.table import WoundTable

T = TypeVar("T")

_LEVELS = tuple(Level)
"""A stored level's :class:`Level`, by value."""

_FIRST = {Track.PHYSICAL: int(Level.LIGHT), Track.MENTAL: int(Level.SHOCK)}
"""The first level of each track (what :func:`simulator.rules.rows.worst_of_track` reads)."""

_STABLE, _DIFFICULTY, _FLOORS = "stable", "difficulty", ("floor", "floor and craziness")
_WOUNDS, _VIEW = "wounds", "memoryview"
"""Keys of what a patient keeps of its rows (its worst wound of a track is kept by track)."""


_VECTORS: dict[int, tuple[WoundTable, memoryview]] = {}
""":func:`table_vector`'s, by the table's ``id`` (the table kept with it, so that the id
cannot be taken by another table)."""


def table_vector(table: WoundTable) -> memoryview:
    """The table as :mod:`simulator.rules.rows` reads it (made once per table, read-only).

    A ``memoryview`` of :func:`simulator.rules.rows.table_vector`: indexed from Python, it
    gives plain floats, about twice as fast as the array's own items.
    """
    kept = _VECTORS.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    tab = r.table_vector(table)
    tab.flags.writeable = False
    view = memoryview(tab)  # type: ignore[arg-type]
    if len(_VECTORS) >= 256:
        _VECTORS.clear()
        _KEPT.clear()  # keyed by the vectors' ids
    _VECTORS[id(table)] = (table, view)
    return view


_KEPT: dict[tuple[int, bytes], dict[object, object]] = {}
"""What was read from (or made of) each set of rows under each table, by the table vector's
``id`` and the rows' bytes: :meth:`Patient.kept`. The rows never change, so every patient
that holds the same rows, in any trial, reads the same answers; the engine of objects asks
the same few states again and again. Emptied past :data:`KEPT_MOST` sets."""

KEPT_MOST = 20_000


def _kept(tab: memoryview, rows: np.ndarray) -> dict[object, object]:
    key = (id(tab), rows.tobytes())
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= KEPT_MOST:
            _KEPT.clear()
        found = _KEPT[key] = {}
    return found


def wound_rows(wounds: tuple[Wound, ...]) -> np.ndarray:
    """Wounds in order of receipt as :mod:`simulator.rules.rows`' rows (read-only)."""
    w = np.empty((r.W_ROWS, len(wounds)), dtype=np.int64)
    for i, wound in enumerate(wounds):
        r.add(w, i, int(wound.level), wound.stable, wound.uid)
    w.flags.writeable = False
    return w


def room(rows: np.ndarray, more: int = 0) -> np.ndarray:
    """A writable copy of ``rows`` with room for ``more`` wounds (for a transition to change)."""
    if not more:
        return rows.copy()
    w = np.empty((r.W_ROWS, rows.shape[1] + more), dtype=np.int64)
    w[:, : rows.shape[1]] = rows
    return w


def sealed(w: np.ndarray) -> np.ndarray:
    """``w``, made read-only: rows a transition made and hands to a new patient, uncopied."""
    w.flags.writeable = False
    return w


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
        rows: Current wounds in order of receipt, as :mod:`simulator.rules.rows`' rows
            (read-only); :attr:`wounds` views them as :class:`Wound` objects. The constructor
            takes either.
        size: How many wounds the patient holds (the rows' columns).
        tab: The wound table as :mod:`simulator.rules.rows` reads it (:func:`table_vector`).
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
        "_reads",
        "_w",
        "_wounds",
        "missed_watches",
        "next_uid",
        "pain",
        "pain_received",
        "relapse_target",
        "rows",
        "size",
        "status",
        "tab",
        "table",
        "unconscious_until",
    )

    def __init__(
        self,
        table: WoundTable,
        wounds: tuple[Wound, ...] | np.ndarray = (),
        pain: int | float = 0,
        pain_received: int = 0,
        missed_watches: int = 0,
        status: Status = Status.ALIVE,
        relapse_target: int | None = None,
        unconscious_until: float = -math.inf,
        next_uid: int = 0,
    ):
        self.table: Final = table
        if not isinstance(wounds, np.ndarray):
            rows, views = wound_rows(wounds), wounds
        elif wounds.flags.writeable:  # a copy that no one else can write
            rows, views = np.array(wounds, dtype=np.int64), None
            rows.flags.writeable = False
        else:  # read-only rows (another patient's) are shared
            rows, views = wounds, None
        self.rows: Final[np.ndarray] = rows
        self.size: Final[int] = rows.shape[1]
        self._w: memoryview | None = None
        self.tab: Final = table_vector(table)
        # what was read from the rows, kept (and shared by every patient of the same rows and
        # table, :data:`_KEPT`): the rows never change
        self._wounds: tuple[Wound, ...] | None = views
        self._reads: dict[object, object] = _kept(self.tab, rows)
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
            self.rows.tobytes(),
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
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS)
        return f"Patient({values})"

    # --- derived quantities: each the function of rules.rows that decides it -------------
    def kept(self, key: object, make: Callable[[], T]) -> T:
        """What ``make`` gives for these rows, made once per rows and table (:data:`_KEPT`).

        For the pure functions of the rows only (their answer depends on nothing else but
        what ``key`` says): :mod:`simulator.rules.transitions` keeps the rows a transition
        makes, so that the engine of objects asks numpy once per state, not once per event.
        """
        found = self._reads.get(key)
        if found is None:
            found = self._reads[key] = make()
        return found  # type: ignore[return-value]

    @property
    def w(self) -> memoryview:
        """The rows as :mod:`simulator.rules.rows`' functions read them from Python.

        A ``memoryview``: its items are plain ints, read about twice as fast as the array's.
        """
        w = self._w
        if w is None:
            w = self._w = self.kept(_VIEW, self._memoryview)
        return w

    @property
    def wounds(self) -> tuple[Wound, ...]:
        """H1, Q2: the current wounds in order of receipt, as :class:`Wound` views of the rows."""
        views = self._wounds
        if views is None:
            views = self._wounds = self.kept(_WOUNDS, self._views)
        return views

    def _memoryview(self) -> memoryview:
        return memoryview(self.rows)  # type: ignore[arg-type]

    def _views(self) -> tuple[Wound, ...]:
        columns = self.rows.tolist()
        return tuple(
            Wound(uid, _LEVELS[level], stable == 1)
            for level, stable, uid in zip(
                columns[r.W_LEVEL], columns[r.W_STABLE], columns[r.W_UID], strict=True
            )
        )

    @property
    def mortality(self) -> int:
        """H2: the sum of the mortality of the current physical wounds."""
        return int(r.physical_sum(self.w, self.size, self.tab, r.T_MORTALITY))

    @property
    def craziness(self) -> int:
        """M1: the sum of the craziness points of the current mental wounds."""
        return int(r.mental_sum(self.w, self.size, self.tab, r.T_MORTALITY))

    @property
    def pain_floor(self) -> int:
        """P1: pain never recovers below mortality plus craziness."""
        return self.floor(True)

    def floor(self, craziness: bool) -> int:
        """P1: mortality, plus craziness unless setting ``pain_floor_craziness`` is false."""
        return self.kept(
            _FLOORS[craziness], lambda: int(r.pain_floor(self.w, self.size, self.tab, craziness))
        )

    @property
    def difficulty(self) -> int:
        """A1: the sum of the difficulties of the current physical wounds."""
        return self.kept(
            _DIFFICULTY, lambda: int(r.physical_sum(self.w, self.size, self.tab, r.T_DIFFICULTY))
        )

    @property
    def alive(self) -> bool:
        """Whether the patient still takes part (H6)."""
        return self.status is Status.ALIVE

    @property
    def stable(self) -> bool:
        """H4: stable unless some wound is unstable."""
        return self.kept(_STABLE, lambda: r.all_stable(self.w, self.size))

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
        i = self.kept(track, lambda: r.worst_of_track(self.w, self.size, _FIRST[track]))
        return None if i == r.NO_WOUND else self.wounds[i]

    def least_grave(self, track: Track = Track.PHYSICAL) -> Level | None:
        """The least grave level present in a track (R1, G1, B4), or ``None``."""
        if track is Track.PHYSICAL:  # R1, G1
            least = r.least_grave(self.w, self.size)
        else:  # M3, B6
            least = r.least_of_track(self.w, self.size, _FIRST[track])
        return None if least == r.NO_WOUND else _LEVELS[least]

    def count(self, level: Level) -> int:
        """How many current wounds are of this level."""
        return r.held(self.w, self.size, int(level), r.NO_WOUND)

    def index(self, uid: int) -> int:
        """The column of the wound with this uid, or :data:`~simulator.rules.rows.NO_WOUND`."""
        return int(r.find(self.w, self.size, uid))

    def wound(self, uid: int) -> Wound | None:
        """The current wound with this uid, or ``None`` once healed."""
        i = self.index(uid)
        return None if i == r.NO_WOUND else self.wounds[i]

    def unconscious(self, now: float) -> bool:
        """F2: unconscious over [faint, faint + duration)."""
        return scalar.unconscious(now, self.unconscious_until)

    def evolve(
        self,
        *,
        table: WoundTable | _Keep = _KEEP,
        wounds: tuple[Wound, ...] | np.ndarray | _Keep = _KEEP,
        pain: int | float | _Keep = _KEEP,
        pain_received: int | _Keep = _KEEP,
        missed_watches: int | _Keep = _KEEP,
        status: Status | _Keep = _KEEP,
        relapse_target: int | _Keep | None = _KEEP,
        unconscious_until: float | _Keep = _KEEP,
        next_uid: int | _Keep = _KEEP,
    ) -> Patient:
        """A copy with some attributes changed (keywords only; an unknown one is a TypeError).

        ``wounds`` takes :class:`Wound` objects or :mod:`simulator.rules.rows`' rows.
        """
        changed = Patient(
            self.table if table is _KEEP else table,
            self.rows if wounds is _KEEP else wounds,
            self.pain if pain is _KEEP else pain,
            self.pain_received if pain_received is _KEEP else pain_received,
            self.missed_watches if missed_watches is _KEEP else missed_watches,
            self.status if status is _KEEP else status,
            self.relapse_target if relapse_target is _KEEP else relapse_target,
            self.unconscious_until if unconscious_until is _KEEP else unconscious_until,
            self.next_uid if next_uid is _KEEP else next_uid,
        )
        if wounds is _KEEP and table is _KEEP:  # the same rows: their views at hand
            changed._wounds, changed._w = self._wounds, self._w
        return changed


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
