"""Wilson and Newcombe intervals against published values and the closed formulas."""

import math

import numpy as np
import pytest

from simulator.studies.stats import Z95, newcombe_paired, paired_difference, wilson, wilson_arrays


def closed_wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson (1927) written out independently of the module."""
    p = k / n
    centre = (2 * n * p + z * z) / (2 * (n + z * z))
    half = z * math.sqrt(z * z + 4 * n * p * (1 - p)) / (2 * (n + z * z))
    return centre - half, centre + half


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
# Medicine 17:857-872, Table I, method 3 (score interval without continuity correction).
PUBLISHED = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("k", "n", "low", "high"), PUBLISHED)
def test_wilson_matches_newcombe_table(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (10, 10), (5, 10), (81, 263), (1, 1), (3, 4000)])
def test_wilson_matches_closed_formula(k, n):
    lo, hi = wilson(k, n)
    exp_lo, exp_hi = closed_wilson(k, n)
    assert lo == pytest.approx(max(exp_lo, 0.0), abs=1e-12)
    assert hi == pytest.approx(min(exp_hi, 1.0), abs=1e-12)


def test_wilson_extremes_are_valid_intervals():
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=5e-5))
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=5e-5), 1.0)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=5e-5), pytest.approx(0.7634, abs=5e-5))
    for n in (1, 2, 7, 1000):
        for k in (0, n):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            assert hi > lo


def test_wilson_arrays_agree_with_scalar():
    ks = np.arange(0, 31)
    lo, hi = wilson_arrays(ks, 30)
    for k in ks:
        assert (lo[k], hi[k]) == pytest.approx(wilson(int(k), 30))


def test_wilson_refuses_nonsense():
    with pytest.raises(ValueError, match="n >= 1"):
        wilson(0, 0)
    with pytest.raises(ValueError, match="within"):
        wilson(11, 10)


def closed_newcombe_paired(a, b, c, d, z=Z95):
    """Newcombe (1998), Statistics in Medicine 17:2635-2650, method 10, written out."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = closed_wilson(a + b, n, z)
    l2, u2 = closed_wilson(a + c, n, z)
    l1, l2 = max(l1, 0), max(l2, 0)
    u1, u2 = min(u1, 1), min(u2, 1)
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = max(cross - n / 2, 0) if cross > 0 else cross
    phi = 0 if denom == 0 else corrected / math.sqrt(denom)
    dl = math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    du = math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return p1 - p2, (p1 - p2 - dl, p1 - p2 + du)


@pytest.mark.parametrize("cells", [(12, 5, 1, 22), (1, 1, 7, 12), (59, 6, 16, 80), (0, 3, 0, 97)])
def test_newcombe_paired_matches_closed_formula(cells):
    estimate, (low, high) = newcombe_paired(*cells)
    exp_estimate, (exp_low, exp_high) = closed_newcombe_paired(*cells)
    assert estimate == pytest.approx(exp_estimate)
    assert low == pytest.approx(exp_low, abs=1e-12)
    assert high == pytest.approx(exp_high, abs=1e-12)
    assert low <= estimate <= high


def test_paired_difference_from_indicators():
    a = np.array([1, 1, 0, 0, 1, 0, 1, 1], dtype=bool)
    b = np.array([1, 0, 0, 1, 0, 0, 1, 0], dtype=bool)
    estimate, ci = paired_difference(a, b)
    assert estimate == pytest.approx(a.mean() - b.mean())
    assert ci == pytest.approx(newcombe_paired(2, 3, 1, 2)[1])


def test_paired_difference_degenerate_cases_stay_intervals():
    zeros = np.zeros(100, dtype=bool)
    estimate, (low, high) = paired_difference(zeros, zeros)
    assert estimate == 0.0
    assert low < 0.0 < high
    assert high == pytest.approx(wilson(0, 100)[1])
    ones = np.ones(100, dtype=bool)
    estimate, (low, high) = paired_difference(ones, zeros)
    assert estimate == 1.0
    assert -1.0 <= low < 1.0 == high
    with pytest.raises(ValueError):
        paired_difference(ones, ones[:5])


def test_percent_never_prints_an_interval_of_zero_to_zero():
    from simulator.report import percent

    assert percent(0.0) == "0.0%" and percent(1.0) == "100.0%"
    assert percent(0.234) == "23.4%"
    assert percent(0.00018) == "0.018%"  # Wilson's upper bound for 0/20,000
    assert percent(0.99982) == "99.982%"


def test_percent_never_shows_a_share_above_its_own_interval():
    # 1,999 deaths in 2,000 trials: 99.95%, whose Wilson upper bound is below 100%.
    from simulator.report import percent
    from simulator.studies.stats import wilson

    _, high = wilson(1999, 2000)
    assert percent(1999 / 2000) == "99.950%"  # two significant digits of its distance to 100%
    assert float(percent(1999 / 2000)[:-1]) <= float(percent(high)[:-1])
    assert percent(0.0, 0) == "0%" and percent(0.00092, 0) == "0.092%"
    assert percent(0.37, 0) == "37%" and percent(0.9995, 0) == "99.950%"


def test_a_small_share_and_its_interval_bounds_read_at_the_same_precision():
    """A run printed "heals 0.035% (95% CI 0.017%–0.1%)": the bound 0.072% lost a digit.

    A share within 1% of 0% or 100% keeps two significant digits of that distance; a share
    farther from both keeps its decimals.
    """
    from simulator.cli.options import interval_text
    from simulator.report import percent
    from simulator.report.i18n import language, percent_text
    from simulator.studies.stats import wilson

    low, high = wilson(7, 20_000)
    assert f"{percent(7 / 20_000)} ({interval_text([low, high])})" == "0.035% (0.017%–0.072%)"
    assert percent(0.0041) == "0.41%" and percent(0.005) == "0.50%" and percent(0.0996) == "10.0%"
    assert percent(0.994) == "99.40%" and percent(0.99928) == "99.928%"
    assert percent(0.000996) == "0.10%"  # rounded to two digits, not three (0.100%)
    assert percent(0.0123) == "1.2%" and percent(0.977) == "97.7%" and percent(0.5) == "50.0%"
    assert percent_text(0.0123, 2) == "1.23%" and percent_text(0.00123, 2) == "0.12%"
    assert percent(0.05, 0) == "5%" and percent(0.037, 0) == "4%"  # a threshold, as chosen
    assert percent_text(0.005, 1, digits=1) == "0.5%"  # an axis's tick: as it is
    with language("fr"):
        assert interval_text([low, high]) == "0,017\u202f%–0,072\u202f%"


def test_answer_tells_the_incoherent_share_when_the_scenario_has_mental_wounds():
    from simulator.report import answer

    summary = {
        "p_dead": 0.0, "p_dead_ci": [0.0, 0.001], "p_healed": 0.9, "p_healed_ci": [0.88, 0.92],
        "median_time_to_heal_h": 100.0, "p_wounded": 0.1, "p_incoherent": 0.0,
        "p_incoherent_ci": [0.0, 0.00018],
    }  # fmt: skip
    assert "incoherent" not in answer(summary)
    assert "incoherent in 0.0% (0.0%–0.018%)" in answer(summary, mental=True)


def test_an_outcome_the_rules_rule_out_is_said_so_not_given_a_share_and_interval():
    """shaken's index read "dies in 0.0% (95% CI 0.0%–0.019%)" where no trial can die.

    The summary's ``impossible`` (:func:`simulator.studies.reachable.ruled_out`) names the
    outcomes proven out of reach; the answer and ``run``'s table say so. A share above zero is
    told as a share whatever the key says.
    """
    from simulator.cli.run import exact_table, summary_table
    from simulator.report import answer
    from simulator.report.i18n import language

    summary = {
        "scenario": "s", "trials": 100, "seed": 0, "method": "monte-carlo",
        "p_dead": 0.0, "p_dead_ci": [0.0, 0.037], "p_healed": 0.9, "p_healed_ci": [0.8, 0.95],
        "median_time_to_heal_h": 100.0, "p_wounded": 0.1, "p_wounded_ci": [0.05, 0.2],
        "p_incoherent": 0.0, "p_incoherent_ci": [0.0, 0.037], "mean_aggravations": 0.0,
        "p_dead_by_cause": {}, "p_dead_by_cause_ci": {}, "impossible": ["dead", "incoherent"],
    }  # fmt: skip
    told = answer(summary, mental=True)
    assert told.startswith("cannot die under these rules, heals in 90.0% (80.0%–95.0%)"), told
    assert told.endswith("; cannot end incoherent."), told
    assert "incoherent" not in answer(summary)  # no mental wound: nothing to say of it
    table = summary_table(summary)  # type: ignore[arg-type]
    assert "dies              0.0%   (ruled out by the rules)" in table, table
    assert "incoherent        0.0%   (ruled out by the rules)" in table, table
    assert "heals            90.0%   (95% CI 80.0%–95.0%)" in table, table
    with language("fr"):
        assert answer(summary).startswith("ne peut pas mourir selon ces règles, guérit")
    exact = summary | {"method": "exact", "dropped_mass": 0.0, "states": 3,
                       "impossible": ["healed"], "p_healed": 0.0, "p_dead": 1.0}  # fmt: skip
    told = answer(exact)  # type: ignore[arg-type]
    assert told.startswith("dies in 100.0000% of campaigns (exact), cannot heal by the horizon")
    assert "(ruled out by the rules)" in exact_table(exact)  # type: ignore[arg-type]
    wrong = summary | {"p_dead": 0.01}  # a share above zero is a share, whatever the key says
    told = answer(wrong)  # type: ignore[arg-type]
    assert told.startswith("dies in 1.0% of campaigns (95% CI 0.0%–3.7%)"), told
