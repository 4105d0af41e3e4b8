"""The words the code translates by value, marked here for the extractor.

Most templates are string literals where they are translated (``tr("{n} trials")``), and
``pybabel extract`` finds them there. A few words are translated from a value: a level's
label, an outcome, a table's cell, a cause's or a key's label kept in a table, a test's
modifier named by the rules (``"Cp+Rs"``, ``"pain"``). They are listed here with
:func:`~simulator.errors.N_`, so that the catalogue holds them too
(``tests/test_catalogue.py`` checks that the tables they come from are all listed).
"""

from __future__ import annotations

from simulator.errors import N_

BY_VALUE = (
    N_("light"),
    N_("grave"),
    N_("critical"),
    N_("shock"),
    N_("trauma"),
    N_("psychosis"),
    N_("light wound"),
    N_("grave wound"),
    N_("critical wound"),
    N_("shock wound"),
    N_("trauma wound"),
    N_("psychosis wound"),
    N_("max"),
    N_("mortality"),
    N_("pain"),
    N_("unstable period"),
    N_("stable period"),
    N_("watch period"),
    N_("heal period"),
    N_("difficulty"),
    N_("dead"),
    N_("incoherent"),
    N_("healed"),
    N_("wounded"),
    N_("a blow past critical"),
    N_("a wound received"),
    N_("a failed stable-period test"),
    N_("a neglected watch"),
    N_("a failed healing"),
    N_("rough activity"),
    N_("a healing roll failed by 10"),
    N_("a mental blow (incoherent)"),
    N_("Cp+Rs"),
    N_("Rs+It"),
    N_("first-aid level"),
    N_("first aid: start"),
    N_("first aid: interval"),
    N_("first aid: modifier"),
    N_("healer's level"),
    N_("healing: modifier"),
    N_("neglect probability"),
    N_("trigger probability"),
    N_("Share dead"),
    N_("Share healed"),
    N_("Share wounded"),
    N_("Share incoherent"),
    N_("dies"),
    N_("heals"),
    N_("still wounded"),
    N_("median heal"),
    N_("none healed"),
    N_("exact"),
    N_("sampled"),
    N_("Wound table"),
    N_("first aid"),
    N_("watches"),
    N_("healer"),
    N_("rules settings"),
    N_("injuries received"),
    N_("neglected at"),
    N_("by the patient"),
    N_("tries at most, per spell"),
    N_("dies within the first day"),
    N_("activity"),
    N_("circumstances"),
    N_("healer level"),
    N_("mental"),
    N_("missed watches"),
    N_("modifier"),
    N_("pain, person"),
    N_("pain, task"),
)
"""Every word translated from a value (``tr(level.label)``, ``tr(CAUSE_LABELS[c])``...)."""
