"""The Dask backend (issue 6): same numbers as the local backend, through the real command.

Every test is marked ``dask``; the ones that need Dask itself skip when the extra is not
installed. Trial counts are small: the whole file runs in well under a minute on 2 cores,
most of it starting local clusters.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pandas as pd
import pytest

import simulator
from simulator.errors import UserError
from simulator.runner.chunks import ChunkJob
from simulator.runner.plan import Plan
from simulator.studies.api import run_study
from tests.support import tiny_scenario

pytestmark = [pytest.mark.dask, pytest.mark.timeout(180), pytest.mark.integration]

needs_dask = pytest.mark.skipif(
    find_spec("distributed") is None, reason="needs the dask extra (harmonies-simulator[dask])"
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "grave.toml"
    path.write_text(tiny_scenario(first_aid_level=1, healing_level=2), encoding="utf-8")
    return path


def sim(
    *args: str | Path, cwd: Path, pythonpath: tuple[Path, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simulator ARGS`` in a fresh interpreter."""
    env = dict(os.environ)
    paths = [*map(str, pythonpath), str(REPO)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return subprocess.run(
        [sys.executable, "-m", "simulator", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
    )


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture
def no_dask(tmp_path: Path) -> Path:
    """A directory that, first on PYTHONPATH, makes ``dask`` and ``distributed`` unimportable."""
    root = tmp_path / "no-dask"
    for name in ("dask", "distributed"):
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text(
            f'raise ImportError("No module named {name!r} (blocked by the test)")\n',
            encoding="utf-8",
        )
    return root


# --- the same numbers through the command line ----------------------------------------------


@needs_dask
def test_run_on_a_local_cluster_gives_the_local_frame(scenario: Path, tmp_path: Path) -> None:
    common = ["--trials", "800", "--seed", "7", "--no-figures", "--quiet", "--json"]
    local = ok(sim("run", scenario, *common, "--workers", "1", "--out", "local", cwd=tmp_path))
    dask = ok(
        sim(
            "run",
            scenario,
            *common,
            *("--backend", "dask", "--workers", "2", "--out", "dask"),
            cwd=tmp_path,
        )
    )
    expected = pd.read_parquet(tmp_path / "local" / "trials.parquet")
    got = pd.read_parquet(tmp_path / "dask" / "trials.parquet")
    assert len(got) == 800 and got["outcome"].nunique() > 1
    pd.testing.assert_frame_equal(got, expected)
    assert json.loads(dask.stdout) == json.loads(local.stdout)  # stdout is JSON only
    assert not (tmp_path / "dask" / ".partial").exists()


@needs_dask
def test_sweep_on_a_local_cluster_gives_the_local_frames(scenario: Path, tmp_path: Path) -> None:
    common = [
        *("--grid", "first_aid.level=0,2", "--grid", "healing.level=0,3"),
        *("--trials", "300", "--seed", "5", "--no-figures", "--quiet", "--json"),
    ]
    local = ok(sim("sweep", scenario, *common, "--workers", "1", "--out", "local", cwd=tmp_path))
    dask = ok(
        sim(
            "sweep",
            scenario,
            *common,
            *("--backend", "dask", "--workers", "2", "--out", "dask"),
            cwd=tmp_path,
        )
    )
    expected = pd.read_csv(tmp_path / "local" / "sweep.csv")
    got = pd.read_csv(tmp_path / "dask" / "sweep.csv")
    assert len(got) == 4
    pd.testing.assert_frame_equal(got, expected)
    assert json.loads(dask.stdout) == json.loads(local.stdout)


@needs_dask
def test_compare_takes_the_dask_backend(scenario: Path, tmp_path: Path) -> None:
    other = tmp_path / "grave_helped.toml"
    other.write_text(tiny_scenario(first_aid_level=3, healing_level=2), encoding="utf-8")
    common = ["--trials", "300", "--seed", "3", "--no-figures", "--json"]
    local = ok(sim("compare", scenario, other, *common, "--workers", "1", cwd=tmp_path))
    dask = ok(
        sim(
            "compare",
            scenario,
            other,
            *common,
            *("--backend", "dask", "--workers", "2"),
            cwd=tmp_path,
        )
    )
    assert json.loads(dask.stdout) == json.loads(local.stdout)


# --- a worker lost in the middle of a run ---------------------------------------------------


@needs_dask
def test_a_killed_worker_changes_nothing(scenario: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dask.distributed import Client, LocalCluster

    trials, chunk = 3000, 150  # 20 chunks, ~1.5 s of work for two workers
    expected = run_study(scenario, trials=trials, seed=11, workers=1, figures=False).trials

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        pids: dict[str, int] = client.run(os.getpid)
        assert len(pids) == 2
        killed: list[tuple[str, list[str]]] = []
        store = Plan.store

        def store_then_kill(self: Plan, job: ChunkJob, frame: pd.DataFrame) -> None:
            # Once a chunk is back while a worker is running another, kill that worker (the
            # compiled kernel's chunks are quick: at a given return both may be idle, and the
            # next return is tried).
            store(self, job, frame)
            if killed:
                return
            busy = {a: list(k) for a, k in client.processing().items() if k and a in pids}
            if not busy:
                return
            address = next(iter(busy))
            os.kill(pids[address], signal.SIGKILL)
            killed.append((address, busy[address]))

        monkeypatch.setattr(Plan, "store", store_then_kill)
        result = run_study(
            scenario,
            trials=trials,
            seed=11,
            chunk_size=chunk,
            backend="dask",
            scheduler=cluster.scheduler_address,
            figures=False,
        )

    assert len(killed) == 1
    _, running = killed[0]
    assert any(str(key).startswith("harmonies-chunk-") for key in running), killed
    pd.testing.assert_frame_equal(result.trials, expected)


# --- errors a user can meet ----------------------------------------------------------------


def test_dask_backend_without_the_extra_says_what_to_install(
    scenario: Path, tmp_path: Path, no_dask: Path
) -> None:
    proc = sim(
        "run",
        scenario,
        *("--trials", "10", "--backend", "dask", "--out", "out", "--quiet"),
        cwd=tmp_path,
        pythonpath=(no_dask,),
    )
    assert proc.returncode == 2, proc.stderr
    assert "harmonies-simulator[dask]" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "out" / "trials.parquet").exists()


def test_the_local_backend_needs_no_dask(scenario: Path, tmp_path: Path, no_dask: Path) -> None:
    check = "import simulator.cli.app, simulator.studies.api, sys; assert 'dask' not in sys.modules"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", check], env=env, check=True, timeout=60)
    ok(
        sim(
            "run",
            scenario,
            *("--trials", "50", "--workers", "1", "--out", "out", "--no-figures", "--quiet"),
            cwd=tmp_path,
            pythonpath=(no_dask,),
        )
    )
    assert len(pd.read_parquet(tmp_path / "out" / "trials.parquet")) == 50


@needs_dask
def test_a_scheduler_nobody_listens_to_is_a_user_error(scenario: Path, tmp_path: Path) -> None:
    from simulator.runner.backends.dask_backend import DaskBackend

    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(UserError, match=address.replace(".", r"\.")):
        DaskBackend(scheduler=address, connect_timeout=0.5)

    # Through the command (a malformed address: the same path, without the 10 s wait).
    proc = sim(
        "run",
        scenario,
        *("--trials", "10", "--backend", "dask", "--scheduler", "no-port-here", "--quiet"),
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert "no-port-here" in proc.stderr
    assert "Traceback" not in proc.stderr


@needs_dask
def test_a_worker_with_another_version_refuses_the_chunk(scenario: Path) -> None:
    from simulator.runner.backends.dask_backend import run_chunk_task
    from simulator.scenario.reading import load_scenario

    job = ChunkJob("0", load_scenario(scenario), 1, 0, 5)
    assert len(run_chunk_task(job, simulator.__version__)) == 5
    with pytest.raises(UserError, match=r"harmonies-simulator\[dask\]==0\.0\.0-other"):
        run_chunk_task(job, "0.0.0-other")


def free_port() -> int:
    """A loopback TCP port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@needs_dask
def test_a_cluster_without_workers_says_so_and_goes_on_when_one_joins(
    scenario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All workers lost once left the command waiting without a word; a cluster that had
    none from the start says so once (at the start), not twice."""
    import threading
    import time
    import warnings

    from dask.distributed import LocalCluster

    from simulator.runner.backends import dask_backend
    from simulator.scenario.reading import load_scenario

    monkeypatch.setattr(dask_backend, "POLL_S", 0.2)
    job = ChunkJob("0", load_scenario(scenario), 11, 0, 20, None)

    def notes(said: list[warnings.WarningMessage], words: str) -> list[str]:
        return [str(w.message) for w in said if words in str(w.message)]

    for workers_at_start in (1, 0):
        with (
            LocalCluster(
                n_workers=workers_at_start, processes=True, host="127.0.0.1",
                dashboard_address=None,
            ) as cluster,
            warnings.catch_warnings(record=True) as said,
        ):  # fmt: skip
            warnings.simplefilter("always")
            backend = dask_backend.DaskBackend(scheduler=cluster.scheduler_address)
            cluster.scale(0)
            while backend.client.nthreads():
                time.sleep(0.05)
            waited = "no worker left" if workers_at_start else "has no workers yet"

            def scale_after_the_note(words: str = waited) -> None:
                while not notes(said, words):
                    time.sleep(0.1)
                time.sleep(0.5)  # a few more polls: the note is not said again
                cluster.scale(1)

            helper = threading.Thread(target=scale_after_the_note, daemon=True)
            helper.start()
            found = list(backend.map_chunks([job]))
            backend.close()
        assert len(found) == 1 and found[0][1].tally.n == 20
        told = notes(said, "no worker left")
        if workers_at_start:
            assert len(told) == 1 and "still to run (1) wait up to 300 s" in told[0]
        else:
            assert told == [] and len(notes(said, "has no workers yet")) == 1


@needs_dask
def test_a_cluster_that_keeps_no_worker_stops_the_command_instead_of_waiting_for_ever(
    scenario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONTRACT: a lost worker is exit 1 with one line; every worker lost left the command
    waiting without end. Past the backend's patience it is a :class:`ClusterLostError`, an
    OSError (the command's exit 1), that says how long and how many chunks."""
    import time

    from dask.distributed import LocalCluster

    from simulator.runner.backends import dask_backend
    from simulator.scenario.reading import load_scenario

    monkeypatch.setattr(dask_backend, "POLL_S", 0.1)
    job = ChunkJob("0", load_scenario(scenario), 11, 0, 20, None)
    with LocalCluster(
        n_workers=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        backend = dask_backend.DaskBackend(scheduler=cluster.scheduler_address, workerless=1.0)
        cluster.scale(0)
        while backend.client.nthreads():
            time.sleep(0.05)
        began = time.monotonic()
        with pytest.warns(Warning, match="wait up to 1 s"), pytest.raises(OSError) as lost:
            list(backend.map_chunks([job]))
        backend.close()
    assert isinstance(lost.value, dask_backend.ClusterLostError)
    assert str(lost.value.strerror) == (
        "the Dask cluster has had no worker for 1 s; chunks not run: 1"
    )
    assert 1.0 <= time.monotonic() - began < 30


@needs_dask
def test_a_chunk_s_own_os_error_is_raised_as_it_was_and_patience_starts_afresh(
    scenario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a lost connection is a lost cluster: a chunk's own OSError (a file it could not
    read) was told as "lost the Dask scheduler", and one with no message was an IndexError.
    A backend's patience with a workerless cluster starts afresh when a chunk comes back; no
    filter is left on the client's log by a backend that failed to start."""
    import logging

    from dask.distributed import LocalCluster

    from simulator.runner.backends import dask_backend
    from simulator.scenario.reading import load_scenario

    client_log = logging.getLogger("distributed.client")
    with pytest.raises(UserError):
        dask_backend.DaskBackend(scheduler="tcp://127.0.0.1:1", connect_timeout=1)
    assert dask_backend._not_a_lost_connection not in client_log.filters
    job = ChunkJob("0", load_scenario(scenario), 11, 0, 20, None)
    with LocalCluster(
        n_workers=1, processes=False, protocol="tcp", threads_per_worker=1, dashboard_address=None
    ) as cluster:  # in this process: the chunk's failure monkeypatched here reaches it
        backend = dask_backend.DaskBackend(scheduler=cluster.scheduler_address, workerless=60)
        backend._workerless_since = 0.0  # a loss long ago, in another call
        assert len(list(backend.map_chunks([job]))) == 1 and backend._workerless_since is None
        for error in (FileNotFoundError(2, "No such file", "/data/t.csv"), ConnectionResetError()):

            def boom(_job: ChunkJob, error: OSError = error) -> None:
                raise error

            monkeypatch.setattr(dask_backend, "run_compact", boom)
            with pytest.raises(type(error)) as raised:
                list(backend.map_chunks([job]))
            assert not isinstance(raised.value, dask_backend.ClusterLostError)
        assert dask_backend._not_a_lost_connection in client_log.filters
        backend.close()
    assert dask_backend._not_a_lost_connection not in client_log.filters


@needs_dask
def test_a_lost_scheduler_is_one_error_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scheduler gone mid-run raised distributed's FutureCancelledError: three
    tracebacks and no `error:` line. As an OSError the command says it in one line, in the
    language in force, and exits 1."""
    from simulator.cli.common import user_errors
    from simulator.errors import phrase
    from simulator.report.i18n import language

    pytest.importorskip("distributed")
    from simulator.runner.backends.dask_backend import ClusterLostError

    said = phrase(
        "lost the Dask scheduler at {address} ({reason})",
        address="tcp://10.0.0.7:8786",
        reason="scheduler-connection-lost",
    )

    @user_errors
    def command() -> None:
        raise ClusterLostError(said)

    lines = {
        "en": "error: lost the Dask scheduler at tcp://10.0.0.7:8786",
        "fr": "error: ordonnanceur Dask perdu à tcp://10.0.0.7:8786",
    }
    for lang, words in lines.items():
        with language(lang), pytest.raises(SystemExit) as ended:
            command()
        err = capsys.readouterr().err
        assert ended.value.code == 1 and err.startswith(words) and err.count("\n") == 1, err


@needs_dask
def test_a_local_cluster_starts_deaf_to_ctrl_c_and_the_command_hears_it_after() -> None:
    """Workers still starting printed tracebacks on Ctrl-C; the command must still hear it."""
    from simulator.runner.backends import dask_backend

    before = signal.getsignal(signal.SIGINT)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    backend = dask_backend.DaskBackend(workers=1)
    try:
        assert signal.getsignal(signal.SIGINT) is before  # this process: as it was
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask
        # the worker (a process of its own) ignores it, and was started with it blocked
        # (inherited from the cluster's threads, all started in the hold): it never saw it
        deaf = lambda: signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # noqa: E731
        assert list(backend.client.run(deaf).values()) == [True]
        blocked = lambda: signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # noqa: E731
        assert list(backend.client.run(blocked).values()) == [True]
    finally:
        backend.close()


@needs_dask
def test_ctrl_c_while_a_local_cluster_starts_stops_the_command_once_it_is_up(monkeypatch) -> None:
    """It was ignored (the command ran on to its end): now it comes once the cluster is up."""
    from simulator.runner.backends import dask_backend

    started = dask_backend._cluster

    def interrupted(count: int):  # Ctrl-C in the middle of the start, the numpy threads up
        os.kill(os.getpid(), signal.SIGINT)
        return started(count)

    monkeypatch.setattr(dask_backend, "_cluster", interrupted)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    made = []
    try:
        with pytest.raises(KeyboardInterrupt):
            made.append(dask_backend.DaskBackend(workers=1))
        assert not made  # it came at the end of the start, not later
    finally:
        signal.signal(signal.SIGINT, previous)
