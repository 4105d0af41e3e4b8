"""How a trial ends (RULES.md Q1, H6, G5), as an enum.

An :class:`Outcome` is a ``str`` (``Outcome.DEAD == "dead"``): the ``outcome`` column of the
trials frame, the JSON summaries and the command line read exactly as with plain strings.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["OUTCOMES", "Outcome"]


class Outcome(StrEnum):
    """The end of one trial, in the order used for categoricals and charts."""

    DEAD = "dead"
    """Killed (H6): a physical blow past critical."""

    INCOHERENT = "incoherent"
    """Out of play without dying (M2): a mental blow past psychosis."""

    HEALED = "healed"
    """No wound left (G5), at the end of the trial."""

    WOUNDED = "wounded"
    """Still wounded at the horizon (O2)."""


OUTCOMES: tuple[str, ...] = tuple(outcome.value for outcome in Outcome)
"""The outcomes' values in :class:`Outcome`'s order (for categoricals and choices)."""
