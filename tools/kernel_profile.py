"""Where the compiled kernel spends its time, by rule function and by source line.

    python -m tools.kernel_profile [SCENARIO] [--trials N] [--lines K] [--counted | --cpi]

For whoever makes the kernel faster (issue 29): a sampling profile of the event loop, each
sample of its machine code traced back to the functions written into it and the line of
``simulator/`` it comes from. It needs Linux's ``perf`` and binutils' ``addr2line`` and
``objdump`` (development only: nothing of the simulator uses them).

How: a child process compiles the kernel with its line tables (:data:`simulator.kernel.cache.
LINES_VARIABLE`: the same machine code, and the same speed, measured, plus DWARF line tables;
in a cache folder of its own, so about 30 s the first time) and runs ``N`` trials of the
scenario under ``perf record``. The event loop, ``run_batch`` (with ``run_one``), is one
function of machine code into which LLVM has written every handler, clock and decision
(``simulator/kernel/jit.py``); the object file of ``run_batch``, taken from the kernel's
cache, maps each sampled address to the chain of functions inlined there
(``addr2line -i``). The line-table build is the machine code of the build without lines:
numba's debug mode would mark every function ``noinline``, and
:func:`simulator.kernel.jit._inline_as_built` takes that mark away again. The tables then
give, for each function, the share of the loop's samples inside it (inclusive: a handler
counts the clocks it restarts) and in its own lines (self), and the lines with most samples.

``--counted`` counts instead of sampling: the same child under valgrind's ``callgrind``
(``--dump-instr=yes``), so that each instruction of the loop is counted exactly, and the tables
give instructions per trial by function and by line, the yardstick of ``tools.kernel_counts``
taken apart (the same count on every run, whatever else runs on the machine), and, from its
branch model (``--branch-sim=yes``), the conditional and indirect branches it mispredicts a
trial, by function and by line (each costs some 15-20 cycles that the count of instructions
does not show). valgrind's CPU lacks the newest instructions, so the kernel is compiled
natively for ``haswell`` (:data:`HASWELL`) in a cache folder of its own, which valgrind then
loads: about a minute to compile, and some minutes under valgrind for the default 2,000 trials.
Lines numbered ``?`` are instructions the line tables give to no line (spills and reloads
around calls, code LLVM merged from several places).

``--cpi`` sets the two side by side: the code ``--counted`` counts (haswell's) is also sampled
natively, and each function's and line's share of the loop's time is tabled beside its share
of the loop's instructions and their ratio. Stops 45-66 made the loop shorter by its count
of instructions (38,900 to 23,600 a trial) while its speed beside the reference did not move:
a ratio well above 1 is code that waits (on a division or a ``log`` the next step needs, or
after a mispredicted branch), which a count cannot see.

Read the sampled profile knowing that a sample often lands just after a slow instruction (a
division, a ``log``, a mispredicted branch). In both, the few functions numba itself writes
into their callers (``spliced``: the uniform draw, a clock's test times, a trace record) are
counted as their caller, at their own line numbers. ``log`` (libm) runs outside the loop's
code and is counted apart (sampled) or not at all (counted).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = ROOT / "scenarios" / "careless_watches.toml"
LOOP = "_ZN9simulator6kernel4loop9run_batch"
"""The start of the event loop's mangled name (its Python wrapper's starts ``_ZN7cpython``)."""
FREQUENCY = 4999
"""Samples per second (an odd rate, not in step with anything periodic)."""
HASWELL = {
    "NUMBA_CPU_NAME": "haswell",
    "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+cx8,+f16c,+fma,+fsgsbase,"
    "+fxsr,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,"
    "+ssse3,+xsave,+xsaveopt",
}
"""A CPU valgrind runs (``--counted``): the kernel compiled for it natively loads under valgrind
instead of compiling there (the recipe of ``docs/kernel-speed.md``, stop 45)."""

Frame = tuple[str, str]
"""One function of an inline chain and its place: (``clocks.draw_signed``, ``clocks.py:312``)."""


@dataclass(frozen=True)
class Symbol:
    """A function of an object file: its section, its offset there and its size (bytes)."""

    name: str
    section: str
    offset: int
    size: int


def elf_object(blob: bytes) -> bytes:
    """The first ELF object held in ``blob`` (numba's cache files hold one, pickled).

    Its length is read from its header: the section headers come last, ``e_shnum`` of
    ``e_shentsize`` bytes from ``e_shoff``.

    Raises:
        ValueError: ``blob`` holds no 64-bit ELF object.
    """
    start = blob.find(b"\x7fELF")
    if start < 0 or len(blob) < start + 64 or blob[start + 4] != 2:
        raise ValueError("no 64-bit ELF object in the blob")
    (shoff,) = struct.unpack_from("<Q", blob, start + 0x28)
    entsize, count = struct.unpack_from("<HH", blob, start + 0x3A)
    end = start + shoff + entsize * count
    if end > len(blob):
        raise ValueError("the ELF object is cut short")
    return blob[start:end]


def symbol_of(table: str, prefix: str) -> Symbol:
    """The function named ``prefix...`` in an ``objdump -t`` symbol table.

    Raises:
        LookupError: No such function in the table.
    """
    for line in table.splitlines():
        parts = line.split()
        # value, flags..., section, size, name; a function's flags end in F
        if len(parts) >= 5 and parts[-1].startswith(prefix) and "F" in parts[1:-3]:
            return Symbol(parts[-1], parts[-3], int(parts[0], 16), int(parts[-2], 16))
    raise LookupError(f"no function {prefix}... in the symbol table")


def short_name(demangled: str) -> str:
    """``simulator::kernel::clocks::draw_signed[abi:v171][abi:...]`` → ``clocks.draw_signed``."""
    name = re.sub(r"\[abi:[^\]]*\]", "", demangled).split("(")[0]
    parts = [part for part in name.split("::") if part]
    if parts[:1] == ["simulator"]:
        parts = parts[2:] if len(parts) > 2 else parts[1:]
    return ".".join(parts[-2:]) if len(parts) > 1 else name


def inline_chains(lines: Sequence[str]) -> dict[int, list[Frame]]:
    """Parse ``addr2line -a -i -f -C`` output: each address's frames, innermost first."""
    chains: dict[int, list[Frame]] = {}
    current: list[Frame] | None = None
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("0x"):
            current = chains.setdefault(int(line, 16), [])
            i += 1
            continue
        place = lines[i + 1].strip() if i + 1 < len(lines) else "??:0"
        place = place.split(" (discriminator")[0]
        where = place.split("simulator/", 1)[-1] if "simulator/" in place else place
        if current is not None:
            current.append((short_name(line), where))
        i += 2
    return chains


@dataclass
class Profile:
    """Samples of the event loop by function (inclusive, self) and by line, and the rest."""

    total: int
    loop: int
    outside: collections.Counter[str]
    inclusive: collections.Counter[str]
    own: collections.Counter[str]
    lines: collections.Counter[str]


def tally(
    samples: Iterable[tuple[int, str, int]], start: int, size: int, chains: dict[int, list[Frame]]
) -> Profile:
    """Count ``(address, perf's symbol, count)`` samples: the loop's by frames, others by symbol."""
    outside: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    lines: collections.Counter[str] = collections.Counter()
    total = loop = 0
    for address, symbol, count in samples:
        total += count
        if not start <= address < start + size:
            outside[symbol or "?"] += count
            continue
        loop += count
        frames = chains.get(address - start) or [("?", "?")]
        own[frames[0][0]] += count
        lines[frames[0][1]] += count
        for name in {name for name, _ in frames}:
            inclusive[name] += count
    return Profile(total, loop, outside, inclusive, own, lines)


def _functions(path: Path) -> list[tuple[str, int, int, bool]]:
    """A source file's functions: (name, first line, last line, whether ``@spliced``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            spliced = any(
                isinstance(d, ast.Name) and d.id == "spliced" for d in node.decorator_list
            )
            found.append((node.name, node.lineno, node.end_lineno or node.lineno, spliced))
    return found


def placed(place: str) -> str:
    """Where a line of the loop's code really is: ``file:line``, with the function's name.

    numba writes a ``spliced`` function into its caller before compiling, and the line tables
    then name the caller's file with the spliced function's line numbers; such a line, outside
    every function of the file named, is given to the spliced function whose lines hold it.
    """
    file, _, number = place.rpartition(":")
    path = ROOT / "simulator" / file
    if not number.isdigit() or not path.is_file():
        return place
    n = int(number)
    for name, first, last, _ in _functions(path):
        if first <= n <= last:
            return f"{file}:{n} ({name})"
    for other in sorted((ROOT / "simulator" / "kernel").glob("*.py")):
        for name, first, last, spliced in _functions(other):
            if spliced and first <= n <= last:
                return f"kernel/{other.name}:{n} ({name}, spliced)"
    return place


def _source_line(place: str) -> str:
    file, _, rest = place.partition(":")
    number = rest.split(" ")[0]
    path = ROOT / "simulator" / file
    if not number.isdigit() or not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8").splitlines()
    n = int(number)
    return text[n - 1].strip() if 0 < n <= len(text) else ""


def share(n: int, of: int) -> str:
    """``n`` as a percentage of ``of``."""
    return f"{100.0 * n / of:.1f}%" if of else "-"


def report(profile: Profile, rows: int) -> str:
    """The profile as Markdown tables."""
    out = [
        f"{profile.total:,} samples: {share(profile.loop, profile.total)} in the event loop's "
        "own code; the rest:",
        "",
        "| where | share of all |",
        "|---|---:|",
    ]
    for name, n in profile.outside.most_common(6):
        out.append(f"| {name} | {share(n, profile.total)} |")
    out += ["", "| function (inlined into the loop) | inclusive | self |", "|---|---:|---:|"]
    for name, n in profile.inclusive.most_common(rows):
        own = share(profile.own[name], profile.loop)
        out.append(f"| `{name}` | {share(n, profile.loop)} | {own} |")
    out += ["", "| line | self | source |", "|---|---:|---|"]
    for place, n in profile.lines.most_common(rows):
        where = placed(place)
        out.append(f"| {where} | {share(n, profile.loop)} | `{_source_line(where)}` |")
    out.append("")
    out.append("(shares of the loop's samples, but for the first table)")
    return "\n".join(out)


EVENTS = ("Ir",)
"""callgrind's events when its file names none (``events:`` gives their order otherwise)."""
MISPREDICTS = ("Bcm", "Bim")
"""``--branch-sim=yes``'s mispredicted conditional and indirect branches."""


def callgrind_events(text: str, start: int, size: int) -> dict[str, collections.Counter[int]]:
    """Each instruction's own count of each event in ``[start, start + size)``.

    The file as ``--dump-instr=yes --compress-pos=no`` writes it: the ``positions:`` header
    names the position columns (``instr line``), the ``events:`` header the cost columns after
    them, in its order (``Ir Bc Bcm Bi Bim`` with ``--branch-sim=yes``); a cost line may leave
    out its trailing zeros. The line after a ``calls=`` line is the call's inclusive cost, not
    the instruction's own, and is skipped. Returns, by event, counts by offset from ``start``.
    """
    events: list[str] = list(EVENTS)
    positions = 2  # instr line: what --dump-instr=yes writes, if the file says nothing
    own: dict[str, collections.Counter[int]] = {}
    after_call = False
    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split(":", 1)[1].split()
            continue
        if line.startswith("positions:"):
            positions = len(line.split(":", 1)[1].split())
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if not line.startswith("0x"):
            continue
        if after_call:
            after_call = False
            continue
        fields = line.split()
        address = int(fields[0], 16)
        if not start <= address < start + size:
            continue
        for name, value in zip(events, fields[positions:], strict=False):
            count = int(value)
            if count:
                own.setdefault(name, collections.Counter())[address - start] += count
    return {name: own.get(name, collections.Counter()) for name in events}


def callgrind_costs(text: str, start: int, size: int) -> collections.Counter[int]:
    """Each instruction's own count of instructions (``Ir``) in ``[start, start + size)``.

    See :func:`callgrind_events`. Returns offsets from ``start``.
    """
    return callgrind_events(text, start, size)["Ir"]


def per_trial_report(
    profile: Profile,
    trials: int,
    rows: int,
    mispredicted: tuple[Profile, Profile] | None = None,
) -> str:
    """The counted profile as Markdown tables: instructions per trial.

    With ``mispredicted`` (the conditional and the indirect branches that valgrind's branch
    model mispredicts, tallied as the instructions are), two more tables: mispredictions a
    trial by function (inclusive, self) and the lines with most of them.
    """

    def each(n: int) -> str:
        return f"{n / trials:,.0f}"

    out = [
        f"{each(profile.loop)} instructions a trial in the event loop's own code "
        f"(`run_batch`, counted by callgrind over {trials:,} trials; `log` and the calls out of "
        "the loop not included)",
        "",
        "| function (inlined into the loop) | inclusive | self |",
        "|---|---:|---:|",
    ]
    for name, n in profile.inclusive.most_common(rows):
        out.append(f"| `{name}` | {each(n)} | {each(profile.own[name])} |")
    out += ["", "| line | self | source |", "|---|---:|---|"]
    for place, n in profile.lines.most_common(rows):
        where = placed(place)
        out.append(f"| {where} | {each(n)} | `{_source_line(where)}` |")
    if mispredicted is not None:
        out += ["", *_mispredicted_report(*mispredicted, trials, rows)]
    return "\n".join(out)


def _mispredicted_report(
    conditional: Profile, indirect: Profile, trials: int, rows: int
) -> list[str]:
    """The tables of mispredicted branches a trial (see :func:`per_trial_report`)."""

    def each(n: int) -> str:
        return f"{n / trials:,.1f}"

    inclusive = conditional.inclusive + indirect.inclusive
    lines = conditional.lines + indirect.lines
    out = [
        f"{each(conditional.loop)} conditional and {each(indirect.loop)} indirect branches "
        "mispredicted a trial in the loop's own code (valgrind's branch model, "
        "`--branch-sim=yes`)",
        "",
        "| function (inlined into the loop) | conditional inclusive | self "
        "| indirect inclusive | self |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, _ in inclusive.most_common(rows):
        out.append(
            f"| `{name}` | {each(conditional.inclusive[name])} | {each(conditional.own[name])} "
            f"| {each(indirect.inclusive[name])} | {each(indirect.own[name])} |"
        )
    out += ["", "| line | conditional | indirect | source |", "|---|---:|---:|---|"]
    for place, _ in lines.most_common(rows):
        where = placed(place)
        out.append(
            f"| {where} | {each(conditional.lines[place])} | {each(indirect.lines[place])} "
            f"| `{_source_line(where)}` |"
        )
    return out


def _chains(where: dict[str, Any], offsets: Sequence[int]) -> dict[int, list[Frame]]:
    """The inline chains of the loop's code at ``offsets`` (from its start), by ``addr2line``."""
    decoded = subprocess.run(
        ["addr2line", "-a", "-i", "-f", "-C", "-j", where["section"], "-e", where["object"]],
        input="\n".join(hex(where["offset"] + o) for o in offsets),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return {a - where["offset"]: frames for a, frames in inline_chains(decoded).items()}


def counted_profiles(scenario: Path, trials: int) -> tuple[Profile, Profile, Profile]:
    """Run the child under callgrind: instructions and mispredicted branches, tallied.

    Three profiles of the loop's code: its instructions, and the conditional and the indirect
    branches valgrind's model mispredicts.
    """
    from simulator.kernel.cache import cache_base

    with tempfile.TemporaryDirectory(prefix="kernel-profile-") as folder:
        out = Path(folder)
        env = (
            os.environ
            | HASWELL
            | {
                "HARMONIES_LINE_TABLES": "1",
                "NUMBA_CACHE_DIR": str(cache_base() / "haswell"),
                "OPENBLAS_NUM_THREADS": "1",
            }
        )
        command = [sys.executable, "-m", "tools.kernel_profile", "--child", str(out)]
        command += [str(scenario), "--trials"]
        (out / "go").touch()  # nothing to wait for: the count is taken in the loop's code only
        subprocess.run([*command, "10"], env=env, cwd=ROOT, check=True)  # compiled natively
        (out / "where.json").unlink()
        data = out / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no"]
        valgrind += ["--branch-sim=yes", "--compress-strings=no"]
        valgrind += [f"--callgrind-out-file={data}"]
        done = subprocess.run(
            [*valgrind, *command, str(trials)], env=env, cwd=ROOT, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"the counted process failed:\n{done.stderr[-2000:]}")
        where = json.loads((out / "where.json").read_text())
        start, size = where["address"], where["size"]
        costs = callgrind_events(data.read_text(), start, size)
        chains = _chains(where, sorted(costs["Ir"]))

        def counted_by(event: str) -> Profile:
            counts = costs.get(event, collections.Counter())
            samples = ((start + o, "", n) for o, n in counts.items())
            return tally(samples, start, size, chains)

        conditional, indirect = (counted_by(event) for event in MISPREDICTS)
        return counted_by("Ir"), conditional, indirect


def counted(scenario: Path, trials: int, rows: int) -> str:
    """Run the child under callgrind; the report in instructions per trial."""
    instructions, conditional, indirect = counted_profiles(scenario, trials)
    return per_trial_report(instructions, trials, rows, (conditional, indirect))


def time_per_instruction_report(
    sampled_profile: Profile,
    instructions: Profile,
    conditional: Profile,
    trials: int,
    rows: int,
) -> str:
    """The loop's time beside its instructions, by function (self) and by line (``--cpi``).

    Each row: its share of the loop's samples, its share of the loop's instructions, the
    first over the second, and the conditional branches valgrind's model mispredicts there a
    trial (``trials`` counted). A ratio well above 1 marks code that waits: on a division or a
    ``log`` whose result the next step needs, on the state read back just after it was written,
    or just after a mispredicted branch (a sample lands on the instruction that waits, often
    the one after the slow one). Where the time is, not where the instructions are, is what a
    change must shorten; stops 45-66 counted instructions only.
    """

    def rows_of(
        time: collections.Counter[str],
        count: collections.Counter[str],
        missed: collections.Counter[str],
    ) -> list[tuple[str, str]]:
        spent, done = sum(time.values()), sum(count.values())
        keys = sorted(set(time) | set(count), key=lambda k: (-time[k], -count[k], k))
        out = []
        for key in keys[:rows]:
            t = time[key] / spent if spent else 0.0
            n = count[key] / done if done else 0.0
            ratio = f"{t / n:.2f}" if n else "-"
            cells = f"{100 * t:.1f}% | {100 * n:.1f}% | {ratio} | {missed[key] / trials:,.1f}"
            out.append((key, cells))
        return out

    head = "| time | instructions | time ÷ instructions | conditional mispredicted a trial |"
    out = [
        f"{sampled_profile.loop:,} samples in the loop's own code "
        f"({share(sampled_profile.loop, sampled_profile.total)} of the process's), "
        f"{instructions.loop / trials:,.0f} instructions a trial; shares of the loop's own",
        "",
        f"| function (self) {head}",
        "|---|---:|---:|---:|---:|",
    ]
    for name, cells in rows_of(sampled_profile.own, instructions.own, conditional.own):
        out.append(f"| `{name}` | {cells} |")
    out += ["", f"| line {head} source |", "|---|---:|---:|---:|---:|---|"]
    for place, cells in rows_of(sampled_profile.lines, instructions.lines, conditional.lines):
        where = placed(place)
        out.append(f"| {where} | {cells} | `{_source_line(where)}` |")
    return "\n".join(out)


def _child(scenario: Path, trials: int, out: Path) -> None:
    """Compile (or load) the kernel with its lines, say where the loop is, run the trials."""
    from simulator.kernel import loop
    from simulator.kernel.cache import cache_dir, with_lines
    from simulator.kernel.engine import kernel_columns
    from simulator.scenario.reading import load_scenario

    assert with_lines(), "the child runs with the line tables"
    loaded = load_scenario(scenario)
    kernel_columns(loaded, 1, 0, 10)
    # the loop is run_batch's own function (run_one is inlined into it; not its Python wrapper)
    found = sorted((cache_dir() / "kernel").glob("loop.run_batch-*.nbc"))
    blobs = [elf_object(path.read_bytes()) for path in found]
    obj = out / "run_batch.o"
    symbol = None
    for blob in blobs:
        obj.write_bytes(blob)
        table = subprocess.run(
            ["objdump", "-t", str(obj)], capture_output=True, text=True, check=True
        ).stdout
        try:
            symbol = symbol_of(table, LOOP)
            break
        except LookupError:
            continue
    if symbol is None:
        raise SystemExit(f"no compiled run_batch under {cache_dir()}")
    batch: Any = loop.run_batch  # numba's dispatcher
    (library,) = [result.library for result in batch.overloads.values()]
    where = {
        "address": library.get_pointer_to_function(symbol.name),
        "size": symbol.size,
        "section": symbol.section,
        "offset": symbol.offset,
        "object": str(obj),
    }
    (out / "where.json").write_text(json.dumps(where))
    go = out / "go"
    while not go.exists():  # the profiler attaches to this process first
        time.sleep(0.05)
    kernel_columns(loaded, 1, 0, trials)


def sampled(scenario: Path, trials: int, haswell: bool = False) -> Profile:
    """Run the child under ``perf``: the samples, tallied.

    With ``haswell``, the child loads the code ``--counted`` counts (compiled for
    :data:`HASWELL`, in its cache folder), so that ``--cpi`` sets time and instructions of
    the same machine code side by side.
    """
    from simulator.kernel.cache import cache_base

    with tempfile.TemporaryDirectory(prefix="kernel-profile-") as folder:
        out = Path(folder)
        env = os.environ | {"HARMONIES_LINE_TABLES": "1"}
        if haswell:
            env |= HASWELL | {"NUMBA_CACHE_DIR": str(cache_base() / "haswell")}
        data = out / "perf.data"
        command = [sys.executable, "-m", "tools.kernel_profile", "--child", str(out)]
        command += [str(scenario), "--trials", str(trials)]
        child = subprocess.Popen(command, env=env, cwd=ROOT)
        while not (out / "where.json").exists():  # compiled (or loaded), warmed up
            if child.poll() is not None:
                raise SystemExit("the profiled process stopped before its trials")
            time.sleep(0.1)
        record = ["perf", "record", "-q", "-F", str(FREQUENCY), "-o", str(data)]
        recorder = subprocess.Popen([*record, "-p", str(child.pid)])
        time.sleep(1.0)  # perf attached
        (out / "go").touch()
        if child.wait() != 0:
            raise SystemExit("the profiled process failed")
        recorder.wait()
        where = json.loads((out / "where.json").read_text())
        script = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip,sym"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        counts: collections.Counter[tuple[int, str]] = collections.Counter()
        for line in script.splitlines():
            parts = line.split(None, 1)
            if parts:
                counts[(int(parts[0], 16), parts[1].strip() if len(parts) > 1 else "?")] += 1
        start, size = where["address"], where["size"]
        offsets = sorted({a - start for a, _ in counts if start <= a < start + size})
        chains = _chains(where, offsets)
        samples = ((a, symbol, n) for (a, symbol), n in counts.items())
        return tally(samples, start, size, chains)


def profile(scenario: Path, trials: int, rows: int) -> str:
    """Run the child under ``perf``; the report."""
    return report(sampled(scenario, trials), rows)


def cpi(scenario: Path, trials: int, counted_trials: int, rows: int) -> str:
    """``--cpi``: the same haswell code sampled (``trials``) and counted (``counted_trials``)."""
    instructions, conditional, _ = counted_profiles(scenario, counted_trials)
    time = sampled(scenario, trials, haswell=True)
    return time_per_instruction_report(time, instructions, conditional, counted_trials, rows)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", type=Path, default=DEFAULT_SCENARIO)
    parser.add_argument(
        "--trials", type=int, help="trials run (default 2,000,000; 2,000 with --counted)"
    )
    parser.add_argument("--lines", type=int, default=30, help="rows of each table")
    parser.add_argument(
        "--counted",
        action="store_true",
        help="count each instruction under valgrind's callgrind instead of sampling",
    )
    parser.add_argument(
        "--cpi",
        action="store_true",
        help="time beside instructions: the same haswell code sampled and counted, each "
        "function's and line's share of both (--trials sampled; 2,000 counted)",
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    trials = args.trials if args.trials is not None else 2_000 if args.counted else 2_000_000
    if args.child is not None:
        _child(args.scenario, trials, args.child)
        return 0
    scenario = args.scenario.resolve()
    if args.cpi:
        print(cpi(scenario, trials, 2_000, args.lines))
        return 0
    how = counted if args.counted else profile
    print(how(scenario, trials, args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
