"""Every template of a trace line, in one place: the engine fills them, the report words them.

A trace line (:class:`~simulator.engine.trace.TraceLine`) carries its rule id, one of these
English templates and the values of its placeholders, never a finished sentence; the
English text is filled at the last moment (:func:`~simulator.engine.trace.line_text`), and
another language translates the template through its catalogue first
(:mod:`simulator.report.timeline`). A placeholder's name says what its value is
(:data:`KINDS`): ``what...`` a word or phrase that is translated in turn (a level's label,
``"stable"``...), ``what_mods`` the modifiers of a test, ``times`` a run of test times,
``t`` a campaign time, ``d``, ``wait`` and ``every`` durations, ``p`` a signed number;
any other name is a number (pain points, counts).

The templates are marked with :func:`~simulator.errors.N_` (and :func:`~simulator.errors.Nn_`
for the two that count), so that ``pybabel extract`` finds them for the catalogues.
"""

from __future__ import annotations

from simulator.errors import N_, Nn_

KINDS = {
    "what_mods": "modifiers",
    "times": "run",
    "t": "clock",
    "d": "duration",
    "wait": "duration",
    "every": "every",
    "p": "signed",
}
"""What a placeholder's value is, by its name (``what...``: a word; others: a number)."""

# W1, W2, S3, X1, B4: blows (the line of a blow is a phrase; its pain or its end is added)
RECEIVES = N_("receives {what}")
RECEIVES_OVERFLOW = N_("receives {what}, which overflows to {what_final}")
WORSENS = N_("{what} worsens")
WORSENS_TO = N_("{what} worsens to {what_final}")
BLOW_PAIN = N_("{what} (+{n} pain → {total})")
BLOW_FATAL = N_("{what}: past {what_level}, the blow leaves the patient {what_out}")
PLAIN = "{what}"
"""A line that is a phrase alone (a blow without pain): nothing to translate but the phrase."""

# F1, F2
FAINT_PASSED = N_("faint test passed")
FAINT_FAILED = N_("faint test failed: unconscious until {t}")
# O2, G5, P1
HORIZON = N_("horizon reached")
HEALED = N_("no wound left: healed")
PAIN_RECOVERED = N_("pain has recovered {a} → {b} (floor {f}; stable since {t})")
# X1
ACTIVITY = N_("rough physical activity")
ACTIVITY_HOLDS = N_("the {what} wound holds")
ACTIVITY_WORSENS = N_("the {what} wound worsens")
REST_FROM_ZERO = N_("the rest starts again from zero")
# S1-S5
SURVIVAL_PASSED = N_("survival test ({what}) passed")
SURVIVAL_UNSTABLE = N_("survival test ({what}) failed: the worst wound becomes unstable")
SURVIVAL_WORSENS = N_("survival test ({what}) failed: the {what_level} wound worsens")
SURVIVAL_RUN = Nn_(
    "×{n} survival test ({what}) passed, {times} ({what_mods})",
    "×{n} survival tests ({what}) passed, {times} (at the last: {what_mods})",
)
# A1-A4
FIRST_AID_LOST = N_("first aid lost: the patient is unconscious")
FIRST_AID_SUCCEEDS = N_("{what} succeeds: every wound is stable")
FIRST_AID_FAILS = N_("{what} fails")
FIRST_AID_NO_MORE = N_("no more first aid this spell ({n} attempts made)")
FIRST_AID_RUN = Nn_(
    "×{n} {what} attempt failed, {times} ({what_mods})",
    "×{n} {what} attempts failed, {times} ({what_mods})",
)
# R1-R4
REST = N_("{what_begins}: {what_session}; watches every {every}")
REST_BEGINS = N_("rest begins")
REST_GOES_ON = N_("rest goes on ({d} rested)")
SESSION = N_("healing session of the {what} in {wait}")
SESSION_AT_ONCE = N_("healing session of the {what} at once")
"""G3/R4 ``cumulative``/``resume``: the time already rested reaches the heal period."""
NO_SESSION = N_("no healer, so no healing session")
WATCH_NEGLECTED = N_(
    "watch {i} of this rest neglected; survival test {what}; missed-watch penalty now {p}"
)
# G1-G5, M3, B4
HEALED_ONE_LEVEL = N_("{what} heals one level, to {what_final}")
HEALED_GONE = N_("{what} heals and is gone")
RELAPSES = N_("healing fails: {what} relapses")
NEW_REST = N_("a new rest begins")
HEALING_WORSENS = N_("healing fails by 10 or more: {what} worsens")
HEALING_STOPS = N_("healing fails; the tests stop until the next rest")
# the test under a line
ROLL = N_("roll {n}")
MARGIN = N_("margin {n}: {verdict}")
WORDS = (
    N_("success"),
    N_("FAILURE"),
    N_("stable"),
    N_("unstable"),
    N_("passed"),
    N_("failed: every wound becomes unstable"),
    N_("worst"),
    N_("treated"),
    N_("first aid"),
    N_("self-treatment"),
    N_("dead"),
    N_("incoherent"),
)
"""The words that fill a ``what...`` placeholder (with the levels' labels)."""

A_WOUND = {
    "light": N_("a light wound"),
    "grave": N_("a grave wound"),
    "critical": N_("a critical wound"),
    "shock": N_("a shock wound"),
    "trauma": N_("a trauma wound"),
    "psychosis": N_("a psychosis wound"),
}
"""A wound of each level, as the subject of a blow received: a word of its own, so that a
language where mental wounds are nouns (French: « un choc », not « une blessure choc »)
can say it."""
THE_WOUND = {
    "light": N_("the light wound"),
    "grave": N_("the grave wound"),
    "critical": N_("the critical wound"),
    "shock": N_("the shock wound"),
    "trauma": N_("the trauma wound"),
    "psychosis": N_("the psychosis wound"),
}
"""The wound of each level, as the subject of what happens to it (see :data:`A_WOUND`)."""
THE_WOUNDS = {
    "light": N_("light wounds"),
    "grave": N_("grave wounds"),
    "critical": N_("critical wounds"),
    "shock": N_("shock wounds"),
    "trauma": N_("trauma wounds"),
    "psychosis": N_("psychosis wounds"),
}
"""The wounds of a level together (a healing session's), agreed in number in French."""
COUNTED = {
    "light": Nn_("{n} light", "{n} light"),
    "grave": Nn_("{n} grave", "{n} grave"),
    "critical": Nn_("{n} critical", "{n} critical"),
}
"""A count of wounds of a level (A1's modifier), agreed in number in French: « 2 légères »."""


def healed(label: str, lower: str | None) -> tuple[str, dict[str, str]]:
    """G2, M3, B4, B6: the template and words of a wound of ``label`` healing one level.

    ``lower`` is the level it becomes, or ``None`` when it was the lightest of its track and
    is gone.
    """
    if lower is None:
        return HEALED_GONE, {"what": THE_WOUND[label]}
    return HEALED_ONE_LEVEL, {"what": THE_WOUND[label], "what_final": A_WOUND[lower]}


PLURALS = dict([SURVIVAL_RUN, FIRST_AID_RUN])
"""The plural template of each singular one that counts ``{n}``."""
