"""The words of the report pages, in English and French.

The pages share the figures' and tables' words (:func:`simulator.report.i18n.tr`); the few
phrases only a page shows (its headings, its table headers) are in :data:`FRENCH_PAGES`,
looked up first by :func:`t`. A test checks that every phrase the pages use is in one of
the two catalogues.
"""

from __future__ import annotations

from simulator.report.i18n import current_language, tr

FRENCH_PAGES: dict[str, str] = {
    # headings
    "Results of the main study": "Résultats de l'étude principale",
    "Answer": "Réponse",
    "Outcomes": "Issues",
    "Other measures": "Autres mesures",
    "Figures": "Figures",
    "Scenario as simulated": "Le scénario tel que simulé",
    "Files": "Fichiers",
    "Other tables": "Autres tableaux",
    "Contents": "Sommaire",
    "What the texts intend": "Ce que les textes veulent dire",
    "Sweep": "Balayage",
    "Comparison": "Comparaison",
    "Balance": "Équilibrage",
    "Sensitivity": "Sensibilité",
    "Values evaluated": "Valeurs évaluées",
    "One study per point of the grid": "Une étude par point de la grille",
    "A − B, campaign by campaign on the same seeds": (
        "A − B, campagne par campagne sur les mêmes graines"
    ),
    "One notch down and one notch up for each key, largest swing first": (
        "Un cran plus bas et un cran plus haut pour chaque clé, le plus grand écart d'abord"
    ),
    "Table from {file}": "Tableau de {file}",
    "first {n} rows of {total}": "{n} premières lignes sur {total}",
    "The report of this scenario, with all its figures": (
        "Le rapport de ce scénario, avec toutes ses figures"
    ),
    "no description": "pas de description",
    "Written by harmonies-sim; do not edit by hand.": (
        "Écrit par harmonies-sim ; ne pas modifier à la main."
    ),
    # lines under a title
    "{n} trials, seed {seed}": "{n} essais, graine {seed}",
    "{n} trials per point, seed {seed}": "{n} essais par point, graine {seed}",
    "exact (dropped mass {m})": "exact (masse abandonnée {m})",
    "Every scenario of {folder}, {n} trials each, seed {seed}.": (
        "Chaque scénario de {folder}, {n} essais chacun, graine {seed}."
    ),
    "Every scenario of {folder}, computed exactly.": (
        "Chaque scénario de {folder}, calculé exactement."
    ),
    "Intervals are 95% Wilson intervals.": "Les intervalles sont des intervalles de Wilson à 95 %.",
    "{key} from {low} to {high}, target {stat} = {target}": (
        "{key} de {low} à {high}, cible {stat} = {target}"
    ),
    "Nearest the target": "Au plus près de la cible",
    "The target lies outside the range: no value evaluated reaches it.": (
        "La cible est hors de l'intervalle : aucune valeur évaluée ne l'atteint."
    ),
    "The target lies between {a} and {b}.": "La cible est entre {a} et {b}.",
    "{stat} at the scenario as written: {p}": "{stat} pour le scénario tel qu'écrit : {p}",
    # table headers
    "outcome": "issue",
    "share": "part",
    "95% CI low": "IC à 95 % bas",
    "95% CI high": "IC à 95 % haut",
    "lower bound": "borne basse",
    "upper bound": "borne haute",
    "measure": "mesure",
    "value": "valeur",
    "A − B": "A − B",
    "median time to death": "temps médian jusqu'à la mort",
    "stabilised at least once": "stabilisé au moins une fois",
    "mean survival tests": "tests de survie moyens",
    "mean first-aid attempts": "tentatives de premiers soins moyennes",
    "mean healing tests": "tests de guérison moyens",
    "mean faints": "évanouissements moyens",
    "trials": "essais",
    "round": "tour",
    "first-aid level": "niveau de premiers soins",
    "stable-period survival tests": "tests de survie en période stable",
    "on": "activés",
    "off": "désactivés",
    "dies before ever stabilised": "meurt sans jamais être stabilisé",
    "Chance of death by first-aid level (rows) and time between tries (columns)": (
        "Chance de mort selon le niveau de premiers soins (lignes) et le temps entre deux "
        "tentatives (colonnes)"
    ),
    "Chance of death before ever stabilised, by first-aid level and time between tries": (
        "Chance de mort sans jamais être stabilisé, selon le niveau de premiers soins et le "
        "temps entre deux tentatives"
    ),
    "The headline with the stable-period survival tests on and off": (
        "Le résultat principal avec les tests de survie en période stable activés et désactivés"
    ),
}
"""English phrase -> French phrase, for the phrases only the pages show."""


def t(text: str) -> str:
    """A page's phrase in the language in force: the pages' catalogue, then the project's."""
    if current_language() == "fr" and text in FRENCH_PAGES:
        return FRENCH_PAGES[text]
    return tr(text)
