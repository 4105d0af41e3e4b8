"""The compiled kernel's disk cache: keyed by the kernel's content, never in the way.

numba's own cache (``@njit(cache=True)``) files a function's machine code under a folder named
by a hash of its source file's *path*, so a second checkout of the same commit compiles
everything again; and it trusts the cache: an index or a data file that cannot be unpickled
raises out of the call, and a folder that cannot be written stops the import (``no locator
available``). :class:`KernelCache` replaces it for every kernel function (:mod:`.jit`):

- **Keyed by content.** The folder is :func:`cache_dir`, named by a digest of the kernel's
  compiled sources, with one sub-folder per package (``kernel``, ``rules``); each function's
  index is stamped with that digest. Any clone of the same sources, at any path and with any
  file times, finds the same entries (numba's index key adds the function's bytecode, the
  signature and the machine).
- **A cache that cannot be read is ignored and rebuilt.** An index or a data file that is
  empty, damaged or unreadable counts as absent: the function is compiled and saved again.
- **A cache that cannot be written is skipped.** The first save that fails moves this run's
  cache to a private temporary folder (removed at exit, and shared with the run's worker
  processes through :data:`FALLBACK_VARIABLE`), or, if none can be made, keeps the machine
  code in memory only; it is said once, as a note (:func:`simulator.errors.note`).

The numbers never depend on any of this: the machine code is the same wherever it is kept.
This module imports numba; :mod:`.jit` imports it only when the kernel is compiled.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    _CacheLocator,
)

from simulator.errors import N_, note, phrase

PYTHON_ONLY = ("__init__.py", "cache.py", "engine.py", "params.py", "telling.py")
"""The kernel's modules that are never compiled (their changes keep the cache)."""

RULES_COMPILED = ("codes.py", "rows.py", "scalar.py")
"""The modules of :mod:`simulator.rules` that the kernel compiles (the decisions over numbers
and the codes they read)."""

FALLBACK_VARIABLE = "HARMONIES_CACHE_FALLBACK"
"""Set by a run whose cache cannot be written: the private folder it caches into instead.

Worker processes inherit it and use that folder too (they neither compile again what the run
saved there nor say the note again)."""

LINES_VARIABLE = "HARMONIES_LINE_TABLES"
"""Set to ``1``: the kernel is compiled with the source lines of its machine code (DWARF line
tables, for ``tools.kernel_profile``), into a cache folder of its own (:func:`digest`). The
code and the numbers are the same; only the line tables are added."""

NOT_WRITTEN = N_(
    "the compiled kernel's cache {path} cannot be written ({why}); this run compiles it into "
    "a temporary folder"
)
IN_MEMORY = N_(
    "the compiled kernel's cache {path} cannot be written ({why}); this run compiles it in memory"
)


@cache
def digest() -> str:
    """A digest of every source the kernel compiles (16 hex digits).

    numba checks only a function's own file for changes, not the files of the functions it
    calls; keying by every compiled module makes any change compile afresh.
    """
    hasher = hashlib.sha256()
    here = Path(__file__).parent
    rules = here.parent / "rules"
    sources = [path for path in sorted(here.glob("*.py")) if path.name not in PYTHON_ONLY]
    sources += [rules / name for name in RULES_COMPILED]
    for path in sources:
        hasher.update(path.name.encode() + b"\0" + path.read_bytes())
    if with_lines():  # other compile options: never the same files as the plain kernel's
        hasher.update(b"\0" + LINES_VARIABLE.encode())
    return hasher.hexdigest()[:16]


def with_lines() -> bool:
    """Whether this process compiles the kernel with its source lines (:data:`LINES_VARIABLE`)."""
    return os.environ.get(LINES_VARIABLE, "") == "1"


def cache_base() -> Path:
    """``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/harmonies-sim`` (``~/.cache/...``)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "harmonies-sim"
    )
    return Path(base)


def cache_dir() -> Path:
    """Where the compiled kernel is cached: one folder per version of the kernel's sources.

    Under ``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/harmonies-sim``
    (``~/.cache/harmonies-sim``); a run that cannot write there uses its private folder.
    """
    fallback = os.environ.get(FALLBACK_VARIABLE)
    if fallback:
        return Path(fallback)
    return cache_base() / f"kernel-{digest()}"


class _Where:
    """This process's choice: the cache folder in force, or memory only (``None``)."""

    root: Path | None = None
    in_memory = False


class Counts:
    """What this process's kernel cache did: functions loaded from disk, functions compiled."""

    loaded = 0
    compiled = 0


def _root() -> Path | None:
    if _Where.in_memory:
        return None
    if _Where.root is None:
        _Where.root = cache_dir()
    return _Where.root


def _cannot_write(root: Path, why: OSError) -> None:
    """A save into ``root`` failed: use a private folder, or memory if none can be made."""
    if _Where.root != root:  # another function has moved the cache already
        return
    reason = why.strerror or type(why).__name__
    if os.environ.get(FALLBACK_VARIABLE) is None:
        try:
            private = tempfile.mkdtemp(prefix="harmonies-kernel-")
        except OSError:
            pass
        else:
            atexit.register(shutil.rmtree, private, ignore_errors=True)
            os.environ[FALLBACK_VARIABLE] = private
            _Where.root = Path(private)
            note(phrase(NOT_WRITTEN, path=str(root), why=reason))
            return
    _Where.in_memory = True
    note(phrase(IN_MEMORY, path=str(root), why=reason))


class _Index(IndexDataCacheFile):
    """numba's index and data files, where an index that cannot be read counts as empty."""

    def _load_index(self) -> dict[Any, str]:
        try:
            overloads = super()._load_index()  # type: ignore[no-untyped-call]
        except Exception:  # empty, damaged, unreadable: rebuilt when saved
            return {}
        return overloads if isinstance(overloads, dict) else {}


class _Locator(_CacheLocator):
    """Files a kernel function under :func:`cache_dir`, stamped with the kernel's digest."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._package = Path(py_file).parent.name

    def get_cache_path(self) -> str:
        root = _root()
        return "" if root is None else str(root / self._package)

    def get_source_stamp(self) -> str:
        return digest()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _Locator:
        return cls(py_func, py_file)


class _Impl(CompileResultCacheImpl):
    _locator_classes = [_Locator]  # noqa: RUF012 (numba's own class attribute)


class KernelCache(FunctionCache):
    """numba's per-function cache, keyed by content, that a bad cache never stops."""

    _impl_class = _Impl

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)  # type: ignore[no-untyped-call]
        self._files: dict[Path, _Index] = {}

    def _file(self, root: Path) -> _Index:
        if root not in self._files:
            self._files[root] = _Index(  # type: ignore[no-untyped-call]
                cache_path=str(root / self._impl.locator._package),
                filename_base=self._impl.filename_base,
                source_stamp=digest(),
            )
        return self._files[root]

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached compile result for ``sig``, or None (absent, damaged or unreadable)."""
        target_context.refresh()
        root = _root()
        if root is None or not self._enabled:
            return None
        try:
            data = self._file(root).load(self._index_key(sig, target_context.codegen()))  # type: ignore[no-untyped-call]
            result = None if data is None else self._impl.rebuild(target_context, data)
        except Exception:  # whatever the damage, compiling again mends it
            return None
        Counts.loaded += result is not None
        return result

    def save_overload(self, sig: Any, data: Any) -> None:
        """Save a compile result; a folder that cannot be written moves the cache (once)."""
        Counts.compiled += 1  # numba calls this after each compilation
        if not self._enabled or not self._impl.check_cachable(data):
            return
        if getattr(data.library, "codeless", False):  # only its callers' copies run: nothing
            return  # to load (a caller loaded from the cache holds its code)
        key = self._index_key(sig, data.codegen)  # type: ignore[no-untyped-call]
        reduced = self._impl.reduce(data)
        while (root := _root()) is not None:
            folder = root / self._impl.locator._package
            try:
                folder.mkdir(parents=True, exist_ok=True)
                self._file(root).save(key, reduced)  # type: ignore[no-untyped-call]
                return
            except OSError as why:
                _cannot_write(root, why)

    def flush(self) -> None:
        """Forget this function's entries (numba's ``recompile``)."""
        root = _root()
        if root is not None:
            with contextlib.suppress(OSError):
                self._file(root).flush()  # type: ignore[no-untyped-call]
