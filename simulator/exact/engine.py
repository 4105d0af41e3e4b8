"""The exact engine: the distribution of trial states carried forward in campaign time.

States wait in buckets keyed by the instant and O1's priority of their next event; the
engine always takes the earliest bucket, applies that event to every state in it (branching
on each test's outcomes with their exact chances), and files each resulting state under its
own next event, merging identical states. An event that an earlier one makes due at the same
instant lands in a bucket of that instant and is taken in O1's order (it may come back to a
lower priority, as in the event-by-event engine). The horizon is an event of the lowest
priority at the horizon itself, so everything due then happens first (O2). A bucket holds
states as numbers, each state relative to the bucket's instant, and what an event does to a
state is computed once and replayed at later instants (:mod:`simulator.exact.timeline`).

States whose probability falls below ``eps`` are dropped and their mass reported; so is the
mass the open roll's truncation leaves out. The states carried (each state taken through
one event, plus those waiting) are counted; past ``max_states`` the computation stops with a
:class:`~simulator.errors.UserError`, which bounds its time as well as its memory; past
``max_seconds`` of CPU (when given) it stops the same way. Either refusal says how far it got.
"""

from __future__ import annotations

import contextlib
import heapq
import math
import sys
import threading
import time as _time
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from simulator.errors import N_, ExactLimitError, Phrase, UserError, phrase
from simulator.exact.answer import ExactAnswer
from simulator.exact.handlers import Handlers
from simulator.exact.odds import Odds
from simulator.exact.state import US, State, micro
from simulator.exact.timeline import OFFSET, SLOTS, Effect, Timeline
from simulator.exact.wounds import NEVER, WoundRules
from simulator.rules import scalar
from simulator.rules.levels import Track
from simulator.rules.order import Priority
from simulator.rules.outcome import Outcome
from simulator.scenario.model import Scenario
from simulator.scenario.prepared import prepare
from simulator.spelling import PythonSpelling, spelling

HOUR = 3600 * US

PRIORITIES = {int(p): p for p in Priority}

DEFAULT_EPS = 1e-12
DEFAULT_MAX_STATES = 3_000_000


class Engine(Handlers, Timeline):
    """One exact computation of one scenario.

    Args:
        scenario: What to compute (validated).
        eps: States below this probability are dropped (their mass reported).
        max_states: The most states carried (taken through an event, or waiting) before
            giving up.
        max_seconds: The most seconds of computation before giving up (None: no limit).
        replay: Keep each event's effect on a state for its next instants (False: compute
            it at every instant, for the tests).
    """

    def __init__(
        self,
        scenario: Scenario,
        eps: float = DEFAULT_EPS,
        max_states: int = 0,
        max_seconds: float | None = None,
        replay: bool = True,
    ):
        self.sc = scenario
        self.eps = float(eps)
        self.max_states = int(max_states or DEFAULT_MAX_STATES)
        self.max_seconds = max_seconds
        self.replay = replay
        # the scenario's numbers, times in microseconds, settings that may have a fraction
        # as exact fractions: what every handler reads
        self.p = p = prepare(scenario, micro, _number)
        self.rows = scenario.table.rows
        self.rules = WoundRules(scenario.table, p.basic, p.stable_tests, p.floor_craziness)
        self.odds = Odds(p.open_roll, p.tie_succeeds, self.eps, p.trigger)
        injuries = p.injuries
        self.mental_later = [
            any(i.level.track is Track.MENTAL for i in injuries[k:])
            for k in range(len(injuries) + 1)
        ]
        # R4 and G3 read the time rested only when a healer comes; they leave it unread when
        # both give the next rest nothing of it (restart, fresh)
        reads = scalar.rested_after_break(p.resume, 1, False) or (
            scalar.rested_after_session(p.cumulative, 1)
        )
        self.track_rested = bool(reads) and p.healing is not None
        self.ans = ExactAnswer(horizon_s=scenario.horizon, eps=self.eps)
        self.acc = self.ans.expected
        self._buckets: dict[int, dict[int, float]] = {}
        self._ids: dict[State, int] = {}
        self._states: list[State] = []
        self._effects: list[Effect] = []
        self._heap: list[int] = []
        self.held = 0

    # --- the loop -----------------------------------------------------------------------
    def run(self) -> ExactAnswer:
        """Carry the distribution to the horizon and return the answer."""
        started = _time.perf_counter()
        ans = self.ans
        if not self.p.injuries:
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
            anchor=OFFSET if self.p.per_hour else NEVER,
            inj=0,
            act=0,
            fa_due=-1,
            fa_n=0,
            rest=-1,
            wp=0,
            wk=0,
            pend=tuple(t + OFFSET for t in self.p.neglect_at),
            sess=(),
            surv=-1,
            free=-1,
            stab=False,
        )
        delay, prio, placed, _ = self._place(first, 0)
        self._put(delay * SLOTS + prio, self._intern(placed), 1.0)
        try:
            self._loop(_time.thread_time())
        finally:
            self._tally()
        ans.seconds = _time.perf_counter() - started
        return ans

    def _loop(self, started: float) -> None:
        """Take the buckets in order (the hot loop: what it files is inlined).

        ``max_seconds`` counts this thread's CPU seconds from ``started``
        (:func:`time.thread_time`): a busy machine does not refuse a scenario an idle one
        answers, nor does another thread's work (another request of the workbench's server
        while a Solve runs here) count against this computation.
        """
        ans, eps, buckets, heap = self.ans, self.eps, self._buckets, self._heap
        pop, push, clock = heapq.heappop, heapq.heappush, _time.thread_time
        effects: dict[Priority, dict[int, Effect]] = {p: {} for p in Priority}
        deadline = math.inf if self.max_seconds is None else started + self.max_seconds
        record, late, kept, known = self._record, self._replay_late, self._effects, self._states
        replay = self.replay
        states, held, peak, dropped = ans.states, self.held, ans.peak, 0.0
        reach = states  # the most carried (taken through an event, plus waiting) at a check
        try:
            while heap:
                key = pop(heap)
                when, prio = key // SLOTS, PRIORITIES[key % SLOTS]
                bucket = buckets.pop(key)
                base = key - prio
                memo = effects[prio]
                if held > peak:  # held only falls here: its peak is just before a bucket
                    peak = held
                held -= len(bucket)
                for sid, mass in bucket.items():
                    if mass < eps:
                        dropped += mass
                        continue
                    states += 1
                    effect = memo.get(sid)
                    if effect is None or when >= effect.until:
                        effect = record(known[sid], when, prio)
                        kept.append(effect)
                        if replay and when < effect.until:
                            memo[sid] = effect
                    effect.tally[0] += mass
                    for code, placed, share in effect.filed:
                        key = base + code
                        target = buckets.get(key)
                        if target is None:
                            target = buckets[key] = {}
                            push(heap, key)
                        old = target.get(placed)
                        if old is None:
                            target[placed] = mass * share
                            held += 1
                        else:
                            target[placed] = old + mass * share
                    if effect.rare:
                        self.held = held
                        late(effect, mass, when)
                        held = self.held
                if states + held > reach:
                    reach = states + held
                if reach > self.max_states:
                    self.held, ans.states = held, states
                    self._refuse(when, "states", total=states + held, max_states=self.max_states)
                if clock() > deadline:
                    self.held, ans.states = held, states
                    self._refuse(when, "time", seconds=round(self.max_seconds or 0.0, 3))
        finally:
            self.held, ans.states = held, states
            ans.carried = max(ans.carried, reach)
            ans.peak = max(peak, held)
            ans.dropped += dropped

    def _tally(self) -> None:
        """Q1's counts and the open roll's loss: each effect's, times the mass it carried."""
        acc, ans = self.acc, self.ans
        for effect in self._effects:
            mass = effect.tally[0]
            for name, share in effect.counts:
                acc[name] += mass * share
            if effect.dropped:
                ans.dropped += mass * effect.dropped

    def _refuse(self, when: int, limit: str, **over: int | float) -> None:
        """Give up at campaign time ``when``, saying how far the computation got and why.

        ``over``: the limit's own numbers (``total`` and ``max_states``, or ``seconds``).
        """
        facts: dict[str, str | int | float] = {
            "source": self.sc.source or self.sc.name,
            "states": self.ans.states,
            "held": self.held,
            "got": _hours(when),
            "hours": _hours(self.p.horizon),
            **over,
        }
        raise ExactLimitError(
            over_limit(limit, facts),
            limit,
            self.ans.states,
            when / HOUR,
            self.p.horizon / HOUR,
            facts=facts,
        )

    def _put(self, key: int, sid: int, mass: float) -> None:
        """Put a state (its number: canonical, relative to its instant) in its bucket, merging."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = {}
            heapq.heappush(self._heap, key)
        old = bucket.get(sid)
        if old is None:
            bucket[sid] = mass
            self.held += 1
        else:
            bucket[sid] = old + mass

    def _replay_late(self, effect: Effect, mass: float, when: int) -> None:
        """What an event did besides filing states of its own clocks (see Timeline)."""
        for raw, share in effect.late:
            delay, prio, state, _ = self._place(raw, when)
            self._put((when + delay) * SLOTS + prio, self._intern(state), mass * share)
        ans = self.ans
        for outcome, delay, share in effect.ends:
            m = mass * share
            ans.outcomes[outcome] += m
            times = ans.times[outcome]
            times[when + delay] = times.get(when + delay, 0.0) + m
        for cause, delay, share in effect.causes:
            times = ans.causes[cause]
            times[when + delay] = times.get(when + delay, 0.0) + mass * share
        stab = ans.stabilised
        for delay, share in effect.stabilised:
            stab[when + delay] = stab.get(when + delay, 0.0) + mass * share


def _number(value: object) -> int | Fraction:
    """A setting as an exact number: an int when whole, else an exact fraction."""
    if isinstance(value, int):
        return value
    f = Fraction(str(value))
    return int(f) if f.denominator == 1 else f


def _hours(when: float) -> float | int:
    """A campaign time in hours to four significant digits, whole when it is (``1440``)."""
    hours = float(f"{when / HOUR:.4g}")
    return int(hours) if hours.is_integer() else hours


def over_limit(limit: str, facts: Mapping[str, Any]) -> Phrase:
    """The exact engine's refusal, in the words of the caller in force (:func:`spelling`).

    Built from its numbers alone, so that a refusal kept by a study
    (:class:`~simulator.studies.kept.Refused`) is told again in the words of the command
    that reads it back, not of the one that met it (a notebook's ``Exact(max_states=...)``
    is the command line's ``--max-states``).

    Args:
        limit: ``"states"`` or ``"time"``.
        facts: ``source`` (the scenario's file or name), ``states`` and ``held`` (the states
            carried, and still to follow), ``got`` and ``hours`` (the campaign time reached,
            and the horizon, in hours); for ``"states"``: ``total`` and ``max_states``; for
            ``"time"``: ``seconds``, the time budget.
    """
    if limit == "time":
        over = phrase(
            N_("over its time budget ({seconds} s of CPU); raise {flag}"),
            flag=spelling().option("time_budget"),
            seconds=facts["seconds"],
        )
    else:
        over = phrase(
            N_("{total} states in all, over {flag} ({max_states}); raise {flag}"),
            flag=spelling().option("max_states"),
            total=facts["total"],
            max_states=facts["max_states"],
        )
    return phrase(
        N_(
            "{source}: the exact computation carried {states} states ({held} of them "
            "still to follow when it stopped) up to campaign time {got} h of {hours} h, "
            "{over} or {eps}, shorten the horizon ({horizon}), or use Monte Carlo "
            "({sampled})"
        ),
        eps=spelling().option("eps"),
        horizon=spelling().item("overrides", "horizon=..."),
        sampled=_sampled(),
        source=facts["source"],
        states=facts["states"],
        held=facts["held"],
        got=facts["got"],
        hours=facts["hours"],
        over=over,
    )


def _sampled() -> Phrase:
    """How the caller asks for Monte Carlo instead of an exact answer, in its words.

    ``drop --exact`` on the command line; ``MonteCarlo(...) instead of Exact(...)`` in
    Python (:mod:`simulator.spelling`), where the method is an object, not a flag.
    """
    if isinstance(spelling(), PythonSpelling):
        return phrase(
            N_("{sampled} instead of {exact}"), sampled="MonteCarlo(...)", exact="Exact(...)"
        )
    return phrase(N_("drop {flag}"), flag="--exact")


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
        raise UserError(
            phrase(N_("--eps: got {value}; expected a probability between 0 and 1"), value=eps)
        )
    if max_states < 1:
        raise UserError(
            phrase(N_("--max-states: got {value}; expected a positive count"), value=max_states)
        )
    if max_seconds is not None and not max_seconds > 0:
        raise UserError(
            phrase(N_("max_seconds: got {value}; expected a positive number"), value=max_seconds)
        )
    # Each wound of an injury is received in a call of its own, its faint tests between
    # (a count of 1000 goes some 3,000 calls deep): room for them while a computation runs
    # (the limit is the process's: raised by the first, restored by the last of those
    # running in its threads); deeper still is told, never a traceback.
    try:
        with _deep_calls():
            return Engine(scenario, eps, max_states, max_seconds).run()
    except RecursionError:
        raise UserError(
            phrase(
                N_(
                    "{source}: too many wounds received at one instant for the exact engine "
                    "(it follows each one in turn); expected fewer, or Monte Carlo ({sampled})"
                ),
                sampled=_sampled(),
                source=scenario.source or scenario.name,
            )
        ) from None


RECURSION_ROOM = 20_000
"""The recursion limit while the exact engine runs (Python's default is 1,000)."""

_DEEP = {"running": 0, "before": 0}

_DEEP_LOCK = threading.Lock()


@contextlib.contextmanager
def _deep_calls() -> Iterator[None]:
    """:data:`RECURSION_ROOM` while the block runs, as long as any thread runs one."""
    with _DEEP_LOCK:
        if _DEEP["running"] == 0:
            _DEEP["before"] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_DEEP["before"], RECURSION_ROOM))
        _DEEP["running"] += 1
    try:
        yield
    finally:
        with _DEEP_LOCK:
            _DEEP["running"] -= 1
            if _DEEP["running"] == 0:
                sys.setrecursionlimit(_DEEP["before"])
