"""The page tests' one server: the workbench on copies of two shipped scenarios.

A test module that drives the page asks for ``served``; the helpers it waits with
(:data:`~tests.support.browser.TIMEOUT`, :func:`~tests.support.browser.wait_done`) are
imported from :mod:`tests.support.browser`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.web.server import Running
from tests.support.browser import serving_copies

SERVED = ("lone_traveller.toml", "geraldine.toml")
"""The scenarios the shared server offers (copies: a test may change them on disk)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """The workbench on a folder of its own holding copies of :data:`SERVED`, for one module.

    Each module gets its own folder: the files one module saves never show in another's list.
    """
    with serving_copies(tmp_path_factory.mktemp("scenarios"), SERVED) as running:
        print(f"\\nserver ready in {running.warm_s:.2f} s")
        yield running
