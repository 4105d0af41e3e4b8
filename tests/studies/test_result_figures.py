"""A sweep and a comparison draw their own figure (``result.figure()``, a notebook's call), the
very figure their ``save`` writes: same titles, labels, ticks, lines and numbers, same style."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from simulator.errors import UserError, fill
from simulator.report import style as report_style
from simulator.report.i18n import language, tr
from simulator.studies import Exact
from simulator.studies.api import run_compare, run_sweep
from tests.support import tiny_file


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_file(tmp_path_factory)


@pytest.fixture(scope="module")
def one_key(tiny):
    return run_sweep(tiny, {"first_aid.level": [0, 2, 4]}, trials=60, seed=1, workers=1)


@pytest.fixture(scope="module")
def two_keys(tiny):
    grid = {"first_aid.level": [0, 2], "healing.level": [0, 3]}
    return run_sweep(tiny, grid, trials=40, seed=1, workers=1)


@pytest.fixture(scope="module")
def compared(tiny):
    return run_compare(tiny, tiny, trials=50, seed=1, workers=1, overrides=["first_aid.level=3"])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def said(ax: Axes) -> dict[str, Any]:
    """Everything an Axes shows a reader: its words, ticks, lines and numbers (drawn first)."""
    ax.figure.canvas.draw()
    legend = ax.get_legend()
    return {
        "title": ax.get_title(loc="left"),
        "title weight": ax._left_title.get_fontweight(),  # the style's (bold)
        "xlabel": ax.get_xlabel(),
        "ylabel": ax.get_ylabel(),
        "xticks": [t.get_text() for t in ax.get_xticklabels() if t.get_visible()],
        "yticks": [t.get_text() for t in ax.get_yticklabels() if t.get_visible()],
        "legend": [t.get_text() for t in legend.get_texts()] if legend is not None else [],
        "texts": [t.get_text() for t in ax.texts],
        "lines": [np.asarray(line.get_xydata()).round(12).tolist() for line in ax.lines],
        "images": [np.asarray(image.get_array()).round(12).tolist() for image in ax.images],
        "spines": [name for name, spine in ax.spines.items() if spine.get_visible()],
    }


def shown(figure: Figure) -> list[dict[str, Any]]:
    """What every Axes of a figure shows (a heatmap's colour bar is an Axes of its own)."""
    return [said(ax) for ax in figure.axes]


@pytest.fixture
def saved(monkeypatch) -> list[Figure]:
    """The figures ``save`` writes, as they are handed to the writer."""
    figures: list[Figure] = []
    write = report_style.save_figure

    def keep(fig: Figure, *args: Any, **kwargs: Any) -> list[Path]:
        figures.append(fig)
        return write(fig, *args, **kwargs)

    monkeypatch.setattr(report_style, "save_figure", keep)
    return figures


def test_a_sweep_of_one_key_draws_each_share_against_it(one_key):
    ax = one_key.figure()
    assert isinstance(ax, Axes) and isinstance(ax.figure, Figure)
    assert tuple(ax.figure.get_size_inches()) == (7.0, 4.2)
    assert ax.get_title(loc="left").splitlines() == [
        "Outcome against first-aid level",  # the key's words, as balance's and the page's
        "Tiny grave wound — 60 trials per point",
    ]
    assert ax.get_xlabel() == "first-aid level"
    assert ax.get_ylabel() == "Share of campaigns (95% CI band)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "dead",
        "healed",
        "still wounded",
    ]
    assert len(ax.lines) == 3 and all(len(line.get_xdata()) == 3 for line in ax.lines)
    dead = 100 * one_key.frame["p_dead"].to_numpy()
    np.testing.assert_allclose(ax.lines[0].get_ydata(), dead)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "2", "4"]


def test_a_sweep_of_two_keys_draws_the_share_dead_as_a_heatmap(two_keys):
    ax = two_keys.figure()
    assert isinstance(ax.figure, Figure) and tuple(ax.figure.get_size_inches()) == (6.4, 4.8)
    title = ax.get_title(loc="left").replace("\n", " ")
    assert title.startswith("Share dead by first-aid level and healer's level"), title
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("healer's level", "first-aid level")
    assert len(ax.images) == 1 and sum(t.get_text().endswith("%") for t in ax.texts) == 4
    bar = [other for other in ax.figure.axes if other is not ax]
    assert len(bar) == 1 and bar[0].get_ylabel() == "Share dead"


def test_a_comparison_draws_the_differences_of_its_shares(compared):
    ax = compared.figure()
    assert isinstance(ax, Axes) and isinstance(ax.figure, Figure)
    assert tuple(ax.figure.get_size_inches()) == (7.0, 3.2)
    title = ax.get_title(loc="left").replace("\n", " ")  # wrapped to the figure's width
    named = "Tiny grave wound (with first_aid.level=3)"
    assert title == f"A: {named}  vs  B: {named} 50 trials, same seeds"
    assert ax.get_xlabel() == "Difference in share of campaigns, A − B (percentage points, 95% CI)"
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["dead", "healed", "still wounded", "incoherent"]  # the shares, no causes
    assert len(ax.texts) == 4 and all(t.get_text().endswith("]") for t in ax.texts)


def test_an_exact_comparison_draws_its_bounds(tiny):
    exact = run_compare(tiny, tiny, Exact(), overrides=["first_aid.level=3"])
    ax = exact.figure()
    assert "exact, with its bounds" in ax.get_xlabel()
    assert "(exact)" in ax.get_title(loc="left") and "trials" not in ax.get_title(loc="left")


def test_the_figure_is_the_one_save_writes(one_key, two_keys, compared, saved, tmp_path):
    studies = ((one_key, "sweep"), (two_keys, "sweep"), (compared, "compare"))
    for number, (result, stem) in enumerate(studies):
        saved.clear()
        out = tmp_path / str(number)
        written = result.save(out, formats=("svg",))
        assert out / f"{stem}.svg" in written and len(saved) == 1
        mine = result.figure()
        assert tuple(mine.figure.get_size_inches()) == tuple(saved[0].get_size_inches())
        assert shown(mine.figure) == shown(saved[0]), stem
        svg = (out / f"{stem}.svg").read_text(encoding="utf-8")
        for line in [*mine.get_title(loc="left").splitlines(), mine.get_xlabel()]:
            assert line.replace("&", "&amp;") in svg, line


def test_a_figure_is_drawn_on_the_axes_given(one_key, compared):
    _, (left, right) = plt.subplots(1, 2)
    assert one_key.figure(ax=left) is left
    assert compared.figure(right) is right
    assert left.lines and right.get_yticklabels()


def test_a_figure_speaks_the_language_in_force(compared):
    with language("fr"):
        ax = compared.figure()
    assert ax.get_yticklabels()[0].get_text() == "mort"
    assert ax.get_title(loc="left").endswith("50 essais, mêmes graines")


def test_a_sweep_of_three_keys_has_no_figure(tiny):
    grid = {"first_aid.level": [0], "healing.level": [0], "patient.cp_rs": [8]}
    three = run_sweep(tiny, grid, trials=10, seed=1, workers=1)
    with pytest.raises(UserError, match="no figure for a sweep of 3 keys") as refused:
        three.figure()
    phrase = refused.value.phrase
    assert phrase is not None  # worded in the language in force where it is shown
    french = fill(phrase.template, phrase.args, lambda text: tr(text, "fr"))
    assert french.startswith("pas de figure pour un balayage de 3 clés")
