"""The command-line library's usage errors read as the project's own: one ``error:`` line, exit 2.

``--lang xx``, an unknown option, a missing argument (and the like) print exactly one line,
starting ``error:`` (with click's did-you-mean hint where one fits), and no usage block.
"""

from __future__ import annotations

import pytest

from tests.support import harmonies_sim

CASES = {
    "lang": (("run", "scenarios/lone_traveller.toml", "--lang", "xx"), "'xx'"),
    "lang-odds": (("odds", "--lang", "de"), "'de'"),
    "unknown option": (("run", "scenarios/lone_traveller.toml", "--trails", "5"), "--trials"),
    "unknown option, French": (("trace", "scenarios/geraldine.toml", "--lang", "fr", "--tral", "1"),
                               "--tral"),
    "missing argument": (("run",), "SCENARIO"),
    "missing argument of trace": (("trace", "--lang", "fr"), "SCENARIO"),
    "unknown command": (("rn", "scenarios/geraldine.toml"), "'run'"),
    "an exact limit without --exact": (("run", "scenarios/lone_traveller.toml", "--max-states",
                                        "10"), "--max-states: given without --exact"),
    "a time budget of none": (("sweep", "scenarios/lone_traveller.toml", "--exact", "--grid",
                               "first_aid.level=1,2", "--time-budget", "0"),
                              "--time-budget: got 0; expected a positive"),  # as typed
    "an eps too small for a float": (("run", "scenarios/lone_traveller.toml", "--exact", "--eps",
                                      "1e-400"), "--eps: got 1e-400; expected a probability"),
    "a cluster for an exact answer": (("run", "scenarios/lone_traveller.toml", "--exact",
                                      "--backend", "dask"), "--backend: given with --exact"),
    "a decimal comma": (("run", "scenarios/lone_traveller.toml", "--exact", "--eps", "0,01"),
                        "'0,01' is not a number; write it with a decimal point: 0.01"),
    "not a number": (("run", "scenarios/lone_traveller.toml", "--exact", "--time-budget", "x"),
                     "--time-budget': 'x' is not a number."),
    "not a whole number": (("run", "scenarios/lone_traveller.toml", "--trials", "1,5"),
                           "--trials': '1,5' is not a whole number."),
    "a thousands separator": (("run", "scenarios/lone_traveller.toml", "--trials", "2 000"),
                              "'2 000' is not a whole number; write it without separators: 2000"),
    "a trial before the first": (("trace", "scenarios/geraldine.toml", "--trial", "-1"),
                                 "-1 is not a whole number of at least 0."),
    "a port past the last": (("serve", "scenarios", "--port", "70000", "--no-open"),
                             "70000 is not a whole number from 0 to 65,535."),
    "a trial past the last": (("trace", "scenarios/geraldine.toml", "--trial",
                               "9223372036854775808"), "is not a whole number from 0 to 9,223,"),
    "a thousand or one": (("run", "scenarios/lone_traveller.toml", "--exact", "--time-budget",
                           "1,000"), "write 1.000 for a decimal, or 1000 without separators"),
    "a space for the =": (("run", "scenarios/lone_traveller.toml", "--set", "first_aid.level",
                           "3"), "(3); --set takes KEY=VALUE as one word: --set first_aid.level=3"),
    "a grid's space": (("sweep", "scenarios/lone_traveller.toml", "--grid", "first_aid.level",
                        "0,3"), "--grid takes KEY=VALUE as one word: --grid first_aid.level=0,3"),
    "a space before the =": (("run", "scenarios/lone_traveller.toml", "--set", "first_aid.level",
                              "=3"), "as one word: --set first_aid.level=3 (see"),
    "a negative value": (("run", "scenarios/lone_traveller.toml", "--set", "healing.modifier",
                          "-2"), "No such option '-2'; --set takes KEY=VALUE as one word: "
                         "--set healing.modifier=-2 (see"),
    "a value with a space": (("run", "scenarios/lone_traveller.toml", "--set", "name",
                              "Mon scénario"), "as one word: --set name='Mon scénario' (see"),
}  # fmt: skip


def one_error_line(args: tuple[str, ...]) -> str:
    """The one line a refused command line prints (exit status 2, nothing on stdout)."""
    done = harmonies_sim(*args)
    assert done.returncode == 2, (args, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert done.stdout == ""
    return lines[0]


@pytest.mark.parametrize("name", list(CASES))
def test_one_error_line_and_exit_2(name):
    args, named = CASES[name]
    line = one_error_line(args)
    assert named in line and "Usage:" not in line


FRENCH = {
    "unknown option": (("run", "scenarios/lone_traveller.toml", "--lang", "fr", "--trails", "5"),
                       "Option inconnue '--trails'. Vouliez-vous dire '--trials' ?"),
    "missing argument": (("trace", "--lang", "fr"), "Argument manquant 'SCENARIO'."),
    "unknown command": (("rn", "--lang", "fr"),
                        "Commande inconnue 'rn'. Vouliez-vous dire 'run' ?"),
    "bad choice": (("run", "scenarios/lone_traveller.toml", "--lang", "fr", "--backend", "x"),
                   "n'est pas l'une de"),
    "not a number": (("run", "scenarios/lone_traveller.toml", "--lang", "fr", "--trials", "x"),
                     "'x' n'est pas un nombre entier."),
    "a decimal comma": (("sweep", "scenarios/lone_traveller.toml", "--exact", "--lang", "fr",
                         "--grid", "first_aid.level=1,2", "--eps", "0,5"),
                        "'0,5' n'est pas un nombre ; écrivez-le avec un point décimal : 0.5"),
    "a port past the last": (("serve", "--lang", "fr", "--port", "70000", "--no-open"),
                             "70000 n'est pas un nombre entier de 0 à 65\u202f535."),
    "a space for the =": (("run", "scenarios/lone_traveller.toml", "--lang", "fr", "--set",
                           "first_aid.level", "3"),
                          "--set prend CLÉ=VALEUR d'un seul tenant : --set first_aid.level=3"),
}  # fmt: skip
"""Click's usage errors under ``--lang fr``: the line click would print, in French."""


@pytest.mark.parametrize("name", list(FRENCH))
def test_click_speaks_french(name):
    args, french = FRENCH[name]
    line = one_error_line(args)
    assert french in line, line
    for english in ("No such", "Missing", "Did you mean", "Invalid value", "is not", "see "):
        assert english not in line, (english, line)


def test_french_help_keeps_its_bound_spaces_on_one_line():
    """click wraps help at spaces: "97,7 %" and "Options :" must not be split or lose a space."""
    from tests.support import harmonies_sim as run

    done = run("run", "--help", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "Options\u00a0:" in done.stdout and "Options:" not in done.stdout
    assert "97,7\u00a0%" in done.stdout
    assert not any(line.strip().startswith(("%", ":", ";")) for line in done.stdout.splitlines())
    english = run("run", "--help")
    assert "Options:" in english.stdout and "\u00a0" not in english.stdout


def test_every_bad_setting_is_said_at_once():
    """CONTRACT: one error: line per problem; --trials 0 --seed -1 --workers 0 said all three."""
    done = harmonies_sim("run", "scenarios/lone_traveller.toml", "--trials", "0", "--seed", "-1",
                         "--workers", "0", "--chunk-size", "0")  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    flags = [line.split(":")[1].strip() for line in lines]
    assert flags == ["--trials", "--seed", "--chunk-size", "--workers"]
    assert all(line.startswith("error: ") for line in lines)
    exact = harmonies_sim("run", "scenarios/lone_traveller.toml", "--exact", "--backend", "dask",
                          "--trials", "5")  # fmt: skip
    assert exact.returncode == 2
    assert [line.split(":")[1].strip() for line in exact.stderr.splitlines()] == [
        "--trials",
        "--backend",
    ]
