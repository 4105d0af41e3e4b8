"""A designer editing several cells, in a real browser (headless chromium).

What such a designer met: one edit among several could not be taken back (only "Undo all
edits", which drops them all).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simulator.web.server import Running
from tests.support.browser import GRAVE, READS, TIMEOUT, saved_on_page, wait_done, wait_read

CP_RS = "#cell-patient-cp_rs"


@pytest.fixture
def asked(page: Any) -> list[str]:
    """The dialogs the page opens, by their type ("confirm", "beforeunload"); each dismissed.

    A test that expects none asserts the list empty, once the page is closed
    (:func:`close_as_a_person_does`).
    """
    opened: list[str] = []
    page.on("dialog", lambda dialog: (opened.append(dialog.type), dialog.dismiss()))
    return opened


def close_as_a_person_does(page: Any) -> None:
    """Close the page as its tab is closed: its ``beforeunload`` runs (and may ask first)."""
    with page.expect_event("close", timeout=TIMEOUT):
        page.close(run_before_unload=True)


def focused(page: Any) -> str:
    """The id of the focused element, or its accessible label."""
    return str(
        page.evaluate(
            "() => document.activeElement.id || document.activeElement.getAttribute('aria-label')"
        )
    )


@pytest.mark.parametrize(
    ("lang", "grave", "cp_rs"),
    [
        ("en", "undo this edit: grave wound, unstable period", "undo this edit: Cp+Rs"),
        ("fr", "annuler cette modification : blessure grave, périodicité instable",
         "annuler cette modification : Cp+Rs"),
    ],
)  # fmt: skip
def test_one_edit_among_several_is_taken_back_by_its_own_button(
    served: Running, page: Any, lang: str, grave: str, cp_rs: str
) -> None:
    """Only "Undo all edits" took an edit back: every other edit went with it."""
    from playwright.sync_api import expect

    page.goto(served.url + f"?name=lone_traveller.toml&lang={lang}")
    wait_done(page)
    undo = page.locator(".cell button.take-back")
    expect(undo.filter(visible=True)).to_have_count(0)  # nothing to take back yet
    page.fill(GRAVE, "2h")
    page.fill(CP_RS, "7")
    wait_done(page)
    expect(undo.filter(visible=True)).to_have_count(2)  # one beside each edited cell
    assert page.get_by_role("button", name=cp_rs, exact=True).is_visible()
    button = page.get_by_role("button", name=grave, exact=True)
    assert button.is_visible()
    expect(page.locator("#command")).to_contain_text("rules.table.grave.unstable_period=2h")

    # by the keyboard: Tab from the cell to its button, Enter takes the edit back
    page.focus(GRAVE)
    page.keyboard.press("Tab")
    assert focused(page) == grave
    page.keyboard.press("Enter")
    assert page.input_value(GRAVE) == "15min"
    assert focused(page) == GRAVE[1:]  # the button went: the focus is back in its cell
    cell = page.locator(".cell[data-key='rules.table.grave.unstable_period']")
    expect(cell).not_to_have_class("cell edited")
    expect(button).to_be_hidden()
    # the other edit stays, and the answer is computed again without the one taken back
    assert page.input_value(CP_RS) == "7"
    expect(page.locator("#command")).not_to_contain_text("unstable_period", timeout=TIMEOUT)
    expect(page.locator("#command")).to_contain_text("--set patient.cp_rs=7")
    wait_done(page)

    # by the mouse: the last edit goes too, and the page has none left to ask about
    page.get_by_role("button", name=cp_rs, exact=True).click()
    assert page.input_value(CP_RS) == "6"
    expect(undo.filter(visible=True)).to_have_count(0)
    expect(page.locator("#command")).not_to_contain_text("--set", timeout=TIMEOUT)


def test_typing_on_while_the_file_is_read_again_keeps_the_cell_and_its_keys(
    served: Running, page: Any
) -> None:
    """The file changed on disk while a designer typed: the page read it again, drew its
    cells anew and left the focus nowhere: the next keys typed went to no cell."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    changing = folder / "changing.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    changing.write_text(text, encoding="utf-8")
    page.goto(served.url + "?name=changing.toml")
    wait_done(page)
    changing.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
    page.click(GRAVE)
    page.keyboard.press("End")
    page.keyboard.press("Backspace")  # 15mi: the answer asked now finds the file changed
    expect(page.locator("#general-problems")).to_contain_text(
        "The file changed on disk", timeout=TIMEOUT
    )
    assert page.input_value("#cell-patient-rs_it") == "5"  # the file as it is now
    assert focused(page) == GRAVE[1:]  # still in the cell typed in, the caret at its end
    page.keyboard.type("n")
    assert page.input_value(GRAVE) == "15min"
    wait_done(page)


def typed_then_changed_on_disk(served: Running, page: Any, name: str) -> tuple[Path, str]:
    """A copy of ``lone_traveller`` opened, ``rs_it`` typed as its own value (6: no edit),
    then the file changed on disk under the page (``rs_it = 5``).

    Returns:
        The scenarios' folder and the copy's text as it was opened.
    """
    folder = served.bench.folder.root
    changing = folder / name
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    changing.write_text(text, encoding="utf-8")
    page.goto(served.url + f"?name={name}")
    wait_done(page)
    page.fill("#cell-patient-rs_it", "6")  # typed: the file's own value, no edit
    wait_done(page)
    changing.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
    return folder, text


def test_a_cell_typed_as_the_file_s_value_stays_typed_when_the_file_is_read_again(
    served: Running, page: Any
) -> None:
    """Read again after it changed on disk, "your edits kept": a cell the designer had typed
    as the file's old value (no edit then) took the file's new value, silently."""
    from playwright.sync_api import expect

    typed_then_changed_on_disk(served, page, "retyped.toml")
    page.fill(GRAVE, "2h")  # the answer asked now finds the file changed
    expect(page.locator("#general-problems")).to_contain_text(
        "The file changed on disk", timeout=TIMEOUT
    )
    expect(page.locator("#cell-patient-rs_it")).to_have_attribute(
        "data-original", "5", timeout=TIMEOUT
    )  # the file as it is now
    assert page.input_value("#cell-patient-rs_it") == "6"  # as the designer typed it
    expect(page.locator("#command")).to_contain_text("patient.rs_it=6", timeout=TIMEOUT)


def test_a_cell_typed_as_the_file_s_value_is_saved_so_after_the_language_link(
    served: Running, page: Any
) -> None:
    """A cell typed as the file's value (no edit), the file changed on disk, then the language
    link: the link carried the edits only, so the other page showed the file's new value in
    that cell and Save as wrote it, the value typed dropped without a word."""
    import tomllib

    from playwright.sync_api import expect

    folder, text = typed_then_changed_on_disk(served, page, "relinked.toml")
    page.click("#lang-fr")
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    wait_done(page)
    assert page.get_attribute("#cell-patient-rs_it", "data-original") == "5"  # the file now
    assert page.input_value("#cell-patient-rs_it") == "6"  # as the designer typed it
    page.fill("#save-name", "relinked_six")
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "relinked_six.toml",
                                                      timeout=TIMEOUT)  # fmt: skip
    data = tomllib.loads((folder / "relinked_six.toml").read_text(encoding="utf-8"))
    typed = tomllib.loads(text)  # the file as it was, the cell as typed: the same
    assert data == typed


@pytest.mark.parametrize(
    ("lang", "nothing"),
    [("en", "Nothing was written"), ("fr", "Rien n'a été écrit")],
)
def test_a_save_as_refused_for_a_cell_in_red_says_nothing_was_written(
    served: Running, page: Any, lang: str, nothing: str
) -> None:
    """Save as with a cell in red wrote nothing and said nothing beside the button."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    page.goto(served.url + f"?name=lone_traveller.toml&lang={lang}")
    wait_done(page)
    page.fill(CP_RS, "six")
    page.wait_for_selector("#answer[data-state=problems]", timeout=TIMEOUT)
    page.fill("#save-name", f"red_{lang}")
    page.click("#save")
    expect(page.locator("#saved")).to_contain_text(nothing, timeout=TIMEOUT)
    assert not (folder / f"red_{lang}.toml").exists()
    assert page.get_attribute("#saved", "data-saved") == ""


def test_a_save_as_of_a_file_changed_on_disk_says_nothing_was_written_then_saves(
    served: Running, page: Any
) -> None:
    """The file changed on disk: Save as wrote nothing (right) and said nothing beside the
    button (only a notice at the top of the cells): the designer took it as saved."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    moving = folder / "moving.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    moving.write_text(text, encoding="utf-8")
    page.goto(served.url + "?name=moving.toml")
    wait_done(page)
    page.fill(GRAVE, "2h")
    wait_done(page)
    moving.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
    page.fill("#save-name", "moved")
    page.click("#save")
    expect(page.locator("#saved")).to_contain_text("Nothing was written", timeout=TIMEOUT)
    assert not (folder / "moved.toml").exists()
    expect(page.locator("#cell-patient-rs_it")).to_have_value("5", timeout=TIMEOUT)
    assert page.input_value(GRAVE) == "2h"  # the edit kept: saving again saves it
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "moved.toml", timeout=TIMEOUT)
    saved = (folder / "moved.toml").read_text(encoding="utf-8")
    assert "rs_it = 5" in saved and 'unstable_period = "2h"' in saved


def test_the_saved_line_of_one_scenario_is_not_shown_under_another(
    served: Running, page: Any
) -> None:
    """The line "Saved lone_other.toml" stayed under Géraldine once she was opened."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    saved_on_page(page, "lone_other")
    page.select_option("#scenario", "geraldine.toml")
    page.wait_for_function(
        "document.getElementById('title').textContent.includes('Géraldine')", timeout=TIMEOUT
    )
    expect(page.locator("#saved")).to_have_text("")
    assert page.get_attribute("#saved", "data-saved") == ""


def saved_later(page: Any, name: str, meanwhile: Callable[[], None], grave: str = "2h") -> Any:
    """On a page showing lone_traveller: the grave cell edited (to ``grave``) and saved as
    ``name``, its answer held while ``meanwhile()`` runs, then let go and read by the page.

    Returns:
        The saved line (Playwright's ``Locator`` of ``#saved``).
    """
    held: list[Any] = []
    page.route("**/api/save", lambda route: held.append(route))
    page.fill(GRAVE, grave)
    page.fill("#save-name", name)
    with page.expect_request("**/api/save", timeout=TIMEOUT):
        page.click("#save")  # asked, held till let go
    meanwhile()
    assert len(held) == 1
    held[0].continue_()  # the file is written now, and its answer comes last
    wait_read(page, "/api/save")
    page.wait_for_function("!document.getElementById('save').hasAttribute('aria-busy')")
    return page.locator("#saved")


def test_a_save_answered_once_another_scenario_is_shown_says_nothing_under_it(
    served: Running, page: Any
) -> None:
    """Save as pressed, then Géraldine opened before the save's answer came: its line
    "Saved lone_left.toml" showed under Géraldine, as if her cells were the ones saved, and
    the page took her cells for saved (leaving with the same edits asked nothing)."""
    from playwright.sync_api import expect

    def open_geraldine() -> None:
        page.on("dialog", lambda dialog: dialog.accept())  # yes, drop the edit
        page.select_option("#scenario", "geraldine.toml")
        wait_read(page, "/api/scenario?name=geraldine.toml")
        wait_done(page)

    page.add_init_script(READS)
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    line = saved_later(page, "lone_left", open_geraldine)
    assert (served.bench.folder.root / "lone_left.toml").exists()  # written all the same
    expect(page.locator("#scenario option[value='lone_left.toml']")).to_have_count(1)
    assert page.evaluate("scenario.name") == "geraldine.toml"
    expect(line).to_have_text("")  # nothing of lone_traveller's save under Géraldine
    assert line.get_attribute("data-saved") == ""
    assert page.evaluate("saved") == "{}"  # none of her cells saved


def test_a_cell_edited_while_the_save_comes_is_said_not_to_be_in_the_file(
    served: Running, page: Any
) -> None:
    """Cp+Rs typed while Save as was on its way: the line said "Saved lone_during.toml" as if
    the file held that edit too, where an edit after the save says it does not."""
    from playwright.sync_api import expect

    page.add_init_script(READS)
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    line = saved_later(page, "lone_during", lambda: page.fill(CP_RS, "7"))
    written = (served.bench.folder.root / "lone_during.toml").read_text("utf-8")
    assert "cp_rs = 6" in written and "cp_rs=7" not in written  # the cells as pressed
    expect(line).to_have_text(
        "lone_during.toml holds the cells as they were when saved, not the edits since."
    )
    assert line.get_attribute("data-saved") == "lone_during.toml"
    page.get_by_role("button", name="undo this edit: Cp+Rs").click()
    expect(line).to_contain_text("Saved ")  # the cells are the saved ones again


def test_a_cell_fixed_while_a_refused_save_comes_is_not_put_back_in_red(
    served: Running, page: Any
) -> None:
    """Save as pressed with the grave cell in red (-2h), the cell fixed (2h) before the
    refusal came: the refusal put the fixed cell back in red, with -2h's message, and took the
    keyboard to it, over the answer to the cells as they are, and told the designer to fix
    what is said in red."""
    from playwright.sync_api import expect

    grave_in_red(served, page)
    line = saved_later(page, "lone_red", grave_fixed(page, "#save-name"), grave="-2h")
    assert not (served.bench.folder.root / "lone_red.toml").exists()  # refused
    # nothing is red any more: the line says why nothing was written, not to fix the red
    expect(line).to_have_text(
        "Nothing was written: the cells changed while it was on its way; save again."
    )
    grave_not_red(page)
    assert focused(page) == "save-name"  # not taken to a cell no longer in red


def grave_in_red(served: Running, page: Any) -> None:
    """lone_traveller opened (needs :data:`READS`), its grave cell typed as -2h: in red."""
    from playwright.sync_api import expect

    page.add_init_script(READS)
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(GRAVE, "-2h")
    expect(page.locator("#answer")).to_have_attribute("data-state", "problems", timeout=TIMEOUT)


def grave_fixed(page: Any, then: str) -> Callable[[], None]:
    """What the designer does while an answer is on its way: the grave cell fixed (2h), the
    focus moved on to ``then``, the answer to the cells fixed read (nothing in red)."""

    def fix() -> None:
        page.fill(GRAVE, "2h")
        page.focus(then)
        wait_done(page)

    return fix


def grave_not_red(page: Any) -> None:
    """The grave cell, fixed, is not in red: no mark, no message, the answer the cells'."""
    from playwright.sync_api import expect

    cell = page.locator(".cell[data-key='rules.table.grave.unstable_period']")
    expect(cell).not_to_have_class(re.compile(r"\bbad\b"))
    assert page.get_attribute(GRAVE, "aria-invalid") is None
    assert page.inner_text("#problem-cell-rules-table-grave-unstable_period") == ""
    assert page.get_attribute("#answer", "data-state") == "done"


def told_later(page: Any, meanwhile: Callable[[], None]) -> None:
    """One campaign asked for (Tell), its answer held while ``meanwhile()`` runs, then let go
    and read by the page (needs :data:`READS` run first)."""
    held: list[Any] = []
    page.route("**/api/trace", lambda route: held.append(route))
    with page.expect_request("**/api/trace", timeout=TIMEOUT):
        page.click("#tell")  # asked, held till let go
    meanwhile()
    assert len(held) == 1
    held[0].continue_()
    wait_read(page, "/api/trace")


def test_a_cell_fixed_while_a_refused_trace_comes_is_not_put_back_in_red(
    served: Running, page: Any
) -> None:
    """Tell pressed with the grave cell in red (-2h), the cell fixed (2h) before the refusal
    came: the refusal put the fixed cell back in red, with -2h's message, over the answer to
    the cells as they are."""
    from playwright.sync_api import expect

    grave_in_red(served, page)
    told_later(page, grave_fixed(page, "#trial"))
    expect(page.locator("#trace")).to_contain_text("-2h")  # the press's answer, in its box
    grave_not_red(page)
    assert page.is_hidden("#stale")  # the answer shown is the cells'


def test_a_trace_of_a_file_changed_on_disk_answered_under_another_reads_that_one_not_again(
    served: Running, page: Any
) -> None:
    """Tell pressed, its file changed on disk, Géraldine opened before the answer came: the
    answer "the file changed" read Géraldine's file again and said that it had changed."""
    folder = served.bench.folder.root
    changing = folder / "told_changed.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    changing.write_text(text, encoding="utf-8")

    def change_then_open_geraldine() -> None:
        changing.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
        later = changing.stat().st_mtime_ns + 2_000_000_000  # a stamp of its own
        os.utime(changing, ns=(later, later))
        page.select_option("#scenario", "geraldine.toml")  # no edit: nothing asked
        wait_read(page, "/api/scenario?name=geraldine.toml")
        wait_done(page)

    page.add_init_script(READS)
    page.goto(served.url + "?name=told_changed.toml")
    wait_done(page)
    told_later(page, change_then_open_geraldine)
    assert page.evaluate("scenario.name") == "geraldine.toml"
    assert page.evaluate("pending") is None  # nothing read again
    assert page.evaluate("notice") == ""  # nor said to have changed on disk
    assert page.inner_text("#general-problems") == ""
    assert page.get_attribute("#answer", "data-state") == "done"


def test_with_every_edit_taken_back_after_a_save_leaving_asks_nothing(
    served: Running, page: Any, asked: list[str]
) -> None:
    """Saved, then the edit taken back: the page shows the file as written, yet leaving,
    Undo all edits and another scenario asked about edits "not saved as a file"."""

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    saved_on_page(page, "lone_back")
    page.get_by_role("button", name="undo this edit: grave wound, unstable period").click()
    assert page.input_value(GRAVE) == "15min"
    page.click("#undo")  # nothing to undo: nothing asked
    page.select_option("#scenario", "geraldine.toml")
    page.wait_for_function(
        "document.getElementById('title').textContent.includes('Géraldine')", timeout=TIMEOUT
    )
    close_as_a_person_does(page)
    assert asked == []


def test_the_saved_line_says_when_the_cells_were_edited_since(served: Running, page: Any) -> None:
    """The line "Saved lone_since.toml" stayed after more edits, as if the file held them."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    line = saved_on_page(page, "lone_since")
    said = line.inner_text()
    assert said.startswith("Saved ")
    page.fill(CP_RS, "7")
    expect(line).to_have_text(
        "lone_since.toml holds the cells as they were when saved, not the edits since."
    )
    page.get_by_role("button", name="undo this edit: Cp+Rs").click()
    expect(line).to_have_text(said)  # the cells are the saved ones again


def test_a_scenario_deleted_since_the_page_listed_it_is_said_in_french(
    served: Running, page: Any
) -> None:
    """Chosen after it was deleted, a file was said gone in English on the French page."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    (folder / "soon_gone.toml").write_text(
        (folder / "lone_traveller.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    page.goto(served.url + "?name=lone_traveller.toml&lang=fr")
    wait_done(page)
    (folder / "soon_gone.toml").unlink()
    page.select_option("#scenario", "soon_gone.toml")
    expect(page.locator("#general-problems")).to_have_text(
        "soon_gone.toml : aucun fichier de ce nom dans le dossier (supprimé ou renommé depuis "
        "que la page l'a listé ?) ; attendu un fichier de scénario du dossier",
        timeout=TIMEOUT,
    )
    assert page.input_value("#scenario") == "lone_traveller.toml"  # the one still shown


def test_typing_in_the_table_while_the_mental_rows_come_keeps_the_cell_and_its_keys(
    served: Running, page: Any
) -> None:
    """The mental rows redrew the wound table under the cell being typed in: the focus went
    nowhere and the next keys typed were lost."""
    from playwright.sync_api import expect

    held: list[Any] = []
    page.route("**/api/scenario?*mental=1*", lambda route: held.append(route))  # held back
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    with page.expect_request("**/api/scenario?*mental=1*", timeout=TIMEOUT):
        page.select_option("#cell-injuries-0-level", "shock")  # asked, held till let go
    page.fill(GRAVE, "1")
    page.focus(GRAVE)
    page.keyboard.press("End")
    assert len(held) == 1
    held[0].continue_()  # the mental rows come while the designer types
    expect(page.locator("#cell-rules-table-shock-pain")).to_have_count(1, timeout=TIMEOUT)
    assert focused(page) == GRAVE[1:]
    page.keyboard.type("h")
    assert page.input_value(GRAVE) == "1h"


def test_the_mental_rows_of_a_scenario_left_are_not_drawn_into_the_next_one(
    served: Running, page: Any
) -> None:
    """An injury turned mental asks for the mental rows; another scenario picked before they
    came: they were drawn into its table all the same (the scenario left's rows, its cells
    and values, under Géraldine's title)."""
    from playwright.sync_api import expect

    held: list[Any] = []
    page.add_init_script(READS)
    page.route("**/api/scenario?*mental=1*", lambda route: held.append(route))  # held back
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    with page.expect_request("**/api/scenario?*mental=1*", timeout=TIMEOUT):
        page.select_option("#cell-injuries-0-level", "shock")
    page.on("dialog", lambda dialog: dialog.accept())  # yes, drop the edit
    page.select_option("#scenario", "geraldine.toml")
    expect(page.locator("#title")).to_contain_text("Géraldine", timeout=TIMEOUT)
    wait_done(page)
    assert len(held) == 1
    held[0].continue_()  # lone_traveller's mental rows come once Géraldine is shown
    wait_read(page, "mental=1")
    expect(page.locator(SHOCK_PAIN)).to_have_count(0)
    assert page.evaluate("scenario.name") == "geraldine.toml"
    assert page.evaluate("scenario.levels.map((l) => l.name)") == ["light", "grave", "critical"]


def test_undo_all_keeps_the_saved_line(served: Running, page: Any) -> None:
    """Undo all edits emptied the line that says where the last save was written: the file
    was still there, the page no longer said so."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    line = saved_on_page(page, "lone_undone")
    page.click("#undo")  # saved: nothing asked
    expect(page.locator(GRAVE)).to_have_value("15min", timeout=TIMEOUT)
    wait_done(page)
    assert line.get_attribute("data-saved") == "lone_undone.toml"
    assert line.inner_text() == (
        "lone_undone.toml holds the cells as they were when saved, not the edits since."
    )
    page.fill(GRAVE, "2h")  # the saved cells again: the line of the save again
    expect(line).to_contain_text("Saved ")
    expect(line).to_contain_text("lone_undone.toml")


def test_the_language_link_keeps_the_saved_line_in_the_other_language(
    served: Running, page: Any, asked: list[str]
) -> None:
    """The language link carried the edits but not the saved line: in French the page no
    longer said where the file was written, and leaving asked about edits saved already."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    line = saved_on_page(page, "lone_lang")
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    wait_done(page)
    assert page.input_value(GRAVE) == "2h"
    assert line.get_attribute("data-saved") == "lone_lang.toml"
    said = line.inner_text()
    assert said.startswith("Enregistré : ") and "lone_lang.toml" in said, said
    page.fill(CP_RS, "7")  # an edit since the save, carried back to English
    page.click("#lang-en")
    page.wait_for_url("**lang=en**")
    wait_done(page)
    assert page.input_value(CP_RS) == "7" and page.input_value(GRAVE) == "2h"
    expect(line).to_have_text(
        "lone_lang.toml holds the cells as they were when saved, not the edits since."
    )
    page.get_by_role("button", name="undo this edit: Cp+Rs").click()
    expect(line).to_contain_text("Saved ")  # the saved cells: the save's own line, in English
    assert "Enregistré" not in line.inner_text()
    close_as_a_person_does(page)  # the cells are the saved file's: nothing asked
    assert asked == []


SHOCK_PAIN = "#cell-rules-table-shock-pain"
"""A cell of the mental rows, drawn once an injury is made mental (shock)."""


def shocked(page: Any) -> None:
    """The first injury made a shock, and the pain of the shock row (drawn then) edited: 9."""
    from playwright.sync_api import expect

    page.select_option("#cell-injuries-0-level", "shock")
    expect(page.locator(SHOCK_PAIN)).to_have_count(1, timeout=TIMEOUT)
    page.fill(SHOCK_PAIN, "9")


def test_the_language_link_carries_what_was_typed_and_not_saved(
    served: Running, page: Any, asked: list[str]
) -> None:
    """Edits not saved, taken to the page in the other language: the edit of a mental row
    was lost (its row not drawn there), the name typed to save as was emptied, and the line
    saying why the last Save as wrote nothing was gone."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    shocked(page)
    page.fill(CP_RS, "six")  # in red: Save as writes nothing
    page.fill("#trial", "12")
    page.fill("#save-name", "lone_shocked")
    page.click("#save")
    line = page.locator("#saved")
    expect(line).to_have_text("Nothing was written: fix what is said in red first.")
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    page.wait_for_selector("#answer[data-state=problems]", timeout=TIMEOUT)
    assert page.input_value("#cell-injuries-0-level") == "shock"
    expect(page.locator(SHOCK_PAIN)).to_have_value("9")
    assert page.input_value(CP_RS) == "six"
    expect(page.locator("#problem-cell-patient-cp_rs")).to_contain_text("attendu un entier")
    assert page.input_value("#save-name") == "lone_shocked"
    assert page.input_value("#trial") == "12"
    expect(line).to_have_text("Rien n'a été écrit : corrigez d'abord ce qui est signalé en rouge.")

    page.fill(CP_RS, "6")  # fixed: Save as writes the edits carried, the mental row's too
    wait_done(page)
    expect(page.locator("#command")).to_contain_text("rules.table.shock.pain=9")
    page.click("#save")
    expect(line).to_have_attribute("data-saved", "lone_shocked.toml", timeout=TIMEOUT)
    text = (folder / "lone_shocked.toml").read_text(encoding="utf-8")
    assert "pain = 9" in text and '"shock"' in text, text
    page.fill("#save-name", "lone_traveller")
    page.click("#save")  # onto the file the page opened: refused; said again in English
    expect(line).to_have_attribute("data-saved", "", timeout=TIMEOUT)
    expect(line).to_contain_text("lone_traveller.toml existe déjà")
    page.click("#lang-en")
    page.wait_for_url("**lang=en**")
    wait_done(page)
    expect(line).to_have_text(
        "save as: lone_traveller.toml exists; expected a new name (nothing was written)"
    )
    expect(page.locator(SHOCK_PAIN)).to_have_value("9")
    close_as_a_person_does(page)  # the cells are those saved: nothing asked
    assert asked == []


def test_a_file_read_again_keeps_the_edits_of_the_mental_rows(served: Running, page: Any) -> None:
    """The file changed on disk and was read again, "your edits kept": the mental rows were
    drawn no more, and their edits were gone."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    changing = folder / "shaken.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    changing.write_text(text, encoding="utf-8")
    page.goto(served.url + "?name=shaken.toml")
    wait_done(page)
    shocked(page)
    wait_done(page)
    changing.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
    page.fill(GRAVE, "2h")  # the answer asked now finds the file changed
    expect(page.locator("#general-problems")).to_contain_text(
        "The file changed on disk", timeout=TIMEOUT
    )
    expect(page.locator("#cell-patient-rs_it")).to_have_value("5", timeout=TIMEOUT)
    expect(page.locator(SHOCK_PAIN)).to_have_value("9")
    assert page.input_value("#cell-injuries-0-level") == "shock"
    expect(page.locator("#command")).to_contain_text("rules.table.shock.pain=9", timeout=TIMEOUT)


def test_save_as_pressed_twice_at_once_says_the_file_was_saved(served: Running, page: Any) -> None:
    """A double click on Save as (or Enter pressed twice in the name box) wrote the file,
    then said "exists; nothing was written" over the line of the save: the second press had
    found the file the first one wrote."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(GRAVE, "2h")
    line = page.locator("#saved")
    for name, press in (
        ("lone_twice", lambda: page.dblclick("#save")),
        ("lone_enter", lambda: [page.press("#save-name", "Enter") for _ in range(2)]),
    ):
        page.fill("#save-name", name)
        press()
        expect(line).to_have_attribute("data-saved", f"{name}.toml", timeout=TIMEOUT)
        page.wait_for_function("!document.getElementById('save').hasAttribute('aria-busy')")
        assert line.inner_text().startswith("Saved "), line.inner_text()
        assert (folder / f"{name}.toml").exists()


def test_editing_the_last_of_many_injuries_keeps_the_answer_in_sight(
    served: Running, page: Any
) -> None:
    """A scenario with two dozen injuries: editing the last one, the designer scrolled down
    and the answer to the edit was out of sight, at the top of the page."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8").split("[[injuries]]")[0]
    text += "".join(f'\n[[injuries]]\nat = "{i}h"\nlevel = "light"\n' for i in range(24))
    (folder / "many_wounds.toml").write_text(text, encoding="utf-8")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(served.url + "?name=many_wounds.toml")
    wait_done(page)
    last = "#cell-injuries-23-level"
    page.locator(last).scroll_into_view_if_needed()  # down to the last injury
    page.select_option(last, "grave")
    expect(page.locator("#command")).to_contain_text("injuries.23.level=grave", timeout=TIMEOUT)
    wait_done(page)
    assert page.evaluate("window.scrollY") > 900  # the cell is far below the page's top
    cell = page.locator(last).bounding_box()
    dead = page.locator("#row-p_dead td.value").bounding_box()
    assert cell is not None and dead is not None
    assert 0 <= cell["y"] < 900 and 0 <= dead["y"] < 900, (cell, dead)  # both in sight
    page.click("#tell")  # the rest of the answer is still reached (it scrolls on its own)
    expect(page.locator("#trace")).not_to_have_text("", timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "trials: got '2000000'; expected a whole number from 1 to 1,000,000"),
        ("fr", "essais : reçu '2000000' ; attendu un nombre entier de 1 à 1 000 000"),
    ],
)
def test_too_many_trials_is_said_beside_the_trials_box(
    served: Running, page: Any, lang: str, said: str
) -> None:
    """Two million trials typed in the header: the refusal was said above the cells, in the
    other column, and the trials box was not marked; the file's notice above was wiped."""
    from playwright.sync_api import expect

    page.goto(served.url + f"?name=lone_traveller.toml&lang={lang}")
    wait_done(page)
    page.fill("#trials", "2000000")
    page.press("#trials", "Enter")
    expect(page.locator("#run-problems")).to_have_text(said, timeout=TIMEOUT)
    expect(page.locator("#trials")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#trials")).to_have_attribute("aria-describedby", "run-problems")
    expect(page.locator("#general-problems")).to_have_text("")
    expect(page.locator("#seed")).not_to_have_attribute("aria-invalid", "true")
    page.fill("#trials", "2000")
    page.press("#trials", "Enter")
    wait_done(page)
    expect(page.locator("#run-problems")).to_have_text("")
    expect(page.locator("#trials")).not_to_have_attribute("aria-invalid", "true")


def test_save_as_refused_for_a_cell_in_red_takes_the_keyboard_to_that_cell(
    served: Running, page: Any
) -> None:
    """Enter in the name box, refused: "fix what is said in red first", and the keyboard
    stayed in the name box, the cell in red far up the other column."""
    from playwright.sync_api import expect

    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(CP_RS, "six")
    page.wait_for_selector("#answer[data-state=problems]", timeout=TIMEOUT)
    page.focus("#save-name")
    page.keyboard.type("lone_red")
    page.keyboard.press("Enter")
    expect(page.locator("#saved")).to_have_text(
        "Nothing was written: fix what is said in red first.", timeout=TIMEOUT
    )
    assert focused(page) == CP_RS[1:]
    page.keyboard.press("Control+A")
    page.keyboard.type("7")  # typed in the cell at once
    wait_done(page)
    page.focus("#save-name")
    page.keyboard.press("Enter")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "lone_red.toml", timeout=TIMEOUT)
    assert focused(page) == "save-name"  # saved: the keyboard stays where it was


@pytest.mark.parametrize(("lang", "number"), [("en", "#"), ("fr", "n°")])
def test_each_injury_row_shows_its_number_as_the_problems_count_it(
    served: Running, page: Any, lang: str, number: str
) -> None:
    """A problem of "injury 2" could not be matched to its row: the rows showed no number."""
    from playwright.sync_api import expect

    page.goto(served.url + f"?name=geraldine.toml&lang={lang}")
    wait_done(page)
    rows = page.locator("#group-injuries table.rows tr")
    expect(rows).to_have_count(3)  # the head and the two injuries
    assert rows.nth(0).locator("th").first.inner_text() == number
    assert rows.nth(1).locator("th[scope=row]").inner_text() == "1"
    assert rows.nth(2).locator("th[scope=row]").inner_text() == "2"
    page.fill("#cell-injuries-1-count", "0")  # the second injury: its own row says 2
    second = rows.filter(has=page.locator("th[scope=row]", has_text="2"))
    bound = "1000" if lang == "en" else "1\u202f000"  # its range, as the language writes it
    expect(second.locator(".problem").filter(has_text=bound)).to_have_count(1, timeout=TIMEOUT)


def test_the_language_link_tells_the_trace_shown_again_in_the_other_language(
    served: Running, page: Any
) -> None:
    """A trace shown was gone on the page in the other language: the trial box said 3, the
    trace box was empty, as if nothing had been told."""
    from playwright.sync_api import expect

    trace = page.locator("#trace")
    stale = page.locator("#trace-stale")
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(GRAVE, "2h")
    page.fill("#trial", "3")
    page.click("#tell")
    expect(trace).to_contain_text("unstable_period=2h) (seed 0, trial 3)", timeout=TIMEOUT)
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    expect(trace).to_contain_text("unstable_period=2h) (graine 0, essai 3)", timeout=TIMEOUT)
    expect(stale).to_be_hidden()  # told for these cells
    wait_done(page)

    # told for other cells since: the same campaign, said to be theirs, in English
    page.fill(CP_RS, "7")
    expect(stale).to_be_visible()
    page.click("#lang-en")
    page.wait_for_url("**lang=en**")
    expect(trace).to_contain_text("unstable_period=2h) (seed 0, trial 3)", timeout=TIMEOUT)
    assert "cp_rs" not in trace.inner_text()
    expect(stale).to_be_visible()
    assert page.input_value(CP_RS) == "7"
    page.get_by_role("button", name="undo this edit: Cp+Rs").click()
    expect(stale).to_be_hidden()  # the cells it was told for again
    wait_done(page)

    # a trace refused (a cell in red): the refusal, said in French
    page.fill(CP_RS, "six")
    page.click("#tell")
    expect(trace).to_contain_text("patient.cp_rs: got 'six'", timeout=TIMEOUT)
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    expect(trace).to_contain_text("patient.cp_rs : reçu 'six'", timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("lang", "other", "gone", "not_carried", "not_kept", "cp_rs", "count", "rs_it"),
    [
        ("en", "fr", "aucun fichier de ce nom",
         "Vos modifications de leaving_en.toml n'ont pas été reprises",
         "Ces modifications n'ont pas été gardées", "patient.cp_rs : 7",
         "blessure n° 2 (injuries[1].count) : 3", "patient.rs_it : 5"),
        ("fr", "en", "no such file in the folder",
         "Your edits of leaving_fr.toml were not carried over",
         "These edits were not kept", "patient.cp_rs: 7",
         "injury row 2 (injuries[1].count): 3", "patient.rs_it: 5"),
    ],
)  # fmt: skip
def test_edits_the_language_link_cannot_carry_are_said_not_lost_silently(
    served: Running,
    page: Any,
    lang: str,
    other: str,
    gone: str,
    not_carried: str,
    not_kept: str,
    cp_rs: str,
    count: str,
    rs_it: str,
) -> None:
    """The language link carried the edits of a file removed since (the page kept showing
    it): the other page opened the first scenario and the edits were gone, unsaid; an edit
    of an injury the file no longer has went as silently. Each was then said as a --set line
    (``injuries.1.count=3``, command-line text on a page that numbers that row 2): now by
    its cell as the page names it away from it, as its problems do."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    text = (folder / "geraldine.toml").read_text(encoding="utf-8")
    leaving = folder / f"leaving_{lang}.toml"
    leaving.write_text(text, encoding="utf-8")
    problems = page.locator("#general-problems")
    page.goto(served.url + f"?name=leaving_{lang}.toml&lang={lang}")
    wait_done(page)
    page.fill("#cell-patient-cp_rs", "7")
    page.fill("#cell-injuries-1-count", "3")
    wait_done(page)
    page.click("#tell")
    told = {"en": "(seed 0, trial 0)", "fr": "(graine 0, essai 0)"}[lang]
    expect(page.locator("#trace")).to_contain_text(told, timeout=TIMEOUT)
    leaving.unlink()  # removed since the page read it: the page still shows its edits
    page.click(f"#lang-{other}")
    page.wait_for_url(f"**lang={other}**")
    wait_done(page)
    expect(problems).to_contain_text(gone)
    expect(problems).to_contain_text(not_carried)
    expect(problems).to_contain_text(cp_rs)
    expect(problems).to_contain_text(count)
    expect(page.locator("#trace")).to_contain_text(told)  # as it was told, not of these cells
    expect(page.locator("#trace-stale")).to_be_visible()

    # the file as it is now has one injury: the edit of the second one is said, not kept
    leaving.write_text(text.split("[[injuries]]\nat = \"0s\"\nlevel = \"grave\"")[0] + text.split(
        "level = \"grave\"\n")[1], encoding="utf-8")  # fmt: skip
    page.goto(served.url + f"?name=leaving_{lang}.toml&lang={lang}")
    wait_done(page)
    assert page.locator("#cell-injuries-1-count").count() == 0
    page.evaluate(
        """(name) => sessionStorage.setItem("kept", JSON.stringify({ name, trials: "10000",
        seed: "0", edits: { "patient.cp_rs": "7", "injuries.1.count": "3" } }))""",
        f"leaving_{lang}.toml",
    )  # as the page in the other language carried them, when the file had two injuries
    page.goto(served.url + f"?lang={other}&name=leaving_{lang}.toml")  # as its link leads
    wait_done(page)
    expect(page.locator("#cell-patient-cp_rs")).to_have_value("7")
    expect(problems).to_contain_text(not_kept)
    expect(problems).to_contain_text(count)

    # the file broken on disk since (listed, but not read): no page can hold the edits
    leaving.write_text(text.replace("cp_rs = 8", 'cp_rs = "eight"'), encoding="utf-8")
    page.evaluate(
        """(name) => sessionStorage.setItem("kept", JSON.stringify({ name, trials: "10000",
        seed: "0", edits: { "patient.rs_it": "5" } }))""",
        f"leaving_{lang}.toml",
    )
    page.goto(served.url + f"?lang={other}&name=leaving_{lang}.toml")
    expect(problems).to_contain_text("eight", timeout=TIMEOUT)
    expect(problems).to_contain_text(not_carried)
    expect(problems).to_contain_text(rs_it)
    leaving.unlink()


def test_a_trace_of_a_file_changed_since_is_carried_as_it_was_told(
    served: Running, page: Any
) -> None:
    """The file changed on disk before the language link: its campaign cannot be told again
    for the file it was told for, so the other page shows it as told, said to be others'."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    told = folder / "told.toml"
    text = (folder / "lone_traveller.toml").read_text(encoding="utf-8")
    told.write_text(text, encoding="utf-8")
    trace = page.locator("#trace")
    page.goto(served.url + "?name=told.toml")
    wait_done(page)
    page.fill("#trial", "3")
    page.click("#tell")
    expect(trace).to_contain_text("(seed 0, trial 3)", timeout=TIMEOUT)
    told.write_text(text.replace("rs_it = 6", "rs_it = 5"), encoding="utf-8")
    page.click("#lang-fr")
    page.wait_for_url("**lang=fr**")
    wait_done(page)
    expect(page.locator("#cell-patient-rs_it")).to_have_value("5")
    expect(trace).to_contain_text("(seed 0, trial 3)", timeout=TIMEOUT)  # as it was told
    expect(page.locator("#trace-stale")).to_be_visible()
    told.unlink()


def test_another_scenario_picked_while_undo_all_reads_the_file_is_the_one_shown(
    served: Running, page: Any
) -> None:
    """Undo all edits read the file again; Géraldine, picked at once, came first, then the
    file of Undo all: the page showed lone_traveller under a list naming Géraldine (on a
    loaded machine, the wait for Géraldine after Undo all timed out)."""
    from playwright.sync_api import expect

    held: list[Any] = []
    page.add_init_script(READS)
    page.goto(served.url + "?name=lone_traveller.toml")
    wait_done(page)
    page.fill(CP_RS, "7")
    page.route(
        lambda url: "/api/scenario?name=lone_traveller.toml" in url,
        lambda route: held.append(route),
    )
    page.on("dialog", lambda dialog: dialog.accept())  # yes, drop the edit
    with page.expect_request(lambda r: "name=lone_traveller.toml" in r.url, timeout=TIMEOUT):
        page.click("#undo")
    page.select_option("#scenario", "geraldine.toml")
    expect(page.locator("#title")).to_contain_text("Géraldine", timeout=TIMEOUT)
    held[0].continue_()  # the file of Undo all comes last
    wait_read(page, "/api/scenario?name=lone_traveller.toml", 2)
    expect(page.locator("#title")).to_contain_text("Géraldine")
    assert page.input_value("#scenario") == "geraldine.toml"
    wait_done(page)
