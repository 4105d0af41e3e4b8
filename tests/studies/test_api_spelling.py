"""The Python API names what its caller wrote; the command line keeps its flags.

``run_study(G, MonteCarlo(trials=-5))`` said ``--trials: got -5``, ``overrides={...}`` said
``--set ...``, ``out=...`` said ``--out ...`` and ``grid={...}`` said ``--grid ...``: words a
notebook user never typed. Each is now told in the words of the call (``MonteCarlo(trials=...)``,
``overrides: KEY=VALUE``, ``out='...'``, ``grid["KEY"]``), and the same mistakes on the command
line in its own (``simulator.spelling``). A key the scenario does not know, swept over several
values, is told once, not once a value. Nothing runs: each call is refused before its first
trial.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.errors import CombinedUserError, HarmoniesNote, ScenarioError, UserError
from simulator.scenario import load_scenario
from simulator.spelling import COMMAND_LINE, PYTHON, python_api, spelled, spelling
from simulator.studies import (
    Exact,
    MonteCarlo,
    balance,
    calibrate,
    run_compare,
    run_directory,
    run_study,
    run_sweep,
    sensitivity,
)
from tests.support import told

GERALDINE = Path(__file__).resolve().parents[2] / "scenarios" / "geraldine.toml"
G = str(GERALDINE)
METHOD = MonteCarlo(trials=10, seed=0, workers=1)
ON = f"(on {G})"
UNKNOWN = "patient.nope: got 1; expected a known key; [patient] takes cp_rs, rs_it, profile, maxima"
NOT_AN_INTEGER = "patient.cp_rs: got 'abc'; expected an integer from -1000 to 1000"


def refused(call, kind: type[UserError] = UserError) -> list[str]:
    """The lines of the error ``call()`` raises (of class ``kind``)."""
    with pytest.raises(kind) as caught:
        call()
    return told(caught.value)


# --- the method's settings ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "line"),
    [
        (
            MonteCarlo(trials=-5),
            "MonteCarlo(trials=...): got -5; expected the number of trials, an integer from 1 "
            "to 1,000,000,000",
        ),
        (
            MonteCarlo(trials=10, seed=-1),
            "MonteCarlo(seed=...): got -1; expected a seed, an integer from 0 to "
            "9,223,372,036,854,775,807",
        ),
        (
            MonteCarlo(trials=10, workers=0),
            "MonteCarlo(workers=...): got 0; expected the number of workers (threads for the "
            "kernel, else processes), an integer from 1 to 512",
        ),
        (
            MonteCarlo(trials=10, chunk_size=0),
            "MonteCarlo(chunk_size=...): got 0; expected trials per chunk, an integer from 1 to "
            "1,000,000,000",
        ),
        (
            MonteCarlo(trials=10, backend="cloud"),  # type: ignore[arg-type]
            "MonteCarlo(backend=...): got 'cloud'; expected 'local' or 'dask'",
        ),
        (
            MonteCarlo(trials=10, scheduler="tcp://x:1"),
            "MonteCarlo(scheduler=...): got 'tcp://x:1'; only with MonteCarlo(backend='dask') "
            "(the local backend runs on this machine)",
        ),
        (Exact(eps=2), "Exact(eps=...): got 2; expected a probability between 0 and 1"),
        (Exact(max_states=0), "Exact(max_states=...): got 0; expected a positive whole number"),
        (
            Exact(time_budget=-1),
            "Exact(time_budget=...): got -1; expected a positive number of seconds",
        ),
        (  # a string was compared with 0: a TypeError, not the project's error
            Exact(time_budget="5s"),  # type: ignore[arg-type]
            "Exact(time_budget=...): got '5s'; expected a positive number of seconds",
        ),
    ],
)
def test_a_bad_setting_of_the_method_is_named_as_written(tmp_path, method, line):
    out = tmp_path / "o"
    assert refused(lambda: run_study(G, method, out=out)) == [line]
    assert refused(lambda: run_sweep(G, {"first_aid.level": [0, 1]}, method)) == [line]
    assert refused(lambda: run_compare(G, G, method)) == [line]
    assert not out.exists()  # refused before the folder was made


def test_the_settings_given_to_the_study_are_named_as_monte_carlos():
    lines = refused(lambda: run_study(G, trials=0, seed=-1), CombinedUserError)
    assert [line.split(":", 1)[0] for line in lines] == [
        "MonteCarlo(trials=...)",
        "MonteCarlo(seed=...)",
    ]


def test_too_many_trials_in_all_are_named_as_written():
    (line,) = refused(lambda: run_sweep(G, {"patient.cp_rs": [1, 2]}, MonteCarlo(10**9)))
    assert line.startswith("MonteCarlo(trials=...): got 1,000,000,000 for each of 2 studies")
    (line,) = refused(lambda: run_study(G, MonteCarlo(10**9, chunk_size=1)))
    assert line.startswith("MonteCarlo(chunk_size=...): got 1 for 1,000,000,000 trials")


# --- out= --------------------------------------------------------------------------------


def test_a_bad_out_is_named_as_written(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    calls = {
        "run_study": lambda out: run_study(G, METHOD, out=out),
        "run_sweep": lambda out: run_sweep(G, {"first_aid.level": [0]}, METHOD, out=out),
        "run_compare": lambda out: run_compare(G, G, METHOD, out=out),
    }
    for name, call in calls.items():
        (line,) = refused(lambda call=call: call(afile))
        assert line == (
            f"out={str(afile)!r}: not a directory we can write to (Not a directory); "
            "expected a folder path"
        ), name
        (line,) = refused(lambda call=call: call(""))
        assert line == "out: the path of the folder is empty; expected a path", name
    assert afile.read_text(encoding="utf-8") == "mine"


# --- overrides= ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides", [{"patient.cp_rs": "abc"}, ["patient.cp_rs=abc"], "patient.cp_rs=abc"]
)
def test_a_bad_override_is_named_as_written(overrides):
    line = f"overrides: patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}"
    assert refused(lambda: run_study(G, METHOD, overrides=overrides), ScenarioError) == [line]
    sweep = lambda: run_sweep(G, {"first_aid.level": [0]}, METHOD, overrides=overrides)  # noqa: E731
    assert refused(sweep, ScenarioError) == [line]
    assert refused(lambda: run_compare(G, G, METHOD, overrides=overrides), ScenarioError) == [line]


def test_an_override_of_bad_syntax_or_key_is_named_as_written():
    assert refused(lambda: run_study(G, METHOD, overrides=["nokey"]), ScenarioError) == [
        "overrides: nokey: got 'nokey'; expected KEY=VALUE with a dotted KEY, e.g. "
        "first_aid.level=3"
    ]
    assert refused(lambda: run_study(G, METHOD, overrides={"a..b": 1})) == [
        'overrides["a..b"]: expected a dotted key, e.g. first_aid.level'
    ]
    assert refused(lambda: run_study(G, METHOD, overrides={"a.b": None})) == [
        "overrides: got None; expected numbers, booleans or strings"
    ]


def test_the_overrides_of_one_side_are_named_as_written():
    lines = refused(
        lambda: run_compare(
            G,
            G,
            METHOD,
            overrides_a={"patient.cp_rs": "abc"},
            overrides_b=["patient.cp_rs=abc"],
        ),
        ScenarioError,
    )
    assert lines == [
        f"overrides_a: patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}",
        f"overrides_b: patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}",
    ]


def test_an_override_the_grid_replaces_is_noted_as_written():
    with pytest.warns(HarmoniesNote) as notes, pytest.raises(UserError):  # trials=0: no run
        run_sweep(G, {"first_aid.level": [0, 1]}, trials=0, overrides={"first_aid.level": 3})
    (said,) = [str(n.message) for n in notes if "the grid sets that key" in str(n.message)]
    assert said.startswith("overrides: first_aid.level=3: the grid sets that key at every point")
    assert "so this override changes nothing (it is left out" in said  # one of the overrides


def test_the_command_line_notes_an_override_the_grid_replaces_as_before():
    """10**9 trials at each of 2 points: refused after the note, before any trial."""
    result = CliRunner().invoke(
        main,
        ["sweep", G, "--grid", "first_aid.level=0,1", "--set", "first_aid.level=3", "--trials",
         "1000000000"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert (
        "--set first_aid.level=3: the grid sets that key at every point, so this --set changes "
        "nothing (it is left out of the points' labels)"
    ) in " ".join(result.output.split())


# --- grid= -------------------------------------------------------------------------------


def test_a_bad_grid_is_named_as_written():
    def sweep(grid):
        return lambda: run_sweep(G, grid, METHOD)

    assert refused(sweep({"patient.cp_rs": 3})) == [
        'grid["patient.cp_rs"]: got 3; expected a list of values'
    ]
    assert refused(sweep({"injuries.0.at": [1], "injuries[0].at": [2]})) == [
        'grid["injuries[0].at"]: the same key as grid["injuries.0.at"], given twice; expected '
        "each key once"
    ]
    (line,) = refused(sweep({"patient": [{}], "patient.cp_rs": [1]}))
    assert line.startswith('grid["patient.cp_rs"]: overlaps grid["patient"] (one is inside')
    (line,) = refused(sweep({}))
    assert line.startswith("grid: empty; expected at least one key and its values")
    (line,) = refused(sweep([("first_aid.level", [0])]))
    assert line.startswith("grid: got [('first_aid.level', [0])]; expected a mapping")
    (line,) = refused(sweep({"a": range(101), "b": range(101)}))
    assert line.startswith("grid: 10,201 points; expected at most 10,000")
    assert refused(sweep({"first_aid.level": [None]})) == [
        "grid: got None; expected numbers, booleans or strings"
    ]
    assert refused(sweep({3: [1]})) == [  # was an AttributeError of int.strip
        "grid: got 3; expected dotted scenario keys, e.g. patient.cp_rs"
    ]


def test_an_unknown_grid_key_is_told_once_not_once_a_value():
    lines = refused(lambda: run_sweep(G, {"patient.nope": [1, 2, 3]}, METHOD), ScenarioError)
    assert lines == [f"grid: patient.nope=1 {ON}: {UNKNOWN}"]
    deep = refused(lambda: run_sweep(G, {"first_aid.level.x": [1, 2]}, METHOD), ScenarioError)
    assert len(deep) == 1 and "is not a table" in deep[0], deep


def test_every_bad_value_of_a_grid_key_is_still_told():
    lines = refused(
        lambda: run_sweep(G, {"patient.cp_rs": ["x", 3, "y"], "patient.nope": [1, 2]}, METHOD),
        ScenarioError,
    )
    assert lines == [
        f"grid: patient.nope=1 {ON}: {UNKNOWN}",
        f"grid: patient.cp_rs=x {ON}: patient.cp_rs: got 'x'; expected an integer from -1000 to "
        "1000",
        f"grid: patient.cp_rs=y {ON}: patient.cp_rs: got 'y'; expected an integer from -1000 to "
        "1000",
    ]


# --- the command line keeps its words ------------------------------------------------------


def errors_of(*args: str) -> list[str]:
    """The ``error:`` lines of a command line refused (exit status 2)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    return [line for line in result.output.splitlines() if line.startswith("error: ")]


def test_the_command_line_keeps_its_flags(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    assert errors_of("run", G, "--trials", "10", "--workers", "0") == [
        "error: --workers: got 0; expected the number of workers (threads for the kernel, else "
        "processes), an integer from 1 to 512"
    ]
    assert errors_of("run", G, "--trials", "10", "--scheduler", "x") == [
        "error: --scheduler: got 'x'; only with --backend dask (the local backend runs on this "
        "machine)"
    ]
    assert errors_of("run", G, "--trials", "10", "--set", "patient.cp_rs=abc") == [
        f"error: --set patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}"
    ]
    assert errors_of("run", G, "--trials", "10", "--out", str(afile)) == [
        f"error: --out {afile}: not a directory we can write to (Not a directory); expected a "
        "folder path"
    ]
    assert errors_of("compare", G, G, "--trials", "10", "--set-b", "patient.cp_rs=abc") == [
        f"error: --set-b patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}"
    ]
    assert errors_of("run", G, "--exact", "--eps", "2") == [
        "error: --eps: got 2; expected a probability between 0 and 1"
    ]


def test_the_command_line_tells_an_unknown_grid_key_once():
    lines = errors_of("sweep", G, "--grid", "patient.nope=1,2", "--trials", "10")
    assert lines == [f"error: --grid patient.nope=1 {ON}: {UNKNOWN}"]
    assert errors_of("sweep", G, "--grid", "patient.cp_rs=a,b", "--trials", "10") == [
        f"error: --grid patient.cp_rs={v} {ON}: patient.cp_rs: got '{v}'; expected an integer "
        "from -1000 to 1000"
        for v in "ab"
    ]


# --- the spelling itself -----------------------------------------------------------------


def test_the_spelling_in_force_is_the_command_lines_unless_an_entry_point_chose():
    assert spelling() is COMMAND_LINE  # a function called directly: the words of before

    @python_api
    def entry() -> str:
        return spelling().option("trials")

    assert entry() == "MonteCarlo(trials=...)"
    with spelled(COMMAND_LINE):  # the command line runs its studies through the API
        assert entry() == "--trials"
    assert spelling() is COMMAND_LINE


def test_each_spelling_names_every_shape_of_an_option():
    assert (COMMAND_LINE.option("chunk_size"), PYTHON.option("chunk_size")) == (
        "--chunk-size",
        "MonteCarlo(chunk_size=...)",
    )
    assert (COMMAND_LINE.given("out", "r"), PYTHON.given("out", "r")) == ("--out r", "out='r'")
    assert (COMMAND_LINE.item("overrides_a", "k=1"), PYTHON.item("overrides_a", "k=1")) == (
        "--set-a k=1",
        "overrides_a: k=1",
    )
    assert (COMMAND_LINE.key("grid", "k"), PYTHON.key("grid", "k")) == ("--grid k", 'grid["k"]')
    assert PYTHON.item("--vary", "k=1") == "--vary k=1"  # a label of its own: as it is


# --- balance, sensitivity, calibrate, run_directory --------------------------------------

LONE = str(GERALDINE.with_name("lone_traveller.toml"))
CALIBRATION = str(GERALDINE.parents[1] / "calibrations" / "texts.toml")


def test_balance_names_its_arguments_as_written(tmp_path):
    def balancing(vary="patient.cp_rs=1..3", target="p_dead=0.2", **more):
        return lambda: balance(G, vary, target, METHOD, **more)

    (line,) = refused(balancing(vary="patient.cp_rs"))
    assert line.startswith("vary: got 'patient.cp_rs'; expected KEY=LOW..HIGH")
    assert refused(balancing(vary="name=1..3")) == [
        "vary: name: holds 'Géraldine after the ambush'; expected a key that holds an integer, "
        "a duration or a probability"
    ]
    assert refused(balancing(vary="patient.nope=1..3"), ScenarioError) == [
        f"vary: patient.nope=1 {ON}: {UNKNOWN}"
    ]
    assert refused(balancing(target="p_dead=2")) == [
        "target: got 'p_dead=2'; expected STAT=VALUE with a share from 0 to 1, e.g. "
        "p_dead_by_1d=0.2"
    ]
    (line,) = refused(balancing(target="p_dead=0,2"))
    assert line.startswith("target: got 'p_dead=0,2'; expected STAT=VALUE")
    (line,) = refused(balancing(target="p_nope=0.2"))
    assert line.startswith("target: got 'p_nope'; expected p_dead, p_healed")
    assert refused(balancing(target="p_dead_by_100w=0.2")) == [
        "target: p_dead_by_100w: 100w lies past the scenario's horizon (60d); expected a time "
        "within it (or a longer horizon: overrides: horizon=100w)"
    ]
    assert refused(balancing(overrides=["patient.rs_it=abc"]), ScenarioError) == [
        f"overrides: patient.rs_it=abc {ON}: patient.rs_it: got 'abc'; expected an integer "
        "from -1000 to 1000"
    ]
    for scan in (1, 0, "3", True):  # scan=1 divided by zero after the ends had been computed
        assert refused(balancing(scan=scan)) == [
            f"scan: got {scan!r}; expected an integer of 2 or more, the values evaluated "
            "across the range (both ends included)".replace("True", "true")
        ]
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    (line,) = refused(balancing(out=afile))
    assert line.startswith(f"out={str(afile)!r}: not a directory we can write to")


def test_sensitivity_names_its_arguments_as_written(tmp_path):
    def ranking(**given):
        return lambda: sensitivity(G, METHOD, **given)

    (line,) = refused(ranking(stat="p_nope"))
    assert line.startswith("stat: got 'p_nope'; expected p_dead, p_healed")
    (line,) = refused(ranking(stat="p_dead_by_100w"))
    assert line.startswith("stat: p_dead_by_100w: 100w lies past the scenario's horizon")
    assert line.endswith("(or a longer horizon: overrides: horizon=100w)")
    assert refused(ranking(keys=["patient.nope"])) == [
        "keys: patient.nope: the scenario has no such key; expected a dotted key of the "
        "scenario (as overrides takes it), e.g. rules.table.grave.pain or patient.cp_rs"
    ]
    assert refused(ranking(keys=[])) == ["keys: expected at least one key"]
    assert refused(ranking(keys=[3])) == [  # was an AttributeError of int.removeprefix
        "keys: got 3; expected dotted scenario keys, e.g. patient.cp_rs"
    ]
    (line,) = refused(ranking(stat=3))  # was an AttributeError of int.strip
    assert line.startswith("stat: got 3; expected p_dead, p_healed")
    assert refused(ranking(notch=["patient.cp_rs"])) == [
        "notch: got 'patient.cp_rs'; expected KEY=DOWN,UP, e.g. patient.cp_rs=5,7"
    ]
    assert refused(ranking(notch=["patient.cp_rs=x,y"])) == [
        "notch: patient.cp_rs: got 'x,y'; expected DOWN,UP, two values of the key's kind (integer)"
    ]
    (line,) = refused(ranking(keys=["patient.cp_rs"], notch=["patient.cp_rs=100,200"]))
    assert line.startswith("notch: patient.cp_rs: got 100,200 around 8; expected DOWN at most")
    (line,) = refused(ranking(keys=["rules.table.grave.max"], overrides=["patient.maxima.grave=3"]))
    assert line.startswith("keys: rules.table.grave.max: the scenario's [patient.maxima] gives")
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    (line,) = refused(ranking(keys=["patient.cp_rs"], out=afile))
    assert line.startswith(f"out={str(afile)!r}: not a directory we can write to")


def test_calibrate_and_run_directory_name_out_as_written(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    said = f"out={str(afile)!r}: not a directory we can write to (Not a directory); expected a "
    assert refused(lambda: calibrate(CALIBRATION, METHOD, out=afile)) == [said + "folder path"]
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "g.toml").write_text(GERALDINE.read_text(encoding="utf-8"), encoding="utf-8")
    assert refused(lambda: run_directory(folder, METHOD, out=afile)) == [said + "folder path"]
    assert afile.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(
    ("rounds", "shown"), [(0, "0"), (-1, "-1"), (2.5, "2.5"), ("3", "'3'"), (True, "true")]
)
def test_calibrate_refuses_rounds_that_search_nothing(rounds, shown, tmp_path):
    """rounds=0 or -1 returned the first guesses as found; nothing is claimed or written."""
    out = tmp_path / "out"
    assert refused(lambda: calibrate(CALIBRATION, METHOD, out=out, rounds=rounds)) == [
        f"rounds: got {shown}; expected an integer of 1 or more, the search's generations at most"
    ]
    assert not out.exists()


# --- a result's save, load_scenario -------------------------------------------------------


def test_a_results_save_names_out_as_written(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    result = run_study(G, METHOD)
    (line,) = refused(lambda: result.save(afile))
    assert line.startswith(f"out={str(afile)!r}: not a directory we can write to")
    with spelled(COMMAND_LINE):  # the command line saves through the same method
        (line,) = refused(lambda: result.save(afile))
    assert line.startswith(f"--out {afile}: not a directory we can write to")


def test_load_scenario_names_its_overrides_as_written():
    assert refused(lambda: load_scenario(G, ["patient.cp_rs=abc"]), ScenarioError) == [
        f"overrides: patient.cp_rs=abc {ON}: {NOT_AN_INTEGER}"
    ]
    assert refused(lambda: load_scenario(G, ["nokey"]), ScenarioError) == [
        "overrides: nokey: got 'nokey'; expected KEY=VALUE with a dotted KEY, e.g. "
        "first_aid.level=3"
    ]


# --- the exact engine's advice -------------------------------------------------------------


def test_the_exact_engines_advice_names_what_python_changes():
    (line,) = refused(lambda: run_study(G, Exact(max_states=10)))
    assert line.endswith(
        "11 states in all, over Exact(max_states=...) (10); raise Exact(max_states=...) or "
        "Exact(eps=...), shorten the horizon (overrides: horizon=...), or use Monte Carlo "
        "(MonteCarlo(...) instead of Exact(...))"
    )
    (line,) = refused(lambda: run_study(LONE, Exact(time_budget=1e-9)))
    assert "; raise Exact(time_budget=...) or Exact(eps=...), shorten the horizon" in line


def test_the_exact_note_on_dropped_probability_names_eps_as_written():
    with pytest.warns(HarmoniesNote) as notes:
        run_study(LONE, Exact(eps=0.5), figures=False)
    (said,) = [str(n.message) for n in notes if "dropped" in str(n.message)]
    assert said.endswith(
        "of the probability (states below Exact(eps=0.5)): each share may be that much higher; "
        "lower Exact(eps=...)"
    )


# --- the command line keeps its words (balance, sensitivity, the exact engine) ------------


def test_the_command_line_keeps_the_flags_of_balance_and_sensitivity():
    assert errors_of("balance", G, "--vary", "name=1..3", "--target", "p_dead=0.2") == [
        "error: --vary name: holds 'Géraldine after the ambush'; expected a key that holds an "
        "integer, a duration or a probability"
    ]
    assert errors_of("balance", G, "--vary", "patient.cp_rs=1..3", "--target", "p_dead=2") == [
        "error: --target: got 'p_dead=2'; expected STAT=VALUE with a share from 0 to 1, e.g. "
        "p_dead_by_1d=0.2"
    ]
    assert errors_of("sensitivity", G, "--keys", "patient.nope") == [
        "error: --keys patient.nope: the scenario has no such key; expected a dotted key of the "
        "scenario (as --set takes it), e.g. rules.table.grave.pain or patient.cp_rs"
    ]
    assert errors_of("sensitivity", G, "--stat", "p_dead_by_100w") == [
        "error: --stat p_dead_by_100w: 100w lies past the scenario's horizon (60d); expected a "
        "time within it (or a longer horizon: --set horizon=100w)"
    ]
    notch = ("--keys", "patient.cp_rs", "--notch", "patient.cp_rs=100,200")
    assert errors_of("sensitivity", G, *notch) == [
        "error: --notch patient.cp_rs: got 100,200 around 8; expected DOWN at most and UP at "
        "least the scenario's value (the table labels them one notch down and one notch up)"
    ]


def test_the_command_line_keeps_the_exact_engines_advice(tmp_path):
    out = str(tmp_path / "o")
    result = CliRunner().invoke(main, ["run", G, "--exact", "--max-states", "10", "--out", out])
    assert result.exit_code != 0, result.output
    assert (
        "11 states in all, over --max-states (10); raise --max-states or --eps, shorten the "
        "horizon (--set horizon=...), or use Monte Carlo (drop --exact)"
    ) in result.output
    french = CliRunner().invoke(
        main, ["run", G, "--exact", "--max-states", "10", "--lang", "fr", "--out", out]
    )
    assert (
        "au-delà de --max-states (10) ; augmentez --max-states ou --eps, raccourcissez "
        "l'horizon (--set horizon=...), ou passez en Monte-Carlo (sans --exact)"
    ) in french.output, french.output
    noted = CliRunner().invoke(main, ["run", LONE, "--exact", "--eps", "0.5", "--no-figures",
                                      "--out", out])  # fmt: skip
    assert noted.exit_code == 0, noted.output
    assert "(states below --eps 0.5): each share may be that much higher; lower --eps" in (
        " ".join(noted.output.split())
    )


@pytest.mark.parametrize("given", [3, None])
def test_a_path_that_is_no_path_is_told_not_a_type_error(given):
    """``load_scenario(3)`` and ``out=3`` were TypeErrors from ``open()`` deep inside."""
    assert refused(lambda: load_scenario(given)) == [
        f"got {given}; expected a scenario file's path"
    ]


def test_an_out_that_is_no_path_is_told_not_a_type_error():
    assert refused(lambda: run_study(G, METHOD, out=3)) == [
        "out=3: expected a folder path, a text or a pathlib.Path"
    ]
    with spelled(COMMAND_LINE):
        assert refused(lambda: run_study(G, METHOD, out=3)) == [
            "--out 3: expected a folder path, a text or a pathlib.Path"
        ]
