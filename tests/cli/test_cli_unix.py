"""The command line as a designer meets it (issue 9), through the real command, in a tmp folder.

A sweep never labels one scenario's numbers with another's; every command behaves as a Unix
filter and never shows a traceback; numbers and names are printed as a person writes them.
(The output folders' rule is :mod:`tests.test_outdir`; random inputs are
:mod:`tests.test_cli_properties`.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from simulator.cli.common import EXIT_BROKEN_PIPE
from simulator.report.i18n import hours_text, percent_text
from simulator.report.wording import days_hours, percent
from simulator.rules.durations import format_duration, parse_duration
from tests.support import harmonies_sim, tiny_scenario

pytestmark = pytest.mark.integration  # commands end to end: make test, not make check

REPO = Path(__file__).resolve().parents[2]
FAST = ("--trials", "6", "--workers", "1")


def cli(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    streams = kwargs or {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    done = harmonies_sim(*args, cwd=cwd, **streams)
    assert "Traceback" not in (done.stdout or "") + done.stderr, done.stderr
    return done


def refused(done: subprocess.CompletedProcess) -> str:
    """The one ``error:`` line of a command refused with exit status 2."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


# --- 2. a sweep's labels -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grids", "sets", "words"),
    [
        (["patient.cp_rs=1,2", "patient={cp_rs=3, rs_it=3},{cp_rs=5, rs_it=5}"], [], "overlaps"),
        (["patient={cp_rs=3, rs_it=3}", "patient.rs_it=1,2"], [], "overlaps"),
        (["injuries.0.at=0s,1h", "injuries[0].at=2h"], [], "given twice"),
        (["first_aid.level=1,2,1"], [], "1 given twice; expected each value once"),
        (["rules.open_roll=true,true"], [], "true given twice"),
        (["first_aid.start=60s,1min"], [], "'60s' and '1min' are the same value"),
        (["first_aid.interval=30min,1.5h,90min"], [], "'1.5h' and '90min' are the same value"),
        (["rules.pain_recovery_per_hour=1,1.0"], [], "1 and 1.0 are the same value"),
        (["watch.neglect_probability=0,0.5,0.0"], [], "0 and 0.0 are the same value"),
        (
            ["watch.neglect_probability=0,05,0,25"],
            [],
            "got '0,05,0,25'; commas separate the values: expected a decimal point, 0.05,0.25",
        ),
        (["watch.neglect_probability=0,5"], [], "expected a decimal point, 0.5"),
        (
            ["first_aid.interval=1,5min,10min"],
            [],
            "and 1 has no unit: expected a unit on every "
            "value, or a decimal point where two pieces are one value, 1.5min,10min",
        ),
        (["first_aid.interval=1,5min"], [], "expected a decimal point, 1.5min"),
        (["first_aid.interval=15min,30,1h"], [], "and 30 has no unit"),  # not only 30.1h
        (["healing.level=fast,1"], [], "--grid healing.level=fast (on "),  # as written
    ],
)
def test_overlapping_grid_keys_are_refused_before_anything_runs(tmp_path, tiny, grids, sets, words):
    args = [x for g in grids for x in ("--grid", g)] + [x for s in sets for x in ("--set", s)]
    done = cli("sweep", tiny.name, *args, *FAST, "--out", "o", cwd=tmp_path)
    assert words in refused(done)
    assert not (tmp_path / "o").exists()


def test_a_set_key_the_grid_moves_is_left_out_of_the_points_labels(tmp_path, tiny):
    done = cli("sweep", tiny.name, "--grid", "first_aid.level=1,2", "--set", "first_aid.level=5",
               "--set", "healing.modifier=1", *FAST, "--json", "--no-figures", "--out", "o",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    labels = [s["overrides"] for s in json.loads(done.stdout)]
    assert labels == [
        ["healing.modifier=1", "first_aid.level=1"],
        ["healing.modifier=1", "first_aid.level=2"],
    ]
    assert "note: --set first_aid.level=5: the grid sets that key at every point" in done.stderr
    assert "healing.modifier=1:" not in done.stderr


def test_a_grid_key_inside_a_set_table_refines_it(tmp_path, tiny):
    done = cli("sweep", tiny.name, "--grid", "first_aid.level=1,2", "--set",
               'first_aid={level=0, start="1min", interval="1min"}', *FAST, "--json",
               "--no-figures", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [s["point"] for s in json.loads(done.stdout)] == [
        {"first_aid.level": 1},
        {"first_aid.level": 2},
    ]


def test_arrays_and_tables_as_grid_values_work_in_the_heatmap_and_files(tmp_path, tiny):
    done = cli("sweep", tiny.name, "--grid", 'watch.neglect_at=["1h"],[]', "--grid",
               'healing={level=0},{level=4}', *FAST, "--out", "o", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "o" / "sweep.png").is_file()
    frame = pd.read_csv(tmp_path / "o" / "sweep.csv")
    assert list(frame["watch.neglect_at"]) == ['["1h"]', '["1h"]', "[]", "[]"]
    assert list(frame["healing"]) == ["{level = 0}", "{level = 4}"] * 2
    lines = done.stdout.splitlines()
    assert any(line.split()[:2] == ['["1h"]', '{"level":'] for line in lines), done.stdout


# --- 3. a Unix filter, never a traceback ----------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["trace", "tiny.toml"],
        ["odds"],
        ["validate", "tiny.toml", "--show"],
        ["run", "tiny.toml", *FAST, "--no-figures", "--json", "--out", "o"],
    ],
)
def test_a_closed_pipe_ends_the_command_quietly(tmp_path, tiny, args):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: as `| head -0`
    try:
        done = cli(*args, cwd=tmp_path, stdout=write, stderr=subprocess.PIPE)  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == EXIT_BROKEN_PIPE
    assert done.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize(
    "args", [["odds"], ["odds", "--json"], ["trace", "tiny.toml"], ["--help"], ["--version"]]
)
def test_a_full_disk_is_one_error_line(tmp_path, tiny, args):
    with open("/dev/full", "w") as full:
        done = cli(*args, cwd=tmp_path, stdout=full, stderr=subprocess.PIPE)  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0], done.stderr


def test_a_sweep_too_large_as_a_whole_is_refused_before_it_starts(tmp_path, tiny):
    values = ",".join(str(v) for v in range(6))
    done = cli("sweep", tiny.name, "--grid", f"first_aid.level={values}", "--trials",
               "200000000", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert "1,200,000,000 trials in all" in refused(done)
    values = ",".join(str(v) for v in range(400))
    done = cli("sweep", tiny.name, "--grid", f"patient.cp_rs={values}", "--trials", "3000",
               "--chunk-size", "1", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert "1,200,000 chunks" in refused(done)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("setting", "key"),
    [
        ("horizon=" + "1" * 5000 + "s", "horizon"),
        ("injuries.0.at=" + "9" * 4400 + ".5h", "injuries[0].at"),
        ("patient.cp_rs=" + "1" * 5000, "patient.cp_rs"),
        ("rules.table.grave.unstable_period=0." + "1" * 5000 + "s", "unstable_period"),
    ],
)
def test_numbers_too_long_for_python_name_their_key(tmp_path, tiny, setting, key):
    line = refused(cli("validate", tiny.name, "--set", setting, cwd=tmp_path))
    assert f": {key}: got " in line or f"{key}" in line.split(": got")[0], line
    assert len(line) < 600  # the value is cut, not printed whole


def test_a_probability_too_small_for_a_count_is_never(tmp_path, tiny):
    done = cli("trace", tiny.name, "--set", "watch.neglect_probability=5e-324", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_a_search_that_cannot_succeed_is_refused_at_once(tmp_path):
    geraldine, shaken = REPO / "scenarios" / "geraldine.toml", REPO / "scenarios" / "shaken.toml"
    line = refused(cli("trace", str(geraldine), "--find", "incoherent", cwd=tmp_path))
    assert "no mental wound" in line
    line = refused(cli("trace", str(shaken), "--find", "dead", cwd=tmp_path))
    assert "no physical wound" in line
    late = cli("trace", str(geraldine), "--find", "dead", "--set",
               'injuries=[{at="61d", level="critical"}]', cwd=tmp_path)  # fmt: skip
    assert "no physical wound is received by the horizon" in refused(late)
    lone = REPO / "scenarios" / "lone_traveller.toml"  # no healer
    line = refused(cli("trace", str(lone), "--find", "healed", cwd=tmp_path))
    assert "no healer" in line
    basic = cli("trace", str(lone), "--find", "healed", "--set", "ruleset=basic", "--set",
                "horizon=60d", cwd=tmp_path)  # fmt: skip
    assert basic.returncode == 0 and "Outcome: healed" in basic.stdout  # B4: heals alone
    # A wound that can kill: the search runs, and finds a death.
    found = cli("trace", str(geraldine), "--find", "dead", cwd=tmp_path)
    assert found.returncode == 0 and "Outcome: dead" in found.stdout


def test_trace_reference_tells_the_event_by_event_engine_test_by_test(tmp_path):
    # The SimPy engine's own trial, told whole: its timeline and verdict, every test a line
    # (no "n tests passed" runs), and --find searches its trials, not the kernel's.
    from simulator.engine.trial import run_trial, trace_trial
    from simulator.report.timeline import trace_text
    from simulator.scenario.reading import load_scenario

    path = REPO / "scenarios" / "geraldine.toml"
    done = cli("trace", str(path), "--reference", "--trial", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "trial 4 of the event-by-event reference engine" in done.stdout.splitlines()[0]
    record, lines = trace_trial(load_scenario(path), 0, 4)
    assert trace_text(lines) in done.stdout
    assert f"Outcome: {record.outcome}" in done.stdout
    assert " ×" not in done.stdout  # the kernel tells skipped runs as "×3 first aid attempts"
    found = cli("trace", str(path), "--reference", "--find", "dead", cwd=tmp_path)
    assert found.returncode == 0 and "Outcome: dead" in found.stdout
    first = int(found.stdout.split("trial ", 1)[1].split()[0])
    scenario = load_scenario(path)
    outcomes = [run_trial(scenario, i, 0).outcome for i in range(first + 1)]
    assert outcomes[-1] == "dead" and "dead" not in outcomes[:-1]


# --- 4. as a person writes ------------------------------------------------------------------


def test_durations_are_printed_exactly_and_read_back(tmp_path, tiny):
    assert days_hours(47.7) == "2 d" and days_hours(23.97) == "1 d"
    assert days_hours(24.6) == "1 d 1 h" and days_hours(5.25) == "5.2 hours"
    assert format_duration(1234567.5) == "1234567.5s"
    assert parse_duration(format_duration(3_000_000_000.5)) == 3_000_000_000.5
    assert "e" not in percent(3e-9) and "e" not in percent(1 - 4e-9)
    assert hours_text(47.7, "en") == "2 d" and hours_text(47.7, "fr") == "2 j"
    assert "e" not in percent_text(3e-9, lang="fr")
    traced = cli("trace", tiny.name, "--set", "watch.neglect_probability=0.00001", cwd=tmp_path)
    assert "neglected with probability 0.00001;" in traced.stdout
    done = cli("validate", tiny.name, "--set", "horizon=1234567.5s", cwd=tmp_path)
    assert done.returncode == 0 and "horizon 1234567.5s" in done.stdout
    shown = cli("validate", tiny.name, "--set", "horizon=1234567.5s", "--show", cwd=tmp_path)
    assert tomllib.loads(shown.stdout)["horizon"] == "1234567.5s"


@pytest.mark.parametrize(
    ("setting", "hint"),
    [
        ("patient.profile=HYDRA", "did you mean 'hydra'?"),
        ("ruleset=BASIC", "did you mean 'basic'?"),
        ("injuries.0.level=Grave", "did you mean 'grave'?"),
        ("First_Aid.level=2", "did you mean 'first_aid'?"),
    ],
)
def test_did_you_mean_whatever_the_case(tmp_path, tiny, setting, hint):
    assert hint in refused(cli("validate", tiny.name, "--set", setting, cwd=tmp_path))


@pytest.mark.skipif(sys.platform != "linux", reason="file names as bytes")
def test_an_empty_or_undecodable_path_gets_a_sentence(tmp_path, tiny):
    for args in (["validate", ""], ["run", ""], ["trace", ""], ["study", ""]):
        line = refused(cli(*args, cwd=tmp_path))
        assert "is empty; expected a path" in line and "''" not in line, line
    line = refused(cli("run", tiny.name, "--out", "", cwd=tmp_path))
    assert line == "error: --out: the path of the folder is empty; expected a path"
    name = os.fsencode(tmp_path) + b"/\xff.toml"
    with open(name, "w", encoding="utf-8") as handle:
        handle.write(tiny_scenario())
    done = subprocess.run([sys.executable, "-m", "simulator", "run", name], cwd=tmp_path,
                          capture_output=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    line = done.stderr.decode("utf-8")
    assert "\\xff.toml: the name of the scenario file is not valid UTF-8" in line
    assert "udcff" not in line and "Traceback" not in line


def test_a_folder_given_as_the_scenario_gets_the_same_sentence_from_every_command(tmp_path):
    """``trace DIR`` said click's own "Invalid value for 'SCENARIO': File ... is a directory",
    where every other command names the file and points to ``study``."""
    (tmp_path / "scenarios").mkdir()
    said = (
        "error: scenarios: (file): got 'scenarios'; expected a scenario file, not a directory "
        "(harmonies-sim study runs a folder of scenarios)"
    )
    for command in ("validate", "trace"):
        assert refused(cli(command, "scenarios", cwd=tmp_path)) == said, command


def test_figure_titles_wrap_instead_of_widening_the_picture(tmp_path, tiny):
    from PIL import Image

    long = 'name="A scenario whose name goes on and on, as designers name their drafts"'
    sets = ["first_aid.level=3", "healing.modifier=2", "rules.table.grave.unstable_period=30min"]
    args = [x for s in [long, *sets] for x in ("--set", s)]
    done = cli("run", tiny.name, *args, *FAST, "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for png in (tmp_path / "o").glob("*.png"):
        width, _ = Image.open(png).size
        assert width <= 1.15 * 7.0 * 200, (png.name, width)  # 7 inches at 200 dpi, at most


def test_an_exact_sweep_refuses_overlapping_keys_too(tmp_path, tiny):
    done = cli("sweep", tiny.name, "--exact", "--grid", "patient.cp_rs=1,2", "--grid",
               "patient={cp_rs=1, rs_it=1}", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert "overlaps" in refused(done)


def test_a_basic_campaign_is_described_by_what_the_basic_rules_have():
    # B3: no first aid, no watches; B4: the patient heals alone, healing.level plays no part
    from simulator.report.campaign import describe
    from simulator.scenario.reading import load_scenario

    lines = describe(load_scenario(REPO / "scenarios" / "geraldine_basic.toml"))
    text = "\n".join(lines)
    assert "the patient tests alone at the end of each rest (B4), modifier -1" in text
    assert "level" not in text.split("\n", 1)[1] and "watches" not in text
    advanced = "\n".join(describe(load_scenario(REPO / "scenarios" / "geraldine.toml")))
    assert "healing: level -2, modifier -1" in advanced and "watches: neglected" in advanced


def test_find_by_blocks_finds_the_first_trial_that_ends_so():
    # --find reads the kernel's outcomes by blocks: the same trial as looking one by one
    from simulator.runner.engines import run_trial
    from simulator.scenario.reading import load_scenario
    from simulator.studies.campaign import FIND_BLOCK, find_trial

    scenario = load_scenario(REPO / "scenarios" / "geraldine.toml")
    for outcome, first in (("healed", 0), ("wounded", FIND_BLOCK - 1), ("healed", 5000)):
        found = find_trial(scenario, 3, first, outcome)
        ends = [run_trial(scenario, i, 3).outcome for i in range(first, found + 1)]
        assert ends[-1] == outcome and outcome not in ends[:-1], (outcome, first, found)


def test_a_result_replaced_by_other_settings_is_said_not_silently_lost(tmp_path, tiny):
    args = ("run", tiny.name, *FAST, "--no-figures", "--out", "o")
    first = cli(*args, "--set", "patient.cp_rs=5", cwd=tmp_path)
    assert first.returncode == 0 and "note:" not in first.stderr, first.stderr
    again = cli(*args, "--set", "patient.cp_rs=5", cwd=tmp_path)  # the same: resumed, no note
    assert again.returncode == 0 and "note:" not in again.stderr, again.stderr
    other = cli(*args, "--set", "patient.cp_rs=6", cwd=tmp_path)
    assert other.returncode == 0, other.stderr
    assert "note: --out o: replacing the earlier result there" in other.stderr
    assert "patient.cp_rs=6" in (tmp_path / "o" / "summary.json").read_text(encoding="utf-8")


def test_compare_keeps_its_columns_for_long_shares_and_signs_no_zero(tmp_path):
    # exact shares read as run shows them, to four decimals (never 99.9999999986%); the
    # columns keep their place, and a difference that rounds to 0 is "0.0", never "-0.0"
    lone = REPO / "scenarios" / "lone_traveller.toml"
    done = cli("compare", str(lone), str(lone), "--set-b", "patient.cp_rs=9", "--exact",
               "--no-figures", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "%" in line]
    assert len({line.index("%") for line in rows}) == 1, rows  # the A column ends in one place
    assert "-0.0" not in done.stdout and "+0.0" not in done.stdout
    assert all(re.search(r"\d\.\d{4}%", line) for line in rows), rows


def test_a_study_description_given_as_a_scenario_says_what_it_is(tmp_path):
    description = REPO / "scenarios" / "studies" / "geraldine.toml"
    for command in ("run", "validate", "trace"):
        line = refused(cli(command, str(description), cwd=tmp_path))  # one line, not seven
        assert "this is a study description" in line, line


def test_the_same_command_again_says_nothing_of_replacing(tmp_path):
    # balance (and the exact commands) give no identity of their result: their own earlier
    # result must not be told as another's
    hydra = str(REPO / "scenarios" / "hydra.toml")
    args = ("balance", hydra, "--vary", "patient.cp_rs=10..12", "--target", "p_dead=0.2",
            "--trials", "50", "--no-figures", "--out", "b")  # fmt: skip
    for _ in range(2):
        done = cli(*args, cwd=tmp_path)
        assert done.returncode == 0 and "note:" not in done.stderr, done.stderr
    ran = cli("run", hydra, *FAST, "--no-figures", "--out", "r", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    over = cli(*args[:-1], "r", cwd=tmp_path)  # a balance over a run's result: said
    assert over.returncode == 0, over.stderr
    assert "note: --out r: replacing the earlier result there (another command" in over.stderr
    exact = cli("run", hydra, "--exact", "--no-figures", "--out", "b", cwd=tmp_path)
    assert "replacing the earlier result there" in exact.stderr  # over the balance


def test_another_balance_or_sensitivity_in_the_same_folder_is_said(tmp_path):
    # a what-if (another target, another method) run into the folder of the first: the first
    # answer goes, and a note says so (two helpers' rounds found it gone without a word); the
    # default folders of exact answers take -exact, beside the sampled ones
    hydra = str(REPO / "scenarios" / "hydra.toml")
    base = ("balance", hydra, "--vary", "patient.cp_rs=10..12", "--no-figures")
    first = cli(*base, "--target", "p_dead=0.2", "--trials", "50", cwd=tmp_path)
    assert first.returncode == 0 and "note:" not in first.stderr, first.stderr
    other = cli(*base, "--target", "p_dead=0.3", "--trials", "50", cwd=tmp_path)
    assert other.returncode == 0, other.stderr
    assert "replacing the earlier result there (another command, scenario or setting" in (
        other.stderr
    )
    exact = cli(*base, "--target", "p_dead=0.3", "--exact", cwd=tmp_path)
    assert exact.returncode == 0 and "note:" not in exact.stderr, exact.stderr
    runs = tmp_path / "results" / "runs"
    assert (runs / "hydra-balance-patient.cp_rs" / "balance.json").is_file()
    assert (runs / "hydra-balance-patient.cp_rs-exact" / "balance.json").is_file()
    keys = ("sensitivity", hydra, "--keys", "patient.cp_rs", "--no-figures")
    sampled = cli(*keys, "--trials", "50", cwd=tmp_path)
    solved = cli(*keys, "--exact", cwd=tmp_path)
    assert sampled.returncode == 0 and solved.returncode == 0, sampled.stderr + solved.stderr
    assert "note:" not in sampled.stderr + solved.stderr
    assert (runs / "hydra-sensitivity" / "sensitivity.json").is_file()
    assert (runs / "hydra-sensitivity-exact" / "sensitivity.json").is_file()
    stat = cli(*keys, "--trials", "50", "--stat", "p_dead_by_1d", cwd=tmp_path)
    assert "replacing the earlier result there (another command" in stat.stderr, stat.stderr


def test_what_falls_after_the_horizon_is_said_once(tmp_path):
    """O2: an injury or activity after the horizon never happens; a note says so, once."""
    hydra = REPO / "scenarios" / "hydra.toml"  # its activity at 1d
    done = cli("run", str(hydra), "--set", "horizon=12h", "--trials", "10", "--no-figures",
               "--out", "H", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("note:") == 1, done.stderr
    assert "after the horizon (12h) never happens (O2): activities, 1 of 1\n" in done.stderr
    late = cli("run", str(hydra), "--set", 'injuries=[{at="8d", level="grave"}]', "--exact",
               "--no-figures", "--out", "L", cwd=tmp_path)  # fmt: skip
    assert late.returncode == 0, late.stderr
    assert "(O2): injuries, 1 of 1; the patient is never wounded\n" in late.stderr
    within = cli("run", str(hydra), "--trials", "10", "--no-figures", "--out", "W", cwd=tmp_path)
    assert "note:" not in within.stderr
    listed = cli("validate", str(REPO / "scenarios" / "geraldine.toml"), "--set",
                 'watch.neglect_at=["61d", "2d"]', cwd=tmp_path)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert "(O2): neglected watches listed, 1 of 2\n" in listed.stderr
    swept = cli("sweep", str(hydra), "--set", "horizon=12h", "--grid", "patient.cp_rs=5,6,7",
                "--trials", "10", "--no-figures", "--out", "S", cwd=tmp_path)  # fmt: skip
    assert swept.returncode == 0, swept.stderr
    assert swept.stderr.count("never happens (O2)") == 1, swept.stderr  # once, not per point
    checked = cli("validate", str(hydra), "--set", "horizon=12h", cwd=tmp_path)
    assert checked.returncode == 0 and "never happens (O2)" in checked.stderr
    balanced = cli("balance", str(hydra), "--vary", "horizon=1h..20h", "--target", "p_dead=0.5",
                   "--trials", "10", "--no-figures", "--out", "B", cwd=tmp_path)  # fmt: skip
    assert balanced.returncode == 0, balanced.stderr
    assert balanced.stderr.count("never happens (O2)") == 1, balanced.stderr  # not per horizon
    assert "after the horizon (1h) never happens" in balanced.stderr


def test_one_trial_is_one_trial(tmp_path):
    done = cli("run", str(REPO / "scenarios" / "lone_traveller.toml"), "--trials", "1",
               "--no-figures", "--out", "O", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "— 1 trial, seed 0\n" in done.stdout
    french = cli("run", str(REPO / "scenarios" / "lone_traveller.toml"), "--trials", "1",
                 "--lang", "fr", "--no-figures", "--out", "O", cwd=tmp_path)  # fmt: skip
    assert "— 1 essai, graine 0\n" in french.stdout


def test_one_trial_at_each_value_is_one_trial(tmp_path):
    lone = str(REPO / "scenarios" / "lone_traveller.toml")
    done = cli("sensitivity", lone, "--stat", "p_dead", "--trials", "1", "--out", "S",
               "--no-figures", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Monte Carlo: 1 trial at each value, seed 0" in done.stdout
    french = cli("balance", lone, "--vary", "patient.cp_rs=5..7", "--target", "p_dead=0.5",
                 "--trials", "1", "--lang", "fr", "--out", "B", "--no-figures",
                 cwd=tmp_path)  # fmt: skip
    assert french.returncode == 0, french.stderr
    assert "Monte-Carlo : 1 essai par valeur, graine 0" in french.stdout


def test_a_sweep_of_three_keys_says_why_it_draws_no_figure(tmp_path):
    grids = ["patient.cp_rs=5,6", "patient.rs_it=5,6", "rules.table.grave.pain=4,5"]
    args = [a for grid in grids for a in ("--grid", grid)]
    lone = str(REPO / "scenarios" / "lone_traveller.toml")
    done = cli("sweep", lone, *args, "--trials", "20", "--out", "S", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "note: no figure for a sweep of 3 keys" in done.stderr
    assert not list((tmp_path / "S").glob("sweep.*g")) and (tmp_path / "S" / "sweep.csv").is_file()


def test_a_grid_of_levels_is_no_decimal_comma():
    from simulator.cli.sweep import parse_grid
    from simulator.scenario.checks import decimal_commas

    assert decimal_commas(["0", "5"]) is None  # levels 0 and 5
    assert decimal_commas(["0", "05"]) is None  # a level: 05 is refused, 0.05 no level either
    assert decimal_commas(["0", "1"], fractions=True, probability=True) is None  # never, always
    assert decimal_commas(["0", "5"], fractions=True, probability=True) == "0.5"
    assert decimal_commas(["0", "1", "0", "2"], fractions=True, probability=True) == "0.1,0.2"
    assert decimal_commas(["0", "05", "0", "1"], fractions=True) == "0.05,0.1"
    assert decimal_commas(["1", "5min", "10min"]) == "1.5min,10min"
    assert parse_grid(("first_aid.level=0,5",)) == {"first_aid.level": [0, 5]}


def test_exact_shares_of_balance_and_sensitivity_have_run_exacts_four_decimals(tmp_path):
    lone = str(REPO / "scenarios" / "lone_traveller.toml")
    done = cli("sensitivity", lone, "--exact", "--keys", "patient.cp_rs", "--out", "S",
               "--no-figures", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "p_dead = 100.0000%" in done.stdout and "5: 100.0000%" in done.stdout, done.stdout
    assert "99.99999" not in done.stdout
    balanced = cli("balance", lone, "--exact", "--vary", "patient.cp_rs=0..8", "--target",
                   "p_dead=0.5", "--out", "B", "--no-figures", cwd=tmp_path)  # fmt: skip
    assert balanced.returncode == 0, balanced.stderr
    assert "  0: p_dead = 100.0000%\n" in balanced.stdout, balanced.stdout


def test_a_balances_files_are_the_same_in_every_language_and_its_page_speaks_french(tmp_path):
    """docs/outputs.md: files meant for programs do not change with --lang ("1 d", not "1 j")."""
    lone = str(REPO / "scenarios" / "lone_traveller.toml")
    for lang in ("en", "fr"):
        done = cli("balance", lone, "--vary", "rules.table.grave.unstable_period=15min..1d",
                   "--target", "p_dead_by_1d=0.5", "--trials", "20", "--lang", lang,
                   "--out", lang, cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
    for name in ("balance.csv", "balance.json"):
        assert (tmp_path / "en" / name).read_bytes() == (tmp_path / "fr" / name).read_bytes()
    assert "1 d" in (tmp_path / "fr" / "balance.json").read_text(encoding="utf-8")
    page = (tmp_path / "fr" / "report.html").read_text(encoding="utf-8")
    assert "1 j" in page and "1 d<" not in page
    # the page's text keeps "95 %" and "valeur :" whole (no-break spaces); figures untouched
    text = re.sub(r"<(svg|script|style|pre)\b.*?</\1>", "", page, flags=re.S)
    text = re.sub(r"<[^>]+>", "", text)
    assert not re.search(r" [:;%]", text), re.findall(r".{20} [:;%]", text)[:3]
    assert "\u00a0:" in text


def test_a_grid_of_two_whole_values_on_a_key_of_fractions_is_run_and_said(tmp_path, tiny):
    done = cli("sweep", tiny.name, "--grid", "rules.pain_recovery_per_hour=0,5", *FAST,
               "--no-figures", "--json", "--out", "o", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "0 and 5 are two values (commas separate the values); for one number, write 0.5" in (
        done.stderr
    )
    assert [s["point"] for s in json.loads(done.stdout)] == [
        {"rules.pain_recovery_per_hour": 0},
        {"rules.pain_recovery_per_hour": 5},
    ]
    levels = cli("sweep", tiny.name, "--grid", "first_aid.level=0,5", *FAST, "--no-figures",
                 "--out", "l", cwd=tmp_path)  # fmt: skip
    assert levels.returncode == 0 and "note:" not in levels.stderr, levels.stderr
    three = cli("sweep", tiny.name, "--grid", "rules.pain_recovery_per_hour=1,2,3", *FAST,
                "--no-figures", "--out", "t", cwd=tmp_path)  # fmt: skip
    assert three.returncode == 0 and "note:" not in three.stderr, three.stderr
