"""The page's numbered rows and what its problems say of them, in a real browser.

What a designer met: the injury and activity rows are numbered from 1, but a problem named
the key as the command line does, from 0 (``injuries.1.count`` beside rows 1, 2): the row
numbered 2 was the one meant, and the designer fixed the first. And a file that lists its
injuries out of time order showed them sorted: the row numbered 1 was the file's second
``[[injuries]]``, and an edit of it went to the first (``--set injuries.0...``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simulator.errors import UserError
from simulator.web.server import Running
from tests.support.browser import TIMEOUT, serving_copies, wait_done

ROWS = """\
name = "rows out of order"
horizon = "3d"

[patient]
cp_rs = 8
rs_it = 8

[[injuries]]
at = "1h"
level = "grave"

[[injuries]]
at = "0s"
level = "light"
count = 2

[[activities]]
at = "2d"
modifier = 1

[[activities]]
at = "1d"
modifier = -1
"""
"""Injuries and activities listed out of time order (the file's order is the page's)."""


@pytest.fixture(scope="module")
def rows_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """The workbench on a folder holding :data:`ROWS` as ``rows.toml``."""
    folder: Path = tmp_path_factory.mktemp("rows")
    (folder / "rows.toml").write_text(ROWS, encoding="utf-8")
    with serving_copies(folder, ()) as running:
        yield running


def row(page: Any, group: str, number: str) -> Any:
    """The row of ``group`` (``injuries``, ``activities``) whose number the page shows."""
    rows = page.locator(f"#group-{group} table.rows tr")
    return rows.filter(has=page.locator("th[scope=row]", has_text=number))


@pytest.mark.parametrize(
    ("lang", "group", "cell", "typed", "said"),
    [
        ("en", "injuries", "count", "0",
         "injury row 2 (injuries[1].count): got 0; expected an integer from 1 to 1000"),
        ("fr", "injuries", "count", "0",
         "blessure n° 2 (injuries[1].count) : reçu 0 ; attendu un entier de 1 à 1\u202f000"),
        ("en", "activities", "modifier", "x",
         "activity row 2 (activities[1].modifier): got 'x'; expected an integer from "
         "-1000 to 1000"),
        ("fr", "activities", "modifier", "x",
         "activité n° 2 (activities[1].modifier) : reçu 'x' ; attendu un entier de "
         "\u22121\u202f000 à 1\u202f000"),
    ],
)  # fmt: skip
def test_a_problem_of_the_second_row_names_the_row_as_the_page_numbers_it(
    rows_served: Running, page: Any, lang: str, group: str, cell: str, typed: str, said: str
) -> None:
    """The trace box said ``injuries.1.count: ...``, the row the page numbers 2 counted 1."""
    from playwright.sync_api import expect

    page.goto(rows_served.url + f"?name=rows.toml&lang={lang}")
    wait_done(page)
    page.fill(f"#cell-{group}-1-{cell}", typed)
    page.wait_for_selector("#answer[data-state=problems]", timeout=TIMEOUT)
    second = row(page, group, "2")
    expect(second.locator(".cell.bad")).to_have_count(1)  # the faulty field, in its row
    expect(second.locator(f".cell.bad[data-key='{group}.1.{cell}']")).to_have_count(1)
    expect(page.locator(f"#group-{group} .cell.bad")).to_have_count(1)
    page.click("#tell")  # the trace box stands away from the row: it names it
    expect(page.locator("#trace")).to_have_text(said, timeout=TIMEOUT)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rows_are_the_files_entries_in_the_files_order(
    rows_served: Running, page: Any, lang: str
) -> None:
    """Rows sorted by time: row 1 showed the file's second injury, and its edits went to the
    first (``--set injuries.0.count`` is the file's first ``[[injuries]]``)."""
    from playwright.sync_api import expect

    page.goto(rows_served.url + f"?name=rows.toml&lang={lang}")
    wait_done(page)
    first = row(page, "injuries", "1")
    expect(first.locator("[data-original][data-key='injuries.0.at']")).to_have_value("1h")
    expect(first.locator("[data-original][data-key='injuries.0.level']")).to_have_value("grave")
    expect(
        row(page, "injuries", "2").locator("[data-original][data-key='injuries.1.count']")
    ).to_have_value("2")
    expect(
        row(page, "activities", "1").locator("[data-original][data-key='activities.0.at']")
    ).to_have_value("2d")
    expect(
        row(page, "activities", "2").locator("[data-original][data-key='activities.1.modifier']")
    ).to_have_value("-1")
    page.fill("#cell-injuries-0-count", "3")  # three grave wounds at 1h, as the file's first
    wait_done(page)
    expect(page.locator("#command")).to_contain_text("--set injuries.0.count=3")
    expect(page.locator("#group-injuries .cell.edited")).to_have_count(1)
    expect(
        first.locator(".cell.edited [data-original][data-key='injuries.0.count']")
    ).to_have_count(1)


@pytest.mark.parametrize(
    ("key", "lang", "said"),
    [
        ("injuries[1].count", "en", "injury row 2 (injuries[1].count)"),
        ("injuries.1.count", "fr", "blessure n° 2 (injuries[1].count)"),  # the cell's key
        ("injuries[0]", "en", "injury row 1 (injuries[0])"),  # the whole entry
        ("activities[2].at", "fr", "activité n° 3 (activities[2].at)"),
        ("first_aid.level", "fr", "first_aid.level"),  # no row: the key as written
        ("line 3", "fr", "ligne 3"),
    ],
)
def test_a_key_of_a_row_is_said_by_the_row_the_page_numbers(key: str, lang: str, said: str) -> None:
    from simulator.web.cells import place_said

    assert place_said(key, lang) == said


def test_the_cells_of_the_rows_are_the_files_entries_by_their_index(tmp_path: Path) -> None:
    """The rows came sorted by time: ``injuries.0`` was the file's second entry, which
    ``--set injuries.0...`` and a problem of ``injuries[0]`` do not name."""
    from simulator.web.cells import cells, file_rows, load, placed

    path = tmp_path / "rows.toml"
    path.write_text(ROWS, encoding="utf-8")
    written = load(path, "rows.toml", ())
    shown = {c.key: c.value for c in cells(written, rows=file_rows(path))}
    assert (shown["injuries.0.at"], shown["injuries.0.level"]) == ("1h", "grave")
    assert (shown["injuries.1.at"], shown["injuries.1.count"]) == ("0s", "2")
    assert (shown["activities.0.at"], shown["activities.0.modifier"]) == ("2d", "1")
    assert (shown["activities.1.at"], shown["activities.1.modifier"]) == ("1d", "-1")
    edited = load(path, "rows.toml", ("injuries.0.count=3",))  # the cell of row 1, edited
    assert [(i.level.label, i.count) for i in edited.injuries] == [("light", 2), ("grave", 3)]
    with pytest.raises(UserError) as caught:
        load(path, "rows.toml", ("injuries.1.count=0",))
    assert "injuries[1].count" in str(caught.value)  # the command line's words, from 0
    known = cells(written, rows=file_rows(path))
    [problem] = placed(caught.value, known, "en")
    assert problem == {
        "key": "injuries.1.count",
        "message": "got 0; expected an integer from 1 to 1000",
        "where": "injury row 2 (injuries[1].count)",
    }


def _solved_on_lone_traveller(tmp_path: Path, asked: dict[str, Any]) -> Any:
    """Solve asked ``asked`` over HTTP, on a copy of lone_traveller in ``tmp_path``."""
    import shutil

    from starlette.testclient import TestClient

    from simulator.web.app import Bench, create_app
    from simulator.web.folder import Folder

    own = "http://127.0.0.1:8765"
    shutil.copy(Path(__file__).parents[2] / "scenarios" / "lone_traveller.toml", tmp_path)
    bench = Bench(Folder.of(tmp_path / "lone_traveller.toml"), port=8765)
    client = TestClient(create_app(bench), base_url=own)
    headers = {"Origin": own, "Content-Type": "application/json"}
    response = client.post("/api/calibrate", content=json.dumps(asked), headers=headers)
    assert response.status_code == 200, response.text
    return response


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "injury row 1 (injuries[0].count)"), ("fr", "blessure n° 1 (injuries[0].count)")],
)
def test_a_solves_free_cell_of_a_row_is_named_by_its_row(
    tmp_path: Path, lang: str, said: str
) -> None:
    """Solve's answer named a free injury cell ``injuries.0.count`` (its table of values, and
    the note of a key stopped at an end of its range) beside the row the page numbers 1."""
    asked = {
        "name": "lone_traveller.toml",
        "lang": lang,
        "free": [{"key": "injuries.0.count", "low": "1", "high": "3"}],
        "targets": [
            {
                "scenario": "lone_traveller.toml",
                "stat": "p_dead_by_1d",
                "value": 0.99,  # above what three grave wounds reach: stopped at 3
                "tolerance": "0.005",
                "set": "first_aid.start=5min\nfirst_aid.interval=5min",
            }
        ],
    }
    response = _solved_on_lone_traveller(tmp_path, asked)
    result = json.loads(response.text.splitlines()[-1])
    assert result["type"] == "result" and result["ends"] == ["injuries.0.count"]
    assert result["free"][0]["key"] == "injuries.0.count"  # the cell it stands beside
    assert result["free"][0]["where"] == said
    assert said in result["notes"][0], result["notes"]
    assert "injuries.0" not in result["notes"][0]


def test_solves_table_of_values_names_a_free_cell_by_its_row(
    rows_served: Running, page: Any
) -> None:
    """The table of Solve's values headed the free cell of row 2 ``injuries.1.count``."""
    from playwright.sync_api import expect

    page.goto(rows_served.url + "?name=rows.toml&lang=fr")
    wait_done(page)
    page.check("#free-injuries-1-count")
    page.fill("#free-low-injuries-1-count", "1")
    page.fill("#free-high-injuries-1-count", "3")
    target = page.locator("#cal-targets .target").first
    target.locator(".target-scenario").select_option("rows.toml")
    target.locator(".target-stat").fill("p_dead")
    target.locator(".target-value").fill("0.5")
    page.click("#cal-solve")
    page.wait_for_selector("#calibrate[data-state=solved]", timeout=TIMEOUT)
    head = page.locator("#cal-values tr[data-key='injuries.1.count'] th")
    expect(head).to_have_text("blessure n° 2 (injuries[1].count)")
    expect(head).to_have_attribute("title", "injuries.1.count")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "injury row 2 (injuries[1].count): got 0; expected an integer from 1 to 1000"),
        ("fr", "blessure n° 2 (injuries[1].count) : reçu 0 ; attendu un entier de 1 à 1\u202f000"),
    ],
)
def test_a_file_broken_on_disk_names_the_row_and_the_command_line_the_key(
    tmp_path: Path, lang: str, said: str
) -> None:
    """A file whose second injury broke on disk was said ``injuries[1].count: ...`` above the
    rows numbered 1, 2; ``validate`` keeps its own words."""
    from starlette.testclient import TestClient

    from simulator.scenario.reading import load_scenario
    from simulator.web.app import Bench, create_app
    from simulator.web.folder import Folder

    path = tmp_path / "rows.toml"
    path.write_text(ROWS.replace("count = 2", "count = 0"), encoding="utf-8")
    own = "http://127.0.0.1:8765"
    client = TestClient(create_app(Bench(Folder.of(path), port=8765)), base_url=own)
    answer = client.get("/api/scenario", params={"name": "rows.toml", "lang": lang}).json()
    assert answer["problems"] == [{"key": "", "message": said}]
    with pytest.raises(UserError, match=r"rows\.toml: injuries\[1\]\.count: got 0; expected"):
        load_scenario(path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "injury row 2 (injuries[1].count): not a cell of this scenario"),
        ("fr", "blessure n° 2 (injuries[1].count) : pas une case de ce scénario"),
    ],
)
def test_an_edit_of_a_row_the_file_lost_names_the_row_as_the_page_numbers_it(
    rows_served: Running, page: Any, lang: str, said: str
) -> None:
    """The file lost its second injury on disk, its time kept (a copy that keeps times, a
    file system that counts in seconds): an edit of the row numbered 2 was said
    ``injuries.1.count: not a cell of this scenario`` beside it, and in the trace box
    after the row's own name."""
    import os

    from playwright.sync_api import expect

    path = rows_served.bench.folder.root / f"shrunk_{lang}.toml"
    path.write_text(ROWS, encoding="utf-8")
    page.goto(rows_served.url + f"?name={path.name}&lang={lang}")
    wait_done(page)
    was = path.stat()
    second = '[[injuries]]\nat = "0s"\nlevel = "light"\ncount = 2\n\n'
    assert second in ROWS
    path.write_text(ROWS.replace(second, ""), encoding="utf-8")  # one injury left
    os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))  # the page is not told
    page.fill("#cell-injuries-1-count", "3")
    page.wait_for_selector("#answer[data-state=problems]", timeout=TIMEOUT)
    expect(row(page, "injuries", "2").locator(".cell.bad")).to_have_count(1)  # in red
    expect(page.locator("#problem-cell-injuries-1-count")).to_have_text(said)
    page.click("#tell")  # the trace box names the row once
    expect(page.locator("#trace")).to_have_text(said, timeout=TIMEOUT)
    path.unlink()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "injury row 6 (injuries[5].count): not a cell of this scenario"),
        ("fr", "blessure n° 6 (injuries[5].count) : pas une case de ce scénario"),
    ],
)
def test_a_free_cell_of_a_row_the_file_lacks_is_named_by_its_row(
    tmp_path: Path, lang: str, said: str
) -> None:
    """Solve said a free cell the file has no row for ``injuries.5.count: not a cell...``."""
    asked = {
        "name": "lone_traveller.toml",
        "lang": lang,
        "free": [{"key": "injuries.5.count", "low": "1", "high": "3"}],
        "targets": [{"scenario": "lone_traveller.toml", "stat": "p_dead", "value": 0.5}],
    }
    response = _solved_on_lone_traveller(tmp_path, asked)
    problems = json.loads(response.text.splitlines()[-1])["problems"]
    assert {"key": "injuries.5.count", "message": said} in problems, problems


SAME_TIMES = """\
name = "equal times spelled apart"
horizon = "3d"

[patient]
cp_rs = 8
rs_it = 8

[[injuries]]
at = "2h"
level = "grave"

[[injuries]]
at = "90min"
level = "light"

[[injuries]]
at = "0s"
level = "critical"
count = 2

[[injuries]]
at = "1h30min"
level = "light"
count = 3

[[injuries]]
at = "1.5h"
level = "grave"
count = 2

[[activities]]
at = "1h30min"
modifier = 2

[[activities]]
at = "1h"
modifier = -1

[[activities]]
at = "90min"
modifier = 1

[[activities]]
modifier = 4
"""
"""Out of time order, with equal times written differently (``90min``, ``1h30min``, ``1.5h``):
the reading's order among equals is the file's, whatever the spelling."""


def _row_to_scenario_agrees(path: Path) -> None:
    """Each row of the page is the entry the reading built from the file's entry of its index."""
    from simulator.rules.durations import parse_duration
    from simulator.scenario.reading import read_scenario_mapping
    from simulator.web.cells import cells, file_rows, load

    written = load(path, path.name, ())
    rows = file_rows(path)
    data = read_scenario_mapping(path)
    assert sorted(rows["injuries"]) == list(range(5))
    for index, entry in enumerate(data["injuries"]):
        built = written.injuries[rows["injuries"][index]]
        assert (built.at, built.level.label, built.count) == (
            parse_duration(entry["at"]),
            entry["level"],
            entry.get("count", 1),
        )
    for index, entry in enumerate(data["activities"]):
        built_activity = written.activities[rows["activities"][index]]
        assert (built_activity.at, built_activity.modifier) == (
            parse_duration(entry.get("at", "0s")),
            entry["modifier"],
        )
    shown = {c.key: c.value for c in cells(written, rows=rows)}
    assert [shown[f"injuries.{i}.level"] for i in range(5)] == [
        entry["level"] for entry in data["injuries"]
    ]
    assert [shown[f"injuries.{i}.count"] for i in range(5)] == [
        str(entry.get("count", 1)) for entry in data["injuries"]
    ]
    assert [shown[f"activities.{i}.modifier"] for i in range(4)] == [
        str(entry["modifier"]) for entry in data["activities"]
    ]


def test_each_row_is_the_entry_the_reading_built_from_the_files_entry(tmp_path: Path) -> None:
    """The page sorted the file's entries again, apart from the reading: the two orders agreed
    only by being written alike. The rows' places are checked against the scenario read."""
    from simulator.web.cells import file_rows

    path = tmp_path / "same_times.toml"
    path.write_text(SAME_TIMES, encoding="utf-8")
    _row_to_scenario_agrees(path)
    assert file_rows(path) == {"injuries": (4, 1, 0, 2, 3), "activities": (2, 1, 3, 0)}


def test_a_change_of_the_readings_order_moves_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One order for the reading and the page: were the reading to put the file's later entry
    first among equals, the rows would follow it, not keep a sort of their own."""
    from simulator.scenario import checks

    def later_first(entries: Any) -> tuple[int, ...]:
        return tuple(sorted(range(len(entries)), key=lambda i: (entries[i].at, -i)))

    monkeypatch.setattr(checks, "in_time", later_first)
    path = tmp_path / "same_times.toml"
    path.write_text(SAME_TIMES, encoding="utf-8")
    from simulator.web.cells import file_rows, load

    assert [i.level.label for i in load(path, path.name, ()).injuries] == [
        "critical", "grave", "light", "light", "grave"
    ]  # fmt: skip
    _row_to_scenario_agrees(path)
    assert file_rows(path)["injuries"] == (4, 3, 0, 2, 1)


def _two_rows_freed(rows_served: Running, page: Any, name: str, lang: str) -> Path:
    """The page open on a new file ``name`` of two injury rows, both rows' counts free in
    Solve, row 2's from 1 to 5; the file's path."""
    path = rows_served.bench.folder.root / name
    path.write_text(ROWS, encoding="utf-8")
    page.goto(rows_served.url + f"?name={path.name}&lang={lang}")
    wait_done(page)
    page.check("#free-injuries-1-count")
    page.fill("#free-low-injuries-1-count", "1")
    page.fill("#free-high-injuries-1-count", "5")
    page.check("#free-injuries-0-count")  # a row the file keeps: not said when it goes on
    return path


@pytest.mark.parametrize(
    ("lang", "other", "said"),
    [
        ("en", "fr",
         "Ces cases libres de Résoudre n'ont pas été gardées : le fichier tel qu'il est "
         "maintenant n'a pas ces cases :\n  blessure n° 2 (injuries[1].count) : 1 – 5"),
        ("fr", "en",
         "These free cells of Solve were not kept: the file as it is now has no such cells:"
         "\n  injury row 2 (injuries[1].count): 1 – 5"),
    ],
)  # fmt: skip
def test_a_free_cell_of_a_row_the_file_lost_is_said_by_the_language_link(
    rows_served: Running, page: Any, lang: str, other: str, said: str
) -> None:
    """The file lost its second injury on disk, its time kept: the language link carried the
    free box of the row numbered 2 (ticked, from 1 to 5) and the page in the other language
    dropped it without a word (the page's own edits of that row were said)."""
    import os

    from playwright.sync_api import expect

    path = _two_rows_freed(rows_served, page, f"free_lost_{lang}.toml", lang)
    was = path.stat()
    second = '[[injuries]]\nat = "0s"\nlevel = "light"\ncount = 2\n\n'
    path.write_text(ROWS.replace(second, ""), encoding="utf-8")  # one injury left
    os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    wait_done(page)
    expect(page.locator("#free-injuries-0-count")).to_be_checked(timeout=TIMEOUT)
    expect(page.locator("#cell-injuries-1-count")).to_have_count(0)  # the row is gone
    expect(page.locator("#cal-problems")).to_have_text(said, timeout=TIMEOUT)
    path.unlink()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en",
         "These free cells of Solve were not kept: the file as it is now has no such cells:"
         "\n  injury row 2 (injuries[1].count): 1 – 5"),
        ("fr",
         "Ces cases libres de Résoudre n'ont pas été gardées : le fichier tel qu'il est "
         "maintenant n'a pas ces cases :\n  blessure n° 2 (injuries[1].count) : 1 – 5"),
    ],
)  # fmt: skip
def test_a_free_cell_of_a_row_the_file_lost_is_said_when_the_file_is_read_again(
    rows_served: Running, page: Any, lang: str, said: str
) -> None:
    """The file lost its second injury on disk and the page read it again ("your edits
    kept"): the free box of the row numbered 2 went with the row, without a word."""
    from playwright.sync_api import expect

    path = _two_rows_freed(rows_served, page, f"free_reread_{lang}.toml", lang)
    second = '[[injuries]]\nat = "0s"\nlevel = "light"\ncount = 2\n\n'
    path.write_text(ROWS.replace(second, ""), encoding="utf-8")  # one injury left
    page.fill("#cell-patient-cp_rs", "7")  # the answer asked now finds the file changed
    expect(page.locator("#cell-injuries-1-count")).to_have_count(0, timeout=TIMEOUT)
    wait_done(page)
    expect(page.locator("#free-injuries-0-count")).to_be_checked()
    expect(page.locator("#cal-problems")).to_have_text(said, timeout=TIMEOUT)
    path.unlink()
