"""A scenario written back as a file (scenario.toml, ``validate --show``) reads back equal."""

import dataclasses
import math
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.errors import ScenarioError
from simulator.rules.durations import parse_duration
from simulator.rules.levels import Level
from simulator.scenario.model import Scenario
from simulator.scenario.reading import load_scenario
from simulator.scenario.writing import (
    exact_duration,
    scenario_to_mapping,
    scenario_to_toml,
    to_toml,
)
from tests.support import TINY

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((REPO / "scenarios").glob("*.toml"))


def same(a: Scenario, b: Scenario) -> bool:
    return dataclasses.replace(a, source="") == dataclasses.replace(b, source="")


def written_and_read(scenario: Scenario, directory: Path) -> Scenario:
    path = directory / "again.toml"
    path.write_text(scenario_to_toml(scenario, "a comment\non two lines"), encoding="utf-8")
    return load_scenario(path)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_repository_scenario_reads_back_equal(path, tmp_path):
    scenario = load_scenario(path)
    assert same(written_and_read(scenario, tmp_path), scenario)


OVERRIDES = [
    'rules.table.grave.unstable_period="1.1h"',  # 3960.0000000000005 s: kept exactly
    "rules.table.light.difficulty=-2",
    'rules.table.trauma.heal_period="3d"',
    "patient.maxima.light=6",
    'patient.profile="hydra"',
    "first_aid.max_attempts=3",
    "first_aid.self=true",
    'first_aid.start="0s"',
    "watch.neglect_probability=0.125",
    'watch.neglect_at=["12h", "1.5d"]',
    "healing.modifier=-2",
    'activities=[{at = "2d", modifier = -1}, {at = "1d"}]',
    'injuries=[{at = "1h", level = "critical"}, {at = "0s", level = "shock", count = 2}]',
    "rules.tie_succeeds=false",
    "rules.open_roll=true",
    "rules.pain_recovery_per_hour=0",
    'rules.faint_duration="90s"',
    "rules.stable_survival_tests=false",
    "rules.trigger_probability=0.3",
    "rules.pain_recovery_per_hour=0.25",
    "rules.self_aid_pain_factor=1",
    'rules.rest_after_unstable="resume"',
    'rules.rest_per_level="cumulative"',
    "rules.activity_breaks_rest=false",
    "rules.pain_floor_craziness=false",
    'ruleset="basic"',
    'description="Line one\\nline \\"two\\""',
    'horizon="1234567.25s"',
]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(OVERRIDES), max_size=6, unique=True))
def test_any_overridden_scenario_reads_back_equal(tmp_path_factory, chosen):
    directory = tmp_path_factory.mktemp("toml")
    source = directory / "tiny.toml"
    source.write_text(TINY, encoding="utf-8")
    scenario = load_scenario(source, chosen)
    assert same(written_and_read(scenario, directory), scenario)


def test_only_the_changed_cells_are_written_so_a_profile_still_changes_the_maxima(tiny, tmp_path):
    scenario = load_scenario(tiny, ["rules.table.grave.pain=6"])
    data = scenario_to_mapping(scenario)
    assert data["rules"]["table"] == {"grave": {"pain": 6}}
    assert "table" not in scenario_to_mapping(load_scenario(tiny))["rules"]
    again = tmp_path / "again.toml"
    again.write_text(scenario_to_toml(scenario), encoding="utf-8")
    hydra = load_scenario(again, ['patient.profile="hydra"'])
    expected = load_scenario(tiny, ['patient.profile="hydra"']).table[Level.CRITICAL].max
    assert hydra.table[Level.CRITICAL].max == expected != scenario.table[Level.CRITICAL].max
    assert hydra.table[Level.GRAVE].pain == 6


def test_the_text_shows_every_default_and_the_table_in_force(tiny):
    text = scenario_to_toml(load_scenario(tiny, ["rules.table.grave.pain=6"]), "why")
    assert text.startswith("# why\n")
    data = tomllib.loads(text)
    assert data["rules"]["tie_succeeds"] is True
    assert data["rules"]["faint_duration"] == "15min"
    # the readings of RULES.md, each a setting written with its default (A1, R4, G3, X1, P1)
    assert data["rules"]["self_aid_pain_factor"] == 2
    assert data["rules"]["rest_after_unstable"] == "restart"
    assert data["rules"]["rest_per_level"] == "fresh"
    assert data["rules"]["activity_breaks_rest"] is True
    assert data["rules"]["pain_floor_craziness"] is True
    assert data["rules"]["pain_recovery_per_hour"] == 1
    assert data["watch"] == {"neglect_probability": 0.0, "neglect_at": []}
    assert data["first_aid"] == {
        "level": 0,
        "start": "5min",
        "interval": "5min",
        "modifier": 0,
        "self": False,
    }
    grave = next(line for line in text.splitlines() if line.startswith("#   grave"))
    assert grave.split()[1:] == ["grave", "2", "3", "6", "15min", "1d", "6h", "1w", "-3"]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0s"),
        (15.0, "15s"),
        (900.0, "15min"),
        (5400.0, "90min"),
        (86400.0, "1d"),
        (1209600.0, "2w"),
        (0.5, "0.5s"),
        (1.1 * 3600, "66min"),  # 3960.0000000000005: the same instant to the microsecond
        (1.000001, "1.000001s"),
        (90.25, "90.25s"),
    ],
)
def test_exact_duration_is_the_largest_exact_unit(seconds, text):
    assert exact_duration(seconds) == text
    assert parse_duration(text) == pytest.approx(seconds, abs=5e-7)


@given(st.floats(min_value=0.0, max_value=1e9, allow_nan=False, allow_infinity=False))
def test_exact_duration_reads_back_to_the_same_instant(seconds):
    """Any duration, written, reads back to itself rounded to the microsecond (RULES.md)."""
    micro = round(Fraction(seconds) * 1_000_000)
    assert parse_duration(exact_duration(seconds)) == float(Fraction(micro, 1_000_000))


@given(st.integers(min_value=0, max_value=10**15))
def test_a_duration_read_from_a_file_is_written_back_as_it_was(micro):
    """What a scenario holds (whole microseconds) is written back to exactly itself."""
    seconds = parse_duration(f"{micro / 1_000_000:.6f}s")
    assert parse_duration(exact_duration(seconds)) == seconds


@pytest.mark.parametrize("bad", [-1.0, math.inf, math.nan])
def test_exact_duration_refuses_what_no_file_can_hold(bad):
    with pytest.raises(ValueError, match="duration"):
        exact_duration(bad)


def test_to_toml_reads_back_with_tomllib():
    data = {
        "name": 'Ä "quoted" name',
        "odd key": 1.5,
        "list": [1, 2, 3],
        "a": {"x": True, "b": {"y": "z"}, "only": {"deeper": {"v": 1}}},
        "items": [{"at": "0s"}, {"at": "1h", "n": 2}],
    }
    assert tomllib.loads(to_toml(data)) == data
    with pytest.raises(TypeError):
        to_toml({"items": [{"nested": {"x": 1}}]})
    with pytest.raises(TypeError):
        to_toml({"x": object()})


def test_control_characters_in_sources_still_read_back_and_in_names_are_refused(tmp_path):
    # TOML allows no DEL nor other control characters raw, in strings or in comments: a
    # source's name holding one is written escaped; a scenario's name holding one is refused
    # (it would go raw into every CSV file, page and figure title).
    source = tmp_path / "odd\x7fname.toml"
    source.write_text(TINY.replace('name = "Tiny grave wound"', 'name = "x\ty"'), encoding="utf-8")
    scenario = load_scenario(source)
    assert scenario.name == "x\ty"
    again = tmp_path / "again.toml"
    again.write_text(scenario_to_toml(scenario, f"from {source}"), encoding="utf-8")
    assert same(load_scenario(again), scenario)
    source.write_text(
        TINY.replace('name = "Tiny grave wound"', 'name = "x\\u007fy\\u0001z"'), encoding="utf-8"
    )
    with pytest.raises(ScenarioError, match="without control characters"):
        load_scenario(source)
