"""What the texts intend for Géraldine (issue 13): the grid, the headline on and off, and the
finding, whose numbers must be those of the committed results."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from simulator.rules.cause import DEATH_CAUSES
from simulator.rules.dice import p_success
from simulator.scenario.described import read_extras
from simulator.scenario.reading import load_scenario
from simulator.studies.main_study import FINDING_END, run_directory
from tools import readme_finding as texts_intent
from tools.readme_finding import FINDING_START, finding_of, marked, with_finding

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "results"
GERALDINE = REPO / "scenarios" / "geraldine.toml"
DESCRIPTION = REPO / "scenarios" / "studies" / "geraldine.toml"
"""What the main study computes for Géraldine: the grid, the headline on and off, the finding."""

EXTRAS = read_extras(DESCRIPTION)
assert EXTRAS.grid is not None
LEVELS = EXTRAS.grid.axes[0].values
EVERY = EXTRAS.grid.axes[1].values


def grid(p_dead: dict[str, list[float]], half_width: float = 0.002) -> pd.DataFrame:
    rows = [
        {"level": level, "every": every, "p_dead": shares[i], "p_dead_wound": 0.0,
         "p_dead_low": max(0.0, shares[i] - half_width),
         "p_dead_high": min(1.0, shares[i] + half_width)}
        for every, shares in p_dead.items()
        for i, level in enumerate(LEVELS)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def headline(on: float, never: float, off: float) -> pd.DataFrame:
    """Dead of the wound's spell (Q3) in ``never``, the rest after a failed healing."""
    causes = dict.fromkeys((f"p_dead_{c}" for c in DEATH_CAUSES), 0.0)
    return pd.DataFrame(
        [
            {"stable_survival_tests": True, "p_dead": on, **causes, "p_dead_wound": never,
             "p_dead_healing_failure": on - never},
            {"stable_survival_tests": False, "p_dead": off, **causes, "p_dead_wound": never,
             "p_dead_healing_failure": off - never},
        ]
    )  # fmt: skip


def test_safe_levels_are_the_lowest_of_the_last_run_of_safe_levels():
    n = len(LEVELS)
    frame = grid(
        {
            "30s": [0.0] * n,  # safe from the bottom
            "1min": [0.5, 0.04, 0.2] + [0.01] * (n - 3),  # a dip below 5% does not count
            "10min": [0.9] * n,  # never
        }
    )
    assert texts_intent.safe_levels(frame) == {
        "30s": (-2, -2),
        "1min": (1, 1),
        "10min": (None, None),
    }


def test_a_level_whose_interval_straddles_the_line_is_named_as_such():
    """CONTRACT: "level 7, within its interval of 5%, or 8", so that the sentence does not
    flip with the seed."""
    n = len(LEVELS)  # -2 .. 8
    frame = grid(
        {
            "30s": [0.2] * (n - 2) + [0.049, 0.01],  # 7 straddles 5%, 8 surely below
            "1min": [0.2] * (n - 4) + [0.051, 0.049, 0.01, 0.0],  # 5 and 6 straddle
            "2min": [0.2] * (n - 1) + [0.049],  # only the top level, and it straddles
            "5min": [0.2] * (n - 1) + [0.06],  # the top level surely above: never
        },
        half_width=0.005,
    )
    assert texts_intent.safe_levels(frame) == {
        "30s": (7, 8),
        "1min": (5, 7),
        "2min": (8, None),
        "5min": (None, None),
    }
    text = texts_intent.finding(frame, headline(0.977, 0.551, 0.952), load_scenario(GERALDINE))
    assert "every 30 s from level 7, within its interval of 5%, or 8 up" in text
    assert "every minute from level 5 to 6, within their intervals of 5%, or 7 up" in text
    assert "every 2 minutes perhaps from level 8 up (within the interval of 5%)" in text
    assert "every 5 minutes, not even level 8 is enough" in text


def test_the_finding_says_the_grids_thresholds_and_the_headlines_numbers():
    sc = load_scenario(GERALDINE)
    n = len(LEVELS)
    frame = grid({"30s": [0.0] * n, "1min": [0.5] * 3 + [0.0] * (n - 3), "10min": [0.9] * n})
    text = texts_intent.finding(frame, headline(0.977, 0.551, 0.952), sc)
    assert "every 30 s from level -2 up or every minute from level 1 up" in text
    assert "every 10 minutes, not even level 8 is enough" in text
    assert "level 0 every 5 minutes (3 tries at 15% before the first survival test)" in text
    assert "dies in 97.7% of campaigns; what opened the way: a wound received 55.1%, " in text
    assert "a failed healing 42.6%; without" in text  # Q3, largest first, zeros left out
    assert "she still dies in 95.2% (a wound received 55.1%, a failed healing 40.1%)" in text


def test_three_tries_at_fifteen_percent_before_the_first_survival_test():
    """A1, A3, O1: first aid at 5, 10 and 15 min, the survival test at 15 min comes after."""
    sc = load_scenario(GERALDINE)
    assert texts_intent.tries_before_first_test(sc) == 3
    assert p_success(0 - 5) == pytest.approx(0.15)


def test_study_of_a_folder_with_geraldine_writes_the_grid_the_headline_and_the_finding(tmp_path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    shutil.copy(GERALDINE, scenarios / "geraldine.toml")
    (scenarios / "studies").mkdir()
    shutil.copy(DESCRIPTION, scenarios / "studies" / "geraldine.toml")
    shutil.copy(DESCRIPTION.with_name("geraldine_finding.py"), scenarios / "studies")
    out = tmp_path / "results"
    run_directory(scenarios, trials=40, seed=1, out=out, workers=1)
    folder = out / "geraldine"
    for name in EXTRAS.files(("png", "svg")):
        assert (folder / name).is_file(), name
    first_aid, stable = texts_intent.read(folder)
    assert len(first_aid) == len(LEVELS) * len(EVERY)
    assert set(first_aid["trials"]) == {max(10, 40 // EXTRAS.grid.share)}
    assert list(stable["stable_survival_tests"]) == [True, False]
    assert list(stable["trials"]) == [40, 40]
    # the "on" row is the scenario's own study
    summary = pd.read_json(folder / "summary.json", typ="series")
    assert stable["p_dead"].iloc[0] == pytest.approx(summary["p_dead"])
    index = (out / "README.md").read_text(encoding="utf-8")
    assert marked(index) == finding_of(out)
    assert "geraldine/first-aid.png" in index and "geraldine/stable-tests.png" in index
    # and the tool puts the same sentences into a README with the markers
    readme = f"intro\n\n{FINDING_START}\nold words\n{FINDING_END}\n\nmore\n"
    assert marked(with_finding(readme, finding_of(out))) == finding_of(out)


# --- the committed results ----------------------------------------------------------------------
def committed() -> str:
    if not (RESULTS / texts_intent.STEM / "first-aid.csv").is_file():
        pytest.fail("results/geraldine/first-aid.csv is missing: run `make run` and commit")
    return finding_of(RESULTS)


def test_results_readme_states_the_finding_of_the_committed_files():
    index = (RESULTS / "README.md").read_text(encoding="utf-8")
    assert marked(index) == committed()


def test_project_readme_first_paragraph_after_the_figure_is_the_committed_finding():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    figure = text.index("](results/geraldine/fate.png)")
    after = text[figure:].split("\n\n")[1]  # the first paragraph after the figure
    assert after.startswith(FINDING_START) and after.endswith(FINDING_END)
    assert marked(text) == committed(), "run `python -m tools.readme_finding` (make run does)"


def test_committed_headline_is_the_committed_geraldine_summary():
    _, stable = texts_intent.read(RESULTS / texts_intent.STEM)
    summary = pd.read_json(RESULTS / texts_intent.STEM / "summary.json", typ="series")
    assert stable["p_dead"].iloc[0] == pytest.approx(summary["p_dead"])
    assert stable["trials"].iloc[0] == summary["trials"]
    # every number of the sentences is one of the files' (percents of their shares)
    numbers = set(re.findall(r"\d+(?:\.\d+)?%", committed()))
    columns = ["p_dead", *(f"p_dead_{c}" for c in DEATH_CAUSES)]
    shares = {f"{100 * p:.1f}%" for p in stable[columns].to_numpy().ravel()}
    assert numbers - {"5%", "15%"} <= shares
