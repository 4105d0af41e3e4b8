"""A designer's session in the workbench, in a real browser (headless chromium).

What a designer met in such a session: the cells of the wound table and of the injuries'
rows had no name in words for a screen reader (only their file key as a hint); "Find one
that ends healed" pressed again told the same campaign; a campaign told before an edit
stayed under the edited cells unmarked, and a bad cell's problem in the trace box did not
name the cell.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from simulator.web.server import Running
from tests.support.browser import TIMEOUT, wait_done

REPO = Path(__file__).resolve().parents[2]


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


def told(page: Any) -> str:
    """The trace's first line, once the page has told it."""
    page.wait_for_function(
        "() => { const t = document.getElementById('trace').textContent;"
        " return t && !t.startsWith('computing'); }",
        timeout=TIMEOUT,
    )
    return str(page.inner_text("#trace")).splitlines()[0]


def test_find_again_tells_the_next_campaign_that_ends_so(served: Running, page: Any) -> None:
    """Pressed twice, "Find one that ends healed" told trial 81 twice: it searched from the
    trial shown, which ends healed, so the designer never saw a second one."""
    page.goto(served.url + "?name=geraldine.toml")
    wait_done(page)
    page.click("#find-healed")
    first = told(page)
    found = int(page.input_value("#trial"))
    assert f"trial {found})" in first
    page.click("#find-healed")
    page.wait_for_function(f"() => document.getElementById('trial').value !== '{found}'",
                           timeout=TIMEOUT)  # fmt: skip
    after = int(page.input_value("#trial"))
    assert after > found and f"trial {after})" in told(page)
    # "Tell this trial" still tells the trial typed, and a find from a trial typed by hand
    # starts at that trial
    page.fill("#trial", str(found))
    page.click("#find-healed")
    page.wait_for_function(f"() => document.getElementById('trial').value === '{found}'",
                           timeout=TIMEOUT)  # fmt: skip
    assert f"trial {found})" in told(page)


def test_a_trace_of_other_cells_is_marked_and_a_cells_problem_names_it(
    served: Running, page: Any
) -> None:
    """A campaign told before an edit stayed under the edited cells with nothing to say it
    was theirs no more; a bad cell's problem in the trace box did not say which cell."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=geraldine.toml")
    wait_done(page)
    page.click("#tell")
    told(page)
    expect(page.locator("#trace-stale")).to_be_hidden()
    page.fill("#cell-first_aid-level", "3")
    expect(page.locator("#trace-stale")).to_be_visible(timeout=TIMEOUT)
    page.click("#tell")
    assert "first_aid.level=3" in told(page)
    expect(page.locator("#trace-stale")).to_be_hidden()
    page.fill("#cell-first_aid-level", "x")
    page.click("#tell")
    expect(page.locator("#trace")).to_have_text(
        "first_aid.level: got 'x'; expected an integer from -1000 to 1000", timeout=TIMEOUT
    )


def test_a_cells_problem_is_its_description_for_a_screen_reader(served: Running, page: Any) -> None:
    """A bad cell turned red with its message beside it, but nothing tied the two: a screen
    reader on the cell heard neither that it was wrong nor why."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    cell = page.locator("#cell-rules-table-grave-unstable_period")
    cell.fill("-2h")
    expect(cell).to_have_attribute("aria-invalid", "true", timeout=TIMEOUT)
    expect(cell).to_have_accessible_description(
        re.compile("^got '-2h'; expected a duration of one second or more"), timeout=TIMEOUT
    )
    cell.fill("2h")
    wait_done(page)
    expect(cell).not_to_have_attribute("aria-invalid", "true")
    expect(cell).to_have_accessible_description("rulebook: 15min")
