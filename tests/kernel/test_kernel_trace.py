"""The compiled kernel's trace speaks in the templates of the engine of objects (issue 21 × 18).

Each line the kernel's records are decoded into (:mod:`simulator.kernel.telling`) is a
template of :mod:`simulator.engine.trace_templates` and its values, as the engine's ``say``
makes it: so ``trace --lang fr`` on a scenario the kernel runs is French, and the kernel uses
the same templates, with the same placeholders, as the engines of Python objects for the
same events.

The samples have fixed seeds. The event-by-event SimPy engine tells every test; the fast
engines (the kernel) tell a run of skipped tests in one line
(``×n survival tests passed``, ``×n first aid attempts failed``), which stands for the
SimPy engine's single-test line; the comparison with SimPy maps each run to that line.
A template the kernel uses must be one the engines of objects use over a larger sample; a
template the SimPy engine uses in at least 10 % of its trials must be in the kernel's sample
of 200 trials (missed by chance with probability below 0.9**200, about 7e-10).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from simulator.engine import trace_templates as tpl
from simulator.engine.trace import TraceLine, format_trace
from simulator.errors import Phrase
from simulator.report.i18n import language
from simulator.report.timeline import trace_text
from simulator.rules.levels import MENTAL_LEVELS
from simulator.runner.engines import trace_trial
from simulator.scenario.reading import load_scenario
from tests.cli.test_french_commands import ENGLISH
from tests.support import harmonies_sim

ROOT = Path(__file__).resolve().parents[2]
KERNEL_SCENARIOS = tuple(sorted(path.stem for path in (ROOT / "scenarios").glob("*.toml")))
"""Every scenario of ``scenarios/``: the kernel runs them all (the basic ruleset and mental
wounds included)."""
SEED = 3
KERNEL_TRIALS, REFERENCE_TRIALS = 200, 1000

TEMPLATES = {
    value if isinstance(value, str) else value[0]
    for name, value in vars(tpl).items()
    if name.isupper() and isinstance(value, str | tuple) and name not in ("WORDS",)
}
"""Every template of the module (the singular of a counted one, as a line carries it)."""

SINGLE = {tpl.SURVIVAL_RUN[0]: tpl.SURVIVAL_PASSED, tpl.FIRST_AID_RUN[0]: tpl.FIRST_AID_FAILS}
"""The SimPy engine's line for one test of a run the kernel tells in one line."""

TRACE_ENGLISH = (
    *ENGLISH,
    "receives",
    "worsens",
    "faint",
    "survival",
    "passed",
    "failed",
    "first aid",
    "attempt",
    "attempts",
    "rest",
    "begins",
    "watches",
    "neglected",
    "healing",
    "pain",
    "recovered",
    "floor",
    "since",
    "unconscious",
    "until",
    "succeeds",
    "every",
    "level",
    "relapses",
    "holds",
    "rough",
    "activity",
    "reached",
    "light",
    "critical",
    "unstable",
    "worst",
    "missed",
    "roll",
    "margin",
)
"""English words of the trace templates that are no French word (and the commands' list)."""

TIMELINE = re.compile(r"^\s*\d+ ?[dj] \d\d:\d\d", re.MULTILINE)


def english_in(text: str) -> set[str]:
    """The words of :data:`TRACE_ENGLISH` in ``text`` (whole words, as the commands' test)."""
    return {w for w in TRACE_ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}


@cache
def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / f"{name}.toml")


@cache
def traces(name: str, n: int, **engine: bool) -> tuple[list[TraceLine], ...]:
    return tuple(trace_trial(scenario(name), SEED, t, **engine)[1] for t in range(n))


def templates(lines: list[TraceLine]) -> set[str]:
    """The templates of the lines and of the phrases inside their values."""
    found = set()
    for line in lines:
        found.add(line.template)
        found |= {v.template for _, v in line.args if isinstance(v, Phrase)}
    return found


def per_trial(name: str, n: int, **engine: bool) -> Counter[str]:
    """In how many of ``n`` trials each template is used."""
    return Counter(t for lines in traces(name, n, **engine) for t in templates(lines))


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.mark.parametrize("name", KERNEL_SCENARIOS)
def test_every_kernel_line_is_a_template_with_its_values(name):
    for lines in traces(name, 40):
        for line in lines:
            assert line.template in TEMPLATES, (name, line.rule, line.template)
            names = {key for key, _ in line.args}
            assert names == placeholders(line.template), (line.template, names)
            for key, value in line.args:
                if isinstance(value, Phrase):
                    assert value.template in TEMPLATES, (name, key, value.template)
                    assert {k for k, _ in value.args} == placeholders(value.template)


@pytest.mark.parametrize("name", KERNEL_SCENARIOS)
def test_the_kernel_uses_the_templates_and_values_of_the_reference(name):
    kernel = per_trial(name, KERNEL_TRIALS)
    reference = per_trial(name, REFERENCE_TRIALS, kernel=False)
    assert {SINGLE.get(t, t) for t in kernel} <= set(reference), set(kernel) - set(reference)
    if reference[tpl.SURVIVAL_PASSED]:  # not under the basic ruleset, nor without a physical wound
        assert kernel[tpl.SURVIVAL_RUN[0]], "the kernel tells runs of survival tests"

    def names(lines_of_trials) -> dict[str, set[tuple[str, ...]]]:
        found: dict[str, set[tuple[str, ...]]] = {}
        for lines in lines_of_trials:
            for line in lines:
                found.setdefault(line.template, set()).add(tuple(k for k, _ in line.args))
        return found

    ours, theirs = (
        names(traces(name, KERNEL_TRIALS)),
        names(traces(name, REFERENCE_TRIALS, kernel=False)),
    )
    for template, arg_names in ours.items():
        if template not in SINGLE:  # a run's line has its own values (n, times), checked above
            assert arg_names == theirs[template], template


@pytest.mark.parametrize("name", KERNEL_SCENARIOS)
def test_the_kernel_tells_the_events_of_the_simpy_engine_with_its_templates(name):
    kernel = Counter()
    for template, count in per_trial(name, KERNEL_TRIALS).items():
        kernel[SINGLE.get(template, template)] += count
    simpy = per_trial(name, REFERENCE_TRIALS, kernel=False)
    assert set(kernel) <= set(simpy), set(kernel) - set(simpy)
    frequent = {t for t, trials in simpy.items() if trials >= REFERENCE_TRIALS / 10}
    assert frequent <= set(kernel), frequent - set(kernel)


@pytest.mark.parametrize("name", KERNEL_SCENARIOS)
def test_kernel_traces_of_many_trials_hold_no_english_in_french(name):
    english, left = set(), set()
    for lines in traces(name, 40):
        english |= english_in(format_trace(lines))
        with language("fr"):
            left |= english_in(trace_text(lines))
    assert len(english) >= 10, sorted(english)
    assert not left, f"{name}: English left in French: {sorted(left)}"


@pytest.mark.parametrize("name", KERNEL_SCENARIOS)
def test_trace_lang_fr_on_a_kernel_scenario_holds_no_english(name):
    def timeline(lang: str) -> str:
        done = harmonies_sim("trace", ROOT / "scenarios" / f"{name}.toml", "--lang", lang)
        assert done.returncode == 0, done.stderr
        start = TIMELINE.search(done.stdout)
        assert start, done.stdout
        return done.stdout[start.start() :]  # the header holds the scenario's own words

    english = english_in(timeline("en"))
    assert english, f"{name}: the English trace holds none of the words looked for"
    left = english_in(timeline("fr"))
    assert not left, f"{name}: English left under --lang fr: {sorted(left)}"


OVERFLOW_DEATH = """
name = "Full up"
horizon = "1h"
[patient]
cp_rs = 30
rs_it = 30
[[injuries]]
at = "0s"
level = "light"
count = 4
[[injuries]]
at = "0s"
level = "grave"
count = 2
[[injuries]]
at = "0s"
level = "critical"
[[injuries]]
at = "1s"
level = "light"
"""


@pytest.mark.parametrize("kernel", [True, False])
def test_a_fatal_overflow_is_told_past_critical_not_past_the_level_received(tmp_path, kernel):
    # W1: every level full, a fifth light wound climbs past critical: the blow is fatal there
    path = tmp_path / "full.toml"
    path.write_text(OVERFLOW_DEATH, encoding="utf-8")
    record, lines = trace_trial(load_scenario(path), 0, 0, kernel=kernel)
    text = trace_text(lines)
    assert record.outcome == "dead"
    assert "receives a light wound: past critical, the blow leaves the patient dead" in text
    assert "past light" not in text


@pytest.mark.parametrize("kernel", [True, False])
@pytest.mark.parametrize("name", ["hydra", "careless_watches", "geraldine"])
@pytest.mark.parametrize("rate", ["0.3", "0.142857142857"])
def test_p1_is_told_at_a_full_stable_hour_in_both_engines(name, kernel, rate):
    # P1 recovers at each full stable hour: its line, whenever the engine applies it, is
    # stamped a whole number of hours after "stable since" (the reference once stamped the
    # next event's time), never after the event that applied it (a rate of more than nine
    # decimals once added an hour: the line came after that event, even after death).
    sc = load_scenario(
        ROOT / "scenarios" / f"{name}.toml", [f"rules.pain_recovery_per_hour={rate}"]
    )
    told = 0
    for trial in range(40):
        lines = trace_trial(sc, SEED, trial, kernel=kernel)[1]
        for i, line in enumerate(lines):
            if line.template == tpl.PAIN_RECOVERED:
                since = dict(line.args)["t"]
                hours = (line.time - since) / 3600
                assert hours == round(hours) and hours >= 1, (trial, line)
                assert all(line.time >= earlier.time for earlier in lines[:i]), (trial, line)
                assert all(line.time <= later.time for later in lines[i + 1 :]), (trial, line)
                told += 1
    assert told > 0


@pytest.mark.parametrize("trigger", [1.0, 0.5])
def test_a_run_of_skipped_tests_tells_the_mental_penalty_it_was_drawn_with(trigger):
    """A run's line (``×n survival tests passed``) left M1's penalty out where each test of
    the run was taken with it: a designer read that the shock wound did not count. It is
    told when every test of the run had it (``trigger_probability`` 1); drawn test by test
    (between 0 and 1), the tests of a run differ, and the line tells none."""
    import tomllib

    from simulator.kernel.engine import kernel_trace
    from simulator.scenario.reading import scenario_from_mapping
    from tests.support import tiny_scenario

    text = tiny_scenario() + '\n[[injuries]]\nat = "0s"\nlevel = "shock"\n'
    text += f"\n[rules]\ntrigger_probability = {trigger}\n"
    scenario = scenario_from_mapping(tomllib.loads(text), "shaken.toml")
    _, lines = kernel_trace(scenario, 1, 0)
    told = format_trace(lines)
    runs = [line for line in told.splitlines() if "×" in line and "survival test" in line]
    assert runs, told
    with_mental = [line for line in runs if "shock -1" in line]
    if trigger == 1.0:
        assert with_mental, told  # the shock is held for the first days of this trial
    else:
        assert not with_mental, told


def test_a_patient_of_many_wounds_of_a_level_is_told_with_all_of_them():
    """A1's line told the wounds from a number packing each level's count in base 16: twenty
    light wounds (a maximum raised to 40) were told as ``4 light, 1 grave`` and -7, and the
    margin under them did not add up to the kernel's. Each level's count is a digit of a base
    larger than any maximum the scenario allows."""
    import tomllib

    from simulator.kernel.decisions import COUNT_BASE, MENTAL_BASE
    from simulator.kernel.engine import kernel_trace
    from simulator.scenario.checks import INT_LIMIT
    from simulator.scenario.reading import scenario_from_mapping

    text = """
name = "Many light wounds"
horizon = "1d"

[patient]
cp_rs = 8
rs_it = 8

[patient.maxima]
light = 40

[[injuries]]
at = "0s"
level = "light"
count = 20

[first_aid]
level = 15
start = "5min"
interval = "5min"
"""
    scenario = scenario_from_mapping(tomllib.loads(text), "many.toml")
    _, lines = kernel_trace(scenario, 0, 0)
    told = format_trace(lines)
    aid = [line for line in told.splitlines() if "first-aid level +15" in line]
    assert aid, told
    assert all("wounds (20 light) -20" in line for line in aid), told
    assert "grave" not in told, told
    assert COUNT_BASE > INT_LIMIT and MENTAL_BASE > INT_LIMIT


def test_each_mental_penalty_present_is_told_by_its_wound_as_the_reference_tells_it():
    """The kernel's trace told M1's penalties present at a test as their sum (``mental -6``)
    where the SimPy engine names each wound's (``trauma -3, trauma -3``): drawn per wound at
    ``trigger_probability`` 0.5, which were present is what a designer reads the line for.
    Every mental modifier of the kernel's trace is a wound's label with its standing penalty,
    and the sample holds lines with several, and lines with fewer than the wounds held."""
    from simulator.kernel.engine import kernel_trace

    scenario = load_scenario(ROOT / "scenarios" / "shaken.toml")
    penalty = {lv.label: int(scenario.table.rows[lv].difficulty) for lv in MENTAL_LEVELS}
    seen: Counter[int] = Counter()
    for trial in range(40):
        for line in kernel_trace(scenario, SEED, trial)[1]:
            if line.test is None:
                continue
            names = [name for name, _ in line.test.modifiers]
            assert "mental" not in names, line
            mental = [(n, v) for n, v in line.test.modifiers if n in penalty]
            assert all(v == penalty[n] for n, v in mental), line
            seen[len(mental)] += 1
    assert seen[0] and seen[1] and sum(k for k in seen if k >= 2), seen


RECEIVED = """
name = "Received"
horizon = "1h"
ruleset = "{ruleset}"
[patient]
cp_rs = 30
rs_it = 30
[[injuries]]
at = "0s"
level = "{level}"
count = {count}
"""


@pytest.mark.parametrize("kernel", [True, False])
@pytest.mark.parametrize(
    ("ruleset", "level", "count", "rule"),
    [
        ("arpeges", "light", 1, "W2"),  # W2: added unstable, with pain
        ("basic", "light", 1, "B1"),  # B1-B3: no stability, no pain
        ("basic", "shock", 1, "B1"),
        ("arpeges", "shock", 1, "M1"),  # M1, M3: its own track, arriving stable
        ("basic", "critical", 2, "B1"),  # the second is fatal (B1's fatal blow)
        ("arpeges", "psychosis", 2, "M1"),  # the second leaves the patient incoherent
    ],
)
def test_a_wound_received_names_the_rule_of_its_ruleset_and_track(
    tmp_path, kernel, ruleset, level, count, rule
):
    # W2 says a wound is added unstable with pain: a wound of the basic ruleset (B1) or a
    # mental one (M1) is told by its own rule, in both engines; only the id told changes
    path = tmp_path / "received.toml"
    path.write_text(RECEIVED.format(ruleset=ruleset, level=level, count=count), "utf-8")
    lines = trace_trial(load_scenario(path), 0, 0, kernel=kernel)[1]
    received = [ln for ln in lines if "receives" in trace_text([ln])]
    assert len(received) == count
    assert {ln.rule for ln in received} == {rule}
