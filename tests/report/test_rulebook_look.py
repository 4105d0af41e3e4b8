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
    assert "300 essais par point, IC à\u00a095\u202f%\u00a0: au plus ±5,6 points" in title, title


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


def _calibration_folder(folder, method: str = "monte-carlo"):
    """A calibration's files as ``calibrate`` writes them (two targets, one free key)."""
    import json

    targets = [
        {"scenario": "../a.toml", "stat": "p_dead", "value": 0.05, "tolerance": 0.02,
         "reached": 0.07, "ci": [0.0585, 0.0836], "met": False, "set": []},
        {"scenario": "../b.toml", "stat": "p_dead_by_1d", "value": 0.01, "tolerance": 0.01,
         "reached": 0.0, "ci": [0.0, 0.0024], "met": True, "set": []},
    ]  # fmt: skip
    data = {"name": "T", "method": method, "met": False, "targets": targets,
            "free": [{"key": "rules.table.grave.stable_period", "value": "1121min",
                      "low": "12h", "high": "2w"}],
            "evaluations": 10, "conflicts": [], "trials": 400, "seed": 1,
            "check": {"trials": 1600, "seed": 2}}  # fmt: skip
    (folder / "calibration.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "targets.csv").write_text(
        "target,label,scenario,stat,value,tolerance,reached,low,high,met,set\n"
        "0,#1 a: p_dead,../a.toml,p_dead,0.05,0.02,0.07,0.0585,0.0836,False,\n"
        "1,#2 b: p_dead_by_1d,../b.toml,p_dead_by_1d,0.01,0.01,0.0,0.0,0.0024,True,\n",
        encoding="utf-8",
    )
    (folder / "calibrate_sensitivity.csv").write_text(
        "key,target,label,per_notch\n"
        "rules.table.grave.stable_period,0,#1 a: p_dead,-0.02875\n"
        "rules.table.grave.stable_period,1,#2 b: p_dead_by_1d,0.00125\n",
        encoding="utf-8",
    )
    return folder


def _table(sections, caption: str):
    return next(table for s in sections for table in s.tables if table.caption.startswith(caption))


def test_a_calibration_page_gives_each_tolerance_in_points_as_its_sentence_does(tmp_path):
    """The targets table read "2.00%" under "tolerance", beside the sentence's "± 2.00 points":
    2% of 5% reads as a relative margin (5e5b303 fixed the sentence, not the table)."""
    from simulator.report.pages.calibrate import calibrate

    table = _table(calibrate(_calibration_folder(tmp_path)), "Targets")
    column = table.header.index("tolerance")
    assert [row[column].text for row in table.rows] == ["2.00 points", "1.00 points"]


def test_a_calibration_s_pull_per_notch_reads_at_the_precision_of_its_trials(tmp_path):
    """The page, the figure and the terminal read −2.875 points per notch of 400 trials
    (the page with a hyphen in English, the figure with a minus): a difference in points
    keeps one decimal when sampled, as compare's and sensitivity's do, four when exact.
    The minus is the page's own: ``-`` in English text, U+2212 on a figure."""
    import numpy as np

    from simulator.report.figures_calibrate import sensitivity_heatmap
    from simulator.report.pages.calibrate import calibrate

    table = _table(calibrate(_calibration_folder(tmp_path)), "Sensitivity")
    assert [c.text for c in table.rows[0][1:]] == ["-2.9", "+0.1"]  # as its other tables
    matrix = np.array([[-0.02875], [0.00125]])
    ax = sensitivity_heatmap(matrix, ["rules.table.grave.stable_period"], ["#1", "#2"])
    assert [t.get_text() for t in ax.texts] == ["\u22122.9", "+0.1"]
    ax = sensitivity_heatmap(matrix, ["k"], ["#1", "#2"], exact=True)
    assert [t.get_text() for t in ax.texts] == ["\u22122.875", "+0.125"]
    (tmp_path / "exact").mkdir()
    exact = _table(calibrate(_calibration_folder(tmp_path / "exact", "exact")), "Sensitivity")
    assert [c.text for c in exact.rows[0][1:]] == ["-2.875", "+0.125"]


def test_calibration_figures_say_their_trials_and_where_their_targets_are():
    """Both figures' titles named the calibration only: pasted alone, nothing said that each
    point is 400 trials. And the search's legend sat over its targets' hollow markers."""
    from simulator.report.figures_calibrate import search_figure, sensitivity_heatmap

    frame = pd.DataFrame(
        {"round": [0, 1] * 3, "target": [0, 0, 1, 1, 2, 2], "reached": [0.1, 0.2] * 3}
    )
    ax = search_figure(frame, ["#1", "#2", "#3"], [0.2, 0.05, 0.01], name="T", trials=400)
    assert "T — 400 trials per evaluation" in ax.get_title(loc="left")
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    markers = [line for line in ax.get_lines() if line.get_clip_on() is False]
    assert len(markers) == 3
    for marker in markers:
        x, _ = ax.get_yaxis_transform().transform((marker.get_xdata()[0], 0))
        assert x + marker.get_markersize() < legend.x0, (x, legend.x0)
    import numpy as np

    ax = sensitivity_heatmap(np.zeros((1, 1)), ["k"], ["#1"], name="T", exact=True)
    assert "T — exact" in ax.get_title(loc="left")


def test_a_histogram_of_few_healed_campaigns_says_how_few():
    """Géraldine's time-to-heal.png drew three bars of 33% each under "400 trials, 0.75%
    ended healed": nothing on the figure said that its bars are 3 campaigns in all."""
    from simulator.report.i18n import language
    from simulator.rules.outcome import Outcome

    outcome = [Outcome.HEALED] * 3 + [Outcome.DEAD] * 397
    healed = [430.0, 481.2, 640.0] + [float("nan")] * 397
    trials = pd.DataFrame({"outcome": outcome, "healed_h": healed})
    title = report.time_to_heal(trials, name="G").get_title(loc="left").replace("\n", " ")
    assert "G — 400 trials, 0.75% ended healed (3 campaigns)" in title, title
    with language("fr"):
        title = report.time_to_heal(trials, name="G").get_title(loc="left").replace("\n", " ")
    title = title.replace("\u00a0", " ")
    assert "0,75\u202f% finissent par une guérison (3 campagnes)" in title, title


def test_a_balance_page_s_notes_are_sentences_that_end(tmp_path):
    """The page made the terminal's notes sentences of their own with a capital, and left
    them without their full stop: "...; another key must move too" ran into the next line."""
    import json

    from simulator.report.pages.sections import balance

    def point(value: str, stat: float) -> dict:
        return {"value": value, "stat": stat, "ci": [stat - 0.04, stat + 0.04]}

    low, high = point("1439min", 0.3325), point("1d", 0.0)
    crossings = [{"low": low, "high": high}, {"low": point("2h", 0.22), "high": point("3h", 0.18),
                 "overlap": True, "trials_to_separate": 9000}]  # fmt: skip
    data = {"key": "rules.table.grave.unstable_period", "method": "monte-carlo",
            "target": {"stat": "p_dead_by_1d", "value": 0.2}, "low": low, "high": high,
            "best": low, "evaluations": [point("15min", 1.0), high],
            "crossings": crossings}  # fmt: skip
    (tmp_path / "balance.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "balance.csv").write_text(
        "key,value,shown,hours,stat,p,low,high,trials,round\n", encoding="utf-8"
    )
    paragraphs = balance(tmp_path)[0].paragraphs
    notes = [p for p in paragraphs if p.startswith(("The statistic steps", "An interval holds"))]
    assert len(notes) == 2 and all(p.endswith(".") for p in notes), paragraphs


def test_a_balance_page_opens_with_a_capital_and_leaves_a_raw_key_as_written(tmp_path):
    """The page opened 'grave wound: unstable period from 15 min to 1 d, target …' (French
    'périodicité instable (blessure grave) de 15 min à 1 j, …'): a line in lower case."""
    import json

    from simulator.report.i18n import language
    from simulator.report.pages.sections import balance

    def opener(key: str, lang: str = "en") -> str:
        point = {"value": 1, "stat": 0.3, "ci": [0.26, 0.34]}
        data = {"key": key, "method": "monte-carlo", "target": {"stat": "p_dead", "value": 0.2},
                "low": point, "high": point, "best": point,
                "evaluations": [point, point]}  # fmt: skip
        (tmp_path / "balance.json").write_text(json.dumps(data), encoding="utf-8")
        (tmp_path / "balance.csv").write_text("key,value,p,low,high,trials,round\n", "utf-8")
        with language(lang):
            return balance(tmp_path)[0].paragraphs[0]

    assert opener("rules.table.grave.pain").startswith("Grave wound: pain from 1 to 1")
    assert opener("rules.table.grave.pain", "fr").startswith("Douleur (blessure grave) de 1 à 1")
    assert opener("watch.neglect_at").startswith("watch.neglect_at from")  # a key as typed


def test_a_title_never_breaks_a_count_from_its_word_nor_a_french_ci_from_its_level():
    """time-to-heal.png's title broke as '… ended healed (3' / 'campaigns)', and the French
    heatmap's as '… IC à' / '95 % : au plus …'."""
    from simulator.report.i18n import language
    from simulator.rules.outcome import Outcome

    trials = pd.DataFrame(
        {"outcome": [Outcome.HEALED] * 3 + [Outcome.DEAD] * 397,
         "healed_h": [430.0, 481.2, 640.0] + [float("nan")] * 397}
    )  # fmt: skip
    lines = report.time_to_heal(trials, name="Géraldine after the ambush").get_title(loc="left")
    assert not any(line.rstrip().endswith("(3") for line in lines.splitlines()), lines
    frame = _heatmap_frame([0.1, 0.2, 0.5, 0.9], 300)
    with language("fr"):
        ax = report.sweep_heatmap(frame, "a", "b", name="Géraldine après l'embuscade")
    lines = ax.get_title(loc="left").splitlines()
    assert not any(line.rstrip().endswith("IC à") for line in lines), lines


def test_an_exact_heatmap_says_it_is_exact():
    """An exact sweep's heatmap said neither trials nor 'exact': its cells' four decimals
    could be read as sampled. A run's exact figures say '(exact)' after the name."""
    frame = pd.DataFrame(
        {"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "p_dead": [0.28535, 0.012242, 0.059644, 4.3e-5],
         "trials": float("nan"), "method": "exact"}
    )  # fmt: skip
    title = report.sweep_heatmap(frame, "a", "b", name="Lone").get_title(loc="left")
    assert title.splitlines()[-1] == "Lone (exact)", title


def test_an_exact_tornado_says_it_is_exact():
    """The exact tornado's title named the scenario only, where the sampled one says its
    trials: nothing but four decimals told it apart."""
    from simulator.report.figures_studies import tornado

    frame = pd.DataFrame(
        [{"key": "patient.cp_rs", "down_shown": "5", "up_shown": "7", "down_stat": 0.4,
          "up_stat": 0.3, "swing": 0.1}]
    )  # fmt: skip
    for moving in (frame, frame.assign(up_stat=0.36, down_stat=0.36, swing=0.0)):
        ax = tornado(moving, base=0.36, stat="p_dead", name="Lone", trials=None)
        assert ax.get_title(loc="left").splitlines()[-1] == "Lone (exact)"
        plt.close(ax.figure)
    ax = tornado(frame, base=0.36, stat="p_dead", name="Lone", trials=400)
    assert ax.get_title(loc="left").splitlines()[-1] == "Lone — 400 trials"


def test_an_extra_grid_table_keeps_no_digit_finer_than_one_trial_and_says_its_trials(tmp_path):
    """results/geraldine/report.html's first-aid tables read 99.950% and 0.025% of 4,000
    trials, with no interval, under a page headed '20,000 trials': nothing said that each
    cell is 4,000 trials, nor how far its interval reaches."""
    import json

    from simulator.report.pages.sections import extras

    words = {"heading": "What the texts intend.", "grid": {"file": "grid.csv", "axes": [
        {"column": "level", "label": "first-aid level"},
        {"column": "every", "label": "time between tries"}]}}  # fmt: skip
    (tmp_path / "extras.json").write_text(json.dumps(words), encoding="utf-8")
    header = "level,every,trials,p_dead,p_dead_low,p_dead_high,p_dead_wound,p_dead_wound_low"
    (tmp_path / "grid.csv").write_text(
        f"{header},p_dead_wound_high\n"
        "-2,5min,4000,0.9995,0.99818,0.99986,0.792,0.779,0.804\n"
        "-2,10min,4000,0.00025,0.0000441,0.00142,0.0,0.0,0.00096\n",
        encoding="utf-8",
    )
    _, tables = extras(tmp_path)
    assert [c.text for c in tables[0].rows[0][1:]] == ["99.95%", "0.03%"]
    assert "4,000 trials per point, 95% CI within ±" in tables[0].caption, tables[0].caption


def test_a_title_never_ends_a_line_on_its_trial_count():
    """A French sweep's title broke as '… horizon=1d) — 200' / 'essais par point'."""
    from simulator.report.i18n import language

    frame = pd.DataFrame({"k": [0, 1], "trials": 200})
    for share in ("p_dead", "p_healed", "p_wounded"):
        frame[share], frame[f"{share}_low"], frame[f"{share}_high"] = 0.3, 0.25, 0.35
    name = "Voyageur isolé, blessure grave, sans aide (avec first_aid.start=5min, " \
        "first_aid.interval=5min, horizon=1d)"  # fmt: skip
    with language("fr"):
        lines = report.sweep_lines(frame, "k", name=name).get_title(loc="left").splitlines()
    assert not any(line.rstrip().endswith("200") for line in lines), lines
    assert any("200 essais par point" in line for line in lines), lines  # a plain space


def test_a_sensitivity_page_gives_the_base_for_the_scenario_as_written(tmp_path):
    """It read 'Share dead by 1 d at the scenario as written: 33.3%' (French: 'pour')."""
    from simulator.report.pages.sections import sensitivity

    (tmp_path / "sensitivity.csv").write_text(
        "key,value,down_value,down_stat,up_value,up_stat,base_stat,swing,stat,method\n"
        "patient.cp_rs,6,5,0.405,7,0.245,0.3325,0.16,p_dead_by_1d,monte-carlo\n",
        encoding="utf-8",
    )
    paragraphs = sensitivity(tmp_path)[0].paragraphs
    assert paragraphs == ["Share dead by 1 d for the scenario as written: 33.3%"], paragraphs


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("rules.table.grave.mortality", "grave wound: mortality"),
        ("patient.maxima.grave", "grave wound: max"),  # [patient.maxima] wins over the table
        ("injuries[0].at", "injury 1: time"),  # --grid's two spellings of one key
        ("injuries.0.at", "injury 1: time"),
        ("activities[1].modifier", "activity 2: modifier"),
        ("watch.neglect_probability", "neglect probability"),
    ],
)
def test_an_english_sweep_names_its_keys_in_words(key: str, words: str):
    """An English sweep's figure read "Outcome against rules.table.grave.mortality" where the
    French one, balance's and sensitivity's figures and the report's table name the key in
    words: it names every key as they do, whichever way --grid spelt it."""
    from simulator.report import sweep_heatmap, sweep_lines

    frame = _heatmap_frame([0.25, 0.5, 0.5, 0.75], 200).rename(columns={"a": key})
    ax = sweep_lines(frame.iloc[:2], key, shares=("p_dead",), name="Tiny")
    assert ax.get_xlabel() == words, ax.get_xlabel()
    assert ax.get_title(loc="left").splitlines()[0] == f"Outcome against {words}"
    ax = sweep_heatmap(frame, key, "b")
    assert ax.get_xlabel() == words
    assert f"by b and {words}" in ax.get_title(loc="left").replace("\n", " ")
