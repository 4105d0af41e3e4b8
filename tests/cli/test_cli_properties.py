"""Random valid scenarios and random ``--set``/``--grid`` inputs through every command (issue 9).

Whatever a designer types, a command either succeeds (exit status 0) or refuses with exit
status 2 and ``error:`` lines: never another status, never a traceback. Small on purpose
(few examples, three trials, one worker, in-process) so that it runs in seconds; the
examples are derandomized, so a failure is the same on every machine.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.cli.app import main
from simulator.scenario.writing import toml_value
from tests.support import TINY

LEVELS = ("light", "grave", "critical", "shock", "trauma", "psychosis")
DURATIONS = ("0s", "30s", "5min", "1h", "12h", "2d")

KEYS = (
    "patient.cp_rs",
    "patient.rs_it",
    "patient.profile",
    "patient",
    "horizon",
    "ruleset",
    "first_aid.level",
    "first_aid.interval",
    "first_aid",
    "healing.level",
    "healing.modifier",
    "watch.neglect_at",
    "watch.neglect_probability",
    "rules.trigger_probability",
    "injuries.0.level",
    "injuries[0].at",
    "injuries.7.at",
    "rules.open_roll",
    "rules.table.grave.unstable_period",
    "rules.table.light.max",
    "rules.pain_recovery_per_hour",
    "Rules.Open_Roll",
    "no.such.key",
)
"""Keys a designer might set: real ones, tables, list items, and mistakes."""

VALUES = (
    "3",
    "-2",
    "0",
    "1.5",
    "1e999",
    "5e-324",
    "nan",
    "true",
    "HYDRA",
    "basic",
    "BASIC",
    "30min",
    "1234567.5s",
    "0s",
    "-1h",
    '"12h"',
    '["1h"]',
    "[]",
    '["1h", "2d"]',
    "{cp_rs = 1, rs_it = 2}",
    '{start = "1min", interval = "1min"}',
    "{",
    "'",
    "",
    "1" * 60,
    "9" * 4400 + "s",
    "0." + "1" * 200 + "h",
    "é",
    "1979-05-27",
)
"""Values a designer might type: valid, out of range, malformed, too long, of any type."""

injury = st.fixed_dictionaries(
    {
        "at": st.sampled_from(DURATIONS),
        "level": st.sampled_from(LEVELS),
        "count": st.integers(1, 2),
    }
)
first_aid = st.none() | st.fixed_dictionaries(
    {
        "level": st.integers(-2, 6),
        "start": st.sampled_from(DURATIONS[:3]),
        "interval": st.sampled_from(("30s", "5min")),
    }
)
scenarios = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=12).filter(str.strip),
        "ruleset": st.sampled_from(("arpeges", "basic")),
        "horizon": st.sampled_from(("1h", "1d", "3d")),
        "patient": st.fixed_dictionaries(
            {"cp_rs": st.integers(-3, 10), "rs_it": st.integers(-3, 10)}
        ),
        "injuries": st.lists(injury, min_size=1, max_size=3),
        "first_aid": first_aid,
        "healing": st.none() | st.fixed_dictionaries({"level": st.integers(-2, 4)}),
    }
)
value = st.sampled_from(VALUES) | st.text(max_size=6)
override = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS), value)
grid = st.builds(
    lambda k, vs: f"{k}={','.join(vs)}",
    st.sampled_from(KEYS),
    st.lists(st.sampled_from(VALUES[:20]), min_size=1, max_size=3),
)
COMMANDS = ("validate", "trace", "run", "sweep", "compare", "balance", "sensitivity")
RANGES = ("0..6", "15min..1d", "-2..2", "1..1", "6..0", "0.1..0.9", "a..b", "1e999..2", "..", "3")
TARGETS = ("p_dead=0.5", "p_healed_by_1d=0.2", "p_dead=2", "p_nothing=0.1", "p_dead=nan", "x")


def scenario_text(data: dict) -> str:
    """A scenario file for ``data`` (tables written after the top-level keys)."""
    lines = [f"{key} = {toml_value(data[key])}" for key in ("name", "ruleset", "horizon")]
    lines.append(f"patient = {toml_value(data['patient'])}")
    for section in ("first_aid", "healing"):
        if data[section] is not None:
            lines.append(f"{section} = {toml_value(data[section])}")
    lines.append(f"injuries = {toml_value(data['injuries'])}")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=scenarios,
    command=st.sampled_from(COMMANDS),
    sets=st.lists(override, max_size=2),
    grids=st.lists(grid, min_size=1, max_size=2),
    figures=st.booleans(),
    vary=st.tuples(st.sampled_from(KEYS), st.sampled_from(RANGES)),
    target=st.sampled_from(TARGETS),
)
def test_every_command_succeeds_or_refuses_in_one_way(
    data, command, sets, grids, figures, vary, target
):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scenario.toml"
        path.write_text(scenario_text(data), encoding="utf-8")
        args = [command, str(path)]
        if command == "compare":
            args.append(str(path))
        args += [x for s in sets for x in ("--set", s)]
        if command == "sweep":
            args += [x for g in grids for x in ("--grid", g)]
        if command == "balance":
            args += ["--vary", f"{vary[0]}={vary[1]}", "--target", target]
        if command == "sensitivity":
            args += ["--keys", ",".join(g.partition("=")[0] for g in grids)]
        if command in ("run", "sweep", "compare", "balance", "sensitivity"):
            args += ["--trials", "3", "--workers", "1", "--out", str(Path(folder) / "out")]
            args += [] if figures else ["--no-figures"]
        result = CliRunner().invoke(main, args)
    shown = f"{args}\n{result.output}"
    assert "Traceback" not in result.output, shown
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        shown,
        repr(result.exception),
    )
    assert result.exit_code in (0, 2), shown
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert lines and all(line.startswith("error: ") for line in lines), shown


SEQUENCES = {
    "run": ["run", "{s}", "--trials", "3", "--seed", "{seed}"],
    "run-more": ["run", "{s}", "--trials", "5", "--seed", "{seed}"],
    "run-exact": ["run", "{s}", "--exact", "--set", "patient.cp_rs=2"],
    "sweep": ["sweep", "{s}", "--grid", "first_aid.level=0,1", "--trials", "3", "--seed", "{seed}"],
    "compare": ["compare", "{s}", "{s}", "--trials", "3", "--seed", "{seed}"],
    "balance": [
        "balance",
        "{s}",
        "--vary",
        "first_aid.level=0..2",
        "--target",
        "p_dead=0.1",
        "--exact",
    ],
    "sensitivity": ["sensitivity", "{s}", "--keys", "first_aid.level", "--exact"],
}
"""Commands a designer runs one after the other into the same ``--out`` folder."""

USER_ACTS = ("nothing", "a note of theirs", "an edit of a result file")


def _files(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(sorted(SEQUENCES)), st.integers(0, 2), st.sampled_from(USER_ACTS)
        ),
        min_size=2,
        max_size=3,
    )
)
def test_a_folder_never_holds_two_results_whatever_is_run_into_it(steps):
    from simulator.runner import outdir

    with tempfile.TemporaryDirectory() as folder:
        scenario = Path(folder) / "scenario.toml"
        scenario.write_text(TINY, encoding="utf-8")
        out = Path(folder) / "out"
        mine: dict[str, bytes] = {}  # the user's files in the folder, as they must stay
        for name, seed, act in steps:
            files = sorted(p.name for p in out.iterdir() if p.is_file()) if out.is_dir() else []
            results = [f for f in files if not f.startswith(".") and f not in mine]
            if act == "a note of theirs" and out.is_dir():
                mine["notes.txt"] = b"mine\n"
                (out / "notes.txt").write_bytes(mine["notes.txt"])
            elif act == "an edit of a result file" and results:
                mine[results[0]] = (out / results[0]).read_bytes() + b"\n# mine\n"
                (out / results[0]).write_bytes(mine[results[0]])
            args = [a.format(s=scenario, seed=seed) for a in SEQUENCES[name]]
            args += ["--workers", "1", "--no-figures", "--out", str(out)]
            before = _files(out)
            result = CliRunner().invoke(main, args)
            shown = f"{steps}: {args}\n{result.output}"
            assert "Traceback" not in result.output, shown
            assert result.exception is None or isinstance(result.exception, SystemExit), shown
            assert result.exit_code in (0, 2), shown
            for user_file, content in mine.items():
                assert (out / user_file).read_bytes() == content, shown
            if result.exit_code == 2:
                lines = result.stderr.strip().splitlines()
                assert lines and all(line.startswith("error: ") for line in lines), shown
                assert _files(out) == before, shown  # refused: nothing changed
                continue
            marker = outdir.read_marker(out)
            assert marker is not None and marker["complete"], shown
            present = {p.name for p in out.iterdir() if not p.name.startswith(".")}
            assert present - set(mine) == set(marker["files"]), shown
            for listed, entry in marker["files"].items():
                assert outdir.unchanged(out / listed, entry), shown
            assert not (out / outdir.PARTIAL).exists(), shown
            if (out / "summary.json").is_file() and "--seed" in args:
                summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
                assert summary["seed"] == seed, shown
