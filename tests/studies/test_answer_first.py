"""The answer first (CONTRACT.md): a study tells its result before its files are drawn.

``told`` is called once the numbers are known and before any figure or ``summary.json`` is
written; the command line prints the answer there. Each study of the Python API, and the
command line, keep that order.
"""

from __future__ import annotations

from pathlib import Path

from simulator.studies import MonteCarlo, balance, run_compare, run_study, run_sweep, sensitivity
from tests.support import REPO, harmonies_sim

SCENARIO = REPO / "scenarios" / "lone_traveller.toml"
SMALL = MonteCarlo(trials=60, seed=3, workers=1)


def _seen(out: Path) -> list[str]:
    return (
        sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
    )


def test_run_study_tells_the_answer_before_any_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "run"
    at_told: list[list[str]] = []
    result = run_study(SCENARIO, SMALL, out=out, told=lambda r: at_told.append(_seen(out)))
    assert len(at_told) == 1
    assert not any(n.endswith((".png", ".svg", ".json", ".html")) for n in at_told[0]), at_told
    after = _seen(out)
    assert {"summary.json", "fate.png", "report.html"} <= set(after)
    assert result.summary_json()["trials"] == 60


def test_every_study_tells_its_result_before_its_figures(tmp_path: Path) -> None:
    calls = {
        "sweep": lambda out, told: run_sweep(
            SCENARIO, {"patient.cp_rs": [2, 6]}, SMALL, out=out, told=told
        ),
        "compare": lambda out, told: run_compare(
            SCENARIO, SCENARIO, SMALL, out=out, overrides_b=["ruleset=basic"], told=told
        ),
        "balance": lambda out, told: balance(
            SCENARIO, "patient.cp_rs=2..8", "p_dead=0.5", SMALL, out=out, told=told
        ),
        "sensitivity": lambda out, told: sensitivity(
            SCENARIO, SMALL, keys=["patient.cp_rs"], out=out, told=told
        ),
    }
    for name, call in calls.items():
        out = tmp_path / name
        at_told: list[list[str]] = []
        result = call(out, lambda r, out=out, at_told=at_told: at_told.append(_seen(out)))
        assert len(at_told) == 1, name
        assert not any(n.endswith((".png", ".svg")) for n in at_told[0]), (name, at_told)
        assert any(n.endswith(".png") for n in _seen(out)), (name, _seen(out))
        assert result is not None


def test_the_command_line_prints_the_table_before_the_figures(tmp_path: Path) -> None:
    done = harmonies_sim("run", SCENARIO, "--trials", "50", "--out", tmp_path / "o", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.lstrip().startswith("{") and (tmp_path / "o" / "fate.png").is_file()
