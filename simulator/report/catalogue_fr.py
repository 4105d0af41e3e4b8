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
    # what kills (Q3)
    "a blow past critical": "un coup au-delà de critique",
    "a wound received": "une blessure reçue",
    "a failed stable-period test": "un test de survie raté en période stable",
    "a neglected watch": "une veille négligée",
    "a failed healing": "une guérison ratée",
    "rough activity": "une activité physique rude",
    "a healing roll failed by 10": "un jet de guérison raté de 10 ou plus",
    "a mental blow (incoherent)": "un coup mental (incohérent)",
    "other causes {p}": "autres causes {p}",
    "{outcome} (cause: {cause})": "{outcome} (cause : {cause})",
    "What kills, over campaign time": "Ce qui tue, au fil de la campagne",
    "Share of campaigns dead, by what opened the way": (
        "Part des campagnes mortes, selon ce qui a ouvert la voie"
    ),
    "no campaign died": "aucune campagne ne meurt",
    " What opened the way to death: {causes}.": " Ce qui a ouvert la voie à la mort : {causes}.",
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
    # validate: the summary, the --show comments and the problems' "expected ..."
    "ruleset {name}": "règles {name}",
    "horizon {t}": "horizon {t}",
    "{n} injury": "{n} atteinte",
    "{n} injuries": "{n} atteintes",
    "{n} wound": "{n} blessure",
    "{n} wounds": "{n} blessures",
    "{n} activity": "{n} activité",
    "{n} activities": "{n} activités",
    "profile {name}": "profil {name}",
    "[first_aid] ignored: the basic rules have no first aid (B3)": (
        "[first_aid] ignoré : les règles de base n'ont pas de premiers soins (B3)"
    ),
    "first aid self from {start} every {every}": (
        "premiers soins par le patient lui-même dès {start}, toutes les {every}"
    ),
    "first aid level {level} from {start} every {every}": (
        "premiers soins de niveau {level} dès {start}, toutes les {every}"
    ),
    "self-healing modifier {m}": "modificateur d'auto-guérison {m}",
    "no healer": "sans soigneur",
    "healer level {level}, modifier {m}": "soigneur de niveau {level}, modificateur {m}",
    "{path}, as it will be simulated": "{path}, tel qu'il sera simulé",
    "Left out or not applying, and what that means:": (
        "Omis ou sans effet, et ce que cela veut dire :"
    ),
    "no [first_aid]: nobody gives first aid (A3)": (
        "pas de [first_aid] : personne ne donne les premiers soins (A3)"
    ),
    "[first_aid] does not apply under the basic rules (B3)": (
        "[first_aid] est sans effet sous les règles de base (B3)"
    ),
    "no first_aid.max_attempts: no limit per unstable spell (A3)": (
        "pas de first_aid.max_attempts : pas de limite par épisode instable (A3)"
    ),
    "no [healing]: no healer, rests go on without healing sessions (R1, M3)": (
        "pas de [healing] : pas de soigneur, les repos se passent sans séance de guérison (R1, M3)"
    ),
    "healing.level does not apply under the basic rules: the patient heals itself (B4)": (
        "healing.level est sans effet sous les règles de base : le patient guérit seul (B4)"
    ),
    "no [[injuries]]: nothing happens to the patient": (
        "pas de [[injuries]] : il n'arrive rien au patient"
    ),
    "no [[activities]]: no rough activity (X1)": (
        "pas de [[activities]] : aucune activité rude (X1)"
    ),
    "The wound table in force (mortality: craziness for mental levels); the cells that": (
        "La table des blessures en vigueur (mortality : folie pour les niveaux mentaux) ;"
    ),
    "differ from the profile's table are set below, under [rules.table].": (
        "les cases qui diffèrent de la table du profil sont données plus bas, sous [rules.table]."
    ),
    "level": "niveau",
    "missing": "absent",
    "an integer from {low} to {high}": "un entier de {low} à {high}",
    "a non-empty string, in quotes": "une chaîne non vide, entre guillemets",
    "a string, in quotes": "une chaîne, entre guillemets",
    "{what}, in UTF-8": "{what}, en UTF-8",
    "one of the {what} {choices}": "l'une des valeurs ({what}) {choices}",
    "rulesets": "jeux de règles",
    "profiles": "profils",
    "one of {choices}": "l'une des valeurs {choices}",
    "{what} (did you mean {name}?)": "{what} (vouliez-vous dire {name} ?)",
    " (did you mean {name}?)": " (vouliez-vous dire {name} ?)",
    "{flag} (on {path})": "{flag} (sur {path})",
    "{what} (the file has no [{table}]: {flag} created it)": (
        "{what} (le fichier n'a pas de [{table}] : {flag} l'a créée)"
    ),
    "a known key; {what} takes {keys}": "une clé connue ; {what} accepte {keys}",
    "a known key{what_hint}; {what} takes {keys}": (
        "une clé connue{what_hint} ; {what} accepte {keys}"
    ),
    "the top level": "le premier niveau",
    "a table [{key}]": "une table [{key}]",
    "an array of tables, written [[{key}]]": "un tableau de tables, écrit [[{key}]]",
    "a table of [[{key}]]": "une table de [[{key}]]",
    "true or false (without quotes)": "true ou false (sans guillemets)",
    "a number from 0 to {high}, e.g. 1 or 0.5": "un nombre de 0 à {high}, p. ex. 1 ou 0.5",
    "a probability, a number from 0 to 1": "une probabilité, un nombre de 0 à 1",
    'a duration of zero or more, up to 36525d (100 years), with a unit, e.g. "0s", "15min", '
    '"1.5h", "2d", "1w"': (
        "une durée de zéro ou plus, jusqu'à 36525d (100 ans), avec une unité, p. ex. "
        '"0s", "15min", "1.5h", "2d", "1w"'
    ),
    'a duration of one second or more, up to 36525d (100 years), with a unit, e.g. "15s", '
    '"15min", "1.5h", "2d"': (
        "une durée d'une seconde ou plus, jusqu'à 36525d (100 ans), avec une unité, p. ex. "
        '"15s", "15min", "1.5h", "2d"'
    ),
    'an array of durations, e.g. ["12h", "2d"]; {what}': (
        'un tableau de durées, p. ex. ["12h", "2d"] ; {what}'
    ),
    "KEY=VALUE with a dotted KEY, e.g. first_aid.level=3": (
        "KEY=VALUE avec une KEY pointée, p. ex. first_aid.level=3"
    ),
    "an existing scenario file (no such file)": (
        "un fichier de scénario existant (fichier introuvable)"
    ),
    "a scenario file, not a directory": "un fichier de scénario, pas un dossier",
    "a UTF-8 text file": "un fichier texte en UTF-8",
    "valid TOML: {detail}": "du TOML valide : {detail}",
    "a valid wound table (T2)": "une table des blessures valide (T2)",
    # trace: the header, the verdict, and the engine's timeline (matched whole as patterns)
    "{name} (seed {seed}, trial {trial})": "{name} (graine {seed}, essai {trial})",
    "ruleset {r}, horizon {h}; patient Cp+Rs {cp}, Rs+It {ri}, profile {p}": (
        "règles {r}, horizon {h} ; patient Cp+Rs {cp}, Rs+It {ri}, profil {p}"
    ),
    "first aid: nobody": "premiers soins : personne",
    "the patient itself": "le patient lui-même",
    "a caregiver at level {level}": "un soignant de niveau {level}",
    ", at most {n} per spell": ", au plus {n} par épisode",
    "first aid: {who}, from {start} after the state turns unstable, every {every}{cap}": (
        "premiers soins : {who}, dès {start} après que l'état devient instable, toutes les "
        "{every}{cap}"
    ),
    "healing: nobody": "guérison : personne",
    "healing: level {level}, modifier {m}": "guérison : niveau {level}, modificateur {m}",
    "none": "aucune",
    "watches: neglected with probability {p}; listed: {listed}": (
        "veilles : négligées avec la probabilité {p} ; listées : {listed}"
    ),
    "rules: {changed} (the other settings as RULES.md's defaults)": (
        "règles : {changed} (les autres réglages comme par défaut dans RULES.md)"
    ),
    "Each line: campaign time (days hh:mm[:ss]), the rule id (each is stated in "
    "docs/rules.md),\nwhat happened; under a test, the roll, each modifier and the "
    "margin (≥ 0 succeeds).": (
        "Chaque ligne : le temps de campagne (jours hh:mm[:ss]), l'id de la règle (chacune est "
        "énoncée dans docs/rules.md),\nce qui est arrivé ; sous un test, le jet, chaque "
        "modificateur et la marge (≥ 0 réussit)."
    ),
    "{a} aggravations, {s} survival tests ({f} failed), {fa} first-aid attempts, "
    "{h} healing tests, {fn} faints, highest pain {p}": (
        "{a} aggravations, {s} tests de survie ({f} ratés), {fa} tentatives de premiers "
        "soins, {h} tests de guérison, {fn} évanouissements, douleur maximale {p}"
    ),
    "Outcome: still wounded at the horizon ({end}); {counts}.": (
        "Issue : encore blessé à l'horizon ({end}) ; {counts}."
    ),
    "Outcome: {outcome} at {end}; {counts}.": "Issue : {outcome} à {end} ; {counts}.",
    "roll {n}": "jet {n}",
    "margin {n}: {verdict}": "marge {n} : {verdict}",
    "success": "réussite",
    "FAILURE": "ÉCHEC",
    "wounds ({list})": "blessures ({list})",
    "healer level": "niveau du soigneur",
    "missed watches": "veilles manquées",
    "circumstances": "circonstances",
    "activity": "activité",
    "mental": "mental",
    "pain, task": "douleur, tâche",
    "pain, person": "douleur, personne",
    "shock": "choc",
    "trauma": "traumatisme",
    "psychosis": "psychose",
    "stable": "stable",
    "unstable": "instable",
    "passed": "réussi",
    "failed: every wound becomes unstable": "raté : toutes les blessures deviennent instables",
    "worst": "la plus grave",
    "failed": "raté",
    "first aid": "premiers soins",
    "self-treatment": "auto-soins",
    "receives a {what} wound": "reçoit une blessure {what}",
    "receives a {what} wound, {what_final} by overflow": (
        "reçoit une blessure {what}, {what_final} par débordement"
    ),
    "{what} (+{n} pain → {total})": "{what} (+{n} de douleur → {total})",
    "{what}: past {what_level}, the blow leaves the patient {what_out}": (
        "{what} : au-delà de « {what_level} », le coup laisse le patient {what_out}"
    ),
    "the {what} wound worsens": "la blessure {what} s'aggrave",
    "the {what} wound worsens to {what_final}": "la blessure {what} s'aggrave en {what_final}",
    "faint test passed": "test d'évanouissement réussi",
    "faint test failed: unconscious until {t}": (
        "test d'évanouissement raté : inconscient jusqu'à {t}"
    ),
    "horizon reached": "horizon atteint",
    "no wound left: healed": "plus aucune blessure : guéri",
    "rough physical activity": "activité physique rude",
    "{what} wound holds": "la blessure {what} tient",
    "{what} wound worsens": "la blessure {what} s'aggrave",
    "the rest starts again from zero": "le repos reprend de zéro",
    "first aid lost: the patient is unconscious": (
        "premiers soins perdus : le patient est inconscient"
    ),
    "{what} succeeds: every wound is stable": (
        "{what} : réussite, toutes les blessures sont stables"
    ),
    "{what} fails": "{what} : échec",
    "no more first aid this spell ({n} attempts made)": (
        "plus de premiers soins pendant cet épisode ({n} tentatives faites)"
    ),
    "×{n} {what} attempt failed, {times} ({what_mods})": (
        "×{n} tentative ({what}) ratée, {times} ({what_mods})"
    ),
    "×{n} {what} attempts failed, {times} ({what_mods})": (
        "×{n} tentatives ({what}) ratées, {times} ({what_mods})"
    ),
    "×{n} survival test ({what}) passed, {times} ({what_mods})": (
        "×{n} test de survie ({what}) réussi, {times} ({what_mods})"
    ),
    "×{n} survival tests ({what}) passed, {times} ({what_mods}, the last)": (
        "×{n} tests de survie ({what}) réussis, {times} ({what_mods}, le dernier)"
    ),
    "{what_begins}: {what_session}; watches every {every}": (
        "{what_begins} : {what_session} ; veilles toutes les {every}"
    ),
    "rest begins": "le repos commence",
    "rest goes on ({d} rested)": "le repos continue ({d} déjà reposés)",
    "healing session of the {what} wounds in {wait}": (
        "séance de guérison des blessures « {what} » dans {wait}"
    ),
    "no healer, so no healing session": "pas de soigneur, donc pas de séance de guérison",
    "watch {i} of this rest neglected; survival test {what}; missed-watch penalty now {p}": (
        "veille {i} de ce repos négligée ; test de survie {what} ; pénalité de veilles "
        "manquées désormais {p}"
    ),
    "{what} wound healed one level": "la blessure {what} guérit d'un niveau",
    "healing fails: the {what} wound relapses": (
        "échec de la guérison : la blessure {what} rechute"
    ),
    "a new rest begins": "un nouveau repos commence",
    "healing fails by 10 or more: the {what} wound worsens": (
        "échec de la guérison de 10 ou plus : la blessure {what} s'aggrave"
    ),
    "healing fails; the tests stop until the next rest": (
        "échec de la guérison ; les tests s'arrêtent jusqu'au prochain repos"
    ),
    "survival test ({what}) passed": "test de survie ({what}) réussi",
    "survival test ({what}) failed: the worst wound becomes unstable": (
        "test de survie ({what}) raté : la pire blessure devient instable"
    ),
    "survival test ({what}) failed: the {what_level} wound worsens": (
        "test de survie ({what}) raté : la blessure {what_level} s'aggrave"
    ),
    "pain has recovered {a} → {b} (floor {f}; stable since {t})": (
        "la douleur est redescendue de {a} à {b} (plancher {f} ; stable depuis {t})"
    ),
}
"""English phrase -> French phrase."""
