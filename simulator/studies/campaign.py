"""One campaign of a scenario, found and told: ``trace`` and the workbench's Tell.

:func:`find_trial` runs trials until one ends as asked (``trace --find``); :func:`story` runs
the chosen one with its trace and hands it to :mod:`simulator.report.campaign`, which only
words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.errors import Phrase, UserError, phrase
from simulator.scenario.model import Scenario
from simulator.studies.reachable import impossible

FIND_LIMIT = 100_000
"""How many trials ``trace --find`` looks through before giving up."""

REFERENCE_FIND_LIMIT = 10_000
"""The same for ``trace --reference --find``: the event-by-event engine is some 400 times
slower, so ten seconds or so where the kernel's search takes a fraction of one."""

FIND_BLOCK = 2_000
"""The kernel's trials looked at together (the first block answers most searches)."""


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
            reference) ends that way.
    """
    from simulator.runner.engines import run_trial

    def refused(problem: Phrase) -> UserError:
        if flag:
            return UserError(
                phrase("--find {outcome}: {problem}", outcome=outcome, problem=problem)
            )
        return UserError(problem)

    reason = impossible(scenario, outcome)
    if reason is not None:
        raise refused(
            phrase(
                "no trial of this scenario can end {outcome}: {reason}",
                outcome=outcome,
                reason=reason,
            )
        )

    stop = min(first + (FIND_LIMIT if kernel else REFERENCE_FIND_LIMIT), LAST_INDEX + 1)
    if kernel:  # the kernel's trials by blocks, their outcomes only (the same trials as run's)
        from simulator.kernel.engine import kernel_columns
        from simulator.rules.outcome import OUTCOMES

        wanted = OUTCOMES.index(outcome)  # the column's codes: indices into OUTCOMES
        for start in range(first, stop, FIND_BLOCK):
            codes = kernel_columns(scenario, seed, start, min(start + FIND_BLOCK, stop))["outcome"]
            hits = (codes == wanted).nonzero()[0]
            if len(hits):
                return start + int(hits[0])
    else:
        for index in range(first, stop):
            if run_trial(scenario, index, seed, kernel=False).outcome == outcome:
                return index
    raise refused(
        phrase(
            "none of trials {first}..{last} of seed {seed} ends {outcome}; expected an "
            "outcome this scenario can have",
            outcome=outcome,
            first=first,
            last=stop - 1,  # the last one searched
            seed=str(seed),
        )
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
