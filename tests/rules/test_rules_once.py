"""Each rule decided once: docs/rules.md names, per rule id, the one function of ``rules/``.

The table's last column, "decided by", names for every rule id the function of
``simulator/rules/`` that decides it. This test resolves each name, then checks by reading the
sources (``ast``, no import of the engines) that every engine reaches that function: the
compiled kernel (``simulator/kernel/``'s loop and the engine that feeds it), the exact
engine (``simulator/exact/``) and the engine of Python objects (``simulator/engine/``). An
engine reaches a function when one of its modules names it, or names a function or constant
of ``simulator/`` whose definition reaches it (``transitions.faint_tests_due`` reaches
``scalar.faint_tests_due``, which it calls; the kernel's ``decisions.survival_total`` is
``inlined(scalar.survival_total)``). Where an engine does not reach the rule's function, the
cell must say so (``not the kernel (why)``), and the test checks that the stated exception is
true, so that it cannot outlive its reason.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.source import assigned

RULES_MD = REPO / "docs" / "rules.md"
SIMULATOR = REPO / "simulator"

SHORT = {
    "scalar": "simulator.rules.scalar",
    "rows": "simulator.rules.rows",
    "outcome": "simulator.rules.outcome",
    "decisions": "simulator.kernel.decisions",
    "codes": "simulator.rules.codes",
    "transitions": "simulator.rules.transitions",
    "counts": "simulator.rules.counts",
    "cause": "simulator.rules.cause",
    "chances": "simulator.rules.chances",
    "dice": "simulator.rules.dice",
    "levels": "simulator.rules.levels",
    "patient": "simulator.rules.patient",
    "periods": "simulator.rules.periods",
    "rest": "simulator.rules.rest",
    "table": "simulator.rules.table",
    "order": "simulator.rules.order",
}
"""The short module names of the column (``scalar:survival_total``), all under rules/."""

KERNEL = ("loop", "handlers", "events", "clocks")
ENGINES: dict[str, tuple[str, ...]] = {
    "kernel": (
        *(f"simulator.kernel.{name}" for name in KERNEL),
        "simulator.kernel.engine",
        "simulator.kernel.params",
    ),
    "exact engine": tuple(
        f"simulator.exact.{p.stem}" for p in sorted((SIMULATOR / "exact").glob("*.py"))
    ),
    "object engine": tuple(
        f"simulator.engine.{p.stem}"
        for p in sorted((SIMULATOR / "engine").glob("*.py"))
        if not p.stem.startswith("kernel")
    ),
}
"""Each engine's own modules. The kernel's adapter in engine/ (scenario to numbers, numbers to
records) belongs to the kernel; its trace decoder is left out (:data:`WORDS`)."""

WORDS = frozenset({"simulator.kernel.telling"})
"""Modules not followed: the kernel's trace decoder decides nothing, it puts the kernel's trace
records into words (it builds a ``Patient`` to describe the wounds, as the object engine's
trace does)."""

Node = tuple[str, str]
"""A module and a top-level name of it."""


def _path(module: str) -> Path:
    base = REPO / Path(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _resolve(module: str, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    package = module.split(".")
    if _path(module).name != "__init__.py":
        package = package[:-1]
    package = package[: len(package) - level + 1]
    return ".".join([*package, *([name] if name else [])])


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse(_path(module).read_text(encoding="utf-8"))


@cache
def _attributes(module: str, name: str | None = None) -> frozenset[str]:
    """The attribute names (``x.worst``) a module's text, or one definition of it, uses."""
    tree: ast.AST | None = _tree(module)
    for part in name.split(".") if name else []:
        tree = next(
            (
                n
                for n in ast.iter_child_nodes(tree)
                if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part
            ),
            None,
        )
        if tree is None:  # a constant or an alias: no attribute of its own
            return frozenset()
    return frozenset(n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute))


@cache
def _parsed(module: str) -> tuple[dict[str, Node | str], dict[str, set[Node]], set[Node]]:
    """A module's imports (local name: node or module), its top-level definitions' references
    and the references of its whole text."""
    tree = _tree(module)
    names: dict[str, Node | str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node.level, node.module)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                local = alias.asname or alias.name
                names[local] = full if _path(full).exists() else (source, alias.name)
    assigned: dict[str, ast.expr] = {}
    for n in tree.body:
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                for name in ast.walk(t):  # ``A, B = f(x), g(y)`` defines A and B
                    if isinstance(name, ast.Name):
                        assigned[name.id] = n.value
    top = set(assigned) | {
        n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
    }

    def refs(node: ast.AST) -> set[Node]:
        found: set[Node] = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                target = names.get(sub.value.id)
                if isinstance(target, str):
                    found.add((target, sub.attr))
            if isinstance(sub, ast.Name):
                target = names.get(sub.id)
                if isinstance(target, tuple):
                    found.add(target)
                elif sub.id in top:
                    found.add((module, sub.id))
        return found

    defs: dict[str, set[Node]] = {name: refs(value) for name, value in assigned.items()}
    for n in tree.body:
        if isinstance(n, ast.FunctionDef):
            defs[n.name] = refs(n)
        elif isinstance(n, ast.ClassDef):  # the class, and each method apart (``C.m``)
            body = [b for b in n.body if not isinstance(b, ast.FunctionDef)]
            defs[n.name] = set().union(*map(refs, body), *map(refs, n.bases))
            for b in n.body:
                if isinstance(b, ast.FunctionDef):
                    defs[f"{n.name}.{b.name}"] = refs(b)
    for local, target in names.items():  # a re-export: ``from x import f`` defines f here
        if isinstance(target, tuple):
            defs.setdefault(local, set()).add(target)
    return names, defs, refs(tree)


def _inside(node: Node) -> bool:
    return node[0].startswith("simulator.") and node[0] not in WORDS and _path(node[0]).exists()


@cache
def reached(engine: str) -> frozenset[Node]:
    """Every (module, name) of simulator/ that an engine's modules reach.

    A method ``C.m`` is reached when its class is and ``.m`` is used by the engine's modules
    or by a definition reached (an instance's methods cannot be told apart otherwise).
    """
    todo = [n for m in ENGINES[engine] for n in _parsed(m)[2] if _inside(n)]
    used = set().union(*(_attributes(m) for m in ENGINES[engine]))
    seen: set[Node] = set()
    while todo:
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            if node[1] in _parsed(node[0])[1]:
                used |= _attributes(node[0], node[1])
            todo += [n for n in _parsed(node[0])[1].get(node[1], ()) if _inside(n)]
        todo = [
            (module, name)
            for module, _ in seen
            for name in _parsed(module)[1]
            if "." in name
            and (module, name.split(".")[0]) in seen
            and name.split(".")[1] in used
            and (module, name) not in seen
        ]
    return frozenset(seen)


EXCEPTION = re.compile(r"not the (kernel|exact engine|object engine) \(")


def decided_by() -> list[tuple[str, str]]:
    """(rule id, the "decided by" cell) for every row of the table."""
    text = RULES_MD.read_text(encoding="utf-8").split("## The table", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in text.splitlines() if re.match(r"^\| [A-Z]\d ", line)]
    head = next(line for line in text.splitlines() if line.startswith("| id "))
    assert head.rstrip(" |").endswith("decided by"), "the table's last column is 'decided by'"
    return [
        (line.split(" | ")[0].strip("| "), line.split(" | ")[-1].rstrip(" |")) for line in lines
    ]


def _function(cell: str) -> Node:
    short, _, name = cell.split("`")[1].partition(":")
    return SHORT[short], name


ROWS = decided_by()


@pytest.mark.parametrize(("rule", "cell"), ROWS, ids=[rule for rule, _ in ROWS])
def test_every_rule_is_decided_by_one_function_of_rules_that_every_engine_reaches(rule, cell):
    assert cell.count("`") >= 2, f"{rule}: no function named"
    module, name = _function(cell)
    target: object = importlib.import_module(module)
    for part in name.split("."):
        assert hasattr(target, part), f"{rule}: no {name} in {module}"
        target = getattr(target, part)
    node = (module, name)
    stated = set(EXCEPTION.findall(cell))
    for engine in ENGINES:
        reaches = node in reached(engine)
        if engine in stated:
            assert not reaches, f"{rule}: the {engine} reaches {name}: drop the exception"
        else:
            assert reaches, f"{rule}: the {engine} does not reach {module}:{name}"


def test_every_rule_id_has_a_row():
    from simulator.rules.ids import RuleId

    assert sorted(rule for rule, _ in ROWS) == sorted(r.value for r in RuleId)


def test_the_graph_follows_wrappers_and_finds_what_an_engine_does_not_use():
    survival = ("simulator.rules.scalar", "survival_total")
    assert survival in reached("kernel")  # through decisions.survival_total = from_scalar(...)
    assert survival not in reached("object engine")  # it rolls against the named terms,
    assert ("simulator.rules.scalar", "survival_terms") in reached("object engine")  # these
    assert ("simulator.rules.scalar", "watch_index") in reached("exact engine")
    assert ("simulator.rules.transitions", "receive_wound") not in reached("kernel")


# --- one representation of the wounds (issue 30) ----------------------------------------------
WOUND_ROWS = ("W_LEVEL", "W_STABLE", "W_UID")
ENGINE_DIRS = ("kernel", "engine", "exact")


def _row_cell(node: ast.AST) -> bool:
    """Whether ``node`` is a wound row's cell: ``w[W_LEVEL, i]``."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Tuple)
        and bool(node.slice.elts)
        and isinstance(node.slice.elts[0], ast.Name)
        and node.slice.elts[0].id in WOUND_ROWS
    )


def _row_accesses(path: Path) -> tuple[list[str], list[str]]:
    """The subscripts ``w[W_*, i]`` of a module: (those written, those only read)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    written = [
        f"{path.name}:{target.lineno}: {ast.unparse(target)}"
        for _, target in assigned(tree)
        if _row_cell(target)
    ]
    read = [f"{path.name}:{n.lineno}: {ast.unparse(n)}" for n in ast.walk(tree) if _row_cell(n)]
    return written, read


def test_no_engine_changes_the_wound_rows_itself():
    """Every change of the wounds (W1-W2, S3-S4, A2, R3, G2, G4) is a function of rules.rows:
    no module of an engine writes a wound row's cell itself."""
    for room in ENGINE_DIRS:
        for path in sorted((SIMULATOR / room).glob("*.py")):
            written, _ = _row_accesses(path)
            assert written == [], f"{path}: writes the wound rows itself: {written}"


READERS = {
    "clocks.py": 1,  # M1's draw: each mental wound's penalty, drawn per wound (rows: its penalty)
    "events.py": 3,  # Q1's wounds left per level; the worst wound's level kept for R2 and S2
    # (S_WORST_LEVEL); the level a wound worsens from (W2), told in the trace
    "handlers.py": 7,  # the uids a session or an activity has tested, X1's tested levels, and
    # whether S3's target was the relapse's (G4) for the trace
}
"""The kernel's modules that read a wound's cell themselves, and how many times: to carry a
uid or a level from one decision of rules.rows to the next, or to tell it in the trace; none
decides a rule over the wounds. A new read must be a function of rules.rows, or added here
with its reason."""


def test_the_kernel_reads_the_wound_rows_only_where_listed():
    found = {}
    for path in sorted((SIMULATOR / "kernel").glob("*.py")):
        if path.name == "decisions.py":  # M1's key and the trace's counts, the kernel's caches
            continue
        _, read = _row_accesses(path)
        if read:
            found[path.name] = len(read)
    assert found == READERS


def test_the_object_and_exact_engines_never_index_the_rows():
    for room in ("engine", "exact"):
        for path in sorted((SIMULATOR / room).glob("*.py")):
            assert _row_accesses(path) == ([], []), path


def test_the_patient_is_a_view_of_the_rows_not_a_second_model():
    """H1: a Patient's wounds are the rows (a read-only array) and its Wounds are read from
    them; what it says of them is rules.rows' answer over the same array."""
    import numpy as np

    from simulator.rules import rows, transitions
    from simulator.rules.levels import Level
    from simulator.rules.patient import Patient, Wound
    from simulator.rules.table import default_table

    p = Patient(default_table())
    for level in (Level.GRAVE, Level.LIGHT, Level.GRAVE, Level.SHOCK):
        p, _ = transitions.receive_wound(p, level)
    assert isinstance(p.rows, np.ndarray) and not p.rows.flags.writeable
    assert p.rows.tolist() == [[1, 0, 1, 3], [0, 0, 0, 1], [0, 1, 2, 3]]
    assert p.wounds[3] == Wound(3, Level.SHOCK, True)
    assert p.worst() is not None
    assert p.worst().uid == rows.worst(p.rows, p.size) == 0
    assert p.stable == rows.all_stable(p.rows, p.size) is False
    assert p.least_grave() == rows.least_grave(p.rows, p.size) == Level.LIGHT
    # made from Wound objects, the same rows
    again = Patient(default_table(), p.wounds, next_uid=4)
    assert np.array_equal(again.rows, p.rows)
    with pytest.raises(ValueError):
        p.rows[0, 0] = 2


def test_the_kernel_compiles_the_functions_of_rules_rows_as_they_are_written():
    """decisions' wound functions are rules.rows' code, compiled (or, without numba, copies
    of it whose calls go to each other's copies)."""
    from simulator.kernel import decisions
    from simulator.rules import rows

    for name in rows.COMPILED:
        kernel = decisions.from_rows(getattr(rows, name))
        source = getattr(kernel, "py_func", kernel)
        assert source.__code__ is getattr(rows, name).__code__, name
        if hasattr(decisions, name) and name != "pain_floor":  # (the kernel's reads settings)
            assert getattr(decisions, name) is kernel, name
    with pytest.raises(ValueError, match="not a function of"):
        decisions.from_rows(decisions.chance)


# --- each test once, as its named terms (issue 30) --------------------------------------------
def _scalar_functions() -> dict[str, ast.FunctionDef]:
    tree = _tree("simulator.rules.scalar")
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


TESTS = ("survival", "activity", "faint", "first_aid", "healing", "basic_healing")
"""The tests with a total modifier (S1 and R3, X1, F1, A1, G1 and M3, B4 and B6)."""


@pytest.mark.parametrize("test", TESTS)
def test_a_tests_total_is_the_sum_of_its_terms_and_nothing_else(test):
    """Each ``*_total`` of scalar is ``return total(*_terms(its arguments))``: a term added to
    a test is added to its total, for every engine."""
    from simulator.rules import scalar

    functions = _scalar_functions()
    body = functions[f"{test}_total"].body
    statements = [b for b in body if not isinstance(b, ast.Expr)]  # (the docstring)
    arguments = [a.arg for a in functions[f"{test}_total"].args.args]
    assert len(statements) == 1, test
    assert ast.unparse(statements[0]) == f"return total({test}_terms({', '.join(arguments)}))"
    names = getattr(scalar, f"{test.upper()}_TERMS")
    assert len(names) == len(getattr(scalar, f"{test}_terms")(*[1] * len(arguments)))


def test_every_function_that_totals_a_test_is_scalars():
    """No engine, and no other module of rules/, sums a test's modifiers of its own: a
    ``*_total`` defined elsewhere only hands its arguments to scalar's (``counts``' names for
    the exact engine)."""
    scalar_totals = {f"{test}_total" for test in TESTS}
    rooms = [*(SIMULATOR / room for room in ENGINE_DIRS), SIMULATOR / "rules"]
    for room in rooms:
        for path in sorted(room.glob("*.py")):
            if path.name == "scalar.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name.endswith("_total"):
                    called = {
                        ast.unparse(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)
                    }
                    assert f"scalar.{node.name}" in called and node.name in scalar_totals, (
                        f"{path.name}: {node.name} does not hand its test to scalar's"
                    )


@pytest.mark.parametrize(
    ("builder", "test"),
    [
        ("survival_modifiers", "survival"),
        ("activity_modifiers", "activity"),
        ("faint_modifiers", "faint"),
        ("first_aid_modifiers", "first_aid"),
        ("healing_modifiers", "healing"),
        ("basic_healing_modifiers", "basic_healing"),
        ("basic_mental_healing_modifiers", "basic_healing"),
        ("healing_named", "healing"),
    ],
)
def test_the_named_modifiers_of_a_test_are_its_terms(builder, test):
    """The engine of objects and the kernel's trace show, and the engine of objects rolls
    against, a test's terms with their names: each builder of named modifiers asks scalar's
    ``*_terms`` (and ``named``), never writes a term itself."""
    tree = ast.parse((SIMULATOR / "rules" / "transitions.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == builder)
    called = {ast.unparse(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)}
    if builder == "healing_modifiers":  # through healing_named (the kernel's trace's too)
        assert "healing_named" in called
        return
    assert f"scalar.{test}_terms" in called, builder
    assert "named" in called, builder
    negated = [
        ast.unparse(n)
        for n in ast.walk(node)
        if isinstance(n, ast.UnaryOp)
        and isinstance(n.op, ast.USub)
        and not isinstance(n.operand, ast.Constant)
    ]
    assert negated == [], f"{builder} writes a penalty itself: {negated}"


def test_what_a_patient_reads_of_its_rows_is_kept_per_rows_and_table():
    """The engine of objects asks numpy once per state: the same rows under the same table
    give the very same answers and the same rows after a transition; another table does not
    share them."""
    from simulator.rules import transitions
    from simulator.rules.levels import Level
    from simulator.rules.patient import Patient
    from simulator.rules.table import default_table

    table = default_table()
    p, _ = transitions.receive_wound(Patient(table), Level.GRAVE)
    q, _ = transitions.receive_wound(Patient(table), Level.GRAVE)  # another trial, same state
    assert p.rows is q.rows  # the rows a transition made, kept
    assert transitions.stabilise(p).rows is transitions.stabilise(q).rows
    assert p.wounds is q.wounds
    other = table.with_cells(Level.GRAVE, mortality=9)
    r, _ = transitions.receive_wound(Patient(other), Level.GRAVE)
    assert r.rows is not p.rows and r.mortality == 9 and p.mortality == 3
