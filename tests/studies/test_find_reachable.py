"""``trace --find`` an end the scenario can never reach: said at once, never searched for.

The proofs of :mod:`simulator.studies.reachable` (W1, B1, B4, B6, M2, M3, R1, G1): each
verdict of the repository's scenarios, and their soundness: no scenario called unable to
reach an end reaches it in the kernel's trials.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulator.errors import UserError
from simulator.kernel.engine import kernel_columns
from simulator.rules.outcome import OUTCOMES
from simulator.scenario.model import Scenario
from simulator.scenario.reading import load_scenario
from simulator.studies.campaign import find_trial, impossible
from simulator.studies.reachable import soonest_healed
from tests.support.made_up import MADE_UP, made_up

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def scenario(stem: str, *sets: str) -> Scenario:
    if stem == "lone_traveller_late":  # its grave wound a day past the horizon
        return scenario("lone_traveller", 'injuries=[{at="8d", level="grave"}]', *sets)
    return load_scenario(SCENARIOS / f"{stem}.toml", sets)


@pytest.mark.parametrize(
    ("stem", "outcome", "words"),
    [
        # R1, G1-G3: a critical wound rests 2w + 1w + 2d from 30s (first aid); the horizon is 3d
        ("field_medic", "healed", "heals at 23d 00:00:30 at the soonest, after the horizon (3d)"),
        # B1, B4: three wounds fill no level up to critical; the roll fails by 9 at worst
        ("geraldine_basic", "dead", "no healing roll can fail by 10 or more (by 9 at worst)"),
        # M2, M3: four mental wounds never fill trauma and psychosis at once
        ("shaken", "incoherent", "under the arpeges rules a mental wound never worsens (M3)"),
        # O2: the only wound falls after the horizon; the patient is never wounded
        ("lone_traveller_late", "wounded", "no wound is received by the horizon (O2)"),
    ],
)
@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "reference"])
def test_an_end_out_of_reach_is_refused_before_any_trial_runs(
    monkeypatch: pytest.MonkeyPatch, stem: str, outcome: str, words: str, kernel: bool
) -> None:
    def no_trial(*args: object, **kwargs: object) -> None:
        raise AssertionError("a trial was run")

    monkeypatch.setattr("simulator.kernel.engine.kernel_columns", no_trial)
    monkeypatch.setattr("simulator.engine.trial.run_trial", no_trial)
    with pytest.raises(UserError) as refused:
        find_trial(scenario(stem), 0, 0, outcome, kernel=kernel)
    said = str(refused.value)
    assert said.startswith(f"--find {outcome}: no trial of this scenario can end {outcome}: ")
    assert words in said, said


@pytest.mark.parametrize(
    ("stem", "sets", "outcome"),
    [
        ("geraldine_basic", ("patient.cp_rs=-3",), "dead"),  # B4: a margin of -10 reachable
        ("geraldine_basic", ('injuries=[{at="0s", level="critical", count=2}]',), "dead"),  # B1
        ("shaken", ('injuries=[{at="0s", level="psychosis", count=2}]',), "incoherent"),  # M2
        ("shaken", ("ruleset=basic", "patient.rs_it=-8"), "incoherent"),  # B6 worsens
        ("field_medic", ("horizon=24d",), "healed"),  # 30s + 2w + 1w + 2d within it
    ],
)
def test_an_end_within_reach_is_searched_for(stem: str, sets: tuple[str, ...], outcome: str):
    sc = scenario(stem, *sets)
    assert impossible(sc, outcome) is None
    if outcome != "healed":  # field_medic heals in 24d only when each of its tests passes
        found = find_trial(sc, 0, 0, outcome)
        assert OUTCOMES[kernel_columns(sc, 0, found, found + 1)["outcome"][0]] == outcome


VARIANTS = [
    (),
    ("patient.cp_rs=0",),
    ("patient.cp_rs=-4", "patient.rs_it=-4"),
    ("ruleset=basic",),
    ("ruleset=basic", "patient.cp_rs=1", "patient.rs_it=1"),
    ("ruleset=basic", "healing={modifier=-3}"),
    ("horizon=2d",),
    ("horizon=15d",),
    ("rules.table.light.heal_period=3d", "horizon=3d"),
    ("patient.maxima={light=1, grave=1, critical=1}",),
    ('injuries=[{at="40d", level="grave"}]',),  # after some horizons, before others
]


def cases() -> list[tuple[str, Scenario]]:
    """Every repository scenario under each variant, and the made-up ones as they are."""
    made = [(f"made up: {name}", made_up(name)) for name in MADE_UP]
    stems = sorted(path.stem for path in SCENARIOS.glob("*.toml"))
    return made + [(f"{stem} {sets}", scenario(stem, *sets)) for stem in stems for sets in VARIANTS]


@pytest.mark.compiled  # 2,000 trials of each scenario and variant: a minute as plain Python
def test_an_end_called_out_of_reach_never_happens():
    # Sound: an outcome called impossible is in none of 2,000 trials, under any variant;
    # and the proofs answer for some of them (else this test would prove nothing).
    called = 0
    for name, sc in cases():
        ends = {OUTCOMES[int(code)] for code in kernel_columns(sc, 5, 0, 2_000)["outcome"]}
        for outcome in OUTCOMES:
            if impossible(sc, outcome) is not None:
                called += 1
                assert outcome not in ends, (name, outcome)
    assert called >= 40, called


# --- healed: the soonest a wound can be gone, to the microsecond ------------------------------

SURE = (  # first aid, survival tests and the healer never fail: every trial heals at its soonest
    "patient.cp_rs=40",
    "patient.rs_it=40",
    'first_aid={level=40, start="5min", interval="5min"}',
    "healing={level=40}",
)


AT_ONCE = 'first_aid={level=40, start="0s", interval="5min"}'
"""First aid at each wound's arrival (A3): the rests begin with it."""


def soonest_case(case: str) -> tuple[Scenario, float]:
    """A scenario whose every trial heals, and when (hours): the proof's bound, reached."""
    hour, day, week = 1.0, 24.0, 168.0
    if case == "fresh":  # R1, G3: a grave wound at 1h, first aid 5min later, rests 1w then 2d
        sets, healed = ('injuries=[{at="1h", level="grave"}]',), 1 + 5 / 60 + week + 2 * day
    elif case == "cumulative":  # G3: one rest of 1w counts for grave and light alike
        sets = ('injuries=[{at="1h", level="grave"}]', 'rules.rest_per_level="cumulative"')
        healed = 1 + 5 / 60 + week
    elif case == "resume":  # R4: the light wound at 8d heals with the day rested before it
        sets = (
            'injuries=[{at="0s", level="grave"}, {at="8d", level="light"}]',
            'rules.rest_after_unstable="resume"',
            'first_aid={level=40, start="0s", interval="5min"}',
        )
        healed = week + 2 * day  # not 8d + 2d: a bound from each wound's receipt is wrong
    elif case == "restart":  # R4: the same light wound rests 2d of its own from 8d
        sets = ('injuries=[{at="0s", level="grave"}, {at="8d", level="light"}]',)
        sets += ('first_aid={level=40, start="0s", interval="5min"}',)
        healed = 8 * day + 2 * day
    elif case == "mental":  # M3: a trauma at 3h rests 1w, then 2d as a shock, from its receipt
        sets, healed = ('injuries=[{at="3h", level="trauma"}]',), 3 * hour + week + 2 * day
    elif case == "two levels":  # G1: the light wound's session first, then the grave's 1w + 2d
        sets = ('injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',)
        healed = 5 / 60 + 2 * day + week + 2 * day  # not 9d: each wound alone is not the sum
    elif case == "light after":  # R4 restart: the light wound at 3d rests 2d from its receipt
        sets = ('injuries=[{at="0s", level="grave"}, {at="3d", level="light"}]',)
        sets += ('first_aid={level=40, start="0s", interval="5min"}',)
        healed = 3 * day + 2 * day + week + 2 * day
    elif case == "overflow":  # W1: no light wound is held, the light one lands grave: 1w + 2d
        sets = (
            'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',
            "patient.maxima={light=0}",
        )
        healed = 5 / 60 + week + 2 * day
    elif case == "mental levels":  # M3: the shock's rest of its own first, then the trauma's
        sets = ('injuries=[{at="3h", level="trauma"}, {at="3h", level="shock"}]',)
        healed = 3 * hour + 2 * day + week + 2 * day
    elif case.startswith("light before"):  # R4: the grave wound at 1d breaks the light's rest
        sets = ('injuries=[{at="0s", level="light"}, {at="1d", level="grave"}]', AT_ONCE)
        healed = day + 2 * day + week + 2 * day  # the light's 2d from 1d, then 1w + 2d
        if case.endswith("resume"):  # the light wound's day rested before 1d counts
            sets += ('rules.rest_after_unstable="resume"',)
            healed = 2 * day + week + 2 * day
    elif case == "grave before":  # R4: the light wound at 1d rests 2d from its receipt
        sets = ('injuries=[{at="0s", level="grave"}, {at="1d", level="light"}]', AT_ONCE)
        healed = day + 2 * day + week + 2 * day
    elif case.startswith("three times"):  # G1, R4: the grave wound at 2d breaks the rest:
        # the light wound's 2d from 2d, the grave's 1w + 2d, the critical's 2w + 1w + 2d
        order = ("light", "grave", "critical") if "lightest" in case else None
        order = order or ("critical", "light", "grave")
        listed = ", ".join(f'{{at="{k}d", level="{level}"}}' for k, level in enumerate(order))
        sets = (f"injuries=[{listed}]", AT_ONCE)
        healed = 2 * day + 2 * day + (week + 2 * day) + (2 * week + week + 2 * day)
    elif case == "mental before":  # M3: the trauma restarts the mental rest at 1d
        sets = ('injuries=[{at="3h", level="shock"}, {at="1d", level="trauma"}]',)
        healed = day + 2 * day + week + 2 * day
    elif case == "basic before":  # B4, B5: the grave wound restarts the rest at 1d
        sets = ("ruleset=basic", 'injuries=[{at="2h", level="light"}, {at="1d", level="grave"}]')
        healed = day + 2 * day + week + 2 * day
    elif case == "basic levels":  # B4, B5: all light wounds before any grave one
        sets = ("ruleset=basic", 'injuries=[{at="2h", level="light"}, {at="2h", level="grave"}]')
        healed = 2 * hour + 2 * day + week + 2 * day
    else:  # B4: the basic ruleset rests from the wound's receipt, without first aid
        sets = ("ruleset=basic", 'injuries=[{at="2h", level="grave"}]')
        healed = 2 * hour + week + 2 * day
    return scenario("lone_traveller", *SURE, *sets), healed


CASES = ["fresh", "cumulative", "resume", "restart", "mental", "basic"]
CASES += ["two levels", "light after", "overflow", "mental levels"]
CASES += ["basic levels"]
CASES += ["light before", "light before, resume", "grave before", "three times"]
CASES += ["three times, lightest first", "mental before", "basic before"]
"""The soonest time to heal of each case, reached by every trial (:data:`SURE`)."""


@pytest.mark.parametrize("case", CASES)
def test_healed_is_refused_a_second_before_its_soonest_time(case: str):
    # R1, R4, G1-G3, M3, B4: the bound is the soonest time to heal: a horizon a second
    # short of it cannot end healed, and the proof says when the wound heals at the soonest
    sc, healed = soonest_case(case)
    second = 1 / 3600
    short = impossible(replace(sc, horizon=(healed - second) * 3600), "healed")
    assert short is not None, case
    assert str(short).startswith("the patient receives "), short
    assert "at the soonest, after the horizon" in str(short), short


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "reference"])
@pytest.mark.parametrize("case", CASES)
def test_a_patient_that_heals_at_the_horizon_is_found(case: str, kernel: bool):
    # O2, R1-R4, G1-G3, M3, B4: at a horizon equal to the soonest time to heal, healing is
    # called possible and found, at that very time (the proof is never wrong, and tight)
    sc, healed = soonest_case(case)
    sc = replace(sc, horizon=round(healed * 3600, 6))  # whole microseconds, as a file's
    assert impossible(sc, "healed") is None, case
    found = find_trial(sc, 0, 0, "healed", kernel=kernel)
    columns = kernel_columns(sc, 0, found, found + 1)
    assert OUTCOMES[columns["outcome"][0]] == "healed"
    assert columns["healed_h"][0] == pytest.approx(healed, abs=1e-9), case


def test_no_first_aid_no_healing():
    # A2, A3, R1: under the arpeges rules only first aid makes a wound stable, and a rest
    # begins only at a stable state: with a healer but nobody for first aid, none heals
    sc = scenario("lone_traveller", "healing={level=40}", "horizon=1000d")
    said = impossible(sc, "healed")
    assert said is not None and "nobody gives first aid ([first_aid])" in str(said), said
    assert impossible(scenario("lone_traveller", *SURE, "horizon=1000d"), "healed") is None
    basic = scenario("lone_traveller", "ruleset=basic", "horizon=1000d")
    assert impossible(basic, "healed") is None  # B3, B4: no first aid needed


# --- a search that finds nothing: bounded, and says how far it looked and how to go on -------


def test_a_search_that_finds_nothing_says_how_far_it_looked_and_how_to_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No proof rules it out (a lone grave wound might hold a week), but no trial does so.
    monkeypatch.setattr("simulator.studies.campaign.FIND_LIMIT", 5_000)
    with pytest.raises(UserError) as refused:
        find_trial(scenario("lone_traveller"), 7, 300, "wounded")
    said = str(refused.value)
    assert said.startswith("--find wounded: none of trials 300..5,299 of seed 7 ends wounded")
    assert "(the search stops after 5,000 trials)" in said, said
    # 0 of 5,000: below 1 - 0.05 ** (1 / 5000) = 0.0599% at 95% confidence
    assert "its chance is below 0.06% (95% confidence)" in said, said
    assert said.endswith("search on with --trial 5300 or another --seed"), said  # typed as is
    with pytest.raises(UserError) as page:  # the workbench: no flag was typed
        find_trial(scenario("lone_traveller"), 7, 300, "wounded", flag=False)
    assert str(page.value).endswith("search on from trial 5,300 or with another seed")


def test_a_search_at_the_last_trial_index_suggests_only_another_seed():
    last = 2**63 - 1
    with pytest.raises(UserError) as refused:
        find_trial(scenario("lone_traveller"), 0, last - 2, "wounded")
    said = str(refused.value)
    assert f"none of trials {last - 2:,}..{last:,} of seed 0 ends wounded" in said, said
    assert "(the search stops at the last trial)" in said and "--trial" not in said, said
    assert "its chance is below 63% (95% confidence)" in said, said  # 1 - 0.05 ** (1 / 3)
    assert said.endswith("search on with another --seed"), said


SLOW = (  # a grave wound held 1,000 days, a watch forgotten one time in two: slow for both
    "patient.cp_rs=40",
    "horizon=1000d",
    'first_aid={level=30, start="1min", interval="1min"}',
    "watch.neglect_probability=0.5",
)


class _Clock:
    """A clock that moves 0.3 s at each reading: the search's time bound without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 0.3
        return self.now


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "reference"])
def test_a_slow_search_stops_after_its_seconds_and_says_so(
    monkeypatch: pytest.MonkeyPatch, kernel: bool
) -> None:
    monkeypatch.setattr("simulator.studies.campaign.FIND_SECONDS", 0.5)
    monkeypatch.setattr("simulator.studies.campaign.FIRST_BLOCK", 3)
    monkeypatch.setattr("simulator.studies.campaign.time", _Clock())
    sc = scenario("lone_traveller", *SLOW)
    with pytest.raises(UserError) as refused:
        find_trial(sc, 0, 0, "dead", kernel=kernel)  # no trial of cp_rs 40 dies
    said = str(refused.value)
    assert "(the search stops after 0.5 seconds)" in said, said
    last = int(said.split("none of trials 0..", 1)[1].split()[0].replace(",", ""))
    assert f"search on with --trial {last + 1} or another --seed" in said, said
    assert last < 10, said  # stopped by its time, a few trials in, not by its count


def test_the_proof_of_two_levels_says_the_lighter_wounds_session_comes_first():
    # G1: a grave and a light wound at 0s heal at 11d 00:05 at the soonest; the proof gave
    # 9d 00:05, the grave wound's rests alone, and called a horizon of 10d out of reach
    sc, _ = soonest_case("two levels")
    said = str(impossible(replace(sc, horizon=10 * 86400.0), "healed"))
    assert said.startswith(
        "the patient receives a grave wound at 0d 00:00, which heals at 11d 00:05 at "
        "the soonest, after the horizon (10d): a session treats only the wounds of the least "
        "grave level present (G1), so before its first session, a light wound received at "
        "0d 00:00 has its first session at 2d 00:05 at the soonest"
    ), said
    assert "then a rest of 2d, rules.table.light.heal_period" in said, said
    assert said.endswith(
        "; then it rests once for each level it heals, one rest after "
        "another: 1w + 2d (rules.table.grave.heal_period, rules.table.light.heal_period) "
        "(A2, A3, R1, R4, G1-G3)"
    ), said


def refused_a_second_short(sc: Scenario, soonest: float) -> str:
    """What ``find`` says of healing by a second before ``soonest``, the proof's soonest."""
    assert soonest_healed(sc) == soonest
    return str(impossible(replace(sc, horizon=soonest - 1), "healed"))


def test_three_levels_sum_the_lighter_wounds_sessions_before_the_gravest_ones():
    # G1: a critical, a grave and a light wound at 0s, first aid at 5min: the light wound's
    # session (2d), the grave one's two (1w + 2d), then the critical's three (2w + 1w + 2d).
    # The proof gave 23d 00:05, the critical wound's rests alone
    day, week = 86400.0, 7 * 86400.0
    sc = scenario(
        "lone_traveller",
        *SURE,
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}, '
        '{at="0s", level="light"}]',
    )
    soonest = 300 + 2 * day + (week + 2 * day) + (2 * week + week + 2 * day)
    said = refused_a_second_short(sc, soonest)
    assert "a light wound received at 0d 00:00 has its first session at 2d 00:05" in said
    assert (
        "then a grave wound received at 0d 00:00 has its first at 9d 00:05 at the soonest "
        "(a rest of 1w after that one, rules.table.grave.heal_period), and it is gone at "
        "11d 00:05 at the soonest (2d more, rules.table.light.heal_period: the healer's test "
        "never fails it (a margin of 28 at worst, and no watch is ever neglected), so it "
        "never relapses (G4)); then it rests once"
    ) in said, said
    assert impossible(replace(sc, horizon=soonest), "healed") is None
    # A healer who may fail (a margin of -4 at worst on a grave wound): the grave wound, light
    # after its first session, may relapse (G4), but no survival test can fail (Cp+Rs 40,
    # pain 18 at most): nothing worsens it (S3), it must still be gone
    sc = replace(sc, healing=replace(sc.healing, level=8))
    said = refused_a_second_short(sc, soonest)
    assert (
        "and it is gone at 11d 00:05 at the soonest (2d more, rules.table.light.heal_period: "
        "no survival or activity test can fail (a margin of 13 at worst: pain 18 at most, "
        "0 watches neglected at most), so no wound ever worsens (S3, X1)); then it rests once"
    ) in said, said
    # And survival tests that may fail (Cp+Rs 25): the grave wound may worsen (S3), but not
    # to the critical level, which the critical wound fills (maximum 1): past it is death
    sc = replace(sc, patient=replace(sc.patient, cp_rs=25))
    said = refused_a_second_short(sc, soonest)
    assert (
        "and it is gone at 11d 00:05 at the soonest (2d more, rules.table.light.heal_period: "
        "a critical wound fills the top level, whose maximum is 1, while held: a wound "
        "worsened up to it would go past it, which ends the trial (W1, S3, M2)); then"
    ) in said, said
    # With room for two critical wounds, the grave one may worsen to join the critical one
    # instead of having a session of its own, so the proof counts its first session only
    sc = scenario(
        "lone_traveller",
        *SURE,
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}, '
        '{at="0s", level="light"}]',
        "healing={level=8}",
        "patient.cp_rs=25",
        "patient.maxima={critical=2}",
    )
    bound = soonest_healed(sc)
    assert bound == soonest - 2 * day
    said = str(impossible(replace(sc, horizon=bound - 1), "healed"))
    assert "has its first at 9d 00:05 at the soonest (a rest of 1w after that one, " in said
    assert "gone" not in said, said
    sc = replace(sc, horizon=soonest)  # still the soonest found
    found = find_trial(sc, 0, 0, "healed")
    assert kernel_columns(sc, 0, found, found + 1)["healed_h"][0] * 3600 == pytest.approx(soonest)


def test_the_proof_of_a_lighter_wound_received_first_says_the_graver_one_restarts_its_rest():
    # R4, G1: a light wound at 0s and a grave one at 1d heal at 12d at the soonest: the grave
    # wound breaks the light one's rest, whose session comes 2d after it, then the grave's
    # 1w + 2d. The proof said 10d, the grave wound's rests alone: the light wound, received
    # before, may worsen as the worst wound (S3) before the grave one comes, unless no
    # survival test can fail (Cp+Rs 40 against 8 points of pain at most)
    sc, healed = soonest_case("light before")
    assert soonest_healed(sc) == healed * 3600
    said = str(impossible(replace(sc, horizon=11 * 86400.0), "healed"))
    assert said.startswith(
        "the patient receives a grave wound at 1d 00:00, which heals at 12d 00:00 at the "
        "soonest, after the horizon (11d): a session treats only the wounds of the "
        "least grave level present (G1), so before its first session, a light wound received "
        "at 0d 00:00 has its first session at 3d 00:00 at the soonest (a grave wound received "
        "at 1d 00:00 falls within any rest before it, which starts again from zero after it "
        "(it arrives unstable (W2), and the rest after it starts from zero "
        '(rest_after_unstable = "restart")), then a rest of 2d, '
        "rules.table.light.heal_period); then it rests once for each level it heals"
    ), said
    # A light wound at 11d breaks the grave one's last rest (light since its session at
    # 10d): they heal together 2d after it, at 13d (the exact engine's soonest too)
    later = replace(sc.injuries[0], at=11 * 86400.0)
    sc = replace(sc, injuries=(*sc.injuries, later), horizon=30 * 86400.0)
    assert soonest_healed(sc) == 13 * 86400
    said = str(impossible(replace(sc, horizon=12 * 86400.0), "healed"))
    assert said.endswith(
        "then it rests once for each level it heals, one rest after another: 1w + 2d "
        "(rules.table.grave.heal_period, rules.table.light.heal_period); a light wound "
        "received at 11d 00:00 falls within one of them, which starts again from zero after "
        "it (it arrives unstable (W2), and the rest after it starts from zero "
        '(rest_after_unstable = "restart")) (A2, A3, R1, R4, G1-G3)'
    ), said


FIRST_AID = 'first_aid={level=4, start="5min", interval="5min"}'
SEVERAL = {  # wounds that may merge (W1, S3, X1, G4, B4), rests that may be broken (R3, R4)
    "grave and light": (
        'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',
        "patient.cp_rs=3",
        FIRST_AID,
        "healing={level=3}",
    ),
    "light, then grave": (  # the light wound may worsen (S3) before the grave one comes
        'injuries=[{at="0s", level="light"}, {at="1d", level="grave"}]',
        "patient.cp_rs=0",
        FIRST_AID,
        "healing={level=3}",
    ),
    "activity": (  # X1 worsens the grave wound
        'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',
        "patient.cp_rs=3",
        FIRST_AID,
        "healing={level=3}",
        'activities=[{at="2h", modifier=-4}]',
    ),
    "critical and grave, activity": (  # X1 may raise the grave wound to critical
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}]',
        "patient.maxima={critical=2}",
        "patient.cp_rs=20",
        FIRST_AID,
        "healing={level=8}",
        'activities=[{at="1h", modifier=-4}]',
    ),
    "overflow": (  # W1: the second light wound lands grave
        'injuries=[{at="0s", level="light", count=2}, {at="0s", level="grave"}]',
        "patient.maxima={light=1}",
        "patient.cp_rs=4",
        FIRST_AID,
        "healing={level=3}",
    ),
    "three levels": (
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}, '
        '{at="0s", level="light"}]',
        "patient.cp_rs=20",
        FIRST_AID,
        "healing={level=8}",
    ),
    "three levels, a healer who never fails": (
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}, '
        '{at="0s", level="light"}]',
        "patient.cp_rs=20",
        FIRST_AID,
        "healing={level=12}",
    ),
    "three times, none worsens": (  # the light wound's rest broken by the later ones (R4)
        'injuries=[{at="0s", level="light"}, {at="1d", level="grave"}, '
        '{at="2d", level="critical"}]',
        "patient.cp_rs=30",
        FIRST_AID,
        "healing={level=8}",
    ),
    "three times, may worsen": (
        'injuries=[{at="0s", level="critical"}, {at="1d", level="light"}, '
        '{at="2d", level="grave"}]',
        "patient.cp_rs=20",
        FIRST_AID,
        "healing={level=8}",
    ),
    "mental": (
        'injuries=[{at="0s", level="trauma"}, {at="0s", level="shock"}]',
        "healing={level=1}",
    ),
    "mental, three levels": (
        'injuries=[{at="0s", level="psychosis"}, {at="0s", level="trauma"}, '
        '{at="0s", level="shock"}]',
        "healing={level=1}",
    ),
    "basic, three levels": (
        "ruleset=basic",
        'injuries=[{at="0s", level="critical"}, {at="0s", level="grave"}, '
        '{at="0s", level="light"}]',
        "patient.cp_rs=12",
    ),
    "mental, later": (
        'injuries=[{at="0s", level="trauma"}, {at="1d", level="shock"}, {at="2d", level="shock"}]',
        "healing={level=1}",
    ),
    "basic": ("ruleset=basic", 'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]'),
    "basic, worsening": (  # B4: a margin of -10 worsens the light wound
        "ruleset=basic",
        'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',
        "patient.cp_rs=-4",
    ),
    "resume": (
        'injuries=[{at="0s", level="grave"}, {at="3d", level="light"}]',
        'rules.rest_after_unstable="resume"',
        "patient.cp_rs=3",
        FIRST_AID,
        "healing={level=3}",
    ),
    "restart": (
        'injuries=[{at="0s", level="grave"}, {at="3d", level="light"}]',
        "patient.cp_rs=3",
        FIRST_AID,
        "healing={level=3}",
        "watch={neglect_probability=0.02}",
    ),
    "cumulative": (
        'injuries=[{at="0s", level="grave"}, {at="0s", level="light"}]',
        'rules.rest_per_level="cumulative"',
        "patient.cp_rs=3",
        FIRST_AID,
        "healing={level=3}",
    ),
}
"""Scenarios of several wounds, each healing in some trials, some at their bound."""

SOUND_REFERENCE = ["grave and light", "mental, later", "basic", "resume", "restart", "cumulative"]
SOUND_REFERENCE += ["mental, three levels", "basic, three levels"]
"""Those that heal often enough for the reference's few trials (a second engine)."""


@pytest.mark.compiled  # 20,000 kernel trials of each: seconds compiled, minutes as Python
@pytest.mark.parametrize("case", sorted(SEVERAL))
def test_no_trial_heals_before_the_proofs_bound(case: str):
    # Sound: the bound sums sessions, and a merge of wounds (W1, S3, X1, G4, B4) or a rest
    # counted before a wound (R4 "resume") might make a sum too long: no trial heals sooner
    sc = scenario("lone_traveller", *SEVERAL[case], "horizon=200d")
    bound = soonest_healed(sc)
    assert bound is not None
    columns = kernel_columns(sc, 1, 0, 20_000)
    healed = columns["healed_h"][columns["outcome"] == OUTCOMES.index("healed")]
    assert len(healed), case  # else the test proves nothing
    assert healed.min() * 3600 >= bound - 1e-6, (case, healed.min() / 24, bound / 86400)


@pytest.mark.parametrize("case", SOUND_REFERENCE)
def test_no_reference_trial_heals_before_the_proofs_bound(case: str):
    from simulator.runner.engines import run_trial

    sc = scenario("lone_traveller", *SEVERAL[case], "horizon=200d")
    bound = soonest_healed(sc)
    assert bound is not None
    trials = [run_trial(sc, index, 1, kernel=False) for index in range(300)]
    healed = [t.healed_h for t in trials if t.outcome == "healed"]
    assert healed, case
    assert min(healed) * 3600 >= bound - 1e-6, (case, min(healed) / 24, bound / 86400)


def _wounds(*wounds: tuple[str, str]) -> str:
    return "injuries=[" + ", ".join(f'{{at="{at}", level="{level}"}}' for at, level in wounds) + "]"


EXACT = {  # wounds received at different times, each case's soonest time to heal exact
    # S3: the light wound may worsen to grave before the grave one comes, and both then heal
    # together at 10d 00:05: the proof must not count the light wound's session first
    "light, then grave, may merge": (
        (_wounds(("0s", "light"), ("1d", "grave")), "patient.cp_rs=6", FIRST_AID),
        10 * 86400,
    ),
    "grave, then light": (
        (_wounds(("0s", "grave"), ("1d", "light")), "patient.cp_rs=6", FIRST_AID),
        12 * 86400,
    ),
    "three times, none worsens": (  # Cp+Rs 30 against 18 points of pain; the healer may fail
        (
            _wounds(("0s", "light"), ("1d", "grave"), ("2d", "critical")),
            "patient.cp_rs=30",
            FIRST_AID,
            "healing={level=8}",
        ),
        36 * 86400,
    ),
    "three times, may worsen": (  # the grave wound may relapse and worsen, not to critical
        (
            _wounds(("0s", "critical"), ("1d", "light"), ("2d", "grave")),
            "patient.cp_rs=20",
            FIRST_AID,
            "healing={level=8}",
        ),
        36 * 86400,
    ),
    "grave, then critical": (  # the grave wound worsened to critical makes the critical fatal
        (_wounds(("0s", "grave"), ("1d", "critical")), "patient.cp_rs=20", FIRST_AID),
        33 * 86400,
    ),
    "grave, then critical, room for two": (  # it may worsen to join it after its session
        (  # (G4, S3), not before 1d: no survival test fails with 5 points of pain
            _wounds(("0s", "grave"), ("1d", "critical")),
            "patient.cp_rs=20",
            FIRST_AID,
            "patient.maxima={critical=2}",
        ),
        31 * 86400,
    ),
    "light, grave, then critical": (  # no survival test fails before the grave one comes
        (
            _wounds(("0s", "light"), ("2h", "grave"), ("1d", "critical")),
            "patient.cp_rs=20",
            FIRST_AID,
        ),
        35 * 86400,
    ),
    "resume": (
        (
            _wounds(("0s", "light"), ("1d", "grave")),
            'rules.rest_after_unstable="resume"',
            "patient.cp_rs=6",
            FIRST_AID,
        ),
        None,
    ),
    "activity": (
        (
            _wounds(("0s", "grave"), ("1d", "critical")),
            "patient.cp_rs=25",
            FIRST_AID,
            "healing={level=8}",
            'activities=[{at="2d", modifier=-4}]',
        ),
        33 * 86400,
    ),
    "overflow": (  # W1: the light wound at 1d lands grave while the first is held
        (
            _wounds(("0s", "light"), ("1d", "light"), ("2d", "grave")),
            "patient.maxima={light=1}",
            "patient.cp_rs=30",
            FIRST_AID,
            "healing={level=8}",
        ),
        13 * 86400,
    ),
    "neglected watch": (
        (
            _wounds(("0s", "light"), ("1d", "grave")),
            "patient.cp_rs=30",
            FIRST_AID,
            "healing={level=8}",
            'watch={neglect_at=["3d"]}',
        ),
        12 * 86400,
    ),
    "mental": (
        (_wounds(("0s", "shock"), ("1d", "trauma"), ("2d", "shock")), "healing={level=1}"),
        13 * 86400,
    ),
    "basic": (("ruleset=basic", _wounds(("0s", "light"), ("1d", "grave"), ("2d", "light"))), None),
    "basic, worsening": (  # B4: a margin of -10 may worsen the light wound
        ("ruleset=basic", _wounds(("0s", "light"), ("1d", "grave")), "patient.cp_rs=-4"),
        12 * 86400,
    ),
}
"""Scenarios of wounds at different times, and the proof's bound where it is said here."""

SLOW_EXACT = {"light, then grave, may merge", "grave, then light", "three times, none worsens"}
SLOW_EXACT |= {"three times, may worsen", "resume", "activity", "grave, then critical"}
SLOW_EXACT |= {"grave, then critical, room for two", "light, grave, then critical"}
"""Those whose exact answer takes seconds (its paths of a trillionth count)."""


@pytest.mark.parametrize(
    "case", [pytest.param(c, marks=[pytest.mark.slow] * (c in SLOW_EXACT)) for c in EXACT]
)
def test_no_path_of_the_exact_answer_heals_before_the_proofs_bound(case: str):
    # Sound (R4, G1, S3, W1, X1, M3, B4): the exact engine carries every path of probability
    # down to 1e-12, so its soonest healing time is one that happens; the bound is never after
    # it, for wounds received in any order at different times
    from simulator.exact import solve

    sets, bound = EXACT[case]
    sc = scenario("lone_traveller", "healing={level=3}", *sets, "horizon=60d")
    soonest = min(solve(sc, max_seconds=60).times["healed"]) / 1e6
    assert soonest_healed(sc) <= soonest, (case, soonest_healed(sc) / 86400, soonest / 86400)
    if bound is not None:
        assert soonest_healed(sc) == bound, (case, soonest_healed(sc) / 86400)


@pytest.mark.parametrize(
    ("stem", "ruled"),
    [
        ("shaken", ["dead", "incoherent"]),  # W1, B1 (no physical wound); M2, M3
        ("lone_traveller", ["incoherent", "healed"]),  # no healer, no first aid (R1, A2)
        ("geraldine", ["incoherent"]),
        ("geraldine_basic", ["dead", "incoherent"]),  # B1, B4: no roll fails by 10
    ],
)
def test_the_summary_names_the_outcomes_the_rules_rule_out(stem: str, ruled: list[str]):
    from simulator.studies.reachable import ruled_out

    assert ruled_out(scenario(stem)) == ruled
    assert all(impossible(scenario(stem), outcome) for outcome in ruled)
