"""How numbers are told to a designer: shares as percents, durations, titles, one-line answers.

Text functions that the command line, the saved results, the notebooks and the main study's
index share, so that they all word their numbers the same way. They speak the language in
force (:func:`simulator.report.i18n.language`; English by default): ``23.4%`` or ``23,4 %``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from simulator.errors import N_
from simulator.report.i18n import current_language, hours_text, percent_text, plain, tr

if TYPE_CHECKING:
    from simulator.rules.outcome import Summary
    from simulator.scenario.model import Scenario

__all__ = ["answer", "days_hours", "percent", "plain", "ruled_out", "scenario_text", "titled"]


OUTCOME_ROWS = (
    ("dies", "p_dead"),
    ("heals", "p_healed"),
    ("still wounded", "p_wounded"),
    ("incoherent", "p_incoherent"),
)
"""The outcomes of a study, in the order ``run``'s table and ``report.html`` show them: their
words and their columns (the causes of death under "dies")."""

DROPPED_NOTE = N_(
    "† the probability mass the exact engine dropped could hold this whole swing: it cannot be "
    "told from no swing (a smaller --eps would tell)"
)
"""The footnote of a sensitivity's swing within the dropped mass (the terminal's, the page's)."""

STEP = 0.05
"""A jump of the statistic between two neighbouring values of the key that no value of the
key bridges (five points, each value at least half that from the target): said as such."""


def steps_across(low: float, high: float, target: float) -> bool:
    """Whether two neighbouring values' statistics step across the target, far on both sides.

    ``balance`` over an unstable period from 15 min to 1 d, for one death in five by a day:
    23 h 59 min gives 36% and 1 d gives 0% (one survival test falls within the day, or none).
    No value of that key comes near the target: another key must move too.
    """
    return abs(low - high) >= STEP and min(abs(low - target), abs(high - target)) >= STEP / 2


STEPS = N_(
    "the statistic steps across the target between these neighbouring values: no "
    "value of {key} comes near it; another key must move too"
)
"""Said under a balance's crossing whose two values are far from the target on both sides
(the command line puts its fixed ``note:`` prefix before it, the page nothing)."""


def comparison_how(exact: bool, trials: int, seed: object, dropped: float) -> str:
    """A comparison's method line (terminal and page): the trials and seed, or the mass."""
    from simulator.report.i18n import mass_text, ntr, number_text

    if exact:
        return tr("exact answers (dropped mass at most {m})").format(m=mass_text(dropped))
    return ntr(
        "{n} trial each, seed {seed}, same random streams",
        "{n} trials each, seed {seed}, same random streams",
        trials,
    ).format(n=number_text(trials), seed=seed)


def horizons_note(a: float, b: float) -> str | None:
    """What a comparison of two horizons must say: 'heals' and 'still wounded' read apart.

    Args:
        a: A's horizon, in seconds.
        b: B's horizon, in seconds.

    Returns:
        The note's words (without the ``note:`` prefix), or None when the horizons agree.
    """
    if a == b:
        return None
    from simulator.report.i18n import duration_text
    from simulator.rules.durations import format_duration

    # as the scenario writes it in English (10d), in French units as the summaries give
    # durations (1w is 7 j), as validate does
    said = format_duration if current_language() == "en" else duration_text
    return tr(
        "A runs {a} and B {b}: 'heals' and 'still wounded' are read at different horizons; "
        "compare with the same horizon (--set-a/--set-b horizon=...)"
    ).format(a=said(a), b=said(b))


def overlap_note(needed: int | None) -> str:
    """A balance's note on a bracket whose sampled interval holds the target (terminal, page).

    Args:
        needed: About how many trials at each value would separate the two neighbours, or
            None (0) when an estimate equals the target.

    Returns:
        The note's words, without the ``note:`` prefix.
    """
    from simulator.report.i18n import ntr, number_text

    more = (
        ntr(
            "about {n} trial at each value would separate them",
            "about {n} trials at each value would separate them",
            needed,
        ).format(n=number_text(needed))
        if needed
        else tr("an estimate equals the target")
    )
    return tr(
        "an interval holds the target, so sampling cannot tell on which side it lies; {more}"
    ).format(more=more)


def calibration_how(exact: bool, trials: int, seed: object, evaluations: int, checked: int) -> str:
    """A calibration's method line (terminal and page): exact, or trials, seed and check."""
    from simulator.report.i18n import ntr, number_text

    if exact:
        return tr("exact; {n} evaluations").format(n=number_text(evaluations))
    return ntr(
        "Monte Carlo: {trials} trial per evaluation, seed {seed}, the same seeds at every "
        "evaluation; {n} evaluations; checked on {check} fresh trials",
        "Monte Carlo: {trials} trials per evaluation, seed {seed}, the same seeds at every "
        "evaluation; {n} evaluations; checked on {check} fresh trials",
        trials,
    ).format(
        trials=number_text(trials),
        seed=seed,
        n=number_text(evaluations),
        check=number_text(checked),
    )


def titled(name: str, overrides: Sequence[str], source: str | None = None) -> str:
    """A study's name for titles: ``"Ambush (with first_aid.level=3)"``.

    ``source``, the scenario's file, is told first when given: ``"Ambush (ambush2.toml)"``
    (two files of one name, compared).
    """
    parts = [source] if source else []
    if overrides:
        parts.append(f"{tr('with')} {', '.join(overrides)}")
    return f"{name} ({', '.join(parts)})" if parts else name


def scenario_text(scenario: Scenario) -> tuple[str, str]:
    """A scenario's name and description in the language in force (as written by default).

    A scenario may give ``name_fr`` and ``description_fr``: ``--lang fr`` shows them.
    """
    if current_language() == "fr":
        return (
            scenario.name_fr or scenario.name,
            scenario.description_fr or scenario.description,
        )
    return scenario.name, scenario.description


def percent(p: float, decimals: int = 1) -> str:
    """A share as a percent with one decimal (or ``decimals``), e.g. ``"23.4%"``.

    A share that the rounding would show as 0% or 100% without being exactly so keeps two
    significant digits of its distance to them (``"0.018%"``, ``"99.95%"``): an interval
    never reads "0.0%–0.0%", and a share never reads above its own upper bound. In French:
    ``"23,4 %"`` (decimal comma, narrow no-break space).
    """
    return percent_text(p, decimals)


def days_hours(hours: float) -> str:
    """A duration in hours as days and hours, e.g. ``"17 d 4 h"`` (hours under a day).

    Rounded to the hour once, first: 47.7 hours is ``"2 d"``, never ``"1 d 24 h"``.
    """
    return hours_text(hours)


def answer(summary: Summary, *, mental: bool = False) -> str:
    """A one-line answer a designer reads at a glance, from a JSON summary.

    Args:
        summary: A JSON summary (:meth:`StudyResult.summary_json`).
        mental: Whether the scenario has mental wounds: the share incoherent is then
            always told, with its interval, even when it is zero.
    """
    if summary.get("method") == "exact":
        return _exact_answer(summary, mental=mental)
    out = ruled_out(summary)
    if "dead" in out:
        text = tr("cannot die under these rules")
    else:
        lo, hi = summary["p_dead_ci"]
        text = tr("dies in {p} of campaigns (95% CI {low}–{high})").format(
            p=percent(summary["p_dead"]), low=percent(lo), high=percent(hi)
        )
    if "healed" in out:
        text += tr(", cannot heal by the horizon")
    else:
        lo, hi = summary["p_healed_ci"]
        text += tr(", heals in {p} ({low}–{high})").format(
            p=percent(summary["p_healed"]), low=percent(lo), high=percent(hi)
        )
    interval = ""
    if "p_incoherent_ci" in summary:
        lo, hi = summary["p_incoherent_ci"]
        interval = f" ({percent(lo)}–{percent(hi)})"
    text += _after_heals(summary, percent, mental, interval)
    return text + "." + _what_kills(summary, 1)


def ruled_out(summary: Summary) -> frozenset[str]:
    """The outcomes the rules put out of reach (the summary's ``impossible``), else none.

    Only where the summary agrees: a share above zero is told as a share whatever the key
    says (a summary edited by hand, or written by another version).
    """
    said = summary.get("impossible") or ()
    return frozenset(o for o in said if summary.get(f"p_{o}", 1.0) == 0.0)


def _after_heals(
    summary: Summary, share: Callable[[float], str], mental: bool, interval: str = ""
) -> str:
    """The answer's clauses after "heals", the same sampled or exact.

    The median time to heal, the share still wounded, the share incoherent (with mental
    wounds, even none) and then its ``interval``.
    """
    text = ""
    median = summary["median_time_to_heal_h"]
    if median is not None:
        text += tr(", median time to heal {t}").format(t=days_hours(median))
    if summary["p_wounded"] > 0:
        text += tr("; still wounded at the end in {p}").format(p=share(summary["p_wounded"]))
    if "incoherent" in ruled_out(summary):
        if mental:
            text += tr("; cannot end incoherent")
    elif summary["p_incoherent"] > 0 or mental:
        text += tr("; incoherent in {p}").format(p=share(summary["p_incoherent"])) + interval
    return text


def _what_kills(summary: Summary, decimals: int, exact: bool = False) -> str:
    """Q3: the leading causes of death as a sentence after the answer (empty with none)."""
    from simulator.report.causes import causes_phrase

    causes = causes_phrase(summary, decimals, exact=exact)
    return tr(" What opened the way to death: {causes}.").format(causes=causes) if causes else ""


def _exact_answer(summary: Summary, *, mental: bool) -> str:
    """:func:`answer` for an exact summary: four decimals, as every output shows an exact share.

    No sampling interval; the dropped mass as the terminal gives it (two digits).
    """
    from simulator.report.i18n import exact_percent_text as percent4
    from simulator.report.i18n import mass_text

    out = ruled_out(summary)
    if "dead" in out:
        text = tr("cannot die under these rules")
    else:
        text = tr("dies in {p} of campaigns (exact)").format(p=percent4(summary["p_dead"]))
    if "healed" in out:
        text += tr(", cannot heal by the horizon")
    else:
        text += tr(", heals in {p}").format(p=percent4(summary["p_healed"]))
    text += _after_heals(summary, percent4, mental)
    dropped = mass_text(summary.get("dropped_mass", 0.0))
    return text + tr(" (dropped mass {m}).").format(m=dropped) + _what_kills(summary, 4, True)


def conflict_lines(
    conflicts: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    lang: str | None = None,
) -> list[str]:
    """The conflicts of ``calibrate`` in words: who pulls against whom, and on which keys.

    Two targets that pull against each other on the same keys are one line, not two
    ("#2 and #3 pull against each other (on …)"); the JSON keeps each direction.

    Args:
        conflicts: ``{"target", "against", "keys"}`` items (:func:`calibrate`'s).
        labels: Each target's label, by its number.
        lang: The language (None: the one in force).
    """
    told: set[tuple[int, int]] = set()
    lines = []
    pairs = {(c["target"], c["against"]): list(c["keys"]) for c in conflicts}
    for (target, against), keys in pairs.items():
        if (target, against) in told:
            continue
        told.add((target, against))
        if pairs.get((against, target)) == keys:
            told.add((against, target))
            template = tr("{a} and {b} pull against each other (on {keys})", lang)
            first, second = sorted((target, against))
            lines.append(template.format(a=labels[first], b=labels[second], keys=", ".join(keys)))
            continue
        lines.append(
            tr("{against} pulls against {target} (on {keys})", lang).format(
                against=labels[against], target=labels[target], keys=", ".join(keys)
            )
        )
    return lines
