"""The study notebooks run top to bottom at small size, and are committed without outputs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tools import run_notebooks as notebooks

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = {
    "01_survival_odds": ["survival-odds/death-by-wound-and-help.csv"],
    "02_balancing_the_table": ["balancing/grave-period-and-pain.csv"],
    "03_rulebook_charts": ["rulebook/README.md"],
    "04_three_sentences_at_once": ["calibrating/three-sentences.csv"],
}
RULEBOOK = ("odds", "survival-by-wound-and-help", "time-to-heal")
TEST_TRIALS = 200
"""Small enough for the three notebooks to run in well under 90 s on two cores."""


def test_the_three_notebooks_are_there():
    assert [p.stem for p in notebooks.notebook_paths()] == list(NOTEBOOKS)


@pytest.mark.parametrize("path", notebooks.notebook_paths(), ids=lambda p: p.stem)
def test_committed_without_outputs(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], (
                f"{path.name}: strip it (python -m tools.run_notebooks --strip)"
            )
            assert cell["execution_count"] is None


@pytest.mark.parametrize("path", notebooks.notebook_paths(), ids=lambda p: p.stem)
def test_parameters_cell_near_the_top(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    first = code[0]
    for name in ("HARMONIES_TRIALS", "HARMONIES_OUT", "HARMONIES_WORKERS", "HARMONIES_SEED"):
        assert name in first, f"{path.name}: the first code cell should read {name}"
    # only the public API: no private names, no engine internals
    for source in code:
        assert "simulator.engine" not in source
        assert "from simulator._" not in source


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, float]]:
    """Run every notebook once, small, into one output directory (cwd elsewhere)."""
    pytest.importorskip("nbclient", reason="needs the notebooks extra")
    out = tmp_path_factory.mktemp("notebooks-out")
    seconds = {}
    for path in notebooks.notebook_paths():
        start = time.perf_counter()
        notebook = notebooks.execute(path, TEST_TRIALS, out, timeout=300, workers=1)
        seconds[path.stem] = time.perf_counter() - start
        errors = [
            output
            for cell in notebook.cells
            if cell.cell_type == "code"
            for output in cell.outputs
            if output.output_type == "error"
        ]
        assert not errors, f"{path.name}: {errors}"
        images = sum(
            "image/png" in output.get("data", {})
            for cell in notebook.cells
            if cell.cell_type == "code"
            for output in cell.outputs
        )
        assert images >= 3, f"{path.name}: expected its figures in the outputs, got {images}"
    return out, seconds


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_notebooks_run_and_write_their_tables(executed):
    out, seconds = executed
    for name, files in NOTEBOOKS.items():
        for file in files:
            assert (out / file).is_file(), f"{name} did not write {file}"
    assert sum(seconds.values()) < 240, seconds


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_rulebook_exports(executed):
    out, _ = executed
    rulebook = out / "rulebook"
    for stem in RULEBOOK:
        for suffix in ("svg", "png", "csv", "md"):
            path = rulebook / f"{stem}.{suffix}"
            assert path.is_file() and path.stat().st_size > 0, path
        assert (rulebook / f"{stem}.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
        assert (rulebook / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (rulebook / f"{stem}.md").read_text(encoding="utf-8").startswith("| ")
    for stem in RULEBOOK:  # the same exports in French
        for suffix in ("svg", "png", "csv", "md"):
            assert (rulebook / "fr" / f"{stem}.{suffix}").is_file(), stem
        french = (rulebook / "fr" / f"{stem}.md").read_text(encoding="utf-8")
        assert "\u202f%" in french and french != (rulebook / f"{stem}.md").read_text("utf-8")
    assert "Chance de réussite" in (rulebook / "fr" / "odds.svg").read_text(encoding="utf-8")
    for folder in (rulebook, rulebook / "fr"):
        chart = (folder / "odds.svg").read_text(encoding="utf-8")
        # the tick at 0 reads "+0", as the table beside it does, not "0" among "−2" and "+2"
        assert ">+0</text>" in chart and ">0</text>" not in chart
        # the markers drawn whole, not clipped by the axes: those at 0% and 100% were cut in half
        assert "<g clip-path=" not in chart
    odds = pd.read_csv(rulebook / "odds.csv")
    assert list(odds["modifier"]) == list(range(-12, 13))
    assert odds.loc[odds["modifier"] == 0, "p_success"].item() == pytest.approx(0.55)
    survival = pd.read_csv(rulebook / "survival-by-wound-and-help.csv")
    assert len(survival) == 12
    assert (survival["p_survive_low"] <= survival["p_survive"]).all()
    assert (survival["p_survive"] <= survival["p_survive_high"]).all()
    # small size: exact where the exact engine's small budget allows, sampled elsewhere
    assert set(survival["method"]) == {"exact", "monte-carlo"}
    sampled = survival[survival["method"] == "monte-carlo"]
    exact = survival[survival["method"] == "exact"]
    assert (sampled["trials"] == TEST_TRIALS).all() and exact["trials"].isna().all()
    assert (exact["p_survive_high"] - exact["p_survive_low"] < 1e-6).all()
    table = (rulebook / "survival-by-wound-and-help.md").read_text(encoding="utf-8")
    assert table.count("(") == len(sampled)  # an interval for the sampled cells only
    assert "| 0.00% |" in table  # no first aid: exact, to two decimals


def test_kernel_env_carries_the_settings(tmp_path: Path):
    env = notebooks.kernel_env(123, tmp_path / "x", workers=2, seed=7)
    assert env["HARMONIES_TRIALS"] == "123"
    assert Path(env["HARMONIES_OUT"]).is_absolute()
    assert env["HARMONIES_WORKERS"] == "2"
    assert env["HARMONIES_SEED"] == "7"
    assert env["PYTHONPATH"].split(":")[0] == str(REPO)
    assert "HARMONIES_WORKERS" not in notebooks.kernel_env(1, tmp_path)


def test_strip_removes_outputs(tmp_path: Path):
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# hello"),
            nbformat.v4.new_code_cell(
                "1 + 1",
                execution_count=3,
                outputs=[nbformat.v4.new_output("execute_result", {"text/plain": "2"})],
            ),
        ]
    )
    path = tmp_path / "n.ipynb"
    nbformat.write(notebook, path)
    assert not notebooks.is_stripped(nbformat.read(path, as_version=4))
    assert notebooks.strip_files([path]) == [path]
    assert notebooks.is_stripped(nbformat.read(path, as_version=4))
    assert notebooks.strip_files([path]) == []


def test_check_stripped_command():
    pytest.importorskip("nbformat")
    done = subprocess.run(
        [sys.executable, "-m", "tools.run_notebooks", "--check-stripped"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_markdown_table():
    from simulator.report import markdown_table

    frame = pd.DataFrame({"wound": ["light", "grave"], "chance": ["12.5%", "3%"]})
    assert markdown_table(frame) == (
        "| wound | chance |\n|---|---:|\n| light | 12.5% |\n| grave | 3% |\n"
    )
