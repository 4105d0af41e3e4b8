"""An error or a note is one line, whatever the paths and values it quotes hold.

A scenario file or an ``--out`` named with a newline would split one ``error:`` line in two,
and a script that reads one line per error would read two. Control characters are written
as Python writes them in a string (``\\n``, ``\\x1b``), as a value's repr already is.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner

from simulator.cli.app import main
from simulator.cli.common import one_line

SCENARIO = "scenarios/lone_traveller.toml"


def stderr_lines(*args: str) -> list[str]:
    """The lines on stderr of a refused command line (exit status 2)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, (result.output, result.exception)
    return result.stderr.splitlines()


def test_a_scenario_file_named_with_a_newline_gives_one_line_per_problem(tmp_path):
    path = tmp_path / "a\nb.toml"
    path.write_text('name = "x"\n', encoding="utf-8")
    lines = stderr_lines("validate", str(path))
    assert len(lines) == 3  # horizon, patient.cp_rs, patient.rs_it: one line each
    assert all(line.startswith(f"error: {tmp_path}/a\\nb.toml: ") for line in lines), lines


def test_a_missing_file_named_with_a_newline_is_one_line_in_french(tmp_path):
    lines = stderr_lines("run", str(tmp_path / "no\nwhere.toml"), "--lang", "fr")
    assert len(lines) == 1 and lines[0].startswith(f"error: {tmp_path}/no\\nwhere.toml : ")


def test_an_out_folder_named_with_a_newline_is_one_line(tmp_path):
    (tmp_path / "file").write_text("", encoding="utf-8")
    lines = stderr_lines("run", SCENARIO, "--trials", "10", "--quiet", "--no-figures",
                         "--out", str(tmp_path / "file" / "o\nut"))  # fmt: skip
    assert len(lines) == 1 and lines[0].startswith(f"error: --out {tmp_path}/file/o\\nut: ")


def test_a_set_value_with_a_newline_is_one_line():
    lines = stderr_lines("validate", SCENARIO, "--set", "name=a\nb")
    assert lines == [
        f"error: --set name=a\\nb (on {SCENARIO}): name: got 'a\\nb'; expected a non-empty "
        "string, in quotes, on one line"
    ]


def test_a_usage_error_quoting_a_newline_is_one_line():
    lines = stderr_lines("run", SCENARIO, "extra\nword")
    assert len(lines) == 1 and "(extra\\nword)" in lines[0]


def test_a_note_naming_a_file_with_a_newline_is_one_line(tmp_path):
    (tmp_path / "odd\nname.TOML").write_text("", encoding="utf-8")
    lines = stderr_lines("study", str(tmp_path), "--out", str(tmp_path / "o"))
    notes = [line for line in lines if line.startswith("note: ")]
    assert notes == [f"note: {tmp_path}/odd\\nname.TOML: left out; a scenario file's name ends "
                     "in .toml, in lower case"]  # fmt: skip
    assert [line for line in lines if not line.startswith("note: ")] == [
        f"error: {tmp_path}: no scenario files (*.toml) in it"
    ]


def test_one_line_escapes_what_breaks_or_rules_a_line_and_keeps_the_rest():
    assert one_line("a\nb\r\tc\x1b[31m\x85\u2028\u2029\u202e") == (
        "a\\nb\\r\\tc\\x1b[31m\\x85\\u2028\\u2029\\u202e"
    )
    french = "97,7\u202f% ; Géraldine\u00a0: 1\u2009000"
    assert one_line(french) == french  # no-break spaces and accents stay


def test_validate_says_ok_of_a_file_named_with_a_newline_on_one_line(tmp_path):
    path = tmp_path / "a\nb.toml"
    path.write_text((Path(SCENARIO)).read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [result.stdout.rstrip("\n")]
    assert result.stdout.startswith(f"ok: {tmp_path}/a\\nb.toml: ")
    shown = CliRunner().invoke(main, ["validate", str(path), "--show"])
    assert shown.exit_code == 0, shown.output
    tomllib.loads(shown.stdout)  # the comment naming the file stays a comment
    assert shown.stdout.splitlines()[0] == f"# {tmp_path}/a\\nb.toml, as it will be simulated"
