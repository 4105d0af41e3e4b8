"""What the user wrote is sacred: the output folders' rule (CONTRACT.md, "Output folders").

Through the real command line, in a temporary folder: a command writes only into a folder it
made, or one that holds its own earlier results (marked by ``.harmonies-sim``); every file
it did not write is byte-identical afterwards, and whatever is in the way is refused with
exit status 2, naming the folder and the file.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from simulator.runner import outdir
from simulator.studies.result import StudyResult
from tests.support import harmonies_sim, tiny_scenario

pytestmark = pytest.mark.integration  # commands end to end: make test, not make check

REPO = Path(__file__).resolve().parents[2]
FAST = ("--trials", "8", "--workers", "1", "--no-figures")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    done = harmonies_sim(*args, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def user_folder(tmp_path: Path) -> Path:
    """A designer's folder: a scenario named scenario.toml, with comments, and a README."""
    folder = tmp_path / "mine"
    folder.mkdir()
    text = "# my notes: keep them\n" + tiny_scenario()
    (folder / "scenario.toml").write_text(text, encoding="utf-8")
    (folder / "other.toml").write_text(tiny_scenario(first_aid_level=3), encoding="utf-8")
    (folder / "README.md").write_text("# my own index\n", encoding="utf-8")
    return folder


COMMANDS = {
    "run": ["run", "mine/scenario.toml", "--set", "first_aid.level=4", *FAST],
    "sweep": ["sweep", "mine/scenario.toml", "--grid", "first_aid.level=0,1", *FAST],
    "compare": ["compare", "mine/scenario.toml", "mine/other.toml", *FAST],
    "study": ["study", "mine", "--trials", "8", "--workers", "1"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_folder_of_the_users_given_as_out_is_refused_and_left_untouched(tmp_path, command):
    folder = user_folder(tmp_path)
    before = snapshot(folder)
    done = cli(*COMMANDS[command], "--out", "mine", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out mine: "), done.stderr
    assert "did not write" in lines[0] and "scenario.toml" in lines[0]
    assert snapshot(folder) == before
    assert sorted(p.name for p in folder.iterdir()) == sorted(before)  # nothing added


def test_a_run_writes_again_into_its_own_folder_and_removes_only_its_own_stale_files(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    first = cli("run", "a.toml", "--trials", "8", "--workers", "1", "--out", "o", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "o"
    assert (out / outdir.MARKER).is_file() and (out / "fate-first-day.png").is_file()
    (out / "notes.txt").write_text("mine", encoding="utf-8")  # the user's, beside ours
    again = cli("run", "a.toml", *FAST, "--set", "horizon=1d", "--out", "o", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert not (out / "fate-first-day.png").exists()  # ours, from the earlier run: stale
    assert 'horizon = "1d"' in (out / "scenario.toml").read_text(encoding="utf-8")


def test_a_result_file_the_user_edited_is_never_written_over(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0
    saved = tmp_path / "o" / "scenario.toml"
    saved.write_text(saved.read_text(encoding="utf-8") + "# my tweak\n", encoding="utf-8")
    edited = saved.read_bytes()
    done = cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path)
    assert done.returncode == 2
    assert "error: --out o: scenario.toml was not written by harmonies-sim" in done.stderr
    assert saved.read_bytes() == edited
    # Its own unchanged scenario.toml, run again into its folder, is an input: kept too.
    assert cli("run", "a.toml", *FAST, "--out", "p", cwd=tmp_path).returncode == 0
    kept = (tmp_path / "p" / "scenario.toml").read_bytes()
    done = cli("run", "p/scenario.toml", *FAST, "--set", "first_aid.level=2", "--out", "p",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "is an input of this command" in done.stderr
    assert (tmp_path / "p" / "scenario.toml").read_bytes() == kept


def test_an_input_inside_a_result_folder_the_command_would_clear_is_kept(tmp_path):
    """A study into its own folder, of one of its scenario folders: replacing the study
    would remove that folder and its scenario.toml, the command's input; the same result
    saved from Python over the scenario it was read from is refused as the command is."""
    (tmp_path / "sd").mkdir()
    for stem, level in (("novice", 0), ("expert", 3)):
        text = tiny_scenario(first_aid_level=level)
        (tmp_path / "sd" / f"{stem}.toml").write_text(text, encoding="utf-8")
    assert cli("study", "sd", *FAST, "--out", "S", cwd=tmp_path).returncode == 0
    kept = (tmp_path / "S" / "expert" / "scenario.toml").read_bytes()
    done = cli("study", "S/expert", *FAST, "--out", "S", cwd=tmp_path)
    assert done.returncode == 2 and "expert/scenario.toml is an input" in done.stderr
    assert (tmp_path / "S" / "expert" / "scenario.toml").read_bytes() == kept
    from simulator.errors import UserError
    from simulator.studies import MonteCarlo, run_study

    assert cli("run", "sd/expert.toml", *FAST, "--out", "R", cwd=tmp_path).returncode == 0
    given = tmp_path / "R" / "scenario.toml"
    kept = given.read_bytes()
    method = MonteCarlo(trials=8, seed=2, workers=1)
    result = run_study(given, method, overrides=["first_aid.level=1"])
    with pytest.raises(UserError, match="is an input"):
        result.save(tmp_path / "R", figures=False)
    assert given.read_bytes() == kept


def test_an_empty_folder_is_accepted_and_a_run_resumes_in_its_own(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    (tmp_path / "empty").mkdir()
    done = cli("run", "a.toml", *FAST, "--json", "--out", "empty", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["trials"] == 8


def test_without_out_run_sweep_and_compare_write_under_results_runs(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    (tmp_path / "b.toml").write_text(tiny_scenario(first_aid_level=2), encoding="utf-8")
    for args in (["run", "a.toml"], ["sweep", "a.toml", "--grid", "first_aid.level=0,1"],
                 ["compare", "a.toml", "b.toml"], ["study", "."]):  # fmt: skip
        done = cli(*args, *FAST[:4], cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    runs = tmp_path / "results" / "runs"
    assert sorted(p.name for p in runs.iterdir()) == sorted(
        ["a", "a-sweep-first_aid.level", "a-vs-b", tmp_path.name]
    )
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["runs"]


def test_the_committed_results_are_marked_as_the_main_studys_own():
    # `make run` (study scenarios --out results) writes them again: each folder it writes
    # into carries a marker that lists its files as they are committed.
    results = REPO / "results"
    folders = [results] + [results / p.stem for p in sorted((REPO / "scenarios").glob("*.toml"))]
    for folder in folders:
        if not folder.is_dir():
            continue  # a new scenario: make run makes its folder
        marker = outdir.read_marker(folder)
        assert marker is not None, f"{folder} has no {outdir.MARKER}: run `make run`"
        names = ["README.md"] if folder == results else StudyResult.files(("png", "svg"))
        for name in names:
            path = folder / name
            if path.is_file():
                assert outdir.unchanged(path, marker["files"].get(name)), (
                    f"{path} differs from what {folder / outdir.MARKER} lists: run `make run`"
                )


def test_a_run_into_a_studys_folder_is_refused_and_a_study_replaces_it_whole(tmp_path):
    # One folder, one result: a run into a study's folder would replace the whole study with
    # one summary (`run --out results` once wiped the main study with a note): refused, as a
    # run into one of its scenario's folders is (the study's README and index would name
    # numbers no longer there). Another study replaces it, never touching the user's files.
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    done = cli("study", "scenarios", "--trials", "8", "--workers", "1", "--out", "res",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "res" / "README.md").is_file()
    assert (tmp_path / "res" / "a" / "fate.svg").is_file()
    (tmp_path / "res" / "a" / "notes.txt").write_text("mine", encoding="utf-8")
    before = {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()}
    inside = cli("run", "scenarios/a.toml", *FAST, "--seed", "3", "--out", "res/a", cwd=tmp_path)
    assert inside.returncode == 2, inside.stderr
    assert "--out res/a: the folder is part of the result in res" in inside.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()} == before
    # the same folder however it is written: from inside it, or through a ".." (a helper's
    # round found both let through, the study's README then naming another scenario's numbers)
    scenario = str(scenarios / "a.toml")
    here = cli("run", scenario, *FAST, "--out", ".", cwd=tmp_path / "res" / "a")
    assert here.returncode == 2 and "the folder is part of the result in" in here.stderr
    (tmp_path / "res" / "b").mkdir()  # a folder of the user's beside it, to step back from
    back = cli("run", scenario, *FAST, "--out", "res/b/../a", cwd=tmp_path)
    assert back.returncode == 2 and "the folder is part of the result in" in back.stderr
    through = cli("run", scenario, *FAST, "--out", "res/a/x/..", cwd=tmp_path)
    assert through.returncode == 2 and "the folder is part of the result in" in through.stderr
    assert not (tmp_path / "res" / "a" / "x").exists()  # nothing made on the way
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "lnk").symlink_to(tmp_path / "elsewhere")  # a link at the end: still refused
    linked = cli("run", scenario, *FAST, "--out", "res/../lnk", cwd=tmp_path)
    assert linked.returncode == 2 and "never writes through a link" in linked.stderr
    assert not any((tmp_path / "elsewhere").iterdir())
    (tmp_path / "elsewhere" / "deep").mkdir()  # lnk/../x: the system's ".." is the target's
    (tmp_path / "deeplnk").symlink_to(tmp_path / "elsewhere" / "deep")
    through_link = cli("run", scenario, *FAST, "--out", "deeplnk/../x", cwd=tmp_path)
    assert through_link.returncode == 2 and "never writes through a link" in through_link.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "elsewhere" / "x").exists()
    (tmp_path / "res" / "b").rmdir()
    assert {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()} == before
    whole = cli("run", "scenarios/a.toml", *FAST, "--out", "res", cwd=tmp_path)
    assert whole.returncode == 2, whole.stderr
    assert "--out res: the folder holds a whole study (its index and the result folders a)" in (
        whole.stderr
    )
    assert {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()} == before
    (scenarios / "b.toml").write_text(tiny_scenario(), encoding="utf-8")
    (scenarios / "a.toml").unlink()
    again = cli("study", "scenarios", "--trials", "8", "--workers", "1", "--out", "res",
                cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "res" / "b" / "fate.svg").is_file()
    # the user's note stays, beside a marker that lists nothing: still the tool's folder
    assert sorted(p.name for p in (tmp_path / "res" / "a").iterdir()) == [
        outdir.MARKER,
        "notes.txt",
    ]
    assert outdir.read_marker(tmp_path / "res" / "a")["files"] == {}
    assert (tmp_path / "res" / "a" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_study_over_a_study_keeps_a_users_note_and_refuses_before_deleting_anything(tmp_path):
    """A note in a scenario's folder once made the next study refuse after it had deleted the
    earlier one; a user's folder in the way of a new scenario's is refused before anything."""
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    study = ("study", "scenarios", "--trials", "8", "--workers", "1", "--no-figures", "--quiet")
    assert cli(*study, "--out", "res", cwd=tmp_path).returncode == 0
    (tmp_path / "res" / "a" / "notes.txt").write_text("mine", encoding="utf-8")
    other = cli(*study, "--seed", "2", "--out", "res", cwd=tmp_path)
    assert other.returncode == 0, other.stderr
    assert (tmp_path / "res" / "a" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert cli(*study, "--out", "res", cwd=tmp_path).returncode == 0  # and back again
    before = {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()}
    (scenarios / "b.toml").write_text(tiny_scenario(), encoding="utf-8")
    (tmp_path / "res" / "b").mkdir()
    (tmp_path / "res" / "b" / "mine.txt").write_text("mine", encoding="utf-8")
    refused = cli(*study, "--seed", "3", "--out", "res", cwd=tmp_path)
    assert refused.returncode == 2 and "res/b: the folder holds files" in refused.stderr
    after = {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()}
    del after[tmp_path / "res" / "b" / "mine.txt"]
    assert after == before  # nothing of the earlier study was touched


def test_a_python_run_stopped_midway_leaves_its_folder_free(tmp_path, monkeypatch):
    # A notebook's Ctrl-C while saving: the kernel lives on, but the folder is not its any more.
    from simulator.studies import api

    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(StudyResult, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        api.run_study(tmp_path / "a.toml", trials=8, workers=1, out=tmp_path / "o", figures=False)
    done = cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_files_written_on_two_threads_at_once_are_all_listed_as_pending(tmp_path, monkeypatch):
    """``trials.parquet`` is written on a thread of its own beside the summary and the
    figures: the marker's changes must not overtake one another, or a pending file goes
    unlisted and, after a kill, the same command refuses to write over it. Here each marker
    takes a while between reading the folder's state and landing on the disk, as a busy disk
    makes it; the last marker on the disk must still list every file."""
    import copy
    import os
    import threading
    import time

    names = [f"{side}{i}.txt" for side in "ab" for i in range(30)]
    out = outdir.claim(tmp_path / "R", names)
    hold = outdir._HOLDS[os.path.realpath(out)]
    real = outdir.write_marker

    def slow(folder: Path, data: dict) -> None:
        seen = copy.deepcopy(data)  # the state this marker says
        time.sleep(0.001)  # meanwhile the other thread goes on
        real(folder, seen)

    monkeypatch.setattr(outdir, "write_marker", slow)
    start = threading.Barrier(2)

    def write(side: str) -> None:
        start.wait()
        for i in range(30):
            hold.will_write(f"{side}{i}.txt")

    threads = [threading.Thread(target=write, args=(side,)) for side in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(names) <= set(outdir.read_marker(out)["files"])  # what a rerun reads


def _edit_marker(folder: Path, change) -> None:
    path = folder / outdir.MARKER
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("listed", ["../precious.txt", "ABSOLUTE", "sub/../../precious.txt"])
def test_a_marker_naming_a_file_outside_its_folder_deletes_nothing(tmp_path, listed):
    """A marker is a file anyone can edit (results folders are committed): one that lists
    ``../x`` or an absolute path, even as pending, must not make the tool remove that file.
    The folder is refused, exit 2, saying the marker is damaged."""
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0
    precious = tmp_path / "precious.txt"
    precious.write_text("mine", encoding="utf-8")
    name = str(precious) if listed == "ABSOLUTE" else listed
    _edit_marker(tmp_path / "o", lambda d: d["files"].__setitem__(name, {"pending": True}))
    before = snapshot(tmp_path / "o")
    done = cli("run", "a.toml", "--trials", "9", "--workers", "1", "--no-figures", "--out", "o",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "damaged" in done.stderr and outdir.MARKER in done.stderr
    assert precious.read_text(encoding="utf-8") == "mine"
    assert snapshot(tmp_path / "o") == before


def test_a_marker_naming_a_folder_outside_is_damaged_too(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0
    keep = tmp_path / "keep"
    keep.mkdir()
    _edit_marker(tmp_path / "o", lambda d: d.__setitem__("folders", ["../keep"]))
    done = cli("run", "a.toml", "--trials", "9", "--workers", "1", "--no-figures", "--out", "o",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "damaged" in done.stderr
    assert keep.is_dir()


def test_a_marker_that_is_not_json_says_so(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0
    (tmp_path / "o" / outdir.MARKER).write_text("{garbage", encoding="utf-8")
    before = snapshot(tmp_path / "o")
    done = cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path)
    assert done.returncode == 2 and "damaged" in done.stderr, done.stderr
    assert snapshot(tmp_path / "o") == before


def test_a_pending_entry_claims_only_the_file_the_tool_was_placing(tmp_path):
    """A kill between listing a file as pending and writing it leaves the name listed; a file
    put there later by someone else is not the tool's, and the tool refuses to write over it.
    The file the tool itself renamed into place (fingerprinted just before) is its own."""
    from simulator.files import atomic_write
    from simulator.runner.marker import unchanged

    out = outdir.claim(tmp_path / "R", ["x.txt", "y.txt"])
    hold = outdir._HOLDS[os.path.realpath(out)]
    hold.will_write("x.txt")  # killed here: nothing written yet
    (out / "x.txt").write_text("the user's", encoding="utf-8")
    assert not unchanged(out / "x.txt", hold.data["files"]["x.txt"])

    seen = {}
    real = hold.wrote
    hold.wrote = lambda name: seen.setdefault(name, dict(hold.data["files"][name]))  # killed
    atomic_write(out / "y.txt", lambda tmp: tmp.write_text("the tool's", encoding="utf-8"))
    hold.wrote = real
    record = seen["y.txt"]
    assert record["pending"] is True and "sha256" in record["placed"]
    assert unchanged(out / "y.txt", record)  # the very file it placed
    (out / "y.txt").unlink()
    (out / "y.txt").write_text("the user's own", encoding="utf-8")
    assert not unchanged(out / "y.txt", record)
    hold.wrote("y.txt")
    assert hold.data["files"]["y.txt"] == record["placed"]
    outdir.release(out)


def test_a_kill_while_rewriting_a_file_leaves_the_old_one_the_tools(tmp_path):
    """The same command again (or resuming) rewrites files the tool wrote before: a kill
    between listing one as pending and its rename leaves the old file in place, still the
    tool's, so that the same command resumes (a review found it refused)."""
    from simulator.files import atomic_write
    from simulator.runner.marker import unchanged

    out = outdir.claim(tmp_path / "R", ["a.txt"], identity="same")
    atomic_write(out / "a.txt", lambda tmp: tmp.write_text("first", encoding="utf-8"))
    outdir.record(out, [out / "a.txt"], complete=True)
    out = outdir.claim(tmp_path / "R", ["a.txt"], identity="same")
    hold = outdir._HOLDS[os.path.realpath(out)]
    hold.will_write("a.txt")  # killed here, before anything is written
    listed = outdir.read_marker(out)["files"]["a.txt"]
    assert listed["pending"] is True and unchanged(out / "a.txt", listed)
    hold.placing("a.txt", out / "a.txt")  # (its temporary: any file will do here)
    assert unchanged(out / "a.txt", outdir.read_marker(out)["files"]["a.txt"])
    (out / "a.txt").write_text("the user's now", encoding="utf-8")
    assert not unchanged(out / "a.txt", outdir.read_marker(out)["files"]["a.txt"])
    outdir.release(out)


def test_a_pending_entry_of_an_older_version_still_claims_its_file(tmp_path):
    """Markers of the version before named no file in a pending entry: a kill then left
    ``{"pending": true}``; that folder still resumes."""
    from simulator.runner.marker import unchanged

    (tmp_path / "s.json").write_text("{}", encoding="utf-8")
    assert unchanged(tmp_path / "s.json", {"pending": True})
    assert not unchanged(tmp_path / "s.json", {"pending": True, "either": []})


def test_a_full_disk_when_making_the_folder_is_the_machines_fault(tmp_path, monkeypatch):
    """Out of space or of inodes while making ``--out`` is exit 1 (an OSError the command
    line says in one line), not a bad path (exit 2); a path that cannot be a folder still is."""
    import errno

    from simulator.errors import UserError

    def full(path, make=True):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outdir, "real_folder", full)
    with pytest.raises(OSError) as info:
        outdir.claim(tmp_path / "new", ["a.txt"])
    assert not isinstance(info.value, UserError) and info.value.errno == errno.ENOSPC
    monkeypatch.undo()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(UserError, match="not a directory we can write to"):
        outdir.claim(tmp_path / "file" / "sub", ["a.txt"])


def test_two_changed_files_are_said_in_the_plural(tmp_path):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0
    for name in ("summary.csv", "summary.json"):
        (tmp_path / "o" / name).write_text("mine now", encoding="utf-8")
    done = cli("run", "a.toml", *FAST, "--seed", "9", "--out", "o", cwd=tmp_path)
    assert done.returncode == 2
    assert "summary.csv, summary.json were changed since (or are links)" in done.stderr
    assert "move them away" in done.stderr


def test_a_command_does_not_replace_a_result_whose_folder_another_command_holds(tmp_path):
    """Refused before anything is deleted: another command's work under it is not touched."""
    from simulator.errors import UserError
    from simulator.runner.marker import lock_folder

    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    study = ("study", "scenarios", "--trials", "8", "--workers", "1", "--no-figures", "--quiet")
    assert cli(*study, "--out", "res", cwd=tmp_path).returncode == 0
    before = {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()}
    held = lock_folder(tmp_path / "res" / "a", "a", "--out")  # as another command would
    try:
        with pytest.raises(UserError, match=r"is writing into .*res/a, a result folder"):
            outdir.check_claim(tmp_path / "res", ["README.md"], identity="another")
        refused = cli(*study, "--seed", "2", "--out", "res", cwd=tmp_path)
    finally:
        os.close(held)
    assert refused.returncode == 2, refused.stderr
    assert "a result folder of the result this command would replace" in refused.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "res").rglob("*") if p.is_file()} == before


def test_a_report_shows_only_the_results_files_never_the_users(tmp_path):
    """A figure, a table or a note the user put in a result's folder is not on its page."""
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    run = ("run", "a.toml", "--trials", "8", "--workers", "1", "--quiet", "--out", "R")
    assert cli(*run, cwd=tmp_path).returncode == 0
    svg = (tmp_path / "R" / "fate.svg").read_text(encoding="utf-8")
    (tmp_path / "R" / "someone-elses-fate.svg").write_text(svg, encoding="utf-8")
    (tmp_path / "R" / "other-summary.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (tmp_path / "R" / "notes.txt").write_text("mine", encoding="utf-8")
    assert cli(*run, "--seed", "4", cwd=tmp_path).returncode == 0
    page = (tmp_path / "R" / "report.html").read_text(encoding="utf-8")
    assert "fate-first-day.svg" in page or "fate.svg" in page
    for mine in ("someone-elses-fate", "other-summary.csv", "notes.txt"):
        assert mine not in page, mine


def test_a_scenario_named_as_a_studys_index_is_refused_before_anything(tmp_path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "index.html.toml").write_text(tiny_scenario(), encoding="utf-8")
    done = cli("study", "scenarios", "--trials", "8", "--out", "res", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "index.html.toml: its results would go to res/index.html/" in done.stderr
    assert not (tmp_path / "res").exists()


def test_a_command_that_fails_before_writing_takes_away_the_folder_it_made(tmp_path):
    """`run --exact` over its time budget (or a calibration that cannot start) left an empty
    folder with only a marker; a folder it did not make, or with anything in it, stays."""
    from simulator.errors import UserError
    from simulator.studies import Exact, run_study

    made = tmp_path / "runs" / "made"
    outdir.claim(made, ["summary.csv"])
    outdir.release(made)
    assert not made.exists() and (tmp_path / "runs").is_dir()
    kept = tmp_path / "kept"
    kept.mkdir()  # the user's empty folder: marked, never removed
    outdir.claim(kept, ["summary.csv"])
    outdir.release(kept)
    assert sorted(p.name for p in kept.iterdir()) == [outdir.MARKER]
    wrote = tmp_path / "wrote"
    outdir.claim(wrote, ["summary.csv"])
    (wrote / "notes.txt").write_text("mine", encoding="utf-8")  # something else in it
    outdir.release(wrote)
    assert (wrote / "notes.txt").is_file()
    scenario = tmp_path / "s.toml"
    scenario.write_text(tiny_scenario(), encoding="utf-8")
    refused = tmp_path / "exact"
    with pytest.raises(UserError, match="states"):  # refused before it claims anything
        run_study(scenario, Exact(max_states=1), out=refused)
    assert not refused.exists()


def test_a_sampled_run_that_fails_after_its_claim_takes_its_empty_folder_away(
    tmp_path, monkeypatch
):
    """A Monte Carlo run claims its folder first (its chunks go there); one that fails before
    a chunk is kept (a Dask scheduler that never answers) leaves no folder behind."""
    from simulator.errors import UserError
    from simulator.studies import MonteCarlo, run_study
    from simulator.studies.method import Sampling

    def unreachable(self, folder):
        assert folder is not None and folder.is_dir()  # claimed, as a sampled run is
        raise UserError("--scheduler tcp://127.0.0.1:1: no Dask scheduler answered")

    monkeypatch.setattr(Sampling, "run", unreachable)
    scenario = tmp_path / "s.toml"
    scenario.write_text(tiny_scenario(), encoding="utf-8")
    with pytest.raises(UserError, match="no Dask scheduler"):
        run_study(scenario, MonteCarlo(trials=20, seed=1, workers=1), out=tmp_path / "o")
    assert not (tmp_path / "o").exists()


def test_what_is_refused_is_refused_before_an_exact_answer_is_computed(tmp_path, monkeypatch):
    """An exact answer claims its folder once answered; what claim would refuse (another
    command's folder, a path under a file, a study's) is still refused before any work."""
    from simulator.errors import UserError
    from simulator.runner.marker import lock_folder
    from simulator.studies import Exact, run_directory, run_study
    from simulator.studies.method import Solving

    def never(self, folder):
        raise AssertionError("computed before the refusal")

    scenario = tmp_path / "s.toml"
    scenario.write_text(tiny_scenario(), encoding="utf-8")
    held = tmp_path / "held"
    held.mkdir()
    lock = lock_folder(held, "held", "--out")  # as another command would
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    run_directory(folder, Exact(), out=tmp_path / "study", figures=False)
    monkeypatch.setattr(Solving, "run", never)
    try:
        with pytest.raises(UserError, match="is writing into this folder now"):
            run_study(scenario, Exact(), out=held)
    finally:
        os.close(lock)
    with pytest.raises(UserError, match="Not a directory"):
        run_study(scenario, Exact(), out=tmp_path / "afile" / "sub")
    with pytest.raises(UserError, match="holds a whole study"):
        run_study(scenario, Exact(), out=tmp_path / "study")
    with pytest.raises(UserError, match="part of the result in"):
        run_study(scenario, Exact(), out=tmp_path / "study" / "a")


def test_a_study_refuses_a_study_inside_it_before_it_deletes_its_own(tmp_path):
    """A study whose scenario folder would land on another study (given as --out there
    before) is refused before the earlier study in the folder is removed."""
    for name, files in (("d1", ("a", "b")), ("d2", ("inner",)), ("d3", ("c",))):
        (tmp_path / name).mkdir()
        for stem in files:
            (tmp_path / name / f"{stem}.toml").write_text(tiny_scenario(), encoding="utf-8")
    study = ("study", "--trials", "8", "--workers", "1", "--no-figures", "--quiet")
    assert cli(study[0], "d1", *study[1:], "--out", "X", cwd=tmp_path).returncode == 0
    assert cli(study[0], "d2", *study[1:], "--out", "X/c", cwd=tmp_path).returncode == 0
    before = {p: p.read_bytes() for p in (tmp_path / "X").rglob("*") if p.is_file()}
    refused = cli(study[0], "d3", *study[1:], "--out", "X", cwd=tmp_path)
    assert refused.returncode == 2 and "--out X/c: the folder holds a whole study" in refused.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "X").rglob("*") if p.is_file()} == before


def test_a_default_folder_never_climbs_out_of_results_runs_nor_hides():
    """A file named `...toml` (stem `..`) once sent `run`'s default folder to
    `results/runs/..`, the main study's own folder, which it then replaced."""
    from simulator.cli.options import stem_of

    assert [stem_of(name) for name in ("...toml", "..toml", ".hidden.toml", "a.b.toml")] == [
        "scenario",
        "scenario",
        "hidden",
        "a.b",
    ]


def test_a_command_refused_on_the_way_leaves_the_earlier_result_in_place(tmp_path):
    """Bad input loses nothing: an exact answer over its budget, a balance or a sensitivity
    that cannot be answered, replaced the earlier result first, then failed with exit 2."""
    from simulator.errors import UserError
    from simulator.studies import Exact, MonteCarlo, balance, run_study, sensitivity

    scenario = tmp_path / "s.toml"
    scenario.write_text(tiny_scenario(), encoding="utf-8")
    out = tmp_path / "o"
    run_study(scenario, MonteCarlo(trials=20, seed=1, workers=1), out=out, figures=False)
    before = snapshot(out)
    assert "trials.parquet" in before
    tight = Exact(max_states=1)
    with pytest.raises(UserError, match="states"):
        run_study(scenario, tight, out=out, figures=False)
    with pytest.raises(UserError, match="states"):
        balance(scenario, "patient.cp_rs=0..4", "p_dead=0.5", tight, out=out, figures=False)
    with pytest.raises(UserError, match="states"):
        sensitivity(scenario, tight, keys=["patient.cp_rs"], out=out, figures=False)
    assert snapshot(out) == before
    answered = run_study(scenario, Exact(), out=out, figures=False)  # answered: replaced
    assert answered.method == "exact" and not (out / "trials.parquet").exists()


def test_a_calibration_refused_before_its_first_round_leaves_the_earlier_result(tmp_path):
    from simulator.errors import UserError
    from simulator.studies import Exact, MonteCarlo, calibrate

    scenario = tmp_path / "s.toml"
    scenario.write_text(tiny_scenario(), encoding="utf-8")
    file = tmp_path / "c.toml"
    file.write_text(
        'name = "c"\n[[free]]\nkey = "patient.cp_rs"\nlow = 0\nhigh = 4\n'
        '[[target]]\nscenario = "s.toml"\nstat = "p_dead"\nvalue = 0.5\n',
        encoding="utf-8",
    )
    out = tmp_path / "o"
    run_study_done = calibrate(file, MonteCarlo(trials=20, seed=1, workers=1), out=out,
                               figures=False, rounds=1)  # fmt: skip
    assert run_study_done.values
    before = snapshot(out)
    with pytest.raises(UserError, match="states"):
        calibrate(file, Exact(max_states=1), out=out, figures=False, rounds=1)
    assert snapshot(out) == before
    fresh = tmp_path / "fresh"
    with pytest.raises(UserError, match="states"):
        calibrate(file, Exact(max_states=1), out=fresh, figures=False, rounds=1)
    assert not fresh.exists()


def test_an_exact_answer_over_another_scenarios_says_it_replaces_it(tmp_path):
    """An exact answer had no identity: one of another scenario replaced an earlier one in
    the same folder without a word; the same one again says nothing."""
    import warnings

    from simulator.errors import HarmoniesNote
    from simulator.studies import Exact, run_study

    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text(tiny_scenario(), encoding="utf-8")
    second.write_text(tiny_scenario(first_aid_level=3), encoding="utf-8")
    out = tmp_path / "o"
    run_study(first, Exact(), out=out, figures=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HarmoniesNote)  # the same answer again: no note
        run_study(first, Exact(), out=out, figures=False)
    with pytest.warns(HarmoniesNote, match="replacing the earlier result there"):
        run_study(second, Exact(), out=out, figures=False)


def test_a_completed_result_keeps_its_folder_locked_until_its_chunks_are_gone(tmp_path):
    """record(complete=True) inside held_until_clean leaves the lock on (another command is
    refused as busy) until the block ends; without the block it lets go at once."""
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    out = tmp_path / "o"
    outdir.claim(out, ["x.txt"])
    (out / "x.txt").write_text("x", encoding="utf-8")
    with outdir.held_until_clean(out):
        outdir.record(out, [out / "x.txt"], complete=True)
        busy = cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path)
        assert busy.returncode == 2 and "another harmonies-sim command" in busy.stderr
    assert cli("run", "a.toml", *FAST, "--out", "o", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("where", ["the folder", "its parent"])
def test_a_folder_on_a_read_only_file_system_is_said_so_not_permission_denied(
    tmp_path, monkeypatch, where
):
    """``balance --out`` on a read-only mount said "(Permission denied)": the user then looks
    for a chmod to undo. The reason is the one writing there gives, as ``run`` says it."""
    from types import SimpleNamespace

    from simulator.errors import UserError

    folder = tmp_path / "out"
    folder.mkdir()
    out = folder if where == "the folder" else folder / "new" / "deeper"
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)
    monkeypatch.setattr(os, "statvfs", lambda path: SimpleNamespace(f_flag=os.ST_RDONLY))
    with pytest.raises(UserError, match=r"\(Read-only file system\)"):
        outdir.check_claim(out, ["balance.csv"], whole=True)
    monkeypatch.setattr(os, "statvfs", lambda path: SimpleNamespace(f_flag=0))
    with pytest.raises(UserError, match=r"\(Permission denied\)"):
        outdir.check_claim(out, ["balance.csv"], whole=True)
