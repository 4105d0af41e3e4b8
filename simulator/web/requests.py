"""What the workbench's requests share: the server's :class:`Bench`, and reading a request.

A leaf of ``web``: the application (:mod:`simulator.web.app`) and the page's Solve
(:mod:`simulator.web.calibrating`) both read their requests through it: the JSON body, the
page's language and id, the whole numbers it gives, and the scenario it names.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request

from simulator.errors import UserError
from simulator.report.i18n import number_text
from simulator.web import answer as answers
from simulator.web.cells import Cell, cells, file_maxima, file_rows, load, overrides, placed
from simulator.web.folder import Folder, GoneError, RefusedError
from simulator.web.guard import MAX_BODY
from simulator.web.sampling import Pool
from simulator.web.words import error_text, word

MAX_TRIALS = 1_000_000
"""The most trials the page may ask for one answer."""

MAX_PAGES = 1_000
"""The pages whose newest answer is remembered (the least recently asked is forgotten)."""

MAX_BASES = 256
"""The most answers of scenarios as written the server keeps (:meth:`Bench.keep_base`)."""

BODY_SECONDS = 10.0
"""How long a request's body may take to come whole (a page's comes in a moment): a client
that trickles one would otherwise hold its connection and the request for ever."""


class LongNumber:
    """A JSON whole number of more digits than Python reads as a number (4,300 by default).

    Read as :class:`int`, it raised while the body was read, and the request was told
    'expected a JSON object', which says nothing of the field. Kept as its digits, the field
    that holds it says what is wrong with it, as it does for the same digits sent as text.

    Attributes:
        text: The digits as the body gives them (a '-' first for a negative one).
    """

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        """The number as written: messages quote a field with ``!r``."""
        return self.text


def _whole(text: str) -> int | LongNumber:
    """A JSON whole number: an :class:`int`, or a :class:`LongNumber` past Python's digits."""
    try:
        return int(text)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        return LongNumber(text)


PAGE_ID = re.compile(r"[A-Za-z0-9_-]{0,64}")
"""A page's id, as the page draws it (``crypto.randomUUID``); '' for a client without one."""


@dataclass
class Bench:
    """What the server holds: the folder, the language, each page's newest job, the bases.

    Attributes:
        folder: What it may read and write.
        lang: The language of the page when it does not ask for one.
        port: The port it listens on (set once bound).
        newest: The number of the newest answer each page asked for, by the page's id (at
            most :data:`MAX_PAGES`, the least recently asked first).
        bases: The answer of each scenario as written, by name, change time, trials and seed
            (the same for every page: it depends on the file alone); at most
            :data:`MAX_BASES`, the least recently kept first (:meth:`keep_base`).
        pool: The runner's workers that run the trials (None: the server's own process).
    """

    folder: Folder
    lang: str = "en"
    port: int = 0
    newest: OrderedDict[str, int] = field(default_factory=OrderedDict)
    bases: OrderedDict[tuple[str, int, int, int], answers.Numbers] = field(
        default_factory=OrderedDict
    )
    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    pool: Pool | None = None

    def keep_base(self, key: tuple[str, int, int, int], numbers: answers.Numbers) -> None:
        """Keep the answer of a scenario as written; the oldest goes past :data:`MAX_BASES`.

        Each new count of trials or seed a page asks for is a new key: without a bound, a
        page left open for days, or a script asking, would grow the server without end.
        """
        self.bases[key] = numbers
        self.bases.move_to_end(key)
        while len(self.bases) > MAX_BASES:
            self.bases.popitem(last=False)

    def ask(self, page: str) -> Callable[[], bool]:
        """Make a new answer the newest of ``page``.

        Returns:
            Its ``current()``: false once a newer answer of the same page is asked (another
            page's answers never stop it).
        """
        mine = next(self.counter)
        self.newest[page] = mine
        self.newest.move_to_end(page)
        while len(self.newest) > MAX_PAGES:
            self.newest.popitem(last=False)
        return lambda: self.newest.get(page) == mine


def stamp(path: Path) -> int:
    """When the file last changed: an answer of the file as it was is not its answer now."""
    return path.stat().st_mtime_ns


def changed_on_disk(given: object, path: Path) -> bool:
    """Whether the page read the file at another :func:`stamp` than now (``given``, as text).

    The page shows the cells as it read them; an answer of the file as it is now would be
    shown beside cells that are not the ones simulated, so the page reads the file again.
    """
    if not isinstance(given, str):
        return False
    try:
        return given != str(stamp(path))
    except OSError:  # gone: the request's own reading says so
        return False


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes come in :data:`BODY_SECONDS`.

    Raises:
        HTTPException: 413 past the size, 408 past the time, 400 for anything but a JSON
            object.
    """
    data = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise HTTPException(413, f"a request body of at most {MAX_BODY} bytes")
    except ClientDisconnect:  # gone before its body came whole: nobody to answer, no traceback
        raise HTTPException(400, "the request's body did not come whole") from None
    except TimeoutError:
        raise HTTPException(
            408, f"the request's body did not come whole within {BODY_SECONDS:g} seconds"
        ) from None
    try:
        parsed = json.loads(data, parse_int=_whole)
    except (ValueError, RecursionError):
        raise HTTPException(400, "expected a JSON object") from None
    if not isinstance(parsed, dict):
        raise HTTPException(400, "expected a JSON object")
    where = _lone_surrogate(parsed)
    if where is not None:  # no UTF-8 can hold it: every answer that quoted it would fail
        raise HTTPException(400, f"{where}: a lone surrogate (\\ud800-\\udfff); expected text")
    return parsed


def _lone_surrogate(value: object, where: str = "", cell: bool = False) -> str | None:
    """Where a lone surrogate sits in a request (a key, or a text that is not a cell's).

    A cell's value (``edits``) keeps it: the cell says what is wrong with it, at the cell.
    """
    if isinstance(value, str):
        bad = not cell and any("\ud800" <= c <= "\udfff" for c in value)
        return (where or "body") if bad else None
    if isinstance(value, dict):
        for key, item in value.items():
            if any("\ud800" <= c <= "\udfff" for c in str(key)):
                return f"{where or 'body'}: a key"
            inner = f"{where}.{key}" if where else str(key)
            found = _lone_surrogate(item, inner, cell=where == "edits")
            if found is not None:
                return found
    if isinstance(value, list):
        for number, item in enumerate(value):
            found = _lone_surrogate(item, f"{where}[{number}]", cell)
            if found is not None:
                return found
    return None


def lang_of(given: object, bench: Bench) -> str:
    """The language the request asks for (``en`` or ``fr``), else the server's."""
    return given if given in ("en", "fr") else bench.lang


def page_of(given: object) -> str:
    """The id of the page that asks ('' when it gives none)."""
    if given is None:
        return ""
    if not isinstance(given, str) or not PAGE_ID.fullmatch(given):
        raise HTTPException(400, f"page: got {given!r}; expected the page's id (64 letters)")
    return given


FIELD = "X-Harmonies-Field"
"""The header of a refused count that names the request's field (``trials``, ``seed``)."""


def count_of(given: object, default: int, low: int, high: int, what: str, lang: str = "en") -> int:
    """A whole number of the request (a number, or its digits as text), ``default`` if absent.

    The page sends what was typed as text, so that a seed past 2**53 arrives exactly and a
    message quotes what the person typed.

    Raises:
        HTTPException: 400 for anything but a whole number from ``low`` to ``high``, the
            message in ``lang``; its :data:`FIELD` header names ``what`` (the page marks
            that box, not a cell of the scenario).
    """
    value: object = default if given is None else given
    digits = value.strip().lstrip("0") if isinstance(value, str) else ""
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        # past ``high``'s digits it is out of range: never read (Python refuses to read a
        # text of more than 4,300 digits as a number, which was a 500)
        value = int(value.strip()) if len(digits) <= len(str(high)) else None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        got = repr(given) if isinstance(given, str | LongNumber) else json.dumps(given)
        message = word("{what}: got {got}; expected a whole number from {low} to {high}", lang)
        raise HTTPException(
            400,
            message.format(
                what=word(what, lang),
                got=got,
                low=number_text(low, lang),
                high=number_text(high, lang),
            ),
            headers={FIELD: what},
        )
    return value


@dataclass
class Asked:
    """A request's scenario: the file, its cells, the edits as ``--set`` texts."""

    name: str
    path: Path
    source: str
    known: list[Cell]
    texts: list[str]
    problems: list[dict[str, str]]


def asked_of(bench: Bench, data: dict[str, Any]) -> Asked:
    """The scenario a request names, its cells and its edits as ``--set`` texts.

    Raises:
        HTTPException: 403 for a name outside the folder, 404 for a file of the folder
            that is not there, 400 for edits that are not an object.
    """
    lang = lang_of(data.get("lang"), bench)
    name = data.get("name")
    try:
        path = bench.folder.resolve(name)
    except GoneError as exc:  # deleted since the page opened it: said in its language
        raise HTTPException(404, said(exc, lang)) from None
    except RefusedError as exc:  # a link out of the folder, say: in the page's language too
        raise HTTPException(403, said(exc, lang)) from None
    assert isinstance(name, str)
    source = bench.folder.shown(name)
    try:
        written = load(path, source, ())
    except UserError as exc:  # the file changed on disk since the page read it: its problems
        return Asked(name, path, source, [], [], placed(exc, [], lang, bench.folder.root))
    # the rows a level change shows; the injuries in the file's order, as --set counts them
    known = cells(written, file_maxima(path), mental=True, rows=file_rows(path))
    edits = data.get("edits", {})
    if not isinstance(edits, dict):
        raise HTTPException(400, "edits: expected an object of key: text")
    texts, problems = overrides(edits, known, lang)
    return Asked(name, path, source, known, texts, problems)


def said(exc: UserError, lang: str) -> str:
    """An error's message in the page's language (its template worded, then filled)."""
    return error_text(exc, lang)
