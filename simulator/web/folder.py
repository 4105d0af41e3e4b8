"""What the workbench may read and write: one scenario file, or one folder of them.

The server is given a scenario file or a folder (``harmonies-sim serve [SCENARIO | DIR]``).
A request names a scenario by its name inside that folder; :meth:`Folder.resolve` refuses
any name that leaves it (``..``, an absolute path, a link pointing out) and, when the server
was given one file, any file but that one and the files this server saved. Save-as
(:meth:`Folder.save_as`) writes a new file in the folder, never over an existing one, whole or
not at all (:func:`simulator.files.create_file`: a temporary file linked under the name, so
neither a race nor a kill nor a full disk leaves a file half-written or replaced).
"""

from __future__ import annotations

import errno
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from simulator.errors import N_, Phrase, UserError, os_reason, phrase
from simulator.files import create_file

NAME = re.compile(r"[^\W_][\w.-]*")
"""A file name the page may give to save-as: letters (of any language: ``blessé``), digits,
``_``, ``-`` and ``.``, a letter or digit first; read in Unicode's composed form (NFC).

Matched whole (``fullmatch``): a ``$`` would let a final newline into the file's name."""

NAME_LENGTH = 100
"""The longest name save-as takes (before ``.toml``)."""

RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)
"""Names Windows keeps for devices (``nul.toml`` cannot be opened there): refused everywhere,
so that a folder saved here can be copied to any machine."""


NOT_UTF8 = N_(
    "{name}: its name is not UTF-8 text; expected a file name in UTF-8 (rename the file to "
    "open it here)"
)
"""Why a file of the folder is not listed: a page can name back only names of text."""

LOOP = N_("a loop of links")
"""Why a link that leads back to itself cannot be opened."""


class RefusedError(UserError):
    """A request for a path the workbench does not serve, or a save it does not make."""


class ExistsError(RefusedError):
    """Save-as onto a file that already exists."""


class GoneError(RefusedError):
    """A scenario of the folder that is no longer there (deleted or renamed since listed)."""


class SaveFailedError(UserError):
    """Save-as that the machine could not write (a full disk, a file-size limit, rights).

    Attributes:
        errno: The system's error number (``ENOSPC``, ``EFBIG``...), None if unknown.
    """

    def __init__(self, message: Phrase, errno: int | None) -> None:
        super().__init__(message)
        self.errno = errno


@dataclass
class Folder:
    """The scenario file or folder a workbench serves.

    Attributes:
        root: The folder (as given, for messages and ``--set`` lines).
        only: With one scenario given, its file name; None for a whole folder.
        saved: The files this server wrote (served too when ``only`` is set).
    """

    root: Path
    only: str | None = None
    saved: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, target: str | Path) -> Folder:
        """The folder of a scenario file, or a folder itself.

        Raises:
            UserError: When ``target`` is neither an existing file nor a folder.
        """
        path = Path(target)
        if path.is_dir():
            return cls(path)
        if path.is_file() and path.suffix == ".toml":
            return cls(path.parent, only=path.name)
        if path.is_file():  # a file, but no scenario file: not "no such file"
            raise UserError(
                phrase(
                    "{target}: not a scenario file (its name does not end in .toml); expected "
                    "a .toml file or a folder",
                    target=str(target),
                )
            )
        raise UserError(
            phrase(
                "{target}: no such scenario file or folder; expected a .toml file or a folder",
                target=str(target),
            )
        )

    def names(self) -> list[str]:
        """The scenario files served, sorted (the given one first), read from the folder now."""
        return self.listing()[0]

    def listing(self) -> tuple[list[str], list[Phrase]]:
        """The scenario files served, and why each other ``.toml`` file of the folder is not.

        Read from the folder at each call: a file added or removed while the server runs is
        listed or not at the page's next look. Not listed, and said (:func:`_not_served`): a
        file whose name is no UTF-8 text (no page could name it back), a link that leads out
        of the folder, a link to nothing, a loop of links, a folder, a pipe or a device.
        """
        if self.only is not None:
            return [self.only, *sorted(self.saved - {self.only})], []
        real = self.root.resolve()
        found: list[str] = []
        refused: list[Phrase] = []
        for path in sorted(self.root.glob("*.toml")):
            try:
                path.name.encode("utf-8")
            except UnicodeEncodeError:  # bytes of another encoding, kept as surrogates
                shown = os.fsencode(path.name).decode("utf-8", "backslashreplace")
                refused.append(phrase(NOT_UTF8, name=shown))
                continue
            try:
                if path.is_file() and path.resolve().parent == real:
                    found.append(path.name)
                    continue
                why = _not_served(path.name, path)
            except (OSError, RuntimeError):  # gone meanwhile: not listed, nothing to say
                continue
            if why is not None:
                refused.append(why)
        return found, refused

    def first(self) -> str | None:
        """The scenario shown when the page opens."""
        names = self.names()
        return names[0] if names else None

    def resolve(self, name: object) -> Path:
        """The file a request names, as a path under :attr:`root`.

        Raises:
            RefusedError: For a name that is not a plain ``.toml`` file name of the folder, or
                that leaves it once links are followed, or one not served.
            GoneError: For a file of the folder that is not there (any longer).
        """
        if not isinstance(name, str) or not name:
            raise RefusedError(
                phrase("scenario: got {name}; expected a scenario file's name", name=repr(name))
            )
        if "\x00" in name or Path(name).is_absolute() or "\\" in name:
            raise RefusedError(
                phrase(
                    "scenario: got {name}; expected a name inside {folder}",
                    name=repr(name),
                    folder=str(self.root),
                )
            )
        parts = Path(name).parts
        if any(part in ("..", ".") for part in parts) or len(parts) != 1:
            raise RefusedError(
                phrase(
                    "scenario: got {name}; expected a file directly in {folder}",
                    name=repr(name),
                    folder=str(self.root),
                )
            )
        if not name.endswith(".toml"):
            raise RefusedError(
                phrase("scenario: got {name}; expected a .toml scenario file", name=repr(name))
            )
        path = self.root / name
        try:  # a name too long for the system, a loop of links: refused, never a 500
            inside = path.resolve().is_relative_to(self.root.resolve())
            found = path.is_file()
        except (OSError, RuntimeError) as exc:  # RuntimeError: Python 3.11's link loop
            why = os_reason(exc) if isinstance(exc, OSError) else Phrase(LOOP)
            raise RefusedError(
                phrase(
                    "{name}: cannot be opened ({why}); expected a scenario file of the folder",
                    name=name,
                    why=why,
                )
            ) from None
        if not inside:
            raise RefusedError(_leads_out(name, path))
        if self.only is not None and name != self.only and name not in self.saved:
            raise RefusedError(
                phrase(
                    "{name}: this server serves only {only}; expected {only} or a file saved "
                    "from this page",
                    name=name,
                    only=self.only,
                )
            )
        try:
            no_file: Phrase | None = None if found else _not_served(name, path)
        except OSError:  # gone meanwhile: said gone below
            no_file = None
        if no_file is not None:  # there, but no file: a folder, a link to nothing...
            raise RefusedError(no_file)
        if not found:  # listed when the page opened, deleted or renamed since: the page says it
            raise GoneError(
                phrase(
                    "{name}: no such file in the folder (deleted or renamed since the page "
                    "listed it?); expected a scenario file of the folder",
                    name=name,
                )
            )
        return path

    def shown(self, name: str) -> str:
        """The path of a served file as the command line would name it."""
        return str(self.root / name)

    def save_as(self, name: object, text: str) -> Path:
        """Write ``text`` as a new file ``name`` (``.toml`` added) in the folder.

        Raises:
            RefusedError: For a name that is no plain file name, or one too long for the
                file system (a hundred letters of three bytes each).
            ExistsError: When the file exists (nothing is written), unless this page saved
                it and it holds ``text``: Save as pressed again once answered is that save.
        """
        if isinstance(name, str):
            name = unicodedata.normalize("NFC", name)  # é typed as e and its accent: one é
        if (
            not isinstance(name, str)
            or not NAME.fullmatch(name)
            or ".." in name
            or name.endswith(".")
        ):
            raise RefusedError(
                phrase(
                    "save as: got {name}; expected a file name of letters, digits, '_', '-' "
                    "and '.' (no folder, no space or control character)",
                    name=repr(name),
                )
            )
        if name.lower().endswith(".toml"):  # ok.TOML is ok.toml, not ok.TOML.toml
            name = name[: -len(".toml")]
        if len(name) > NAME_LENGTH:
            raise RefusedError(
                phrase(
                    "save as: got a name of {n} characters; expected at most {most}",
                    n=len(name),
                    most=NAME_LENGTH,
                )
            )
        name += ".toml"
        if name.split(".")[0].lower() in RESERVED:
            raise RefusedError(
                phrase(
                    "save as: got {name}; {stem} is a name Windows keeps for a device: "
                    "expected another name",
                    name=repr(name),
                    stem=name.split(".")[0],
                )
            )
        path = self.root / name
        if path.parent.resolve() != self.root.resolve():  # pragma: no cover - NAME has no '/'
            raise RefusedError(f"save as: {name!r} leads out of {self.root}; refused")
        twins = [p.name for p in self.root.iterdir() if _folded(p.name) == _folded(name)]
        twin = next((other for other in twins if other != name), None)
        if twin is not None and unicodedata.normalize("NFC", twin) == name:  # é written apart
            raise ExistsError(
                phrase(
                    "save as: {name} exists; expected a new name (nothing was written)", name=name
                )
            )
        if twin is not None:  # GERALDINE.toml beside geraldine.toml: one file on many disks
            raise ExistsError(
                phrase(
                    "save as: {name} differs from {twin} only by its capitals, and many file "
                    "systems take them for one file; expected another name (nothing was written)",
                    name=name,
                    twin=twin,
                )
            )
        try:
            create_file(path, text)
        except FileExistsError:
            if name in self.saved and _holds(path, text):  # pressed again: this very save
                return path
            raise ExistsError(
                phrase(
                    "save as: {name} exists; expected a new name (nothing was written)", name=name
                )
            ) from None
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:  # 100 letters of 3 or 4 bytes each: the name's
                raise RefusedError(
                    phrase(
                        "save as: {name} could not be written ({why}); nothing was written",
                        name=name,
                        why=os_reason(exc),
                    )
                ) from None
            raise SaveFailedError(
                phrase(
                    "save as: {name} could not be written ({why}); nothing was written",
                    name=name,
                    why=os_reason(exc),
                ),
                exc.errno,
            ) from None
        self.saved.add(name)
        return path


def _holds(path: Path, text: str) -> bool:
    """Whether the file ``path`` holds ``text`` byte for byte (as :func:`create_file` writes it)."""
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


NOTHING_THERE = N_(
    "{name}: a link to {target}, where there is no file; expected a scenario file of the "
    "folder (put the file back, or remove the link)"
)
"""Why a link of the folder whose file is gone (moved, deleted, a disk not mounted) is not
listed."""

A_FOLDER = N_(
    "{name}: a folder, not a file; expected a scenario file of the folder (to open the "
    "scenarios it holds, serve that folder)"
)
"""Why a folder whose name ends in ``.toml`` is not listed: it holds scenarios, it is none."""

NOT_A_FILE = N_(
    "{name}: not a plain file (a pipe, a socket or a device); expected a scenario file of the "
    "folder"
)
"""Why anything else of the folder whose name ends in ``.toml`` is not listed."""


def _not_served(name: str, path: Path) -> Phrase | None:
    """Why ``path``, no scenario file of the folder, is not served; None when it is not there.

    A designer who sees a ``.toml`` name in the file manager and not in the page's list is
    told why (a link to a folder is said to be a folder, whatever its place).

    Raises:
        OSError: When the system will not say what ``path`` is (gone meanwhile, rights).
    """
    if path.is_symlink() and not path.exists():
        try:
            path.resolve()
        except RuntimeError:  # Python 3.11's loop of links (3.13 says ELOOP)
            return phrase(
                "{name}: cannot be opened ({why}); expected a scenario file of the folder",
                name=name,
                why=Phrase(LOOP),
            )
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            return phrase(
                "{name}: cannot be opened ({why}); expected a scenario file of the folder",
                name=name,
                why=Phrase(LOOP),
            )
        return phrase(NOTHING_THERE, name=name, target=str(path.readlink()))
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_dir():
        return phrase(A_FOLDER, name=name)
    if not path.is_file():
        return phrase(NOT_A_FILE, name=name)
    return _leads_out(name, path)


def _leads_out(name: str, path: Path) -> Phrase:
    """Why a link of the folder is not served: it leads out of it (to where, when known)."""
    try:
        target = str(path.readlink())
    except OSError:  # no link itself: a folder above it is one
        target = str(path.resolve())
    return phrase(
        "{name}: a link to {target}, out of the folder; expected a scenario file of the folder "
        "itself (copy the file into it)",
        name=name,
        target=target,
    )


def _folded(name: str) -> str:
    """A file name as case-insensitive file systems compare it (composed, case folded)."""
    return unicodedata.normalize("NFC", name).casefold()
