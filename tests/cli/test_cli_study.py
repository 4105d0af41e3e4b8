"""The commands run, sweep, compare and study, through the real command line (CONTRACT.md)."""

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.runner.outdir import claim, record
from tests.support import harmonies_sim, tiny_scenario

CONTRACT_TYPES = {
    "scenario": str,
    "trials": int,
    "seed": int,
    "p_dead": float,
    "p_dead_ci": list,
    "p_healed": float,
    "p_healed_ci": list,
    "p_wounded": float,
    "p_incoherent": float,
    "median_time_to_heal_h": (float, type(None)),
    "mean_aggravations": float,
    "p_dead_by_cause": dict,
    "p_dead_by_cause_ci": dict,
}


def write(directory: Path, stem: str, level: int = 0, name: str | None = None) -> Path:
    path = directory / f"{stem}.toml"
    text = tiny_scenario(first_aid_level=level)
    if name:
        text = text.replace("Tiny grave wound", name)
    path.write_text(text, encoding="utf-8")
    return path


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return harmonies_sim(*args, cwd=cwd, timeout=60)


def check_summary(summary: dict, trials: int, seed: int) -> None:
    for key, kind in CONTRACT_TYPES.items():
        assert key in summary, key
        assert isinstance(summary[key], kind), (key, summary[key])
    assert summary["trials"] == trials
    assert summary["seed"] == seed
    for key in ("p_dead", "p_healed"):
        low, high = summary[f"{key}_ci"]
        assert 0.0 <= low <= summary[key] <= high <= 1.0
    shares = ("p_dead", "p_healed", "p_wounded", "p_incoherent")
    assert sum(summary[k] for k in shares) == pytest.approx(1.0)


def test_run_json_prints_only_the_summary(tmp_path):
    scenario = write(tmp_path, "tiny")
    out = tmp_path / "out"
    done = cli("run", str(scenario), "--trials", "120", "--seed", "3", "--workers", "1",
               "--out", str(out), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)  # stdout holds the JSON object and nothing else
    assert summary["scenario"] == "Tiny grave wound"
    check_summary(summary, 120, 3)
    for name in ("trials.parquet", "summary.csv", "fate.png", "time-to-heal.png"):
        assert (out / name).is_file(), name
    trials = pd.read_parquet(out / "trials.parquet")
    assert len(trials) == 120 and isinstance(trials["outcome"].dtype, pd.CategoricalDtype)
    assert pd.read_csv(out / "summary.csv")["p_dead"].iloc[0] == pytest.approx(summary["p_dead"])


def test_run_defaults_to_results_runs_of_the_stem(tmp_path):
    write(tmp_path, "ambush")
    done = cli("run", "ambush.toml", "--trials", "30", "--workers", "1", "--no-figures",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "results" / "runs" / "ambush" / "trials.parquet").is_file()
    assert (tmp_path / "results" / "runs" / "ambush" / "summary.csv").is_file()
    assert "dies" in done.stdout and "95% CI" in done.stdout
    assert "median time to heal" in done.stdout
    # A sweep of the same file goes beside it, not into the run's folder.
    run_scenario = (tmp_path / "results" / "runs" / "ambush" / "scenario.toml").read_bytes()
    swept = cli("sweep", "ambush.toml", "--grid", "first_aid.level=0,2", "--trials", "10",
                "--workers", "1", "--no-figures", cwd=tmp_path)  # fmt: skip
    assert swept.returncode == 0, swept.stderr
    assert (tmp_path / "results" / "runs" / "ambush-sweep-first_aid.level" / "sweep.csv").is_file()
    assert (tmp_path / "results" / "runs" / "ambush" / "scenario.toml").read_bytes() == run_scenario


def test_sweep_json_is_a_list_of_summaries_with_points(tmp_path):
    scenario = write(tmp_path, "tiny")
    out = tmp_path / "sweep"
    done = cli("sweep", str(scenario), "--grid", "first_aid.level=0,3",
               "--grid", "first_aid.start=5min,1h", "--trials", "40", "--seed", "2",
               "--workers", "2", "--out", str(out), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    summaries = json.loads(done.stdout)
    assert isinstance(summaries, list) and len(summaries) == 4
    points = [s["point"] for s in summaries]
    assert points == [
        {"first_aid.level": 0, "first_aid.start": "5min"},
        {"first_aid.level": 0, "first_aid.start": "1h"},
        {"first_aid.level": 3, "first_aid.start": "5min"},
        {"first_aid.level": 3, "first_aid.start": "1h"},
    ]
    for summary in summaries:
        check_summary(summary, 40, 2)
    frame = pd.read_csv(out / "sweep.csv")
    assert len(frame) == 4 and {"first_aid.level", "first_aid.start", "p_dead"} <= set(frame)
    assert (out / "sweep.png").is_file()


def test_compare_json_has_differences_with_intervals(tmp_path):
    a = write(tmp_path, "novice", level=0, name="Novice")
    b = write(tmp_path, "expert", level=4, name="Expert")
    done = cli("compare", str(a), str(b), "--trials", "150", "--seed", "1", "--workers", "1",
               "--out", str(tmp_path / "cmp"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= {"a", "b", "difference"}
    assert result["a"]["scenario"] == "Novice" and result["b"]["scenario"] == "Expert"
    check_summary(result["a"], 150, 1)
    check_summary(result["b"], 150, 1)
    shares = ["p_dead", "p_healed", "p_wounded", "p_incoherent"]
    means = ["mean_aggravations", "mean_survival_tests", "mean_first_aid_attempts",
             "mean_healing_tests", "mean_faints"]  # fmt: skip
    assert list(result["difference"]) == shares + means
    for key, value in result["difference"].items():
        assert isinstance(value["estimate"], float)
        if value["ci"] is None:  # a count that rarely moves: no interval claimed
            assert key in means
            continue
        low, high = value["ci"]
        assert low <= value["estimate"] <= high
        assert key in means or (low >= -1.0 and high <= 1.0)
        assert value["estimate"] == pytest.approx(result["a"][key] - result["b"][key])


def test_compare_one_file_against_itself_with_set_b_equals_two_files(tmp_path):
    a = write(tmp_path, "novice", level=0, name="Same")
    b = write(tmp_path, "expert", level=4, name="Same")
    common = ["--trials", "120", "--seed", "2", "--workers", "1", "--json", "--quiet"]
    two_files = cli("compare", str(a), str(b), "--out", str(tmp_path / "x"), *common)
    one_file = cli("compare", str(a), str(a), "--set-b", "first_aid.level=4",
                   "--out", str(tmp_path / "y"), *common)  # fmt: skip
    assert two_files.returncode == 0 and one_file.returncode == 0, one_file.stderr
    by_files, by_set = json.loads(two_files.stdout), json.loads(one_file.stdout)
    assert by_set["b"].pop("overrides") == ["first_aid.level=4"]  # said, so it can be told
    assert by_files["b"].pop("overrides") == [] and by_set["a"]["overrides"] == []
    # two files of one name: each side says its file (one file with --set-b says none)
    assert [by_files[side].pop("file") for side in "ab"] == ["novice.toml", "expert.toml"]
    assert by_files == by_set
    assert "B: Same (with first_aid.level=4)" in cli(
        "compare", str(a), str(a), "--set-b", "first_aid.level=4", "--no-figures",
        "--out", str(tmp_path / "z"), *common[:-2]).stdout  # fmt: skip
    bad = cli("compare", str(a), str(a), "--set-b", "first_aid.levl=4", *common)
    assert bad.returncode == 2 and "levl" in bad.stderr and "Traceback" not in bad.stderr


def test_study_writes_results_and_index(tmp_path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    write(scenarios, "novice", level=0, name="Novice")
    write(scenarios, "expert", level=4, name="Expert")
    out = tmp_path / "results"
    done = cli("study", str(scenarios), "--trials", "60", "--seed", "5", "--out", str(out),
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    for stem in ("novice", "expert"):
        folder = out / stem
        for name in ("summary.csv", "summary.json", "trials.parquet", "fate.png", "fate.svg"):
            assert (folder / name).is_file(), (stem, name)
        check_summary(json.loads((folder / "summary.json").read_text()), 60, 5)
    index = (out / "README.md").read_text(encoding="utf-8")
    assert "Does one grave wound kill with a novice first-aider?" in index
    assert "dies in " in index and "95% CI" in index
    assert "![" in index and "(novice/fate.png)" in index and "(expert/fate.png)" in index
    assert index.index("## Expert") < index.index("## Novice")  # sorted by file name


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "{s}", "--trials", "0"], "--trials"),
        (["run", "{s}", "--workers", "0", "--trials", "5"], "--workers"),
        (["run", "{dir}/missing.toml"], "missing.toml"),
        (["run", "{s}", "--set", "first_aid.levle=2", "--trials", "5"], "levle"),
        (["sweep", "{s}", "--grid", "first_aid.level"], "--grid"),
        (["sweep", "{s}", "--grid", "first_aid.level=1,,2"], "--grid first_aid.level"),
        (["sweep", "{s}", "--grid", "bogus.key=1,2", "--trials", "5"], "bogus"),
        (["compare", "{s}", "{dir}/missing.toml", "--trials", "5"], "missing.toml"),
        (["study", "{dir}/nowhere"], "nowhere"),
    ],
)
def test_user_mistakes_exit_2_with_a_message(tmp_path, args, needle):
    scenario = write(tmp_path, "tiny")
    filled = [a.replace("{s}", str(scenario)).replace("{dir}", str(tmp_path)) for a in args]
    result = CliRunner().invoke(main, [*filled, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert "Traceback" not in result.output


# --- the scenario saved with the results -----------------------------------------------------


def test_run_saves_the_scenario_as_simulated_and_running_it_again_gives_the_same_trials(tmp_path):
    scenario = write(tmp_path, "tiny")
    common = ["--trials", "80", "--seed", "6", "--workers", "1", "--no-figures", "--quiet"]
    changes = ["--set", "first_aid.level=2", "--set", "rules.table.grave.unstable_period=20min"]
    first = cli("run", str(scenario), *changes, "--out", str(tmp_path / "a"), *common)
    assert first.returncode == 0, first.stderr
    with_set = "Tiny grave wound (with first_aid.level=2, rules.table.grave.unstable_period=20min)"
    assert first.stdout.startswith(with_set)  # a changed scenario is never shown as the file's
    summary = json.loads((tmp_path / "a" / "summary.json").read_text(encoding="utf-8"))
    assert summary["overrides"] == changes[1::2]
    saved = tmp_path / "a" / "scenario.toml"
    text = saved.read_text(encoding="utf-8")
    assert "Run it again: harmonies-sim run scenario.toml --trials 80 --seed 6" in text
    assert 'unstable_period = "20min"' in text and "level = 2" in text
    again = cli("run", str(saved), "--out", str(tmp_path / "b"), *common)
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "a" / "trials.parquet"),
        pd.read_parquet(tmp_path / "b" / "trials.parquet"),
    )


def test_sweep_and_compare_save_their_scenarios(tmp_path):
    a = write(tmp_path, "novice", level=0, name="Novice")
    b = write(tmp_path, "expert", level=4, name="Expert")
    common = ["--trials", "20", "--workers", "1", "--no-figures", "--quiet"]
    swept = cli("sweep", str(a), "--grid", "first_aid.level=0,3", "--set", "healing.level=2",
                "--out", str(tmp_path / "s"), *common)  # fmt: skip
    assert swept.returncode == 0, swept.stderr
    base = (tmp_path / "s" / "scenario.toml").read_text(encoding="utf-8")
    assert "sets first_aid.level" in base and "[healing]\nlevel = 2\n" in base
    compared = cli("compare", str(a), str(b), "--out", str(tmp_path / "c"), *common)
    assert compared.returncode == 0, compared.stderr
    for side, name in (("a", "Novice"), ("b", "Expert")):
        text = (tmp_path / "c" / f"scenario-{side}.toml").read_text(encoding="utf-8")
        assert f'name = "{name}"' in text


def test_run_sweep_takes_a_scenario_object_as_well_as_a_file(tmp_path):
    from simulator.scenario.reading import load_scenario
    from simulator.studies.api import run_sweep

    path = write(tmp_path, "tiny")
    grid = {"first_aid.level": [0, 4], "patient.profile": ["humanoid", "hydra"]}
    by_file = run_sweep(path, grid, trials=30, seed=8, workers=1)
    by_object = run_sweep(load_scenario(path), grid, trials=30, seed=8, workers=1)
    pd.testing.assert_frame_equal(by_file.frame, by_object.frame)
    for one, other in zip(by_file.results, by_object.results, strict=True):
        pd.testing.assert_frame_equal(one.trials, other.trials)


def test_compare_notes_different_horizons_on_stderr_only(tmp_path):
    a = write(tmp_path, "ten_days", name="Ten days")
    b = tmp_path / "three_days.toml"
    b.write_text(a.read_text(encoding="utf-8").replace('"10d"', '"3d"'), encoding="utf-8")
    done = cli("compare", str(a), str(b), "--trials", "10", "--workers", "1", "--json",
               "--quiet", "--no-figures", "--out", str(tmp_path / "c"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["a"]["trials"] == 10
    assert "note: A runs 10d and B 3d" in done.stderr


def test_compare_notes_different_horizons_with_the_note_prefix_in_french(tmp_path):
    """The ``note:`` prefix stays as it is in every language: scripts look for it. The
    horizons are in French units, as the summaries give durations (``1w`` is ``7 j``)."""
    a = write(tmp_path, "ten_days", name="Ten days")
    b = tmp_path / "a_week.toml"
    b.write_text(a.read_text(encoding="utf-8").replace('"10d"', '"1w"'), encoding="utf-8")
    done = cli("compare", str(a), str(b), "--trials", "10", "--workers", "1", "--json",
               "--quiet", "--no-figures", "--lang", "fr", "--out", str(tmp_path / "c"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "note: A dure 10 j et B 7 j : « guérit »" in done.stderr
    assert "note :" not in done.stderr


def test_a_run_replaces_the_chunks_another_run_left_in_its_folder(tmp_path):
    # One folder, one result: another run's chunks there belong to the result replaced.
    scenario = write(tmp_path, "tiny")
    claim(tmp_path / "out")  # a folder of harmonies-sim's, where another run was stopped
    record(tmp_path / "out", [], complete=True)
    other = tmp_path / "out" / ".partial" / "0123456789abcdef0123"
    other.mkdir(parents=True)
    (other / "chunk-0-5.parquet").write_bytes(b"")
    done = cli("run", str(scenario), "--trials", "10", "--workers", "1", "--quiet",
               "--no-figures", "--out", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "note:" not in done.stderr
    assert not (tmp_path / "out" / ".partial").exists()


CENTURY_OF_SECONDS = """name = "A test every second for a century"
horizon = "36525d"
[patient]
cp_rs = 1000
rs_it = 1000
[[injuries]]
at = "0s"
level = "light"
[first_aid]
level = -1000
start = "1s"
interval = "1s"
[rules.table.light]
unstable_period = "1s"
"""


@pytest.mark.parametrize("trials, workers", [(3, 1), (300, 2)])
def test_counts_past_2_31_are_told_as_they_are(tmp_path, trials, workers):
    """Stop 44's fuzz round: 3,155,760,000 attempts came out as -1,139,207,296 (32 bits).

    The patient never fails a survival test nor is stabilised: a test of each kind every
    second of 36525 days. 3 trials run the kernel as plain Python, 300 compiled in workers.
    """
    scenario = tmp_path / "century.toml"
    scenario.write_text(CENTURY_OF_SECONDS, encoding="utf-8")
    out = tmp_path / "out"
    done = cli("run", str(scenario), "--trials", str(trials), "--seed", "1",
               "--workers", str(workers), "--no-figures", "--out", str(out), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    every_second = 36525 * 86400
    summary = json.loads(done.stdout)
    assert summary["mean_first_aid_attempts"] == every_second
    assert summary["mean_survival_tests"] == every_second
    trials_frame = pd.read_parquet(out / "trials.parquet")
    assert (trials_frame["first_aid_attempts"] == every_second).all()
    assert pd.read_csv(out / "summary.csv")["mean_survival_tests"].iloc[0] == every_second


def test_study_json_is_a_list_of_summaries_with_their_files(tmp_path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    write(scenarios, "novice", level=0, name="Novice")
    write(scenarios, "expert", level=4, name="Expert")
    done = cli("study", str(scenarios), "--trials", "60", "--seed", "5", "--json", "--out",
               str(tmp_path / "results"), "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)  # only JSON on stdout
    assert [a["file"] for a in answers] == ["expert.toml", "novice.toml"]
    for summary in answers:
        check_summary(summary, 60, 5)
    saved = json.loads((tmp_path / "results" / "novice" / "summary.json").read_text())
    assert {k: v for k, v in answers[1].items() if k != "file"} == saved


def test_study_json_keeps_the_answers_found_before_a_refused_scenario(tmp_path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    repo = Path(__file__).resolve().parents[2] / "scenarios"
    for name, stem in (("lone_traveller", "novice"), ("careless_watches", "wide")):
        text = (repo / f"{name}.toml").read_text(encoding="utf-8")
        (scenarios / f"{stem}.toml").write_text(text, encoding="utf-8")
    done = cli("study", str(scenarios), "--exact", "--max-states", "2000", "--json", "--out",
               str(tmp_path / "results"))  # fmt: skip
    assert done.returncode == 2 and "wide.toml" in done.stderr
    assert [a["file"] for a in json.loads(done.stdout)] == ["novice.toml"]
    # the left-out scenario leaves no empty folder, and the study's marker does not list it
    assert sorted(p.name for p in (tmp_path / "results").iterdir() if p.is_dir()) == ["novice"]
    marker = json.loads((tmp_path / "results" / ".harmonies-sim").read_text(encoding="utf-8"))
    assert marker["folders"] == ["novice"]


def test_study_no_figures_leaves_out_every_figure_and_page_and_the_index_names_files_alone(
    tmp_path,
):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    write(scenarios, "novice", level=0, name="Novice")
    out = tmp_path / "results"
    done = cli("study", str(scenarios), "--trials", "60", "--no-figures", "--out", str(out),
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    drawn = [p.name for p in out.rglob("*") if p.suffix in (".png", ".svg", ".html")]
    assert not drawn, drawn
    assert (out / "novice" / "summary.csv").is_file()
    index = (out / "README.md").read_text(encoding="utf-8")
    assert "![" not in index and ".png" not in index


def test_a_scenario_named_with_a_space_has_working_links_in_the_index(tmp_path):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "with space.toml").write_text(tiny_scenario(), encoding="utf-8")
    done = harmonies_sim("study", "scenarios", "--trials", "8", "--workers", "1", "--no-figures",
                         "--quiet", "--out", "res", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    index = (tmp_path / "res" / "README.md").read_text(encoding="utf-8")
    assert "(with%20space/summary.csv)" in index and "(with space/" not in index
    assert (tmp_path / "res" / "with space" / "summary.csv").is_file()
    (folder / "LOUD.TOML").write_text(tiny_scenario(), encoding="utf-8")
    again = harmonies_sim("study", "scenarios", "--trials", "8", "--workers", "1", "--no-figures",
                          "--quiet", "--out", "res", cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "LOUD.TOML: left out; a scenario file's name ends in .toml, in lower case" in (
        again.stderr
    )


# --- Ctrl-C while the files are written ------------------------------------------------------

STOPPED = {
    "en": "interrupted while writing the results: {out}/ holds only {files} so far (the figures "
    "and report.html unfinished); the same command again writes them all",
    "fr": "interrompu pendant l'écriture des résultats : {out}/ ne contient encore que {files} "
    "(les figures et report.html inachevés) ; la même commande relancée les écrit tous",
}


@pytest.mark.parametrize("lang", sorted(STOPPED))
def test_ctrl_c_while_drawing_the_figures_says_what_the_folder_holds_not_results_in(
    tmp_path, monkeypatch, lang
):
    """Ctrl-C once the answer is printed, while the figures are drawn: "Results in R/" was
    printed before "interrupted; the same command resumes", as if the results were there.
    The folder is named only once its files are all written; interrupted, the one line says
    which files it holds, that the figures and the report are unfinished, and that the same
    command writes them all (it does: from the trials it kept)."""
    from simulator.cli import common
    from simulator.studies.result import StudyResult

    scenario, out = write(tmp_path, "tiny"), tmp_path / "R"
    args = ["run", str(scenario), "--trials", "40", "--workers", "1", "--out", str(out)]

    def interrupted(self, where, formats):
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(common, "_TOLD", [])  # told once a process: this test's own
        patched.setattr(StudyResult, "_figures", interrupted)
        stopped = CliRunner().invoke(main, [*args, "--lang", lang])
    assert stopped.exit_code == 130, stopped.output
    assert "Results in" not in stopped.stdout and "Résultats dans" not in stopped.stdout
    assert "40" in stopped.stdout  # the answer was printed, before the files
    files = "scenario.toml, summary.csv, summary.json, trials.parquet"
    assert stopped.stderr.splitlines() == [STOPPED[lang].format(out=out, files=files)]
    assert not (out / "report.html").exists() and not (out / "fate.png").exists()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert again.stdout.rstrip().endswith(f"Results in {out}/")
    assert (out / "report.html").is_file() and (out / "fate.png").is_file()


@pytest.mark.parametrize("json_out", [False, True])
def test_results_in_comes_once_the_files_are_written(tmp_path, monkeypatch, json_out):
    """The answer first, then the files, then "Results in R/" (never with --json)."""
    import click

    from simulator.studies.result import StudyResult

    scenario, out = write(tmp_path, "tiny"), tmp_path / "R"
    real = StudyResult.save

    def saving(self, where, **options):
        click.echo("(saving)")
        return real(self, where, **options)

    monkeypatch.setattr(StudyResult, "save", saving)
    args = ["run", str(scenario), "--trials", "40", "--workers", "1", "--no-figures"]
    done = CliRunner().invoke(main, [*args, *(["--json"] if json_out else []), "--out", str(out)])
    assert done.exit_code == 0, done.output
    lines = done.stdout.rstrip().splitlines()
    if json_out:
        assert lines[-1] == "(saving)" and "Results in" not in done.stdout
    else:
        assert lines[-3:] == ["(saving)", "", f"Results in {out}/"]


def test_a_study_names_every_scenario_whose_folder_would_clash_at_once(tmp_path):
    """Three clashing names took three runs to learn of: only the first was said."""
    folder = tmp_path / "sc"
    folder.mkdir()
    write(folder, "fine")
    for stem in (".hidden", "README.md", "index.html"):
        write(folder, stem)
    result = CliRunner().invoke(
        main, ["study", str(folder), "--out", str(tmp_path / "out"), "--trials", "50"]
    )
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 3, lines
    for stem in (".hidden", "README.md", "index.html"):
        assert sum(f"{stem}.toml: its results would go to" in line for line in lines) == 1, lines
    assert not (tmp_path / "out").exists()


def test_the_study_index_shows_a_scenario_name_as_written_not_as_markup(tmp_path):
    """A name's <script>, *, | and [link](javascript:) went into README.md as Markdown."""
    folder = tmp_path / "sc"
    folder.mkdir()
    name = "<script>x</script> *bold* | [l](javascript:y) a_b"
    write(folder, "odd", name=name)
    result = CliRunner().invoke(
        main,
        ["study", str(folder), "--out", str(tmp_path / "out"), "--trials", "50", "--no-figures"],
    )
    assert result.exit_code == 0, result.output
    index = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    shown = r"\<script\>x\</script\> \*bold\* \| \[l\](javascript:y) a\_b"
    assert f"## {shown}" in index
    assert "<script>" not in index and "[l](javascript" not in index
