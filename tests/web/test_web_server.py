"""The workbench's server without a browser: who may ask, what it reads and writes, bad input."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from simulator.cli.app import main
from simulator.rules.levels import Level
from simulator.scenario.reading import load_scenario
from simulator.studies.api import run_study
from simulator.studies.method import Exact
from simulator.web.answer import UPDATE_SECONDS
from simulator.web.app import Bench, create_app
from simulator.web.folder import Folder
from simulator.web.guard import MAX_BODY
from simulator.web.sampling import Pool
from simulator.web.words import interval, share
from tests.support import MAXIMA_GIVEN

REPO = Path(__file__).resolve().parents[2]
PORT = 8765
OWN = f"http://127.0.0.1:{PORT}"
JSON = {"Origin": OWN, "Content-Type": "application/json"}


def client_for(target: Path, pool: Pool | None = None) -> TestClient:
    bench = Bench(Folder.of(target), port=PORT, pool=pool)
    return TestClient(create_app(bench), base_url=OWN)  # type: ignore[arg-type]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("lone_traveller.toml", "geraldine.toml"):
        shutil.copy(REPO / "scenarios" / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def client(folder: Path) -> TestClient:
    return client_for(folder / "lone_traveller.toml")


def events(client: TestClient, **asked: object) -> list[dict[str, object]]:
    response = client.post("/api/answer", content=json.dumps(asked), headers=JSON)
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()]


def validate_errors(path: Path, *overrides: str) -> list[str]:
    args = ["validate", str(path), *(a for o in overrides for a in ("--set", o))]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    return [line.removeprefix("error: ") for line in result.stderr.splitlines()]


def test_the_page_and_its_assets_come_from_the_server_itself(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "/static/page.js" in page.text and "/static/page.css" in page.text
    assert "http://" not in page.text and "https://" not in page.text  # no CDN, nothing outside
    assert client.get("/static/page.js").status_code == 200
    french = client.get("/?lang=fr")
    assert "Établi" in french.text and 'lang="fr"' in french.text


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1:9999", ""])
def test_a_foreign_host_is_refused(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 403
    response = client.post("/api/answer", content="{}", headers={**JSON, "Host": host})
    assert response.status_code == 403


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "null"])
def test_a_foreign_origin_is_refused(client: TestClient, origin: str) -> None:
    asked = json.dumps({"name": "lone_traveller.toml"})
    response = client.post("/api/answer", content=asked, headers={**JSON, "Origin": origin})
    assert response.status_code == 403
    assert (
        client.get("/api/scenario?name=lone_traveller.toml", headers={"Origin": origin}).status_code
        == 403
    )


def test_no_other_site_may_frame_the_workbench(client: TestClient) -> None:
    """A page of another site framing the workbench could click Save as for its user."""
    for path in ("/", "/static/page.js", "/api/scenario?name=lone_traveller.toml"):
        response = client.get(path)
        assert response.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"], path
    refused = client.get("/", headers={"Host": "evil.example"})  # a refusal too
    assert refused.status_code == 403 and refused.headers["x-frame-options"] == "DENY"


def test_a_change_without_origin_or_as_a_form_is_refused(client: TestClient) -> None:
    asked = json.dumps({"name": "lone_traveller.toml", "as": "x"})
    plain = {"Content-Type": "application/json"}
    assert client.post("/api/save", content=asked, headers=plain).status_code == 403
    form = {"Origin": OWN, "Content-Type": "application/x-www-form-urlencoded"}
    assert client.post("/api/save", content=asked, headers=form).status_code == 403


@pytest.mark.parametrize(
    "name",
    ["../lone_traveller.toml", "/etc/passwd", "sub/../../x.toml", "..", "geraldine.toml", ""],
)
def test_a_path_outside_the_scenario_is_refused(client: TestClient, name: str) -> None:
    # geraldine.toml is in the folder, but this server was given one scenario file
    assert client.get("/api/scenario", params={"name": name}).status_code == 403
    asked = json.dumps({"name": name, "edits": {}})
    assert client.post("/api/answer", content=asked, headers=JSON).status_code == 403


def test_a_link_pointing_out_of_the_folder_is_refused(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.toml"
    shutil.copy(folder / "lone_traveller.toml", outside)
    (folder / "link.toml").symlink_to(outside)
    client = client_for(folder)
    assert client.get("/api/scenario", params={"name": "geraldine.toml"}).status_code == 200
    assert client.get("/api/scenario", params={"name": "link.toml"}).status_code == 403
    assert 'value="link.toml"' not in client.get("/").text  # not offered (said why: folder)


def test_an_oversized_body_is_refused(client: TestClient) -> None:
    big = json.dumps({"name": "lone_traveller.toml", "edits": {"x": "1" * MAX_BODY}})
    assert client.post("/api/answer", content=big, headers=JSON).status_code == 413

    def chunked() -> object:  # no Content-Length: counted as it is read
        for _ in range(3):
            yield b" " * MAX_BODY

    response = client.post("/api/answer", content=chunked(), headers=JSON)  # type: ignore[arg-type]
    assert response.status_code == 413


def test_save_as_onto_an_existing_file_is_refused(client: TestClient, folder: Path) -> None:
    before = (folder / "geraldine.toml").read_bytes()
    for name in ("geraldine", "geraldine.toml", "lone_traveller.toml"):
        asked = json.dumps({"name": "lone_traveller.toml", "edits": {}, "as": name})
        response = client.post("/api/save", content=asked, headers=JSON)
        assert response.status_code == 409, name
    assert (folder / "geraldine.toml").read_bytes() == before
    for name in ("../x", "/tmp/x", "a/b", "", ".hidden"):
        asked = json.dumps({"name": "lone_traveller.toml", "edits": {}, "as": name})
        assert client.post("/api/save", content=asked, headers=JSON).status_code == 400
    assert sorted(p.name for p in folder.iterdir()) == ["geraldine.toml", "lone_traveller.toml"]


def test_save_as_writes_a_valid_scenario_with_the_same_answer(
    client: TestClient, folder: Path
) -> None:
    edit = {"rules.table.grave.unstable_period": "2h", "patient.cp_rs": "4"}
    asked = json.dumps({"name": "lone_traveller.toml", "edits": edit, "as": "lone_2h"})
    response = client.post("/api/save", content=asked, headers=JSON)
    assert response.status_code == 200, response.text
    saved = folder / "lone_2h.toml"
    assert CliRunner().invoke(main, ["validate", str(saved)]).exit_code == 0
    texts = [f"{k}={v}" for k, v in edit.items()]
    mine = run_study(saved, Exact()).summary_json()
    theirs = run_study(folder / "lone_traveller.toml", Exact(), overrides=texts).summary_json()
    assert (
        mine["p_dead"] == theirs["p_dead"]
        and mine["median_time_to_death_h"] == theirs["median_time_to_death_h"]
    )
    # once saved, this server serves it too (and only it, besides the given file)
    assert client.get("/api/scenario", params={"name": "lone_2h.toml"}).status_code == 200


def test_an_edit_is_answered_exactly_as_run_exact_with_the_same_set(
    client: TestClient, folder: Path
) -> None:
    found = events(
        client, name="lone_traveller.toml", edits={"rules.table.grave.unstable_period": "2h"}
    )
    numbers = next(e for e in found if e["type"] == "numbers")
    exact = run_study(
        folder / "lone_traveller.toml", Exact(), overrides=["rules.table.grave.unstable_period=2h"]
    )
    assert numbers["numbers"]["method"] == "exact"  # type: ignore[index]
    assert numbers["numbers"]["p_dead_by_1d"] == exact.stat("p_dead_by_1d")  # type: ignore[index]
    assert "--exact --set rules.table.grave.unstable_period=2h" in str(numbers["command"])
    assert [e["which"] for e in found if e["type"] == "figure"] == ["fate", "first_day"]
    assert all(str(e["svg"]).startswith("<svg") for e in found if e["type"] == "figure")


def test_the_files_value_written_otherwise_is_no_set_on_the_command_line(
    client: TestClient,
) -> None:
    """``15 min`` typed in a cell of ``15min`` was sent on as ``--set ...=15 min``."""
    edits = {"rules.table.grave.unstable_period": "15 min", "patient.cp_rs": "4"}
    found = events(client, name="lone_traveller.toml", edits=edits)
    command = str(next(e for e in found if e["type"] == "numbers")["command"])
    assert command.endswith("--exact --set patient.cp_rs=4")


def test_the_exact_answer_carries_run_exacts_intervals(client: TestClient, folder: Path) -> None:
    """The workbench's exact answer gave ``ci: None`` where ``run --exact --json`` gives
    ``[p, p + dropped_mass]`` clipped to [0, 1] (CONTRACT.md); the page shows them too."""
    found = events(client, name="lone_traveller.toml", edits={})
    event = next(e for e in found if e["type"] == "numbers")
    numbers, answer = event["numbers"], event["answer"]
    exact = run_study(folder / "lone_traveller.toml", Exact())
    summary = exact.summary_json()
    assert numbers["method"] == "exact"  # type: ignore[index]
    for key in ("p_dead", "p_healed", "p_wounded", "p_incoherent"):
        assert numbers[f"{key}_ci"] == summary[f"{key}_ci"]  # type: ignore[index]
    assert numbers["p_dead_wound_ci"] == summary["p_dead_by_cause_ci"]["wound"]  # type: ignore[index]
    by_day = exact.stat("p_dead_by_1d")
    dropped = summary["dropped_mass"]
    assert numbers["p_dead_by_1d_ci"] == [by_day, min(1.0, by_day + dropped)]  # type: ignore[index]
    rows = {row["key"]: row for row in answer["rows"]}  # type: ignore[index]
    assert rows["p_dead"]["ci"] == "exact"  # both ends read 100.0000%: said once
    assert answer["ci_label"] == "interval"  # type: ignore[index]
    assert interval([0.5, 0.5 + 1e-5], True, "en") == "50.0000%–50.0010%"
    assert interval([0.5, 0.5 + 1e-5], True, "fr") == "50,0000\u202f%–50,0010\u202f%"


@pytest.mark.parametrize("workers", [0, 2], ids=["in the server", "two worker processes"])
def test_over_the_budget_the_answer_is_the_trials_of_run(folder: Path, workers: int) -> None:
    pool = Pool(workers) if workers else None
    try:
        check_sampled(client_for(folder, pool), folder)
    finally:
        if pool is not None:
            pool.close()


def check_sampled(client: TestClient, folder: Path) -> None:
    found = events(client, name="geraldine.toml", edits={}, trials=600, seed=3)
    steps = [e["numbers"] for e in found if e["type"] == "numbers"]
    assert {s["method"] for s in steps} == {"sampled"}  # type: ignore[index]
    assert [s["trials"] for s in steps][-1] == 600 and len(steps) > 1  # streamed by chunks
    widths = [s["p_dead_ci"][1] - s["p_dead_ci"][0] for s in steps]  # type: ignore[index]
    assert widths[-1] < widths[0]
    run = run_study(folder / "geraldine.toml", trials=600, seed=3, workers=1).summary_json()
    assert steps[-1]["p_dead"] == run["p_dead"] and steps[-1]["p_dead_ci"] == run["p_dead_ci"]  # type: ignore[index]
    assert "--trials 600 --seed 3" in str(
        next(e for e in found if e["type"] == "numbers")["command"]
    )


@pytest.mark.parametrize(
    "edit",
    [
        {"rules.table.grave.unstable_period": "-5min"},
        {"patient.cp_rs": "six"},
        {"horizon": "0s"},
    ],
)
def test_a_bad_cell_gets_validates_message_at_the_cell(
    client: TestClient, folder: Path, edit: dict[str, str]
) -> None:
    found = events(client, name="lone_traveller.toml", edits=edit)
    assert [e["type"] for e in found] == ["problems"]
    ((key, value),) = edit.items()
    expected = validate_errors(folder / "lone_traveller.toml", f"{key}={value}")
    problems = found[0]["problems"]
    # validate's message, said about the cell: without its `--set KEY=VALUE (on FILE): KEY: `
    where = f"--set {key}={value} (on {folder / 'lone_traveller.toml'}): {key}: "
    assert [where + p["message"] for p in problems] == expected  # type: ignore[index]
    assert all(p["message"].startswith(("got ", "missing")) for p in problems)  # type: ignore[index]
    assert all(str(folder) not in p["message"] for p in problems)  # type: ignore[index]
    assert problems[0]["key"] == key  # type: ignore[index]


@pytest.mark.parametrize(
    ("lang", "made"),
    [
        ("en", "(the file has no [first_aid]: your edit of the cell first_aid.level created it)"),
        (
            "fr",
            "(le fichier n'a pas de [first_aid] : votre modification de la case "
            "first_aid.level l'a créée)",
        ),
    ],
)
def test_a_table_an_edit_made_names_the_edited_cell_not_set(
    client: TestClient, lang: str, made: str
) -> None:
    """The page said "--set created it": the designer typed in a cell, never a --set."""
    found = events(client, name="lone_traveller.toml", edits={"first_aid.level": "3"}, lang=lang)
    problems = found[0]["problems"]  # type: ignore[index]
    keys = {p["key"] for p in problems}  # type: ignore[index]
    assert keys == {"first_aid.start", "first_aid.interval"}
    for problem in problems:  # type: ignore[union-attr]
        assert problem["message"].endswith(made), problem  # type: ignore[index]
        assert "--set" not in problem["message"]  # type: ignore[index]


def test_the_command_line_still_says_set_created_the_table(folder: Path) -> None:
    errors = validate_errors(folder / "lone_traveller.toml", "first_aid.level=3")
    assert errors and all(
        e.endswith("(the file has no [first_aid]: --set created it)") for e in errors
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "gone.toml: no such file in the folder (deleted or renamed since the page "
         "listed it?); expected a scenario file of the folder"),
        ("fr", "gone.toml : aucun fichier de ce nom dans le dossier (supprimé ou renommé depuis "
         "que la page l'a listé ?) ; attendu un fichier de scénario du dossier"),
    ],
)  # fmt: skip
def test_a_scenario_gone_from_the_folder_is_said_in_the_pages_language(
    client: TestClient, folder: Path, lang: str, said: str
) -> None:
    """A file deleted after the page listed it was told in English, as a refusal."""
    (folder / "gone.toml").write_text("", encoding="utf-8")
    whole = client_for(folder)
    (folder / "gone.toml").unlink()
    answer = whole.get("/api/scenario", params={"name": "gone.toml", "lang": lang})
    assert answer.status_code == 404
    assert answer.json()["error"] == said
    assert str(folder) not in answer.json()["error"]


def test_nonsense_never_crashes_the_server(client: TestClient) -> None:
    bad = [
        "not json",
        "[1, 2]",
        json.dumps({"name": "lone_traveller.toml", "edits": {"no.such.key": "1"}}),
        json.dumps({"name": "lone_traveller.toml", "edits": {"patient.cp_rs": 3}}),
        json.dumps({"name": "lone_traveller.toml", "edits": ["x"]}),
        json.dumps({"name": "lone_traveller.toml", "trials": -1}),
        json.dumps({"name": 7}),
    ]
    for text in bad:
        response = client.post("/api/answer", content=text, headers=JSON)
        assert response.status_code in (200, 400, 403), text
        if response.status_code == 200:
            assert json.loads(response.text.splitlines()[0])["type"] == "problems", text
    assert client.get("/api/scenario", params={"name": "lone_traveller.toml"}).status_code == 200


def test_trace_tells_the_campaign_as_the_trace_command(client: TestClient, folder: Path) -> None:
    asked = {"name": "lone_traveller.toml", "edits": {"rules.table.grave.unstable_period": "2h"}}
    told = client.post(
        "/api/trace", content=json.dumps({**asked, "trial": 4, "seed": 1}), headers=JSON
    ).json()
    args = ["trace", str(folder / "lone_traveller.toml"), "--seed", "1", "--trial", "4"]
    args += ["--set", "rules.table.grave.unstable_period=2h"]
    assert told["text"] + "\n" == CliRunner().invoke(main, args).stdout
    assert "S3" in told["text"]
    found = client.post(
        "/api/trace", content=json.dumps({**asked, "find": "healed"}), headers=JSON
    ).json()
    assert found["problems"][0]["message"].startswith("no trial of this scenario can end healed")
    # the page's button, not a flag: nobody typed --find there
    french = client.post(
        "/api/trace", content=json.dumps({**asked, "find": "healed", "lang": "fr"}), headers=JSON
    ).json()
    assert french["problems"][0]["message"].startswith(  # the button's word, not the flag's
        "aucun essai de ce scénario ne peut finir en « guéri »"
    )


def ctrl_c_on() -> None:
    """In the child: Ctrl-C as a terminal's foreground job has it, even when this test run
    ignores it (a job started in the background by a shell without job control): Python
    then leaves an inherited SIG_IGN in place, and the command rightly keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_serve_prints_its_address_and_serves_the_page(folder: Path) -> None:
    script = Path(sys.executable).parent / "harmonies-sim"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "simulator"]
    command += ["serve", str(folder / "lone_traveller.toml"), "--port", "0", "--no-open"]
    started = time.perf_counter()
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_on
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        ready = time.perf_counter() - started
        assert line.startswith(
            f"The workbench on {folder / 'lone_traveller.toml'}: http://127.0.0.1:"
        )
        url = line.split(": ", 1)[1].split()[0]
        import httpx

        assert httpx.get(url, timeout=30).status_code == 200
        print(f"serve: ready {ready:.2f} s after it was started")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    said = server.stderr.read() if server.stderr else ""
    assert server.returncode == 130, said  # Ctrl-C: 130 and one line, as CONTRACT says
    assert said.strip().splitlines() == ["the workbench has stopped; nothing it saved is lost"]


def test_serve_stopped_by_sigterm_says_so_and_exits_143(folder: Path) -> None:
    script = Path(sys.executable).parent / "harmonies-sim"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "simulator"]
    command += ["--lang", "fr", "serve", str(folder), "--port", "0", "--no-open"]  # the global
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith(f"L'établi sur {folder} : http://127.0.0.1:"), line
        assert "/?lang=fr" in line and "Ctrl-C l'arrête" in line
        import httpx

        page = httpx.get(line.split(" : ", 1)[1].split()[0], timeout=30).text
        assert '<html lang="fr"' in page
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    said = server.stderr.read() if server.stderr else ""
    assert server.returncode == 143, said
    assert said.strip().splitlines() == [
        "l'établi s'est arrêté ; rien de ce qu'il a enregistré n'est perdu (SIGTERM)"
    ]


def test_serve_refuses_a_missing_target_and_a_taken_port(folder: Path) -> None:
    for target in (folder / "nope.toml", REPO / "README.md"):
        result = CliRunner().invoke(main, ["serve", str(target), "--no-open"])
        assert result.exit_code == 2 and result.stderr.startswith(f"error: {target}: "), target
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        args = ["serve", str(folder), "--port", str(port), "--no-open"]
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and f"--port: got {port}" in result.stderr


@pytest.mark.parametrize("scenario", sorted(p.name for p in (REPO / "scenarios").glob("*.toml")))
def test_every_scenario_of_the_repository_opens_and_is_answered(scenario: str) -> None:
    client = client_for(REPO / "scenarios")
    shown = client.get("/api/scenario", params={"name": scenario}).json()
    keys = {cell["key"] for cell in shown["cells"]}
    assert {"rules.table.grave.unstable_period", "patient.cp_rs", "horizon", "ruleset"} <= keys
    found = events(client, name=scenario, edits={}, trials=100)
    numbers = [e for e in found if e["type"] == "numbers"]
    assert numbers and numbers[-1]["final"], found[:1]
    assert [e["which"] for e in found if e["type"] == "figure"][:1] == ["fate"]


def test_a_newer_edit_stops_the_older_computation(folder: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from simulator.scenario.reading import load_scenario
    from simulator.web.answer import Job, events

    newest = [True]
    scenario = load_scenario(folder / "geraldine.toml")
    job = Job(scenario, (), 50_000, 0, "en", lambda: newest[0])

    async def read() -> list[dict[str, object]]:
        seen = []
        async for event in events(job):
            seen.append(event)
            newest[0] = False  # a newer edit came after the first chunk
        return seen

    with ThreadPoolExecutor(1) as thread:  # a loop of its own (a browser test may run one here)
        seen = thread.submit(asyncio.run, read()).result()
    assert [e["type"] for e in seen] == ["numbers"]
    assert seen[0]["final"] is False and seen[0]["numbers"]["trials"] < 50_000  # type: ignore[index]


def test_an_answer_of_a_file_changed_since_is_not_reused(client: TestClient, folder: Path) -> None:
    edit = {"rules.table.grave.unstable_period": "2h"}
    first = [
        e for e in events(client, name="lone_traveller.toml", edits=edit) if e["type"] == "numbers"
    ]
    path = folder / "lone_traveller.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("cp_rs = 6", "cp_rs = 14"))
    os.utime(path, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    again = [
        e for e in events(client, name="lone_traveller.toml", edits=edit) if e["type"] == "numbers"
    ]
    written = run_study(path, Exact()).stat("p_dead")
    before = run_study(REPO / "scenarios" / "lone_traveller.toml", Exact()).stat("p_dead")
    assert share(written, True, "en") != share(before, True, "en")
    assert first[-1]["answer"]["rows"][0]["base"] == share(before, True, "en")  # type: ignore[index]
    assert again[-1]["answer"]["rows"][0]["base"] == share(written, True, "en")  # type: ignore[index]


def test_the_answer_names_what_kills_under_dies(client: TestClient, folder: Path) -> None:
    """Q3 on the page: each cause that killed is a row under "dies", its share the engine's."""
    found = events(client, name="lone_traveller.toml", edits={})
    numbers = next(e for e in found if e["type"] == "numbers")
    rows = numbers["answer"]["rows"]  # type: ignore[index]
    keys = [row["key"] for row in rows]
    assert keys[:2] == ["p_dead", "p_dead_wound"]  # untreated: the wound's spell kills, alone
    assert rows[1]["cause"] and not rows[0]["cause"]
    exact = run_study(folder / "lone_traveller.toml", Exact()).summary_json()
    assert rows[1]["p"] == exact["p_dead_by_cause"]["wound"]
    assert rows[1]["p"] == pytest.approx(rows[0]["p"], abs=1e-12)  # the only cause: all deaths
    assert rows[1]["label"] == "a wound received"
    french = events(client, name="lone_traveller.toml", edits={}, lang="fr")
    numbers = next(e for e in french if e["type"] == "numbers")
    assert numbers["answer"]["rows"][1]["label"] != "a wound received"  # type: ignore[index]


def test_a_newer_answer_stops_only_the_older_one_of_the_same_page(folder: Path) -> None:
    bench = Bench(Folder.of(folder), port=PORT)
    a, b = bench.ask("tab-a"), bench.ask("tab-b")
    assert a() and b()
    again = bench.ask("tab-a")
    assert again() and not a() and b()  # tab A's newer edit stops tab A's older answer only
    bench.ask("")
    assert again() and b()


def test_a_page_id_that_is_not_one_is_refused(client: TestClient) -> None:
    for page in [7, "x" * 65, "a b", "../x", ["a"]]:
        asked = json.dumps({"name": "lone_traveller.toml", "page": page})
        response = client.post("/api/answer", content=asked, headers=JSON)
        assert response.status_code == 400 and "page: got" in response.text, page


@pytest.mark.compiled  # a million trials: seconds compiled, many minutes as plain Python
def test_two_pages_answered_at_once_never_stop_each_other(folder: Path) -> None:
    """Tab A's million trials go on to the end while tab B asks; a newer ask of A stops A."""
    from concurrent.futures import ThreadPoolExecutor

    bench = Bench(Folder.of(folder), port=PORT)
    client = TestClient(create_app(bench), base_url=OWN)  # type: ignore[arg-type]
    finished: dict[str, float] = {}

    took: dict[str, float] = {}

    def ask(page: str, trials: int) -> list[dict[str, object]]:
        started = time.perf_counter()
        found = events(client, name="geraldine.toml", edits={}, trials=trials, page=page)
        finished[page] = time.perf_counter()
        took[page] = finished[page] - started
        return found

    def begun(page: str) -> None:
        deadline = time.perf_counter() + 60
        while page not in bench.newest:
            assert time.perf_counter() < deadline, f"{page} never asked"
            time.sleep(0.005)

    with ThreadPoolExecutor(2) as threads:
        big = threads.submit(ask, "tab-a", 1_000_000)
        begun("tab-a")
        small = ask("tab-b", 200)
        assert "tab-a" not in finished  # tab B was asked and answered while tab A computed
        found = big.result()
    numbers = [e["numbers"] for e in found if e["type"] == "numbers"]
    assert numbers[-1]["trials"] == 1_000_000  # type: ignore[index]
    # the numbers as they come, but not after every chunk: at most one per UPDATE_SECONDS
    assert 1 < len(numbers) <= 2 + took["tab-a"] / UPDATE_SECONDS, (len(numbers), took)
    assert [e["which"] for e in found if e["type"] == "figure"] == ["fate", "first_day"]
    assert [e["numbers"] for e in small if e["type"] == "numbers"][-1]["trials"] == 200  # type: ignore[index]
    assert [e["which"] for e in small if e["type"] == "figure"] == ["fate", "first_day"]

    with ThreadPoolExecutor(1) as threads:
        older = threads.submit(ask, "tab-c", 1_000_000)
        begun("tab-c")
        newer = ask("tab-c", 200)  # the same page asks again: its older answer stops
        stopped = older.result()
    steps = [e for e in stopped if e["type"] == "numbers"]  # none if stopped before a chunk
    assert all(e["final"] is False and e["numbers"]["trials"] < 1_000_000 for e in steps)  # type: ignore[index]
    assert not [e for e in stopped if e["type"] == "figure"]
    assert [e["numbers"] for e in newer if e["type"] == "numbers"][-1]["trials"] == 200  # type: ignore[index]


def test_the_page_in_french_shows_the_scenarios_french_and_french_numbers(folder: Path) -> None:
    """``serve --lang fr`` (or the page's fr link): ``name_fr``, ``description_fr``, 1,4e−11."""
    import tomllib

    from simulator.report.i18n import mass_text

    written = tomllib.loads((folder / "lone_traveller.toml").read_text(encoding="utf-8"))
    assert written["name_fr"] != written["name"]
    french = TestClient(create_app(Bench(Folder.of(folder), lang="fr", port=PORT)), base_url=OWN)  # type: ignore[arg-type]
    english = client_for(folder)
    for client, asked, lang in ((french, {}, "fr"), (english, {"lang": "fr"}, "fr"),
                                (english, {}, "en")):  # fmt: skip
        shown = client.get("/api/scenario", params={"name": "lone_traveller.toml", **asked}).json()
        suffix = "_fr" if lang == "fr" else ""
        assert shown["title"] == written[f"name{suffix}"], (lang, asked)
        assert shown["description"] == written[f"description{suffix}"], (lang, asked)
        found = events(client, name="lone_traveller.toml", edits={}, **asked)
        numbers = next(e for e in found if e["type"] == "numbers")
        dropped = numbers["numbers"]["dropped"]  # type: ignore[index]
        assert 0 < dropped < 1e-4  # a small number, written in exponent form
        note = numbers["answer"]["note"]  # type: ignore[index]
        assert mass_text(dropped, lang) in note, note
        if lang == "fr":
            assert "," in mass_text(dropped, "fr") and "." not in note, note
        else:
            assert f"{dropped:.2g}" in note, note
    geraldine = french.get("/api/scenario", params={"name": "geraldine.toml"}).json()
    assert geraldine["title"] == "Géraldine après l'embuscade"


def test_a_problem_is_said_about_its_cell_in_french_and_never_names_the_folder(
    folder: Path,
) -> None:
    client = client_for(folder)
    found = events(client, name="lone_traveller.toml", edits={"patient.cp_rs": "six"}, lang="fr")
    (problem,) = found[0]["problems"]  # type: ignore[misc]
    assert problem["key"] == "patient.cp_rs"
    assert problem["message"].startswith("reçu 'six' ; attendu "), problem
    assert "--set" not in problem["message"] and str(folder) not in problem["message"]
    emptied = {"rules.table.grave.unstable_period": " "}
    for lang, said in (("en", "empty; expected a value (the file gives 15min)"),
                       ("fr", "vide ; attendu une valeur (le fichier donne 15min)")):  # fmt: skip
        found = events(client, name="lone_traveller.toml", edits=emptied, lang=lang)
        assert found[0]["problems"] == [  # type: ignore[index]
            {"key": "rules.table.grave.unstable_period", "message": said}
        ]
    (folder / "broken.toml").write_text('name = "broken"\nhorizon = \n', encoding="utf-8")
    (folder / "unknown.toml").write_text(
        "sahre = 2\n" + (folder / "lone_traveller.toml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    for name in ("broken.toml", "unknown.toml"):
        shown = client.get("/api/scenario", params={"name": name}).json()
        assert shown["problems"], shown
        for problem in shown["problems"]:
            assert problem["key"] == "" and str(folder) not in problem["message"], problem
    (unknown,) = client.get("/api/scenario", params={"name": "unknown.toml"}).json()["problems"]
    assert unknown["message"].startswith("sahre: "), unknown


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_settings_are_labelled_in_words_in_either_language(
    client: TestClient, lang: str
) -> None:
    from simulator.report.i18n import tr

    shown = client.get("/api/scenario", params={"name": "lone_traveller.toml", "lang": lang})
    labels = {cell["key"]: cell["label"] for cell in shown.json()["cells"]}
    settings = {key: text for key, text in labels.items() if key.startswith("rules.")}
    assert len(settings) > 5 and "rules.tie_succeeds" in settings
    assert all("_" not in text for text in labels.values()), labels  # no raw file key
    for key, text in settings.items():  # tie_succeeds is "a tie succeeds", in words
        if not key.startswith("rules.table."):
            assert text != key.removeprefix("rules.") and " " in text, (key, text)
    if lang == "fr":
        english = client.get("/api/scenario", params={"name": "lone_traveller.toml"}).json()
        for cell in english["cells"]:
            if cell["key"].startswith("rules.") and cell["group"] == "rules":
                assert labels[cell["key"]] == tr(cell["label"], "fr") != cell["label"], cell


def test_the_workbenchs_pool_and_policy_are_the_runners_and_the_studies() -> None:
    """Issue 30: the workbench keeps no pool and no policy of its own."""
    import ast

    from simulator.runner.backends.local import LocalBackend

    pool = Pool(2)
    try:
        assert isinstance(pool.backend, LocalBackend) and pool.backend.workers == 2
    finally:
        pool.close()
    web = Path(__file__).resolve().parents[2] / "simulator" / "web"
    for name in ("sampling.py", "answer.py"):
        tree = ast.parse((web / name).read_text(encoding="utf-8"))
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
        }
        assert not used & {"ProcessPoolExecutor", "worker_setup", "solve"}, name


def test_a_file_broken_on_disk_while_the_page_is_open_answers_its_problems(
    client: TestClient, folder: Path
) -> None:
    """The page read the file; then it was edited badly: each request says why, never 500.

    With the stamp the page read, each request first says the file changed (the page reads
    it again, and shows its problems); without one, each says the problems.
    """
    read = client.get("/api/scenario", params={"name": "lone_traveller.toml"}).json()
    path = folder / "lone_traveller.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("cp_rs = ", "cp_rs = x"), "utf-8")
    os.utime(path, ns=(time.time_ns(), int(read["stamp"]) + 1_000_000_000))
    asked = {"name": "lone_traveller.toml", "edits": {"rules.table.grave.unstable_period": "2h"}}
    assert events(client, **asked, trials=10, stamp=read["stamp"]) == [{"type": "changed"}]
    for url in ("/api/trace", "/api/save"):
        sent = json.dumps({**asked, "as": "x.toml", "stamp": read["stamp"]})
        assert client.post(url, content=sent, headers=JSON).json() == {"changed": True}, url
    assert not (folder / "x.toml").exists()  # nothing saved of a file the page does not show
    again = client.get("/api/scenario", params={"name": "lone_traveller.toml"}).json()
    assert "cp_rs" in json.dumps(again["problems"])
    (first,) = events(client, **asked, trials=10)
    assert first["type"] == "problems" and "cp_rs" in json.dumps(first["problems"])
    for url in ("/api/trace", "/api/save"):
        response = client.post(url, content=json.dumps({**asked, "as": "x.toml"}), headers=JSON)
        assert response.status_code in (200, 400), (url, response.text)
        assert "problems" in response.json(), url


def test_counts_come_as_typed_and_mistakes_are_quoted_in_the_page_language(
    client: TestClient,
) -> None:
    asked = {"name": "lone_traveller.toml"}
    told = client.post(
        "/api/trace",
        content=json.dumps({**asked, "trial": "3", "seed": "9007199254740993"}),
        headers=JSON,
    ).json()
    assert told["trial"] == 3 and "9007199254740993" in told["text"]  # past 2**53, exact
    for value, quoted in (("-1", "'-1'"), ("1.5", "'1.5'"), ("", "''"), (-1, "-1")):
        refused = client.post(
            "/api/trace", content=json.dumps({**asked, "trial": value, "lang": "fr"}), headers=JSON
        )
        assert refused.status_code == 400
        assert refused.text.startswith(f"essai : reçu {quoted} ; attendu un nombre entier de 0 à")


def test_an_answer_asked_of_a_file_changed_since_the_page_read_it_says_so(
    client: TestClient, folder: Path
) -> None:
    """The page shows the cells it read: it must read them again, not show other numbers."""
    read = client.get("/api/scenario", params={"name": "lone_traveller.toml"}).json()
    path = folder / "lone_traveller.toml"
    asked = {"name": "lone_traveller.toml", "trials": 10}
    assert events(client, **asked, stamp=read["stamp"])[0]["type"] != "changed"
    path.write_text(path.read_text(encoding="utf-8").replace("cp_rs = 6", "cp_rs = 9"), "utf-8")
    os.utime(path, ns=(time.time_ns(), int(read["stamp"]) + 1_000_000_000))
    assert events(client, **asked, stamp=read["stamp"]) == [{"type": "changed"}]
    again = client.get("/api/scenario", params={"name": "lone_traveller.toml"}).json()
    assert {c["key"]: c["value"] for c in again["cells"]}["patient.cp_rs"] == "9"
    assert events(client, **asked, stamp=again["stamp"])[0]["type"] != "changed"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/answer", '{"name": "\\ud800.toml"}'),
        ("/api/trace", '{"name": "lone_traveller.toml", "edits": {"\\ud800": "1"}}'),
        ("/api/save", '{"name": "lone_traveller.toml", "edits": {"\\ud800": "1"}, "as": "s"}'),
        ("/api/calibrate", '{"name": "lone_traveller.toml", "targets": [{"stat": "\\ud800"}]}'),
    ],
)
def test_a_lone_surrogate_outside_a_cell_is_a_400_not_a_500(
    client: TestClient, path: str, body: str
) -> None:
    response = client.post(path, content=body, headers=JSON)
    assert response.status_code == 400, response.text
    assert "lone surrogate" in response.text


def test_an_overlong_cell_is_told_as_overlong_not_as_no_cell(client: TestClient) -> None:
    edits = {"rules.table.grave.unstable_period": "1" * 1001}
    found = events(client, name="lone_traveller.toml", edits=edits)
    assert found[0]["problems"] == [  # type: ignore[index]
        {
            "key": "rules.table.grave.unstable_period",
            "message": "longer than 1000 characters; expected a value",
        }
    ]


def test_a_table_cell_typed_as_the_file_has_it_is_an_edit_once_the_profile_moves(
    client: TestClient,
) -> None:
    """Under the hydra profile the grave max is 3: typing the file's 2 must run 2."""
    edits = {"patient.profile": "hydra", "rules.table.grave.max": "2"}
    found = events(client, name="lone_traveller.toml", edits=edits)
    command = next(e for e in found if e["type"] == "numbers")["command"]
    assert "--set patient.profile=hydra" in str(command)
    assert "--set rules.table.grave.max=2" in str(command)
    same = events(client, name="lone_traveller.toml", edits={"rules.table.grave.max": "2"})
    assert "rules.table.grave.max" not in str(next(e for e in same if e["type"] == "numbers"))


@pytest.mark.parametrize(
    ("edit", "cell"),
    [
        ({"injuries.0.count": "0"}, "injuries.0.count"),
        ({"watch.neglect_at": "six"}, "watch.neglect_at"),
    ],
)
def test_a_problem_of_an_injury_or_a_list_is_said_at_its_cell(
    client: TestClient, edit: dict[str, str], cell: str
) -> None:
    """injuries[0].count and watch.neglect_at[0] were said in the general problems only."""
    found = events(client, name="lone_traveller.toml", edits=edit)
    assert [p["key"] for p in found[0]["problems"]] == [cell]  # type: ignore[index]


def test_a_max_that_patient_maxima_gives_is_edited_where_it_wins(tmp_path: Path) -> None:
    """T2: the max cell of a level ``[patient.maxima]`` gives is that key, not the table's.

    The cell edited ``rules.table.grave.max``, which the maxima outrank: the page took 5,
    answered as for 1, and saved a file that ran as 1.
    """
    (tmp_path / "maxima.toml").write_text(MAXIMA_GIVEN, encoding="utf-8")
    client = client_for(tmp_path / "maxima.toml")
    shown = client.get("/api/scenario", params={"name": "maxima.toml"}).json()
    keys = [cell["key"] for cell in shown["cells"] if cell["group"] == "table"]
    assert "patient.maxima.grave" in keys and "rules.table.grave.max" not in keys
    assert "rules.table.light.max" in keys  # the table's own where no maxima are given
    grave = next(cell for cell in shown["cells"] if cell["key"] == "patient.maxima.grave")
    assert grave["value"] == "1" and grave["label"] == "max"
    found = events(client, name="maxima.toml", edits={"patient.maxima.grave": "5"})
    numbers = next(e for e in found if e["type"] == "numbers")
    assert "--set patient.maxima.grave=5" in str(numbers["command"])
    moved = run_study(tmp_path / "maxima.toml", Exact(), overrides=["patient.maxima.grave=5"])
    assert numbers["numbers"]["p_dead"] == moved.stat("p_dead") < 0.9  # type: ignore[index]
    saved = client.post(
        "/api/save",
        content=json.dumps(
            {"name": "maxima.toml", "edits": {"patient.maxima.grave": "5"}, "as": "five"}
        ),
        headers=JSON,
    )
    assert saved.status_code == 200, saved.text
    assert load_scenario(tmp_path / "five.toml").table[Level.GRAVE].max == 5
    refused = validate_errors(tmp_path / "maxima.toml", "rules.table.grave.max=5")
    assert refused == [
        "--set rules.table.grave.max=5 (on "
        f"{tmp_path / 'maxima.toml'}): rules.table.grave.max: got 5; expected "
        "patient.maxima.grave, which the file gives and which wins over the table's max "
        "([patient.maxima] comes last); this key would change nothing"
    ]


def test_every_key_of_the_file_has_its_cell_activities_and_french_texts_too(
    tmp_path: Path,
) -> None:
    """The README promises every other key of the file: activities (X1), ``name_fr`` and the
    descriptions had none (a renamed scenario kept its old French title, unseen)."""
    shutil.copy(REPO / "scenarios" / "hydra.toml", tmp_path / "hydra.toml")
    client = client_for(tmp_path / "hydra.toml")
    shown = client.get("/api/scenario", params={"name": "hydra.toml"}).json()
    cells = {cell["key"]: cell for cell in shown["cells"]}
    written = load_scenario(tmp_path / "hydra.toml")
    assert written.activities
    for i, activity in enumerate(written.activities):
        assert cells[f"activities.{i}.modifier"]["value"] == str(activity.modifier)
        assert cells[f"activities.{i}.at"]["group"] == "activities"
    for key in ("name_fr", "description", "description_fr"):
        assert cells[key]["value"] == (getattr(written, key) or ""), key
    edits = {"activities.0.modifier": "-9", "name_fr": "Une autre hydre"}
    found = events(client, name="hydra.toml", edits=edits)
    numbers = next(e for e in found if e["type"] == "numbers")
    assert "--set activities.0.modifier=-9" in str(numbers["command"])
    saved = client.post(
        "/api/save",
        content=json.dumps({"name": "hydra.toml", "edits": edits, "as": "hydra2"}),
        headers=JSON,
    )
    assert saved.status_code == 200, saved.text
    again = load_scenario(tmp_path / "hydra2.toml")
    assert again.activities[0].modifier == -9 and again.name_fr == "Une autre hydre"


def test_a_choice_is_said_in_the_pages_language_with_the_files_word(folder: Path) -> None:
    """The French page listed ``light``, ``restart``: the file's words, untranslated."""
    client = client_for(folder / "lone_traveller.toml")
    french = client.get("/api/scenario", params={"name": "lone_traveller.toml", "lang": "fr"})
    cells = {cell["key"]: cell for cell in french.json()["cells"]}
    level = cells["injuries.0.level"]
    assert level["choices"][0] == "light" and level["shown"][0] == "légère (light)"
    rest = cells["rules.rest_after_unstable"]
    assert dict(zip(rest["choices"], rest["shown"], strict=True)) == {
        "restart": "reprise du départ (restart)",
        "resume": "poursuite du repos entamé (resume)",
    }
    english = client.get("/api/scenario", params={"name": "lone_traveller.toml", "lang": "en"})
    level = {c["key"]: c for c in english.json()["cells"]}["injuries.0.level"]
    assert level["shown"] == level["choices"]


def test_a_broken_file_is_told_in_the_pages_language_its_line_too(folder: Path) -> None:
    """The page said `line 2 : reçu …` (an English place) on a French page."""
    (folder / "broken.toml").write_text('name = "x"\nhorizon = 3d\n', encoding="utf-8")
    client = client_for(folder)
    answer = client.get("/api/scenario", params={"name": "broken.toml", "lang": "fr"}).json()
    messages = [p["message"] for p in answer["problems"]]
    assert any(m.startswith("ligne 2 : reçu 'horizon = 3d'") for m in messages), messages
    assert any('une durée écrite entre guillemets : horizon = "3d"' in m for m in messages)
