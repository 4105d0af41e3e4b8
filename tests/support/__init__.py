"""Shared test material, imported one way (``from tests.support import ...``): a tiny scenario
that runs in milliseconds, the command line run as a user runs it, and patients built by hand.

Beside it: :mod:`tests.support.same_laws` (the two-sample comparisons) and
:mod:`tests.support.browser` (headless chromium, a pytest plugin that ``tests/conftest.py``
loads).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
"""The repository root."""


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


def one_wound(
    name: str,
    *,
    level: str = "grave",
    cp_rs: int = 6,
    rs_it: int = 6,
    period: str = "2h",
    horizon: str = "1d",
    more: str = "",
) -> str:
    """A scenario file's text: one wound of ``level`` from the start, its unstable period.

    ``more``: tables written between the wound and the rules (``[first_aid]`` ...).
    """
    return f"""
name = "{name}"
horizon = "{horizon}"

[patient]
cp_rs = {cp_rs}
rs_it = {rs_it}

[[injuries]]
at = "0s"
level = "{level}"
{more}
[rules.table.{level}]
unstable_period = "{period}"
"""


def tiny_file(tmp_path_factory: Any) -> Path:
    """:data:`TINY` as ``tiny.toml`` in a new temporary folder (a module fixture's file)."""
    path = tmp_path_factory.mktemp("scenario") / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


MAXIMA_GIVEN = """name = "maxima"
horizon = "2d"

[patient]
cp_rs = 8
rs_it = 8

[patient.maxima]
grave = 1

[[injuries]]
at = "0s"
level = "grave"
count = 2

[first_aid]
level = 3
start = "5min"
interval = "5min"
"""
"""Two grave wounds under ``[patient.maxima] grave = 1``, which outranks the table's max (T2)."""


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


def harmonies_sim(
    *args: str | Path, cwd: Path | None = None, timeout: float = 120, **options: object
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simulator ARGS`` in a fresh interpreter, as a user runs the command.

    Output is captured as text unless ``options`` (passed to :func:`subprocess.run`) say
    otherwise; the exit status is the caller's to check.
    """
    streams = {"capture_output": True} if "stdout" not in options else {}
    return subprocess.run(
        [sys.executable, "-m", "simulator", *map(str, args)],
        text=True,
        cwd=cwd,
        timeout=timeout,
        check=False,
        **streams,
        **options,
    )


def told(exc: Any) -> list[str]:
    """The lines a refusal (a :class:`~simulator.errors.UserError`) holds, one per mistake,
    in English: a combined refusal's, a scenario's problems, or the error itself."""
    from simulator.errors import CombinedUserError, ScenarioError

    if isinstance(exc, CombinedUserError):
        return [line for e in exc.errors for line in told(e)]
    if isinstance(exc, ScenarioError):
        return [str(p) for p in exc.problems]
    return [str(exc)]
