"""The dice (RULES.md D1-D5): rolls, margins, penalties, exact odds, randomness."""

import math
from fractions import Fraction

import icepool
import numpy as np
import pytest

from simulator.rules.dice import (
    ODDS_PRECISION,
    RandomDice,
    ScriptedDice,
    margin_of,
    odds_table,
    open_die_distribution,
    open_roll_distribution,
    p_success,
    resolve,
    roll_distribution,
    succeeds,
)
from simulator.rules.ids import RuleId
from simulator.rules.levels import Level
from simulator.rules.patient import Patient
from simulator.rules.table import default_table
from simulator.rules.transitions import missed_watch_penalty, pain_penalty, receive_wound

MODIFIERS = range(-12, 13)


class FakeGenerator:
    """A stand-in for ``np.random.Generator`` that deals given d10 faces, in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def integers(self, low, high, size):
        assert (low, high) == (1, 11)
        block = self.faces[:size] + [1] * (size - len(self.faces[:size]))
        self.faces = self.faces[size:]
        return np.array(block)

    def random(self, size):
        return np.full(size, 0.5)


# --- D1: the roll --------------------------------------------------------------------------


def test_d1_distribution_is_luck_minus_bad_luck():
    dist = roll_distribution()
    assert set(dist) == set(range(-9, 10))
    assert sum(dist.values()) == 1
    for x, p in dist.items():
        assert p == Fraction(10 - abs(x), 100)
    assert dist[0] == Fraction(1, 10)
    assert dist[9] == dist[-9] == Fraction(1, 100)


def test_d1_distribution_agrees_with_icepool():
    die = icepool.d10 - icepool.d10
    assert {x: Fraction(die.probability(x)) for x in range(-9, 10)} == roll_distribution()


def test_d1_random_roll_is_first_die_minus_second():
    dice = RandomDice(FakeGenerator([7, 2, 1, 10, 10, 1]))
    assert [dice.roll(), dice.roll(), dice.roll()] == [5, -9, 9]


def test_d1_random_rolls_stay_in_range():
    dice = RandomDice(np.random.default_rng(3))
    rolls = {dice.roll() for _ in range(5000)}
    assert rolls == set(range(-9, 10))


def test_d1_random_dice_match_the_exact_distribution_chi_square():
    # Fixed seed, never retried: chi-square over the 19 values, df = 18, critical value at
    # p = 0.001 is 42.31.
    n = 100_000
    dice = RandomDice(np.random.default_rng(20240601))
    counts = dict.fromkeys(range(-9, 10), 0)
    for _ in range(n):
        counts[dice.roll()] += 1
    dist = roll_distribution()
    chi2 = sum((counts[x] - n * float(p)) ** 2 / (n * float(p)) for x, p in dist.items())
    assert chi2 < 42.31


# --- D2: the open roll ---------------------------------------------------------------------


def test_d2_open_roll_rerolls_tens_and_adds():
    # luck: 10, 10, 4 -> 24; bad luck: 7 -> 24 - 7 = 17; then 10, 3 -> 13 minus 10, 10, 1 -> 21
    dice = RandomDice(FakeGenerator([10, 10, 4, 7, 10, 3, 10, 10, 1]), open_roll=True)
    assert dice.roll() == 17
    assert dice.roll() == 13 - 21


def test_d2_closed_roll_does_not_reroll_tens():
    dice = RandomDice(FakeGenerator([10, 4, 3, 10]), open_roll=False)
    assert dice.roll() == 6
    assert dice.roll() == -7


def test_d2_open_die_distribution():
    die = open_die_distribution()
    assert all(v % 10 != 0 for v in die)  # a 10 is always rolled again
    assert die[1] == pytest.approx(0.1)
    assert die[13] == pytest.approx(0.01)
    assert die[29] == pytest.approx(0.001)
    assert 1 - math.fsum(die.values()) < ODDS_PRECISION


def test_d2_open_roll_distribution_is_symmetric_and_complete():
    dist = open_roll_distribution()
    assert 1 - math.fsum(dist.values()) < ODDS_PRECISION
    for x, p in dist.items():
        assert dist.get(-x, 0.0) == pytest.approx(p, abs=1e-15)
    assert 0 not in (set(range(-9, 10)) - set(dist))
    # exact P(0): both dice end on the same residue after the same number of tens
    assert dist[0] == pytest.approx(9 * sum(0.01 ** (k + 1) for k in range(40)), abs=1e-15)


def test_d2_open_roll_agrees_with_icepool():
    die = icepool.d10.explode(depth=14)
    roll = die - die
    for x, p in open_roll_distribution().items():
        if abs(x) <= 40:
            assert p == pytest.approx(float(roll.probability(x)), abs=1e-12)


def test_d2_random_open_rolls_match_the_distribution():
    # Fixed seed, never retried: each value within 5 standard errors; tails pooled.
    n = 100_000
    dice = RandomDice(np.random.default_rng(77), open_roll=True)
    rolls = np.array([dice.roll() for _ in range(n)])
    dist = open_roll_distribution()
    assert rolls.max() > 9 and rolls.min() < -9  # tens were rolled again
    for x in range(-20, 21):
        p = dist.get(x, 0.0)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(np.mean(rolls == x) - p) <= 5 * se + 1e-12, x
    p_tail = math.fsum(p for x, p in dist.items() if x > 20)
    se = math.sqrt(p_tail * (1 - p_tail) / n)
    assert abs(np.mean(rolls > 20) - p_tail) <= 5 * se


# --- D3: margin and success ----------------------------------------------------------------


def test_d3_margin_is_roll_plus_modifiers():
    assert margin_of(3, [("a", 2), ("b", -7), ("c", 0)]) == -2
    assert margin_of(-4, []) == -4


def test_d3_tie_succeeds_by_default_and_fails_when_set():
    assert succeeds(0)
    assert succeeds(0, tie_succeeds=True)
    assert not succeeds(0, tie_succeeds=False)
    assert succeeds(1, tie_succeeds=False)
    assert not succeeds(-1)


def test_d3_resolve_uses_one_roll_and_keeps_named_modifiers():
    dice = ScriptedDice(rolls=[4, 4])
    mods = [("Cp+Rs", 8), ("pain", -11), ("missed watches", 0)]
    test = resolve(dice, RuleId.S1, "survival test", mods)
    assert (test.rule, test.what, test.roll) == ("S1", "survival test", 4)
    assert test.modifiers == tuple(mods)
    assert test.margin == 1
    assert test.success
    assert dice.used == 1
    tie = resolve(dice, RuleId.S1, "survival test", [("x", -4)], tie_succeeds=False)
    assert tie.margin == 0
    assert not tie.success


# --- D4: penalties -------------------------------------------------------------------------


def test_d4_pain_penalty_is_minus_current_pain():
    patient, _ = receive_wound(Patient(default_table()), Level.GRAVE)
    assert pain_penalty(patient) == -5
    assert pain_penalty(patient.evolve(pain=2)) == -2
    assert pain_penalty(Patient(default_table())) == 0


def test_d4_missed_watch_penalty_is_minus_neglected_watches():
    patient = Patient(default_table(), missed_watches=3)
    assert missed_watch_penalty(patient) == -3
    assert missed_watch_penalty(Patient(default_table())) == 0


# --- D5: exact odds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modifier", "expected"),
    [(0, 0.55), (-5, 0.15), (5, 0.90), (-9, 0.01), (-10, 0.0), (9, 1.0), (8, 0.99), (1, 0.64)],
)
def test_d5_exact_odds_of_the_roll(modifier, expected):
    assert p_success(modifier) == pytest.approx(expected, abs=1e-15)


def test_d5_ties_fail_setting():
    assert p_success(0, tie_succeeds=False) == pytest.approx(0.45, abs=1e-15)
    assert p_success(-5, tie_succeeds=False) == pytest.approx(0.10, abs=1e-15)
    assert p_success(9, tie_succeeds=False) == pytest.approx(0.99, abs=1e-15)


@pytest.mark.parametrize("tie", [True, False])
def test_d5_roll_odds_agree_with_icepool(tie):
    die = icepool.d10 - icepool.d10
    for m in MODIFIERS:
        comparison = ">=" if tie else ">"
        exact = Fraction(die.probability(comparison, -m))
        assert p_success(m, tie_succeeds=tie) == pytest.approx(float(exact), abs=1e-15)


@pytest.mark.parametrize("tie", [True, False])
def test_d5_open_roll_odds_agree_with_icepool(tie):
    die = icepool.d10.explode(depth=14)
    roll = die - die
    for m in MODIFIERS:
        comparison = ">=" if tie else ">"
        exact = float(roll.probability(comparison, -m))
        assert p_success(m, open_roll=True, tie_succeeds=tie) == pytest.approx(exact, abs=1e-9)


def test_d5_open_roll_odds_exact_at_zero():
    # P(luck° >= bad luck°) = (1 + P(tie)) / 2 with P(tie) = 0.09 / 0.99 = 1/11
    assert p_success(0, open_roll=True) == pytest.approx(6 / 11, abs=1e-12)
    assert p_success(0, open_roll=True, tie_succeeds=False) == pytest.approx(5 / 11, abs=1e-12)


def test_d5_open_roll_never_certain():
    assert 0 < p_success(-12, open_roll=True) < 0.05
    assert 0.95 < p_success(12, open_roll=True) < 1
    assert p_success(-10, open_roll=False) == 0.0
    assert p_success(-10, open_roll=True) > 0


def test_d5_odds_are_monotonic():
    for open_roll in (False, True):
        odds = [p_success(m, open_roll) for m in MODIFIERS]
        assert odds == sorted(odds)


def test_d5_odds_table():
    table = odds_table()
    assert [row["modifier"] for row in table] == list(MODIFIERS)
    assert {row["modifier"]: row["p_success"] for row in table}[0] == pytest.approx(0.55)
    open_table = odds_table(range(-1, 2), open_roll=True, tie_succeeds=False)
    assert open_table[1] == {"modifier": 0, "p_success": p_success(0, True, False)}


# --- randomness: one generator, deterministic ----------------------------------------------


def _draws(seed, open_roll=False):
    dice = RandomDice(np.random.default_rng(seed), open_roll=open_roll)
    out = []
    for i in range(300):
        out.append(dice.roll())
        if i % 3 == 0:
            out.append(dice.chance(0.4))
        if i % 7 == 0:
            out.append(dice.geometric(0.2))
    return out


@pytest.mark.parametrize("open_roll", [False, True])
def test_d1_random_dice_same_seed_same_draws(open_roll):
    assert _draws(5, open_roll) == _draws(5, open_roll)
    assert _draws(5, open_roll) != _draws(6, open_roll)


def test_d1_random_dice_draw_only_from_their_generator():
    _, keys, pos, *_ = np.random.get_state()
    keys = keys.copy()
    gen = np.random.default_rng(9)
    before = gen.bit_generator.state
    dice = RandomDice(gen)
    [dice.roll() for _ in range(100)]
    dice.chance(0.5)
    _, keys_after, pos_after, *_ = np.random.get_state()
    assert (keys_after == keys).all() and pos_after == pos  # the global state was not touched
    assert gen.bit_generator.state != before  # the given generator was consumed


def test_d1_random_dice_rolls_come_from_generator_integers_in_order():
    seed = 31
    faces = np.random.default_rng(seed).integers(1, 11, size=64).tolist()
    dice = RandomDice(np.random.default_rng(seed))
    assert [dice.roll() for _ in range(32)] == [faces[2 * i] - faces[2 * i + 1] for i in range(32)]


def test_d1_random_dice_chance_and_geometric():
    n = 50_000
    dice = RandomDice(np.random.default_rng(11))
    hits = sum(dice.chance(0.3) for _ in range(n))
    assert abs(hits / n - 0.3) <= 5 * math.sqrt(0.3 * 0.7 / n)
    draws = [dice.geometric(0.25) for _ in range(n)]
    assert min(draws) >= 1
    assert abs(np.mean(draws) - 4.0) <= 5 * math.sqrt(0.75 / 0.25**2 / n)
    assert dice.chance(1.0) and not dice.chance(0.0)
    assert dice.geometric(0.0) == math.inf
    assert dice.geometric(1.0) == 1


def test_d3_scripted_dice_replay_in_order_and_refuse_to_invent():
    dice = ScriptedDice(rolls=[3, -2], chances=[False, True], geometrics=[4])
    assert [dice.roll(), dice.roll()] == [3, -2]
    assert dice.used == 2
    assert [dice.chance(0.5), dice.chance(0.5)] == [False, True]
    assert dice.chance(1.0) and not dice.chance(0.0)
    assert dice.geometric(0.5) == 4
    assert dice.geometric(0.5) == math.inf
    with pytest.raises(AssertionError):
        dice.roll()
    with pytest.raises(AssertionError):
        dice.chance(0.5)


def test_d3_scripted_dice_default_roll_once_the_script_is_used_up():
    dice = ScriptedDice(rolls=[2], default=0)
    assert [dice.roll(), dice.roll(), dice.roll()] == [2, 0, 0]
    assert dice.used == 3
