"""A scenario's numbers, made once, for every engine that computes with numbers.

:func:`prepare` reads a validated :class:`~simulator.scenario.model.Scenario` once into a
:class:`Prepared`: its times in the engine's unit (whole microseconds: as floats for the
compiled kernel, integers for the exact engine; seconds as floats by default), its settings
as numbers and flags, the events it schedules in the order they happen and within the
horizon, and the wound table as the flat vector :mod:`simulator.rules.rows` reads. The
kernel packs it into its scenario vector (:func:`simulator.kernel.params.scenario_vector`);
the exact engine reads it as it is. A setting added to the scenario is read here once, and
each engine takes it from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

import numpy as np

from simulator.rules import rows, scalar
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.scenario.model import Activity, FirstAid, Healing, Injury, Ruleset, Scenario

T = TypeVar("T", int, float)
"""The engine's unit of time: seconds or microseconds (``float``), or microseconds (``int``)."""


def seconds(value: float) -> float:
    """Times in seconds, as floats (the default unit)."""
    return float(value)


@dataclass(frozen=True, slots=True, eq=False)
class Prepared(Generic[T]):
    """A scenario's numbers, for one unit of time.

    Attributes:
        scenario: The scenario they were read from.
        basic: The basic ruleset (B1-B6).
        mental: Some injury is a mental wound (M1).
        horizon: The end of the campaign (O2).
        cp_rs: The patient's Cp+Rs (S1, X1, B4).
        rs_it: The patient's Rs+It (F1, B6).
        per_hour: P1's recovery per stable hour (0 under the basic ruleset, B2), as the
            engine's ``number`` made it.
        faint_duration: F2's faint.
        stable_tests: S2's setting ``stable_survival_tests``.
        tie_succeeds: D3's setting.
        open_roll: D2's setting.
        trigger: M1's ``trigger_probability``.
        floor_craziness: P1's setting ``pain_floor_craziness``.
        first_aid: The first-aid policy (A1-A4), or None.
        fa_start: A3's first attempt after the state turned unstable (0 without a policy).
        fa_interval: A3's time between attempts (0 without a policy).
        fa_max: A3's attempts per unstable spell, :data:`~simulator.rules.scalar.UNLIMITED`
            when the policy sets none (and without a policy).
        self_treat: The patient treats itself (A1, A4).
        self_aid_factor: A1's ``self_aid_pain_factor``, as the engine's ``number`` made it.
        neglect_p: R2's chance that a watch is neglected.
        neglect_at: R2's neglected watches, in time order.
        healing: The healer (G1-G4, M3), or None.
        resume: R4's ``rest_after_unstable`` is ``resume``.
        cumulative: G3's ``rest_per_level`` is ``cumulative``.
        breaks_rest: X1's ``activity_breaks_rest``.
        injuries: The injuries within the horizon, in time order (file order at equal
            times, O1).
        inj_at: Their times.
        activities: The activities within the horizon, in time order (none under the basic
            ruleset, B3).
        act_at: Their times.
        tab: The wound table as :mod:`simulator.rules.rows` reads it (read-only).
    """

    scenario: Scenario
    basic: bool
    mental: bool
    horizon: T
    cp_rs: int
    rs_it: int
    per_hour: Any
    faint_duration: T
    stable_tests: bool
    tie_succeeds: bool
    open_roll: bool
    trigger: float
    floor_craziness: bool
    first_aid: FirstAid | None
    fa_start: T
    fa_interval: T
    fa_max: int
    self_treat: bool
    self_aid_factor: Any
    neglect_p: float
    neglect_at: tuple[T, ...]
    healing: Healing | None
    resume: bool
    cumulative: bool
    breaks_rest: bool
    injuries: tuple[Injury, ...]
    inj_at: tuple[T, ...]
    activities: tuple[Activity, ...]
    act_at: tuple[T, ...]
    tab: np.ndarray


def _as_is(value: object) -> Any:
    return value


@lru_cache(maxsize=64)
def prepare(
    scenario: Scenario,
    time: Callable[[float], T] = seconds,  # type: ignore[assignment]
    number: Callable[[object], Any] = _as_is,
) -> Prepared[T]:
    """The numbers of ``scenario`` (validated), times by ``time`` (the engine's unit).

    Args:
        scenario: The scenario.
        time: Seconds to the engine's unit: :func:`seconds`, the kernel's whole
            microseconds as floats, or the exact engine's as integers.
        number: What the engine makes of a setting that may have a fraction (P1's recovery,
            A1's factor): kept as it is by default, an exact fraction for the exact engine.
    """
    s = scenario.settings
    basic = scenario.ruleset is Ruleset.BASIC
    horizon = time(scenario.horizon)
    injuries = tuple(
        i for i in sorted(scenario.injuries, key=lambda i: i.at) if time(i.at) <= horizon
    )  # sorted() is stable: file order at equal times (O1)
    activities = (
        ()
        if basic  # B3: no rough activity
        else tuple(
            a for a in sorted(scenario.activities, key=lambda a: a.at) if time(a.at) <= horizon
        )
    )
    fa = scenario.first_aid
    tab = rows.table_vector(scenario.table)
    tab.flags.writeable = False
    return Prepared(
        scenario=scenario,
        basic=basic,
        mental=any(not injury.level.is_physical for injury in scenario.injuries),
        horizon=horizon,
        cp_rs=scenario.patient.cp_rs,
        rs_it=scenario.patient.rs_it,
        per_hour=number(0 if basic else s.pain_recovery_per_hour),  # B2: no pain to recover
        faint_duration=time(s.faint_duration),
        stable_tests=bool(s.stable_survival_tests),
        tie_succeeds=bool(s.tie_succeeds),
        open_roll=bool(s.open_roll),
        trigger=float(s.trigger_probability),
        floor_craziness=bool(s.pain_floor_craziness),
        first_aid=fa,
        fa_start=time(fa.start) if fa else time(0.0),
        fa_interval=time(fa.interval) if fa else time(0.0),
        fa_max=scalar.UNLIMITED if fa is None or fa.max_attempts is None else fa.max_attempts,
        self_treat=bool(fa and fa.self_treat),
        self_aid_factor=number(s.self_aid_pain_factor),
        neglect_p=float(scenario.watch.neglect_probability),
        neglect_at=tuple(time(t) for t in sorted(scenario.watch.neglect_at)),
        healing=scenario.healing,
        resume=s.rest_after_unstable is RestAfterUnstable.RESUME,
        cumulative=s.rest_per_level is RestPerLevel.CUMULATIVE,
        breaks_rest=bool(s.activity_breaks_rest),
        injuries=injuries,
        inj_at=tuple(time(i.at) for i in injuries),
        activities=activities,
        act_at=tuple(time(a.at) for a in activities),
        tab=tab,
    )
