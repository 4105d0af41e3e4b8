"""A study description's extra studies speak its words, not the library's (issue 30).

The grid's axes, the comparison's setting and sides, the section's heading come from the
description (``label``, ``sides``, the finding's ``heading``, each with its ``_fr``); the
study writes them beside its files (``extras.json``), and the report and the index read them
there. The library holds no word of the case study.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.report.i18n import language
from simulator.report.pages import report_html
from simulator.scenario.described import WORDS, read_extras

REPO = Path(__file__).resolve().parents[2]

DESCRIPTION = """
[grid]
name = "medics"
caption = "Death by medic and cadence"
about = "the medics"

[[grid.axis]]
column = "skill"
label = "medic's skill"
label_fr = "talent du soigneur"
keys = ["first_aid.level"]
values = [0, 3]

[[grid.axis]]
column = "gap"
label = "minutes between tries"
keys = ["first_aid.start", "first_aid.interval"]
values = ["1min", "5min"]

[compare]
name = "no-stable-tests"
column = "stable_survival_tests"
set = { "rules.stable_survival_tests" = false }
caption = "Stable tests or not"
caption_fr = "Tests stables ou non"
about = "the stable tests"
label = "stable tests"
sides = ["as the table says", "none"]
sides_fr = ["comme la table", "aucun"]

[finding]
heading = "What the medics change."
heading_fr = "Ce que changent les soigneurs."
writer = "say.py:say"
"""

GRID_CSV = (
    "skill,gap,trials,p_dead,p_dead_low,p_dead_high,p_dead_wound,"
    "p_dead_wound_low,p_dead_wound_high\n"
    "0,1min,100,0.5,0.4,0.6,0.25,0.2,0.3\n"
    "0,5min,100,0.75,0.65,0.85,0.5,0.4,0.6\n"
    "3,1min,100,0.125,0.05,0.2,0.0625,0.02,0.1\n"
    "3,5min,100,0.375,0.3,0.45,0.25,0.2,0.3\n"
)
COMPARE_CSV = (
    "stable_survival_tests,trials,p_dead,p_dead_low,p_dead_high,p_dead_wound,p_healed\n"
    "True,100,0.5,0.4,0.6,0.25,0.25\n"
    "False,100,0.25,0.2,0.3,0.25,0.5\n"
)


def _description(tmp_path: Path, text: str = DESCRIPTION) -> Path:
    path = tmp_path / "studies" / "solo.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _folder(tmp_path: Path) -> Path:
    extras = read_extras(_description(tmp_path))
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "medics.csv").write_text(GRID_CSV, encoding="utf-8")
    (folder / "no-stable-tests.csv").write_text(COMPARE_CSV, encoding="utf-8")
    (folder / WORDS).write_text(json.dumps(extras.words()), encoding="utf-8")
    return folder


def test_the_description_names_its_axes_sides_and_heading_in_both_languages(tmp_path):
    extras = read_extras(_description(tmp_path))
    assert extras.grid is not None and extras.compare is not None
    skill, gap = extras.grid.axes
    assert (skill.words("en"), skill.words("fr")) == ("medic's skill", "talent du soigneur")
    assert gap.words("fr") == "minutes between tries"  # no French given: the English
    assert extras.compare.words("fr") == ("stable tests", ("comme la table", "aucun"))
    assert extras.heading_in("fr") == "Ce que changent les soigneurs."
    assert WORDS in extras.files(["png"])
    words = extras.words()
    assert words["grid"]["file"] == "medics.csv"
    assert words["compare"]["values"] == ["True", "False"]


def test_without_words_an_axis_is_its_column_and_a_side_its_setting(tmp_path):
    bare = re.sub(r"(?m)^(label|label_fr|sides|sides_fr) = .*\n", "", DESCRIPTION)
    extras = read_extras(_description(tmp_path, bare))
    assert extras.grid is not None and extras.compare is not None
    assert [a.words("en") for a in extras.grid.axes] == ["skill", "gap"]
    assert extras.compare.words("en") == (
        "stable_survival_tests",
        ("stable_survival_tests = True", "stable_survival_tests = False"),
    )


def test_sides_must_be_two_texts(tmp_path):
    bad = DESCRIPTION.replace('sides = ["as the table says", "none"]', 'sides = ["only one"]')
    with pytest.raises(UserError) as caught:
        read_extras(_description(tmp_path, bad))
    said = str(caught.value)
    assert "compare.sides" in said and "only one" in said and "two texts" in said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["What the medics change", "medic's skill", "as the table says", "stable tests"]),
        ("fr", ["Ce que changent les soigneurs", "talent du soigneur", "comme la table"]),
    ],
)
def test_the_report_shows_the_extra_studies_in_the_descriptions_words(tmp_path, lang, said):
    folder = _folder(tmp_path)
    with language(lang):
        html = unescape(report_html(folder))
    for words in said:
        assert words in html, words
    assert "Table from medics.csv" not in html  # read as the description's, not as raw


def test_without_its_words_a_grid_is_only_an_other_table(tmp_path):
    folder = _folder(tmp_path)
    (folder / WORDS).unlink()
    html = unescape(report_html(folder))
    assert "medic's skill" not in html
    assert "medics.csv" in html  # shown as it is


def test_the_library_holds_no_word_of_the_case_study():
    """Géraldine, her grid and her comparison are the scenario's and the description's."""
    words = re.compile(r"Géraldine|first-aid\.csv|stable-tests\.csv|\bher wound\b|\bshe dies\b")
    found = []
    for room in ("report", "studies", "web", "cli"):
        for path in sorted((REPO / "simulator" / room).rglob("*")):
            if path.suffix in (".py", ".j2", ".html", ".js", ".css"):
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if words.search(line):
                        found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert found == []


def test_the_committed_extra_studies_fill_every_column_of_their_tables():
    """The report reads the columns the study writes: none of make run's is all dashes."""
    from simulator.report.pages.sections import extras

    _, tables = extras(REPO / "results" / "geraldine")
    assert len(tables) == 3  # the grid's two (death, death of a wound's spell), the comparison
    for table in tables:
        for column, name in enumerate(table.header[1:], 1):
            shown = {row[column].text for row in table.rows}
            assert shown != {"—"}, f"{table.caption}: {name}"
