"""An inset that zooms on the points a figure piles up: a balance's evaluations near its target.

A search by bisection evaluates many values close together near the target: on the key's
whole range they are drawn on top of each other. :func:`zoom_window` says which of them
pile up, :func:`inset_place` finds the corner the curve leaves free, and :func:`zoom_on`
sets the inset's view, labelled at the values that matter only (:class:`FittingLabels`:
those whose words would touch another's are left unlabelled, as the figure is drawn).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import Formatter, MaxNLocator, NullLocator

PILED = 0.12
"""Two neighbouring points closer than this (inches, on the page) are drawn on each other:
a marker is about 0.05 in wide, its interval's caps 0.06."""

ACROSS = 0.1
"""Two neighbouring points closer than this across the page (inches) pile up too: their
intervals are drawn over each other, whatever their heights."""

NEIGHBOURS = 2
"""The evaluations shown each side of the values that matter (the bracket, the best)."""

WIDEST = 0.35
"""The widest share of the axis a zoom may cover: wider, it would show nothing new."""

SIZE = (0.34, 0.38)
"""The inset's width and height, as shares of the plot's."""

MARGIN = (0.09, 0.10)
"""Room left of the inset for its percents and below it for its values (shares of the plot)."""

CORNERS = ((0.64, 0.55), (0.11, 0.55), (0.64, 0.13), (0.11, 0.13), (0.64, 0.34), (0.11, 0.34))
"""Where an inset may go (its lower left corner), in order of preference: upper right first."""


LABEL_SIZE = 8
"""The inset's tick labels' size, in points."""

LABEL_GAP = 4.0
"""The least room between two of the inset's tick labels, in points."""


class FittingLabels(Formatter):
    """The words of the values that matter, each left out where it would touch one kept.

    Decided each time the inset is drawn, on its width then (a layout engine narrows the
    plot after it is drawn on), in order of ``order``: the first is always labelled, each
    next one only if its words stand :data:`LABEL_GAP` points apart from those kept. A value
    left unlabelled keeps its tick; the legend names it (the bracket, the best).

    Args:
        labels: The values labelled and their words.
        order: The values in the order they claim a label (the first: always labelled).
    """

    def __init__(self, labels: dict[float, str], order: Sequence[float]) -> None:
        self.labels = dict(labels)
        self.order = [v for v in dict.fromkeys(order) if v in self.labels]
        self.order += [v for v in sorted(self.labels) if v not in self.order]
        font = FontProperties(size=LABEL_SIZE)
        self.widths = {  # in points, as drawn (no renderer needed)
            v: float(TextToPath().get_text_width_height_descent(text, font, ismath=False)[0])
            for v, text in self.labels.items()
        }

    def kept(self) -> set[float]:
        """The values labelled, the inset's width as it is now."""
        axes = getattr(self.axis, "axes", None)  # None: not on an axis yet (or a dummy's)
        if not isinstance(axes, Axes):
            return set(self.labels)
        figure = axes.get_figure(root=True)
        assert figure is not None  # an axes drawn on is on a figure
        scale = 72.0 / figure.dpi  # pixels to points
        at = {
            v: float(axes.transData.transform((v, 0.0))[0]) * scale for v in self.labels
        }  # fmt: skip
        spans: list[tuple[float, float]] = []
        kept: set[float] = set()
        for value in self.order:
            half = self.widths[value] / 2
            span = (at[value] - half - LABEL_GAP, at[value] + half + LABEL_GAP)
            if not spans or all(span[1] <= a or span[0] >= b for a, b in spans):
                spans.append((at[value] - half, at[value] + half))
                kept.add(value)
        return kept

    def format_ticks(self, values: Sequence[float] | np.ndarray) -> list[str]:
        """Each tick's words, empty for one left out."""
        kept = self.kept()
        return [self.labels.get(float(v), "") if float(v) in kept else "" for v in values]

    def __call__(self, x: float, pos: int | None = None) -> str:
        """One tick's words (the cursor's readout, and a tick drawn alone)."""
        return self.labels.get(float(x), "")


def _fractions(ax: Axes, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Data coordinates as shares of the plot's width and height (log scales read as such)."""
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    if ax.get_xscale() == "log":
        fx = (np.log(np.maximum(x, 1e-300)) - np.log(x0)) / (np.log(x1) - np.log(x0))
    else:
        fx = (x - x0) / (x1 - x0)
    return fx, (y - y0) / (y1 - y0)


def _inches(ax: Axes) -> tuple[float, float]:
    """The plot's width and height on the page, in inches."""
    figure = ax.get_figure(root=True)
    assert figure is not None  # an axes drawn on is on a figure
    box = ax.get_position()
    width, height = figure.get_size_inches()
    return float(width * box.width), float(height * box.height)


def zoom_window(
    ax: Axes, x: np.ndarray, y: np.ndarray, focus: Sequence[float]
) -> tuple[int, int] | None:
    """The first and last index of the points to zoom on, or None when none pile up.

    The values that matter, and up to :data:`NEIGHBOURS` evaluations each side of them as
    long as each is piled on the last one taken.

    Args:
        ax: The plot, its scales and limits set.
        x: The values, sorted.
        y: Their statistic, as drawn.
        focus: The values that matter (the bracket's, the best); none: no zoom.
    """
    at = [int(np.searchsorted(x, v)) for v in focus if v in set(x.tolist())]
    if not at:
        return None
    fx, fy = _fractions(ax, x, y)
    width, height = _inches(ax)
    across = np.abs(np.diff(fx)) * width  # [i]: from point i to point i + 1
    apart = np.where(across < ACROSS, 0.0, np.hypot(across, np.diff(fy) * height))
    first, last = min(at), max(at)
    for _ in range(NEIGHBOURS):
        if first > 0 and apart[first - 1] < PILED:
            first -= 1
        if last < len(x) - 1 and apart[last] < PILED:
            last += 1
    piled = first < last and float(apart[first:last].min()) < PILED
    return (first, last) if piled and fx[last] - fx[first] <= WIDEST else None


def inset_place(
    ax: Axes,
    x: np.ndarray,
    y: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    window: tuple[int, int],
) -> tuple[float, float, float, float]:
    """Where the inset goes, ``(x0, y0, width, height)`` as shares of the plot.

    The corner of :data:`CORNERS` whose inset (with its labels) covers the fewest stretches
    of the curve and of its intervals, and never the stretch it zooms on.
    """
    first, last = window
    fx, fy = _fractions(ax, x, y)
    _, flow = _fractions(ax, x, low)
    _, fhigh = _fractions(ax, x, high)
    steps = np.linspace(0.0, 1.0, 24, endpoint=False)
    # the line's stretches (straight on the page, whatever the scale) and the intervals
    px = np.concatenate([fx[:-1] + np.diff(fx) * t for t in steps] + [np.repeat(fx, 9)])
    py = np.concatenate([fy[:-1] + np.diff(fy) * t for t in steps]
                        + [np.linspace(flow, fhigh, 9).T.ravel()])  # fmt: skip
    zoomed = (fx[first], fx[last], flow[first : last + 1].min(), fhigh[first : last + 1].max())
    w, h = SIZE

    def covered(corner: tuple[float, float]) -> float:
        x0, y0 = corner[0] - MARGIN[0], corner[1] - MARGIN[1]
        x1, y1 = corner[0] + w, corner[1] + h
        if zoomed[0] <= x1 and zoomed[1] >= x0 and zoomed[2] <= y1 and zoomed[3] >= y0:
            return float("inf")  # it would hide what it shows
        return float(((px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)).sum())

    corner = min(CORNERS, key=covered)  # the first of the least covered: upper right first
    return corner[0], corner[1], w, h


def zoom_on(
    ax: Axes,
    inset: Axes,
    x: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    target: float,
    window: tuple[int, int],
    labels: dict[float, str],
    order: Sequence[float] = (),
) -> None:
    """The inset's view of ``window``, ticks at ``labels``' values only, linked to the plot.

    Args:
        ax: The plot.
        inset: The inset, drawn on.
        x: The values, sorted.
        low: Their intervals' lower ends, as drawn.
        high: Their upper ends.
        target: The target, as drawn.
        window: The first and last index shown.
        labels: The values labelled (the bracket's, the best) and their words.
        order: The values in the order they claim a label where the words of two would
            touch (:class:`FittingLabels`); the others after them, left to right.
    """
    first, last = window
    span = float(x[last] - x[first])
    inset.set_xscale("linear")  # a narrow stretch: to scale, even where the plot is on a log
    inset.set_xlim(x[first] - 0.08 * span, x[last] + 0.08 * span)
    bottom = min(float(low[first : last + 1].min()), target)
    top = max(float(high[first : last + 1].max()), target)
    pad = max(0.1 * (top - bottom), 1.0)
    inset.set_ylim(max(0.0, bottom - pad), min(100.0, top + pad))
    inset.set_xticks(sorted(labels))
    inset.xaxis.set_major_formatter(FittingLabels(labels, order))  # never over each other
    inset.xaxis.set_minor_locator(NullLocator())  # no minor ticks: the values only
    inset.yaxis.set_major_locator(MaxNLocator(3))
    inset.tick_params(labelsize=LABEL_SIZE, length=2, pad=1.5)
    inset.set_facecolor("white")
    for spine in inset.spines.values():
        spine.set_visible(True)
        spine.set_linewidth(0.8)
    ax.indicate_inset_zoom(inset, edgecolor="#555555", linewidth=0.8)


__all__ = ["FittingLabels", "inset_place", "zoom_on", "zoom_window"]
