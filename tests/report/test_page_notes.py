"""A report page tells what its command's answer told: the caveats, not only the numbers.

The page is what a designer prints and sends; a note the terminal gave (the target inside a
sampled interval, a free key stopped at the end of its range) and the page dropped turns a
guarded answer into a firm one.
"""

from __future__ import annotations

import html
from pathlib import Path

from simulator.report.i18n import language
from simulator.report.pages.calibrate import calibrate as calibrate_section
from simulator.report.pages.sections import balance as balance_section
from simulator.runner.outdir import record
from simulator.runner.writers import write_json
from simulator.scenario.keys import parse_vary
from simulator.studies.balance_study import BalanceResult, Point, parse_target
from simulator.studies.statistic import Evaluation


def balance_page(folder: Path, shares: list[tuple[float, tuple[float, float]]], **kw) -> str:
    """The balance section's paragraphs for Cp+Rs 0, 1, 2... with these shares."""
    key, _low, _high = parse_vary(f"patient.cp_rs=0..{len(shares) - 1}")
    stat, target = parse_target("p_dead=0.2")
    points = [Point(i, i, Evaluation(p, ci, trials=100)) for i, (p, ci) in enumerate(shares)]
    crossings = [(points[a], points[b]) for a, b in kw.get("crossings", [])]
    hits = [points[i] for i in kw.get("hits", [])]
    found = BalanceResult(
        key, stat, target, points, crossings, hits, "monte-carlo", name="s", trials=100, seed=0
    )
    found.save(folder, figures=False)
    with language(kw.get("lang", "en")):
        return html.unescape("\n".join(p for s in balance_section(folder) for p in s.paragraphs))


def test_a_bracket_whose_interval_holds_the_target_says_so_on_the_page(tmp_path):
    # 21% (13%-30%) and 12% (6%-20%) on 100 trials: the terminal says sampling cannot tell
    # on which side of 20% the answer lies; the page said only "between 0 and 1"
    text = balance_page(tmp_path, [(0.21, (0.13, 0.30)), (0.12, (0.06, 0.205))], crossings=[(0, 1)])
    assert "The target lies between 0 (21.0%) and 1 (12.0%)." in text
    assert "sampling cannot tell on which side it lies" in text, text
    assert "about 6,373 trials at each value would separate them" in text, text


def test_the_terminal_and_the_page_say_the_overlap_in_the_same_words(tmp_path):
    """One sentence, built once (report.wording.overlap_note), for both."""
    from simulator.cli.balance import balance_text

    shares = [(0.21, (0.13, 0.30)), (0.12, (0.06, 0.205))]
    page = balance_page(tmp_path, shares, crossings=[(0, 1)])
    key, _low, _high = parse_vary("patient.cp_rs=0..1")
    stat, target = parse_target("p_dead=0.2")
    points = [Point(i, i, Evaluation(p, ci, trials=100)) for i, (p, ci) in enumerate(shares)]
    found = BalanceResult(
        key, stat, target, points, [(points[0], points[1])], [], "monte-carlo", name="s",
        trials=100, seed=0,
    )  # fmt: skip
    said = (
        "an interval holds the target, so sampling cannot tell on which side it lies; "
        "about 6,373 trials at each value would separate them"
    )
    assert "note: " + said in balance_text(found)
    assert said[:1].upper() + said[1:] in page, page


def test_a_value_exactly_on_the_target_and_a_statistic_that_turns_are_on_the_page(tmp_path):
    text = balance_page(
        tmp_path,
        [(0.0, (0.0, 0.04)), (0.2, (0.13, 0.29)), (0.5, (0.4, 0.6)), (0.1, (0.05, 0.17))],
        crossings=[(2, 3)],
        hits=[1],
    )
    assert "Exactly on the target: 1 (20.0%)" in text, text
    assert "not monotone" in text, text


def test_the_balance_notes_are_french_on_a_french_page(tmp_path):
    text = balance_page(
        tmp_path, [(0.21, (0.13, 0.30)), (0.12, (0.06, 0.205))], crossings=[(0, 1)], lang="fr"
    )
    assert "l'échantillonnage ne peut dire" in text, text


def test_a_free_key_at_an_end_of_its_range_is_named_on_the_calibration_page(tmp_path):
    # the terminal's "At an end of its range: ..." (the target may lie beyond) was missing
    data = {
        "name": "c",
        "method": "exact",
        "met": False,
        "free": [
            {"key": "patient.cp_rs", "value": 15, "low": 5, "high": 15},
            {
                "key": "rules.table.grave.stable_period",
                "value": "720min",
                "low": "12h",
                "high": "2w",
            },
            {"key": "first_aid.level", "value": 2, "low": 0, "high": 6},
        ],
        "targets": [
            {
                "scenario": "lone.toml",
                "stat": "p_dead",
                "value": 0.5,
                "tolerance": 0.05,
                "reached": 0.9,
                "ci": [0.9, 0.9],
                "met": False,
                "set": [],
            },
        ],
        "evaluations": 3,
        "sensitivity": [],
        "conflicts": [],
    }
    record(tmp_path, [write_json(data, tmp_path / "calibration.json")], complete=True)
    text = html.unescape("\n".join(p for s in calibrate_section(tmp_path) for p in s.paragraphs))
    assert (
        "At an end of its range: patient.cp_rs, rules.table.grave.stable_period; the target "
        "may lie outside it" in text
    ), text
    data["met"] = True  # met: nothing to search further
    data["targets"][0] |= {"reached": 0.5, "met": True}
    record(tmp_path, [write_json(data, tmp_path / "calibration.json")], complete=True)
    text = html.unescape("\n".join(p for s in calibrate_section(tmp_path) for p in s.paragraphs))
    assert "At an end of its range" not in text, text


LONE = Path(__file__).resolve().parents[2] / "scenarios" / "lone_traveller.toml"


def compare_page(folder: Path, horizon_b: str, lang: str = "en") -> str:
    """The comparison section's paragraphs: the lone traveller (1w) against another horizon."""
    from simulator.report.pages.sections import compare as compare_section
    from simulator.studies import Exact, run_compare

    with language(lang):
        run_compare(
            LONE, LONE, Exact(), overrides_b=[f"horizon={horizon_b}"], out=folder, figures=False
        )
        return html.unescape("\n".join(p for s in compare_section(folder) for p in s.paragraphs))


def test_a_comparison_at_two_horizons_says_so_on_the_page(tmp_path):
    # the terminal's note (stderr) that 'heals' and 'still wounded' are read at different
    # horizons was the only place it was said: the page's table reads "at the horizon" twice
    text = compare_page(tmp_path / "two", "3d")
    assert "A runs 1w and B 3d: 'heals' and 'still wounded' are read at different horizons" in text
    text = compare_page(tmp_path / "fr", "3d", "fr")
    assert "A dure 7 j et B 3 j" in text, text
    assert "horizons" not in compare_page(tmp_path / "same", "7d")  # 7d is 1w: nothing to say
