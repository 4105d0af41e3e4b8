"""Runs that meet the unexpected: a bad --out, huge numbers, damaged chunks, kills.

Every mistake is refused before anything is simulated (a :class:`UserError`, exit status 2
on the command line); a damaged chunk is run again; a run killed while saving its results,
or its parent killed under its workers, leaves nothing behind that a rerun cannot mend.
"""

import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.cli.options import EXIT_TERMINATED, interruptible
from simulator.errors import HarmoniesNote, UserError
from simulator.runner import chunks, execution, outdir
from simulator.runner.compact import read_chunk_table
from simulator.runner.engines import run_trial
from simulator.runner.plan import PARTIAL_DIR, run_key
from simulator.scenario.reading import load_scenario
from simulator.studies import api as runner
from simulator.studies.result import StudyResult, SweepResult
from tests.runner.test_runner_resume import arguments, start_stalled


@pytest.fixture
def no_simulation(monkeypatch):
    """Fail the test if a single trial is simulated."""

    def refuse(scenario, trial, seed):
        pytest.fail("a trial was simulated before the mistake was reported")

    monkeypatch.setattr(chunks, "_trial_fn", lambda: refuse)


class CrashError(Exception):
    pass


def counting(monkeypatch) -> dict[str, int]:
    """Count the trials simulated from now on."""
    counted = {"n": 0}

    def trial(scenario, i, seed):
        counted["n"] += 1
        return run_trial(scenario, i, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: trial)
    return counted


# --- --out that cannot be a folder ------------------------------------------------------------


def bad_outs(tmp_path: Path) -> dict[str, Path]:
    afile = tmp_path / "afile"
    afile.write_text("not a folder", encoding="utf-8")
    outs = {
        "an existing file": afile,
        "a path under a file": afile / "sub",
        "a name too long": tmp_path / ("x" * 300),
    }
    if sys.platform.startswith("linux"):
        outs["a place that cannot hold folders"] = Path("/proc/no-such-process/out")
    return outs


def test_an_out_that_cannot_be_a_folder_is_refused_before_simulating(tiny, tmp_path, no_simulation):
    calls = {
        "run_study": lambda out: runner.run_study(tiny, trials=10, workers=1, out=out),
        "run_sweep": lambda out: runner.run_sweep(
            tiny, {"first_aid.level": [0, 1]}, trials=10, workers=1, out=out
        ),
        "run_compare": lambda out: runner.run_compare(tiny, tiny, trials=10, workers=1, out=out),
    }
    for what, out in bad_outs(tmp_path).items():
        for name, call in calls.items():
            if what == "a name too long":  # said of the name itself, before any folder is tried
                with pytest.raises(UserError) as caught:
                    call(out)
                assert str(caught.value) == (
                    f"out: {out}: the name of the folder is too long for the file system; "
                    "expected a shorter name"
                ), name
                continue
            with pytest.raises(UserError, match="not a directory we can write to") as caught:
                call(out)
            assert str(caught.value).startswith(f"out={str(out)!r}: "), (what, name)
            assert "expected a folder path" in str(caught.value)
    with pytest.raises(UserError, match=r"^out: the path of the folder is empty; expected a path"):
        runner.run_study(tiny, trials=10, workers=1, out="")


@pytest.mark.parametrize("command", ["run", "sweep", "compare", "study"])
def test_the_commands_refuse_a_bad_out_with_exit_2(tiny, tmp_path, command, no_simulation):
    args = {
        "run": ["run", str(tiny)],
        "sweep": ["sweep", str(tiny), "--grid", "first_aid.level=0,1"],
        "compare": ["compare", str(tiny), str(tiny)],
        "study": ["study", str(tmp_path)],
    }[command]
    afile = tmp_path / "afile"
    afile.write_text("not a folder", encoding="utf-8")
    for out in (afile, afile / "sub"):
        result = CliRunner().invoke(
            main, [*args, "--trials", "5", "--workers", "1", "--out", str(out)]
        )
        assert result.exit_code == 2, result.output
        assert (
            f"error: --out {out}: not a directory we can write to (Not a directory)"
            in result.output
        )
        assert "Traceback" not in result.output
    empty = CliRunner().invoke(main, [*args, "--trials", "5", "--out", ""])
    assert empty.exit_code == 2
    assert empty.output == "error: --out: the path of the folder is empty; expected a path\n"


def test_check_out_dir_makes_the_folder(tmp_path):
    folder = tmp_path / "a" / "b"
    assert execution.check_out_dir(str(folder)) == folder
    # the write check leaves nothing; the marker says the folder is harmonies-sim's
    assert folder.is_dir() and [p.name for p in folder.iterdir()] == [outdir.MARKER]


# --- numbers out of range, and a scheduler without dask ---------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        (
            {"seed": 2**63},
            "MonteCarlo(seed=...): got 9223372036854775808; expected a seed, an integer from 0",
        ),
        ({"seed": 2**70}, "64-bit integer"),
        ({"trials": 10**9 + 1}, "MonteCarlo(trials=...): got 1000000001"),
        (
            {"trials": 10**9, "chunk_size": 1},
            "MonteCarlo(chunk_size=...): got 1 for 1,000,000,000 trials",
        ),
        ({"chunk_size": 10**9 + 1}, "MonteCarlo(chunk_size=...)"),
        ({"workers": 513}, "MonteCarlo(workers=...): got 513; expected the number of workers"),
        (
            {"scheduler": "tcp://127.0.0.1:8786"},
            "MonteCarlo(scheduler=...): got 'tcp://127.0.0.1:8786'; only",
        ),
    ],
)
def test_numbers_out_of_range_are_refused_before_simulating(
    tiny, tmp_path, kwargs, needle, no_simulation
):
    out = tmp_path / "out"
    with pytest.raises(
        UserError, match=r"expected|only with MonteCarlo\(backend='dask'\)"
    ) as caught:
        runner.run_study(tiny, **{"trials": 10, "out": out, **kwargs})
    assert needle in str(caught.value)
    assert not out.exists()  # refused before the output folder was made


def test_the_largest_seed_runs(tiny):
    result = runner.run_study(tiny, trials=3, seed=2**63 - 1, workers=1)
    assert result.trials["seed"].tolist() == [2**63 - 1] * 3


@pytest.mark.parametrize(
    "args",
    [
        ["run", "{s}", "--seed", str(2**63)],
        ["run", "{s}", "--trials", str(10**10)],
        ["run", "{s}", "--workers", "100000"],
        ["run", "{s}", "--scheduler", "tcp://127.0.0.1:8786"],
        ["sweep", "{s}", "--grid", "first_aid.level=0,1", "--scheduler", "tcp://127.0.0.1:8786"],
        ["compare", "{s}", "{s}", "--seed", str(2**64)],
        ["study", "{dir}", "--seed", str(2**63)],
        ["study", "{dir}", "--scheduler", "tcp://127.0.0.1:8786"],
    ],
)
def test_the_commands_refuse_out_of_range_numbers_with_exit_2(tiny, tmp_path, args, no_simulation):
    filled = [a.replace("{s}", str(tiny)).replace("{dir}", str(tmp_path)) for a in args]
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*filled, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert f"error: {filled[-2]}: got " in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


# --- a damaged chunk ------------------------------------------------------------------------


def crash_after_three_chunks(tiny: Path, out: Path, monkeypatch, seed: int = 9) -> Path:
    """Run 200 trials in chunks of 25 into ``out`` and crash in the fourth; the partial dir."""
    calls = {"n": 0}

    def crashing(scenario, trial, seed):
        calls["n"] += 1
        if calls["n"] > 90:
            raise CrashError
        return run_trial(scenario, trial, seed)

    monkeypatch.setattr(chunks, "_trial_fn", lambda: crashing)
    with pytest.raises(CrashError):
        runner.run_study(tiny, trials=200, seed=seed, workers=1, chunk_size=25, out=out)
    return out / PARTIAL_DIR / run_key(load_scenario(tiny), seed)


def test_a_damaged_chunk_is_run_again(tiny, tmp_path, monkeypatch, capsys, cli_notes):
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    out = tmp_path / "out"
    partial = crash_after_three_chunks(tiny, out, monkeypatch)
    truncated, emptied, short = (partial / f"chunk-{a}-{a + 25}.arrow" for a in (0, 25, 50))
    truncated.write_bytes(truncated.read_bytes()[:7])
    emptied.write_bytes(b"")
    uninterrupted.iloc[:3].to_parquet(short, index=False)  # readable, but not 25 trials
    misplaced = partial / "chunk-75-100.parquet"  # readable, 25 trials, but trials 0 to 24
    uninterrupted.iloc[:25].to_parquet(misplaced, index=False)
    capsys.readouterr()
    counted = counting(monkeypatch)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 200  # the four damaged chunks as well as the four never saved
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    err = capsys.readouterr().err
    for path in (truncated, emptied, short, misplaced):
        assert f"note: {path} is damaged" in err
    assert not (out / PARTIAL_DIR).exists()


def test_a_chunk_moved_from_another_runs_folder_is_run_again(
    tiny, tmp_path, monkeypatch, capsys, cli_notes
):
    """A chunk copied by hand between two runs' folders is not mixed into the other run."""
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    other = crash_after_three_chunks(tiny, tmp_path / "other", monkeypatch, seed=10)
    out = tmp_path / "out"
    partial = crash_after_three_chunks(tiny, out, monkeypatch)
    moved = partial / "chunk-0-25.arrow"  # the same trials of another seed: a whole chunk
    shutil.copyfile(other / "chunk-0-25.arrow", moved)
    capsys.readouterr()
    counted = counting(monkeypatch)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 150  # the moved chunk's 25 trials as well as the 125 never saved
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    err = capsys.readouterr().err
    assert f"note: {moved} was saved by another run" in err
    assert "damaged" not in err


def test_a_damaged_chunk_is_a_warning_not_a_print(tiny, tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    partial = crash_after_three_chunks(tiny, out, monkeypatch)
    (partial / "chunk-0-25.arrow").write_bytes(b"")
    capsys.readouterr()
    counting(monkeypatch)
    with pytest.warns(HarmoniesNote, match="chunk-0-25.arrow is damaged"):
        runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert capsys.readouterr() == ("", "")


def test_a_chunk_saved_as_parquet_by_an_earlier_version_is_resumed(
    tiny, tmp_path, monkeypatch, capsys, cli_notes
):
    uninterrupted = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25).trials
    out = tmp_path / "out"
    partial = crash_after_three_chunks(tiny, out, monkeypatch)
    for a in (0, 25):  # as the earlier versions wrote them: the plainest parquet
        arrow = partial / f"chunk-{a}-{a + 25}.arrow"
        plain = dict(compression=None, use_dictionary=False, write_statistics=False)
        pq.write_table(read_chunk_table(arrow), arrow.with_suffix(".parquet"), **plain)
        arrow.unlink()
    counted = counting(monkeypatch)
    resumed = runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 125  # the two parquet chunks and the arrow one were all kept
    pd.testing.assert_frame_equal(uninterrupted, resumed.trials)
    assert "damaged" not in capsys.readouterr().err


def test_a_whole_chunk_is_kept(tiny, tmp_path, monkeypatch, capsys, cli_notes):
    out = tmp_path / "out"
    crash_after_three_chunks(tiny, out, monkeypatch)
    counted = counting(monkeypatch)
    runner.run_study(tiny, trials=200, seed=9, workers=1, chunk_size=25, out=out)
    assert counted["n"] == 125
    assert "damaged" not in capsys.readouterr().err


# --- a kill while the results are saved -----------------------------------------------------


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_a_run_killed_while_saving_resumes_and_writes_everything(tiny, tmp_path, monkeypatch, kind):
    result_class = {"run": StudyResult, "sweep": SweepResult}[kind]
    save = result_class.save
    out = tmp_path / "out"

    def start():
        if kind == "run":
            return runner.run_study(tiny, trials=80, seed=2, workers=1, chunk_size=10, out=out)
        grid = {"first_aid.level": [0, 2]}
        return runner.run_sweep(tiny, grid, trials=80, seed=2, workers=1, chunk_size=10, out=out)

    def half_save(self, folder, **kwargs):
        (Path(folder) / "half-written").write_text("", encoding="utf-8")
        raise CrashError  # stands for a kill in the middle of writing the results

    monkeypatch.setattr(result_class, "save", half_save)
    with pytest.raises(CrashError):
        start()
    chunks = list((out / PARTIAL_DIR).glob("*/chunk-*.arrow"))
    assert len(chunks) == (8 if kind == "run" else 16)  # all kept: nothing to simulate again

    monkeypatch.setattr(result_class, "save", save)
    counted = counting(monkeypatch)
    result = start()
    assert counted["n"] == 0
    names = {"run": ["trials.parquet", "summary.csv", "summary.json"], "sweep": ["sweep.csv"]}
    for name in [*names[kind], "scenario.toml"]:
        assert (out / name).is_file(), name
    assert not (out / PARTIAL_DIR).exists()
    if kind == "run":
        pd.testing.assert_frame_equal(pd.read_parquet(out / "trials.parquet"), result.trials)


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
    assert "interrupted; the same command resumes" in capsys.readouterr().err
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
    # Worker processes run the chunks that are not the compiled kernel's (whose chunks run
    # on threads of the command's own process): here every chunk, the kernel switched off.
    plain = {**os.environ, "HARMONIES_NO_JIT": "1"}
    proc, workers = start_stalled(arguments(tiny, out, workers=2), out, env=plain)
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
    assert len(list((out / PARTIAL_DIR).glob("*/chunk-*.arrow"))) >= 3


# --- a folder that cannot be written any more -------------------------------------------


@pytest.mark.parametrize("code", ["EACCES", "EPERM", "EROFS"])
def test_a_folder_made_read_only_during_a_run_is_refused_as_at_its_start(
    tiny, tmp_path, monkeypatch, code
):
    """A folder chmod'ed (or remounted) read-only while the trials run: exit 2, as the same
    folder is refused before a run (the user's setting, not the machine's fault); the chunks
    saved before are kept, and the same command, the folder writable again, resumes them."""
    import errno
    from functools import partial

    from simulator.runner import plan

    number = getattr(errno, code)
    saved = {"n": 0}

    def refused_after_two(write, columns, start, path, *rest, **named):
        saved["n"] += 1
        if saved["n"] > 2:
            raise OSError(number, os.strerror(number), str(path))
        return write(columns, start, path, *rest, **named)

    for module in (chunks, plan):
        writer = partial(refused_after_two, module.write_chunk_file)
        monkeypatch.setattr(module, "write_chunk_file", writer)
    out = tmp_path / "out"
    args = ["run", str(tiny), "--trials", "60", "--chunk-size", "10", "--workers", "1"]
    args += ["--no-figures", "--quiet", "--out"]
    done = CliRunner().invoke(main, [*args, str(out)])
    assert done.exit_code == 2, done.output
    errors = [line for line in done.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and os.strerror(number) in errors[0], done.output
    assert "run the same command again" in errors[0]
    assert len(list((out / PARTIAL_DIR).glob("*/chunk-*.arrow"))) == 2

    monkeypatch.undo()
    counted = counting(monkeypatch)
    assert CliRunner().invoke(main, [*args, str(out)]).exit_code == 0
    assert counted["n"] == 40  # the two chunks kept are not run again
    assert CliRunner().invoke(main, [*args, str(tmp_path / "whole")]).exit_code == 0
    for name in ("trials.parquet", "summary.json", "summary.csv"):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
