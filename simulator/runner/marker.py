"""The marker of an output folder, and what is read and removed by it (see :mod:`.outdir`).

The marker, :data:`MARKER`, is a small JSON file in each folder harmonies-sim writes into:
``format`` (:data:`FORMAT`), ``result`` (a hash of what determines the folder's result, or
null), ``complete``, ``files`` (each file the tool wrote there, with its size and SHA-256, or
``pending``: about to be written), ``folders`` (the result folders made inside it),
``temporaries`` (the tokens that the names of its temporary files carry, see
:func:`sweep_temporaries`) and, while a command holds the folder, ``writer`` (its process and
host). The flock on the folder that keeps a second command out is here too.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import secrets
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from simulator.errors import UserError, phrase
from simulator.files import replace_file

MARKER = ".harmonies-sim"
"""The marker file of an output folder: which result it holds, which files harmonies-sim
wrote there."""

FORMAT = 2
"""The marker's format: 1 (no ``format`` key) is still read."""

PARTIAL = ".partial"
"""The folder of a run's finished chunks (see :mod:`simulator.runner.plan`)."""

ABOUT = (
    "harmonies-sim wrote the results in this folder. It may write here again, replacing "
    "them whole (only the files listed below, and only while they are unchanged). Files it "
    "did not write are never touched."
)


def fingerprint(path: Path) -> dict[str, Any]:
    """A file's size and SHA-256, as the marker lists them."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"bytes": path.stat().st_size, "sha256": digest.hexdigest()}


def plain_name(name: object) -> bool:
    """Whether ``name`` names a file of the folder itself: no path, no parent, nothing else.

    Every name the tool lists is one (it writes only directly into the folder it holds); a
    marker that lists another is damaged, and none of its names is acted on.
    """
    return (
        isinstance(name, str)
        and name not in ("", ".", "..")
        and not any(c in name for c in ("/", "\0"))
    )


def _fingerprints(record: dict[str, Any]) -> list[object]:
    """The fingerprints a marker's entry accepts: its own, or a pending entry's candidates."""
    if record.get("pending") is not True:
        return [record]
    either = record.get("either")
    found = list(either) if isinstance(either, list) else []
    return [*found, record.get("placed")]


def was_written(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The fingerprints under which the marker ``data`` lists ``name`` as the tool's, if any."""
    record = data.get("files", {}).get(name)
    if not isinstance(record, dict):
        return []
    return [
        {"bytes": f["bytes"], "sha256": f["sha256"]}
        for f in _fingerprints(record)
        if isinstance(f, dict) and "bytes" in f and "sha256" in f
    ]


def unchanged(path: Path, record: object) -> bool:
    """Whether ``path`` is a plain file the tool wrote: the size and hash ``record`` lists.

    A file still listed as pending (a kill came while it was being written) is the tool's when
    it is one of the files the entry names: the file written there before (a kill before the
    rename leaves it in place) or the new one, fingerprinted before its rename (a kill after
    it). A file put there since by someone else under that name is neither. A pending entry of
    an older version names no file (``{"pending": true}``): it claims the file, as then.
    """
    if not isinstance(record, dict) or path.is_symlink() or not path.is_file():
        return False
    if record.get("pending") is True and "either" not in record:
        return True  # written by an older version, before pending entries named their files
    candidates = [f for f in _fingerprints(record) if isinstance(f, dict)]
    try:
        size = path.stat().st_size
        sizes = [f for f in candidates if f.get("bytes") == size]
        if not sizes:
            return False
        digest = fingerprint(path)["sha256"]
        return any(f.get("sha256") == digest for f in sizes)
    except OSError:
        return False


def shape(data: object) -> dict[str, Any]:
    """A marker's content in today's shape: only plain names; a damaged one lists no files."""
    data = data if isinstance(data, dict) else {}
    files = data.get("files")
    folders = data.get("folders")
    result = data.get("result")
    return {
        "about": ABOUT,
        "format": FORMAT,
        "result": result if isinstance(result, str) else None,
        "complete": data.get("complete", True) is True,
        "files": (
            {k: v for k, v in files.items() if plain_name(k)} if isinstance(files, dict) else {}
        ),
        "folders": (
            sorted(f for f in folders if plain_name(f)) if isinstance(folders, list) else []
        ),
        "temporaries": tokens(data),
    }


TOKEN = re.compile(r"^[0-9a-f]{16}\Z")
"""A token of temporary files (:func:`new_token`): what a marker's ``temporaries`` lists."""


def new_token() -> str:
    """A fresh token for the temporary files of one command's hold on a folder."""
    return secrets.token_hex(8)


def tokens(data: object) -> list[str]:
    """The tokens a marker's content records in ``temporaries`` (anything else ignored)."""
    found = data.get("temporaries") if isinstance(data, dict) else None
    if not isinstance(found, list):
        return []
    return [t for t in found if isinstance(t, str) and TOKEN.match(t)]


def damaged(data: object) -> bool:
    """Whether a marker's content is not what the tool writes: then it can tell nothing.

    Not a JSON object, files that are not a table of records, folders that are not a list,
    or a name that is not a file of the folder itself (:func:`plain_name`): such a marker was
    edited or damaged, and the tool cannot tell its files from the user's.
    """
    if not isinstance(data, dict):
        return True
    files, folders = data.get("files", {}), data.get("folders", [])
    if not isinstance(files, dict) or not isinstance(folders, list):
        return True
    if not all(isinstance(record, dict) for record in files.values()):
        return True
    return not all(plain_name(name) for name in [*files, *folders])


def read_marker(folder: Path) -> dict[str, Any] | None:
    """The marker of ``folder`` (None when it has none), in today's shape.

    Keys: ``format``, ``result``, ``complete``, ``files``, ``folders`` and ``damaged``
    (:func:`damaged`: then it lists no files, and the folder is nobody's to touch); one of a
    later format has ``format`` above :data:`FORMAT`.
    """
    marker = Path(folder) / MARKER
    if marker.is_symlink() or not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    shaped = shape(data)
    shaped["damaged"] = damaged(data)
    if shaped["damaged"]:
        shaped["files"], shaped["folders"] = {}, []
    if isinstance(data, dict) and isinstance(data.get("format"), int):
        shaped["format"] = data["format"]
    return shaped


def write_marker(folder: Path, data: dict[str, Any], token: str | None = None) -> None:
    """Write ``folder``'s marker whole (never through a link), its files sorted.

    Its temporary file carries ``token``, by default the last one ``data`` records: one the
    marker on disk records too, or will once this one is in place.
    """
    shaped = shape(data)
    files = shaped["files"]
    content = {**shaped, "files": {k: files[k] for k in sorted(files)}}
    if not content["temporaries"]:  # none to record: the marker as it was before the tokens
        del content["temporaries"]
    if data.get("writer"):
        content["writer"] = data["writer"]
    if token is None and shaped["temporaries"]:
        token = shaped["temporaries"][-1]
    text = json.dumps(content, indent=2, ensure_ascii=False) + "\n"
    replace_file(folder / MARKER, lambda tmp: tmp.write_text(text, encoding="utf-8"), token=token)


def lock_folder(folder: Path, where: str, flag: str) -> int:
    """Lock ``folder`` for this process, or refuse at once naming the process that holds it.

    The lock is an ``flock`` on the folder itself: the system releases it when the process
    ends, however it ends. A file system that cannot lock (some network mounts) leaves the
    folder unlocked, as before there was a lock.
    """
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        writer = json_writer(folder)
        raise UserError(
            phrase(
                "{where}: another harmonies-sim command{writer} is writing into this folder "
                "now; expected one command at a time: wait until it ends, or choose another "
                "{flag}",
                where=where,
                writer=writer,
                flag=flag,
            )
        ) from None
    except OSError:
        pass  # no locks here (ENOLCK, EBADF on NFS): one command at a time is the user's care
    return handle


def busy_inside(
    folder: Path, marker: dict[str, Any], own: frozenset[str] = frozenset()
) -> Path | None:
    """A result folder ``marker`` lists (at any depth) that another command holds now, or None.

    Each is tried with the lock :func:`lock_folder` takes, and let go at once: a command that
    would replace ``folder``'s result must not delete another's work under it. ``own``: the
    real paths of the folders this process holds (a lock conflicts with a second one taken
    in the same process: they are not tried).
    """
    for name in marker["folders"]:
        child: Path = folder / str(name)
        if child.is_symlink() or not child.is_dir():
            continue
        with contextlib.suppress(OSError):
            if os.path.realpath(child) in own:  # this process's own hold: nobody else's work
                continue
            handle = os.open(child, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return child
            except OSError:
                pass  # no locks on this file system
            finally:
                os.close(handle)  # closing lets the lock go
        inner = read_marker(child)
        if inner is not None and not inner["damaged"]:
            found = busy_inside(child, inner, own)
            if found is not None:
                return found
    return None


WRITE_CHECK = ".write-check-"
"""The prefix of the probe file a command creates and removes at once in its folder."""

_START_LEFTOVERS = (
    re.compile(rf"^\.{re.escape(MARKER)}\.(?:[0-9a-f]{{16}}\.)?[a-z0-9_]{{8}}\.tmp\Z"),
    re.compile(rf"^{re.escape(WRITE_CHECK)}[a-z0-9_]{{8}}\Z"),
)
"""The names of the marker's temporary file and of the write probe (``mkstemp``'s)."""


def start_leftover(entry: Path) -> bool:
    """Whether ``entry`` is what a command killed while marking a new folder may leave.

    Marking a folder probes that it can be written (a file made and removed at once), then
    writes the marker into a temporary file renamed into place: kill -9 in between leaves
    one of them in a folder without a marker. Such a plain file does not make the folder a
    user's (the same command again takes it back); it is not removed either, since no
    marker records its token (:func:`sweep_temporaries`): a hidden file, left as it is.
    """
    named = any(pattern.match(entry.name) for pattern in _START_LEFTOVERS)
    return named and not entry.is_symlink() and entry.is_file()


def results_only(folder: Path) -> bool:
    """Whether everything ``folder`` holds is harmonies-sim's results, each in its own folder.

    A real folder whose marker is the tool's (:func:`read_marker`, not damaged), or a real
    folder that holds such folders and nothing else (``results/runs/<stem>``, say). Such
    results are another command's: a command that takes ``folder`` leaves them as they are
    (its marker never lists them), so they do not make the folder a user's.
    """
    entries = [entry for entry in folder.iterdir() if not start_leftover(entry)]
    if not entries:
        return False
    for entry in entries:
        if entry.is_symlink() or not entry.is_dir():
            return False
        marker = read_marker(entry)
        if marker is not None and not marker["damaged"]:
            continue
        if marker is not None or (entry / MARKER).is_symlink() or not results_only(entry):
            return False
    return True


def holds_a_result(folder: Path) -> bool:
    """Whether ``folder``'s marker lists a result: files or result folders of the tool's."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    marker = read_marker(folder)
    return marker is not None and bool(marker["files"] or marker["folders"])


def json_writer(folder: Path) -> str:
    """`` (process N on HOST)`` for the command that holds ``folder``, when its marker says."""
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        writer = data.get("writer") if isinstance(data, dict) else None
        if isinstance(writer, dict) and isinstance(writer.get("pid"), int):
            return f" (process {writer['pid']} on {writer.get('host', '?')})"
    return ""


def changed_files(folder: Path, marker: dict[str, Any], prefix: str = "") -> list[str]:
    """The files ``marker`` lists that were changed since (the user's now), sub-folders too."""
    found = [
        prefix + name
        for name, entry in marker["files"].items()
        if ((folder / name).exists() or (folder / name).is_symlink())
        and not unchanged(folder / name, entry)
    ]
    partial = folder / PARTIAL
    if partial.is_symlink() or (partial.exists() and not partial.is_dir()):
        found.append(prefix + PARTIAL)
    found += partial_foreign(folder, prefix, marker.get("temporaries", ()))
    for name in marker["folders"]:
        child = folder / name
        inner = read_marker(child) if child.is_dir() and not child.is_symlink() else None
        if inner is not None and inner["damaged"]:
            found.append(f"{prefix}{name}/{MARKER}")  # it can no longer tell what is whose
        elif inner is not None:
            found += changed_files(child, inner, f"{prefix}{name}/")
    return found


CHUNK_FILE = re.compile(r"^chunk-(\d+)-(\d+)\.(?:arrow|parquet)\Z")
"""The name of a chunk file of finished trials, in ``.partial/<run key>/`` (``.parquet``: an
earlier version's, still resumed)."""
RUN_KEY = re.compile(r"^[0-9a-f]{20}\Z")
"""The name of a run's folder of chunks in ``.partial`` (:func:`simulator.runner.plan.run_key`)."""


def own_temporary(path: Path, recorded: Iterable[str]) -> str | None:
    """The name ``path`` is a temporary file of, when harmonies-sim provably made it; or None.

    Its name must be what :func:`simulator.files.replace_file` makes
    (``.NAME.TOKEN.XXXXXXXX.tmp``) with a token among ``recorded`` (a marker's
    ``temporaries``, written before any such file), and it must be a plain file, never a
    link nor a folder. A user's file named alike (without a recorded token) is not the tool's.
    """
    match = _TEMPORARY.match(path.name)
    if match is None or match[2] not in set(recorded):
        return None
    if path.is_symlink() or not path.is_file():
        return None
    return match[1]


def own_chunk_file(path: Path, recorded: Iterable[str] = ()) -> bool:
    """Whether ``path``, in a run's folder of chunks, is one harmonies-sim writes there.

    A chunk file, or the temporary file a chunk is written under before it is renamed
    into place, its token among ``recorded`` (:func:`own_temporary`); a plain file, never a
    link nor a folder.
    """
    if path.is_symlink() or not path.is_file():
        return False
    if _TEMPORARY.match(path.name):
        name = own_temporary(path, recorded)
        return name is not None and bool(CHUNK_FILE.match(name))
    return bool(CHUNK_FILE.match(path.name))


def recorded_tokens(folder: Path | None) -> list[str]:
    """The tokens of temporary files the marker of ``folder`` records (none without one)."""
    marker = read_marker(folder) if folder is not None else None
    return list(marker["temporaries"]) if marker is not None else []


def partial_foreign(
    folder: Path, prefix: str = "", recorded: Iterable[str] | None = None
) -> list[str]:
    """What ``folder/.partial`` holds that harmonies-sim does not write there (the user's).

    ``.partial`` holds one folder per run (named by its run key), each holding chunk files;
    anything else (a file, a link, a folder of another name, a result written inside, a
    temporary file whose token ``folder``'s marker does not record) is not the tool's to
    delete, so the folder's result cannot be replaced without asking. ``recorded``: the
    tokens, by default read from the folder's marker.
    """
    partial = folder / PARTIAL
    if partial.is_symlink() or not partial.is_dir():
        return []
    known = list(recorded) if recorded is not None else recorded_tokens(folder)
    found = []
    for run in sorted(partial.iterdir()):
        if run.is_symlink() or not run.is_dir() or not RUN_KEY.match(run.name):
            found.append(f"{prefix}{PARTIAL}/{run.name}")
            continue
        found += [
            f"{prefix}{PARTIAL}/{run.name}/{entry.name}"
            for entry in sorted(run.iterdir())
            if not own_chunk_file(entry, known)
        ]
    return found


def clear_chunks(run: Path, recorded: Iterable[str] | None = None) -> None:
    """Remove a run's folder of chunks: its chunk files, then it and ``.partial`` if empty.

    Only what :func:`own_chunk_file` recognises is removed (``recorded``: the tokens of
    temporary files, by default read from the marker of the output folder above); a file of
    the user's there stays, and so does the folder that holds it.
    """
    if run.is_symlink() or run.parent.is_symlink() or not run.is_dir():
        return
    known = list(recorded) if recorded is not None else recorded_tokens(run.parent.parent)
    for entry in run.iterdir():
        if own_chunk_file(entry, known):
            entry.unlink(missing_ok=True)
    for emptied in (run, run.parent):
        with contextlib.suppress(OSError):
            emptied.rmdir()


def clear_partial(
    folder: Path, recorded: Iterable[str] | None = None, keep: Collection[str] = ()
) -> None:
    """Remove every run's chunks from ``folder/.partial`` (:func:`clear_chunks`), nothing else.

    ``keep``: the run keys whose chunks stay (the next command resumes from them).
    """
    partial = folder / PARTIAL
    if partial.is_symlink() or not partial.is_dir():
        return
    known = list(recorded) if recorded is not None else recorded_tokens(folder)
    for run in partial.iterdir():
        if RUN_KEY.match(run.name) and run.name not in keep:
            clear_chunks(run, known)
    with contextlib.suppress(OSError):
        partial.rmdir()


def clear_result(
    folder: Path, marker: dict[str, Any], *, partial: bool = True, keep: Collection[str] = ()
) -> None:
    """Remove the result ``marker`` lists (checked unchanged before), its chunks if asked.

    ``keep``: the run keys whose chunks stay, here and in the result folders (the command
    that replaces the result runs the same scenarios on the same seeds, with other trial
    counts: the trials both share are the same numbers, resumed from).
    """
    for name, entry in marker["files"].items():
        if unchanged(folder / name, entry):
            (folder / name).unlink(missing_ok=True)
    if partial:
        clear_partial(folder, marker.get("temporaries", ()), keep)
    for name in marker["folders"]:
        child = folder / name
        if child.is_symlink() or not child.is_dir():
            continue
        inner = read_marker(child)
        if inner is not None and inner["damaged"]:
            continue  # nothing there is known to be the tool's
        if inner is not None:
            clear_result(child, inner, keep=keep)
            if any(entry.name != MARKER for entry in child.iterdir()):
                # the user's files stay, beside a marker that lists none: the folder is still
                # the tool's to write into (as the top folder), not a folder of the user's
                write_marker(child, shape({"temporaries": inner["temporaries"]}))
                continue
            (child / MARKER).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            child.rmdir()


_TEMPORARY = re.compile(r"^\.(.+)\.([0-9a-f]{16})\.[a-z0-9_]{8}\.tmp\Z")
"""The name of a temporary file of :func:`simulator.files.replace_file` made with a token
(:func:`simulator.files.temporary_prefix`, then ``mkstemp``'s eight characters): the file's
name, then the token."""


def sweep_temporaries(path: Path, marker: dict[str, Any] | None) -> None:
    """Remove the temporary files a killed command left in ``path``, provably its own.

    Only files :func:`own_temporary` recognises by a token ``marker`` records: beside the
    marker, those of the files the marker lists (or of the marker itself); in the runs'
    folders of chunks (``.partial/<run key>/``), those of chunk files. A file of the user's
    named like a temporary file, or an older version's, is left as it is.
    """
    if marker is None or not marker["temporaries"]:
        return
    recorded = marker["temporaries"]
    ours = {MARKER, *marker["files"]}
    for leftover in path.iterdir():
        if own_temporary(leftover, recorded) in ours:
            leftover.unlink(missing_ok=True)
    partial = path / PARTIAL
    if partial.is_symlink() or not partial.is_dir():
        return
    for run in partial.iterdir():
        if run.is_symlink() or not run.is_dir() or not RUN_KEY.match(run.name):
            continue
        for leftover in run.iterdir():
            if _TEMPORARY.match(leftover.name) and own_chunk_file(leftover, recorded):
                leftover.unlink(missing_ok=True)
