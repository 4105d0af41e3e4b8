"""``--lang fr``: one catalogue, French numbers, and every figure drawn in both languages."""

from __future__ import annotations

import ast
import html
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.report.catalogue import po_path
from simulator.report.i18n import (
    KEY_LABELS,
    duration_text,
    hours_text,
    language,
    number_text,
    percent_text,
    tr,
)
from tests.support import tiny_scenario

PACKAGE = Path(__file__).resolve().parents[2] / "simulator"


def french_catalogue() -> dict[str, str]:
    """The French ``.po`` file as English template -> French (each plural form its own)."""
    from babel.messages.pofile import read_po

    with po_path("fr").open("rb") as file:
        read = read_po(file)
    found = {}
    for message in read:
        if not message.id or message.context:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        found.update(zip(ids, strings, strict=True))
    return found


FRENCH = french_catalogue()
"""The catalogue as the tests read it (the code reads it through ``report.catalogue``)."""


def test_french_numbers_and_durations():
    assert percent_text(0.977, lang="fr") == "97,7\u202f%"
    assert percent_text(0.977, lang="en") == "97.7%"
    assert percent_text(0.00018, lang="fr") == "0,018\u202f%"
    assert number_text(1234.5, "fr") == "1\u202f234,5"
    assert number_text(-3, "fr") == "\u22123"
    assert duration_text(2 * 86400 + 4 * 3600, "fr") == "2 j 4 h"
    assert duration_text(900, "fr") == "15 min"
    assert duration_text(16 * 3600 + 40 * 60, "en") == "16 h 40 min"
    assert hours_text(412, "fr") == "17 j 4 h"
    with language("fr"):
        assert percent_text(0.5) == "50,0\u202f%" and tr("dead") == "mort"
    assert tr("dead") == "dead"  # the block is over


def phrases_in_the_code(root: Path = PACKAGE, names: tuple[str, ...] = ("tr",)) -> set[str]:
    """Every literal phrase the modules under ``root`` pass to ``tr`` (or to ``names``)."""
    found = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in names
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_every_phrase_is_in_the_catalogue():
    dynamic = {"dead", "healed", "still wounded", "incoherent", "dies", "heals", "median heal"}
    dynamic |= {f"Share {o}" for o in ("dead", "healed", "wounded", "incoherent")}
    dynamic |= {f"{lv} wound" for lv in ("light", "grave", "critical", "shock", "trauma")}
    dynamic |= {"max", "mortality", "pain", "unstable period", "stable period"}
    dynamic |= {"watch period", "heal period", "difficulty", *KEY_LABELS.values()}
    missing = (phrases_in_the_code() | dynamic) - set(FRENCH)
    assert not missing
    for english, french in FRENCH.items():  # placeholders survive the translation
        assert set(re.findall(r"{\w*}", english)) == set(re.findall(r"{\w*}", french)), english


def words(text: str) -> set[str]:
    """Words of prose; dotted scenario keys (first_aid.level=3) are code, not English."""
    text = re.sub(r"\w+(?:\.[\w\[\]]+)+(?:=[^\s,)]*)?", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']+", text) if len(w) >= 3}


ENGLISH = set().union(*(words(k) for k in FRENCH)) - set().union(
    *(words(v) for v in FRENCH.values())
)
"""The catalogue's English words that are not French words of it too."""


def svg_text(path: Path) -> str:
    body = path.read_text(encoding="utf-8")
    texts = re.findall(r"<text[^>]*>(.*?)</text>", body, re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", t)) for t in texts)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """One result of every kind that draws a figure, small."""
    from simulator.studies import run_compare, run_study, run_sweep
    from simulator.studies.balance_study import balance
    from simulator.studies.method import MonteCarlo
    from simulator.studies.sensitivity_study import sensitivity

    root = tmp_path_factory.mktemp("i18n")
    path = root / "g.toml"
    path.write_text(tiny_scenario().replace("Tiny grave wound", "Géraldine"), encoding="utf-8")
    study = run_study(path, trials=60, seed=1, workers=1)
    one = run_sweep(path, {"first_aid.level": [0, 3]}, trials=30, seed=1, workers=1)
    two = run_sweep(
        path,
        {"first_aid.level": [0, 3], "rules.table.grave.unstable_period": ["15min", "1h"]},
        trials=30,
        seed=1,
        workers=1,
    )
    pair = run_compare(path, path, trials=30, seed=1, workers=1, overrides_b=["first_aid.level=3"])
    with MonteCarlo(trials=60, seed=1, workers=1) as mc:
        found = balance(path, "first_aid.level=0..6", "p_dead=0.5", mc)
        ranked = sensitivity(path, mc, keys=["first_aid.level", "first_aid.start"])
    return {"study": study, "sweep": one, "heatmap": two, "compare": pair, "balance": found,
            "sensitivity": ranked}  # fmt: skip


@pytest.mark.parametrize("kind", ["study", "sweep", "heatmap", "compare", "balance", "sensitivity"])
def test_every_figure_in_both_languages(results, kind, tmp_path):
    texts = {}
    for lang in ("en", "fr"):
        with language(lang):
            written = results[kind].save(tmp_path / lang, figures=True, formats=("svg",))
        svgs = [p for p in written if p.suffix == ".svg"]
        assert svgs, kind
        texts[lang] = {p.name: svg_text(p) for p in svgs}
    for name, french in texts["fr"].items():
        left = words(french) & ENGLISH
        assert not left, f"{kind} {name}: English words left in French: {sorted(left)}"
        assert not re.search(r"\d%", french), f"{name}: a percent without its French space"
        assert words(texts["en"][name]) & ENGLISH, f"{name}: the English figure has no words?"
        assert texts["en"][name] != french


def test_the_command_line_speaks_french(tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True,
                              text=True, check=False)  # fmt: skip

    odds = cli("odds", "--lang", "fr")
    assert odds.returncode == 0 and "Chance de réussite" in odds.stdout
    assert "| +0 | 55\u202f% |" in odds.stdout and "| \u22125 | 15\u202f% |" in odds.stdout
    path = tmp_path / "g.toml"
    path.write_text(tiny_scenario(), encoding="utf-8")
    run = cli("run", str(path), "--trials", "50", "--workers", "1", "--lang", "fr",
              "--out", str(tmp_path / "run"))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "meurt" in run.stdout and "Résultats dans" in run.stdout and "\u202f%" in run.stdout
    bad = cli("odds", "--lang", "de")
    assert bad.returncode == 2


def test_a_time_under_an_hour_is_never_zero_hours():
    """field_medic's median death came at 15 s; it read '0.0 hours (0.0 h)'."""
    from simulator.report.i18n import hours_and_raw

    assert hours_text(15 / 3600, "en") == "15 s" and hours_text(0, "fr") == "0 s"
    assert hours_text(0.5, "en") == "30 min" and hours_text(1.5, "fr") == "1,5 heure"
    assert hours_text(5.55, "fr") == "5,6 heures" and hours_text(5.55, "en") == "5.6 hours"
    assert hours_and_raw(15 / 3600, "en") == "15 s"
    assert hours_and_raw(557.2, "en") == "23 d 5 h (557.2 h)"


def test_a_cause_statistic_is_named_in_words():
    """balance.png's axis read 'p_dead_neglected_watch_by_10d'."""
    from simulator.report.i18n import language, stat_label

    assert stat_label("p_dead_neglected_watch_by_10d") == (
        "Share dead after a neglected watch by 10 d"
    )
    with language("fr"):
        assert stat_label("p_dead_wound") == "Part de décès après une blessure reçue à l'horizon"


def test_a_difference_in_points_reads_the_same_from_the_float_and_from_the_csv():
    """The terminal holds 0.579 − 0.3605 = 0.21849999...; the page reads 0.2185 from the CSV."""
    from simulator.report.i18n import language, points_text, points_value

    swing = 0.579 - 0.3605
    written = float(f"{swing:.10g}")  # what write_csv keeps
    assert swing != written
    assert points_value(swing) == points_value(written) == 21.9  # half up, as a person rounds
    assert points_text(swing) == points_text(written) == "21.9 points"
    assert points_value(-0.0001) == 0.0 and str(points_value(-0.0001)) == "0.0"  # no −0.0
    with language("fr"):
        assert points_text(0.0) == "0,0 point"  # French: singular below 2
        assert points_text(0.019) == "1,9 point"
        assert points_text(swing) == "21,9 points"


def test_a_share_and_its_difference_from_zero_read_the_same_digits():
    """compare printed "14.3%  0.0%  +14.4" and "2.9%  0.0%  +2.8": two roundings of one number.

    As floats, 100 × 0.1435 is 14.3499... and the paired difference's estimate 0.1435000...2;
    both are read at ten significant digits and rounded half up, as a person rounds.
    """
    from simulator.report.i18n import percent_text, points_text

    for share, shown in [(0.1435, "14.4"), (0.0285, "2.9"), (0.9465, "94.7"), (0.3845, "38.5")]:
        for nudged in (share, math.nextafter(share, 0), math.nextafter(share, 1)):
            assert percent_text(nudged) == f"{shown}%"
            assert points_text(nudged) == f"{shown} points"
            assert points_text(-nudged) == f"-{shown} points"
    assert percent_text(0.125, 0) == "13%"


def test_a_reach_is_rounded_up_so_that_no_cell_reads_surer_than_it_is() -> None:
    """A title's "95% CI within ±…" (a heatmap's, a sweep table's caption) is never narrower.

    Géraldine's first-aid grid: the widest cell, 48.4% in [46.9%, 50.0%], reaches 1.549 points,
    which half-up rounding wrote as ±1.5.
    """
    from simulator.report.i18n import reach_text

    assert reach_text(0.01549, "en") == "1.6 points"
    assert reach_text(0.0155, "en") == "1.6 points"
    assert reach_text(0.015, "en") == "1.5 points"  # exactly 1.5 stays
    assert reach_text(0.05601, "en") == "5.7 points"
    assert reach_text(0.0, "en") == "0.0 points"
    assert reach_text(0.01549, "fr") == "1,6 point"
