"""Calibrating in the workbench: free cells, a target, Solve streamed, Accept into the table.

Over HTTP (starlette's TestClient): a small exact calibration recovers a known value, one
``round`` line per round then the ``result``; mistakes come back placed at their free cell or
target, never a traceback. In a real browser: free two cells, state one target, solve,
accept, and the cells hold the solution's values (edits the answer follows).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from simulator.scenario.reading import load_scenario
from simulator.studies.method import Exact
from simulator.studies.statistic import Statistic
from simulator.web.app import Bench, create_app
from simulator.web.calibrating import calibration_text, share_of
from simulator.web.folder import Folder
from simulator.web.server import Running
from tests.support.browser import GRAVE, TIMEOUT, wait_done

REPO = Path(__file__).resolve().parents[2]
PORT = 8765
OWN = f"http://127.0.0.1:{PORT}"
JSON = {"Origin": OWN, "Content-Type": "application/json"}
LONE = "lone_traveller.toml"
SETS = ["first_aid.start=5min", "first_aid.interval=5min"]
UNSTABLE = "rules.table.grave.unstable_period"
MORTALITY = "rules.table.grave.mortality"
TRUTH = "20min"


def exact_truth() -> float:
    """The target: p_dead_by_1d at the known unstable period, with first aid every 5 min."""
    built = load_scenario(REPO / "scenarios" / LONE, [*SETS, f"{UNSTABLE}={TRUTH}"])
    return Exact()([built], Statistic.parse("p_dead_by_1d"))[0].stat


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / LONE)
    bench = Bench(Folder.of(tmp_path / LONE), port=PORT)
    return TestClient(create_app(bench), base_url=OWN)


def solve(client: TestClient, **asked: object) -> list[dict[str, Any]]:
    response = client.post("/api/calibrate", content=json.dumps(asked), headers=JSON)
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()]


def target(**given: object) -> dict[str, object]:
    return {
        "scenario": LONE,
        "stat": "p_dead_by_1d",
        "value": 0.5,
        "tolerance": "0.005",
        "set": "\n".join(SETS),
    } | given


def unstable(low: str = "5min", high: str = "1h") -> dict[str, str]:
    return {"key": UNSTABLE, "low": low, "high": high}


def test_a_small_exact_calibration_streams_its_rounds_and_meets_the_target(
    client: TestClient, tmp_path: Path
) -> None:
    value = exact_truth()
    before = sorted(p.name for p in tmp_path.iterdir())
    events = solve(client, name=LONE, free=[unstable()], targets=[target(value=value)])
    kinds = [e["type"] for e in events]
    assert kinds[0] == "started" and kinds[-1] == "result"
    assert kinds.count("round") >= 1 and set(kinds[1:-1]) == {"round"}
    assert events[0]["method"] == "exact"
    rounds = [e for e in events if e["type"] == "round"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert all(len(r["distances"]) == 1 and r["line"].startswith("round ") for r in rounds)
    result = events[-1]
    assert result["method"] == "exact" and result["met"] is True
    reached = result["targets"][0]
    assert abs(reached["reached"] - value) <= 0.005 and reached["met"] is True
    assert reached["ci"][0] <= reached["reached"] <= reached["ci"][1]
    # as calibrate --exact prints it: "#1 lone_traveller: …, reached 12.3457% (exact)"
    assert reached["label"].startswith("#1 lone_traveller: ") and "(exact)" in reached["text"]
    assert result["free"][0]["key"] == UNSTABLE
    # the value as a cell takes it (a duration), and it meets the target when run again
    found = result["free"][0]["value"]
    assert found.endswith(("min", "s", "h"))
    again = load_scenario(tmp_path / LONE, [*SETS, f"{UNSTABLE}={found}"])
    stat = Exact()([again], Statistic.parse("p_dead_by_1d"))[0].stat
    assert abs(stat - value) <= 0.005
    assert result["conflicts"] == []
    # nothing written in the served folder
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_folder_served_by_a_relative_path_solves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve scenarios`` (the README's): the calibration file in a temporary folder named
    ``scenarios/lone_traveller.toml``, which it read as relative to itself (no such file)."""
    (tmp_path / "scenarios").mkdir()
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / "scenarios" / LONE)
    monkeypatch.chdir(tmp_path)
    bench = Bench(Folder.of("scenarios"), port=PORT)
    relative = TestClient(create_app(bench), base_url=OWN)
    events = solve(relative, name=LONE, free=[unstable()], targets=[target(value=0.5)])
    assert events[-1]["type"] == "result", events[-1]
    assert events[-1]["targets"][0]["label"].startswith("#1 lone_traveller: ")


def test_the_pages_edits_hold_on_its_own_scenario(client: TestClient) -> None:
    # with the first aid typed in the page rather than in the target's --set lines
    value = exact_truth()
    edits = {"first_aid.start": "5min", "first_aid.interval": "5min"}
    events = solve(
        client, name=LONE, edits=edits, free=[unstable()], targets=[target(value=value, set="")]
    )
    assert events[-1]["type"] == "result" and events[-1]["met"] is True


@pytest.mark.parametrize(
    ("free", "targets", "where"),
    [
        (
            [{"key": "rules.table.grave.nope", "low": "1", "high": "2"}],
            [target()],
            {"key": "rules.table.grave.nope"},
        ),
        ([unstable("2h", "1h")], [target()], {"key": UNSTABLE}),
        ([{"key": MORTALITY, "low": "5min", "high": "1h"}], [target()], {"key": MORTALITY}),
        ([unstable("", "1h")], [target()], {"key": UNSTABLE}),
        ([unstable()], [target(stat="p_nope")], {"target": 0, "field": "stat"}),
        ([unstable()], [target(value="120%")], {"target": 0, "field": "value"}),
        ([unstable()], [target(tolerance=0)], {"target": 0, "field": "tolerance"}),
        ([unstable()], [target(), target(set="first_aid.level=x")], {"target": 1, "field": "set"}),
        ([unstable()], [target(scenario="../elsewhere.toml")], {"target": 0, "field": "scenario"}),
        (
            [{"key": "rules.pain_recovery_per_hour", "low": "0", "high": "1e308"}],
            [target()],
            {"key": "rules.pain_recovery_per_hour"},
        ),
    ],
    ids=[
        "unknown key",
        "low above high",
        "wrong kind",
        "no low",
        "unknown statistic",
        "value over 1",
        "tolerance 0",
        "bad set line",
        "outside the folder",
        "a number past the scenario's bound",
    ],
)
def test_mistakes_come_back_placed_at_their_cell_or_target(
    client: TestClient, free: list[Any], targets: list[Any], where: dict[str, Any]
) -> None:
    events = solve(client, name=LONE, free=free, targets=targets)
    assert [e["type"] for e in events] == ["problems"]
    problems = events[0]["problems"]
    assert problems, "a problem was expected"
    first = problems[0]
    assert {k: first.get(k) for k in where} == where, problems
    assert first["message"] and "Traceback" not in first["message"]
    assert "calibration.toml" not in first["message"] and "free[" not in first["message"]


def test_a_solve_with_nothing_free_says_what_to_do_and_bad_requests_are_400(
    client: TestClient,
) -> None:
    events = solve(client, name=LONE, free=[], targets=[target()])
    assert events[0]["type"] == "problems"
    assert "Free the cells" in events[0]["problems"][0]["message"]
    french = solve(client, name=LONE, free=[], targets=[target()], lang="fr")
    assert "Libérez les cases" in french[0]["problems"][0]["message"]
    for bad in (
        {"free": "x", "targets": []},
        {"free": [], "targets": [1]},
        {"free": [], "targets": [], "trials": 0},
    ):
        response = client.post(
            "/api/calibrate", content=json.dumps({"name": LONE} | bad), headers=JSON
        )
        assert response.status_code == 400, bad
    other = client.post(
        "/api/calibrate",
        content=json.dumps({"name": "geraldine.toml", "free": [], "targets": []}),
        headers=JSON,
    )
    assert other.status_code == 403
    # the Origin guard, as for every route that acts
    foreign = client.post(
        "/api/calibrate",
        content="{}",
        headers={"Origin": "http://evil.example", "Content-Type": "application/json"},
    )
    assert foreign.status_code == 403


def test_shares_are_read_as_typed_and_the_file_holds_what_was_typed() -> None:
    assert share_of("20%") == pytest.approx(0.2)
    assert share_of("0,25") == pytest.approx(0.25)
    assert share_of(0.1) == pytest.approx(0.1)
    assert share_of("six") is None and share_of("") is None and share_of("nan") is None
    from simulator.web.calibrating import Asked

    asked = Asked()
    asked.free.append((UNSTABLE, '5min"\n[[target]]', "1h"))
    asked.targets.append(
        {"scenario": "/x.toml", "stat": "p_dead", "value": 0.1, "tolerance": 0.005, "set": ["a=1"]}
    )
    import tomllib

    data = tomllib.loads(calibration_text(asked))
    assert data["free"][0]["low"] == '5min"\n[[target]]' and len(data["target"]) == 1
    # a number typed in a cell is written bare, as a calibration file must hold it ("3" is
    # refused for a level), however it was typed; anything else stays quoted, as typed
    for typed, held in (("3", 3), (" 01 ", 1), (".1", 0.1), ("1e-3", 0.001), ("-2", -2)):
        asked.free[0] = ("first_aid.level", typed, "8")
        assert tomllib.loads(calibration_text(asked))["free"][0]["low"] == held, typed
    for typed in ("1\n[[target]]\nscenario='/x.toml'", "inf", "1_000", "0,5"):
        asked.free[0] = ("first_aid.level", typed, "8")
        data = tomllib.loads(calibration_text(asked))
        assert data["free"][0]["low"] == typed and len(data["target"]) == 1, typed


def test_an_end_of_thousands_of_digits_is_a_problem_at_its_cell_not_a_broken_answer(
    client: TestClient,
) -> None:
    """Python reads no text of more than 4,300 digits as a number: writing the calibration
    file raised inside the stream, and the page got a 200 with no line at all."""
    digits = "9" * 5000
    events = solve(client, name=LONE, free=[unstable(high=digits)], targets=[target()])
    assert [e["type"] for e in events] == ["problems"]
    assert events[0]["problems"][0]["key"] == UNSTABLE, events


# --- in a real browser ----------------------------------------------------------------------


def test_free_two_cells_set_a_target_solve_accept_and_the_cells_change(
    served: Running, page: Any
) -> None:
    from playwright.sync_api import expect

    value = exact_truth()
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    # whole minutes (a range past an hour): each point is computed exactly in hundredths of a
    # second, where a period by the second (5min-1h) took tenths: 3 s of CPU for the Solve,
    # most of TIMEOUT on a loaded machine
    for key, low, high in ((UNSTABLE, "10min", "2h"), (MORTALITY, "1", "6")):
        safe = key.replace(".", "-")
        page.check(f"#free-{safe}")
        page.fill(f"#free-low-{safe}", low)
        page.fill(f"#free-high-{safe}", high)
    row = page.locator("#cal-targets .target").first
    row.locator(".target-scenario").select_option(LONE)
    row.locator(".target-stat").fill("p_dead_by_1d")
    row.locator(".target-value").fill(repr(value))
    row.locator(".target-tolerance").fill("0.005")
    row.locator(".target-set").fill("\n".join(SETS))
    page.click("#cal-solve")
    page.wait_for_selector("#calibrate[data-state=solved]", timeout=TIMEOUT)
    assert "round 1:" in page.inner_text("#cal-log")
    assert page.get_attribute("#cal-reached li", "data-met") == "true"
    solution = {
        key: page.inner_text(f"#cal-values tr[data-key='{key}'] td.cal-value")
        for key in (UNSTABLE, MORTALITY)
    }
    page.click("#cal-accept")
    for key, found in solution.items():
        cell = f"#cell-{key.replace('.', '-')}"
        expect(page.locator(cell)).to_have_value(found, timeout=TIMEOUT)
    assert solution[UNSTABLE] != "15min"  # the file's value: the cell did change
    edited = page.locator(f".cell[data-key='{UNSTABLE}']")
    expect(edited).to_have_class("cell edited", timeout=TIMEOUT)
    # the answer follows the accepted table (an edit like any other)
    expect(page.locator("#command")).to_contain_text(
        f"--set {UNSTABLE}={solution[UNSTABLE]}", timeout=TIMEOUT
    )
    # ready for save-as: the new file holds the accepted values
    page.fill("#save-name", "calibrated_lone")
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute("data-saved", "calibrated_lone.toml",
                                                      timeout=TIMEOUT)  # fmt: skip
    import tomllib

    saved = served.bench.folder.root / "calibrated_lone.toml"
    table = tomllib.loads(saved.read_text(encoding="utf-8"))["rules"]["table"]["grave"]
    assert str(table["unstable_period"]) == solution[UNSTABLE]
    original = page.get_attribute(f"#cell-{MORTALITY.replace('.', '-')}", "data-original")
    if solution[MORTALITY] != original:  # an edit only where the value changed
        assert str(table["mortality"]) == solution[MORTALITY]
    # a solution is its scenario's: another scenario cannot take it by Accept
    names = page.eval_on_selector_all("#scenario option", "os => os.map((o) => o.value)")
    page.once("dialog", lambda dialog: dialog.accept())  # its free cells go: asked, yes
    page.select_option("#scenario", next(n for n in names if n != LONE))
    expect(page.locator("#cal-accept")).to_be_disabled(timeout=TIMEOUT)


def watched_solve(
    solve: Callable[..., Any], held: Any, seconds: float, ended: list[str], done: Any
) -> Callable[[Path, Any, Any], Any]:
    """The server's search, held after each round until ``held`` is set (``seconds`` at most),
    its end told in ``ended`` (the rounds before a stop, then "ended") and ``done`` set."""
    from simulator.web.calibrating import StoppedError

    def watched(path: Path, method: Any, progress: Any) -> Any:
        rounds = []

        def told(step: Any) -> None:
            rounds.append(step)
            progress(step)
            held.wait(seconds)

        try:
            return solve(path, method, told)
        except StoppedError:
            ended.append(f"stopped after {len(rounds)} rounds")
            raise
        finally:
            ended.append("ended")
            done.set()

    return watched


def test_a_newer_solve_stops_the_older_at_its_next_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    from simulator.web import calibrating
    from simulator.web.calibrating import Asked, stream

    shutil.copy(REPO / "scenarios" / LONE, tmp_path / LONE)
    asked = Asked()
    asked.free.append((UNSTABLE, "5min", "1h"))
    asked.free.append((MORTALITY, "1", "6"))
    target = {"scenario": str(tmp_path / LONE), "stat": "p_dead_by_1d", "value": 0.5,
              "tolerance": 0.005, "set": SETS}  # fmt: skip
    asked.targets.append(target)
    ended: list[str] = []
    done, seen = threading.Event(), threading.Event()
    solve = calibrating._solve

    # the page reads the first round before the search goes on
    watched = watched_solve(solve, seen, 30, ended, done)

    monkeypatch.setattr(calibrating, "_solve", watched)
    newest = {"page": 1}

    async def read() -> list[dict[str, Any]]:
        got = []
        async for line in stream(asked, tmp_path, 100, 0, "en", lambda: newest["page"] == 1):
            got.append(json.loads(line))
            if got[-1]["type"] == "round":
                newest["page"] = 2  # a newer Solve of the same page came
                seen.set()
        return got

    read_back: list[list[dict[str, Any]]] = []  # in a thread: a browser test may hold a loop
    reader = threading.Thread(target=lambda: read_back.append(asyncio.run(read())))
    reader.start()
    reader.join(60)
    events = read_back[0]
    assert [e["type"] for e in events] == ["started", "round"]  # no later round, no result
    assert done.wait(60)
    assert ended == ["stopped after 2 rounds", "ended"]  # its next round, not the whole search


def test_over_the_exact_budget_mid_search_it_samples_with_the_pages_trials(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simulator.errors import UserError
    from simulator.web import calibrating

    solve_it = calibrating._solve

    def budgeted(path: Path, method: Any, progress: Any) -> Any:
        if method.method == "exact":  # as a point of the ranges past the exact budget would
            raise UserError("over the exact engine's budget")
        return solve_it(path, method, progress)

    monkeypatch.setattr(calibrating, "_solve", budgeted)
    events = solve(client, name=LONE, free=[unstable()], targets=[target(value=0.1)],
                   trials=200, seed=3)  # fmt: skip
    assert [e["method"] for e in events if e["type"] == "started"] == ["exact", "monte-carlo"]
    result = events[-1]
    assert result["type"] == "result" and result["method"] == "monte-carlo"
    assert result["json"]["trials"] == 200 and result["json"]["seed"] == 3
    low, high = result["targets"][0]["ci"]
    assert low < result["targets"][0]["reached"] < high  # sampled: a real interval


def test_the_page_has_the_calibration_section_in_its_language(client: TestClient) -> None:
    english = client.get("/").text
    assert 'id="calibrate"' in english and "/static/calibrate.js" in english
    assert ">Solve<" in english and 'value="2000"' in english
    french = client.get("/?lang=fr").text
    assert ">Résoudre<" in french and "Accepter la solution" in french
    assert client.get("/static/calibrate.js").status_code == 200


def test_a_solve_of_a_file_changed_since_the_page_read_it_says_so(
    client: TestClient, tmp_path: Path
) -> None:
    import os
    import time

    read = client.get("/api/scenario", params={"name": LONE}).json()
    asked = {"name": LONE, "free": [unstable()], "targets": [target()], "stamp": read["stamp"]}
    path = tmp_path / LONE
    os.utime(path, ns=(time.time_ns(), int(read["stamp"]) + 1_000_000_000))
    assert solve(client, **asked) == [{"type": "changed"}]


@pytest.mark.parametrize(
    ("edits", "cell"),
    [
        ({"horizon": "six"}, "horizon"),
        ({"injuries.0.count": "zz"}, "injuries.0.count"),
        ({"watch.neglect_at": "1d, zz"}, "watch.neglect_at"),
        ({"rules.table.grave.max": "1.50"}, "rules.table.grave.max"),
    ],
)
def test_a_bad_cell_of_the_page_is_said_at_its_cell_not_in_a_targets_set(
    client: TestClient, edits: dict[str, str], cell: str
) -> None:
    """A page's edit 'six' came back under target 1's empty --set lines."""
    events = solve(client, name=LONE, edits=edits, free=[unstable()], targets=[target(set="")])
    (problem,) = events[0]["problems"]
    assert problem["key"] == cell and "target" not in problem, problem


def open_with_the_grave_period_free(served: Running, page: Any, reload: bool = True) -> str:
    """The lone traveller's page, its grave unstable period free from 5min to 1h (the page
    shown, when not ``reload``)."""
    if reload:
        page.goto(served.url + f"?name={LONE}")
        wait_done(page)
    safe = UNSTABLE.replace(".", "-")
    page.check(f"#free-{safe}")
    page.fill(f"#free-low-{safe}", "5min")
    page.fill(f"#free-high-{safe}", "1h")
    return safe


def test_undo_keeps_the_free_cells_of_the_same_scenario(served: Running, page: Any) -> None:
    """Undo redrew the cells: every free box came back unticked, its range lost."""
    from playwright.sync_api import expect

    safe = open_with_the_grave_period_free(served, page)
    page.fill("#cell-patient-cp_rs", "9")
    page.once("dialog", lambda dialog: dialog.accept())  # "Undo every edit?": yes
    page.click("#undo")
    expect(page.locator("#cell-patient-cp_rs")).to_have_value("6", timeout=TIMEOUT)  # undone
    expect(page.locator(f"#free-{safe}")).to_be_checked(timeout=TIMEOUT)  # the search kept
    assert page.input_value(f"#free-low-{safe}") == "5min"
    assert page.input_value(f"#free-high-{safe}") == "1h"


def test_the_language_link_carries_the_free_cells_and_the_targets(
    served: Running, page: Any
) -> None:
    from playwright.sync_api import expect

    safe = open_with_the_grave_period_free(served, page)
    page.locator("#cal-targets .target .target-stat").first.fill("p_dead_by_1d")
    page.locator("#cal-targets .target .target-value").first.fill("0.2")
    page.click("#lang-fr")
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    expect(page.locator(f"#free-{safe}")).to_be_checked(timeout=TIMEOUT)
    assert page.input_value(f"#free-high-{safe}") == "1h"
    targets = page.locator("#cal-targets .target")
    assert targets.count() == 1
    assert targets.first.locator(".target-stat").input_value() == "p_dead_by_1d"
    assert targets.first.locator(".target-value").input_value() == "0.2"


@pytest.mark.parametrize(("lang", "other"), [("en", "fr"), ("fr", "en")])
def test_the_language_link_keeps_a_targets_scenario_the_folder_lost(
    served: Running, page: Any, lang: str, other: str
) -> None:
    """A target on a file removed from the folder while the page was open: the page in the
    other language put the target on the folder's first scenario without a word (its list
    no longer offers the file), and Solve solved for that one."""
    from playwright.sync_api import expect

    gone = served.bench.folder.root / f"gone_target_{lang}.toml"
    shutil.copy(REPO / "scenarios" / LONE, gone)
    page.goto(served.url + f"?name={LONE}&lang={lang}")
    wait_done(page)
    target_row = page.locator("#cal-targets .target").first
    target_row.locator(".target-scenario").select_option(gone.name)
    gone.unlink()
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    wait_done(page)
    pick = page.locator("#cal-targets .target").first.locator(".target-scenario")
    expect(pick).to_have_value(gone.name, timeout=TIMEOUT)  # the target as typed
    open_with_the_grave_period_free(served, page, reload=False)
    page.click("#cal-solve")
    expect(page.locator("#calibrate")).to_have_attribute("data-state", "problems", timeout=TIMEOUT)
    field = page.locator("#cal-targets .target").first.locator('[data-field="scenario"]')
    expect(field.locator(".problem")).to_contain_text(gone.name)  # Solve says it is gone


@pytest.mark.parametrize(
    ("lang", "other", "said"),
    [
        ("en", "fr",
         "Les cases libres de gone_free_en.toml n'ont pas été reprises : il n'a pas pu être "
         "ouvert. C'étaient :\n  rules.table.grave.unstable_period : 5min – 1h"),
        ("fr", "en",
         "The free cells of gone_free_fr.toml were not carried over: it could not be opened. "
         "They were:\n  rules.table.grave.unstable_period: 5min – 1h"),
    ],
)  # fmt: skip
def test_the_free_cells_of_a_file_the_folder_lost_are_said_by_the_language_link(
    served: Running, page: Any, lang: str, other: str, said: str
) -> None:
    """The file shown removed from the folder, then the language link: the page in the other
    language opened the folder's first scenario and said the edits it could not carry, but
    the free boxes (ticked, with their ranges) went without a word."""
    from playwright.sync_api import expect

    gone = served.bench.folder.root / f"gone_free_{lang}.toml"
    shutil.copy(REPO / "scenarios" / LONE, gone)
    page.goto(served.url + f"?name={gone.name}&lang={lang}")
    wait_done(page)
    safe = open_with_the_grave_period_free(served, page, reload=False)
    gone.unlink()
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    wait_done(page)
    expect(page.locator("#cal-problems")).to_have_text(said, timeout=TIMEOUT)
    expect(page.locator(f"#free-{safe}")).not_to_be_checked()  # another scenario's cell


def free_the_shock_pain(page: Any) -> None:
    """Free the shock row's pain (1 to 5) on a page showing LONE, leaving no edit: the injury
    made a shock to draw the mental rows, then grave again."""
    from playwright.sync_api import expect

    page.select_option("#cell-injuries-0-level", "shock")
    expect(page.locator("#free-rules-table-shock-pain")).to_have_count(1, timeout=TIMEOUT)
    page.check("#free-rules-table-shock-pain")
    page.fill("#free-low-rules-table-shock-pain", "1")
    page.fill("#free-high-rules-table-shock-pain", "5")
    page.select_option("#cell-injuries-0-level", "grave")  # no edit left
    wait_done(page)


def expect_the_shock_pain_still_free(page: Any) -> None:
    """The shock row's pain box is ticked with its high end 5, and no problem is said."""
    from playwright.sync_api import expect

    expect(page.locator("#free-rules-table-shock-pain")).to_be_checked(timeout=TIMEOUT)
    assert page.input_value("#free-high-rules-table-shock-pain") == "5"
    expect(page.locator("#cal-problems")).to_have_text("")


@pytest.mark.parametrize(("lang", "other"), [("en", "fr"), ("fr", "en")])
def test_the_language_link_carries_a_free_cell_of_the_mental_rows(
    served: Running, page: Any, lang: str, other: str
) -> None:
    """The shock row's pain freed (the injury made a shock, then grave again: no edit asks
    for the mental rows): the page in the other language drew no mental row, and the free
    box was gone."""
    page.goto(served.url + f"?name={LONE}&lang={lang}")
    wait_done(page)
    free_the_shock_pain(page)
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    wait_done(page)
    expect_the_shock_pain_still_free(page)


@pytest.mark.parametrize(("lang", "other"), [("en", "fr"), ("fr", "en")])
def test_the_language_link_carries_the_trials_of_solve(
    served: Running, page: Any, lang: str, other: str
) -> None:
    """Solve's trials typed (5000) came back as the 2000 it starts with on the page in the other
    language."""
    from playwright.sync_api import expect

    page.goto(served.url + f"?name={LONE}&lang={lang}")
    wait_done(page)
    page.fill("#cal-trials", "5000")
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    wait_done(page)
    expect(page.locator("#cal-trials")).to_have_value("5000", timeout=TIMEOUT)


def close_and_be_asked(page: Any) -> str:
    """Close the page as its tab is closed, expecting its ``beforeunload`` to ask first (the
    dialog dismissed by the test's listener: the page stays); the dialog's type."""
    with page.expect_event("dialog", timeout=TIMEOUT) as asked:
        page.close(run_before_unload=True)
    return str(asked.value.type)


def test_leaving_with_a_solve_target_typed_asks_but_the_language_link_does_not(
    served: Running, page: Any
) -> None:
    """A target typed into Solve and no cell edited: closing or reloading the page lost the
    target without a word. Only the language link carries Solve's inputs; a save-as writes
    the cells, not them."""
    from playwright.sync_api import expect

    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    target_row = page.locator("#cal-targets .target").first
    target_row.locator(".target-value").fill("0.2")
    assert close_and_be_asked(page) == "beforeunload"
    assert target_row.locator(".target-value").input_value() == "0.2"  # stayed, kept

    page.click("#lang-fr")  # carries the target: asks nothing
    page.wait_for_selector("html[lang=fr]", timeout=TIMEOUT)
    wait_done(page)
    expect(target_row.locator(".target-value")).to_have_value("0.2", timeout=TIMEOUT)
    assert asked == ["beforeunload"]

    page.fill(GRAVE, "2h")  # an edit, saved as a file: the file holds it, not the target
    wait_done(page)
    page.fill("#save-name", "lone_solve_leaving")
    page.click("#save")
    expect(page.locator("#saved")).to_have_attribute(
        "data-saved", "lone_solve_leaving.toml", timeout=TIMEOUT
    )
    assert close_and_be_asked(page) == "beforeunload" and asked == ["beforeunload"] * 2

    target_row.locator(".target-value").fill("")  # nothing typed left in Solve: no question
    with page.expect_event("close", timeout=TIMEOUT):
        page.close(run_before_unload=True)
    assert asked == ["beforeunload"] * 2


def test_leaving_with_a_free_cell_ticked_asks(served: Running, page: Any) -> None:
    """A free box ticked, its range typed, no cell edited: leaving lost them unasked."""
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    safe = open_with_the_grave_period_free(served, page)
    assert close_and_be_asked(page) == "beforeunload" and asked == ["beforeunload"]
    assert page.is_checked(f"#free-{safe}")  # dismissed: the page and its free box stay
    page.uncheck(f"#free-{safe}")  # its range still typed: still asks
    assert close_and_be_asked(page) == "beforeunload" and asked == ["beforeunload"] * 2
    page.close()


OPEN_FREE = "Open another scenario? The free cells of Solve typed in this one will be lost."
GERALDINE = "geraldine.toml"


def shows(page: Any, title: str) -> None:
    """Wait until the page shows the scenario of this title, its answer whole."""
    page.wait_for_function(
        "(title) => document.getElementById('title').textContent.includes(title)",
        arg=title,
        timeout=TIMEOUT,
    )
    wait_done(page)


def test_another_scenario_asks_before_it_drops_the_free_cells_of_solve(
    served: Running, page: Any
) -> None:
    """A free box ticked, its range typed, no cell edited: picking another scenario dropped
    them without a word (an edit asks first). The free boxes are the scenario's own cells;
    a target names its scenario and stays, so a target alone asks nothing."""
    from playwright.sync_api import expect

    asked: list[str] = []
    answers = [False, True]  # the first question dismissed, the second accepted

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept() if answers and answers.pop(0) else dialog.dismiss()

    page.on("dialog", answer)
    safe = open_with_the_grave_period_free(served, page)
    target_row = page.locator("#cal-targets .target").first
    target_row.locator(".target-value").fill("0.2")
    page.select_option("#scenario", GERALDINE)
    assert asked == [OPEN_FREE]
    assert page.input_value("#scenario") == LONE  # kept, with its free box
    assert page.is_checked(f"#free-{safe}") and page.input_value(f"#free-high-{safe}") == "1h"

    page.select_option("#scenario", GERALDINE)  # yes: Géraldine, with none of them
    shows(page, "Géraldine")
    assert asked == [OPEN_FREE] * 2
    expect(page.locator(".free.on")).to_have_count(0)
    assert target_row.locator(".target-value").input_value() == "0.2"  # the target stays
    assert target_row.locator(".target-scenario").input_value() == LONE

    page.select_option("#scenario", LONE)  # nothing typed would be lost: nothing asked
    shows(page, "Lone traveller")
    assert asked == [OPEN_FREE] * 2
    assert not page.is_checked(f"#free-{safe}")  # dropped, as the question said


def test_another_scenario_asks_once_for_the_edits_and_the_free_cells(
    served: Running, page: Any
) -> None:
    """A cell edited and a free box ticked: the question named the edits only, and the free
    box went with them."""
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    safe = open_with_the_grave_period_free(served, page)
    page.fill("#cell-patient-cp_rs", "9")
    page.select_option("#scenario", GERALDINE)
    assert asked == [
        "Open another scenario? The edits of this one are not saved as a file, and the free "
        "cells of Solve typed in it will be lost."
    ]
    assert page.input_value("#scenario") == LONE and page.is_checked(f"#free-{safe}")


def test_another_scenario_never_shows_the_solution_of_the_last_one(
    served: Running, page: Any
) -> None:
    """Solved on the lone traveller, then Géraldine opened: the lone traveller's free cells
    and the values found for them stayed under Géraldine's cells (Accept greyed), read as
    hers (she has a grave unstable period too)."""
    from playwright.sync_api import expect

    page.on("dialog", lambda dialog: dialog.accept())
    open_with_the_grave_period_free(served, page)
    row = page.locator("#cal-targets .target").first
    row.locator(".target-stat").fill("p_dead_by_1d")
    row.locator(".target-value").fill("0.3")
    row.locator(".target-tolerance").fill("0.05")
    row.locator(".target-set").fill("\n".join(SETS))
    page.click("#cal-solve")
    page.wait_for_selector("#calibrate[data-state=solved]", timeout=TIMEOUT)
    assert page.locator(f"#cal-values tr[data-key='{UNSTABLE}']").count() == 1
    page.select_option("#scenario", GERALDINE)
    shows(page, "Géraldine")
    expect(page.locator("#cal-result")).to_be_empty()
    expect(page.locator("#cal-log")).to_be_empty()
    expect(page.locator("#cal-accept")).to_be_disabled()
    assert page.get_attribute("#calibrate", "data-state") == "idle"


def test_undo_all_keeps_a_free_cell_of_the_mental_rows(served: Running, page: Any) -> None:
    """The shock row's pain freed (the injury made a shock, then grave again: no edit left):
    Undo all edits asked nothing, drew no mental row, and the free box was gone (said only
    afterwards, as a cell the file no longer has)."""
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    free_the_shock_pain(page)
    page.evaluate("document.querySelector('#wound-table tr').dataset.before = 'undo'")
    page.click("#undo")
    page.wait_for_function(  # the table drawn again
        "!document.querySelector('#wound-table tr[data-before]')", timeout=TIMEOUT
    )
    wait_done(page)
    expect_the_shock_pain_still_free(page)
    assert asked == []  # nothing to lose: nothing asked


@pytest.mark.parametrize(
    ("lang", "other", "said"),
    [
        ("en", "fr",
         "Les cases libres de broken_free_en.toml n'ont pas été reprises : il n'a pas pu être "
         "ouvert. C'étaient :\n  rules.table.grave.unstable_period : 5min – 1h"),
        ("fr", "en",
         "The free cells of broken_free_fr.toml were not carried over: it could not be opened. "
         "They were:\n  rules.table.grave.unstable_period: 5min – 1h"),
    ],
)  # fmt: skip
def test_the_language_link_on_a_broken_file_says_the_free_cells_it_could_not_carry(
    served: Running, page: Any, lang: str, other: str, said: str
) -> None:
    """The file shown broke on disk (read again: its problems said, its cells still drawn),
    then the language link: the page in the other language said the edits it could not
    carry, but held the free boxes without a word (said only once another scenario opened;
    a reload lost them)."""
    import os

    from playwright.sync_api import expect

    broken = served.bench.folder.root / f"broken_free_{lang}.toml"
    shutil.copy(REPO / "scenarios" / LONE, broken)
    page.goto(served.url + f"?name={broken.name}&lang={lang}")
    wait_done(page)
    open_with_the_grave_period_free(served, page, reload=False)
    text = broken.read_text(encoding="utf-8")
    broken.write_text(text.replace("cp_rs = 6", "cp_rs = x"), encoding="utf-8")
    later = broken.stat().st_mtime_ns + 2_000_000_000
    os.utime(broken, ns=(later, later))
    page.fill("#cell-patient-cp_rs", "7")  # its answer finds the file changed: read again
    expect(page.locator("#general-problems")).to_contain_text(broken.name, timeout=TIMEOUT)
    page.click(f"#lang-{other}")
    page.wait_for_selector(f"html[lang={other}]", timeout=TIMEOUT)
    expect(page.locator("#general-problems")).to_contain_text("cp_rs", timeout=TIMEOUT)
    expect(page.locator("#cal-problems")).to_have_text(said, timeout=TIMEOUT)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_free_cells_problem_starts_with_what_was_got_in_either_language(
    client: TestClient, lang: str
) -> None:
    """The French message began with a stray ': ' (its colon has a space before it)."""
    events = solve(
        client,
        name=LONE,
        lang=lang,
        free=[{"key": UNSTABLE, "low": "0,5", "high": "1h"}],
        targets=[target()],
    )
    (problem,) = [p for e in events for p in e.get("problems", []) if p["key"] == UNSTABLE]
    assert problem["message"].startswith("got '0,5'" if lang == "en" else "reçu '0,5'"), problem


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "low 1h is not below high 5min; expected the low end below the high end"),
        ("fr", "bas 1h n'est pas sous haut 5min ; attendu la borne basse sous la borne haute"),
    ],
)
def test_ends_out_of_order_are_said_as_the_pages_two_boxes(
    client: TestClient, lang: str, said: str
) -> None:
    """The page said ``got '1h..5min'; expected LOW smaller than HIGH``: the command line's
    ``KEY=LOW..HIGH``, which the page, with a low box and a high box, never shows."""
    from simulator.errors import UserError
    from simulator.scenario.keys import parse_vary

    events = solve(client, name=LONE, lang=lang, free=[unstable("1h", "5min")], targets=[target()])
    (problem,) = [p for e in events for p in e.get("problems", [])]
    assert problem == {"key": UNSTABLE, "message": said}
    with pytest.raises(UserError, match=r"got '1h\.\.5min'; expected LOW smaller than HIGH"):
        parse_vary(f"{UNSTABLE}=1h..5min")  # the command line's words stay its own


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "At an end of its range: "), ("fr", "Au bout de son intervalle : ")],
)
def test_a_free_key_stopped_at_an_end_of_its_range_is_named(
    client: TestClient, lang: str, said: str
) -> None:
    """The page said "not met" only, where calibrate and its report name the key at its end.

    The truth (20min) lies above the range 5min-10min: the search stops at 10min, and the
    answer may lie beyond it, which the page must say as the command line does.
    """
    value = exact_truth()
    events = solve(
        client,
        name=LONE,
        lang=lang,
        free=[unstable("5min", "10min")],
        targets=[target(value=value)],
    )
    result = events[-1]
    assert result["type"] == "result" and result["met"] is False
    assert result["free"][0]["value"] == "10min"
    assert result["ends"] == [UNSTABLE]
    assert any(note.startswith(said + UNSTABLE) for note in result["notes"]), result["notes"]


def test_a_target_met_or_a_key_inside_its_range_names_no_end(client: TestClient) -> None:
    events = solve(client, name=LONE, free=[unstable()], targets=[target(value=exact_truth())])
    result = events[-1]
    assert result["met"] is True and result["ends"] == [] and result["notes"] == []


def test_the_page_names_a_free_key_stopped_at_an_end_of_its_range(
    served: Running, page: Any
) -> None:
    """The truth (20min) lies below the range 1h-1h 5min: the search stops at 1h.

    A target out of reach runs every round of the search: a few whole minutes, each computed
    exactly in hundredths of a second, keep it within seconds on a busy machine (5min-10min,
    searched second by second, took 10 s of CPU, past TIMEOUT on a loaded machine).
    """
    from playwright.sync_api import expect

    page.goto(served.url + f"?name={LONE}")
    wait_done(page)
    safe = UNSTABLE.replace(".", "-")
    page.check(f"#free-{safe}")
    page.fill(f"#free-low-{safe}", "1h")
    page.fill(f"#free-high-{safe}", "1h 5min")
    row = page.locator("#cal-targets .target").first
    row.locator(".target-value").fill(repr(exact_truth()))
    row.locator(".target-stat").fill("p_dead_by_1d")
    row.locator(".target-tolerance").fill("0.005")
    row.locator(".target-set").fill("\n".join(SETS))
    page.click("#cal-solve")
    page.wait_for_selector("#calibrate[data-state=solved]", timeout=TIMEOUT)
    expect(page.locator("#cal-result .cal-note")).to_have_text(
        f"At an end of its range: {UNSTABLE}; the target may lie outside it, and a wider range "
        "searches further."
    )
    assert "at-end" in (page.get_attribute(f"#cal-values tr[data-key='{UNSTABLE}']", "class") or "")


@pytest.mark.parametrize(
    ("lang", "field", "typed", "message"),
    [
        ("en", "value", "150%", "got '150%'; expected a share from 0 to 1, such as 0.2 or 20%"),
        ("en", "value", "", "empty; expected a share from 0 to 1, such as 0.2 or 20%"),
        ("en", "tolerance", "1 point",
         "got '1 point'; expected a number above 0, such as 0.005 or 0.5%"),
        ("fr", "value", "150 %", "reçu '150 %' ; attendu une part de 0 à 1, comme 0,2 ou 20 %"),
        ("fr", "value", "", "vide ; attendu une part de 0 à 1, comme 0,2 ou 20 %"),
    ],
)  # fmt: skip
def test_a_targets_mistake_says_what_was_got_as_a_cells_does(
    client: TestClient, lang: str, field: str, typed: str, message: str
) -> None:
    """A target's value of 150% was told 'a share from 0 to 1, such as 0.2 or 20%' alone,
    where a cell's mistake starts with what was typed ('got ...') or 'empty'."""
    events = solve(client, name=LONE, lang=lang, free=[unstable()],
                   targets=[target(**{field: typed})])  # fmt: skip
    (problem,) = [p for e in events for p in e.get("problems", [])]
    assert (problem["target"], problem["field"]) == (0, field)
    assert problem["message"] == message


def test_a_solve_running_when_another_scenario_opens_is_stopped(
    served: Running, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another scenario opened while a Solve ran: the page's stop (its request aborted) was
    written but untested. Its stream ends, the server's search stops at its next round, and
    nothing of it lands on the scenario opened."""
    import threading

    from playwright.sync_api import expect

    from simulator.web import calibrating

    ended: list[str] = []
    closed, done, opened = threading.Event(), threading.Event(), threading.Event()
    solve, stream = calibrating._solve, calibrating.stream

    # the search held after each round till the other scenario opens; the progress raises
    # once the page stopped reading
    watched = watched_solve(solve, opened, 60, ended, done)

    async def streamed(*args: Any) -> Any:
        try:
            async for line in stream(*args):
                yield line
        finally:
            closed.set()  # the Solve's answer to the page ended

    monkeypatch.setattr(calibrating, "_solve", watched)
    monkeypatch.setattr(calibrating, "stream", streamed)
    page.on("dialog", lambda dialog: dialog.accept())  # yes, drop the free cells
    open_with_the_grave_period_free(served, page)
    row = page.locator("#cal-targets .target").first
    row.locator(".target-stat").fill("p_dead_by_1d")
    row.locator(".target-value").fill("0.3")
    row.locator(".target-tolerance").fill("0.005")
    row.locator(".target-set").fill("\n".join(SETS))
    page.click("#cal-solve")
    expect(page.locator("#cal-log")).to_contain_text("round 1:", timeout=TIMEOUT)
    assert not closed.is_set() and ended == []  # running, held after its first round
    page.select_option("#scenario", GERALDINE)
    shows(page, "Géraldine")
    assert closed.wait(TIMEOUT / 1000)  # the page stopped reading: its stream ended
    opened.set()
    assert done.wait(TIMEOUT / 1000)
    assert ended == ["stopped after 2 rounds", "ended"]  # its next round, not the whole search
    expect(page.locator("#cal-log")).to_be_empty()
    expect(page.locator("#cal-result")).to_be_empty()
    expect(page.locator("#cal-accept")).to_be_disabled()
    assert page.get_attribute("#calibrate", "data-state") == "idle"
