"""The folder as the workbench lists it: what it offers, and why it offers no other file.

Over HTTP (starlette's TestClient), then in a real browser. What a designer met: a link of
the folder that leads out of it, or a loop of links, was refused in English on the French
page (``scenario: 'x.toml' leads out of /tmp/...; refused``); a file whose name is no UTF-8
text made the whole page an Internal Server Error; a file the system would not let the
server read said why in English ("Permission denied") on the French page; a file added to
the folder or removed from it showed in the list only once the page was reloaded; a link to
a file moved away, a loop of links, a folder or a pipe named ``*.toml`` were left out of the
list without a word.
"""

from __future__ import annotations

import contextlib
import errno
import html
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from simulator.scenario import reading
from simulator.web.app import Bench, create_app
from simulator.web.folder import Folder
from simulator.web.server import Running, start
from tests.support import REPO
from tests.support.browser import READS, TIMEOUT, wait_done, wait_read

PORT = 8765
OWN = f"http://127.0.0.1:{PORT}"
JSON = {"Origin": OWN, "Content-Type": "application/json"}
LONE = "lone_traveller.toml"
GRAVE = "#cell-rules-table-grave-unstable_period"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / LONE)
    return tmp_path


def client_for(folder: Path) -> TestClient:
    return TestClient(create_app(Bench(Folder.of(folder), port=PORT)), base_url=OWN)  # type: ignore[arg-type]


def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scenario file out of the served folder."""
    path = tmp_path_factory.mktemp("outside") / "secret.toml"
    shutil.copy(REPO / "scenarios" / LONE, path)
    return path


def test_a_link_out_of_the_folder_is_refused_in_the_pages_language(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    secret = outside(tmp_path_factory)
    (folder / "link.toml").symlink_to(secret)
    client = client_for(folder)
    for lang, said in (
        ("en", f"link.toml: a link to {secret}, out of the folder; expected a scenario file "
               "of the folder itself (copy the file into it)"),
        ("fr", f"link.toml : un lien vers {secret}, hors du dossier ; attendu un fichier de "
               "scénario du dossier lui-même (copiez-y le fichier)"),
    ):  # fmt: skip
        answer = client.get("/api/scenario", params={"name": "link.toml", "lang": lang})
        assert answer.status_code == 403
        assert answer.json()["error"] == said
        asked = json.dumps({"name": "link.toml", "edits": {}, "lang": lang})
        refused = client.post("/api/answer", content=asked, headers=JSON)
        assert (refused.status_code, refused.text) == (403, said)
        page = client.get("/", params={"lang": lang}).text  # said, not offered
        assert 'value="link.toml"' not in page and said in html.unescape(page)


def test_a_loop_of_links_is_refused_in_the_pages_language(folder: Path) -> None:
    client = client_for(folder)
    (folder / "loop.toml").symlink_to(folder / "loop.toml")  # after the page listed the folder
    answer = client.get("/api/scenario", params={"name": "loop.toml", "lang": "fr"})
    assert answer.status_code == 403
    assert answer.json()["error"] == (
        "loop.toml : ne peut pas être ouvert (une boucle de liens) ; attendu un fichier de "
        "scénario du dossier"
    )


def test_a_file_named_in_another_encoding_is_said_and_the_page_opens(folder: Path) -> None:
    """Its name, kept by Python as surrogates, made the page's template fail: a 500."""
    odd = folder / os.fsdecode(b"bless\xe9.toml")  # Latin-1, as an old archive unpacks it
    try:
        shutil.copy(folder / LONE, odd)
    except (UnicodeEncodeError, OSError):  # pragma: no cover - a file system of UTF-8 only
        pytest.skip("this file system takes no name that is no UTF-8")
    client = client_for(folder)
    page = client.get("/", params={"lang": "fr"})
    assert page.status_code == 200
    assert f'value="{LONE}"' in page.text
    said = (
        "bless\\xe9.toml : son nom n'est pas du texte en UTF-8 ; attendu un nom de fichier en "
        "UTF-8 (renommez le fichier pour l'ouvrir ici)"
    )
    assert said in html.unescape(page.text)
    listed = client.get("/api/names", params={"lang": "fr"}).json()
    assert listed == {"names": [LONE], "refused": [said]}


def odd_entries(folder: Path) -> None:
    """A link to a file gone, a loop of links, a folder and a pipe, each named ``*.toml``."""
    (folder / "moved.toml").symlink_to(folder / "elsewhere" / "moved.toml")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    (folder / "old.toml").mkdir()
    os.mkfifo(folder / "pipe.toml")


def test_a_link_to_nothing_a_loop_a_folder_and_a_pipe_are_said_not_left_out(
    folder: Path,
) -> None:
    """A designer saw ``moved.toml`` in the file manager and not in the page's list, with no
    word why (a link to a file moved away, a loop of links, a folder, a pipe)."""
    odd_entries(folder)
    client = client_for(folder)
    moved = folder / "elsewhere" / "moved.toml"
    for lang, said in (
        ("en", [
            "loop.toml: cannot be opened (a loop of links); expected a scenario file of the "
            "folder",
            f"moved.toml: a link to {moved}, where there is no file; expected a scenario file "
            "of the folder (put the file back, or remove the link)",
            "old.toml: a folder, not a file; expected a scenario file of the folder (to open "
            "the scenarios it holds, serve that folder)",
            "pipe.toml: not a plain file (a pipe, a socket or a device); expected a scenario "
            "file of the folder",
        ]),
        ("fr", [
            "loop.toml : ne peut pas être ouvert (une boucle de liens) ; attendu un fichier de "
            "scénario du dossier",
            f"moved.toml : un lien vers {moved}, où il n'y a aucun fichier ; attendu un "
            "fichier de scénario du dossier (remettez le fichier en place, ou supprimez le "
            "lien)",
            "old.toml : un dossier, pas un fichier ; attendu un fichier de scénario du dossier "
            "(pour ouvrir les scénarios qu'il contient, servez ce dossier)",
            "pipe.toml : pas un fichier ordinaire (un tube, une socket ou un périphérique) ; "
            "attendu un fichier de scénario du dossier",
        ]),
    ):  # fmt: skip
        listed = client.get("/api/names", params={"lang": lang}).json()
        assert listed == {"names": [LONE], "refused": said}
        page = html.unescape(client.get("/", params={"lang": lang}).text)
        assert all(line in page for line in said)
        for name, line in zip(
            ("loop.toml", "moved.toml", "old.toml", "pipe.toml"), said, strict=True
        ):
            # asked by name (an address kept from before): the same words, not "deleted"
            answer = client.get("/api/scenario", params={"name": name, "lang": lang})
            assert (answer.status_code, answer.json()["error"]) == (403, line)


def test_the_list_follows_the_folder(folder: Path) -> None:
    """The page's list is read from the folder at each look: a file added or removed while
    the server runs is offered or not, without a restart."""
    client = client_for(folder)
    assert client.get("/api/names").json()["names"] == [LONE]
    shutil.copy(folder / LONE, folder / "added.toml")
    assert client.get("/api/names").json()["names"] == ["added.toml", LONE]
    assert 'value="added.toml"' in client.get("/").text
    (folder / LONE).unlink()
    assert client.get("/api/names").json()["names"] == ["added.toml"]
    assert f'value="{LONE}"' not in client.get("/").text


def test_a_file_the_system_will_not_let_be_read_says_why_in_french(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Said "(Permission denied)" in English inside the French sentence (as root, no file is
    unreadable: the refusal is the system's, given here)."""

    def refused(path: object, too_big: str) -> tuple[str, str]:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(reading, "bounded_lines", refused)
    answer = client_for(folder).get("/api/scenario", params={"name": LONE, "lang": "fr"})
    (problem,) = answer.json()["problems"]
    # the file itself: the page names it above the line, not twice in it
    assert problem["message"] == "attendu un fichier de scénario lisible (permission refusée)"


# --- in a real browser ----------------------------------------------------------------------


def test_the_french_page_says_its_refusals_in_french(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, page: Any
) -> None:
    """A file turned into a link out of the folder, chosen in the list, was refused in
    English on the French page; a file named in another encoding made it a 500."""
    from playwright.sync_api import expect

    secret = outside(tmp_path_factory)
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / LONE)
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / "turned.toml")
    (tmp_path / "link.toml").symlink_to(secret)
    with contextlib.suppress(UnicodeEncodeError, OSError):  # a file system of UTF-8 names only
        shutil.copy(tmp_path / LONE, tmp_path / os.fsdecode(b"bless\xe9.toml"))
    odd_entries(tmp_path)
    running = start(tmp_path, port=0, warm_up=False, workers=0)
    try:
        page.goto(running.url + f"?name={LONE}&lang=fr")
        wait_done(page)
        listed = page.locator("#folder-problems")
        expect(listed).to_contain_text(f"link.toml : un lien vers {secret}, hors du dossier")
        if any("bless" in p.name for p in tmp_path.iterdir()):
            expect(listed).to_contain_text("bless\\xe9.toml : son nom n'est pas du texte en UTF-8")
        expect(listed).to_contain_text("moved.toml : un lien vers ")
        expect(listed).to_contain_text("old.toml : un dossier, pas un fichier")
        expect(listed).to_contain_text("loop.toml : ne peut pas être ouvert (une boucle de liens)")
        expect(listed).to_contain_text("pipe.toml : pas un fichier ordinaire")
        (tmp_path / "turned.toml").unlink()  # listed as a file, now a link out of the folder
        (tmp_path / "turned.toml").symlink_to(secret)
        page.select_option("#scenario", "turned.toml")
        expect(page.locator("#general-problems")).to_have_text(
            f"turned.toml : un lien vers {secret}, hors du dossier ; attendu un fichier de "
            "scénario du dossier lui-même (copiez-y le fichier)",
            timeout=TIMEOUT,
        )
        assert page.input_value("#scenario") == LONE  # the page still shows that one
    finally:
        running.stop()


def test_the_list_follows_the_folder_while_the_page_is_open(served: Running, page: Any) -> None:
    """A file added to the folder was offered only once the server restarted, as far as the
    designer could tell (the page had to be reloaded, asking about the edits)."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    page.fill(GRAVE, "2h")
    fresh = page.locator("#scenario option[value='fresh.toml']")
    shutil.copy(folder / LONE, folder / "fresh.toml")
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # back from the file manager
    expect(fresh).to_have_count(1, timeout=TIMEOUT)
    (folder / "fresh.toml").unlink()
    page.hover("#scenario")  # reaching for the list reads the folder again
    expect(fresh).to_have_count(0, timeout=TIMEOUT)
    assert page.input_value("#scenario") == LONE and page.input_value(GRAVE) == "2h"


def test_a_reload_after_the_file_shown_was_removed_opens_the_first_and_says_why(
    served: Running, page: Any
) -> None:
    """Reloaded after its file was removed, the page opened nothing: an empty list entry
    and no cells."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    shutil.copy(folder / LONE, folder / "brief.toml")
    page.goto(served.url + "?name=brief.toml")
    wait_done(page)
    (folder / "brief.toml").unlink()
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    brief = page.locator("#scenario option[value='brief.toml']")
    expect(brief).to_have_count(1)  # still shown, so still listed: its edits are here
    page.reload()
    wait_done(page)
    first = served.bench.folder.first()
    assert first is not None and page.input_value("#scenario") == first
    expect(brief).to_have_count(0)
    expect(page.locator("#general-problems")).to_contain_text(
        "brief.toml: no such file in the folder", timeout=TIMEOUT
    )
    assert page.inner_text("#title")  # the first one's cells, not an empty page


def test_a_scenario_picked_while_a_reload_reads_its_file_gone_is_the_one_shown(
    served: Running, page: Any
) -> None:
    """Reloaded on a file removed since, the page asked for it to say why, then opens the
    first; a scenario picked before that answer came was opened, then the first one over it,
    under a list naming the first."""
    first = served.bench.folder.first()
    picked = "geraldine.toml" if first == LONE else LONE
    held: list[Any] = []
    page.add_init_script(READS)
    page.route(lambda url: "/api/scenario?name=vanished.toml" in url, lambda r: held.append(r))
    with page.expect_request(lambda r: "name=vanished.toml" in r.url, timeout=TIMEOUT):
        page.goto(served.url + "?name=vanished.toml")  # asked to say why, held till let go
    page.select_option("#scenario", picked)
    wait_read(page, f"/api/scenario?name={picked}")
    wait_done(page)
    shown = page.inner_text("#title")
    held[0].continue_()  # the file gone answers once the one picked is shown
    wait_read(page, "name=vanished.toml")  # and what the page does then is done
    assert page.input_value("#scenario") == picked  # never the first, over the one picked
    assert page.evaluate("pending") is None  # nothing else being opened
    assert page.evaluate("scenario.name") == picked
    assert page.inner_text("#title") == shown
    assert page.inner_text("#general-problems") == ""  # the pick said nothing of the file gone


# --- a file that is empty, or no UTF-8 ----------------------------------------------------

LATIN = 'name = "Fi\xe8vre"\nhorizon = "1d"\n'.encode("latin-1")
"""A scenario saved in Latin-1, as an old editor saves it: its è is the byte 0xe8."""

BROKEN = {
    "empty.toml": b"",
    "comments.toml": b"# to be written\n\n",
    "latin.toml": LATIN,
}
"""Files the workbench cannot show, and what the page says of each (en, fr)."""

SAID = {
    ("empty.toml", "en"): "expected a scenario, not an empty file (it holds no key, only blank "
    "lines or comments): name, horizon and [patient] at least",
    ("empty.toml", "fr"): "attendu un scénario, pas un fichier vide (il ne contient aucune clé, "
    "seulement des lignes vides ou des commentaires) : name, horizon et [patient] au moins",
    ("latin.toml", "en"): "expected a UTF-8 text file (its byte 0xe8 at line 1, column 11 is no "
    "UTF-8: the file was saved in another encoding, such as Latin-1 or Windows-1252; save it "
    "as UTF-8)",
    ("latin.toml", "fr"): "attendu un fichier texte en UTF-8 (son octet 0xe8, ligne 1, colonne "
    "11, n'est pas de l'UTF-8 : le fichier a été enregistré dans un autre codage, comme "
    "Latin-1 ou Windows-1252 ; enregistrez-le en UTF-8)",
}
SAID[("comments.toml", "en")] = SAID[("empty.toml", "en")]
SAID[("comments.toml", "fr")] = SAID[("empty.toml", "fr")]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_an_empty_or_latin1_file_is_one_clear_problem_in_the_pages_language(
    folder: Path, name: str, lang: str
) -> None:
    """An empty file was four lines of keys missing (name, horizon, patient.cp_rs,
    patient.rs_it), never that the file was empty; a Latin-1 file was ``(file): got
    'latin.toml'; expected a UTF-8 text file``, the file named twice and its foreign byte
    nowhere. Each is one line now, saying what the file is and where its byte is."""
    (folder / name).write_bytes(BROKEN[name])
    client = client_for(folder)
    assert name in client.get("/api/names").json()["names"]  # listed, to be opened and fixed
    answer = client.get("/api/scenario", params={"name": name, "lang": lang})
    assert answer.status_code == 200
    assert answer.json()["problems"] == [{"key": "", "message": SAID[(name, lang)]}]


@pytest.mark.parametrize("name", ["empty.toml", "latin.toml"])
def test_serve_on_an_empty_or_latin1_file_opens_a_page_that_says_what_is_wrong(
    tmp_path: Path, page: Any, name: str
) -> None:
    """``serve latin.toml``: the page names the file and its problem in one line, above the
    cells it cannot show, in English and in French."""
    from playwright.sync_api import expect

    (tmp_path / name).write_bytes(BROKEN[name])
    running = start(tmp_path / name, port=0, warm_up=False, workers=0)
    try:
        page.goto(running.url)
        expect(page.locator("#general-problems")).to_have_text(
            f"{name}: {SAID[(name, 'en')]}", timeout=TIMEOUT
        )
        page.goto(running.url + "?lang=fr")
        expect(page.locator("#general-problems")).to_have_text(
            f"{name} : {SAID[(name, 'fr')]}", timeout=TIMEOUT
        )
    finally:
        running.stop()


def test_the_list_read_again_while_another_scenario_opens_names_the_one_opened(
    served: Running, page: Any
) -> None:
    """Reaching for the list read the folder; its answer came after Géraldine was picked
    (a file added meanwhile): the list was drawn again naming lone_traveller, the page then
    opened Géraldine, and the list named the scenario left."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    held: dict[str, Any] = {}
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    page.route("**/api/names*", lambda route: held.setdefault("names", route))
    page.route(
        lambda url: "/api/scenario?name=geraldine.toml" in url,
        lambda route: held.setdefault("geraldine", route),
    )
    shutil.copy(folder / LONE, folder / "late.toml")  # saved meanwhile: the list lacks it
    with page.expect_request("**/api/names*", timeout=TIMEOUT):
        page.focus("#scenario")  # reaching for the list reads the folder
    with page.expect_request(lambda r: "name=geraldine.toml" in r.url, timeout=TIMEOUT):
        page.select_option("#scenario", "geraldine.toml")
    held["names"].continue_()  # the folder's answer lands while Géraldine is read
    expect(page.locator("#scenario option[value='late.toml']")).to_have_count(1, timeout=TIMEOUT)
    assert page.input_value("#scenario") == "geraldine.toml"  # the one being opened
    held["geraldine"].continue_()
    expect(page.locator("#title")).to_contain_text("Géraldine", timeout=TIMEOUT)
    assert page.input_value("#scenario") == "geraldine.toml"
    wait_done(page)
    (folder / "late.toml").unlink()


def test_a_scenario_picked_then_removed_while_it_opens_leaves_the_list_naming_the_one_shown(
    served: Running, page: Any
) -> None:
    """The list read again while a file picked was being opened, that file removed since:
    the list names the file picked until its reading says it is gone, then the one shown,
    and no longer offers the file gone."""
    from playwright.sync_api import expect

    folder = served.bench.folder.root
    held: dict[str, Any] = {}
    shutil.copy(folder / LONE, folder / "fleeting.toml")
    page.add_init_script(READS)
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    page.route(
        lambda url: "/api/scenario?name=fleeting.toml" in url,
        lambda route: held.setdefault("fleeting", route),
    )
    with page.expect_request(lambda r: "name=fleeting.toml" in r.url, timeout=TIMEOUT):
        page.select_option("#scenario", "fleeting.toml")
    (folder / "fleeting.toml").unlink()
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # back from the files
    wait_read(page, "/api/names")  # the folder's answer, without fleeting.toml
    assert page.input_value("#scenario") == "fleeting.toml"  # still being opened
    held["fleeting"].continue_()
    expect(page.locator("#general-problems")).to_contain_text("fleeting.toml", timeout=TIMEOUT)
    expect(page.locator("#scenario option[value='fleeting.toml']")).to_have_count(
        0, timeout=TIMEOUT
    )
    assert page.input_value("#scenario") == LONE
    expect(page.locator("#title")).not_to_contain_text("Géraldine")
