"""The layers of the package, read from its source: who may import whom, and no cycles.

Imports are found with ``ast``, without importing anything. Every import counts for the
layering (those inside functions too: a lazy import is still a dependency); only the imports
that run when a module is loaded (module level, not under ``TYPE_CHECKING``) count for
cycles, together with the packages whose ``__init__`` they run.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "simulator"

LAYERS = (
    "errors",
    "files",
    "lazy",
    "rules",
    "scenario",
    "engine",
    "kernel",
    "exact",
    "runner",
    "report",
    "studies",
    "web",
    "cli",
)
"""The layers from the bottom up: each imports only layers before it (README, "How the code is
organised")."""

FORBIDDEN = {
    f"simulator.{layer}": LAYERS[i + 1 :] for i, layer in enumerate(LAYERS) if layer != "cli"
}
"""For each layer, the sub-packages its modules must not import."""

STILL_CHOSEN_IN_ENGINE: frozenset[str] = frozenset()
"""Imports of the kernel left in ``engine``: none since issue 29 (the runner picks the engine,
:mod:`simulator.runner.engines`); the test fails on a stale entry as on a new import."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(node: ast.Import | ast.ImportFrom, importer: str) -> set[str]:
    """The modules of the package an import statement names (its targets, not their parents)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name.startswith("simulator")}
    base = node.module or ""
    if node.level:  # relative: resolve against the importer's package
        package = (
            importer if MODULES[importer].name == "__init__.py" else importer.rpartition(".")[0]
        )
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}".rstrip(".")
    if not base.startswith("simulator"):
        return set()
    # ``from package import submodule`` imports the submodule
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}


def imports(name: str, *, loading_only: bool) -> set[str]:
    """The package's modules that module ``name`` imports (only at load time, if asked)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    if not loading_only:
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        return {t for node in nodes for t in imported(node, name)} - {name}
    found: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:  # what runs at load time: not function bodies, not TYPE_CHECKING blocks
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.update(imported(node, name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        elif isinstance(node, ast.If) and is_type_checking(node):
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found - {name}


def loaded_with(target: str, importer: str) -> set[str]:
    """What importing ``target`` from ``importer`` runs: it and its packages not yet loaded."""
    parts = target.split(".")
    chain = {".".join(parts[:i]) for i in range(2, len(parts) + 1)}
    return {m for m in chain if not (importer == m or importer.startswith(m + "."))} & set(MODULES)


def test_the_modules_are_found():
    assert {"simulator.rules.transitions", "simulator.engine.trial", "simulator.cli.app"} <= set(
        MODULES
    )
    assert imports("simulator.runner.backends.local", loading_only=True) >= {
        "simulator.runner.chunks"
    }


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_the_layers_below_it(layer: str):
    wrong = []
    for name in MODULES:
        if name == layer or name.startswith(layer + "."):
            for target in imports(name, loading_only=False):
                if any(target.startswith(f"simulator.{below}") for below in FORBIDDEN[layer]):
                    wrong.append(f"{name} imports {target}")
    assert sorted(set(wrong) - STILL_CHOSEN_IN_ENGINE) == []
    if layer == "simulator.engine":
        assert set(wrong) == STILL_CHOSEN_IN_ENGINE  # a stale entry is removed from the set


def test_nothing_imports_the_command_line():
    wrong = [
        f"{name} imports {target}"
        for name in MODULES
        if not name.startswith("simulator.cli") and name != "simulator.__main__"
        for target in imports(name, loading_only=False)
        if target.startswith("simulator.cli")
    ]
    assert wrong == []


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (as a path that ends where it starts), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles_when_modules_load():
    graph = {
        name: {
            loaded
            for target in imports(name, loading_only=True)
            for loaded in loaded_with(target, name)
        }
        for name in MODULES
    }
    assert find_cycle(graph) is None


def test_the_library_never_prints():
    """Only the command line prints; the library raises, warns (``errors.note``) or returns."""
    printing = []
    for name, path in MODULES.items():
        if name.startswith("simulator.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                printing.append(f"{name}:{node.lineno}")
    assert printing == []


@pytest.mark.parametrize(
    "package", ["rules", "scenario", "engine", "exact", "runner", "report", "studies", "cli"]
)
def test_each_public_face_gives_what_it_lists(package: str):
    module = importlib.import_module(f"simulator.{package}")
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []


def circular(graph: dict[str, set[str]]) -> set[str]:
    """Every module that lies on some cycle of the graph."""
    on_cycle: set[str] = set()
    for start in graph:
        seen: set[str] = set()
        pending = list(graph.get(start, ()))
        while pending:  # what start reaches; it is on a cycle if it reaches itself
            node = pending.pop()
            if node == start:
                on_cycle.add(start)
                break
            if node not in seen:
                seen.add(node)
                pending.extend(graph.get(node, ()))
    return on_cycle


def test_circular_finds_the_modules_of_every_cycle():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}
    assert circular(graph) == {"a", "b", "c", "d"}
    assert circular({"a": {"b"}, "b": set()}) == set()


def test_no_import_circles_counting_every_import():
    """Imports inside functions and under ``TYPE_CHECKING`` count too: a lazy import that
    closes a circle still ties the two modules together."""
    graph = {
        name: {t for t in imports(name, loading_only=False) if t in MODULES} for name in MODULES
    }
    assert circular(graph) == set()


COLLABORATORS = ("care", "pacing", "ruleset", "survival", "rolling", "trace", "context")
"""The modules a trial is made of, or tells with: they see a written context, not the trial."""


@pytest.mark.parametrize("name", COLLABORATORS)
def test_the_collaborators_of_a_trial_never_import_it(name: str):
    assert "simulator.engine.trial" not in imports(f"simulator.engine.{name}", loading_only=False)


def test_the_written_context_is_a_leaf_of_the_engine():
    engine = {t for t in imports("simulator.engine.context", loading_only=False)}
    assert not {t for t in engine if t.startswith(("simulator.engine", "simulator.kernel"))} - {
        "simulator.engine.clock",
        "simulator.engine.record",
        "simulator.engine.trace",
    }
