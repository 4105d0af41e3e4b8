"""A real browser for the page tests: Debian's ``chromium`` driven by Playwright.

Playwright's own browser download cannot work here, so the browser is launched with
``executable_path``. Without a browser the tests are skipped with the command that installs
it, except under CI (``CI`` set), where a missing browser fails them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

TIMEOUT = 60_000
"""Milliseconds any step of a page test may wait (a loaded machine; a Solve takes seconds).

One value for every test of the page: a step that passes takes well under it, and only a
failing one waits it out."""

INSTALL_HINT = "sudo apt-get install chromium (Debian's browser), then make test again"

# The flags a closed network needs: no background connections, no first-run pages.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """The path of Debian's chromium, or None when it is not installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def need_browser() -> str:
    """The browser's path; skip (or fail under CI) when there is none."""
    path = chromium_path()
    if path is None:
        message = f"no chromium for the browser tests: {INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        message = "playwright is not installed: make venv installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless chromium for the whole session (Playwright's ``Browser``)."""
    path = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own context: no cookies or storage shared between tests)."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


BROWSER_FIXTURES = frozenset({"browser", "page"})
"""The fixtures that start chromium: a test that asks for one is marked ``browser``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``browser`` every test that uses :data:`BROWSER_FIXTURES` (``-m "not browser"``)."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@contextlib.contextmanager
def serving_copies(folder: Path, names: Iterable[str]) -> Iterator[Any]:
    """The workbench on ``folder`` holding copies of these shipped scenarios (any free port).

    Yields:
        The running server (:class:`simulator.web.server.Running`), stopped on leaving.
    """
    from simulator.web.server import start

    for name in names:
        shutil.copy(REPO / "scenarios" / name, folder / name)
    running = start(folder, port=0)
    try:
        yield running
    finally:
        running.stop()


def wait_done(page: Any) -> None:
    """Wait until the page's answer is whole: its numbers and its figures (``data-state=done``)."""
    page.wait_for_selector("#answer[data-state=done]", timeout=TIMEOUT)


GRAVE = "#cell-rules-table-grave-unstable_period"
"""The cell the page tests edit: lone_traveller's grave wound, its unstable period (15min)."""


def saved_on_page(page: Any, name: str) -> Any:
    """On a page showing lone_traveller: the grave cell edited (2h), then saved as ``name``.

    Waits until the page says the file was written.

    Returns:
        The saved line (Playwright's ``Locator`` of ``#saved``), naming ``name.toml``.
    """
    from playwright.sync_api import expect

    page.fill(GRAVE, "2h")
    page.fill("#save-name", name)
    page.click("#save")
    line = page.locator("#saved")
    expect(line).to_have_attribute("data-saved", f"{name}.toml", timeout=TIMEOUT)
    return line


READS = """
window.reads = [];
const json = Response.prototype.json;
Response.prototype.json = function () {
  const got = json.call(this);
  // settled once the page's own code after this read has run (a task after its microtasks)
  const done = got.then(() => new Promise((ready) => setTimeout(ready, 0)), () => null);
  window.reads.push({ url: this.url, done });
  return got;
};
"""
"""A script each page of a test runs first (``page.add_init_script``): it keeps every answer
the page reads as JSON, for :func:`wait_read`."""


def wait_read(page: Any, part: str, count: int = 1) -> None:
    """Wait until the page has read ``count`` answers of addresses holding ``part``, and what
    it does on reading them is done (needs :data:`READS` run first)."""
    found = "(part) => window.reads.filter((r) => r.url.includes(part))"
    page.wait_for_function(f"([part, count]) => ({found})(part).length >= count",
                           arg=[part, count], timeout=TIMEOUT)  # fmt: skip
    page.evaluate(f"(part) => Promise.all(({found})(part).map((r) => r.done))", part)
