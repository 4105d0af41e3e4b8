"""The compiled engine (``simulator.native``, ``tools/build_native.py``): exact or not used.

The compiled modules must give the very records and traces of the Python sources, and must
never run once a source differs from the one compiled. The comparisons run both sides in
fresh processes: one with ``HARMONIES_PURE=1``, one as the package loads by default. They are
skipped, saying why, where there is no native build (no C compiler: ``make venv`` says so).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import native
from tests.conftest import REPO, TINY

_CHILD = r"""
import json, sys
from pathlib import Path

import simulator.engine.trial as trial_module
from click.testing import CliRunner
from simulator import native
from simulator.cli.app import main
from simulator.engine.record import COUNT_FIELDS, RECORD_FIELDS
from simulator.engine.trace import format_trace
from simulator.scenario.reading import load_scenario

def cell(name, value):
    # as the trials frame stores it: counts exact ints, times and pain float64 to the bit
    # (a compiled max_pain may be 13.0 where Python keeps 13), the outcome and cause by name
    if name in ("outcome", "cause"):
        return str(value)
    if name in COUNT_FIELDS:
        return repr(value) if type(value) is int else f"not an int: {value!r}"
    return float(value).hex()

trials, traced, out = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
lines = [f"status {native.STATUS}; trial module compiled: {native.compiled(trial_module)}"]
for path in sorted(Path("scenarios").glob("*.toml")):
    scenario = load_scenario(path)
    for fast in (True, False):
        for i in range(trials):
            record = trial_module.run_trial(scenario, i, 20261130, fast=fast)
            values = " ".join(cell(n, v) for n, v in zip(RECORD_FIELDS, record.as_tuple()))
            lines.append(f"{path.stem} fast={fast} trial {i}: {values}")
        for i in range(traced):
            record, timeline = trial_module.trace_trial(scenario, 20261130, i, fast=fast)
            values = " ".join(cell(n, v) for n, v in zip(RECORD_FIELDS, record.as_tuple()))
            lines.append(f"{path.stem} fast={fast} trace {i}: {values}")
            lines.extend(format_trace(timeline).splitlines())
    for i in range(traced):  # the trace command as a user reads it, verdict included
        shown = CliRunner().invoke(main, ["trace", str(path), "--seed", "3", "--trial", str(i)])
        lines.append(f"{path.stem} command trace {i}, exit {shown.exit_code}")
        lines.extend(shown.output.splitlines())
out.write_text("\n".join(lines) + "\n", encoding="utf-8")
"""


def _environment(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    if pure:
        env[native.PURE_VARIABLE] = "1"
    return env


def _python(code: str, *args: str, pure: bool = False, cwd: Path = REPO) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=_environment(pure),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _needs_build() -> None:
    build, reason = native.check_build()
    if build is None:
        pytest.skip(f"no native build to compare: {reason}")


@pytest.mark.slow
def test_compiled_records_and_traces_are_the_pure_ones(tmp_path: Path):
    _needs_build()
    compiled, pure = tmp_path / "compiled.txt", tmp_path / "pure.txt"
    _python(_CHILD, "300", "5", str(compiled))
    _python(_CHILD, "300", "5", str(pure), pure=True)
    got = compiled.read_text(encoding="utf-8").splitlines()
    want = pure.read_text(encoding="utf-8").splitlines()
    assert got[0] == "status compiled (mypyc); trial module compiled: True"
    assert (
        want[0]
        == f"status pure Python ({native.PURE_VARIABLE} is set); trial module compiled: False"
    )
    assert len(got) == len(want)
    different = [(a, b) for a, b in zip(got[1:], want[1:], strict=True) if a != b]
    assert different == [], f"{len(different)} lines differ, first: {different[0]}"
    assert len(want) > 7 * 2 * 300


_WHO = (
    "import simulator.engine.trial as t; from simulator import native; "
    "print(native.STATUS); print(native.compiled(t))"
)


def _copy(tmp_path: Path) -> Path:
    """A copy of the package with its native build, importable from ``tmp_path``."""
    shutil.copytree(
        REPO / "simulator", tmp_path / "simulator", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path / "simulator"


def test_a_copy_of_an_exact_build_loads_compiled(tmp_path: Path):
    _needs_build()
    _copy(tmp_path)
    assert _python(_WHO, cwd=tmp_path).splitlines() == ["compiled (mypyc)", "True"]
    assert _python(_WHO, cwd=tmp_path, pure=True).splitlines() == [
        f"pure Python ({native.PURE_VARIABLE} is set)",
        "False",
    ]


@pytest.mark.parametrize("edited", ["engine/trial.py", "rules/dice.py", "scenario/model.py"])
def test_a_source_edited_after_the_build_runs_pure(tmp_path: Path, edited: str):
    """Not only the compiled modules: a module they import may have a constant compiled in."""
    _needs_build()
    package = _copy(tmp_path)
    with (package / edited).open("a", encoding="utf-8") as source:
        source.write("\n# edited after the build\n")
    assert _python(_WHO, cwd=tmp_path).splitlines() == [
        f"pure Python (simulator/{edited} changed since the native build)",
        "False",
    ]


def test_a_build_replaced_after_the_check_is_not_loaded(tmp_path: Path):
    """Between ``import simulator`` and the engine's import, a rebuild: pure Python."""
    package = _copy(tmp_path)
    if native.check_build(package / "_native", package)[0] is None:
        pytest.skip("no native build to copy")
    code = (
        "import simulator; from pathlib import Path; "
        "m = Path(simulator.__file__).parent / '_native' / 'manifest.json'; "
        "m.write_bytes(m.read_bytes() + b' '); " + _WHO
    )
    assert _python(code, cwd=tmp_path).splitlines() == [
        "pure Python (the native build changed since this process checked it)",
        "False",
    ]


def test_a_library_that_does_not_load_leaves_everything_pure(tmp_path: Path):
    _needs_build()
    package = _copy(tmp_path)
    manifest = json.loads((package / "_native" / "manifest.json").read_text(encoding="utf-8"))
    library = package / "_native" / manifest["modules"][manifest["library"]]
    library.write_bytes(b"not ELF")  # and its hash in the manifest: it passes the check
    manifest["artefacts"][manifest["library"]] = native.digest(library)
    (package / "_native" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    status, compiled = _python(_WHO, cwd=tmp_path).splitlines()
    assert status.startswith("pure Python (the native build did not load: ")
    assert compiled == "False"


def _fake_build(tmp_path: Path) -> tuple[Path, Path]:
    """A package of one source and a build whose manifest matches it (no compiler needed)."""
    package, build = tmp_path / "pkg", tmp_path / "pkg" / "_native"
    (build / "engine").mkdir(parents=True)
    (package / "engine").mkdir()
    (package / "engine" / "a.py").write_text("X = 1\n", encoding="utf-8")
    suffix = native.abi()["ext_suffix"]
    (build / "engine" / f"a{suffix}").write_bytes(b"")
    (build / f"lib{suffix}").write_bytes(b"")
    manifest = {
        "abi": native.abi(),
        "library": "lib",
        "modules": {"pkg.engine.a": f"engine/a{suffix}", "lib": f"lib{suffix}"},
        "sources": {"engine/a.py": native.digest(package / "engine" / "a.py")},
        "artefacts": {
            "pkg.engine.a": native.digest(build / "engine" / f"a{suffix}"),
            "lib": native.digest(build / f"lib{suffix}"),
        },
    }
    (build / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return package, build


def test_the_verdict_follows_the_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    package, build = _fake_build(tmp_path)
    found, status = native.verdict(build, package)
    assert found is not None and status == "compiled (mypyc)"
    assert (sorted(found.files), found.library) == (["lib", "pkg.engine.a"], "lib")
    assert found.manifest == (build / "manifest.json").read_bytes()

    monkeypatch.setenv(native.PURE_VARIABLE, "0")  # 0 or empty: not asked
    assert native.verdict(build, package)[1] == "compiled (mypyc)"
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    assert native.verdict(build, package) == (None, "pure Python (HARMONIES_PURE is set)")
    monkeypatch.delenv(native.PURE_VARIABLE)

    (package / "engine" / "a.py").write_text("X = 2\n", encoding="utf-8")
    assert native.verdict(build, package)[1] == (
        "pure Python (simulator/engine/a.py changed since the native build)"
    )
    (package / "engine" / "a.py").unlink()
    assert native.verdict(build, package)[1] == (
        "pure Python (simulator/engine/a.py changed since the native build)"
    )


def test_the_verdict_refuses_another_python_or_a_partial_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    package, build = _fake_build(tmp_path)
    manifest = json.loads((build / "manifest.json").read_text(encoding="utf-8"))
    (build / "manifest.json").write_text(
        json.dumps({**manifest, "abi": {**manifest["abi"], "version": "3.99"}}), encoding="utf-8"
    )
    assert native.verdict(build, package)[1] == (
        "pure Python (the native build is for another Python)"
    )
    (build / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    next((build / "engine").iterdir()).unlink()
    assert native.verdict(build, package)[1] == "pure Python (the native build is incomplete)"
    (build / "manifest.json").write_text("{", encoding="utf-8")
    assert native.verdict(build, package)[1] == (
        "pure Python (the native build has an unreadable manifest)"
    )
    (build / "manifest.json").unlink()
    assert native.verdict(build, package)[1] == (
        "pure Python (no native build; make venv builds one)"
    )


def test_the_build_reads_every_module_the_compiled_ones_import():
    from tools import build_native

    read = {
        p.relative_to(native.PACKAGE).as_posix() for p in build_native.sources_read(native.PACKAGE)
    }
    compiled = {
        m.removeprefix("simulator.").replace(".", "/") + ".py"
        for m in build_native.compiled_modules(native.PACKAGE)
    }
    assert "engine/trial.py" in compiled and "engine/__init__.py" not in compiled
    assert compiled | {"__init__.py", "engine/__init__.py", "scenario/model.py"} <= read
    assert not any(name.startswith(("cli/", "studies/", "report/")) for name in read)


def test_frozen_records_pickle_and_copy_whichever_engine_runs():
    """Scenarios (with their wound table) go to worker processes by pickle; patients copy."""
    import copy
    import pickle

    from simulator.rules.dice import TestRoll
    from simulator.rules.ids import RuleId
    from simulator.rules.levels import Level
    from simulator.rules.patient import Patient, Wound
    from simulator.scenario.reading import load_scenario

    scenario = load_scenario(REPO / "scenarios" / "geraldine.toml")
    patient = Patient(table=scenario.table, wounds=(Wound(0, Level(1), False),), pain=3)
    roll = TestRoll(RuleId.S1, "survival test", 2, (("Cp+Rs", 8.0),), 10.0, True)
    for value in (scenario, patient, roll):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value


_OBJECTS = r"""
import pickle, sys
from simulator.engine.trace import TraceLine
from simulator.engine.trial import run_trial
from simulator.rules.dice import TestRoll
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.patient import Patient, Wound
from simulator.scenario.reading import load_scenario

scenario = load_scenario("scenarios/geraldine.toml")
roll = TestRoll(RuleId.S1, "survival test", 2, (("Cp+Rs", 8),), 10, True)
objects = [  # what crosses to worker processes (scenarios, records) and the engine's data
    scenario,
    roll,
    TraceLine(3.5, RuleId.S1, "survival test passed", roll),
    run_trial(scenario, 3, 1),
]
if sys.argv[3] == "both ways":  # a compiled class that is no dataclass: compiled to pure
    objects.insert(3, Patient(table=scenario.table, wounds=(Wound(0, Level(1), False),), pain=3))
if sys.argv[1] == "dump":
    open(sys.argv[2], "wb").write(pickle.dumps(objects))
else:
    loaded = pickle.loads(open(sys.argv[2], "rb").read())
    # equal values (a compiled float field holds 10.0 where Python keeps 10); NaN is NaN
    assert loaded[:-1] == objects[:-1], loaded
    pairs = zip(loaded[-1].as_tuple(), objects[-1].as_tuple(), strict=True)
    assert all(a == b or (a != a and b != b) for a, b in pairs), loaded[-1]
    print("same")
"""


@pytest.mark.parametrize("dumper_pure", [False, True], ids=["compiled to pure", "pure to compiled"])
def test_a_pickle_of_one_engine_loads_in_the_other(tmp_path: Path, dumper_pure: bool):
    """A worker may run the other way (started after a source was edited): same pickles."""
    _needs_build()
    ways = "one way" if dumper_pure else "both ways"
    _python(_OBJECTS, "dump", str(tmp_path / "objects.pickle"), ways, pure=dumper_pure)
    loaded = _python(_OBJECTS, "load", str(tmp_path / "objects.pickle"), ways, pure=not dumper_pure)
    assert loaded == "same"


def test_no_compiled_module_lies_beside_the_sources():
    """One would shadow its source in pure Python; the build only writes in _native/."""
    from tools import build_native

    assert build_native.strays(native.PACKAGE) == []


def _damage_truncated(native_dir: Path, manifest: dict) -> None:
    library = native_dir / manifest["modules"][manifest["library"]]
    data = library.read_bytes()
    library.write_bytes(data[: len(data) // 2])  # loading it would die of SIGBUS


def _damage_empty(native_dir: Path, manifest: dict) -> None:
    module = next(m for m in manifest["modules"] if m != manifest["library"])
    (native_dir / manifest["modules"][module]).write_bytes(b"")


def _damage_manifest(native_dir: Path, manifest: dict) -> None:
    wrong = {**manifest, "sources": list(manifest["sources"])}  # a list, not a mapping
    (native_dir / "manifest.json").write_text(json.dumps(wrong), encoding="utf-8")


@pytest.mark.parametrize("damage", [_damage_truncated, _damage_empty, _damage_manifest])
def test_a_damaged_build_leaves_every_command_working_with_one_note(tmp_path: Path, damage):
    _needs_build()
    package = _copy(tmp_path)
    manifest = json.loads((package / "_native" / "manifest.json").read_text(encoding="utf-8"))
    damage(package / "_native", manifest)
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    run = ["run", "tiny.toml", "--trials", "20", "--workers", "1", "--no-figures"]
    for args in (["--help"], ["validate", "tiny.toml"], run):
        done = subprocess.run(
            [sys.executable, "-m", "simulator", *args],
            cwd=tmp_path,
            env=_environment(pure=False),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (args, done.returncode, done.stderr)
        notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
        assert len(notes) == 1 and "native build" in notes[0] and "make venv" in notes[0], (
            done.stderr
        )
        assert "Traceback" not in done.stderr
