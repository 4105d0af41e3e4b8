"""A cell's text as the value it means (:func:`simulator.web.cells.meaning`): an edit is a value."""

from __future__ import annotations

import pytest

from simulator.web.cells import Cell, meaning, overrides

PERIOD = Cell("rules.table.grave.unstable_period", "table", "15min", rulebook="15min")
MAX = Cell("rules.table.grave.max", "table", "3", rulebook="3")
NEGLECT = Cell("watch.neglect_probability", "watch", "0.5")
NEGLECT_AT = Cell("watch.neglect_at", "watch", "12h, 1d", "list")
NAME = Cell("name", "campaign", "2h")


@pytest.mark.parametrize(
    ("cell", "typed"),
    [
        (PERIOD, "15 min"),
        (PERIOD, "0.25h"),
        (PERIOD, " 900s "),
        (PERIOD, '"15min"'),
        (MAX, "+3"),
        (NEGLECT, "0.50"),
        (NEGLECT, "5e-1"),
        (NEGLECT_AT, "12 h,1d"),
        (NEGLECT_AT, "720min, 24h"),
    ],
)
def test_a_value_written_otherwise_is_no_edit(cell: Cell, typed: str) -> None:
    """``15 min`` in a cell of ``15min`` counted as an edit, and a ``--set`` of the command."""
    assert meaning(cell, typed) == meaning(cell, cell.value)
    assert overrides({cell.key: typed}, [cell]) == ([], [])


@pytest.mark.parametrize(
    ("cell", "typed"),
    [
        (PERIOD, "16min"),
        (PERIOD, "15minutes"),  # not a duration --set takes: the check says so
        (MAX, "3.0"),  # a float where the file has an integer is not the file's value
        (NEGLECT, "0.51"),
        (NEGLECT_AT, "12h"),
        (NAME, "2 h"),  # a name is its text
    ],
)
def test_another_value_is_an_edit(cell: Cell, typed: str) -> None:
    assert meaning(cell, typed) != meaning(cell, cell.value)
    texts, _ = overrides({cell.key: typed}, [cell])
    assert len(texts) == 1
