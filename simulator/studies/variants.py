"""Variants of one scenario: the scenario with a few more ``KEY=VALUE`` overrides.

``balance`` and ``sensitivity`` build many variants of one scenario file; each goes through
the same checks as ``--set`` (a bad value is a user error naming the key and its flag).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario


class Variants:
    """Builds the scenario with more overrides, from a file or a :class:`Scenario`.

    Attributes:
        source: The scenario's file (for messages).
        overrides: The ``--set`` overrides of every variant.
        base: The scenario with ``overrides`` only.
    """

    def __init__(
        self,
        scenario: Scenario | str | Path,
        overrides: Sequence[str] = (),
    ):
        from simulator.scenario.reading import read_scenario_mapping

        if isinstance(scenario, str | Path):
            self.source, self._data = str(scenario), read_scenario_mapping(scenario)
        else:
            from simulator.scenario.writing import scenario_to_mapping

            self.source, self._data = scenario.source, scenario_to_mapping(scenario)
        self.overrides = tuple(overrides)
        self.base = self.build(())

    @property
    def data(self) -> dict[str, Any]:
        """The scenario file's mapping (before any override)."""
        return self._data

    def build(self, more: Sequence[str], flag: str = "--vary") -> Scenario:
        """The scenario with ``--set`` overrides, then ``more`` (named ``flag`` in messages).

        Raises:
            ScenarioError: With every problem, each naming the override that brought it.
        """
        from simulator.scenario.reading import scenario_with_overrides

        return scenario_with_overrides(
            self._data, self.overrides, self.source, more=more, more_flag=flag
        )
