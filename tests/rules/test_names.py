"""The names the layers share: rule ids, outcomes, level tracks, backends."""

from __future__ import annotations

import json
import re
from pathlib import Path

from simulator.rules import MENTAL_LEVELS, OUTCOMES, PHYSICAL_LEVELS, Level, Outcome, RuleId, Track
from simulator.runner.backends import BACKENDS

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_rule_of_docs_rules_md_is_a_rule_id_and_back():
    table = RULES_MD.read_text(encoding="utf-8").split("## The table", 1)[1].split("\n## ")[0]
    ids = re.findall(r"^\| ([A-Z]\d) \|", table, flags=re.M)
    assert sorted(ids) == sorted(RuleId)
    assert all(RuleId(i) == i and f"{RuleId(i)}" == i for i in ids)


def test_outcomes_read_as_the_strings_they_were():
    assert OUTCOMES == ("dead", "incoherent", "healed", "wounded")
    assert [o.value for o in Outcome] == list(OUTCOMES)
    assert Outcome.DEAD == "dead" and f"{Outcome.WOUNDED}" == "wounded"
    assert json.dumps({"outcome": Outcome.HEALED}) == '{"outcome": "healed"}'


def test_is_physical_and_is_mental_follow_the_track():
    for level in Level:
        assert level.is_physical == (level.track is Track.PHYSICAL) == (level in PHYSICAL_LEVELS)
        assert level.is_mental == (level.track is Track.MENTAL) == (level in MENTAL_LEVELS)
        assert level.is_physical != level.is_mental


def test_level_parse_reads_every_label():
    assert [Level.parse(level.label) for level in Level] == list(Level)


def test_the_backends_by_name():
    assert BACKENDS == ("local", "dask")
