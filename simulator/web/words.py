"""The workbench's words in English and French, and its numbers as the command line prints them.

The phrases the page alone shows are listed in :data:`PAGE_WORDS`; they and every other
phrase (outcomes, table columns, levels) are in the project's one catalogue (the ``.po``
file), through :func:`simulator.report.i18n.tr`. Numbers are formatted as ``run`` prints them:
sampled shares with one decimal and their 95% interval, exact shares with four decimals.
"""

from __future__ import annotations

from typing import Any

from simulator.errors import N_, Phrase, UserError, fill

PAGE_WORDS = (
    N_("Workbench"),
    N_("Scenario"),
    N_("Wound table"),
    N_("rulebook"),
    N_("The answer"),
    N_("as written"),
    N_("change"),
    N_("dies within the first day"),
    N_("median time to death"),
    N_("exact"),
    N_("sampled"),
    N_("exact answer (dropped mass {d})"),
    N_("sampled: over the exact engine's budget of {n} states"),
    N_("The file changed on disk: read again, your edits kept."),
    N_("Your edits of {name} were not carried over: it could not be opened. They were:"),
    N_("These edits were not kept: the file as it is now has no such cells:"),
    N_("injury row {n} ({key})"),  # an edit of a row named away from it (as problems name it)
    N_("activity row {n} ({key})"),
    N_("Open another scenario? The edits of this one are not saved as a file."),
    # Solve's free boxes are the scenario's own cells: another scenario drops them
    N_("Open another scenario? The free cells of Solve typed in this one will be lost."),
    N_(
        "Open another scenario? The edits of this one are not saved as a file, and the free "
        "cells of Solve typed in it will be lost."
    ),
    N_("Undo every edit? They are not saved as a file."),
    N_("Trace one campaign"),
    N_("trial"),
    N_("seed"),
    N_("trials"),
    N_("Tell this trial"),
    N_("Find one that ends dead"),
    N_("Find one that ends healed"),
    N_("Save as"),
    N_("new file name"),
    N_("Saved {path}"),
    N_("The same on the command line"),
    N_("computing…"),
    N_("The last good answer stays; fix the cell in red."),
    N_(
        "No answer from the server: is harmonies-sim serve still running? The numbers shown "
        "are for the cells as they were before."
    ),
    N_("Undo all edits"),
    N_("undo this edit"),
    N_(
        "Nothing was written: the file changed on disk and was read again, your edits kept; "
        "save again."
    ),
    N_("Nothing was written: fix what is said in red first."),
    N_("Nothing was written: the cells changed while it was on its way; save again."),
    N_("{name} holds the cells as they were when saved, not the edits since."),
    # the server's own refusals (503, 408, 413) come before it reads the page's language
    N_("The server is busy (too many requests at once): try again in a moment."),
    N_("The request took too long to reach the server: try again."),
    N_("The request is too large for the server: shorten the longest edits."),
    N_("campaign"),
    N_("patient"),
    N_("watches"),
    N_("healer"),
    N_("rules settings"),
    N_("injuries received"),
    N_("#"),  # the head of the column that numbers the injuries (and activities) from 1
    N_("description"),
    N_("none in the file: fill these to add one"),
    N_("name"),
    N_("ruleset"),
    N_("horizon"),
    N_("profile"),
    N_("at"),
    N_("count"),
    N_("start"),
    N_("interval"),
    N_("by the patient"),
    N_("tries at most, per spell"),
    N_("neglected at"),
    N_("Fate over campaign time"),
    N_("Scenarios"),
    N_("none"),
    N_("points"),
    N_("This campaign was told for other cells or another seed: tell it again for these."),
)
"""The phrases the page itself shows (its French in the catalogue, sent to the page)."""

GROUP_NAMES = {
    "table": "Wound table",
    "first_aid": "first aid",
    "watch": "watches",
    "healing": "healer",
    "rules": "rules settings",
    "injuries": "injuries received",
    "activities": "rough activities",
}
"""The page's sections, by their key (then translated)."""

LABELS = {
    "name_fr": "name in French",
    "description_fr": "description in French",
    "patient.cp_rs": "Cp+Rs",
    "patient.rs_it": "Rs+It",
    "watch.neglect_probability": "neglect probability",
    "watch.neglect_at": "neglected at",
    "first_aid.self": "by the patient",
    "first_aid.max_attempts": "tries at most, per spell",
    "rules.tie_succeeds": "a tie succeeds",
    "rules.open_roll": "open roll (10s rolled again)",
    "rules.pain_recovery_per_hour": "pain recovered per hour",
    "rules.faint_duration": "faint duration",
    "rules.stable_survival_tests": "survival tests while stable",
    "rules.trigger_probability": "trigger probability",
    "rules.self_aid_pain_factor": "pain factor when the patient treats itself",
    "rules.rest_after_unstable": "rest after an unstable period",
    "rules.rest_per_level": "rest per level",
    "rules.activity_breaks_rest": "rough activity breaks the rest",
    "rules.pain_floor_craziness": "the pain floor counts craziness",
}


CHOICE_WORDS = (
    N_("arpeges"),
    N_("basic"),
    N_("restart"),
    N_("resume"),
    N_("fresh"),
    N_("cumulative"),
    N_("humanoid"),
    N_("hydra"),
    N_("thick_skin"),
    N_("worm"),
)
"""The words of a choice cell (a ruleset, a profile, a rest's settings) that a language says
otherwise; the levels' are the catalogue's too. The file's word stays the option's value."""


def choice_text(choice: str, lang: str) -> str:
    """A choice as its list shows it: ``légère (light)`` in French, ``light`` in English."""
    from simulator.report.i18n import said

    return said(choice, lang)


def word(text: str, lang: str) -> str:
    """A word or template of the page in ``lang`` (the project's one catalogue)."""
    from simulator.report.i18n import tr

    return tr(text, lang)


def error_text(exc: UserError, lang: str) -> str:
    """An error's message in the page's language (its template worded, then filled)."""
    if exc.phrase is None or lang == "en":
        return str(exc)
    return phrase_text(exc.phrase, lang)


def phrase_text(said: Phrase, lang: str) -> str:
    """A phrase in the page's language (its template worded, then filled)."""
    return fill(said.template, said.args, lambda text: word(text, lang))


def group_name(group: str, lang: str) -> str:
    """A section's title on the page."""
    return word(GROUP_NAMES.get(group, group), lang)


def label(key: str, lang: str) -> str:
    """A cell's name on the page: the last part of its key, in words (the key is its hint)."""
    if key in LABELS:
        return word(LABELS[key], lang)
    last = key.rsplit(".", 1)[-1]
    if key.startswith("patient.maxima."):  # the max column, where [patient.maxima] wins
        return word("max", lang)
    if key.startswith("rules.table."):
        return word(last.replace("_", " "), lang)
    if key.startswith("rules."):
        return last
    return word(last, lang)


def share(p: float, exact: bool, lang: str) -> str:
    """A share as ``run`` prints it: ``23.4%`` sampled, ``23.4567%`` exact (``23,4 %``)."""
    from simulator.report.i18n import exact_percent_text, percent_text

    return exact_percent_text(p, lang) if exact else percent_text(p, 1, lang)


def points(delta: float, exact: bool, lang: str, apart: bool = False) -> str:
    """A change of a share, in percentage points, signed (``+12.3 pts``, ``−0,7 point``).

    French writes the singular below 2 as shown (``1,5 point``, ``2,0 points``), as the report
    pages do; English always ``pts``.

    Args:
        delta: The change, as a difference of two shares.
        exact: Whether both shares are exact (four places) or not (one).
        lang: The page's language.
        apart: Whether the two shares read differently on the page. A change that rounds to
            nothing between two shares that read apart (``0.0000%`` beside ``0.04%``) keeps
            two significant digits (``-0.04 pts``), as a share near 0% does: never ``±0``.

    Returns:
        The change as the page shows it.
    """
    from simulator.report.i18n import ntr, number_text, plain

    places = 4 if exact else 1
    if round(100 * delta, places) == 0 and not (apart and delta != 0):
        return "±0 pts" if lang == "en" else "±0 point"
    sign = "+" if delta > 0 else ("−" if lang == "fr" else "-")
    if round(100 * delta, places) == 0:  # two significant digits of a change that is not none
        text = plain(float(f"{abs(100 * delta):.2g}"))
        shown = number_text(float(text), lang, len(text.partition(".")[2]))
    else:
        shown = number_text(abs(100 * delta), lang, places)
    if lang == "en":
        return f"{sign}{shown} pts"
    # the catalogue's plural of the whole part shown, as the report's points_text picks it
    n = int("".join(c for c in shown.partition(",")[0] if c.isdigit()) or 0)
    return sign + ntr("{n} point", "{n} points", n, lang).format(n=shown)


ROWS = (
    ("p_dead", "dies"),
    ("p_healed", "heals"),
    ("p_wounded", "still wounded"),
    ("p_incoherent", "incoherent"),
    ("p_dead_by_1d", "dies within the first day"),
)


def _rows(numbers: dict[str, Any], base: dict[str, Any] | None, lang: str) -> list[tuple[str, str]]:
    """The answer's rows as ``(key, label)``.

    :data:`ROWS`, and under "dies" each cause that killed here or in the scenario as
    written (Q3), in :func:`~simulator.report.causes.cause_order`: the largest share of this
    answer first, as the ``run`` line under it prints them, ties in CONTRACT's order.
    """
    from simulator.report.causes import CAUSE_LABELS, cause_order
    from simulator.report.i18n import tr
    from simulator.rules.cause import DEATH_CAUSES

    def killed(cause: str) -> float:
        return max(float(n.get(f"p_dead_{cause}") or 0.0) for n in (numbers, base or {}))

    shares = {c: numbers.get(f"p_dead_{c}") or 0.0 for c in DEATH_CAUSES}
    causes = cause_order(shares, [c for c in DEATH_CAUSES if killed(c) > 0.0])
    rows = []
    for key, name in ROWS:
        rows.append((key, word(name, lang)))
        if key == "p_dead":
            rows += [(f"p_dead_{c}", tr(CAUSE_LABELS[c], lang)) for c in causes]
    return rows


def hours(h: float | None, lang: str, none: str | None) -> str:
    """A median time, or what stands for it when there is none (None: "none", of a time)."""
    from simulator.report.i18n import hours_and_raw, ptr, tr

    if h is None:
        return tr(none, lang) if none is not None else ptr("time", "none", lang)
    return hours_and_raw(h, lang)


def shown(
    numbers: dict[str, Any], base: dict[str, Any] | None, lang: str, mental: bool
) -> dict[str, Any]:
    """The answer's rows as the page shows them: label, value, interval, change."""
    from simulator.report.causes import CAUSE_LABELS
    from simulator.report.i18n import mass_text, ntr, number_text, ptr, tr

    exact = numbers["method"] == "exact"
    gone = set(numbers.get("impossible") or ())  # proven out of reach (studies.reachable)
    rows = []
    for key, label in _rows(numbers, base, lang):
        if key not in numbers or (key == "p_incoherent" and not mental):
            continue
        p = numbers[key]
        ci = interval(numbers.get(f"{key}_ci"), exact, lang)
        if p == 0.0 and ("dead" if key == "p_dead_by_1d" else key[2:]) in gone:
            ci = tr("ruled out by the rules", lang)  # as run's table says it
        row = {
            "key": key,
            "label": label,
            "cause": key.removeprefix("p_dead_") in CAUSE_LABELS,
            "value": share(p, exact, lang),
            "p": p,
            "ci": ci,
            "delta": None,
            "base": None,
        }
        if base is not None and key in base:
            row["base"] = share(base[key], base["method"] == "exact", lang)
            both = exact and base["method"] == "exact"
            row["delta"] = points(p - base[key], both, lang, row["base"] != row["value"])
        rows.append(row)
    medians = [
        {"label": word("median time to heal", lang),
         "value": hours(numbers["median_time_to_heal_h"], lang, "none healed")},
        {"label": word("median time to death", lang),
         "value": hours(numbers["median_time_to_death_h"], lang, None)},
    ]  # fmt: skip
    if exact:
        dropped = mass_text(numbers["dropped"], lang)  # 9.3e-13, in French 9,3e−13
        note = word("exact answer (dropped mass {d})", lang).format(d=dropped)
    else:
        done, total = numbers["trials"], numbers.get("total", numbers["trials"])
        note = ntr(
            "{done} of {total} trial, seed {seed}",
            "{done} of {total} trials, seed {seed}",
            total,
            lang,
        ).format(
            done=number_text(done, lang),
            total=number_text(total, lang),
            seed=numbers.get("seed", ""),
        )
    how = (  # "the answer (exact)": in French it agrees with "la réponse"
        ptr("answer", "exact", lang)
        if numbers["method"] == "exact"
        else ptr("answer", "sampled", lang)
    )
    return {"method": numbers["method"], "method_label": how,
            "rows": rows, "medians": medians, "note": note,
            "ci_label": tr("interval", lang) if exact else tr("95% CI", lang)}  # fmt: skip


def interval(ci: list[float] | None, exact: bool, lang: str) -> str | None:
    """A share's interval on the page: ``12.3%–15.0%`` sampled (as ``run`` prints it).

    Exact, ``[p, p + dropped]`` to four decimals (``12.3456%–12.3460%``), or ``exact`` when
    both ends read the same, as ``calibrate`` says it (never ``12.3456%–12.3456%``).
    """
    from simulator.report.i18n import exact_percent_text, percent_text

    if ci is None:
        return None
    if not exact:
        return f"{percent_text(ci[0], 1, lang)}–{percent_text(ci[1], 1, lang)}"
    low, high = exact_percent_text(ci[0], lang), exact_percent_text(ci[1], lang)
    return word("exact", lang) if low == high else f"{low}–{high}"
