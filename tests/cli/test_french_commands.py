"""``--lang fr`` on every command, Monte Carlo and exact: nothing a person reads is English.

Each command runs twice through the real command line, in English and in French, on one
scenario that gives its French name and description (``name_fr``, ``description_fr``). What
it prints and the texts of what it writes (the index, the report pages, the figures' words,
the comments of the scenario it saves) are searched for English words that the English run
holds: the French run holds none of them. Keys, values, file and column names are no
English (they stay as written), and are not searched: CSV and JSON files are left out.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.support import harmonies_sim

pytestmark = pytest.mark.integration  # commands end to end: make test, not make check

SCENARIO = """
name = "Solo"
name_fr = "Seule"
description = "How long does she last alone?"
description_fr = "Combien de temps tient-elle seule ?"
horizon = "2d"

[patient]
cp_rs = 6
rs_it = 6

[[injuries]]
at = "0s"
level = "grave"

[first_aid]
level = 0
start = "5min"
interval = "5min"

[healing]
level = 0
"""

ENGLISH = (
    "dies",
    "heals",
    "trials",
    "exact answer",
    "exact answers",
    "dropped",
    "Results",
    "Files",
    "campaigns",
    "seed",
    "still wounded",
    "healed",
    "Answer",
    "Written by",
    "Outcome",
    "Share",
    "median time",
    "states carried",
    "wound",
    "the",
    "Solo",
)
"""English words and phrases the commands' English output holds (whole words)."""

MC = ("--trials", "60", "--workers", "1", "--quiet")
COMMANDS = {
    "run": ("run", "{s}", *MC),
    "run-exact": ("run", "{s}", "--exact"),
    "sweep": ("sweep", "{s}", "--grid", "first_aid.level=0,3", *MC),
    "sweep-exact": ("sweep", "{s}", "--grid", "first_aid.level=0,3", "--exact"),
    "compare": ("compare", "{s}", "{s}", "--set-b", "first_aid.level=3", *MC),
    "compare-exact": ("compare", "{s}", "{s}", "--set-b", "first_aid.level=3", "--exact"),
    "balance": ("balance", "{s}", "--vary", "first_aid.level=0..3", "--target", "p_dead=0.5",
                *MC),
    "balance-exact": ("balance", "{s}", "--vary", "first_aid.level=0..3", "--target",
                      "p_dead=0.5", "--exact"),
    "sensitivity": ("sensitivity", "{s}", "--keys", "first_aid.level,first_aid.start", *MC),
    "sensitivity-exact": ("sensitivity", "{s}", "--keys", "first_aid.level,first_aid.start",
                          "--exact"),
    "study": ("study", "{d}", *MC),
    "study-exact": ("study", "{d}", "--exact"),
    "trace": ("trace", "{s}", "--trial", "1"),
    "validate": ("validate", "{s}", "--show"),
}  # fmt: skip
"""Every command that speaks French, with arguments for the scenario ``{s}`` (or its folder)."""


def written_texts(folder: Path) -> str:
    """The words of what a command wrote: pages and index as text, figures' words, comments."""
    parts = []
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".html", ".md"):
            text = path.read_text(encoding="utf-8")
            text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.DOTALL)
            text = re.sub(r"<pre\b.*?</pre>", lambda m: comments(m.group(0)), text, flags=re.S)
            parts.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
        elif path.suffix == ".svg":
            body = path.read_text(encoding="utf-8")
            parts += [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", body, re.S)]
        elif path.suffix == ".toml":
            parts.append(comments(path.read_text(encoding="utf-8")))
    return "\n".join(parts)


def comments(toml: str) -> str:
    """The comment lines of a scenario file (its keys and values are the file's own)."""
    return "\n".join(line for line in toml.splitlines() if line.lstrip().startswith("#"))


def without_code(text: str) -> str:
    """Text less what is code: `quoted`, paths, file names, dotted keys, snake_case names."""
    text = re.sub(r"^\s*[\w.\[\]]+ = .*$", " ", text, flags=re.MULTILINE)  # a TOML line
    text = re.sub(r"`[^`]*`|\S*/\S*|\S+\.(?:csv|json|png|svg|toml|html|md|parquet)\b", " ", text)
    return re.sub(r"\w+(?:\.\w+)+|\w*_\w*", " ", text)


def english_in(text: str, words: tuple[str, ...] = ENGLISH) -> set[str]:
    return {word for word in words if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)}


def said(args: tuple[str, ...], tmp: Path, lang: str) -> str:
    folder = tmp / "in"
    folder.mkdir(exist_ok=True)
    path = folder / "solo.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    out = tmp / f"out-{lang}"
    filled = [a.format(s=path, d=folder) for a in args]
    writes = args[0] not in ("trace", "validate")
    done = harmonies_sim(*filled, *(["--out", out] if writes else []), "--lang", lang)
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    if writes:
        text += "\n" + written_texts(out)
    return without_code(text.replace(str(tmp), " "))


@pytest.mark.parametrize("name", list(COMMANDS))
def test_nothing_left_in_english(name, tmp_path):
    english = english_in(said(COMMANDS[name], tmp_path, "en"))
    assert english, f"{name}: the English output holds none of the words looked for"
    left = english_in(said(COMMANDS[name], tmp_path, "fr"))
    assert not left, f"{name}: English left under --lang fr: {sorted(left)}"


def test_the_french_name_and_description_are_shown(tmp_path):
    text = said(COMMANDS["study"], tmp_path, "fr")
    said(COMMANDS["study"], tmp_path, "en")
    assert "Seule" in text and "Combien de temps tient-elle seule ?" in text
    index = (tmp_path / "out-fr" / "README.md").read_text(encoding="utf-8")
    assert "## Seule" in index and "Écrit par `harmonies-sim study " in index
    english = (tmp_path / "out-en" / "README.md").read_text(encoding="utf-8")
    assert "## Solo" in english and "Written by `harmonies-sim study " in english
    assert "make run" not in english


HELP_ENGLISH = (
    "Usage",
    "Show",
    "default",
    "the",
    "of",
    "and",
    "Trials",
    "Override",
    "Output",
    "Print",
    "Commands",
    "seed",
    "scenario",
)
"""English words that the English ``--help`` of the commands holds (option names, metavars,
choices and the example command lines are code, kept as written, and not searched)."""

HELP_ENGLISH_PER_COMMAND = ("Usage", "Show", "of")
"""Words every command's English ``--help`` holds."""


def help_text(args: tuple[str, ...], lang: str) -> str:
    done = harmonies_sim(*args, "--help", "--lang", lang)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    text = re.sub(r"--[\w-]+|\[[\w|]+\]|\b[A-Z][A-Z_=.,0-9-]+\b", " ", done.stdout)
    return without_code(text)


@pytest.mark.parametrize("command", ["", *sorted({args[0] for args in COMMANDS.values()}),
                                     "serve", "odds"])  # fmt: skip
def test_help_in_french(command):
    args = (command,) if command else ()
    english = english_in(help_text(args, "en"), HELP_ENGLISH)
    assert set(HELP_ENGLISH_PER_COMMAND) <= english, english
    left = english_in(help_text(args, "fr"), HELP_ENGLISH)
    assert not left, f"{command or 'the group'}: English left in --help --lang fr: {sorted(left)}"


def test_the_group_takes_lang_before_the_command(tmp_path):
    """``harmonies-sim --lang fr --help`` and ``harmonies-sim --lang fr run ...`` speak French."""
    done = harmonies_sim("--lang", "fr", "--help")
    assert done.returncode == 0 and "Afficher ce message et quitter." in done.stdout
    (tmp_path / "solo.toml").write_text(SCENARIO, encoding="utf-8")
    done = harmonies_sim("--lang", "fr", "run", tmp_path / "solo.toml", "--exact", "--json")
    assert done.returncode == 0, done.stderr
    done = harmonies_sim("--lang", "fr", "validate", tmp_path / "solo.toml")
    assert done.returncode == 0 and not english_in(without_code(done.stdout)), done.stdout


def test_the_odds_table_rule_line_fits_its_french_header():
    """D5: « modificateur » is wider than "modifier"; the separator row follows each header."""
    for lang in ("en", "fr"):
        lines = harmonies_sim("odds", "--lang", lang).stdout.splitlines()
        header, rule = lines[2], lines[3]
        assert [len(cell) for cell in header.split("|")] == [len(c) for c in rule.split("|")]
        assert rule.endswith(":|") and set(rule) <= set("|-:")
