"""The words of the report pages: the project's one catalogue, as the figures' and tables'.

:func:`t` is :func:`simulator.report.i18n.tr` under the name the page modules and their
templates use (a keyword of ``pybabel extract``); the French is in the ``.po`` file.
"""

from __future__ import annotations

from simulator.report.i18n import bound_spaces, current_language, tr


def t(text: str) -> str:
    """A page's template in the language in force (the project's one catalogue).

    In French its spaces before ``: ; ? ! %`` never break a line (no-break spaces).
    """
    found = tr(text)
    return bound_spaces(found) if current_language() == "fr" else found
