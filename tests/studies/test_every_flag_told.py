"""Every flag's mistake told in one go: a bad ``--set`` no longer hides the grid's, the range's,
the target's or the notches' (CONTRACT: one ``error:`` line per problem).

A designer who typed two mistakes fixes both after one run, not one run each. Nothing runs:
each call is refused before its first trial.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.errors import CombinedUserError, ScenarioError, UserError
from simulator.studies import Exact, MonteCarlo, balance, run_sweep, sensitivity
from tests.support import told

GERALDINE = Path(__file__).resolve().parents[2] / "scenarios" / "geraldine.toml"
METHOD = MonteCarlo(trials=10, seed=0, workers=1)
EXACT = Exact()


def test_a_sweep_tells_a_bad_set_and_a_bad_grid_together(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        run_sweep(GERALDINE, {"bar": [1]}, METHOD, overrides=["foo=1"], out=tmp_path / "o")
    lines = told(caught.value)
    assert [line.split(" ", 1)[0] for line in lines] == ["overrides:", "grid:"], lines
    assert "foo" in lines[0] and "bar" in lines[1]
    assert not (tmp_path / "o").exists()  # refused before any folder was made


def test_balance_tells_its_range_its_target_and_its_set_together(tmp_path: Path) -> None:
    with pytest.raises(CombinedUserError) as caught:
        balance(GERALDINE, "first_aid.level=1..x", "p_dead=0,5", EXACT, overrides=["foo=1"],
                out=tmp_path / "o")  # fmt: skip
    lines = told(caught.value)
    assert [line.split(" ", 1)[0] for line in lines] == ["vary:", "target:", "overrides:"], lines
    assert "p_dead=0.5" in lines[1]  # the decimal point, as a French hand would not write it
    with pytest.raises(CombinedUserError) as unknown:
        balance(GERALDINE, "first_aid.level=1..3", "p_deadx=0.5", EXACT, overrides=["foo=1"])
    assert [line.split(" ", 1)[0] for line in told(unknown.value)] == ["target:", "overrides:"]
    with pytest.raises(CombinedUserError) as key:  # a key the scenario does not know, too
        balance(GERALDINE, "patient.nope=1..3", "p_foo=0.5", EXACT)
    lines = told(key.value)
    assert [line.split(" ", 1)[0] for line in lines] == ["target:", "vary:"], lines
    assert "patient.nope" in lines[1] and "expected a known key" in lines[1]


def test_sensitivity_tells_its_statistic_its_set_and_every_notch_together() -> None:
    with pytest.raises(CombinedUserError) as caught:
        sensitivity(GERALDINE, EXACT, stat="p_deadx", overrides=["foo=1"])
    lines = told(caught.value)
    assert [line.split(" ", 1)[0] for line in lines] == ["stat:", "overrides:"], lines
    with pytest.raises(CombinedUserError) as notches:
        sensitivity(GERALDINE, EXACT, keys=["first_aid.level", "bar"],
                    notch=["first_aid.level=5,9", "patient.cp_rs=x,2"])  # fmt: skip
    lines = told(notches.value)
    assert len(lines) == 3, lines
    assert lines[0].startswith("notch: first_aid.level: got 5,9 around 0")
    assert lines[1].startswith("keys: bar: the scenario has no such key")
    assert lines[2].startswith("notch: patient.cp_rs: got 'x,2'")


def test_a_range_or_notch_end_refused_is_quoted_as_typed_not_re_expressed() -> None:
    """36526d (one day past the hundred years a duration may last) stays 36526d in the refusal,
    not the same length re-expressed as 5218w."""
    with pytest.raises(ScenarioError) as caught:
        balance(GERALDINE, "horizon=1d..36526d", "p_dead=0.5", EXACT)
    assert told(caught.value) == [
        "vary: horizon=36526d (on " + str(GERALDINE) + "): horizon: got '36526d'; expected a "
        'duration of one second or more, up to 36525d (100 years), with a unit, e.g. "15s", '
        '"15min", "1.5h", "2d"'
    ]
    with pytest.raises(ScenarioError) as notch:
        sensitivity(GERALDINE, EXACT, keys=["horizon"], notch=["horizon=1d, 36526d"])
    assert told(notch.value)[0].startswith("notch: horizon=36526d (on ")
    assert "got '36526d'" in told(notch.value)[0]


def test_a_scenario_without_injuries_is_said_never_wounded_once(tmp_path: Path) -> None:
    """`run` printed "heals 100.0%, median time to heal 0 s" without a word for a scenario
    whose [[injuries]] were forgotten."""
    from simulator.errors import HarmoniesNote
    from simulator.studies import run_study

    file = tmp_path / "none.toml"
    file.write_text('name = "none"\nhorizon = "3d"\n[patient]\ncp_rs = 8\nrs_it = 8\n',
                    encoding="utf-8")  # fmt: skip
    with pytest.warns(HarmoniesNote) as told_notes:
        done = run_study(file, EXACT, figures=False)
        run_study(file, EXACT, figures=False)  # once per scenario in a process
    said = [str(w.message) for w in told_notes]
    assert said == [f"{file}: no [[injuries]]: the patient is never wounded, and every trial "
                    "ends healed at 0 h"]  # fmt: skip
    assert done.summary_json()["p_healed"] == 1.0


def test_small_refusals_say_what_is_true(tmp_path: Path) -> None:
    """`serve notes.py` said "no such scenario file" of a file that exists; `--target
    p_dead=-0` was shown as a target of -0.0%."""
    from simulator.studies.balance_study import parse_target
    from simulator.web.folder import Folder

    notes = tmp_path / "notes.py"
    notes.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"not a scenario file \(its name does not end in \.toml\)"):
        Folder.of(notes)
    with pytest.raises(UserError, match="no such scenario file or folder"):
        Folder.of(tmp_path / "missing.toml")
    stat, goal = parse_target("p_dead=-0")
    assert str(goal) == "0.0" and stat.text == "p_dead"


def test_the_systems_reason_is_said_in_french_too(tmp_path: Path) -> None:
    """`pas un dossier où l'on peut écrire (Not a directory)`: the reason was English."""
    from simulator.cli.common import _error_lines
    from simulator.studies import run_study

    (tmp_path / "afile").write_text("x", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        run_study(GERALDINE, EXACT, out=tmp_path / "afile" / "sub")
    assert "(Not a directory)" in str(caught.value)
    (french,) = _error_lines(caught.value, "fr")
    assert "(pas un dossier)" in french and "Not a directory" not in french, french
