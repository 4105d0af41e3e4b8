"""The command line's own user errors read in French under ``--lang fr``.

Each typical mistake prints one ``error:`` line, exit 2, in English by default and in French
under ``--lang fr``: the English line holds every word of a list, the French line none of
them (the flags, file names and values the user typed stay as written).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import harmonies_sim

pytestmark = pytest.mark.integration  # commands end to end: make test, not make check

SCENARIO = "scenarios/lone_traveller.toml"

CASES = {
    "eps": (
        ("run", SCENARIO, "--exact", "--eps", "2"),
        ["got", "expected", "probability", "between"],
    ),
    "max-states": (
        ("run", SCENARIO, "--exact", "--max-states", "0"),
        ["got", "expected", "positive whole number"],
    ),
    "exact refused by its states": (
        ("run", "scenarios/careless_watches.toml", "--exact", "--max-states", "50"),
        [
            "the exact computation",
            "of them still to follow when it stopped",
            "campaign time",
            "raise",
            "drop",
        ],
    ),
    "trials": (
        ("run", SCENARIO, "--trials", "0"),
        ["got", "expected", "the number of trials", "integer from"],
    ),
    "seed": (("run", SCENARIO, "--seed", "-1"), ["got", "expected", "a seed", "integer from"]),
    "workers": (
        ("run", SCENARIO, "--trials", "10", "--workers", "0"),
        ["got", "expected", "the number of workers", "else processes"],
    ),
    "exact with trials": (
        ("run", SCENARIO, "--exact", "--trials", "10"),
        ["given with", "expected", "one or the other", "no trials"],
    ),
    "missing scenario file": (
        ("run", "no_such_scenario.toml"),
        ["got", "expected", "existing scenario file", "no such file"],
    ),
    "missing folder for study": (
        ("study", "no_such_folder"),
        ["expected", "directory", "scenario files"],
    ),
    "empty folder for study": (("study", "{empty}"), ["no scenario files", "in it"]),
    "set an unknown key": (
        ("run", SCENARIO, "--set", "foo.bar=1"),
        ["got", "expected", "known key"],
    ),
    "grid without values": (
        ("sweep", SCENARIO, "--grid", "foo"),
        ["got", "expected", "with a dotted KEY", "e.g."],
    ),
    "target out of range": (
        ("balance", SCENARIO, "--vary", "patient.cp_rs=3..9", "--target", "p_dead=2"),
        ["got", "expected", "share from", "e.g."],
    ),
    "keys unknown": (
        ("sensitivity", SCENARIO, "--keys", "no.such"),
        ["the scenario has no such key", "expected", "dotted key"],
    ),
    "output folder holding a user's files": (
        ("run", SCENARIO, "--trials", "10", "--out", "{foreign}"),
        ["the folder holds", "did not write", "expected", "choose another"],
    ),
    "trace --find an outcome the scenario cannot have": (
        ("trace", SCENARIO, "--find", "healed"),
        ["no trial of this scenario can end", "there is no healer", "only a healer's session"],
    ),
    "trace --find an end the basic rules cannot reach (B1, B4)": (
        ("trace", "scenarios/geraldine_basic.toml", "--find", "dead"),
        ["no trial of this scenario can end", "no blow kills", "healing roll", "at worst"],
    ),
    "trace --find healed within a horizon shorter than a heal period": (
        ("trace", "scenarios/field_medic.toml", "--find", "healed"),
        ["the patient receives", "critical wound", "at the soonest", "after the horizon"],
    ),
    "trace --find incoherent where mental wounds never worsen (M3)": (
        ("trace", "scenarios/shaken.toml", "--find", "incoherent"),
        ["mental wounds received", "never fill", "never worsens"],
    ),
    "trace --find healed after lighter wounds' rests broken by graver ones (R4, S3)": (
        (
            "trace",
            SCENARIO,
            "--find",
            "healed",
            "--set",
            'injuries=[{{at="0s", level="light"}}, {{at="1d", level="grave"}}, '
            '{{at="2d", level="critical"}}]',  # braces doubled: the case is formatted
            "--set",
            "patient.cp_rs=40",
            "--set",
            'first_aid={{level=40, start="0s", interval="5min"}}',
            "--set",
            "healing={{level=8}}",
            "--set",
            "horizon=35d",
        ),
        ["falls within any rest", "starts again from zero", "no survival or activity test"],
    ),
    "serve a missing folder": (
        ("serve", "no_such_folder", "--no-open"),
        ["no such scenario file or folder", "expected", "or a folder"],
    ),
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An empty folder, and a folder holding a file of the user's."""
    root = tmp_path_factory.mktemp("french-errors")
    (root / "empty").mkdir()
    (root / "foreign").mkdir()
    (root / "foreign" / "notes.txt").write_text("mine\n", encoding="utf-8")
    return {"empty": root / "empty", "foreign": root / "foreign"}


def one_error_line(args: tuple[str, ...], lang: str) -> str:
    done = harmonies_sim(*args, "--lang", lang)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def english_words_in_french(args: tuple[str, ...], words: list[str]) -> list[str]:
    english = one_error_line(args, "en")
    assert all(word in english for word in words), (english, words)
    french = one_error_line(args, "fr")
    return [word for word in words if word.lower() in french.lower()]


@pytest.mark.parametrize("name", list(CASES))
def test_a_user_mistake_reads_in_french(name: str, folders: dict[str, Path]) -> None:
    args, words = CASES[name]
    args = tuple(arg.format(**folders) for arg in args)
    assert not english_words_in_french(args, words)


def test_an_output_folder_holding_another_changed_result(tmp_path: Path) -> None:
    out = tmp_path / "earlier"
    first = harmonies_sim("run", SCENARIO, "--exact", "--out", out, "--no-figures")
    assert first.returncode == 0, first.stderr
    with (out / "summary.json").open("a", encoding="utf-8") as file:
        file.write("\n")  # the user's edit: not the tool's to remove any more
    args = ("run", SCENARIO, "--trials", "10", "--out", str(out), "--no-figures")
    words = ["earlier result", "changed since", "move it away", "choose another"]
    assert not english_words_in_french(args, words)


def test_serve_on_a_port_in_use_reads_in_french() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        args = ("serve", "scenarios/lone_traveller.toml", "--port", port, "--no-open")
        assert not english_words_in_french(
            args, ["got", "cannot listen on", "expected", "free port"]
        )
