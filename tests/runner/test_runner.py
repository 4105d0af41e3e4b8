"""The runner: same seed, same frame, whatever the workers and the chunking; resuming."""

import threading
import warnings
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.engine.record import RECORD_FIELDS
from simulator.errors import HarmoniesNote, ScenarioError, UserError
from simulator.runner import chunks, execution
from simulator.runner.chunks import ChunkJob
from simulator.runner.engines import run_trial
from simulator.runner.plan import PARTIAL_DIR, run_key
from simulator.scenario.reading import load_scenario
from simulator.studies import api as runner
from simulator.studies.frames import OUTCOME_DTYPE
from tests.support import TINY

ROOT = Path(__file__).resolve().parents[2]


def test_run_chunk_is_the_engine_trial_by_trial(tiny):
    scenario = load_scenario(tiny)
    frame = chunks.run_chunk(scenario, seed=11, start=5, stop=9)
    assert list(frame.columns) == ["trial", "seed", *RECORD_FIELDS]
    assert frame["trial"].tolist() == [5, 6, 7, 8]
    assert frame["outcome"].dtype == OUTCOME_DTYPE
    for row in frame.itertuples(index=False):
        record = run_trial(scenario, row.trial, 11)
        assert row.outcome == record.outcome
        assert row.aggravations == record.aggravations
        assert row.end_h == pytest.approx(record.end_h)


def test_same_frame_whatever_workers_and_chunking(tiny):
    reference = runner.run_study(tiny, trials=240, seed=5, workers=1).trials
    assert len(reference) == 240
    assert reference["outcome"].nunique() > 1  # the check below means something
    for workers, chunk_size in [(1, 7), (2, None), (2, 13), (1, 240)]:
        other = runner.run_study(tiny, trials=240, seed=5, workers=workers, chunk_size=chunk_size)
        pd.testing.assert_frame_equal(reference, other.trials)
    different = runner.run_study(tiny, trials=240, seed=6, workers=1).trials
    assert not reference.drop(columns="seed").equals(different.drop(columns="seed"))


def test_run_study_writes_files_and_removes_partials(tiny, tmp_path):
    out = tmp_path / "out"
    result = runner.run_study(tiny, trials=60, seed=1, workers=1, out=out, figures=False)
    assert (out / "trials.parquet").is_file()
    assert (out / "summary.csv").is_file()
    assert not (out / PARTIAL_DIR).exists()
    assert not list(out.rglob("*.tmp"))
    back = pd.read_parquet(out / "trials.parquet")
    assert back["outcome"].dtype == OUTCOME_DTYPE
    pd.testing.assert_frame_equal(back, result.trials)
    summary = pd.read_csv(out / "summary.csv")
    assert summary["p_dead"].iloc[0] == pytest.approx(result.summary_json()["p_dead"])


class CrashError(Exception):
    pass


def crash_in_the_fourth_chunk(tiny, out, monkeypatch) -> None:
    """Run 200 trials in chunks of 25 into ``out``, crashing inside the fourth: three saved."""
    calls = {"n": 0}

    def crashing(scenario, trial, seed):
        calls["n"] += 1
        if calls["n"] > 90:  # inside the fourth chunk: three are saved
            raise CrashError
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: crashing)
    with pytest.raises(CrashError):
        runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)


def test_interrupted_run_resumes_to_the_same_frame(tiny, tmp_path, monkeypatch):
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    out = tmp_path / "out"
    crash_in_the_fourth_chunk(tiny, out, monkeypatch)
    partial = out / PARTIAL_DIR / run_key(load_scenario(tiny), 9)
    saved = sorted(p.name for p in partial.glob("chunk-*.arrow"))
    assert saved == ["chunk-0-25.arrow", "chunk-25-50.arrow", "chunk-50-75.arrow"]
    assert not (out / "trials.parquet").exists()

    counted = {"n": 0}

    def counting(scenario, trial, seed):
        counted["n"] += 1
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: counting)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 125  # only the chunks not saved
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    assert not (out / PARTIAL_DIR).exists()


@pytest.mark.parametrize("size", [7, 40, 200])
def test_a_run_resumed_with_another_chunk_size_keeps_every_finished_chunk(
    tiny, tmp_path, monkeypatch, size
):
    """Other workers, backend or --chunk-size once ran everything again: the chunks are the
    same trials whatever their size (a stream per trial), so every finished one is kept."""
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    out = tmp_path / "out"
    crash_in_the_fourth_chunk(tiny, out, monkeypatch)
    ran = []

    def counting(scenario, trial, seed):
        ran.append(trial)
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: counting)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=size, out=out)
    assert sorted(ran) == list(range(75, 200))  # only the trials not saved, once each
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    assert not (out / PARTIAL_DIR).exists()


@pytest.mark.parametrize("trials", [60, 300])
def test_a_run_resumed_with_another_trial_count_keeps_the_chunks_both_share(
    tiny, tmp_path, monkeypatch, trials
):
    """--trials 200 stopped, then --trials 300 (or 60): the finished chunks were deleted with
    the earlier result and everything ran again, though trial i draws the same stream
    whatever the count. The chunks within the new count are kept; the result is a fresh
    run's of the new count, file for file."""
    fresh = tmp_path / "fresh"
    runner.run_study(tiny, trials=trials, seed=9, workers=1, chunk_size=25, out=fresh,
                     figures=False)  # fmt: skip
    out = tmp_path / "out"
    crash_in_the_fourth_chunk(tiny, out, monkeypatch)  # trials 0 to 74 saved
    ran = []

    def counting(scenario, trial, seed):
        ran.append(trial)
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: counting)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resumed = runner.run_study(tiny, trials=trials, seed=9, workers=1, chunk_size=25,
                                   out=out, figures=False)  # fmt: skip
    kept = 75 if trials > 75 else 50  # chunk 50-75 lies past 60: run again, cut at 60
    told = [str(w.message) for w in caught if issubclass(w.category, HarmoniesNote)]
    said = [t for t in told if t.startswith("resuming: ")]
    assert said == [  # another --trials finished them, not this command
        f"resuming: {kept} of the {trials} trials are kept from an earlier run of the same "
        "scenario and seed (the same numbers as a run in one go); only the rest are run now"
    ], told
    assert sorted(ran) == list(range(kept, trials))  # the shared chunks are not run again
    assert len(resumed.trials) == trials
    pd.testing.assert_frame_equal(pd.read_parquet(fresh / "trials.parquet"), resumed.trials)
    for name in ("trials.parquet", "summary.csv", "summary.json"):
        assert (out / name).read_bytes() == (fresh / name).read_bytes(), name
    assert not (out / PARTIAL_DIR).exists()


def test_a_plans_chunks_around_kept_ones_cover_every_trial_once(tiny):
    from simulator.runner.plan import Plan

    plan = Plan("0", load_scenario(tiny), 1, 100, 30)
    assert plan.ranges() == [(0, 30), (30, 60), (60, 90), (90, 100)]
    assert plan._cut([(10, 35), (50, 52)]) == [
        (0, 10), (10, 35), (35, 50), (50, 52), (52, 82), (82, 100)
    ]  # fmt: skip


def test_run_key_follows_content_not_path(tiny, tmp_path):
    """The chunks' folder: the scenario's content and the seed, not the number of trials
    (trial i has its own stream: another --trials shares the chunks of the trials both run);
    the result's identity (trials_key) names the trials too."""
    from simulator.runner.plan import trials_key

    scenario = load_scenario(tiny)
    moved = tmp_path / "elsewhere.toml"
    moved.write_text(TINY, encoding="utf-8")
    key = run_key(scenario, 1)
    assert run_key(load_scenario(moved), 1) == key
    assert run_key(scenario, 2) != key
    other = load_scenario(tiny, ["first_aid.level=2"])
    assert run_key(other, 1) != key
    assert trials_key(scenario, 1, 101) != trials_key(scenario, 1, 100)
    assert trials_key(load_scenario(moved), 1, 100) == trials_key(scenario, 1, 100)


def test_default_chunk_size():
    assert execution.default_chunk_size(1_000_000, 8) == execution.MAX_CHUNK
    assert execution.default_chunk_size(800, 2) == 100  # 4 chunks per worker
    assert execution.default_chunk_size(3, 16) == 1
    assert execution.default_chunk_size(10_000_000, 2, "dask") == execution.DASK_MAX_CHUNK
    assert execution.default_chunk_size(800, 2, "dask") == 100  # the same 4 chunks a worker


class PoolWantedError(Exception):
    """Raised instead of starting worker processes."""


def test_a_small_run_on_the_default_workers_starts_no_process(tiny, monkeypatch):
    from simulator.runner.backends.local import (
        IN_PROCESS_KERNEL_TRIALS,
        IN_PROCESS_TRIALS,
        LocalBackend,
    )

    def no_pool(self, size):
        raise PoolWantedError(size)

    monkeypatch.setattr(LocalBackend, "_ensure_pool", no_pool)
    scenario = load_scenario(tiny)
    small = [ChunkJob("0", scenario, 3, a, a + 10) for a in range(0, 40, 10)]
    auto = LocalBackend()
    auto.workers = 2  # as on a two-core machine, whatever this one has
    assert [job.start for job, _ in auto.map_chunks(small)] == [0, 10, 20, 30]
    with monkeypatch.context() as on_objects:  # trials that hold the interpreter's lock
        on_objects.setattr(chunks, "_trial_fn", lambda: partial(run_trial, kernel=False))
        shaken = load_scenario(ROOT / "scenarios" / "shaken.toml")
        objects = [ChunkJob("0", shaken, 3, a, a + 10) for a in range(0, 40, 10)]
        with pytest.raises(PoolWantedError):  # workers asked for: they start (the kernel's
            list(LocalBackend(workers=2).map_chunks(objects))  # chunks would run on threads)
        big = [ChunkJob("0", shaken, 3, 40, 41 + IN_PROCESS_TRIALS), *small]
        with pytest.raises(PoolWantedError):  # a big run on the default workers: they start
            list(auto.map_chunks(big))
    if not chunks.releases_gil(small[0]):  # without the compiled kernel: the same bound
        return
    kernel = [ChunkJob("0", scenario, 3, 40, 41 + IN_PROCESS_TRIALS), *small]
    assert len(list(auto.map_chunks(kernel))) == 5  # the compiled kernel's: a larger bound
    huge = [ChunkJob("0", scenario, 3, 40, 41 + IN_PROCESS_KERNEL_TRIALS), *small]
    seen: list[str] = []
    run_compact = chunks.run_compact
    monkeypatch.setattr(  # past the bound: on two threads at once, still no process
        "simulator.runner.backends.local.run_compact",
        lambda job: seen.append(threading.current_thread().name) or run_compact(job),
    )
    assert len(list(auto.map_chunks(huge))) == 5
    assert all(name.startswith("chunk") for name in seen) and len(seen) == 5


class RecordingBackend:
    def __init__(self):
        self.calls: list[list[ChunkJob]] = []

    def map_chunks(self, jobs):
        self.calls.append(list(jobs))
        for job in jobs:
            yield job, chunks.run_compact(job)

    def close(self):
        pass


def test_sweep_submits_every_point_at_once(tiny, monkeypatch):
    backend = RecordingBackend()
    import simulator.runner

    monkeypatch.setattr(simulator.runner, "get_backend", lambda *args: backend)
    grid = {"first_aid.level": [0, 3], "healing.level": [0, 2]}
    result = runner.run_sweep(tiny, grid, trials=40, seed=3, chunk_size=10)
    assert len(backend.calls) == 1
    assert {job.key for job in backend.calls[0]} == {"0", "1", "2", "3"}
    assert len(backend.calls[0]) == 16
    assert result.points[1] == {"first_aid.level": 0, "healing.level": 2}
    frame = result.frame
    assert frame[["first_aid.level", "healing.level"]].values.tolist() == [
        [0, 0],
        [0, 2],
        [3, 0],
        [3, 2],
    ]
    alone = runner.run_study(
        tiny, trials=40, seed=3, workers=1, overrides=["first_aid.level=3", "healing.level=2"]
    )
    pd.testing.assert_frame_equal(alone.trials, result.results[3].trials)
    assert result.summaries_json()[3]["point"] == {"first_aid.level": 3, "healing.level": 2}


def test_compare_pairs_trials_on_the_same_seeds(tiny):
    same = runner.run_compare(tiny, tiny, trials=80, seed=4, workers=1)
    pd.testing.assert_frame_equal(same.a.trials, same.b.trials)
    for key, value in same.to_json()["difference"].items():
        assert value["estimate"] == 0.0
        if key.startswith("mean_"):  # no trial differs: no interval claimed
            assert value["ci"] is None
        else:
            assert value["ci"][0] <= 0.0 <= value["ci"][1]
    better = load_scenario(tiny, ["first_aid.level=4"])
    result = runner.run_compare(tiny, better, trials=300, seed=4, workers=1)
    dead = result.to_json()["difference"]["p_dead"]
    assert dead["estimate"] > 0
    assert dead["ci"][0] <= dead["estimate"] <= dead["ci"][1]


@pytest.mark.parametrize(
    ("kwargs", "flag"),
    [
        ({"trials": 0}, r"^MonteCarlo\(trials=\.\.\.\): got 0"),
        ({"workers": 0}, r"^MonteCarlo\(workers=\.\.\.\): got 0"),
        ({"seed": -1}, r"^MonteCarlo\(seed=\.\.\.\): got -1"),
        ({"chunk_size": 0}, r"^MonteCarlo\(chunk_size=\.\.\.\): got 0"),
        ({"backend": "cloud"}, r"^MonteCarlo\(backend=\.\.\.\): got 'cloud'"),
    ],
)
def test_bad_arguments_are_user_errors(tiny, kwargs, flag):
    with pytest.raises(UserError, match=flag):
        runner.run_study(tiny, **{"trials": 10, **kwargs})


def test_bad_grids_are_user_errors(tiny):
    with pytest.raises(UserError, match=r"^grid: empty"):
        runner.run_sweep(tiny, {}, trials=10)
    with pytest.raises(UserError, match=r"first_aid\.level"):
        runner.run_sweep(tiny, {"first_aid.level": []}, trials=10)
    with pytest.raises(UserError, match="nonsense"):
        runner.run_sweep(tiny, {"nonsense": [1]}, trials=10)
    with pytest.raises(ScenarioError) as caught:  # every bad value told, each once
        runner.run_sweep(tiny, {"patient.cp_rs": ["x", 3, "y"], "first_aid.level": [1, 2]},
                         trials=10)  # fmt: skip
    assert [p.value for p in caught.value.problems] == ["x", "y"]


def _threads_of(monkeypatch, jobs):
    """Run ``jobs`` on one local worker; the chunks, and the thread that ran each job."""
    import threading

    from simulator.runner.backends import local

    ran: list[str] = []
    real = local.run_compact

    def spy(job):
        ran.append(threading.current_thread().name)
        return real(job)

    monkeypatch.setattr(local, "run_compact", spy)
    return list(local.LocalBackend(workers=1).map_chunks(jobs)), ran


@pytest.mark.parametrize("name", ["careless_watches", "shaken"])
def test_one_worker_runs_the_next_kernel_chunk_while_the_caller_stores_the_last(monkeypatch, name):
    import threading
    from pathlib import Path

    from simulator.kernel.jit import COMPILED

    scenario = load_scenario(Path(__file__).parents[2] / "scenarios" / f"{name}.toml")
    jobs = [ChunkJob("0", scenario, 3, a, a + 20) for a in range(0, 80, 20)]
    got, ran = _threads_of(monkeypatch, jobs)
    assert [job for job, _ in got] == jobs  # in order, each once
    for job, chunk in got:  # each as it runs alone
        same_columns(chunk, chunks.run_compact(job))
    main = threading.main_thread().name
    ahead = chunks.releases_gil(jobs[1])  # the compiled kernel's chunks: shaken's too
    assert ahead == COMPILED  # every scenario's chunks run in the kernel
    assert ran[0] == main
    assert all(thread.startswith("chunk") == ahead for thread in ran[1:])
    assert all((thread == main) != ahead for thread in ran[1:])


def test_kernel_chunks_on_two_workers_run_on_threads_with_the_same_frames(tiny, monkeypatch):
    """The compiled kernel releases the interpreter's lock: its chunks run on threads of this
    process (no worker to start, no frame to send back), and give the frames of one worker."""
    from simulator.kernel.jit import COMPILED
    from simulator.runner.backends.local import LocalBackend
    from simulator.runner.chunks import releases_gil

    scenario = load_scenario(tiny)
    jobs = [ChunkJob(str(a), scenario, 7, a, a + 500) for a in range(0, 4000, 500)]
    if not COMPILED or not releases_gil(jobs[0]):
        pytest.skip("the kernel is not compiled here")
    one = {job.start: chunk for job, chunk in LocalBackend(workers=1).map_chunks(jobs)}

    def no_pool(self, size):
        raise PoolWantedError(size)

    monkeypatch.setattr(LocalBackend, "_ensure_pool", no_pool)
    two = {job.start: chunk for job, chunk in LocalBackend(workers=2).map_chunks(jobs)}
    assert sorted(two) == sorted(one)
    for start, chunk in one.items():
        same_columns(chunk, two[start])


def same_columns(a, b):
    """Two chunks of trials hold the same compact columns, type for type."""
    assert (a.start, a.stop) == (b.start, b.stop)
    assert a.columns.keys() == b.columns.keys()
    for name, values in a.columns.items():
        assert values.dtype == b.columns[name].dtype, name
        np.testing.assert_array_equal(values, b.columns[name], err_msg=name)


def test_kernel_threads_closed_early_end_their_chunk_in_hand_and_start_no_other(monkeypatch):
    """Ctrl-C on threads: the chunk each has in hand ends (its file whole) before the command
    does, since a thread still in pyarrow's C++ when the interpreter shuts down aborts the
    process; the queued chunks are not started."""
    import threading
    import time

    from simulator.runner.backends import local

    started: list[int] = []
    ended: list[int] = []

    def slow(job):
        started.append(job.start)
        time.sleep(0.3)
        ended.append(job.start)
        return job.start

    monkeypatch.setattr(local, "run_compact", slow)
    jobs = [ChunkJob(str(a), None, 7, a, a + 1) for a in range(8)]  # type: ignore[arg-type]
    before = set(threading.enumerate())
    results = local._in_threads(jobs, 2)
    next(results)  # one chunk done; each thread has taken another
    results.close()
    assert not [t for t in set(threading.enumerate()) - before if t.name.startswith("chunk-")]
    assert sorted(started) == sorted(ended)  # none cut short
    assert len(started) <= 4  # the first two, then one more each: the rest never started


def _signalled_pool(number: int, steps: list[str]) -> object:
    """A pool whose submission starts a worker, is sent ``number`` by another thread (one that
    does not block it), runs on, then sends the task; ``steps`` records the two moments."""
    import os

    class Pool:
        def submit(self, fn, job):
            steps.append("started")
            other = threading.Thread(target=os.kill, args=(os.getpid(), number))
            other.start()
            other.join()
            for _ in range(200_000):  # the main thread runs on: a handler would run here
                pass
            steps.append("sent")
            return "future"

    return Pool()


def test_a_ctrl_c_taken_by_another_thread_during_a_submission_comes_after_it():
    """A worker is never left started but without its task (``EOFError`` in the worker).

    The signal reaches a thread that does not block it (here one started for that); its
    ``KeyboardInterrupt`` must wait until the submission, worker started and task sent, is
    done.
    """
    import signal

    from simulator.runner.backends import local

    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):  # not lost: it comes once the submission is done
        local._submit(_signalled_pool(signal.SIGINT, steps), None)
    assert steps == ["started", "sent"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_sigterm_during_a_submission_comes_after_it_too():
    """``kill`` and ``timeout`` stop a command as Ctrl-C does (:func:`interruptible`)."""
    import signal

    from simulator.runner.backends import local

    class StoppedError(Exception):
        pass

    def stop(number, frame):
        raise StoppedError

    steps: list[str] = []
    before = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(StoppedError):
            local._submit(_signalled_pool(signal.SIGTERM, steps), None)
        assert steps == ["started", "sent"]
        assert signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_csv_float_column_reads_back_as_floats_whatever_its_values(tmp_path):
    """``%.10g`` wrote a share of exactly 0 as ``0`` and a median of 1056 h as ``1056``: read
    back, such a column turned int64 in one study and float64 in the next (a concat of
    several studies' summaries then mixed types). Whole floats keep their ``.0``."""
    import pandas as pd

    from simulator.runner.writers import write_csv

    frame = pd.DataFrame(
        {"trials": [20000], "p_dead": [0.0], "median_h": [1056.0], "p": [0.25],
         "small": [1e-12], "none": [float("nan")]}
    )  # fmt: skip
    back = pd.read_csv(write_csv(frame, tmp_path / "s.csv"))
    assert back["trials"].dtype == "int64"
    assert all(back[c].dtype == "float64" for c in ("p_dead", "median_h", "p", "small", "none"))
    assert back.iloc[0]["median_h"] == 1056.0 and back.iloc[0]["small"] == 1e-12
    assert (tmp_path / "s.csv").read_text().splitlines()[1] == "20000,0.0,1056.0,0.25,1e-12,"


def test_a_sweep_of_durations_gives_them_in_hours_too(tiny):
    # sweep.csv's durations were text only: a spreadsheet sorts "10min" before "1min"
    result = runner.run_sweep(
        tiny, {"first_aid.interval": ["10min", "30s"], "first_aid.level": [0, 2]},
        trials=20, seed=1, workers=1,
    )  # fmt: skip
    frame = result.frame
    columns = list(frame.columns)
    assert columns[:3] == ["first_aid.interval", "hours:first_aid.interval", "first_aid.level"]
    assert frame["hours:first_aid.interval"].tolist() == [1 / 6, 1 / 6, 30 / 3600, 30 / 3600]
    assert "hours:first_aid.level" not in columns
