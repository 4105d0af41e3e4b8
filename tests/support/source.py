"""Reading the project's sources in tests, with ``ast`` (nothing imported)."""

from __future__ import annotations

import ast
from collections.abc import Iterator


def assigned(tree: ast.AST) -> Iterator[tuple[ast.stmt, ast.expr]]:
    """Each target an assignment of ``tree`` writes (``x = ``, ``x += ``, ``x: T = ``), with
    its statement; a tuple's elements one by one (``a, b = ...``)."""
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for one in target.elts if isinstance(target, ast.Tuple) else [target]:
                yield node, one
