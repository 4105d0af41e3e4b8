"""``--lang fr`` on the commands that tell rather than draw: ``validate`` and ``trace``.

Each runs through the real command line; what is left once the identifiers are taken out
(keys, values, rule ids, the user's own names) holds no English word of the catalogue.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from simulator.engine import trace_templates
from simulator.report.i18n import language
from simulator.report.timeline import phrase_text
from simulator.rules.levels import Level
from simulator.rules.table import CELLS
from simulator.scenario.reading import load_scenario
from tests.report.test_i18n import ENGLISH, words
from tests.support import harmonies_sim

SCENARIO = "scenarios/geraldine.toml"
IDENTIFIERS = {*CELLS, *(level.label for level in Level), "humanoid", "arpeges", "basic"}
IDENTIFIERS |= {"ruleset", "profile", "maxima", "level", "modifier", "self", "start", "interval"}
"""Words that are keys or values, written as a scenario file writes them in any language."""


def english_left(text: str, *names: str) -> set[str]:
    """The catalogue's English words in ``text``, once quotes, names and identifiers are out."""
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\[[\w.\[\]]+\]|\w+(?:\.[\w\[\]]+)+|\w+_\w+", " ", text)
    return {w for w in words(text) & ENGLISH if w not in IDENTIFIERS}


def test_validate_summary_in_french():
    en = harmonies_sim("validate", SCENARIO)
    fr = harmonies_sim("validate", SCENARIO, "--lang", "fr")
    assert en.returncode == fr.returncode == 0
    assert "(ruleset arpeges, horizon 60d, 2 injuries (3 wounds)" in en.stdout
    assert fr.stdout.startswith("ok: ")
    assert "horizon 60 j" in fr.stdout and "dès 5 min, toutes les 5 min" in fr.stdout
    assert "soigneur de niveau \u22122, modificateur \u22121" in fr.stdout
    assert "« Géraldine après l'embuscade »" in fr.stdout  # the scenario's name_fr, in guillemets
    assert "after the ambush" not in fr.stdout
    assert not english_left(fr.stdout, SCENARIO)


def test_validate_show_in_french_keeps_the_scenario():
    en = harmonies_sim("validate", SCENARIO, "--show", "--set", "first_aid.level=2")
    fr = harmonies_sim("validate", SCENARIO, "--show", "--set", "first_aid.level=2", "--lang", "fr")
    assert en.returncode == fr.returncode == 0
    assert tomllib.loads(fr.stdout) == tomllib.loads(en.stdout)  # the comments only differ
    comments = "\n".join(line for line in fr.stdout.splitlines() if line.startswith("#"))
    assert "tel qu'il sera simulé" in comments and "Omis ou sans effet" in comments
    assert not english_left(comments, SCENARIO)
    assert comments != "\n".join(line for line in en.stdout.splitlines() if line.startswith("#"))


def test_validate_problems_in_french(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(
        'name = ""\nruleset = "arpege"\nhorizon = "60 days"\n[patient]\ncp_rs = "high"\n'
        'profil = "x"\n[[injuries]]\nat = "0s"\nlevel = "lite"\n[watch]\nneglect_probability = 2\n',
        encoding="utf-8",
    )
    en = harmonies_sim("validate", path, "--set", "first_aid.self=1")
    fr = harmonies_sim("validate", path, "--set", "first_aid.self=1", "--lang", "fr")
    assert en.returncode == fr.returncode == 2
    en_lines, fr_lines = en.stderr.splitlines(), fr.stderr.splitlines()
    assert len(en_lines) == len(fr_lines) >= 8
    assert all("; expected " in line for line in en_lines)
    for line in fr_lines:
        assert line.startswith("error: ") and " ; attendu " in line, line
        assert not english_left(line, str(path)), line
    assert "reçu 'arpege' ; attendu l'une des valeurs" in fr.stderr
    assert "(vouliez-vous dire 'arpeges' ?)" in fr.stderr
    missing = harmonies_sim("validate", tmp_path / "none.toml", "--lang", "fr")
    assert missing.returncode == 2 and "fichier introuvable" in missing.stderr


TRACES = [
    ("scenarios/geraldine.toml", "--find", "healed"),
    ("scenarios/geraldine_basic.toml", "--trial", "0"),
    ("scenarios/lone_traveller.toml", "--find", "dead"),
    ("scenarios/field_medic.toml", "--trial", "3"),
    ("scenarios/shaken.toml", "--trial", "0"),
    ("scenarios/careless_watches.toml", "--trial", "1"),
]
ENGLISH_CLOCK = re.compile(r"\b\d+d \d\d:\d\d")
RULE_COLUMN = re.compile(r"^ *\d+ j \d\d:\d\d\S*  (\S+)|^ *\d+d \d\d:\d\d\S*  (\S+)", re.MULTILINE)


@pytest.mark.parametrize("args", TRACES, ids=lambda a: Path(a[0]).stem)
def test_trace_in_french(args):
    en = harmonies_sim("trace", *args)
    fr = harmonies_sim("trace", *args, "--lang", "fr")
    assert en.returncode == fr.returncode == 0, fr.stderr
    scenario = load_scenario(Path(args[0]))
    assert en.stdout.startswith(f"{scenario.name} (seed ")
    assert scenario.name_fr and fr.stdout.startswith(f"{scenario.name_fr} (graine ")
    left = english_left(fr.stdout, scenario.name_fr)
    assert not left, f"English words left in French: {sorted(left)}"
    assert not ENGLISH_CLOCK.search(fr.stdout) and re.search(r"\d j \d\d:\d\d", fr.stdout)
    rules = ["".join(m) for m in RULE_COLUMN.findall(en.stdout)]
    assert rules and ["".join(m) for m in RULE_COLUMN.findall(fr.stdout)] == rules
    assert len(fr.stdout.splitlines()) == len(en.stdout.splitlines())
    assert "Issue : " in fr.stdout and "\u2212" in fr.stdout  # French minus signs


def engine_phrases() -> list[tuple[str, tuple[tuple[str, object], ...]]]:
    """Every template of a trace line, its placeholders filled with ``7`` (words: ``light``)."""
    found = []
    for name, template in vars(trace_templates).items():
        if name.startswith("_") or not name.isupper():
            continue
        if not isinstance(template, str | tuple) or name in ("KINDS", "PLURALS", "WORDS", "PLAIN"):
            continue
        for one in template[:1] if isinstance(template, tuple) else (template,):
            names = re.findall(r"{(\w+)}", one)
            args = tuple((n, "light" if n.startswith("what") else 7) for n in names)
            args = tuple((n, ((7, 7) if n == "times" else v)) for n, v in args)
            args = tuple((n, ((("pain", -5),) if n == "what_mods" else v)) for n, v in args)
            found.append((one, args))
    return found


def test_every_line_of_the_engine_is_in_the_catalogue():
    """A line the scenarios above do not reach is translated too: each matches a phrase."""
    phrases = engine_phrases()
    assert len(phrases) >= 20
    for english, args in phrases:
        with language("fr"):
            french = phrase_text(english, args)
        assert french != english, english
        assert not words(french) & ENGLISH, (english, french)


def test_one_unit_after_every_reads_as_french_says_it():
    """ "toutes les 1 min" and "surveillances toutes les 1 j" were written word for word."""
    from simulator.report.i18n import language
    from simulator.report.timeline import every_text

    with language("fr"):
        assert every_text(60) == "minutes" and every_text(86400) == "24 h"
        assert every_text(300) == "5 min" and every_text(3600) == "heures"
    with language("en"):
        assert every_text(60) == "1min"
    hydra = harmonies_sim("validate", "scenarios/hydra.toml", "--lang", "fr")
    assert "dès 1 min, toutes les minutes" in hydra.stdout, hydra.stdout
    light = ("trace", "scenarios/geraldine.toml", "--set", 'injuries=[{at="0s", level="light"}]',
             "--trial", "1")  # fmt: skip
    assert "surveillances toutes les 24 h" in harmonies_sim(*light, "--lang", "fr").stdout
    assert "watches every 1d" in harmonies_sim(*light).stdout


def test_the_placeholders_of_help_are_french_words_too():
    """`--set KEY=VALUE`, `INTEGER`, `SCENARIO` read as English in a French help; the English
    help is left as it was (the placeholders are put back after each help)."""
    fr = harmonies_sim("sweep", "--help", "--lang", "fr").stdout
    assert "sweep [OPTIONS] SCÉNARIO" in fr and "Utilisation" in fr
    assert "--set CLÉ=VALEUR" in fr and "--trials ENTIER" in fr and "--out CHEMIN" in fr
    assert "KEY=VALUE" not in fr and "INTEGER" not in fr
    group = harmonies_sim("--help", "--lang", "fr").stdout
    assert "COMMANDE [ARGUMENTS]..." in group
    en = harmonies_sim("sweep", "--help").stdout
    assert "sweep [OPTIONS] SCENARIO" in en and "--set KEY=VALUE" in en


def test_a_mental_wound_is_a_noun_in_french_and_the_lightest_heals_away():
    """M3, G2: « reçoit un choc », not « une blessure choc »; a healed shock or light wound is
    gone, not "healed one level"; a trauma becomes a shock (trial 3 of shaken, seed 0)."""
    args = ("trace", "scenarios/shaken.toml", "--trial", "3")
    en, fr = harmonies_sim(*args).stdout, harmonies_sim(*args, "--lang", "fr").stdout
    assert "receives a shock wound" in en and "reçoit un choc" in fr
    assert "the shock wound heals and is gone" in en and "le choc guérit et disparaît" in fr
    assert "the trauma wound heals one level, to a shock wound" in en
    assert "le traumatisme guérit d'un niveau et devient un choc" in fr
    assert "blessure choc" not in fr and "blessure traumatisme" not in fr
    tpl = trace_templates
    with language("fr"):
        for label in ("light", "grave", "critical", "shock", "trauma", "psychosis"):
            received = phrase_text(tpl.RECEIVES, (("what", tpl.A_WOUND[label]),))
            worse = phrase_text(tpl.WORSENS, (("what", tpl.THE_WOUND[label]),))
            assert received.startswith("reçoit un") and worse.endswith(" s'aggrave"), label
            assert not words(received + worse) & ENGLISH, (received, worse)


def test_click_s_own_brackets_take_french_spaces():
    """click writes ``[default: 0; 0<=x<=9]`` itself: in French the semicolon takes its
    no-break space as every translated text does; English is left as click writes it."""
    fr = harmonies_sim("trace", "--help", "--lang", "fr").stdout
    assert "[par défaut\u00a0: 0\u00a0;" in fr and "0;" not in fr
    assert "[default: 0; 0<=x<=" in harmonies_sim("trace", "--help").stdout


def test_a_ruleset_and_a_profile_are_said_in_french_with_the_file_s_word():
    """The trace's head says « Arpèges (arpeges) » and « humanoïde (humanoid) »: the word
    the file takes stays beside it; English shows the file's word alone."""
    fr = harmonies_sim("trace", "scenarios/shaken.toml", "--lang", "fr").stdout.splitlines()[2]
    assert fr.startswith("règles Arpèges (arpeges), horizon 90 j")
    assert fr.endswith("profil humanoïde (humanoid)")
    en = harmonies_sim("trace", "scenarios/shaken.toml").stdout.splitlines()[2]
    assert en.startswith("ruleset arpeges, horizon 90d") and en.endswith("profile humanoid")
    from simulator.web.words import choice_text

    assert choice_text("thick_skin", "fr") == "peau épaisse (thick_skin)"
    assert choice_text("thick_skin", "en") == "thick_skin"
