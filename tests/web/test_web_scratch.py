"""The workbench's private temporary folders: a killed server's are swept, nothing else.

A Solve writes its calibration file into a folder of the system's temporary folder; a
server killed with kill -9 during a Solve left it there for ever (the ``serve`` command has
no end of its own to clean up after). The next workbench started sweeps it, and only what
it can prove is such a folder (:mod:`simulator.web.scratch`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

from simulator.web.scratch import OWNER, PREFIX, private_folder, sweep
from simulator.web.server import start
from tests.support import REPO

LONE = "lone_traveller.toml"
UNSTABLE = "rules.table.grave.unstable_period"

SERVE = """
import sys
from simulator.web.server import start
running = start(sys.argv[1], warm_up=False, workers=0)
print(running.url, flush=True)
running.wait()
"""


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temporary folder, for this test alone (this process and its children)."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    monkeypatch.setenv("TMPDIR", str(root))
    return root


@pytest.fixture
def served(tmp_path: Path) -> Path:
    (tmp_path / "sc").mkdir()
    shutil.copy(REPO / "scenarios" / LONE, tmp_path / "sc" / LONE)
    return tmp_path / "sc"


def ended_pid() -> int:
    """The id of a process that has ended."""
    command = [sys.executable, "-c", "import os; print(os.getpid())"]
    return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def test_a_solve_killed_with_kill_9_leaves_a_folder_the_next_start_sweeps(
    scratch: Path, served: Path
) -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(served)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        asked = {
            "name": LONE,
            "free": [{"key": UNSTABLE, "low": "5min", "high": "1h"}],
            "targets": [{"scenario": LONE, "stat": "p_dead_by_1d", "value": 0.5,
                         "set": "first_aid.start=5min\nfirst_aid.interval=5min"}],
        }  # fmt: skip
        headers = {"Origin": url.rstrip("/"), "Content-Type": "application/json"}
        with httpx.stream(
            "POST", url + "api/calibrate", json=asked, headers=headers, timeout=60
        ) as answer:
            first = json.loads(next(answer.iter_lines()))
            assert first["type"] == "started", first  # the calibration file is written
            left = list(scratch.iterdir())
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=30)
    finally:
        server.kill()
        server.wait(timeout=30)
    assert len(left) == 1 and left[0].name.startswith(PREFIX), left
    assert list(scratch.iterdir()) == left  # kill -9: nothing removed it
    again = start(served, warm_up=False, workers=0)
    again.stop()
    assert list(scratch.iterdir()) == []


def test_only_a_provably_left_folder_is_swept(scratch: Path) -> None:
    dead = ended_pid()
    with private_folder({"a.toml": "x = 1\n"}) as mine:
        kept = scratch / f"{PREFIX}{dead}-kept0000"
        shutil.copytree(mine, kept)  # an ended server's folder, but a file of the user's in it
        (kept / "notes.txt").write_text("mine", encoding="utf-8")
        changed = scratch / f"{PREFIX}{dead}-changed0"
        shutil.copytree(mine, changed)  # its file changed since: not the tool's any more
        (changed / "a.toml").write_text("x = 2\n", encoding="utf-8")
        gone = scratch / f"{PREFIX}{dead}-gone0000"
        shutil.copytree(mine, gone)
        owner = json.loads((mine / OWNER).read_text(encoding="utf-8"))
        for folder in (kept, changed, gone):
            (folder / OWNER).write_text(json.dumps(owner | {"pid": dead}), encoding="utf-8")
        empty = scratch / f"{PREFIX}{dead}-empty000"  # killed before its owner file
        empty.mkdir()
        unproven = scratch / f"{PREFIX}{dead}-unproven"  # no owner file: whose?
        unproven.mkdir()
        (unproven / "a.toml").write_text("x = 1\n", encoding="utf-8")
        alien = scratch / f"{PREFIX}{dead}-alien000"  # another host's (a shared /tmp)
        shutil.copytree(gone, alien)
        (alien / OWNER).write_text(json.dumps(owner | {"pid": dead, "host": "elsewhere"}))
        linked = scratch / f"{PREFIX}{dead}-linked00"
        linked.symlink_to(gone)
        older = scratch / "harmonies-calibrate-abcdefgh"  # an earlier version's: not proven
        older.mkdir()
        (older / "workbench.calibration.toml").write_text("", encoding="utf-8")
        swept = sweep()
        assert mine.is_dir() and (mine / "a.toml").is_file()  # this process lives: its own
    assert not mine.exists()  # removed on leaving
    assert sorted(swept) == sorted([gone, empty])
    assert sorted(p.name for p in kept.iterdir()) == [OWNER, "notes.txt"]  # the user's stays
    assert (changed / "a.toml").read_text(encoding="utf-8") == "x = 2\n"
    assert (unproven / "a.toml").is_file() and (alien / "a.toml").is_file()
    assert linked.is_symlink() and (older / "workbench.calibration.toml").is_file()


def test_a_folder_of_a_live_process_is_never_swept(scratch: Path) -> None:
    with private_folder({"a.toml": ""}) as mine:
        other = scratch / f"{PREFIX}{os.getppid()}-parent00"  # a process that runs
        other.mkdir()
        assert sweep() == []
        assert mine.is_dir() and other.is_dir()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Solve: a temporary folder could not be made in {gone} (No such file"),
        ("fr", "Résoudre : aucun dossier temporaire n'a pu être créé dans {gone} (aucun fichier"),
    ],
)
def test_a_solve_whose_temporary_folder_cannot_be_made_says_so_in_the_page_s_language(
    tmp_path: Path, served: Path, monkeypatch: pytest.MonkeyPatch, lang: str, said: str
) -> None:
    """It answered a 200 with no line at all, and printed a traceback in the terminal."""
    from tests.web.test_web_server import JSON, client_for

    gone = tmp_path / "gone"  # TMPDIR removed since the server started, say
    monkeypatch.setattr(tempfile, "tempdir", str(gone))
    assert sweep() == []  # nothing to sweep, no traceback either
    asked = {
        "name": LONE,
        "lang": lang,
        "free": [{"key": UNSTABLE, "low": "5min", "high": "1h"}],
        "targets": [{"scenario": LONE, "stat": "p_dead_by_1d", "value": 0.5}],
    }
    response = client_for(served).post("/api/calibrate", content=json.dumps(asked), headers=JSON)
    assert response.status_code == 200
    (line,) = response.text.splitlines()
    (problem,) = json.loads(line)["problems"]
    assert problem["message"].startswith(said.format(gone=gone)), problem
    assert "TMPDIR" in problem["message"]
    assert not gone.exists()


def test_no_usable_temporary_folder_at_all_is_no_traceback_at_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def none_usable() -> str:
        raise FileNotFoundError(2, "No usable temporary directory found in ['/tmp']")

    monkeypatch.setattr(tempfile, "gettempdir", none_usable)
    assert sweep() == []  # the serve went on; a Solve says what is wrong
