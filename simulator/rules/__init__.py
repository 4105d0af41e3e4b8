"""The rules of RULES.md as data and pure functions: no SimPy, no pandas.

Levels (``levels``), durations (``durations``), the wound table and its profiles (T1, T2,
``table``), dice and exact odds (D1-D5, ``dice``), the patient (H1-H6, ``patient``), the
readings of rest as settings (R4, G3, ``rest``), and one pure function per rule of wounds and
care (``transitions``, used as ``rules.transitions``); the rules' ids (``ids``) and the
outcomes of a trial (Q1, ``outcome``).
Nothing here imports the other layers.
"""

import importlib
from typing import TYPE_CHECKING

from simulator.lazy import lazy_names
from simulator.rules.dice import (
    Dice,
    RandomDice,
    ScriptedDice,
    TestRoll,
    odds_table,
    p_success,
    resolve,
)
from simulator.rules.durations import format_clock, format_duration, parse_duration
from simulator.rules.ids import RuleId
from simulator.rules.levels import LEVEL_NAMES, MENTAL_LEVELS, PHYSICAL_LEVELS, Level, Track
from simulator.rules.outcome import OUTCOMES, Outcome
from simulator.rules.rest import RestAfterUnstable, RestPerLevel
from simulator.rules.table import WoundTable, default_table, profiles, table_for_profile

if TYPE_CHECKING:  # loaded when first asked for: the patient's rows are numpy arrays, and the
    # quick commands (validate, odds) start without numpy
    from simulator.rules import transitions
    from simulator.rules.patient import Patient, Status, Wound
    from simulator.rules.transitions import Blow, Modifiers

_load = lazy_names(
    "simulator.rules",
    {
        "patient": ("Patient", "Status", "Wound"),
        "transitions": ("Blow", "Modifiers"),
    },
)


def __getattr__(name: str) -> object:
    """The lazily loaded names, and the ``transitions`` module itself."""
    if name == "transitions":
        return importlib.import_module("simulator.rules.transitions")
    return _load(name)


__all__ = [
    "LEVEL_NAMES",
    "MENTAL_LEVELS",
    "OUTCOMES",
    "PHYSICAL_LEVELS",
    "Blow",
    "Dice",
    "Level",
    "Modifiers",
    "Outcome",
    "Patient",
    "RandomDice",
    "RestAfterUnstable",
    "RestPerLevel",
    "RuleId",
    "ScriptedDice",
    "Status",
    "TestRoll",
    "Track",
    "Wound",
    "WoundTable",
    "default_table",
    "format_clock",
    "format_duration",
    "odds_table",
    "p_success",
    "parse_duration",
    "profiles",
    "resolve",
    "table_for_profile",
    "transitions",
]


def __dir__() -> list[str]:
    """Every name, those loaded on first use included (a notebook's completion lists them)."""
    return sorted({*globals(), *__all__})
