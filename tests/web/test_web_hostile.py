"""The workbench against hostile or odd requests: each a clear refusal, never a 500.

Found by an adversarial round on the server (issue of the round: names the system cannot
open, a loop of links in the folder, a save-as name too long in bytes, a client gone before
its body came whole, a content type that only mentions JSON, a WebSocket).
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from simulator.web.guard import Guard, own_hosts
from simulator.web.requests import body
from tests.support import REPO
from tests.web.test_web_server import JSON, OWN, client_for


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", tmp_path / "lone_traveller.toml")
    (tmp_path / "loop.toml").symlink_to("loop.toml")  # a link to itself
    (tmp_path / "ping.toml").symlink_to("pong.toml")
    (tmp_path / "pong.toml").symlink_to("ping.toml")
    return tmp_path


@pytest.fixture
def client(folder: Path) -> TestClient:
    return client_for(folder)


def run(coroutine: Coroutine[Any, Any, Any]) -> None:
    """Run ``coroutine`` to its end in a thread of its own (a browser test may hold a loop)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coroutine).result()


UNOPENABLE = ["x" * 300 + ".toml", "é" * 200 + ".toml", "loop.toml", "ping.toml"]


@pytest.mark.parametrize("name", UNOPENABLE)
def test_a_name_too_long_or_a_loop_of_links_is_refused_not_a_500(
    client: TestClient, name: str
) -> None:
    response = client.get("/api/scenario", params={"name": name})
    assert response.status_code == 403, response.text
    assert response.json()["error"].startswith(f"{name}: cannot be opened (")  # the file first
    for path in ("/api/answer", "/api/trace", "/api/save"):
        asked = json.dumps({"name": name, "as": "copy"})
        response = client.post(path, content=asked, headers=JSON)
        assert response.status_code == 403, (path, response.text)
    asked = json.dumps(
        {
            "name": "lone_traveller.toml",
            "free": [{"key": "rules.table.grave.unstable_period", "low": "5min", "high": "2h"}],
            "targets": [{"scenario": name, "stat": "p_dead_by_1d", "value": "0.5"}],
        }
    )
    response = client.post("/api/calibrate", content=asked, headers=JSON)
    assert response.status_code == 200, response.text
    said = json.loads(response.text.splitlines()[0])
    assert said["type"] == "problems" and said["problems"][0]["field"] == "scenario"


def test_the_page_lists_the_folder_whatever_loops_of_links_it_holds(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'value="lone_traveller.toml"' in page.text and 'value="loop.toml"' not in page.text
    assert "loop.toml: cannot be opened (a loop of links)" in page.text  # said, not offered


@pytest.mark.parametrize("name", ["中" * 90, "𝐀" * 70])  # 270 and 280 bytes: over 255
def test_save_as_a_name_too_long_in_bytes_is_refused_as_the_names_fault(
    client: TestClient, folder: Path, name: str
) -> None:
    before = sorted(p.name for p in folder.iterdir())
    asked = json.dumps({"name": "lone_traveller.toml", "edits": {}, "as": name})
    response = client.post("/api/save", content=asked, headers=JSON)
    assert response.status_code == 400, response.text  # the name's fault, not the machine's
    assert "could not be written (File name too long)" in response.json()["error"]
    assert sorted(p.name for p in folder.iterdir()) == before  # nothing, no temporary left


@pytest.mark.parametrize(
    "kind", ["text/plain; x=application/json", "text/plain;charset=application/json", ""]
)
def test_a_change_whose_type_only_mentions_json_is_refused(client: TestClient, kind: str) -> None:
    # text/plain with any parameter is a "simple request": another site may send it unasked
    asked = json.dumps({"name": "lone_traveller.toml", "as": "sent"})
    response = client.post(
        "/api/save", content=asked, headers={"Origin": OWN, "Content-Type": kind}
    )
    assert response.status_code == 403


def test_json_with_its_charset_is_still_json(client: TestClient) -> None:
    asked = json.dumps({"name": "lone_traveller.toml", "trial": "1"})
    kind = {"Origin": OWN, "Content-Type": "Application/JSON; charset=utf-8"}
    assert client.post("/api/trace", content=asked, headers=kind).status_code == 200


def test_every_answer_says_not_to_sniff_its_type(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/api/scenario"), client.get("/nope")):
        assert response.headers["x-content-type-options"] == "nosniff"


def test_a_websocket_never_reaches_the_application() -> None:
    # were a WebSocket library installed beside uvicorn, a foreign page's WebSocket (no
    # Origin check by the browser) would reach the routes unchecked
    reached: list[str] = []
    sent: list[dict[str, object]] = []

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        reached.append(str(scope["type"]))

    async def receive() -> dict[str, object]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    foreign = [(b"host", b"evil.example"), (b"origin", b"http://evil.example")]
    for headers in (foreign, [(b"host", b"127.0.0.1:8765"), (b"origin", OWN.encode())]):
        scope = {"type": "websocket", "path": "/static/page.css", "headers": headers}
        guard = Guard(app, lambda: own_hosts(8765))  # type: ignore[arg-type]
        run(guard(scope, receive, send))  # type: ignore[arg-type]
    assert reached == []
    assert [m["type"] for m in sent] == ["websocket.close", "websocket.close"]


def test_a_websocket_is_refused_through_the_whole_application(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/", headers={"Origin": OWN}):
        pass


def test_a_client_gone_before_its_body_came_whole_is_a_400_not_a_traceback() -> None:
    async def gone() -> dict[str, object]:
        return {"type": "http.disconnect"}

    scope = {"type": "http", "method": "POST", "path": "/api/answer", "headers": []}
    with pytest.raises(HTTPException) as raised:
        run(body(Request(scope, gone)))
    assert raised.value.status_code == 400


def test_the_answers_as_written_the_server_keeps_are_bounded():
    """Each count of trials or seed a page asks for keeps one more answer as written: a page
    left open for days, or a script asking, grew the server without end."""
    from simulator.web.folder import Folder
    from simulator.web.requests import MAX_BASES, Bench

    bench = Bench(Folder.of("scenarios"))
    for seed in range(MAX_BASES + 10):
        bench.keep_base(("lone_traveller.toml", 1, 1000, seed), {"seed": seed})
    assert len(bench.bases) == MAX_BASES
    assert ("lone_traveller.toml", 1, 1000, 0) not in bench.bases  # the oldest went first
    assert bench.bases[("lone_traveller.toml", 1, 1000, MAX_BASES + 9)] == {"seed": MAX_BASES + 9}


@pytest.mark.parametrize("route", ["/api/answer", "/api/trace", "/api/calibrate"])
def test_a_count_of_thousands_of_digits_is_a_400_not_a_500(client: TestClient, route: str) -> None:
    """Python reads no text of more than 4,300 digits as a number: it raised, a 500."""
    digits = "1" + "0" * 5000
    for what in ("trials", "seed") if route != "/api/trace" else ("seed", "trial"):
        asked = {"name": "lone_traveller.toml", what: digits, "free": [], "targets": []}
        response = client.post(route, content=json.dumps(asked), headers=JSON)
        assert response.status_code == 400, (what, response.text[:200])
        assert response.text.startswith(f"{what}: got '1000"), response.text[:200]


@pytest.mark.parametrize("twice", ["Origin", "Content-Type", "Host", "Content-Length"])
def test_a_header_the_door_checks_given_twice_is_refused(twice: str) -> None:
    """The door read the last of two Origins (or types): another reader may take the first."""
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    own = {"Host": "127.0.0.1:8765", "Origin": OWN, "Content-Type": "application/json",
           "Content-Length": "2"}  # fmt: skip
    first = {"Origin": "http://evil.example", "Content-Type": "text/plain",
             "Host": "evil.example", "Content-Length": "2"}[twice]  # fmt: skip
    headers = [(k.lower().encode(), v.encode()) for k, v in own.items()]
    headers.insert(0, (twice.lower().encode(), first.encode()))
    scope = {"type": "http", "method": "POST", "path": "/api/save", "headers": headers}
    run(Guard(app, lambda: own_hosts(8765))(scope, receive, send))
    assert reached == [] and sent[0]["status"] == 400, sent
    assert sent[1]["body"].decode() == f"refused: more than one {twice.lower()} header"


@pytest.mark.parametrize("route", ["/api/answer", "/api/trace", "/api/calibrate"])
def test_a_json_number_of_thousands_of_digits_is_told_at_its_field(
    client: TestClient, route: str
) -> None:
    """Read as a number, it raised while the body was read: 'expected a JSON object'."""
    digits = "1" + "0" * 5000
    for what in ("trials", "seed") if route != "/api/trace" else ("seed", "trial"):
        asked = f'{{"name": "lone_traveller.toml", "{what}": {digits}, "free": [], "targets": []}}'
        response = client.post(route, content=asked, headers=JSON)
        assert response.status_code == 400, (what, response.text[:200])
        assert response.text.startswith(f"{what}: got 1000"), response.text[:200]
        assert "expected a whole number" in response.text
        assert response.headers["X-Harmonies-Field"] == what  # the page marks that box


def test_a_free_end_or_a_share_of_thousands_of_digits_is_told_at_its_place(
    client: TestClient,
) -> None:
    digits = "1" + "0" * 5000
    key = "rules.table.grave.unstable_period"
    for free, value, where in (
        (digits, "0.5", {"key": key}),
        ('"5min"', digits, {"target": 0, "field": "value"}),
    ):
        asked = (
            f'{{"name": "lone_traveller.toml", "trials": 100,'
            f' "free": [{{"key": "{key}", "low": {free}, "high": "2h"}}],'
            f' "targets": [{{"scenario": "lone_traveller.toml", "stat": "p_dead_by_1d",'
            f' "value": {value}}}]}}'
        )
        response = client.post("/api/calibrate", content=asked, headers=JSON)
        assert response.status_code == 200, response.text[:200]
        said = json.loads(response.text.splitlines()[0])
        assert said["type"] == "problems", said
        (problem,) = said["problems"]
        assert where.items() <= problem.items(), problem
