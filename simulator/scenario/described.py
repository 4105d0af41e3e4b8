"""Study descriptions: a scenario's extra studies in the main study, as data beside it.

``study DIR`` reads ``DIR/studies/<stem>.toml`` for each scenario ``DIR/<stem>.toml`` that
has one: a description, not a scenario. It may ask for

- ``[grid]``: the scenario at every point of a grid (``[[grid.axis]]``: a ``column`` of the
  CSV, the ``keys`` its value sets, its ``values``, and optionally a ``seconds`` column with
  durations in seconds), each point run with the study's trials divided by ``share``; written
  as ``<name>.csv`` (dead, of each cause of Q3, and healed, with their intervals) and its two
  heatmaps ``<name>.png``/``.svg`` (a grid of two axes);
- ``[compare]``: the scenario as it is and with ``set`` (typed values), as rows
  ``column = as_is`` and ``column = changed`` of ``<name>.csv``, with their fate side by side
  in ``<name>.png``/``.svg``;
- ``[finding]``: the sentences written into the index between its markers, by ``writer``
  (``path/to/file.py:function``, a Python file relative to the description's folder, or
  ``module:function``, a module importable from the current folder or the import path),
  given the scenario's result folder: the tool that writes them owns their words.

Each text a person reads (``caption``, ``about``, ``heading``) may be given in French too, as
``caption_fr``, ``about_fr``, ``heading_fr``: ``study --lang fr`` shows those (as a scenario's
``name_fr``).

Every value is typed as the file gives it; each goes through ``--set``'s checks. The
studies themselves are run and saved by :mod:`simulator.studies.main_study` and
:mod:`simulator.studies.extras`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from simulator.errors import (
    N_,
    CombinedUserError,
    Phrase,
    ScenarioError,
    UserError,
    display,
    phrase,
    raise_all,
)
from simulator.rules.cause import DEATH_CAUSES
from simulator.scenario.checks import Checker
from simulator.scenario.overrides import Override

FOLDER = "studies"
"""The folder, inside a folder of scenarios, of the scenarios' study descriptions."""

_FILE_MODULES: dict[str, ModuleType] = {}
"""The writers' Python files already run, by their resolved path."""


@dataclass(frozen=True)
class Axis:
    """One axis of a grid: a CSV column, the keys its value sets, its values."""

    column: str
    keys: tuple[str, ...]
    values: tuple[Any, ...]
    seconds: str | None = None
    label: str | None = None
    label_fr: str | None = None

    def words(self, lang: str) -> str:
        """What a reader calls this axis, in ``lang`` (its column's name when not told)."""
        if lang == "fr" and self.label_fr:
            return self.label_fr
        return self.label or self.column


@dataclass(frozen=True)
class Grid:
    """The scenario at every point of a grid (the first axis varying slowest)."""

    name: str
    share: int
    caption: str
    about: str
    axes: tuple[Axis, ...]
    caption_fr: str | None = None
    about_fr: str | None = None

    def points(self) -> list[tuple[dict[str, Any], list[Override]]]:
        """Each point's CSV columns and the overrides that set it."""
        import itertools

        from simulator.rules.durations import parse_duration

        found = []
        for combo in itertools.product(*(axis.values for axis in self.axes)):
            row: dict[str, Any] = {}
            changes = []
            for axis, value in zip(self.axes, combo, strict=True):
                row[axis.column] = value
                if axis.seconds is not None:
                    row[axis.seconds] = parse_duration(value)
                changes += [Override.of(key, value, "grid") for key in axis.keys]
            found.append((row, changes))
        return found


@dataclass(frozen=True)
class Comparison:
    """The scenario as it is and with some keys set."""

    name: str
    column: str
    as_is: Any
    changed: Any
    changes: tuple[Override, ...]
    caption: str
    about: str
    caption_fr: str | None = None
    about_fr: str | None = None
    label: str | None = None
    label_fr: str | None = None
    sides: tuple[str, str] | None = None
    sides_fr: tuple[str, str] | None = None

    def words(self, lang: str) -> tuple[str, tuple[str, str]]:
        """What a reader calls the compared setting, and its two sides, in ``lang``."""
        french = lang == "fr"
        label = (self.label_fr if french and self.label_fr else self.label) or self.column
        sides = (self.sides_fr if french and self.sides_fr else self.sides) or (
            f"{self.column} = {self.as_is}",
            f"{self.column} = {self.changed}",
        )
        return label, sides


@dataclass(frozen=True)
class Extras:
    """What a study description asks for one scenario."""

    path: Path
    grid: Grid | None
    compare: Comparison | None
    heading: str | None
    writer: str | None
    heading_fr: str | None = None

    def files(self, formats: Sequence[str]) -> list[str]:
        """Every file these studies write into the scenario's folder."""
        names = [part.name for part in (self.grid, self.compare) if part is not None]
        made = [f"{n}.csv" for n in names] + [f"{n}.{fmt}" for n in names for fmt in formats]
        return [*made, WORDS] if names else made

    def heading_in(self, lang: str) -> str | None:
        """The finding's heading in ``lang``."""
        return self.heading_fr if lang == "fr" and self.heading_fr else self.heading

    def words(self) -> dict[str, Any]:
        """What a report says of these studies' files, in both languages (:data:`WORDS`).

        The report page is drawn from the folder alone: it reads the tables' names, their
        columns and their words here, not from the library (issue 30: the case study's words
        are the description's).
        """
        found: dict[str, Any] = {"heading": self.heading, "heading_fr": self.heading_fr}
        if self.grid is not None:
            g = self.grid
            found["grid"] = {
                "file": f"{g.name}.csv",
                "caption": g.caption,
                "caption_fr": g.caption_fr,
                "axes": [
                    {"column": a.column, "label": a.words("en"), "label_fr": a.words("fr")}
                    for a in g.axes
                ],
            }
        if self.compare is not None:
            c = self.compare
            label, sides = c.words("en")
            label_fr, sides_fr = c.words("fr")
            found["compare"] = {
                "file": f"{c.name}.csv",
                "column": c.column,
                "values": [str(c.as_is), str(c.changed)],
                "caption": c.caption,
                "caption_fr": c.caption_fr,
                "label": label,
                "label_fr": label_fr,
                "sides": list(sides),
                "sides_fr": list(sides_fr),
            }
        return found

    def finding(self, folder: Path) -> str | None:
        """The finding's sentences, from the files in ``folder`` (None without a writer)."""
        if self.writer is None:
            return None
        writer = self.writer_function()
        try:
            text = writer(folder)
        except Exception as exc:  # the designer's own code: one line, no traceback
            error = type(exc).__name__ + ": " + " ".join(str(exc).split())
            raise UserError(
                self._wrong(
                    phrase(
                        "a function that writes the finding's text from {folder}; it raised "
                        "{error}",
                        folder=folder,
                        error=error,
                    )
                )
            ) from None
        if not isinstance(text, str):
            raise UserError(
                self._wrong(
                    phrase(
                        "a function that returns the finding's text; it returned {kind} {value}",
                        kind=type(text).__name__,
                        value=" ".join(repr(text).split())[:80],
                    )
                )
            )
        return text

    def writer_function(self) -> Callable[[Path], str]:
        """The function ``writer`` names: ``file.py:function`` or ``module:function``.

        A file is relative to this description's folder (found from any folder); a module is
        imported from the current folder or the import path.

        Raises:
            UserError: Naming the file, the key, the value and what was expected.
        """
        where, _, name = (self.writer or "").rpartition(":")
        if where.endswith(".py"):
            file = self.path.parent / where
            found = getattr(self._file_module(file), name, None)
            if not callable(found):
                expected = phrase("a function {name} in {file}", name=repr(name), file=file)
                raise UserError(self._wrong(expected))
        else:
            try:
                found = getattr(_imported(where), name)
            except (ImportError, AttributeError, ValueError):
                found = None
            if not callable(found):
                raise UserError(
                    self._wrong(
                        phrase(
                            "module:function importable from the current folder, or "
                            "file.py:function (a Python file relative to this description)"
                        )
                    )
                )
        writer: Callable[[Path], str] = found
        return writer

    def _file_module(self, file: Path) -> ModuleType:
        """The module of a writer's Python file, run once (the same module after)."""
        key = str(file.resolve())  # one module per file, however the path is written
        if key in _FILE_MODULES:
            return _FILE_MODULES[key]
        if not file.is_file():
            raise UserError(
                self._wrong(
                    phrase(
                        "file.py:function with a Python file relative to this description; "
                        "{file} is not a file",
                        file=file,
                    )
                )
            )
        name = f"harmonies_writer_{len(_FILE_MODULES)}_{file.stem}"
        spec = importlib.util.spec_from_file_location(name, key)
        assert spec is not None and spec.loader is not None  # a .py file always has them
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # as an import would (dataclasses, pickle look there)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the designer's own code: one line, no traceback
            del sys.modules[name]
            error = type(exc).__name__ + ": " + " ".join(str(exc).split())  # on one line
            expected = phrase("a Python file that runs; {file}: {error}", file=file, error=error)
            raise UserError(self._wrong(expected)) from None
        _FILE_MODULES[key] = module
        return module

    def _wrong(self, expected: Phrase) -> Phrase:
        """``{path}: finding.writer: got {value}; expected {expected}``."""
        return _got(self.path, "finding.writer", self.writer, expected)

    def check(self) -> None:
        """Refuse a finding writer that cannot be imported, before anything runs."""
        if self.writer is not None:
            self.writer_function()


def _imported(module: str) -> ModuleType:
    """``module`` imported from the current folder too, as ``python -m`` would.

    A console script's import path holds its own folder, not the current one: without this,
    ``harmonies-sim study scenarios`` could not find ``tools.readme_finding`` from the
    repository's root where ``python -m simulator`` does.
    """
    here = os.getcwd()
    added = here not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module)
    finally:
        if added:
            sys.path.remove(here)


def _table(data: dict[str, Any], key: str, path: Path) -> dict[str, Any] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise UserError(_got(path, key, value, phrase("a table")))
    return value


def _got(path: Path, key: str, value: object, expected: Phrase) -> Phrase:
    """``{path}: {key}: got {value}; expected {expected}``, as a phrase.

    ``None`` is a key the description lacks (TOML has no null): ``missing``, as a scenario
    file's problems say it, never Python's ``got None``.
    """
    if value is None:
        return phrase(
            "{path}: {key}: missing; expected {expected}", path=path, key=key, expected=expected
        )
    return phrase(
        "{path}: {key}: got {value}; expected {expected}",
        path=path,
        key=key,
        value=display(value),
        expected=expected,
    )


def _text(data: dict[str, Any], key: str, where: str, path: Path) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise UserError(_got(path, f"{where}.{key}", value, phrase("a text")))
    return value


def _french(data: dict[str, Any], key: str, where: str, path: Path) -> str | None:
    """The French of a text (``caption_fr``...), when the description gives one."""
    return _text(data, f"{key}_fr", where, path) if f"{key}_fr" in data else None


def _axis(data: object, path: Path, i: int) -> Axis:
    """``[[grid.axis]]`` number ``i`` (from 0), every mistake of it told."""
    where = f"grid.axis[{i}]"
    if not isinstance(data, dict):
        raise UserError(_got(path, where, data, phrase("a table ([[grid.axis]])")))
    keys, values = data.get("keys"), data.get("values")
    found: list[UserError] = []
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        found.append(UserError(_got(path, f"{where}.keys", keys, phrase("a list of dotted keys"))))
    if not isinstance(values, list) or not values:
        found.append(UserError(_got(path, f"{where}.values", values, phrase("a list of values"))))
        values = []
    seconds = data.get("seconds")
    if seconds is not None and (not isinstance(seconds, str) or not seconds):
        found.append(UserError(_got(path, f"{where}.seconds", seconds, phrase("a column name"))))
        seconds = None
    if seconds is not None:  # each value a duration, for that column
        from simulator.rules.durations import parse_duration

        for value in values:
            try:
                parse_duration(value)
            except (UserError, ValueError, TypeError):
                expected = phrase("a duration with its unit, as the seconds column needs (30s)")
                found.append(UserError(_got(path, f"{where}.values", value, expected)))
    label = label_fr = column = None
    for read in ("label", "label_fr", "column"):
        try:
            if read == "label":
                label = _optional(data, "label", where, path)
            elif read == "label_fr":
                label_fr = _french(data, "label", where, path)
            else:
                column = _text(data, "column", where, path)
        except UserError as exc:
            found.append(exc)
    raise_all(found)
    assert column is not None and isinstance(keys, list)
    return Axis(column, tuple(keys), tuple(values), seconds, label, label_fr)


_SHARE_COLUMNS = frozenset(
    {"trials"}
    | {
        f"p_{share}{end}"
        for share in ("dead", "healed", *(f"dead_{c}" for c in DEATH_CAUSES))
        for end in ("", "_low", "_high")
    }
)
"""The columns a grid's or a comparison's CSV has beside the description's own."""


def _columns(axes: Sequence[object], path: Path) -> list[UserError]:
    """Each column of the grid's CSV once: an axis's, its seconds', never a share's."""
    taken = _SHARE_COLUMNS
    seen: set[str] = set()
    found = []
    for i, axis in enumerate(axes):
        for key in ("column", "seconds"):
            name = axis.get(key) if isinstance(axis, dict) else None
            if not isinstance(name, str):
                continue  # a mistake of its own, told by _axis
            if name in seen or name in taken:
                expected = phrase(
                    "a column name of its own (the CSV already has a column {name})", name=name
                )
                found.append(UserError(_got(path, f"grid.axis[{i}].{key}", name, expected)))
            seen.add(name)
    return found


def _optional(data: dict[str, Any], key: str, where: str, path: Path) -> str | None:
    """An optional text of the description (None when absent)."""
    return None if data.get(key) is None else _text(data, key, where, path)


def _sides(data: dict[str, Any], key: str, path: Path) -> tuple[str, str] | None:
    """``sides`` (``sides_fr``): the words of the comparison's two sides, as it is first."""
    value = data.get(key)
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise UserError(_got(path, f"compare.{key}", value, phrase("a list of two texts")))
    return (value[0], value[1])


KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "": ("grid", "compare", "finding"),
    "grid": ("name", "share", "caption", "caption_fr", "about", "about_fr", "axis"),
    "grid.axis": ("column", "keys", "values", "seconds", "label", "label_fr"),
    "compare": (
        "name",
        "column",
        "as_is",
        "changed",
        "set",
        "caption",
        "caption_fr",
        "about",
        "about_fr",
        "label",
        "label_fr",
        "sides",
        "sides_fr",
    ),
    "finding": ("heading", "heading_fr", "writer"),
}
"""The keys of a study description, by table (``compare.set`` holds the scenario's keys)."""


def _refuse_unknown_keys(data: dict[str, Any], path: Path) -> None:
    """Refuse every key a study description does not know, as a scenario file does.

    Raises:
        ScenarioError: One problem per unknown key (one ``error:`` line each), with the
            closest known key when one is close (``sahre``: did you mean ``share``?).
    """
    checker = Checker(str(path))
    checker.unknown_keys(data, KNOWN_KEYS[""], "")
    for name in ("grid", "compare", "finding"):  # each table in the file's order of reading
        table = data.get(name)
        if not isinstance(table, dict):
            continue
        checker.unknown_keys(table, KNOWN_KEYS[name], name)
        axes = table.get("axis") if name == "grid" else None
        for i, axis in enumerate(axes if isinstance(axes, list) else ()):
            if isinstance(axis, dict):
                checker.unknown_keys(axis, KNOWN_KEYS["grid.axis"], f"grid.axis[{i}]")
    if checker.problems:
        raise ScenarioError(checker.problems)


def read_extras(path: Path) -> Extras:
    """Read a study description.

    Raises:
        UserError: Naming the file, the key, the value and what was expected.
    """
    from simulator.scenario.reading import bounded_text, not_utf8, parse_toml

    try:  # as a scenario file is read: a byte order mark taken off, at most 1 MB
        text = bounded_text(path, N_("a study description of at most {n} MB"))
    except UnicodeDecodeError:  # as a scenario file says it
        raise UserError(_got(path, "(file)", str(path), not_utf8(path))) from None
    except OSError as exc:
        raise UserError(
            phrase("{path}: cannot read this study description: {error}", path=path, error=exc)
        ) from None
    data = parse_toml(text, str(path))  # its line, as a scenario's; absurd nesting or digits
    _refuse_unknown_keys(data, path)
    found: list[UserError] = []

    def kept(check: Callable[[], Any]) -> Any:
        try:
            return check()
        except CombinedUserError as exc:
            found.extend(exc.errors)
        except UserError as exc:
            found.append(exc)
        return None

    grid = compare = None
    if (g := kept(lambda: _table(data, "grid", path))) is not None:
        share = g.get("share", 1)
        if isinstance(share, bool) or not isinstance(share, int) or share < 1:
            found.append(
                UserError(_got(path, "grid.share", share, phrase("a positive whole number")))
            )
        axes = g.get("axis")
        if not isinstance(axes, list) or not axes:
            missing = phrase(
                "{path}: {key}: missing; expected {expected}",
                path=path,
                key="grid.axis",
                expected=phrase("at least one [[grid.axis]]"),
            )
            found.append(UserError(missing))
            axes = []
        texts = [kept(partial(_text, g, k, "grid", path)) for k in ("name", "caption", "about")]
        french = [kept(partial(_french, g, k, "grid", path)) for k in ("caption", "about")]
        axes_read = [kept(partial(_axis, a, path, i)) for i, a in enumerate(axes)]
        found += _columns(axes, path)
        if not found:
            grid = Grid(texts[0], share, texts[1], texts[2], tuple(axes_read), *french)
    if (c := kept(lambda: _table(data, "compare", path))) is not None:
        changes = c.get("set")
        typed: tuple[Override, ...] = ()
        if not isinstance(changes, dict) or not changes:
            found.append(UserError(_got(path, "compare.set", changes, phrase("a table of keys"))))
        else:
            typed = tuple(
                kept(partial(Override.of, key, value, f"{path}: compare.set"))
                for key, value in changes.items()
            )
        texts = [
            kept(partial(_text, c, k, "compare", path))
            for k in ("name", "column", "caption", "about")
        ]
        french = [kept(partial(_french, c, k, "compare", path)) for k in ("caption", "about")]
        if texts[1] in _SHARE_COLUMNS:  # the CSV would hold one column for both
            expected = phrase(
                "a column name of its own (the CSV already has a column {name})", name=texts[1]
            )
            found.append(UserError(_got(path, "compare.column", texts[1], expected)))
        as_is, changed = c.get("as_is", True), c.get("changed", False)
        for key, value in (("as_is", as_is), ("changed", changed)):
            if not isinstance(value, bool | int | float | str) or value == "":
                expected = phrase("a value for the column: a number, true or false, or a text")
                found.append(UserError(_got(path, f"compare.{key}", value, expected)))
        more = [
            kept(partial(_optional, c, "label", "compare", path)),
            kept(partial(_french, c, "label", "compare", path)),
            kept(partial(_sides, c, "sides", path)),
            kept(partial(_sides, c, "sides_fr", path)),
        ]
        if not found:
            compare = Comparison(
                texts[0],
                texts[1],
                as_is,
                changed,
                typed,
                texts[2],
                texts[3],
                caption_fr=french[0],
                about_fr=french[1],
                label=more[0],
                label_fr=more[1],
                sides=more[2],
                sides_fr=more[3],
            )
    finding = kept(lambda: _table(data, "finding", path)) or {}
    heading = kept(partial(_optional, finding, "heading", "finding", path)) if finding else None
    writer = kept(partial(_text, finding, "writer", "finding", path)) if finding else None
    heading_fr = kept(partial(_french, finding, "heading", "finding", path)) if finding else None
    raise_all(found)
    return Extras(path, grid, compare, heading, writer, heading_fr)


WORDS = "extras.json"
"""The file of a scenario's folder that holds the words of its extra studies
(:meth:`Extras.words`), for the report page."""


def find_extras(directory: Path, stem: str) -> Extras | None:
    """The study description of scenario ``<stem>`` in a folder of scenarios, if any."""
    path = directory / FOLDER / f"{stem}.toml"
    return read_extras(path) if path.is_file() else None


__all__ = [
    "FOLDER",
    "WORDS",
    "Axis",
    "Comparison",
    "Extras",
    "Grid",
    "find_extras",
    "read_extras",
]
