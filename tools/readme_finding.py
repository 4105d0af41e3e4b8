"""The README's copy of the main study's finding on Géraldine.

The sentences are ``scenarios/studies/geraldine_finding.py``'s (the writer that
``scenarios/studies/geraldine.toml`` names, which ``harmonies-sim study scenarios`` puts into
``results/README.md``). This script writes the same sentences, computed again from the
committed files ``results/geraldine/first-aid.csv``, ``stable-tests.csv`` and
``scenario.toml``, between the markers of :func:`simulator.studies.main_study.finding_start`
in ``README.md``, the paragraph after its first figure (``make run`` does). It changes nothing
else, and nothing when the markers are missing (it says so and exits 1). The README's copy is
always English.

Usage::

    python -m tools.readme_finding [--results results] [--readme README.md] [--check]

``--check`` writes nothing and exits 1 when the README's sentences are not the results'.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.report.i18n import language
from simulator.scenario.described import read_extras
from simulator.studies.main_study import FINDING_END

REPO = Path(__file__).resolve().parent.parent

DESCRIPTION = REPO / "scenarios" / "studies" / "geraldine.toml"
"""The main study's description of Géraldine's extra studies, which names the writer."""

finding_in = read_extras(DESCRIPTION).writer_function()
"""The writer of the finding: ``scenarios/studies/geraldine_finding.py``'s, loaded as the
study loads it (one module, whichever asks first)."""
_WRITER = sys.modules[finding_in.__module__]

STEM: str = _WRITER.STEM
SAFE: float = _WRITER.SAFE
FINDING_START: str = _WRITER.FINDING_START
finding = _WRITER.finding
read = _WRITER.read
safe_levels = _WRITER.safe_levels
tries_before_first_test = _WRITER.tries_before_first_test


def finding_of(results: Path) -> str:
    """The finding, from the committed files of ``results/geraldine/``."""
    return finding_in(results / STEM)


def marked(text: str) -> str | None:
    """The text between the finding's markers (stripped), or None without them."""
    start, end = text.find(FINDING_START), text.find(FINDING_END)
    if start < 0 or end < start:
        return None
    return text[start + len(FINDING_START) : end].strip()


def with_finding(text: str, finding: str) -> str:
    """``text`` with ``finding`` between the markers (which must be there)."""
    start = text.index(FINDING_START) + len(FINDING_START)
    end = text.index(FINDING_END)
    return text[:start] + "\n" + finding + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the README's finding; 0 when done or equal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "results")
    parser.add_argument("--readme", type=Path, default=REPO / "README.md")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    if marked(text) is None:
        print(
            f"{args.readme}: no finding markers ({FINDING_START} … {FINDING_END})", file=sys.stderr
        )
        return 1
    with language("en"):  # the README is English
        finding = finding_of(args.results)
    if args.check:
        if marked(text) != finding:
            print(f"{args.readme}: the finding is not the results'; expected:\n{finding}")
            return 1
        return 0
    new = with_finding(text, finding)
    if new != text:
        args.readme.write_text(new, encoding="utf-8")
        print(f"{args.readme}: finding updated from {args.results}/{STEM}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
