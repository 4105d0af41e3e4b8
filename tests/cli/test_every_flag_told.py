"""Several wrong flags on one command line: every one is told, one ``error:`` line each.

CONTRACT.md: "one ``error:`` line per problem". A mistake in the method's options and one in
another argument (a ``--set``, the scenario, the folder) are both told, as a scenario file
tells all its mistakes at once.
"""

from __future__ import annotations

from click.testing import CliRunner

from simulator.cli.app import main
from tests.support import harmonies_sim

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


def test_study_says_a_folder_that_is_not_there_is_not_there(tmp_path):
    lines = refused("study", str(tmp_path / "scenaros"), "--out", str(tmp_path / "o"))
    assert lines == [  # a mistyped folder, once only "expected a directory" like a file given
        f"error: {tmp_path / 'scenaros'}: no such folder; expected a directory of scenario "
        "files (*.toml)"
    ]
    afile = tmp_path / "a.toml"
    afile.write_text('name = "a"\n', encoding="utf-8")
    assert refused("study", str(afile), "--out", str(tmp_path / "o")) == [
        f"error: {afile}: expected a directory of scenario files (*.toml)"
    ]
    assert not (tmp_path / "o").exists()


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


def test_every_value_click_refuses_is_told(tmp_path):
    """click stops at the first value its types refuse; the others are told with it."""
    lines = refused("run", SCENARIO, "--trials", "abc", "--seed=xyz", "--backend", "foo",
                    "--out", str(tmp_path / "o"))  # fmt: skip
    assert len(lines) == 3 and all("(see " in line for line in lines)
    assert "'--trials'" in lines[0] and "'--seed'" in lines[1] and "'--backend'" in lines[2]


def test_a_refused_value_and_a_missing_argument_are_both_told():
    lines = refused("study", "--trials", "abc")
    assert len(lines) == 2
    assert "'--trials'" in lines[0] and "DIRECTORY" in lines[1]


def test_a_refused_value_and_a_split_pair_each_get_their_own_hint(tmp_path):
    """The hint for ``--set KEY VALUE`` reads the process's own command line: run as a user."""
    done = harmonies_sim("run", SCENARIO, "--trials", "abc", "--set", "first_aid.level", "3",
                         "--out", tmp_path / "o")  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 2
    assert "'--trials'" in lines[0] and "takes KEY=VALUE" not in lines[0]
    assert lines[1].startswith("error: Got unexpected extra argument (3); --set takes KEY=VALUE")


def test_refused_values_are_told_in_french():
    lines = refused("trace", SCENARIO, "--lang", "fr", "--trial", "x", "--seed", "y")
    assert len(lines) == 2 and all("n'est pas un nombre entier" in line for line in lines)


def test_sweep_tells_a_bad_option_with_the_grid_and_the_scenario(tmp_path):
    lines = refused("sweep", SCENARIO, "--grid", "first_aid.level", "--seed", "-1",
                    "--out", str(tmp_path / "o"))  # fmt: skip
    assert flags(lines) == ["--seed", "--grid"]
    lines = refused("sweep", SCENARIO, "--grid", "first_aid.level=1,2", "--trials", "0",
                    "--set", "patient.cp_rs=x", "--out", str(tmp_path / "o"))  # fmt: skip
    assert len(lines) == 2
    assert lines[0].startswith("error: --trials: got 0")
    assert lines[1].startswith("error: --set patient.cp_rs=x (on ")


def test_compare_tells_a_bad_option_with_each_side_once(tmp_path):
    lines = refused("compare", SCENARIO, SCENARIO, "--seed", "-1", "--set-a", "patient.cp_rs=x",
                    "--set-b", "patient.rs_it=y", "--out", str(tmp_path / "o"))  # fmt: skip
    assert len(lines) == 3
    assert lines[0].startswith("error: --seed: got -1")
    assert lines[1].startswith("error: --set-a patient.cp_rs=x (on ")
    assert lines[2].startswith("error: --set-b patient.rs_it=y (on ")
    shared = refused("compare", SCENARIO, SCENARIO, "--trials", "0", "--set", "patient.cp_rs=x",
                     "--out", str(tmp_path / "o"))  # fmt: skip
    assert len(shared) == 2  # the same --set on both sides: told once
    assert shared[1].startswith("error: --set patient.cp_rs=x (on ")
