"""Overrides: typed changes of a scenario's keys, applied to its mapping, and blamed.

An :class:`Override` is a value: a key path and a typed value (and the text that names it
in messages and labels). Text is parsed only where a person typed it (``--set KEY=VALUE``,
:meth:`Override.parse`); a program gives the value itself (:meth:`Override.of`), which is
never written out as TOML to be read again. An override changes one dotted key of a
scenario file's mapping before it is checked (:func:`apply_overrides`); a problem it brought
is then told as the override's, not the file's (:func:`attribute`).
:mod:`simulator.scenario.reading` checks and builds the result.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from simulator.errors import (
    MISSING,
    N_,
    Phrase,
    Problem,
    ScenarioError,
    UserError,
    phrase,
    toml_float,
)
from simulator.scenario.checks import SHOWN_LENGTH, join
from simulator.spelling import python_api, spelling

OVERRIDE_SOURCE = "--set"
"""The source named in problems with the syntax of a ``--set KEY=VALUE`` where it is read
(:func:`parse_override`); where it is applied, the option that gave it is named instead, as
the caller spells it (:mod:`simulator.spelling`)."""

_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
"""One part of a dotted key, matched whole (``fullmatch``: ``$`` would let a newline in)."""


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
    if not sep or not key or not all(_SEGMENT.fullmatch(part) for part in parts):
        expected = N_("KEY=VALUE with a dotted KEY, e.g. first_aid.level=3")
        raise ScenarioError([Problem(OVERRIDE_SOURCE, key or text, text, expected)])
    try:
        document = tomllib.loads(f"x = {raw}", parse_float=toml_float)
    except (ValueError, RecursionError):  # not TOML (or absurdly big): taken as a string
        document = {}
    # 1e400: TOML reads inf, kept with its text (TypedFloat): a message says what was typed
    value: object = document["x"] if set(document) == {"x"} else raw.strip()
    return parts, value


def key_parts(key: str) -> list[str] | None:
    """A dotted key's parts (``injuries[0].at`` is ``injuries``, ``0``, ``at``); None if bad."""
    parts = re.sub(r"\[(\d+)\]", r".\1", key.strip()).split(".")
    if not key.strip() or not all(_SEGMENT.fullmatch(part) for part in parts):
        return None
    return parts


def _typed(value: object) -> object:
    """A value as a scenario mapping holds it (tuples as lists); TypeError if TOML has none."""
    import numpy as np

    from simulator.scenario.writing import toml_value

    if isinstance(value, np.generic):  # np.arange(-2, 9)'s np.int64, as a notebook writes them
        value = value.item()
    toml_value(value)  # refuses what a scenario file cannot hold (None, NaN, objects)
    if isinstance(value, list | tuple):
        return [_typed(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _typed(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Override:
    """One change of a scenario: a key path and its typed value.

    Attributes:
        path: The dotted key's parts, list items by their index (``("injuries", "0", "at")``).
        value: The value, as a scenario file's mapping holds it (int, float, bool, str,
            list, dict).
        text: ``KEY=VALUE`` as messages and labels show it: as typed, or written from the
            value (for a label only: it is never read again).
    """

    path: tuple[str, ...]
    value: object
    text: str

    @property
    def key(self) -> str:
        """The dotted key."""
        return ".".join(self.path)

    @classmethod
    def parse(cls, text: str) -> Override:
        """Read one ``KEY=VALUE`` a person typed (see :func:`parse_override`).

        Raises:
            ScenarioError: When there is no ``=`` or the key is not a dotted key.
        """
        parts, value = parse_override(text)
        return cls(tuple(parts), value, text)

    @classmethod
    def of(cls, key: str, value: object, flag: str = "grid") -> Override:
        """The override that sets ``key`` to ``value``, typed as given.

        Args:
            key: The dotted key.
            value: Its value.
            flag: The option that gave it, by its Python name (``"grid"``, ``"overrides"``),
                spelt in messages as the caller spells it (:mod:`simulator.spelling`).

        Raises:
            UserError: Naming ``flag``, for a key that is not a dotted key or a value a
                scenario file cannot hold.
        """
        from simulator.errors import UserError
        from simulator.scenario.writing import toml_value

        parts = key_parts(key)
        if parts is None:
            raise UserError(
                phrase(
                    "{key}: expected a dotted key, e.g. first_aid.level",
                    key=spelling().key(flag, key),
                )
            )
        try:
            typed = _typed(value)
        except TypeError:
            raise UserError(
                phrase(
                    "{flag}: got {value}; expected numbers, booleans or strings",
                    flag=spelling().option(flag),
                    value=repr(value),
                )
            ) from None
        shown = toml_value(typed)
        if isinstance(typed, str) and _reads_back(key, typed):  # 05, fast: as the user wrote
            shown = typed
        return cls(tuple(parts), typed, f"{key}={shown}")


def as_override(item: Override | str) -> Override:
    """An override, read from its text when a person typed one.

    Raises:
        ScenarioError: For text whose syntax is wrong.
    """
    return item if isinstance(item, Override) else Override.parse(item)


def _override(
    data: dict[str, Any], item: Override | str, flag: str, on: str | None
) -> Problem | None:
    """Apply one override to ``data`` in place; the problem with its syntax, if any.

    A problem with its syntax names ``flag`` (an option's Python name, spelt as the caller
    spells it: :mod:`simulator.spelling`); one with the mapping (an index past a list's end, a
    key inside a value) names the override and the scenario ``on``, as a value's problem does
    (:func:`attribute`), and is the key's (``keyed``) whatever its value.
    """
    try:
        change = as_override(item)
    except ScenarioError as exc:
        return _spelt(exc.problems[0], flag)
    parts, value = list(change.path), change.value
    source: str | Phrase = spelling().option(flag)
    if on is not None:
        source = _on(flag, change.text, on)
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
                return _keyed(Problem.of(source, key, part, expected))
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
                return _keyed(Problem.of(source, key, value, phrase(none, key=join(where, part))))
            else:
                node = node.setdefault(part, {})
        else:
            flat = N_("a key inside a table, but {key} is not a table")
            return _keyed(Problem.of(source, key, value, phrase(flat, key=where)))
    return None


def _keyed(problem: Problem) -> Problem:
    """A problem of the key's path, whatever the value set there (told once by a sweep)."""
    return replace(problem, keyed=True)


def _spelt(problem: Problem, flag: str) -> Problem:
    """A problem with an override's syntax, naming the option ``flag`` as the caller does."""
    if problem.source != OVERRIDE_SOURCE:
        return problem
    return replace(problem, source=spelling().option(flag))


def _on(flag: str, text: str, path: str) -> Phrase:
    """Where a problem an override brought comes from: ``--set KEY=VALUE (on path)``.

    ``flag`` is the option's Python name, spelt as the caller spells it (``overrides:
    KEY=VALUE`` in Python).
    """
    return phrase("{flag} (on {path})", flag=spelling().item(flag, short(text)), path=path)


def syntax_problems(overrides: Sequence[Override | str], flag: str = "overrides") -> list[Problem]:
    """The problems with the syntax of some overrides, alone (without a mapping)."""
    problems = []
    for item in overrides:
        try:
            as_override(item)
        except ScenarioError as exc:
            problems += [_spelt(problem, flag) for problem in exc.problems]
    return problems


def apply(
    data: Mapping[str, Any],
    overrides: Sequence[Override | str],
    *,
    flag: str = "overrides",
    on: str | None = None,
) -> tuple[dict[str, Any], list[Problem]]:
    """Apply overrides to a copy of ``data``; the copy and the problems found applying them.

    ``flag``: the option that gave the overrides, by its Python name, spelt in messages as
    the caller spells it (:mod:`simulator.spelling`; another label is said as it is);
    ``on``: the scenario's file, named with the problems an override has with its mapping.
    """
    result = copy.deepcopy(dict(data))
    problems = [p for text in overrides if (p := _override(result, text, flag, on)) is not None]
    return result, problems


TRANSLATED = (("name", "name_fr"), ("description", "description_fr"))
"""The texts a scenario may give in French too (shown under ``--lang fr``)."""


def drop_stale_translations(result: dict[str, Any], overrides: Sequence[Override | str]) -> None:
    """An override of ``name`` (``description``) without one of ``name_fr``: no French left.

    The French text said the file's old name: under ``--lang fr`` a renamed scenario (a
    notebook's ``name=Candidate table``, ``--set name=...``) would read as the original, one
    scenario's numbers under another's title. The new name is shown instead; a copy saved
    with a new name (the workbench's save-as) leaves the old French name out too.
    """
    given = {tuple(_target(item)[0]) for item in overrides}
    for text, french in TRANSLATED:
        if (text,) in given and (french,) not in given:
            result.pop(french, None)


def edited_toml(
    data: Mapping[str, Any],
    changes: Sequence[Override | str],
    lines: Sequence[str],
    text: str | None = None,
    lost: Sequence[str] = (),
    newline: str = "\n",
) -> str:
    r"""A scenario file with ``changes`` applied, as TOML, after comment ``lines``.

    Only the keys the file holds and those the changes set: a scenario file the tool saves
    for a person (the workbench's save-as, a calibrated scenario) never holds keys nobody
    typed, so the defaults it leaves out stay defaults. Given the file's ``text``, the copy
    is that text edited in place (:mod:`simulator.scenario.editing`): the person's comments,
    blank lines, key order and layout kept, only the changed values written anew. Without
    it (or where the text cannot be edited so that it reads back as the edited mapping),
    the mapping is written anew (:func:`~simulator.scenario.writing.to_toml`), with the
    comment ``lost`` saying that the file's comments are not kept. Each comment line is
    escaped (:func:`~simulator.scenario.writing.comment_safe`): what was typed never ends a
    comment. ``changes`` must apply (checked before, as they were to build the scenario).

    Args:
        data: The file's mapping (parsed from ``text``, less any key the caller took out).
        changes: The changes, in order (the last of a key wins).
        lines: The comment put first (where the copy comes from, what changed).
        text: The file's text, exactly as parsed into ``data``; None when not at hand.
        lost: Comment lines added after ``lines`` when the file's own layout is not kept.
        newline: How the file ended its lines (``\r\n`` from an editor on Windows): the
            copy's end so too (to be written as they are, with ``newline=""``).
    """
    from simulator.scenario.editing import edited_text
    from simulator.scenario.writing import comment_safe, to_toml

    edited, _ = apply(data, changes)
    drop_stale_translations(edited, changes)  # a renamed copy never keeps the old French name
    body = None if text is None else edited_text(text, edited)
    if body is None:
        lines, body = [*lines, *lost], to_toml(edited)
    head = "".join(f"# {comment_safe(line)}".rstrip() + "\n" for line in lines)
    return (head + "\n" + body).replace("\n", newline)


@python_api
def apply_overrides(
    data: Mapping[str, Any], overrides: Sequence[Override | str], source: str
) -> dict[str, Any]:
    """Apply ``--set KEY=VALUE`` overrides to a scenario mapping, in order; the last wins.

    An override may create a missing table (``first_aid.level=3`` creates ``[first_aid]``),
    whose required keys must then be given too. ``data`` is not modified.

    Args:
        data: A scenario mapping, as from :func:`read_scenario_mapping`.
        overrides: The overrides (or ``KEY=VALUE`` texts a person typed).
        source: The scenario's file, for messages (override syntax is reported as the caller
            spells it: ``overrides:`` from Python, ``--set`` from the command line).

    Returns:
        A new mapping with the overrides applied; its values are checked later, by
        :func:`scenario_from_mapping`.

    Raises:
        ScenarioError: With every override whose syntax is wrong.
    """
    result, problems = apply(data, overrides, on=source)  # value problems: later
    if problems:
        raise ScenarioError(problems)
    return result


def short(text: str, limit: int = SHOWN_LENGTH) -> str:
    """An override as a message quotes it: cut with ``…`` when longer than ``limit``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _dotted(key: str) -> list[str]:
    """A dotted key's parts, an index as the checks name it (``injuries.01`` is item 1)."""
    return _indexed(re.sub(r"\[(\d+)\]", r".\1", key).split("."))


def _indexed(parts: Sequence[str]) -> list[str]:
    """Key parts with each index written as a problem's key writes it (``01`` is ``1``)."""
    return [str(int(part)) if part.isascii() and part.isdigit() else part for part in parts]


def _target(item: Override | str) -> tuple[list[str], str]:
    if isinstance(item, Override):
        return _indexed(item.path), item.text
    return _dotted(item.partition("=")[0].strip()), item


def attribute(
    problem: Problem,
    original: Mapping[str, Any],
    named: Sequence[tuple[Override | str, str]],
    source: str,
) -> Problem:
    """The problem, naming the override that brought it, if one did.

    The override that carried the bad value is the last one that set its key, or a table
    above it (``--set first_aid={level=3}`` replaces the whole table). A problem no override
    set (a required key missing, a table's own key) is the doing of the override that created
    its table: the first one, in order, to write into a table the file has not. Several
    overrides that build one table each keep their own mistakes.
    """
    key, parent = _dotted(problem.key), _dotted(problem.key)[:-1]
    targets = [(_target(item), flag) for item, flag in named]
    made = problem.value is MISSING and bool(parent) and not _has(original, parent)

    def blamed(text: str, flag: str) -> Problem:
        where = _on(flag, text, source)
        if not made:
            return replace(problem, source=where)
        expected = phrase(
            "{what} (the file has no [{table}]: {flag} created it)",
            what=problem.phrase,
            table=".".join(parent),
            flag=spelling().creator(flag, text),
        )
        return Problem.of(where, problem.key, problem.value, expected)

    for (target, text), flag in reversed(targets):  # the last that set the key wins
        if key[: len(target)] == target:  # the override set this key, or a table above it
            return blamed(text, flag)
    if not _has(original, key):  # a table the overrides made (its unknown key, say)
        for (target, text), flag in targets:  # the first to write into it created it
            if target[: len(key)] == key:
                return blamed(text, flag)
    if made:  # a key missing from a table the overrides made: the first created it
        for (target, text), flag in targets:
            if target[: len(parent)] == parent:
                return blamed(text, flag)
    return problem


def maxima_given(data: Mapping[str, Any]) -> frozenset[str]:
    """The levels whose maximum a scenario mapping's ``[patient.maxima]`` gives.

    They win over ``rules.table.<level>.max`` (T2, CONTRACT.md: the maxima come last).
    """
    patient = data.get("patient")
    maxima = patient.get("maxima") if isinstance(patient, dict) else None
    return frozenset(maxima) if isinstance(maxima, dict) else frozenset()


def outranked(
    result: Mapping[str, Any], named: Sequence[tuple[Override | str, str]], source: str
) -> list[Problem]:
    """Overrides of a table's ``max`` that the file's ``[patient.maxima]`` outranks.

    Maxima come from the profile, then ``rules.table.<level>.max``, then ``[patient.maxima]``
    (CONTRACT.md): under a file that gives ``patient.maxima.grave``, ``--set
    rules.table.grave.max=5`` would change nothing, and a sweep over it would label one
    scenario's numbers with five values. Refused, naming the key that wins.
    """
    problems = []
    given = maxima_given(result)
    for item, flag in named:
        target, text = _target(item)
        if target[:2] != ["rules", "table"][: len(target)]:
            continue
        try:
            value = item.value if isinstance(item, Override) else parse_override(item)[1]
        except ScenarioError:  # a malformed override: said as such, elsewhere
            continue
        for level in sorted(given):  # the cell itself, or a row or table that holds it
            cell = ["rules", "table", level, "max"]
            if target != cell[: len(target)] or not _has(value, cell[len(target) :]):
                continue
            where = _on(flag, text, source)
            expected = phrase(
                "{winner}, which the file gives and which wins over the table's max "
                "([patient.maxima] comes last); this key would change nothing",
                winner=f"patient.maxima.{level}",
            )
            problems.append(Problem.of(where, ".".join(target), value, expected))
    return problems


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


def _reads_back(key: str, text: str) -> bool:
    """Whether ``KEY=text``, unquoted, reads back as the string ``text`` (``05``, ``fast``)."""
    try:
        return parse_override(f"{key}={text}")[1] == text
    except ScenarioError:
        return False


Given = Override | str
"""An override: typed, or ``KEY=VALUE`` as a person typed it (read once, where it is used)."""


def given_overrides(value: object, name: str = "overrides") -> tuple[Given, ...]:
    """Overrides as a notebook may give them, as the studies take them.

    ``None`` is none; one ``"KEY=VALUE"`` string is one override (not one per character); a
    mapping ``{"first_aid.level": 3}`` and ``(key, value)`` pairs are typed overrides; any
    ordered iterable of them is taken (a list, a tuple, a numpy array, a generator), a set not
    (the last override of a key wins: order matters).

    Raises:
        UserError: Naming ``name``, for anything else.
    """
    if value is None:
        return ()
    if isinstance(value, str | Override):
        return (value,)
    if isinstance(value, Mapping):
        return tuple(Override.of(str(k), v, name) for k, v in value.items())
    if not isinstance(value, Iterable) or isinstance(value, set | frozenset):  # no order
        raise UserError(
            phrase(
                '{name}: got {value}; expected a list of "KEY=VALUE" strings, or a mapping '
                "{{key: value}}",
                name=spelling().option(name),
                value=repr(value),
            )
        )
    found: list[Given] = []
    for item in value:
        if isinstance(item, str | Override):
            found.append(item)
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            found.append(Override.of(item[0], item[1], name))
        else:
            raise UserError(
                phrase(
                    '{name}: got {value}; expected "KEY=VALUE" strings or (key, value) pairs',
                    name=spelling().option(name),
                    value=repr(item),
                )
            )
    return tuple(found)
