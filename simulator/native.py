"""The compiled engine: the mypyc build of ``rules`` and ``engine``, used only when it is exact.

``tools/build_native.py`` (run by ``make venv``) compiles the modules of ``simulator/rules``
and ``simulator/engine`` (but the few its ``KEPT_PYTHON`` names) with mypyc into the
git-ignored folder ``simulator/_native/``, never next to the sources, and writes there a
manifest: the SHA-256 of every source the compiler
read (the compiled modules and every module of the package they import, with their
packages), the Python it was built for, and the file of each compiled module.

When ``simulator`` is imported, :func:`install` reads that manifest. Only when every one of
those sources is byte for byte the one compiled, the Python is the one it was built for, and
``HARMONIES_PURE`` is not set (or empty, or ``0``), does it put a finder first on
``sys.meta_path`` that loads exactly those modules from their compiled files; otherwise
nothing changes and every module is the Python source. A source edited since the build:
pure Python, silently (:data:`STATUS` says why). A build that is there but cannot be used (a
manifest of the wrong shape, a build for another Python, a missing file, a compiled file
whose SHA-256 is not the one the build recorded, a library that does not load): pure
Python, and :func:`take_note` gives the command line its one ``note:`` line. The results are
the same either way (the tests check it, trial by trial); only the speed differs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
"""The ``simulator`` package's folder; the manifest's source paths are relative to it."""

NATIVE = PACKAGE / "_native"
"""Where the build lives (git-ignored; ``make clean`` removes it)."""

MANIFEST = NATIVE / "manifest.json"

PURE_VARIABLE = "HARMONIES_PURE"
"""Set it (to anything but empty or ``0``) to run everything in pure Python."""

STATUS = "pure Python (not decided yet)"
"""How the engine runs in this process: ``compiled (mypyc)`` or ``pure Python (why)``."""


def abi() -> dict[str, str]:
    """What a build must have been made for to load in this Python."""
    return {
        "implementation": sys.implementation.name,
        "version": f"{sys.version_info.major}.{sys.version_info.minor}",
        "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
    }


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_requested() -> bool:
    """Whether ``HARMONIES_PURE`` asks for pure Python."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


@dataclasses.dataclass(frozen=True)
class Build:
    """A native build checked against the sources: what to load and its manifest's bytes."""

    files: dict[str, Path]
    """Each compiled module's file, by module name (the shared library's too)."""
    library: str
    """The module name of the shared library that holds all the compiled code."""
    manifest: bytes
    """The manifest as read, to see that it is still the one when the library loads."""


def verdict(native: Path = NATIVE, package: Path = PACKAGE) -> tuple[Build | None, str]:
    """The build to load and why; or None and why not.

    Args:
        native: The build's folder (with ``manifest.json``).
        package: The ``simulator`` package's folder, whose sources the build must match.

    Returns:
        ``(build, "compiled (mypyc)")`` when the build matches these sources and this Python
        exactly and ``HARMONIES_PURE`` does not say no, else ``(None, "pure Python (why)")``.
    """
    if pure_requested():
        return None, f"pure Python ({PURE_VARIABLE} is set)"
    return check_build(native, package)


DAMAGED: str | None = None
"""Why a native build that is there could not be used (damaged, partial, for another Python,
or failed to load), for the command line's one ``note:`` line; None when there is nothing to
say (no build, ``HARMONIES_PURE``, a source edited since: the ordinary ways to run pure)."""


def take_note() -> str | None:
    """The note about a damaged native build, once (None afterwards, or when all is well)."""
    global DAMAGED
    text, DAMAGED = DAMAGED, None
    if text is None:
        return None
    return f"{text}; the engine runs in pure Python (same results, slower): make venv rebuilds it"


def _is_map(value: object, of: type = str) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, of) for k, v in value.items()
    )


def _damaged(why: str) -> tuple[None, str]:
    global DAMAGED
    DAMAGED = f"the native build in {NATIVE} {why}"
    return None, f"pure Python (the native build {why})"


def check_build(native: Path = NATIVE, package: Path = PACKAGE) -> tuple[Build | None, str]:
    """:func:`verdict`, whatever ``HARMONIES_PURE`` says.

    The manifest must have its shape, and every compiled file the SHA-256 the build gave it
    (``artefacts``): a truncated, emptied or foreign file is never loaded (loading a
    truncated shared library can kill the process).
    """
    try:
        text = (native / "manifest.json").read_bytes()
        manifest = json.loads(text)
    except FileNotFoundError:
        return None, "pure Python (no native build; make venv builds one)"
    except (OSError, ValueError):
        return _damaged("has an unreadable manifest")
    if not (
        isinstance(manifest, dict)
        and _is_map(manifest.get("sources"))
        and _is_map(manifest.get("modules"))
        and _is_map(manifest.get("abi"))
        and isinstance(manifest.get("library"), str)
    ):
        return _damaged("has a manifest of the wrong shape")
    sources: dict[str, str] = manifest["sources"]
    modules: dict[str, str] = manifest["modules"]
    library: str = manifest["library"]
    if manifest["abi"] != abi():
        return _damaged("is for another Python")
    for name, expected in sorted(sources.items()):
        try:
            same = digest(package / name) == expected
        except OSError:
            same = False
        if not same:
            return None, f"pure Python (simulator/{name} changed since the native build)"
    files = {module: native / file for module, file in modules.items()}
    if library not in files or not all(file.is_file() for file in files.values()):
        return _damaged("is incomplete")
    artefacts = manifest.get("artefacts")
    if not isinstance(artefacts, dict) or not _is_map(artefacts) or set(artefacts) != set(files):
        return _damaged("lists no hash of its compiled files (an older build)")
    for module, file in sorted(files.items()):
        try:
            same = digest(file) == artefacts[module]
        except OSError:
            same = False
        if not same:
            return _damaged(f"is damaged ({file.name} is not the file compiled)")
    return Build(files, library, text), "compiled (mypyc)"


class NativeFinder:
    """Finds exactly the compiled modules of a verified build, before any other finder.

    The first compiled module asked for loads the build's shared library (``library``); if
    that fails, the finder steps aside for good and every module stays pure Python (the
    shared library holds all the compiled code, so nothing is ever half compiled).
    """

    def __init__(self, build: Build) -> None:
        self.build = build
        self.files = build.files
        self.library = build.library
        self.broken = False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of a compiled module, or None to leave ``fullname`` to the others."""
        del path, target
        file = self.files.get(fullname)
        if file is None or self.broken:
            return None
        if fullname != self.library and self.library not in sys.modules:
            why = None
            try:  # rebuilt since it was checked: its sources are not known to be these
                if MANIFEST.read_bytes() != self.build.manifest:
                    why = "the native build changed since this process checked it"
                else:
                    importlib.import_module(self.library)
            except (ImportError, OSError) as error:
                why = f"the native build did not load: {error}"
            if why is not None:
                global STATUS, DAMAGED
                self.broken = True
                DAMAGED = why
                STATUS = f"pure Python ({why})"
                return None
        return importlib.util.spec_from_file_location(
            fullname, file, loader=_CompiledLoader(fullname, str(file), self)
        )

    def loaded(self) -> None:
        """Mend the compiled modules loaded so far (see :class:`_CompiledLoader`).

        All of them each time, as some may have been only partly run the time before.
        """
        for name in self.files:
            module = sys.modules.get(name)
            if module is not None:
                _mend_pickling(module)


class _CompiledLoader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module, then mends every compiled module loaded with it.

    A compiled module imports the others of its build directly, not through the finder;
    so once the module asked for is loaded, all those now in ``sys.modules`` are mended
    (the first import from Python code ends last, when all it imported is run).
    """

    def __init__(self, name: str, path: str, finder: NativeFinder) -> None:
        super().__init__(name, path)
        self.finder = finder

    def exec_module(self, module: ModuleType) -> None:
        """Run the module (a compiled one is run when created), then mend."""
        super().exec_module(module)
        self.finder.loaded()


def _mend_pickling(module: ModuleType) -> None:
    """Pickle and copy the module's compiled classes as their Python selves do.

    mypyc's ``__getstate__`` gives a dict and its ``__setstate__`` sets each attribute
    through the class's ``__setattr__`` (which a frozen dataclass refuses). Python gives a
    frozen slotted dataclass's state as the list of its fields' values, and another slotted
    one's as ``(None, {slot: value})``; these do the same and read every form, so that what
    a compiled process pickles loads in a pure one and back (a ``dask`` worker elsewhere,
    or one started after a source was edited). A compiled class that is no dataclass cannot
    be made empty and filled (its ``__new__`` runs ``__init__``): it is pickled as a call
    of the class with its attributes by name (``Patient(table=..., wounds=...)``), which
    loads in both; a pickle of such an object made by a pure process does not load in a
    compiled one (nothing in the project sends one: scenarios and records are Python).
    """
    for value in list(vars(module).values()):
        if not (
            isinstance(value, type)
            and value.__module__ == module.__name__
            and "__mypyc_attrs__" in vars(value)
            and "_mended" not in vars(value)
        ):
            continue
        params = getattr(value, "__dataclass_params__", None)
        if params is None:
            value.__reduce__ = _reduce_by_init  # type: ignore[method-assign,assignment]
        else:
            frozen = params.frozen
            value.__getstate__ = _frozen_state if frozen else _slots_state  # type: ignore[assignment]
            value.__setstate__ = _set_state  # type: ignore[attr-defined]
        value._mended = True  # type: ignore[attr-defined]


def _reduce_by_init(self: object) -> tuple[object, ...]:
    return _construct, (type(self), _slots_state(self)[1])


def _construct(cls: type, state: dict[str, object]) -> object:
    """Rebuild a pickled compiled object: its class called with its attributes by name."""
    return cls(**state)


def _names(self: object) -> list[str]:
    names: tuple[str, ...] = type(self).__mypyc_attrs__  # type: ignore[attr-defined]
    return [name for name in names if not name.startswith("__")]


def _frozen_state(self: object) -> list[object]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]  # type: ignore[arg-type]


def _slots_state(self: object) -> tuple[None, dict[str, object]]:
    state = {}
    for name in _names(self):
        try:
            state[name] = getattr(self, name)
        except AttributeError:  # never set
            continue
    return None, state


def _set_state(self: object, state: object) -> None:
    if isinstance(state, tuple) and len(state) == 2 and state[0] is None:
        state = state[1]
    if isinstance(state, dict):
        items = list(state.items())
    else:
        names = [f.name for f in dataclasses.fields(self)]  # type: ignore[arg-type]
        items = list(zip(names, state, strict=True))  # type: ignore[call-overload]
    for name, value in items:
        object.__setattr__(self, name, value)


def install() -> None:
    """Use the compiled modules in this process if the build is exact (see the module)."""
    global STATUS
    if any(isinstance(finder, NativeFinder) for finder in sys.meta_path):
        return
    build, STATUS = verdict()
    if build is not None:
        sys.meta_path.insert(0, NativeFinder(build))


def compiled(module: ModuleType) -> bool:
    """Whether a loaded module is the compiled one."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return str(getattr(module, "__file__", "")).endswith(suffixes)
