"""The workbench's web application (Starlette): the page, and the JSON it asks for.

``GET /`` is the page (one template, one script, one style sheet, all shipped in the
package: nothing comes from the internet). The page asks:

- ``GET /api/names``: the folder's scenarios as they are now (the page follows the folder),
  and why its other ``.toml`` files are not listed;
- ``GET /api/scenario?name=F``: the cells of scenario ``F`` (its whole table, the patient...);
- ``POST /api/answer``: the answer to the page's edits, streamed as lines of JSON (numbers
  after every chunk of trials, then the figures); a newer request of the same page (the
  ``page`` id each page load draws) stops that page's older one, never another page's;
- ``POST /api/trace``: one campaign told as ``trace`` tells it (or the first that ends dead
  or healed);
- ``POST /api/save``: the edited scenario as a new file of the folder;
- ``POST /api/calibrate``: the values of the free cells that meet the page's targets,
  streamed round by round (:mod:`simulator.web.calibrating`).

Every request goes through :class:`~simulator.web.guard.Guard` (own address only, small
bodies). A bad cell never raises: its problems come back, placed at their cells.
"""

from __future__ import annotations

import errno
import json
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from simulator.errors import UserError
from simulator.web import answer as answers
from simulator.web.cells import (
    GROUPS,
    cells,
    command_line,
    file_maxima,
    file_rows,
    load,
    placed,
    table_levels,
)
from simulator.web.folder import ExistsError, GoneError, RefusedError, SaveFailedError
from simulator.web.guard import Guard, own_hosts
from simulator.web.requests import (
    MAX_TRIALS,
    Asked,
    Bench,
    asked_of,
    body,
    changed_on_disk,
    count_of,
    lang_of,
    page_of,
    said,
    stamp,
)
from simulator.web.words import (
    PAGE_WORDS,
    choice_text,
    group_name,
    label,
    phrase_text,
    shown,
    word,
)

if TYPE_CHECKING:
    from simulator.scenario.reading import ScenarioSource

HERE = Path(__file__).parent


def _scenario(
    bench: Bench, asked: Asked, lang: str, read: ScenarioSource | None = None
) -> tuple[Any, list[dict[str, str]]]:
    """The edited scenario, or None with the problems placed at their cells.

    ``read``: the file as read already (what save-as writes, edited), else it is read now.
    """
    if asked.problems:
        return None, asked.problems
    try:
        return load(asked.path, asked.source, asked.texts, read), []
    except UserError as exc:
        return None, placed(exc, asked.known, lang, bench.folder.root)


def _read(
    bench: Bench, asked: Asked, lang: str
) -> tuple[ScenarioSource | None, list[dict[str, str]]]:
    """The scenario file, read once for save-as; or None with the problems at their cells.

    The scenario checked and the file saved come from this one reading: the file read again
    could have changed in between, and the copy would not be the scenario checked.
    """
    from simulator.scenario.reading import read_scenario_source

    if asked.problems:
        return None, asked.problems
    try:
        return read_scenario_source(asked.path), []
    except UserError as exc:
        return None, placed(exc, asked.known, lang, bench.folder.root)


def create_app(bench: Bench) -> Starlette:
    """The workbench's application for ``bench`` (wrapped in its :class:`Guard`)."""
    from simulator.web.calibrating import calibrate_context, calibrate_routes

    templates = Jinja2Templates(directory=str(HERE / "templates"))

    async def page(request: Request) -> Response:
        lang = lang_of(request.query_params.get("lang"), bench)
        words = {k: word(k, lang) for k in PAGE_WORDS}
        names, refused = await run_in_threadpool(bench.folder.listing)  # the folder as it is now
        context = {"lang": lang, "words": words, "names": names,
                   "refused": [phrase_text(r, lang) for r in refused],
                   "first": names[0] if names else None, "trials": 10_000, "seed": 0}  # fmt: skip
        context |= calibrate_context(lang)  # the calibration section's words and defaults
        return templates.TemplateResponse(request, "page.html", context)

    async def listed(request: Request) -> Response:
        """The folder's scenarios as they are now, and why its other files are not listed."""
        lang = lang_of(request.query_params.get("lang"), bench)
        names, refused = await run_in_threadpool(bench.folder.listing)
        return JSONResponse({"names": names, "refused": [phrase_text(r, lang) for r in refused]})

    async def scenario(request: Request) -> Response:
        lang = lang_of(request.query_params.get("lang"), bench)
        name = request.query_params.get("name")
        try:
            path = bench.folder.resolve(name)
        except GoneError as exc:  # deleted since the page listed it: said in its language
            return JSONResponse({"error": said(exc, lang)}, status_code=404)
        except RefusedError as exc:  # a link out of the folder, say: in the page's language too
            return JSONResponse({"error": said(exc, lang)}, status_code=403)
        assert name is not None
        profile = request.query_params.get("profile")  # the table as another profile makes it
        texts = (f"patient.profile={json.dumps(profile)}",) if profile else ()
        try:
            written = await run_in_threadpool(load, path, bench.folder.shown(name), texts)
        except UserError as exc:
            problems = placed(exc, [], lang, bench.folder.root)
            return JSONResponse({"name": name, "problems": problems})
        maxima = file_maxima(path)
        mental = request.query_params.get("mental") == "1"  # an injury turned mental
        found = [
            cell.as_json()
            | {"label": label(cell.key, lang)}
            | {"shown": [choice_text(c, lang) for c in cell.choices]}
            for cell in cells(written, maxima, mental, file_rows(path))
        ]
        levels = [{"name": lv.label, "label": word(f"{lv.label} wound", lang)}
                  for lv in table_levels(written, mental)]  # fmt: skip
        groups = {g: group_name(g, lang) for g in ("table", *GROUPS)}
        title, description = _scenario_text(written, lang)
        return JSONResponse({"name": name, "source": bench.folder.shown(name),
                             "stamp": str(stamp(path)),
                             "title": title, "description": description,
                             "cells": found, "levels": levels, "groups": groups})  # fmt: skip

    async def answer(request: Request) -> Response:
        data = await body(request)
        lang = lang_of(data.get("lang"), bench)
        trials = count_of(data.get("trials"), 10_000, 1, MAX_TRIALS, "trials", lang)
        seed = count_of(data.get("seed"), 0, 0, 2**63 - 1, "seed", lang)
        page = page_of(data.get("page"))
        asked = asked_of(bench, data)
        current = bench.ask(page)
        if changed_on_disk(data.get("stamp"), asked.path):
            return StreamingResponse(
                iter([json.dumps({"type": "changed"}) + "\n"]), media_type="application/x-ndjson"
            )
        sc, problems = await run_in_threadpool(_scenario, bench, asked, lang)
        return StreamingResponse(
            _stream(bench, asked, sc, problems, lang, trials, seed, current),
            media_type="application/x-ndjson",
        )

    async def trace(request: Request) -> Response:
        data = await body(request)
        lang = lang_of(data.get("lang"), bench)
        seed = count_of(data.get("seed"), 0, 0, 2**63 - 1, "seed", lang)
        trial = count_of(data.get("trial"), 0, 0, 2**63 - 1, "trial", lang)
        find = data.get("find")
        if find not in (None, "dead", "healed", "wounded", "incoherent"):
            raise HTTPException(
                400, f"find: got {find!r}; expected dead, healed, wounded or incoherent"
            )
        asked = asked_of(bench, data)
        if changed_on_disk(data.get("stamp"), asked.path):  # the page reads it again first
            return JSONResponse({"changed": True})
        sc, problems = await run_in_threadpool(_scenario, bench, asked, lang)
        if sc is None:
            return JSONResponse({"problems": problems})
        try:
            told = await run_in_threadpool(_tell, sc, seed, trial, find, lang, asked.texts)
        except UserError as exc:  # e.g. --find an outcome this scenario cannot have
            return JSONResponse({"problems": [{"key": "", "message": said(exc, lang)}]})
        return JSONResponse(told)

    async def save(request: Request) -> Response:
        data = await body(request)
        lang = lang_of(data.get("lang"), bench)
        asked = asked_of(bench, data)
        if changed_on_disk(data.get("stamp"), asked.path):  # never save what the page hides
            return JSONResponse({"changed": True}, status_code=409)
        read, problems = await run_in_threadpool(_read, bench, asked, lang)
        if changed_on_disk(data.get("stamp"), asked.path):  # changed while it was read
            return JSONResponse({"changed": True}, status_code=409)
        sc = None
        if read is not None:
            sc, problems = await run_in_threadpool(_scenario, bench, asked, lang, read)
        if sc is None or read is None:
            return JSONResponse({"problems": problems}, status_code=400)
        text = await run_in_threadpool(_saved_text, asked, read, lang)
        try:
            path = await run_in_threadpool(bench.folder.save_as, data.get("as"), text)
        except ExistsError as exc:
            return JSONResponse(_refused(exc, lang), status_code=409)
        except RefusedError as exc:
            return JSONResponse(_refused(exc, lang), status_code=400)
        except SaveFailedError as exc:  # the machine's fault: 507 when the disk is full
            full = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
            return JSONResponse(_refused(exc, lang), status_code=507 if full else 500)
        # said in both languages: the language link carries the line to the other page
        lines = {code: _saved_line(path, asked, sc, code) for code in ("en", "fr")}
        return JSONResponse(
            {"saved": path.name, "path": str(path), "message": lines[lang], "said": lines}
        )

    routes = [
        Route("/", page),
        Route("/api/names", listed),
        Route("/api/scenario", scenario),
        Route("/api/answer", answer, methods=["POST"]),
        Route("/api/trace", trace, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        *calibrate_routes(bench),  # the page's Solve (simulator.web.calibrating)
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes)
    return Guard(app, lambda: own_hosts(bench.port))  # type: ignore[return-value]


def _scenario_text(written: Any, lang: str) -> tuple[str, str]:
    """The scenario's name and description in the page's language (``name_fr``...).

    As the command line's report shows them.
    """
    from simulator.report.i18n import language
    from simulator.report.wording import scenario_text

    with language(lang):
        return scenario_text(written)


def _refused(exc: UserError, lang: str) -> dict[str, object]:
    """A save-as refused: its words in the page's language, and in each (for the language link).

    The page in the other language says the same line beside Save as (the name typed is
    carried along with it: the designer sees why nothing was written, then chooses again).
    """
    return {"error": said(exc, lang), "said": {code: said(exc, code) for code in ("en", "fr")}}


def _saved_line(path: Path, asked: Asked, sc: Any, lang: str) -> str:
    """The line that says where save-as wrote the file, in ``lang``.

    A file saved with the name of the one it came from is a twin by its name: said, not
    changed.
    """
    if any(t.partition("=")[0] in ("name", "name_fr") for t in asked.texts):
        return word("Saved {path}", lang).format(path=path)
    written = _scenario_text(sc, lang)[0]
    return word(
        "Saved {path}; it keeps the name “{name}” (edit the name cell to give "
        "it one of its own: a study of the folder would tell the two apart by their "
        "file names only)",
        lang,
    ).format(path=path, name=written)


def _tell(
    sc: Any, seed: int, trial: int, find: str | None, lang: str, texts: Sequence[str]
) -> dict[str, Any]:
    """The trace of trial ``trial`` (or the first that ends ``find``), as ``trace`` prints it.

    ``texts``: the page's edits as ``--set`` lines, named in the title as the command names
    its own (a changed cell shows nowhere else in the text).
    """
    from simulator.report.i18n import language
    from simulator.studies.campaign import find_trial, story

    with language(lang):
        chosen = trial if find is None else find_trial(sc, seed, trial, find, flag=False)
        return {"trial": chosen, "text": story(sc, seed, chosen, overrides=texts)}


def _saved_text(asked: Asked, read: ScenarioSource, lang: str = "en") -> str:
    """The new file: the scenario file's text with the edits applied, and where it came from.

    The file's own comments and layout are kept, the edited values written in place
    (:func:`~simulator.scenario.overrides.edited_toml`). Its head comment is in the page's
    language (``lang``); the keys are the file's (``read``, as read to check the scenario).
    """
    from simulator.scenario.overrides import edited_toml
    from simulator.web.cells import OPTIONAL_TEXTS

    mapping = dict(read.mapping)  # its own keys are taken out, never the reading's
    cleared = {t.partition("=")[0] for t in asked.texts if t.partition("=")[2] == '""'}
    cleared &= OPTIONAL_TEXTS  # an emptied optional text: the key is left out, not written ""
    texts = [t for t in asked.texts if t.partition("=")[0] not in cleared]
    for key in cleared:
        mapping.pop(key, None)
    lines = [
        word("Saved by harmonies-sim serve from {name}", lang).format(name=asked.name),
        *(f"  --set {t}" for t in texts),
        *(word("  without {key}", lang).format(key=key) for key in sorted(cleared)),
    ]
    # said only where the file could not be edited in place (its text would not read back)
    lost = [word("(the comments of the original file are not kept)", lang)]
    # What was typed goes into the comment escaped, one line each: a newline in a cell never
    # ends the comment (it would write keys nobody typed); the keys come from the file alone.
    return edited_toml(mapping, texts, lines, read.text, lost, read.newline)


async def _stream(
    bench: Bench,
    asked: Asked,
    sc: Any,
    problems: list[dict[str, str]],
    lang: str,
    trials: int,
    seed: int,
    current: Callable[[], bool],
) -> AsyncIterator[str]:
    """The answer's lines of JSON, with the changes against the scenario as written.

    The first time, the scenario as written is answered after the edit's answer (which comes
    first, without its changes), then the edit's numbers are sent again with them.
    """
    if sc is None:
        yield json.dumps({"type": "problems", "problems": problems}) + "\n"
        return
    key = (asked.name, stamp(asked.path), trials, seed)
    mental = any(i.level.is_mental for i in sc.injuries)
    job = answers.Job(sc, tuple(asked.texts), trials, seed, lang, current, bench.pool)
    last: dict[str, Any] = {}

    def dressed(event: dict[str, Any]) -> str:
        numbers = event["numbers"]
        base = bench.bases.get(key) if asked.texts else None
        event["answer"] = shown(numbers, base, lang, mental)
        event["command"] = command_line(asked.source, asked.texts, numbers["method"], trials, seed)
        return json.dumps(event) + "\n"

    async for event in answers.events(job):
        if event["type"] == "numbers":
            if event["final"] and not asked.texts:
                bench.keep_base(key, event["numbers"])
            last = event
            yield dressed(event)
        else:
            yield json.dumps(event) + "\n"
    if last.get("final") and asked.texts and key not in bench.bases and current():
        written = await run_in_threadpool(load, asked.path, asked.source, ())
        bench.keep_base(key, await answers.full_numbers(written, trials, seed, bench.pool))
        if current():
            yield dressed({**last, "again": True})
