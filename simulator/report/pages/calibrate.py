"""The section of a calibration's report page (``calibration.json``): met or not, and why.

Its tables are the folder's ``calibration.csv`` (the free keys), ``targets.csv`` (each
target) and ``calibrate_sensitivity.csv`` (each key's pull on each target), worded for a
person in the page's language; each number keeps the file's text (``data-value``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import escape

from simulator.report.i18n import (
    exact_percent_text,
    key_label,
    percent_text,
    points_text,
    stat_label,
    tr,
)
from simulator.report.pages.pieces import (
    Cell,
    Section,
    Table,
    ours,
    read_json,
    read_rows,
    setting,
    share,
    text,
)
from simulator.report.pages.words import t
from simulator.report.wording import conflict_lines, titled

READ = frozenset({"calibration.csv", "targets.csv", "calibrate_sensitivity.csv"})
"""The CSV files this section shows as tables (not as the page's other tables)."""


def calibrate(folder: Path) -> list[Section]:
    """Each target met or not, and which targets pull against those not met."""
    if not ours(folder / "calibration.json"):
        return []
    data = read_json(folder / "calibration.json")
    paragraphs = [str(escape(_how(data)))]  # how the numbers were made, as the terminal says
    for item in data["free"]:  # the value as the language writes it (0,127; 16 h 40 min)
        shown = item["value"] if isinstance(item["value"], str) else repr(item["value"])
        paragraphs.append(str(escape(f"{item['key']} = {setting(shown).text}")))
    labels: list[str] = []
    for target in data["targets"]:
        label = f"#{len(labels) + 1} {Path(target['scenario']).stem}: {target['stat']}"
        labels.append(label)
        met = t("met") if target["met"] else t("not met")
        line = t("{label}: wanted {value} ± {tolerance}, reached {reached}: {met}").format(
            label=label,
            value=percent_text(target["value"], 2),
            tolerance=points_text(target["tolerance"], decimals=2),  # points, not a %
            reached=exact_percent_text(target["reached"])
            if data.get("method") == "exact"  # as the terminal and run --exact show it
            else percent_text(target["reached"], 2),
            met=met,
        )
        paragraphs.append(str(escape(line)))
    if data["met"]:
        paragraphs.append(str(escape(t("Every target is met."))))
    elif len(data["targets"]) == 1:
        paragraphs.append(
            str(
                escape(
                    t(
                        "The target is not met: the value above is the closest this search "
                        "found. A statistic that moves by steps has many valleys, and the "
                        "search may miss a closer one: narrowing a range searches again."
                    )
                )
            )
        )
    else:
        paragraphs.append(
            str(
                escape(
                    t(
                        "Not every target is met: the values above are the closest compromise "
                        "this search found, weighted by the tolerances. A statistic that moves "
                        "by steps has many valleys, and the search may miss a closer one: "
                        "narrowing a range, or fixing a key in a target's set, searches again."
                    )
                )
            )
        )
        for line in conflict_lines(data.get("conflicts", []), labels):
            paragraphs.append(str(escape(line)))
    ends = [item["key"] for item in data["free"] if _at_an_end(item)]
    if ends and not data["met"]:  # as the terminal: the answer may lie beyond the range
        said = t(
            "At an end of its range: {keys}; the target may lie outside it, and a wider "
            "range searches further."
        ).format(keys=", ".join(ends))
        paragraphs.append(str(escape(said)))
    tables = _tables(folder, labels, data.get("method") == "exact")
    return [Section(t("Calibration"), paragraphs, tables, "calibration")]


def _at_an_end(item: dict[str, Any]) -> bool:
    """Whether a free key of ``calibration.json`` stopped at its range's low or high end.

    Its values are as ``--set`` takes them: numbers, or durations written two ways
    (``720min`` and ``12h``), compared as the instants they are.
    """
    values = [_number(item[name]) for name in ("value", "low", "high")]
    if None in values:
        return False
    return values[0] in values[1:]


def _number(value: object) -> float | None:
    """A value of a free key as a number (a duration in seconds); None when it is neither."""
    from simulator.errors import DurationError
    from simulator.rules.durations import parse_duration

    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        return None
    try:
        return float(parse_duration(value))
    except DurationError:
        return None


def _tables(folder: Path, labels: list[str], exact: bool) -> list[Table]:
    """The free keys, the targets, and the sensitivity at the solution, as tables."""
    tables = []
    if ours(folder / "calibration.csv"):
        free = Table(
            t("Free keys"), [tr("key"), t("value"), t("lowest"), t("highest")],
            source="calibration.csv",
        )  # fmt: skip
        for row in read_rows(folder / "calibration.csv"):
            free.rows.append(
                [text(key_label(row["key"])), setting(row["value"], "value"),
                 setting(row["low"], "low"), setting(row["high"], "high")]
            )  # fmt: skip
        tables.append(free)
    if ours(folder / "targets.csv"):
        rows = read_rows(folder / "targets.csv")
        sets = _sets(folder)
        bounds = [] if exact else [t("95% CI low"), t("95% CI high")]  # exact: one number
        targets = Table(
            t("Targets"),
            ["#", t("scenario"), t("statistic"), t("wanted"), t("tolerance"), t("reached"),
             *bounds, t("met")],
            source="targets.csv",
        )  # fmt: skip
        for row in rows:
            number = int(row["target"]) + 1  # as the terminal and the labels count them
            reached = _exact(row, "reached") if exact else share(row, "reached", 2)
            interval = [] if exact else [share(row, "low", 2), share(row, "high", 2)]
            targets.rows.append(
                [Cell(f"#{number}", "target", row["target"], True),
                 text(titled(Path(row["scenario"]).stem, sets.get(row["target"], []))),
                 text(stat_label(row["stat"])),
                 share(row, "value", 2), _tolerance(row), reached, *interval,
                 Cell(t("met") if row["met"] == "True" else t("not met"), "met", row["met"])]
            )  # fmt: skip
        tables.append(targets)
    if ours(folder / "calibrate_sensitivity.csv"):
        rows = read_rows(folder / "calibrate_sensitivity.csv")
        keys = list(dict.fromkeys(row["key"] for row in rows))
        shown = [int(n) for n in dict.fromkeys(row["target"] for row in rows)]
        pulls = Table(
            t("Sensitivity at the solution (percentage points per notch)"),
            [tr("key"), *(labels[n] if n < len(labels) else f"#{n + 1}" for n in shown)],
            source="calibrate_sensitivity.csv",
        )
        for key in keys:
            cells = [text(key_label(key))]
            for n in shown:
                found = [r for r in rows if r["key"] == key and int(r["target"]) == n]
                raw = found[0]["per_notch"] if found else ""
                cells.append(_points(raw, exact))
            pulls.rows.append(cells)
        tables.append(pulls)
    return tables


def _how(data: dict[str, object]) -> str:
    """The method line of ``calibrate``'s terminal: exact, or the trials, seed and check."""
    from simulator.report.wording import calibration_how

    evaluations = int(data.get("evaluations", 0) or 0)  # type: ignore[call-overload]
    trials = int(data.get("trials", 0) or 0)  # type: ignore[call-overload]
    check = data.get("check")
    checked = int(check.get("trials", 0) or 0) if isinstance(check, dict) else 0
    exact = data.get("method") == "exact"
    return calibration_how(exact, trials, data.get("seed"), evaluations, checked)


def _sets(folder: Path) -> dict[str, list[str]]:
    """Each target's ``set`` (what it changes of its scenario: ``injuries.0.level="light"``).

    A target reads its scenario so changed; the page says so beside its name, as the
    terminal does (``lone_traveller`` alone dies of its grave wound, the target's light one
    does not). Read from ``calibration.json``'s lists (the CSV joins them with ``"; "``,
    which a quoted value may hold too).
    """
    if not ours(folder / "calibration.json"):
        return {}
    targets = read_json(folder / "calibration.json").get("targets", [])
    return {str(i): [str(x) for x in t.get("set", [])] for i, t in enumerate(targets)}


def _exact(row: dict[str, str], key: str) -> Cell:
    """An exact share to four decimals, as ``run --exact`` and the terminal show it."""
    from simulator.report.i18n import exact_percent_text

    raw = row.get(key, "")
    if raw in ("", "nan", "None"):
        return Cell("—", key, raw, True)
    return Cell(exact_percent_text(float(raw)), key, raw, True)


def _points(raw: str, exact: bool = False) -> Cell:
    """A pull per notch, in percentage points with its sign (the file holds a share).

    One decimal when sampled, four when exact, as the figure and the terminal write it.
    """
    from simulator.report.i18n import notch_text

    if raw in ("", "nan", "None"):
        return Cell("—", "per_notch", raw, True)
    return Cell(notch_text(float(raw), exact), "per_notch", raw, True)


def _tolerance(row: dict[str, str]) -> Cell:
    """A target's tolerance in points, as its sentence says it (``2.00 points``).

    The file holds a share, and ``2.00%`` beside a target of 5% reads as a relative margin.
    """
    raw = row.get("tolerance", "")
    if raw in ("", "nan", "None"):
        return Cell("—", "tolerance", raw, True)
    return Cell(points_text(float(raw), decimals=2), "tolerance", raw, True)


__all__ = ["READ", "calibrate"]
