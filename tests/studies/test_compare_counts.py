"""A comparison's mean counts per trial: A − B with Student's paired interval, or exact."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.studies.api import run_compare
from simulator.studies.method import Exact
from simulator.studies.result import COUNTED
from simulator.studies.stats import paired_mean_difference
from tests.support import harmonies_sim

ROOT = Path(__file__).resolve().parents[2]
GERALDINE = ROOT / "scenarios" / "geraldine.toml"
TEN_DAYS = ["horizon=10d"]
BETTER_AID = ["first_aid.level=3"]


def test_paired_mean_difference_is_students_interval_of_the_differences():
    a = np.arange(30) % 3 + 1  # 1, 2, 3, 1, 2, 3...: 20 trials differ from the most common
    estimate, (low, high) = paired_mean_difference(a, np.zeros(30))
    half = 2.04522964 * np.std(a, ddof=1) / math.sqrt(30)  # t(0.975, 29 degrees)
    assert estimate == 2.0
    assert (low, high) == pytest.approx((2.0 - half, 2.0 + half), rel=1e-8)
    with pytest.raises(ValueError, match="same non-zero length"):
        paired_mean_difference([1, 2], [1])


def test_a_count_that_rarely_moves_gets_no_interval_rather_than_a_false_one():
    # a review's coverage runs: with a faint in one trial of thirty, Student's interval held
    # the exact difference 45% of the time, and none at all when no trial differed (0 to 0)
    rare = np.zeros(1000)
    rare[:9] = 1  # nine trials differ from the common difference: no interval
    estimate, ends = paired_mean_difference(rare, np.zeros(1000))
    assert estimate == 0.009 and all(math.isnan(e) for e in ends)
    rare[9] = 1  # ten do: Student's interval
    estimate, (low, high) = paired_mean_difference(rare, np.zeros(1000))
    assert low < estimate < high and low > -0.01
    same = np.full(50, 3.0)  # b = a + 1 in every trial: no trial differs from the common one
    one, ends = paired_mean_difference(same, same + 1)
    assert one == -1.0 and all(math.isnan(e) for e in ends)
    single, ends = paired_mean_difference([3], [1])
    assert single == 2.0 and all(math.isnan(e) for e in ends)


def test_sampled_mean_count_differences_are_the_paired_t_intervals_of_the_trials():
    result = run_compare(GERALDINE, GERALDINE, overrides=TEN_DAYS, overrides_b=BETTER_AID,
                         trials=400, seed=5, workers=1)  # fmt: skip
    frame = result.difference.set_index("measure")
    a, b = result.a.trials, result.b.trials
    for key in COUNTED:
        column = key[len("mean_") :]
        d = a[column].to_numpy(np.float64) - b[column].to_numpy(np.float64)
        half = 1.9659 * d.std(ddof=1) / math.sqrt(d.size)  # t(0.975, 399)
        row = frame.loc[key]
        assert row["a"] == pytest.approx(a[column].mean()) and row["b"] == pytest.approx(
            b[column].mean()
        )
        assert row["difference"] == pytest.approx(d.mean())
        assert (row["low"], row["high"]) == pytest.approx((d.mean() - half, d.mean() + half),
                                                          rel=1e-3)  # fmt: skip
    data = result.to_json()["difference"]
    assert list(data) == ["p_dead", "p_healed", "p_wounded", "p_incoherent", *COUNTED]
    # the pairing pays: first-aid attempts move together on the same streams
    attempts = data["mean_first_aid_attempts"]["ci"]
    col = "first_aid_attempts"
    unpaired = 1.96 * math.sqrt((a[col].var() + b[col].var()) / len(a))
    assert attempts[1] - attempts[0] < 2 * unpaired


def test_sampled_mean_count_differences_agree_with_the_exact_ones():
    # statistical, fixed seed: each sampled difference within 4 standard errors of the exact
    # one (the exact side dropped under 1e-8 of mass, far below these errors)
    exact = run_compare(GERALDINE, GERALDINE, Exact(), overrides=TEN_DAYS, overrides_b=BETTER_AID)
    sampled = run_compare(GERALDINE, GERALDINE, overrides=TEN_DAYS, overrides_b=BETTER_AID,
                          trials=20_000, seed=11)  # fmt: skip
    assert max(exact.a.dropped_mass, exact.b.dropped_mass) < 1e-8
    truth = exact.difference.set_index("measure")
    found = sampled.difference.set_index("measure")
    moved = 0
    for key in COUNTED:
        row = found.loc[key]
        se = (row["high"] - row["low"]) / (2 * 1.96)
        assert se > 0, key
        assert abs(row["difference"] - truth.loc[key, "difference"]) <= 4 * se, key
        moved += abs(truth.loc[key, "difference"]) > 0.4
    assert moved == 5  # every count differs between the two: the test reads each one


def test_exact_mean_count_differences_have_no_bounds_once_mass_is_dropped(tmp_path):
    done = harmonies_sim(
        "compare", str(GERALDINE), str(GERALDINE), "--set", "horizon=10d",
        "--set-b", "first_aid.level=3", "--exact", "--no-figures", "--out", "c", "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["a"]["dropped_mass"] > 0
    for key in COUNTED:
        entry = data["difference"][key]
        assert entry["ci"] is None, key
        assert entry["estimate"] == pytest.approx(data["a"][key] - data["b"][key], abs=1e-12)
    text = (tmp_path / "c" / "compare.csv").read_text(encoding="utf-8")
    assert "mean_faints," in text
    table = harmonies_sim(
        "compare", str(GERALDINE), str(GERALDINE), "--set", "horizon=10d",
        "--set-b", "first_aid.level=3", "--exact", "--no-figures", "--out", "c",
        cwd=tmp_path,
    )  # fmt: skip
    lines = table.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if "mean per trial" in line)
    assert "A − B (exact)" in lines[head]
    assert lines[head + 1].split()[:3] == ["aggravations", "1.9950", "0.9962"]
    assert lines[head + 1].split()[3] == "+0.9987" and "(" not in lines[head + 1]
    assert "no bounds" in lines[head + 6]


def test_the_terminal_gives_each_mean_count_with_its_interval(tmp_path):
    done = harmonies_sim(
        "compare", str(GERALDINE), str(GERALDINE), "--set", "horizon=10d",
        "--set-b", "first_aid.level=3", "--trials", "400", "--seed", "5",
        "--no-figures", "--out", "c", "--lang", "fr", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if "moyenne par essai" in line)
    assert "A − B (IC à 95 %)" in lines[head]
    faints = lines[head + 5]
    assert faints.split()[0] == "évanouissements", faints
    assert "," in faints and " à " in faints and faints.count("(") == 1
