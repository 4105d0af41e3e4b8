"""The exact engine's trial state: what a trial's future depends on, and nothing else.

A :class:`State` is hashable and canonical, so that two trials whose futures are alike merge
into one entry of the distribution. Times are absolute campaign times in integer
microseconds (so sums of durations are exact, and two events of one instant stay one instant);
states are only ever merged with states due at the same instant, so absolute times lose
nothing. Wounds are ``(level, stable)`` pairs in order of receipt (Q2); the treated wound of a
relapse (G4) is an index into them. A :class:`Work` is the mutable copy a handler changes.
What the rules make of the wounds is :mod:`simulator.exact.wounds`' to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from fractions import Fraction
from typing import NamedTuple

from simulator.exact.wounds import US, Change, Wounds, micro
from simulator.rules.cause import Cause

__all__ = ["US", "Session", "State", "Work", "micro"]


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
        sess: Pending healing sessions ``(due, kind)`` in queue order (kind: a
            :class:`Session`).
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

    wounds: Wounds
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


class Session(IntEnum):
    """The kinds of pending healing sessions, in :attr:`State.sess`."""

    REST = 0
    """A session of G1, at the end of a rest."""
    PHYSICAL = 1
    """The basic ruleset's session of the physical track (B4-B5)."""
    MENTAL = 2
    """A session of the mental track (M3, B6)."""


class Work:
    """A mutable copy of a :class:`State` for one handler (its wounds a tuple, replaced whole)."""

    __slots__ = State._fields

    wounds: Wounds
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

    def __init__(self, s: State):
        (
            self.wounds,
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

    def copy(self) -> Work:
        """An independent copy (for a branch)."""
        new = Work.__new__(Work)
        new.wounds = self.wounds
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
        return new

    def apply(self, change: Change) -> None:
        """Take the wounds (and the relapse's target) a transition left."""
        self.wounds = change.wounds
        self.relapse = change.relapse

    def freeze(self) -> State:
        """The state (the engine makes it canonical where it files it)."""
        return State(
            self.wounds,
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
            tuple(self.sess),
            self.surv,
            self.free,
            self.stab,
            self.rested,
            self.stretch,
            self.kept,
            self.cause,
        )
