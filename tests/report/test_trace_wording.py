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


CUMULATIVE = """
name = "Cumulative rest"
horizon = "20d"
[patient]
cp_rs = 40
rs_it = 40
[[injuries]]
at = "0s"
level = "grave"
[first_aid]
level = 40
start = "1min"
interval = "1min"
[healing]
level = 40
[rules]
rest_per_level = "cumulative"
"""


@pytest.mark.parametrize("kernel", [True, False])
def test_g3_a_cumulative_session_due_at_once_is_told_at_once_not_in_0s(tmp_path, kernel):
    """G3 ``cumulative``: the grave wound's week covers the light wound's 2 days."""
    from simulator.report.timeline import trace_text
    from simulator.runner.engines import trace_trial

    path = tmp_path / "cumulative.toml"
    path.write_text(CUMULATIVE, encoding="utf-8")
    _, lines = trace_trial(load_scenario(str(path)), 0, 0, kernel=kernel)
    for lang, now, zero in (
        ("en", "of the light wounds at once", "in 0s"),
        ("fr", "tout de suite", "dans 0 s"),
    ):
        with language(lang):
            text = trace_text(lines)
        assert now in text, text
        assert zero not in text, text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "rules: faint_duration = 90s, trigger_probability = 0.5 ("),
        ("fr", "règles : faint_duration = 90 s, trigger_probability = 0,5 ("),
    ],
)
def test_the_rules_header_writes_its_numbers_as_the_trace_does(lang, said):
    # the header names a setting as a scenario writes it, but its number in the language:
    # 0,5 and 90 s in French, as every other number and duration of a French trace
    sets = ("rules.trigger_probability=0.5", "rules.faint_duration=90s")
    sc = load_scenario(str(GERALDINE), sets)
    with language(lang):
        text = story(sc, 0, 0, overrides=sets)
    assert said in text


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "reference"])
def test_x1_an_activity_test_names_the_wound_as_every_other_line(kernel):
    """X1: "the grave wound holds", as "the grave wound worsens to..." and the French "la
    blessure grave résiste" (it read "grave wound holds", without its article)."""
    sc = load_scenario(str(GERALDINE.parent / "hydra.toml"))  # three graves, a fight at 1d
    text = story(sc, 0, 0, kernel=kernel)
    tested = [line for line in text.splitlines() if " X1 " in line and "wound" in line]
    assert tested, text
    assert all(" X1   the grave wound " in line for line in tested), tested
