"""One prepared scenario (issue 30): the scenario's numbers made once, read by every engine."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from simulator.exact.engine import Engine, _number
from simulator.exact.state import micro
from simulator.kernel.params import microseconds_float, pack, scenario_vector
from simulator.rules import rows, scalar
from simulator.rules.levels import Level
from simulator.scenario.model import Activity, FirstAid, Injury, Ruleset, Settings
from simulator.scenario.prepared import prepare, seconds
from simulator.scenario.reading import load_scenario
from tests.support.made_up import MADE_UP, made_up

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
TIMES = ("horizon", "faint_duration", "fa_start", "fa_interval")
SEQUENCES = ("neglect_at", "inj_at", "act_at")


def _all():
    return [load_scenario(p) for p in SCENARIOS] + [made_up(name) for name in MADE_UP]


@pytest.mark.parametrize("scenario", _all(), ids=lambda s: s.name)
def test_each_engines_unit_is_the_same_numbers(scenario):
    """The kernel's seconds and the exact engine's microseconds are one reading of the file."""
    s, us = prepare(scenario), prepare(scenario, micro, _number)
    for name in TIMES:
        assert micro(getattr(s, name)) == getattr(us, name), name
    for name in SEQUENCES:
        assert [micro(t) for t in getattr(s, name)] == list(getattr(us, name)), name
    for field in dataclasses.fields(s):
        if field.name not in (*TIMES, *SEQUENCES, "tab", "per_hour", "self_aid_factor"):
            assert getattr(s, field.name) == getattr(us, field.name), field.name
    assert np.array_equal(s.tab, rows.table_vector(scenario.table))
    assert not s.tab.flags.writeable


@pytest.mark.parametrize("scenario", _all(), ids=lambda s: s.name)
def test_the_kernel_packs_the_prepared_scenario_and_the_exact_engine_reads_it(scenario):
    assert np.array_equal(scenario_vector(scenario), pack(prepare(scenario, microseconds_float)))
    assert Engine(scenario).p is prepare(scenario, micro, _number)  # made once, kept


def test_events_come_in_time_order_within_the_horizon_and_as_the_ruleset_allows():
    base = load_scenario(ROOT / "scenarios" / "geraldine.toml")
    late = base.horizon + 1.0
    injuries = (Injury(7200.0, Level.LIGHT), Injury(0.0, Level.GRAVE), Injury(7200.0, Level.GRAVE))
    scenario = dataclasses.replace(
        base,
        injuries=(*injuries, Injury(late, Level.CRITICAL)),
        activities=(Activity(7200.0, modifier=-1), Activity(3600.0), Activity(late)),
    )
    p = prepare(scenario)
    # time order, file order at equal times (O1); none past the horizon
    assert p.injuries == (injuries[1], injuries[0], injuries[2])
    assert p.inj_at == (0.0, 7200.0, 7200.0)
    assert p.act_at == (3600.0, 7200.0)
    basic = prepare(dataclasses.replace(scenario, ruleset=Ruleset.BASIC))
    assert basic.activities == () and basic.act_at == ()  # B3
    assert basic.per_hour == 0  # B2


def test_settings_become_numbers_and_flags():
    base = load_scenario(ROOT / "scenarios" / "geraldine.toml")
    scenario = dataclasses.replace(
        base,
        first_aid=FirstAid(start=60.0, interval=90.0, level=1, self_treat=True),
        settings=dataclasses.replace(
            base.settings if base.settings is not None else Settings(),
            pain_recovery_per_hour=0.5,
            self_aid_pain_factor=3,
        ),
    )
    p, us = prepare(scenario), prepare(scenario, micro, _number)
    assert p.fa_max == scalar.UNLIMITED and p.self_treat
    assert (us.fa_start, us.fa_interval) == (60_000_000, 90_000_000)
    assert p.per_hour == 0.5 and us.per_hour == _number(0.5)  # an exact fraction
    assert p.self_aid_factor == 3
    assert prepare(dataclasses.replace(scenario, first_aid=None)).fa_max == scalar.UNLIMITED
    assert seconds(3) == 3.0


def test_the_exact_engine_reads_the_scenario_only_through_the_prepared_one():
    """No handler of the exact engine reads the scenario's settings or patient itself."""
    for path in sorted((ROOT / "simulator" / "exact").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        read = [
            ast.unparse(n)
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute)
            and n.attr in ("settings", "patient")
            and ast.unparse(n.value) in ("self.sc", "scenario", "sc")
        ]
        assert read == [], f"{path.name}: {read}"
