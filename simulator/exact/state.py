"""The exact engine's trial state: what a trial's future depends on, and nothing else.

A :class:`State` is hashable and canonical, so that two trials whose futures are alike merge
into one entry of the distribution. Times are absolute campaign times in integer
microseconds (so sums of durations are exact, and two events of one instant stay one instant);
states are only ever merged with states due at the same instant, so absolute times lose
nothing. Wounds are ``(level, stable)`` pairs in order of receipt (Q2); the treated wound of a
relapse (G4) is an index into them. A :class:`Work` is the mutable copy a handler changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from simulator.rules.cause import Cause
from simulator.rules.levels import Level

US = 1_000_000
"""Microseconds per second."""


def micro(seconds: float) -> int:
    """A duration or time in seconds as integer microseconds (durations are exact to 1 µs)."""
    return round(seconds * US)


class State(NamedTuple):
    """One trial state, canonical (see the module's docstring).

    Attributes:
        wounds: ``(level, stable)`` per wound, in order of receipt.
        relapse: Index of the treated wound during a relapse (G4), or -1.
        pain: Current pain points (an ``int``, or a ``Fraction`` with fractional recovery).
        recv5: Total pain ever received, modulo 5: all F1 needs.
        missed: The missed-watch count (D4).
        uncon: End of the current faint (F2), or -1 when it does not matter.
        anchor: P1: the last full stable hour (or stabilisation) pain was brought to, or -1.
        inj: Index of the next injury (file order).
        act: Index of the next activity.
        fa_due: The next first-aid attempt (A3), or -1.
        fa_n: Attempts made this unstable spell (only kept with ``max_attempts``).
        rest: Start of the present rest when its watches matter (R2), or -1.
        wp: The rest's watch period.
        wk: Index of the next watch of the rest to happen, 0 when none.
        pend: ``neglect_at`` times still pending (R2).
        sess: Pending healing sessions ``(due, kind)`` in queue order (kind 0: G1 session,
            1: B4 physical track, 2: mental track).
        surv: Next survival test (S2), or -1.
        free: When the patient last became wound-free (G5), or -1 while wounded.
        stab: Whether the patient has ever been stabilised (Q1's first stabilisation).
        rested: R4/G3 settings: time rested before the present stretch of the rest.
        stretch: R4/G3 settings: when the rest's present stretch began, or -1.
        kept: R4 ``resume``: the time rested the next rest starts with (while unstable).
        cause: Q3: the cause of the present unstable spell (a
            :class:`~simulator.rules.cause.Cause`), ``Cause.NONE`` while stable, when no
            later death can be of it.
    """

    wounds: tuple[tuple[int, bool], ...]
    relapse: int
    pain: int | Fraction
    recv5: int
    missed: int
    uncon: int
    anchor: int
    inj: int
    act: int
    fa_due: int
    fa_n: int
    rest: int
    wp: int
    wk: int
    pend: tuple[int, ...]
    sess: tuple[tuple[int, int], ...]
    surv: int
    free: int
    stab: bool
    rested: int = 0
    stretch: int = -1
    kept: int = 0
    cause: Cause = Cause.NONE


SESSION, TRACK_PHYSICAL, TRACK_MENTAL = 0, 1, 2


class Work:
    """A mutable copy of a :class:`State` for one handler; wounds carry uids while it runs.

    ``wounds`` is a list of ``[uid, level, stable]``; ``relapse`` a uid or -1.
    """

    __slots__ = (*State._fields, "next_uid")

    wounds: list[list[int]]  # [uid, level, stable]: a bool is an int
    relapse: int
    pain: int | Fraction
    recv5: int
    missed: int
    uncon: int
    anchor: int
    inj: int
    act: int
    fa_due: int
    fa_n: int
    rest: int
    wp: int
    wk: int
    pend: tuple[int, ...]
    sess: Sequence[tuple[int, int]]
    surv: int
    free: int
    stab: bool
    rested: int
    stretch: int
    kept: int
    cause: Cause
    next_uid: int

    def __init__(self, s: State):
        (
            wounds,
            self.relapse,
            self.pain,
            self.recv5,
            self.missed,
            self.uncon,
            self.anchor,
            self.inj,
            self.act,
            self.fa_due,
            self.fa_n,
            self.rest,
            self.wp,
            self.wk,
            self.pend,
            self.sess,
            self.surv,
            self.free,
            self.stab,
            self.rested,
            self.stretch,
            self.kept,
            self.cause,
        ) = s
        self.wounds = [[i, lv, st] for i, (lv, st) in enumerate(wounds)]
        self.next_uid = len(wounds)

    def copy(self) -> Work:
        """An independent copy (for a branch)."""
        new = Work.__new__(Work)
        new.relapse = self.relapse
        new.pain = self.pain
        new.recv5 = self.recv5
        new.missed = self.missed
        new.uncon = self.uncon
        new.anchor = self.anchor
        new.inj = self.inj
        new.act = self.act
        new.fa_due = self.fa_due
        new.fa_n = self.fa_n
        new.rest = self.rest
        new.wp = self.wp
        new.wk = self.wk
        new.pend = self.pend
        new.sess = self.sess
        new.surv = self.surv
        new.free = self.free
        new.stab = self.stab
        new.rested = self.rested
        new.stretch = self.stretch
        new.kept = self.kept
        new.cause = self.cause
        new.next_uid = self.next_uid
        new.wounds = [list(w) for w in self.wounds]
        return new

    def freeze(self) -> State:
        """The canonical state: uids renumbered in order of receipt."""
        relapse = -1
        wounds: list[tuple[int, bool]] = []
        for i, (uid, lv, st) in enumerate(self.wounds):
            if uid == self.relapse:
                relapse = i
            wounds.append((lv, bool(st)))
        return State(
            tuple(wounds),
            relapse,
            self.pain,
            self.recv5,
            self.missed,
            self.uncon,
            self.anchor,
            self.inj,
            self.act,
            self.fa_due,
            self.fa_n,
            self.rest,
            self.wp,
            self.wk,
            self.pend,
            tuple(self.sess),
            self.surv,
            self.free,
            self.stab,
            self.rested,
            self.stretch,
            self.kept,
            Cause.NONE if self.stable() else self.cause,  # Q3: only a spell's cause matters
        )

    # --- the patient, as rules/patient.py derives it -------------------------------------
    def stable(self) -> bool:
        """H4."""
        return all(st for _, lv, st in self.wounds if lv < 3)

    def worst(self, mental: bool = False) -> list[int] | None:
        """H5: the wound of highest level of a track; the first received among equals."""
        best = None
        for w in self.wounds:
            if (w[1] >= 3) == mental and (best is None or w[1] > best[1]):
                best = w
        return best

    def least(self, mental: bool = False) -> int | None:
        """The least grave level present in a track."""
        levels = [lv for _, lv, _ in self.wounds if (lv >= 3) == mental]
        return min(levels) if levels else None

    def wound(self, uid: int) -> list[int]:
        """The wound with this uid, which the caller knows is there."""
        for w in self.wounds:
            if w[0] == uid:
                return w
        raise KeyError(uid)

    def worst_wound(self, mental: bool = False) -> list[int]:
        """H5's worst wound of a track, which the caller knows has one."""
        worst = self.worst(mental)
        if worst is None:
            raise KeyError("no wound on that track")
        return worst

    def find(self, uid: int) -> list[int] | None:
        """The wound with this uid."""
        for w in self.wounds:
            if w[0] == uid:
                return w
        return None

    def physical(self) -> bool:
        """Whether any physical wound is held."""
        return any(lv < 3 for _, lv, _ in self.wounds)

    def mental_levels(self) -> tuple[int, ...]:
        """The levels of the mental wounds, sorted (their penalties' order does not matter)."""
        return tuple(sorted(lv for _, lv, _ in self.wounds if lv >= 3))


def level_of(value: int) -> Level:
    """The :class:`Level` of a stored level number."""
    return Level(value)
