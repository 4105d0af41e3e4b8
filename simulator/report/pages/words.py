"""The words of the report pages: the project's one catalogue, as the figures' and tables'.

:func:`t` is :func:`simulator.report.i18n.tr` under the name the page modules and their
templates use (a keyword of ``pybabel extract``); the French is in the ``.po`` file.
"""

from __future__ import annotations

from simulator.report.i18n import tr


def t(text: str) -> str:
    """A page's template in the language in force (the project's one catalogue).

    A French page's spaces before ``: ; %`` are made no-break once, on the whole page
    (:func:`simulator.report.pages._french_spaces`).
    """
    return tr(text)
