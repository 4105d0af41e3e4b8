"""Runs that meet the unexpected: a bad --out, huge numbers, damaged chunks, kills.

Every mistake is refused before anything is simulated (a :class:`UserError`, exit status 2
on the command line); a damaged chunk is run again; a run killed while saving its results,
or its parent killed under its workers, leaves nothing behind that a rerun cannot mend.
"""

import os
import signal
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simulator import execution, runner
from simulator.cli_options import EXIT_TERMINATED, interruptible
from simulator.engine import run_trial
from simulator.progress import PARTIAL_DIR, run_key
from simulator.scenario import load_scenario
from tests.conftest import TINY
from tests.test_runner_resume import arguments, start_stalled


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


class CrashError(Exception):
    pass


def counting(monkeypatch) -> dict[str, int]:
    """Count the trials simulated from now on."""
    counted = {"n": 0}

    def trial(scenario, i, seed):
        counted["n"] += 1
        return run_trial(scenario, i, seed)

    monkeypatch.setattr(execution, "_trial_fn", lambda: trial)
    return counted


# --- a damaged chunk ------------------------------------------------------------------------


def crash_after_three_chunks(tiny: Path, out: Path, monkeypatch) -> Path:
    """Run 200 trials in chunks of 25 into ``out`` and crash in the fourth; the partial dir."""
    calls = {"n": 0}

    def crashing(scenario, trial, seed):
        calls["n"] += 1
        if calls["n"] > 90:
            raise CrashError
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(execution, "_trial_fn", lambda: crashing)
    with pytest.raises(CrashError):
        runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    return out / PARTIAL_DIR / run_key(load_scenario(tiny), 9, 200, 25)


def test_a_damaged_chunk_is_run_again(tiny, tmp_path, monkeypatch, capsys):
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    out = tmp_path / "out"
    partial = crash_after_three_chunks(tiny, out, monkeypatch)
    truncated, emptied, short = (partial / f"chunk-{a}-{a + 25}.parquet" for a in (0, 25, 50))
    truncated.write_bytes(truncated.read_bytes()[:7])
    emptied.write_bytes(b"")
    uninterrupted.iloc[:3].to_parquet(short, index=False)  # readable, but not 25 trials
    capsys.readouterr()
    counted = counting(monkeypatch)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 200  # the three damaged chunks as well as the five never saved
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    err = capsys.readouterr().err
    for path in (truncated, emptied, short):
        assert f"note: {path} is damaged" in err
    assert not (out / PARTIAL_DIR).exists()


def test_a_whole_chunk_is_kept(tiny, tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    crash_after_three_chunks(tiny, out, monkeypatch)
    counted = counting(monkeypatch)
    runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 125
    assert "damaged" not in capsys.readouterr().err


# --- SIGTERM, and a parent killed under its workers -----------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="signals as POSIX has them")
def test_sigterm_stops_a_command_as_ctrl_c_and_the_handler_is_restored(capsys):
    before = signal.getsignal(signal.SIGTERM)

    @interruptible
    def command():
        assert signal.getsignal(signal.SIGTERM) is not before
        signal.raise_signal(signal.SIGTERM)  # its handler runs before this call returns
        pytest.fail("SIGTERM did not stop the command")

    with pytest.raises(SystemExit) as stopped:
        command()
    assert stopped.value.code == EXIT_TERMINATED == 128 + signal.SIGTERM
    assert "run the same command again to resume" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is before


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its new parent has)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return fields[0] in ("Z", "X")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
def test_workers_end_when_their_parent_is_killed(tiny, tmp_path):
    out = tmp_path / "out"
    proc, workers = start_stalled(arguments(tiny, out, workers=2), out)
    try:
        assert len(workers) == 2
        assert not any(gone(pid) for pid in workers)
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20  # they check once a second
        while not all(gone(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(gone(pid) for pid in workers), "orphaned workers still run"
        proc.communicate(timeout=10)  # nobody holds the run's output pipes open any more
    finally:
        for pid in workers:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
    assert len(list((out / PARTIAL_DIR).glob("*/chunk-*.parquet"))) >= 3
