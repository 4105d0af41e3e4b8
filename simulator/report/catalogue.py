"""The catalogues of the languages other than English: gettext ``.po`` files, read at run time.

Every sentence a person reads is an English template (``"{n} trials, seed {seed}"``) in the
code, marked for Babel's extractor by the function that translates it (:func:`~simulator.
report.i18n.tr`, :func:`~simulator.report.i18n.ntr` for plurals, :func:`N_` for a template
kept in a constant). Its translation lives in ``simulator/locale/LANG/LC_MESSAGES/harmonies.po``,
read here with Babel's ``read_po`` at first use (no compiled ``.mo``, so a clean clone needs
no build step). Adding a language is adding a ``.po`` file: ``make messages`` extracts the
templates (``pybabel extract``) and brings each ``.po`` up to date (``pybabel update``).
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from simulator.errors import N_, Nn_

__all__ = [
    "DOMAIN",
    "KEYWORDS",
    "LOCALE_DIR",
    "N_",
    "Catalogue",
    "Nn_",
    "catalogue",
    "languages",
    "po_path",
]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the ``.po`` files are: ``LOCALE_DIR / lang / "LC_MESSAGES" / "harmonies.po"``."""

DOMAIN = "harmonies"
"""The gettext domain of the project's messages."""

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "tr": None,
    "t": None,
    "word": None,
    "N_": None,
    "Nn_": (1, 2),
    "ntr": (1, 2),
    "ptr": ((1, "c"), 2),
    "phrase": None,
    "Phrase": None,
    "problem": (3,),
    "_missing": (3,),
    "Problem": (4,),
}
"""The functions whose first arguments are templates, for Babel's extractor (as ``-k``)."""


def po_path(lang: str) -> Path:
    """The ``.po`` file of a language."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> tuple[str, ...]:
    """``en`` (the code's own), then every language that has a ``.po`` file."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return ("en", *(lang for lang in found if lang != "en"))


@dataclass(frozen=True)
class Catalogue:
    """One language's translations, by ``(context, English template)``.

    Attributes:
        messages: The translation of each template; a tuple of forms for a plural one.
        plural: Which form a count takes (the ``.po`` file's ``Plural-Forms``).
    """

    messages: dict[tuple[str | None, str], str | tuple[str, ...]]
    plural: Callable[[int], int]

    def gettext(self, text: str, context: str | None = None) -> str:
        """The translation of ``text`` (in ``context`` first), or ``text`` when it has none."""
        found = self.messages.get((context, text))
        if found is None and context is not None:
            found = self.messages.get((None, text))
        if isinstance(found, tuple):
            found = found[0]
        return found or text

    def ngettext(self, one: str, many: str, n: int) -> str:
        """The form of ``one``/``many`` for the count ``n``."""
        found = self.messages.get((None, one))
        if isinstance(found, tuple):
            index = self.plural(n)
            if index < len(found) and found[index]:
                return found[index]
        return self.gettext(one if n == 1 else many)


@functools.cache
def catalogue(lang: str) -> Catalogue | None:
    """The catalogue of ``lang``, read once; None for English (the templates' own language)."""
    path = po_path(lang)
    if lang == "en" or not path.is_file():
        return None
    with path.open("rb") as file:
        read = read_po(file, locale=lang, domain=DOMAIN)
    messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    for message in read:
        if not message.id or message.fuzzy:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        string = message.string
        if isinstance(string, str):
            messages[(message.context, key)] = string
        elif string:
            messages[(message.context, key)] = tuple(string)
    return Catalogue(messages, gettext.c2py(read.plural_expr))
