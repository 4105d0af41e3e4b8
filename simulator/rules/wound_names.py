"""The names of a patient's wounds in the trace: ``"2 light, 1 grave"`` and A1's modifier.

Kept apart from :mod:`simulator.rules.transitions`, which re-exports both, so that what a
transition decides and how the trace names it stay in their own modules.
"""

from __future__ import annotations

from functools import cache

from simulator.errors import N_, Phrase, PhraseText
from simulator.rules.levels import Level, Track
from simulator.rules.patient import Patient


def describe_wounds(patient: Patient, track: Track = Track.PHYSICAL) -> str:
    """``"2 light, 1 grave"``: the current wounds of a track, for the trace."""
    counts = [0] * 6
    for w in patient.wounds:
        counts[w.level] += 1
    return _describe(tuple(counts), track)


@cache
def _describe(counts: tuple[int, ...], track: Track) -> str:
    parts = [
        f"{n} {level.label}"
        for level, n in zip(Level, counts, strict=True)
        if n and level.track is track
    ]
    return ", ".join(parts) or "none"


def wounds_name(patient: Patient) -> str:
    """``"wounds (2 light, 1 grave)"``: A1's modifier, named for the trace.

    The name keeps its template and the counts (a :class:`~simulator.errors.PhraseText`), so
    that another language words it without reading the English back.
    """
    counts = [0] * 6
    for w in patient.wounds:
        counts[w.level] += 1
    return _wounds_name(tuple(counts))


@cache
def _wounds_name(counts: tuple[int, ...]) -> str:
    listed = tuple(
        (n, level.label) for level, n in zip(Level, counts, strict=True) if n and level.is_physical
    )
    said = Phrase(N_("wounds ({list})"), (("list", listed),))
    return PhraseText(f"wounds ({_describe(counts, Track.PHYSICAL)})", said)


@cache
def pain_times_name(factor: int) -> str:
    """``"pain ×3"``: A1's one pain term when ``self_aid_pain_factor`` is neither 1 nor 2.

    Kept as a :class:`~simulator.errors.PhraseText`, so another language words it.
    """
    said = Phrase(N_("pain ×{n}"), (("n", factor),))
    return PhraseText(f"pain ×{factor}", said)
