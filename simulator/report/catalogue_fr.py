"""The French catalogue: every phrase a figure, a printed table or a rulebook export shows.

Keyed by the English text, which is what the code writes; :func:`simulator.report.i18n.tr`
looks phrases up here. Placeholders in braces (``{n}``) are filled in after translation.
"""

from __future__ import annotations

FRENCH: dict[str, str] = {
    "hours": "heures",
}
"""English phrase -> French phrase."""
