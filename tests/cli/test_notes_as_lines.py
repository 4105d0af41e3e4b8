"""A notebook's or a script's notes: ``note: ...`` lines, as the command line shows them."""

from __future__ import annotations

import subprocess
import sys


def test_a_note_is_one_line_and_other_warnings_stay_pythons():
    """Jupyter showed a note as Python shows a warning: the library's file and line first."""
    code = (
        "import warnings\n"
        "from simulator.cli.common import notes_as_lines\n"
        "from simulator.errors import note, phrase\n"
        "from simulator.report.i18n import language\n"
        "notes_as_lines()\n"
        "note('the first')\n"
        "note('the first')\n"  # said twice: shown twice, as each command would
        "with language('fr'):\n"
        "    note(phrase('{path} is damaged (not a readable chunk of trials {first} to {last}); "
        "it is deleted and its trials are run again.', path='x', first=0, last=9))\n"
        "warnings.warn('plain', UserWarning)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    lines = done.stderr.splitlines()
    assert lines[:3] == [
        "note: the first",
        "note: the first",
        "note: x est abîmé (pas une tranche lisible des essais 0 à 9) ; il est supprimé et ses "
        "essais sont relancés.",
    ]
    assert "UserWarning: plain" in done.stderr and "HarmoniesNote" not in done.stderr
