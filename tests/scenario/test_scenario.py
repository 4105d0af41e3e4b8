"""Scenario files (CONTRACT.md): loading, defaults, every key, maxima precedence (T2), --set."""

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.errors import MISSING, ScenarioError, UserError
from simulator.rules.levels import Level
from simulator.rules.table import default_table, table_for_profile
from simulator.scenario import (
    Activity,
    FirstAid,
    Healing,
    Injury,
    PatientSpec,
    Ruleset,
    Settings,
    Watch,
    apply_overrides,
    load_scenario,
    parse_override,
    read_scenario_mapping,
    scenario_from_mapping,
)
from tests.support import MAXIMA_GIVEN

MIN, H, D, W = 60, 3600, 86400, 604800
REPO = Path(__file__).resolve().parents[2]

MINIMAL = """
name = "minimal"
horizon = "2d"

[patient]
cp_rs = 8
rs_it = 7
"""

FULL = """
name = "everything"
description = "every key given"
ruleset = "arpeges"
horizon = "60d"

[patient]
cp_rs = 9
rs_it = 6
profile = "hydra"

[patient.maxima]
light = 5
shock = 3

[[injuries]]
at = "1h"
level = "grave"

[[injuries]]
at = "0s"
level = "light"
count = 2

[[injuries]]
at = "1h"
level = "trauma"

[first_aid]
level = 2
start = "0s"
interval = "10min"
modifier = -1
max_attempts = 6
self = true

[watch]
neglect_probability = 0.25
neglect_at = ["12h", "1.5d"]

[healing]
level = -2
modifier = -1

[[activities]]
at = "3d"
modifier = -2

[[activities]]
at = "1d"

[rules]
tie_succeeds = false
open_roll = true
pain_recovery_per_hour = 2
faint_duration = "30min"
stable_survival_tests = false
trigger_probability = 0.5

[rules.table.grave]
unstable_period = "30min"
stable_period = "2d"
watch_period = "12h"
heal_period = "2w"
mortality = 4
pain = 6
difficulty = -4
max = 3

[rules.table.psychosis]
heal_period = "3w"
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path, overrides: tuple[str, ...] = ()) -> list:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path, overrides)
    return caught.value.problems


def test_minimal_file_gets_every_default(tmp_path):
    path = write(tmp_path, MINIMAL)
    scenario = load_scenario(path)
    assert scenario.name == "minimal"
    assert scenario.description == ""
    assert scenario.horizon == 2 * D
    assert scenario.patient == PatientSpec(cp_rs=8, rs_it=7, profile="humanoid")
    assert scenario.table == default_table()
    assert scenario.injuries == ()
    assert scenario.first_aid is None  # A3: nobody gives first aid
    assert scenario.watch == Watch()
    assert scenario.healing is None
    assert scenario.activities == ()
    assert scenario.settings == Settings()
    assert scenario.settings.faint_duration == 15 * MIN  # F2 assumption
    assert scenario.ruleset is Ruleset.ARPEGES
    assert scenario.source == str(path)


def test_every_key_reaches_the_model(tmp_path):
    scenario = load_scenario(write(tmp_path, FULL))
    assert scenario.name == "everything"
    assert scenario.description == "every key given"
    assert scenario.horizon == 60 * D
    assert scenario.patient == PatientSpec(cp_rs=9, rs_it=6, profile="hydra")
    # O1: sorted by time, file order kept among equals
    assert scenario.injuries == (
        Injury(at=0.0, level=Level.LIGHT, count=2),
        Injury(at=1 * H, level=Level.GRAVE, count=1),
        Injury(at=1 * H, level=Level.TRAUMA, count=1),
    )
    assert scenario.first_aid == FirstAid(
        start=0.0, interval=10 * MIN, level=2, modifier=-1, max_attempts=6, self_treat=True
    )
    assert scenario.watch == Watch(neglect_probability=0.25, neglect_at=(12 * H, 1.5 * D))
    assert scenario.healing == Healing(level=-2, modifier=-1)
    assert scenario.activities == (Activity(at=1 * D, modifier=0), Activity(at=3 * D, modifier=-2))
    assert scenario.settings == Settings(
        tie_succeeds=False,
        open_roll=True,
        pain_recovery_per_hour=2,
        faint_duration=30 * MIN,
        stable_survival_tests=False,
        trigger_probability=0.5,
    )
    grave = scenario.table[Level.GRAVE]
    assert (grave.unstable_period, grave.stable_period) == (30 * MIN, 2 * D)
    assert (grave.watch_period, grave.heal_period) == (12 * H, 2 * W)
    assert (grave.mortality, grave.pain, grave.difficulty, grave.max) == (4, 6, -4, 3)
    assert scenario.table[Level.PSYCHOSIS].heal_period == 3 * W
    # maxima: hydra's 4/3/3, then rules.table.grave.max = 3, then [patient.maxima]
    assert scenario.table[Level.LIGHT].max == 5
    assert scenario.table[Level.CRITICAL].max == 3
    assert scenario.table[Level.SHOCK].max == 3  # mental names accepted in [patient.maxima]
    untouched = default_table()[Level.LIGHT]
    assert scenario.table[Level.LIGHT].heal_period == untouched.heal_period


def test_injuries_with_equal_times_keep_file_order(tmp_path):
    levels = ["critical", "light", "grave", "shock", "light"]
    injuries = "".join(f'[[injuries]]\nat = "1h"\nlevel = "{lv}"\n' for lv in levels)
    early = '[[injuries]]\nat = "30min"\nlevel = "psychosis"\n'
    scenario = load_scenario(write(tmp_path, MINIMAL + injuries + early))
    assert [i.level.label for i in scenario.injuries] == ["psychosis", *levels]


def test_injury_beyond_horizon_is_allowed(tmp_path):
    text = MINIMAL + '[[injuries]]\nat = "0s"\nlevel = "grave"\n'
    text += '[[injuries]]\nat = "1w"\nlevel = "light"\n[[activities]]\nat = "10d"\n'
    scenario = load_scenario(write(tmp_path, text))
    assert [i.at for i in scenario.injuries] == [0.0, 1 * W]
    assert scenario.activities == (Activity(at=10 * D),)


def test_an_injury_without_at_is_refused_as_contract_md_requires(tmp_path):
    # CONTRACT.md: "Required: ... in each [[injuries]] its at and level". A forgotten time
    # never silently means the start of the campaign: the second wound of a file is refused
    text = MINIMAL + '[[injuries]]\nat = "0s"\nlevel = "grave"\n[[injuries]]\nlevel = "light"\n'
    with pytest.raises(ScenarioError) as caught:
        load_scenario(write(tmp_path, text))
    assert [p.key for p in caught.value.problems] == ["injuries[1].at"]
    assert "missing" in str(caught.value) and "a duration" in str(caught.value)


@pytest.mark.parametrize(
    ("profile_max", "table_max", "patient_max", "expected"),
    [
        (None, None, None, 1),  # T1
        ("hydra", None, None, 3),  # the profile's
        ("hydra", 5, None, 5),  # rules.table beats the profile
        ("hydra", 5, 2, 2),  # [patient.maxima] beats both
        (None, None, 0, 0),  # zero is allowed
    ],
)
def test_maxima_precedence(tmp_path, profile_max, table_max, patient_max, expected):
    """T2: the profile's maxima, then rules.table.<level>.max, then [patient.maxima]."""
    text = MINIMAL
    if profile_max:
        text += f'profile = "{profile_max}"\n'
    if patient_max is not None:
        text += f"[patient.maxima]\ncritical = {patient_max}\n"
    if table_max is not None:
        text += f"[rules.table.critical]\nmax = {table_max}\n"
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.table[Level.CRITICAL].max == expected


def test_profile_gives_its_table(tmp_path):
    scenario = load_scenario(write(tmp_path, MINIMAL + 'profile = "thick_skin"\n'))
    assert scenario.table == table_for_profile("thick_skin")


def test_basic_ruleset_heals_itself_without_a_healing_table(tmp_path):
    """B4: in the basic ruleset the patient always heals itself."""
    basic = MINIMAL.replace('horizon = "2d"', 'horizon = "2d"\nruleset = "basic"')
    scenario = load_scenario(write(tmp_path, basic))
    assert scenario.ruleset is Ruleset.BASIC
    assert scenario.healing == Healing(level=0, modifier=0)
    with_modifier = load_scenario(write(tmp_path, basic + "[healing]\nmodifier = -2\n"))
    assert with_modifier.healing == Healing(level=0, modifier=-2)


def test_first_aid_needs_only_start_and_interval(tmp_path):
    text = MINIMAL + '[first_aid]\nstart = "0s"\ninterval = "5min"\n'
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.first_aid == FirstAid(start=0.0, interval=5 * MIN)
    assert scenario.first_aid.max_attempts is None


def test_probabilities_accept_integers_and_the_ends(tmp_path):
    text = MINIMAL + "[watch]\nneglect_probability = 1\n[rules]\ntrigger_probability = 0\n"
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.watch.neglect_probability == 1.0
    assert scenario.settings.trigger_probability == 0.0


def test_zero_faint_duration_and_recovery_are_allowed(tmp_path):
    text = MINIMAL + '[rules]\nfaint_duration = "0s"\npain_recovery_per_hour = 0\n'
    settings = load_scenario(write(tmp_path, text)).settings
    assert (settings.faint_duration, settings.pain_recovery_per_hour) == (0.0, 0)


# --- --set -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts", "value"),
    [
        ("first_aid.level=3", ["first_aid", "level"], 3),
        ("rules.open_roll=true", ["rules", "open_roll"], True),
        ("watch.neglect_probability=0.5", ["watch", "neglect_probability"], 0.5),
        (
            "rules.table.grave.unstable_period=30min",
            ["rules", "table", "grave", "unstable_period"],
            "30min",
        ),
        ('horizon="3d"', ["horizon"], "3d"),
        ("name=A long name", ["name"], "A long name"),
        ('watch.neglect_at=["12h", "2d"]', ["watch", "neglect_at"], ["12h", "2d"]),
        ("injuries.0.at=2h", ["injuries", "0", "at"], "2h"),
        ("injuries[1].level=light", ["injuries", "1", "level"], "light"),
        (" patient.cp_rs = -2 ", ["patient", "cp_rs"], -2),
        ("description=", ["description"], ""),
        ("name=a=b", ["name"], "a=b"),
        ("first_aid.modifier=1\nx = 2", ["first_aid", "modifier"], "1\nx = 2"),
        ("patient.cp_rs=1e400", ["patient", "cp_rs"], math.inf),  # TOML's inf, told as typed
        ("patient.cp_rs=-1E999", ["patient", "cp_rs"], -math.inf),
        ("patient.cp_rs=-inf", ["patient", "cp_rs"], -math.inf),
    ],
)
def test_parse_override(text, parts, value):
    assert parse_override(text) == (parts, value)


@pytest.mark.parametrize("typed", ["1e400", "-1E999", "1e3", "0.50", "5e-2"])
def test_a_float_set_on_the_command_line_is_told_as_typed(tmp_path, typed):
    """--set count=1e3 says 'got 1e3', never 'got 1000.0'; 1e400 is no text 'got '1e400''."""
    with pytest.raises(ScenarioError) as caught:
        load_scenario(write(tmp_path, MINIMAL), [f"patient.cp_rs={typed}"])
    (problem,) = caught.value.problems
    assert f"got {typed};" in str(problem)


@pytest.mark.parametrize("text", ["first_aid.level", "=3", "a..b=1", "a b=1", ""])
def test_parse_override_refuses_bad_syntax(text):
    with pytest.raises(ScenarioError) as caught:
        parse_override(text)
    (problem,) = caught.value.problems
    assert problem.source == "--set"
    assert "KEY=VALUE" in problem.expected


def test_overrides_beat_the_file_and_the_last_wins(tmp_path):
    path = write(tmp_path, FULL)
    scenario = load_scenario(
        path,
        [
            "first_aid.level=3",
            "first_aid.level=4",
            "rules.table.grave.unstable_period=1h",
            "patient.cp_rs=5",
            'watch.neglect_at=["6h"]',
            "patient.maxima.critical=7",
            "injuries[0].count=3",
        ],
    )
    assert scenario.first_aid.level == 4
    assert scenario.table[Level.GRAVE].unstable_period == 1 * H
    assert scenario.patient.cp_rs == 5
    assert scenario.watch.neglect_at == (6 * H,)
    assert scenario.table[Level.CRITICAL].max == 7
    assert scenario.injuries[1] == Injury(at=1 * H, level=Level.GRAVE, count=3)


def test_override_creates_a_table_whose_required_keys_then_count(tmp_path):
    path = write(tmp_path, MINIMAL)
    problems = problems_of(path, ("first_aid.level=3",))
    assert [(p.key, p.value) for p in problems] == [
        ("first_aid.start", MISSING),
        ("first_aid.interval", MISSING),
    ]
    scenario = load_scenario(
        path, ["first_aid.level=3", "first_aid.start=0s", "first_aid.interval=1min"]
    )
    assert scenario.first_aid == FirstAid(start=0.0, interval=60.0, level=3)


def test_override_problems_and_file_problems_come_together(tmp_path):
    path = write(tmp_path, MINIMAL.replace('"2d"', '"0s"'))
    problems = problems_of(path, ("nonsense", "name.inner=1", "injuries.0.at=1h"))
    assert [(str(p.source), p.key) for p in problems] == [  # named as load_scenario's call
        ("overrides", "nonsense"),  # its syntax: no scenario to name
        (f"overrides: name.inner=1 (on {path})", "name.inner"),  # with the scenario's mapping
        (f"overrides: injuries.0.at=1h (on {path})", "injuries.0.at"),
        (str(path), "horizon"),
    ]


def test_bad_override_value_is_reported_against_the_key(tmp_path):
    problems = problems_of(write(tmp_path, MINIMAL), ("patient.cp_rs=five",))
    assert [(p.key, p.value) for p in problems] == [("patient.cp_rs", "five")]


def test_sweep_steps_do_not_change_the_read_mapping(tmp_path):
    path = write(tmp_path, FULL)
    data = read_scenario_mapping(path)
    before = repr(data)
    levels = []
    for level in (0, 3):
        point = apply_overrides(data, [f"first_aid.level={level}"], str(path))
        levels.append(scenario_from_mapping(point, str(path)).first_aid.level)
    assert levels == [0, 3]
    assert repr(data) == before
    assert scenario_from_mapping(data, str(path)) == load_scenario(path)


def test_apply_overrides_raises_on_syntax():
    """From Python (a notebook's helper), the overrides are named as the argument."""
    with pytest.raises(ScenarioError) as caught:
        apply_overrides({}, ["first_aid.level"], "x.toml")
    assert str(caught.value).startswith("overrides: first_aid.level: ")


def test_apply_overrides_keeps_the_command_lines_words_under_it():
    """A caller that chose the command line's words (the CLI) still reads ``--set``."""
    from simulator.spelling import COMMAND_LINE, spelled

    with spelled(COMMAND_LINE), pytest.raises(ScenarioError) as caught:
        apply_overrides({}, ["first_aid.level"], "x.toml")
    assert str(caught.value).startswith("--set: first_aid.level: ")


# --- problems ----------------------------------------------------------------------------


def test_all_problems_are_reported_together(tmp_path):
    text = """
name = ""
horizon = "15 minutes"
ruleset = "advanced"

[patient]
cp_rs = 8.5

[[injuries]]
at = "-1h"
level = "grav"
count = 0

[first_aid]
start = "5min"
interval = "0s"

[watch]
neglect_probability = 2
"""
    problems = problems_of(write(tmp_path, text))
    assert [p.key for p in problems] == [
        "name",
        "ruleset",
        "horizon",
        "patient.cp_rs",
        "patient.rs_it",
        "injuries[0].at",
        "injuries[0].level",
        "injuries[0].count",
        "first_aid.interval",
        "watch.neglect_probability",
    ]
    assert all(p.source == str(tmp_path / "s.toml") for p in problems)


def test_scenario_error_is_a_user_error_with_readable_lines(tmp_path):
    path = write(tmp_path, MINIMAL + '[first_aid]\nstart = "0s"\ninterval = "0s"\n')
    with pytest.raises(UserError) as caught:
        load_scenario(path)
    assert str(caught.value) == (
        f"{path}: first_aid.interval: got '0s'; expected a duration of one second or more, "
        'up to 36525d (100 years), with a unit, e.g. "15s", "15min", "1.5h", "2d"'
    )


def test_unknown_key_suggests_the_close_one(tmp_path):
    text = MINIMAL.replace("rs_it = 7", "rs_it = 7\nprofil = 'hydra'")
    (problem,) = problems_of(write(tmp_path, text))
    assert (problem.key, problem.value) == ("patient.profil", "hydra")
    assert "did you mean 'profile'?" in problem.expected


def test_a_top_level_key_written_under_a_table_says_where_it_belongs(tmp_path):
    """horizon = "2d" below [patient] is patient.horizon to TOML: the problem says to move it."""
    text = MINIMAL.replace('horizon = "2d"\n', "") + 'horizon = "2d"\n'
    problems = problems_of(write(tmp_path, text))
    assert [p.key for p in problems] == ["horizon", "patient.horizon"]
    assert "horizon is a key of the top level" in problems[1].expected
    assert "above the file's first [table]" in problems[1].expected
    assert "key of the top level" not in problems[0].expected


def test_toml_syntax_error_names_the_line(tmp_path):
    (problem,) = problems_of(write(tmp_path, 'name = "x"\nhorizon = \n'))
    assert problem.key == "line 2"
    assert problem.value == "horizon ="
    assert problem.expected.startswith("valid TOML")


def test_a_toml_mistake_is_said_in_french_and_a_duration_without_quotes_gets_them(tmp_path):
    """tomllib's English ("Illegal character...") is worded in the language in force; a
    duration written bare (horizon = 3d) is answered with its quotes."""
    from simulator.report.i18n import problem_text

    (bare,) = problems_of(write(tmp_path, 'name = "x"\nhorizon = 3d  # three days\n'))
    assert str(bare.expected) == 'valid TOML, a duration written in quotes: horizon = "3d"'
    (open_string,) = problems_of(write(tmp_path, 'name = "x\n'))
    english = str(open_string)
    assert english.endswith("expected valid TOML: Illegal character '\\n' (at line 1, column 10)")
    french = problem_text(open_string, "fr")
    assert "caractère interdit '\\n' (ligne 1, colonne 10)" in french, french


def test_a_range_in_french_is_written_as_french_writes_numbers(tmp_path):
    """An integer's bounds in a problem: "de −1 000 à 1 000" in French, as every other number
    of the terminal and the page is written there (it read "de -1000 à 1000"); the English,
    the value as typed and a TOML spelling to type stay as they were."""
    from simulator.report.i18n import problem_text

    (problem,) = problems_of(write(tmp_path, MINIMAL.replace("cp_rs = 8", "cp_rs = 5000")))
    assert str(problem).endswith("got 5000; expected an integer from -1000 to 1000")
    french = problem_text(problem, "fr")
    assert french.endswith("reçu 5000 ; attendu un entier de \u22121\u202f000 à 1\u202f000"), french
    (spelt,) = problems_of(write(tmp_path, MINIMAL.replace("cp_rs = 8", 'cp_rs = "02"')))
    assert problem_text(spelt, "fr").endswith("\u202f000, écrit 2"), problem_text(spelt, "fr")


def test_a_number_too_large_for_a_float_is_quoted_as_typed(tmp_path):
    """TOML reads 1e400 as infinity; the message quotes what was typed, in arrays too."""
    text = MINIMAL + "[watch]\nneglect_probability = 1e400\nneglect_at = [-1_0e4_00]\n"
    found = {p.key: str(p) for p in problems_of(write(tmp_path, text))}
    assert set(found) == {"watch.neglect_probability", "watch.neglect_at[0]"}
    assert "got 1e400;" in found["watch.neglect_probability"]
    assert "got -1_0e4_00;" in found["watch.neglect_at[0]"]
    assert "inf" not in " ".join(found.values())
    (spelt,) = problems_of(write(tmp_path, MINIMAL + "[watch]\nneglect_probability = inf\n"))
    assert "got inf;" in str(spelt)  # TOML's own word stays itself


def test_a_negative_zero_probability_is_zero(tmp_path):
    """-0.0 is 0: no "-0" in a trace, a saved file or the JSON."""
    text = MINIMAL + "[watch]\nneglect_probability = -0.0\n[rules]\ntrigger_probability = -0.0\n"
    loaded = load_scenario(write(tmp_path, text))
    for value in (loaded.watch.neglect_probability, loaded.settings.trigger_probability):
        assert value == 0.0 and math.copysign(1.0, value) == 1.0


def test_missing_file(tmp_path):
    path = tmp_path / "absent.toml"
    (problem,) = problems_of(path)
    assert (problem.key, problem.value) == ("(file)", str(path))


def test_long_values_are_shortened_in_messages(tmp_path):
    text = MINIMAL + "[nonsense]\n" + "".join(f"key{i} = {i}\n" for i in range(40))
    (problem,) = problems_of(write(tmp_path, text))
    assert len(repr(problem.value)) <= 80


@pytest.mark.parametrize("path", sorted((REPO / "scenarios").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_scenarios_are_valid(path):
    assert load_scenario(path).name


KEYS = [
    "name",
    "horizon",
    "ruleset",
    "patient",
    "patient.cp_rs",
    "patient.profile",
    "patient.maxima.light",
    "injuries",
    "injuries.0.at",
    "first_aid",
    "first_aid.interval",
    "watch.neglect_at",
    "rules.table.grave",
    "rules.table.grave.max",
    "rules.faint_duration",
    "nonsense.deep.key",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(KEYS),
            st.one_of(
                st.sampled_from(
                    ["0s", "-1h", "true", "1.5", "[1, 2]", "{a = 1}", "1979-05-27", "nan", ""]
                ),
                st.text(max_size=12),
            ),
        ),
        max_size=4,
    )
)
def test_any_override_gives_a_scenario_or_a_scenario_error(tmp_path_factory, pairs):
    """Whatever a user sets, the answer is a scenario or problems, never another exception."""
    path = tmp_path_factory.mktemp("fuzz") / "s.toml"
    path.write_text(MINIMAL + '[[injuries]]\nat = "0s"\nlevel = "grave"\n', encoding="utf-8")
    try:
        load_scenario(path, [f"{key}={value}" for key, value in pairs])
    except ScenarioError as exc:
        assert exc.problems
        assert all(str(problem) for problem in exc.problems)


# --- absurd values are refused, not simulated ---------------------------------------------


@pytest.mark.parametrize(
    ("rest", "key", "expected"),
    [
        ('[first_aid]\nstart = "0s"\ninterval = "0.001s"\n', "first_aid.interval", "one second"),
        ('[rules.table.grave]\nstable_period = "0.5s"\n', "stable_period", "one second"),
        ('[[injuries]]\nat = "36526d"\nlevel = "grave"\n', "injuries[0].at", "100 years"),
        (
            '[[injuries]]\nat = "0s"\nlevel = "light"\ncount = 1001\n',
            "injuries[0].count",
            "1 to 1000",
        ),
        ("[rules.table.grave]\npain = 33000\n", "rules.table.grave.pain", "0 to 1000"),
        ("[healing]\nlevel = -1000000000000000000000000000000\n", "healing.level", "-1000 to 1000"),
    ],
)
def test_absurd_values_are_refused_with_the_bounds(tmp_path, rest, key, expected):
    with pytest.raises(ScenarioError) as err:
        load_scenario(write(tmp_path, MINIMAL + rest))
    (problem,) = err.value.problems
    assert problem.key.endswith(key) and expected in problem.expected


def test_a_horizon_beyond_a_century_is_refused(tmp_path):
    with pytest.raises(ScenarioError, match="100 years"):
        load_scenario(write(tmp_path, MINIMAL.replace('"2d"', '"99999999999w"')))


def test_a_file_with_a_byte_order_mark_reads_like_one_without(tmp_path):
    plain = load_scenario(write(tmp_path, MINIMAL, "plain.toml"))
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + MINIMAL.encode("utf-8"))
    assert dataclasses.replace(load_scenario(marked), source="") == dataclasses.replace(
        plain, source=""
    )


@pytest.mark.parametrize(
    "text",
    [
        'name = "t"\nhorizon = "2d"\nx = ' + "9" * 4400 + "\n",  # past Python's digit limit
        'name = "t"\nhorizon = "2d"\nx = ' + "[" * 5000 + "]" * 5000 + "\n",  # deep nesting
    ],
    ids=["huge-integer", "deep-nesting"],
)
def test_toml_that_python_cannot_hold_is_a_problem_not_a_crash(tmp_path, text):
    with pytest.raises(ScenarioError) as err:
        load_scenario(write(tmp_path, text))
    assert err.value.problems[0].key == "(file)"


def test_an_override_python_cannot_read_as_toml_is_a_string_and_refused(tmp_path):
    with pytest.raises(ScenarioError) as err:
        load_scenario(write(tmp_path, MINIMAL), ["patient.cp_rs=" + "9" * 4400])
    assert "patient.cp_rs" in str(err.value) and "-1000 to 1000" in str(err.value)


def test_a_quoted_key_with_dots_is_told_as_one_name(tmp_path):
    """TOML reads "rules.table.grave.pain" = 3 as one key named with dots, not a table's."""
    text = MINIMAL.replace('horizon = "2d"\n', 'horizon = "2d"\n"rules.table.grave.pain" = 3\n')
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.key == "rules.table.grave.pain"
    said = str(problem.phrase)
    assert "a quoted name is one key" in said and "rules.table.grave.pain unquoted" in said


def test_a_decimal_comma_is_told_with_the_decimal_point(tmp_path):
    """'0,5' is a number to a French hand: the message shows it as the file takes it."""
    text = MINIMAL + '[watch]\nneglect_probability = "0,05"\n'
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.key == "watch.neglect_probability"
    assert "written with a decimal point: 0.05" in str(problem.phrase)
    overrides = ('rules.pain_recovery_per_hour="0,5"', "rules.table.grave.unstable_period=1,5h")
    found = {p.key: str(p.phrase) for p in problems_of(write(tmp_path, MINIMAL), overrides)}
    assert found["rules.pain_recovery_per_hour"].endswith("written with a decimal point: 0.5")
    assert found["rules.table.grave.unstable_period"].endswith("a decimal point: 1.5h")


def test_a_decimal_comma_that_breaks_the_toml_is_told_at_its_line_in_either_file(tmp_path):
    """cp_rs = 0,5 is no TOML: said at its line, with the point, in a scenario or a calibration."""
    from simulator.report.i18n import problem_text
    from simulator.studies.calibrate_file import read_calibration

    text = MINIMAL.replace("cp_rs = 8", "cp_rs = 8,5")
    assert text != MINIMAL
    (problem,) = problems_of(write(tmp_path, text))
    number = 1 + text.splitlines().index("cp_rs = 8,5")
    assert problem.key == f"line {number}"
    assert "a number written with a decimal point: cp_rs = 8.5" in str(problem.phrase)
    assert problem_text(problem, "fr").startswith(f"{tmp_path / 's.toml'} : ligne {number} : ")
    during = text.replace('horizon = "2d"', "horizon = 1,5d").replace("cp_rs = 8,5", "cp_rs = 8")
    (problem,) = problems_of(write(tmp_path, during, "d.toml"))
    assert 'a number written with a decimal point: horizon = "1.5d"' in str(problem.phrase)
    calibration = 'name = "c"\n[[free]]\nkey = "patient.cp_rs"\nlow = 0,5\n'
    calibration = write(tmp_path, calibration, "c.toml")
    with pytest.raises(ScenarioError) as caught:
        read_calibration(calibration)
    (problem,) = caught.value.problems
    assert problem.key == "line 4" and "low = 0.5" in str(problem.phrase)


def test_a_control_character_in_a_text_is_refused(tmp_path):
    """A NUL in a name went raw into summary.csv; a named pipe as a scenario hung for ever."""
    import os

    text = MINIMAL.replace('name = "', 'name = "\\u0000', 1)
    assert text != MINIMAL
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.key == "name" and "without control characters" in str(problem.phrase)
    fine = MINIMAL.replace('name = "', 'name = "two\\tparts ', 1)  # a tab is no control here
    assert load_scenario(write(tmp_path, fine)).name.startswith("two\tparts ")
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    (problem,) = problems_of(pipe)
    assert "not a named pipe or socket" in str(problem.phrase)


@pytest.mark.parametrize(
    "override",
    ["rules.table.grave.max=5", "rules.table.grave={max=5}", "rules.table={grave={max=5}}"],
)
def test_t2_a_table_max_that_patient_maxima_outranks_is_refused_in_any_form(tmp_path, override):
    """It would change nothing (CONTRACT.md: [patient.maxima] comes last), silently."""
    path = write(tmp_path, MAXIMA_GIVEN)
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path, [override])
    (problem,) = refused.value.problems
    assert "patient.maxima.grave, which the file gives" in problem.expected_text(str)
    for fine in ("rules.table.grave={pain=4}", "rules.table.light.max=5", "patient.maxima.grave=5"):
        load_scenario(path, [fine])


def test_the_table_comment_shows_no_period_a_mental_level_never_uses():
    """M3: mental wounds arrive stable, test no survival and have no watch: their three
    periods printed as numbers by `validate --show` read as rules they are not."""
    from simulator.scenario.reading import load_scenario
    from simulator.scenario.writing import table_comment

    shaken = load_scenario(Path(__file__).resolve().parents[2] / "scenarios" / "shaken.toml")
    rows = {line.split()[0]: line.split() for line in table_comment(shaken).splitlines()[4:]}
    assert rows["trauma"] == ["trauma", "2", "3", "5", "—", "—", "—", "1w", "-3"]
    assert rows["grave"][4:7] == ["15min", "1d", "6h"]  # a physical level keeps its periods


def test_a_renamed_scenario_is_never_shown_under_its_old_french_name():
    # --set name=... kept the file's name_fr: under --lang fr a notebook's "Candidate table"
    # read as the original scenario, its numbers under another's title (a helper's round)
    path = REPO / "scenarios" / "geraldine.toml"
    renamed = load_scenario(path, ["name=Géraldine with a medic", "first_aid.level=3"])
    assert renamed.name == "Géraldine with a medic" and renamed.name_fr == ""
    assert renamed.description_fr != ""  # only what was renamed loses its French
    both = load_scenario(path, ["name=With a medic", "name_fr=Avec un médecin"])
    assert both.name_fr == "Avec un médecin"
    assert load_scenario(path).name_fr == "Géraldine après l'embuscade"
    described = load_scenario(path, ["description=Another question"])
    assert described.description_fr == "" and described.name_fr != ""
    from simulator.scenario.overrides import edited_toml
    from simulator.scenario.reading import read_scenario_mapping

    data = read_scenario_mapping(path)  # a copy saved under a new name (the workbench's)
    saved = edited_toml(data, ["name=Candidate"], [])
    assert 'name = "Candidate"' in saved and "name_fr" not in saved
    assert "description_fr" in saved  # only what was renamed loses its French
    kept = edited_toml(data, ["name=Candidate", "name_fr=Candidat"], [])
    assert 'name_fr = "Candidat"' in kept


def test_a_probability_written_as_a_percent_is_told_as_a_number(tmp_path):
    """``neglect_probability = "5%"`` was refused without the number meant: 0.05."""
    from simulator.report.i18n import problem_text

    text = MINIMAL + '[watch]\nneglect_probability = "5%"\n[rules]\ntrigger_probability = "50 %"\n'
    found = {p.key: p for p in problems_of(write(tmp_path, text))}
    assert set(found) == {"watch.neglect_probability", "rules.trigger_probability"}
    neglect, trigger = found["watch.neglect_probability"], found["rules.trigger_probability"]
    assert str(neglect).endswith("expected a probability, a number from 0 to 1: 5% is written 0.05")
    assert str(trigger).endswith("a number from 0 to 1: 50 % is written 0.5")
    french = problem_text(neglect, "fr")
    assert french.endswith("attendu une probabilité, un nombre de 0 à 1 : 5% s'écrit 0.05"), french
    (set_,) = problems_of(write(tmp_path, MINIMAL), ("watch.neglect_probability=2,5%",))
    assert "2,5% is written 0.025" in str(set_)
    (beyond,) = problems_of(write(tmp_path, MINIMAL), ("watch.neglect_probability=150%",))
    assert str(beyond).endswith("expected a probability, a number from 0 to 1")  # no such share


def test_a_decimal_comma_in_a_percent_is_told_as_one_value():
    """``--grid watch.neglect_probability=2,5%`` was read as the values 2 and 5%, and the
    percent's hint said '5% is written 0.05', the wrong way: for a probability, 2,5% is the
    one percent 2.5% (its own hint, 0.025, follows). A level's 2,5% stays two mistakes."""
    from simulator.scenario.checks import decimal_commas

    assert decimal_commas(["2", "5%"], fractions=True, probability=True) == "2.5%"
    assert decimal_commas(["2", "5%", "10%"], fractions=True, probability=True) == "2.5%,10%"
    assert decimal_commas(["2", "5 %"], fractions=True, probability=True) == "2.5 %"
    assert decimal_commas(["5%", "10%"], fractions=True, probability=True) is None
    assert decimal_commas(["150", "5%"], fractions=True, probability=True) is None  # > 100%
    assert decimal_commas(["2", "5%"]) is None  # first_aid.level=2,5%
