"""Differential fuzzing of the three engines on random, valid, oddly combined scenarios.

For each generated scenario:

- the compiled kernel and the SimPy reference run trials on different seeds and are compared
  with ``tests.support.same_laws.differences`` and ``cause_differences``;
- a few kernel trials are told with ``kernel_trace`` and checked against the run's records
  (same record; faints, neglected watches, activity tests counted from the lines);
- the exact engine, when it accepts the scenario within a small budget, is compared with the
  kernel's shares, cause shares, mean counts and curves, within ``Z`` standard errors plus the
  mass it dropped.

A flagged scenario is written to ``--out`` as TOML and re-checked with fresh seeds and more
trials (``--recheck``). Not a test: a tool for adversarial rounds.

Usage::

    PYTHONPATH=. .venv/bin/python tools/fuzz_laws.py --first 0 --count 50 --out /tmp/fz
    PYTHONPATH=. .venv/bin/python tools/fuzz_laws.py --recheck /tmp/fz/case12.toml
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simulator.engine.record import RECORD_FIELDS, TrialRecord
from simulator.engine.trace import TraceLine
from simulator.scenario.model import Scenario
from simulator.scenario.reading import scenario_from_mapping

Z = 4.5
"""Standard errors beyond which a share or a mean differs from the exact answer."""

PHYSICAL = ("light", "grave", "critical")
MENTAL = ("shock", "trauma", "psychosis")
PERIOD_CELLS = ("unstable_period", "stable_period", "watch_period", "heal_period")
ODD_DURATIONS = ("1.7s", "2s", "45s", "2.5min", "7min", "0.3h", "1.1h", "2h", "0.7d", "1.5d")


def _duration(seconds: float) -> str:
    """A duration as a scenario writes it: seconds, to the tenth when not whole."""
    seconds = round(seconds, 1)
    return f"{int(seconds)}s" if seconds == int(seconds) else f"{seconds}s"


def _seconds(text: str) -> float:
    """The seconds of one of the durations this generator writes."""
    units = {"s": 1, "min": 60, "h": 3600, "d": 86400, "w": 604800}
    for unit in ("min", "s", "h", "d", "w"):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * units[unit]
    raise ValueError(text)


def _time(rng: random.Random, horizon: float, marks: list[float], periods: list[float]) -> float:
    """A campaign time for an injury or an activity.

    0, an earlier mark (equal times), the horizon, past it, a small multiple of one of the
    scenario's periods (from 0 or from a mark: where the engines' clocks fall due), or random.
    """
    r = rng.random()
    if r < 0.15:
        return 0.0
    if r < 0.3 and marks:
        return rng.choice(marks)
    if r < 0.35:
        return horizon
    if r < 0.37:
        return horizon * 1.3
    if r < 0.75:
        base = rng.choice([0.0, *marks])
        return base + rng.choice(periods) * rng.randint(1, 4)
    return round(rng.random() * horizon * rng.choice((0.1, 0.5, 1.0)))


def generate(rng: random.Random) -> dict[str, Any]:
    """A random valid scenario mapping, leaning on rarely combined settings.

    Args:
        rng: The generator's random source (one per case, so a case is its number).
    """
    basic = rng.random() < 0.3
    short = rng.random() < 0.5
    horizon = (
        rng.choice((1800, 3 * 3600, 12 * 3600, 86400, 2.5 * 86400))
        if short
        else rng.choice((7 * 86400, 14 * 86400, 30 * 86400, 60 * 86400))
    )
    data: dict[str, Any] = {
        "name": "fuzz",
        "horizon": _duration(horizon),
        "ruleset": "basic" if basic else "arpeges",
        "patient": {
            "cp_rs": rng.randint(-3, 18),
            "rs_it": rng.randint(-3, 18),
            "profile": rng.choice(("humanoid", "humanoid", "hydra", "thick_skin", "worm")),
        },
    }
    if rng.random() < 0.25:
        data["patient"]["maxima"] = {
            lvl: rng.randint(0, 3) for lvl in rng.sample(PHYSICAL + MENTAL, rng.randint(1, 3))
        }
    table: dict[str, dict[str, Any]] = {}
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 5)):
            level = rng.choice(PHYSICAL + MENTAL if rng.random() < 0.4 else PHYSICAL)
            cell = rng.choice(
                ("max", "mortality", "pain", "difficulty", *PERIOD_CELLS, *PERIOD_CELLS)
            )
            if cell == "max":
                value: object = rng.randint(0, 4)
            elif cell == "mortality":
                value = rng.randint(0, 7)
            elif cell == "pain":
                value = rng.randint(0, 12)
            elif cell == "difficulty":
                value = rng.randint(-8, 2)
            else:
                value = rng.choice(ODD_DURATIONS)
            table.setdefault(level, {})[cell] = value
    periods = [15.0, 900.0, 3600.0, 6 * 3600.0, 86400.0, 2 * 86400.0, 604800.0]
    periods += [
        _seconds(v) for cells in table.values() for v in cells.values() if str(v)[-1:].isalpha()
    ]
    marks: list[float] = []
    injuries = []
    for _ in range(rng.randint(1, 5)):
        at = _time(rng, horizon, marks, periods)
        marks.append(at)
        mental = rng.random() < 0.3
        level = rng.choice(MENTAL if mental else PHYSICAL)
        entry: dict[str, Any] = {"at": _duration(at), "level": level}
        if rng.random() < 0.3:
            entry["count"] = rng.randint(1, 3)
        injuries.append(entry)
    rng.shuffle(injuries)
    data["injuries"] = injuries
    if rng.random() < 0.8:
        aid: dict[str, Any] = {
            "level": rng.randint(-3, 16),
            "start": rng.choice(("0s", "1.7s", "5min", "20min", "1h")),
            "interval": rng.choice(("1.7s", "5min", "10min", "1h")),
        }
        if rng.random() < 0.5:
            aid["modifier"] = rng.randint(-3, 3)
        if rng.random() < 0.5:
            aid["max_attempts"] = rng.randint(1, 5)
        if rng.random() < 0.5:
            aid["self"] = True
        data["first_aid"] = aid
        periods += [_seconds(aid["interval"]), _seconds(aid["start"]) or 1.0]
    if rng.random() < 0.7:
        watch: dict[str, Any] = {}
        if rng.random() < 0.6:
            watch["neglect_probability"] = rng.choice((0.0, 0.1, 0.5, 1.0, round(rng.random(), 3)))
        if rng.random() < 0.5:
            # Times that may equal a rest's start (an injury's time, plus the usual delays)
            # and round multiples of the watch periods.
            times = set()
            for _ in range(rng.randint(1, 4)):
                base = rng.choice([*marks, 0.0])
                delay = rng.choice((0, 0, 300, 900, 1200, 3600, 21600, 86400, rng.random() * 86400))
                times.add(base + delay)
            watch["neglect_at"] = [_duration(t) for t in sorted(times)]
        data["watch"] = watch
    if basic or rng.random() < 0.6:
        healing: dict[str, Any] = {}
        if rng.random() < 0.8:
            healing["level"] = rng.randint(-3, 10)
        if rng.random() < 0.7:
            healing["modifier"] = rng.randint(-4, 3)
        if basic and rng.random() < 0.3:
            healing = {}
        if healing or rng.random() < 0.5:
            data["healing"] = healing
    if rng.random() < 0.5:
        activities = []
        for _ in range(rng.randint(1, 3)):
            at = _time(rng, horizon, marks, periods)
            entry = {"at": _duration(at)}
            if rng.random() < 0.7:
                entry["modifier"] = rng.randint(-5, 4)
            activities.append(entry)
        data["activities"] = activities
    rules: dict[str, Any] = {}
    options: dict[str, Callable[[], object]] = {
        "tie_succeeds": lambda: rng.random() < 0.5,
        "open_roll": lambda: rng.random() < 0.5,
        "pain_recovery_per_hour": lambda: rng.choice((0, 0.5, 1, 2, 0.3, 1.7)),
        "faint_duration": lambda: rng.choice(("0s", "1.7s", "15min", "2h", "1d")),
        "stable_survival_tests": lambda: rng.random() < 0.5,
        "trigger_probability": lambda: rng.choice((0.0, 1.0, 0.5, round(rng.random(), 3))),
        "self_aid_pain_factor": lambda: rng.randint(0, 3),
        "rest_after_unstable": lambda: rng.choice(("restart", "resume")),
        "rest_per_level": lambda: rng.choice(("fresh", "cumulative")),
        "activity_breaks_rest": lambda: rng.random() < 0.5,
        "pain_floor_craziness": lambda: rng.random() < 0.5,
    }
    for key, draw in options.items():
        if rng.random() < 0.45:
            rules[key] = draw()
    if table:
        rules["table"] = table
    if rules:
        data["rules"] = rules
    return data


def to_toml(data: dict[str, Any]) -> str:
    """The mapping as a TOML file (only the shapes :func:`generate` makes)."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return repr(v)

    lines: list[str] = []
    tables: list[tuple[str, dict[str, Any]]] = []
    arrays: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(prefix: str, mapping: dict[str, Any], out: list[str]) -> None:
        for k, v in mapping.items():
            if isinstance(v, dict):
                tables.append((f"{prefix}{k}", v))
            elif isinstance(v, list) and v and isinstance(v[0], dict):
                arrays.append((f"{prefix}{k}", v))
            else:
                out.append(f"{k} = {value(v)}")

    walk("", data, lines)
    while tables:
        name, mapping = tables.pop(0)
        lines.append(f"\n[{name}]")
        walk(f"{name}.", mapping, lines)
    for name, entries in arrays:
        for entry in entries:
            lines.append(f"\n[[{name}]]")
            lines += [f"{k} = {value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def mixed(text: str, trials: int = 400, top: float = 0.93) -> bool:
    """Whether the scenario's kernel trials end in more than one way (no outcome over ``top``)."""
    from simulator.kernel.engine import kernel_records

    records = kernel_records(scenario_of(text), 1, 0, trials)
    counts: dict[str, int] = {}
    for r in records:
        counts[str(r.outcome)] = counts.get(str(r.outcome), 0) + 1
    return max(counts.values()) <= top * trials


GRID = (300, 600, 900, 1200, 1800, 3600, 5400, 7200)
"""The grid scenarios' durations (seconds): many of their clocks fall due at one instant."""


DECIMAL = (1.7, 3.4, 5.1, 6.8, 8.5, 17.0, 34.0)
"""The decimal scenarios' durations (seconds): sums of 1.7 s, where float clocks drift."""


def generate_grid(rng: random.Random, grid: Sequence[float] = GRID) -> dict[str, Any]:
    """A scenario whose every time and period lies on one grid (O1's equal instants).

    With :data:`GRID`, periods of minutes to two hours, against P1's full hours, first aid,
    faints, watches, sessions, activities and injuries on a 5-minute grid: the order among
    equals decides. With :data:`DECIMAL`, the same on multiples of 1.7 s.
    """

    def _grid(rng: random.Random, top: int = len(grid)) -> str:
        return _duration(rng.choice(grid[:top]))

    data = generate(rng)
    step = grid[0]
    horizon = rng.choice((6, 12, 24, 36, 72)) * 3600.0
    if step < 60:
        horizon = step * rng.choice((200, 1000, 3000))
    data["horizon"] = _duration(horizon)
    data["ruleset"] = "basic" if rng.random() < 0.2 else "arpeges"
    steps = int(horizon // step)
    table: dict[str, dict[str, Any]] = {}
    for level in PHYSICAL + MENTAL:
        cells = {cell: _grid(rng) for cell in PERIOD_CELLS if rng.random() < 0.8}
        if level in MENTAL:
            cells = {"heal_period": _grid(rng)} if rng.random() < 0.7 else {}
        if cells:
            table[level] = cells
    for level, cells in data.get("rules", {}).get("table", {}).items():
        for cell, value in cells.items():
            if cell not in PERIOD_CELLS:
                table.setdefault(level, {})[cell] = value
    data.setdefault("rules", {})["table"] = table
    if rng.random() < 0.5:
        data["rules"]["faint_duration"] = _grid(rng, 4)
    for entry in data["injuries"]:
        entry["at"] = _duration(step * rng.randint(0, steps // rng.choice((1, 4, 12))))
    for entry in data.get("activities", []):
        entry["at"] = _duration(step * rng.randint(0, steps))
    if "first_aid" in data:
        data["first_aid"]["start"] = _duration(rng.choice((0, *grid[:4])))
        data["first_aid"]["interval"] = _grid(rng, 4)
    if rng.random() < 0.6:
        data.setdefault("watch", {})["neglect_at"] = sorted(
            {_duration(step * rng.randint(0, steps)) for _ in range(rng.randint(1, 4))},
            key=_seconds,
        )
    return data


def case_text(case: int, tries: int = 40) -> str:
    """Case ``case``: the first of its candidates whose trials end in more than one way.

    Most random scenarios end one way (a critical wound without first aid is death); those
    compare little, so up to ``tries`` candidates are drawn, the last kept if none is mixed.
    One case in three is a grid scenario, one a decimal one (:func:`generate_grid`).
    """
    text = ""
    for k in range(tries):
        rng = random.Random(case * 1000 + k)
        if case % 3 == 1:
            data = generate_grid(rng)
        elif case % 3 == 2:
            data = generate_grid(rng, DECIMAL)
        else:
            data = generate(rng)
        text = to_toml(data)
        if mixed(text):
            break
    return text


def scenario_of(text: str) -> Scenario:
    """The checked scenario of a TOML text."""
    return scenario_from_mapping(tomllib.loads(text), "fuzz.toml")


def reference_records(
    sc: Scenario, seed: int, want: int, seconds: float
) -> tuple[list[TrialRecord], bool]:
    """Up to ``want`` SimPy trials, fewer when the first 100 say they would take too long.

    The count is decided once, after 100 trials, so that it does not depend on the records
    that follow.

    Returns:
        The records, and False when the scenario is too slow for even 500 trials.
    """
    from simulator.runner.engines import run_trial

    start = time.perf_counter()
    records = [run_trial(sc, i, seed, kernel=False) for i in range(100)]
    rate = (time.perf_counter() - start) / 100
    n = min(want, int(seconds / max(rate, 1e-9)))
    if n < 500:
        return records, False
    records += [run_trial(sc, i, seed, kernel=False) for i in range(100, n)]
    return records, True


def _col(records: Sequence[TrialRecord], name: str) -> np.ndarray:
    return np.array([float(getattr(r, name)) for r in records])


def exact_differences(
    records: Sequence[TrialRecord], answer: Any, who: str = "kernel"
) -> list[str]:
    """Where a sample (``who``'s) and the exact answer disagree beyond ``Z`` standard errors."""
    from simulator.exact.answer import COUNTS
    from simulator.rules.cause import CAUSES

    n = len(records)
    slack = answer.dropped
    out: list[str] = []

    def se(p: float) -> float:
        return math.sqrt(max(p * (1 - p), 1.0 / n) / n)

    for outcome, p in answer.outcomes.items():
        share = sum(1 for r in records if str(r.outcome) == outcome) / n
        if abs(share - p) > Z * se(p) + slack:
            out.append(f"exact p_{outcome}: {who} {share:.5f} exact {p:.5f}")
    for cause in CAUSES:
        p = answer.p_cause(cause)
        share = sum(1 for r in records if str(r.cause) == cause) / n
        if abs(share - p) > Z * se(p) + slack:
            out.append(f"exact cause {cause}: {who} {share:.5f} exact {p:.5f}")
    for count in COUNTS:
        values = _col(records, str(count))
        m = answer.mean(count)
        # A rare count comes in clusters (a trial with one healing test has several): the
        # sample's variance, from a handful of them, is no guide; the floor is the variance
        # of clusters of the largest size seen arriving at the exact mean's rate.
        floor = max(abs(m) * max(1.0, float(values.max())), 1.0 / n)
        err = math.sqrt(max(values.var(ddof=1), floor) / n)
        # the dropped mass may hold any count: allow it a generous weight
        if abs(values.mean() - m) > Z * err + slack * (1 + abs(m)) * 50 + 1e-9:
            out.append(f"exact mean {count}: {who} {values.mean():.5f} exact {m:.5f}")
    hours = answer.horizon_h
    times = {
        "dead": _col(records, "death_h"),
        "incoherent": _col(records, "incoherent_h"),
        "healed": np.array(
            [r.healed_h if str(r.outcome) == "healed" else math.nan for r in records]
        ),
        "stabilised": _col(records, "first_stable_h"),
    }
    for f in (0.01, 0.05, 0.2, 0.5, 0.8, 1.0):
        t = hours * f
        for state, when in times.items():
            share = np.count_nonzero(when <= t + 1e-9) / n
            p = answer.by(state, t)
            if abs(share - p) > Z * se(p) + slack:
                out.append(f"exact {state} by {t:g}h: {who} {share:.5f} exact {p:.5f}")
    return out


def _same(a: TrialRecord, b: TrialRecord) -> list[str]:
    bad = []
    for name in RECORD_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
            continue
        if x != y and not (isinstance(x, float) and abs(x - y) < 1e-9):
            bad.append(f"{name} {x!r} != {y!r}")
    return bad


def _told(lines: Sequence[TraceLine], *templates: str) -> int:
    return sum(1 for line in lines if line.template in templates)


def trace_differences(sc: Scenario, seed: int, batch: Sequence[TrialRecord]) -> list[str]:
    """Trace a few trials of the kernel's batch (distinct outcomes first); what disagrees.

    Args:
        sc: The scenario.
        seed: The batch's seed.
        batch: ``kernel_records(sc, seed, 0, len(batch))``.
    """
    from simulator.engine import trace_templates as tpl
    from simulator.runner.engines import run_trial, trace_trial

    chosen: dict[str, int] = {}
    for i, r in enumerate(batch):
        chosen.setdefault(f"{r.outcome}/{r.cause}", i)
    picks = [*sorted(chosen.values())[:4], len(batch) - 1]
    out = []
    for i in picks:
        record, lines = trace_trial(sc, seed, i)
        single = run_trial(sc, i, seed)
        for problem in _same(record, batch[i]) + _same(single, batch[i]):
            out.append(f"trace {i}: {problem}")
        told = {
            "faints": _told(lines, tpl.FAINT_FAILED),
            "neglected_watches": _told(lines, tpl.WATCH_NEGLECTED),
            "activity_tests": _told(lines, tpl.ACTIVITY_HOLDS, tpl.ACTIVITY_WORSENS),
            "activity_failures": _told(lines, tpl.ACTIVITY_WORSENS),
        }
        for name, n in told.items():
            if getattr(record, name) != n:
                out.append(f"trace {i}: {name} told {n}, recorded {getattr(record, name)}")
        if lines and abs(lines[-1].time / 3600 - record.end_h) > 1e-6:
            out.append(f"trace {i}: last line at {lines[-1].time / 3600}h, end_h {record.end_h}")
    return out


def check(
    text: str,
    seeds: tuple[int, int],
    kernel_n: int,
    reference_n: int,
    seconds: float,
    *,
    exact: bool = True,
    trace: bool = True,
) -> dict[str, Any]:
    """Every comparison for one scenario text; the problems found, by kind."""
    from simulator.exact import solve
    from simulator.kernel.engine import kernel_records

    # the project's two-sample comparison, from its tests (loaded by name: tools are
    # type-checked, tests are not)
    same_laws = importlib.import_module("tests.support.same_laws")

    sc = scenario_of(text)
    result: dict[str, Any] = {"laws": [], "trace": [], "exact": [], "notes": []}
    ours = kernel_records(sc, seeds[0], 0, kernel_n)
    reference, fast_enough = reference_records(sc, seeds[1], reference_n, seconds)
    result["reference_n"] = len(reference)
    if fast_enough:
        result["laws"] = same_laws.differences(ours, reference) + same_laws.cause_differences(
            ours, reference
        )
    else:
        result["notes"].append("reference too slow")
    if trace:
        result["trace"] = trace_differences(sc, seeds[0], ours[:2000])
    if exact:
        try:
            answer = solve(sc, max_seconds=12, max_states=300_000)
        except Exception as error:  # a refusal is a note, not a finding
            result["notes"].append(f"no exact: {type(error).__name__}")
        else:
            result["exact"] = exact_differences(ours, answer)
            if fast_enough:
                result["exact"] += exact_differences(reference, answer, "reference")
            result["notes"].append(f"exact dropped {answer.dropped:.1e}")
    outcomes: dict[str, int] = {}
    for r in ours:
        outcomes[str(r.outcome)] = outcomes.get(str(r.outcome), 0) + 1
    result["outcomes"] = outcomes
    result["means"] = {
        name: round(float(_col(ours, name).mean()), 2)
        for name in (
            "aggravations",
            "first_aid_attempts",
            "neglected_watches",
            "healing_tests",
            "activity_tests",
            "faints",
        )
    }
    return result


def sc_line(text: str) -> str:
    """``basic/60d``: the ruleset and horizon of a case, for the log."""
    data = tomllib.loads(text)
    return f"{data.get('ruleset', 'arpeges')}/{data['horizon']}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run a fuzzing round, or re-check saved cases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("/tmp/hD-work/fuzz"))
    parser.add_argument("--kernel-n", type=int, default=20_000)
    parser.add_argument("--reference-n", type=int, default=3_000)
    parser.add_argument("--seconds", type=float, default=8.0, help="reference budget per case")
    parser.add_argument("--recheck", type=Path, nargs="*", default=None)
    parser.add_argument("--no-exact", action="store_true")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.recheck:
        for path in args.recheck:
            text = path.read_text()
            for seeds in ((911, 912), (913, 914)):
                found = check(
                    text,
                    seeds,
                    args.kernel_n * 2,
                    args.reference_n * 3,
                    args.seconds * 4,
                    exact=not args.no_exact,
                    trace=False,
                )
                print(path.name, seeds, json.dumps(found), flush=True)
        return 0
    totals = {"cases": 0, "kernel": 0, "reference": 0, "flagged": 0}
    for case in range(args.first, args.first + args.count):
        text = case_text(case)
        start = time.perf_counter()
        try:
            found = check(
                text,
                (1000 + case, 5000 + case),
                args.kernel_n,
                args.reference_n,
                args.seconds,
                exact=not args.no_exact,
            )
        except Exception as error:  # a crash is a finding, kept
            (args.out / f"case{case}.toml").write_text(text)
            print(f"CASE {case} CRASH {type(error).__name__}: {error}", flush=True)
            continue
        totals["cases"] += 1
        totals["kernel"] += args.kernel_n
        totals["reference"] += found["reference_n"]
        flagged = found["laws"] or found["trace"] or found["exact"]
        if flagged:
            totals["flagged"] += 1
            (args.out / f"case{case}.toml").write_text(text)
        tag = "FLAG" if flagged else "ok"
        print(
            f"CASE {case} {tag} {time.perf_counter() - start:.0f}s "
            f"{sc_line(text)} ref={found['reference_n']} {found['outcomes']} {found['means']} "
            f"{found['notes']} "
            f"{found['laws'] + found['trace'] + found['exact']}",
            flush=True,
        )
    print("TOTALS", json.dumps(totals), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
