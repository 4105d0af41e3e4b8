"""The compiled kernel's disk cache (simulator.kernel.cache): keyed by content, never in the way.

Issue 29: a second checkout of the same sources compiles nothing (the cache is keyed by the
kernel's content, not by its files' paths). Issue 34: a cache that cannot be read is ignored and
rebuilt; one that cannot be written is skipped, said once; the numbers are those of a healthy
cache.

Most tests compile one tiny function (a fraction of a second) through the kernel's own cache
class, in a folder of the test's own (``NUMBA_CACHE_DIR`` under ``tmp_path``); the end-to-end
tests run the command line against damaged copies of one good cache of the real kernel, built
once for the module (copied from the user's cache when it holds this kernel, never written
there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from simulator.errors import HarmoniesNote
from simulator.kernel import jit

pytestmark = [
    pytest.mark.compiled,
    pytest.mark.skipif(not jit.COMPILED, reason="the cache of the compiled kernel"),
]

if jit.COMPILED:
    from simulator.kernel import cache

REPO = Path(__file__).resolve().parents[2]

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
"""Whether the tests run as root, whom a folder's mode does not stop from writing."""


def tiny(x: float) -> float:
    """The function the tests compile: small, so that compiling it costs little."""
    return 2.0 * x + 1.0


def compiled(fn: Callable[[float], float] = tiny) -> Callable[[float], float]:
    """A new dispatcher of ``fn`` with the kernel's cache: it loads from disk or compiles."""
    return jit.jit(fn)


def hits(dispatcher: object) -> int:
    return sum(dispatcher.stats.cache_hits.values())  # type: ignore[attr-defined]


def misses(dispatcher: object) -> int:
    return sum(dispatcher.stats.cache_misses.values())  # type: ignore[attr-defined]


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache of the test's own (``NUMBA_CACHE_DIR``), this process's choice reset around it."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.delenv(cache.FALLBACK_VARIABLE, raising=False)
    monkeypatch.setattr(cache._Where, "root", None)
    monkeypatch.setattr(cache._Where, "in_memory", False)
    yield tmp_path / "numba" / f"kernel-{cache.digest()}"
    os.environ.pop(cache.FALLBACK_VARIABLE, None)  # a fallback this test chose


def files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


def notes(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, HarmoniesNote)]


def test_a_function_is_saved_under_the_kernels_digest_and_loaded_back(where: Path) -> None:
    first = compiled()
    assert first(3.0) == 7.0
    assert (misses(first), hits(first)) == (1, 0)
    saved = files(where)
    assert [path.suffix for path in saved] == [".nbc", ".nbi"]
    assert all(path.parent == where / "kernel" for path in saved)  # its folder name, not its path
    again = compiled()
    assert again(3.0) == 7.0
    assert (misses(again), hits(again)) == (0, 1)


SOURCE = """
def doubled(x):
    return 2.0 * x
"""


def module_at(folder: Path, name: str) -> Callable[[float], float]:
    """``doubled`` from a module ``name`` written in ``folder`` (a checkout of its own)."""
    import importlib.util

    folder.mkdir(parents=True)
    path = folder / "clone.py"
    path.write_text(SOURCE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.doubled  # type: ignore[no-any-return]


def test_a_second_checkout_of_the_same_source_compiles_nothing(where: Path, tmp_path: Path) -> None:
    one = compiled(module_at(tmp_path / "one" / "pkg", "clone_one"))
    assert (one(2.0), misses(one)) == (4.0, 1)
    two_fn = module_at(tmp_path / "two" / "pkg", "clone_two")  # other path, other file times
    os.utime(Path(two_fn.__code__.co_filename), (1_000_000_000, 1_000_000_000))
    two = compiled(two_fn)
    assert (two(2.0), misses(two), hits(two)) == (4.0, 0, 1)


CALLER = """
def scaled(x):
    return 3.0 * x


def plus_one(x):
    return x + 1.0


def outer(x):
    return plus_one(scaled(x))
"""


@pytest.mark.parametrize("kind", ["inlined", "internal"])
def test_a_function_called_only_from_compiled_code_has_no_machine_code_of_its_own(
    where: Path, tmp_path: Path, kind: str
) -> None:
    """Only what Python calls is built to machine code and cached (issue 29's compile time).

    The callees (compiled for their callers only) are optimised for linking, not built on
    their own nor saved; the caller holds their code, and a fresh process (here a fresh
    dispatcher) loads it from the cache and compiles nothing."""
    import importlib.util

    folder = tmp_path / "pkg"
    folder.mkdir()
    path = folder / "calls.py"
    path.write_text(CALLER, encoding="utf-8")

    def made() -> Callable[[float], float]:
        spec = importlib.util.spec_from_file_location(f"calls_{kind}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.scaled = getattr(jit, kind)(module.scaled)
        module.plus_one = getattr(jit, kind)(module.plus_one)
        return jit.jit(module.outer)  # type: ignore[no-any-return]

    outer = made()
    assert outer(2.0) == 7.0
    callee = outer.py_func.__globals__["scaled"]
    library = next(iter(callee.overloads.values())).library
    assert getattr(library, "codeless", False)
    assert all(
        library.get_pointer_to_function(fn.name) == 0 for fn in library.get_defined_functions()
    )
    saved = files(where)
    assert [path.name.split("-")[0] for path in saved] == ["calls.outer"] * 2  # .nbc, .nbi
    again = made()
    assert again(2.0) == 7.0
    assert (misses(again), hits(again)) == (0, 1)


@pytest.mark.parametrize("damage", ["empty", "random bytes"])
def test_a_damaged_cache_is_ignored_and_rebuilt(where: Path, damage: str) -> None:
    compiled()(1.0)
    for path in files(where):
        path.write_bytes(b"" if damage == "empty" else os.urandom(4096))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mended = compiled()
        assert mended(3.0) == 7.0
    assert misses(mended) == 1 and notes(caught) == []  # nothing to tell: it is mended
    again = compiled()
    assert (again(3.0), hits(again)) == (7.0, 1)  # saved afresh, readable again


def test_an_index_pointing_at_a_missing_data_file_compiles_again(where: Path) -> None:
    compiled()(1.0)
    for path in where.rglob("*.nbc"):
        path.unlink()
    mended = compiled()
    assert (mended(3.0), misses(mended)) == (7.0, 1)


def make_unwritable(folder: Path, how: str) -> Path:
    """A cache folder this process cannot write: read-only, or a path through a file."""
    if how == "read-only folder":
        if ROOT:
            pytest.skip("root writes into a read-only folder")
        folder.mkdir(parents=True, exist_ok=True)
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        return folder
    blocker = folder.parent / "a-file"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("not a folder", encoding="utf-8")
    return blocker / "cache"


@pytest.mark.parametrize("how", ["read-only folder", "path through a file"])
def test_a_cache_that_cannot_be_written_is_skipped_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: Path, how: str
) -> None:
    base = make_unwritable(tmp_path / "locked", how)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = compiled()
        assert first(3.0) == 7.0
        other = compiled(module_at(tmp_path / "other" / "pkg", "other_function"))
        assert other(2.0) == 4.0
    (said,) = notes(caught)
    assert "cannot be written" in said and str(base) in said and "temporary folder" in said
    private = Path(os.environ[cache.FALLBACK_VARIABLE])
    assert private != base and files(private)  # this run's cache, there
    again = compiled()
    assert (again(3.0), hits(again)) == (7.0, 1)


def test_a_read_only_folder_holding_a_good_cache_is_read_and_says_nothing(
    where: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled()(1.0)
    make_unwritable(where, "read-only folder")
    monkeypatch.setattr(cache._Where, "root", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = compiled()
        assert (loaded(3.0), hits(loaded)) == (7.0, 1)
    assert notes(caught) == []


def test_an_unwritable_home_and_no_temporary_folder_compile_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: Path
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    home = make_unwritable(tmp_path / "home", "path through a file")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(cache.tempfile, "tempdir", str(home / "tmp"))  # no temporary folder
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = compiled()
        assert first(3.0) == 7.0
        assert compiled()(3.0) == 7.0
    (said,) = notes(caught)
    assert "in memory" in said and ".cache" in said
    assert cache.FALLBACK_VARIABLE not in os.environ


# --- the command line, against copies of one good cache of the real kernel ----------------

SCENARIO = """
name = "Cache check"
horizon = "3d"

[patient]
cp_rs = 8
rs_it = 8

[[injuries]]
at = "0s"
level = "grave"

[first_aid]
level = 1
start = "5min"
interval = "5min"
"""

TRIALS = "400"
"""More than the trials a command runs as plain Python (startup.PLAIN_KERNEL_TRIALS)."""


def run(scenario: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "simulator", "run", str(scenario), "--trials", TRIALS]
    command += ["--seed", "5", "--workers", "1", "--out", str(out), "--no-figures"]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=REPO, timeout=1200, check=False
    )


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "HARMONIES_"))}
    env.pop("XDG_CACHE_HOME", None)
    env["PYTHONPATH"] = str(REPO)
    return env | extra


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, object]:
    """A good cache of the real kernel (base folder), the scenario, the trials it gives.

    Copied from the user's cache when it holds this kernel's sources (never written there),
    then completed by a healthy run (which compiles whatever was missing).
    """
    folder = tmp_path_factory.mktemp("good")
    base = folder / "numba"
    users = cache.cache_dir()
    if users.is_dir():
        shutil.copytree(users, base / users.name)
    scenario = folder / "cache_check.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    done = run(scenario, folder / "out", clean_env(NUMBA_CACHE_DIR=str(base)))
    assert done.returncode == 0, done.stderr
    return base, scenario, trials_of(folder / "out")


def trials_of(out: Path) -> object:
    import pandas as pd

    return pd.read_parquet(out / "trials.parquet")


def damaged_copy(good: Path, into: Path) -> Path:
    """A copy of the good cache with every file damaged: half emptied, half random bytes."""
    shutil.copytree(good, into)
    for i, path in enumerate(files(into)):
        path.write_bytes(b"" if i % 2 == 0 else os.urandom(2048))
    return into


def said(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note: ")]


@pytest.mark.slow
def test_a_run_on_a_damaged_cache_rebuilds_it_and_gives_the_same_numbers(
    good: tuple[Path, Path, object], tmp_path: Path
) -> None:
    base, scenario, healthy = good
    damaged = damaged_copy(base, tmp_path / "numba")
    done = run(scenario, tmp_path / "out", clean_env(NUMBA_CACHE_DIR=str(damaged)))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Aborted" not in done.stderr
    assert said(done.stderr) == []
    assert trials_of(tmp_path / "out").equals(healthy)
    warm = subprocess.run(
        [sys.executable, "-m", "tools.kernel_warmup", "--json"],
        capture_output=True, text=True, cwd=REPO, check=True, timeout=1200,
        env=clean_env(NUMBA_CACHE_DIR=str(damaged)),
    )  # fmt: skip
    assert '"compiled": 0' in warm.stdout  # rebuilt: the next run compiles nothing


@pytest.mark.slow
def test_a_run_whose_cache_cannot_be_written_says_so_once_and_gives_the_same_numbers(
    good: tuple[Path, Path, object], tmp_path: Path
) -> None:
    base, scenario, healthy = good
    if ROOT:  # root writes into a read-only folder: a cache path through a file instead
        locked = make_unwritable(tmp_path / "locked", "path through a file")
    else:
        locked = make_unwritable(damaged_copy(base, tmp_path / "locked"), "read-only folder")
    done = run(scenario, tmp_path / "out", clean_env(NUMBA_CACHE_DIR=str(locked)))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = said(done.stderr)
    assert "cannot be written" in line and str(locked) in line
    assert trials_of(tmp_path / "out").equals(healthy)


def test_a_read_only_copy_of_a_good_cache_runs_without_compiling_or_a_note(
    good: tuple[Path, Path, object], tmp_path: Path
) -> None:
    base, scenario, healthy = good
    copy = tmp_path / "numba"
    shutil.copytree(base, copy)
    if not ROOT:
        make_unwritable(copy, "read-only folder")
    done = run(scenario, tmp_path / "out", clean_env(NUMBA_CACHE_DIR=str(copy)))
    assert done.returncode == 0, done.stderr
    assert said(done.stderr) == []
    assert trials_of(tmp_path / "out").equals(healthy)
