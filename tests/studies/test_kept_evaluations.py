"""``balance`` and ``sensitivity`` keep each evaluation as it finishes, and resume from them.

CONTRACT.md (Output folders): "the same command again resumes or completes them". An
interrupted study (here: the method raises ``KeyboardInterrupt`` at its n-th scenario, as
Ctrl-C would) leaves its finished evaluations in its output folder; the same call again
evaluates only the others, and writes the very bytes a run in one go writes. Another seed,
scenario or target into the same folder replaces them, never mixed in.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from simulator.scenario.reading import load_scenario
from simulator.studies.balance_study import balance
from simulator.studies.method import Exact, MonteCarlo
from simulator.studies.sensitivity_study import sensitivity
from simulator.studies.statistic import Statistic
from tests.studies.alone import grave_alone, one_worker, write

ALONE = grave_alone(period="2h")

FILES = {
    "balance": ("balance.csv", "balance.json", "kept-evaluations.parquet"),
    "sensitivity": ("sensitivity.csv", "sensitivity.json", "kept-evaluations.parquet"),
}


@pytest.fixture
def scenario(tmp_path: Path) -> str:
    return write(tmp_path, ALONE, "alone.toml")


def study(kind: str, scenario: str, out: Path, seed: int = 4) -> int:
    """Run one study into ``out``; how many scenarios its method evaluated."""
    with one_worker(400, seed) as mc:
        if kind == "balance":
            balance(scenario, "patient.cp_rs=0..14", "p_dead_by_1d=0.3", mc, out=out,
                    figures=False)  # fmt: skip
        else:
            sensitivity(scenario, mc, stat="p_dead_by_1d", out=out, figures=False,
                        keys=["patient.cp_rs", "rules.table.grave.unstable_period",
                              "rules.table.grave.mortality"])  # fmt: skip
        return mc.runs


def interrupted(kind: str, scenario: str, out: Path, after: int, monkeypatch) -> None:
    """The study, stopped as Ctrl-C would stop it once ``after`` scenarios are evaluated."""
    real = MonteCarlo.__call__

    def stopping(self, scenarios, stat):
        if self.runs + len(scenarios) > after:
            raise KeyboardInterrupt
        return real(self, scenarios, stat)

    with monkeypatch.context() as patched:
        patched.setattr(MonteCarlo, "__call__", stopping)
        with pytest.raises(KeyboardInterrupt):
            study(kind, scenario, out)


@pytest.mark.parametrize("kind", sorted(FILES))
def test_an_interrupted_study_resumes_to_the_bytes_of_one_in_one_go(
    kind, scenario, tmp_path, monkeypatch
):
    """Ctrl-C then the same command: only the evaluations not finished are made again."""
    whole = tmp_path / "whole"
    total = study(kind, scenario, whole)
    out = tmp_path / "stopped"
    interrupted(kind, scenario, out, 4, monkeypatch)
    assert (out / "kept-evaluations.parquet").is_file()  # kept as they finished
    made = study(kind, scenario, out)
    assert made == total - 4, (made, total)  # the 4 finished ones are read back
    for name in FILES[kind]:
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name


@pytest.mark.parametrize("kind", sorted(FILES))
def test_another_seed_into_the_folder_is_not_mixed_with_the_kept_evaluations(
    kind, scenario, tmp_path, monkeypatch
):
    """Kept evaluations of seed 4 are another study's for seed 5: replaced, never read."""
    out = tmp_path / "stopped"
    interrupted(kind, scenario, out, 4, monkeypatch)
    fresh = tmp_path / "fresh"
    total = study(kind, scenario, fresh, seed=5)
    assert study(kind, scenario, out, seed=5) == total
    for name in FILES[kind]:
        assert (out / name).read_bytes() == (fresh / name).read_bytes(), name


def test_a_changed_scenario_is_not_mixed_with_the_kept_evaluations(scenario, tmp_path, monkeypatch):
    out = tmp_path / "stopped"
    interrupted("balance", scenario, out, 4, monkeypatch)
    Path(scenario).write_text(grave_alone(period="3h"), encoding="utf-8")
    fresh = tmp_path / "fresh"
    total = study("balance", scenario, fresh)
    assert study("balance", scenario, out) == total
    for name in FILES["balance"]:
        assert (out / name).read_bytes() == (fresh / name).read_bytes(), name


def test_a_completed_study_run_again_reads_every_evaluation_back(scenario, tmp_path):
    """The same command once more: nothing evaluated again, the same files."""
    out = tmp_path / "b"
    study("balance", scenario, out)
    before = {name: (out / name).read_bytes() for name in FILES["balance"]}
    assert study("balance", scenario, out) == 0
    assert {name: (out / name).read_bytes() for name in FILES["balance"]} == before


def test_an_evaluations_key_names_everything_that_decides_its_number(scenario, monkeypatch):
    import simulator
    from simulator.studies.kept import evaluation_key, method_settings

    base = load_scenario(scenario)
    stat = Statistic.parse("p_dead_by_1d")
    sampled = method_settings(MonteCarlo(trials=400, seed=4))
    assert sampled is not None
    key = evaluation_key(base, stat, sampled)
    assert evaluation_key(dataclasses.replace(base, source="elsewhere.toml"), stat, sampled) == key
    assert method_settings(MonteCarlo(trials=400, seed=4, workers=3)) == sampled  # same trials
    others = [
        evaluation_key(dataclasses.replace(base, horizon=base.horizon / 2), stat, sampled),
        evaluation_key(base, Statistic.parse("p_dead"), sampled),
        evaluation_key(base, stat, {**sampled, "seed": 5}),
        evaluation_key(base, stat, {**sampled, "trials": 401}),
        evaluation_key(base, stat, method_settings(Exact()) or {}),
    ]
    assert len({key, *others}) == 1 + len(others)
    monkeypatch.setattr(simulator, "__version__", "0.0.1-older")
    assert evaluation_key(base, stat, sampled) != key  # another version's numbers: not reused


@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_users_file_where_the_kept_evaluations_go_is_refused_untouched(kind, scenario, tmp_path):
    """The folder holds another result of the tool and a file of the user's under the kept
    evaluations' name: the study refuses (exit 2 on the command line), never writes over it."""
    from simulator.errors import UserError
    from simulator.studies.api import run_study

    out = tmp_path / "r"
    run_study(scenario, one_worker(50, 1), out=out, figures=False)
    mine = out / "kept-evaluations.parquet"
    mine.write_text("my notes", encoding="utf-8")
    with pytest.raises(UserError, match=r"kept-evaluations\.parquet"):
        study(kind, scenario, out)
    assert mine.read_text(encoding="utf-8") == "my notes"


def exact_sensitivity(scenario: str, out: Path, calls: list[int], stop: int | None = None):
    """An exact sensitivity whose notch ``unstable_period=1h`` goes over ``max_states``.

    ``calls`` counts the exact engine's evaluations (refused ones included); ``stop``: Ctrl-C
    at that evaluation.
    """
    import warnings

    from simulator.errors import HarmoniesNote

    real = Exact.__call__

    def counting(self, scenarios, stat):
        if stop is not None and len(calls) >= stop:
            raise KeyboardInterrupt
        calls.append(len(scenarios))
        return real(self, scenarios, stat)

    with pytest.MonkeyPatch.context() as patched, warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        patched.setattr(Exact, "__call__", counting)
        sensitivity(scenario, Exact(max_states=100), stat="p_dead_by_1d", out=out,
                    figures=False, keys=["patient.cp_rs", "rules.table.grave.unstable_period",
                                         "rules.table.grave.mortality"])  # fmt: skip
    return [str(w.message) for w in told if issubclass(w.category, HarmoniesNote)]


def test_a_notch_over_the_exact_limits_is_kept_and_not_worked_out_again(scenario, tmp_path):
    """The notch the exact engine gave up on is kept as such: resumed, the study does not
    spend the engine's budget on it again, tells it left out as before, and writes the bytes
    of a run in one go."""
    whole, calls = tmp_path / "whole", []
    said = exact_sensitivity(scenario, whole, calls)
    left_out = [t for t in said if "left out of the sensitivity" in t]
    assert len(left_out) == 1 and left_out[0].startswith("rules.table.grave.unstable_period=1h")
    assert len(calls) == 7  # the scenario, then 3 keys' 2 notches (the 4th call refused)
    out = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        exact_sensitivity(scenario, out, [], stop=5)  # the refused notch and one after it
    again: list[int] = []
    resumed = exact_sensitivity(scenario, out, again)
    assert len(again) == 2  # only the two notches not evaluated yet
    assert [t for t in resumed if "left out of the sensitivity" in t] == left_out
    for name in FILES["sensitivity"]:
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name


def test_a_time_limit_kept_holds_only_for_a_budget_no_larger():
    """The refusal's own advice is to raise the time budget: that study tries again."""
    from simulator.errors import ExactLimitError, phrase
    from simulator.studies.kept import Refused

    over = ExactLimitError(phrase("over {seconds} s", seconds=8.0), "time", 12, 3.5, 24)
    kept = Refused.from_text(Refused.of(over, Exact(time_budget=8)).to_text())
    assert kept == Refused.of(over, Exact(time_budget=8))
    assert str(kept.error()) == "over 8.0 s" and kept.error().limit == "time"
    assert kept.holds_for(Exact(time_budget=8)) and kept.holds_for(Exact(time_budget=2))
    assert not kept.holds_for(Exact(time_budget=60))
    assert not kept.holds_for(Exact(time_budget=None))
    states = Refused.of(ExactLimitError("over", "states", 101), Exact(max_states=100))
    assert states.holds_for(Exact(max_states=100, time_budget=None))  # its key has max_states


def left_out(scenario: str, out: Path, calls: list[int] | None = None) -> list[str]:
    """The notes of :func:`exact_sensitivity` that tell a notch left out."""
    told = exact_sensitivity(scenario, out, [] if calls is None else calls)
    return [t for t in told if "left out of the sensitivity" in t]


def test_a_kept_refusal_is_told_in_the_words_of_the_command_that_reads_it_back(scenario, tmp_path):
    """A notebook's study (``Exact(max_states=...)``) resumed, or run again, from the command
    line tells the kept refusal with the command line's flags (``--max-states``, ``drop
    --exact``), and the other way round; the scenario named as this run reached it."""
    from simulator.spelling import COMMAND_LINE, spelled

    out = tmp_path / "kept"
    notebook = left_out(scenario, out)
    assert len(notebook) == 1 and "raise Exact(max_states=...)" in notebook[0]
    moved = tmp_path / "moved.toml"  # the same content, read from another path
    moved.write_text(Path(scenario).read_text(encoding="utf-8"), encoding="utf-8")
    again: list[int] = []
    with spelled(COMMAND_LINE):
        command = left_out(str(moved), out, again)
        first = left_out(str(moved), tmp_path / "cli")  # a refusal it meets itself
    assert again == []  # every evaluation read back, the refusal with them
    assert command == first and len(first) == 1
    assert "--max-states" in first[0] and "drop --exact" in first[0] and "Exact(" not in first[0]
    assert str(moved) in first[0] and scenario not in first[0]
    fresh = left_out(str(moved), tmp_path / "fresh")
    assert left_out(str(moved), tmp_path / "cli") == fresh  # a notebook's words in a notebook
