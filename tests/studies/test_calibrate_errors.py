"""``calibrate`` on bad calibration files: one ``error:`` line naming file, key, expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.studies.calibrate_file import read_calibration
from tests.support import REPO, harmonies_sim

LONE = (Path(__file__).resolve().parents[2] / "scenarios" / "lone_traveller.toml").as_posix()


def calibration(
    key: str = "rules.table.grave.pain",
    low: str = "1",
    high: str = "3",
    scenario: str = LONE,
    stat: str = "p_dead",
    tolerance: str = "0.01",
) -> str:
    return (
        f'name = "bad"\n[[free]]\nkey = "{key}"\nlow = {low}\nhigh = {high}\n'
        f'[[target]]\nscenario = "{scenario}"\nstat = "{stat}"\nvalue = 0.5\n'
        f"tolerance = {tolerance}\n"
    )


CASES = {
    "a key --set does not know": (
        calibration(key="rules.table.grave.foo"),
        ["rules.table.grave.foo", "expected a known key"],
    ),
    "low above high": (
        calibration(low="5", high="3"),
        ["free[0]", "rules.table.grave.pain", "expected LOW smaller than HIGH"],
    ),
    "a duration for an integer cell": (
        calibration(low='"1h"', high='"2h"'),
        ["free[0].low", "'1h'", "expected a range of the key's kind", "integer"],
    ),
    "an integer for a duration cell": (
        calibration(key="rules.table.grave.unstable_period"),
        ["free[0].low", "expected a range of the key's kind", "duration"],
    ),
    "a statistic that does not exist": (
        calibration(stat="p_deadly"),
        ["target[0].stat", "'p_deadly'", "expected p_dead"],
    ),
    "a missing scenario file": (
        calibration(scenario="nowhere.toml"),
        ["target[0].scenario", "'nowhere.toml'", "expected an existing scenario file"],
    ),
    "a folder for a scenario file": (
        calibration(scenario="."),
        ["target[0].scenario", "expected a scenario file", "(a directory: "],
    ),
    "a scenario file that is no TOML": (
        calibration(scenario=LONE.replace("scenarios/lone_traveller.toml", "README.md")),
        ["README.md (target[0].scenario of ", "expected valid TOML"],
    ),
    "a tolerance of zero": (
        calibration(tolerance="0"),
        ["target[0].tolerance", "got 0", "expected a number above 0"],
    ),
    "a tolerance in points, not a share": (
        calibration(tolerance="5"),
        ["target[0].tolerance", "got 5", "below 1", "(5% is 0.05)"],
    ),
    "a tolerance of 1, always met": (
        calibration(tolerance="1"),
        ["target[0].tolerance", "got 1", "below 1", "(1% is 0.01)"],
    ),
    "a tolerance of 500": (
        calibration(tolerance="500"),
        ["target[0].tolerance", "got 500", "below 1, as the target's value is"],
    ),
    "a negative tolerance": (
        calibration(tolerance="-0.1"),
        ["target[0].tolerance", "expected a number above 0"],
    ),
    "a tolerance too fine for any answer (the search overflowed)": (
        calibration(tolerance="1e-300"),
        ["target[0].tolerance", "got 1e-300", "at least 1e-9"],
    ),
    "a range end too large for a float": (
        calibration(low="-1" + "0" * 400, high="1" + "0" * 400),
        ["free[0]", "expected ends of at most 1e15 in size"],
    ),
    "a time past the horizon": (
        calibration(stat="p_dead_by_8d"),
        ["target[0].stat", "horizon"],
    ),
    "a target that sets a free key": (
        calibration().replace(
            "tolerance = 0.01\n", 'tolerance = 0.01\nset = ["rules.table.grave.pain=4"]\n'
        ),
        ["target[0].set", "rules.table.grave.pain=4", "free[0] solves rules.table.grave.pain"],
    ),
    "a target that sets a free key, written with brackets": (
        calibration(key="injuries.0.at", low='"0s"', high='"1h"').replace(
            "tolerance = 0.01\n", 'tolerance = 0.01\nset = ["injuries[0].at=30min"]\n'
        ),
        ["target[0].set", "injuries[0].at=30min", "free[0] solves injuries.0.at"],
    ),
    "a target that sets the table holding a free key": (
        calibration().replace(
            "tolerance = 0.01\n", 'tolerance = 0.01\nset = ["rules.table.grave={pain=4}"]\n'
        ),
        ["target[0].set", "free[0] solves rules.table.grave.pain"],
    ),
    "a negative duration, named at its end": (
        calibration(key="rules.table.grave.unstable_period", low='"-5min"', high='"2h"'),
        ["free[0].low: got '-5min'", "expected an integer, a duration (0s or more)"],
    ),
    "two ends of two kinds, named together": (
        calibration(key="rules.table.grave.unstable_period", low="0", high='"2h"'),
        ["free[0].low, free[0].high: got \"0, '2h'\"", "expected two values of one kind"],
    ),
    "a decimal for an integer key": (
        calibration(key="patient.cp_rs", low="0.5", high="8"),
        ["free[0] patient.cp_rs", "expected two integers, or two probabilities"],
    ),
    "a probability out of range, named at its end": (
        calibration(key="watch.neglect_probability", low="0", high="50"),
        ["free[0].high: got 50", "expected a probability, from 0 to 1"],
    ),
    "a decimal comma in a free end": (
        calibration(key="rules.table.grave.unstable_period", low='"1,5h"', high='"2h"'),
        ["free[0].low: got '1,5h'", "written with a decimal point: 1.5h"],
    ),
    "a decimal comma in a target's value": (
        calibration().replace("value = 0.5", 'value = "0,5"'),
        ["target[0].value: got '0,5'", "a share from 0 to 1, written with a decimal point: 0.5"],
    ),
    "a time past the horizon, with the file's way to lengthen it": (
        calibration(stat="p_dead_by_90d"),
        ["target[0].stat", 'set = ["horizon=90d"] in this target'],
    ),
    "a tolerance with a decimal comma": (
        calibration(tolerance='"0,02"'),
        ["target[0].tolerance", "'0,02'", "written with a decimal point: 0.02"],
    ),
    "a misspelt key of a target": (
        calibration(tolerance="0.01\ntolerence = 0.02"),
        ["target[0].tolerence", "expected a known key", "(did you mean 'tolerance'?)"],
    ),
    "an integer of thousands of digits (Python reads at most 4,300)": (
        calibration(high="9" * 5000),
        ["(file)", "expected valid TOML with numbers of a sensible size"],
    ),
    "arrays nested absurdly deep": (
        calibration(high="[" * 100_000),
        ["(file)", "expected TOML nested a reasonable number of levels deep"],
    ),
    "a name on two lines (it split the printed title)": (
        calibration().replace('name = "bad"', 'name = "bad\\nsecond line"'),
        ["name", "'bad\\nsecond line'", "expected a string, in quotes, on one line"],
    ),
    "a French name with a control character": (
        calibration().replace('name = "bad"', 'name = "bad"\nname_fr = "mauvais\\u0007"'),
        ["name_fr", "expected a string, in quotes, without control characters"],
    ),
    "a key that holds a name": (
        calibration(key="name", low='"5min"', high='"2h"'),
        ["free[0].key", "'name'", "expected a key that holds an integer, a duration"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_calibration_file_is_one_error_line_naming_file_key_and_expected(tmp_path, case):
    text, words = CASES[case]
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), ran.stderr
    assert "Traceback" not in ran.stderr
    assert str(path) in lines[0] or "bad.toml" in lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert not (tmp_path / "out").exists()  # refused before anything ran or was written


def test_a_calibration_file_longer_than_a_scenario_may_be_is_refused_unread(tmp_path):
    """It was read whole, however long: ``calibrate /dev/zero`` filled memory until the
    process was killed. It is read as a scenario file is, at most 1 MB."""
    path = tmp_path / "huge.toml"
    path.write_text("# " + "x" * 1_000_000 + "\n", encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--out", tmp_path / "out")
    assert ran.returncode == 2, ran.stderr
    expected = f"error: {path}: (file): got '{path}'; expected a calibration file of at most 1 MB"
    assert ran.stderr == expected + "\n"


def test_a_missing_calibration_file_names_itself(tmp_path):
    ran = harmonies_sim("calibrate", tmp_path / "none.toml", "--quiet")
    assert ran.returncode == 2
    assert ran.stderr.count("error:") == 1
    assert "none.toml" in ran.stderr and "an existing calibration file" in ran.stderr


def test_a_scenario_given_as_a_calibration_file_is_one_line_saying_so(tmp_path):
    # it was ten lines, one per key of the scenario, and "free: missing", "target: missing"
    done = harmonies_sim("calibrate", LONE, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error: {LONE}: (file): ")
    assert "expected a calibration file" in lines[0] and "this is a scenario file" in lines[0]
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("command", ["run", "validate", "trace"])
def test_a_calibration_file_given_as_a_scenario_is_one_line_saying_so(tmp_path, command):
    # it was five lines: "free" and "target" unknown keys, horizon and the attributes missing
    texts = REPO / "calibrations" / "texts.toml"
    done = harmonies_sim(command, texts, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error: {texts}: (file): ")
    assert "expected a scenario file" in lines[0] and "this is a calibration file" in lines[0]
    assert "harmonies-sim calibrate" in lines[0]


def test_a_target_naming_a_calibration_file_says_so(tmp_path):
    (tmp_path / "other.toml").write_text(calibration(), encoding="utf-8")
    path = tmp_path / "cal.toml"
    path.write_text(calibration(scenario="other.toml"), encoding="utf-8")
    with pytest.raises(UserError) as info:
        read_calibration(path)
    said = str(info.value)
    assert "this is a calibration file" in said, said
    assert "horizon" not in said and "free: got" not in said, said


def test_exact_refuses_trials(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(calibration(), encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--exact", "--trials", "100")
    assert ran.returncode == 2 and ran.stderr.startswith("error: --trials")


def test_errors_speak_french(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(calibration(tolerance="0"), encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--lang", "fr", "--out", tmp_path / "out")
    assert ran.returncode == 2
    assert "un nombre supérieur à 0" in ran.stderr


MANY_MISTAKES = f"""name = "many mistakes"
colour = "red"
[[free]]
key = "rules.table.grave.unstable_period"
low = "0s"
high = "1d"
[[free]]
key = "patient.cp_rs"
low = -1
high = 1e9
[[free]]
key = "first_aid.level"
low = 5
[[target]]
scenario = "{LONE}"
stat = "p_dead_by_1d"
value = 1.5
[[target]]
scenario = "{LONE}"
stat = "p_dead_by_1d"
value = 0.5
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_file_with_five_mistakes_gets_five_error_lines(tmp_path, lang):
    """CONTRACT: one ``error:`` line per problem (stop 44's fuzz round: one at a time)."""
    path = tmp_path / "many.toml"
    path.write_text(MANY_MISTAKES, encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--lang", lang, "--out", tmp_path / "out")
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert all(line.startswith("error: ") for line in lines) and len(lines) == 5, ran.stderr
    keys = ["colour", "free[1]", "free[2].high", "target[0].value", "unstable_period"]
    for line, key in zip(lines, keys, strict=True):
        assert key in line and "many.toml" in line, (key, line)
    assert "Traceback" not in ran.stderr
    assert not (tmp_path / "out").exists()
    if lang == "fr":  # the table is named in French too
        assert "la racine du fichier (hors de toute table) accepte" in lines[0]
        assert "the top level" not in ran.stderr


def test_each_mistake_of_one_target_gets_its_line(tmp_path):
    """A target with four mistakes: four lines, not the first alone (stop 44's note)."""
    path = tmp_path / "target.toml"
    text = MANY_MISTAKES.split("[[free]]")[0].replace('colour = "red"\n', "")
    text += '[[free]]\nkey = "first_aid.level"\nlow = 0\nhigh = 5\n'
    text += '[[target]]\nscenario = "missing.toml"\nstat = "p_deadd"\nvalue = 1.5\n'
    text += "tolerance = -1\n"
    path.write_text(text, encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--out", tmp_path / "out")
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    keys = ["target[0].scenario", "target[0].stat", "target[0].value", "target[0].tolerance"]
    assert len(lines) == len(keys), ran.stderr
    for line, key in zip(lines, keys, strict=True):
        assert line.startswith("error: ") and key in line, (key, line)
    assert "Traceback" not in ran.stderr and not (tmp_path / "out").exists()


def test_a_target_set_line_that_is_no_key_value_names_the_file_and_target(tmp_path):
    path = tmp_path / "sets.toml"
    text = 'name = "sets"\n[[free]]\nkey = "first_aid.level"\nlow = 0\nhigh = 5\n'
    text += f'[[target]]\nscenario = "{LONE}"\nstat = "p_dead"\nvalue = 0.5\n'
    text += "set = ['rules[\"x\"]=0']\n"
    path.write_text(text, encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--out", tmp_path / "out")
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    line = ran.stderr.strip().splitlines()[0]
    assert line.startswith(f"error: {path}: target[0].set: "), line  # not "--set:"


def test_a_limit_met_during_the_search_is_one_error_line(tmp_path):
    """scipy's search wraps what its function raises; the user's error comes out as it is."""
    path = tmp_path / "big.toml"
    careless = LONE.replace("lone_traveller", "careless_watches")
    path.write_text(calibration("patient.cp_rs", "5", "15", careless, "p_dead"), encoding="utf-8")
    ran = harmonies_sim(
        "calibrate", path, "--exact", "--max-states", "1000", "--out", tmp_path / "out"
    )
    assert ran.returncode == 2, ran.stderr
    assert "Traceback" not in ran.stderr and ran.stderr.count("error:") == 1
    assert "over --max-states (1,000); raise --max-states or --eps" in ran.stderr


@pytest.mark.parametrize("flag", ["--eps", "--max-states", "--time-budget"])
def test_the_exact_limits_are_refused_with_monte_carlo(tmp_path, flag):
    """Without --exact they bound the default choice (exact when every target allows it);
    with --trials the search is sampled, and they are refused."""
    path = tmp_path / "ok.toml"
    path.write_text(calibration(), encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--trials", "100", flag, "10", "--out", tmp_path / "out")
    assert ran.returncode == 2
    assert ran.stderr.startswith(f"error: {flag}: given with --trials or --seed"), ran.stderr


def test_the_default_choice_takes_the_exact_limits(tmp_path):
    """The message of a budget met says 'raise --max-states': calibrate takes it without --exact."""
    path = tmp_path / "ok.toml"
    path.write_text(calibration(), encoding="utf-8")
    ran = harmonies_sim(
        "calibrate", path, "--max-states", "5000000", "--json", "--out", tmp_path / "out"
    )
    assert ran.returncode == 0, ran.stderr
    assert '"method": "exact"' in ran.stdout


@pytest.mark.parametrize("flag", ["--eps", "--max-states", "--time-budget"])
def test_a_bad_exact_limit_is_refused_without_exact_too(tmp_path, flag):
    """It bounds the default choice: 0 is no limit to give, with --exact or without."""
    path = tmp_path / "ok.toml"
    path.write_text(calibration(), encoding="utf-8")
    ran = harmonies_sim("calibrate", path, flag, "0", "--workers", "1", "--out", tmp_path / "o")
    assert ran.returncode == 2 and ran.stderr.startswith(f"error: {flag}: got 0"), ran.stderr


def test_a_second_target_of_one_scenario_is_never_given_another_targets_file_name(tmp_path):
    """lone_traveller twice and a lone_traveller-2.toml: three files, each under its own name."""
    import shutil

    from simulator.studies.calibrate_file import read_calibration
    from simulator.studies.calibrate_result import CalibrationResult

    shutil.copy(LONE, tmp_path / "lone_traveller.toml")
    shutil.copy(LONE, tmp_path / "lone_traveller-2.toml")
    text = calibration(scenario="lone_traveller.toml")
    again = text[text.index("[[target]]") :]
    text += again.replace("tolerance = 0.01", 'set = ["patient.cp_rs=3"]')
    text += '[[target]]\nscenario = "lone_traveller-2.toml"\nstat = "p_dead"\nvalue = 0.5\n'
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    result = CalibrationResult.__new__(CalibrationResult)
    result.calibration = read_calibration(path)
    assert result.calibrated_names() == [
        "lone_traveller.calibrated.toml",
        "lone_traveller-3.calibrated.toml",  # past lone_traveller-2, another target's own
        "lone_traveller-2.calibrated.toml",
    ]
    written = CalibrationResult.files(result.calibration.targets)
    assert set(result.calibrated_names()) <= set(written)


def test_a_bad_free_key_is_told_beside_a_broken_target(tmp_path):
    """The free key was checked only on a target read well: with the target's stat and
    tolerance wrong too, it came a round later. Now three mistakes, three lines."""
    path = tmp_path / "three.toml"
    key = "rules.table.grave.unstable_priod"
    text = calibration(key=key, low='"5min"', high='"2h"', stat="p_deadd", tolerance="-1")
    path.write_text(text, encoding="utf-8")
    ran = harmonies_sim("calibrate", path, "--out", tmp_path / "out")
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 3, ran.stderr
    assert "target[0].stat" in lines[0] and "target[0].tolerance" in lines[1]
    assert "free rules.table.grave.unstable_priod=5min" in lines[2]
    assert "did you mean 'unstable_period'?" in lines[2]
    assert "Traceback" not in ran.stderr and not (tmp_path / "out").exists()


def test_calibrate_names_a_method_that_is_not_one(tmp_path):
    """``calibrate(path, "exact")`` was an AttributeError, as run_study's was."""
    from simulator.errors import UserError
    from simulator.studies import Exact
    from simulator.studies.calibrate_study import calibrate

    path = tmp_path / "c.toml"
    path.write_text(calibration(), encoding="utf-8")
    for method in ("exact", Exact):
        with pytest.raises(UserError, match=r"method: got .* expected MonteCarlo"):
            calibrate(path, method)


@pytest.mark.parametrize(
    ("key", "low", "kind"),
    [("first_aid.level", '"0"', "integer"), ("watch.neglect_probability", '"0.1"', "probability")],
)
def test_a_numbers_end_written_in_quotes_is_refused_as_a_scenario_file_refuses_it(
    tmp_path, key, low, kind
):
    """``low = "0"`` for a level was taken; a scenario file refuses ``level = "0"``."""
    (tmp_path / "g.toml").write_text(
        (REPO / "scenarios" / "geraldine.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = tmp_path / "cal.toml"
    path.write_text(
        f'name = "q"\n[[free]]\nkey = "{key}"\nlow = {low}\nhigh = 1\n'
        '[[target]]\nscenario = "g.toml"\nstat = "p_dead"\nvalue = 0.5\n',
        encoding="utf-8",
    )
    with pytest.raises(UserError, match=rf"free\[0\]\.low: got '.*'; expected a number \({kind}\) "
                       "written without quotes"):  # fmt: skip
        read_calibration(path)


def test_a_free_end_with_a_unit_spelt_otherwise_is_told_the_unit_meant():
    """``low = "5mn"`` in a ``[[free]]`` gets the hint a scenario file's ``start = "5mn"``
    gets: did you mean '5min'?"""
    text = calibration(key="rules.table.grave.unstable_period", low='"5mn"', high='"2h"')
    with pytest.raises(UserError) as refused:
        read_calibration_text(text)
    assert "free[0].low: got '5mn'" in str(refused.value)
    assert "(did you mean '5min'?)" in str(refused.value)


def test_a_misspelt_key_of_a_free_key_is_told_with_the_key_it_leaves_missing():
    """``keys = ...`` in a ``[[free]]``: the unknown key and the missing ``key``, both told,
    as a scenario file tells ``first_aid.intervall`` and ``first_aid.interval``."""
    text = calibration(key="rules.table.grave.unstable_period", low='"5min"', high='"2h"')
    with pytest.raises(UserError) as refused:
        read_calibration_text(text.replace('key = "', 'keys = "'))
    told = str(refused.value).splitlines()
    assert len(told) == 2, told
    assert "free[0].keys: got" in told[0] and "(did you mean 'key'?)" in told[0]
    assert "free[0].key: missing" in told[1]


def test_a_top_level_key_written_below_a_table_says_where_it_belongs():
    """``name_fr`` below ``[[target]]`` is ``target[0].name_fr`` to TOML: told as a scenario
    file tells ``horizon`` written below ``[patient]``."""
    with pytest.raises(UserError) as refused:
        read_calibration_text(calibration() + 'name_fr = "mauvais"\n')
    assert "target[0].name_fr" in str(refused.value)
    assert "name_fr is a key of the top level" in str(refused.value)


def test_a_probability_end_written_as_a_percent_is_told_as_a_number():
    """``low = "5%"`` for a probability key: told as a scenario file tells it (0.05)."""
    text = calibration(key="watch.neglect_probability", low='"5%"', high="0.5")
    with pytest.raises(UserError) as refused:
        read_calibration_text(text)
    assert "free[0].low: got '5%'; expected a probability" in str(refused.value)
    assert "5% is written 0.05" in str(refused.value)


def read_calibration_text(text: str):
    """Read a calibration file of this text (in a folder of its own, gone after)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.toml"
        path.write_text(text, encoding="utf-8")
        return read_calibration(path)
