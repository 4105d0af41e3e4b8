"""The sections of a report page, each read from the files of one kind of study.

Each builder takes the folder and returns its sections (none when the folder lacks its
files): a study's summary (``summary.csv``), a sweep (``sweep.csv``), a comparison
(``compare.csv``), a balance (``balance.csv``), a sensitivity (``sensitivity.csv``), and a
study description's extra studies (the files its ``extras.json`` names). Every number shown
comes from those files, as they write it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from simulator.errors import N_
from simulator.report.i18n import (
    colon,
    current_language,
    exact_percent_text,
    key_label,
    percent_text,
    points_text,
    reach_text,
    stat_label,
    tr,
)
from simulator.report.pages.pieces import (
    Cell,
    Section,
    Table,
    hours,
    number,
    ours,
    read_json,
    read_rows,
    setting,
    share,
    text,
)
from simulator.report.pages.words import t
from simulator.report.wording import DROPPED_NOTE, OUTCOME_ROWS, answer, ruled_out
from simulator.rules.cause import DEATH_CAUSES
from simulator.scenario.described import WORDS

MEASURES = (
    (N_("median time to heal"), "median_time_to_heal_h", "hours"),
    (N_("median time to death"), "median_time_to_death_h", "hours"),
    (N_("stabilised at least once"), "p_stabilised", "share"),
    (N_("mean aggravations"), "mean_aggravations", "number"),
    (N_("mean survival tests"), "mean_survival_tests", "number"),
    (N_("mean first-aid attempts"), "mean_first_aid_attempts", "number"),
    (N_("mean healing tests"), "mean_healing_tests", "number"),
    (N_("mean faints"), "mean_faints", "number"),
)
"""The other measures of a study's summary, when it has them."""

EXPECTED_COUNTS = {
    "aggravations": N_("aggravations"),
    "survival_tests": N_("survival tests"),
    "survival_failures": N_("failed survival tests"),
    "activity_tests": N_("activity tests"),
    "activity_failures": N_("failed activity tests"),
    "first_aid_attempts": N_("first-aid attempts"),
    "first_aid_successes": N_("first-aid successes"),
    "neglected_watches": N_("neglected watches"),
    "healing_tests": N_("healing tests"),
    "healing_failures": N_("failed healing tests"),
    "faints": N_("faints"),
}
"""What a reader calls each of Q1's counts (``expected.csv`` of an exact answer)."""

READ = frozenset(
    {"summary.csv", "sweep.csv", "compare.csv", "balance.csv", "sensitivity.csv", "expected.csv"}
)
"""The CSV files the sections read (any other is shown as it is), with those a study
description's ``extras.json`` names (:func:`extras_files`)."""


def bounds(exact: bool) -> list[str]:
    """The headers of an interval: sampled (95% Wilson), or the exact answer's bounds."""
    return [t("lower bound"), t("upper bound")] if exact else [t("95% CI low"), t("95% CI high")]


def mental_wounds(data: dict[str, Any]) -> bool:
    """Whether a scenario (its TOML read) receives a mental wound: its answer tells incoherence."""
    from simulator.rules.levels import Level, Track

    levels = {level.name.lower(): level for level in Level}
    return any(
        (hit := levels.get(str(i.get("level", "")).lower())) is not None
        and hit.track is Track.MENTAL
        for i in data.get("injuries", [])
        if isinstance(i, dict)
    )


def ruled_out_here(row: dict[str, str], key: str) -> bool:
    """Whether the outcome of column ``key`` is one the rules put out of reach in this row.

    The summary's ``impossible`` (``; ``-joined in CSV), and only where its share is 0, as
    the answer says it (:func:`~simulator.report.wording.ruled_out`).
    """
    gone = row.get("impossible", "").split("; ")
    try:
        return key[2:] in gone and float(row.get(key, "")) == 0.0
    except ValueError:
        return False


def _interval_cells(row: dict[str, str], key: str, exact: bool) -> list[Cell]:
    """The two ends of a share's interval, or "ruled out by the rules" where it is."""
    if ruled_out_here(row, key):
        return [text(tr("ruled out by the rules")), text("")]
    return [share(row, f"{key}_low", exact=exact), share(row, f"{key}_high", exact=exact)]


def outcome_rows(row: dict[str, str], exact: bool = False) -> list[list[Cell]]:
    """One row per outcome: its word, the share and the two ends of its interval."""
    return [
        [text(tr(word)), share(row, key, exact=exact), *_interval_cells(row, key, exact)]
        for word, key in OUTCOME_ROWS
        if f"{key}_low" in row or key in ("p_dead", "p_healed")
    ]


def study(folder: Path, mental: bool) -> list[Section]:
    """The answer and the tables of one study (``summary.csv`` and ``summary.json``)."""
    if not ours(folder / "summary.csv"):
        return []
    row = read_rows(folder / "summary.csv")[0]
    exact = row.get("method") == "exact"
    paragraphs = []
    if ours(folder / "summary.json"):
        told = answer(read_json(folder / "summary.json"), mental=mental)
        paragraphs.append(f"<strong>{t('Answer:')}</strong> {_escape(told)}")
    outcomes = Table(
        t("Outcomes"),
        [t("outcome"), t("share"), *bounds(exact)],
        outcome_rows(row, exact),
        source="summary.csv",
    )
    measures = Table(t("Other measures"), [t("measure"), t("value")], source="summary.csv")
    for word, key, kind in MEASURES:
        if key in row:
            if kind == "share":
                cell = share(row, key, exact=exact)
            elif kind == "number":
                cell = number(row, key, 4 if exact else 2)  # as the terminal shows them
            else:
                cell = hours(row, key)
            if key == "median_time_to_heal_h" and cell.text == "—":
                cell = Cell(tr("none healed"), key, row[key], True)
            measures.rows.append([text(t(word)), cell])
    tables = [outcomes, measures]
    if ours(folder / "expected.csv"):  # an exact answer's expected counts
        counts = Table(
            t("Expected number of each event per campaign"),
            [t("event"), t("expected per campaign")],
            source="expected.csv",
        )
        for count in read_rows(folder / "expected.csv"):
            name = count.get("count", "")
            word = t(EXPECTED_COUNTS[name]) if name in EXPECTED_COUNTS else name
            counts.rows.append([text(word), number(count, "mean", 4)])
        tables.append(counts)
    return [Section("", paragraphs, tables, "answer")]


def sweep(folder: Path) -> list[Section]:
    """The table of a sweep: one row per point (``sweep.csv``, keys from ``sweep.json``)."""
    if not ours(folder / "sweep.csv"):
        return []
    rows = read_rows(folder / "sweep.csv")
    points = read_json(folder / "sweep.json") if ours(folder / "sweep.json") else []
    keys = list(points[0]["point"]) if points else []
    table = Table(
        t("One study per point of the grid"), [key_label(k) for k in keys], source="sweep.csv"
    )
    columns = _columns(rows, exact=any(r.get("method") == "exact" for r in rows))
    table.header += columns[0]
    for row in rows:
        table.rows.append([setting(row.get(k, ""), k) for k in keys] + columns[1](row))
    return [Section(t("Sweep"), [], [table], "sweep")]


def _columns(
    rows: list[dict[str, str]], *, exact: bool
) -> tuple[list[str], Callable[[dict[str, str]], list[Cell]]]:
    """The outcome columns of a table of summaries: shares with intervals, the median."""
    used = [(w, k) for w, k in OUTCOME_ROWS if k in ("p_dead", "p_healed") or _any(rows, k)]
    header = []
    for word, _ in used:
        header += [tr(word), *bounds(exact)]
    header.append(tr("median time to heal"))

    def cells(row: dict[str, str]) -> list[Cell]:
        found = []
        for _, key in used:
            found += [share(row, key, exact=exact), *_interval_cells(row, key, exact)]
        return [*found, hours(row, "median_time_to_heal_h")]

    return header, cells


def _any(rows: list[dict[str, str]], key: str) -> bool:
    return any(r.get(key, "") not in ("", "0", "0.0") for r in rows)


def compare(folder: Path) -> list[Section]:
    """A comparison: both answers, and A − B with its interval (``compare.csv``)."""
    if not ours(folder / "compare.csv"):
        return []
    data = read_json(folder / "compare.json") if ours(folder / "compare.json") else {}
    paragraphs = []
    exact = data.get("a", {}).get("method") == "exact"
    if "a" in data and "b" in data:  # how the numbers were made, as the terminal says
        paragraphs.append(_escape(_compared_how(data["a"], data["b"], exact)))
    horizons = _horizons_note(folder)
    if horizons is not None:  # the terminal's note: the shares at two horizons side by side
        paragraphs.append(_escape(horizons))
    for side in ("a", "b"):
        if side in data:
            summary, scenario = data[side], folder / f"scenario-{side}.toml"
            told = answer(summary, mental=mental_wounds(_toml(scenario)))
            paragraphs.append(
                f"<strong>{side.upper()}{colon()}"
                f"{_escape(side_title(summary, scenario))}</strong> — " + _escape(told)
            )
    table = Table(
        t("A − B") if exact else t("A − B, campaign by campaign on the same seeds"),
        [t("measure"), "A", "B", t("A − B"), *bounds(exact)],
        source="compare.csv",
    )
    means = {key: word for word, key, kind in MEASURES if kind == "number"}
    counted = Table(
        t("Mean counts per trial, A − B"),
        [t("measure"), "A", "B", t("A − B"), *bounds(exact)],
        source="compare.csv",
    )
    for row in causes_ranked(read_rows(folder / "compare.csv")):
        if row["measure"] in means:  # a mean count: numbers, as the study's own table (an
            # exact difference's bounds, unknown once mass was dropped, read "—")
            decimals = 4 if exact else 2
            counted.rows.append(
                [text(t(means[row["measure"]]))]
                + [number(row, k, decimals) for k in ("a", "b")]
                + [number(row, k, decimals) for k in ("difference", "low", "high")]
            )
            continue
        bounds_of = [_points(row, k, 4 if exact else 1) for k in ("low", "high")]
        if row["measure"][2:] in both_ruled_out(data):  # 0 on both sides, proven: no interval
            bounds_of = [text(tr("ruled out by the rules")), text("")]
        table.rows.append(
            [text(stat_label(row["measure"]))]
            + [share(row, k, exact=exact) for k in ("a", "b")]
            + [_points(row, "difference", 4 if exact else 1), *bounds_of]
        )
    if any(row[-1].text == "—" for row in counted.rows):  # bounds not given: said why
        counted.note = (
            t("no bounds (—): the means leave out what the dropped mass would count later, so "
              "their differences have none")
            if exact
            else t("no bounds (—): the same difference in every trial but at most nine")
        )  # fmt: skip
    tables = [table, counted] if counted.rows else [table]
    return [Section(t("Comparison"), paragraphs, tables, "comparison")]


def both_ruled_out(data: dict[str, Any]) -> set[str]:
    """The outcomes the rules put out of reach on both sides of a comparison (``compare.json``).

    Their difference is 0 by proof, not by sampling: told so, not given an interval (the
    report's table and ``compare``'s terminal alike).
    """
    sides = [data.get(side) for side in ("a", "b")]
    if not all(isinstance(side, dict) for side in sides):
        return set()
    return set.intersection(*(set(ruled_out(side)) for side in sides))  # type: ignore[arg-type]


def causes_ranked(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """``compare.csv``'s rows, its causes under "dies" in A's order as the terminal has them.

    :func:`~simulator.report.causes.cause_order` of A's shares (the file keeps CONTRACT's).
    """
    from simulator.report.causes import cause_order

    causes = {r["measure"].removeprefix("p_dead_"): r for r in rows
              if r["measure"].removeprefix("p_dead_") in DEATH_CAUSES}  # fmt: skip
    shares = {c: float(r["a"]) if r["a"] not in ("", "nan") else 0.0 for c, r in causes.items()}
    ranked = [causes[c] for c in cause_order(shares, causes)]
    ordered: list[dict[str, str]] = []
    for row in rows:
        if row["measure"].removeprefix("p_dead_") not in causes:
            ordered.append(row)
            if row["measure"] == "p_dead":
                ordered += ranked
    return ordered if len(ordered) == len(rows) else rows  # no "dies" row: as the file has them


def _horizons_note(folder: Path) -> str | None:
    """The note of two horizons, read from ``scenario-a.toml`` and ``scenario-b.toml``."""
    import tomllib

    from simulator.errors import DurationError
    from simulator.report.wording import horizons_note
    from simulator.rules.durations import parse_duration

    horizons = []
    for side in ("a", "b"):
        scenario = folder / f"scenario-{side}.toml"
        try:
            written = tomllib.loads(scenario.read_text(encoding="utf-8"))["horizon"]
            horizons.append(parse_duration(str(written)))
        except (OSError, ValueError, KeyError, DurationError):  # not beside it: nothing said
            return None
    return horizons_note(*horizons)


def _compared_how(a: dict[str, Any], b: dict[str, Any], exact: bool) -> str:
    """The comparison's method line, as the terminal writes it."""
    from simulator.report.wording import comparison_how

    dropped = max(a.get("dropped_mass") or 0.0, b.get("dropped_mass") or 0.0)
    return comparison_how(exact, int(a.get("trials") or 0), a.get("seed"), dropped)


def _points(row: dict[str, str], key: str, decimals: int = 1) -> Cell:
    """A difference of shares in percentage points (four decimals for exact answers)."""
    raw = row.get(key, "")
    if raw in ("", "nan"):
        return Cell("—", key, raw, True)
    return Cell(points_text(float(raw), None, decimals), key, raw, True)


def balance(folder: Path) -> list[Section]:
    """A balance: the target, where it lies, and every value evaluated (``balance.csv``)."""
    if not ours(folder / "balance.csv"):
        return []
    data = read_json(folder / "balance.json")
    evaluations = data["evaluations"]
    stat = data["target"]["stat"]
    exact = data.get("method") == "exact"
    label = key_label(data["key"])  # the line opens with it: a capital, unless a raw key
    paragraphs = [
        _escape(
            t("{key} from {low} to {high}, target {stat} = {target}").format(
                key=label[:1].upper() + label[1:] if label != data["key"] else label,
                low=_shown(data["key"], evaluations[0]),
                high=_shown(data["key"], evaluations[-1]),
                stat=_inside(stat_label(stat)),  # mid-sentence: "target share dead by 1 d"
                target=percent_text(data["target"]["value"]),
            )
        )
    ]
    if data.get("monotone") is False:  # as the terminal's note: every crossing follows
        paragraphs.append(_escape(_sentence(t(NOT_MONOTONE))))
    if data.get("outside"):
        paragraphs.append(
            _escape(t("The target lies outside the range: no value evaluated reaches it."))
        )
    for hit in data.get("hits", []):
        paragraphs.append(
            _escape(t("Exactly on the target: {at}").format(at=_at(hit, data["key"], exact)))
        )
    from simulator.report.wording import STEPS, steps_across

    for crossing in data.get("crossings", []):
        paragraphs.append(
            _escape(
                t("The target lies between {a} and {b}.").format(
                    a=_at(crossing["low"], data["key"], exact),
                    b=_at(crossing["high"], data["key"], exact),
                )
            )
        )
        stats = (crossing["low"]["stat"], crossing["high"]["stat"])
        if steps_across(*stats, data["target"]["value"]):
            said = t(STEPS).format(key=key_label(data["key"]))
            paragraphs.append(_escape(_sentence(said)))  # a sentence of its own
        if crossing.get("overlap"):  # sampling cannot tell the side: as the terminal says
            paragraphs.append(_escape(_sentence(_overlap_note(crossing))))
    paragraphs.append(
        _escape(t("Nearest the target: {at}").format(at=_at(data["best"], data["key"], exact)))
    )
    table = Table(
        t("Values evaluated"),
        [t("value"), stat_label(stat), *bounds(exact), t("trials"), t("round")],
        source="balance.csv",
    )
    for row in read_rows(folder / "balance.csv"):
        table.rows.append(
            [text(_shown(row["key"], row)), share(row, "p", exact=exact),
             share(row, "low", exact=exact), share(row, "high", exact=exact),
             number(row, "trials", 0), number(row, "round", 0)]
        )  # fmt: skip
    return [Section(t("Balance"), paragraphs, [table], "balance")]


NOT_MONOTONE = N_(
    "the statistic is not monotone over the range (it rises and "
    "falls over the values evaluated); every crossing found is listed."
)
"""The note of a statistic that rises and falls (the terminal's words, ``balance``)."""


def _sentence(said: str) -> str:
    """A note of the terminal's (``note: the statistic ...``) as a sentence of its own.

    A capital first, and its full stop last where the note has none.
    """
    ended = said if said.rstrip().endswith((".", "!", "?", "…")) else said.rstrip() + "."
    return ended[:1].upper() + ended[1:]


def _overlap_note(crossing: dict[str, Any]) -> str:
    """The terminal's note on a bracket whose sampled interval holds the target."""
    from simulator.report.wording import overlap_note

    return overlap_note(crossing.get("trials_to_separate"))


def _inside(label: str) -> str:
    """A label that opens with a capital (``Share dead by 1 d``) as it reads mid-sentence."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _at(point: dict[str, Any], key: str, exact: bool = False) -> str:
    stat = exact_percent_text(point["stat"]) if exact else percent_text(point["stat"])
    return f"{_shown(key, point)} ({stat})"


def _shown(key: str, point: dict[str, Any]) -> str:
    """A balanced key's value in the page's language (the files hold it in English).

    ``point`` is a row of ``balance.csv`` (its value a text) or an evaluation of
    ``balance.json``; a value whose kind cannot be told keeps the file's words.
    """
    from simulator.errors import UserError
    from simulator.report.i18n import value_text
    from simulator.scenario.keys import key_of

    value = point["value"]
    if isinstance(value, str):
        for number in (int, float):
            try:
                value = number(value)
                break
            except ValueError:
                continue
    try:
        found, number_value = key_of(key, value)
    except UserError:
        return str(point["shown"])
    return value_text(found, number_value)


def sensitivity(folder: Path) -> list[Section]:
    """A sensitivity: one notch down and up for each key, largest swing first."""
    if not ours(folder / "sensitivity.csv"):
        return []
    rows = read_rows(folder / "sensitivity.csv")
    stat = rows[0]["stat"] if rows else "p_dead"
    exact = bool(rows) and rows[0].get("method") == "exact"
    paragraphs = []
    if rows:
        raw = float(rows[0]["base_stat"])
        base = exact_percent_text(raw) if exact else percent_text(raw)
        line = t("{stat} for the scenario as written: {p}").format(stat=stat_label(stat), p=base)
        paragraphs.append(_escape(line))
    table = Table(
        t("One notch down and one notch up for each key, largest swing first"),
        [tr("key"), t("value"), tr("one notch down"),
         t("{stat}, a notch down").format(stat=stat_label(stat)), tr("one notch up"),
         t("{stat}, a notch up").format(stat=stat_label(stat)), tr("swing")],
        source="sensitivity.csv",
    )  # fmt: skip
    marked = dropped = False
    for row in rows:
        swing = _points(row, "swing", 4 if exact else 1)
        if row.get("within_chance") == "True":  # chance alone could give it (sampled)
            swing = Cell(f"{swing.text} *", swing.key, swing.value, True)
            marked = True
        if row.get("within_dropped_mass") == "True":  # the dropped mass could hold it (exact)
            swing = Cell(f"{swing.text} †", swing.key, swing.value, True)
            dropped = True
        table.rows.append(
            [text(key_label(row["key"])), setting(row["value"]),
             setting(row["down_value"]) if row["down_value"] else text("—"),
             share(row, "down_stat", exact=exact),
             setting(row["up_value"]) if row["up_value"] else text("—"),
             share(row, "up_stat", exact=exact), swing]
        )  # fmt: skip
    if marked:
        table.note = t(
            "* chance alone could give a swing this size (the two values compared trial by "
            "trial, on the same seeds, at 95%): more trials would tell"
        )
    if dropped:
        table.note = t(DROPPED_NOTE)
    return [Section(t("Sensitivity"), paragraphs, [table], "sensitivity")]


def _said(words: dict[str, Any], key: str) -> str:
    """A text of the description's words in the page's language (English when not told)."""
    if current_language() == "fr" and words.get(f"{key}_fr"):
        return str(words[f"{key}_fr"])
    return str(words.get(key) or "")


def extras_words(folder: Path) -> dict[str, Any]:
    """The words of the folder's extra studies (``extras.json``), or none."""
    path = folder / WORDS
    if not ours(path):
        return {}
    words = read_json(path)
    return words if isinstance(words, dict) else {}


def extras_files(folder: Path) -> set[str]:
    """The CSV files :func:`extras` reads in ``folder``."""
    words = extras_words(folder)
    return {words[part]["file"] for part in ("grid", "compare") if part in words}


def extras(folder: Path) -> tuple[str, list[Table]]:
    """A study description's extra studies as tables, in the description's own words.

    Its grid (two axes: the chance of death and of death in an unstable spell a wound
    opened, by both) and its comparison (the headline of the scenario as it is and changed).
    What they are called comes from the folder's ``extras.json``
    (:meth:`simulator.scenario.described.Extras.words`), never from here. Returns the
    section's heading (the description's finding's) and the tables.
    """
    words = extras_words(folder)
    tables = []
    grid = words.get("grid")
    if grid and len(grid.get("axes", ())) == 2 and ours(folder / grid["file"]):
        rows = read_rows(folder / grid["file"])
        first, second = grid["axes"]
        down, across = _said(first, "label"), _said(second, "label")
        values = list(dict.fromkeys(r[second["column"]] for r in rows))
        captions = {
            "p_dead": t("Chance of death by {rows} (rows) and {columns} (columns)"),
            "p_dead_wound": t(
                "Chance of death in a new wound's unstable spell (Q3), by {rows} and {columns}"
            ),
        }
        for key, caption in captions.items():
            title = _grid_caption(caption.format(rows=down, columns=across), rows, key)
            shown = [setting(v).text for v in values]  # 30 s, −2: as the heatmap writes them
            table = Table(title, [down, *shown], source=grid["file"])
            for value in dict.fromkeys(r[first["column"]] for r in rows):
                cells = {  # shares without their intervals: no digit finer than one trial
                    r[second["column"]]: share(r, key, most=_most(r))
                    for r in rows
                    if r[first["column"]] == value
                }
                table.rows.append([setting(value), *(cells.get(v, Cell("—")) for v in values)])
            tables.append(table)
    compare = words.get("compare")
    if compare and ours(folder / compare["file"]):
        table = Table(
            _said(compare, "caption"),
            [_said(compare, "label"), t("trials"), tr("dies"), t("95% CI low"),
             t("95% CI high"), t("dies in a new wound's unstable spell"),
             tr("heals")],
            source=compare["file"],
        )  # fmt: skip
        sides = compare["sides_fr"] if current_language() == "fr" else compare["sides"]
        named = dict(zip(compare["values"], sides, strict=True))
        for row in read_rows(folder / compare["file"]):
            side = named.get(row[compare["column"]], row[compare["column"]])
            table.rows.append(
                [text(side), number(row, "trials", 0), share(row, "p_dead"),
                 share(row, "p_dead_low"), share(row, "p_dead_high"),
                 share(row, "p_dead_wound", most=_most(row)),
                 share(row, "p_healed", most=_most(row))]
            )  # fmt: skip
        tables.append(table)
    return _said(words, "heading").rstrip("."), tables


def _most(row: dict[str, str]) -> int | None:
    """The most decimals of a share of this row's trials (None without trials: exact)."""
    from simulator.report.i18n import trial_decimals

    try:
        return trial_decimals(int(float(row.get("trials", ""))))
    except ValueError:
        return None


def _grid_caption(title: str, rows: list[dict[str, str]], key: str) -> str:
    """A grid table's caption, with its trials per point and how far its intervals reach.

    Its cells are shares without their intervals, of fewer trials than the page's headline
    may be (4,000 per point beside 20,000): the caption says so, as the heatmap's title.
    """
    from simulator.report.i18n import ntr, number_text

    try:
        trials = int(float(rows[0]["trials"]))
        reach = max(
            max(float(r[key]) - float(r[f"{key}_low"]), float(r[f"{key}_high"]) - float(r[key]))
            for r in rows
        )
    except (IndexError, KeyError, ValueError):
        return title
    count = ntr("{n} trial per point", "{n} trials per point", trials).format(n=number_text(trials))
    within = tr("95% CI within ±{points}").format(points=reach_text(reach))
    return f"{title} — {count}, {within}"


def side_title(summary: dict[str, Any], scenario: Path) -> str:
    """A side's title: its scenario's name in the language (its ``scenario-X.toml``).

    With its overrides, and its file where the comparison told it (``file``: two files of
    one name).
    """
    import contextlib
    import tomllib

    from simulator.report.wording import titled

    name = str(summary.get("scenario", ""))
    with contextlib.suppress(OSError, ValueError):  # no file beside it: the name summarised
        name = said(tomllib.loads(scenario.read_text(encoding="utf-8")), "name") or name
    file = summary.get("file")
    return titled(name, summary.get("overrides") or (), str(file) if file else None)


def _toml(path: Path) -> dict[str, Any]:
    """A scenario file beside the results, read; empty where there is none or it is broken."""
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def said(scenario: dict[str, Any], key: str) -> str:
    """A scenario's ``name`` or ``description`` in the language in force (``name_fr``...)."""
    lang = current_language()
    if lang != "en" and scenario.get(f"{key}_{lang}"):
        return str(scenario[f"{key}_{lang}"])
    return str(scenario.get(key) or "")


def _escape(value: str) -> str:
    from markupsafe import escape

    return str(escape(value))
