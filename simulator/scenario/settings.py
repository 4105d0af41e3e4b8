"""``[rules]``: the settings of RULES.md, read and checked into :class:`~.model.Settings`.

Every reading of the texts that RULES.md marks as ours is one of these settings; the defaults
are RULES.md's. ``rules.table`` is read with the wound table, in
:mod:`simulator.scenario.reading`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.scenario.checks import Checker
from simulator.scenario.model import Settings

RULES_KEYS = (
    "tie_succeeds",
    "open_roll",
    "pain_recovery_per_hour",
    "faint_duration",
    "stable_survival_tests",
    "trigger_probability",
    "self_aid_pain_factor",
    "rest_after_unstable",
    "rest_per_level",
    "activity_breaks_rest",
    "pain_floor_craziness",
    "table",
)
RESTS_AFTER_UNSTABLE = tuple(mode.value for mode in RestAfterUnstable)
RESTS_PER_LEVEL = tuple(mode.value for mode in RestPerLevel)


def read_settings(data: Mapping[str, Any], check: Checker) -> Settings:
    """``[rules]``: the settings of RULES.md (``rules.table`` is read with the table)."""
    table = check.read_table(data, "rules")
    if table is None:
        return Settings()
    prefix = "rules"
    default = Settings()
    check.unknown_keys(table, RULES_KEYS, prefix)
    pain = check.read_number(
        table, "pain_recovery_per_hour", prefix, default.pain_recovery_per_hour
    )
    faint = check.read_duration(table, "faint_duration", prefix, default.faint_duration)
    factor = check.read_int(
        table, "self_aid_pain_factor", prefix, default.self_aid_pain_factor, minimum=0
    )
    after = check.read_choice(
        table, "rest_after_unstable", prefix, RESTS_AFTER_UNSTABLE, default.rest_after_unstable
    )
    per_level = check.read_choice(
        table, "rest_per_level", prefix, RESTS_PER_LEVEL, default.rest_per_level
    )
    return Settings(
        tie_succeeds=check.read_bool(table, "tie_succeeds", prefix, default.tie_succeeds),
        open_roll=check.read_bool(table, "open_roll", prefix, default.open_roll),
        pain_recovery_per_hour=pain,
        faint_duration=default.faint_duration if faint is None else faint,
        stable_survival_tests=check.read_bool(
            table, "stable_survival_tests", prefix, default.stable_survival_tests
        ),
        trigger_probability=check.read_probability(
            table, "trigger_probability", prefix, default.trigger_probability
        ),
        self_aid_pain_factor=default.self_aid_pain_factor if factor is None else factor,
        rest_after_unstable=RestAfterUnstable(after or default.rest_after_unstable),
        rest_per_level=RestPerLevel(per_level or default.rest_per_level),
        activity_breaks_rest=check.read_bool(
            table, "activity_breaks_rest", prefix, default.activity_breaks_rest
        ),
        pain_floor_craziness=check.read_bool(
            table, "pain_floor_craziness", prefix, default.pain_floor_craziness
        ),
    )
