"""Output folders: the one rule every command that writes files follows (CONTRACT.md).

A command writes only into a folder it created, or one that already holds its own earlier
results; it never overwrites or deletes a file it did not write, and anything else in the
way is refused (:class:`~simulator.errors.UserError`, exit status 2) before any work starts,
naming the folder and what is in the way.

Every folder harmonies-sim writes into carries a marker, :data:`MARKER`: a small JSON file
that lists the files it wrote there, each with its size and SHA-256. A listed file is
replaced only while it is unchanged; a file edited since, or one the marker does not list,
is left alone and the command refused. A folder without a marker is accepted only when it
is new or empty. A run's partial chunks (``.partial/``) live inside its marked folder, so a
run that resumes into its own folder still resumes.

Use :func:`claim` before the work (with every name the command may write), write the files,
then :func:`record` them. :func:`check_out_dir` is :func:`claim` without names.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from simulator.errors import UserError, path_problem, shown_path

MARKER = ".harmonies-sim"
"""The marker file of an output folder: which files harmonies-sim wrote there."""

ABOUT = (
    "harmonies-sim wrote the results in this folder. It may write here again, replacing "
    "only the files listed below, and only while they are unchanged. Files it did not "
    "write are never touched."
)

_SHOWN = 5
"""How many of the files in the way a message names."""

_CLAIMED: dict[Path, frozenset[str]] = {}
"""The names of the latest :func:`claim` of each folder in this process: what
``record(..., complete=True)`` may remove when stale (that command's kind of files only)."""


def _fingerprint(path: Path) -> dict[str, Any]:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"bytes": path.stat().st_size, "sha256": digest.hexdigest()}


def unchanged(path: Path, record: object) -> bool:
    """Whether ``path`` is a plain file with the size and hash ``record`` lists."""
    if not isinstance(record, dict) or path.is_symlink() or not path.is_file():
        return False
    try:
        if path.stat().st_size != record.get("bytes"):
            return False
        return bool(_fingerprint(path)["sha256"] == record.get("sha256"))
    except OSError:
        return False


def read_marker(folder: Path) -> dict[str, Any] | None:
    """The marker of ``folder`` (None when it has none); a damaged one lists no files."""
    marker = Path(folder) / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    files = data.get("files") if isinstance(data, dict) else None
    return {"about": ABOUT, "files": dict(files) if isinstance(files, dict) else {}}


def _write_marker(folder: Path, data: dict[str, Any]) -> None:
    files = data.get("files", {})
    text = json.dumps({"about": ABOUT, "files": {k: files[k] for k in sorted(files)}}, indent=2)
    tmp = folder / f".{MARKER}.{os.getpid()}.tmp"
    try:
        tmp.write_text(text + "\n", encoding="utf-8")
        os.replace(tmp, folder / MARKER)
    finally:
        tmp.unlink(missing_ok=True)


def _names(paths: Iterable[str]) -> str:
    listed = sorted(paths)
    more = f" and {len(listed) - _SHOWN} more" if len(listed) > _SHOWN else ""
    return ", ".join(listed[:_SHOWN]) + more


def _check_text(out: str | os.PathLike[str], flag: str) -> Path:
    problem = path_problem(out, "folder")
    if problem is not None:
        raise UserError(f"{flag}: {problem}")
    return Path(os.fsdecode(os.fspath(out)))


def claim(
    out: str | os.PathLike[str],
    writes: Iterable[str] = (),
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    flag: str = "--out",
) -> Path:
    """Make sure the command may write ``writes`` into ``out``; make and mark the folder.

    Call it before any work: everything in the way is found at once.

    Args:
        out: The output folder (``--out``); made with its parents when missing.
        writes: Every file name the command may write there (a superset is fine).
        inputs: The files the command reads: none of them is ever written over.
        flag: How the user gave ``out``, for the messages.

    Returns:
        The folder, as a :class:`~pathlib.Path`.

    Raises:
        UserError: Naming ``flag``, the folder and what is in the way: a file where the
            folder goes, a folder that holds files harmonies-sim did not write, a file it
            wrote but that was changed since, or one of the command's inputs.
    """
    path = _check_text(out, flag)
    where = f"{flag} {shown_path(path)}"
    try:
        if path.exists() and not path.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        marker = read_marker(path) if path.is_dir() else None
        if marker is None and path.is_dir():
            present = [shown_path(p.name) for p in path.iterdir()]
            if present:
                raise UserError(
                    f"{where}: the folder holds files harmonies-sim did not write "
                    f"({_names(present)}); expected a new or empty folder, or one of its own "
                    f"results (they carry a {MARKER} file): choose another {flag}"
                )
        records = marker["files"] if marker else {}
        in_the_way, inputs_hit = [], []
        targets = {name: path / name for name in writes}
        for name, target in targets.items():
            if (target.exists() or target.is_symlink()) and not unchanged(
                target, records.get(name)
            ):
                in_the_way.append(name)
        for given in inputs:
            with contextlib.suppress(OSError, ValueError):
                for name, target in targets.items():
                    if target.exists() and os.path.samefile(given, target):
                        inputs_hit.append(name)
        if inputs_hit:
            raise UserError(
                f"{where}: {_names(inputs_hit)} is an input of this command and the command "
                f"would write its results over it; expected another {flag} folder"
            )
        if in_the_way:
            raise UserError(
                f"{where}: {_names(in_the_way)} was not written by harmonies-sim, or was "
                "changed since, and the command would write over it; it is left as it is: "
                f"move it away or choose another {flag}"
            )
        path.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".write-check-", dir=path)
        os.close(handle)
        os.unlink(probe)
        if marker is None:
            _write_marker(path, {"files": {}})
        _CLAIMED[path.resolve()] = frozenset(targets)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserError(
            f"{where}: not a directory we can write to ({reason}); expected a folder path"
        ) from None
    return path


def record(
    out: str | os.PathLike[str],
    written: Iterable[str | os.PathLike[str]],
    *,
    complete: bool = False,
) -> None:
    """List the files just written into ``out`` (claimed before) in its marker.

    Args:
        out: The folder.
        written: The files written, in ``out``.
        complete: These are all the command's results: the files an earlier command wrote
            here and that this one did not write again are removed, if unchanged since and
            if they are among the names of the latest :func:`claim` of the folder (the
            files this kind of command writes: a run into the main study's folder never
            removes its index). A folder then never mixes the figures of two runs.
    """
    folder = Path(out)
    marker = read_marker(folder) or {"files": {}}
    old = dict(marker["files"])
    files: dict[str, Any] = dict(old)
    fresh = set()
    for item in written:
        target = Path(item)
        if target.parent.resolve() != folder.resolve():
            continue  # only files directly in the folder are listed
        files[target.name] = _fingerprint(target)
        fresh.add(target.name)
    if complete:
        family = _CLAIMED.get(folder.resolve(), frozenset())
        for name, entry in old.items():
            if name in fresh or name not in family:
                continue
            stale = folder / name
            if unchanged(stale, entry):
                stale.unlink(missing_ok=True)
            files.pop(name)  # removed, or changed since: no longer harmonies-sim's
    _write_marker(folder, {"files": files})


def check_out_dir(out: str | os.PathLike[str]) -> Path:
    """Make the output directory (and its parents) and check that files can be written in it.

    Called before anything is simulated, so that an ``--out`` that cannot be a folder (an
    existing file, a path under a file, a name too long, a place we may not write, a folder
    of the user's) is a user mistake at once rather than a traceback after the work is done.

    Raises:
        UserError: Naming ``--out``, the path and the reason.
    """
    return claim(out)
