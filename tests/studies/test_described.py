"""A study description's finding writer: ``file.py:function`` or ``module:function``, and the
one-line error when it names neither (``simulator.scenario.described``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.scenario.described import read_extras

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "harmonies-sim"
WRITER = "def say(folder):\n    return 'written for ' + folder.name\n"


def description(folder: Path, writer: str) -> Path:
    """``folder/studies/solo.toml``: a description with only a finding, by ``writer``."""
    path = folder / "studies" / "solo.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[finding]\nheading = "Said."\nwriter = "{writer}"\n', encoding="utf-8")
    return path


def test_a_file_writer_is_found_relative_to_the_description(tmp_path, monkeypatch):
    (tmp_path / "writers").mkdir()
    (tmp_path / "writers" / "mine.py").write_text(WRITER, encoding="utf-8")
    extras = read_extras(description(tmp_path / "scenarios", "../../writers/mine.py:say"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # not the description's folder, not the file's
    extras.check()
    assert extras.finding(tmp_path / "out" / "solo") == "written for solo"


def test_the_repositorys_writer_as_a_file_is_the_packages_function(tmp_path):
    tool = REPO / "scenarios" / "studies" / "geraldine_finding.py"
    studies = tmp_path / "scenarios" / "studies"
    writer = f"{os.path.relpath(tool, studies)}:finding_in"  # ../../..(...)/scenarios/...
    found = read_extras(description(tmp_path / "scenarios", writer)).writer_function()
    assert found.__name__ == "finding_in" and Path(found.__code__.co_filename) == tool


def test_a_module_writer_is_imported_from_the_current_folder_as_a_console_script_would(
    tmp_path, monkeypatch
):
    """A console script's import path lacks the current folder (the bug ``python -m`` hid)."""
    (tmp_path / "harmonies_test_writer_here.py").write_text(WRITER, encoding="utf-8")
    extras = read_extras(description(tmp_path / "scenarios", "harmonies_test_writer_here:say"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert extras.finding(tmp_path / "solo") == "written for solo"
    assert "" not in sys.path and str(tmp_path) not in sys.path  # the path is left as it was


def test_the_repositorys_writer_is_a_file_beside_it_found_from_any_folder(tmp_path, monkeypatch):
    """The shipped description names its writer's file: the study runs from anywhere.

    It named ``tools.readme_finding:finding_in``, a module importable only from the
    repository's root: ``study`` run from another folder, or on a copy of ``scenarios/``,
    refused it.
    """
    from tools.readme_finding import finding_in  # the README's copy (imported from the root)

    copy = tmp_path / "copy"
    shutil.copytree(REPO / "scenarios", copy)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # not the repository's root: tools/ is not importable here
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(REPO))])
    extras = read_extras(copy / "studies" / "geraldine.toml")
    assert extras.writer == "geraldine_finding.py:finding_in"
    found = extras.writer_function()
    assert Path(found.__code__.co_filename) == copy / "studies" / "geraldine_finding.py"
    assert read_extras(REPO / "scenarios" / "studies" / "geraldine.toml").writer_function() is (
        finding_in
    )


BAD = [
    ("../nope.py:say", "expected file.py:function with a Python file relative to this "
     "description; {folder}/../nope.py is not a file"),
    ("../w.py:other", "expected a function 'other' in {folder}/../w.py"),
    ("../w.py:", "expected a function '' in {folder}/../w.py"),
    ("../broken.py:say", "expected a Python file that runs; {folder}/../broken.py: "
     "ZeroDivisionError: division by zero"),
    ("harmonies_no_such_module:say", "expected module:function importable from the current "
     "folder, or file.py:function (a Python file relative to this description)"),
    ("os:no_such_function", "expected module:function importable"),
    ("os:sep", "expected module:function importable"),  # not a function
    ("no colon", "expected module:function importable"),
]  # fmt: skip


@pytest.mark.parametrize(("writer", "expected"), BAD, ids=[w for w, _ in BAD])
def test_a_writer_that_names_no_function_is_one_error_naming_file_key_value(
    tmp_path, writer, expected
):
    folder = tmp_path / "scenarios"
    (tmp_path / "scenarios").mkdir()
    (folder / "w.py").write_text(WRITER, encoding="utf-8")
    (folder / "broken.py").write_text("x = 1 / 0\n", encoding="utf-8")
    path = description(folder, writer)
    extras = read_extras(path)
    with pytest.raises(UserError) as caught:
        extras.check()
    message = str(caught.value)
    assert message.startswith(f"{path}: finding.writer: got {writer!r}; ")
    assert expected.format(folder=path.parent) in message
    assert "\n" not in message


def study_with(folder: Path, writer: str) -> None:
    (folder / "scenarios").mkdir(parents=True)
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", folder / "scenarios" / "solo.toml")
    description(folder / "scenarios", writer)


@pytest.mark.skipif(not SCRIPT.exists(), reason="no console script in this environment")
def test_the_console_script_finds_a_module_writer_of_the_current_folder(tmp_path):
    study_with(tmp_path, "harmonies_test_writer_cwd:say")
    (tmp_path / "harmonies_test_writer_cwd.py").write_text(WRITER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [SCRIPT, "study", "scenarios", "--trials", "20", "--workers", "1", "--out", "out"],
        cwd=tmp_path, env={**env, "MPLBACKEND": "Agg"}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    index = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "**Said.** " in index and "\nwritten for solo\n" in index


@pytest.mark.skipif(not SCRIPT.exists(), reason="no console script in this environment")
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_console_script_refuses_a_bad_writer_in_one_line(tmp_path, lang):
    study_with(tmp_path, "../../nowhere.py:say")
    done = subprocess.run(
        [SCRIPT, "study", "scenarios", "--trials", "20", "--out", "out", "--lang", lang],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: scenarios/studies/solo.toml")
    said = {
        "en": ": finding.writer: got '../../nowhere.py:say'; expected file.py:function with a "
        "Python file relative to this description; scenarios/studies/../../nowhere.py is not "
        "a file",
        "fr": " : finding.writer : reçu '../../nowhere.py:say' ; attendu fichier.py:fonction avec "
        "un fichier Python relatif à cette description ; scenarios/studies/../../nowhere.py "
        "n'est pas un fichier",
    }
    assert lines[0].endswith(said[lang]), lines[0]
    assert not (tmp_path / "out").exists()


def test_unknown_keys_of_a_study_description_are_refused_each_on_its_line(tmp_path):
    path = tmp_path / "studies" / "typo.toml"
    path.parent.mkdir()
    shutil.copy(REPO / "scenarios" / "studies" / "geraldine.toml", path)
    text = path.read_text(encoding="utf-8")
    text = text.replace("share = 5", "sahre = 5").replace("[compare]", "[comapre]")
    text = text.replace('column = "level"', 'column = "level"\nkey = ["first_aid.level"]')
    path.write_text(text + "\n[finding.more]\nx = 1\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_extras(path)
    lines = str(caught.value).splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "comapre",
        "grid.sahre",
        "grid.axis[0].key",
        "finding.more",
    ], lines
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert "did you mean 'compare'?" in lines[0] and "did you mean 'share'?" in lines[1]
    assert "did you mean 'keys'?" in lines[2]
    clean = path.read_text(encoding="utf-8").replace("sahre", "share").replace("comapre", "compare")
    clean = clean.replace('\nkey = ["first_aid.level"]', "").replace(
        "\n[finding.more]\nx = 1\n", ""
    )
    path.write_text(clean, encoding="utf-8")
    assert read_extras(path).grid is not None  # the same file without the typos is read


def test_every_mistake_of_a_grid_and_a_comparison_is_told_with_its_axis(tmp_path):
    """A study description's mistakes, all at once, each naming the axis by its number: a
    share of 0, a value of the seconds axis without its unit, a column the first axis has
    (the CSV would hold one column for both), a comparison's side that is a list."""
    path = tmp_path / "studies" / "geraldine.toml"
    path.parent.mkdir()
    text = (REPO / "scenarios" / "studies" / "geraldine.toml").read_text(encoding="utf-8")
    text = text.replace("share = 5", "share = 0").replace('column = "every"', 'column = "level"')
    text = text.replace('"2min", "3min"', '"2", "3min"').replace("as_is = true", "as_is = [1, 2]")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_extras(path)
    lines = str(caught.value).splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "grid.share",
        "grid.axis[1].values",
        "grid.axis[1].column",
        "compare.as_is",
    ], lines
    assert "got '2'; expected a duration with its unit" in lines[1]
    assert "the CSV already has a column level" in lines[2]
    text = text.replace('column = "level"', 'column = "p_dead"', 1)
    text = text.replace('column = "stable_survival_tests"', 'column = "trials"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_extras(path)
    said = str(caught.value)
    assert "grid.axis[0].column: got 'p_dead'" in said
    assert "compare.column: got 'trials'" in said


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("def say(folder):\n    raise KeyError('no column p_dead')\n", "it raised KeyError: "),
        ("def say(folder):\n    return 3.5\n", "it returned float 3.5"),
        ("def say(folder):\n    return None\n", "it returned NoneType None"),
    ],
)
def test_a_writer_that_raises_or_returns_no_text_is_one_error(tmp_path, body, said):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "w.py").write_text(body, encoding="utf-8")
    extras = read_extras(description(folder, "../w.py:say"))
    extras.check()  # the function is there: only running it fails
    with pytest.raises(UserError) as caught:
        extras.finding(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{extras.path}: finding.writer: got '../w.py:say'; expected ")
    assert said in message and "\n" not in message


def test_a_description_no_scenario_reads_is_told_not_left_out_silently(tmp_path):
    """studies/geraldin.toml (a typo) and a folder named studies/hydra.toml are read by no
    scenario: the study says so in a note each, and runs."""
    folder = tmp_path / "sc"
    (folder / "studies").mkdir(parents=True)
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", folder)
    shutil.copy(REPO / "scenarios" / "studies" / "geraldine.toml", folder / "studies" / "lone.toml")
    (folder / "studies" / "lone_traveller.toml").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "study", "sc", "--trials", "20", "--workers", "1",
         "--no-figures", "--out", "o"],
        cwd=tmp_path, capture_output=True, text=True, env=os.environ | {"PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: sc/studies/lone.toml: left out; a study description is read beside the scenario "
        "of its own name, and sc has no lone.toml",
        "note: sc/studies/lone_traveller.toml: left out; a study description is a file",
    ], done.stderr


def test_a_description_that_is_not_utf8_says_so_as_a_scenario_does(tmp_path):
    path = tmp_path / "studies" / "x.toml"
    path.parent.mkdir()
    path.write_bytes(b'[grid]\nname = "caf\xe9"\n')
    with pytest.raises(UserError) as caught:
        read_extras(path)
    assert str(caught.value) == (
        f"{path}: (file): got '{path}'; expected a UTF-8 text file (its byte 0xe9 at line 2, "
        "column 12 is no UTF-8: the file was saved in another encoding, such as Latin-1 or "
        "Windows-1252; save it as UTF-8)"
    )


def test_a_description_saved_with_a_byte_order_mark_is_read_as_a_scenario_is(tmp_path):
    """Some editors begin a UTF-8 file with a BOM: a scenario file is read, a description was
    refused with tomllib's bare "Invalid statement (at line 1, column 1)"."""
    path = tmp_path / "studies" / "geraldine.toml"
    path.parent.mkdir()
    text = (REPO / "scenarios" / "studies" / "geraldine.toml").read_text(encoding="utf-8")
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert read_extras(path).grid is not None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "expected TOML nested a reasonable number"),
        ("x = " + "1" * 5000 + "\n", "expected valid TOML with numbers of a sensible size"),
        ("[grid]\nshare = 5 5\n", "line 2: got 'share = 5 5'; expected valid TOML: "),
    ],
    ids=["nested", "digits", "two-values"],
)
def test_a_description_that_is_no_toml_is_one_error_naming_it_not_a_traceback(tmp_path, text, said):
    """Arrays nested thousands deep and an integer of 5,000 digits went through as Python's
    RecursionError and ValueError: a traceback, exit 1."""
    path = tmp_path / "studies" / "x.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_extras(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and said in message and "\n" not in message


def test_a_description_longer_than_a_scenario_may_be_is_refused_unread(tmp_path):
    path = tmp_path / "studies" / "x.toml"
    path.parent.mkdir()
    path.write_text("# " + "x" * 1_000_000 + "\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_extras(path)
    assert str(caught.value).endswith("expected a study description of at most 1 MB")


def test_a_key_a_description_lacks_is_missing_not_none(tmp_path):
    """``got None`` is Python's word; TOML has no null: the key is missing."""
    path = tmp_path / "studies" / "x.toml"
    path.parent.mkdir()
    path.write_text('[grid]\nname = "g"\n[[grid.axis]]\nkeys = ["patient.cp_rs"]\n'
                    "values = [1, 2]\n", encoding="utf-8")  # fmt: skip
    with pytest.raises(UserError) as caught:
        read_extras(path)
    lines = str(caught.value).splitlines()
    assert f"{path}: grid.caption: missing; expected a text" in lines, lines
    assert "None" not in str(caught.value)
