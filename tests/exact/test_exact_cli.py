"""Exact answers on the outside (CONTRACT.md "Exact answers"): run_exact() and run --exact."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from simulator.studies.api import run_study
from simulator.studies.frames import summarize
from simulator.studies.method import Exact
from tests.cli.test_cli_study import CONTRACT_TYPES, cli, write
from tests.studies.test_frames import CONTRACT_KEYS, hand_made

ROOT = Path(__file__).resolve().parents[2]


def check_exact_summary(summary: dict) -> None:
    """The contract's keys with their types; trials and seed null; intervals [p, p + dropped]."""
    assert list(summary)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    for key, kind in CONTRACT_TYPES.items():
        if key in ("trials", "seed"):
            assert summary[key] is None
        else:
            assert isinstance(summary[key], kind), (key, summary[key])
    assert summary["method"] == "exact"
    dropped = summary["dropped_mass"]
    assert 0.0 <= dropped <= 1e-6
    assert isinstance(summary["states"], int) and summary["states"] >= 1
    for key in ("p_dead", "p_healed", "p_wounded", "p_incoherent"):
        low, high = summary[f"{key}_ci"]
        assert low == pytest.approx(summary[key], abs=1e-15)
        assert high == pytest.approx(min(1.0, summary[key] + dropped), abs=1e-15)
    shares = ("p_dead", "p_healed", "p_wounded", "p_incoherent")
    assert sum(summary[k] for k in shares) + dropped == pytest.approx(1.0, abs=1e-12)


def test_monte_carlo_summary_says_its_method():
    assert summarize(hand_made(), "Hand-made", seed=7)["method"] == "monte-carlo"


def test_run_exact_json_passes_the_contract(tmp_path):
    scenario = write(tmp_path, "tiny")
    out = tmp_path / "out"
    done = cli("run", str(scenario), "--exact", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)  # stdout holds the JSON object and nothing else
    assert summary["scenario"] == "Tiny grave wound"
    check_exact_summary(summary)
    for name in ("summary.csv", "summary.json", "curves.csv", "fate.png", "scenario.toml"):
        assert (out / name).is_file(), name
    assert pd.read_csv(out / "summary.csv")["p_dead"].iloc[0] == pytest.approx(summary["p_dead"])
    again = cli("run", str(scenario), "--exact", "--out", str(out), "--json")
    assert again.returncode == 0, again.stderr  # its own folder: written again
    assert json.loads(again.stdout)["p_dead"] == summary["p_dead"]  # no seed, no luck


def test_run_exact_prints_exact_and_the_dropped_mass(tmp_path):
    done = cli("run", str(ROOT / "scenarios" / "lone_traveller.toml"), "--exact",
               "--no-figures", "--out", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "exact" in done.stdout and "dropped mass" in done.stdout
    assert "dies" in done.stdout and "100.0000%" in done.stdout


def test_run_exact_refuses_too_many_states_with_exit_2(tmp_path):
    done = cli("run", str(ROOT / "scenarios" / "field_medic.toml"), "--exact",
               "--max-states", "20", "--out", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "--max-states" in done.stderr and "Monte Carlo" in done.stderr
    bad = cli("run", str(ROOT / "scenarios" / "lone_traveller.toml"), "--exact", "--eps", "2")
    assert bad.returncode == 2 and "--eps" in bad.stderr and "Traceback" not in bad.stderr


def test_run_exact_api_reads_any_statistic_at_any_time():
    result = run_study(ROOT / "scenarios" / "geraldine.toml", Exact(), overrides=["horizon=1d"])
    check_exact_summary(result.summary_json())
    assert result.stat("p_dead") == result.answer.p("dead")
    by_hour = result.stat("p_dead_by_1h")
    by_day = result.stat("p_dead_by_1d")
    assert 0.0 < by_hour < by_day == pytest.approx(result.stat("p_dead"))
    curves = result.curves(times=[1.0, 24.0])
    assert list(curves.columns) == ["time_h", "state", "share", "low", "high"]
    dead = curves[curves["state"] == "dead"]["share"].to_list()
    assert dead == pytest.approx([by_hour, by_day])
    deaths = result.distribution("dead")
    assert deaths["probability"].sum() == pytest.approx(result.stat("p_dead"))
    assert result.expected.set_index("count").loc["aggravations", "mean"] == pytest.approx(
        result.summary_json()["mean_aggravations"]
    )
    with pytest.raises(Exception, match="horizon"):
        result.stat("p_dead_by_2d")


def test_sweep_exact_json_lists_exact_summaries_with_points(tmp_path):
    scenario = write(tmp_path, "tiny")
    done = cli("sweep", str(scenario), "--exact", "--grid", "first_aid.level=0,3",
               "--set", "horizon=1d", "--out", str(tmp_path / "sweep"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    summaries = json.loads(done.stdout)
    assert [s["point"] for s in summaries] == [{"first_aid.level": 0}, {"first_aid.level": 3}]
    for summary in summaries:
        check_exact_summary({k: v for k, v in summary.items() if k != "point"})
    assert summaries[0]["p_dead"] > summaries[1]["p_dead"]  # better first aid, fewer deaths
    assert (tmp_path / "sweep" / "sweep.csv").is_file()
    assert (tmp_path / "sweep" / "sweep.png").is_file()


def test_compare_exact_differences_are_exact(tmp_path):
    scenario = write(tmp_path, "tiny")
    out = str(tmp_path / "cmp")
    done = cli("compare", str(scenario), str(scenario), "--set-b", "first_aid.level=3",
               "--set", "horizon=1d", "--exact", "--out", out, "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    check_exact_summary(data["a"])
    check_exact_summary(data["b"])
    diff = data["difference"]["p_dead"]
    assert diff["estimate"] == pytest.approx(data["a"]["p_dead"] - data["b"]["p_dead"])
    low, high = diff["ci"]
    assert low <= diff["estimate"] <= high and high - low < 1e-6
    assert (tmp_path / "cmp" / "compare.png").is_file()


def test_study_exact_writes_each_answer_and_the_index(tmp_path):
    directory = tmp_path / "scenarios"
    directory.mkdir()
    write(directory, "tiny")
    (directory / "lone.toml").write_bytes((ROOT / "scenarios" / "lone_traveller.toml").read_bytes())
    out = tmp_path / "out"
    done = cli("study", str(directory), "--exact", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(exact)" in done.stdout and "95% CI" not in done.stdout
    index = (out / "README.md").read_text(encoding="utf-8")
    assert "computed exactly" in index and "(exact)" in index
    for stem in ("tiny", "lone"):
        check_exact_summary(json.loads((out / stem / "summary.json").read_text(encoding="utf-8")))
        assert (out / stem / "fate.png").is_file()
    refused = cli("study", str(directory), "--exact", "--max-states", "1", "--out", str(out))
    assert refused.returncode == 2 and "Monte Carlo" in refused.stderr


def test_the_summarys_states_is_what_max_states_counts():
    """CONTRACT: ``states`` is the states carried, which --max-states bounds: set to it, the
    same computation goes through; one fewer stops it."""
    from simulator.errors import UserError
    from simulator.exact.engine import solve
    from simulator.scenario import load_scenario

    scenario = load_scenario(ROOT / "scenarios" / "lone_traveller.toml")
    summary = run_study(scenario, Exact()).summary_json()
    states = summary["states"]
    assert solve(scenario, max_states=states).carried == states
    with pytest.raises(UserError, match="over --max-states"):
        solve(scenario, max_states=states - 1)


def test_an_exact_answer_that_dropped_much_says_so():
    """--eps 0.5 drops every state: the "exact" shares are all 0, and a note says why."""
    from simulator.errors import HarmoniesNote
    from simulator.scenario import load_scenario

    scenario = load_scenario(ROOT / "scenarios" / "lone_traveller.toml")
    with pytest.warns(HarmoniesNote, match=r"dropped 1 of the probability .*--eps 0.5"):
        Exact(eps=0.5).solve(scenario)


def test_exact_curves_carry_no_float_leftovers():
    """``run_study(lone_traveller, Exact()).curves(times=[24])`` gave "wounded" 4.4e-16: the
    rest of ``1 - dropped - dead - ...`` when nothing is left but the subtractions' rounding."""
    from simulator.exact.answer import ExactAnswer, rest_share, summed_share
    from simulator.studies.api import run_study
    from simulator.studies.method import Exact

    result = run_study("scenarios/lone_traveller.toml", Exact())
    curves = result.curves(times=[24, result.horizon_h])
    assert (curves.loc[curves.state == "wounded", "share"] == 0).all()
    assert ((curves.share >= 0) & (curves.share <= 1) & (curves.high <= 1)).all()
    assert result.answer.by("wounded", 24) == 0
    assert rest_share(4.440892098500626e-16) == 0 and rest_share(-1e-17) == 0
    assert summed_share(1 - 2.220446049250313e-16) == 1 and summed_share(1 + 2e-16) == 1
    for meaningful in (1e-12, 1.4e-11, 0.5, 1 - 1e-12):  # a share of states is kept as it is
        assert rest_share(meaningful) == meaningful == summed_share(meaningful)
    lone = ExactAnswer(3600.0, 1e-12, outcomes={"dead": 1 - 2**-52, "healed": 0.0,
                                                "wounded": 0.0, "incoherent": 0.0})  # fmt: skip
    assert lone.p("dead") == 1 and lone.interval("dead") == [1.0, 1.0]
    # the rulebook's survival table read 1 - (p_dead + dropped) as 1.4e-15, not 0
    nearly = ExactAnswer(3600.0, 1e-12, outcomes={"dead": 0.9999999999798793, "healed": 0.0,
                                                  "wounded": 0.0, "incoherent": 0.0},
                         dropped=2.011923961e-11 - 1.443289932e-15)  # fmt: skip
    assert nearly.interval("dead")[1] == 1.0 and nearly.p("dead") == 0.9999999999798793
