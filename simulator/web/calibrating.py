"""The workbench's calibration: free cells, targets on the folder's scenarios, and Solve.

``POST /api/calibrate`` takes the page's free cells (each with a low and a high end), its
targets (a scenario of the served folder, a statistic ``balance`` takes, a value, a
tolerance, optional ``--set`` lines) and the page's edits (applied to the targets on the
page's own scenario). It writes them as a calibration file (CONTRACT.md, "Calibration
files") in a private temporary folder (:mod:`simulator.web.scratch`: one a killed server
left is swept by the next), never in the served one, checks it with
:func:`~simulator.studies.calibrate_file.read_calibration` and solves it with
:func:`~simulator.studies.calibrate_study.calibrate` in a thread, streamed as lines of
JSON: one ``round`` line per round of the search (each target's distance), then the
``result`` (each free key's value, each target reached with its interval, met or not, the
conflicts). Exact when every target's scenario is exact within :data:`EXACT_SECONDS`, else
Monte Carlo with the page's trials (at most :data:`MAX_TRIALS`).

A newer Solve of the same page stops the older one at its next round; a mistake in what was
typed comes back as ``problems`` placed at their free cells (``key``) or targets
(``target``), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import re
import tempfile
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from simulator.errors import N_, ScenarioError, UserError, os_reason, phrase
from simulator.web.cells import at_cell, cell_key, place_said
from simulator.web.requests import LongNumber
from simulator.web.scratch import private_folder
from simulator.web.words import word

if TYPE_CHECKING:
    from simulator.studies.calibrate_file import Calibration
    from simulator.studies.calibrate_result import CalibrationResult
    from simulator.studies.calibrate_study import Progress
    from simulator.studies.method import Method
    from simulator.web.requests import Bench

DEFAULT_TRIALS = 2_000
"""Trials per evaluation of a sampled calibration when the page gives none."""

MAX_TRIALS = 10_000
"""The most trials per evaluation the page may ask (the check run takes four times more)."""

EXACT_SECONDS = 2.0
"""The exact engine's time budget per evaluation: over it, the calibration is sampled."""

CALIBRATION_FILE = "workbench.calibration.toml"
"""The calibration file's name in the Solve's private folder (:mod:`simulator.web.scratch`)."""

MAX_FREE = 8
MAX_TARGETS = 12
STATS = ("p_dead", "p_healed", "p_wounded", "p_dead_by_1d", "p_healed_by_1d")
"""The statistics the page proposes (any that ``balance`` takes is accepted)."""

FIELDS = ("scenario", "stat", "value", "tolerance", "set")

CALIBRATE_WORDS = (
    N_("Calibrate"),
    N_("Scenario"),
    N_("free"),
    N_("low"),
    N_("high"),
    N_("Targets"),
    N_("statistic"),
    N_("value"),
    N_("tolerance"),
    N_("--set lines"),
    N_("Add a target"),
    N_("Remove"),
    N_("Solve"),
    N_("Accept the solution"),
    N_("solving…"),
    N_("met"),
    N_("not met"),
    N_("Every target is met."),
    N_("Free the cells to solve (the box beside each cell), then state the targets."),
    N_("{against} pulls against {target} (on {keys})"),
    N_("{label}: wanted {value} ± {tolerance}, reached {reached} ({ci}): {met}"),
    N_("a share from 0 to 1, such as 0.2 or 20%"),
    N_("a number above 0, such as 0.005 or 0.5%"),
    N_("a low and a high end"),
    N_("got {value}; expected {what}"),
    N_("empty; expected {what}"),
    N_("The accepted values are now edits of the table: save them as a new file."),
    N_("low {low} is not below high {high}; expected the low end below the high end"),
    # free boxes the language link carried that found no cell (the file lost that row since)
    N_("These free cells of Solve were not kept: the file as it is now has no such cells:"),
    N_("The free cells of {name} were not carried over: it could not be opened. They were:"),
)
"""The phrases of the page's calibration section (French in the catalogue)."""

_FREE_ENTRY = re.compile(r"free\[(\d+)\]")
_TARGET_ENTRY = re.compile(r"target\[(\d+)\]")
_FREE_SET = re.compile(r": free (\S+?)=")
_ENTRY_HEAD = re.compile(r"^(free|target)\[\d+\](\.\w+)?[ \u00a0\u202f]?:?[ \u00a0\u202f]")
"""An entry's name first, then its colon (French: a space, or a no-break one, before it)."""
_OUT_OF_ORDER = "{flag} {name}: got {value}; expected LOW smaller than HIGH"
"""The command line's refusal of ``KEY=LOW..HIGH`` out of order (:mod:`simulator.scenario.keys`),
said on the page in its own terms (:func:`_out_of_order`): a low box and a high box."""


class StoppedError(Exception):
    """A newer Solve of the same page came (or the page left): this one stops."""


def _text(value: object) -> str | None:
    """A typed field as text ('' for none), or None for anything but text or a number."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, LongNumber):  # a number of thousands of digits: told at its field
        return value.text
    return value.strip() if isinstance(value, str) else None


def share_of(value: object) -> float | None:
    """A share as typed: ``0.2``, ``20%``, ``0,2`` (French); None when it is none."""
    text = _text(value)
    if not text:
        return None
    percent = text.endswith("%")
    text = text.removesuffix("%").strip().replace(",", ".").replace("\u202f", "")
    try:
        number = float(text)
    except ValueError:
        return None
    if number != number or number in (float("inf"), float("-inf")):
        return None
    return number / 100 if percent else number


def _got(value: object, expected: str, lang: str) -> str:
    """A target's field mistaken, told as a cell's is: what was typed, then what is expected.

    Args:
        value: The field as the page sent it.
        expected: What the field takes, in ``lang`` ("a share from 0 to 1...").
        lang: The page's language.

    Returns:
        ``got '150%'; expected ...``, or ``empty; expected ...`` for a field left empty.
    """
    text = _text(value)
    if not text:
        return word("empty; expected {what}", lang).format(what=expected)
    return word("got {value}; expected {what}", lang).format(value=f"'{text}'", what=expected)


def _lines(value: object) -> list[str] | None:
    """A target's ``--set`` lines: a list of texts, or one text of lines."""
    if value is None:
        return []
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    return None


class Asked:
    """A Solve as the page sent it: free cells, targets, the page's edits.

    Attributes:
        free: ``(key, low, high)`` texts.
        targets: Each target's fields (``scenario``: the file's path in the folder).
        names: Each target's scenario as the page names it.
        problems: The problems found before any calibration file is written.
    """

    def __init__(self) -> None:
        self.free: list[tuple[str, str, str]] = []
        self.targets: list[dict[str, Any]] = []
        self.names: list[str] = []
        self.problems: list[dict[str, Any]] = []
        self.cells: list[str] = []  # the page's edits, KEY=VALUE, as set in its own targets

    def add(self, message: str, key: str = "", target: int | None = None, field: str = "") -> None:
        """Place a problem at a free cell (``key``), a target's field, or the page."""
        entry: dict[str, Any] = {"key": key, "message": message}
        if target is not None:
            entry |= {"target": target, "field": field}
        elif field:
            entry["field"] = field
        self.problems.append(entry)


def read_asked(bench: Bench, data: dict[str, Any], lang: str) -> tuple[Asked, list[str], Path]:
    """The page's free cells and targets, checked for what the page alone can say.

    Returns:
        What was asked, the page's edits as ``--set`` texts, and the page's scenario file.

    Raises:
        HTTPException: 400 for a request no page sends (not lists, too many), 403 for a
            scenario outside the folder.
    """
    from simulator.web.requests import asked_of

    page = asked_of(bench, data)  # the page's scenario, its cells and edits
    asked = Asked()
    asked.problems += page.problems
    by_key = {cell.key for cell in page.known}
    free = data.get("free")
    targets = data.get("targets")
    if not isinstance(free, list) or not isinstance(targets, list):
        raise HTTPException(400, "free and targets: expected lists")
    if len(free) > MAX_FREE or len(targets) > MAX_TARGETS:
        raise HTTPException(400, f"at most {MAX_FREE} free cells and {MAX_TARGETS} targets")
    if not free or not targets:
        asked.add(
            word(
                "Free the cells to solve (the box beside each cell), then state the targets.",
                lang,
            )
        )
    for item in free:
        if not isinstance(item, dict):
            raise HTTPException(400, "free: expected objects {key, low, high}")
        key, low, high = (_text(item.get(k)) for k in ("key", "low", "high"))
        if not isinstance(item.get("key"), str) or key not in by_key:
            shown = key if isinstance(key, str) else repr(item.get("key"))
            place = place_said(key, lang) if key else shown  # a row's by the row's number
            message = word("{key}: not a cell of this scenario", lang).format(key=place)
            asked.add(message, key=shown or "")
            continue
        assert key is not None
        if not low or not high:
            asked.add(word("a low and a high end", lang), key=key)
            continue
        asked.free.append((key, low, high))
    for number, item in enumerate(targets):
        if not isinstance(item, dict):
            raise HTTPException(400, "targets: expected objects {scenario, stat, value...}")
        asked.targets.append(_target(bench, asked, number, item, lang))
    asked.cells = list(page.texts)
    for number, name in enumerate(asked.names):
        if name == page.name:  # the page's own scenario: as the page shows it
            asked.targets[number]["set"] = [*page.texts, *asked.targets[number]["set"]]
    return asked, page.texts, page.path


def _target(
    bench: Bench, asked: Asked, number: int, item: dict[str, Any], lang: str
) -> dict[str, Any]:
    from simulator.web.folder import RefusedError
    from simulator.web.requests import said

    name = item.get("scenario")
    target: dict[str, Any] = {
        "scenario": "",
        "stat": "",
        "value": 0.0,
        "tolerance": 0.005,
        "set": [],
    }
    asked.names.append(name if isinstance(name, str) else "")
    try:
        target["scenario"] = str(bench.folder.resolve(name).absolute())  # not the cwd's
    except RefusedError as exc:
        message = said(exc, lang).replace(str(bench.folder.root), ".")
        asked.add(message, target=number, field="scenario")
    stat = _text(item.get("stat"))
    if not stat:
        asked.add(word("missing", lang), target=number, field="stat")
    target["stat"] = stat or ""
    value = share_of(item.get("value"))
    if value is None or not 0 <= value <= 1:
        what = word("a share from 0 to 1, such as 0.2 or 20%", lang)
        asked.add(_got(item.get("value"), what, lang), target=number, field="value")
    target["value"] = value or 0.0
    given = item.get("tolerance")
    tolerance = 0.005 if _text(given) == "" else share_of(given)
    if tolerance is None or not tolerance > 0:
        what = word("a number above 0, such as 0.005 or 0.5%", lang)
        asked.add(_got(given, what, lang), target=number, field="tolerance")
    target["tolerance"] = tolerance or 0.005
    sets = _lines(item.get("set"))
    if sets is None:
        raise HTTPException(400, "set: expected a list of KEY=VALUE texts")
    target["set"] = sets
    return target


def calibration_text(asked: Asked) -> str:
    """The calibration file of what was asked (CONTRACT.md, "Calibration files")."""
    from simulator.scenario.writing import toml_value

    lines = ['name = "workbench"', ""]
    for key, low, high in asked.free:
        lines += [
            "[[free]]",
            f"key = {toml_value(key)}",
            f"low = {_end_literal(low)}",
            f"high = {_end_literal(high)}",
            "",
        ]
    for target in asked.targets:
        lines.append("[[target]]")
        lines += [f"{name} = {toml_value(target[name])}" for name in FIELDS]
        lines.append("")
    return "\n".join(lines)


def _end_literal(text: str) -> str:
    """A free cell's end as a calibration file writes it: one number bare, anything else quoted.

    The page sends text; a calibration file refuses ``"3"`` for a level as a scenario file
    does, and takes ``3``. A number as a person types it (``.1``, ``01``, ``1.``) is written
    as the number it is; anything else (a duration, a mistake, a line break) stays quoted, to
    be told as typed.
    """
    from simulator.scenario.writing import toml_value

    written = text.strip()
    if re.fullmatch(r"[+-]?\d{1,4000}", written):  # Python reads no more digits as a number
        return toml_value(int(written))
    if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?", written):
        value = float(written)
        if math.isfinite(value):
            return toml_value(value)
    return toml_value(text)


def placed_problems(
    exc: UserError, asked: Asked, lang: str, hide: Sequence[str]
) -> list[dict[str, Any]]:
    """An error of the calibration file, placed at its free cell or target.

    Args:
        exc: What :func:`read_calibration` or :func:`calibrate` raised.
        asked: What was asked (free cells in the file's order).
        lang: The page's language.
        hide: Texts left out of the messages (the temporary file's and the folder's paths).
    """
    from simulator.web.requests import said

    def clean(text: str) -> str:
        for path in hide:
            text = text.replace(f"{path}: ", "").replace(f"{path}/", "").replace(path, ".")
        return _ENTRY_HEAD.sub("", text)  # the page shows it at its cell: no free[0] first

    def where(text: str) -> dict[str, Any]:
        found = _TARGET_ENTRY.search(text)
        if found and int(found.group(1)) < len(asked.targets):
            entry = text[found.end() :]
            field = next((f for f in FIELDS if entry.startswith(f".{f}")), "set")
            return {"key": "", "target": int(found.group(1)), "field": field}
        found = _FREE_ENTRY.search(text)
        if found and int(found.group(1)) < len(asked.free):
            return {"key": asked.free[int(found.group(1))][0]}
        found = _FREE_SET.search(text)
        keys = [key for key, _, _ in asked.free]
        if found and found.group(1) in keys:
            return {"key": found.group(1)}
        return {"key": ""}

    problems = exc.problems if isinstance(exc, ScenarioError) else []
    if not problems:
        place = where(str(exc))
        message = _out_of_order(exc, asked, place["key"], lang) or clean(said(exc, lang))
        return [place | {"message": message}]
    edited = dict(cell.partition("=")[::2] for cell in asked.cells)
    placed = []
    for problem in problems:
        context = f"{problem.source} {problem.key}"
        place = where(context)
        dotted = cell_key(problem.key)  # injuries[0].count: the cell injuries.0.count
        if dotted in edited:
            place = {"key": dotted}  # a page's edit: said at its cell
        message = at_cell(problem, lang, with_key=True)
        placed.append(place | {"message": clean(message)})
    return placed


def _where(key: str, lang: str) -> dict[str, str]:
    """``{"where": ...}`` for a free cell of a row (``injury row 2 (injuries[1].count)``).

    The page shows that cell in the row it numbers from 1; its key alone counts from 0.
    """
    said = place_said(key, lang)
    return {"where": said} if said != key else {}


def _out_of_order(exc: UserError, asked: Asked, key: str, lang: str) -> str | None:
    """A free cell's ends out of order, in the page's terms; None for any other error.

    The command line says ``got '1h..5min'; expected LOW smaller than HIGH`` of its
    ``KEY=LOW..HIGH``; the page has a low box and a high box, so it says ``low 1h is not below
    high 5min``, each end as typed.

    Args:
        exc: The error of the calibration file.
        asked: What was asked (each free cell's ends as the page sent them).
        key: The free cell the error was placed at ('' for none).
        lang: The page's language.
    """
    if exc.phrase is None or exc.phrase.template != _OUT_OF_ORDER:
        return None
    ends = next(((low, high) for k, low, high in asked.free if k == key), None)
    if ends is None:
        return None
    template = "low {low} is not below high {high}; expected the low end below the high end"
    return word(template, lang).format(low=ends[0].strip(), high=ends[1].strip())


def _method(calibration: Calibration, trials: int, seed: int) -> Method:
    from simulator.studies.calibrate_study import choose_method

    exact = choose_method(calibration, time_budget=EXACT_SECONDS)
    return exact if exact is not None else _sampled(trials, seed)


def _sampled(trials: int, seed: int) -> Method:
    """Monte Carlo in the server's own process (the search's evaluations are small)."""
    from simulator.studies.method import MonteCarlo

    return MonteCarlo(trials=trials, seed=seed, workers=1)


def round_event(step: Progress, lang: str) -> dict[str, Any]:
    """One round of the search, as the page shows it (a line, and the distances)."""
    from simulator.report.i18n import number_text

    ratios = [d / t for d, t in zip(step.distances, step.tolerances, strict=True)]
    shown = ", ".join(number_text(round(r, 2), lang) for r in ratios)
    from simulator.report.i18n import ntr

    line = ntr(
        "round {n}: {points} point ({new} new); distances in tolerances: {d}",
        "round {n}: {points} points ({new} new); distances in tolerances: {d}",
        step.points,
        lang,
    ).format(n=step.round, points=step.points, new=step.new, d=shown)
    return {
        "type": "round",
        "round": step.round,
        "points": step.points,
        "new": step.new,
        "distances": step.distances,
        "tolerances": step.tolerances,
        "elapsed": step.elapsed,
        "left": step.left,
        "line": line,
    }


def result_event(result: CalibrationResult, lang: str) -> dict[str, Any]:
    """The solution as the page shows it: the values to accept, each target met or not.

    ``ends`` names the free keys that stopped at an end of their range while a target is
    missed, and ``notes`` says so in words, as ``calibrate`` prints it.
    """
    from simulator.report.i18n import (
        exact_percent_text,
        language,
        ntr,
        number_text,
        percent_text,
        points_text,
    )
    from simulator.studies.statistic import shown

    cal = result.calibration
    data = result.to_json()
    free = [
        {
            "key": f.key.name,
            "value": f.key.literal(v),
            "shown": shown(f.key, v, lang),
            "low": f.key.literal(f.low),
            "high": f.key.literal(f.high),
        }
        | _where(f.key.name, lang)
        for f, v in zip(cal.free, result.values, strict=True)
    ]
    labels = [t.label for t in cal.targets]  # as the terminal names them (#1 lone_traveller: …)
    targets = []
    with language(lang):
        for target, reached, label in zip(cal.targets, result.reached, labels, strict=True):
            met = result.met_target(target)
            text = word(
                "{label}: wanted {value} ± {tolerance}, reached {reached} ({ci}): {met}", lang
            ).format(
                label=label,
                value=percent_text(target.value, 2, lang),
                tolerance=points_text(target.tolerance, lang, 2),  # points, not a %
                reached=exact_percent_text(reached.stat, lang)
                if result.method == "exact"  # as calibrate --exact prints it
                else percent_text(reached.stat, 2, lang),
                ci=word("exact", lang)
                if result.method == "exact"
                else f"{percent_text(reached.low, 2, lang)}–{percent_text(reached.high, 2, lang)}",
                met=word("met", lang) if met else word("not met", lang),
            )
            targets.append(
                {
                    "number": target.number,
                    "label": label,
                    "value": target.value,
                    "tolerance": target.tolerance,
                    "reached": reached.stat,
                    "ci": [reached.low, reached.high],
                    "met": met,
                    "text": text,
                }
            )
    from simulator.report.wording import conflict_lines

    conflicts = conflict_lines(result.conflicts, labels, lang)
    # as calibrate prints it and its report says it: a target missed with a free key against a
    # wall of its range, the answer may lie beyond it
    ends = [
        f.key.name for f, v in zip(cal.free, result.values, strict=True) if v in (f.low, f.high)
    ]
    ends = ends if not result.met else []
    notes = []
    if ends:
        notes.append(
            word(
                "At an end of its range: {keys}; the target may lie outside it, and a wider "
                "range searches further.",
                lang,
            ).format(keys=", ".join(place_said(key, lang) for key in ends))
        )
    if result.method == "exact":
        how = word("exact", lang)
    else:
        trials = result.trials or 0
        how = ntr(
            "sampled: {n} trial per evaluation", "sampled: {n} trials per evaluation", trials, lang
        ).format(n=number_text(trials, lang))
    return {
        "type": "result",
        "method": result.method,
        "method_label": how,
        "met": result.met,
        "free": free,
        "targets": targets,
        "conflicts": conflicts,
        "ends": ends,
        "notes": notes,
        "evaluations": result.evaluations,
        "json": data,
        "summary": word("Every target is met.", lang) if result.met else word("not met", lang),
    }


def _no_scratch(exc: OSError, lang: str) -> str:
    """Why the Solve's private folder could not be made, in ``lang``, and what to do.

    The system's temporary folder may be gone or full since the server started (``TMPDIR``
    removed, the disk filled); the page says so instead of an answer with no line at all.
    """
    from simulator.web.requests import said

    if exc.filename:  # the folder mkdtemp tried
        where = str(Path(os.fsdecode(exc.filename)).parent)
    else:  # gettempdir found none usable: where it looked first
        where = tempfile.tempdir or os.environ.get("TMPDIR") or "/tmp"
    told = phrase(
        "Solve: a temporary folder could not be made in {folder} ({why}); expected a folder "
        "this user can write in: set TMPDIR to one, then start harmonies-sim serve again",
        folder=where,
        why=os_reason(exc),
    )
    return said(UserError(told), lang)


def _solve(path: Path, method: Method, progress: Callable[[Progress], None]) -> CalibrationResult:
    from simulator.spelling import COMMAND_LINE, spelled
    from simulator.studies.calibrate_study import calibrate

    with spelled(COMMAND_LINE):  # the page's words ("--set lines"), not the Python API's
        return calibrate(path, method, figures=False, progress=progress)


async def stream(
    asked: Asked,
    folder: Path,
    trials: int,
    seed: int,
    lang: str,
    current: Callable[[], bool],
) -> AsyncIterator[str]:
    """The Solve's lines of JSON: ``problems``, or each ``round`` then the ``result``."""
    from simulator.studies.calibrate_file import read_calibration

    def line(event: dict[str, Any]) -> str:
        return json.dumps(event) + "\n"

    if asked.problems:
        yield line({"type": "problems", "problems": asked.problems})
        return
    written = {CALIBRATION_FILE: calibration_text(asked)}
    with contextlib.ExitStack() as scratch:
        try:  # swept by the next server if this one is killed
            private = scratch.enter_context(private_folder(written))
        except OSError as exc:  # the 200 is sent: a problem on the page, not a traceback
            problem = {"key": "", "message": _no_scratch(exc, lang)}
            yield line({"type": "problems", "problems": [problem]})
            return
        path = private / CALIBRATION_FILE
        hide = [str(path), str(folder)]
        try:
            calibration = await run_in_threadpool(read_calibration, path)
            method = await run_in_threadpool(_method, calibration, trials, seed)
        except UserError as exc:
            yield line({"type": "problems", "problems": placed_problems(exc, asked, lang, hide)})
            return
        except Exception as exc:  # said on the page, never an empty answer (as while solving)
            message = f"{type(exc).__name__}: {exc}"
            yield line({"type": "problems", "problems": [{"key": "", "message": message}]})
            return
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        left = threading.Event()  # the page stopped reading: stop at the next round

        def progress(step: Progress) -> None:
            if left.is_set() or not current():
                raise StoppedError
            try:
                loop.call_soon_threadsafe(queue.put_nowait, ("round", step))
            except RuntimeError:  # the server stopped meanwhile
                raise StoppedError from None

        def work() -> None:
            try:
                try:
                    found: tuple[str, Any] = ("result", _solve(path, method, progress))
                except UserError:
                    if method.method != "exact":
                        raise
                    # a point of the ranges over the exact budget: sampled, as the page's
                    # answer is (the file was checked before: no mistake of the page's)
                    sampled = _sampled(trials, seed)
                    loop.call_soon_threadsafe(queue.put_nowait, ("restart", sampled))
                    found = ("result", _solve(path, sampled, progress))
            except StoppedError:
                found = ("stopped", None)
            except UserError as exc:
                found = ("error", exc)
            except Exception as exc:  # said on the page, never a traceback
                found = ("failed", exc)
            with contextlib.suppress(RuntimeError):  # the server stopped meanwhile
                loop.call_soon_threadsafe(queue.put_nowait, found)

        yield line({"type": "started", "method": method.method})
        thread = threading.Thread(target=work, name="calibrate", daemon=True)
        thread.start()
        try:
            while True:
                kind, item = await queue.get()
                if kind == "round":
                    if current():
                        yield line(round_event(item, lang))
                    continue
                if kind == "restart":
                    if current():
                        yield line({"type": "started", "method": item.method})
                    continue
                if kind == "result" and current():
                    yield line(result_event(item, lang))
                elif kind == "error":
                    problems = placed_problems(item, asked, lang, hide)
                    yield line({"type": "problems", "problems": problems})
                elif kind == "failed":
                    message = f"{type(item).__name__}: {item}"
                    yield line({"type": "problems", "problems": [{"key": "", "message": message}]})
                break
        finally:
            left.set()  # the thread stops at its next round (the file was read at its start)


def calibrate_context(lang: str) -> dict[str, Any]:
    """What the page's calibration section needs: its words, the statistics, the trials."""
    return {
        "cal": {k: word(k, lang) for k in CALIBRATE_WORDS},
        "cal_stats": STATS,
        "cal_trials": DEFAULT_TRIALS,
        "cal_max_trials": MAX_TRIALS,
    }


def calibrate_routes(bench: Bench) -> list[Route]:
    """The route of the page's Solve, for :func:`simulator.web.app.create_app`."""
    from simulator.web.requests import body, changed_on_disk, count_of, lang_of, page_of

    async def solve(request: Request) -> Response:
        data = await body(request)
        lang = lang_of(data.get("lang"), bench)
        trials = count_of(data.get("trials"), DEFAULT_TRIALS, 1, MAX_TRIALS, "trials", lang)
        seed = count_of(data.get("seed"), 0, 0, 2**63 - 1, "seed", lang)
        page = page_of(data.get("page"))
        asked, _, path = await run_in_threadpool(read_asked, bench, data, lang)
        current = bench.ask("calibrate:" + page)  # a Solve stops the page's older Solve only
        if changed_on_disk(data.get("stamp"), path):  # the page reads the file again first
            changed = json.dumps({"type": "changed"}) + "\n"
            return StreamingResponse(iter([changed]), media_type="application/x-ndjson")
        return StreamingResponse(
            stream(asked, bench.folder.root, trials, seed, lang, current),
            media_type="application/x-ndjson",
        )

    return [Route("/api/calibrate", solve, methods=["POST"])]


__all__ = [
    "CALIBRATE_WORDS",
    "calibrate_context",
    "calibrate_routes",
    "calibration_text",
    "share_of",
]
