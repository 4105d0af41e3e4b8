"""kill -9 while a command marks a new folder: the same command again takes the folder back.

Marking a folder writes the marker into a temporary file first (and probes that the folder
can be written); killed between that and the rename, the command left a folder holding only
``..harmonies-sim.<random>.tmp`` (or ``.write-check-<random>``), which every later command,
the same one included, refused for ever as "files harmonies-sim did not write". Such a file
is the tool's, so it does not make the folder a user's; but no marker records its token, so
nothing proves it the tool's either, and it is left as it is (a hidden file, harmless).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.runner import outdir
from simulator.runner.marker import MARKER, read_marker

LEFTOVERS = (
    "..harmonies-sim.k3x_9q0a.tmp",
    "..harmonies-sim.0123456789abcdef.k3x_9q0a.tmp",  # with a token (the marker's own)
    ".write-check-ab12cd34",
)


@pytest.mark.parametrize("leftover", LEFTOVERS)
def test_a_folder_holding_only_what_a_killed_marking_left_is_taken_back(
    tmp_path: Path, leftover: str
) -> None:
    folder = tmp_path / "R"
    folder.mkdir()
    (folder / leftover).write_bytes(b"")  # kill -9 before the marker was renamed into place
    out = outdir.claim(folder, ["summary.csv"], identity="the run")
    try:
        assert read_marker(out) is not None
        assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, leftover])
    finally:
        outdir.release(out)


def test_a_users_file_beside_such_a_leftover_is_still_refused_and_nothing_is_removed(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "R"
    folder.mkdir()
    (folder / LEFTOVERS[0]).write_bytes(b"{")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(UserError, match=r"notes\.txt") as refused:
        outdir.claim(folder, ["summary.csv"], identity="the run")
    assert LEFTOVERS[0] not in str(refused.value)
    assert sorted(p.name for p in folder.iterdir()) == sorted([LEFTOVERS[0], "notes.txt"])


def test_a_link_named_like_a_leftover_is_not_the_tools(tmp_path: Path) -> None:
    folder = tmp_path / "R"
    folder.mkdir()
    (tmp_path / "elsewhere").write_text("mine", encoding="utf-8")
    (folder / LEFTOVERS[0]).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UserError, match="did not write"):
        outdir.claim(folder, ["summary.csv"], identity="the run")
    assert (tmp_path / "elsewhere").read_text(encoding="utf-8") == "mine"


def test_a_write_probe_a_kill_left_beside_a_result_is_left_alone_by_the_next_command(
    tmp_path: Path,
) -> None:
    from simulator.files import atomic_write

    out = outdir.claim(tmp_path / "R", ["a.txt"], identity="same")
    atomic_write(out / "a.txt", lambda tmp: tmp.write_text("first", encoding="utf-8"))
    outdir.record(out, [out / "a.txt"], complete=True)
    (out / LEFTOVERS[2]).write_bytes(b"mine?")
    out = outdir.claim(tmp_path / "R", ["a.txt"], identity="same")
    try:
        assert (out / LEFTOVERS[2]).read_bytes() == b"mine?"  # nothing proves it the tool's
    finally:
        outdir.release(out)


def test_a_user_folder_named_like_a_leftover_is_still_the_users(tmp_path: Path) -> None:
    folder = tmp_path / "R"
    (folder / LEFTOVERS[0]).mkdir(parents=True)
    with pytest.raises(UserError, match="did not write"):
        outdir.claim(folder, ["summary.csv"], identity="the run")
