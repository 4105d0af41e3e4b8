"""Several wrong flags on one command line: every one is told, one ``error:`` line each.

CONTRACT.md: "one ``error:`` line per problem". A mistake in the method's options and one in
another argument (a ``--set``, the scenario, the folder) are both told, as a scenario file
tells all its mistakes at once.
"""

from __future__ import annotations

from click.testing import CliRunner

from simulator.cli.app import main

SCENARIO = "scenarios/lone_traveller.toml"


def refused(*args: str) -> list[str]:
    """The ``error:`` lines of a refused command line (exit status 2, nothing on stdout)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), result.stderr
    assert "Traceback" not in result.stderr
    return lines


def flags(lines: list[str]) -> list[str]:
    """The flag (or source) each line names first."""
    return [line.removeprefix("error: ").split(":")[0] for line in lines]


def test_every_exact_limit_without_exact_is_told(tmp_path):
    lines = refused("run", SCENARIO, "--eps", "0.1", "--max-states", "5", "--time-budget", "3",
                    "--out", str(tmp_path / "o"))  # fmt: skip
    assert flags(lines) == ["--eps", "--max-states", "--time-budget"]
    assert all("given without --exact" in line for line in lines)


def test_an_exact_limit_without_exact_and_a_bad_trials_are_both_told(tmp_path):
    lines = refused("run", SCENARIO, "--eps", "0.1", "--trials", "0", "--out", str(tmp_path / "o"))
    assert flags(lines) == ["--eps", "--trials"]


def test_every_bad_exact_limit_is_told_with_a_flag_exact_has_no_use_for(tmp_path):
    lines = refused("run", SCENARIO, "--exact", "--eps", "2", "--max-states", "0",
                    "--time-budget", "-1", "--seed", "3", "--out", str(tmp_path / "o"))  # fmt: skip
    assert flags(lines) == ["--seed", "--eps", "--max-states", "--time-budget"]
    assert "--eps: got 2; expected a probability" in lines[1]


def test_a_bad_option_and_a_bad_set_are_both_told(tmp_path):
    lines = refused("run", SCENARIO, "--trials", "0", "--set", "patient.cp_rs=x",
                    "--out", str(tmp_path / "o"))  # fmt: skip
    assert len(lines) == 2
    assert lines[0].startswith("error: --trials: got 0")
    assert lines[1].startswith("error: --set patient.cp_rs=x (on ")


def test_a_bad_option_and_a_missing_scenario_are_both_told(tmp_path):
    lines = refused("run", str(tmp_path / "nowhere.toml"), "--seed", "-1")
    assert len(lines) == 2
    assert lines[0].startswith("error: --seed: got -1")
    assert "nowhere.toml" in lines[1]


def test_study_tells_a_bad_option_and_the_folder(tmp_path):
    lines = refused("study", str(tmp_path / "none"), "--trials", "0", "--seed", "-1",
                    "--out", str(tmp_path / "o"))  # fmt: skip
    assert flags(lines)[:2] == ["--trials", "--seed"]
    assert len(lines) == 3 and "expected a directory of scenario files" in lines[2]


def test_study_tells_a_bad_option_and_every_scenario_mistake(tmp_path):
    (tmp_path / "a.toml").write_text('name = "a"\n', encoding="utf-8")
    lines = refused("study", str(tmp_path), "--exact", "--seed", "1", "--out", str(tmp_path / "o"))
    assert lines[0].startswith("error: --seed: given with --exact")
    assert [line.split(": ")[2] for line in lines[1:]] == ["horizon", "patient.cp_rs",
                                                           "patient.rs_it"]  # fmt: skip


def test_an_option_alone_is_told_alone(tmp_path):
    """The checks of the other arguments add only their own mistakes, never a second copy."""
    lines = refused("run", SCENARIO, "--trials", "0", "--out", str(tmp_path / "o"))
    assert len(lines) == 1 and lines[0].startswith("error: --trials: got 0")
