"""Every link of the committed pages and Markdown files leads to a committed file.

A clone is what a designer opens: a page of ``results/`` that links to a file git does not
keep (the study's ``trials.parquet``, once) is a dead link there, whatever ``make run`` wrote.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINK = {
    ".html": re.compile(r'(?:href|src)="([^"#:?]+)(?:[#?][^"]*)?"'),
    ".md": re.compile(r"\]\(([^)#:?\s]+)(?:[#?][^)\s]*)?\)"),
}


def committed() -> set[str]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return set(listed.splitlines())


def test_every_relative_link_of_a_committed_page_is_committed():
    files = committed()
    dead = []
    for name in sorted(files):
        pattern = LINK.get(Path(name).suffix)
        if pattern is None or name.startswith("simulator/") or not (REPO / name).is_file():
            continue  # the server's templates link to its own routes
        for href in pattern.findall((REPO / name).read_text(encoding="utf-8")):
            if href.startswith("/") or "{" in href:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(name), href))
            if target not in files and not (REPO / target).is_dir():
                dead.append(f"{name} -> {href}")
    assert not dead, dead
