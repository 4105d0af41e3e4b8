"""Every scenario file of the repository loads, runs, and tells a readable trace."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from simulator.rules.outcome import OUTCOMES
from simulator.runner.engines import run_trial, trace_trial
from simulator.scenario.reading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def test_the_repository_has_the_designers_scenarios():
    names = {p.stem for p in SCENARIOS}
    assert {
        "geraldine",
        "lone_traveller",
        "field_medic",
        "hydra",
        "shaken",
        "geraldine_basic",
    } <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_loads_runs_and_says_what_it_asks(path: Path):
    text = path.read_text(encoding="utf-8")
    assert text.lstrip().startswith("#"), "each scenario opens with a comment saying what it asks"
    sc = load_scenario(path)
    assert sc.description
    outcomes = Counter(run_trial(sc, i, 1).outcome for i in range(60))
    assert set(outcomes) <= set(OUTCOMES)
    record, lines = trace_trial(sc, seed=1)
    assert lines and record.outcome in OUTCOMES


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_trace_command_tells_the_campaign(path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "trace", str(path), "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Outcome:" in out and "Traceback" not in done.stderr
    assert "0d 00:00" in out  # campaign time in readable units
    # a wound received: W2 or W1's overflow; B1 under the basic ruleset, M1 a mental one
    assert any(rule in out for rule in ("W2", "W1", "B1", "M1"))


def test_trace_names_rule_ids_modifiers_and_margins_for_geraldine():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "simulator",
            "trace",
            "scenarios/geraldine.toml",
            "--seed",
            "1",
            "--set",
            "first_aid.level=3",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "wounds (2 light, 1 grave) -5" in out  # A1's difficulty, as in the texts
    assert "first-aid level +3" in out and "margin" in out
    assert " A2 " in out or " A1 " in out


def test_trace_bad_scenario_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nhorizon = "15 minutes"\n[patient]\ncp_rs = 1\nrs_it = 1\n')
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "trace", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "horizon" in done.stderr and "15 minutes" in done.stderr
    assert "Traceback" not in done.stderr


def test_trace_find_tells_the_first_trial_with_that_outcome():
    from simulator.cli.trace import find_trial

    sc = load_scenario(ROOT / "scenarios" / "geraldine.toml")
    index = find_trial(sc, seed=0, first=0, outcome="healed")
    assert run_trial(sc, index, 0).outcome == "healed"
    assert all(run_trial(sc, i, 0).outcome != "healed" for i in range(index))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "simulator",
            "trace",
            "scenarios/geraldine.toml",
            "--find",
            "healed",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0 and f"trial {index})" in done.stdout
    assert "Outcome: healed" in done.stdout


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_committed_results_were_made_from_the_scenario_as_it_is(path: Path):
    # results/<stem>/scenario.toml is what `make run` simulated: if a scenario file changes,
    # its committed results are stale until `make run` is run again. (A new scenario has no
    # results yet; that is no error.)
    import dataclasses

    saved = ROOT / "results" / path.stem / "scenario.toml"
    if not saved.is_file():
        pytest.skip(f"no results/{path.stem}/ yet (make run writes it)")
    now, then = load_scenario(path), load_scenario(saved)
    assert dataclasses.replace(now, source="") == dataclasses.replace(then, source=""), (
        f"results/{path.stem}/ is stale: run `make run`"
    )


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_trace_refuses_a_seed_no_run_could_use(seed: str):
    from click.testing import CliRunner

    from simulator.cli.app import main

    result = CliRunner().invoke(main, ["trace", str(SCENARIOS[0]), "--seed", seed])
    assert result.exit_code == 2 and "--seed" in result.output
    assert not isinstance(result.exception, ValueError)


def test_trace_title_names_the_overrides_as_every_study_title_does():
    """A trace of a --set scenario is not labelled as the scenario as written: a changed
    table cell shows nowhere else in its header."""
    from click.testing import CliRunner

    from simulator.cli.app import main

    path = str(ROOT / "scenarios" / "lone_traveller.toml")
    changed = "rules.table.grave.unstable_period=2h"
    result = CliRunner().invoke(main, ["trace", path, "--set", changed])
    assert result.exit_code == 0, result.output
    title = result.output.splitlines()[0]
    assert title == f"Lone traveller, grave wound, no help (with {changed}) (seed 0, trial 0)"
    plain = CliRunner().invoke(main, ["trace", path])
    assert plain.output.splitlines()[0] == "Lone traveller, grave wound, no help (seed 0, trial 0)"
