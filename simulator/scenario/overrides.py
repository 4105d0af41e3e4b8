"""``--set KEY=VALUE`` overrides: parsed, applied to a scenario mapping, and blamed.

An override changes one dotted key of a scenario file's mapping before it is checked
(:func:`apply_overrides`); a problem it brought is then told as the override's, not the
file's (:func:`attribute`). :mod:`simulator.scenario.reading` checks and builds the result.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from simulator.errors import MISSING, N_, Problem, ScenarioError, phrase
from simulator.scenario.checks import SHOWN_LENGTH, join

OVERRIDE_SOURCE = "--set"
"""The source named in problems with the syntax of a ``--set KEY=VALUE``."""

_SEGMENT = re.compile(r"^[A-Za-z0-9_-]+$")


def parse_override(text: str) -> tuple[list[str], object]:
    """Split one ``--set KEY=VALUE`` into the key's parts and the typed value.

    The key is dotted (``rules.table.grave.unstable_period``); an item of an array of tables
    is named by its index from 0 (``injuries.0.at`` or ``injuries[0].at``). VALUE is read as
    TOML when ``x = VALUE`` parses as TOML (numbers, booleans, quoted strings, arrays, inline
    tables), else taken as a string (``30min``, ``grave``).

    Raises:
        ScenarioError: When there is no ``=`` or the key is not a dotted key.
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    parts = re.sub(r"\[(\d+)\]", r".\1", key).split(".")
    if not sep or not key or not all(_SEGMENT.match(part) for part in parts):
        expected = N_("KEY=VALUE with a dotted KEY, e.g. first_aid.level=3")
        raise ScenarioError([Problem(OVERRIDE_SOURCE, key or text, text, expected)])
    try:
        document = tomllib.loads(f"x = {raw}")
    except (ValueError, RecursionError):  # not TOML (or absurdly big): taken as a string
        document = {}
    value: object = document["x"] if set(document) == {"x"} else raw.strip()
    return parts, value


def _override(data: dict[str, Any], text: str) -> Problem | None:
    """Apply one override to ``data`` in place; the problem with its syntax, if any."""
    try:
        parts, value = parse_override(text)
    except ScenarioError as exc:
        return exc.problems[0]
    node: Any = data
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = ".".join(parts[:depth])
        key = ".".join(parts)
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                if node:
                    expected = phrase(
                        "an index from 0 to {high} of {key}", high=len(node) - 1, key=where
                    )
                else:
                    expected = phrase("an item of {key}, but there is none", key=where)
                return Problem.of(OVERRIDE_SOURCE, key, part, expected)
            index = int(part)
            if last:
                node[index] = value
            else:
                node = node[index]
        elif isinstance(node, dict):
            if last:
                node[part] = value
            elif part not in node and parts[depth + 1].isdigit():
                none = N_("an item of {key}, but there is none")
                return Problem.of(OVERRIDE_SOURCE, key, value, phrase(none, key=join(where, part)))
            else:
                node = node.setdefault(part, {})
        else:
            flat = N_("a key inside a table, but {key} is not a table")
            return Problem.of(OVERRIDE_SOURCE, key, value, phrase(flat, key=where))
    return None


def syntax_problems(overrides: Sequence[str]) -> list[Problem]:
    """The problems with the syntax of some overrides, alone (without a mapping)."""
    problems = []
    for text in overrides:
        try:
            parse_override(text)
        except ScenarioError as exc:
            problems += exc.problems
    return problems


def apply(
    data: Mapping[str, Any], overrides: Sequence[str]
) -> tuple[dict[str, Any], list[Problem]]:
    """Apply overrides to a copy of ``data``; the copy and the syntax problems found."""
    result = copy.deepcopy(dict(data))
    problems = [p for text in overrides if (p := _override(result, text)) is not None]
    return result, problems


def apply_overrides(
    data: Mapping[str, Any], overrides: Sequence[str], source: str
) -> dict[str, Any]:
    """Apply ``--set KEY=VALUE`` overrides to a scenario mapping, in order; the last wins.

    An override may create a missing table (``first_aid.level=3`` creates ``[first_aid]``),
    whose required keys must then be given too. ``data`` is not modified.

    Args:
        data: A scenario mapping, as from :func:`read_scenario_mapping`.
        overrides: The ``KEY=VALUE`` texts.
        source: The scenario's file, for messages (override syntax is reported as ``--set``).

    Returns:
        A new mapping with the overrides applied; its values are checked later, by
        :func:`scenario_from_mapping`.

    Raises:
        ScenarioError: With every override whose syntax is wrong.
    """
    del source  # syntax problems name --set; value problems name the file, later
    result, problems = apply(data, overrides)
    if problems:
        raise ScenarioError(problems)
    return result


def short(text: str, limit: int = SHOWN_LENGTH) -> str:
    """An override as a message quotes it: cut with ``…`` when longer than ``limit``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _dotted(key: str) -> list[str]:
    return re.sub(r"\[(\d+)\]", r".\1", key).split(".")


def attribute(
    problem: Problem, original: Mapping[str, Any], named: Sequence[tuple[str, str]], source: str
) -> Problem:
    """The problem, naming the last override that brought it, if one did."""
    key = _dotted(problem.key)
    for text, flag in reversed(named):
        target = _dotted(text.partition("=")[0].strip())
        where = phrase("{flag} (on {path})", flag=f"{flag} {short(text)}", path=source)
        if key[: len(target)] == target:  # the override set this key, or a table above it
            return replace(problem, source=where)
        if target[: len(key)] == key and not _has(original, key):  # it made this table
            return replace(problem, source=where)
        parent = key[:-1]
        created = parent and target[: len(parent)] == parent and not _has(original, parent)
        if problem.value is MISSING and created:
            table = ".".join(parent)
            was = problem.phrase
            expected = phrase(
                "{what} (the file has no [{table}]: {flag} created it)",
                what=was,
                table=table,
                flag=flag,
            )
            return Problem.of(where, problem.key, problem.value, expected)
    return problem


def _has(data: Any, path: Sequence[str]) -> bool:
    """Whether ``data`` holds the dotted ``path`` (list items by index)."""
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        else:
            return False
    return True
