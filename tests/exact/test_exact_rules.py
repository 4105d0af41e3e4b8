"""The exact engine and the object engine decide no rule themselves: no level or priority
compared with a number (``simulator/exact/`` and ``simulator/engine/``).

Its handlers ask ``simulator/rules/`` (:mod:`simulator.exact.wounds` caches the answers of
the wound rules, :mod:`simulator.rules.counts` gives the tests' totals over plain numbers,
:mod:`simulator.rules.order` O1's priorities). The check reads the source with ``ast``: a
comparison with a bare whole number other than 0 and 1, one of a level or a priority with
any bare number, and a ``%`` or ``//`` by a bare number are what a rule written again in the
engine's own vocabulary looks like (``lv < 3``, ``prio == 2``, ``cur % 3 == 2``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.rules import counts, transitions
from simulator.rules.levels import Level
from simulator.rules.order import Priority
from simulator.rules.patient import Patient, Wound
from simulator.rules.table import default_table

EXACT = Path(__file__).resolve().parents[2] / "simulator" / "exact"
ENGINE = EXACT.parent / "engine"

NAMES = ("lv", "level", "prio", "priority", "rank", "kind")
"""Words whose presence in an operand marks it as a level, a priority or a session's kind."""


def _number(node: ast.expr) -> int | None:
    """The whole number a literal stands for (``3``, ``-1``), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _named(node: ast.expr) -> bool:
    text = ast.unparse(node).lower()
    return any(name in text for name in NAMES) or "wounds[" in text


def offences(source: str, name: str = "<snippet>") -> list[str]:
    """Where a source compares a level or a priority with a number (see the module's text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            numbers = [n for n in map(_number, operands) if n is not None]
            if any(n not in (0, 1) for n in numbers) or (
                numbers and any(_named(o) for o in operands if _number(o) is None)
            ):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.FloorDiv)):
            n = _number(node.right)
            if n is not None and n not in (0, 1):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_of_the_exact_engine_compares_a_level_or_a_priority_with_a_number():
    found = []
    for path in sorted(EXACT.glob("*.py")):
        found += offences(path.read_text(encoding="utf-8"), path.name)
    assert found == []


def test_no_module_of_the_object_engine_compares_a_level_or_a_priority_with_a_number():
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        found += offences(path.read_text(encoding="utf-8"), path.name)
    assert found == []


@pytest.mark.parametrize(
    "snippet",
    [
        "if lv < 3: pass",  # a track told by a number
        "x = cur is None or cur % 3 == 2",  # the top of a track told by a number
        "if prio == 2: pass",  # O1 told by a number
        "ok = level >= 0",  # a level against any number
        "n = total // 5",  # F1's step told by a number
        "y = [w for w in ws if w[1] < 3]",
    ],
)
def test_the_check_finds_what_the_old_handlers_wrote(snippet):
    assert offences(snippet)


def test_the_check_lets_named_constants_and_plain_counts_through():
    source = "if kind == Session.REST and k > after and n >= 0 and view.period == NEVER: pass"
    assert offences(source) == []


def test_no_module_of_the_exact_engine_is_over_450_lines():
    long = {p.name: n for p in EXACT.glob("*.py") if (n := len(p.read_text().splitlines())) > 450}
    assert long == {}


def test_o1_priorities_are_those_of_the_event_by_event_engine():
    from simulator.engine import clock

    assert {p.name: int(p) for p in Priority} == {
        name: getattr(clock, f"PRIO_{name}") for name in Priority.__members__
    }
    assert sorted(Priority) == list(Priority)  # declared in O1's order


# --- rules/counts.py against the Patient versions of rules/transitions.py -------------------
LEVELS = st.sampled_from(list(Level))
WOUNDS = st.lists(st.tuples(LEVELS, st.booleans()), max_size=6)


def _patient(wounds: list[tuple[Level, bool]], pain: float, missed: int) -> Patient:
    held = tuple(Wound(i, lv, stable) for i, (lv, stable) in enumerate(wounds))
    return Patient(default_table(), held, pain=pain, missed_watches=missed, next_uid=len(held))


PAIN = st.one_of(st.integers(0, 40), st.integers(0, 80).map(lambda k: k / 4))
"""Whole pain, or with fractions (P1) exact in binary, so that sums in any order agree."""


@given(WOUNDS, PAIN, st.integers(0, 5), st.integers(-5, 12), st.integers(-5, 5))
def test_counts_totals_are_the_sums_of_the_named_modifiers(wounds, pain, missed, attr, mod):
    p = _patient(wounds, pain, missed)
    difficulty = transitions.wound_difficulty(p)
    assert counts.survival_total(attr, pain, missed) == transitions.survival_modifier(p, attr)
    assert counts.survival_total(attr, pain, missed, mod) == sum(
        v for _, v in transitions.activity_modifiers(p, attr, mod, [])
    )
    assert counts.faint_total(attr, pain) == sum(
        v for _, v in transitions.faint_modifiers(p, attr, [])
    )
    for self_treat in (False, True):
        for factor in (1, 2, 3):
            expected = sum(
                v for _, v in transitions.first_aid_modifiers(p, attr, mod, self_treat, [], factor)
            )
            assert counts.first_aid_total(attr, difficulty, mod, self_treat, pain, factor) == (
                expected
            )
    assert counts.basic_healing_total(attr, difficulty, mod) == sum(
        v for _, v in transitions.basic_healing_modifiers(p, attr, mod, [])
    )
    assert counts.basic_healing_total(attr, 0, mod) == sum(
        v for _, v in transitions.basic_mental_healing_modifiers(attr, mod, [])
    )
    for w in p.wounds:
        row = p.table.rows[w.level]
        expected = sum(v for _, v in transitions.healing_modifiers(p, attr, w, mod))
        total = counts.healing_total(attr, row.difficulty, missed, mod, w.level.is_physical)
        assert total == expected


@given(st.integers(0, 200), st.integers(0, 30))
def test_f1_needs_only_the_pain_received_modulo_its_step(received, pain):
    rest = counts.faint_residue(received)
    assert transitions.faint_tests_due(received, received + pain) == (
        transitions.faint_tests_due(rest, rest + pain)
    )
    assert counts.faint_residue(rest + pain) == counts.faint_residue(received + pain)


@given(st.integers(0, 9))
def test_r3_adds_one_missed_watch_as_neglect_watch_does(missed):
    p = _patient([(Level.GRAVE, True)], 0, missed)
    for survived in (True, False):
        after = transitions.neglect_watch(p, survived).missed_watches
        assert counts.missed_after_neglect(missed) == after
