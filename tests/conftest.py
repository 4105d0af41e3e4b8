"""Shared test material: a tiny scenario file that runs in milliseconds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def tiny_scenario(first_aid_level: int = 0, healing_level: int = 0) -> str:
    """A scenario file's text: one grave wound, a first-aider, a healer, ten days."""
    return f"""
name = "Tiny grave wound"
description = "Does one grave wound kill with a novice first-aider?"
horizon = "10d"

[patient]
cp_rs = 8
rs_it = 8

[[injuries]]
at = "0s"
level = "grave"

[first_aid]
level = {first_aid_level}
start = "5min"
interval = "5min"

[healing]
level = {healing_level}
"""


TINY = tiny_scenario()


def build_patient(*levels, stable=False, table=None):
    """A patient who received these wounds in this order (stabilised if asked)."""
    from simulator.rules.patient import Patient
    from simulator.rules.table import default_table
    from simulator.rules.transitions import receive_wound, stabilise

    patient = Patient(table or default_table())
    for level in levels:
        patient, blow = receive_wound(patient, level)
        assert not blow.fatal
    return stabilise(patient) if stable else patient


@pytest.fixture
def cli_notes() -> Iterator[None]:
    """The library's notes printed as the command line prints them (``note: ...`` on stderr)."""
    from simulator.cli.common import notes_on_stderr

    with notes_on_stderr():
        yield
