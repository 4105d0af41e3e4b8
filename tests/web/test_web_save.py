"""What the workbench saves is what was typed: no key of its own, a name that is a name, whole.

Issue 34's round found that a cell's text could write TOML keys of its own (a newline in the
name ended the save comment), that save-as took names with control characters, and that a
kill or a full disk left a file half-written under the new name. Each class is reproduced
here, through the server's own routes, with real files (and a real kill, a real size limit).
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from simulator.scenario.checks import ONE_LINE_BREAKERS
from simulator.scenario.reading import load_scenario, read_scenario_mapping
from simulator.scenario.writing import comment_safe, scenario_to_toml, to_toml, toml_string
from simulator.web.folder import Folder, RefusedError, SaveFailedError
from tests.support import REPO
from tests.web.test_web_server import JSON, client_for

TYPED = [
    'evil\ndescription = "injected by the name cell"',
    "a'''\n[[injuries]]\nat = \"1h\"\nlevel = \"grave\"\n'''",
    'a"""\n[rules]\ntie_succeeds = false\n"""',
    '"quoted"',
    "'single'",
    "back\\slash \\n \\u0041 \\",
    "# not a comment",
    "[patient]",
    "[[injuries]]",
    "ctl \x01 \x07 \x08 \x1b \x7f end",
    "cr\rlf\r\nff\x0cvt\x0b tab\tin",
    "line sep \u2028 para \u2029 nel \x85",
    "é ünicode — «guillemets»",
    "key = 1",
    'x\n= "y"\nz',
]
"""Names a designer (or a hostile page) may type: newlines, quotes, ''', \"\"\", \\, #, [ and
control characters."""


def save(client: TestClient, edits: dict[str, str], name: str, lang: str = "en") -> object:
    asked = {"name": "lone_traveller.toml", "edits": edits, "as": name, "lang": lang}
    return client.post("/api/save", content=json.dumps(asked), headers=JSON)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "lone_traveller.toml").write_bytes(
        (REPO / "scenarios" / "lone_traveller.toml").read_bytes()
    )
    return tmp_path


@pytest.fixture
def client(folder: Path) -> TestClient:
    return client_for(folder / "lone_traveller.toml")


def test_a_typed_name_reads_back_as_typed_and_writes_no_key_of_its_own(
    client: TestClient, folder: Path
) -> None:
    original = read_scenario_mapping(folder / "lone_traveller.toml")
    edit = {"rules.table.grave.unstable_period": "2h"}
    for index, typed in enumerate(TYPED):
        response = save(client, {"name": typed, **edit}, f"typed_{index}")
        path = folder / f"typed_{index}.toml"
        control = any((ord(c) < 32 and c not in "\n\t") or 127 <= ord(c) < 160 for c in typed)
        if control or any(c in ONE_LINE_BREAKERS for c in typed.strip()):
            # a control character (a BEL, an escape, a NUL), or a line break in a name (it
            # splits every title), is refused at its cell: no file
            assert response.status_code == 400, (typed, response.text)
            assert response.json()["problems"][0]["key"] == "name" and not path.exists()
            continue
        assert response.status_code == 200, (typed, response.text)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        expected = json.loads(json.dumps(original))  # a deep copy
        expected["name"] = typed.strip()
        expected.pop("name_fr", None)  # renamed: the original's French name is left out
        table = expected.setdefault("rules", {}).setdefault("table", {})
        table.setdefault("grave", {})["unstable_period"] = "2h"
        assert data == expected, typed  # exactly the keys of the file and the cells typed
        assert load_scenario(path).name == typed.strip()
        comments = [line for line in path.read_text(encoding="utf-8").splitlines() if "#" in line]
        # the comment lines: the heading, one line per --set, then the original's own, kept
        own = (folder / "lone_traveller.toml").read_text(encoding="utf-8").splitlines()
        own = [line for line in own if line.startswith("# ")]
        assert [line for line in comments if line.startswith("# ")][3:] == own, typed
        assert sum(line.startswith("# ") for line in comments) == 3 + len(own), typed


def test_a_cell_that_is_not_a_name_cannot_write_keys_either(
    client: TestClient, folder: Path
) -> None:
    for index, typed in enumerate(['4\nname = "injected"', "2h\n[healing]\nlevel = 9", "4 # x"]):
        key = "patient.cp_rs" if index != 1 else "rules.table.grave.unstable_period"
        response = save(client, {key: typed}, f"cell_{index}")
        path = folder / f"cell_{index}.toml"
        if response.status_code == 200:  # read as TOML's value, never as more keys
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            assert data["name"] == read_scenario_mapping(folder / "lone_traveller.toml")["name"]
            assert "healing" not in data
        else:
            assert response.status_code == 400 and not path.exists(), typed
    names = sorted(p.name for p in folder.iterdir())
    assert names[-1] == "lone_traveller.toml" and len(names) <= 2  # only "4 # x" may save


def test_a_lone_surrogate_is_refused_at_its_cell_and_nothing_is_written(
    client: TestClient, folder: Path
) -> None:
    body = '{"name": "lone_traveller.toml", "edits": {"name": "a\\ud800b"}, "as": "sur"}'
    response = client.post("/api/save", content=body, headers=JSON)
    assert response.status_code == 400
    assert response.json()["problems"][0]["key"] == "name"
    assert not (folder / "sur.toml").exists()


@pytest.mark.parametrize("text", [*TYPED, "", "plain"])
def test_toml_string_and_comment_safe_keep_every_text_on_its_own(text: str) -> None:
    assert tomllib.loads(f"x = {toml_string(text)}") == {"x": text}
    document = tomllib.loads(f"# {comment_safe(text)}\nx = 1\n")
    assert document == {"x": 1}
    assert "\n" not in comment_safe(text) and "\r" not in comment_safe(text)


def test_a_key_with_a_final_newline_is_quoted_never_bare() -> None:
    assert tomllib.loads(to_toml({"a\n": 1, "ok": {"b\n": 2}})) == {"a\n": 1, "ok": {"b\n": 2}}


def test_a_scenario_file_comment_with_a_newline_stays_a_comment() -> None:
    sc = load_scenario(REPO / "scenarios" / "lone_traveller.toml")
    text = scenario_to_toml(sc, comment='first\nsecond = "not a key"\rthird')
    data = tomllib.loads(text)
    assert "second" not in data and data["name"] == sc.name


BAD_NAMES = [
    "nl\n",
    "nl\nx",
    "cr\r",
    "tab\tname",
    "a\x00b",
    "sp ace",
    "dot.",
    "nul",
    "CON.toml",
    "com1",
    "Lpt9.toml",
    "../up",
    "a/b",
    ".hidden",
    "_under",
    "\u0301accent",
    "rtl\u202eeman",
    "zero\u200bwidth",
    "",
]


def test_save_as_refuses_a_name_with_control_characters_or_kept_by_a_device(
    client: TestClient, folder: Path
) -> None:
    for name in BAD_NAMES:
        response = save(client, {}, name)
        assert response.status_code == 400, repr(name)
        assert response.json()["error"].startswith("save as: got "), repr(name)
    assert sorted(p.name for p in folder.iterdir()) == ["lone_traveller.toml"]
    french = save(client, {}, "nl\n", lang="fr").json()["error"]
    assert french.startswith("enregistrer sous : reçu ") and "expected" not in french


def test_save_as_takes_a_french_name_and_a_toml_in_capitals(
    client: TestClient, folder: Path
) -> None:
    """A French designer's ``blessé`` (composed or not) is a name; ``ok.TOML`` is ``ok.toml``."""
    assert save(client, {}, "blessé_grave").status_code == 200
    assert (folder / "blessé_grave.toml").is_file()
    decomposed = "blesse\u0301_grave"  # é typed as e and its accent: the same name
    twin = save(client, {"rules.table.grave.unstable_period": "2h"}, decomposed)
    assert twin.status_code == 409 and "exists" in twin.json()["error"]
    assert save(client, {}, decomposed).status_code == 200  # that save, pressed again
    assert [p.name for p in folder.iterdir() if p.name.startswith("bless")] == ["blessé_grave.toml"]
    assert save(client, {}, "BLESSÉ_GRAVE").status_code == 409  # capitals: one file on many disks
    assert save(client, {}, "ok.TOML").status_code == 200
    assert (folder / "ok.toml").is_file() and not (folder / "ok.TOML.toml").exists()
    long = save(client, {}, "a" * 101)
    assert long.status_code == 400
    assert long.json()["error"] == "save as: got a name of 101 characters; expected at most 100"
    assert save(client, {}, "a" * 100).status_code == 200
    (folder / "de\u0301ja\u0300.toml").write_text("", encoding="utf-8")  # its é, è written apart
    same = save(client, {}, "déjà")
    assert same.status_code == 409
    assert (
        same.json()["error"]
        == "save as: déjà.toml exists; expected a new name (nothing was written)"
    )


def test_a_refused_save_as_onto_an_existing_file_speaks_the_page_language(
    client: TestClient, folder: Path
) -> None:
    before = (folder / "lone_traveller.toml").read_bytes()
    english = save(client, {}, "lone_traveller")
    french = save(client, {}, "lone_traveller", lang="fr")
    assert english.status_code == french.status_code == 409
    assert "exists; expected a new name (nothing was written)" in english.json()["error"]
    assert french.json()["error"] == (
        "enregistrer sous : lone_traveller.toml existe déjà ; attendu un nouveau nom "
        "(rien n'a été écrit)"
    )
    assert str(folder) not in french.json()["error"]  # the page is not told the server's path
    assert (folder / "lone_traveller.toml").read_bytes() == before


def test_save_as_pressed_again_once_saved_says_saved_and_writes_nothing_else(
    client: TestClient, folder: Path
) -> None:
    """Enter pressed twice, the second press after the first was answered (a slow page, a
    busy machine): the second found the file the first had just written and said "exists;
    nothing was written" over the line that it was saved. The file this page saved, holding
    what would be written, is that save; another file, or other cells, is still refused."""
    edits = {"rules.table.grave.unstable_period": "2h"}
    first = save(client, edits, "lone_twice")
    assert first.status_code == 200, first.json()
    written = (folder / "lone_twice.toml").read_bytes()
    again = save(client, edits, "lone_twice")
    assert again.status_code == 200, again.json()
    assert again.json()["message"] == first.json()["message"]
    assert (folder / "lone_twice.toml").read_bytes() == written
    other = save(client, {"rules.table.grave.unstable_period": "3h"}, "lone_twice")
    assert other.status_code == 409 and "exists" in other.json()["error"]
    (folder / "theirs.toml").write_bytes(written)  # the same text, not written by this page
    assert save(client, edits, "theirs").status_code == 409
    assert (folder / "lone_twice.toml").read_bytes() == written


def test_a_failed_write_answers_why_and_leaves_nothing_under_the_name(
    client: TestClient, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(28, os.strerror(28))  # ENOSPC, once the text is in the page cache

    monkeypatch.setattr(os, "fsync", full)
    response = save(client, {}, "full")
    assert response.status_code == 507
    assert response.json()["error"].startswith("save as: full.toml could not be written (")
    assert sorted(p.name for p in folder.iterdir()) == ["lone_traveller.toml"]  # no .tmp left


def _in_a_process(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    code = textwrap.dedent(script).format(folder=str(folder))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )


def test_a_file_size_limit_leaves_no_part_of_the_file(folder: Path) -> None:
    done = _in_a_process(
        folder,
        """
        import resource
        from pathlib import Path
        from simulator.web.folder import Folder, SaveFailedError
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
        try:
            Folder(Path({folder!r})).save_as("big", "x = 1\\n" * 60)
        except SaveFailedError as exc:
            print("refused", exc.errno, exc)
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused 27 save as: big.toml could not be written"), done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["lone_traveller.toml"]
    assert SaveFailedError.__mro__[1].__name__ == "UserError"


def test_a_kill_during_save_as_leaves_no_file_under_the_new_name(folder: Path) -> None:
    done = _in_a_process(
        folder,
        """
        import os, signal
        from pathlib import Path
        from simulator.web.folder import Folder
        os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed mid-save
        Folder(Path({folder!r})).save_as("killed", "name = 'killed'\\n" * 40)
        """,
    )
    assert done.returncode == -signal.SIGKILL
    assert not (folder / "killed.toml").exists()
    assert Folder(folder).names() == ["lone_traveller.toml"]  # a leftover .tmp is not served


def test_save_as_never_replaces_a_file_even_one_made_meanwhile(folder: Path) -> None:
    served = Folder(folder)
    (folder / "made.toml").write_text("# the designer's own\n", encoding="utf-8")
    with pytest.raises(RefusedError, match="exists"):
        served.save_as("made", "name = 'x'\n")
    assert (folder / "made.toml").read_text(encoding="utf-8") == "# the designer's own\n"
    (folder / "link.toml").symlink_to(folder / "elsewhere.toml")  # a dangling link: no follow
    with pytest.raises(RefusedError, match="exists"):
        served.save_as("link", "name = 'x'\n")
    assert not (folder / "elsewhere.toml").exists()


def test_a_name_that_differs_only_by_its_capitals_is_refused(
    client: TestClient, folder: Path
) -> None:
    """GERALDINE.toml beside geraldine.toml collide on a case-insensitive disk."""
    before = sorted(p.name for p in folder.iterdir())
    response = save(client, {}, "LONE_TRAVELLER")
    assert response.status_code == 409, response.text
    assert "only by its capitals" in response.json()["error"]
    assert sorted(p.name for p in folder.iterdir()) == before


def test_an_emptied_optional_text_is_left_out_of_the_saved_file(folder: Path) -> None:
    """name_fr, description, description_fr may be taken out; name may not (it is required)."""
    with client_for(folder) as client:
        response = save(client, {"name_fr": " ", "description": ""}, "plain")
        assert response.status_code == 200, response.text  # type: ignore[attr-defined]
        refused = save(client, {"name": ""}, "nameless")
        assert refused.status_code == 400  # type: ignore[attr-defined]
    saved = (folder / "plain.toml").read_text(encoding="utf-8")
    data = tomllib.loads(saved)
    assert "name_fr" not in data and "description" not in data
    assert (
        data["description_fr"]
        == read_scenario_mapping(folder / "lone_traveller.toml")["description_fr"]
    )
    assert "#   without description" in saved and "--set" not in saved
    assert load_scenario(folder / "plain.toml").name_fr == ""
    assert not (folder / "nameless.toml").exists()


def test_a_copy_saved_under_the_same_name_is_told_so_and_its_name_is_not_changed(
    client: TestClient, folder: Path
) -> None:
    edit = {"rules.table.grave.unstable_period": "2h"}
    answer = save(client, edit, "twin").json()  # type: ignore[attr-defined]
    name = read_scenario_mapping(folder / "lone_traveller.toml")["name"]
    assert read_scenario_mapping(folder / "twin.toml")["name"] == name  # said, not changed
    assert f"it keeps the name \u201c{name}\u201d" in answer["message"]
    french = save(client, edit, "jumeau", lang="fr").json()  # type: ignore[attr-defined]
    assert "il garde le nom « " in french["message"]
    head = (folder / "jumeau.toml").read_text(encoding="utf-8").splitlines()[:4]
    assert head[0] == "# Enregistré par harmonies-sim serve à partir de lone_traveller.toml"
    assert head[2:] == ["", "# Question: a traveller takes a grave wound far from anyone. With "
                        "nobody to give first aid,"]  # fmt: skip
    renamed = save(client, {**edit, "name": "Lone traveller, 2 h"}, "renamed").json()  # type: ignore[attr-defined]
    assert renamed["message"] == f"Saved {folder / 'renamed.toml'}"


def test_a_saved_copy_keeps_the_file_s_comments_and_layout(folder: Path) -> None:
    """The designer's comments (their balance notes), dotted keys and inline tables stay."""
    from tests.scenario.test_edited_copy import FORD, UNTOUCHED

    (folder / "ford.toml").write_text(FORD, encoding="utf-8")
    edits = {
        "patient.cp_rs": "9",
        "watch.neglect_probability": "0.25",
        "healing.modifier": "0",
        "rules.table.grave.unstable_period": "30min",
        "name_fr": "",  # emptied: taken out
    }
    asked = {"name": "ford.toml", "edits": edits, "as": "ford_2"}
    with client_for(folder / "ford.toml") as client:
        response = client.post("/api/save", content=json.dumps(asked), headers=JSON)
    assert response.status_code == 200, response.text
    text = (folder / "ford_2.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# Saved by harmonies-sim serve from ford.toml"
    assert "not kept" not in text  # the old note: the comments are kept now
    for line in UNTOUCHED:
        assert line in lines, line
    assert "patient.cp_rs = 9  # a tough scout" in lines
    assert "watch = { neglect_probability = 0.25 }  # the camp sleeps, sometimes" in lines
    assert "modifier = 0  # poor tools" in lines
    assert text.endswith('\n[rules.table.grave]\nunstable_period = "30min"\n')
    assert 'name = "The ford"  # shown in every report' in lines
    assert "#   without name_fr" in lines and "name_fr" not in tomllib.loads(text)
    texts = [f"{k}={v}" for k, v in edits.items() if v]
    again = load_scenario(folder / "ford_2.toml")
    edited = load_scenario(folder / "ford.toml", texts)
    assert dataclasses.replace(again, source="", name_fr="") == dataclasses.replace(
        edited, source="", name_fr=""
    )
    assert again.name_fr == ""


def test_the_copy_is_the_text_the_scenario_was_checked_from_not_a_later_one(
    folder: Path,
) -> None:
    """The file read once: changed on disk after, the copy is still the text read."""
    from simulator.scenario.reading import read_scenario_source
    from simulator.web.app import _saved_text
    from simulator.web.requests import Asked

    path = folder / "lone_traveller.toml"
    read = read_scenario_source(path)
    path.write_text(read.text.replace("# Question", "# Changed meanwhile"), encoding="utf-8")
    asked = Asked("lone_traveller.toml", path, "lone_traveller.toml", [], ["patient.cp_rs=9"], [])
    text = _saved_text(asked, read)
    assert "# Question: a traveller" in text and "Changed meanwhile" not in text
    assert "cp_rs = 9" in text


def test_a_saved_copy_of_a_file_with_crlf_line_ends_ends_its_lines_so(folder: Path) -> None:
    """A scenario written on Windows (CRLF, a byte order mark): its copy ended every line
    with LF, so that every line of it differed from the file's, byte for byte."""
    from tests.scenario.test_edited_copy import FORD

    (folder / "ford.toml").write_bytes(b"\xef\xbb\xbf" + FORD.replace("\n", "\r\n").encode())
    asked = {"name": "ford.toml", "edits": {"healing.modifier": "0"}, "as": "ford_2"}
    with client_for(folder / "ford.toml") as client:
        response = client.post("/api/save", content=json.dumps(asked), headers=JSON)
    assert response.status_code == 200, response.text
    raw = (folder / "ford_2.toml").read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > len(FORD.splitlines())
    lines = raw.decode("utf-8").split("\r\n")
    untouched = [line for line in FORD.splitlines() if not line.startswith("modifier")]
    assert all(line in lines for line in untouched)
    assert "modifier = 0  # poor tools" in lines
    assert tomllib.loads(raw.decode("utf-8"))["healing"] == {"level": -2, "modifier": 0}
