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

import pytest

from simulator.cli_options import EXIT_TERMINATED, interruptible
from simulator.progress import PARTIAL_DIR
from tests.conftest import TINY
from tests.test_runner_resume import arguments, start_stalled


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


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
