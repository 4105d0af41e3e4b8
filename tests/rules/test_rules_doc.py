"""docs/rules.md and the README's map of the code name things that exist.

Every code reference in the tables of docs/rules.md (the columns "implemented by" and "pinned
by", and the settings of the assumptions) and in the README's "How the code is organised"
is resolved: a module by importing it, a function, class or method by looking it up, a test
by finding its ``def``. Backticks inside parentheses are prose (an argument, a flag, a trace
word) and are not checked.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from tests.support import REPO

RULES_MD = REPO / "docs" / "rules.md"
README = REPO / "README.md"

SHORT = {
    "chances": "simulator.rules.chances",
    "dice": "simulator.rules.dice",
    "durations": "simulator.rules.durations",
    "levels": "simulator.rules.levels",
    "patient": "simulator.rules.patient",
    "periods": "simulator.rules.periods",
    "rest": "simulator.rules.rest",
    "table": "simulator.rules.table",
    "transitions": "simulator.rules.transitions",
    "record": "simulator.engine.record",
    "rows": "simulator.rules.rows",
    "outcome": "simulator.rules.outcome",
}
"""The short module names of docs/rules.md (``transitions:heal``), as its legend gives them."""

NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@cache
def defined_in(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))


def lookup(module: str, dotted: str) -> bool:
    target: object = importlib.import_module(module)
    for part in dotted.split("."):
        if not hasattr(target, part):
            return False
        target = getattr(target, part)
    return True


def outside_parentheses(text: str) -> list[str]:
    """The backticked tokens of ``text`` that are not inside parentheses, in order."""
    tokens, depth = [], 0
    for i, piece in enumerate(text.split("`")):
        if i % 2:  # inside backticks
            if depth == 0:
                tokens.append(piece)
        else:
            depth = max(0, depth + piece.count("(") - piece.count(")"))
    return tokens


def named_test_file(name: str) -> Path | None:
    """The test file of that name in one of the rooms of ``tests/`` (names are unique)."""
    found = sorted((REPO / "tests").rglob(name))
    return found[0] if len(found) == 1 else None


def problems(text: str) -> list[str]:
    """What in ``text`` names nothing (one line per reference that does not resolve)."""
    found: list[str] = []
    module: str | None = None
    test_file: Path | None = None
    for token in outside_parentheses(text):
        path, _, test = token.partition("::")
        if test:  # a test: ``test_x.py::test_y``, ``tests/test_x.py::test_y`` or ``::test_y``
            if path:
                test_file = named_test_file(Path(path).name)
            if test_file is None or not test_file.is_file():
                found.append(f"{token}: no test file {test_file}")
            elif test.split("[")[0] not in defined_in(test_file):
                found.append(f"{token}: no test {test} in {test_file.name}")
        elif token.startswith(("simulator/", "tests/", "docs/", "scenarios/", "notebooks/")):
            if not (REPO / token.rstrip("/")).exists():
                found.append(f"{token}: no such file")
            module = None
            if token.startswith("simulator/") and token.endswith(".py"):
                module = token.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
                test_file = None
        elif ":" in token and token.split(":")[0] in SHORT:
            short, _, dotted = token.partition(":")
            if not lookup(SHORT[short], dotted):
                found.append(f"{token}: no {dotted} in {SHORT[short]}")
        elif NAME.match(token) and module is not None and not lookup(module, token):
            found.append(f"{token}: no {token} in {module}")
    return found


def table_rows(section: str) -> list[list[str]]:
    text = RULES_MD.read_text(encoding="utf-8").split(section, 1)[1].split("\n## ", 1)[0]
    return [line.split(" | ") for line in text.splitlines() if re.match(r"^\| [A-Z]\d ", line)]


@pytest.mark.parametrize("row", table_rows("## The table"), ids=lambda row: row[0].strip("| "))
def test_rules_md_names_code_and_tests_that_exist(row):
    rule, _, implemented, pinned = row[0].strip("| "), row[1], row[2], row[3].rstrip("|")
    assert problems(implemented) == [], rule
    assert problems(pinned) == [], rule
    assert re.search(rf"::test_(\w+_)?{rule.lower()}_", pinned), f"{rule}: no test named after it"


def test_rules_md_settings_exist():
    settings = [row[2] for row in table_rows("## Assumptions")]
    refs = [t for cell in settings for t in cell.split("`")[1::2] if t.startswith("Settings.")]
    assert refs, "the assumptions name their settings"
    missing = [r for r in refs if not lookup("simulator.scenario.model", r)]
    assert missing == []


def test_rules_md_legend_names_the_short_modules():
    head = RULES_MD.read_text(encoding="utf-8").split("## The table", 1)[0]
    for short, module in SHORT.items():
        assert f"`{short}:" in head, f"docs/rules.md should say what `{short}:` means"
        assert importlib.import_module(module)


def test_the_readme_map_of_the_code_names_what_exists():
    text = README.read_text(encoding="utf-8")
    section = text.split("## How the code is organised", 1)[1].split("\n## ", 1)[0]
    assert "docs/rules.md" in section
    assert problems(section) == []
    for package in ("rules", "scenario", "engine", "studies", "report", "cli"):
        assert f"`simulator/{package}/`" in section, package


def test_the_checker_finds_what_is_missing():
    assert problems("`transitions:no_such_rule`") == [
        "transitions:no_such_rule: no no_such_rule in simulator.rules.transitions"
    ]
    assert problems("`test_dice.py::test_d0_nothing`")
    assert problems("`simulator/engine/trial.py`: `Trial.no_such_method`")
    assert problems("`simulator/engine/trial.py`: `Trial._x` (`not_checked`)") != []
    assert problems("`simulator/engine/trial.py`: `Trial` (`not_checked`)") == []
