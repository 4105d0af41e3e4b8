"""Scenario files: the typed model, reading and checking, overrides, writing back to TOML.

``model`` holds the frozen dataclasses a scenario is; ``reading`` turns a file (or a mapping)
into one, with every problem found at once (``checks``) and ``--set`` overrides applied
(``overrides``); ``writing`` gives it back as a scenario file. It imports ``rules`` only.
"""

from simulator.scenario.model import (
    Activity,
    FirstAid,
    Healing,
    Injury,
    PatientSpec,
    Ruleset,
    Scenario,
    Settings,
    Watch,
)
from simulator.scenario.overrides import (
    OVERRIDE_SOURCE,
    Override,
    apply_overrides,
    parse_override,
)
from simulator.scenario.reading import (
    load_scenario,
    read_scenario_mapping,
    scenario_from_mapping,
    scenario_with_overrides,
)
from simulator.scenario.writing import scenario_to_mapping, scenario_to_toml, toml_value

__all__ = [
    "OVERRIDE_SOURCE",
    "Activity",
    "FirstAid",
    "Healing",
    "Injury",
    "Override",
    "PatientSpec",
    "Ruleset",
    "Scenario",
    "Settings",
    "Watch",
    "apply_overrides",
    "load_scenario",
    "parse_override",
    "read_scenario_mapping",
    "scenario_from_mapping",
    "scenario_to_mapping",
    "scenario_to_toml",
    "scenario_with_overrides",
    "toml_value",
]
