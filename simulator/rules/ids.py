"""The ids of the rules of RULES.md, as an enum: a trace line or a test names its rule by one.

A :class:`RuleId` is a ``str`` (``RuleId.S2 == "S2"``), so traces and files read the same as
with plain strings, while a mistyped id is an error where it is written. ``docs/rules.md``
maps each id to its code and tests.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["RuleId", "received_rule"]


class RuleId(StrEnum):
    """A rule of RULES.md, by its id (``"S2"``: the survival clock)."""

    # Dice
    D1 = "D1"
    D2 = "D2"
    D3 = "D3"
    D4 = "D4"
    D5 = "D5"
    # The wound table
    T1 = "T1"
    T2 = "T2"
    # The patient
    H1 = "H1"
    H2 = "H2"
    H3 = "H3"
    H4 = "H4"
    H5 = "H5"
    H6 = "H6"
    # Wounds received
    W1 = "W1"
    W2 = "W2"
    W3 = "W3"
    # Fainting
    F1 = "F1"
    F2 = "F2"
    # Survival
    S1 = "S1"
    S2 = "S2"
    S3 = "S3"
    S4 = "S4"
    S5 = "S5"
    # First aid
    A1 = "A1"
    A2 = "A2"
    A3 = "A3"
    A4 = "A4"
    # Rough activity
    X1 = "X1"
    # Rest and watches
    R1 = "R1"
    R2 = "R2"
    R3 = "R3"
    R4 = "R4"
    # Healing
    G1 = "G1"
    G2 = "G2"
    G3 = "G3"
    G4 = "G4"
    G5 = "G5"
    # Pain recovery
    P1 = "P1"
    # Mental wounds
    M1 = "M1"
    M2 = "M2"
    M3 = "M3"
    # The basic ruleset
    B1 = "B1"
    B2 = "B2"
    B3 = "B3"
    B4 = "B4"
    B5 = "B5"
    B6 = "B6"
    # Order and horizon
    O1 = "O1"
    O2 = "O2"
    # What a trial reports
    Q1 = "Q1"
    Q2 = "Q2"
    Q3 = "Q3"


def received_rule(basic: bool, physical: bool) -> RuleId:
    """The rule a trace names for a wound received: W2, B1 (basic ruleset) or M1 (mental).

    W2 describes only a physical wound of the advanced ruleset (added unstable, with pain);
    under the basic ruleset a wound has no stability and no pain (B1-B3); a mental wound of
    the advanced ruleset goes on its own track, arriving stable (M1, M3). Only the id told:
    a cause still counts every received wound as W2's (Q3).
    """
    if basic:
        return RuleId.B1
    return RuleId.W2 if physical else RuleId.M1
