"""Scenarios as studies load them: a file (or a Scenario) with typed overrides, and grids.

:class:`Variants` reads a scenario once and builds it with more :class:`Override` s: the
``--set`` overrides of every variant, then a sweep's point, a balance's value or a
sensitivity's notch, each a typed value (text is read only where a person typed it).
Each variant goes through the same checks as ``--set`` (a bad value is a user error naming
the key and its flag).
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.errors import UserError, display, phrase
from simulator.scenario.overrides import Given, Override, key_parts
from simulator.spelling import spelling

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario


def labels(overrides: Sequence[Given]) -> tuple[str, ...]:
    """The overrides as titles and summaries name them (``KEY=VALUE``)."""
    return tuple(item.text if isinstance(item, Override) else item for item in overrides)


class Variants:
    """Builds the scenario with more overrides, from a file or a :class:`Scenario`.

    Attributes:
        source: The scenario's file (for messages).
        overrides: The ``--set`` overrides of every variant.
        base: The scenario with ``overrides`` only.
    """

    def __init__(self, scenario: Scenario | str | Path, overrides: Sequence[Given] = ()):
        from simulator.scenario.reading import read_scenario_mapping

        if isinstance(scenario, str | Path):
            self.source, self._data = str(scenario), read_scenario_mapping(scenario)
        else:
            self._data = as_mapping(scenario)
            self.source = scenario.source
        self.overrides = tuple(overrides)
        self.base = self.build(())

    def given_maxima(self) -> frozenset[str]:
        """The levels whose maximum ``[patient.maxima]`` gives (with ``--set``): they win.

        For those levels, ``rules.table.<level>.max`` changes nothing (CONTRACT.md: the
        maxima come last); ``patient.maxima.<level>`` is the key that moves the maximum.
        """
        from simulator.scenario.overrides import apply, maxima_given

        return maxima_given(apply(self._data, self.overrides)[0])

    def build(self, more: Sequence[Override], flag: str = "vary") -> Scenario:
        """The scenario with ``--set`` overrides, then ``more`` (named ``flag`` in messages).

        ``flag`` is the option that gave ``more``, by its Python name (``"vary"``,
        ``"notch"``), spelt as the caller spells it (:mod:`simulator.spelling`); any other
        label (a calibration file's place) is said as it is.

        Raises:
            ScenarioError: With every problem, each naming the override that brought it.
        """
        from simulator.scenario.reading import scenario_with_overrides

        return scenario_with_overrides(
            self._data, self.overrides, self.source, more=more, more_flag=flag
        )


def load(
    scenario: Scenario | str | Path,
    overrides: Sequence[Given] = (),
    more: Sequence[Given] = (),
    more_flag: str = "overrides",
) -> Scenario:
    """The scenario, or its file read with ``overrides`` then ``more`` (named ``more_flag``).

    ``more_flag`` is the option that gave ``more``, by its Python name (``"overrides_a"``),
    spelt in messages as the caller spells it (``--set-a``: :mod:`simulator.spelling`).

    A :class:`Scenario` in hand takes overrides too, as its file would (every check of
    ``--set``): a notebook changes one key of a scenario it loaded without a path.
    """
    from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides

    if isinstance(scenario, str | Path):
        data, source = read_scenario_mapping(scenario), str(scenario)
    elif overrides or more:
        data, source = as_mapping(scenario), scenario.source
    else:  # every check of its file, said of the object: it may hold what no file could
        scenario_with_overrides(as_mapping(scenario), (), described(scenario))
        return scenario
    return scenario_with_overrides(data, overrides, source, more=more, more_flag=more_flag)


def described(scenario: Scenario) -> str:
    """How messages name a :class:`Scenario` in hand (it may differ from its file)."""
    where = f" (read from {scenario.source})" if scenario.source else ""
    return f"the Scenario {scenario.name!r}{where}"


def as_mapping(scenario: object) -> dict[str, object]:
    """A :class:`Scenario` in hand as its file's mapping, to check it as its file is checked.

    Raises:
        UserError: For anything but a Scenario, or one whose fields are not of the types
            :mod:`simulator.scenario.model` gives them (a text where a number goes...).
    """
    from simulator.scenario.model import Scenario
    from simulator.scenario.writing import scenario_to_mapping

    if not isinstance(scenario, Scenario):
        raise UserError(
            phrase(
                "got {value}; expected a scenario file's path or a Scenario "
                "(simulator.scenario.load_scenario)",
                value=repr(scenario)[:80],
            )
        )
    try:
        return _plain_values(scenario_to_mapping(scenario))
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise UserError(
            phrase(
                "{what}: a field of the wrong type ({error}); expected the types of "
                "simulator.scenario.model (change a loaded Scenario with dataclasses.replace, "
                "or give overrides)",
                what=described(scenario),
                error=exc,
            )
        ) from None


def inputs(*given: object) -> list[str | os.PathLike[str]]:
    """The files among a command's scenarios (never written over by its results)."""
    return [item for item in given if isinstance(item, str | os.PathLike)]


MAX_POINTS = 10_000
"""The most points a sweep may have."""


def key_path(key: str) -> tuple[str, ...]:
    """A dotted key as its parts, however written: ``injuries[0].at`` is ``injuries.0.at``."""
    parts = key_parts(key)
    if parts is None:
        return (key,)
    return tuple(str(int(p)) if p.isdigit() else p for p in parts)


def check_grid_keys(keys: Sequence[str]) -> None:
    """Refuse grid keys that overlap, so that no point is labelled with a value it does not use.

    Two keys overlap when they name the same key (``injuries.0.at`` and ``injuries[0].at``)
    or one lies inside the other (``patient`` and ``patient.cp_rs``): the later would change
    what the earlier's value says. (A ``--set`` of a grid key is a base the grid moves away
    from: allowed, see :func:`in_effect`.)

    Raises:
        UserError: Naming both keys, as the caller spells them (``--grid KEY``,
            ``grid["KEY"]``).
    """
    said = spelling()
    seen: dict[tuple[str, ...], str] = {}
    for key in keys:
        path = key_path(key)
        for other_path, other in seen.items():
            if path == other_path:
                raise UserError(
                    phrase(
                        "{key}: the same key as {other}, given twice; expected each key once",
                        key=said.key("grid", key),
                        other=said.key("grid", other),
                    )
                )
            inner, outer = (path, other_path) if len(path) > len(other_path) else (other_path, path)
            if inner[: len(outer)] == outer:
                raise UserError(
                    phrase(
                        "{key}: overlaps {other} (one is inside the other), so a point's label "
                        "would not say what it ran; expected keys apart",
                        key=said.key("grid", key),
                        other=said.key("grid", other),
                    )
                )
        seen[path] = key


def in_effect(overrides: Sequence[Given], keys: Sequence[str]) -> tuple[Given, ...]:
    """The overrides that a grid over ``keys`` leaves in effect at its points.

    An override of a key the grid sets (or of a key inside it) is replaced at every point:
    it is left out of the points' labels, which say what each point ran.
    """
    paths = [key_path(key) for key in keys]
    return tuple(
        item for item in overrides if not any(key_path(_key(item))[: len(p)] == p for p in paths)
    )


def _key(item: Given) -> str:
    return item.key if isinstance(item, Override) else item.partition("=")[0].strip()


def grid_points(grid: Mapping[str, Sequence[object]]) -> list[dict[str, object]]:
    """Every point of a grid, the first key varying slowest.

    Raises:
        UserError: When the grid is empty, a key has no values, or keys overlap
            (:func:`check_grid_keys`), naming the grid as the caller spells it (``--grid``,
            ``grid``: :mod:`simulator.spelling`).
    """
    said = spelling()
    if not isinstance(grid, Mapping):
        raise UserError(
            phrase(
                "{flag}: got {value}; expected a mapping of each key to its values "
                '({{"first_aid.level": [0, 3, 6]}})',
                flag=said.option("grid"),
                value=repr(grid)[:80],
            )
        )
    if not grid:
        raise UserError(
            phrase(
                "{flag}: empty; expected at least one key and its values "
                '({{"first_aid.level": [0, 3, 6]}})',
                flag=said.option("grid"),
            )
        )
    for key, values in grid.items():
        if not isinstance(key, str):  # {3: [1]} was an AttributeError of int.strip
            raise UserError(
                phrase(
                    "{flag}: got {value}; expected dotted scenario keys, e.g. patient.cp_rs",
                    flag=said.option("grid"),
                    value=display(key),
                )
            )
        if isinstance(values, str | bytes) or not isinstance(values, Iterable) or not list(values):
            raise UserError(
                phrase(
                    "{key}: got {value}; expected a list of values",
                    key=said.key("grid", key),
                    value=repr(values),
                )
            )
    check_grid_keys(list(grid))  # here, so that every kind of sweep refuses them
    count = math.prod(len(list(values)) for values in grid.values())
    if count > MAX_POINTS:
        raise UserError(
            phrase(
                "{flag}: {count} points; expected at most {most} (each point is a whole study: "
                "sweep fewer values, or in several runs)",
                flag=said.option("grid"),
                count=count,
                most=MAX_POINTS,
            )
        )
    plain = [[_plain(v) for v in values] for values in grid.values()]
    return [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*plain)]


def _plain_values(data: dict[str, object]) -> dict[str, object]:
    """A mapping with every numpy number in it as the Python number it holds, at any depth."""

    def plain(value: object) -> object:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return _plain(value)

    return {k: plain(v) for k, v in data.items()}


def _plain(value: object) -> object:
    """A numpy number as the Python number it holds (``np.arange`` gives a grid its values)."""
    item = getattr(value, "item", None)
    if type(value).__module__ == "numpy" and callable(item) and getattr(value, "ndim", 1) == 0:
        return item()
    return value


def point_overrides(point: Mapping[str, object]) -> list[Override]:
    """The typed overrides that set a grid's point (the ``grid``'s, in messages).

    Raises:
        UserError: For a value a scenario file cannot hold.
    """
    return [Override.of(key, value, "grid") for key, value in point.items()]


__all__ = [
    "MAX_POINTS",
    "Given",
    "Variants",
    "check_grid_keys",
    "grid_points",
    "in_effect",
    "inputs",
    "key_path",
    "labels",
    "load",
    "point_overrides",
]
