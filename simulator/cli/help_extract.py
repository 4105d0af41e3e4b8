"""Babel's extractor for the command line's modules: their templates, and their help texts.

``babel.cfg`` names :func:`extract` for ``simulator/cli/``: it yields what Babel's Python
extractor finds (the marked templates), then each help text click shows, as
:func:`~simulator.cli.words.help_template` writes it: the docstring of every function made a
command or a group (``@click.command()``, ``@click.group(...)``), and every literal
``help=`` of a call. Imports nothing but the standard library and Babel.
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

COMMANDS = frozenset({"command", "group"})
"""The names of click's decorators that make a command of a function."""


def _name(node: ast.expr) -> str:
    """``command`` for ``click.command``, ``click.command(...)`` or ``command(...)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """The line and text of every help text in a module's source."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            _name(d) in COMMANDS for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.lineno, inspect.cleandoc(doc).partition("\f")[0]
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                text = value.value if isinstance(value, ast.Constant) else None
                if keyword.arg == "help" and isinstance(text, str) and text:
                    yield value.lineno, inspect.cleandoc(text).partition("\f")[0]


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """Babel's extraction method: the module's marked templates, then its help texts."""
    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)  # type: ignore[arg-type,misc]
    for line, text in help_texts(data.decode(options.get("encoding", "utf-8"))):
        yield line, "", text, []
