"""``balance``: known answers computed by hand from D5's odds, and the honest reports.

Every case is a lone grave wound with nobody to help, read within a day: its survival tests
fall every unstable period (S2) with Cp+Rs minus the pain (S1), and the first failure makes
the wound critical (S3), whose tests every 15 seconds at Cp+Rs − 15 kill within the minute.
So the share dead by the day is ``1 − p^n``, ``p`` the chance of a test (D5) and ``n`` the
number of tests strictly before the day's end. Tolerances come from the standard error.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from simulator.errors import UserError
from simulator.rules.dice import p_success
from simulator.scenario.keys import Grid, Kind, parse_vary
from simulator.studies.balance_study import balance
from simulator.studies.statistic import Statistic
from tests.studies.alone import grave_alone, one_worker, write
from tests.support import harmonies_sim


def se(p, n):
    return math.sqrt(max(p * (1 - p), 1e-4) / n)


def test_integer_key_finds_the_hand_computed_bracket(tmp_path):
    # One test in the day (at 12h): dead by 1d = 1 - p_success(cp_rs - 5); 21% at +8, 15% at +9.
    path = write(tmp_path, grave_alone(6, "12h"))
    n = 4000
    with one_worker(n, 3) as mc:
        found = balance(path, "patient.cp_rs=0..14", "p_dead_by_1d=0.18", mc)
    low, high = found.bracket
    assert (low.value, high.value) == (8, 9)
    for point in (low, high):
        exact = 1 - p_success(int(point.value) - 5)
        assert abs(point.stat - exact) < 4 * se(exact, n)
    assert found.monotone and not found.outside
    assert found.key.kind is Kind.INTEGER
    assert found.points[0].value == 0 and found.points[-1].value == 14  # the ends, evaluated


def test_duration_key_finds_the_step_of_the_number_of_tests(tmp_path):
    # Cp+Rs 6 - pain 5 = +1: a test passes 64%. Below 12h two tests fit in the day (59%),
    # from 12h one (36%): a target of 50% lies between 11 h 59 min and 12 h.
    path = write(tmp_path, grave_alone(6, "1h"))
    n = 2000
    with one_worker(n, 5) as mc:
        found = balance(path, "rules.table.grave.unstable_period=1h..1d", "p_dead_by_1d=0.5", mc)
    low, high = found.bracket
    assert (low.value, high.value) == (719 * 60, 12 * 3600)
    p = p_success(1)
    assert abs(low.stat - (1 - p**2)) < 4 * se(1 - p**2, n)
    assert abs(high.stat - (1 - p)) < 4 * se(1 - p, n)
    document = found.to_json()
    assert document["low"]["value"] == "719min" and document["low"]["shown"] == "11 h 59 min"
    assert document["high"]["value"] == "12h" and document["high"]["shown"] == "12 h"
    assert all(ev["value"].endswith(("min", "h", "d")) for ev in document["evaluations"])
    from simulator.report.figures_studies import balance_figure

    ax = balance_figure(found.figure_frame(), key=found.key.name, kind="duration",
                        stat="p_dead_by_1d", target=0.5)  # fmt: skip
    assert ax.get_xscale() == "log" and ax.get_xlabel().endswith("(log scale)")  # as a sweep's


MENTAL = """
name = "Grave wound and a trauma"
horizon = "1d"

[patient]
cp_rs = 12
rs_it = 6

[[injuries]]
at = "0s"
level = "grave"

[[injuries]]
at = "0s"
level = "trauma"

[rules.table.grave]
unstable_period = "12h"
"""


def test_probability_key_follows_the_trigger_probability(tmp_path):
    # One survival test at 12h at Cp+Rs 12 - pain 10 = +2, and the trauma's -3 with
    # probability q (M1): dead by 1d = (1 - q) (1 - p(+2)) + q (1 - p(-1)), a line in q.
    path = write(tmp_path, MENTAL)
    n = 2000
    with one_worker(n, 11) as mc:
        found = balance(path, "rules.trigger_probability=0..1", "p_dead_by_1d=0.4", mc)
    a, b = 1 - p_success(2), 1 - p_success(-1)
    answer = (0.4 - a) / (b - a)
    low, high = found.bracket
    assert found.key.kind is Kind.PROBABILITY
    # neighbours a thousandth apart, or a value exactly on the target (a hit)
    assert math.isclose(high.value - low.value, 0.001 if not found.hits else 0, abs_tol=1e-9)
    assert abs(low.value - answer) < 4 * se(0.4, n) / (b - a) + 0.001
    assert abs(found.points[0].stat - a) < 4 * se(a, n)
    assert abs(found.points[-1].stat - b) < 4 * se(b, n)


def test_target_outside_the_range_is_said_so(tmp_path):
    path = write(tmp_path, grave_alone(0, "15min"))
    with one_worker(500, 1) as mc:
        found = balance(path, "patient.cp_rs=0..3", "p_dead_by_1d=0.05", mc)
    assert found.outside and not found.crossings
    document = found.to_json()
    assert document["outside"] is True
    assert (document["low"]["value"], document["high"]["value"]) == (0, 3)
    from simulator.cli.balance import balance_text

    assert "outside the range" in balance_text(found)


BASIC = """
name = "Grave wound, basic rules"
ruleset = "basic"
horizon = "60d"

[patient]
cp_rs = 0
rs_it = 6

[[injuries]]
at = "0s"
level = "grave"
"""


def test_not_monotone_reports_every_crossing(tmp_path):
    # Basic rules over 60 days: the frail die, the tough heal, in between some are still
    # wounded. The share still wounded rises then falls with Cp+Rs: two crossings.
    path = write(tmp_path, BASIC)
    with one_worker(1000, 2) as mc:
        found = balance(path, "patient.cp_rs=-20..20", "p_wounded=0.1", mc)
    assert not found.monotone
    assert len(found.crossings) >= 2
    rising, falling = found.crossings[0], found.crossings[-1]
    assert rising[0].stat < 0.1 < rising[1].stat
    assert falling[0].stat > 0.1 > falling[1].stat
    for a, b in found.crossings:
        assert b.value - a.value == 1
    from simulator.cli.balance import balance_text

    assert "not monotone" in balance_text(found)


def test_overlapping_bracket_says_how_many_trials_would_separate(tmp_path):
    # 21% at Cp+Rs 8 against a target of 20%: 300 trials cannot tell them apart.
    path = write(tmp_path, grave_alone(6, "12h"))
    with one_worker(300, 3) as mc:
        found = balance(path, "patient.cp_rs=0..14", "p_dead_by_1d=0.2", mc)
    overlaps, needed = found.overlap()
    assert overlaps
    assert needed is None or needed > 300
    assert found.to_json()["overlap"] is True


def test_grids_of_each_kind():
    key, low, high = parse_vary("rules.table.grave.unstable_period=30s..3min")
    grid = Grid(key.kind, low, high)
    values = [grid[i] for i in range(len(grid))]
    assert values == [*range(30, 181)]  # within an hour: every second (a cadence of 90 s)
    key, low, high = parse_vary("rules.table.grave.unstable_period=30s..1h")
    assert len(Grid(key.kind, low, high)) == 3600 - 30 + 1
    key, low, high = parse_vary("rules.table.grave.unstable_period=30s..2h")
    grid = Grid(key.kind, low, high)  # longer: seconds below a minute, then whole minutes
    values = [grid[i] for i in range(len(grid))]
    assert values == [*range(30, 60), *range(60, 7201, 60)]
    key, low, high = parse_vary("watch.neglect_probability=0.25..0.5")
    grid = Grid(key.kind, low, high)
    assert len(grid) == 251 and grid[1] == 0.251 and grid[-1] == 0.5
    key, low, high = parse_vary("rules.table.grave.unstable_period=15min..100w")
    grid = Grid(key.kind, low, high)
    assert grid[len(grid) - 2] == 100 * 7 * 86400 - 60  # never built in full
    assert Grid(Kind.INTEGER, -2, 2).spread(9) == [0, 1, 2, 3, 4]
    # P1's rate takes any number >= 0: searched over thousandths, integer ends included
    for vary, size in (
        ("rules.pain_recovery_per_hour=0.5..2", 1501),
        ("rules.pain_recovery_per_hour=0..1", 1001),
    ):
        key, low, high = parse_vary(vary)
        grid = Grid(key.kind, low, high)
        assert key.kind is Kind.NUMBER and len(grid) == size
        assert grid[1] == low + 0.001 and grid[-1] == high


@pytest.mark.parametrize(
    ("vary", "words"),
    [
        ("patient.cp_rs=3", "KEY=LOW..HIGH"),
        ("patient.cp_rs=5..1", "LOW smaller than HIGH"),
        ("patient.cp_rs=1..15min", "same kind"),
        ("watch.neglect_probability=0.5..2.5", "within [0, 1]"),
        ("rules.pain_recovery_per_hour=1h..2h", "two numbers from 0 to 1000"),
        ("rules.pain_recovery_per_hour=-1..2", "two numbers from 0 to 1000"),
        ("rules.pain_recovery_per_hour=0..1e308", "two numbers from 0 to 1000"),  # no overflow
        ("rules.pain_recovery_per_hour=0..inf", "two numbers from 0 to 1000"),
        ("rules.pain_recovery_per_hour=0,5..2", "written with a decimal point: 0.5"),
        ("rules.pain_recovery_per_hour=2..0.5", "LOW smaller than HIGH"),
        ("watch.neglect_probability=0...5", "KEY=LOW..HIGH"),  # not 0 to .5: three dots
        ("patient.cp_rs=1..2..3", "KEY=LOW..HIGH"),
    ],
)
def test_bad_ranges_name_the_flag(vary, words):
    with pytest.raises(UserError, match="--vary") as info:
        parse_vary(vary)
    assert words in str(info.value)


def test_statistics_parse_and_refuse():
    assert Statistic.parse("p_dead_by_90min").by == 5400
    assert Statistic.parse("p_healed").by is None
    for bad in ("p_alive", "p_dead_by_tomorrow", "dead"):
        with pytest.raises(UserError, match="--target"):
            Statistic.parse(bad)


def cli(*args):
    return harmonies_sim(*args)


def test_balance_json_through_the_command_line(tmp_path):
    path = write(tmp_path, grave_alone(6, "12h"))
    out = tmp_path / "out"
    args = ["--vary", "patient.cp_rs=0..14", "--target", "p_dead_by_1d=0.18", "--trials", "1000"]
    done = cli("balance", path, *args, "--seed", "3", "--workers", "1", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert {"key", "target", "low", "high", "best", "evaluations", "method"} <= set(document)
    assert document["key"] == "patient.cp_rs"
    assert document["target"] == {"stat": "p_dead_by_1d", "value": 0.18}
    for end in ("low", "high", "best"):
        assert {"value", "stat", "ci"} <= set(document[end])
    assert document["method"] == "monte-carlo"
    assert (document["low"]["value"], document["high"]["value"]) == (8, 9)
    written = sorted(p.name for p in out.iterdir())
    assert written == [
        ".harmonies-sim",
        "balance.csv",
        "balance.json",
        "balance.png",
        "balance.svg",
        "kept-evaluations.parquet",  # every evaluation, kept: the same command reads them back
        "report.html",
    ]
    rows = (out / "balance.csv").read_text().splitlines()
    assert len(rows) == 1 + len(document["evaluations"])


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--vary", "patient.cp_rs=0..3", "--target", "p_deadly=0.2"], "--target"),
        (["--vary", "patient.cp_rs=0..3", "--target", "p_dead_by_2d=0.2"], "horizon"),
        (["--vary", "patient.cp_rs=0..3", "--target", "p_dead=1.5"], "--target"),
        (["--vary", "first_aid.levle=0..3", "--target", "p_dead=0.2"], "first_aid"),
        (["--vary", "rules.table.grave.max=-3..1", "--target", "p_dead=0.2"], "max"),
        (["--vary", "name=5min..1h", "--target", "p_dead=0.2"], "holds an integer, a duration"),
    ],
)
def test_balance_refuses_with_exit_2_naming_the_key(tmp_path, args, named):
    path = write(tmp_path, grave_alone(6, "12h"))
    done = cli("balance", path, *args, "--trials", "100", "--out", str(tmp_path / "o"))
    assert done.returncode == 2, done.stderr
    assert named in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()  # refused before anything is written


def test_exact_finds_the_hand_computed_values(tmp_path):
    from simulator.studies.method import Exact

    with Exact() as exact:
        by_attribute = balance(
            write(tmp_path, grave_alone(6, "12h"), "a.toml"),
            "patient.cp_rs=0..14",
            "p_dead_by_1d=0.18",
            exact,
        )
        by_period = balance(
            write(tmp_path, grave_alone(6, "1h"), "b.toml"),
            "rules.table.grave.unstable_period=1h..1d",
            "p_dead_by_1d=0.5",
            exact,
        )
    low, high = by_attribute.bracket
    assert (low.value, high.value) == (8, 9)
    assert low.stat == pytest.approx(1 - p_success(3), abs=1e-9)
    assert high.stat == pytest.approx(1 - p_success(4), abs=1e-9)
    assert by_attribute.method == "exact" and by_attribute.to_json()["trials"] is None
    low, high = by_period.bracket
    assert (low.value, high.value) == (719 * 60, 12 * 3600)
    assert low.stat == pytest.approx(1 - p_success(1) ** 2, abs=1e-6)
    assert high.stat == pytest.approx(1 - p_success(1), abs=1e-6)
    assert by_period.overlap() == (False, None)


def test_exact_through_the_command_line(tmp_path):
    path = write(tmp_path, grave_alone(6, "12h"))
    done = cli("balance", path, "--vary", "patient.cp_rs=0..14", "--target", "p_dead_by_1d=0.18",
               "--exact", "--out", str(tmp_path / "out"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["method"] == "exact" and document["trials"] is None
    assert document["low"]["value"] == 8 and document["low"]["ci"][0] == document["low"]["stat"]
    both = cli("balance", path, "--vary", "patient.cp_rs=0..14", "--target", "p_dead=0.2",
               "--exact", "--seed", "3", "--out", str(tmp_path / "o"))  # fmt: skip
    assert both.returncode == 2 and "--seed" in both.stderr


RECOVERING = """
name = "recovering"
horizon = "2d"

[patient]
cp_rs = 4
rs_it = 8

[[injuries]]
at = "0s"
level = "grave"

[first_aid]
level = 0
start = "1min"
interval = "5min"
"""


def test_exact_balances_a_fractional_recovery_rate(tmp_path):
    # P1: the first stable survival test comes a day after first aid succeeds, after 24 full
    # stable hours: pain max(3, 5 - 24 r) (the grave wound's 5, its mortality 3 the floor).
    # It reaches the floor, and the chance of surviving what follows steps up, at r = 1/12,
    # strictly between two thousandths: the search must find that pair, not stop at 0 and 1.
    from simulator.studies.method import Exact

    with Exact() as exact:
        found = balance(
            write(tmp_path, RECOVERING), "rules.pain_recovery_per_hour=0..1", "p_dead=0.3", exact
        )
    low, high = found.bracket
    assert found.key.kind is Kind.NUMBER
    assert (low.value, high.value) == (0.083, 0.084)
    assert low.value < 1 / 12 < high.value
    assert low.stat > 0.3 > high.stat
    evaluated = {point.value: point.stat for point in found.points}
    assert evaluated[1.0] == pytest.approx(high.stat, abs=1e-8)  # the floor: no more change
    assert evaluated[0.0] > low.stat  # at 0 pain never falls: the worst


def test_a_set_of_the_varied_key_is_not_in_the_title(tmp_path):
    # The range wins over a --set of the same key (as sweep's grid does): the title must not
    # say "with rules.pain_recovery_per_hour=0" over numbers that never used it.
    from simulator.studies.method import Exact

    sets = ["rules.pain_recovery_per_hour=0", "first_aid.level=1"]
    with Exact() as exact:
        found = balance(
            write(tmp_path, RECOVERING),
            "rules.pain_recovery_per_hour=0..1",
            "p_dead=0.3",
            exact,
            overrides=sets,
        )
    assert found.name == "recovering (with first_aid.level=1)"
    assert found.points[0].value == 0.0 and found.points[-1].value == 1.0


def test_a_decimal_comma_in_vary_or_target_is_told_with_the_point():
    from simulator.errors import UserError
    from simulator.studies.method import Exact

    lone = "scenarios/lone_traveller.toml"
    with pytest.raises(UserError, match=re.escape("each end written with a decimal point: 0.5h")):
        balance(lone, "rules.table.grave.unstable_period=0,5h..1d", "p_dead_by_1d=0.2", Exact())
    with pytest.raises(UserError, match=re.escape("decimal point: p_dead_by_1d=0.2")):
        balance(lone, "rules.table.grave.unstable_period=1h..1d", "p_dead_by_1d=0,2", Exact())


def test_a_target_in_percent_is_the_share_it_says():
    """The workbench took "20%" and the command line refused it."""
    from simulator.errors import UserError
    from simulator.studies.balance_study import parse_target

    assert parse_target("p_dead_by_1d=20%")[1] == parse_target("p_dead_by_1d=0.2")[1] == 0.2
    assert parse_target("p_dead=0.5 %")[1] == 0.005
    with pytest.raises(UserError, match="a share from 0 to 1"):
        parse_target("p_dead=120%")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("p_died_by_1d", "p_dead_by_1d"),
        ("p_heal", "p_healed"),
        ("p_dead_stable_tests", "p_dead_stable_test"),
        ("P_Dead", "p_dead"),
        ("p_xyz", None),
    ],
)
def test_a_misspelt_statistic_is_answered_with_the_one_meant(typed, meant):
    with pytest.raises(UserError) as refused:
        Statistic.parse(typed)
    said = str(refused.value)
    assert said.startswith(f"--target: got {typed!r}; expected p_dead, p_healed")
    if meant is None:
        assert "did you mean" not in said
    else:
        assert said.endswith(f" (did you mean {meant}?)")
        Statistic.parse(meant)


def test_a_spelled_unit_in_a_range_or_after_by_is_answered_with_the_one_meant():
    with pytest.raises(UserError) as refused:
        parse_vary("rules.table.grave.unstable_period=15m..1d")
    assert str(refused.value).endswith(
        "(did you mean rules.table.grave.unstable_period=15min..1d?)"
    )
    with pytest.raises(UserError) as refused:
        Statistic.parse("p_dead_by_1day")
    assert str(refused.value).endswith("(did you mean p_dead_by_1d?)")
    with pytest.raises(UserError) as refused:
        Statistic.parse("p_dead_by_1h30")
    assert str(refused.value).endswith("(did you mean p_dead_by_1h30min?)")
    Statistic.parse("p_dead_by_1h30min")


def test_a_balance_draws_its_own_figure_in_a_notebook():
    """Plotting a balance from Python needed the figure's internals (its key's kind, its
    brackets); ``result.figure()`` draws what balance.png shows."""
    from pathlib import Path

    import matplotlib.pyplot as plt

    from simulator.studies import Exact

    lone = Path(__file__).resolve().parents[2] / "scenarios" / "lone_traveller.toml"
    found = balance(lone, "patient.cp_rs=0..8", "p_dead=0.3", Exact())
    ax = found.figure()
    assert "Balancing Cp+Rs" in ax.get_title(loc="left") and ax.lines and ax.get_xlabel() == "Cp+Rs"
    plt.close(ax.figure)


def test_a_step_across_the_target_is_said_only_when_far_on_both_sides():
    # README's balance: 23 h 59 min gives 36%, 1 d gives 0%, for a target of 20%: no value
    # of the key comes near it (a browser review read "Nearest the target: 23 h 59 min" as an
    # answer); two neighbours close to the target, or a small step, say nothing more
    from simulator.report.wording import steps_across

    assert steps_across(0.361, 0.0, 0.2)
    assert not steps_across(0.21, 0.19, 0.2)  # a small step: near the target
    assert not steps_across(0.40, 0.21, 0.2)  # one side within half a step of it
    assert not steps_across(0.22, 0.0, 0.2)


def test_a_range_end_too_large_for_a_float_is_refused_in_words():
    """``--vary patient.cp_rs=-1000...0..1000...0`` (400 digits) printed OverflowError's
    traceback: an end no float holds. Refused, its text shortened."""
    huge = "1" + "0" * 400
    with pytest.raises(UserError, match=r"expected ends of at most 1e15 in size") as refused:
        parse_vary(f"patient.cp_rs=-{huge}..{huge}")
    assert len(str(refused.value)) < 300
    _key, low, high = parse_vary("patient.cp_rs=-1000..1000")  # within: as before
    assert (low, high) == (-1000.0, 1000.0)


def test_balance_notes_keep_the_note_prefix_in_french():
    """The ``note:`` prefix is a token scripts look for, the same in every language: French
    typography's ``note :`` (a space before the colon) hid balance's three notes from them."""
    from simulator.cli.balance import balance_text
    from simulator.report.i18n import language
    from simulator.studies.balance_study import BalanceResult, Point, parse_target
    from simulator.studies.statistic import Evaluation

    key, _low, _high = parse_vary("patient.cp_rs=0..2")
    stat, target = parse_target("p_dead=0.2")
    shares = [(0.0, (0.0, 0.04)), (0.5, (0.4, 0.6)), (0.19, (0.12, 0.28))]  # up, then down
    points = [Point(i, i, Evaluation(p, ci, trials=100)) for i, (p, ci) in enumerate(shares)]
    found = BalanceResult(
        key, stat, target, points, [(points[0], points[1]), (points[1], points[2])], [],
        "monte-carlo", name="s", trials=100, seed=0,
    )  # fmt: skip
    for lang, words in (("en", "the statistic"), ("fr", "la statistique")):
        with language(lang):
            text = balance_text(found)
        notes = [line.strip() for line in text.splitlines() if "note" in line]
        assert len(notes) == 3, text  # not monotone, a step across, an interval on the target
        assert all(note.startswith("note: ") for note in notes), text
        assert f"note: {words} n'est pas" in text if lang == "fr" else words in text


def test_a_range_of_a_probability_in_percents_is_told_the_numbers_it_means():
    """A scenario file, a --set and a calibration file said '5% is written 0.05'; --vary said
    only what KEY=LOW..HIGH takes, which left a designer to guess."""
    from simulator.errors import UserError, fill
    from simulator.report.i18n import tr

    with pytest.raises(UserError) as caught:
        parse_vary("watch.neglect_probability=1%..10%")
    assert str(caught.value) == (
        "--vary watch.neglect_probability: got '1%..10%'; expected a probability, a number "
        "from 0 to 1: 1%..10% is written 0.01..0.1"
    )
    phrase = caught.value.phrase
    french = fill(phrase.template, phrase.args, lambda t: tr(t, "fr"))
    assert french.endswith(": 1%..10% s'écrit 0.01..0.1")
    with pytest.raises(UserError, match=re.escape("0.01..2,5% is written 0.01..0.025")):
        parse_vary("rules.trigger_probability=0.01..2,5%")
    for beyond in ("watch.neglect_probability=1%..150%", "first_aid.level=1%..3%"):
        with pytest.raises(UserError) as caught:
            parse_vary(beyond)
        assert "is written" not in str(caught.value)  # no share, or no probability
