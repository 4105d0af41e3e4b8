"""The one acceleration mechanism: numba's ``njit``, with its on-disk cache, or plain Python.

Every function of the kernel is decorated with :func:`jit`. It compiles it with numba
(``@njit(cache=True)``: the machine code is cached beside the sources, so only the first run
on a machine compiles) unless the environment variable ``HARMONIES_NO_JIT`` is ``1`` or numba
is not installed; then the very same function runs as plain Python (slowly), for coverage,
debugging and the test that compiled and plain runs give byte-identical records.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk) when :data:`COMPILED`, else return it."""
    if not COMPILED:
        return fn
    from numba import njit

    # Without numba's reference counting (``_nrt=False``): the kernel allocates nothing, its
    # arrays come from Python, and the atomic counts on every call would cost most of the time.
    compiled: F = njit(cache=True, nogil=True, _nrt=False)(fn)
    return compiled
