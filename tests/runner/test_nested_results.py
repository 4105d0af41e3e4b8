"""A result written inside another result's folder: every order is safe, nothing is lost.

``run --out R/sub`` where R holds another result (and the other way round) is allowed: the
committed layout itself nests results (``results/runs/<stem>`` of a plain ``run``,
``results/calibrating/texts`` inside the main study's ``results/``). R's marker never lists
R/sub, so R replaced, resumed or done again never touches it, and R/sub's presence neither
refuses nor changes R's result. The one case refused: a study whose scenario folder
(``<out>/<stem>``) holds another command's result, which it would otherwise replace whole.

In-process claims first (fast), then the real command line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.files import atomic_write
from simulator.runner import outdir
from tests.support import harmonies_sim, tiny_scenario


def result(out: Path, text: str, identity: str | None = None) -> None:
    """A whole result of one file, ``a.txt``, as a command writes it into ``out``."""
    outdir.claim(out, ["a.txt"], identity=identity)
    atomic_write(out / "a.txt", lambda tmp: tmp.write_text(text, encoding="utf-8"))
    outdir.record(out, [out / "a.txt"], complete=True)


def files(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_result_inside_another_then_the_outer_one_again(tmp_path):
    outer, inner = tmp_path / "R", tmp_path / "R" / "sub"
    result(outer, "outer")
    result(inner, "inner")
    kept = files(inner)
    for identity in (None, "another", "another"):  # replaced, replaced, the same again
        result(outer, f"outer {identity}", identity)
        assert files(inner) == kept
        assert outdir.read_marker(outer)["folders"] == []  # never the outer result's own
    assert (outer / "a.txt").read_text(encoding="utf-8") == "outer another"


def test_the_inner_result_first_then_the_outer_one(tmp_path):
    """R/sub first: R holds nothing but another result of the tool's, so R may be a result."""
    outer, inner = tmp_path / "R", tmp_path / "R" / "sub"
    result(inner, "inner")
    result(tmp_path / "R" / "runs" / "x", "deeper")  # a folder of results: results/runs/x
    kept = files(outer)
    for identity in (None, "another"):
        result(outer, "outer", identity)
        assert {p: b for p, b in files(outer).items() if p in kept} == kept
    assert sorted(p.name for p in outer.iterdir()) == [outdir.MARKER, "a.txt", "runs", "sub"]


@pytest.mark.parametrize("beside", ["notes.txt", "empty", "damaged", "link"])
def test_a_users_file_beside_an_inner_result_still_makes_the_folder_the_users(tmp_path, beside):
    outer = tmp_path / "R"
    result(outer / "sub", "inner")
    if beside == "notes.txt":
        (outer / beside).write_text("mine", encoding="utf-8")
    elif beside == "empty":
        (outer / beside).mkdir()
    elif beside == "damaged":
        (outer / beside).mkdir()
        (outer / beside / outdir.MARKER).write_text("not json", encoding="utf-8")
    else:
        (outer / beside).symlink_to(outer / "sub", target_is_directory=True)
    kept = files(outer)
    with pytest.raises(UserError, match="the folder holds files harmonies-sim did not write"):
        outdir.claim(outer, ["a.txt"])
    assert files(outer) == kept
    assert not (outer / outdir.MARKER).exists()


def test_a_studys_folder_holding_another_result_is_refused_the_studys_own_is_not(tmp_path):
    top = tmp_path / "T"
    result(top / "a", "a run's")
    for check in (outdir.check_claim, outdir.claim):
        with pytest.raises(UserError, match="holds another result of harmonies-sim, not one of"):
            check(top / "a", ["a.txt"], within=top)
    assert (top / "a" / "a.txt").read_text(encoding="utf-8") == "a run's"
    outdir.check_claim(top / "a", ["a.txt"])  # given as --out itself: replaced, as ever
    outdir.claim(top, [], with_folders=True)  # the study's own folder, listing "b"
    outdir.claim(top / "b", ["a.txt"], within=top)
    outdir.record(top / "b", [], complete=True)
    outdir.record(top, [], complete=True)
    assert outdir.read_marker(top)["folders"] == ["b"]
    outdir.check_claim(top / "b", ["a.txt"], within=top)  # its own: taken again


# --- through the command line -----------------------------------------------------------------

FAST = ("--trials", "8", "--workers", "1", "--no-figures", "--quiet")


def cli(*args: str, cwd: Path):
    done = harmonies_sim(*args, cwd=cwd)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    folder = tmp_path / "sc"
    folder.mkdir()
    for stem, level in (("a", 0), ("b", 3)):
        text = tiny_scenario(first_aid_level=level)
        (folder / f"{stem}.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.integration
def test_every_order_of_a_run_inside_a_run_loses_nothing(tmp_path, scenarios):
    run = ("run", "sc/a.toml", *FAST)
    assert cli(*run, "--out", "R", cwd=tmp_path).returncode == 0
    assert cli(*run, "--seed", "2", "--out", "R/sub", cwd=tmp_path).returncode == 0
    inner = files(tmp_path / "R" / "sub")
    for seed in ("0", "3"):  # the same result again, then another
        again = cli(*run, "--seed", seed, "--out", "R", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert files(tmp_path / "R" / "sub") == inner
        summary = json.loads((tmp_path / "R" / "summary.json").read_text(encoding="utf-8"))
        assert summary["seed"] == int(seed)
    # the other order: the inner result first
    assert cli(*run, "--seed", "2", "--out", "Q/sub", cwd=tmp_path).returncode == 0
    inner = files(tmp_path / "Q" / "sub")
    for seed in ("0", "3"):
        done = cli(*run, "--seed", seed, "--out", "Q", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert files(tmp_path / "Q" / "sub") == inner
    again = cli(*run, "--seed", "4", "--out", "Q/sub", cwd=tmp_path)  # the inner one replaced
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "Q" / "summary.json").read_text(encoding="utf-8"))["seed"] == 3


@pytest.mark.integration
def test_make_runs_layout_keeps_the_runs_written_beside_and_before_the_study(tmp_path, scenarios):
    """``study --out results`` writes results/<stem>; a run's default results/runs/<stem>
    (made before the study, or after) and ``--out results/x`` stay allowed and untouched."""
    run = ("run", "sc/a.toml", *FAST)
    assert cli(*run, "--out", "results/runs/a", cwd=tmp_path).returncode == 0  # before
    study = ("study", "sc", *FAST)
    done = cli(*study, "--out", "results", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert cli(*run, "--out", "results/x", cwd=tmp_path).returncode == 0  # beside, after
    kept = {**files(tmp_path / "results" / "runs"), **files(tmp_path / "results" / "x")}
    assert len(kept) >= 8  # each run's marker and its result's files
    for seed in ("5", "0"):  # another study, then the first again
        done = cli(*study, "--seed", seed, "--out", "results", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert {p: p.read_bytes() for p in kept} == kept
    assert outdir.read_marker(tmp_path / "results")["folders"] == ["a", "b"]


@pytest.mark.integration
def test_a_study_over_another_commands_result_in_its_scenario_folder_is_refused(
    tmp_path, scenarios
):
    run = ("run", "sc/b.toml", *FAST, "--seed", "7")
    study = ("study", "sc", *FAST)
    assert cli(*run, "--out", "T/b", cwd=tmp_path).returncode == 0  # before the study
    before = files(tmp_path / "T")
    refused = cli(*study, "--out", "T", cwd=tmp_path)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out T/b: the folder holds another")
    assert files(tmp_path / "T") == before
    # after the study: a run into a folder the study does not (yet) list, then a scenario
    # of that name added to the study
    (scenarios / "b.toml").rename(tmp_path / "b.toml")
    assert cli(*study, "--out", "S", cwd=tmp_path).returncode == 0
    assert cli("run", "b.toml", *FAST, "--out", "S/b", cwd=tmp_path).returncode == 0
    (tmp_path / "b.toml").rename(scenarios / "b.toml")
    before = files(tmp_path / "S")
    refused = cli(*study, "--seed", "2", "--out", "S", cwd=tmp_path)
    assert refused.returncode == 2 and "--out S/b: the folder holds another" in refused.stderr
    assert files(tmp_path / "S") == before  # refused before the earlier study was removed
    refused_fr = cli(*study, "--lang", "fr", "--out", "S", cwd=tmp_path)
    assert refused_fr.returncode == 2 and "contient un autre résultat" in refused_fr.stderr
