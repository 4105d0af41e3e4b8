"""Compile ``simulator/rules`` and ``simulator/engine`` with mypyc into ``simulator/_native/``.

``make venv`` runs it (so ``make test``, ``make run`` and ``make bench`` use the build). It
does nothing when the build is already that of the sources (``simulator.native.verdict``);
otherwise it copies the package's sources to a temporary folder, compiles the copies (so
that the manifest's SHA-256 are those of exactly what was compiled, even if a file is edited
meanwhile), and puts the result in place whole, the manifest written last. Without a C
compiler, Python's headers or mypyc, or when the build fails, it says so in one line and
exits 0: the package then runs in pure Python, with the same results.

The compiled modules live in ``simulator/_native/`` (never next to the sources, where a
stale ``.so`` would shadow an edited ``.py``); ``simulator.native`` loads them only while
every source the compiler read is unchanged.

Writing code that compiles to the same results (``tests/test_native.py`` compares both):

- A ``float`` annotation is a C double once compiled: an int stored there comes back as
  ``3.0``. Where the int must stay an int (it is printed: a watch's index, a count that
  may be infinite), annotate ``int | float``; write float totals as ``total: float = 0.0``
  (mypyc refuses ``= 0``).
- mypyc's ``sum()`` over floats goes wrong after an int (``roll + sum(v for ...)``):
  sum first into a ``float`` variable.
- Arguments are checked at run time: ``"S1"`` where ``RuleId`` is expected raises
  ``TypeError`` (Python would let it pass).
- A compiled NaN is a new object each time: compare records with NaNs by value (``repr``),
  not ``==``, which only holds in Python because ``math.nan`` is one object.
- A compiled class has no ``__slots__`` attribute (``__mypyc_attrs__`` lists its
  attributes); ``simulator.native`` makes its instances pickle as Python's would.

Usage::

    python -m tools.build_native [--force] [--check]

``--check`` builds nothing and exits 1 when the build is missing or stale.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import fcntl
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from simulator import native

REPO = Path(__file__).resolve().parent.parent
PACKAGE = native.PACKAGE
COMPILED = ("rules", "engine")
"""The sub-packages compiled (their ``__init__`` modules stay Python: they only gather)."""

KEPT_PYTHON = {
    "simulator.rules.table": "the wound table checks a user's cells and says what is wrong; "
    "a compiled row would refuse a wrong type with a bare TypeError first",
    "simulator.engine.record": "the record is the engine's output: kept a Python object, its "
    "values are the Python engine's to the last detail (the shared NaN, ints kept ints)",
}
"""Modules of those sub-packages left in Python, and why (reading them costs little)."""

GROUP = "harmonies_native"
"""mypyc's group: its shared library is the module ``harmonies_native__mypyc``, which only
``simulator.native``'s finder finds (``simulator/_native`` is on no path)."""

LOG = REPO / "build" / "native.log"

_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

setup(
    name="harmonies-native",
    ext_modules=mypycify(sys.argv[1:], opt_level="3", group_name=%r),
    script_args=["build_ext", "--build-lib", "out", "--build-temp", "temp"],
)
"""


def all_modules(package: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (packages by their ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if "_native" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def compiled_modules(package: Path) -> list[str]:
    """The dotted names of the modules compiled."""
    return [
        name
        for name, path in all_modules(package).items()
        if name.split(".")[1:2]
        and name.split(".")[1] in COMPILED
        and path.name != "__init__.py"
        and name not in KEPT_PYTHON
    ]


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that a module names in any import (lazy and typing ones too)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}".rstrip(".")
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in modules}


def sources_read(package: Path) -> list[Path]:
    """The sources mypy reads to compile them: the compiled modules and all they import.

    Transitively, with their packages: a constant or a type of any of them may be compiled in.
    """
    modules = all_modules(package)
    pending = list(compiled_modules(package))
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        pending.extend(_imports(name, modules[name], modules))
    return sorted(modules[name] for name in seen)


def hashes(package: Path) -> dict[str, str]:
    """``{path relative to the package: SHA-256}`` of :func:`sources_read`."""
    return {
        path.relative_to(package).as_posix(): native.digest(path) for path in sources_read(package)
    }


def up_to_date() -> bool:
    """Whether ``simulator/_native`` is the build of these sources for this Python."""
    build, _ = native.verdict()
    if build is None:
        return False
    manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
    return bool(
        manifest["sources"] == hashes(PACKAGE)
        and manifest.get("builder") == native.digest(Path(__file__))
        and set(manifest["modules"]) == {*compiled_modules(PACKAGE), manifest["library"]}
    )


def missing_tools() -> str | None:
    """What the build lacks on this machine (a C compiler, headers, mypyc), or None."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"no {module} (the dev extra installs it)"
    return None


def build(log: Path) -> float:
    """Compile into a temporary folder and put the result in place; the seconds it took.

    Raises:
        RuntimeError: The compilation failed (its output is in ``log``).
    """
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="harmonies-native-") as tmp:
        work = Path(tmp)
        copy = work / "simulator"
        shutil.copytree(
            PACKAGE, copy, ignore=shutil.ignore_patterns("_native*", "__pycache__", "*.so")
        )
        modules = compiled_modules(copy)
        sources = hashes(copy)
        paths = [all_modules(copy)[m].relative_to(work).as_posix() for m in modules]
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("w", encoding="utf-8") as out:
            done = subprocess.run(
                [sys.executable, "-c", _SETUP % GROUP, *paths],
                cwd=work,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "MYPY_FORCE_COLOR": "0"},
            )
        if done.returncode != 0:
            text = log.read_text(encoding="utf-8", errors="replace").splitlines()
            first = next((line for line in text if "error:" in line), text[-1] if text else "")
            raise RuntimeError(f"{first.strip()} (all in {log})")
        staging = PACKAGE / f"_native.new-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        suffix = native.abi()["ext_suffix"]
        files = {}
        for module in [*modules, f"{GROUP}__mypyc"]:
            built = work / "out" / (module.replace(".", "/") + suffix)
            # mypyc names a module's file after the library's folder and the module's name
            target = staging / (module.replace(".", "/") + suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, target)
            files[module] = target.relative_to(staging).as_posix()
        manifest = {
            "abi": native.abi(),
            "library": f"{GROUP}__mypyc",
            "modules": files,
            "sources": sources,
            "artefacts": {m: native.digest(staging / f) for m, f in files.items()},
            "builder": native.digest(Path(__file__)),
            "built": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        old = PACKAGE / f"_native.old-{os.getpid()}"
        if native.NATIVE.exists():
            native.NATIVE.rename(old)
        staging.rename(native.NATIVE)
        shutil.rmtree(old, ignore_errors=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Build when needed; one line says what happened. Exit 0 unless ``--check`` fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="Build even if up to date.")
    parser.add_argument("--check", action="store_true", help="Exit 1 if missing or stale.")
    args = parser.parse_args(argv)
    if native.pure_requested():
        print(f"native build: skipped, {native.PURE_VARIABLE} is set; the engine runs pure Python")
        return 0
    if args.check:
        current = up_to_date()
        print("native build: up to date" if current else "native build: missing or stale")
        return 0 if current else 1
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with (LOG.parent / "native.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two makes at once: the second finds it built
        return _build_if_needed(args.force)


def strays(package: Path) -> list[Path]:
    """Extension modules beside the sources, as a hand-run ``mypyc`` leaves them.

    Each would shadow its ``.py`` whenever the package runs in pure Python.
    """
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        path
        for path in package.rglob("*")
        if path.name.endswith(suffixes)
        and not path.relative_to(package).parts[0].startswith("_native")
    )


def _build_if_needed(force: bool) -> int:
    for stray in strays(PACKAGE):
        shown = stray.relative_to(REPO)
        print(f"native build: warning, {shown} shadows its source; delete it (not ours)")
    if up_to_date() and not force:
        print("native build: up to date (compiled engine in simulator/_native)")
        return 0
    lacking = missing_tools()
    if lacking:
        print(f"native build: skipped, {lacking}; the engine runs in pure Python")
        return 0
    try:
        seconds = build(LOG)
    except (RuntimeError, OSError) as error:
        print(f"native build: failed, {error}; the engine runs {native.check_build()[1]}")
        return 0
    print(f"native build: compiled rules/ and engine/ with mypyc in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
