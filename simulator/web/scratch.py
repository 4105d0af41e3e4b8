"""The workbench's private temporary folders, and the sweep of those a killed server left.

A Solve writes its calibration file into a folder of its own in the system's temporary
folder (never in the served one): :func:`private_folder`, removed when the Solve ends. A
server killed meanwhile (kill -9, a crash, the machine stopped) cannot remove it; the next
workbench started removes it (:func:`sweep`), and only what it can prove is such a folder:

- its name is :data:`PREFIX`, the process's id, ``-`` and ``mkdtemp``'s eight characters;
- it is a real folder (no link) of this user's, and that process has ended (no process of
  that id, or one started at another time than :data:`OWNER` records);
- it holds :data:`OWNER` (written first, before anything else) on this host, and the files
  it lists, each unchanged (size and SHA-256): nothing else is removed, and a folder that
  holds anything else stays (with all it holds).

A folder left between its creation and :data:`OWNER` is empty: it goes once its process has
ended. The same scheme as an output folder's marker (:mod:`simulator.runner.marker`): what
the tool wrote is listed before it is written, and nothing else is ever deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

PREFIX = "harmonies-workbench-"
"""The start of the name of a workbench's temporary folder."""

NAME = re.compile(rf"^{re.escape(PREFIX)}(\d+)-[a-z0-9_]{{8}}\Z")
"""The whole name: the prefix, the process id, then ``mkdtemp``'s eight characters."""

OWNER = ".harmonies-workbench.json"
"""The file that proves a temporary folder the workbench's: its process, host and files."""


def _started(pid: int) -> str | None:
    """When process ``pid`` started (Linux's clock ticks since boot), None where unknown."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()  # the command's name may hold spaces
    return fields[19] if len(fields) > 19 else None  # field 22, counted from 1 before ")"


def _ended(pid: int, started: object) -> bool:
    """Whether process ``pid``, started at ``started`` (:func:`_started`), has ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return isinstance(started, str) and _started(pid) not in (None, started)
    now = _started(pid)
    return isinstance(started, str) and now is not None and now != started


def _fingerprint(data: bytes) -> dict[str, Any]:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _create(path: Path, data: bytes) -> None:
    """Write a new file (never through a link, never over a file)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(path, flags, 0o600)
    try:
        with os.fdopen(handle, "wb") as written:
            handle = -1
            written.write(data)
    finally:
        if handle >= 0:
            os.close(handle)


@contextlib.contextmanager
def private_folder(files: Mapping[str, str]) -> Iterator[Path]:
    """A new private folder in the system's temporary folder, holding ``files`` (name: text).

    :data:`OWNER` is written first, listing each file: a server killed at any point leaves
    a folder that :func:`sweep` removes, whole. On leaving, exactly what was written goes.
    """
    contents = {name: text.encode("utf-8") for name, text in files.items()}
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    owner = {
        "pid": os.getpid(),
        "started": _started(os.getpid()),
        "host": socket.gethostname(),
        "files": {name: _fingerprint(data) for name, data in contents.items()},
    }
    try:
        _create(folder / OWNER, json.dumps(owner).encode("utf-8"))
        for name, data in contents.items():
            _create(folder / name, data)
        yield folder
    finally:
        _clear(folder, owner)


def _clear(folder: Path, owner: Mapping[str, Any]) -> bool:
    """Remove the files ``owner`` lists that are unchanged, then it, then the folder if empty.

    Returns:
        Whether the folder is gone.
    """
    files = owner.get("files")
    for name, record in files.items() if isinstance(files, dict) else ():
        path = folder / str(name)
        if "/" in str(name) or str(name) in ("", ".", "..", OWNER):
            continue
        with contextlib.suppress(OSError):
            if path.is_symlink() or not path.is_file():
                continue
            if _fingerprint(path.read_bytes()) == record:
                path.unlink()
    with contextlib.suppress(OSError):
        if {p.name for p in folder.iterdir()} == {OWNER}:
            (folder / OWNER).unlink()
    try:
        folder.rmdir()  # refused while anything else is there: it stays, with all it holds
    except OSError:
        return False
    return True


def _owner(folder: Path) -> dict[str, Any] | None:
    """The content of ``folder``'s :data:`OWNER`, when it is a plain file of a JSON object."""
    path = folder / OWNER
    if path.is_symlink() or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def sweep(root: Path | None = None) -> list[Path]:
    """Remove the workbench folders a killed server left in ``root`` (see the module).

    Args:
        root: Where to look; by default the system's temporary folder.

    Returns:
        The folders removed.
    """
    swept = []
    try:  # no usable temporary folder at all: nothing to sweep (a Solve says so)
        where = Path(tempfile.gettempdir() if root is None else root)
        entries = list(where.iterdir())
    except OSError:
        return []
    for folder in entries:
        found = NAME.match(folder.name)
        if found is None:
            continue
        with contextlib.suppress(OSError):
            if folder.is_symlink() or not folder.is_dir():
                continue
            if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
                continue
            pid = int(found[1])
            owner = _owner(folder)
            if owner is None:  # killed before its owner file: gone once empty and ended
                if not any(folder.iterdir()) and _ended(pid, None) and _rmdir(folder):
                    swept.append(folder)
                continue
            mine = owner.get("pid") == pid and owner.get("host") == socket.gethostname()
            if mine and _ended(pid, owner.get("started")) and _clear(folder, owner):
                swept.append(folder)
    return swept


def _rmdir(folder: Path) -> bool:
    try:
        folder.rmdir()
    except OSError:
        return False
    return True
