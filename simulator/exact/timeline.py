"""States in time relative to their instant, and each event's effect computed once per state.

The rules look at differences of times only (a clock's due time against now, a rest's start
against a watch): what an event does to a state is the same at any instant, shifted. So the
engine keeps each waiting state relative to the instant of its bucket (every time ``t``
stored as ``t - instant + OFFSET``, :data:`OFFSET` keeping every time positive and apart from
:data:`~simulator.exact.wounds.NEVER`), runs a handler once per state and event at
``now = OFFSET`` with a mass of 1, and keeps what it did as an :class:`Effect`: the states it
filed (canonical, relative to their own next instant), the ends, the counts and the mass
dropped, each per unit of mass. The same state due for the same event at another instant
replays the effect, scaled by its mass.

What depends on the instant itself, the horizon and the times of the scenario's injuries and
activities, enters only where a state is filed (its next event, the clocks past the horizon
it forgets). An effect is kept with the instant before which none of those comparisons can
turn out otherwise (:attr:`Effect.until`; instants only ever grow, and a clock past the
horizon stays past it); a state whose next event is the horizon or the timetable's is filed
anew at each instant (:attr:`Effect.late`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from simulator.exact.answer import ExactAnswer
from simulator.exact.base import Base
from simulator.exact.state import State
from simulator.exact.wounds import NEVER, US
from simulator.rules import scalar
from simulator.rules.cause import Cause
from simulator.rules.order import Priority
from simulator.rules.outcome import Count

if TYPE_CHECKING:
    from simulator.scenario.prepared import Prepared

OFFSET = 10**15
"""Where a bucket's instant lies in its states' times (about 32 years of microseconds)."""

HOUR = 3600 * US

SLOTS = 16
"""A bucket's key is ``instant * SLOTS + priority`` (O1's priorities are below it)."""

Filed = tuple[int, int, float]
"""A state an event filed: its bucket's key less the instant's, its number, its share."""


class Effect(NamedTuple):
    """What one event did to one state, per unit of mass (times relative to its instant).

    Attributes:
        until: The effect holds for this state and event at any instant before this one.
        filed: The states that go on: their bucket's key relative to the instant's
            (``delay * SLOTS + priority``), number and share.
        late: The states that go on to the horizon or to the timetable's next event, as the
            handler left them: filed at each instant anew.
        ends: ``(outcome, delay, share)`` of the trials that ended.
        causes: ``(cause, delay, share)`` of the ends with a cause (Q3).
        stabilised: ``(delay, share)`` of the first stabilisations.
        counts: ``(count, expectation)`` of Q1's counts.
        dropped: The share of mass the open roll's truncation left out.
        rare: Whether anything but :attr:`filed` is there (late states, ends, stabilisations).
        tally: ``[mass]``: the mass it carried so far (its counts and loss are summed once,
            at the end).
    """

    until: float
    filed: tuple[Filed, ...]
    late: tuple[tuple[State, float], ...]
    ends: tuple[tuple[str, int, float], ...]
    causes: tuple[tuple[str, int, float], ...]
    stabilised: tuple[tuple[int, float], ...]
    counts: tuple[tuple[Count, float], ...]
    dropped: float
    rare: bool
    tally: list[float]


def shift(s: State, d: int) -> State:
    """The same state with every time ``d`` earlier (clocks not armed stay so)."""
    if d == 0:
        return s
    (wounds, relapse, pain, recv5, missed, uncon, anchor, inj, act, fa_due, fa_n, rest, wp, wk,
     pend, sess, surv, free, stab, rested, stretch, kept, cause) = s  # fmt: skip
    return State(
        wounds,
        relapse,
        pain,
        recv5,
        missed,
        NEVER if uncon == NEVER else uncon - d,
        NEVER if anchor == NEVER else anchor - d,
        inj,
        act,
        NEVER if fa_due == NEVER else fa_due - d,
        fa_n,
        NEVER if rest == NEVER else rest - d,
        wp,
        wk,
        tuple(t - d for t in pend),
        tuple((t - d, k) for t, k in sess),
        NEVER if surv == NEVER else surv - d,
        NEVER if free == NEVER else free - d,
        stab,
        rested,
        NEVER if stretch == NEVER else stretch - d,
        kept,
        cause,
    )


class Timeline(Base):
    """Filing states relative to their instant, and recording each event's effect."""

    if TYPE_CHECKING:  # set by Engine, whose mixin this is
        p: Prepared[int]
        mental_later: list[bool]
        _filed: list[tuple[State, float]]
        _ids: dict[State, int]
        _states: list[State]

        def _handle(self, state: State, mass: float, now: int, prio: Priority) -> None: ...

    def _intern(self, state: State) -> int:
        """The number of a state (canonical, relative to its instant).

        Buckets and effects hold numbers, so that a state's tuple is hashed once, not at
        every event.
        """
        sid = self._ids.get(state)
        if sid is None:
            sid = self._ids[state] = len(self._states)
            self._states.append(state)
        return sid

    def _file(self, state: State, mass: float) -> None:
        """A handler's state goes on: kept, to be filed when the effect is complete."""
        self._filed.append((state, mass))

    def _record(self, state: State, when: int, prio: Priority) -> Effect:
        """Run the handler of ``prio`` on ``state`` (relative to ``when``) with a mass of 1."""
        sink = ExactAnswer(horizon_s=0.0, eps=self.eps)
        ans, acc = self.ans, self.acc
        self.ans, self.acc, self._filed = sink, sink.expected, []
        try:
            self._handle(state, 1.0, OFFSET, prio)
        finally:
            self.ans, self.acc = ans, acc
        until = math.inf
        filed: dict[tuple[int, Priority, int], float] = {}
        late = []
        for s, share in self._filed:
            delay, nxt, placed, holds = self._place(s, when)
            if holds == -math.inf:
                late.append((s, share))
            else:
                until = min(until, holds)
                key = (delay, nxt, self._intern(placed))
                filed[key] = filed.get(key, 0.0) + share
        return Effect(
            until,
            tuple((d * SLOTS + p, s, share) for (d, p, s), share in filed.items()),
            tuple(late),
            tuple((o, t - OFFSET, m) for o, ts in sink.times.items() for t, m in ts.items()),
            tuple((c, t - OFFSET, m) for c, ts in sink.causes.items() for t, m in ts.items()),
            tuple((t - OFFSET, m) for t, m in sink.stabilised.items()),
            tuple((name, v) for name, v in sink.expected.items() if v),
            sink.dropped,
            bool(late or sink.stabilised or any(sink.times.values())),
            [0.0],
        )

    def _place(self, s: State, when: int) -> tuple[int, Priority, State, float]:
        """File ``s`` (relative to ``when``): its delay, next event, canonical form, validity.

        The validity is the instant before which the same state at a later instant files
        the same way (see the module's docstring): its next event a clock of its own, before
        the horizon and before the scenario's next injury or activity, every clock it keeps
        before the horizon (a clock past the horizon is forgotten, and stays past it later).
        It is ``-inf`` when the next event is the horizon or the timetable's.
        """
        to_rel = OFFSET - when
        horizon = self.p.horizon + to_rel
        clock: tuple[int, Priority] | None = None
        reach = 0
        for due, prio in self._clocks(s):
            if due <= horizon:
                reach = max(reach, due)
                if clock is None or (due, prio) < clock:
                    clock = (due, prio)
        fixed = [(self.p.horizon, Priority.HORIZON)]
        if s.inj < len(self.p.inj_at):
            fixed.append((self.p.inj_at[s.inj], Priority.INJURY))
        if s.act < len(self.p.act_at):
            fixed.append((self.p.act_at[s.act], Priority.ACTIVITY))
        best = min((t + to_rel, p) for t, p in fixed)
        holds = -math.inf
        if clock is not None and clock < best:
            best = clock
            # the same filing while the clocks kept stay before the horizon and the next
            # injury or activity comes after the next clock
            holds = min(
                [self.p.horizon - (reach - OFFSET)]
                + [t - (clock[0] - OFFSET) for t, _ in fixed[1:]]
            )
        now, prio = best
        return now - OFFSET, prio, shift(self._canonical(s, now, horizon), now - OFFSET), holds

    @staticmethod
    def _clocks(s: State) -> list[tuple[int, Priority]]:
        """The state's own clocks (O1), every one the canonical form compares with the horizon."""
        found = []
        if s.fa_due >= 0:
            found.append((s.fa_due, Priority.FIRST_AID))
        if s.wk:
            found.append((s.rest + s.wk * s.wp, Priority.WATCH))
        if s.sess:
            found.append((min(d for d, _ in s.sess), Priority.HEALING))
            found.append((s.sess[-1][0], Priority.HEALING))  # the last, which it may forget
        if s.surv >= 0:
            found.append((s.surv, Priority.SURVIVAL))
        return found

    def _canonical(self, s: State, now: int, horizon: int) -> State:
        """Forget what cannot matter from ``now`` on, and bring pain recovery (P1) to ``now``."""
        changes: dict[str, Any] = {}  # State's fields, each of its own type
        if s.surv > horizon:
            changes["surv"] = NEVER  # never due: forgotten, so that more states merge
        if s.fa_due > horizon:
            changes["fa_due"] = NEVER
        if s.sess and s.sess[-1][0] > horizon:
            changes["sess"] = tuple(e for e in s.sess if e[0] <= horizon)
        if s.wk and s.rest + s.wk * s.wp > horizon:
            changes["rest"], changes["wp"], changes["wk"] = NEVER, 0, 0
        pend = s.pend
        if pend and pend[0] < now:
            pend = tuple(t for t in pend if t >= now or self._armed_for(s, t))
        if pend and max(pend) > horizon:  # its watch comes after the horizon, if ever (R2):
            pend = tuple(t for t in pend if t <= horizon)  # forgotten, so that watches merge
        if pend != s.pend:
            changes["pend"] = pend
        if s.wk > 1 and not pend and "wk" not in changes:
            # without neglect_at, only when the next watch falls matters (R2)
            changes["rest"], changes["wk"] = s.rest + (s.wk - 1) * s.wp, 1
        if s.fa_n and s.fa_due < 0:
            changes["fa_n"] = 0  # A3: counted afresh at the next spell
        if s.uncon >= 0 and (s.uncon <= now or not self.p.self_treat):
            changes["uncon"] = NEVER
        if s.cause is not Cause.NONE and self.rules.view(s.wounds).stable:
            changes["cause"] = Cause.NONE  # Q3: only a spell's cause matters
        if s.anchor >= 0:
            pain, anchor = self._recover(s, now)
            if pain != s.pain:
                changes["pain"] = pain
            if anchor != s.anchor:
                changes["anchor"] = anchor
        return s._replace(**changes) if changes else s

    def _armed_for(self, s: State, t: int) -> bool:
        """Whether the watch now armed is the one a past ``neglect_at`` time falls on (R2)."""
        if not s.wk:
            return False
        return scalar.watch_index(s.rest, s.wp, t) == s.wk

    def _recover(self, s: State, now: int) -> tuple[int | Fraction, int]:
        """P1: the pain of every full stable hour up to ``now``, never below the floor."""
        steps = (now - s.anchor) // HOUR
        if steps <= 0:
            return s.pain, s.anchor
        anchor = s.anchor + steps * HOUR
        floor = self.rules.view(s.wounds).floor
        pain = s.pain
        if pain <= floor and not self._floor_may_drop(s):
            return pain, NEVER
        return scalar.pain_after(pain, floor, steps, self.p.per_hour), anchor

    def _floor_may_drop(self, s: State) -> bool:
        """Whether a healing session could lower P1's floor before the horizon."""
        if self.mental_later[s.inj]:
            return True
        if self.p.healing is None:
            return False
        return s.act < len(self.p.act_at) or bool(s.sess)
