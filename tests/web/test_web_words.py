"""The answer's numbers as the page shows them (:func:`simulator.web.words.shown`)."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.web.words import shown


def numbers(method: str, **shares: float) -> dict[str, Any]:
    """An answer's numbers with every share 0 but ``shares``."""
    found: dict[str, Any] = {
        "method": method,
        "p_dead": 0.0,
        "p_healed": 0.0,
        "p_wounded": 1.0,
        "p_dead_by_1d": 0.0,
        "median_time_to_heal_h": None,
        "median_time_to_death_h": None,
        "dropped": 1e-12,
        "trials": 10_000,
        "total": 10_000,
        "seed": 0,
    }
    return found | shares


def row(answer: dict[str, Any], key: str) -> dict[str, Any]:
    return next(r for r in answer["rows"] if r["key"] == key)


@pytest.mark.parametrize(("lang", "change"), [("en", "-0.04 pts"), ("fr", "−0,04 point")])
def test_a_change_between_two_shares_shown_apart_is_never_said_to_be_none(
    lang: str, change: str
) -> None:
    """Hydra's Cp+Rs at 2: 0.0000% beside 0.04% as written read '±0 pts'.

    The change is rounded to the places of the answer's shares (one when one side is
    sampled); a change that rounds to nothing while the two shares read apart keeps two
    significant digits, as a share near 0% does.
    """
    base = numbers("sampled", p_dead=0.0004)
    edited = numbers("exact", p_dead=0.0)
    found = row(shown(edited, base, lang, False), "p_dead")
    assert found["value"] != found["base"]
    assert found["delta"] == change


@pytest.mark.parametrize(("lang", "same"), [("en", "±0 pts"), ("fr", "±0 point")])
def test_a_change_between_two_shares_that_read_the_same_is_none(lang: str, same: str) -> None:
    base = numbers("sampled", p_dead=0.6361)
    edited = numbers("sampled", p_dead=0.6359)
    found = row(shown(edited, base, lang, False), "p_dead")
    assert found["value"] == found["base"]
    assert found["delta"] == same


@pytest.mark.parametrize(
    ("lang", "was", "now", "change"),
    [
        ("fr", 0.5, 0.492621, "−0,7379 point"),
        ("fr", 0.5, 0.515, "+1,5000 point"),
        ("fr", 0.5, 0.52, "+2,0000 points"),
        ("fr", 0.5, 0.25, "−25,0000 points"),
        ("en", 0.5, 0.492621, "-0.7379 pts"),
        ("en", 0.5, 0.52, "+2.0000 pts"),
    ],
)
def test_a_change_in_french_is_one_point_below_two(
    lang: str, was: float, now: float, change: str
) -> None:
    """French writes the singular below 2 (``0,7 point``, ``1,5 point``, ``2 points``).

    The report pages say it so (:func:`simulator.report.i18n.points_text`); the page wrote
    ``−0,7379 points``. English keeps its ``pts``.
    """
    base = numbers("exact", p_dead=was)
    edited = numbers("exact", p_dead=now)
    assert row(shown(edited, base, lang, False), "p_dead")["delta"] == change


@pytest.mark.parametrize(("lang", "said"), [("en", "ruled out by the rules"),
                                            ("fr", "exclu par les règles")])  # fmt: skip
def test_an_outcome_the_rules_rule_out_reads_so_on_the_page_not_as_an_interval(
    lang: str, said: str
) -> None:
    """shaken on the page read 'dies 0.0% (0.0%–0.19%)' where no trial can die.

    The numbers carry the outcomes the rules put out of reach
    (:func:`simulator.studies.reachable.ruled_out`); their rows say so where the interval was,
    as ``run``'s table does, and so does death within the first day. A share above zero keeps
    its interval whatever the list says.
    """
    answer = numbers("sampled", p_healed=0.9, p_wounded=0.1, p_incoherent=0.0,
                     p_dead_ci=[0.0, 0.0019], p_dead_by_1d_ci=[0.0, 0.0019],
                     p_healed_ci=[0.88, 0.92], p_incoherent_ci=[0.0, 0.0019])  # fmt: skip
    answer["impossible"] = ["dead", "incoherent"]
    found = shown(answer, None, lang, True)
    for key in ("p_dead", "p_dead_by_1d", "p_incoherent"):
        assert row(found, key)["ci"] == said, key
    assert row(found, "p_healed")["ci"] != said
    answer["p_dead"] = 0.01
    assert row(shown(answer, None, lang, True), "p_dead")["ci"] != said


def test_the_numbers_of_the_page_name_what_the_rules_rule_out() -> None:
    from pathlib import Path

    from simulator.scenario.reading import load_scenario
    from simulator.web.answer import exact_numbers, sampled_numbers, try_exact
    from simulator.web.sampling import _run_chunk

    scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    shaken = load_scenario(scenarios / "shaken.toml")
    assert sampled_numbers(shaken, _run_chunk(shaken, 0, 0, 200), 0)["impossible"] == [
        "dead", "incoherent"
    ]  # fmt: skip
    lone = load_scenario(scenarios / "lone_traveller.toml")
    solved = try_exact(lone)
    assert solved is not None
    assert exact_numbers(solved)["impossible"] == ["incoherent", "healed"]
