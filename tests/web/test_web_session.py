"""A designer's session in the workbench, in a real browser (headless chromium).

What a designer met in such a session: the cells of the wound table and of the injuries'
rows had no name in words for a screen reader (only their file key as a hint), ...
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simulator.web.server import Running, start

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 30_000  # ms: a loaded machine


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp("scenarios")
    for name in ("lone_traveller.toml", "geraldine.toml"):
        shutil.copy(REPO / "scenarios" / name, folder / name)
    running = start(folder, port=0)
    try:
        yield running
    finally:
        running.stop()


def wait_done(page: Any) -> None:
    page.wait_for_selector("#answer[data-state=done]", timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("lang", "cell", "free", "injury"),
    [
        ("en", "grave wound, unstable period", "free: grave wound, unstable period",
         "injuries received #2, level"),
        ("fr", "blessure grave, périodicité instable",
         "libre : blessure grave, périodicité instable", "blessures reçues #2, niveau"),
    ],
)  # fmt: skip
def test_every_cell_has_a_name_in_words_for_a_screen_reader(
    served: Running, page: Any, lang: str, cell: str, free: str, injury: str
) -> None:
    """A table's cell was named by its key alone (its title): no label said its row and column."""
    page.goto(served.url + f"?name=geraldine.toml&lang={lang}")
    wait_done(page)
    assert page.get_by_role("textbox", name=cell, exact=True).count() == 1
    assert page.get_by_role("checkbox", name=free, exact=True).count() == 1
    assert page.get_by_role("combobox", name=injury, exact=True).count() == 1
    nameless = page.evaluate(
        """() => Array.from(document.querySelectorAll('#edit input, #edit select'))
             .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label'))
             .map((e) => e.id || e.className)"""
    )
    assert nameless == []
