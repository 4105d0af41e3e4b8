"""A run killed part way (SIGKILL, or Ctrl-C) and started again ends with the same frame."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simulator.progress import PARTIAL_DIR
from simulator.runner import run_study
from tests.conftest import TINY

TRIALS = 2000
CHUNK = 20


def command(scenario: Path, out: Path, workers: int = 1) -> list[str]:
    return [
        sys.executable, "-m", "simulator", "run", str(scenario),
        "--trials", str(TRIALS), "--seed", "21", "--workers", str(workers),
        "--chunk-size", str(CHUNK), "--out", str(out), "--quiet", "--no-figures", "--json",
    ]  # fmt: skip


def start_and_stop(cmd: list[str], out: Path, sig: int) -> tuple[list[str], int, str]:
    """Start the command, wait until a few chunks are saved, send ``sig``; saved chunks."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            chunks = list((out / PARTIAL_DIR).glob("*/chunk-*.parquet"))
            if len(chunks) >= 3:
                break
            if proc.poll() is not None:
                pytest.fail(f"the run ended before it could be stopped: {proc.stderr.read()}")
            time.sleep(0.01)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = sorted(p.name for p in (out / PARTIAL_DIR).glob("*/chunk-*.parquet"))
    assert not (out / "trials.parquet").exists(), "the run finished before the signal"
    return saved, proc.returncode, err.decode()


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> pd.DataFrame:
    path = tmp_path_factory.mktemp("ref") / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return run_study(path, trials=TRIALS, seed=21, workers=1).trials


@pytest.mark.slow
def test_killed_run_resumes_to_the_uninterrupted_frame(tiny, tmp_path, uninterrupted):
    out = tmp_path / "out"
    cmd = command(tiny, out)
    saved, code, _ = start_and_stop(cmd, out, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert 3 <= len(saved) < TRIALS // CHUNK
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=True)
    assert '"trials": 2000' in done.stdout
    resumed = pd.read_parquet(out / "trials.parquet")
    pd.testing.assert_frame_equal(uninterrupted, resumed)
    assert not (out / PARTIAL_DIR).exists()
    assert not list(out.rglob("*.tmp"))


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_keeps_chunks_and_says_how_to_resume(tiny, tmp_path, uninterrupted):
    # Two worker processes: Ctrl-C stops the pool at once; the resumed run uses one.
    out = tmp_path / "out"
    saved, code, err = start_and_stop(command(tiny, out, workers=2), out, signal.SIGINT)
    assert code == 130
    assert "run the same command again to resume" in err
    assert "Traceback" not in err
    assert len(saved) >= 3
    subprocess.run(command(tiny, out), capture_output=True, text=True, timeout=60, check=True)
    pd.testing.assert_frame_equal(uninterrupted, pd.read_parquet(out / "trials.parquet"))
