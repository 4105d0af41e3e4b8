"""Géraldine's finding in French (``study --lang fr``): the same numbers, in French words and
formats, from the catalogue's templates; the README's copy stays English."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from simulator.report.i18n import NNBSP, language
from simulator.studies.main_study import run_directory
from tools.readme_finding import finding_of, main, marked

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "results"

ENGLISH = ["every", "from level", "dies", "campaigns", "tries", "try at", "without", "not even",
           "opened the way", "a wound received", "before the first", " or ", "holds"]  # fmt: skip
"""Words of the English finding that its French must not hold."""


def percents(text: str) -> list[str]:
    """The percents of a text, written the English way (``97.3%``), in order."""
    found = re.findall(rf"(\d+(?:[.,]\d+)?)(?:%|{NNBSP}%)", text)
    return [p.replace(",", ".") for p in found]


def levels(text: str, word: str) -> list[str]:
    """The levels after ``word`` (French writes a minus sign, English a hyphen)."""
    return [n.replace("\u2212", "-") for n in re.findall(rf"{word} ([\u2212-]?\d+)", text)]


@pytest.fixture(scope="module")
def both() -> tuple[str, str]:
    if not (RESULTS / "geraldine" / "first-aid.csv").is_file():
        pytest.fail("results/geraldine/first-aid.csv is missing: run `make run` and commit")
    english = finding_of(RESULTS)
    with language("fr"):
        return english, finding_of(RESULTS)


def test_the_french_finding_says_the_english_numbers_in_french(both):
    english, french = both
    assert french.startswith("L'affirmation des textes, «\u00a0quinze minutes")
    assert french != english
    assert percents(french) == percents(english) and len(percents(english)) > 10
    assert f"au plus 5{NNBSP}%" in french and re.search(rf"\d,\d{NNBSP}% des campagnes", french)
    # "or 8 up" is "à coup sûr dès le niveau 8": the same levels, in the same order
    sure = [a or b for a, b in re.findall(r"level (-?\d+)|or (-?\d+) up", english)]
    assert levels(french, "niveau") == sure
    assert "tentatives à 15" in french and "avant le premier jet de survie" in french  # O1
    said = {  # what the committed grid and headline say, in both languages
        "every 30 s from level": "toutes les 30 s dès le niveau",
        "every minute from level": "toutes les minutes dès le niveau",
        "every 10 minutes, not even level": "toutes les 10 minutes, même le niveau",
        "a wound received": "une blessure reçue",
        "a failed healing": "un jet de guérison raté",
    }
    assert [en in english for en in said] == [fr in french for fr in said.values()]
    assert "a wound received" in english


def test_the_french_finding_holds_no_english_word(both):
    _, french = both
    assert not [word for word in ENGLISH if word in french]


def test_the_readmes_copy_stays_english_under_french():
    with language("fr"):
        assert main(["--check"]) == 0  # the committed README's English finding


def test_study_in_french_writes_the_french_finding_into_its_index(tmp_path):
    scenarios = tmp_path / "scenarios"
    (scenarios / "studies").mkdir(parents=True)
    shutil.copy(REPO / "scenarios" / "geraldine.toml", scenarios / "geraldine.toml")
    shutil.copy(REPO / "scenarios" / "studies" / "geraldine.toml", scenarios / "studies")
    shutil.copy(REPO / "scenarios" / "studies" / "geraldine_finding.py", scenarios / "studies")
    out = tmp_path / "results"
    with language("fr"):
        run_directory(scenarios, trials=40, seed=1, out=out, workers=1)
        french = finding_of(out)
    index = (out / "README.md").read_text(encoding="utf-8")
    assert marked(index) == french and french.startswith("L'affirmation des textes")
    assert "## Géraldine après l'embuscade" in index  # the scenario's name_fr
    assert marked(index) != finding_of(out)  # the English of the same files
