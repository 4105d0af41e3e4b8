"""Leftover temporary files: the tool sweeps its own, provably, and never a user's file.

A file is written under a temporary name, then renamed into place (:mod:`simulator.files`).
A kill between the two leaves the temporary file, which the next command into the folder
removes. A file of the user's that only looks like one (``.summary.csv.abcd1234.tmp``) is
never removed: the tool's temporaries carry a token that the folder's marker records before
any of them is made (``temporaries``), and only those are swept.

In-process (claims and holds as a command makes them; a kill is a hold let go without its
result written), then through the real command line, killed while it saves.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from simulator.files import atomic_write, temporary_prefix
from simulator.runner import outdir
from simulator.runner.marker import (
    TOKEN,
    clear_chunks,
    own_temporary,
    partial_foreign,
    read_marker,
    sweep_temporaries,
)
from tests.support import harmonies_sim, tiny_scenario

LOOK_ALIKES = (
    ".summary.csv.abcd1234.tmp",  # what the tool's temporaries were named before the token
    f"..{outdir.MARKER[1:]}.abcd1234.tmp",  # the marker's, as it was
    ".summary.csv.0123456789abcdef.abcd1234.tmp",  # a token no marker records
    ".notes.txt.abcd1234.tmp",
)


def leftover(folder: Path, name: str, token: str | None) -> Path:
    """A temporary file for ``name`` as :func:`simulator.files.replace_file` makes one."""
    handle, made = tempfile.mkstemp(prefix=temporary_prefix(name, token), suffix=".tmp", dir=folder)
    os.write(handle, b"half")
    os.close(handle)
    return Path(made)


def killed(out: Path) -> None:
    """A command into ``out`` that ends without finishing (kill -9): its hold is let go."""
    hold = outdir._HOLDS.pop(os.path.realpath(out))
    hold.release()


def test_a_claim_records_the_token_its_temporary_files_carry(tmp_path):
    out = tmp_path / "o"
    outdir.claim(out, ["a.txt"])
    token = read_marker(out)["temporaries"][-1]
    assert TOKEN.match(token)
    seen = []
    real = os.replace

    def spy(src, dst, *args, **kwargs):
        seen.append(Path(src).name)
        return real(src, dst, *args, **kwargs)

    try:
        os.replace = spy
        atomic_write(out / "a.txt", lambda tmp: tmp.write_text("a", encoding="utf-8"))
    finally:
        os.replace = real
    assert any(name.startswith(f".a.txt.{token}.") for name in seen), seen
    assert own_temporary(out / "a.txt", [token]) is None  # the file itself is no temporary
    outdir.record(out, [out / "a.txt"], complete=True)
    # complete: no temporary file of the command's is left, none to sweep; the marker is as
    # a result written the same way twice writes it, byte for byte
    assert read_marker(out)["temporaries"] == []
    assert "temporaries" not in (out / outdir.MARKER).read_text(encoding="utf-8")
    outdir.claim(out, ["a.txt"])  # the next command: a token of its own
    assert read_marker(out)["temporaries"] not in ([token], [])
    outdir.release(out)


def test_a_users_files_named_like_temporaries_are_never_swept(tmp_path):
    out = tmp_path / "o"
    outdir.claim(out, ["summary.csv"])
    atomic_write(out / "summary.csv", lambda tmp: tmp.write_text("s", encoding="utf-8"))
    outdir.record(out, [out / "summary.csv"], complete=True)
    for name in LOOK_ALIKES:
        (out / name).write_text("mine", encoding="utf-8")
    for identity in (None, "another", None):  # replaced whole, and again
        outdir.claim(out, ["summary.csv"], identity=identity)
        atomic_write(out / "summary.csv", lambda tmp: tmp.write_text("s", encoding="utf-8"))
        outdir.record(out, [out / "summary.csv"], complete=True)
    for name in LOOK_ALIKES:
        assert (out / name).read_text(encoding="utf-8") == "mine", name


def test_a_killed_commands_temporaries_are_swept_by_the_next(tmp_path):
    """Crash recovery: what a kill left beside the files, the marker's and the chunks'."""
    out = tmp_path / "o"
    outdir.claim(out, ["summary.csv"], identity="r1")
    hold = outdir._HOLDS[os.path.realpath(out)]
    token = hold.token
    hold.will_write("summary.csv")  # listed as pending, then killed while writing it
    left = [leftover(out, "summary.csv", token), leftover(out, outdir.MARKER, token)]
    run = out / outdir.PARTIAL / ("0" * 20)
    run.mkdir(parents=True)
    (run / "chunk-0-10.arrow").write_bytes(b"x")
    chunk = leftover(run, "chunk-10-20.arrow", token)
    mine = [out / name for name in LOOK_ALIKES] + [run / ".chunk-10-20.arrow.abcd1234.tmp"]
    for path in mine:
        path.write_text("mine", encoding="utf-8")
    killed(out)
    assert partial_foreign(out) == [f"{outdir.PARTIAL}/{run.name}/.chunk-10-20.arrow.abcd1234.tmp"]
    outdir.claim(out, ["summary.csv"], identity="r1")  # the same command again: resumes
    assert not any(path.exists() for path in [*left, chunk])
    assert all(path.read_text(encoding="utf-8") == "mine" for path in mine)
    assert (run / "chunk-0-10.arrow").exists()  # a finished chunk stays, to resume from
    outdir.release(out)


def test_a_temporary_the_marker_does_not_list_the_name_of_stays(tmp_path):
    """The token proves the file the tool's only for what its marker lists (or itself)."""
    out = tmp_path / "o"
    outdir.claim(out, ["a.txt"])
    token = outdir._HOLDS[os.path.realpath(out)].token
    killed(out)
    other = leftover(out, "b.txt", token)  # a name the tool never listed there
    sweep_temporaries(out, read_marker(out))
    assert other.exists()
    assert own_temporary(other, [token]) == "b.txt"
    assert own_temporary(other, []) is None


def test_the_chunks_temporary_files_carry_the_token_and_only_they_are_cleared(tmp_path):
    out = tmp_path / "o"
    outdir.claim(out, [])
    token = outdir.temporary_token(out)
    assert token is not None and outdir.temporary_token(tmp_path / "elsewhere") is None
    run = out / outdir.PARTIAL / ("1" * 20)
    run.mkdir(parents=True)
    ours = leftover(run, "chunk-0-5.arrow", token)
    (run / ".chunk-0-5.arrow.abcd1234.tmp").write_text("mine", encoding="utf-8")
    clear_chunks(run)  # the tokens from the marker of the output folder
    assert not ours.exists()
    assert (run / ".chunk-0-5.arrow.abcd1234.tmp").read_text(encoding="utf-8") == "mine"
    outdir.release(out)


# --- through the command line -----------------------------------------------------------------

KILL_AT = (
    "import os, runpy, sys\n"
    "real, at = os.replace, sys.argv[1]\n"
    "def replace(src, dst, *args, **kwargs):\n"
    "    if os.path.basename(dst).startswith(at):\n"
    "        os._exit(9)  # killed after the temporary file is written, before its rename\n"
    "    return real(src, dst, *args, **kwargs)\n"
    "os.replace = replace\n"
    "sys.argv = ['harmonies-sim', *sys.argv[2:]]\n"
    "runpy.run_module('simulator', run_name='__main__')\n"
)
RUN = ("run", "a.toml", "--trials", "40", "--chunk-size", "10", "--workers", "1", "--no-figures")


def killed_while_writing(prefix: str, cwd: Path, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILL_AT, prefix, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 9, done.stderr


@pytest.mark.integration
@pytest.mark.parametrize("at", ["summary.csv", "chunk-"])
def test_a_killed_runs_temporary_is_swept_and_a_users_look_alike_kept(tmp_path, at):
    (tmp_path / "a.toml").write_text(tiny_scenario(), encoding="utf-8")
    out = tmp_path / "R"
    assert harmonies_sim(*RUN, "--out", "R", cwd=tmp_path).returncode == 0
    for name in LOOK_ALIKES:
        (out / name).write_text("mine", encoding="utf-8")
    killed_while_writing(at, tmp_path, *RUN, "--seed", "5", "--out", "R")
    left = [p for p in out.rglob("*.tmp") if p.name not in LOOK_ALIKES]
    # trials.parquet is written on a thread beside summary.csv: its temporary may be left too
    assert sum(p.name.startswith(f".{at}") for p in left) == 1, left
    assert all(p.name.startswith((f".{at}", ".trials.parquet.")) for p in left), left
    for args in (("--seed", "5"), ("--seed", "6")):  # the same command again, then another
        again = harmonies_sim(*RUN, *args, "--out", "R", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert not any(p.exists() for p in left)
        assert sorted(p.name for p in out.rglob("*.tmp")) == sorted(LOOK_ALIKES)
    for name in LOOK_ALIKES:
        assert (out / name).read_text(encoding="utf-8") == "mine"


def test_a_file_written_after_the_command_completed_carries_a_token_to_sweep(tmp_path):
    """A study's extra files (Géraldine's grid) come after her folder's result is complete.

    Killed while one of them was written, the command left its temporary file; the next
    command sweeps it, as any other, and a folder written whole still ends with a marker
    that records no token (the same bytes as ever).
    """
    out = tmp_path / "o"
    outdir.claim(out, ["a.txt", "b.txt"], identity="r1")
    atomic_write(out / "a.txt", lambda tmp: tmp.write_text("a", encoding="utf-8"))
    outdir.record(out, [out / "a.txt"], complete=True)
    seen: list[str] = []

    def killed_while_writing(tmp: Path) -> None:
        tmp.write_text("half", encoding="utf-8")
        seen.append(tmp.name)
        raise KeyboardInterrupt  # the file a kill leaves is made again below

    with pytest.raises(KeyboardInterrupt):
        atomic_write(out / "b.txt", killed_while_writing)
    (out / seen[0]).write_text("half", encoding="utf-8")  # what kill -9 leaves
    killed(out)
    outdir.claim(out, ["a.txt", "b.txt"], identity="r1")  # the same command again
    assert not (out / seen[0]).exists(), seen
    atomic_write(out / "a.txt", lambda tmp: tmp.write_text("a", encoding="utf-8"))
    outdir.record(out, [out / "a.txt"], complete=True)
    atomic_write(out / "b.txt", lambda tmp: tmp.write_text("b", encoding="utf-8"))
    assert read_marker(out)["complete"] is True
    assert "temporaries" not in (out / outdir.MARKER).read_text(encoding="utf-8")
    outdir._HOLDS.pop(os.path.realpath(out))
