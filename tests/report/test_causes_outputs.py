"""Q3 on the outside: the ``cause`` column, ``p_dead_by_cause`` in both methods, the printed
summary, ``compare``, ``trace``, the statistics of ``balance`` and ``sensitivity``, French."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from simulator.report.causes import CAUSE_LABELS, causes_phrase
from simulator.report.wording import answer
from simulator.rules.cause import CAUSES, DEATH_CAUSES
from simulator.studies.api import run_study
from simulator.studies.method import Exact
from simulator.studies.statistic import Statistic
from simulator.studies.stats import wilson
from tests.report.test_i18n import FRENCH
from tests.support import harmonies_sim

ROOT = Path(__file__).resolve().parents[2]
GERALDINE = ROOT / "scenarios" / "geraldine.toml"
SHORT = ("--set", "horizon=4d")
"""Géraldine over four days: every cause of her scenario already kills."""
EXACT_SET = [
    "horizon=2d",
    "first_aid.level=4",
    "healing.level=3",
    "rules.table.light.heal_period=12h",
]
"""A Géraldine whose exact answer is quick, and who dies of four causes within two days."""


def cli(*args: str | Path) -> dict | str:
    done = harmonies_sim(*args, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if "--json" in args else done.stdout


def dies_rows(text: str) -> list[str]:
    """The lines between "dies" and the next outcome of a printed summary."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(("dies", "meurt")))
    rows = []
    for line in lines[start + 1 :]:
        if not line.startswith("    "):
            break
        rows.append(line.strip())
    return rows


@pytest.fixture(scope="module")
def sampled(tmp_path_factory) -> tuple[dict, pd.DataFrame, Path]:
    out = tmp_path_factory.mktemp("run") / "out"
    summary = cli("run", GERALDINE, *SHORT, "--trials", "600", "--seed", "5", "--workers", "1",
                  "--out", out, "--json")  # fmt: skip
    assert isinstance(summary, dict)
    return summary, pd.read_parquet(out / "trials.parquet"), out


def test_q3_trials_frame_has_a_categorical_cause_empty_unless_dead_or_incoherent(sampled):
    _, trials, _ = sampled
    cause = trials["cause"]
    assert isinstance(cause.dtype, pd.CategoricalDtype)
    assert list(cause.dtype.categories) == list(CAUSES)
    ended = trials["outcome"].isin(["dead", "incoherent"])
    assert cause[ended].notna().all() and cause[~ended].isna().all()
    assert ended.any() and (~ended).any()


def test_q3_sampled_shares_by_cause_sum_to_p_dead_by_count_with_wilson_intervals(sampled):
    summary, trials, _ = sampled
    n = summary["trials"]
    assert list(summary["p_dead_by_cause"]) == list(DEATH_CAUSES)
    counts = {c: round(p * n) for c, p in summary["p_dead_by_cause"].items()}
    assert (
        sum(counts.values()) == round(summary["p_dead"] * n) == (trials["outcome"] == "dead").sum()
    )
    for cause, k in counts.items():
        assert k == ((trials["outcome"] == "dead") & (trials["cause"] == cause)).sum()
        assert summary["p_dead_by_cause_ci"][cause] == pytest.approx(list(wilson(k, n)))
    assert {"wound", "stable_test", "neglected_watch", "healing_failure"} <= {
        c for c, k in counts.items() if k
    }


def test_q3_run_writes_the_causes_figure_and_the_causes_in_the_summary_csv(sampled):
    summary, _, out = sampled
    assert (out / "causes.png").is_file()
    row = pd.read_csv(out / "summary.csv").iloc[0]
    for cause in DEATH_CAUSES:
        assert row[f"p_dead_{cause}"] == pytest.approx(summary["p_dead_by_cause"][cause])


def test_q3_exact_shares_by_cause_sum_to_p_dead_with_p_to_p_plus_dropped_intervals(tmp_path):
    out = tmp_path / "exact"
    args = [a for s in EXACT_SET for a in ("--set", s)]
    summary = cli("run", GERALDINE, *args, "--exact", "--out", out, "--json")
    assert isinstance(summary, dict)
    shares, dropped = summary["p_dead_by_cause"], summary["dropped_mass"]
    assert list(shares) == list(DEATH_CAUSES)
    assert sum(shares.values()) == pytest.approx(summary["p_dead"], abs=1e-12)
    for cause, p in shares.items():
        assert summary["p_dead_by_cause_ci"][cause] == pytest.approx([p, min(1.0, p + dropped)])
    assert shares["blow"] == 0.0 and shares["activity"] == 0.0 and shares["wound"] > 0.0
    assert (out / "causes.png").is_file()


def test_q3_exact_statistics_of_one_cause_at_the_horizon_and_by_a_time():
    result = run_study(GERALDINE, Exact(), overrides=EXACT_SET)
    summary = result.summary_json()
    assert result.stat("p_dead_healing_failure") == summary["p_dead_by_cause"]["healing_failure"]
    by_day = result.stat("p_dead_wound_by_1d")
    assert 0.0 < by_day <= result.stat("p_dead_wound") <= result.stat("p_dead")
    curves = result.cause_curves(points=3)  # 0, 1 d, 2 d
    wound = curves[curves["cause"] == "wound"]["share"].to_list()
    assert wound == pytest.approx([0.0, by_day, result.stat("p_dead_wound")])
    with pytest.raises(Exception, match="horizon"):
        result.stat("p_dead_wound_by_3d")


def test_q3_printed_summary_gives_the_causes_under_dies_largest_first_zeros_left_out(sampled):
    summary, _, _ = sampled
    text = cli("run", GERALDINE, *SHORT, "--trials", "600", "--seed", "5", "--workers", "1",
               "--no-figures", "--out", Path(str(sampled[2]) + "-print"))  # fmt: skip
    assert isinstance(text, str)
    rows = dies_rows(text)
    shown = [(c, p) for c, p in summary["p_dead_by_cause"].items() if p > 0]
    shown.sort(key=lambda item: -item[1])
    assert len(rows) == len(shown)
    for row, (cause, _) in zip(rows, shown, strict=True):
        assert row.startswith(CAUSE_LABELS[cause]) and "95% CI" in row


def test_q3_lang_fr_names_the_causes_in_french(sampled):
    text = cli("run", GERALDINE, *SHORT, "--trials", "600", "--seed", "5", "--workers", "1",
               "--no-figures", "--lang", "fr", "--out", Path(str(sampled[2]) + "-fr"))  # fmt: skip
    assert isinstance(text, str)
    rows = dies_rows(text)
    assert rows and any(row.startswith(FRENCH["a wound received"]) for row in rows)
    assert not any(row.startswith(label) for row in rows for label in CAUSE_LABELS.values())
    verdict = cli("trace", GERALDINE, "--seed", "3", "--find", "dead", "--lang", "fr")
    assert isinstance(verdict, str)
    assert "(cause : " in verdict.splitlines()[-1]


def test_q3_every_cause_has_a_french_name():
    assert set(CAUSE_LABELS) == set(CAUSES)
    assert all(label in FRENCH for label in CAUSE_LABELS.values())


def test_q3_trace_verdict_names_the_cause():
    text = cli("trace", GERALDINE, "--seed", "3", "--find", "dead")
    assert isinstance(text, str)
    last = text.splitlines()[-1]
    assert last.startswith("Outcome: dead (cause: ")
    assert any(f"(cause: {label})" in last for label in CAUSE_LABELS.values())


def test_q3_compare_gives_the_change_of_each_cause_with_its_interval(tmp_path):
    args = ["compare", GERALDINE, GERALDINE, *SHORT, "--set-b", "healing.level=4", "--trials",
            "400", "--seed", "2", "--workers", "1", "--no-figures"]  # fmt: skip
    found = cli(*args, "--out", tmp_path / "cmp", "--json")
    assert isinstance(found, dict)
    by_cause = found["difference_by_cause"]
    assert list(by_cause) == list(DEATH_CAUSES)
    for cause, d in by_cause.items():
        a, b = found["a"]["p_dead_by_cause"][cause], found["b"]["p_dead_by_cause"][cause]
        assert d["estimate"] == pytest.approx(a - b)
        assert d["ci"][0] <= d["estimate"] <= d["ci"][1]
    text = cli(*args, "--out", tmp_path / "cmp-print")
    assert isinstance(text, str)
    assert CAUSE_LABELS["healing_failure"] in text


def test_q3_statistics_name_a_cause_of_death():
    stat = Statistic.parse("p_dead_healing_failure")
    assert (stat.outcome, stat.cause, stat.by) == ("dead", "healing_failure", None)
    stat = Statistic.parse("p_dead_stable_test_by_1d")
    assert (stat.outcome, stat.cause, stat.by) == ("dead", "stable_test", 86400)
    assert Statistic.parse("p_dead_by_1d").cause is None
    for bad in ("p_healed_wound", "p_dead_poison", "p_dead_wound_by_soon"):
        with pytest.raises(ValueError, match="--target"):
            Statistic.parse(bad)


def test_q3_statistic_of_a_cause_counts_the_deaths_of_that_cause(sampled):
    _, trials, _ = sampled
    dead = (trials["outcome"] == "dead") & (trials["cause"] == "stable_test")
    assert (Statistic.parse("p_dead_stable_test").indicators(trials) == dead).all()
    early = dead & (trials["death_h"] <= 48.0)
    assert (Statistic.parse("p_dead_stable_test_by_2d").indicators(trials) == early).all()
    assert 0 < early.sum() < dead.sum()


def test_q3_balance_and_sensitivity_take_a_cause_as_their_statistic(tmp_path):
    sets = [a for s in EXACT_SET for a in ("--set", s)]
    keys, stat = "healing.level,first_aid.level", "p_dead_healing_failure"
    rows = cli("sensitivity", GERALDINE, *sets, "--keys", keys, "--stat", stat, "--exact",
               "--out", tmp_path / "s", "--json")  # fmt: skip
    assert isinstance(rows, list) and {row["key"] for row in rows} == {
        "healing.level",
        "first_aid.level",
    }
    assert all(row["swing"] > 0 and row["stat"] == stat for row in rows)
    found = cli("balance", GERALDINE, *sets, "--vary", "healing.level=-4..8", "--target",
                f"{stat}=0.005", "--exact", "--out", tmp_path / "b", "--json")  # fmt: skip
    assert isinstance(found, dict) and found["target"]["stat"] == stat
    low, high = found["low"]["stat"], found["high"]["stat"]
    assert min(low, high) <= 0.005 <= max(low, high)


def test_q3_causes_in_words_largest_first_zeros_left_out():
    shares = dict.fromkeys(DEATH_CAUSES, 0.0) | {"wound": 0.2, "stable_test": 0.5, "activity": 0.1}
    summary = {"p_dead_by_cause": shares}
    assert causes_phrase(summary) == (
        "a failed stable-period test 50.0%, a wound received 20.0%, rough activity 10.0%"
    )
    assert causes_phrase(summary, most=1) == "a failed stable-period test 50.0%, other causes 30.0%"
    assert causes_phrase({"p_dead_by_cause": dict.fromkeys(DEATH_CAUSES, 0.0)}) == ""
    assert answer({**SUMMARY, "p_dead_by_cause": shares}).endswith(
        " What opened the way to death: a failed stable-period test 50.0%, a wound received "
        "20.0%, rough activity 10.0%."
    )


SUMMARY = {
    "p_dead": 0.8,
    "p_dead_ci": [0.7, 0.9],
    "p_healed": 0.2,
    "p_healed_ci": [0.1, 0.3],
    "median_time_to_heal_h": None,
    "p_wounded": 0.0,
    "p_incoherent": 0.0,
}


def test_q3_causes_are_listed_in_one_order_largest_first_ties_in_the_contracts(tmp_path):
    """``run`` listed the causes largest first, ``compare`` in the CSV's fixed order and the
    workbench in another: every list a person reads now follows
    :func:`~simulator.report.causes.cause_order` (compare: A's shares, as ``run A``)."""
    from simulator.report.causes import cause_order, ranked_causes
    from simulator.web.words import _rows

    assert cause_order({"wound": 0.2, "stable_test": 0.5, "activity": 0.2}) == [
        "stable_test", "wound", "activity", "blow", "neglected_watch", "healing_failure",
        "basic_healing",
    ]  # fmt: skip
    assert list(DEATH_CAUSES) == ["blow", "wound", "stable_test", "neglected_watch",
                                  "healing_failure", "activity", "basic_healing"]  # fmt: skip
    args = ["compare", GERALDINE, GERALDINE, *SHORT, "--set-b", "healing.level=4", "--trials",
            "400", "--seed", "2", "--workers", "1"]  # fmt: skip
    text = cli(*args, "--out", tmp_path / "cmp")
    assert isinstance(text, str)
    found = json.loads((tmp_path / "cmp" / "compare.json").read_text(encoding="utf-8"))
    expected = [CAUSE_LABELS[c] for c, _, _ in ranked_causes(found["a"])]
    assert len(expected) >= 3 and expected != [
        CAUSE_LABELS[c] for c in DEATH_CAUSES if found["a"]["p_dead_by_cause"][c] > 0
    ]  # the fixed order would differ here: the test tells the two apart
    shown = dies_rows(text)
    assert [next(label for label in expected if row.startswith(label)) for row in shown][
        : len(expected)
    ] == expected
    page = (tmp_path / "cmp" / "report.html").read_text(encoding="utf-8")
    at = [page.index(f"Share dead after {label} at the horizon") for label in expected]
    assert at == sorted(at)
    # the workbench: the answer's own order, not the larger of it and the scenario as written
    numbers = {f"p_dead_{c}": 0.0 for c in DEATH_CAUSES} | {"p_dead_wound": 0.3,
                                                            "p_dead_stable_test": 0.1}  # fmt: skip
    base = {f"p_dead_{c}": 0.0 for c in DEATH_CAUSES} | {"p_dead_stable_test": 0.6,
                                                         "p_dead_blow": 0.05}  # fmt: skip
    keys = [key for key, _ in _rows(numbers, base, "en") if key.startswith("p_dead_")]
    assert keys[:3] == ["p_dead_wound", "p_dead_stable_test", "p_dead_blow"]
