"""The progress bar: tqdm's text on a terminal, as ever; its widget under a Jupyter kernel.

tqdm chooses once per process, at its first import, so each Jupyter case runs in a Python of
its own, with the kernel's module loaded (``ipykernel.zmqshell``, which is how tqdm tells a
notebook) and ipywidgets missing, or stood in for by a few plain classes.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from tqdm.std import tqdm as text_bar

from simulator.runner.plan import Progress, bar_type
from tests.support import REPO


def test_outside_jupyter_the_bar_is_tqdms_text_on_stderr(capsys):
    assert bar_type() is text_bar
    with Progress(200, done=50) as bar:
        bar.advance(150)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "trials: 100%|" in captured.err and "200/200" in captured.err


def test_a_disabled_bar_draws_nothing(capsys):
    with Progress(200, enabled=False) as bar:
        bar.advance(200)
    assert capsys.readouterr() == ("", "")


def in_jupyter(widgets: str) -> subprocess.CompletedProcess[str]:
    """Draw a bar in a Python that looks like a Jupyter kernel; its outputs and bar's type."""
    pytest.importorskip("ipykernel", reason="the notebooks extra is not installed")
    code = textwrap.dedent(
        """
        import sys, types, warnings
        import ipykernel.zmqshell  # noqa: F401  (what tqdm looks for)
        warnings.simplefilter("error")  # from here, a warning (tqdm's) fails the run
        """
    )
    code += textwrap.dedent(widgets)
    code += textwrap.dedent(
        """
        from simulator.runner.plan import Progress
        with Progress(200, done=50) as bar:
            bar.advance(150)
            kind = type(bar._bar)
        print("TYPE", kind.__module__, kind.__name__)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return run


def test_in_jupyter_without_ipywidgets_the_text_bar_shows_without_warnings():
    run = in_jupyter('sys.modules["ipywidgets"] = None  # not installed\n')
    assert "TYPE tqdm.std tqdm" in run.stdout
    assert "trials: 100%|" in run.stderr and "Warning" not in run.stderr


STAND_IN = """
    class Widget:  # what tqdm's notebook bar uses of ipywidgets' FloatProgress, HTML, HBox
        def __init__(self, **kwargs):
            self.value, self.bar_style, self.children = 0, "", ()
            self.layout, self.style = types.SimpleNamespace(), types.SimpleNamespace(bar_color=None)
            self.__dict__.update(kwargs)

        def close(self):
            pass

    widgets = types.ModuleType("ipywidgets")
    widgets.FloatProgress = widgets.HTML = widgets.HBox = Widget
    sys.modules["ipywidgets"] = widgets
"""


def test_in_jupyter_with_ipywidgets_the_bar_is_tqdms_widget():
    run = in_jupyter(STAND_IN)
    assert "TYPE tqdm.notebook tqdm_notebook" in run.stdout
    assert run.stderr == ""  # no text bar, no warning
