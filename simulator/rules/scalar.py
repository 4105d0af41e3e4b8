"""The rule decisions over plain numbers, written once, for every engine.

Each function decides one thing of RULES.md (a test's total modifier, what an outcome class
does, when a clock restarts or stops) over plain numbers. They are plain Python and import
neither numba nor numpy: the exact engine and the engine of Python objects call them as they
are (a call to a compiled function from Python costs microseconds), and
:mod:`simulator.kernel.decisions` compiles the very same functions into the kernel.
So that numba can compile them, each keeps to arithmetic, comparisons, tuples and ``math``,
and calls only functions of this module (the kernel compiles them together,
:func:`simulator.kernel.jit.compiled_module`, as :data:`COMPILED` says); so that every engine
gets the same numbers, each does its operations in one fixed order, for ints, floats and
fractions. A test's total modifier is the sum of its named terms (:func:`total`).
"""

from __future__ import annotations

import math
from typing import Any

from simulator.rules.codes import (
    CRITICAL,
    EV_B4,
    EV_G4,
    EV_R3,
    EV_S4,
    EV_W1,
    EV_W2,
    EV_X1,
    GRAVE,
    WHY_ACTIVITY,
    WHY_BASIC_HEALING,
    WHY_BLOW,
    WHY_HEALING_FAILURE,
    WHY_NEGLECTED_WATCH,
    WHY_STABLE_TEST,
    WHY_WOUND,
)

Real = Any
"""A number of any kind: an int, a float or (the exact engine's pain, P1) a ``Fraction``."""

FAINT_STEP = 5
"""F1: a faint test for every 5 points of pain ever received."""

FAINT_BLOW = 10
"""F1: a blow that brings this much pain or more calls for a single faint test."""

BASIC_WORSEN_MARGIN = -10
"""B4: a healing test failed by this margin or worse also worsens the wound."""

UNLIMITED = -1
"""A3: the ``limit`` of :func:`more_attempts` when the policy sets no ``max_attempts``."""

NO_WATCH = 0
"""R2: what :func:`watch_index` says of a ``neglect_at`` time no watch of the rest falls on."""

BECAME_STABLE = 1
"""A flag of :func:`state_change`: H4, the state turned stable (A3 stops, R1 starts)."""
BECAME_UNSTABLE = 2
"""The state turned unstable (Q3's spell opens, R4 ends the rest, A3's spell begins)."""
SURVIVAL_RESTARTS = 4
"""S2: the pair (worst level, state) changed: the survival clock restarts (or stops)."""
WOUND_FREE = 8
"""G5: the last wound has gone."""


def success_threshold(total: Real, tie_succeeds: bool) -> int:
    """D3: the lowest roll that succeeds with modifiers summing to ``total`` (rounded).

    The margin, roll + total, must be at least 0, or above 0 when ties fail (D3's setting);
    the roll is whole. A margin itself succeeds when this is at most 0 (roll 0, total the
    margin).
    """
    threshold: int = math.ceil(-total) if tie_succeeds else math.floor(-total) + 1
    return threshold


# --- each test as its named terms (D3: the total is their sum, for every engine) ---------
def total(terms: tuple[Real, ...]) -> Real:
    """D3: a test's total modifier: the sum of its terms, left to right.

    Every engine's total is this sum: the kernel compiles it, the exact engine branches on
    the chances of it, the engine of objects rolls against the named terms (the same values,
    summed in the same order by :func:`simulator.rules.dice.margin_of`).
    """
    result = terms[0]
    for i in range(1, len(terms)):
        result = result + terms[i]
    return result


SURVIVAL_TERMS = ("Cp+Rs", "pain", "missed watches")
"""The names of :func:`survival_terms`."""


def survival_terms(cp_rs: Real, pain: Real, missed: Real) -> tuple[Real, Real, Real]:
    """S1 (and R3's test): Cp+Rs, the pain penalty and the missed-watch penalty (D4)."""
    return (cp_rs, -pain, -missed)


def survival_total(cp_rs: Real, pain: Real, missed: Real) -> Real:
    """S1: the sum of :func:`survival_terms`."""
    return total(survival_terms(cp_rs, pain, missed))


ACTIVITY_TERMS = (*SURVIVAL_TERMS, "activity")
"""The names of :func:`activity_terms`."""


def activity_terms(
    cp_rs: Real, pain: Real, missed: Real, modifier: Real
) -> tuple[Real, Real, Real, Real]:
    """X1: the survival test's terms (S1), then the activity's modifier."""
    survival = survival_terms(cp_rs, pain, missed)
    return (survival[0], survival[1], survival[2], modifier)


def activity_total(cp_rs: Real, pain: Real, missed: Real, modifier: Real) -> Real:
    """X1: the sum of :func:`activity_terms`."""
    return total(activity_terms(cp_rs, pain, missed, modifier))


FAINT_TERMS = ("Rs+It", "pain")
"""The names of :func:`faint_terms`."""


def faint_terms(rs_it: Real, pain: Real) -> tuple[Real, Real]:
    """F1: Rs+It (its racial bonus excluded) and the pain penalty after the blow."""
    return (rs_it, -pain)


def faint_total(rs_it: Real, pain: Real) -> Real:
    """F1: the sum of :func:`faint_terms`."""
    return total(faint_terms(rs_it, pain))


FIRST_AID_TERMS = ("first-aid level", "wounds", "circumstances", "pain, task", "pain, person")
"""The names of :func:`first_aid_terms` (a trace names the wounds and the pain as it reads
them: :func:`simulator.rules.transitions.first_aid_modifiers`)."""


def first_aid_terms(
    level: Real, difficulty: Real, modifier: Real, self_treat: bool, factor: Real, pain: Real
) -> tuple[Real, Real, Real, Real, Real]:
    """A1: the level, the wounds' difficulties, the circumstances, and the patient's pain.

    The pain counts only when the patient treats itself, ``factor`` times (setting
    ``self_aid_pain_factor``): twice, as the English text says, once on the task and once on
    the person (the last two terms); any other factor in the first of them, the second 0.
    """
    none = 0 * pain
    if not self_treat:
        return (level, difficulty, modifier, none, none)
    if factor == 2:
        return (level, difficulty, modifier, -pain, -pain)
    return (level, difficulty, modifier, -(factor * pain), none)


def first_aid_total(
    level: Real, difficulty: Real, modifier: Real, self_treat: bool, factor: Real, pain: Real
) -> Real:
    """A1: the sum of :func:`first_aid_terms`."""
    return total(first_aid_terms(level, difficulty, modifier, self_treat, factor, pain))


HEALING_TERMS = ("healer level", "wound", "missed watches", "circumstances")
"""The names of :func:`healing_terms` (a trace names the wound by its level)."""


def healing_terms(
    healer: Real, difficulty: Real, missed: Real, modifier: Real
) -> tuple[Real, Real, Real, Real]:
    """G1: the healer's level, the wound's difficulty, the missed-watch penalty, circumstances.

    A mental wound's test (M3) has no missed-watch penalty: its caller passes 0.
    """
    return (healer, difficulty, -missed, modifier)


def healing_total(healer: Real, difficulty: Real, missed: Real, modifier: Real) -> Real:
    """G1 (M3): the sum of :func:`healing_terms`."""
    return total(healing_terms(healer, difficulty, missed, modifier))


BASIC_HEALING_TERMS = ("attribute", "wounds", "modifier")
"""The names of :func:`basic_healing_terms` (a trace names the attribute, Cp+Rs or Rs+It,
and the wounds)."""


def basic_healing_terms(
    attribute: Real, difficulty: Real, modifier: Real
) -> tuple[Real, Real, Real]:
    """B4 (B6 with Rs+It and no physical difficulty): the attribute, the wounds, the modifier."""
    return (attribute, difficulty, modifier)


def basic_healing_total(attribute: Real, difficulty: Real, modifier: Real) -> Real:
    """B4, B6: the sum of :func:`basic_healing_terms`."""
    return total(basic_healing_terms(attribute, difficulty, modifier))


def basic_worsens(margin: Real) -> bool:
    """B4: whether a failed healing test also worsens the wound (a margin of -10 or less)."""
    result: bool = margin <= BASIC_WORSEN_MARGIN
    return result


def faint_tests_due(before: Real, after: Real) -> int:
    """F1: ⌊b/5⌋ − ⌊a/5⌋ tests, or one when the blow brought 10 pain or more."""
    if after - before >= FAINT_BLOW:
        return 1
    return int(math.floor(after / FAINT_STEP) - math.floor(before / FAINT_STEP))


def faint_residue(received: int) -> int:
    """F1: all that later faint tests depend on, of the pain ever received (its rest mod 5)."""
    return received % FAINT_STEP


def faint_until(until: Real, now: Real, duration: Real) -> Real:
    """F2: a failed faint test leaves the patient unconscious until ``now + duration``.

    A failure while already unconscious extends the faint to ``now + duration``.
    """
    return max(until, now + duration)


def unconscious(now: Real, until: Real) -> bool:
    """F2: unconscious over the half-open interval [faint, ``until``)."""
    result: bool = now < until
    return result


def attempt_lost(self_treat: bool, now: Real, until: Real) -> bool:
    """A4: a self-treatment attempt due while unconscious is lost (and not counted)."""
    return self_treat and now < until


def first_attempt(now: Real, start: Real) -> Real:
    """A3: an unstable spell's first first-aid attempt falls due ``start`` after it opens."""
    return now + start


def next_attempt(due: Real, interval: Real) -> Real:
    """A3: the next attempt of a spell comes ``interval`` after the one due at ``due``."""
    return due + interval


def more_attempts(made: int, limit: int) -> bool:
    """A3: whether a spell allows another attempt (:data:`UNLIMITED`: no ``max_attempts``)."""
    return limit < 0 or made < limit


def missed_after_neglect(missed: int) -> int:
    """R3: a neglected watch adds one to the missed-watch penalty, whatever its test gives."""
    return missed + 1


def activity_tested(level: int) -> bool:
    """X1: grave and critical wounds are tested, stable or not."""
    return level in (GRAVE, CRITICAL)


def watch_index(begin: Real, period: Real, t: Real) -> int:
    """R2: the watch of a rest (begun at ``begin``, every ``period``) a neglect at ``t`` hits.

    The first watch at or after ``t``; :data:`NO_WATCH` when even the rest's first watch
    came more than a period after ``t`` (that neglect never happens).
    """
    k: int = max(1, math.ceil((t - begin) / period))
    if begin + k * period - t > period:
        return NO_WATCH
    return k


def rested_so_far(rested: Real, start: Real, now: Real, resting: bool) -> Real:
    """R4, G3: the time a rest has lasted: what it started with plus its present stretch."""
    return rested + (now - start) if resting else 0.0


def rested_after_break(resume: bool, rested: Real, from_start: bool) -> Real:
    """R4: what the next rest starts with once stable again."""
    if from_start or not resume:
        return 0.0
    return rested


def rested_after_session(cumulative: bool, rested: Real) -> Real:
    """G3: the time rested that the next level's rest starts with after a full session."""
    return rested if cumulative else 0.0


def pain_after(pain: Real, floor: Real, steps: Real, per_hour: Real) -> Real:
    """P1: the pain after ``steps`` more full stable hours, never below the floor.

    It never rises to the floor: pain at or below it stays as it is. Unrounded: each engine
    keeps its own number type (the exact engine's fractions are exact; floats are rounded to
    nine decimals by the caller).
    """
    if steps <= 0 or per_hour <= 0 or pain <= floor:
        return pain
    return max(floor, pain - steps * per_hour)


def hours_to_recover(before: Real, after: Real, floor: Real, steps: Real, per_hour: Real) -> int:
    """P1: how many of the ``steps`` full stable hours just applied pain took to go down.

    What a trace stamps the recovery at. Above the floor every step took its points: all
    ``steps``. At the floor, the hours to reach it, ``(before - floor) / per_hour`` rounded up
    (taken to six decimals first, so that a rate's own rounding never adds an hour), at least
    one and at most ``steps``.
    """
    if after > floor:
        return int(steps)
    quotient: float = (before - after) / per_hour
    hours = math.ceil(round(quotient * 1e6) / 1e6)
    return int(min(max(hours, 1), steps))


def session_delay(heal_period: Real, rested: Real) -> Real:
    """R1, R4, G3: how long after the rest's (re)start its session falls due."""
    return max(0.0, heal_period - rested)


def state_change(
    was_stable: bool,
    stable: bool,
    key_before: object,
    key_after: object,
    was_wounded: bool,
    wounded: bool,
) -> int:
    """H4, S2, A3, R1, R4, G5: which clocks a new state restarts or stops, as flags.

    ``key_*`` is S2's pair (worst level, state) before and after, as a number or any value
    that compares equal exactly when the pair does.
    """
    change = 0
    if stable != was_stable:
        change |= BECAME_STABLE if stable else BECAME_UNSTABLE
    if key_after != key_before:
        change |= SURVIVAL_RESTARTS
    if was_wounded and not wounded:
        change |= WOUND_FREE
    return change


def cause_after(cause: int, event: int, opened: bool, dead: bool) -> int:
    """Q3: the trial's cause after ``event`` (see :func:`simulator.rules.cause.cause_after`)."""
    if dead:
        if event == EV_W1 or event == EV_W2:  # noqa: SIM109 (compiled code)
            return WHY_BLOW
        if event == EV_X1:
            return WHY_ACTIVITY
        if event == EV_B4:
            return WHY_BASIC_HEALING
        return cause
    if not opened:
        return cause
    if event == EV_W1 or event == EV_W2:  # noqa: SIM109 (compiled code)
        return WHY_WOUND
    if event == EV_S4:
        return WHY_STABLE_TEST
    if event == EV_R3:
        return WHY_NEGLECTED_WATCH
    if event == EV_G4:
        return WHY_HEALING_FAILURE
    if event == EV_X1:
        return WHY_ACTIVITY
    return cause


COMPILED = {
    "success_threshold": "inlined",
    "total": "inlined",
    "survival_terms": "inlined",
    "survival_total": "inlined",
    "activity_terms": "inlined",
    "activity_total": "inlined",
    "faint_terms": "inlined",
    "faint_total": "inlined",
    "first_aid_terms": "inlined",
    "first_aid_total": "inlined",
    "healing_terms": "inlined",
    "healing_total": "inlined",
    "basic_healing_terms": "inlined",
    "basic_healing_total": "inlined",
    "basic_worsens": "inlined",
    "faint_tests_due": "inlined",
    "faint_residue": "inlined",
    "faint_until": "inlined",
    "unconscious": "inlined",
    "attempt_lost": "inlined",
    "first_attempt": "inlined",
    "next_attempt": "inlined",
    "more_attempts": "inlined",
    "missed_after_neglect": "inlined",
    "activity_tested": "inlined",
    "watch_index": "inlined",
    "rested_so_far": "inlined",
    "rested_after_break": "inlined",
    "rested_after_session": "inlined",
    "pain_after": "inlined",
    "hours_to_recover": "internal",
    "session_delay": "inlined",
    "state_change": "inlined",
    "cause_after": "internal",
}
"""How the kernel compiles each function (:func:`simulator.kernel.jit.compiled_module`): all
written into their callers by LLVM, but Q3's cause, which runs once per change of state."""
