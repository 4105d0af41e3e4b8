"""``calibrate``: recovery of known values, infeasible targets, and its files.

Recovery: three shipped scenarios of a week or less, three free keys (the grave wound's
unstable period and mortality, the first-aid level); the targets are the exact statistics at
known values; calibrated from the whole ranges, every target is met within its tolerance,
which the calibrated files confirm when run again exactly. Infeasible: two targets on the
same statistic and scenario that are further apart than their tolerances can never both be
met: the answer says "not met" for at least one, never a false "met", and names the other as
pulling against it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from simulator.rules.levels import Level
from simulator.scenario.keys import Key, Kind
from simulator.scenario.reading import load_scenario, read_scenario_mapping
from simulator.studies.calibrate_file import read_calibration
from simulator.studies.calibrate_study import calibrate
from simulator.studies.method import Exact
from simulator.studies.statistic import Statistic
from tests.support import harmonies_sim

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"

FREE = """
[[free]]
key = "rules.table.grave.unstable_period"
low = "5min"
high = "1h"
[[free]]
key = "rules.table.grave.mortality"
low = 1
high = 6
[[free]]
key = "first_aid.level"
low = 2
high = 8
"""

TARGETS = (
    # (scenario, stat, set): a day or two of each keeps every exact evaluation short
    ("lone_traveller", "p_dead_by_1d", ["first_aid.start=5min", "first_aid.interval=5min"]),
    ("hydra", "p_dead", ["horizon=2d"]),
    (
        "field_medic",
        "p_dead",
        ['injuries.0.level="grave"', "patient.cp_rs=3", "first_aid.start=5min",
         "first_aid.interval=5min", "horizon=1d"],
    ),
)  # fmt: skip

TRUTH = {
    "rules.table.grave.unstable_period": 600.0,
    "rules.table.grave.mortality": 3,
    "first_aid.level": 5,
}
TOLERANCE = 0.005


def target_toml(scenario: str, stat: str, value: float, sets: list[str], tol: float) -> str:
    return (
        f'[[target]]\nscenario = "{(SCENARIOS / scenario).with_suffix(".toml").as_posix()}"\n'
        f'stat = "{stat}"\nvalue = {value!r}\ntolerance = {tol!r}\nset = {json.dumps(sets)}\n'
    )


def exact_truth() -> list[float]:
    """Each target's exact statistic at the known values."""
    kinds = {"rules.table.grave.unstable_period": Kind.DURATION}
    settings = [Key(k, kinds.get(k, Kind.INTEGER)).setting(v) for k, v in TRUTH.items()]
    found = []
    for scenario, stat, sets in TARGETS:
        path = SCENARIOS / f"{scenario}.toml"
        built = load_scenario(path, [*sets, *settings])
        found.append(Exact()([built], Statistic.parse(stat))[0].stat)
    return found


@pytest.fixture(scope="module")
def recovered(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recovery")
    truth = exact_truth()
    text = 'name = "Recovery"\n' + FREE
    for (scenario, stat, sets), value in zip(TARGETS, truth, strict=True):
        text += target_toml(scenario, stat, round(value, 6), sets, TOLERANCE)
    path = folder / "recovery.toml"
    path.write_text(text, encoding="utf-8")
    result = calibrate(path, Exact(), out=folder / "out")
    return result, truth, folder / "out"


@pytest.mark.slow
def test_recovery_meets_every_target_within_its_tolerance(recovered):
    result, truth, _ = recovered
    assert result.method == "exact"
    assert result.met
    for target, reached, value in zip(
        result.calibration.targets, result.reached, truth, strict=True
    ):
        assert abs(reached.stat - value) <= TOLERANCE
        assert result.met_target(target)
    data = result.to_json()
    assert set(data) >= {"name", "method", "met", "free", "targets", "evaluations", "sensitivity"}
    assert data["met"] is True and all(t["met"] for t in data["targets"])
    assert {"key", "value", "low", "high"} <= set(data["free"][0])
    assert {"scenario", "stat", "value", "tolerance", "reached", "ci", "met"} <= set(
        data["targets"][0]
    )
    assert len(data["sensitivity"]) == 3 * 3
    assert data["evaluations"] >= 3  # every target at least once
    frame = result.targets_frame()  # targets.csv: counted from 0, labelled from #1
    assert list(frame["target"]) == [0, 1, 2]
    assert [label.split()[0] for label in frame["label"]] == ["#1", "#2", "#3"]


@pytest.mark.slow
def test_recovery_writes_the_folder_and_the_calibrated_files_run_to_the_reported_values(
    recovered,
):
    result, _, out = recovered
    names = {p.name for p in out.iterdir()}
    assert {"calibration.csv", "targets.csv", "evaluations.parquet", "report.html"} <= names
    page = (out / "report.html").read_text(encoding="utf-8")
    for caption in ("Free keys", "Targets", "Sensitivity at the solution"):
        assert caption in page  # tables worded for a person, not the CSV files dumped
    assert "Other tables" not in page and '<th scope="col">per_notch</th>' not in page
    assert '<th scope="col">wanted</th>' in page
    assert {"calibrate_search.png", "calibrate_sensitivity.png"} <= names
    assert {f"{s}.calibrated.toml" for s, _, _ in TARGETS} <= names
    free = {f.key.name for f in result.calibration.free}
    for target, reached in zip(result.calibration.targets, result.reached, strict=True):
        path = out / f"{target.scenario.stem}.calibrated.toml"
        # only the keys somebody typed: the file's own, its target's set and the free ones
        typed = _keys(read_scenario_mapping(target.scenario))
        typed |= {text.split("=", 1)[0] for text in target.overrides} | free
        assert _keys(read_scenario_mapping(path)) <= typed
        checked = harmonies_sim("validate", path)
        assert checked.returncode == 0, checked.stderr
        again = Exact()([load_scenario(path)], target.stat)[0].stat
        assert again == pytest.approx(reached.stat, abs=1e-12)
    # the command line's run --exact gives the same (one of them: a fresh interpreter)
    first = result.calibration.targets[1]
    ran = harmonies_sim(
        "run", out / f"{first.scenario.stem}.calibrated.toml", "--exact", "--json",
        "--no-figures", "--out", out.parent / "run-exact",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["p_dead"] == pytest.approx(result.reached[1].stat, abs=1e-12)


def _keys(data: object, prefix: str = "") -> set[str]:
    """A TOML document's keys, dotted (``injuries.0.level``), leaves only."""
    if isinstance(data, dict):
        return {k for key, v in data.items() for k in _keys(v, f"{prefix}{key}.")}
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        return {k for i, v in enumerate(data) for k in _keys(v, f"{prefix}{i}.")}
    return {prefix[:-1]}


def infeasible_file(tmp_path: Path) -> Path:
    sets = ["first_aid.start=5min", "first_aid.interval=5min", "first_aid.level=4"]
    text = 'name = "Two wishes"\n[[free]]\nkey = "rules.table.grave.unstable_period"\n'
    text += 'low = "5min"\nhigh = "1h"\n'
    text += target_toml("lone_traveller", "p_dead_by_1d", 0.05, sets, 0.01)
    text += target_toml("lone_traveller", "p_dead_by_1d", 0.15, sets, 0.01)
    path = tmp_path / "two.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_infeasible_targets_are_not_met_and_pull_against_each_other(tmp_path):
    result = calibrate(infeasible_file(tmp_path), Exact(), out=tmp_path / "out")
    assert not result.met
    low, high = result.reached
    assert low.stat == high.stat  # one scenario, one statistic
    # both cannot be within 0.01 of 0.05 and of 0.15: at least one is not met, and
    # the compromise (equal tolerances) lies between them
    met = [result.met_target(t) for t in result.calibration.targets]
    assert not all(met)
    for target, reached in zip(result.calibration.targets, result.reached, strict=True):
        assert result.met_target(target) == (abs(reached.stat - target.value) <= 0.01)
    assert 0.05 < low.stat < 0.15
    pulls = {(c["target"], c["against"]) for c in result.conflicts}
    unmet = [i for i, ok in enumerate(met) if not ok]
    assert pulls == {(i, 1 - i) for i in unmet}  # each one not met: the other pulls against it


def test_infeasible_on_the_command_line_exits_0_saying_not_met(tmp_path):
    ran = harmonies_sim("calibrate", infeasible_file(tmp_path), "--out", tmp_path / "o", "--json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    assert data["met"] is False
    assert not all(t["met"] for t in data["targets"])
    assert data["method"] == "exact"  # every target is exact within its budget
    text = harmonies_sim("calibrate", infeasible_file(tmp_path), "--out", tmp_path / "o")
    assert text.returncode == 0, text.stderr
    assert "not met" in text.stdout and re.search(r"pulls? against", text.stdout)


def test_the_same_command_again_resumes_from_the_saved_evaluations(tmp_path):
    path = infeasible_file(tmp_path)
    first = calibrate(path, Exact(), out=tmp_path / "out")
    again = calibrate(path, Exact(), out=tmp_path / "out")
    assert again.resumed == first.evaluations
    assert again.to_json()["free"] == first.to_json()["free"]


def test_an_interrupted_calibration_says_it_resumes_as_balance_does(tmp_path):
    """After Ctrl-C, the same command reads the kept evaluations back and says so, as
    ``balance`` and ``sensitivity`` do (a ``note: resuming: ...`` line); a finished one run
    again reads them back without a word."""
    import warnings

    from simulator.errors import HarmoniesNote

    path, out = infeasible_file(tmp_path), tmp_path / "out"

    def stop(step: object) -> None:
        raise KeyboardInterrupt  # after the first round, its evaluations saved

    with pytest.raises(KeyboardInterrupt):
        calibrate(path, Exact(), out=out, figures=False, progress=stop)
    assert (out / "evaluations.parquet").is_file()
    with pytest.warns(HarmoniesNote, match="resuming: the evaluations") as told:
        again = calibrate(path, Exact(), out=out, figures=False)
    assert again.resumed > 0
    assert f"({again.resumed} of them" in str(told[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HarmoniesNote)
        assert calibrate(path, Exact(), out=out, figures=False).resumed == again.evaluations


def test_the_reader_takes_the_contract_example(tmp_path):
    text = (
        'name = "The wound table, 2027 edition"\n[[free]]\n'
        'key = "rules.table.grave.unstable_period"\nlow = "5min"\nhigh = "2h"\n'
        f'[[target]]\nscenario = "{(SCENARIOS / "lone_traveller.toml").as_posix()}"\n'
        'stat = "p_dead_by_1d"\nvalue = 0.5\nset = ["first_aid.level=0", '
        '"first_aid.start=5min", "first_aid.interval=5min"]\n'
    )
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    cal = read_calibration(path)
    assert cal.targets[0].tolerance == 0.005  # the default
    percent = path.read_text(encoding="utf-8").replace("value = 0.5", 'value = "50%"')
    assert percent != path.read_text(encoding="utf-8")
    path.with_name("percent.toml").write_text(percent + 'tolerance = "1%"\n', encoding="utf-8")
    shares = read_calibration(path.with_name("percent.toml")).targets[0]
    assert (shares.value, shares.tolerance) == (0.5, 0.01)  # as balance --target 50% reads
    assert cal.free[0].key.kind is Kind.DURATION
    assert (cal.free[0].low, cal.free[0].high) == (300.0, 7200.0)


def test_a_calibrations_name_fr_is_its_title_in_french(tmp_path):
    from simulator.report.i18n import language

    text = (ROOT / "calibrations" / "texts.toml").read_text(encoding="utf-8")
    path = tmp_path / "texts.toml"
    path.write_text(text.replace('"../scenarios/', f'"{SCENARIOS.as_posix()}/'), encoding="utf-8")
    cal = read_calibration(path)
    with language("fr"):
        assert cal.title == "La table des blessures face à trois phrases des textes"
    with language("en"):
        assert cal.title == cal.name == "The wound table against three sentences of the texts"
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('name_fr = "La table', "name_fr = 3 #"), encoding="utf-8")
    done = harmonies_sim("calibrate", str(bad), cwd=tmp_path)
    assert done.returncode == 2 and "name_fr: got 3; expected a name (text)" in done.stderr


SAMPLED = (
    ("lone_traveller", "p_dead_by_1d", ["first_aid.start=5min", "first_aid.interval=5min"]),
    ("hydra", "p_dead", ["horizon=2d"]),
)
SAMPLED_TRUTH = {"rules.table.grave.unstable_period": 900.0, "first_aid.level": 4}
SAMPLED_TOLERANCE = 0.03
"""Over three standard errors of a share near 0.2 at 2,000 trials (0.009 each)."""


def sampled_file(tmp_path: Path, targets=SAMPLED) -> Path:
    settings = [
        Key("rules.table.grave.unstable_period", Kind.DURATION).setting(900.0),
        Key("first_aid.level", Kind.INTEGER).setting(4),
    ]
    text = 'name = "Sampled"\n[[free]]\nkey = "rules.table.grave.unstable_period"\n'
    text += 'low = "5min"\nhigh = "1h"\n[[free]]\nkey = "first_aid.level"\nlow = 2\nhigh = 8\n'
    for scenario, stat, sets in targets:
        built = load_scenario(SCENARIOS / f"{scenario}.toml", [*sets, *settings])
        value = Exact()([built], Statistic.parse(stat))[0].stat
        text += target_toml(scenario, stat, round(value, 6), sets, SAMPLED_TOLERANCE)
    path = tmp_path / "sampled.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_sampled_recovery_meets_its_targets_within_the_check_runs_intervals(tmp_path):
    from simulator.studies.method import MonteCarlo

    path = sampled_file(tmp_path)
    result = calibrate(path, MonteCarlo(trials=2_000, seed=5, workers=1), out=tmp_path / "o")
    assert result.method == "monte-carlo"
    assert result.check_trials == 8_000 and result.check_seed == 6  # fresh seeds, more trials
    assert result.met
    cal = read_calibration(path)
    settings = [f.key.setting(v) for f, v in zip(cal.free, result.values, strict=True)]
    for target, reached in zip(cal.targets, result.reached, strict=True):
        assert reached.low <= reached.stat <= reached.high < reached.low + 0.1
        # the exact value at the values found: within the tolerance and the interval's width
        exact = Exact()([target.build(settings)], target.stat)[0].stat
        width = reached.high - reached.low
        assert abs(exact - target.value) <= target.tolerance + width


@pytest.mark.slow
def test_the_same_seed_gives_the_same_answer_whatever_the_workers(tmp_path):
    from simulator.studies.method import MonteCarlo

    path = sampled_file(tmp_path, SAMPLED[:1])
    answers = []
    for workers in (1, 2):
        with MonteCarlo(trials=1_000, seed=2, workers=workers) as method:
            found = calibrate(path, method, out=tmp_path / f"w{workers}", rounds=4)
        data = found.to_json()
        answers.append((data["free"], data["targets"], data["sensitivity"], data["evaluations"]))
    assert answers[0] == answers[1]


def test_the_same_sampled_command_again_gives_the_same_answer_from_its_evaluations(tmp_path):
    # The second run finds every evaluation of the first one saved; it must still take the
    # path of the first (the best so far is the best of what it has come to, not of points
    # the first run reached only later), and so give the same answer and the same files.
    from simulator.studies.method import MonteCarlo

    path = ROOT / "calibrations" / "texts.toml"  # three keys, three targets: a long search
    out = tmp_path / "out"
    runs = []
    for _ in range(2):
        with MonteCarlo(trials=300, seed=3) as method:
            found = calibrate(path, method, out=out, rounds=8, figures=False)
        files = ("calibration.csv", "calibration.json", "targets.csv")
        runs.append((found, [(out / name).read_bytes() for name in files]))
    (first, first_files), (again, again_files) = runs
    assert again.resumed == first.evaluations > 0
    assert {**again.to_json(), "resumed": 0} == {**first.to_json(), "resumed": 0}
    assert again_files == first_files  # the answer's files: the same bytes, resumed or not


def test_the_polish_leaves_a_flat_stretch_by_a_range_end(tmp_path):
    """A statistic flat over most of a range (no survival test before the horizon until a
    period crosses it) gives a step search no way out: the polish tries each key's ends.

    Found with calibrations/texts.toml, seed 1: the light wound's unstable period stopped at
    3 d 12 h with the week's deaths at 21%, where 7 d gives 0%.
    """
    from types import SimpleNamespace

    from simulator.studies.calibrate_solve import Search, _polish

    path = tmp_path / "flat.toml"
    path.write_text(
        'name = "flat"\n'
        '[[free]]\nkey = "rules.table.light.unstable_period"\nlow = "1h"\nhigh = "1w"\n'
        f'[[target]]\nscenario = "{SCENARIOS / "lone_traveller.toml"}"\nstat = "p_dead"\n'
        "value = 0.01\ntolerance = 0.01\n",
        encoding="utf-8",
    )
    calibration = read_calibration(path)
    free = calibration.free[0]
    top = len(free.grid) - 1

    def flat(scenarios, stat):  # 21% unless the period is the range's top: 0%
        return [
            SimpleNamespace(stat=0.0 if s.table[Level.LIGHT].unstable_period >= 604800 else 0.21,
                            ci=(0.0, 0.3))
            for s in scenarios
        ]  # fmt: skip

    search = Search(calibration, flat)
    search.evaluate([(top // 2,)])  # where the global phase left it: in the middle of the flat
    _polish(search, 12)
    assert search.best() == (top,)
    assert search.met(search.evaluate([search.best()])[0])


def test_the_saved_evaluations_keep_numbers_as_numbers(tmp_path):
    """evaluations.parquet: an integer key's values are integers (they sort as numbers in a
    spreadsheet), a duration's as ``--set`` takes them."""
    import pandas as pd

    text = 'name = "Kinds"\n[[free]]\nkey = "rules.table.grave.unstable_period"\n'
    text += 'low = "5min"\nhigh = "1h"\n[[free]]\nkey = "first_aid.level"\nlow = 2\nhigh = 8\n'
    sets = ["first_aid.start=5min", "first_aid.interval=5min"]
    text += target_toml("lone_traveller", "p_dead_by_1d", 0.05, sets, 0.01)
    path = tmp_path / "kinds.toml"
    path.write_text(text, encoding="utf-8")
    calibrate(path, Exact(), out=tmp_path / "out")
    frame = pd.read_parquet(tmp_path / "out" / "evaluations.parquet")
    assert pd.api.types.is_integer_dtype(frame["first_aid.level"])
    assert set(frame["first_aid.level"]) <= set(range(2, 9))
    assert frame["rules.table.grave.unstable_period"].str.endswith(("s", "min", "h")).all()
    hours = frame["hours:rules.table.grave.unstable_period"]  # and in hours, as a float
    assert pd.api.types.is_float_dtype(hours) and hours.between(5 / 60, 1.0).all()
    assert "hours:first_aid.level" not in frame


def test_a_calibrated_file_says_what_its_target_set_besides_the_free_keys(tmp_path):
    """lone_traveller's name says 'no help'; a target that gives first aid says so on top."""
    sets = ["first_aid.level=4", "first_aid.start=5min", "first_aid.interval=5min"]
    text = 'name = "Aided"\n[[free]]\nkey = "rules.table.grave.unstable_period"\n'
    text += 'low = "5min"\nhigh = "1h"\n' + target_toml(
        "lone_traveller", "p_dead_by_1d", 0.5, sets, 0.01
    )
    path = tmp_path / "aided.toml"
    path.write_text(text, encoding="utf-8")
    calibrate(path, Exact(), out=tmp_path / "out", figures=False)
    head = (tmp_path / "out" / "lone_traveller.calibrated.toml").read_text(encoding="utf-8")
    assert "# its target #1 lone_traveller: p_dead_by_1d also sets" in head
    assert ": first_aid.level=4, first_aid.start=5min, first_aid.interval=5min\n" in head


def test_a_calibrated_file_is_the_scenario_s_own_text_with_its_comments(tmp_path):
    """The designer's comments, dotted keys and inline tables stay; the solved key and the
    target's own set are edited in, a table the file lacks added at its end."""
    from tests.scenario.test_edited_copy import FORD, UNTOUCHED

    scenario = tmp_path / "ford.toml"
    scenario.write_text(FORD, encoding="utf-8")
    sets = ["patient.cp_rs=9", "horizon=1d", "first_aid.level=4", "first_aid.start=5min",
            "first_aid.interval=5min"]  # fmt: skip
    text = 'name = "Ford"\n[[free]]\nkey = "rules.table.grave.unstable_period"\n'
    text += 'low = "5min"\nhigh = "1h"\n[[target]]\nscenario = "ford.toml"\n'
    text += f'stat = "p_dead_by_1d"\nvalue = 0.3\ntolerance = 0.01\nset = {json.dumps(sets)}\n'
    path = tmp_path / "ford_calibration.toml"
    path.write_text(text, encoding="utf-8")
    result = calibrate(path, Exact(), out=tmp_path / "out", figures=False)
    saved = tmp_path / "out" / "ford.calibrated.toml"
    written = saved.read_text(encoding="utf-8")
    lines = written.splitlines()
    assert "not kept" not in written
    for line in UNTOUCHED:
        assert line in lines or line == 'horizon = "7d"', line
    assert 'horizon = "1d"' in lines  # a short horizon: a quick exact answer
    assert "patient.cp_rs = 9  # a tough scout" in lines  # the target's set, in place
    assert "watch = { neglect_probability = 0.1 }  # the camp sleeps, sometimes" in lines
    assert 'level = "grave"  # an arrow' in lines and "modifier = -1  # poor tools" in lines
    assert '\n[first_aid]\nlevel = 4\nstart = "5min"\ninterval = "5min"\n' in written
    (value,) = result.values
    setting = result.calibration.free[0].key.setting(value)
    assert f"\n[rules.table.grave]\nunstable_period = {json.dumps(setting.value)}\n" in written
    again = load_scenario(saved)
    assert again == dataclasses.replace(
        load_scenario(scenario, [*sets, setting.text]), source=again.source
    )


def test_one_target_out_of_reach_is_said_as_one_and_its_range_end_is_told(tmp_path):
    """An exact target reads "(exact)", not "(99.3%–99.3%)"; a key stopped at an end of its
    range says that the target may lie beyond it."""
    lone = (ROOT / "scenarios" / "lone_traveller.toml").as_posix()
    path = tmp_path / "one.toml"
    path.write_text(
        f'name = "one"\n[[free]]\nkey = "rules.table.grave.unstable_period"\nlow = "5min"\n'
        f'high = "2h"\n[[target]]\nscenario = "{lone}"\nstat = "p_dead_by_1d"\nvalue = 0.2\n'
        "tolerance = 0.01\n",
        encoding="utf-8",
    )
    done = harmonies_sim("calibrate", path, "--exact", "--no-figures", "--out", tmp_path / "o")
    assert done.returncode == 0, done.stderr
    assert "(exact): not met" in done.stdout
    assert "The target is not met" in done.stdout and "Not every target" not in done.stdout
    assert "At an end of its range: rules.table.grave.unstable_period" in done.stdout


def test_two_targets_pulling_against_each_other_are_one_line():
    """The terminal printed each pair twice, once each way; the JSON keeps both."""
    from simulator.report.wording import conflict_lines

    labels = ["#1 a: p_dead", "#2 b: p_dead", "#3 c: p_dead"]
    conflicts = [
        {"target": 1, "against": 2, "keys": ["k"]},
        {"target": 2, "against": 1, "keys": ["k"]},
        {"target": 2, "against": 0, "keys": ["k", "m"]},
    ]
    assert conflict_lines(conflicts, labels, "en") == [
        "#2 b: p_dead and #3 c: p_dead pull against each other (on k)",
        "#1 a: p_dead pulls against #3 c: p_dead (on k, m)",
    ]
    assert conflict_lines(conflicts[:1], labels, "fr") == [
        "#3 c: p_dead va à l'encontre de #2 b: p_dead (via k)"
    ]


def test_an_exact_evaluation_over_its_budget_names_the_target_and_the_point(tmp_path):
    """It named the scenario only: which target, and where the search was, went unsaid."""
    from simulator.errors import UserError
    from simulator.studies.method import Exact

    with pytest.raises(UserError) as refused:
        calibrate(infeasible_file(tmp_path), Exact(max_states=50))
    said = str(refused.value)
    assert re.match(
        r"target #1 lone_traveller: p_dead_by_1d, with rules\.table\.grave\.unstable_period="
        r"\d+(s|min): .*lone_traveller\.toml: the exact computation carried .* over "
        r"Exact\(max_states=\.\.\.\)",  # as the notebook's call names it
        said,
    ), said


def test_any_edit_of_a_calibration_file_changes_its_identity(tmp_path):
    """A target's set list overwrote the file's text in the loop that checks it: an edited
    value, statistic or range then kept the folder's identity, and calibrate resumed the old
    search into the new one (wrong answers, a wrong calibrated file)."""
    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "g.toml").write_text(
        (repo / "scenarios" / "geraldine.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    text = (
        'name = "demo"\n[[free]]\nkey = "first_aid.level"\nlow = 0\nhigh = 8\n'
        '[[target]]\nscenario = "g.toml"\nstat = "p_dead"\nvalue = 0.5\n'
        'set = ["first_aid.interval=5min"]\n'
    )
    path = tmp_path / "cal.toml"
    settings = {"method": "monte-carlo", "trials": 100, "seed": 1}
    identities = set()
    edits = [("", ""), ("value = 0.5", "value = 0.4"), ('stat = "p_dead"', 'stat = "p_wounded"'),
             ("high = 8", "high = 6"), ("5min", "10min")]  # fmt: skip
    for old, new in edits:
        path.write_text(text.replace(old, new) if old else text, encoding="utf-8")
        calibration = read_calibration(path)
        assert calibration.text == path.read_text(encoding="utf-8")
        identities.add(calibration.identity(settings))
    assert len(identities) == len(edits)


def test_another_simulator_version_changes_a_calibrations_identity(tmp_path, monkeypatch):
    """Evaluations kept by an older version of the simulator (other engines, other numbers)
    were resumed as this one's: the identity named the file, its scenarios and the method,
    not the version that computed them."""
    import simulator

    (tmp_path / "g.toml").write_text(
        (ROOT / "scenarios" / "geraldine.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = tmp_path / "cal.toml"
    path.write_text(
        'name = "v"\n[[free]]\nkey = "first_aid.level"\nlow = 0\nhigh = 4\n'
        '[[target]]\nscenario = "g.toml"\nstat = "p_dead"\nvalue = 0.5\n',
        encoding="utf-8",
    )
    calibration = read_calibration(path)
    settings = {"method": "monte-carlo", "trials": 100, "seed": 1}
    now = calibration.identity(settings)
    assert calibration.identity(settings) == now  # the same version: resumed
    monkeypatch.setattr(simulator, "__version__", "0.0.1-older")
    assert calibration.identity(settings) != now


def test_kept_is_told_once_the_folder_holds_evaluations_to_resume_from(tmp_path):
    """The command line says "the same command resumes" only from then on: a fresh folder
    once its first round is saved, a folder of the same calibration from its start."""
    from simulator.studies.method import MonteCarlo

    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "g.toml").write_text(
        (repo / "scenarios" / "geraldine.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = tmp_path / "cal.toml"
    path.write_text(
        'name = "k"\n[[free]]\nkey = "first_aid.level"\nlow = 0\nhigh = 4\n'
        '[[target]]\nscenario = "g.toml"\nstat = "p_dead"\nvalue = 0.5\n',
        encoding="utf-8",
    )
    saved = tmp_path / "out" / "evaluations.parquet"
    events: list[str] = []

    def kept() -> None:
        events.append("kept" if saved.is_file() else "kept before saving")

    for _ in ("fresh", "resumed"):
        events.clear()
        calibrate(
            path,
            MonteCarlo(trials=200, seed=1, workers=1),
            out=tmp_path / "out",
            figures=False,
            kept=kept,
            progress=lambda step: events.append("round"),
        )
        assert events[0] == "kept" and "kept before saving" not in events, events


@pytest.mark.slow
def test_saving_a_result_again_never_writes_over_a_users_file(recovered, tmp_path, monkeypatch):
    """CalibrationResult.save claims its folder as every result's save does: a folder holding
    a file of the user's is refused, the file untouched; ``~`` is the home folder."""
    from simulator.errors import UserError

    result = recovered[0]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "calibration.csv").write_text("my own numbers\n", encoding="utf-8")
    with pytest.raises(UserError, match="did not write"):
        result.save(mine)
    assert (mine / "calibration.csv").read_text(encoding="utf-8") == "my own numbers\n"
    assert sorted(p.name for p in mine.iterdir()) == ["calibration.csv"]
    from simulator.kernel.cache import cache_base

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache_base()))  # the compiled kernel's, still
    monkeypatch.setenv("HOME", str(tmp_path))
    written = result.save("~/saved", figures=False)
    assert (tmp_path / "saved" / "calibration.csv") in written
    assert not (tmp_path / "~").exists()
