"""The suite's fixtures, found by pytest in every room of ``tests/``: the library's notes shown
as the command line shows them, and the tiny scenario as a file. Helpers are imported from
:mod:`tests.support`, one way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import TINY

pytest_plugins = ["tests.support.browser"]  # the headless chromium fixtures


@pytest.fixture
def cli_notes() -> Iterator[None]:
    """The library's notes printed as the command line prints them (``note: ...`` on stderr)."""
    from simulator.cli.common import notes_on_stderr

    with notes_on_stderr():
        yield


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """The :data:`TINY` scenario, written to ``tiny.toml`` in the test's folder."""
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path
