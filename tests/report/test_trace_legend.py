"""The legend of ``trace``: how a margin is read follows the scenario's D3 setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.report.i18n import language
from simulator.scenario.reading import load_scenario
from simulator.studies.campaign import story

GERALDINE = Path(__file__).parents[2] / "scenarios" / "geraldine.toml"


@pytest.mark.parametrize(
    ("lang", "ties", "said", "not_said"),
    [
        ("en", (), "(≥ 0 succeeds)", "(> 0 succeeds)"),
        ("en", ("rules.tie_succeeds=false",), "(> 0 succeeds", "(≥ 0 succeeds)"),
        ("fr", ("rules.tie_succeeds=false",), "(> 0 réussit", "(≥ 0 réussit)"),
    ],
)
def test_d3_trace_legend_says_a_tie_fails_when_tie_succeeds_is_false(lang, ties, said, not_said):
    sc = load_scenario(str(GERALDINE), ties)
    with language(lang):
        text = story(sc, 0, 0, overrides=ties)
    legend = text.split("\n\n")[0]
    assert said in legend
    assert not_said not in legend
