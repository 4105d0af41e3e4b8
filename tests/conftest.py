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

COMPILED_TESTS = {
    "tests/cli/test_startup.py::test_a_small_run_does_not_load_numba_and_gives_the_compiled_numbers",
    "tests/cli/test_startup.py::test_trace_of_one_trial_does_not_load_numba_and_tells_the_compiled_story",
    "tests/web/test_web_server.py::test_two_pages_answered_at_once_never_stop_each_other",
    "tests/web/test_web_page.py::test_two_tabs_never_mix_their_answers_or_charts",
}
"""Tests marked ``compiled`` from here (their files are not marked themselves): the two of
``test_startup.py`` run a command with ``HARMONIES_NO_JIT=0``, which waits for numba's compile
after a kernel edit; the two of ``tests/web`` run a million trials of Géraldine, seconds for
the compiled kernel and many minutes as plain Python."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark :data:`COMPILED_TESTS` ``compiled``, so that ``make check`` leaves them out."""
    for item in items:
        if item.nodeid in COMPILED_TESTS:
            item.add_marker(pytest.mark.compiled)


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
