"""How the causes of Q3 are told: their names, and the causes of a summary, largest first.

A cause's key (``healing_failure``) is what files and JSON hold; :data:`CAUSE_LABELS` is what
a designer reads (in the language in force, through :func:`~simulator.report.i18n.tr`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from simulator.rules.outcome import Summary


from simulator.report import messages
from simulator.report.i18n import exact_percent_text, percent_text, tr
from simulator.rules.cause import DEATH_CAUSES

__all__ = ["CAUSE_LABELS", "cause_label", "cause_order", "causes_phrase", "ranked_causes"]

CAUSE_LABELS = messages.CAUSE_LABELS
"""Each cause of Q3 as a designer reads it (:data:`simulator.report.messages.CAUSE_LABELS`)."""


def cause_label(cause: str) -> str:
    """A cause's name in the language in force."""
    return tr(CAUSE_LABELS[cause])


def cause_order(shares: Mapping[str, float], causes: Iterable[str] = DEATH_CAUSES) -> list[str]:
    """The order in which every list a person reads names the causes of Q3.

    The largest share first; among equal shares (the zeros of causes the other side of a
    comparison died of, say), :data:`~simulator.rules.cause.DEATH_CAUSES`'s order, CONTRACT's.
    ``run``, ``compare`` (by A's shares: A's rows read as ``run A`` prints them), the
    workbench (by the answer shown, as the ``run`` line under it prints it), the report pages
    and the one-line answers all follow it; files keep their fixed columns.

    Args:
        shares: Each cause's share (a cause missing counts as 0).
        causes: The causes to order (by default every cause of death).
    """
    rank = {c: i for i, c in enumerate(DEATH_CAUSES)}
    return sorted(causes, key=lambda c: (-float(shares.get(c) or 0.0), rank[c]))


def ranked_causes(summary: Summary) -> list[tuple[str, float, list[float]]]:
    """``(cause, share, interval)`` of each cause of a JSON summary, largest first, zeros out.

    Among equal shares, :data:`~simulator.rules.cause.DEATH_CAUSES`'s order
    (:func:`cause_order`).
    """
    shares = summary.get("p_dead_by_cause") or {}
    intervals = summary.get("p_dead_by_cause_ci") or {}
    killed = [c for c in DEATH_CAUSES if shares.get(c, 0.0) > 0.0]
    return [(c, float(shares[c]), list(intervals.get(c, [0.0, 0.0])))
            for c in cause_order(shares, killed)]  # fmt: skip


def causes_phrase(
    summary: Summary, decimals: int = 1, most: int | None = None, *, exact: bool = False
) -> str:
    """The causes as words, largest first: ``"a wound received 53.4%, a failed healing 23.7%"``.

    Every cause that killed, or the ``most`` largest and the rest as ``"other causes 0.1%"``.
    Empty when no trial died. ``exact``: an exact answer's shares, to four decimals.
    """
    rows = ranked_causes(summary)
    most = len(rows) if most is None else most

    def shown(p: float) -> str:
        return exact_percent_text(p) if exact else percent_text(p, decimals)

    parts = [f"{cause_label(c)} {shown(p)}" for c, p, _ in rows[:most]]
    rest = sum(p for _, p, _ in rows[most:])
    if rest > 0.0:
        parts.append(tr("other causes {p}").format(p=shown(rest)))
    return ", ".join(parts)
