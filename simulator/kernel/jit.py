"""The one acceleration mechanism: numba's ``njit``, with its on-disk cache, or plain Python.

Every function of the kernel is decorated with :func:`jit`. It compiles it with numba
(``@njit``, its machine code cached on disk by :class:`~simulator.kernel.cache.KernelCache`
under :func:`cache_dir`, keyed by the kernel's content, so only the first run of these sources
on a machine compiles, whatever the checkout) unless the environment variable
``HARMONIES_NO_JIT`` is ``1`` or numba is not installed; then the very same function runs as
plain Python (slowly), for coverage, debugging and the test that compiled and plain runs give
byte-identical records.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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


def cache_dir() -> Path:
    """Where the compiled kernel is cached (:func:`simulator.kernel.cache.cache_dir`)."""
    from simulator.kernel import cache

    return cache.cache_dir()


def _compile(fn: F, forceinline: bool) -> F:
    if not COMPILED:
        return fn
    from numba import njit

    from simulator.kernel.cache import KernelCache

    # Without numba's reference counting (``_nrt=False``): the kernel allocates nothing, its
    # arrays come from Python, and the atomic counts on every call would cost most of the time.
    # numpy's error model: no check for a division by zero before each division (the kernel
    # divides by nothing that can be zero; the same numbers, fewer branches). No wrapper for C
    # callers (``cfunc``): nothing takes a kernel function's address.
    options: dict[str, Any] = {
        "nogil": True,
        "_nrt": False,
        "error_model": "numpy",
        "inline": "never",
        "no_cfunc_wrapper": True,
    }
    if forceinline:  # called from compiled code only: no wrapper for Python callers either
        options |= {"forceinline": True, "no_cpython_wrapper": True}
    compiled: F = njit(**options)(fn)
    _one_signature(compiled)
    # numba's own disk cache (``cache=True``) is keyed by the source's path and stops on a
    # damaged or unwritable folder; this one is keyed by content and never stops a run.
    compiled._cache = KernelCache(fn)  # type: ignore[attr-defined]
    return compiled


def _one_signature(compiled: Any) -> None:
    """Compile ``compiled`` for its callers' argument types less their literal values.

    numba compiles a function called from compiled code once per *literal* argument:
    ``settle(..., SURVIVAL_CLOCK)`` and ``settle(..., FIRST_AID_CLOCK)`` were two functions,
    ``cause_after`` five, about sixty compilations in all that gave nothing: an inlined
    function's constants are folded by LLVM in each caller anyway, and the others are cold.
    Typing each call with the plain types (``int64`` for ``Literal[int](21)``) compiles each
    function once; the caller passes the constant as an argument.
    """
    from numba.core import types

    typed = compiled.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        unliteral: Callable[[Any], Any] = types.unliteral
        plain = {name: unliteral(kind) for name, kind in kws.items()}
        return typed(tuple(unliteral(kind) for kind in args), plain)

    compiled.get_call_template = get_call_template


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk) when :data:`COMPILED`, else return it."""
    return _compile(fn, False)


def inlined(fn: F) -> F:
    """As :func:`jit`, but LLVM writes ``fn``'s body into each compiled caller.

    For the small functions of the event loop's every step: a call that is not inlined passes
    each array as a dozen machine words and checks an error status on return, which costs
    more than what these functions compute. numba compiles ``fn`` on its own, once per
    signature, and marks it ``alwaysinline`` (``forceinline=True``); LLVM then inlines its
    optimised body. numba's own inlining of the source (``inline="always"``) gave the same
    machine code but cost minutes of compilation, in numba's passes over the one huge
    function it made. Inlining changes no number (the same operations, in the same order).
    """
    return _compile(fn, True)


def status() -> str:
    """One line: whether the kernel runs compiled (numba's version, its cache) or plain."""
    if COMPILED:
        import numba

        return f"rules kernel: compiled by numba {numba.__version__} (cache {cache_dir()})"
    if os.environ.get(NO_JIT_VARIABLE, "") == "1":
        return f"rules kernel: plain Python ({NO_JIT_VARIABLE}=1)"
    return "rules kernel: plain Python (numba is not installed)"  # pragma: no cover
