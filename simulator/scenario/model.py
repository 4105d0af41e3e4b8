"""A scenario as typed, frozen objects: what to simulate, apart from any run of it.

``simulator.scenario.reading`` reads TOML files (CONTRACT.md) into these objects, checking every
value once at the boundary; the engine never re-checks user input. All times are seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from simulator.rules.levels import Level
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.rules.table import WoundTable, default_table


class Ruleset(Enum):
    """Which rules apply: the advanced text (default) or the older basic one (B1-B5)."""

    ARPEGES = "arpeges"
    BASIC = "basic"


@dataclass(frozen=True, slots=True)
class PatientSpec:
    """The patient's attributes (S1, F1, B4) and creature profile (T2)."""

    cp_rs: int
    rs_it: int
    profile: str = "humanoid"


@dataclass(frozen=True, slots=True)
class Injury:
    """Wounds received at a campaign time (W1-W3). ``count`` wounds, each its own blow.

    ``at`` is in seconds of campaign time.
    """

    at: float
    level: Level
    count: int = 1


@dataclass(frozen=True, slots=True)
class FirstAid:
    """The first-aid policy (A1-A4). ``max_attempts`` None means no limit.

    ``start`` and ``interval`` are in seconds.
    """

    start: float
    interval: float
    level: int = 0
    modifier: int = 0
    max_attempts: int | None = None
    self_treat: bool = False


@dataclass(frozen=True, slots=True)
class Watch:
    """Therapeutic rest's watches (R2): random and listed neglects (``neglect_at`` in seconds)."""

    neglect_probability: float = 0.0
    neglect_at: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Healing:
    """The healer (G1). In the basic ruleset only ``modifier`` applies (B4)."""

    level: int = 0
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class Activity:
    """A rough physical activity (X1)."""

    at: float
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings of RULES.md (``[rules]``); defaults are RULES.md's.

    Attributes:
        tie_succeeds: D3: a margin of exactly 0 succeeds.
        open_roll: D2: dice showing 10 are rolled again.
        pain_recovery_per_hour: P1: points per full stable hour, any number >= 0 (an int
            when whole, so that pain stays an int by default).
        faint_duration: F2, in seconds.
        stable_survival_tests: S2: survival tests at the stable periodicity.
        trigger_probability: M1: the chance a mental wound's penalty is present at a test.
        self_aid_pain_factor: A1: how many times the pain penalty counts when the patient
            treats itself (2: the English text; 1: the French).
        rest_after_unstable: R4: ``restart`` or ``resume``.
        rest_per_level: G3: ``fresh`` or ``cumulative``.
        activity_breaks_rest: X1: rough activity restarts the rest from zero.
        pain_floor_craziness: P1: the pain floor counts craziness as well as mortality.
    """

    tie_succeeds: bool = True
    open_roll: bool = False
    pain_recovery_per_hour: int | float = 1
    faint_duration: float = 900.0
    stable_survival_tests: bool = True
    trigger_probability: float = 1.0
    self_aid_pain_factor: int = 2
    rest_after_unstable: RestAfterUnstable = RestAfterUnstable.RESTART
    rest_per_level: RestPerLevel = RestPerLevel.FRESH
    activity_breaks_rest: bool = True
    pain_floor_craziness: bool = True


@dataclass(frozen=True, slots=True)
class Scenario:
    """Everything a trial needs, validated.

    Attributes:
        name: The scenario's name.
        horizon: A trial covers [0, horizon] (O2), in seconds of campaign time (as every
            time of the model: ``at``, ``start``, ``interval``, the table's periods);
            the outputs give times in hours.
        patient: Attributes and profile.
        table: The wound table in force: defaults, then the profile's maxima, then
            ``rules.table`` cells, then ``[patient.maxima]``.
        injuries: Sorted by time, file order kept among equals (O1).
        first_aid: None when nobody gives first aid (A3).
        watch: The watch policy (R2).
        healing: None when there is no healer (R1, M3); in the basic ruleset the patient
            always heals itself and this only gives the modifier.
        activities: Sorted by time, file order kept among equals (O1).
        settings: The ``[rules]`` settings.
        ruleset: Advanced (arpeges) or basic.
        description: Free text.
        source: Where the scenario came from (a path), for messages and outputs.
        name_fr: The name in French (``--lang fr``); empty: the name as written.
        description_fr: The description in French; empty: the description as written.
    """

    name: str
    horizon: float
    patient: PatientSpec
    table: WoundTable = field(default_factory=default_table)
    injuries: tuple[Injury, ...] = ()
    first_aid: FirstAid | None = None
    watch: Watch = field(default_factory=Watch)
    healing: Healing | None = None
    activities: tuple[Activity, ...] = ()
    settings: Settings = field(default_factory=Settings)
    ruleset: Ruleset = Ruleset.ARPEGES
    description: str = ""
    source: str = ""
    name_fr: str = ""
    description_fr: str = ""
