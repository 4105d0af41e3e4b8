"""A run killed part way (SIGKILL, or Ctrl-C) and started again ends with the same frame.

The interrupted run must not be able to finish before the signal arrives, however fast or
loaded the machine: it runs the real command line in a process whose chunk store stalls
after its third saved chunk (the chunk is written first), and the test signals it only
then. Nothing else of the run is changed. SIGTERM stops a run as Ctrl-C does.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simulator.runner.plan import PARTIAL_DIR
from simulator.studies.api import run_study
from tests.support import TINY

TRIALS = 2000
CHUNK = 20


STALL_AFTER = 3

# Runs ``harmonies-sim ARGS...`` with Plan.store stalling after STALL_AFTER saved chunks;
# the stall is announced by a file named in argv[2], which holds the process ids of the
# run's worker processes (none with one worker); argv[1] is STALL_AFTER.
STALLING = """
import multiprocessing, os, sys, time
from pathlib import Path
from simulator.cli import app as cli
from simulator.runner import plan as progress

after, ready, args = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
store, saved = progress.Plan.store, []

def stalling_store(self, job, frame):
    store(self, job, frame)
    saved.append(job.start)
    if len(saved) == after:
        pids = " ".join(str(p.pid) for p in multiprocessing.active_children())
        tmp = ready.with_name(ready.name + ".tmp")
        tmp.write_text(pids, encoding="utf-8")
        os.replace(tmp, ready)
        time.sleep(600)

progress.Plan.store = stalling_store
cli.main(args=args, prog_name="harmonies-sim")
"""


def arguments(scenario: Path, out: Path, workers: int = 1) -> list[str]:
    return [
        "run", str(scenario),
        "--trials", str(TRIALS), "--seed", "21", "--workers", str(workers),
        "--chunk-size", str(CHUNK), "--out", str(out), "--quiet", "--no-figures", "--json",
    ]  # fmt: skip


def command(scenario: Path, out: Path, workers: int = 1) -> list[str]:
    return [sys.executable, "-m", "simulator", *arguments(scenario, out, workers)]


def start_stalled(
    args: list[str], out: Path, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen, list[int]]:
    """Start the stalling run and wait until it stalls; the process and its workers' ids.

    ``env``: the run's environment (None: this one's).
    """
    ready = out.parent / "stalled"
    cmd = [sys.executable, "-c", STALLING, str(STALL_AFTER), str(ready), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 60
    try:
        while not ready.exists():
            if proc.poll() is not None:
                pytest.fail(f"the run ended before it could be stopped: {proc.stderr.read()}")
            if time.monotonic() > deadline:
                pytest.fail("the run saved no three chunks within a minute")
            time.sleep(0.01)
    except BaseException:
        proc.kill()
        raise
    return proc, [int(pid) for pid in ready.read_text(encoding="utf-8").split()]


def start_and_stop(args: list[str], out: Path, sig: int) -> tuple[list[str], int, str]:
    """Start the stalling run, wait until it stalls, send ``sig``; the saved chunks."""
    proc, _ = start_stalled(args, out)
    try:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = sorted(p.name for p in (out / PARTIAL_DIR).glob("*/chunk-*.arrow"))
    assert not (out / "trials.parquet").exists(), "the run finished before the signal"
    return saved, proc.returncode, err.decode()


def in_flight_saved(saved: list[str], workers: int) -> bool:
    """Whether the chunks saved are the stored ones and at most those then in flight.

    A worker saves its own chunk before handing it back: the chunks in flight when the
    store stalled (at most two per worker) may be saved too, each whole.
    """
    return STALL_AFTER <= len(saved) <= STALL_AFTER + 2 * workers


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> pd.DataFrame:
    path = tmp_path_factory.mktemp("ref") / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return run_study(path, trials=TRIALS, seed=21, workers=1).trials


@pytest.mark.slow
def test_killed_run_resumes_to_the_uninterrupted_frame(tiny, tmp_path, uninterrupted):
    out = tmp_path / "out"
    saved, code, _ = start_and_stop(arguments(tiny, out), out, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert in_flight_saved(saved, workers=1)
    cmd = command(tiny, out)
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
    saved, code, err = start_and_stop(arguments(tiny, out, workers=2), out, signal.SIGINT)
    assert code == 130
    assert "interrupted; the same command resumes" in err
    assert "Traceback" not in err
    assert in_flight_saved(saved, workers=2)
    subprocess.run(command(tiny, out), capture_output=True, text=True, timeout=60, check=True)
    pd.testing.assert_frame_equal(uninterrupted, pd.read_parquet(out / "trials.parquet"))


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGTERM to a child process is POSIX")
def test_sigterm_stops_like_ctrl_c_and_exits_143(tiny, tmp_path, uninterrupted):
    out = tmp_path / "out"
    saved, code, err = start_and_stop(arguments(tiny, out, workers=2), out, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM
    assert "interrupted" in err and "interrupted; the same command resumes" in err
    assert "Traceback" not in err
    assert in_flight_saved(saved, workers=2)
    subprocess.run(command(tiny, out), capture_output=True, text=True, timeout=60, check=True)
    pd.testing.assert_frame_equal(uninterrupted, pd.read_parquet(out / "trials.parquet"))


def test_another_result_into_an_unfinished_run_says_what_it_deletes(tiny, tmp_path):
    """The replaced run cannot be resumed any more: its finished trials are counted aloud."""
    out = tmp_path / "out"
    saved, code, _ = start_and_stop(arguments(tiny, out), out, signal.SIGKILL)
    assert code == -signal.SIGKILL and saved
    other = [sys.executable, "-m", "simulator", "run", str(tiny), "--trials", "20", "--seed",
             "1", "--out", str(out), "--quiet", "--no-figures"]  # fmt: skip
    done = subprocess.run(other, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (
        "replacing an unfinished earlier run there (another command, scenario or setting); "
        f"the finished chunks of trials it kept ({len(saved)}) are deleted" in done.stderr
    ), done.stderr
    assert not (out / PARTIAL_DIR).exists()
