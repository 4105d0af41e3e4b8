"""The French catalogue: every phrase a figure, a printed table or a rulebook export shows.

Keyed by the English text, which is what the code writes; :func:`simulator.report.i18n.tr`
looks phrases up here. Placeholders in braces (``{n}``) are filled in after translation.
A test checks that every phrase the code passes to ``tr`` is here.
"""

from __future__ import annotations

FRENCH: dict[str, str] = {
    # outcomes and shares
    "dead": "mort",
    "healed": "guéri",
    "still wounded": "encore blessé",
    "incoherent": "incohérent",
    "dies": "meurt",
    "heals": "guérit",
    "median heal": "guérison médiane",
    "Share dead": "Part morte",
    "Share healed": "Part guérie",
    "Share wounded": "Part encore blessée",
    "Share incoherent": "Part incohérente",
    "Share {what}": "Part {what}",
    "Share {what} by {y} and {x}": "Part {what} selon {y} et {x}",
    "Share of campaigns": "Part des campagnes",
    "Share of campaigns (95% CI band)": "Part des campagnes (bande IC à 95 %)",
    "Share of healed campaigns": "Part des campagnes guéries",
    "at the horizon": "à l'horizon",
    "by": "en",
    # times
    "days": "jours",
    "hours": "heures",
    "minutes": "minutes",
    "seconds": "secondes",
    "Campaign time": "Temps de campagne",
    "Campaign time when healed": "Temps de campagne à la guérison",
    "to scale": "à l'échelle",
    "log scale": "échelle logarithmique",
    "median": "médiane",
    # figures of a study
    "Fate over campaign time": "Devenir au fil de la campagne",
    "Fate over the first day": "Devenir au cours du premier jour",
    "Time to healing": "Temps de guérison",
    "{p} ended healed": "{p} finissent guéris",
    "no campaign ended healed": "aucune campagne ne finit guérie",
    "Aggravations per campaign": "Aggravations par campagne",
    "Aggravations in the campaign (count)": "Aggravations dans la campagne (nombre)",
    "{n} trials": "{n} essais",
    "95% CI": "IC à 95 %",
    # sweeps and comparisons
    "Outcome against {key}": "Issue selon {key}",
    "A: {a}  vs  B: {b}": "A : {a}  contre  B : {b}",
    "same seeds": "mêmes graines",
    "Difference in share of campaigns, A − B (percentage points, 95% CI)": (
        "Écart de part des campagnes, A − B (points de pourcentage, IC à 95 %)"
    ),
    "A − B (95% CI, percentage points)": "A − B (IC à 95 %, points de pourcentage)",
    "{n} trials each, seed {seed}, same random streams": (
        "{n} essais chacun, graine {seed}, mêmes tirages"
    ),
    "{n} trials per point, seed {seed}": "{n} essais par point, graine {seed}",
    "note: A runs {a} and B {b}: 'heals' and 'still wounded' are read at different horizons; "
    "compare with the same horizon (--set-a/--set-b horizon=...)": (
        "note : A dure {a} et B {b} : « guérit » et « encore blessé » sont lus à des horizons "
        "différents ; comparez au même horizon (--set-a/--set-b horizon=...)"
    ),
    # run and study
    "{n} trials, seed {seed}": "{n} essais, graine {seed}",
    "median time to heal": "temps médian de guérison",
    "mean aggravations": "aggravations moyennes",
    "none healed": "aucun guéri",
    "Results in": "Résultats dans",
    "Index": "Index",
    "with": "avec",
    "to": "à",
    "dies in {p} of campaigns (95% CI {low}–{high})": (
        "meurt dans {p} des campagnes (IC à 95 % {low}–{high})"
    ),
    ", heals in {p} ({low}–{high})": ", guérit dans {p} ({low}–{high})",
    ", median time to heal {t}": ", temps médian de guérison {t}",
    "; still wounded at the end in {p}": " ; encore blessé à la fin dans {p}",
    "; incoherent in {p}": " ; incohérent dans {p}",
    # odds
    "Chance of success with {roll} ({rule} succeeds)": (
        "Chance de réussite avec {roll} (réussite si {rule})"
    ),
    "open roll ±d10°": "jet ouvert ±d10°",
    "margin > 0": "marge > 0",
    "margin ≥ 0": "marge ≥ 0",
    "modifier": "modificateur",
    "chance": "chance",
    # balance
    "Balancing": "Équilibrer",
    "target": "cible",
    "bracket": "encadrement",
    "from": "de",
    "Exact": "Exact",
    "{n} values evaluated": "{n} valeurs évaluées",
    "Monte Carlo: {trials} trials at each value, seed {seed}, the same seeds at every value": (
        "Monte-Carlo : {trials} essais par valeur, graine {seed}, les mêmes graines partout"
    ),
    "Monte Carlo: {trials} trials at each value, seed {seed}, the same seeds at every value; "
    "{evaluated}": (
        "Monte-Carlo : {trials} essais par valeur, graine {seed}, les mêmes graines partout ; "
        "{evaluated}"
    ),
    "note: the statistic is not monotone over the range (it rises and falls over the values "
    "evaluated); every crossing found is listed.": (
        "note : la statistique n'est pas monotone sur l'intervalle (elle monte et descend "
        "selon les valeurs évaluées) ; chaque franchissement trouvé est donné."
    ),
    "The target lies outside the range: no value evaluated reaches it.": (
        "La cible est hors de l'intervalle : aucune valeur évaluée ne l'atteint."
    ),
    "Exactly on the target": "Exactement sur la cible",
    "The target lies between two neighbouring values": "La cible est entre deux valeurs voisines",
    "about {n} trials at each value would separate them": (
        "environ {n} essais par valeur les sépareraient"
    ),
    "an estimate equals the target": "une estimation égale la cible",
    "note: an interval holds the target, so sampling cannot tell on which side it lies; {more}": (
        "note : un intervalle contient la cible, l'échantillonnage ne peut dire de quel côté "
        "elle se trouve ; {more}"
    ),
    "Nearest the target": "La plus proche de la cible",
    # sensitivity
    "What moves the result most": "Ce qui fait le plus bouger le résultat",
    "key": "clé",
    "value": "valeur",
    "one notch down": "un cran plus bas",
    "one notch up": "un cran plus haut",
    "swing": "écart",
    "points": "points",
    "line": "trait",
    "the scenario as it is": "le scénario tel quel",
    "no key moves it": "aucune clé ne le fait bouger",
    "{n} other keys move it less, or not at all (sensitivity.csv)": (
        "{n} autres clés le font moins bouger, ou pas du tout (sensitivity.csv)"
    ),
    # the rulebook (notebooks/03_rulebook_charts.ipynb)
    "total modifier": "modificateur total",
    "Total modifier of the test (attributes + level + difficulty + penalties)": (
        "Modificateur total du test (attributs + niveau + difficulté + pénalités)"
    ),
    "Chance of success": "Chance de réussite",
    "Chance of success of a test": "Chance de réussite d'un test",
    "exact odds; a margin of 0 succeeds": "probabilités exactes ; une marge de 0 réussit",
    "light": "légère",
    "grave": "grave",
    "critical": "critique",
    "wound": "blessure",
    "help": "aide",
    "no first aid": "sans premiers soins",
    "first aid 0": "premiers soins 0",
    "first aid +3": "premiers soins +3",
    "first aid +6": "premiers soins +6",
    "one light wound": "une blessure légère",
    "one grave wound": "une blessure grave",
    "one critical wound": "une blessure critique",
    "Chance to be alive after 60 days": "Chance d'être en vie après 60 jours",
    "Survival by wound and help": "Survie selon la blessure et l'aide",
    "Cp+Rs +8, first aid from 5 min, every 5 min": (
        "Cp+Rs +8, premiers soins dès 5 min, toutes les 5 min"
    ),
    "{n} trials per bar, 95% CI": "{n} essais par barre, IC à 95 %",
    "healer": "soigneur",
    "healer {h}": "soigneur {h}",
    "healed within 60 days": "guéri en 60 jours",
    "half of them between": "la moitié entre",
    "{a} and {b}": "{a} et {b}",
    "Campaign time (days)": "Temps de campagne (jours)",
    "Share healed by then": "Part guérie à ce moment",
    "Time to heal, by the healer's level — first aid +3, Cp+Rs +8": (
        "Temps de guérison selon le niveau du soigneur — premiers soins +3, Cp+Rs +8"
    ),
    "{n} trials per line": "{n} essais par courbe",
    "exact values": "valeurs exactes",
    "exact values, or {n} trials per bar with a 95% CI": (
        "valeurs exactes, ou {n} essais par barre avec IC à 95 %"
    ),
    "exact values, or {n} trials per line with a 95% band": (
        "valeurs exactes, ou {n} essais par courbe avec bande à 95 %"
    ),
    # keys
    "light wound": "blessure légère",
    "grave wound": "blessure grave",
    "critical wound": "blessure critique",
    "shock wound": "choc",
    "trauma wound": "traumatisme",
    "psychosis wound": "psychose",
    "max": "maximum",
    "mortality": "mortalité",
    "pain": "douleur",
    "unstable period": "période instable",
    "stable period": "période stable",
    "watch period": "période de veille",
    "heal period": "période de guérison",
    "difficulty": "difficulté",
    "Cp+Rs": "Cp+Rs",
    "Rs+It": "Rs+It",
    "first-aid level": "niveau de premiers soins",
    "first aid: start": "premiers soins : début",
    "first aid: interval": "premiers soins : intervalle",
    "first aid: modifier": "premiers soins : modificateur",
    "healer's level": "niveau du soigneur",
    "healing: modifier": "guérison : modificateur",
    "neglect probability": "probabilité de veille négligée",
    "trigger probability": "probabilité de déclenchement",
}
"""English phrase -> French phrase."""
