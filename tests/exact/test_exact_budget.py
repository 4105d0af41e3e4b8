"""The exact engine's replayed effects and its budgets (issue 18).

An event's effect on a state is computed once and replayed at later instants
(:mod:`simulator.exact.timeline`); these tests compute every effect afresh at every instant
instead and ask for the same answer, on every scenario of ``scenarios/`` and on readings that
move the clocks (neglected watches, fractional pain recovery, resumed rests, faints, activities).
The budgets refuse with exit 2's message: how far the computation got, and what to do.
"""

from __future__ import annotations

import math
import re
import time

import pytest

from simulator.errors import ExactLimitError, UserError
from simulator.exact import solve
from simulator.exact.engine import Engine
from simulator.scenario.reading import read_scenario_mapping, scenario_with_overrides
from tests.support import REPO, harmonies_sim

SCENARIOS = sorted((REPO / "scenarios").glob("*.toml"))

READINGS = [
    ("geraldine", ["horizon=3d", "watch.neglect_probability=0.05"]),
    ("geraldine", ["horizon=3d", "rules.pain_recovery_per_hour=0.5"]),
    ("geraldine", ["horizon=10d", "rules.rest_after_unstable=resume"]),
    ("geraldine", ["horizon=10d", "rules.rest_per_level=cumulative"]),
    ("geraldine", ["horizon=2d", "rules.open_roll=true", "rules.tie_succeeds=false"]),
    ("geraldine", ["horizon=2d", "first_aid.self=true", "first_aid.max_attempts=20"]),
    ("field_medic", ["horizon=2d", "rules.stable_survival_tests=false"]),
]


def load(stem: str, overrides: list[str]):
    path = REPO / "scenarios" / f"{stem}.toml"
    return scenario_with_overrides(read_scenario_mapping(path), overrides, str(path))


def both(scenario):
    kept = Engine(scenario).run()
    fresh = Engine(scenario, replay=False).run()
    return kept, fresh


def assert_same(kept, fresh):
    assert kept.states == fresh.states
    for outcome, p in fresh.outcomes.items():
        assert kept.outcomes[outcome] == pytest.approx(p, rel=1e-12, abs=1e-15)
    for name, value in fresh.expected.items():
        assert kept.expected[name] == pytest.approx(value, rel=1e-12, abs=1e-15)
    assert kept.dropped == pytest.approx(fresh.dropped, rel=1e-9, abs=1e-15)
    for outcome, times in fresh.times.items():
        assert kept.times[outcome].keys() == times.keys()
    assert kept.stabilised.keys() == fresh.stabilised.keys()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_replayed_effects_give_the_answer_of_effects_computed_at_every_instant(path):
    assert_same(*both(load(path.stem, ["horizon=2d"])))


@pytest.mark.parametrize(("stem", "overrides"), READINGS, ids=lambda x: str(x))
def test_replayed_effects_hold_under_readings_that_move_the_clocks(stem, overrides):
    kept, fresh = both(load(stem, overrides))
    assert_same(kept, fresh)


def test_a_time_budget_refuses_saying_how_far_it_got():
    scenario = load("geraldine", [])
    started = time.perf_counter()
    with pytest.raises(UserError) as refused:
        solve(scenario, max_seconds=0.2)
    assert time.perf_counter() - started < 5.0  # checked after every instant
    text = str(refused.value)
    assert "time budget (0.2 s of CPU)" in text and "campaign time" in text and "of 1,440 h" in text
    assert "Monte Carlo" in text and "states" in text
    # a notebook that falls back to sampling catches the kind, not the words
    assert isinstance(refused.value, ExactLimitError) and refused.value.limit == "time"
    assert 0 <= refused.value.reached_h < refused.value.horizon_h == 1440


def test_the_state_budget_refuses_with_the_message_of_before():
    with pytest.raises(UserError) as refused:
        solve(load("geraldine", []), max_states=1000)
    text = str(refused.value)
    assert "over --max-states (1,000); raise --max-states or --eps" in text
    assert "up to campaign time" in text and "Monte Carlo (drop --exact)" in text
    # the count said is the one over the budget (carried and held), never one below it
    total = re.search(r"([\d,]+) states in all, over", text)
    assert total is not None and int(total[1].replace(",", "")) > 1000
    assert isinstance(refused.value, ExactLimitError) and refused.value.limit == "states"
    assert refused.value.states > 0
    import pickle

    again = pickle.loads(pickle.dumps(refused.value))  # a process pool sends it back whole
    assert (str(again), again.limit, again.states) == (text, "states", refused.value.states)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan])
def test_a_time_budget_must_be_positive(bad):
    with pytest.raises(UserError, match="max_seconds"):
        solve(load("geraldine", ["horizon=1h"]), max_seconds=bad)


def test_the_command_line_has_the_default_time_budget_and_raises_it(tmp_path):
    from simulator.studies.method import DEFAULT_TIME_BUDGET, Exact

    assert Exact().time_budget == DEFAULT_TIME_BUDGET == 8.0
    path = REPO / "scenarios" / "careless_watches.toml"
    done = harmonies_sim("run", path, "--exact", "--time-budget", "0.3", "--out", tmp_path / "o")
    assert done.returncode == 2, done.stderr
    assert "over its time budget (0.3 s of CPU)" in done.stderr and "campaign time" in done.stderr
    assert "Traceback" not in done.stderr
    shown = harmonies_sim("run", "--help")
    assert "--time-budget" in shown.stdout and "(default 8)" in shown.stdout


def test_the_time_budget_counts_the_engine_s_own_work_not_another_thread_s(monkeypatch):
    """The budget counted the process's CPU seconds: in the workbench's server, another
    request's work (another page's answer, a trace) ran meanwhile and made a Solve's exact
    engine give up on a scenario it answers alone in a fraction of its budget."""
    import threading

    from simulator.exact.timeline import Timeline

    scenario = load("geraldine", ["horizon=1h"])
    alone = time.thread_time()
    solve(scenario, max_seconds=60)
    own = time.thread_time() - alone
    budget = max(1.0, 10 * own)  # this engine's own work fits it ten times over
    record = Timeline._record
    burned: list[float] = []

    def burn() -> None:  # another request's work: more than the budget of CPU
        start = time.thread_time()
        while time.thread_time() - start < budget + 0.5:
            pass
        burned.append(time.thread_time() - start)

    def busy_meanwhile(self, *args):
        if not burned:  # while the engine runs (it waits, spending none of its own)
            other = threading.Thread(target=burn)
            other.start()
            other.join()
        return record(self, *args)

    monkeypatch.setattr(Timeline, "_record", busy_meanwhile)
    answer = solve(scenario, max_seconds=budget)  # answered: its own work is within budget
    assert burned and burned[0] > budget
    assert answer.states > 0
