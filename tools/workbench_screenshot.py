"""Take the README's picture of the workbench: ``python -m tools.workbench_screenshot``.

Starts the workbench on ``scenarios/`` (port chosen by the system), opens the lone
traveller in Debian's headless chromium (as the browser tests do), makes the tour's edit
(the grave wound's unstable period from 15 minutes to 2 hours), waits for the exact answer
and its charts, and writes ``docs/images/workbench.png``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "images" / "workbench.png"
VIEWPORT = {"width": 1500, "height": 1000}
DONE = (
    "() => window.timings.chart > window.timings.edit"
    " && document.querySelector('#answer').dataset.state === 'done'"
)
"""The page has drawn the answer to the last edit (numbers and charts)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def shoot(browser: Any, scenarios: Path, out: Path) -> Path:
    """Open the workbench on ``scenarios`` in ``browser``, make the edit, save the picture."""
    from simulator.web.server import start

    running = start(scenarios, port=0)
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(running.url + "?name=lone_traveller.toml")
        page.wait_for_selector("#answer[data-state=done]", timeout=60_000)
        page.fill("#cell-rules-table-grave-unstable_period", "2h")
        page.wait_for_function(DONE, timeout=60_000)
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out))
    finally:
        context.close()
        running.stop()
    return out


def main() -> int:
    """Write :data:`OUT`; 1 without a browser."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        print("no chromium: sudo apt-get install chromium", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=ARGS)
        try:
            print(shoot(browser, REPO / "scenarios", OUT).relative_to(REPO))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
