"""The one acceleration mechanism: numba's ``njit``, with its on-disk cache, or plain Python.

Every function of the kernel is decorated with :func:`jit`, :func:`internal`, :func:`inlined`
or :func:`spliced`. Each compiles it with numba
(``@njit``, its machine code cached on disk by :class:`~simulator.kernel.cache.KernelCache`
under :func:`cache_dir`, keyed by the kernel's content, so only the first run of these sources
on a machine compiles, whatever the checkout) unless the environment variable
``HARMONIES_NO_JIT`` is ``1`` or numba is not installed; then the very same function runs as
plain Python (slowly), for coverage, debugging and the test that compiled and plain runs give
byte-identical records.

How a kernel function is compiled, by its decorator (none changes a number: the same
operations in the same order, only where the machine code is written):

- :func:`jit`: a function of its own, called, that Python may call too: the entry points
  (``run_batch``, the digest's functions) and ``receive`` (which a test calls).
- :func:`internal`: a function of its own, called from compiled code only: what runs once
  per wound or per trial, or only for a trace (``worsen``, ``fatal``, ``finish``,
  ``tell_run``, ``record_floats``, ...).
- :func:`inlined`: compiled on its own by numba, once, and written into each caller by LLVM
  (``alwaysinline``). The loop itself (``run_one``, into ``run_batch``; a trace is a batch of
  one) and everything it does at each step: the handlers, H4's
  :func:`~simulator.kernel.events.changed`, the clocks' settle, draw and redraw, the decisions.
- :func:`spliced`: written into each caller by numba itself, before typing
  (``inline="always"``). Only a few tiny functions of the innermost steps (the uniform draw,
  a clock's test times, a trace record), where it measurably pays: with them only inlined by
  LLVM the kernel ran some 5% slower on ``careless_watches``.

numba's own inlining used to be applied to all 75 functions of the last two kinds: the first
compile took about 100 CPU seconds (107 s on an idle 2-core machine), nearly all in numba's
passes over the one huge function it made of the loop; marking them for LLVM instead compiles
the kernel in about 12 CPU seconds into an empty cache, at the same speed (issue 29). The
kernel has grown since (152 functions); the functions of the last three kinds get neither
machine code nor an optimisation of their own (:func:`_codeless`: only their callers' copies
ever run, optimised there), which took the first compile from about 25-30 to about 18-23 CPU
seconds on a 2-core machine (stop 66).
Those three kinds have no entry from Python: a call from Python crashes the process, as
numba's functions without a Python wrapper do.
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


NEVER, LLVM, NUMBA = "never", "llvm", "numba"
"""How a function is inlined: not at all (:func:`jit`), by LLVM (:func:`inlined`), by numba
(:func:`spliced`)."""


def _compile(fn: F, inlining: str, python: bool = True) -> F:
    if not COMPILED:
        return fn
    from numba import njit

    from simulator.kernel.cache import KernelCache, with_lines

    # Without numba's reference counting (``_nrt=False``): the kernel allocates nothing, its
    # arrays come from Python, and the atomic counts on every call would cost most of the time.
    # numpy's error model: no check for a division by zero before each division (the kernel
    # divides by nothing that can be zero; the same numbers, fewer branches). No wrapper for C
    # callers (``cfunc``): nothing takes a kernel function's address.
    options: dict[str, Any] = {
        "nogil": True,
        "_nrt": False,
        "error_model": "numpy",
        "inline": "always" if inlining == NUMBA else "never",
        # said for every function: numba passes a caller's ``forceinline`` on to the callees
        # that do not say it, and LLVM would then write the cold ones into the loop too
        "forceinline": inlining != NEVER,
        "no_cfunc_wrapper": True,
    }
    if inlining != NEVER or not python:  # called from compiled code only
        options["no_cpython_wrapper"] = True  # no wrapper for Python callers
        _codeless(fn)  # and no machine code of its own: LLVM's IR is what its callers use
    if with_lines():  # line tables for tools.kernel_profile; numba's other debug aids stay off
        options.update(debug=True, boundscheck=False, _dbg_extend_lifetimes=False)
        _inline_as_built()
    compiled: F = njit(**options)(fn)
    _one_signature(compiled)
    # numba's own disk cache (``cache=True``) is keyed by the source's path and stops on a
    # damaged or unwritable folder; this one is keyed by content and never stops a run.
    compiled._cache = KernelCache(fn)  # type: ignore[attr-defined]
    return compiled


_CODELESS: set[tuple[str, str]] = set()
"""The kernel functions called from compiled code only: ``(module, qualified name)``."""


def _codeless(fn: Callable[..., Any]) -> None:
    """Let numba make no machine code of ``fn`` itself, only the LLVM IR its callers link.

    numba compiles every function it is asked for down to optimised machine code (LLVM's
    optimiser and code generation, the costliest steps), then hands the callers the function's
    IR, which they link in, optimise and compile again within their own code. A function that
    Python never calls (no wrapper: :func:`inlined`, :func:`spliced`, :func:`internal`) runs
    only as those copies, so its own machine code is never used, nor cached
    (:meth:`~simulator.kernel.cache.KernelCache.save_overload` skips it), and its own
    optimisation only repeats, callee by callee, what the entry point's optimisation does once
    over the whole: its library is finalised without either. That took the first compile from
    about 25 to about 18 CPU seconds on an idle 2-core machine, the loop counted in as many
    instructions (stop 66, ``docs/kernel-speed.md``). Where numba's internals are not as
    expected, every function compiles as numba does.
    """
    if not _without_machine_code():
        return
    _CODELESS.add((fn.__module__, fn.__qualname__))


def _without_machine_code() -> bool:
    """Install, once, the hook that finalises a codeless function's library without code."""
    from numba import _dynfunc  # type: ignore[attr-defined]
    from numba.core import codegen, cpu

    made: Any = cpu.CPUContext.get_executable
    if getattr(made, "_codeless", False):
        return True
    library_class: Any = codegen.JITCodeLibrary
    needed = ("_finalize_dynamic_globals", "_verify_declare_only_symbols", "_optimize_final_module")
    if not all(hasattr(library_class, name) for name in needed):
        return False  # another numba: every function gets its machine code, as numba does

    def finalize_without_code(library: Any) -> None:
        # numba's ``_finalize_final_module`` less the module's hand-over to the JIT engine
        # (``_add_module``) and its compilation there (``finalize_object``)
        library._finalize_dynamic_globals()
        library._verify_declare_only_symbols()
        library._finalized = True

    def get_executable(self: Any, library: Any, fndesc: Any, env: Any) -> Any:
        if (fndesc.modname, fndesc.qualname) not in _CODELESS:
            return made(self, library, fndesc, env)
        # numba's ``get_executable`` with no code: the library finalised (linked, checked)
        # without its own optimisation or code generation; no address (numba's is 0 already
        # for a function without a Python wrapper), and no environment pointer to write into
        # code that does not exist (the function makes no Python object, ``_nrt=False``)
        library._finalize_final_module = lambda: finalize_without_code(library)
        library._optimize_final_module = lambda: None  # optimised once, in its callers
        library.codeless = True
        library._ensure_finalized()
        name = fndesc.qualname.split(".")[-1]
        doc = f"compiled wrapper for {fndesc.qualname!r}"
        return _dynfunc.make_function(fndesc.lookup_module(), name, doc, 0, env, (library,))

    get_executable._codeless = True  # type: ignore[attr-defined]
    cpu.CPUContext.get_executable = get_executable  # type: ignore[method-assign]
    return True


def _inline_as_built() -> None:
    """Let LLVM inline as it does without line tables, so the profiled code is the real one.

    With full debug information numba marks every function it lowers ``noinline`` but those
    forced inline (``numba/core/lowering.py``, ``Lower.pre_lower``), so that a debugger steps
    into each call. The line-table build (:func:`~simulator.kernel.cache.with_lines`) then kept
    calls that the real build inlines, and ``tools.kernel_profile`` mapped its samples through
    code that does not run. Wrapping ``pre_lower`` to take the mark away again leaves LLVM the
    same choices as in the build without lines (tested: ``tests/tools/test_kernel_profile.py``).
    Called only in a process that compiles with line tables; done once per process.
    """
    from numba.core import lowering

    if getattr(lowering.Lower.pre_lower, "_as_built", False):
        return
    marking: Any = lowering.Lower.pre_lower

    def pre_lower(self: Any) -> None:
        marking(self)
        self.builder.function.attributes.discard("noinline")

    pre_lower._as_built = True  # type: ignore[attr-defined]
    lowering.Lower.pre_lower = pre_lower  # type: ignore[method-assign]


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

    typed = getattr(compiled, "get_call_template", None)
    unliteral = getattr(types, "unliteral", None)
    if typed is None or unliteral is None:  # a numba without these internals (tried: 0.68):
        return  # each literal compiles its own copy again, slower to compile, the same code

    def get_call_template(args: Any, kws: Any) -> Any:
        plain = {name: unliteral(kind) for name, kind in kws.items()}
        return typed(tuple(unliteral(kind) for kind in args), plain)

    compiled.get_call_template = get_call_template


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk) when :data:`COMPILED`, else return it."""
    return _compile(fn, NEVER)


def internal(fn: F) -> F:
    """As :func:`jit` (a function of its own, called, not inlined), for compiled callers only.

    No wrapper for Python callers, and no machine code of its own (:func:`_codeless`): the
    copy that runs is the one linked into its callers (``worsen`` in ``run_batch``).
    """
    return _compile(fn, NEVER, python=False)


def inlined(fn: F) -> F:
    """As :func:`jit`, but LLVM writes ``fn``'s body into each compiled caller.

    For the functions of the event loop's every step: a call that is not inlined passes each
    array as a dozen machine words and checks an error status on return, which costs more
    than what these functions compute (the kernel ran at less than half its speed with them
    called). numba compiles ``fn`` on its own, once, and marks it ``alwaysinline``
    (``forceinline=True``); LLVM writes its optimised body into each caller, where the
    constants it is called with (a clock, an event) are folded. numba's own inlining
    (:func:`spliced`) gives code as fast, but the cost of its passes over the function it
    builds grows much faster than that function: for these 69 functions it took the first
    compile from about 12 CPU seconds to about 100.
    """
    return _compile(fn, LLVM)


def spliced(fn: F) -> F:
    """As :func:`inlined`, but numba writes ``fn``'s source into each caller before typing.

    Only for a few tiny functions of the innermost steps, where it measurably pays (about 5%
    of the kernel's speed on ``careless_watches``, for about 3 CPU seconds of compilation):
    the uniform draw, a clock's test times, a trace record. Each caller is itself a small
    :func:`inlined` function, so numba's inlining stays cheap.
    """
    return _compile(fn, NUMBA)


def compiled_module(module: Any) -> Callable[[F], F]:
    """The functions a module of ``rules/`` names in its ``COMPILED`` table, compiled as it says.

    A module of plain Python whose functions call one another (``overflow`` calls ``held``)
    cannot be handed to numba function by function: a compiled function can call only
    compiled ones. Each function is copied into a namespace of its own, where the names of its
    fellows are their compiled copies (numba reads a function's globals when it first compiles
    it, after every copy is made). The module itself stays plain Python, for the engines that
    call it as it is; without numba (:data:`COMPILED` false) the copies are plain too.

    Args:
        module: A module with a ``COMPILED`` dict: function name to ``"jit"``,
            ``"internal"``, ``"inlined"`` or ``"spliced"``.

    Returns:
        What gives, for a function of the module, its compiled copy:
        ``overflow = compiled(rows.overflow)`` (the module's function is named where it is
        used, for readers and for ``tests/rules/test_rules_once.py``'s import graph).
    """
    import types

    how = {"jit": jit, "internal": internal, "inlined": inlined, "spliced": spliced}
    namespace = dict(vars(module))
    made: dict[str, Any] = {}
    for name, kind in module.COMPILED.items():
        fn = getattr(module, name)
        copy = types.FunctionType(
            fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__
        )
        copy.__qualname__, copy.__doc__ = fn.__qualname__, fn.__doc__
        copy.__annotations__ = dict(fn.__annotations__)
        made[name] = namespace[name] = how[kind](copy)

    def compiled(fn: F) -> F:
        if getattr(module, fn.__name__, None) is not fn:
            raise ValueError(f"{fn.__name__} is not a function of {module.__name__}")
        return made[fn.__name__]  # type: ignore[no-any-return]

    return compiled


def status() -> str:
    """One line: whether the kernel runs compiled (numba's version, its cache) or plain."""
    if COMPILED:
        import numba

        return f"rules kernel: compiled by numba {numba.__version__} (cache {cache_dir()})"
    if os.environ.get(NO_JIT_VARIABLE, "") == "1":
        return f"rules kernel: plain Python ({NO_JIT_VARIABLE}=1)"
    return "rules kernel: plain Python (numba is not installed)"  # pragma: no cover
