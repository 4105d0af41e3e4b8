"""Output folders: one command's results, whole, in each (CONTRACT.md, "Output folders").

A command writes only into a folder it created, or one that already holds its own earlier
results; it never overwrites or deletes a file it did not write, and anything else in the
way is refused (:class:`~simulator.errors.UserError`, exit status 2) before any work starts,
naming the folder and what is in the way.

Every folder harmonies-sim writes into carries a marker, :data:`MARKER`: a small JSON file
that names the result the folder holds (``result``, a hash of what determines it: the
scenarios, seed, trials and files of a study; null for a result that cannot be resumed),
whether it is ``complete``, the files written there, each with its size and SHA-256 (or
``pending``: about to be written), and the result folders made inside it (``folders``).

:func:`claim` begins a command's hold on the folder: a lock (``flock`` on the folder itself,
released when the process ends, even by kill -9) refuses a second command at once, naming
the first one's process. A folder holding an *earlier, different* result has it **replaced
whole**: its listed files, its partial chunks and its listed result folders are removed at
once, so the folder never holds files of two results side by side, even if the new command
is interrupted. The *same* result (an interrupted command started again) is resumed: nothing
is removed. Every file :func:`simulator.files.atomic_write` puts into a held folder is listed
as pending before it is written and with its hash once in place, so a kill at any moment
leaves nothing the next command would take for the user's. ``record(..., complete=True)``
ends the command: files listed that this command did not write are removed, the marker says
``complete``, the lock is released.

The marker of earlier versions (``{"about", "files"}`` only) is read as format 1: its files
are the tool's, its result unknown (so replaced whole). A marker of a later format is
refused, saying so.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.errors import (
    N_,
    Phrase,
    UserError,
    note,
    os_reason,
    path_problem,
    phrase,
    shown_path,
)
from simulator.files import real_folder, watch
from simulator.runner.marker import (
    FORMAT,
    MARKER,
    PARTIAL,
    WRITE_CHECK,
    busy_inside,
    changed_files,
    clear_result,
    fingerprint,
    holds_a_result,
    json_writer,
    lock_folder,
    new_token,
    read_marker,
    results_only,
    shape,
    start_leftover,
    sweep_temporaries,
    unchanged,
    was_written,
    write_marker,
)
from simulator.spelling import spelling

__all__ = [
    "FORMAT",
    "MARKER",
    "PARTIAL",
    "check_claim",
    "check_out_dir",
    "claim",
    "held_until_clean",
    "read_marker",
    "record",
    "release",
    "unchanged",
]

_SHOWN = 5
"""How many of the files in the way a message names."""


@dataclass
class _Hold:
    """A command's hold on a folder in this process: its lock, its marker, what it wrote."""

    folder: Path
    data: dict[str, Any]
    lock: int | None
    written: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    made: bool = False
    """Whether this hold made the folder (a command that fails before writing anything then
    takes it away again, rather than leave an empty folder behind)."""
    kept: bool = False
    """The lock outlives the result's completion (:func:`held_until_clean`)."""
    guard: threading.RLock = field(default_factory=threading.RLock, repr=False)
    """One change of the marker at a time: files are written on several threads at once
    (``trials.parquet`` beside the summary and the figures), and a marker saved from an older
    state after a newer one would lose a pending file, which a kill then leaves unlisted."""

    @property
    def token(self) -> str | None:
        """The token of this hold's temporary files (recorded in the marker at its claim)."""
        recorded = self.data.get("temporaries")
        return recorded[-1] if isinstance(recorded, list) and recorded else None

    def save(self) -> None:
        with self.guard:
            write_marker(self.folder, self.data)

    def will_write(self, name: str) -> None:
        """A file is about to be written: list it as pending first.

        A pending entry keeps the fingerprints of the files the name may hold meanwhile (the
        one written there before, if any: a kill now leaves it in place, still the tool's);
        :meth:`placing` adds the new one.
        """
        if name == MARKER:
            return
        with self.guard:
            if not self.data.get("temporaries"):  # written after the command's end (a
                # study's extra files): a token again, so that a kill's leftover is swept
                self.data["temporaries"] = [new_token()]
            self.data["files"][name] = {"pending": True, "either": was_written(self.data, name)}
            self.data["complete"] = False
            self.save()

    def placing(self, name: str, temporary: Path) -> None:
        """A file is written under ``temporary``, about to be renamed: list its fingerprint.

        Still pending (the rename has not happened), but a kill after the rename leaves the
        file listed as the very file it is, and nothing else under that name.
        """
        if name == MARKER:
            return
        fingerprinted = fingerprint(temporary)  # outside the guard: a large file takes a while
        with self.guard:
            record = self.data["files"].get(name)
            either = record.get("either", []) if isinstance(record, dict) else []
            self.data["files"][name] = {"pending": True, "either": either, "placed": fingerprinted}
            self.save()

    def wrote(self, name: str) -> None:
        """A file is in place: list its size and hash (taken before its rename, if it was)."""
        if name == MARKER:
            return
        with self.guard:
            record = self.data["files"].get(name)
            placed = record.get("placed") if isinstance(record, dict) else None
            self.data["files"][name] = (
                dict(placed) if isinstance(placed, dict) else fingerprint(self.folder / name)
            )
            self.written.add(name)
            if self.lock is None:  # written after the command's end (its last files)
                self.data["complete"] = not any(
                    isinstance(e, dict) and e.get("pending") for e in self.data["files"].values()
                )
                if self.data["complete"]:  # no temporary file left to sweep, as at record()
                    self.data["temporaries"] = []
            self.save()

    def release(self) -> None:
        if self.lock is not None:
            with contextlib.suppress(OSError):
                os.close(self.lock)
            self.lock = None


_HOLDS: dict[str, _Hold] = {}
"""This process's holds, by the folder's real path (kept after the lock is released, so that
files written afterwards are still listed)."""


def _names(paths: Iterable[str]) -> Phrase | str:
    listed = sorted(shown_path(p) for p in paths)
    names = ", ".join(listed[:_SHOWN])
    if len(listed) > _SHOWN:
        return phrase("{names} and {n} more", names=names, n=len(listed) - _SHOWN)
    return names


IN_THE_WAY_ONE = N_(
    "{where}: {names} was not written by harmonies-sim, or was changed since, and the command "
    "would write over it; it is left as it is: move it away or choose another {flag}"
)
IN_THE_WAY_MANY = N_(
    "{where}: {names} were not written by harmonies-sim, or were changed since, and the command "
    "would write over them; they are left as they are: move them away or choose another {flag}"
)
CHANGED_ONE = N_(
    "{where}: the folder holds an earlier result of harmonies-sim, which this command replaces "
    "whole, but {names} was changed since (or is a link) and is not the tool's to remove: move "
    "it away or choose another {flag}"
)
CHANGED_MANY = N_(
    "{where}: the folder holds an earlier result of harmonies-sim, which this command replaces "
    "whole, but {names} were changed since (or are links) and are not the tool's to remove: "
    "move them away or choose another {flag}"
)
"""What is in the way of a command, said of one file or of several."""

MACHINE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.ENOMEM})
"""What goes wrong with a folder through no fault of its path: a full disk (out of space or
of inodes), a quota, the disk itself. Said as the machine's fault (exit 1), not the user's."""


def _spelt(out: str | os.PathLike[str], option: str) -> tuple[Path, str, str]:
    """The folder, and how messages name it and its option, as the caller spells them.

    Raises:
        UserError: For a path that cannot name a folder (empty, a NUL byte...).
    """
    said = spelling()
    flag = said.option(option)
    problem = path_problem(out, N_("folder"))
    if problem is not None:
        raise UserError(phrase("{flag}: {problem}", flag=flag, problem=problem))
    path = Path(os.fsdecode(os.fspath(out)))
    return path, said.given(option, shown_path(path)), flag


def _load(folder: Path, where: str, flag: str) -> dict[str, Any] | None:
    marker = read_marker(folder)
    if marker is not None and marker["format"] > FORMAT:
        raise UserError(
            phrase(
                "{where}: its {marker} is of format {format}, written by a later harmonies-sim; "
                "expected format 1 to {last}: use that version, or another folder",
                where=where,
                marker=MARKER,
                format=marker["format"],
                last=FORMAT,
            )
        )
    if marker is not None and marker["damaged"]:
        raise UserError(
            phrase(
                "{where}: its {marker} file is damaged (not what harmonies-sim writes there, "
                "or it names a file outside the folder), so harmonies-sim cannot tell the files "
                "it wrote from yours and touches none; expected its own marker: choose another "
                "{flag}, or move away what you keep and remove the folder",
                where=where,
                marker=MARKER,
                flag=flag,
            )
        )
    if (folder / MARKER).is_symlink():
        raise UserError(
            phrase(
                "{where}: {marker} is a link; expected the tool's own marker file",
                where=where,
                marker=MARKER,
            )
        )
    return marker


def claim(
    out: str | os.PathLike[str],
    writes: Iterable[str] = (),
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    flag: str = "out",
    identity: str | None = None,
    with_folders: bool = False,
    within: str | os.PathLike[str] | None = None,
    resumes: Iterable[str] = (),
) -> Path:
    """Begin (or go on with) a command's hold on ``out``: check, lock, make and mark it.

    Call it before any work: everything in the way is found at once. Called again by the
    same command (its result's ``save``), it only checks the names.

    Args:
        out: The output folder (``--out``); made with its parents when missing.
        writes: Every file name the command may write there (a superset is fine).
        inputs: The files the command reads: none of them is ever written over or removed.
        flag: The option that gave ``out``, by its Python name (messages spell it as the
            caller does, :mod:`simulator.spelling`: ``--out``, ``out=``).
        identity: What determines the result (a hash); the same identity as the folder's
            result resumes it, anything else (None included) replaces it whole.
        with_folders: Whether the result holds result folders of its own (a study's, one per
            scenario). Only such a result replaces one that does: a ``run --out results``
            is refused, never allowed to replace the main study whole with one summary.
        within: The study ``out`` is a result folder of (its top folder), if any: another
            command's result found in ``out`` that the study does not list is refused.
        resumes: The run keys of the command's chunks (``.partial/<run key>``): an earlier
            result it replaces keeps those chunks (another ``--trials`` of the same
            scenarios and seed: the trials both share are the same numbers), the rest goes.

    Returns:
        The folder, as a :class:`~pathlib.Path`.

    Raises:
        UserError: Naming ``flag``, the folder and what is in the way: a link or a file
            where the folder goes, a folder of the user's, a file the tool wrote but that
            was changed since, one of the command's inputs, another command at work there.
    """
    path, where, flag = _spelt(out, flag)
    if ".." in path.parts:  # "x/..": the folder it names, no x made on the way; a link
        _refuse_a_link_before_dots(path, where, flag)
        path = Path(os.path.normpath(path))  # at its end still refused (sub/../lnk is lnk)
    names = list(writes)
    try:
        hold = _HOLDS.get(os.path.realpath(path)) if path.is_dir() else None
        if hold is not None and hold.lock is not None and identity in (None, hold.data["result"]):
            _check_names(path, names, hold.data, inputs, where, flag)
            return path
        if path.is_symlink():
            raise _a_link(where, flag)
        if path.exists() and not path.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        _refuse_inside_a_result(path, where, flag)
        if path.is_dir():
            _refuse_foreign(path, _load(path, where, flag), where, flag)
            _refuse_anothers_result(path, None if within is None else Path(within), where, flag)
        made = not path.exists()
        real_folder(path)
        lock = (
            hold.lock
            if hold is not None and hold.lock is not None
            else lock_folder(path, where, flag)
        )
        try:
            data = _begin(path, names, inputs, where, flag, identity, with_folders, resumes)
        except BaseException:
            if hold is None or hold.lock != lock:
                os.close(lock)
            raise
    except OSError as exc:
        if exc.errno in MACHINE_FAULTS:
            raise  # the machine's fault, not the path's: exit 1 (CONTRACT.md)
        reason = os_reason(exc)
        raise _not_a_folder(where, reason) from None
    hold = _HOLDS[os.path.realpath(path)] = _Hold(path, data, lock, made=made)
    watch(path, hold)
    parent = _HOLDS.get(os.path.realpath(path.parent))
    if parent is not None and parent.lock is not None and path.name not in parent.data["folders"]:
        with parent.guard:
            parent.data["folders"] = sorted({*parent.data["folders"], path.name})
            parent.save()
    if parent is not None:
        parent.folders.add(path.name)
    return path


def _a_link(where: str, flag: str) -> UserError:
    return UserError(
        phrase(
            "{where}: a link where the output folder goes; harmonies-sim never writes "
            "through a link: expected a real folder, or a new name for {flag}",
            where=where,
            flag=flag,
        )
    )


def _not_a_folder(where: str, reason: str | Phrase) -> UserError:
    return UserError(
        phrase(
            "{where}: not a directory we can write to ({reason}); expected a folder path",
            where=where,
            reason=reason,
        )
    )


def check_claim(
    out: str | os.PathLike[str],
    writes: Iterable[str] = (),
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    flag: str = "out",
    identity: str | None = None,
    whole: bool = False,
    with_folders: bool = False,
    within: str | os.PathLike[str] | None = None,
) -> None:
    """What :func:`claim` would refuse in ``out``, found without touching anything.

    A study checks each scenario's folder with it before it claims the top folder, whose
    earlier result it would replace: a refusal then comes before anything is deleted. A
    command whose work needs no folder (an exact answer, a balance) checks with it first
    (``whole``: everything :func:`claim` refuses, a study's folders included) and claims only
    once its answer is known, so that a refusal met on the way (over its time budget, a
    scenario it cannot solve) leaves the earlier result where it was: then it also finds a
    folder another command holds, and a path that cannot be made a folder. ``with_folders``
    and ``within`` as :func:`claim`'s.

    Raises:
        UserError: As :func:`claim` would, naming ``flag``, the folder and what is in the way.
    """
    path, where, flag = _spelt(out, flag)
    try:  # a name the system refuses (too long, say) is the path's fault, as claim says it
        if path.is_symlink():
            raise _a_link(where, flag)
        if path.exists() and not path.is_dir():
            raise _not_a_folder(where, os_reason(NotADirectoryError(errno.ENOTDIR, "")))
    except OSError as exc:
        if exc.errno in MACHINE_FAULTS:
            raise
        raise _not_a_folder(where, os_reason(exc)) from None
    hold = _HOLDS.get(os.path.realpath(path))
    own = hold is not None and hold.lock is not None  # this command's folder already
    if whole and not own:
        _refuse_inside_a_result(path, where, flag)
        _refuse_unwritable(path, where, flag)
    if not path.is_dir():
        return
    marker = _load(path, where, flag)
    _refuse_foreign(path, marker, where, flag)
    same = marker is not None and identity is not None and marker["result"] == identity
    earlier = marker if marker is not None and not same else None
    if earlier is not None and (changed := changed_files(path, earlier)):
        template = CHANGED_ONE if len(changed) == 1 else CHANGED_MANY
        raise UserError(phrase(template, where=where, names=_names(changed), flag=flag))
    if earlier is not None:
        _refuse_busy_inside(path, earlier, where, flag)
        if not with_folders:
            _refuse_replacing_a_study(path, earlier, where, flag)
    if not own:
        _refuse_anothers_result(path, None if within is None else Path(within), where, flag)
    removed = earlier["files"] if earlier else ()
    folders = earlier["folders"] if earlier else ()
    data = marker or shape({"files": {}})
    _check_names(path, list(writes), data, inputs, where, flag, removed, folders)


def _refuse_unwritable(path: Path, where: str, flag: str) -> None:
    """Refuse, without making anything, a folder another command holds or that cannot be made.

    A path under a file, or under a folder that cannot be written, is refused as
    :func:`claim` would refuse it; an existing folder is tried with the lock :func:`claim`
    takes, let go at once.
    """
    try:
        if path.is_dir():
            os.close(lock_folder(path, where, flag))
            if not os.access(path, os.W_OK | os.X_OK):
                raise _why_unwritable(path)
            return
        above = path.parent
        while not above.exists() and above != above.parent:
            above = above.parent
        if not above.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        if not os.access(above, os.W_OK | os.X_OK):
            raise _why_unwritable(above)
    except OSError as exc:
        raise _not_a_folder(where, os_reason(exc)) from None


def _why_unwritable(folder: Path) -> OSError:
    """Why ``folder`` cannot be written (:func:`os.access` says so), as writing would say it.

    On a read-only file system, that: not "Permission denied", which sends the user to
    ``chmod`` for nothing.
    """
    with contextlib.suppress(OSError, AttributeError):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return OSError(errno.EROFS, os.strerror(errno.EROFS))
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES))


def _refuse_a_link_before_dots(path: Path, where: str, flag: str) -> None:
    """Refuse ``lnk/../x``: through a link, ``..`` leads where the path does not say.

    The system takes ``..`` from the link's target (``real/deep/..`` is ``real``), the text
    from the link's folder: the results would land where neither the user nor the message
    says. Refused as a link, as ``--out lnk`` is.
    """
    walked = Path(path.anchor)
    for part in path.parts[len(path.anchor and [path.anchor]) :]:
        if part == ".." and walked.is_symlink():
            raise _a_link(where, flag)
        walked = walked / part


def _refuse_inside_a_result(path: Path, where: str, flag: str) -> None:
    """Refuse a folder that another command's result lists as one of its own.

    A study's scenario folder, unless this process holds that study: written over, it would
    leave the study's README and index naming other numbers. The folder is found as the
    system finds it (``--out .`` inside it, ``x/..``, a link above it), not as typed.
    """
    real = Path(os.path.realpath(path))
    parent = real.parent
    held = _HOLDS.get(str(parent))
    if held is not None and held.lock is not None:
        return  # this command's own result folder
    marker = read_marker(parent) if parent != real and parent.is_dir() else None
    if marker is None or marker["damaged"] or real.name not in marker["folders"]:
        return
    raise UserError(
        phrase(
            "{where}: the folder is part of the result in {parent} (one of its result "
            "folders, which its README and index describe); writing another result there "
            "would leave them naming other numbers: choose another {flag}, or run that "
            "command again",
            where=where,
            parent=shown_path(_as_typed(path, parent)),
            flag=flag,
        )
    )


def _as_typed(path: Path, parent: Path) -> Path:
    """``parent`` (a real path) as the user's ``path`` wrote it, or as seen from here."""
    if os.path.realpath(path.parent) == str(parent):
        return path.parent
    return Path(os.path.relpath(parent))


def _refuse_anothers_result(path: Path, within: Path | None, where: str, flag: str) -> None:
    """Refuse a result folder of ``within`` (a study's) that holds another command's result.

    A study writes each scenario into ``<out>/<stem>``; a result there that the study's
    marker does not list (a run given ``--out <out>/<stem>`` before, a result that was there
    before the study) is another command's, which the user asked to keep: the study would
    replace it whole. Refused, naming it, before anything is removed.
    """
    if within is None or not holds_a_result(path):
        return
    parent = Path(os.path.realpath(within))
    if Path(os.path.realpath(path)).parent != parent:
        return
    hold = _HOLDS.get(str(parent))
    marker = hold.data if hold is not None and hold.lock is not None else read_marker(parent)
    if marker is not None and path.name in marker["folders"]:
        return  # the study's own earlier result folder
    raise UserError(
        phrase(
            "{where}: the folder holds another result of harmonies-sim, not one of the "
            "study's in {parent} (its marker does not list it); the study would replace it "
            "with its scenario's: move it away, or choose another {flag} for the study",
            where=where,
            parent=shown_path(within),
            flag=flag,
        )
    )


def _refuse_replacing_a_study(path: Path, earlier: dict[str, Any], where: str, flag: str) -> None:
    """Refuse to replace a study's result (it has result folders) with another command's."""
    folders = [name for name in earlier["folders"] if (path / name).is_dir()]
    if folders:
        raise UserError(
            phrase(
                "{where}: the folder holds a whole study (its index and the result folders "
                "{names}); this command's result would replace all of it with its own few "
                "files: choose another {flag} (or delete the folder first, if the study is "
                "no longer wanted)",
                where=where,
                names=_names(folders),
                flag=flag,
            )
        )


def _refuse_busy_inside(path: Path, earlier: dict[str, Any], where: str, flag: str) -> None:
    """Refuse to replace a result while another command writes into one of its folders."""
    own = frozenset(real for real, hold in _HOLDS.items() if hold.lock is not None)
    busy = busy_inside(path, earlier, own)
    if busy is not None:
        raise UserError(
            phrase(
                "{where}: another harmonies-sim command{writer} is writing into {folder}, a "
                "result folder of the result this command would replace; expected one command "
                "at a time: wait until it ends, or choose another {flag}",
                where=where,
                writer=json_writer(busy),
                folder=shown_path(busy),
                flag=flag,
            )
        )


def _refuse_foreign(path: Path, marker: dict[str, Any] | None, where: str, flag: str) -> None:
    """Refuse a folder without a marker that holds anything but the tool's results.

    Other commands' results in folders of their own (``--out R/sub`` run before ``--out
    R``; ``results/runs/<stem>`` before ``make run``) are no user's files: the command takes
    the folder and leaves them as they are, as it leaves one written inside after it.
    """
    if marker is not None or results_only(path):
        return
    # what kill -9 left while marking the folder (start_leftover) is the tool's, not the user's
    if present := [p.name for p in path.iterdir() if not start_leftover(p)]:
        raise UserError(
            phrase(
                "{where}: the folder holds files harmonies-sim did not write ({names}); "
                "expected a new or empty folder, or one of its own results (they carry a "
                "{marker} file): choose another {flag}",
                where=where,
                names=_names(present),
                marker=MARKER,
                flag=flag,
            )
        )


def _check_names(
    path: Path,
    names: list[str],
    data: dict[str, Any],
    inputs: Iterable[str | os.PathLike[str]],
    where: str,
    flag: str,
    removed: Iterable[str] = (),
    folders: Iterable[str] = (),
) -> None:
    """Refuse a name the command would write (or remove) over a user's file or an input.

    ``removed``: the files of the earlier result this command replaces; ``folders``: its
    result folders (a study's), cleared with it: an input inside one is refused too.
    """
    records = data["files"]
    in_the_way = [
        name
        for name in names
        if ((path / name).exists() or (path / name).is_symlink())
        and not unchanged(path / name, records.get(name))
    ]
    targets = [path / name for name in {*names, *removed}]
    inputs_hit = []
    for given in inputs:
        with contextlib.suppress(OSError, ValueError):
            inputs_hit += [t.name for t in targets if t.exists() and os.path.samefile(given, t)]
    cleared = [Path(os.path.realpath(path / name)) for name in folders]
    for given in inputs:
        with contextlib.suppress(OSError, ValueError):
            real = Path(os.path.realpath(given))
            inputs_hit += [
                os.path.relpath(real, os.path.realpath(path))
                for folder in cleared
                if folder.is_dir() and real.is_relative_to(folder)
            ]
    if inputs_hit:
        raise UserError(
            phrase(
                "{where}: {names} is an input of this command and the command would write its "
                "results over it, or remove it with the earlier result there; expected another "
                "{flag} folder",
                where=where,
                names=_names(inputs_hit),
                flag=flag,
            )
        )
    if in_the_way:
        template = IN_THE_WAY_ONE if len(in_the_way) == 1 else IN_THE_WAY_MANY
        raise UserError(phrase(template, where=where, names=_names(in_the_way), flag=flag))


def _begin(
    path: Path,
    names: list[str],
    inputs: Iterable[str | os.PathLike[str]],
    where: str,
    flag: str,
    identity: str | None,
    with_folders: bool = False,
    resumes: Iterable[str] = (),
) -> dict[str, Any]:
    """Under the lock: check everything, replace an earlier result, mark the folder.

    ``resumes``: the run keys whose chunks an earlier result leaves for this one.
    """
    marker = _load(path, where, flag)
    _refuse_foreign(path, marker, where, flag)
    same = marker is not None and identity is not None and marker["result"] == identity
    earlier = marker if marker is not None and not same else None
    if earlier is not None:
        changed = changed_files(path, earlier)
        if changed:
            template = CHANGED_ONE if len(changed) == 1 else CHANGED_MANY
            raise UserError(phrase(template, where=where, names=_names(changed), flag=flag))
        _refuse_busy_inside(path, earlier, where, flag)
        if not with_folders:
            _refuse_replacing_a_study(path, earlier, where, flag)
    data = marker if same and marker is not None else shape({"files": {}})
    removed = earlier["files"] if earlier else ()
    folders = earlier["folders"] if earlier else ()
    _check_names(path, names, marker or data, inputs, where, flag, removed, folders)
    handle, probe = tempfile.mkstemp(prefix=WRITE_CHECK, dir=path)
    os.close(handle)
    os.unlink(probe)
    sweep_temporaries(path, marker)
    if earlier is not None:
        known = identity is not None and earlier.get("result") is not None
        kept = frozenset(resumes)
        unfinished = _chunks_in(path / PARTIAL, kept)
        if unfinished and not earlier["files"]:  # an interrupted run's trials: always said
            note(
                phrase(
                    "{where}: replacing an unfinished earlier run there (another command, "
                    "scenario or setting); the finished chunks of trials it kept ({n}) are "
                    "deleted. Give {flag} a new folder to keep such a run and resume it later",
                    where=where,
                    n=unfinished,
                    flag=flag,
                )
            )
        elif earlier["files"] and known:  # another result for sure: said, so that a what-if
            # run twice into one folder is not lost without a word
            note(
                phrase(
                    "{where}: replacing the earlier result there (another command, scenario or "
                    "setting wrote it); give {flag} a new folder to keep both",
                    where=where,
                    flag=flag,
                )
            )
        elif earlier["folders"] or not set(earlier["files"]) <= set(names):
            # a command that gives no identity (a balance, an exact answer) cannot tell its
            # own earlier result from another's; files it would not write itself (a study's
            # folders, a sampled run's trials) are another command's: said, never silently
            note(
                phrase(
                    "{where}: replacing the earlier result there (files: {files}; result "
                    "folders: {folders}); give {flag} a new folder to keep both",
                    where=where,
                    files=len(earlier["files"]),
                    folders=len(earlier["folders"]),
                    flag=flag,
                )
            )
        clear_result(path, earlier, keep=kept)
    swept = marker["temporaries"] if marker is not None else []
    data.update(
        result=identity,
        complete=False,
        writer={"pid": os.getpid(), "host": socket.gethostname()},
        temporaries=[new_token()],  # the earlier ones' files are swept (or never were made)
    )
    # The marker's own temporary carries a token the marker on disk records already, if any:
    # a kill before the rename leaves a file the next command can tell as the tool's.
    write_marker(path, data, token=swept[-1] if swept else None)
    return data


def temporary_token(out: str | os.PathLike[str] | None) -> str | None:
    """The token of the temporary files this process writes into ``out``, held; else None.

    A run's chunks, written under ``out/.partial`` (by this process or by its workers), carry
    it, so that a kill's leftovers there are swept by the next command, and nothing else.
    """
    hold = _HOLDS.get(os.path.realpath(out)) if out is not None else None
    return hold.token if hold is not None else None


def _chunks_in(partial: Path, kept: frozenset[str] = frozenset()) -> int:
    """How many chunk files of finished trials an interrupted run left under ``partial``.

    Those of the runs ``kept`` (resumed by the command) are not counted.
    """
    if partial.is_symlink() or not partial.is_dir():
        return 0
    return sum(
        1
        for f in partial.rglob("chunk-*.arrow")
        if f.is_file() and not f.is_symlink() and f.parent.name not in kept
    )


def record(
    out: str | os.PathLike[str],
    written: Iterable[str | os.PathLike[str]],
    *,
    complete: bool = False,
    last: Callable[[Path], Path] | None = None,
) -> None:
    """List the files just written into ``out`` (claimed before) in its marker.

    Files written through :func:`simulator.files.atomic_write` are listed already; this
    lists the others too.

    Args:
        out: The folder.
        written: The files written, in ``out``.
        complete: These are all the command's results: the files and result folders the
            marker lists that this command did not write are removed (if unchanged since),
            the marker says ``complete`` and the folder's lock is released.
        last: With ``complete``, what writes the folder's last file (its report page, which
            reads what the folder holds): called once the stale files are gone, before the
            marker says ``complete`` and while the lock is still held.
    """
    folder = Path(out)
    hold = _HOLDS.get(os.path.realpath(folder))
    with hold.guard if hold is not None else contextlib.nullcontext():
        data = hold.data if hold is not None else (read_marker(folder) or shape({}))
        fresh = set(hold.written) if hold is not None else set()
        for item in written:
            target = Path(item)
            if target.parent.resolve() != folder.resolve() or target.name == MARKER:
                continue  # only files directly in the folder are listed
            data["files"][target.name] = fingerprint(target)
            fresh.add(target.name)
        if complete:
            done = hold.folders if hold is not None else set(data["folders"])
            stale = {
                "files": {k: v for k, v in data["files"].items() if k not in fresh},
                "folders": [f for f in data["folders"] if f not in done],
            }
            clear_result(folder, stale, partial=False)  # the caller discards its chunks
            data["files"] = {k: v for k, v in data["files"].items() if k in fresh}
            data["folders"] = sorted(done)
            if last is not None:
                page = last(folder)
                data["files"][page.name] = fingerprint(page)
            data["complete"] = True
            data.pop("writer", None)
        # Complete, the command leaves no temporary file behind: none for a later one to
        # sweep, and the marker of a result written twice the same is the same, byte for byte
        # (results/ in the repository). Its own last write still carries the token the
        # marker on disk records, for a kill in the middle of it.
        token = hold.token if hold is not None else None
        if complete:
            data["temporaries"] = []
        write_marker(folder, data, token=token)
    if complete and hold is not None and not hold.kept:
        hold.release()


@contextlib.contextmanager
def held_until_clean(out: str | os.PathLike[str] | None) -> Iterator[None]:
    """Keep this command's lock on ``out`` until the block ends, its result complete or not.

    A sampled run removes its finished chunks only once its result is complete (a kill
    while saving resumes from them). Meanwhile no other command may take the folder: it would
    count those chunks as an unfinished run's and delete them while this one reads them back.
    """
    hold = _HOLDS.get(os.path.realpath(out)) if out is not None else None
    if hold is None or hold.lock is None:
        yield
        return
    hold.kept = True
    try:
        yield
    finally:
        hold.kept = False
        if hold.data.get("complete"):
            hold.release()


def answer_identity(*parts: object) -> str:
    """The identity of a result computed whole (a balance, a sensitivity): what it answered.

    The same answer again (the same command run twice) replaces its files without a word; a
    different one (another target, range, method or scenario) is told as replacing the
    earlier result, as a run's would be.
    """
    import hashlib
    import json

    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def claim_and_save(
    out: str | os.PathLike[str],
    writes: Iterable[str],
    save: Callable[[Path], object],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    identity: str | None = None,
) -> Path:
    """Claim ``out`` once the answer is known, and write it there with ``save``.

    ``identity`` as :func:`claim`'s (:func:`answer_identity` for an answer computed whole).
    The folder is let go if saving fails (a notebook's Ctrl-C): the next command may claim it.
    """
    folder = claim(out, writes, inputs=inputs, identity=identity)
    try:
        save(folder)
    except BaseException:
        release(folder)
        raise
    return folder


def release(out: str | os.PathLike[str], *, left_out: bool = False) -> None:
    """End this process's hold on ``out`` without completing it (a command that failed).

    The folder stays marked incomplete, for the same command to finish; another command,
    in this process or another, may now claim it. Nothing happens when it is not held.

    ``left_out``: a result folder of a study that the study gives up while it goes on (a
    scenario over ``--exact``'s limits): taken away as well if it made it and it holds
    nothing but its marker, and no longer listed among the study's folders.
    """
    hold = _HOLDS.get(os.path.realpath(out))
    if hold is not None:
        _take_away_if_empty(hold, left_out)  # under the lock still: no other command's folder
        hold.release()


def _take_away_if_empty(hold: _Hold, left_out: bool = False) -> None:
    """Remove the folder a failed command made, if it holds nothing but its marker.

    A refusal after the claim (``run --exact`` over its time budget, a calibration that
    cannot start) then leaves no empty result folder behind; a folder with anything else in
    it (finished chunks to resume from, a file of the user's) stays as it is, and so does a
    scenario folder of a study still at work, unless the study left it out (``left_out``).
    """
    parent = _HOLDS.get(os.path.realpath(hold.folder.parent))
    if not hold.made or hold.lock is None or hold.written or hold.folders:
        return
    if parent is not None and parent.lock is not None and not left_out:
        return
    with contextlib.suppress(OSError):
        if {p.name for p in hold.folder.iterdir()} <= {MARKER}:
            (hold.folder / MARKER).unlink(missing_ok=True)
            hold.folder.rmdir()
            _HOLDS.pop(os.path.realpath(hold.folder), None)
            if parent is not None and parent.lock is not None:
                with parent.guard:
                    parent.folders.discard(hold.folder.name)
                    parent.data["folders"] = [
                        f for f in parent.data["folders"] if f != hold.folder.name
                    ]
                    parent.save()


def check_out_dir(out: str | os.PathLike[str]) -> Path:
    """Make the output directory (and its parents) and check that files can be written in it.

    Called before anything is simulated, so that an ``--out`` that cannot be a folder (an
    existing file, a path under a file, a name too long, a place we may not write, a folder
    of the user's) is a user mistake at once rather than a traceback after the work is done.

    Raises:
        UserError: Naming ``--out``, the path and the reason.
    """
    return claim(out)
