"""tools.kernel_profile: the kernel's profile by rule function and source line (issue 29).

The tool itself needs ``perf`` and a compiled kernel; these tests pin the parts that read what
those give back (an object file inside a cache file, ``objdump``'s symbol table,
``addr2line``'s inline chains, the samples' tally) and the line-table build's own cache key.
"""

from __future__ import annotations

import re
import struct

import pytest

from simulator.kernel import cache
from tools import kernel_profile as kp


def _elf(body: bytes, sections: int = 3, entsize: int = 64) -> bytes:
    """A made-up 64-bit ELF object: header, ``body``, then its section headers."""
    header = bytearray(64)
    header[:5] = b"\x7fELF\x02"
    shoff = 64 + len(body)
    struct.pack_into("<Q", header, 0x28, shoff)
    struct.pack_into("<HH", header, 0x3A, entsize, sections)
    return bytes(header) + body + b"S" * (entsize * sections)


def test_the_object_is_cut_out_of_a_cache_file_by_its_own_header() -> None:
    obj = _elf(b"code" * 10)
    assert kp.elf_object(b"pickled stuff" + obj + b"more pickle") == obj


def test_a_blob_without_an_object_or_with_one_cut_short_is_refused() -> None:
    with pytest.raises(ValueError, match="no 64-bit ELF"):
        kp.elf_object(b"nothing here")
    with pytest.raises(ValueError, match="cut short"):
        kp.elf_object(_elf(b"code")[:-10])


def test_the_event_loop_is_found_in_objdumps_symbol_table_not_its_python_wrapper() -> None:
    table = "\n".join(
        [
            "0000000000000000 l    df *ABS*\t0000000000000000 <string>",
            "000000000000eea0 g     F .ltext\t00000000000005d0 _ZN7cpython9simulator6kernel4loop"
            "9run_batchB2v1",
            "0000000000000000 g     F .ltext\t000000000000eea0 _ZN9simulator6kernel4loop"
            "9run_batchB2v1",
        ]
    )
    symbol = kp.symbol_of(table, kp.LOOP)
    assert symbol == kp.Symbol("_ZN9simulator6kernel4loop9run_batchB2v1", ".ltext", 0, 0xEEA0)
    with pytest.raises(LookupError):
        kp.symbol_of(table, "_ZN9simulator6kernel4loop8run_many")


def test_names_are_shortened_to_module_and_function() -> None:
    name = "simulator::kernel::clocks::draw_signed[abi:v171][abi:c8tJTC_2fWg]"
    assert kp.short_name(name) == "clocks.draw_signed"
    assert kp.short_name("simulator::rules::rows::least_grave[abi:v1]") == "rows.least_grave"
    assert kp.short_name("??") == "??"


def test_addr2line_chains_are_read_innermost_first() -> None:
    output = [
        "0x0000000000000010",
        "simulator::rules::rows::all_stable[abi:v32]",
        "/repo/simulator/rules/rows.py:224",
        "simulator::kernel::events::changed[abi:v152]",
        "/repo/simulator/kernel/events.py:436 (discriminator 2)",
        "simulator::kernel::loop::run_one[abi:v2]",
        "/repo/simulator/kernel/loop.py:247",
        "0x0000000000000020",
        "simulator::kernel::loop::run_one[abi:v2]",
        "??:0",
    ]
    chains = kp.inline_chains(output)
    assert chains[0x10] == [
        ("rows.all_stable", "rules/rows.py:224"),
        ("events.changed", "kernel/events.py:436"),
        ("loop.run_one", "kernel/loop.py:247"),
    ]
    assert chains[0x20] == [("loop.run_one", "??:0")]


def test_the_tally_counts_each_function_of_a_chain_once_and_the_rest_by_symbol() -> None:
    chains = {
        0: [("rows.all_stable", "rules/rows.py:224"), ("loop.run_one", "kernel/loop.py:247")],
        8: [("loop.run_one", "kernel/loop.py:250"), ("loop.run_one", "kernel/loop.py:240")],
    }
    samples = [(1000, "", 3), (1008, "", 2), (5000, "__ieee754_log_fma", 4)]
    profile = kp.tally(samples, 1000, 100, chains)
    assert (profile.total, profile.loop) == (9, 5)
    assert profile.outside == {"__ieee754_log_fma": 4}
    assert profile.inclusive == {"loop.run_one": 5, "rows.all_stable": 3}
    assert profile.own == {"rows.all_stable": 3, "loop.run_one": 2}
    assert profile.lines == {"rules/rows.py:224": 3, "kernel/loop.py:250": 2}
    text = kp.report(profile, 5)
    assert "| `loop.run_one` | 100.0% | 40.0% |" in text
    assert "| __ieee754_log_fma | 44.4% |" in text


def test_a_spliced_functions_line_is_given_back_to_it() -> None:
    """numba's line tables name the caller's file with the spliced function's line numbers."""
    first = next(n for name, n, _, spliced in kp._functions(kp.ROOT / "simulator/kernel/rng.py")
                 if name == "uniform" and spliced)  # fmt: skip
    where = kp.placed(f"kernel/clocks.py:{first + 1}")  # an import line of clocks.py
    assert where == f"kernel/rng.py:{first + 1} (uniform, spliced)"
    assert kp.placed("kernel/loop.py:?") == "kernel/loop.py:?"
    inside = next(n for name, n, _, _ in kp._functions(kp.ROOT / "simulator/kernel/loop.py")
                  if name == "run_one")  # fmt: skip
    assert kp.placed(f"kernel/loop.py:{inside}") == f"kernel/loop.py:{inside} (run_one)"


def test_the_kernel_with_line_tables_is_cached_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.LINES_VARIABLE, raising=False)
    cache.digest.cache_clear()
    plain = cache.digest()
    monkeypatch.setenv(cache.LINES_VARIABLE, "1")
    cache.digest.cache_clear()
    try:
        assert cache.with_lines()
        assert cache.digest() != plain
    finally:
        monkeypatch.delenv(cache.LINES_VARIABLE)
        cache.digest.cache_clear()
    assert cache.digest() == plain


def test_the_line_table_build_lets_llvm_inline_as_the_build_without_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba's debug mode marks functions ``noinline``; the profiled build must not be marked.

    Otherwise the profile maps its samples through calls the real build does not make
    (stop 59: the line-table build kept calls that the build without lines inlines).
    """
    numba = pytest.importorskip("numba")
    from numba.core import lowering

    from simulator.kernel import jit

    monkeypatch.setattr(lowering.Lower, "pre_lower", lowering.Lower.pre_lower)  # put back after

    def plus_one(x: int) -> int:
        return x + 1

    def marks(fn: object) -> bool:
        """Whether the function itself is marked (its wrappers' calls of it always are)."""
        compiled = numba.njit(debug=True)(fn)
        compiled(1)
        (ir,) = compiled.inspect_llvm().values()
        groups = dict(re.findall(r"^attributes (#\d+) = \{(.*)\}$", ir, re.MULTILINE))
        (group,) = re.findall(r"^define [^@]*@_ZN\d+(?!cpython)\w*\(.*\) [^#{]*(#\d+)", ir,
                              re.MULTILINE)  # fmt: skip
        return "noinline" in groups[group].split()

    assert marks(plus_one)  # numba's own debug mode: marked, so the test can fail
    jit._inline_as_built()
    jit._inline_as_built()  # once per process, however often asked
    assert not marks(lambda x: x + 1)


def test_callgrinds_own_costs_are_read_in_the_loops_range_less_the_calls_inclusive_ones() -> None:
    text = "\n".join(
        [
            "version: 1",
            "ob=???",
            "fn=0x0000000000001000",
            "0x1000 0 5",
            "0x1004 0 7",
            "calls=3 0x2000",
            "0x1008 0 900",  # the call's inclusive cost: not the instruction's own
            "0x1008 0 2",
            "0x1004 0 1",  # the same instruction again, in another context
            "0x0fff 0 50",  # before the loop
            "0x1100 0 60",  # after it
        ]
    )
    assert kp.callgrind_costs(text, 0x1000, 0x100) == {0: 5, 4: 8, 8: 2}


def test_the_counted_report_gives_instructions_a_trial() -> None:
    chains = {0: [("rows.cell", "rules/rows.py:79"), ("loop.run_one", "kernel/loop.py:247")]}
    profile = kp.tally([(1000, "", 3000)], 1000, 100, chains)
    text = kp.per_trial_report(profile, 1000, 5)
    assert text.startswith("3 instructions a trial in the event loop's own code")
    assert "| `rows.cell` | 3 | 3 |" in text
    assert "| `loop.run_one` | 3 | 0 |" in text


def test_the_branch_models_columns_are_read_in_the_order_of_the_events_header() -> None:
    """``--branch-sim=yes``: ``Ir Bc Bcm Bi Bim`` after ``instr line``, trailing zeros left out."""
    text = "\n".join(
        [
            "version: 1",
            "positions: instr line",
            "events: Ir Bc Bcm Bi Bim",
            "fn=0x0000000000001000",
            "0x1000 12 5",  # no branch: the four zeros left out
            "0x1004 12 7 7 3",  # a conditional branch, mispredicted 3 times of 7
            "0x1008 13 4 0 0 4 2",  # an indirect one, mispredicted twice of 4
            "calls=3 0x2000",
            "0x100c 13 900 40 30 20 10",  # the call's inclusive cost: not the instruction's own
            "0x100c 13 3 3 1",
            "0x1004 12 1 1 1",  # the same instruction again, in another context
            "0x1100 0 60 60 60 60 60",  # outside the loop
        ]
    )
    costs = kp.callgrind_events(text, 0x1000, 0x100)
    assert costs["Ir"] == {0: 5, 4: 8, 8: 4, 12: 3}
    assert costs["Bc"] == {4: 8, 12: 3}
    assert costs["Bcm"] == {4: 4, 12: 1}
    assert costs["Bi"] == {8: 4}
    assert costs["Bim"] == {8: 2}
    # the line number is a position, not a count; another order of events is followed
    other = "positions: instr line\nevents: Bcm Ir\n0x1000 12 2 9\n"
    assert kp.callgrind_events(other, 0x1000, 0x10) == {"Bcm": {0: 2}, "Ir": {0: 9}}
    assert kp.callgrind_costs(other, 0x1000, 0x10) == {0: 9}


def test_the_counted_report_gives_mispredicted_branches_a_trial_by_function_and_line() -> None:
    chains = {
        0: [("rows.cell", "rules/rows.py:79"), ("loop.run_one", "kernel/loop.py:247")],
        4: [("loop.run_one", "kernel/loop.py:250")],
    }
    instructions = kp.tally([(1000, "", 3000), (1004, "", 1000)], 1000, 100, chains)
    conditional = kp.tally([(1000, "", 1500), (1004, "", 500)], 1000, 100, chains)
    indirect = kp.tally([(1004, "", 250)], 1000, 100, chains)
    text = kp.per_trial_report(instructions, 1000, 5, (conditional, indirect))
    assert "| `rows.cell` | 3 | 3 |" in text  # the instructions' tables as before
    assert "2.0 conditional and 0.2 indirect branches mispredicted a trial" in text
    assert "| `loop.run_one` | 2.0 | 0.5 | 0.2 | 0.2 |" in text
    assert "| `rows.cell` | 1.5 | 1.5 | 0.0 | 0.0 |" in text
    assert "| kernel/loop.py:250 (run_one) | 0.5 | 0.2 |" in text


def test_the_cpi_report_sets_each_functions_share_of_time_beside_its_share_of_instructions() -> (
    None
):
    """``--cpi``: a line with a quarter of the samples and a twentieth of the instructions
    waits five times as long per instruction as the loop does; rows follow the time."""
    chains = {
        0: [("rows.cell", "rules/rows.py:79"), ("loop.run_one", "kernel/loop.py:247")],
        4: [("loop.run_one", "kernel/loop.py:250")],
    }
    time = kp.tally([(1000, "", 25), (1004, "", 75), (9000, "log", 20)], 1000, 100, chains)
    instructions = kp.tally([(1000, "", 500), (1004, "", 9500)], 1000, 100, chains)
    conditional = kp.tally([(1000, "", 300)], 1000, 100, chains)
    text = kp.time_per_instruction_report(time, instructions, conditional, 100, 5)
    assert text.startswith("100 samples in the loop's own code (83.3% of the process's), 100 ")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows == [
        "| `loop.run_one` | 75.0% | 95.0% | 0.79 | 0.0 |",
        "| `rows.cell` | 25.0% | 5.0% | 5.00 | 3.0 |",
    ]
    assert "| rules/rows.py:79 (cell) | 25.0% | 5.0% | 5.00 | 3.0 |" in text
    # code sampled but never counted (or counted, never sampled) keeps its row
    lone = kp.tally([(1008, "", 10)], 1000, 100, {8: [("loop._next", "kernel/loop.py:185")]})
    text = kp.time_per_instruction_report(lone, instructions, conditional, 100, 5)
    assert "| `loop._next` | 100.0% | 0.0% | - | 0.0 |" in text
    assert "| `loop.run_one` | 0.0% | 95.0% | 0.00 | 0.0 |" in text
