"""tools.kernel_ab: two builds of the kernel timed in one process, and what their rounds say."""

from __future__ import annotations

import ast
import math
import random
import subprocess
from pathlib import Path

import pytest

from tools import kernel_ab as ab

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_is_renamed_where_it_is_named_and_nowhere_else() -> None:
    text = (
        "from simulator.kernel.jit import inlined\n"
        "import simulator.rules.scalar as scalar\n"
        "from simulator import lazy\n"
        "    import simulator\n"
        "import os\n"
        'KERNEL = "simulator.kernel.jit"\n'
        "# harmonies-simulator, simulator_x, the simulator's own words\n"
    )
    assert ab.renamed(text, "pkg") == (
        "from pkg.kernel.jit import inlined\n"
        "import pkg.rules.scalar as scalar\n"
        "from pkg import lazy\n"
        "    import pkg as simulator\n"
        "import os\n"
        'KERNEL = "pkg.kernel.jit"\n'
        "# harmonies-simulator, simulator_x, the simulator's own words\n"
    )


def test_every_module_of_the_package_still_parses_and_imports_only_the_renamed_one() -> None:
    for path in (ROOT / "simulator").rglob("*.py"):
        tree = ast.parse(ab.renamed(path.read_text(encoding="utf-8")))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] != "simulator", (path, name)


@pytest.mark.parametrize("n", [1, 5, 6, 10, 20, 30, 100])
def test_the_median_interval_holds_at_least_95_percent_by_the_binomial(n: int) -> None:
    low, high = ab.median_interval(n)
    assert 0 <= low <= high == n - 1 - low
    # P(x_(low) <= median <= x_(high)) = P(low < B <= high) for B ~ Binomial(n, 1/2), B the
    # number of values below the median
    cover = sum(math.comb(n, k) for k in range(low + 1, high + 1)) / 2.0**n
    if n >= 6:
        assert cover >= 0.95
        # and it is the narrowest such pair: one rank further in loses the 95%
        tighter = sum(math.comb(n, k) for k in range(low + 2, high)) / 2.0**n
        assert tighter < 0.95
    else:  # too few rounds for 95%: the whole range
        assert (low, high) == (0, n - 1)


def test_the_median_interval_covers_the_true_median_about_95_percent_of_the_time() -> None:
    rng = random.Random(20261207)
    n, repeats = 20, 4000
    low, high = ab.median_interval(n)
    inside = 0
    for _ in range(repeats):
        values = sorted(rng.lognormvariate(0.0, 0.1) for _ in range(n))
        inside += values[low] <= 1.0 <= values[high]  # the lognormal's median is 1
    share = inside / repeats
    exact = sum(math.comb(n, k) for k in range(low + 1, high + 1)) / 2.0**n
    se = math.sqrt(exact * (1 - exact) / repeats)
    assert abs(share - exact) < 4 * se


def test_the_verdict_reads_the_rounds() -> None:
    ratios = [1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 1.0, 1.02, 0.98, 1.01]
    v = ab.verdict(ratios)
    assert v.rounds == 10
    assert v.median == pytest.approx(1.005)
    low, high = ab.median_interval(10)
    assert (v.low, v.high) == (sorted(ratios)[low], sorted(ratios)[high])
    assert v.quartiles[0] <= v.median <= v.quartiles[1]
    assert "median 1.005" in str(v)
    with pytest.raises(ValueError):
        ab.verdict([])


def test_a_revision_is_written_out_as_a_package_of_its_own(tmp_path: Path) -> None:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    target = ab.base_package("HEAD", tmp_path)
    assert target == tmp_path / ab.BASE_PACKAGE
    jit = (target / "kernel" / "jit.py").read_text(encoding="utf-8")
    assert "from simulator_base.kernel.cache import" in jit
    assert "from simulator.kernel" not in jit
    assert (target / "__init__.py").is_file()


def test_the_processes_are_the_units_of_the_verdict() -> None:
    from scipy import stats

    medians = [1.008, 0.986, 1.001, 1.017, 0.988, 1.032, 1.015, 1.021]
    a = ab.across(medians)
    mean = sum(medians) / len(medians)
    sd = math.sqrt(sum((m - mean) ** 2 for m in medians) / (len(medians) - 1))
    half = stats.t.ppf(0.975, len(medians) - 1) * sd / math.sqrt(len(medians))
    assert a.mean == pytest.approx(mean)
    assert (a.low, a.high) == (pytest.approx(mean - half), pytest.approx(mean + half))
    assert a.low < 1.0 < a.high  # this revision against itself: nothing told apart
    assert "over 8 processes" in str(a)
    one = ab.across([1.02])
    assert one.mean == 1.02 and math.isnan(one.low) and math.isnan(one.high)
    with pytest.raises(ValueError):
        ab.across([])
