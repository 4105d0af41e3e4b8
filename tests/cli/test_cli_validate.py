"""``harmonies-sim validate``: every class of bad input is one clear line per problem, exit 2."""

import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.errors import UserError
from tests.support import harmonies_sim

REPO = Path(__file__).resolve().parents[2]

TOP = 'name = "t"\nhorizon = "2d"\n'
PATIENT = "[patient]\ncp_rs = 8\nrs_it = 8\n"
AID = '[first_aid]\nstart = "5min"\ninterval = "5min"\n'


def make(top: str = TOP, patient: str = PATIENT, rest: str = "") -> str:
    return top + patient + rest


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return path


def validate(*args: str):
    return CliRunner().invoke(main, ["validate", *args])


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return harmonies_sim("validate", *args, cwd=REPO, env=env, timeout=60)


# (id, file text, overrides, the key named, the value as shown)
BAD = [
    # TOML syntax, with its line
    (
        "toml-syntax",
        make(rest="[watch]\nneglect_at = [12h]\n"),
        (),
        "line 7",
        "'neglect_at = [12h]'",
    ),
    ("toml-unfinished", make(rest="[watch]\nneglect_at = [\n"), (), "end of file", "missing"),
    # unknown keys at any level, with a suggestion
    ("unknown-top", make(top=TOP + 'nmae = "x"\n'), (), "nmae", "did you mean 'name'?"),
    ("unknown-patient", make(patient=PATIENT + "cp_rss = 1\n"), (), "patient.cp_rss", "1"),
    ("unknown-aid", make(rest=AID + "intervall = 3\n"), (), "first_aid.intervall", "'interval'"),
    ("unknown-table", make(rest="[rules.table.grav]\nmax = 1\n"), (), "rules.table.grav", "max"),
    (
        "unknown-cell",
        make(rest='[rules.table.grave]\nunstable_perod = "1h"\n'),
        (),
        "rules.table.grave.unstable_perod",
        "did you mean 'unstable_period'?",
    ),
    (
        "unknown-injury",
        make(rest='[[injuries]]\nat = "0s"\nlevel = "light"\nlevle = 1\n'),
        (),
        "injuries[0].levle",
        "1",
    ),
    ("unknown-rules", make(rest="[rules]\ntie_succeed = true\n"), (), "rules.tie_succeed", "true"),
    # wrong types; a bool is not an integer
    (
        "bool-not-int",
        make(patient="[patient]\ncp_rs = true\nrs_it = 8\n"),
        (),
        "patient.cp_rs",
        "true",
    ),
    (
        "str-not-int",
        make(patient='[patient]\ncp_rs = 8\nrs_it = "8"\n'),
        (),
        "patient.rs_it",
        "'8'",
    ),
    ("float-not-int", make(rest=AID + "level = 1.5\n"), (), "first_aid.level", "1.5"),
    ("int-not-str", make(top='name = 3\nhorizon = "2d"\n'), (), "name", "3"),
    ("str-not-bool", make(rest=AID + 'self = "yes"\n'), (), "first_aid.self", "'yes'"),
    ("not-a-table", make(top=TOP + "watch = 3\n"), (), "watch", "3"),
    (
        "not-an-array",
        make(rest='[injuries]\nlevel = "grave"\n'),
        (),
        "injuries",
        '{level = "grave"}',
    ),
    # bad durations
    (
        "duration-words",
        make(top='name = "t"\nhorizon = "15 minutes"\n'),
        (),
        "horizon",
        "'15 minutes'",
    ),
    (
        "duration-negative",
        make(rest='[[injuries]]\nat = "-1h"\nlevel = "grave"\n'),
        (),
        "injuries[0].at",
        "'-1h'",
    ),
    (
        "duration-no-unit",
        make(rest='[first_aid]\nstart = 15\ninterval = "5min"\n'),
        (),
        "first_aid.start",
        "15",
    ),
    (
        "duration-in-list",
        make(rest='[watch]\nneglect_at = ["12h", "1 day"]\n'),
        (),
        "watch.neglect_at[1]",
        "'1 day'",
    ),
    (
        "faint-duration",
        make(rest='[rules]\nfaint_duration = "15"\n'),
        (),
        "rules.faint_duration",
        "'15'",
    ),
    # zero where it is not allowed
    (
        "zero-interval",
        make(rest='[first_aid]\nstart = "0s"\ninterval = "0s"\n'),
        (),
        "first_aid.interval",
        "'0s'",
    ),
    ("zero-horizon", make(top='name = "t"\nhorizon = "0d"\n'), (), "horizon", "'0d'"),
    (
        "zero-period",
        make(rest='[rules.table.light]\nheal_period = "0s"\n'),
        (),
        "rules.table.light.heal_period",
        "'0s'",
    ),
    # unknown levels
    (
        "unknown-level",
        make(rest='[[injuries]]\nat = "0s"\nlevel = "grav"\n'),
        (),
        "injuries[0].level",
        "did you mean 'grave'?",
    ),
    (
        "unknown-maxima-level",
        make(patient=PATIENT + "[patient.maxima]\nheavy = 1\n"),
        (),
        "patient.maxima.heavy",
        "1",
    ),
    # counts out of range
    (
        "count-zero",
        make(rest='[[injuries]]\nat = "0s"\nlevel = "grave"\ncount = 0\n'),
        (),
        "injuries[0].count",
        "0",
    ),
    ("attempts-zero", make(rest=AID + "max_attempts = 0\n"), (), "first_aid.max_attempts", "0"),
    (
        "maxima-negative",
        make(patient=PATIENT + "[patient.maxima]\nlight = -1\n"),
        (),
        "patient.maxima.light",
        "-1",
    ),
    (
        "table-max-negative",
        make(rest="[rules.table.grave]\nmax = -2\n"),
        (),
        "rules.table.grave.max",
        "-2",
    ),
    (
        "pain-recovery",
        make(rest="[rules]\npain_recovery_per_hour = -1\n"),
        (),
        "rules.pain_recovery_per_hour",
        "-1",
    ),
    (  # P1: fractions are allowed (0.5), words are not
        "pain-recovery-string",
        make(rest='[rules]\npain_recovery_per_hour = "0.5"\n'),
        (),
        "rules.pain_recovery_per_hour",
        "a number from 0",
    ),
    (
        "pain-recovery-nan",
        make(rest="[rules]\npain_recovery_per_hour = nan\n"),
        (),
        "rules.pain_recovery_per_hour",
        "nan",
    ),
    (  # R4
        "rest-after-unstable",
        make(rest='[rules]\nrest_after_unstable = "resme"\n'),
        (),
        "rules.rest_after_unstable",
        "did you mean 'resume'?",
    ),
    (  # G3
        "rest-per-level",
        make(rest='[rules]\nrest_per_level = "cumulativ"\n'),
        (),
        "rules.rest_per_level",
        "did you mean 'cumulative'?",
    ),
    (  # A1
        "self-aid-pain-factor",
        make(rest="[rules]\nself_aid_pain_factor = -1\n"),
        (),
        "rules.self_aid_pain_factor",
        "-1",
    ),
    (  # X1
        "activity-breaks-rest",
        make(rest='[rules]\nactivity_breaks_rest = "yes"\n'),
        (),
        "rules.activity_breaks_rest",
        "true or false",
    ),
    (  # P1
        "pain-floor-craziness",
        make(rest="[rules]\npain_floor_craziness = 1\n"),
        (),
        "rules.pain_floor_craziness",
        "true or false",
    ),
    (  # a mistyped setting's name
        "unknown-setting",
        make(rest="[rules]\nrest_per_levels = 'fresh'\n"),
        (),
        "rules.rest_per_levels",
        "did you mean 'rest_per_level'?",
    ),
    # probabilities outside 0..1
    (
        "neglect-probability",
        make(rest="[watch]\nneglect_probability = 1.5\n"),
        (),
        "watch.neglect_probability",
        "1.5",
    ),
    (
        "trigger-probability",
        make(rest="[rules]\ntrigger_probability = -0.1\n"),
        (),
        "rules.trigger_probability",
        "-0.1",
    ),
    # missing required keys
    ("missing-name", make(top='horizon = "2d"\n'), (), "name", "missing"),
    ("missing-horizon", make(top='name = "t"\n'), (), "horizon", "missing"),
    ("missing-cp-rs", make(patient="[patient]\nrs_it = 8\n"), (), "patient.cp_rs", "missing"),
    ("missing-rs-it", make(patient=""), (), "patient.rs_it", "missing"),
    (
        "missing-start",
        make(rest='[first_aid]\ninterval = "5min"\n'),
        (),
        "first_aid.start",
        "missing",
    ),
    (
        "missing-interval",
        make(rest='[first_aid]\nstart = "5min"\n'),
        (),
        "first_aid.interval",
        "missing",
    ),
    ("missing-level", make(rest='[[injuries]]\nat = "1h"\n'), (), "injuries[0].level", "missing"),
    # unknown ruleset and profile (the known ones are listed)
    ("ruleset", make(top=TOP + 'ruleset = "advanced"\n'), (), "ruleset", "arpeges, basic"),
    (
        "profile",
        make(patient=PATIENT + 'profile = "dragon"\n'),
        (),
        "patient.profile",
        "humanoid, hydra, thick_skin, worm",
    ),
    # bad table cells
    (
        "cell-int",
        make(rest='[rules.table.critical]\ndifficulty = "-5"\n'),
        (),
        "rules.table.critical.difficulty",
        "'-5'",
    ),
    (
        "cell-period",
        make(rest="[rules.table.shock]\nwatch_period = 6\n"),
        (),
        "rules.table.shock.watch_period",
        "6",
    ),
    # --set: syntax, and values checked like the file's
    ("set-no-equals", make(), ("first_aid.level",), "--set: first_aid.level", "'first_aid.level'"),
    ("set-bad-value", make(), ("first_aid.level=3",), "first_aid.start", "missing"),
    ("set-bad-duration", make(rest=AID), ("first_aid.interval=0s",), "first_aid.interval", "'0s'"),
    ("set-not-a-table", make(), ("name.first=1",), "name.first", "not a table"),
    ("set-no-item", make(), ("injuries.0.at=1h",), "injuries.0.at", "there is none"),
]


@pytest.mark.parametrize(
    ("text", "overrides", "key", "shown"), [c[1:] for c in BAD], ids=[c[0] for c in BAD]
)
def test_bad_input_is_one_clear_line_and_exit_2(tmp_path, text, overrides, key, shown):
    path = write(tmp_path, text)
    args = [str(path)]
    for override in overrides:
        args += ["--set", override]
    result = validate(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if key in line]
    assert lines, result.output
    assert lines[0].startswith("error: ")
    assert shown in lines[0], result.output
    if not key.startswith("--set"):
        # A problem an override brought names the override (and the file); others the file.
        source = f"--set {overrides[-1]} (on {path})" if overrides else str(path)
        assert lines[0].startswith(f"error: {source}: {key}: ")


def test_values_beyond_the_horizon_are_fine(tmp_path):
    rest = '[[injuries]]\nat = "3w"\nlevel = "grave"\n[[activities]]\nat = "5w"\n'
    result = validate(str(write(tmp_path, make(rest=rest))))
    assert result.exit_code == 0, result.output


def test_several_problems_are_listed_at_once(tmp_path):
    text = """name = 3
horizon = "-2d"
[patient]
cp_rs = true
[first_aid]
start = "soon"
interval = "0min"
[watch]
neglect_probability = 7
"""
    result = validate(str(write(tmp_path, text)), "--set", "bogus")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    keys = [line.split(": ")[2] for line in errors]
    assert keys == [
        "bogus",
        "name",
        "horizon",
        "patient.cp_rs",
        "patient.rs_it",
        "first_aid.start",
        "first_aid.interval",
        "watch.neglect_probability",
    ]


def test_missing_file_is_a_clear_error(tmp_path):
    path = tmp_path / "absent.toml"
    result = validate(str(path))
    assert result.exit_code == 2
    assert f"error: {path}: (file): got '{path}'; expected an existing scenario file" in (
        result.output
    )


@pytest.mark.parametrize("text", ["", "# to be written\n\n"])
def test_an_empty_file_is_one_line_that_says_it_is_empty(tmp_path, text):
    """An empty file (or comments alone) was four lines of missing keys, never its cause."""
    path = write(tmp_path, text)
    result = validate(str(path))
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: {path}: (file): got '{path}'; expected a scenario, not an empty file (it holds "
        "no key, only blank lines or comments): name, horizon and [patient] at least"
    ]
    with_set = validate(str(path), "--set", 'name="x"')  # what it lacks, then, key by key
    assert with_set.exit_code == 2 and "horizon: missing" in with_set.output


def test_a_file_in_latin1_names_its_foreign_byte_and_where_it_is(tmp_path):
    """It was 'expected a UTF-8 text file', with no word of where the file is not."""
    path = tmp_path / "bad.toml"
    path.write_bytes(make().replace('"t"', '"Fi\xe8vre"').encode("latin-1"))
    result = validate(str(path))
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: {path}: (file): got '{path}'; expected a UTF-8 text file (its byte 0xe8 at "
        "line 1, column 11 is no UTF-8: the file was saved in another encoding, such as "
        "Latin-1 or Windows-1252; save it as UTF-8)"
    ]


def test_directory_is_a_clear_error(tmp_path):
    result = validate(str(tmp_path))
    assert result.exit_code == 2
    assert "not a directory" in result.output


def test_ok_summary(tmp_path):
    rest = AID + '[[injuries]]\nat = "0s"\nlevel = "light"\ncount = 2\n'
    rest += '[[injuries]]\nat = "0s"\nlevel = "grave"\n'
    path = write(tmp_path, make(rest=rest))
    result = validate(str(path), "--set", "first_aid.level=2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f'ok: {path}: "t" (ruleset arpeges, horizon 2d, ')
    assert "2 injuries (3 wounds)" in result.output
    assert "first aid level 2 from 5min every 5min" in result.output
    result = validate(str(path), "--set", "first_aid.level=2", "--set", "first_aid.self=true")
    assert result.exit_code == 0, result.output  # A1: self-treatment at the patient's level
    assert "first aid by the patient, level 2, from 5min every 5min" in result.output


def test_real_command_line_accepts_a_good_file(tmp_path):
    injury = '[[injuries]]\nat = "0s"\nlevel = "light"\n'
    path = write(tmp_path, make(top=TOP + 'ruleset = "basic"\n', rest=injury))
    done = cli(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f'ok: {path}: "t" (ruleset basic, horizon 2d')
    assert done.stderr == ""
    bare = cli(str(write(tmp_path, make())))  # valid, but nobody is ever wounded: said
    assert bare.returncode == 0 and "no [[injuries]]: the patient is never wounded" in bare.stderr


def test_real_command_line_reports_toml_errors_with_their_line(tmp_path):
    text = make(top='name = "t"\nhorizon = "15 minutes"\n', rest=AID + "interval = 1\n")
    done = cli(str(write(tmp_path, text)), "--set", "patient.cp_rs=true", "--set", "nope")
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    # a TOML key given twice is a TOML error, reported with its line and the bad --set syntax
    assert len(lines) == 2
    assert lines[0].startswith("error: --set: nope: got 'nope'; expected KEY=VALUE")
    assert lines[1].startswith(f"error: {tmp_path / 'bad.toml'}: line 9: got 'interval = 1'")


def test_real_command_line_lists_all_problems(tmp_path):
    text = make(top='name = "t"\nhorizon = "15 minutes"\n', rest=AID.replace("5min", "0s"))
    done = cli(str(write(tmp_path, text)), "--set", "patient.cp_rs=true", "--set", "nope")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "error: --set: nope: got 'nope'; expected KEY=VALUE with a dotted KEY, "
        "e.g. first_aid.level=3",
        f"error: {tmp_path / 'bad.toml'}: horizon: got '15 minutes'; expected a duration "
        'of one second or more, up to 36525d (100 years), with a unit, e.g. "15s", "15min", '
        '"1.5h", "2d" (did you mean \'15min\'?)',
        f"error: --set patient.cp_rs=true (on {tmp_path / 'bad.toml'}): patient.cp_rs: got true; "
        "expected an integer from -1000 to 1000",
        f"error: {tmp_path / 'bad.toml'}: first_aid.interval: got '0s'; expected a duration "
        'of one second or more, up to 36525d (100 years), with a unit, e.g. "15s", "15min", '
        '"1.5h", "2d"',
    ]


def test_validate_show_prints_a_scenario_file_with_every_default_and_override(tmp_path):
    import dataclasses
    import tomllib

    from simulator.scenario.reading import load_scenario

    source = REPO / "scenarios" / "geraldine.toml"
    overrides = ["--set", "first_aid.level=3", "--set", "rules.table.grave.pain=6"]
    overrides += ["--set", 'rules.rest_after_unstable="resume"']
    overrides += ["--set", "rules.pain_recovery_per_hour=0.5"]
    shown = validate(str(source), "--show", *overrides)
    assert shown.exit_code == 0, shown.output
    data = tomllib.loads(shown.output)
    assert data["first_aid"]["level"] == 3 and data["rules"]["open_roll"] is False
    assert data["rules"]["table"] == {"grave": {"pain": 6}}
    assert data["rules"]["rest_after_unstable"] == "resume"  # R4
    assert data["rules"]["pain_recovery_per_hour"] == 0.5  # P1
    assert data["rules"]["rest_per_level"] == "fresh"  # G3, its default
    assert "--set first_aid.level=3" in shown.output.splitlines()[0]
    path = tmp_path / "shown.toml"
    path.write_text(shown.output, encoding="utf-8")
    expected = load_scenario(source, [o for o in overrides if o != "--set"])
    assert dataclasses.replace(load_scenario(path), source="") == dataclasses.replace(
        expected, source=""
    )
    bad = validate(str(source), "--show", "--set", "first_aid.levl=3")
    assert bad.exit_code == 2 and "levl" in bad.output


def test_a_problem_an_override_brought_names_the_override_not_the_file(tmp_path):
    path = write(tmp_path, make(top=TOP.replace('"2d"', '"2 days"'), rest=AID))
    result = validate(str(path), "--set", "first_aid.levle=3", "--set", "healing.level=2")
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0].startswith(f"error: {path}: horizon: got '2 days'")  # the file's own
    assert f"error: --set first_aid.levle=3 (on {path}): first_aid.levle: got 3;" in lines[1]
    assert "did you mean 'level'?" in lines[1]
    # a table an override created lacks its required keys: the override is named
    alone = validate(str(write(tmp_path, make())), "--set", "first_aid.level=6")
    assert alone.exit_code == 2
    for line in alone.output.splitlines():
        assert line.startswith("error: --set first_aid.level=6 (on ")
        assert "(the file has no [first_aid]: --set created it)" in line


def test_a_typo_in_a_grid_key_names_the_grid(tmp_path):
    from simulator.errors import ScenarioError
    from simulator.studies.api import run_sweep

    path = write(tmp_path, make(rest=AID))
    with pytest.raises(ScenarioError) as err:
        run_sweep(path, {"rules.table.grave.unstabel_period": ["1h"]}, trials=5)
    assert str(err.value).startswith("grid: rules.table.grave.unstabel_period=1h (on ")
    assert "did you mean 'unstable_period'?" in str(err.value)


def test_validate_says_first_aid_is_ignored_under_the_basic_rules(tmp_path):
    path = write(tmp_path, make(top=TOP + 'ruleset = "basic"\n', rest=AID))
    result = validate(str(path))
    assert result.exit_code == 0, result.output
    assert "[first_aid] ignored: the basic rules have no first aid (B3)" in result.output


def test_validate_says_what_else_the_basic_rules_never_read(tmp_path):
    # the notes run says, validate says too (a helper's walkthrough found validate silent on
    # the healer's level, and every command silent on activities, watches and settings)
    extra = '[[injuries]]\nat = "0s"\nlevel = "grave"\n[[activities]]\nat = "1d"\n'
    extra += "[healing]\nlevel = 2\n[rules]\npain_recovery_per_hour = 2\n"
    path = write(tmp_path, make(top=TOP + 'ruleset = "basic"\n', rest=AID + extra))
    done = cli(str(path))
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "basic rules" in line]
    assert len(notes) == 3, done.stderr  # [first_aid]: the ok line says it, once
    assert "[first_aid] ignored" in done.stdout
    assert "healing.level does not apply under the basic rules" in notes[0]
    assert "[[activities]] do not apply under the basic rules" in notes[1]
    assert "rules.pain_recovery_per_hour: not used under the basic rules" in notes[2]


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("a..b=1,2", "error: --grid: got 'a..b=1,2'; expected KEY=V1,V2,..."),
        ("first_aid.level=nan,1", "error: --grid first_aid.level: got nan; expected finite"),
        ("injuries.5.at=1h,2h", "error: --grid injuries.5.at=1h (on "),
    ],
)
def test_grid_mistakes_name_the_grid(tmp_path, grid, message):
    path = write(tmp_path, make(rest=AID + '[[injuries]]\nat = "0s"\nlevel = "grave"\n'))
    result = CliRunner().invoke(main, ["sweep", str(path), "--grid", grid, "--trials", "5"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(message), result.output


def test_study_reports_the_problems_of_every_bad_file_at_once(tmp_path):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a.toml").write_text(make(top='name = "a"\nhorizon = "2 days"\n'), "utf-8")
    (folder / "b.toml").write_text(make(patient="[patient]\ncp_rs = 8\n"), "utf-8")
    result = CliRunner().invoke(main, ["study", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "a.toml: horizon: got '2 days'" in result.output
    assert "b.toml: patient.rs_it: missing" in result.output
    assert not (tmp_path / "out" / "README.md").exists()


def test_compare_reports_the_problems_of_both_files_at_once(tmp_path):
    a = tmp_path / "a.toml"
    a.write_text(make(top='name = "a"\nhorizon = "2 days"\n'), "utf-8")
    b = tmp_path / "b.toml"
    b.write_text(make(patient="[patient]\ncp_rs = 8\n"), "utf-8")
    result = CliRunner().invoke(main, ["compare", str(a), str(b), "--trials", "5"])
    assert result.exit_code == 2, result.output
    assert "a.toml: horizon: got '2 days'" in result.output
    assert "b.toml: patient.rs_it: missing" in result.output


@pytest.mark.parametrize(
    "override", ["rules.table.Grave.pain=3", "foo.bar=1", "first_aid.levle.x=1"]
)
def test_an_override_that_made_an_unknown_table_is_named(tmp_path, override):
    path = write(tmp_path, make(rest=AID))
    result = validate(str(path), "--set", override)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: --set {override} (on {path}): "), result.output


def test_compare_names_set_a_and_set_b(tmp_path):
    path = write(tmp_path, make(rest=AID + '[[injuries]]\nat = "0s"\nlevel = "grave"\n'))
    result = CliRunner().invoke(
        main, ["compare", str(path), str(path), "--set-b", "first_aid.levle=2", "--trials", "5"]
    )
    assert result.exit_code == 2
    assert result.output.startswith(f"error: --set-b first_aid.levle=2 (on {path}): ")


def test_a_scenario_file_is_read_only_so_far(tmp_path):
    big = write(tmp_path, make() + "#" * 1_000_001 + "\n")
    result = validate(str(big))
    assert result.exit_code == 2 and "at most 1 MB" in result.output


def test_text_of_no_utf8_is_refused_where_it_would_be_written_back(tmp_path):
    from simulator.scenario.reading import load_scenario

    with pytest.raises(UserError, match="in UTF-8"):
        load_scenario(write(tmp_path, make()), ["name=bad\udcffname"])


def test_a_sweep_of_too_many_points_is_refused_before_anything_runs(tmp_path):
    from simulator.studies.api import run_sweep

    path = write(tmp_path, make(rest=AID))
    grid = {"first_aid.level": list(range(-500, 500)), "healing.level": list(range(-10, 10))}
    with pytest.raises(UserError, match="20,000 points; expected at most 10,000"):
        run_sweep(path, grid, trials=1)


def test_a_full_disk_is_one_line_and_exit_1(tmp_path, monkeypatch):
    import errno

    from simulator.studies import result as study

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out"))

    monkeypatch.setattr(study.StudyResult, "save", full)
    path = write(tmp_path, make(rest=AID + '[[injuries]]\nat = "0s"\nlevel = "grave"\n'))
    result = CliRunner().invoke(
        main, ["run", str(path), "--trials", "5", "--workers", "1", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 1
    assert "No space left on device" in result.output and "run the same command" in result.output
    assert not isinstance(result.exception, OSError)


@pytest.mark.parametrize("name", ["summary.csv", "trials.parquet"])
def test_a_full_disk_names_the_file_being_written(tmp_path, monkeypatch, name):
    """A write that fails names its file: Python's and pyarrow's errors while writing (after
    the open) carry no file name, and the line said only "No space left on device"."""
    import errno

    import pandas as pd
    import pyarrow.parquet as pq

    def full(*_args, **_kwargs):
        if name == "summary.csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as a write() fails
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    if name == "summary.csv":
        monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    else:
        monkeypatch.setattr(pq, "write_table", full)
        monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    path = write(tmp_path, make(rest=AID + '[[injuries]]\nat = "0s"\nlevel = "grave"\n'))
    out = tmp_path / "out"
    args = ["run", str(path), "--trials", "5", "--workers", "1", "--no-figures", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith(f"error: {out / name}: ") and "No space left on device" in line, line
    assert not (out / name).exists()


@pytest.mark.parametrize(
    ("given", "told"),
    [
        ("watch.neglect_probability=.05", "got '.05'; expected a probability, a number from 0 to "
                                          "1, written 0.05"),
        ("first_aid.level=02", "got '02'; expected an integer from -1000 to 1000, written 2"),
        ("rules.pain_recovery_per_hour=1.", "expected a number from 0 to 1000, written 1.0"),
        ("watch.neglect_probability=02", "expected a probability, a number from 0 to 1\n"),
        ("first_aid.level=x", "expected an integer from -1000 to 1000\n"),
    ],
)  # fmt: skip
def test_a_number_typed_as_a_hand_writes_it_is_told_as_toml_writes_it(tmp_path, given, told):
    # "--set watch.neglect_probability=.05" read "expected a number from 0 to 1", which .05
    # is: the spelling that works is given, and only where it would be in range
    path = write(tmp_path, make(rest=AID))
    result = validate(str(path), "--set", given)
    assert result.exit_code == 2
    assert told in result.output


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("first_aid.levl", "first_aid.level"),
        ("patient.cprs", "patient.cp_rs"),
        ("rules.table.grave.pian", "rules.table.grave.pain"),
        ("rules.table.grav.unstable_period", "rules.table.grave.unstable_period"),
    ],
)
def test_a_mistyped_key_of_sensitivity_is_told_what_was_meant(typed, meant):
    # --set, --stat and --target offered the key meant; --keys did not
    from simulator.errors import UserError
    from simulator.scenario.keys import current_value
    from simulator.scenario.reading import load_scenario

    scenario = load_scenario(REPO / "scenarios" / "geraldine.toml")
    with pytest.raises(UserError, match=rf"did you mean '{re.escape(meant)}'\?"):
        current_value(scenario, typed)


TOO_LONG = "too long for the file system; expected a shorter name"


def refused_in_one_line(args: list[str], line: str) -> None:
    """The command exits 2 and says ``line``, alone."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (args, result.output)
    assert result.output.splitlines() == [line], args


def test_a_name_too_long_for_the_file_system_is_the_users_mistake(tmp_path):
    """A 300-byte file name exited 1, "the machine's fault", with a word of chunks kept."""
    path = tmp_path / ("c" * 300 + ".toml")
    line = f"error: {path}: the name of the scenario file is {TOO_LONG}"
    for args in (["validate", str(path)], ["run", str(path)], ["trace", str(path)]):
        refused_in_one_line(args, line)
    study = CliRunner().invoke(main, ["study", str(tmp_path / ("d" * 300))])
    assert study.exit_code == 2, study.output
    assert TOO_LONG in study.output


def test_an_out_folder_too_long_for_the_file_system_is_named_as_out(tmp_path):
    """Exact answers, balance, sensitivity and calibrate check --out their own way: it exited 1."""
    out = tmp_path / ("b" * 256)
    scenario = str(REPO / "scenarios" / "shaken.toml")
    line = f"error: --out: {out}: the name of the folder is {TOO_LONG}"
    for args in (
        ["run", scenario, "--exact", "--out", str(out), "--no-figures"],
        ["sensitivity", scenario, "--exact", "--stat", "p_dead", "--out", str(out)],
    ):
        refused_in_one_line(args, line)


def test_a_default_folder_too_long_for_the_file_system_exits_2(tmp_path, monkeypatch):
    """A long scenario name makes the default folder's name too long: the user's to shorten.

    ``sensitivity x.toml`` fitted where ``sensitivity x.toml --exact`` (its folder
    ``<stem>-sensitivity-exact``) exited 1.
    """
    monkeypatch.chdir(tmp_path)
    stem = "s" * 240
    (tmp_path / f"{stem}.toml").write_text(
        (REPO / "scenarios" / "shaken.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    result = CliRunner().invoke(
        main, ["sensitivity", f"{stem}.toml", "--exact", "--stat", "p_dead"]
    )
    assert result.exit_code == 2, result.output
    (line,) = result.output.splitlines()
    assert line.startswith(f"error: --out results/runs/{stem}-sensitivity-exact: not a directory")
    assert line.endswith("(File name too long); expected a folder path"), line
    assert not (tmp_path / "results" / "runs").exists() or not any(
        (tmp_path / "results" / "runs").iterdir()
    )
