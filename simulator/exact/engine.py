"""The exact engine: the distribution of trial states carried forward in campaign time.

States wait in buckets keyed by the instant and O1's priority of their next event; the
engine always takes the earliest bucket, applies that event to every state in it (branching
on each test's outcomes with their exact chances), and files each resulting state under its
own next event, merging identical states. An event that an earlier one makes due at the same
instant lands in a bucket of that instant and is taken in O1's order (it may come back to a
lower priority, as in the event-by-event engine). The horizon is an event of the lowest
priority at the horizon itself, so everything due then happens first (O2).

States whose probability falls below ``eps`` are dropped and their mass reported; so is the
mass the open roll's truncation leaves out. The states carried (each state taken through
one event, plus those waiting) are counted; past ``max_states`` the computation stops with a
:class:`~simulator.errors.UserError`, which bounds its time as well as its memory; past
``max_seconds`` (when given) it stops the same way. Either refusal says how far it got.
"""

from __future__ import annotations

import heapq
import math
import time as _time
from fractions import Fraction
from typing import Any

from simulator.errors import UserError
from simulator.exact.answer import ExactAnswer
from simulator.exact.handlers import Handlers
from simulator.exact.odds import Odds
from simulator.exact.state import US, State, micro
from simulator.exact.wounds import NEVER, WoundRules
from simulator.rules import rest
from simulator.rules.cause import Cause
from simulator.rules.levels import Track
from simulator.rules.order import Priority
from simulator.rules.outcome import Outcome
from simulator.scenario.model import Ruleset, Scenario

HOUR = 3600 * US

DEFAULT_EPS = 1e-12
DEFAULT_MAX_STATES = 3_000_000


class Engine(Handlers):
    """One exact computation of one scenario.

    Args:
        scenario: What to compute (validated).
        eps: States below this probability are dropped (their mass reported).
        max_states: The most states carried (taken through an event, or waiting) before
            giving up.
        max_seconds: The most seconds of computation before giving up (None: no limit).
    """

    def __init__(
        self,
        scenario: Scenario,
        eps: float = DEFAULT_EPS,
        max_states: int = 0,
        max_seconds: float | None = None,
    ):
        self.sc = scenario
        self.eps = float(eps)
        self.max_states = int(max_states or DEFAULT_MAX_STATES)
        self.max_seconds = max_seconds
        s = scenario.settings
        self.basic = scenario.ruleset is Ruleset.BASIC
        self.rows = scenario.table.rows
        self.rules = WoundRules(
            scenario.table, self.basic, s.stable_survival_tests, s.pain_floor_craziness
        )
        self.horizon = micro(scenario.horizon)
        self.odds = Odds(s.open_roll, s.tie_succeeds, self.eps, s.trigger_probability)
        self.lossy = s.open_roll
        per_hour = 0 if self.basic else s.pain_recovery_per_hour
        self.per_hour = _number(per_hour)
        self.faint_us = micro(s.faint_duration)
        self.injuries = [i for i in scenario.injuries if micro(i.at) <= self.horizon]
        self.inj_at = [micro(i.at) for i in self.injuries]
        self.activities = (
            [] if self.basic else [a for a in scenario.activities if micro(a.at) <= self.horizon]
        )
        self.act_at = [micro(a.at) for a in self.activities]
        self.mental_later = [
            any(i.level.track is Track.MENTAL for i in self.injuries[k:])
            for k in range(len(self.injuries) + 1)
        ]
        fa = scenario.first_aid
        self.fa = fa
        self.fa_start = micro(fa.start) if fa else 0
        self.fa_interval = micro(fa.interval) if fa else 0
        self.track_uncon = bool(fa and fa.self_treat)
        self.neglect_p = float(scenario.watch.neglect_probability)
        self.neglect_at = tuple(sorted(micro(t) for t in scenario.watch.neglect_at))
        self.healer = scenario.healing
        self.breaks_rest = bool(s.activity_breaks_rest)
        self.self_aid_factor = _number(s.self_aid_pain_factor)
        self.after_break = s.rest_after_unstable
        self.per_level = s.rest_per_level
        # R4 and G3 read the time rested only when a healer comes; they leave it unread when
        # both give the next rest nothing of it (restart, fresh)
        reads = rest.rested_after_break(s.rest_after_unstable, 1, False) or (
            rest.rested_after_session(s.rest_per_level, 1)
        )
        self.track_rested = bool(reads) and scenario.healing is not None
        self.ans = ExactAnswer(horizon_s=scenario.horizon, eps=self.eps)
        self.acc = self.ans.expected
        self._buckets: dict[tuple[int, Priority], dict[State, float]] = {}
        self._heap: list[tuple[int, Priority]] = []
        self.held = 0

    # --- the loop -----------------------------------------------------------------------
    def run(self) -> ExactAnswer:
        """Carry the distribution to the horizon and return the answer."""
        started = _time.perf_counter()
        ans = self.ans
        if not self.injuries:
            self._end(Outcome.HEALED.value, 0, 1.0)
            ans.seconds = _time.perf_counter() - started
            return ans
        first = State(
            wounds=(),
            relapse=-1,
            pain=0,
            recv5=0,
            missed=0,
            uncon=-1,
            anchor=0 if self.per_hour else NEVER,
            inj=0,
            act=0,
            fa_due=-1,
            fa_n=0,
            rest=-1,
            wp=0,
            wk=0,
            pend=self.neglect_at,
            sess=(),
            surv=-1,
            free=-1,
            stab=False,
        )
        self._file(first, 1.0)
        buckets, heap = self._buckets, self._heap
        clock = _time.perf_counter
        deadline = math.inf if self.max_seconds is None else started + self.max_seconds
        while heap:
            when, prio = heapq.heappop(heap)
            bucket = buckets.pop((when, prio))
            run = prio is Priority.SURVIVAL
            self.held -= len(bucket)
            for state, mass in bucket.items():
                if mass < self.eps:
                    ans.dropped += mass
                    continue
                ans.states += 1
                if run and self._in_run(state):
                    self._run(state, mass)
                else:
                    self._handle(state, mass, when, prio)
            if ans.states + self.held > self.max_states:
                self._refuse(when, f"over --max-states ({self.max_states:,}); raise --max-states")
            if clock() > deadline:
                self._refuse(when, f"over its time budget ({self.max_seconds:g} s); raise it")
        ans.seconds = _time.perf_counter() - started
        return ans

    def _refuse(self, when: int, over: str) -> None:
        got = when / HOUR
        hours = self.horizon / HOUR
        raise UserError(
            f"{self.sc.source or self.sc.name}: the exact computation carried "
            f"{self.ans.states:,} states (holding {self.held:,}) up to campaign time "
            f"{got:.4g} h of {hours:.4g} h, {over} or --eps, shorten the horizon "
            f"(--set horizon=...), or use Monte Carlo (drop --exact)"
        )

    def _file(self, state: State, mass: float) -> None:
        """Put a state under its next event, canonical for that instant, merging."""
        when, prio = self._next(state)
        state = self._canonical(state, when)
        key = (when, prio)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = {}
            heapq.heappush(self._heap, key)
        if state in bucket:
            bucket[state] += mass
        else:
            bucket[state] = mass
            self.held += 1
            ans = self.ans
            if self.held > ans.peak:
                ans.peak = self.held

    def _next(self, s: State) -> tuple[int, Priority]:
        """O1: the state's next event, ``(time, priority)``; the horizon at the latest."""
        best = self._other(s)
        if s.fa_due >= 0:
            best = min(best, (s.fa_due, Priority.FIRST_AID))
        if s.surv >= 0:
            best = min(best, (s.surv, Priority.SURVIVAL))
        if best[0] > self.horizon:
            return (self.horizon, Priority.HORIZON)
        return best

    def _other(self, s: State) -> tuple[int, Priority]:
        """O1: the state's next event that is neither first aid nor a survival test."""
        best = (self.horizon, Priority.HORIZON)
        if s.inj < len(self.inj_at):
            best = min(best, (self.inj_at[s.inj], Priority.INJURY))
        if s.act < len(self.act_at):
            best = min(best, (self.act_at[s.act], Priority.ACTIVITY))
        if s.wk:
            best = min(best, (s.rest + s.wk * s.wp, Priority.WATCH))
        if s.sess:
            best = min(best, (min(d for d, _ in s.sess), Priority.HEALING))
        return best

    def _canonical(self, s: State, now: int) -> State:
        """Forget what cannot matter from ``now`` on, and bring pain recovery (P1) to ``now``."""
        changes: dict[str, Any] = {}  # State's fields, each of its own type
        horizon = self.horizon
        if s.surv > horizon:
            changes["surv"] = -1  # never due: forgotten, so that more states merge
        if s.fa_due > horizon:
            changes["fa_due"] = -1
        if s.sess and s.sess[-1][0] > horizon:
            changes["sess"] = tuple(e for e in s.sess if e[0] <= horizon)
        if s.wk and s.rest + s.wk * s.wp > horizon:
            changes["rest"], changes["wp"], changes["wk"] = -1, 0, 0
        if s.wk > 1 and not s.pend and "wk" not in changes:
            # without neglect_at, only when the next watch falls matters (R2)
            changes["rest"], changes["wk"] = s.rest + (s.wk - 1) * s.wp, 1
        if s.fa_n and s.fa_due < 0:
            changes["fa_n"] = 0  # A3: counted afresh at the next spell
        if s.uncon >= 0 and (s.uncon <= now or not self.track_uncon):
            changes["uncon"] = -1
        if s.pend and s.pend[0] < now:
            changes["pend"] = tuple(t for t in s.pend if t >= now or self._armed_for(s, t))
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
        k = max(1, -((s.rest - t) // s.wp))
        return k == s.wk and s.rest + k * s.wp - t <= s.wp

    def _recover(self, s: State, now: int) -> tuple[int | Fraction, int]:
        """P1: the pain of every full stable hour up to ``now``, never below the floor."""
        steps = (now - s.anchor) // HOUR
        if steps <= 0:
            return s.pain, s.anchor
        anchor = s.anchor + steps * HOUR
        floor = self.rules.view(s.wounds).floor
        pain = s.pain
        if pain > floor:
            pain = max(floor, pain - steps * self.per_hour)
        elif not self._floor_may_drop(s):
            return pain, NEVER
        return pain, anchor

    def _floor_may_drop(self, s: State) -> bool:
        """Whether a healing session could lower P1's floor before the horizon."""
        if self.mental_later[s.inj]:
            return True
        if self.healer is None:
            return False
        return s.act < len(self.act_at) or bool(s.sess)

    # --- what the handlers report --------------------------------------------------------
    def _end(
        self,
        outcome: str,
        when: int,
        mass: float,
        healed_at: int | None = None,
        cause: Cause = Cause.NONE,
    ) -> None:
        ans = self.ans
        ans.outcomes[outcome] += mass
        at = when if healed_at is None else healed_at
        times = ans.times[outcome]
        times[at] = times.get(at, 0.0) + mass
        if cause is not Cause.NONE:  # Q3
            times = ans.causes[cause.value]
            times[at] = times.get(at, 0.0) + mass

    def _drop(self, mass: float) -> None:
        self.ans.dropped += mass


def _number(value: object) -> int | Fraction:
    """A setting as an exact number: an int when whole, else an exact fraction."""
    if isinstance(value, int):
        return value
    f = Fraction(str(value))
    return int(f) if f.denominator == 1 else f


def solve(
    scenario: Scenario,
    *,
    eps: float = DEFAULT_EPS,
    max_states: int = DEFAULT_MAX_STATES,
    max_seconds: float | None = None,
) -> ExactAnswer:
    """The exact answer of a scenario (see :class:`Engine`).

    Raises:
        UserError: When the states exceed ``max_states``, the computation ``max_seconds``,
            or a setting cannot be computed exactly yet.
    """
    if not (0.0 < eps < 1.0) or math.isnan(eps):
        raise UserError(f"--eps: got {eps!r}; expected a probability between 0 and 1")
    if max_states < 1:
        raise UserError(f"--max-states: got {max_states!r}; expected a positive count")
    if max_seconds is not None and not max_seconds > 0:
        raise UserError(f"max_seconds: got {max_seconds!r}; expected a positive number")
    return Engine(scenario, eps, max_states, max_seconds).run()
