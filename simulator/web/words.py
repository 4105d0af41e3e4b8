"""The workbench's words in English and French, and its numbers as the command line prints them.

The phrases the page alone shows are in :data:`PAGE_FR`; every other phrase (outcomes,
table columns, levels) is the project's catalogue's (:mod:`simulator.report.catalogue_fr`),
through :func:`simulator.report.i18n.tr`. Numbers are formatted as ``run`` prints them:
sampled shares with one decimal and their 95% interval, exact shares with four decimals.
"""

from __future__ import annotations

from typing import Any

PAGE_FR = {
    "Workbench": "Établi",
    "Scenario": "Scénario",
    "Wound table": "Table des blessures",
    "rulebook": "règles",
    "The answer": "La réponse",
    "as written": "tel qu'écrit",
    "change": "écart",
    "dies within the first day": "meurt dans la première journée",
    "median time to death": "temps médian avant la mort",
    "exact": "exact",
    "sampled": "échantillonné",
    "exact answer (dropped mass {d})": "réponse exacte (masse écartée {d})",
    "{done} of {total} trials, seed {seed}": "{done} essais sur {total}, graine {seed}",
    "sampled: over the exact engine's budget of {n} states": (
        "échantillonné : au-delà du budget de {n} états du calcul exact"
    ),
    "Trace one campaign": "Raconter une campagne",
    "trial": "essai",
    "seed": "graine",
    "trials": "essais",
    "Tell this trial": "Raconter cet essai",
    "Find one that ends dead": "En trouver une qui finit par la mort",
    "Find one that ends healed": "En trouver une qui finit guérie",
    "Save as": "Enregistrer sous",
    "new file name": "nom du nouveau fichier",
    "Saved {path}": "Enregistré : {path}",
    "The same on the command line": "La même chose en ligne de commande",
    "computing…": "calcul…",
    "The last good answer stays; fix the cell in red.": (
        "La dernière bonne réponse reste affichée ; corrigez la case en rouge."
    ),
    "Undo all edits": "Annuler toutes les modifications",
    "campaign": "campagne",
    "patient": "patient",
    "watches": "veilles",
    "healer": "soigneur",
    "rules settings": "réglages des règles",
    "injuries received": "blessures reçues",
    "none in the file: fill these to add one": (
        "absent du fichier : remplissez-les pour en ajouter un"
    ),
    "name": "nom",
    "ruleset": "règles",
    "horizon": "horizon",
    "profile": "profil",
    "at": "à",
    "count": "nombre",
    "start": "début",
    "interval": "intervalle",
    "by the patient": "par le patient lui-même",
    "tries at most, per spell": "essais au plus, par épisode",
    "neglected at": "négligées à",
    "Fate over campaign time": "Devenir au cours de la campagne",
    "Scenarios": "Scénarios",
    "none": "aucun",
    "points": "points",
}
"""The page's own phrases, by their English text."""

GROUP_NAMES = {
    "table": "Wound table",
    "first_aid": "first aid",
    "watch": "watches",
    "healing": "healer",
    "rules": "rules settings",
    "injuries": "injuries received",
}
"""The page's sections, by their key (then translated)."""

LABELS = {
    "patient.cp_rs": "Cp+Rs",
    "patient.rs_it": "Rs+It",
    "watch.neglect_probability": "neglect probability",
    "watch.neglect_at": "neglected at",
    "first_aid.self": "by the patient",
    "first_aid.max_attempts": "tries at most, per spell",
}


def word(text: str, lang: str) -> str:
    """A phrase of the page in ``lang``: the page's catalogue, then the project's."""
    if lang != "fr":
        return text
    if text in PAGE_FR:
        return PAGE_FR[text]
    from simulator.report.i18n import tr

    return tr(text, "fr")


def group_name(group: str, lang: str) -> str:
    """A section's title on the page."""
    return word(GROUP_NAMES.get(group, group), lang)


def label(key: str, lang: str) -> str:
    """A cell's name on the page: the last part of its key, in words."""
    if key in LABELS:
        return word(LABELS[key], lang)
    last = key.rsplit(".", 1)[-1]
    if key.startswith("rules.table."):
        return word(last.replace("_", " "), lang)
    if key.startswith("rules."):
        return last
    return word(last, lang)


def share(p: float, exact: bool, lang: str) -> str:
    """A share as ``run`` prints it: ``23.4%`` sampled, ``23.4567%`` exact (``23,4 %``)."""
    from simulator.report.i18n import NNBSP, number_text, percent_text

    if not exact:
        return percent_text(p, 1, lang)
    if lang == "en":
        return f"{100 * p:.4f}%"
    return f"{number_text(100 * p, lang, 4)}{NNBSP}%"


def points(delta: float, exact: bool, lang: str) -> str:
    """A change of a share, in percentage points, signed (``+12.3 pts``)."""
    from simulator.report.i18n import number_text

    places = 4 if exact else 1
    if round(100 * delta, places) == 0:
        return "±0 pts" if lang == "en" else "±0 point"
    sign = "+" if delta > 0 else ("−" if lang == "fr" else "-")
    shown = number_text(abs(100 * delta), lang, places)
    return f"{sign}{shown} {'pts' if lang == 'en' else 'points'}"


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
    written (Q3), largest first.
    """
    from simulator.report.causes import CAUSE_LABELS
    from simulator.report.i18n import tr
    from simulator.rules.cause import DEATH_CAUSES

    def killed(cause: str) -> float:
        return max(float(n.get(f"p_dead_{cause}") or 0.0) for n in (numbers, base or {}))

    causes = sorted((c for c in DEATH_CAUSES if killed(c) > 0.0), key=lambda c: -killed(c))
    rows = []
    for key, name in ROWS:
        rows.append((key, word(name, lang)))
        if key == "p_dead":
            rows += [(f"p_dead_{c}", tr(CAUSE_LABELS[c], lang)) for c in causes]
    return rows


def hours(h: float | None, lang: str, none: str) -> str:
    """A median time as ``run`` prints it: ``17 d 4 h (412.0 h)``."""
    from simulator.report.i18n import hours_text, number_text, tr

    if h is None:
        return tr(none, lang)
    return f"{hours_text(h, lang)} ({number_text(h, lang, 1)} h)"


def shown(
    numbers: dict[str, Any], base: dict[str, Any] | None, lang: str, mental: bool
) -> dict[str, Any]:
    """The answer's rows as the page shows them: label, value, interval, change."""
    from simulator.report.causes import CAUSE_LABELS
    from simulator.report.i18n import number_text, percent_text, tr

    exact = numbers["method"] == "exact"
    rows = []
    for key, label in _rows(numbers, base, lang):
        if key not in numbers or (key == "p_incoherent" and not mental):
            continue
        p = numbers[key]
        ci = numbers.get(f"{key}_ci")
        row = {
            "key": key,
            "label": label,
            "cause": key.removeprefix("p_dead_") in CAUSE_LABELS,
            "value": share(p, exact, lang),
            "p": p,
            "ci": None
            if ci is None
            else f"{percent_text(ci[0], 1, lang)}–{percent_text(ci[1], 1, lang)}",
            "delta": None,
            "base": None,
        }
        if base is not None and key in base:
            row["delta"] = points(p - base[key], exact and base["method"] == "exact", lang)
            row["base"] = share(base[key], base["method"] == "exact", lang)
        rows.append(row)
    medians = [
        {"label": word("median time to heal", lang),
         "value": hours(numbers["median_time_to_heal_h"], lang, "none healed")},
        {"label": word("median time to death", lang),
         "value": hours(numbers["median_time_to_death_h"], lang, "none")},
    ]  # fmt: skip
    if exact:
        dropped = f"{numbers['dropped']:.2g}"
        note = word("exact answer (dropped mass {d})", lang).format(d=dropped)
    else:
        done, total = numbers["trials"], numbers.get("total", numbers["trials"])
        note = word("{done} of {total} trials, seed {seed}", lang).format(
            done=number_text(done, lang),
            total=number_text(total, lang),
            seed=numbers.get("seed", ""),
        )
    return {"method": numbers["method"], "method_label": word(numbers["method"], lang),
            "rows": rows, "medians": medians, "note": note,
            "ci_label": tr("95% CI", lang)}  # fmt: skip
