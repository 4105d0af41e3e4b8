"""What a designer pasting a figure or a page in a rulebook reads: precision, units, words.

Each test reads the figure's text through its matplotlib objects, or the page's HTML.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from simulator import report


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _heatmap_frame(p_dead: list[float], trials: int) -> pd.DataFrame:
    """A two-key sweep frame, each share with an interval of about 1 point."""
    return pd.DataFrame(
        {
            "a": [0, 0, 1, 1],
            "b": [0, 1, 0, 1],
            "p_dead": p_dead,
            "p_dead_low": [max(0.0, p - 0.01) for p in p_dead],
            "p_dead_high": [min(1.0, p + 0.01) for p in p_dead],
            "trials": trials,
        }
    )


def test_a_heatmap_cell_never_shows_a_digit_finer_than_one_trial():
    """results/geraldine/first-aid.png read "99.950%" and "99.925%" of 4,000 trials: a
    third decimal that no count of 4,000 trials can move (one trial is 0.025 points)."""
    frame = _heatmap_frame([0.9995, 0.99925, 0.00025, 0.5], 4000)
    ax = report.sweep_heatmap(frame, "a", "b")
    cells = sorted(t.get_text() for t in ax.texts)
    assert cells == ["0.03%", "50.0%", "99.93%", "99.95%"], cells


def test_a_heatmap_of_few_trials_keeps_one_decimal_near_the_ends():
    """One campaign in 300 is 0.33 points: its cell reads 0.3%, never 0.33%."""
    frame = _heatmap_frame([1 / 300, 299 / 300, 0.0, 1.0], 300)
    ax = report.sweep_heatmap(frame, "a", "b")
    assert sorted(t.get_text() for t in ax.texts) == ["0.0%", "0.3%", "100.0%", "99.7%"]


def test_one_trial_s_decimals():
    from simulator.report.i18n import percent_text, trial_decimals

    assert [trial_decimals(n) for n in (100, 300, 1000, 2000, 4000, 20000)] == [1, 1, 1, 2, 2, 3]
    assert percent_text(0.9995, most=2) == "99.95%"
    assert percent_text(0.9995) == "99.950%"  # a share with its interval keeps its digits


def test_a_heatmap_s_title_says_its_trials_and_how_far_its_intervals_reach():
    """The heatmap wrote 46.7% of 300 trials with no interval anywhere on the figure: pasted
    alone, it read surer than ±5.6 points. Its title now says the widest reach."""
    from simulator.report.i18n import language

    frame = _heatmap_frame([0.1, 0.2, 0.5, 0.9], 300)
    frame.loc[2, "p_dead_low"], frame.loc[2, "p_dead_high"] = 0.444, 0.556
    title = report.sweep_heatmap(frame, "a", "b").get_title(loc="left").replace("\n", " ")
    assert "300 trials per point, 95% CI within ±5.6 points" in title, title
    with language("fr"):
        title = report.sweep_heatmap(frame, "a", "b").get_title(loc="left").replace("\n", " ")
    assert "300 essais par point, IC à 95\u202f%\u00a0: au plus ±5,6 points" in title, title


def test_an_aggravation_bar_s_label_keeps_no_digit_finer_than_one_trial():
    """One campaign in 20,000 read "0.0050%": a fourth decimal no count can move."""
    counts = [0] * 479 + [2] * 14046 + [3] * 5474 + [4]
    ax = report.aggravations(pd.DataFrame({"aggravations": counts}), name="Tiny")
    assert [t.get_text() for t in ax.texts] == ["2.4%", "", "70.2%", "27.4%", "0.005%"]


def test_a_french_figure_names_the_self_aid_keys_in_french():
    """A sweep of first_aid.self and rules.self_aid_pain_factor in French read "Part « mort »
    par first_aid.self et par rules.self_aid_pain_factor": A1's "the patient treats itself"
    (the texts' "par elle-même") has French words, which the workbench already used."""
    from simulator.report.i18n import key_label, language

    frame = _heatmap_frame([0.97, 0.97, 1.0, 1.0], 200)
    frame = frame.rename(columns={"a": "first_aid.self", "b": "rules.self_aid_pain_factor"})
    frame["first_aid.self"] = [False, False, True, True]
    frame["rules.self_aid_pain_factor"] = [1, 2, 1, 2]
    with language("fr"):
        ax = report.sweep_heatmap(frame, "rules.self_aid_pain_factor", "first_aid.self")
        assert ax.get_ylabel() == "premiers soins par le patient lui-même"
        assert ax.get_xlabel() == "facteur de la douleur quand le patient se soigne lui-même"
        assert "first_aid" not in ax.get_title(loc="left")
    assert key_label("first_aid.self") == "first aid by the patient itself"


def test_a_page_writes_a_true_or_false_setting_as_the_scenario_file_does(tmp_path):
    """The sweep's table read "False" (pandas' CSV) where the scenario file writes false."""
    from simulator.report.pages.pieces import setting

    assert setting("False", "first_aid.self").text == "false"
    assert setting("True", "first_aid.self").text == "true"
