"""The section of a calibration's report page (``calibration.json``): met or not, and why.

Its tables (``calibration.csv``, ``targets.csv``, ``calibrate_sensitivity.csv``) are shown
as the folder writes them, with the page's other tables.
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import escape

from simulator.report.i18n import percent_text
from simulator.report.pages.pieces import Section, read_json, setting
from simulator.report.pages.words import t


def calibrate(folder: Path) -> list[Section]:
    """Each target met or not, and which targets pull against those not met."""
    if not (folder / "calibration.json").is_file():
        return []
    data = read_json(folder / "calibration.json")
    paragraphs = []
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
            tolerance=percent_text(target["tolerance"], 2),
            reached=percent_text(target["reached"], 2),
            met=met,
        )
        paragraphs.append(str(escape(line)))
    if data["met"]:
        paragraphs.append(str(escape(t("Every target is met."))))
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
        for item in data.get("conflicts", []):
            line = t("{against} pulls against {target} (on {keys})").format(
                against=labels[item["against"]],
                target=labels[item["target"]],
                keys=", ".join(item["keys"]),
            )
            paragraphs.append(str(escape(line)))
    return [Section(t("Calibration"), paragraphs, [], "calibration")]


__all__ = ["calibrate"]
