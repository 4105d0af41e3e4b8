"""Files written whole or not at all, never through a link, and told to their folder's marker.

Below every layer but :mod:`simulator.errors`: the results of studies, their chunks and
their figures are all written through :func:`atomic_write`.

A file is written into a temporary file created new and exclusive in the same folder
(``O_CREAT | O_EXCL | O_NOFOLLOW``, a random name: a link or a file already there is never
written through), then renamed into place. :func:`real_folder` makes sure a folder the tool
writes into is a real one: a link there is refused (:class:`~simulator.errors.UserError`, exit
status 2).

An output folder claimed by :mod:`simulator.runner.outdir` registers a :class:`Watcher`
here: every file :func:`atomic_write` puts in that folder is announced to it before it is
written and reported once it is in place, so the folder's marker lists every file the tool
wrote there, whatever code wrote it, even after a kill between the two.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar, cast

from simulator.errors import UserError, phrase, shown_path
from simulator.spelling import spelling

_T = TypeVar("_T")

__all__ = ["Watcher", "atomic_write", "create_file", "real_folder", "user_path", "watch"]


def user_path(path: _T) -> _T | Path:
    """A folder a user named from Python, with ``~`` and ``~user`` expanded.

    The shell expands them on a command line; from a notebook ``out="~/studies/x"`` would
    otherwise make a folder named ``~`` where the notebook runs (pandas' ``to_csv`` expands
    them too). None (no folder) is given back as it is.

    Raises:
        UserError: For anything but a string, a path or None (``out=3`` was a ``TypeError``
            from deep inside), naming ``out`` as the caller spells it.
    """
    if path is None:
        return path
    if not isinstance(path, str | os.PathLike):
        raise UserError(
            phrase(
                "{given}: expected a folder path, a text or a pathlib.Path",
                given=spelling().given("out", path),
            )
        )
    text = os.fspath(cast("str | os.PathLike[str]", path))
    if isinstance(text, str) and text.startswith("~"):
        return Path(os.path.expanduser(text))
    return path


class Watcher(Protocol):
    """What an output folder wants to know about the files written into it.

    ``token``: the token its temporary files carry (:func:`temporary_name`), recorded in the
    folder's marker, or None.
    """

    @property
    def token(self) -> str | None:
        """The token of the temporary files written into the folder, or None."""

    def will_write(self, name: str) -> None:
        """``name`` is about to be written (called before anything is created)."""

    def placing(self, name: str, temporary: Path) -> None:
        """``name`` is written whole under ``temporary``, to be renamed into place next."""

    def wrote(self, name: str) -> None:
        """``name`` is written, whole, in place."""


_WATCHERS: dict[str, Watcher] = {}
"""The folders watched in this process (their real paths), and who watches them."""


def watch(folder: Path, watcher: Watcher | None) -> None:
    """Announce every file written into ``folder`` to ``watcher`` (None: stop)."""
    key = os.path.realpath(folder)
    if watcher is None:
        _WATCHERS.pop(key, None)
    else:
        _WATCHERS[key] = watcher


def real_folder(path: Path, *, make: bool = True) -> Path:
    """Make sure ``path`` is a real folder (never a link), making it and its parents if asked.

    Raises:
        UserError: When ``path`` is a link (to a folder or not) or a file: the tool never
            writes through a link, nor into a folder it did not expect.
    """
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        if not make:
            raise
        os.makedirs(path, exist_ok=True)  # made meanwhile (another worker's): checked below
        info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise UserError(
            f"{shown_path(path)}: a link where harmonies-sim writes into a folder; it never "
            "writes through a link: expected a real folder (remove the link)"
        )
    if not stat.S_ISDIR(info.st_mode):
        raise UserError(f"{shown_path(path)}: not a folder; expected a folder (move it away)")
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def temporary_prefix(name: str, token: str | None = None) -> str:
    """The start of the name of a temporary file for ``name``: ``.NAME.`` or ``.NAME.TOKEN.``.

    The temporary file is ``.NAME.TOKEN.XXXXXXXX.tmp`` (``mkstemp``'s eight random
    characters). The token, recorded in the folder's marker before any such file is made,
    is what proves a leftover temporary the tool's own: one without it (a user's file named
    alike, an older version's) is never removed.
    """
    return f".{name}.{token}." if token else f".{name}."


def replace_file(
    path: Path,
    write: Callable[[Path], object],
    written: Callable[[Path], object] | None = None,
    *,
    token: str | None = None,
) -> Path:
    """:func:`atomic_write` without telling any watcher (the marker itself is written so).

    ``written``, if given, hears of the temporary file once it is written, before the rename.
    ``token``, if given, is carried in the temporary file's name (:func:`temporary_prefix`).
    An ``OSError`` of ``write`` that names no file (Python's and pyarrow's, once the file is
    open: a full disk) is raised again with ``path`` as its file name, so that the message
    names it (the same errno, and the same kind of ``OSError`` for it).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = temporary_prefix(path.name, token)
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        os.fchmod(handle, 0o666 & ~_umask())  # as a plain open would make it
        os.close(handle)
        try:
            write(tmp)
        except OSError as exc:  # a write that fails after the open (a full disk) names no file
            if exc.filename is not None:
                raise
            said = exc.strerror or str(exc)  # pyarrow's has its words only, as its one argument
            raise OSError(exc.errno, said, os.fspath(path)) from exc
        if written is not None:
            written(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def atomic_write(path: Path, write: Callable[[Path], object]) -> Path:
    """Write a file so that it is either absent or complete, even if the process is killed.

    ``write`` receives a temporary path in the same directory, created new for it; the file
    is then renamed into place with :func:`os.replace`, which is atomic. The watcher of the
    folder, if any, hears of the file before, of its temporary once written (the rename keeps
    that file's identity) and after; the temporary's name carries the watcher's token.

    Args:
        path: The final file.
        write: Writes the content to the path it is given.

    Returns:
        ``path``.

    """
    path = Path(path)
    watcher = _WATCHERS.get(os.path.realpath(path.parent)) if path.parent.is_dir() else None
    if watcher is None:
        return replace_file(path, write)
    watcher.will_write(path.name)
    token = watcher.token
    replace_file(path, write, lambda tmp: watcher.placing(path.name, tmp), token=token)
    watcher.wrote(path.name)
    return path


def create_file(path: Path, text: str) -> Path:
    """Write ``text`` as a new file ``path``: whole or not at all, and never over a file.

    The text goes to a temporary file in the same folder, flushed to the disk, which is then
    linked under its name (:func:`os.link` fails when the name exists, so not even a race
    replaces a file) and unlinked. A kill, a full disk or a file-size limit leaves no file
    under the name, half-written or empty; at most a hidden ``.NAME.*.tmp``.

    Raises:
        FileExistsError: When ``path`` exists (nothing is written).
        OSError: When the file cannot be written (nothing is left under its name).
    """
    path = Path(path)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)  # its line ends as they are (a copy of a file keeps the file's)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, path, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError as exc:  # a file system without hard links: a check, then a rename
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
            os.rename(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
