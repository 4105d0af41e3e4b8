"""The kernel runs the basic ruleset and mental wounds with the laws of the SimPy reference (#29).

For ``scenarios/geraldine_basic.toml``, ``scenarios/shaken.toml`` and the made-up scenarios of
``tests/support/made_up.py`` (mental and physical wounds together with penalties present half
the time, the basic ruleset with mental wounds (B6), mental wounds without a healer, a
critical wound beside a trauma, injuries and activities listed out of time order), the
compiled kernel's trials are compared with the event-by-event engine on SimPy: outcome and
cause shares, times, every count (two-sample tests of ``tests/support/same_laws.py``, fixed
seeds, tolerance from the standard error). The same comparison catches a different law: the
mental penalties always present instead of half the time.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from simulator.kernel import engine as kernel
from simulator.runner.engines import run_trial
from simulator.scenario.reading import load_scenario
from tests.support.made_up import MADE_UP, made_up
from tests.support.same_laws import cause_differences, differences

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # tens of thousands of trials per scenario, on both engines

KERNEL_N, REFERENCE_N = 30_000, 8_000
KERNEL_SEED, REFERENCE_SEED = 20261229, 20261230
SHIPPED = ("geraldine_basic", "shaken")


def _scenario(name: str):
    if name in MADE_UP:
        return made_up(name)
    return load_scenario(ROOT / "scenarios" / f"{name}.toml")


def _reference(sc) -> list:
    return [run_trial(sc, i, REFERENCE_SEED, kernel=False) for i in range(REFERENCE_N)]


@pytest.mark.parametrize("name", [*SHIPPED, *MADE_UP])
def test_the_kernel_has_the_laws_of_the_simpy_engine(name: str):
    sc = _scenario(name)
    ours = kernel.kernel_records(sc, KERNEL_SEED, 0, KERNEL_N)
    reference = _reference(sc)
    assert differences(ours, reference) + cause_differences(ours, reference) == []


def test_the_made_up_scenarios_reach_what_they_are_for():
    """Each made-up scenario shows what it was written for, so its comparison means something."""
    seen = {}
    for name in MADE_UP:
        records = kernel.kernel_records(made_up(name), KERNEL_SEED, 0, 2000)
        seen[name] = {str(r.outcome) for r in records} | {str(r.cause) for r in records}
    assert {"incoherent", "dead", "mental"} <= seen["mental and physical, out of order"]
    assert {"incoherent", "dead", "wounded", "basic_healing"} <= seen["basic with mental wounds"]
    assert "wounded" in seen["mental wounds without a healer"]
    assert {"dead", "wounded"} <= seen["critical and trauma, penalties half the time"]


def test_a_different_mental_law_is_caught_against_the_reference():
    # The same comparison sees the penalties always present instead of half the time.
    sc = made_up("critical and trauma, penalties half the time")
    always = dataclasses.replace(
        sc, settings=dataclasses.replace(sc.settings, trigger_probability=1.0)
    )
    ours = kernel.kernel_records(always, KERNEL_SEED, 0, KERNEL_N)
    assert differences(ours, _reference(sc)) != []
