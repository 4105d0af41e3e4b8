"""The words of ``trace``: its legend and the names of its modifiers, in both languages."""

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


@pytest.mark.parametrize(("factor", "fr"), [(1, "douleur −6"), (3, "douleur ×3 −18")])
def test_a1_self_aid_pain_factor_is_named_in_french(factor, fr):
    """``self_aid_pain_factor`` other than 2: one pain term, worded in the language."""
    from simulator.report.timeline import modifiers_text
    from simulator.rules.levels import Level
    from simulator.rules.transitions import first_aid_modifiers
    from tests.support import build_patient

    patient = build_patient(Level.LIGHT, Level.LIGHT)
    mods = first_aid_modifiers(
        patient, level=2, modifier=0, self_treat=True, mental=[], pain_factor=factor
    )
    with language("fr"):
        text = modifiers_text(mods)
    assert text.endswith(fr), text
    assert "pain" not in text
