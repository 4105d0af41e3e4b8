"""``sensitivity``: notches, default keys, the ranking, its JSON through the command line."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys

import pytest

from simulator.errors import UserError
from simulator.scenario.keys import Key, Kind, key_of, notches, parse_notch
from simulator.scenario.reading import load_scenario
from simulator.studies.method import Exact
from simulator.studies.sensitivity_study import default_keys, rows_used, sensitivity
from simulator.studies.statistic import Evaluation
from tests.studies.alone import grave_alone, one_worker, write

UNTREATED = grave_alone(period="12h")


def test_notches_of_each_kind():
    assert notches(Kind.INTEGER, 3) == (2, 4)
    assert notches(Kind.DURATION, 900.0) == (600.0, 1800.0)  # 15min: 10min and 30min
    assert notches(Kind.DURATION, 12 * 3600.0) == (8 * 3600.0, 86400.0)
    assert notches(Kind.DURATION, 1000.0) == (900.0, 1800.0)  # off the ladder: its neighbours
    assert notches(Kind.PROBABILITY, 0.0) == (None, 0.05)
    assert notches(Kind.PROBABILITY, 0.5) == (0.45, 0.55)
    assert notches(Kind.PROBABILITY, 1.0) == (0.95, None)
    assert notches(Kind.NUMBER, 1.0) == (0.75, 1.25)  # P1's rate: any number >= 0
    assert notches(Kind.NUMBER, 0.1) == (None, 0.35)
    assert key_of("rules.pain_recovery_per_hour", 1) == (
        Key("rules.pain_recovery_per_hour", Kind.NUMBER),
        1.0,
    )
    assert parse_notch("k=0.5,1.5", Key("rules.pain_recovery_per_hour", Kind.NUMBER)) == (0.5, 1.5)
    with pytest.raises(UserError, match="DOWN smaller than UP"):  # 9 labelled "down": refused
        parse_notch("k=9,7", Key("patient.cp_rs", Kind.INTEGER))
    with pytest.raises(UserError, match="DOWN smaller than UP"):
        parse_notch("k=1h,30min", Key("first_aid.interval", Kind.DURATION))


def test_default_keys_follow_the_scenario(tmp_path):
    untreated = load_scenario(write(tmp_path, UNTREATED))
    assert [lv.label for lv in rows_used(untreated)] == ["grave", "critical"]
    keys = default_keys(untreated)
    assert "rules.table.grave.unstable_period" in keys and "rules.table.light.pain" not in keys
    assert "first_aid.level" not in keys and "healing.level" not in keys
    assert {"patient.cp_rs", "patient.rs_it", "watch.neglect_probability"} <= set(keys)
    helped = load_scenario("scenarios/geraldine.toml")
    keys = default_keys(helped)
    assert {"first_aid.level", "first_aid.start", "first_aid.interval"} <= set(keys)


def test_a_maximum_patient_maxima_gives_is_moved_where_it_wins(tmp_path):
    """T2: ``[patient.maxima]`` outranks ``rules.table.grave.max``, which would move nothing."""
    second = '\n[[injuries]]\nat = "0s"\nlevel = "grave"\n'  # two: the maximum matters
    path = write(tmp_path, UNTREATED + second + "\n[patient.maxima]\ngrave = 2\n")
    keys = [row.key.name for row in sensitivity(path, Exact()).rows]
    assert "patient.maxima.grave" in keys and "rules.table.grave.max" not in keys
    assert "rules.table.critical.max" in keys  # the table's, where the maxima give none
    row = next(r for r in sensitivity(path, Exact()).rows if r.key.name == "patient.maxima.grave")
    assert (row.value, row.down_value, row.up_value) == (2, 1, 3)
    assert row.down.stat != row.base.stat  # one notch down, the second grave overflows
    with pytest.raises(UserError, match=re.escape("expected patient.maxima.grave (the key")):
        sensitivity(path, Exact(), keys=["rules.table.grave.max"])


def test_a_key_that_matters_ranks_above_one_that_does_not(tmp_path):
    # The untreated traveller gets no first aid and no healer: the grave wound's difficulty
    # (A1, G1) never enters a roll, its unstable period sets the number of tests (S2).
    path = write(tmp_path, UNTREATED)
    with one_worker(1000, 4) as mc:
        found = sensitivity(path, mc, stat="p_dead_by_1d")
    order = [row.key.name for row in found.rows]
    period = order.index("rules.table.grave.unstable_period")
    difficulty = order.index("rules.table.grave.difficulty")
    assert period < difficulty
    rows = {row.key.name: row for row in found.rows}
    assert rows["rules.table.grave.difficulty"].swing == 0  # same seeds: exactly the same
    assert rows["rules.table.grave.unstable_period"].swing > 0.3
    swings = [row.swing for row in found.rows]
    assert swings == sorted(swings, reverse=True)
    # a default notch the rules refuse is left out (no negative probability)
    neglect = rows["watch.neglect_probability"]
    assert neglect.down_value is None and neglect.up_value == 0.05
    # a swing chance alone could give (paired, on the same seeds) is marked
    assert not rows["rules.table.grave.difficulty"].within_chance  # identical: nothing to tell
    assert not rows["rules.table.grave.unstable_period"].within_chance
    from simulator.cli.sensitivity import sensitivity_text

    assert "chance alone" not in sensitivity_text(found)  # none here: no footnote
    period = rows["rules.table.grave.unstable_period"]
    near = dataclasses.replace(  # the same key, its up value made to sit in down's interval
        period, up=Evaluation(period.down.stat + 0.01, period.down.ci, 1000)
    )
    assert near.within_chance
    text = sensitivity_text(dataclasses.replace(found, rows=[near, *found.rows[1:]]))
    line = next(t for t in text.splitlines() if t.strip().startswith(near.key.name + " "))
    assert line.endswith(" *"), line
    assert "* chance alone could give a swing this size" in text


def test_sensitivity_json_through_the_command_line(tmp_path):
    path = write(tmp_path, UNTREATED)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "sensitivity", path, "--stat", "p_dead_by_1d",
         "--keys", "rules.table.grave.difficulty,patient.cp_rs", "--notch",
         "rules.table.grave.unstable_period=8h,1d", "--trials", "500", "--workers", "1",
         "--out", str(out), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document[0]["key"] == "rules.table.grave.unstable_period"
    assert {row["key"] for row in document} == {
        "rules.table.grave.unstable_period", "rules.table.grave.difficulty", "patient.cp_rs"
    }  # fmt: skip
    for row in document:
        assert {"key", "down", "base", "up", "swing"} <= set(row)
        assert {"value", "stat"} <= set(row["down"]) and {"value", "stat"} <= set(row["up"])
        moved = [row["down"]["stat"], row["up"]["stat"]]
        assert row["swing"] == pytest.approx(max(moved) - min(moved)) and row["swing"] >= 0
    first = document[0]
    assert (first["down"]["value"], first["up"]["value"]) == ("8h", "1d")
    swings = [row["swing"] for row in document]
    assert swings == sorted(swings, reverse=True)
    assert sorted(p.name for p in out.iterdir()) == [
        ".harmonies-sim", "kept-evaluations.parquet", "report.html",  # kept: read back again
        "sensitivity.csv", "sensitivity.json", "tornado.png", "tornado.svg"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "key", "told"),
    [
        ("k=0,01,0,1", Key("watch.neglect_probability", Kind.PROBABILITY), "points, 0.01,0.1"),
        ("k=0,01", Key("watch.neglect_probability", Kind.PROBABILITY), "0.01 (one value;"),
        ("k=2,5min,7,5min", Key("first_aid.interval", Kind.DURATION), "points, 2.5min,7.5min"),
        ("k=0,5", Key("watch.neglect_probability", Kind.PROBABILITY), "points, 0.5 (one"),
    ],
)
def test_a_decimal_comma_in_a_notch_is_told_with_the_point(text, key, told):
    with pytest.raises(UserError, match="a comma separates DOWN from UP") as caught:
        parse_notch(text, key)
    assert told in str(caught.value)


def test_two_levels_are_no_decimal_comma():
    assert parse_notch("k=2,5", Key("first_aid.level", Kind.INTEGER)) == (2, 5)
    with pytest.raises(UserError, match="expected DOWN,UP, two values"):
        parse_notch("k=1,2,3,4", Key("first_aid.level", Kind.INTEGER))


def test_a_notch_the_scenario_cannot_take_is_null_in_json(tmp_path):
    """CONTRACT: "a notch the scenario cannot take (below a minimum, say) is null"."""
    path = write(tmp_path, UNTREATED)
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "sensitivity", path, "--stat", "p_dead_by_1d",
         "--keys", "watch.neglect_probability", "--set", "watch.neglect_probability=0",
         "--trials", "200", "--workers", "1", "--out", str(tmp_path / "out"), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["down"] is None and isinstance(row["up"], dict)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--keys", "patient.cp_rz"], "patient.cp_rz"),
        (["--keys", "name"], "name"),
        (["--notch", "patient.cp_rs=5"], "--notch"),
        (["--notch", "rules.table.grave.max=-1,3"], "max"),
        (["--stat", "p_gone"], "--stat"),
    ],
)
def test_sensitivity_refuses_with_exit_2(tmp_path, args, named):
    path = write(tmp_path, UNTREATED)
    done = subprocess.run(
        [sys.executable, "-m", "simulator", "sensitivity", path, *args, "--trials", "100",
         "--out", str(tmp_path / "o")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert named in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()


def test_every_unknown_key_gets_its_error_line(tmp_path):
    from simulator.studies.method import Exact

    path = write(tmp_path, UNTREATED)
    with pytest.raises(UserError) as caught:
        sensitivity(path, Exact(), keys=["nonsense.a", "patient.cp_rs", "patient.cp_rz"])
    lines = str(caught.value).splitlines()  # named as the call wrote them (keys=[...])
    assert [line.split(": ")[:2] for line in lines] == [
        ["keys", "nonsense.a"],
        ["keys", "patient.cp_rz"],
    ]


def test_exact_sensitivity_ranks_without_noise(tmp_path):
    from simulator.studies.method import Exact

    path = write(tmp_path, UNTREATED)
    keys = ["rules.table.grave.difficulty", "rules.table.grave.unstable_period", "patient.cp_rs"]
    with Exact() as exact:
        found = sensitivity(path, exact, keys=keys, stat="p_dead_by_1d")
    rows = {row.key.name: row for row in found.rows}
    assert found.rows[0].key.name == "rules.table.grave.unstable_period"
    assert rows["rules.table.grave.difficulty"].swing == pytest.approx(0, abs=1e-12)
    # 8h: two tests in the day, 1d: none; p_success(+1) = 0.64
    assert rows["rules.table.grave.unstable_period"].swing == pytest.approx(1 - 0.64**2, abs=1e-6)
    assert found.method == "exact" and found.to_json()[0]["method"] == "exact"


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("first_aid.level", "the scenario has no [first_aid]"),
        ("first_aid.max_attempts", "the scenario has no [first_aid]"),
        ("patient.nope", "the scenario has no such key"),
    ],
)
def test_a_key_sensitivity_cannot_move_says_why(key, said):
    """balance can vary first_aid.max_attempts; sensitivity needs a value to move by a notch."""
    from simulator.scenario.keys import current_value

    with pytest.raises(UserError, match=re.escape(f"--keys {key}: {said}")):
        current_value(load_scenario_text(UNTREATED), key)
    aided = UNTREATED + '[first_aid]\nlevel = 1\nstart = "5min"\ninterval = "5min"\n'
    with pytest.raises(UserError, match=r"gives it no value .* --set first_aid.max_attempts="):
        current_value(load_scenario_text(aided), "first_aid.max_attempts")
    assert current_value(load_scenario_text(aided), "first_aid.level") == 1


def load_scenario_text(text):
    import tomllib

    from simulator.scenario.reading import scenario_from_mapping

    return scenario_from_mapping(tomllib.loads(text), "s.toml")


def test_the_basic_rules_move_only_the_cells_they_read():
    """B1, B2, B4: no pain, mortality, stability nor watch under the basic ruleset."""
    keys = default_keys(load_scenario("scenarios/geraldine_basic.toml"))
    cells = {key.rsplit(".", 1)[1] for key in keys if key.startswith("rules.table.")}
    assert cells == {"max", "heal_period", "difficulty"}
    assert "patient.cp_rs" in keys and "patient.rs_it" not in keys  # no mental wound
    assert "rules.table.grave.difficulty" in keys


def test_a_notch_on_the_wrong_side_of_the_scenarios_value_is_refused(tmp_path):
    """--notch patient.cp_rs=0,5 around 6 labelled 5 "one notch up": refused before any run."""
    path = write(tmp_path, UNTREATED)
    value = load_scenario(path).patient.cp_rs
    wrong = f"got 0,{value - 1} around {value}; expected DOWN"
    with one_worker(10, 4) as mc, pytest.raises(UserError, match=wrong):
        sensitivity(path, mc, keys=["patient.cp_rs"], notch=[f"patient.cp_rs=0,{value - 1}"])


def test_within_chance_judges_the_two_values_trial_by_trial():
    """Same seeds: a swing is within chance when the trials that differ could split so by chance."""
    import numpy as np

    from simulator.scenario.keys import Key, Kind
    from simulator.studies.sensitivity_study import Row

    n = 1000
    base = np.zeros(n, dtype=bool)
    base[:300] = True
    few = base.copy()
    few[300:304] = True  # four trials more, none fewer: 0.4 points, p = 0.125 (McNemar)
    many = base.copy()
    many[300:340] = True  # forty more: 4 points, p below 1e-11

    def ev(flags):
        p = float(flags.mean())
        return Evaluation(p, (p - 0.03, p + 0.03), n, flags)

    key = Key("patient.cp_rs", Kind.INTEGER)
    assert Row(key, 6, 5, 7, ev(base), ev(few), ev(base)).within_chance
    assert not Row(key, 6, 5, 7, ev(base), ev(many), ev(base)).within_chance
    assert not Row(key, 6, 5, 7, ev(base), ev(base), ev(base)).within_chance  # no swing at all
    exact = Evaluation(0.3, (0.3, 0.3))
    assert not Row(key, 6, 5, 7, exact, Evaluation(0.3004, (0.3004, 0.3004)), exact).within_chance


def test_default_keys_leave_out_the_periods_no_mental_level_reads():
    """M3: mental wounds arrive stable, test no survival and have no watch; their three
    periods moved nothing, and filled the tornado with rows at 0.0 points."""
    shaken = load_scenario("scenarios/shaken.toml")
    mental = [lv for lv in rows_used(shaken) if lv.is_mental]
    assert mental  # the scenario has mental wounds
    keys = default_keys(shaken)
    for lv in mental:
        assert f"rules.table.{lv.label}.pain" in keys or shaken.ruleset.value == "basic"
        for cell in ("unstable_period", "stable_period", "watch_period"):
            assert f"rules.table.{lv.label}.{cell}" not in keys
    physical = [lv for lv in rows_used(shaken) if not lv.is_mental]
    if physical and shaken.ruleset.value != "basic":
        assert f"rules.table.{physical[0].label}.unstable_period" in keys


def test_a_notch_past_a_bound_stops_at_the_bound():
    """field_medic's neglect probability of 0.02 showed '—' one notch down: 0 is the value a
    designer tries. A notch that would pass 0 (or 1) stops there, unless already there;
    calibrate's pull per notch keeps its notches one step wide."""
    assert notches(Kind.PROBABILITY, 0.02, to_bounds=True) == (0.0, 0.07)
    assert notches(Kind.PROBABILITY, 0.98, to_bounds=True) == (0.93, 1.0)
    assert notches(Kind.PROBABILITY, 0.0, to_bounds=True) == (None, 0.05)  # already at 0
    assert notches(Kind.PROBABILITY, 1.0, to_bounds=True) == (0.95, None)
    assert notches(Kind.PROBABILITY, 0.5, to_bounds=True) == (0.45, 0.55)
    assert notches(Kind.NUMBER, 0.1, to_bounds=True) == (0.0, 0.35)
    assert notches(Kind.NUMBER, 0.0, to_bounds=True) == (None, 0.25)
    assert notches(Kind.PROBABILITY, 0.02) == (None, 0.07)  # calibrate's, as before


def test_sensitivity_tries_zero_below_a_small_probability(tmp_path):
    text = UNTREATED + "\n[watch]\nneglect_probability = 0.02\n"
    text += "[rules]\npain_recovery_per_hour = 0.1\n"
    path = write(tmp_path, text)
    keys = ["watch.neglect_probability", "rules.pain_recovery_per_hour"]
    found = sensitivity(path, Exact(), keys=keys)
    rows = {row.key.name: row for row in found.rows}
    assert (rows[keys[0]].down_value, rows[keys[0]].up_value) == (0.0, 0.07)
    assert (rows[keys[1]].down_value, rows[keys[1]].up_value) == (0.0, 0.35)


def test_a_notch_of_a_probability_in_percents_is_told_the_numbers_it_means():
    """A scenario file and a --set said '5% is written 0.05'; --notch did not."""
    from simulator.errors import fill
    from simulator.report.i18n import tr

    neglect = Key("watch.neglect_probability", Kind.PROBABILITY)
    with pytest.raises(UserError) as caught:
        parse_notch("watch.neglect_probability=1%,0.05", neglect)
    assert str(caught.value) == (
        "--notch watch.neglect_probability: got '1%,0.05'; expected a probability, a number "
        "from 0 to 1: 1%,0.05 is written 0.01,0.05"
    )
    phrase = caught.value.phrase
    french = fill(phrase.template, phrase.args, lambda t: tr(t, "fr"))
    assert french.endswith(": 1%,0.05 s'écrit 0.01,0.05")
    with pytest.raises(UserError, match="two values of the key's kind"):
        parse_notch("k=1%,150%", neglect)
    with pytest.raises(UserError, match="two values of the key's kind"):
        parse_notch("k=1%,5%", Key("first_aid.level", Kind.INTEGER))


def test_an_exact_swing_within_the_dropped_mass_is_marked(tmp_path):
    """``sensitivity lone_traveller --exact`` ranked patient.cp_rs first for a swing of 2.2e-11,
    below the probability mass the exact engine dropped, unmarked: no effect the answer can
    tell. It keeps CONTRACT.md's swing and rank, marked † with a footnote."""
    from simulator.cli.sensitivity import sensitivity_text
    from simulator.studies.sensitivity_study import Row

    keys = ["rules.table.grave.max", "patient.cp_rs"]
    with Exact() as exact:
        found = sensitivity("scenarios/lone_traveller.toml", exact, keys=keys, out=tmp_path / "s")
    first, second = found.rows
    assert first.key.name == "patient.cp_rs" and first.within_dropped_mass
    assert 0 < first.swing < 1e-9  # CONTRACT's swing: the larger minus the smaller
    assert second.key.name == "rules.table.grave.max" and not second.within_dropped_mass
    listed = found.to_json()[0]
    assert listed["swing"] == first.swing and listed["within_dropped_mass"] is True
    csv = (tmp_path / "s" / "sensitivity.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0].endswith(",within_dropped_mass") and csv[1].endswith(",True")
    text = sensitivity_text(found)
    assert "0.0000 points †" in text and "† the probability mass the exact engine" in text
    assert "0.0000 points †" in (tmp_path / "s" / "report.html").read_text(encoding="utf-8")
    # a swing past the dropped masses stays a swing
    real = Row(second.key, 6, 5, 7, Evaluation(0.5, (0.5, 0.5 + 1e-12)),
               Evaluation(0.5 + 1e-9, (0.5 + 1e-9, 0.5 + 2e-9)), second.base)  # fmt: skip
    assert not real.within_dropped_mass and real.swing == pytest.approx(1e-9)
    sampled = Row(second.key, 6, 5, 7, Evaluation(0.5, (0.4, 0.6), 100),
                  Evaluation(0.51, (0.41, 0.61), 100), second.base)  # fmt: skip
    assert not sampled.within_dropped_mass and sampled.swing == pytest.approx(0.01)


@pytest.mark.parametrize(
    "keys", ["patient.cp_rs,patient.cp_rs", ["patient.cp_rs", "patient.cp_rs"]]
)
def test_a_key_given_twice_is_refused_as_sweep_refuses_it(keys) -> None:
    """``--keys a,a`` moved ``a`` once and said nothing, where ``sweep --grid`` refuses a
    repeat: a designer who typed a key twice meant another key, and is told which."""
    with pytest.raises(UserError, match=re.escape("patient.cp_rs: given twice; expected")):
        sensitivity("scenarios/geraldine.toml", keys=keys)
