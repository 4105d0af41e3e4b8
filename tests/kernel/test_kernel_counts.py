"""tools.kernel_counts: instructions and mispredicted branches a trial, counted by valgrind.

The tool itself needs valgrind and minutes; these tests pin the part that reads what
cachegrind prints and the difference it takes.
"""

from __future__ import annotations

import pytest

from tools import kernel_counts as kc

SUMMARY = """==18510== I   refs:      97,390,397,545
==18510==
==18510== Branches:       10,000,000,000  ( 9,000,000,000 cond + 1,000,000,000 ind)
==18510== Mispredicts:    1,503,088,531  (   886,838,294 cond +   616,250,237 ind)
==18510== Mispred rate:            10.6% (           7.1%     +          38.0%   )
"""


def test_cachegrinds_summary_is_read_with_its_thousands_separators() -> None:
    assert kc.parse(SUMMARY) == kc.Counts(97_390_397_545, 886_838_294, 616_250_237)


def test_a_summary_without_the_branch_simulation_is_refused() -> None:
    with pytest.raises(ValueError, match="branch simulation"):
        kc.parse("==1== I   refs:      12,345\n")


def test_the_line_gives_the_difference_of_the_two_runs_per_trial() -> None:
    none = kc.Counts(1_000, 100, 10)
    many = kc.Counts(1_000 + 39_181 * 20_000, 100 + 4_174_000, 10 + 718_000)
    line = kc.per_trial(many, none, 20_000)
    assert line == (
        "39,181 instructions, 208.7 conditional and 35.9 indirect branches mispredicted a trial"
    )


def test_haswell_counts_code_compiled_for_haswell_in_a_cache_of_its_own(monkeypatch) -> None:
    """``--haswell``: the children get numba's target and a folder apart from valgrind's own."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    plain, haswell = kc._environment(False), kc._environment(True)
    assert plain["NUMBA_CACHE_DIR"] == "/somewhere/valgrind" and "NUMBA_CPU_NAME" not in plain
    assert haswell["NUMBA_CACHE_DIR"] == "/somewhere/valgrind-haswell"
    assert haswell["NUMBA_CPU_NAME"] == "haswell" and "+avx2" in haswell["NUMBA_CPU_FEATURES"]
    assert "+avx512f" not in haswell["NUMBA_CPU_FEATURES"]  # valgrind runs no AVX-512


def test_the_reference_is_counted_with_each_of_its_generators() -> None:
    """``--reference``: its MT19937, as make bench times it, and xoshiro, its logic apart."""
    ours = kc.child_command(kc.DEFAULT_SCENARIO, 5, None)
    assert ours[0] == "valgrind" and ours[-1] == "--child"
    for rng in kc.REFERENCE_RNGS:
        assert kc.child_command(kc.DEFAULT_SCENARIO, 5, rng)[-2:] == ["--reference-rng", rng]
    assert kc.REFERENCE_RNGS == ("np", "xoshiro")
