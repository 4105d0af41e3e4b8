"""One pipeline, two methods: every kind of study takes MonteCarlo or Exact, gives one type.

The scenario both can do: the lone traveller's grave wound, with a companion trying first aid
at level 3 every ten minutes (the exact engine carries a few thousand states; about 30% die).
Each Monte Carlo share must lie within 4 standard errors of the exact one (plus the mass the
exact answer dropped, about 1e-10), the standard error taken from the exact share. The seeds
are fixed; nothing is retried.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.errors import HarmoniesNote, UserError
from simulator.rules.durations import parse_duration
from simulator.scenario.overrides import parse_override
from simulator.scenario.writing import toml_value
from simulator.studies import (
    Exact,
    MonteCarlo,
    balance,
    run_compare,
    run_directory,
    run_study,
    run_sweep,
    sensitivity,
)
from simulator.studies.balance_study import BalanceResult
from simulator.studies.result import CompareResult, StudyResult, SweepResult
from simulator.studies.sampled import Sampled
from simulator.studies.sensitivity_study import SensitivityResult
from simulator.studies.solved import Solved

REPO = Path(__file__).resolve().parents[2]
LONE = REPO / "scenarios" / "lone_traveller.toml"
AID = ["first_aid.level=3", 'first_aid.start="10min"', 'first_aid.interval="10min"']
TRIALS = 2_000
SHARES = ("p_dead", "p_healed", "p_wounded", "p_incoherent")


def sampled() -> MonteCarlo:
    return MonteCarlo(trials=TRIALS, seed=20261201, workers=1)


def close(mc: float, exact: float, n: int = TRIALS, dropped: float = 1e-9) -> bool:
    """Within 4 standard errors of the exact share (the exact share's own)."""
    return abs(mc - exact) <= 4 * math.sqrt(exact * (1 - exact) / n) + dropped


def agree(mc: StudyResult, exact: StudyResult) -> None:
    a, b = mc.summary_json(), exact.summary_json()
    assert a["method"] == "monte-carlo" and b["method"] == "exact"
    for key in SHARES:
        assert close(a[key], b[key]), (key, a[key], b[key])
    for cause, p in b["p_dead_by_cause"].items():
        assert close(a["p_dead_by_cause"][cause], p), (cause, a["p_dead_by_cause"][cause], p)


def test_run_study_gives_one_type_with_either_method():
    mc = run_study(LONE, sampled(), overrides=AID)
    exact = run_study(LONE, Exact(), overrides=AID)
    assert type(mc) is type(exact) is StudyResult
    assert isinstance(mc.estimate, Sampled) and isinstance(exact.estimate, Solved)
    assert 0.2 < exact.stat("p_dead") < 0.4  # the check below means something
    agree(mc, exact)
    assert close(mc.stat("p_dead_by_1d"), exact.stat("p_dead_by_1d"))
    for frame in (mc.curves(points=5), exact.curves(points=5)):  # the same frame, whichever
        assert list(frame.columns) == ["time_h", "state", "share", "low", "high"]
        assert len(frame) == 5 * 5
    assert set(mc.summary.columns) <= set(exact.summary.columns)  # and the dropped mass...


def test_run_sweep_gives_one_type_with_either_method():
    grid = {"first_aid.level": [0, 3]}
    mc = run_sweep(LONE, grid, sampled(), overrides=AID)
    exact = run_sweep(LONE, grid, Exact(), overrides=AID)
    assert type(mc) is type(exact) is SweepResult
    assert set(mc.frame.columns) <= set(exact.frame.columns)
    for a, b in zip(mc.results, exact.results, strict=True):
        assert a.overrides == b.overrides
        agree(a, b)


def test_a_sweep_that_lets_its_trials_go_says_and_saves_the_same(tmp_path):
    grid = {"first_aid.level": [0, 3]}
    method = MonteCarlo(trials=600, seed=5, workers=1, chunk_size=250)
    kept = run_sweep(LONE, grid, method, overrides=AID, out=tmp_path / "kept")
    let_go = run_sweep(
        LONE, grid, method, overrides=AID, out=tmp_path / "let-go", keep_trials=False
    )
    assert kept.summaries_json() == let_go.summaries_json()
    for name in ("sweep.csv", "sweep.json"):
        assert (tmp_path / "kept" / name).read_bytes() == (tmp_path / "let-go" / name).read_bytes()
    assert not (tmp_path / "let-go" / ".partial").exists()  # the chunks are gone either way
    for point in kept.results:  # read back before the chunks went: the trials, whole
        assert len(point.estimate.trials) == 600
    assert let_go.results[1].stat("p_dead") == kept.results[1].stat("p_dead")  # the tally
    with pytest.raises(UserError, match="keep_trials=True"):
        let_go.results[0].estimate.trials  # noqa: B018


def test_run_compare_gives_one_type_with_either_method():
    better = ["first_aid.level=6"]
    mc = run_compare(LONE, LONE, sampled(), overrides=AID, overrides_b=better)
    exact = run_compare(LONE, LONE, Exact(), overrides=AID, overrides_b=better)
    assert type(mc) is type(exact) is CompareResult
    agree(mc.a, exact.a)
    agree(mc.b, exact.b)
    a, b = mc.to_json()["difference"], exact.to_json()["difference"]
    assert exact.to_json()["method"] == "exact" and "method" not in mc.to_json()
    for key in SHARES:  # the paired interval holds the exact difference
        low, high = a[key]["ci"]
        assert low - 1e-9 <= b[key]["estimate"] <= high + 1e-9, (key, a[key], b[key])


def test_run_directory_gives_one_type_with_either_method(tmp_path):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    text = LONE.read_text(encoding="utf-8")
    text += '\n[first_aid]\nlevel = 3\nstart = "10min"\ninterval = "10min"\n'
    (folder / "lone.toml").write_text(text, encoding="utf-8")
    shutil.copy(REPO / "scenarios" / "shaken.toml", folder / "shaken.toml")
    mc = run_directory(folder, sampled(), out=tmp_path / "mc")
    exact = run_directory(folder, Exact(), out=tmp_path / "exact")
    assert [p.name for p, _ in mc] == [p.name for p, _ in exact] == ["lone.toml", "shaken.toml"]
    for (_, a), (_, b) in zip(mc, exact, strict=True):
        assert type(a) is type(b) is StudyResult
        agree(a, b)
    assert "computed exactly" in (tmp_path / "exact" / "README.md").read_text(encoding="utf-8")
    assert "2,000 trials each" in (tmp_path / "mc" / "README.md").read_text(encoding="utf-8")


def test_a_scenario_left_out_of_an_exact_study_lets_its_folder_go(tmp_path):
    """A notebook runs the folder exactly, one scenario is over the budget, then samples it:
    the same process must not take its own leftover hold for another command's."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(REPO / "scenarios" / "shaken.toml", folder / "shaken.toml")
    shutil.copy(LONE, folder / "lone.toml")
    with pytest.raises(UserError, match=r"over Exact\(max_states=\.\.\.\) \(300\)"):
        run_directory(folder, Exact(max_states=300), out=tmp_path / "out", figures=False)
    again = run_directory(folder, sampled(), out=tmp_path / "out", figures=False)
    assert [p.name for p, _ in again] == ["lone.toml", "shaken.toml"]


def test_balance_gives_one_type_with_either_method():
    vary, target = "first_aid.level=0..8", "p_dead=0.3"
    with sampled() as mc:
        by_mc = balance(LONE, vary, target, mc, overrides=AID[1:])
    by_exact = balance(LONE, vary, target, Exact(), overrides=AID[1:])
    assert type(by_mc) is type(by_exact) is BalanceResult
    exact_at = {p.value: p.stat for p in by_exact.points}
    common = [p for p in by_mc.points if p.value in exact_at]
    assert len(common) >= 2  # the ends at least
    for point in common:
        assert close(point.stat, exact_at[point.value]), (point.value, point.stat)


def test_sensitivity_gives_one_type_with_either_method():
    keys = ["first_aid.level", "first_aid.interval"]
    with sampled() as mc:
        by_mc = sensitivity(LONE, mc, keys=keys, overrides=AID)
    by_exact = sensitivity(LONE, Exact(), keys=keys, overrides=AID)
    assert type(by_mc) is type(by_exact) is SensitivityResult
    for a, b in zip(by_mc.rows, by_exact.rows, strict=True):
        assert a.key == b.key
        assert close(a.base.stat, b.base.stat)
        for x, y in ((a.down, b.down), (a.up, b.up)):
            assert (x is None) == (y is None)
            if x is not None and y is not None:
                assert close(x.stat, y.stat), (a.key, x.stat, y.stat)


# --- typed values: every point is labelled with the value simulated --------------------------
PATIENTS = [{"cp_rs": 6, "rs_it": 6}, {"cp_rs": 9, "rs_it": 4}]
INJURIES = [[{"at": "0s", "level": "grave"}], [{"at": "0s", "level": "grave", "count": 2}]]
STARTS = ["30s", "1.5h"]
NEGLECT = [0.125, 1 / 3]


def test_a_sweep_of_arrays_tables_durations_and_probabilities_labels_what_it_ran():
    scenario = REPO / "scenarios" / "careless_watches.toml"
    grid = {
        "patient": PATIENTS,
        "injuries": INJURIES,
        "first_aid.start": STARTS,
        "watch.neglect_probability": NEGLECT,
    }
    found = run_sweep(scenario, grid, MonteCarlo(trials=10, seed=1, workers=1))
    summaries = found.summaries_json()
    assert len(summaries) == 16
    for point, result, summary in zip(found.points, found.results, summaries, strict=True):
        assert summary["point"] == point  # the value as given: dicts, lists, texts, floats
        shown = (v if isinstance(v, str) else toml_value(v) for v in point.values())  # 30s
        assert result.overrides == tuple(f"{k}={v}" for k, v in zip(point, shown, strict=True))
        for label, value in zip(result.overrides, point.values(), strict=True):
            assert parse_override(label)[1] == value  # a label --set reads back as it ran
        sc = result.scenario  # and exactly that value was simulated
        assert (sc.patient.cp_rs, sc.patient.rs_it) == tuple(point["patient"].values())
        assert [(i.at, i.level.name.lower(), i.count) for i in sc.injuries] == [
            (parse_duration(i["at"]), i["level"], i.get("count", 1)) for i in point["injuries"]
        ]
        assert sc.first_aid is not None and sc.first_aid.start == parse_duration(
            point["first_aid.start"]
        )
        assert (
            sc.watch is not None
            and sc.watch.neglect_probability == point["watch.neglect_probability"]
        )  # 1/3 is 1/3, not a text of it read back
    assert {p["watch.neglect_probability"] for p in found.points} == set(NEGLECT)


def test_a_sweep_refuses_a_value_no_scenario_file_can_hold():
    from simulator.errors import UserError

    with pytest.raises(UserError, match=r"^grid: got None; expected numbers"):
        run_sweep(LONE, {"first_aid.level": [None]}, MonteCarlo(trials=10, workers=1))


def test_an_exact_time_budget_stops_the_computation_saying_how_far_it_got():
    """Exact(time_budget) is the engine's own budget: it stops during the answer, not after it."""
    import time

    from simulator.errors import UserError

    started = time.perf_counter()
    with pytest.raises(UserError) as refused:
        run_study(REPO / "scenarios" / "geraldine.toml", Exact(time_budget=0.2))
    assert time.perf_counter() - started < 5.0
    said = str(refused.value)
    assert "time budget (0.2 s of CPU)" in said and "campaign time" in said


def test_exact_first_answers_a_small_table_exactly_and_samples_a_large_one():
    """The workbench's policy, a method of the studies (issue 30): exact within a budget of
    states (the same choice on every machine), else the Monte Carlo method given."""
    from simulator.scenario.reading import load_scenario
    from simulator.studies.method import EXACT_FIRST_STATES, ExactFirst

    small = load_scenario(REPO / "scenarios" / "geraldine_basic.toml")
    large = load_scenario(REPO / "scenarios" / "careless_watches.toml")
    sampled = MonteCarlo(trials=100, seed=3)
    policy = ExactFirst(sampled)
    assert policy.max_states == EXACT_FIRST_STATES
    chosen = policy.choose(small)
    assert isinstance(chosen, Exact) and chosen.max_states == EXACT_FIRST_STATES
    assert policy.answer(small) is policy.answer(small)  # remembered
    assert policy.answer(large) is None
    assert policy.choose(large) is sampled
    assert ExactFirst(sampled, max_states=1).answer(small) is None  # the budget is the count


def test_the_typed_summary_names_every_key_a_summary_has():
    """Issue 30: ``summary_json()`` is a ``Summary`` (a TypedDict, checked by mypy where the
    code reads it); every key a sampled or an exact summary writes is one of its keys."""
    from typing import get_type_hints

    from simulator.rules.outcome import Summary

    keys = set(get_type_hints(Summary))
    for method in (sampled(), Exact()):
        summary = run_study(LONE, method=method, figures=False).summary_json()
        assert set(summary) <= keys, set(summary) - keys
    assert {"p_dead", "p_dead_ci", "dropped_mass", "overrides"} <= keys


def test_a_comparison_with_the_basic_rules_says_what_they_leave_out(tmp_path):
    """B3, B4: first aid and the healer's level do not apply; said, not dropped silently."""
    from simulator.errors import HarmoniesNote

    geraldine = REPO / "scenarios" / "geraldine.toml"
    with pytest.warns(HarmoniesNote) as told:
        run_compare(geraldine, geraldine, Exact(), overrides=["horizon=1d"],
                    overrides_b=["ruleset=basic"])  # fmt: skip
    said = [str(w.message) for w in told]
    assert any(s.startswith("B: [first_aid] does not apply") for s in said), said
    assert any(s.startswith("B: healing.level does not apply") for s in said), said
    assert not any(s.startswith("A:") for s in said), said


def test_the_basic_rules_say_every_part_of_a_scenario_they_never_read(tmp_path):
    """B2, B3: activities, watches and the settings of pain, faints, stability and the rests
    are ignored under the basic rules; each is said once (a sweep's points together), and a
    setting left at its default, or one the basic rules read (D3's ties), is not."""
    from simulator.errors import HarmoniesNote
    from simulator.studies import run_sweep

    hydra = REPO / "scenarios" / "hydra.toml"  # an activity at 1d
    basic = ["ruleset=basic", "watch.neglect_probability=0.1", "rules.faint_duration=1h",
             "rules.rest_per_level=cumulative", "rules.tie_succeeds=false"]  # fmt: skip
    with pytest.warns(HarmoniesNote) as told:
        run_sweep(hydra, {"healing.level": [0, 2]}, Exact(), overrides=basic)
    said = [str(w.message) for w in told]
    expected = [
        "[first_aid] does not apply under the basic rules (B3)",  # hydra's regeneration
        "[[activities]] do not apply under the basic rules: no rough activity (B3)",
        "[watch] does not apply under the basic rules: no watches (B3)",
        "rules.faint_duration, rules.rest_per_level: not used under the basic rules",
        "healing.level does not apply under the basic rules",
    ]
    for text in expected:
        assert sum(text in s for s in said) == 1, (text, said)
    assert not any("tie_succeeds" in s for s in said), said
    advanced = [str(w.message) for w in _notes(lambda: run_study(hydra, Exact(), figures=False))]
    assert not any("basic rules" in s for s in advanced), advanced


def _notes(call):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w.message for w in caught]


def test_two_files_of_one_name_are_told_apart_by_their_files_never_by_their_name(tmp_path):
    """A copy saved by the workbench keeps its name: a comparison and a study's index name each
    side by its file too, so that no number reads as the other file's."""
    from simulator.report.pages import report_page

    folder = tmp_path / "scenarios"
    folder.mkdir()
    text = LONE.read_text(encoding="utf-8")
    (folder / "lone.toml").write_text(text, encoding="utf-8")
    (folder / "lone_aided.toml").write_text(
        text + '\n[first_aid]\nlevel = 3\nstart = "10min"\ninterval = "10min"\n', encoding="utf-8"
    )
    method = MonteCarlo(trials=200, seed=1, workers=1)
    out = tmp_path / "compare"
    told = run_compare(folder / "lone.toml", folder / "lone_aided.toml", method, out=out)
    name = told.a.scenario.name
    assert (told.a.title, told.b.title) == (f"{name} (lone.toml)", f"{name} (lone_aided.toml)")
    summary = told.to_json()
    assert (summary["a"]["file"], summary["b"]["file"]) == ("lone.toml", "lone_aided.toml")
    page = report_page(out)
    assert page.title == f"A: {name} (lone.toml)  vs  B: {name} (lone_aided.toml)"
    same = run_compare(LONE, LONE, method, overrides_b=["first_aid.level=3", *AID[1:]])
    assert same.a.title == name and "file" not in same.to_json()["a"]  # one file: its name
    run_directory(folder, method, out=tmp_path / "study", figures=False)
    index = (tmp_path / "study" / "README.md").read_text(encoding="utf-8")
    assert f"## {name} (lone.toml)\n" in index and f"## {name} (lone_aided.toml)\n" in index


def test_a_study_of_a_folder_of_ones_own_is_not_titled_the_main_study(tmp_path):
    """Only `make run`'s index is "the main study"; a designer's study names its folder."""
    from simulator.report.i18n import language
    from simulator.studies.main_study import study_title

    folder = Path("mine")
    assert study_title(folder, "make run") == "Results of the main study"
    assert study_title(folder, "harmonies-sim study mine") == "Results of the study of mine/"
    with language("fr"):
        assert study_title(folder, None) == "Résultats de l'étude de mine/"


def test_a_scenario_left_out_of_an_exact_study_is_said_in_its_index_page_too(tmp_path):
    """index.html said "every scenario, computed exactly" and left one out silently; its
    numbers are written as the terminal writes them (2,945,949 states), in README.md too."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(REPO / "scenarios" / "shaken.toml", folder / "shaken.toml")
    shutil.copy(LONE, folder / "lone.toml")
    with pytest.raises(UserError, match=r"over Exact\(max_states=\.\.\.\) \(300\)"):
        run_directory(folder, Exact(max_states=300), out=tmp_path / "out")
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    readme = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    for text in (page, readme):
        assert "Left out (too many states for --exact; use Monte Carlo):" in text
        assert "shaken.toml" in text and "over Exact(max_states=...) (300)" in text  # as called
        assert "1,560 h of 2,160 h" in text  # numbers written as the terminal writes them


def test_numpy_integers_are_integers_to_a_study():
    """A notebook writes ``np.arange(0, 3)`` for a grid and gets np.int64 from numpy: they
    were refused ("got np.int64(0); expected numbers"). The same numbers as Python's ints."""
    field = REPO / "scenarios" / "field_medic.toml"
    mc = MonteCarlo(trials=np.int64(200), seed=np.int64(3), workers=np.int64(1))
    assert type(mc.trials) is int and type(mc.seed) is int and type(mc.workers) is int
    by_numpy = run_sweep(field, {"first_aid.level": np.arange(0, 2)}, mc).frame
    by_python = run_sweep(field, {"first_aid.level": [0, 1]}, MonteCarlo(200, 3, 1)).frame
    assert by_numpy.equals(by_python)
    assert run_study(field, mc).summary_json()["trials"] == 200


def test_overrides_as_a_notebook_writes_them():
    """One "KEY=VALUE" string was read one character at a time (a wall of errors); a mapping
    and (key, value) pairs crashed. Each is now the override it says, the same numbers."""
    field = REPO / "scenarios" / "field_medic.toml"
    mc = MonteCarlo(trials=200, seed=4, workers=1)
    listed = run_study(field, mc, overrides=["patient.cp_rs=3"]).summary_json()
    ordered = ("patient.cp_rs=3", {"patient.cp_rs": 3}, [("patient.cp_rs", 3)],
               np.array(["patient.cp_rs=3"]), (text for text in ["patient.cp_rs=3"]))  # fmt: skip
    for given in ordered:
        same = run_study(field, mc, overrides=given).summary_json()
        assert same["p_dead"] == listed["p_dead"] and same["trials"] == 200, given
    assert run_study(field, mc, overrides=None).summary_json()["p_dead"] != listed["p_dead"]
    bad_ones = ((42, "expected a list of"), ([3], "(key, value) pairs"),
                ({"patient.cp_rs=3"}, "expected a list of"))  # a set has no order  # fmt: skip
    for bad, words in bad_ones:
        with pytest.raises(UserError, match=r"overrides: got .*" + re.escape(words)):
            run_study(field, mc, overrides=bad)


@pytest.mark.parametrize("method", ["exact", Exact, 3])
def test_a_method_that_is_not_one_is_a_user_error(method):
    """``run_study(S, "exact")`` and ``Exact`` (the class) failed deep inside
    (AttributeError, TypeError); each study names what it expects."""
    with pytest.raises(UserError, match=r"method: got .* expected MonteCarlo\(.*\) or Exact\(\)"):
        run_study(LONE, method)
    with pytest.raises(UserError, match="expected MonteCarlo"):
        balance(LONE, "patient.cp_rs=0..8", "p_dead=0.1", method)
    with pytest.raises(UserError, match="expected MonteCarlo"):
        sensitivity(LONE, method, keys=["patient.cp_rs"])


def test_a_note_names_the_callers_line_and_is_told_each_time():
    """In a notebook a note showed the package's own source line, and the same mistake made
    twice was told once (Python shows a warning once per line of code)."""
    import warnings

    mc = MonteCarlo(trials=20, seed=1, workers=1)
    field = REPO / "scenarios" / "field_medic.toml"
    with warnings.catch_warnings(record=True) as said:
        warnings.resetwarnings()
        warnings.filterwarnings("always", category=HarmoniesNote)  # as the package sets it
        for _ in range(2):
            run_sweep(field, {"patient.cp_rs": [1, 2]}, mc, overrides=["patient.cp_rs=5"])
    notes = [w for w in said if issubclass(w.category, HarmoniesNote)]
    assert len(notes) == 2 and all(w.filename == __file__ for w in notes), notes
    import subprocess
    import sys

    shown = "from simulator.errors import note; note('once'); note('twice')"
    told = subprocess.run(
        [sys.executable, "-c", shown], capture_output=True, text=True, check=True, cwd=REPO
    ).stderr
    assert "once" in told and "twice" in told  # each told, with no filter of the user's
    quiet = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", shown],
        capture_output=True, text=True, check=True, cwd=REPO,
    ).stderr  # fmt: skip
    assert quiet == ""  # a filter the user set wins (the package's is appended, last)


def test_a_scenario_in_hand_takes_overrides_as_its_file_does():
    """``run_study(load_scenario(...), overrides=[...])`` was refused ("give a path"), and
    ``dataclasses.replace`` skipped every check; now the same numbers as the file's."""
    from simulator.scenario.reading import load_scenario

    field = REPO / "scenarios" / "field_medic.toml"
    mc = MonteCarlo(trials=300, seed=1, workers=1)
    shorter = ['horizon="1d"']
    in_hand = run_study(load_scenario(field), mc, overrides=shorter).summary_json()
    assert in_hand == run_study(field, mc, overrides=shorter).summary_json()
    with pytest.raises(UserError, match=r"patient\.nope: got 1; expected a known key"):
        run_study(load_scenario(field), mc, overrides=["patient.nope=1"])


@pytest.mark.parametrize("points", [1, -3, 2.5, True, "10"])
def test_curves_refuse_a_count_of_points_that_is_none(points):
    """``curves(1)``, ``curves(2.5)`` gave two points in silence, ``curves("10")`` ten."""
    result = run_study(LONE, MonteCarlo(trials=50, seed=1, workers=1))
    with pytest.raises(UserError, match=r"points: got .*; expected a whole number of 2 or more"):
        result.curves(points)
    with pytest.raises(UserError, match=r"times: got .*; expected hours from 0 to the horizon"):
        result.curves(times=[] if points is True else [-1.0])
    assert len(result.curves(times=np.array([0.0, 1.0]))["time_h"].unique()) == 2


def test_the_basic_rules_gather_the_keys_they_never_read_into_one_note():
    """A sweep of two keys the basic rules never read: one note naming both (it was three:
    each key, then both), the table's cells included; a balance over one says it too."""
    from simulator.errors import HarmoniesNote
    from simulator.studies import run_sweep
    from simulator.studies.balance_study import balance

    basic = REPO / "scenarios" / "geraldine_basic.toml"
    grid = {"rules.faint_duration": ["15min", "1h"], "rules.table.grave.unstable_period":
            ["15min", "2h"]}  # fmt: skip
    with pytest.warns(HarmoniesNote) as told:
        run_sweep(basic, grid, Exact())
    said = [str(w.message) for w in told if "not used under the basic rules" in str(w.message)]
    assert len(said) == 1, said
    assert "rules.table.grave.unstable_period, rules.faint_duration" in said[0] or (
        "rules.faint_duration, rules.table.grave.unstable_period" in said[0]
    ), said
    with pytest.warns(HarmoniesNote) as told:
        balance(basic, "rules.table.grave.pain=1..8", "p_dead=0.5", Exact())
    assert any("rules.table.grave.pain: not used" in str(w.message) for w in told)
    from simulator.studies.sensitivity_study import sensitivity

    keys = ["rules.table.grave.pain", "rules.pain_recovery_per_hour", "patient.cp_rs"]
    with pytest.warns(HarmoniesNote) as told:  # --keys the basic rules never read: said too
        sensitivity(basic, Exact(), keys=keys)
    said = [str(w.message) for w in told if "not used under the basic rules" in str(w.message)]
    assert len(said) == 1 and "rules.table.grave.pain, rules.pain_recovery_per_hour:" in said[0]
    assert "patient.cp_rs" not in said[0]


def test_a_scenario_in_hand_without_overrides_is_checked_as_its_file_is():
    """``dataclasses.replace`` made what no file could hold, and it ran in silence (a
    neglect probability of 2: every campaign dead) or crashed deep inside (a text horizon)."""
    import dataclasses

    from simulator.errors import ScenarioError
    from simulator.scenario.reading import load_scenario

    mc = MonteCarlo(trials=50, seed=1, workers=1)
    s = load_scenario(REPO / "scenarios" / "geraldine.toml")
    assert run_study(s, mc).summary_json()["trials"] == 50  # a good one runs as before
    bad = dataclasses.replace(s, watch=dataclasses.replace(s.watch, neglect_probability=2.0))
    said = (r"the Scenario 'G.*' \(read from .*geraldine\.toml\): "
            r"watch\.neglect_probability: got 2\.0; expected a probability")  # fmt: skip
    with pytest.raises(ScenarioError, match=said):
        run_study(bad, mc)
    with pytest.raises(UserError, match=r"a field of the wrong type"):
        run_study(dataclasses.replace(s, horizon="1d"), mc)
    for nothing in (None, {"name": "x"}):
        with pytest.raises(UserError, match=r"expected a scenario file's path or a Scenario"):
            run_study(nothing, mc)  # type: ignore[arg-type]
    with pytest.raises(UserError, match=r"a field of the wrong type"):
        run_sweep(dataclasses.replace(s, horizon="1d"), {"first_aid.level": [0]}, mc)


def test_a_grid_of_numpy_numbers_is_saved_and_a_grid_not_a_mapping_is_refused(tmp_path):
    """``np.arange`` ran every trial, then the sweep crashed writing sweep.json (np.int64)."""
    import json

    field = REPO / "scenarios" / "field_medic.toml"
    mc = MonteCarlo(trials=40, seed=2, workers=1)
    grid = {"first_aid.level": np.arange(2), "watch.neglect_probability": np.linspace(0, 1, 2)}
    swept = run_sweep(field, grid, mc, out=tmp_path / "s", figures=False)
    assert [type(v) for v in swept.points[1].values()] == [int, float]
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())  # written
    for bad in ("first_aid.level=0,3", [("first_aid.level", [0])]):
        with pytest.raises(UserError, match=r"^grid: got .*; expected a mapping"):
            run_sweep(field, bad, mc)  # type: ignore[arg-type]
    with pytest.raises(UserError, match=r'^grid\["first_aid\.level"\]: got 3; expected a list'):
        run_sweep(field, {"first_aid.level": 3}, mc)  # type: ignore[dict-item]


def test_balance_and_sensitivity_take_their_method_as_every_study_does():
    """``method=`` and ``trials=`` were TypeErrors (a required positional ``evaluator``)."""
    vary, target = "first_aid.level=0..8", "p_dead=0.3"
    with sampled() as mc:
        given = balance(LONE, vary, target, mc, overrides=AID[1:])
        named = balance(LONE, vary, target, method=mc, overrides=AID[1:])
        with pytest.raises(UserError, match="got evaluator and method"):
            balance(LONE, vary, target, mc, method=mc)
        ranked = sensitivity(LONE, mc, keys=["first_aid.level"], overrides=AID)
    made = balance(LONE, vary, target, overrides=AID[1:], trials=TRIALS, seed=20261201, workers=1)
    assert given.to_json() == named.to_json() == made.to_json()
    again = sensitivity(LONE, keys=["first_aid.level"], overrides=AID, trials=TRIALS,
                        seed=20261201, workers=1)  # fmt: skip
    assert [r.swing for r in again.rows] == [r.swing for r in ranked.rows]
    with pytest.raises(
        UserError, match=r"^target: got \(.p_dead., 0\.3\); expected STAT=VALUE with a share"
    ):
        balance(LONE, vary, ("p_dead", 0.3), Exact(), overrides=AID[1:])  # type: ignore[arg-type]
    with pytest.raises(UserError, match=r"^vary: got \('first_aid\.level', 0, 8\)"):
        balance(LONE, ("first_aid.level", 0, 8), target, Exact())  # type: ignore[arg-type]


def test_exact_takes_numpy_numbers_and_names_the_outcomes_it_has():
    method = Exact(eps=np.float32(1e-9), max_states=np.int64(100_000))
    found = run_study(LONE, method)  # refused: "got np.int64(100000); expected a positive..."
    assert type(method.max_states) is int and type(method.eps) is float
    assert (
        found.summary_json()["p_dead"] == run_study(LONE, Exact(eps=1e-9)).summary_json()["p_dead"]
    )
    with pytest.raises(UserError, match=r"distribution: got 'healedd'; expected one of dead, "):
        found.distribution("healedd")


def test_load_scenario_takes_overrides_as_the_studies_do():
    """One text was read a character at a time, a mapping key by key."""
    from simulator.scenario.reading import load_scenario

    field = REPO / "scenarios" / "field_medic.toml"
    for given in ("first_aid.level=6", {"first_aid.level": 6}, ["first_aid.level=6"]):
        assert load_scenario(field, given).first_aid.level == 6, given


def test_an_output_folder_given_from_python_expands_the_home_folder(tmp_path, monkeypatch):
    """``out="~/..."`` from a notebook is the home folder's, as the shell and pandas read it,
    both where a study is run with it and where a result is saved there later."""
    from simulator.kernel.cache import cache_base

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache_base()))  # the compiled kernel's, still
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    run_study(LONE, MonteCarlo(trials=50, seed=1, workers=1), out="~/run", figures=False)
    assert (tmp_path / "home" / "run" / "summary.json").is_file()
    result = run_study(LONE, Exact())
    result.save("~/solved", figures=False)
    assert (tmp_path / "home" / "solved" / "summary.json").is_file()
    assert not (tmp_path / "~").exists()


def test_an_exact_answer_over_its_limits_names_the_point_value_or_notch():
    """Under --exact a sweep's point, a balance's value and a sensitivity's notch over the
    state budget say which; the error stays an ExactLimitError (a notebook falls back to
    sampling on it). A sensitivity leaves such a notch out (null) and computes the others:
    Cp+Rs 6 carries 269 states, 5 carries 93, 7 carries 433."""
    from simulator.errors import ExactLimitError

    tight = Exact(max_states=300)
    with pytest.raises(ExactLimitError, match=r"the point patient\.cp_rs=7 of the grid: "):
        run_sweep(LONE, {"patient.cp_rs": [5, 7]}, tight)
    over = r"^with patient\.cp_rs=7: .*raise Exact\(max_states=\.\.\.\)"  # as the call says
    with pytest.raises(ExactLimitError, match=over):
        balance(LONE, "patient.cp_rs=5..7", "p_dead=0.5", method=tight)
    with pytest.warns(HarmoniesNote, match=r"patient\.cp_rs=7: left out of the sensitivity"):
        result = sensitivity(LONE, method=tight, keys=["patient.cp_rs"])
    row = result.rows[0]
    assert row.up is None and row.up_value is None and row.down_value == 5
    assert row.down is not None and row.swing == abs(row.down.stat - row.base.stat)
    assert row.within_dropped_mass  # the lone traveller dies at 5 as at 6 but for 1e-11
    assert result.to_json()[0]["up"] is None
    with pytest.raises(ExactLimitError, match=r"^the scenario as it is: "):
        sensitivity(LONE, method=Exact(max_states=200), keys=["patient.cp_rs"])


def test_each_scenario_left_out_of_an_exact_study_is_its_own_error_line(tmp_path):
    """Two scenarios over the budget were one error whose two reasons were joined by a line
    break, which the command line prints escaped, on one line (``...\\n...``)."""
    from simulator.cli.app import main

    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(REPO / "scenarios" / "shaken.toml", folder / "shaken.toml")
    shutil.copy(REPO / "scenarios" / "shaken.toml", folder / "shaken_again.toml")
    shutil.copy(LONE, folder / "lone.toml")
    done = CliRunner().invoke(main, ["study", str(folder), "--exact", "--max-states", "300",
                                     "--no-figures", "--out", str(tmp_path / "out")])  # fmt: skip
    assert done.exit_code == 2, done.output
    lines = done.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == [
        str(folder / "shaken.toml"),
        str(folder / "shaken_again.toml"),
    ], lines
    assert all(line.startswith("error: ") and "\\n" not in line for line in lines)


def test_extra_studies_left_out_are_named_by_their_description():
    from simulator.studies.main_study import _solve_each

    class Over:
        def run(self, _):
            raise UserError("a.toml: over --max-states (300)")

    class Answered:
        def run(self, _):
            return ["answer"]

    found, refused = _solve_each([Answered()], [[Over()]], ["scenarios/studies/a.toml"])
    assert found == [["answer"]]
    said = str(UserError(refused[0]))
    assert said == (
        "a.toml: over --max-states (300); left out: the extra studies of "
        "scenarios/studies/a.toml (the scenario's own answer is written)"
    )
