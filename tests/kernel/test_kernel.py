"""The compiled rules kernel keeps the laws of the SimPy reference engine (issues 18, 29).

For each scenario of ``scenarios/`` (the basic ruleset and mental wounds included) and for
each kind of skipped run of ``tests/kernel/test_fast_engine.py``, a few thousand trials of the
kernel are compared with the event-by-event engine on SimPy (two-sample tests of
``tests/support/same_laws.py``: outcome and cause shares, times of death, healing and
stabilisation, every count; fixed seeds, tolerance from the standard error). The same
functions run as plain Python give byte-identical records and traces; the numbers do not
depend on workers or chunk sizes; and no module of the engine or of the kernel compares a
level or a priority with a bare number.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simulator.engine.trace import format_trace
from simulator.kernel import engine as kernel
from simulator.rules import codes
from simulator.rules.cause import CAUSES
from simulator.rules.levels import Level
from simulator.rules.outcome import OUTCOMES
from simulator.runner.engines import run_trial, trace_trial
from simulator.scenario.reading import load_scenario
from tests.kernel.test_fast_engine import HORIZONS, RUNS
from tests.support.made_up import MADE_UP, made_up
from tests.support.same_laws import cause_differences, differences

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
KERNEL_N, REFERENCE_N = 20_000, 2_500
KERNEL_SEED, REFERENCE_SEED = 20261218, 20261219


def _scenario(path: Path):
    sc = load_scenario(path)
    if path.stem in HORIZONS:
        sc = dataclasses.replace(sc, horizon=HORIZONS[path.stem])
    return sc


def _agree(sc) -> list[str]:
    ours = kernel.kernel_records(sc, KERNEL_SEED, 0, KERNEL_N)
    reference = [run_trial(sc, i, REFERENCE_SEED, kernel=False) for i in range(REFERENCE_N)]
    return differences(ours, reference) + cause_differences(ours, reference)


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=str)
def test_each_scenario_has_the_laws_of_the_simpy_engine(path: Path):
    assert _agree(_scenario(path)) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(RUNS))
def test_each_kind_of_skipped_run_has_the_laws_of_the_simpy_engine(kind: str):
    assert _agree(RUNS[kind]) == []


@pytest.mark.slow  # the two-sample comparison of the slow tests above, at their size
def test_a_different_law_is_caught_against_the_reference():
    # The same comparison sees first aid one level better (it can fail).
    sc = _scenario(ROOT / "scenarios" / "geraldine.toml")
    better = dataclasses.replace(
        sc, first_aid=dataclasses.replace(sc.first_aid, level=sc.first_aid.level + 1)
    )
    ours = kernel.kernel_records(better, KERNEL_SEED, 0, KERNEL_N)
    reference = [run_trial(sc, i, REFERENCE_SEED, kernel=False) for i in range(REFERENCE_N)]
    assert any("first_aid_attempts" in line for line in differences(ours, reference))


PLAIN_SCRIPT = """
import json, sys
import numpy as np
from simulator.kernel import engine as kernel
from simulator.engine.trace import format_trace
from simulator.scenario.reading import load_scenario
from tests.kernel.test_fast_engine import RUNS
from tests.support.made_up import MADE_UP, made_up
out = {}
for name in sys.argv[1:]:
    sc = RUNS[name] if name in RUNS else made_up(name) if name in MADE_UP else load_scenario(name)
    columns = kernel.kernel_columns(sc, 7, 100, 160)
    out[name] = {
        "compiled": kernel.COMPILED,
        "columns": {k: v.tobytes().hex() for k, v in columns.items()},
        "trace": format_trace(kernel.kernel_trace(sc, 7, 103)[1]),
    }
print(json.dumps(out))
"""


def _run_plain(names: list[str], plain: bool) -> dict:
    env = {**os.environ, "HARMONIES_NO_JIT": "1" if plain else "0"}
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_SCRIPT, *names],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.compiled
def test_compiled_and_plain_python_give_byte_identical_records_and_traces():
    names = [
        str(ROOT / "scenarios" / "careless_watches.toml"),
        str(ROOT / "scenarios" / "hydra.toml"),
        str(ROOT / "scenarios" / "geraldine.toml"),
        str(ROOT / "scenarios" / "geraldine_basic.toml"),
        str(ROOT / "scenarios" / "shaken.toml"),
        "first aid with a limit and faints",
        "runs broken by watches and healing",
        *MADE_UP,
    ]
    plain, compiled = _run_plain(names, True), _run_plain(names, False)
    for name in names:
        assert plain[name]["compiled"] is False and compiled[name]["compiled"] is True
        assert plain[name]["columns"] == compiled[name]["columns"], name
        assert plain[name]["trace"] == compiled[name]["trace"], name


def test_the_trace_tells_the_trial_of_run_and_the_chunk():
    sc = load_scenario(ROOT / "scenarios" / "careless_watches.toml")
    columns = kernel.kernel_columns(sc, 5, 0, 40)
    for trial in (3, 17, 39):
        record, lines = trace_trial(sc, seed=5, trial=trial)
        assert record.outcome == OUTCOMES[int(columns["outcome"][trial])]
        assert record.survival_tests == columns["survival_tests"][trial]
        assert record.first_aid_attempts == columns["first_aid_attempts"][trial]
        assert record.end_h == columns["end_h"][trial]
        told = format_trace(lines)
        assert told.count("horizon reached") + told.count("dead") + told.count("healed") >= 1


@pytest.mark.parametrize("name", ["geraldine", "geraldine_basic", "shaken"])
def test_same_seed_same_numbers_for_one_and_two_workers_and_two_chunk_sizes(name: str):
    from simulator.studies.api import run_study

    path = ROOT / "scenarios" / f"{name}.toml"
    frames = [
        run_study(path, trials=1200, seed=9, workers=w, chunk_size=c, figures=False).trials
        for w, c in ((1, 1200), (2, 250), (1, 700))
    ]
    for frame in frames[1:]:
        assert frame.equals(frames[0])
    assert frames[0]["trial"].tolist() == list(range(1200))


# --- no bare numbers for levels and priorities ---------------------------------------------
MEANINGFUL = ("level", "lv", "prio", "priority", "rank")
CHECKED = [
    *sorted((ROOT / "simulator" / "engine").glob("*.py")),
    *sorted((ROOT / "simulator" / "kernel").glob("*.py")),
    ROOT / "simulator" / "rules" / "rows.py",
]


def bare_comparisons(source: str) -> list[str]:
    """``lv < 3``, ``prio == 2``: comparisons of a level or a priority with a number literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(
            any(word in ast.unparse(side).lower() for word in MEANINGFUL)
            for side in sides
            if not isinstance(side, ast.Constant)
        )
        number = any(
            isinstance(side, ast.Constant) and isinstance(side.value, int | float) for side in sides
        )
        if named and number:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_bare_number_check_catches_what_it_should():
    assert bare_comparisons("if lv < 3:\n    pass\n")
    assert bare_comparisons("ok = w[W_LEVEL, i] > 0\n")
    assert bare_comparisons("x = prio == 2\n")
    assert not bare_comparisons("x = prio == PRIO_INJURY\nn = count > 0\n")


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.name)
def test_no_engine_or_kernel_module_compares_a_level_or_priority_with_a_number(path: Path):
    assert bare_comparisons(path.read_text()) == []


def test_the_kernel_codes_are_the_project_enums():
    assert [(level.name, int(level)) for level in codes.Lv] == [
        (level.name, int(level)) for level in Level
    ]
    assert [o.name.lower() for o in codes.Out] == list(OUTCOMES)
    assert [c.name.lower() for c in codes.Why][1:] == list(CAUSES)[: len(codes.Why) - 1]
    from simulator.engine import clock

    for prio in codes.Prio:
        assert getattr(clock, f"PRIO_{prio.name}") == prio


@pytest.mark.parametrize("name", ["hydra", "shaken", *MADE_UP])
def test_numbers_do_not_depend_on_the_batch(name: str):
    sc = made_up(name) if name in MADE_UP else load_scenario(ROOT / "scenarios" / f"{name}.toml")
    whole = kernel.kernel_columns(sc, 3, 0, 300)
    parts = [kernel.kernel_columns(sc, 3, a, b) for a, b in ((0, 1), (1, 120), (120, 300))]
    for name, column in whole.items():
        assert np.array_equal(np.concatenate([p[name] for p in parts]), column, equal_nan=True)
    _ = json  # (the plain run's output is JSON)


def test_typing_without_literals_is_skipped_on_a_numba_without_its_internals():
    """``jit._one_signature`` leans on a dispatcher's ``get_call_template``: where a numba has
    none, the function is left as numba made it (compiled per literal), never broken."""
    from types import SimpleNamespace

    from simulator.kernel import jit

    pytest.importorskip("numba")
    bare = SimpleNamespace()
    jit._one_signature(bare)  # no get_call_template: nothing to wrap, no error
    assert not hasattr(bare, "get_call_template")
    seen = []
    wrapped = SimpleNamespace(get_call_template=lambda args, kws: seen.append((args, kws)))
    jit._one_signature(wrapped)
    from numba.core import types

    wrapped.get_call_template((types.literal(21), types.float64), {"k": types.literal(3)})
    assert seen == [((types.int64, types.float64), {"k": types.int64})]
