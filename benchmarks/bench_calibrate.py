"""Benchmarks of ``calibrate`` (issue 32), a table of ``make bench``.

Two rows, each a whole ``calibrate`` from the whole ranges, search, check run and
sensitivity included (no files written):

- exact: three free keys (the grave wound's unstable period and mortality, the first-aid
  level) and three targets on short scenarios (``lone_traveller``, ``hydra``,
  ``field_medic``), the targets the exact values at known keys; target ≤ 60 s on 2 cores;
- sampled: ``calibrations/texts.toml`` (Géraldine's 60 days among its targets), 2,000 trials
  per evaluation, checked on 8,000 fresh ones; target ≤ 5 min.

Each row: seconds (wall, and CPU beside it: a shared machine shows the difference), the
evaluations (one target at one point), whether every target was met, and the target.

Usage::

    python benchmarks/bench_calibrate.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.scenario.keys import Key, Kind  # noqa: E402
from simulator.scenario.reading import load_scenario  # noqa: E402
from simulator.studies.calibrate_study import calibrate  # noqa: E402
from simulator.studies.method import Exact, Method, MonteCarlo  # noqa: E402
from simulator.studies.statistic import Statistic  # noqa: E402

SCENARIOS = ROOT / "scenarios"

EXACT_TARGETS = (
    ("lone_traveller", "p_dead_by_1d", ("first_aid.start=5min", "first_aid.interval=5min")),
    ("hydra", "p_dead", ("horizon=2d",)),
    ("field_medic", "p_dead", ('injuries.0.level="grave"', "patient.cp_rs=3",
                               "first_aid.start=5min", "first_aid.interval=5min", "horizon=1d")),
)  # fmt: skip

FREE = """
[[free]]
key = "rules.table.grave.unstable_period"
low = "5min"
high = "1h"
[[free]]
key = "rules.table.grave.mortality"
low = 1
high = 6
[[free]]
key = "first_aid.level"
low = 2
high = 8
"""


def exact_file(folder: Path) -> Path:
    """The exact row's calibration file: the exact statistics at 10 min, 3 and level 5."""
    settings = [
        Key("rules.table.grave.unstable_period", Kind.DURATION).setting(600.0),
        Key("rules.table.grave.mortality", Kind.INTEGER).setting(3),
        Key("first_aid.level", Kind.INTEGER).setting(5),
    ]
    text = 'name = "Three keys, three targets"\n' + FREE
    for stem, stat, sets in EXACT_TARGETS:
        path = SCENARIOS / f"{stem}.toml"
        value = Exact()([load_scenario(path, [*sets, *settings])], Statistic.parse(stat))[0].stat
        quoted = ", ".join(f"'{s}'" for s in sets)
        text += (
            f'[[target]]\nscenario = "{path.as_posix()}"\nstat = "{stat}"\n'
            f"value = {round(value, 6)}\ntolerance = 0.005\nset = [{quoted}]\n"
        )
    written = folder / "three.toml"
    written.write_text(text, encoding="utf-8")
    return written


def timed(path: Path, method: Method) -> tuple[float, float, int, bool]:
    """Wall and CPU seconds, evaluations and met of one calibrate."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = calibrate(path, method)
    return time.perf_counter() - wall, time.process_time() - cpu, found.evaluations, found.met


def calibrate_table() -> None:
    """Print the table."""
    print("\n## calibrate (issue 32)\n")
    print("| case | wall s | CPU s | evaluations | met | target |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        path = exact_file(Path(folder))
        wall, cpu, count, met = timed(path, Exact())
        print(f"| 3 keys, 3 short targets, exact | {wall:.1f} | {cpu:.1f} | {count} | {met} "
              "| ≤ 60 s |")  # fmt: skip
    texts = ROOT / "calibrations" / "texts.toml"
    wall, cpu, count, met = timed(texts, MonteCarlo(trials=2_000, seed=0))
    print(f"| texts.toml (Géraldine 60 d), sampled 2,000 trials | {wall:.1f} | {cpu:.1f} "
          f"| {count} | {met} | ≤ 5 min |")  # fmt: skip


if __name__ == "__main__":
    calibrate_table()
