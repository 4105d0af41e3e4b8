"""The one acceleration mechanism: numba's ``njit``, with its on-disk cache, or plain Python.

Every function of the kernel is decorated with :func:`jit`. It compiles it with numba
(``@njit(cache=True)``: the machine code is cached on disk, :func:`cache_dir`, so only the
first run on a machine compiles) unless the environment variable ``HARMONIES_NO_JIT`` is
``1`` or numba is not installed; then the very same function runs as plain Python (slowly),
for coverage, debugging and the test that compiled and plain runs give byte-identical records.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

NO_JIT_VARIABLE = "HARMONIES_NO_JIT"


def _wanted() -> bool:
    if os.environ.get(NO_JIT_VARIABLE, "") == "1":
        return False
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover (numba is a dependency)
        return False
    return True


COMPILED: bool = _wanted()
"""Whether the kernel's functions are compiled (numba) or plain Python."""


PYTHON_ONLY = ("__init__.py", "engine.py", "params.py", "telling.py")
"""The kernel's modules that are never compiled (their changes keep the cache)."""

RULES_COMPILED = ("codes.py", "scalar.py")
"""The modules of :mod:`simulator.rules` that the kernel compiles (the decisions over numbers
and the codes they read)."""


@cache
def cache_dir() -> Path:
    """Where the compiled kernel is cached: one folder per version of the kernel's sources.

    numba checks only a function's own file for changes, not the files of the functions it
    calls; keying the folder by a hash of every module of the kernel makes any change compile
    afresh. Under ``$XDG_CACHE_HOME`` (``~/.cache``) unless ``NUMBA_CACHE_DIR`` is set.
    """
    digest = hashlib.sha256()
    here = Path(__file__).parent
    rules = here.parent / "rules"
    sources = [path for path in sorted(here.glob("*.py")) if path.name not in PYTHON_ONLY]
    sources += [rules / name for name in RULES_COMPILED]
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "harmonies-sim"
    )
    return Path(base) / f"kernel-{digest.hexdigest()[:16]}"


def _compile(fn: F, inline: str) -> F:
    if not COMPILED:
        return fn
    from numba import config, njit

    config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined]

    # Without numba's reference counting (``_nrt=False``): the kernel allocates nothing, its
    # arrays come from Python, and the atomic counts on every call would cost most of the time.
    # numpy's error model: no check for a division by zero before each division (the kernel
    # divides by nothing that can be zero; the same numbers, fewer branches).
    compiled: F = njit(  # type: ignore[call-overload]
        cache=True, nogil=True, _nrt=False, inline=inline, error_model="numpy"
    )(fn)
    return compiled


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk) when :data:`COMPILED`, else return it."""
    return _compile(fn, "never")


def inlined(fn: F) -> F:
    """As :func:`jit`, but numba writes ``fn``'s body into each compiled caller.

    For the small functions of the event loop's every step: a call that is not inlined passes
    each array as a dozen machine words and checks an error status on return, which costs
    more than what these functions compute. Inlining changes no number (the same operations,
    in the same order); it only lengthens the compilation, so it is kept to the hot ones.
    """
    return _compile(fn, "always")


def status() -> str:
    """One line: whether the kernel runs compiled (numba's version, its cache) or plain."""
    if COMPILED:
        import numba

        return f"rules kernel: compiled by numba {numba.__version__} (cache {cache_dir()})"
    if os.environ.get(NO_JIT_VARIABLE, "") == "1":
        return f"rules kernel: plain Python ({NO_JIT_VARIABLE}=1)"
    return "rules kernel: plain Python (numba is not installed)"  # pragma: no cover
