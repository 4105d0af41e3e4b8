"""One campaign of a scenario, found and told: ``trace`` and the workbench's Tell.

:func:`find_trial` runs trials until one ends as asked (``trace --find``); :func:`story` runs
the chosen one with its trace and hands it to :mod:`simulator.report.campaign`, which only
words it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from simulator.errors import N_, Phrase, UserError, phrase
from simulator.scenario.model import Scenario
from simulator.studies.reachable import impossible

FIND_LIMIT = 100_000
"""How many trials ``trace --find`` looks through before giving up."""

REFERENCE_FIND_LIMIT = 10_000
"""The same for ``trace --reference --find``: the event-by-event engine is some 400 times
slower, so ten seconds or so where the kernel's search takes a fraction of one."""

FIND_SECONDS = 20.0
"""The wall-clock seconds a search may take, whichever engine, whatever its count: a trial of
a long campaign may take a second of the reference (a hundred days of tests every 15 minutes),
and ten thousand of them hours. The search stops at the first trial past them, and says so."""

FIND_BLOCK = 2_000
"""The most trials of the kernel looked at together (the first block answers most searches)."""

FIRST_BLOCK = 250
"""The kernel's first block; each next one sized to take about :data:`BLOCK_SECONDS`."""

BLOCK_SECONDS = 0.25
"""About how long one block of the kernel's search takes, so that it stops near its time."""

CONFIDENCE = 0.95
"""The confidence of the upper bound a fruitless search puts on the outcome's chance."""


LAST_INDEX = 2**63 - 1
"""The largest seed or trial index: 64-bit, as a run's (``runner.execution.MAX_SEED``)."""


def find_trial(
    scenario: Scenario,
    seed: int,
    first: int,
    outcome: str,
    *,
    kernel: bool = True,
    flag: bool = True,
) -> int:
    """The first trial index from ``first`` on whose outcome is ``outcome``.

    ``kernel``: the trials of the compiled kernel (``run``'s); False, the event-by-event
    reference's (its own trials). ``flag``: a refusal names ``--find`` (the command line's);
    False, not (the workbench's buttons, where nobody typed it).

    Raises:
        UserError: At once when no trial can end that way (:func:`impossible`); else when
            none of the next :data:`FIND_LIMIT` trials (:data:`REFERENCE_FIND_LIMIT` of the
            reference) ends that way, or none of those looked at within
            :data:`FIND_SECONDS`: it names the trials looked at, bounds the outcome's chance
            and says how to search on.
    """
    from simulator.runner.engines import run_trial

    def refused(problem: Phrase) -> UserError:
        if flag:
            return UserError(
                phrase("--find {outcome}: {problem}", outcome=outcome, problem=problem)
            )
        return UserError(problem)

    # the flag's value as typed; on the workbench's buttons, the word in the page's language
    said: str | Phrase = outcome if flag else Phrase(outcome)
    reason = impossible(scenario, outcome)
    if reason is not None:
        raise refused(
            phrase(
                "no trial of this scenario can end {outcome}: {reason}",
                outcome=said,
                reason=reason,
            )
        )

    stop = min(first + (FIND_LIMIT if kernel else REFERENCE_FIND_LIMIT), LAST_INDEX + 1)
    deadline = time.monotonic() + FIND_SECONDS
    index = first  # the next trial to look at
    if kernel:  # the kernel's trials by blocks, their outcomes only (the same trials as run's)
        from simulator.kernel.engine import kernel_columns
        from simulator.rules.outcome import OUTCOMES

        wanted = OUTCOMES.index(outcome)  # the column's codes: indices into OUTCOMES
        block = FIRST_BLOCK
        while index < stop and (index == first or time.monotonic() < deadline):
            began, end = time.monotonic(), min(index + block, stop)
            codes = kernel_columns(scenario, seed, index, end)["outcome"]
            hits = (codes == wanted).nonzero()[0]
            if len(hits):
                return index + int(hits[0])
            pace = (time.monotonic() - began) / (end - index)  # seconds a trial
            index = end
            block = max(1, min(FIND_BLOCK, int(BLOCK_SECONDS / pace) if pace > 0 else FIND_BLOCK))
    else:
        while index < stop and (index == first or time.monotonic() < deadline):
            if run_trial(scenario, index, seed, kernel=False).outcome == outcome:
                return index
            index += 1
    raise refused(_not_found(said, seed, first, index, stop, flag=flag))


def _not_found(
    outcome: str | Phrase, seed: int, first: int, index: int, stop: int, *, flag: bool
) -> Phrase:
    """A fruitless search's answer: the trials looked at, why it stopped, how to go on.

    ``index``: the first trial not looked at; ``stop``: where the count would have stopped.
    Exit status 2 as any refusal: the command told no campaign, and the person decides.
    """
    searched = index - first
    if index > LAST_INDEX:
        why = phrase(N_("the search stops at the last trial"))
    elif index == stop:
        why = phrase(N_("the search stops after {n} trials"), n=searched)
    else:
        seconds = int(FIND_SECONDS) if float(FIND_SECONDS).is_integer() else FIND_SECONDS
        why = phrase(N_("the search stops after {s} seconds"), s=seconds)
    bound = 1 - (1 - CONFIDENCE) ** (1 / searched)  # none in n trials: the one-sided bound
    chance = float(f"{100 * bound:.2g}")  # as a percent, two significant digits
    shown: float | int = int(chance) if chance.is_integer() else chance  # 31%, not 31.0%
    if index > LAST_INDEX:
        hint = phrase(
            N_("search on with another --seed") if flag else N_("search on with another seed")
        )
    elif flag:  # the index as it is typed after --trial, without thousands
        hint = phrase(N_("search on with --trial {next} or another --seed"), next=str(index))
    else:
        hint = phrase(N_("search on from trial {next} or with another seed"), next=index)
    return phrase(
        N_(
            "none of trials {first}..{last} of seed {seed} ends {outcome} ({why}); if it can "
            "happen, its chance is below {chance}% ({confidence}% confidence); {hint}"
        ),
        first=first,
        last=index - 1,  # the last one looked at
        seed=str(seed),
        outcome=outcome,
        why=why,
        chance=shown,
        confidence=round(100 * CONFIDENCE),
        hint=hint,
    )


def story(
    sc: Scenario, seed: int, chosen: int, *, kernel: bool = True, overrides: Sequence[str] = ()
) -> str:
    """The whole text ``trace`` prints for trial ``chosen`` of ``seed`` (in the language in force).

    The title, who the patient is, how to read the lines, the timeline and the verdict (the
    workbench's trace tells the same). ``kernel`` False: the trial of the event-by-event
    reference on SimPy (``trace --reference``), every test told on its own, so said in the
    title. ``overrides``: the ``--set`` lines ``sc`` was loaded with, named in the title as
    every study's title names them (``"Ambush (with first_aid.level=3)"``).
    """
    from simulator.report.campaign import story_text
    from simulator.runner.engines import trace_trial

    record, lines = trace_trial(sc, seed=seed, trial=chosen, kernel=kernel)
    return story_text(sc, seed, chosen, record, lines, reference=not kernel, overrides=overrides)


__all__ = ["FIND_LIMIT", "LAST_INDEX", "find_trial", "impossible", "story"]
