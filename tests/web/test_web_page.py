"""The workbench in a real browser (headless chromium): edit a cell, see the exact engine's answer.

The server runs in a thread on a port the system chooses, on a copy of two scenarios; the
expected numbers are computed by the test through the Python API and formatted as the page
formats them (as ``run`` prints them).
"""

from __future__ import annotations

import os
import shutil
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.cli.options import interval_text
from simulator.report.i18n import language, mass_text, percent_text
from simulator.studies.api import run_study
from simulator.studies.method import Exact
from simulator.web.server import Running, start
from simulator.web.words import share
from tests.support.browser import READS, TIMEOUT, wait_done, wait_read

REPO = Path(__file__).resolve().parents[2]
GRAVE = "#cell-rules-table-grave-unstable_period"


def value(page: Any, key: str) -> str:
    return str(page.inner_text(f"#row-{key} td.value"))


def wait_until(page: Any, ready: Callable[[], bool]) -> None:
    """Let the page and its routes run until ``ready()`` holds (at most :data:`TIMEOUT`).

    For what the test's own route handlers do (they run while Playwright waits).
    """
    deadline = time.monotonic() + TIMEOUT / 1000
    while not ready():
        assert time.monotonic() < deadline, "waited in vain"
        page.wait_for_timeout(20)


def test_an_edit_moves_the_chance_of_dying_to_the_exact_answer(served: Running, page: Any) -> None:
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    lone = folder / "lone_traveller.toml"
    started = time.perf_counter()
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    before = run_study(lone, Exact()).stat("p_dead_by_1d")
    assert value(page, "p_dead_by_1d") == share(before, True, "en")
    assert page.input_value(GRAVE) == "15min"

    # 15 minutes to 2 hours: the exact engine's answer for that table
    edit = "rules.table.grave.unstable_period=2h"
    after = run_study(lone, Exact(), overrides=[edit])
    page.fill(GRAVE, "2h")
    expect(page.locator("#row-p_dead_by_1d td.value")).to_have_text(
        share(after.stat("p_dead_by_1d"), True, "en"), timeout=TIMEOUT
    )
    wait_done(page)
    assert page.get_attribute("#method", "data-method") == "exact"
    assert page.inner_text("#row-p_dead_by_1d td.delta").startswith("-0.73")
    # the exact interval [p, p + dropped], as run --exact --json gives it: here one number
    assert page.inner_text("#row-p_dead td.ci") == "exact"
    assert "interval" in page.inner_text("#numbers tr:first-child")
    assert "rulebook: 15min" in page.inner_text(
        ".cell[data-key='rules.table.grave.unstable_period']"
    )
    assert page.inner_text("#command").endswith(f"--exact --set {edit}")
    assert page.locator("#figure-fate svg").count() == 1
    assert page.locator("#figure-first-day svg").count() == 1
    timings = page.evaluate("window.timings")
    print(f"lone traveller, exact: number {timings['number'] - timings['edit']:.0f} ms, "
          f"chart {timings['chart'] - timings['edit']:.0f} ms after the edit")  # fmt: skip

    # a bad value: validate's message beside the cell, the last good answer stays
    page.fill(GRAVE, "-2h")
    page.wait_for_selector(
        ".cell.bad[data-key='rules.table.grave.unstable_period']", timeout=TIMEOUT
    )
    expected = CliRunner().invoke(
        main, ["validate", str(lone), "--set", "rules.table.grave.unstable_period=-2h"]
    )
    message = page.inner_text(".cell.bad .problem")
    # validate's message, said about the cell (no --set, no served folder's path)
    where = f"error: --set rules.table.grave.unstable_period=-2h (on {lone}): "
    assert expected.stderr.strip() == f"{where}rules.table.grave.unstable_period: {message}"
    assert message.startswith("got '-2h'") and str(folder) not in message
    assert value(page, "p_dead_by_1d") == share(after.stat("p_dead_by_1d"), True, "en")
    assert page.is_visible("#stale")

    # save as: a file validate accepts, with the same answer
    page.fill(GRAVE, "2h")
    wait_done(page)
    page.fill("#save-name", "lone_2h")
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "lone_2h.toml", timeout=TIMEOUT)
    saved = folder / "lone_2h.toml"
    assert CliRunner().invoke(main, ["validate", str(saved)]).exit_code == 0
    assert run_study(saved, Exact()).stat("p_dead_by_1d") == after.stat("p_dead_by_1d")
    print(f"edit, error and save-as test body: {time.perf_counter() - started:.1f} s")


def test_the_files_value_written_otherwise_is_no_edit(served: Running, page: Any) -> None:
    """``15 min`` in a cell of ``15min`` showed "rulebook: 15min" and went on as a ``--set``."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    cell = page.locator(".cell[data-key='rules.table.grave.unstable_period']")
    page.fill(GRAVE, "2h")
    expect(page.locator("#command")).to_contain_text("unstable_period=2h", timeout=TIMEOUT)
    expect(cell.locator(".book")).to_have_text("rulebook: 15min")
    for same in ("15 min", "0.25h", "900s"):
        page.fill(GRAVE, same)
        expect(page.locator("#command")).not_to_contain_text("--set", timeout=TIMEOUT)
        expect(cell.locator(".book")).to_have_text("")
        expect(cell).not_to_have_class("cell edited")
        assert page.evaluate("edits()") == {}
    page.fill("#cell-patient-rs_it", "+6")  # the file's 6, signed: still no edit
    assert page.evaluate("edits()") == {}


def test_over_the_exact_budget_the_answer_is_sampled_with_its_interval(
    served: Running, page: Any
) -> None:
    from playwright.sync_api import expect

    geraldine = served.bench.folder.root / "geraldine.toml"
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill("#trials", "2000")
    page.select_option("#scenario", "geraldine.toml")
    page.wait_for_selector("#method[data-method=sampled]", timeout=TIMEOUT)
    page.evaluate("window.timings = {edit: performance.now()}")
    page.fill("#cell-first_aid-level", "3")
    expect(page.locator("#note")).to_have_text("2,000 of 2,000 trials, seed 0", timeout=TIMEOUT)
    wait_done(page)
    run = run_study(geraldine, trials=2000, seed=0, workers=1, overrides=["first_aid.level=3"])
    summary = run.summary_json()
    with language("en"):
        assert value(page, "p_dead") == percent_text(summary["p_dead"])
        assert page.inner_text("#row-p_dead td.ci") == interval_text(summary["p_dead_ci"])
    timings = page.evaluate("window.timings")
    print(f"geraldine, sampled 2,000: number {timings['number'] - timings['edit']:.0f} ms, "
          f"chart {timings['chart'] - timings['edit']:.0f} ms after the edit")  # fmt: skip


def test_the_page_speaks_english_and_french(served: Running, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    assert "Workbench" in page.inner_text("h1")
    assert page.inner_text("#row-p_dead th") == "dies"
    lone = served.bench.folder.root / "lone_traveller.toml"
    written = tomllib.loads(lone.read_text(encoding="utf-8"))
    assert page.inner_text("#title") == written["name"]
    assert page.inner_text("#description") == written["description"]
    dropped = run_study(lone, Exact()).summary_json()["dropped_mass"]
    assert f"(dropped mass {dropped:.2g})" in page.inner_text("#note")
    page.fill(GRAVE, "2h")
    expect(page.locator("#row-p_dead_by_1d td.delta")).not_to_have_text("", timeout=TIMEOUT)
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    wait_done(page)
    assert "Établi" in page.inner_text("h1")
    assert page.inner_text("#row-p_dead th") == "meurt"
    assert page.input_value(GRAVE) == "2h"  # the edits go along
    assert page.inner_text("#title") == written["name_fr"]  # the scenario's own French
    assert page.inner_text("#description") == written["description_fr"]
    assert mass_text(dropped, "fr") in page.inner_text("#note")  # 1,4e−11: a decimal comma
    assert "," in mass_text(dropped, "fr")
    by_day = run_study(lone, Exact(), overrides=["rules.table.grave.unstable_period=2h"]).stat(
        "p_dead_by_1d"
    )
    assert value(page, "p_dead_by_1d") == share(by_day, True, "fr")
    assert "," in value(page, "p_dead_by_1d")  # the decimal comma
    assert "Devenir" in page.text_content("#figure-fate")


def test_the_readme_picture_is_taken_by_this_browser(
    served: Running, browser: Any, tmp_path: Path
) -> None:
    from tools.workbench_screenshot import VIEWPORT, shoot

    picture = shoot(browser, served.bench.folder.root, tmp_path / "workbench.png")
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (VIEWPORT["width"], VIEWPORT["height"])


@pytest.mark.compiled  # a million trials: seconds compiled, many minutes as plain Python
def test_two_tabs_never_mix_their_answers_or_charts(served: Running, browser: Any) -> None:
    """Tab A's million sampled trials go on to the end while tab B edits; each has its charts.

    The answers the tabs must show (``run``'s million trials, the exact engine's) are computed
    meanwhile, in a thread of this process (the compiled kernel releases the interpreter):
    after the server's own million, one after the other, they made the test take a minute on
    a loaded machine.
    """
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    aside = ThreadPoolExecutor(1)
    run_a = aside.submit(run_study, folder / "geraldine.toml", trials=1_000_000, seed=0, workers=1)
    after_b = aside.submit(
        run_study, folder / "lone_traveller.toml", Exact(),
        overrides=["rules.table.grave.unstable_period=2h"],
    )  # fmt: skip
    context = browser.new_context()  # two tabs of one browser: the same origin, two pages
    try:
        a, b = context.new_page(), context.new_page()
        b.goto(served.url + "?name=lone_traveller.toml")
        a.goto(served.url + "?name=geraldine.toml")  # both answers computed at once
        wait_done(b)
        wait_done(a)
        a.fill("#trials", "1000000")
        a.dispatch_event("#trials", "change")
        a.wait_for_selector("#answer[data-state=sampling]", timeout=TIMEOUT)
        with b.expect_request("**/api/answer", timeout=TIMEOUT):
            b.fill(GRAVE, "2h")  # tab B edits while tab A samples
        assert a.get_attribute("#answer", "data-state") == "sampling"  # B asked during A's
        wait_done(b)
        expect(a.locator("#note")).to_have_text(
            "1,000,000 of 1,000,000 trials, seed 0", timeout=2 * TIMEOUT
        )
        wait_done(a)
        run = run_a.result().summary_json()
        with language("en"):
            assert value(a, "p_dead") == percent_text(run["p_dead"])
            assert a.inner_text("#row-p_dead td.ci") == interval_text(run["p_dead_ci"])
        tabs = ((a, "Géraldine", "Lone traveller"), (b, "Lone traveller", "Géraldine"))
        for tab, name, other in tabs:
            for chart in ("#figure-fate", "#figure-first-day"):
                assert tab.locator(f"{chart} svg").count() == 1, (name, chart)
                text = tab.text_content(chart) or ""
                assert name in text and other not in text, (name, chart)
        for chart in ("#figure-fate", "#figure-first-day"):  # tab B's charts are of its edit
            assert "unstable_period=2h" in (b.text_content(chart) or ""), chart
            assert "unstable_period" not in (a.text_content(chart) or ""), chart
        after = after_b.result()
        assert value(b, "p_dead_by_1d") == share(after.stat("p_dead_by_1d"), True, "en")
    finally:
        context.close()
        aside.shutdown(cancel_futures=True)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_on_a_phone_the_answer_comes_first_and_nothing_scrolls_sideways(
    served: Running, browser: Any, lang: str
) -> None:
    """375 px wide: the page is no wider than the screen, the wide table scrolls in its box."""
    context = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        page = context.new_page()
        page.goto(served.url + f"?name=lone_traveller.toml&lang={lang}")
        wait_done(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert page.evaluate("window.scrollX") == 0
        death = page.locator("#row-p_dead td.value").bounding_box()
        assert death is not None
        assert death["x"] >= 0 and death["x"] + death["width"] <= 375, death  # no sideways scroll
        assert death["y"] >= 0 and death["y"] + death["height"] <= 800, death  # nor downwards
        answer = page.locator("#answer").bounding_box()
        edit = page.locator("#edit").bounding_box()
        assert answer is not None and edit is not None and answer["y"] < edit["y"]
        table = page.locator("#wound-table").bounding_box()
        assert table is not None and table["width"] > 375  # wider than the screen: its box scrolls
        box = page.locator("#wound-table").locator("xpath=..")
        assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
        assert box.evaluate("e => e.scrollWidth > e.clientWidth")
        page.fill(GRAVE, "2h")  # the table's cells can still be reached and edited
        page.wait_for_selector("#row-p_dead_by_1d td.delta:not(:empty)", timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.click("#tell")  # a campaign's story, its long lines in their own box too
        page.wait_for_selector("#trace:has-text('S3')", timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()


def test_leaving_with_unsaved_edits_asks_first_but_the_language_link_does_not(
    served: Running, browser: Any
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context()
    try:
        seen: list[str] = []

        def opened() -> Any:
            page = context.new_page()
            page.on("dialog", lambda dialog: (seen.append(dialog.type), dialog.dismiss()))
            page.goto(served.url + "?name=lone_traveller.toml")
            wait_done(page)
            return page

        page = opened()  # no edit: closing asks nothing
        with page.expect_event("close", timeout=TIMEOUT):
            page.close(run_before_unload=True)
        assert seen == []

        page = opened()
        page.fill(GRAVE, "2h")
        wait_done(page)
        with page.expect_event("dialog", timeout=TIMEOUT) as asked:
            page.close(run_before_unload=True)
        assert asked.value.type == "beforeunload" and seen == ["beforeunload"]
        assert page.input_value(GRAVE) == "2h"  # dismissed: the page and its edit stay

        page.click("#lang-fr")  # the language link keeps the edits, and asks nothing
        page.wait_for_url("**lang=fr**")
        wait_done(page)
        assert page.input_value(GRAVE) == "2h" and seen == ["beforeunload"]

        page.fill("#save-name", "lone_leaving")  # once saved as a file, leaving asks nothing
        page.click("#save")
        expect(page.locator("#saved")).to_have_attribute(
            "data-saved", "lone_leaving.toml", timeout=TIMEOUT
        )
        with page.expect_event("close", timeout=TIMEOUT):
            page.close(run_before_unload=True)
        assert seen == ["beforeunload"]
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_setting_is_named_in_words_with_its_key_as_the_hint(
    served: Running, page: Any, lang: str
) -> None:
    from simulator.report.i18n import tr
    from simulator.web.words import LABELS

    page.goto(served.url + f"?name=lone_traveller.toml&lang={lang}")
    wait_done(page)
    for key in ("rules.tie_succeeds", "rules.pain_recovery_per_hour", "first_aid.max_attempts"):
        label = page.locator(f".cell[data-key='{key}'] label:not(.free-label)")  # not calibrate's
        assert label.inner_text() == tr(LABELS[key], lang) != key.rsplit(".", 1)[-1]
        assert label.get_attribute("title") == key
        assert page.get_attribute(f"[data-original][data-key='{key}']", "title") == key
    assert page.get_attribute(GRAVE, "title") == "rules.table.grave.unstable_period"


def test_a_broken_choice_keeps_the_page_and_a_file_changed_on_disk_is_read_again(
    tmp_path: Path, page: Any
) -> None:
    from playwright.sync_api import expect

    lone = tmp_path / "lone_traveller.toml"
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", lone)
    (tmp_path / "broken.toml").write_text('name = "broken"\nhorizon = "1d"\n', "utf-8")
    running = start(tmp_path, port=0)
    try:
        page.goto(running.url + "?name=lone_traveller.toml")
        wait_done(page)
        title = page.inner_text("#title")
        page.select_option("#scenario", "broken.toml")  # its problems, and the page as it was
        expect(page.locator("#general-problems")).to_contain_text("broken.toml: ", timeout=TIMEOUT)
        assert page.input_value("#scenario") == "lone_traveller.toml"
        assert page.inner_text("#title") == title
        # the file changes on disk; the next edit reads it again, the edit kept
        text = lone.read_text(encoding="utf-8").replace("cp_rs = 6", "cp_rs = 9")
        lone.write_text(text, encoding="utf-8")
        later = lone.stat().st_mtime_ns + 2_000_000_000
        os.utime(lone, ns=(later, later))
        page.fill(GRAVE, "2h")
        expect(page.locator("#cell-patient-cp_rs")).to_have_value("9", timeout=TIMEOUT)
        expect(page.locator(GRAVE)).to_have_value("2h", timeout=TIMEOUT)
        expect(page.locator("#general-problems")).to_contain_text(
            "The file changed on disk", timeout=TIMEOUT
        )
        wait_done(page)
        assert "--set rules.table.grave.unstable_period=2h" in page.inner_text("#command")
        # then it breaks on disk: its problems, and no answer shown as if it were current
        lone.write_text(text.replace("cp_rs = 9", "cp_rs = x"), encoding="utf-8")
        later += 2_000_000_000
        os.utime(lone, ns=(later, later))
        page.fill(GRAVE, "3h")
        expect(page.locator("#general-problems")).to_contain_text(
            "lone_traveller.toml: ", timeout=TIMEOUT
        )
        expect(page.locator("#answer")).to_have_attribute("data-state", "problems")
    finally:
        running.stop()


def test_another_scenario_asks_before_it_drops_the_edits(served: Running, page: Any) -> None:
    """Switching scenario threw the edits away without a word (reloading asked)."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(GRAVE, "2h")
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.select_option("#scenario", "geraldine.toml")
    assert page.input_value("#scenario") == "lone_traveller.toml"  # kept, with its edit
    assert page.input_value(GRAVE) == "2h"
    assert asked and "edits" in asked[0]
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.select_option("#scenario", "geraldine.toml")
    page.wait_for_function("document.getElementById('title').textContent.includes('Géraldine')",
                           timeout=TIMEOUT)  # fmt: skip
    assert len(asked) == 2
    # the address names the scenario shown: a reload opens Géraldine, not the lone traveller
    assert "name=geraldine.toml" in page.url
    # Undo asks too, and keeps the edits when told no
    wait_done(page)
    page.fill("#cell-patient-cp_rs", "9")
    page.once("dialog", lambda dialog: answer(dialog, False))
    page.click("#undo")
    assert len(asked) == 3 and "Undo every edit" in asked[2]
    assert page.input_value("#cell-patient-cp_rs") == "9"
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.click("#undo")
    expect(page.locator("#cell-patient-cp_rs")).not_to_have_value("9", timeout=TIMEOUT)


def test_another_profile_shows_its_own_wound_table_and_a_typed_value_is_an_edit(
    served: Running, page: Any
) -> None:
    """The table kept the humanoid's maxima under the hydra profile: not what ran or saved."""
    import tomllib

    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    grave, critical = "#cell-rules-table-grave-max", "#cell-rules-table-critical-max"
    assert page.input_value(grave) == "2"
    page.select_option("#cell-patient-profile", "hydra")
    expect(page.locator(grave)).to_have_value("3", timeout=TIMEOUT)  # the hydra's table
    expect(page.locator(critical)).to_have_value("3", timeout=TIMEOUT)
    page.fill(grave, "2")  # the humanoid's value, typed: an edit against the hydra's table
    expect(page.locator("#command")).to_contain_text("rules.table.grave.max=2", timeout=TIMEOUT)
    page.fill("#save-name", "hydra_two")
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "hydra_two.toml",
                                                      timeout=TIMEOUT)  # fmt: skip
    data = tomllib.loads((served.bench.folder.root / "hydra_two.toml").read_text("utf-8"))
    assert data["patient"]["profile"] == "hydra"
    assert data["rules"]["table"]["grave"] == {"max": 2}  # the typed cell, and no other
    # a typed cell stays typed through other profiles and the language link
    page.fill(critical, "2")
    page.select_option("#cell-patient-profile", "worm")
    page.select_option("#cell-patient-profile", "humanoid")
    expect(page.locator("#cell-rules-table-critical-max")).to_have_value("2", timeout=TIMEOUT)
    expect(page.locator(grave)).to_have_value("2", timeout=TIMEOUT)
    page.select_option("#cell-patient-profile", "hydra")
    expect(page.locator("#command")).to_contain_text("rules.table.critical.max=2",
                                                     timeout=TIMEOUT)  # fmt: skip
    page.click("#lang-fr")
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    expect(page.locator("#command")).to_contain_text("rules.table.grave.max=2", timeout=TIMEOUT)
    expect(page.locator("#command")).to_contain_text("rules.table.critical.max=2",
                                                     timeout=TIMEOUT)  # fmt: skip


def test_the_language_link_pressed_while_a_profiles_table_comes_keeps_a_typed_cell(
    served: Running, page: Any
) -> None:
    """The grave wound's maximum typed 2, the humanoid's own value (no edit), then the hydra
    picked and the language link pressed before the hydra's table came: the link carried the
    edits only, so the other page gave that cell the hydra's 3, where a cell typed stays as
    typed through another profile (test_another_profile_... failed so, now and then)."""
    from playwright.sync_api import expect

    held: list[Any] = []  # the first hydra table asked is held: the link is pressed meanwhile

    def hold_the_first(route: Any) -> None:
        route.continue_() if held else held.append(route)

    page.route("**/api/scenario?*profile=hydra*", hold_the_first)
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    grave, critical = "#cell-rules-table-grave-max", "#cell-rules-table-critical-max"
    page.fill(grave, "2")  # typed: the humanoid's own value
    with page.expect_request("**/api/scenario?*profile=hydra*", timeout=TIMEOUT):
        page.select_option("#cell-patient-profile", "hydra")
    page.click("#lang-fr")
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    expect(page.locator(critical)).to_have_value("3", timeout=TIMEOUT)  # the hydra's table
    assert page.input_value(grave) == "2"  # typed: the hydra's table does not rewrite it
    expect(page.locator("#command")).to_contain_text("rules.table.grave.max=2", timeout=TIMEOUT)


def saved_as_the_hydra(
    served: Running, page: Any, name: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Once Save as has written ``name``.toml: the file saved, and ``lone_traveller`` with the
    hydra profile (what the page shows, before the cells typed)."""
    import tomllib

    from playwright.sync_api import expect

    expect(page.locator("#saved")).to_have_attribute("data-saved", f"{name}.toml",
                                                      timeout=TIMEOUT)  # fmt: skip
    folder = served.bench.folder.root
    data = tomllib.loads((folder / f"{name}.toml").read_text("utf-8"))
    typed = tomllib.loads((folder / "lone_traveller.toml").read_text("utf-8"))
    typed["patient"]["profile"] = "hydra"
    return data, typed


def test_a_cell_typed_as_another_profiles_value_is_saved_so_after_the_language_link(
    served: Running, page: Any
) -> None:
    """The hydra picked, its table shown, the grave wound's maximum typed 3 (the hydra's own
    value: no edit), then the language link and Save as: the link carried the edits only, so
    the other page kept the file's humanoid 2 in that cell, typed, and saved max = 2, a value
    nobody typed."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    grave = "#cell-rules-table-grave-max"
    page.select_option("#cell-patient-profile", "hydra")
    expect(page.locator(grave)).to_have_attribute("data-original", "3", timeout=TIMEOUT)
    page.fill(grave, "3")  # typed: the hydra's own value
    page.click("#lang-fr")
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    expect(page.locator(grave)).to_have_attribute("data-original", "3", timeout=TIMEOUT)
    wait_done(page)
    assert page.input_value(grave) == "3"  # as typed
    page.fill("#save-name", "hydra_three")
    page.click("#save")
    data, typed = saved_as_the_hydra(served, page, "hydra_three")
    # the grave maximum typed as the hydra's own value is no edit: no key, no other value
    assert data == typed


def test_save_as_pressed_while_a_profiles_table_comes_saves_the_cell_typed(
    served: Running, page: Any
) -> None:
    """The grave wound's maximum typed 2 (the humanoid's own: no edit yet), the hydra picked
    and Save as pressed before the hydra's table came: the save sent the edits against the
    humanoid's table, the profile alone, and the file saved had the hydra's 3 there."""
    held: list[Any] = []  # the hydra table asked is held until Save as is pressed

    page.route("**/api/scenario?*profile=hydra*", lambda route: held.append(route))
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    grave = "#cell-rules-table-grave-max"
    page.fill(grave, "2")  # typed: the humanoid's own value
    with page.expect_request("**/api/scenario?*profile=hydra*", timeout=TIMEOUT):
        page.select_option("#cell-patient-profile", "hydra")
    page.fill("#save-name", "hydra_held")
    page.click("#save")  # its edits, once pressed, are those of the table drawn
    held[0].continue_()
    data, typed = saved_as_the_hydra(served, page, "hydra_held")
    typed["rules"] = {"table": {"grave": {"max": 2}}}  # the cell typed, and no other
    assert data == typed


def test_a_profiles_table_of_the_file_before_a_re_read_never_shows_after_it(
    served: Running, page: Any
) -> None:
    """The hydra picked, then the file changed on disk (its grave maximum now 5) and read
    again, the hydra asked again: the hydra's table of the file as it was (grave maximum 3)
    came last and drew its values over the file's as it is now."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    changing = folder / "profile_reread.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    changing.write_text(text, encoding="utf-8")
    held: list[tuple[Any, Any]] = []  # the first hydra table: answered by the server, held

    def hold_the_first(route: Any) -> None:
        # the server answers now, of the file as it is now; the page gets it when let go
        route.continue_() if held else held.append((route, route.fetch()))

    page.add_init_script(READS)
    page.route("**/api/scenario?*profile=hydra*", hold_the_first)
    page.goto(served.url + "?name=profile_reread.toml")
    wait_done(page)
    grave = "#cell-rules-table-grave-max"
    page.select_option("#cell-patient-profile", "hydra")
    expect(page.locator("#answer")).to_have_attribute("data-state", "done", timeout=TIMEOUT)
    wait_until(page, lambda: len(held) == 1)  # the file as it was: the hydra's 3
    changing.write_text(text + "\n[rules.table.grave]\nmax = 5\n", encoding="utf-8")
    later = changing.stat().st_mtime_ns + 2_000_000_000  # a stamp of its own, however coarse
    os.utime(changing, ns=(later, later))
    page.fill("#cell-patient-cp_rs", "7")  # the answer asked now finds the file changed
    expect(page.locator("#general-problems")).to_contain_text(
        "The file changed on disk", timeout=TIMEOUT
    )
    wait_read(page, "profile=hydra")  # the hydra asked again, of the file as it is now
    expect(page.locator(grave)).to_have_value("5")
    route, response = held[0]
    route.fulfill(response=response)  # the older table comes last
    wait_read(page, "profile=hydra", 2)
    expect(page.locator(grave)).to_have_value("5")  # the file's as it is now, never the 3
    expect(page.locator(grave)).to_have_attribute("data-original", "5")
    assert page.input_value("#cell-patient-profile") == "hydra"
    assert page.input_value("#cell-patient-cp_rs") == "7"  # the edit kept
    wait_done(page)


def test_a_profiles_table_of_the_scenario_left_is_not_drawn_into_the_next_one(
    served: Running, page: Any
) -> None:
    """The hydra picked on lone_traveller, then another scenario opened whose file names the
    hydra before the table came: lone_traveller's hydra table (grave maximum 3) was drawn
    into the other one's cells (its own grave maximum, 5)."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    hydra = text.replace("rs_it = 6", 'rs_it = 6\nprofile = "hydra"')
    (folder / "hydra_five.toml").write_text(hydra + "\n[rules.table.grave]\nmax = 5\n", "utf-8")
    held: list[Any] = []
    page.add_init_script(READS)
    page.route(
        "**/api/scenario?name=lone_traveller.toml*profile=hydra*", lambda route: held.append(route)
    )
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    with page.expect_request("**/api/scenario?*profile=hydra*", timeout=TIMEOUT):
        page.select_option("#cell-patient-profile", "hydra")  # asked, held till let go
    page.on("dialog", lambda dialog: dialog.accept())  # yes, drop the edit
    page.select_option("#scenario", "hydra_five.toml")
    wait_read(page, "name=hydra_five.toml")
    grave = "#cell-rules-table-grave-max"
    expect(page.locator(grave)).to_have_value("5")
    assert len(held) == 1
    held[0].continue_()  # lone_traveller's hydra table comes once hydra_five is shown
    wait_read(page, "profile=hydra")
    assert page.evaluate("scenario.name") == "hydra_five.toml"
    expect(page.locator(grave)).to_have_value("5")  # its own, never lone_traveller's 3
    expect(page.locator(grave)).to_have_attribute("data-original", "5")
    wait_done(page)


def test_a_server_gone_is_said_and_nothing_waits_forever(served: Running, page: Any) -> None:
    """Stopped under an open page: the old answer kept silently, and trace said "computing…"
    forever; the browser's raw "Failed to fetch", untranslated, was all there was to see."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml&lang=fr")
    wait_done(page)
    shown = value(page, "p_dead_by_1d")
    page.route("**/api/**", lambda route: route.abort())  # as a stopped server answers
    page.fill(GRAVE, "3h")
    expect(page.locator("#answer")).to_have_attribute("data-state", "failed", timeout=TIMEOUT)
    said = page.inner_text("#general-problems")
    assert said.startswith("Pas de réponse du serveur") and "Failed to fetch" not in said
    assert value(page, "p_dead_by_1d") == shown  # kept, greyed: the cells' as they were
    page.click("#tell")
    expect(page.locator("#trace")).to_contain_text("Pas de réponse du serveur", timeout=TIMEOUT)
    page.unroute("**/api/**")


def test_an_injury_turned_mental_brings_the_mental_rows_to_edit(served: Running, page: Any) -> None:
    """The mental rows came only with a file that dealt a mental wound: none to edit here."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    assert page.locator("#cell-rules-table-shock-pain").count() == 0
    page.fill(GRAVE, "2h")  # typed before: kept through the new table
    page.select_option("#cell-injuries-0-level", "shock")
    expect(page.locator("#cell-rules-table-shock-pain")).to_have_count(1, timeout=TIMEOUT)
    assert page.input_value(GRAVE) == "2h"
    page.fill("#cell-rules-table-shock-pain", "7")
    expect(page.locator("#command")).to_contain_text(
        "--set rules.table.shock.pain=7", timeout=TIMEOUT
    )
    wait_done(page)
    assert "--set injuries.0.level=shock" in page.inner_text("#command")
    assert "rules.table.grave.unstable_period=2h" in page.inner_text("#command")
    assert page.inner_text("#general-problems") == ""


def test_the_servers_own_refusals_are_said_in_the_pages_language(
    served: Running, page: Any
) -> None:
    """A 503 (too many requests), a 408 (a slow body) or a 413 come before the server reads
    the page's language: the page showed their English text in a French page."""
    from playwright.sync_api import expect

    def refused(status: int) -> Any:
        return lambda route: route.fulfill(
            status=status, body="in English", content_type="text/plain"
        )

    page.goto(served.url + "?name=lone_traveller.toml&lang=fr")
    wait_done(page)
    page.route("**/api/answer", refused(503))
    page.route("**/api/trace", refused(413))
    page.route("**/api/calibrate", refused(408))
    page.fill(GRAVE, "3h")
    expect(page.locator("#answer")).to_have_attribute("data-state", "failed", timeout=TIMEOUT)
    assert page.inner_text("#general-problems") == (
        "Le serveur est occupé (trop de requêtes à la fois) : réessayez dans un instant."
    )
    page.click("#tell")
    expect(page.locator("#trace")).to_have_text(
        "La requête est trop grande pour le serveur : raccourcissez les modifications les plus "
        "longues.",
        timeout=TIMEOUT,
    )
    page.click("#cal-solve")
    expect(page.locator("#cal-problems")).to_have_text(
        "La requête a mis trop de temps à parvenir au serveur : réessayez.", timeout=TIMEOUT
    )
