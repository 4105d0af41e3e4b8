"""The look of every figure, and how figures are saved: one style, greyscale-safe, atomic.

:func:`draw_and_save` draws on an Agg figure (no pyplot, no display) and writes PNG and/or
SVG atomically, with no date or software stamp, so the same figure gives the same bytes.
"""

from __future__ import annotations

import itertools
import re
import textwrap
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import FuncFormatter
from matplotlib.transforms import Bbox

from simulator.files import atomic_write

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

STYLE: dict[RcKeyType, Any] = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.linewidth": 0.8,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "hatch.linewidth": 0.6,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "svg.hashsalt": "harmonies-simulator",
    "svg.fonttype": "none",
}
"""Matplotlib settings of every figure saved by this module."""


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`STYLE` for the duration of a block.

    A character the font lacks (an emoji in a scenario's name) is drawn as a box, quietly:
    matplotlib's warning would print a line of its source code among the command's output.
    """
    with mpl.rc_context(STYLE), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        yield


def new_axes(ax: Axes | None, size: tuple[float, float] = (7.0, 4.2)) -> Axes:
    """The Axes given, or the Axes of a new pyplot figure (for notebooks) when None."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def ticks_in_language(said: Callable[[float, Any], str]) -> FuncFormatter:
    """A tick formatter in the language in force as the figure is built, not when drawn.

    A notebook draws a figure after the cell, outside ``with language("fr"):``: its ticks
    read ``20%`` under a French title without this.
    """
    from simulator.report.i18n import current_language, language

    lang = current_language()

    def tick(value: float, position: Any) -> str:
        with language(lang):
            return said(value, position)

    return FuncFormatter(tick)


def percent_axis(axis: Axis, decimals: int | None = None) -> None:
    """Tick labels of shares given in percent (0-100): ``20%``, or ``20 %`` in French.

    ``decimals``: as many as the ticks need to read as they are (2.5%, 7.5%: one; they read
    3% and 8% at none), when not given.
    """
    from simulator.report.i18n import percent_text

    def label(value: float, _position: object) -> str:
        places = decimals if decimals is not None else tick_decimals(axis.get_majorticklocs())
        return percent_text(value / 100, places, digits=1)

    axis.set_major_formatter(ticks_in_language(label))


def number_axis(axis: Axis) -> None:
    """Tick labels of plain numbers in the language in force (``2,5`` in French)."""
    from simulator.report.i18n import number_text

    axis.set_major_formatter(ticks_in_language(lambda v, _: number_text(round(v, 6))))


def title_axes(
    ax: Axes,
    what: str,
    name: str | None,
    trials: int | None,
    extra: str | None = None,
    *,
    per_point: bool = False,
) -> None:
    """Title a figure: what it shows, then the scenario's name and the trial count.

    ``per_point``: the count is each point's (a sweep), and says so.
    """
    from simulator.report.i18n import ntr, number_text

    count = None
    if trials and per_point:
        count = ntr("{n} trial per point", "{n} trials per point", trials)
        count = count.format(n=number_text(trials))
    elif trials:
        count = ntr("{n} trial", "{n} trials", trials).format(n=number_text(trials))
    if count and extra:
        count = f"{count}, {extra}"
    parts = [p for p in (name, count) if p]
    width = title_width(ax)
    lines = [*wrap(what, width), *wrap(" — ".join(parts), width)]
    ax.set_title("\n".join(lines).replace("$", r"\$"), loc="left")  # a name is text, never math


def title_width(ax: Axes) -> int:
    """How many characters of a title fit across the figure of ``ax`` (at least 30).

    In a figure of several columns of Axes (two heatmaps side by side), across its column.
    """
    figure = ax.figure
    inches = (figure if isinstance(figure, Figure) else figure.figure).get_figwidth()
    spec = ax.get_subplotspec()
    if spec is not None:
        grid = spec.get_gridspec()
        inches *= (spec.colspan.stop - spec.colspan.start) / grid.ncols
    size = mpl.rcParams["axes.titlesize"]
    points = size if isinstance(size, int | float) else 11.0
    return max(30, int(inches * 72 / (0.68 * points)))


def wrap(text: str, width: int, *, most: int = 6) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters, at spaces where it can.

    Never at a space that French typography binds (before ``: ; ? ! % »``, after ``«``),
    nor between a number and the word it counts (``200 trials``, ``1 d``): a line never ends
    on ``200`` with its ``trials`` on the next. That space stays a plain space.

    Titles, names and overrides of any length stay within the figure instead of widening
    it; past ``most`` lines the rest is left out, with ``…``.
    """
    from simulator.report.i18n import bound_spaces

    text = bound_spaces(text)  # French "A : B" never cut before its colon (no-break spaces)
    text = _COUNTED.sub(_HELD, text)  # held together while cut, a plain space again after
    lines = textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]
    lines = [line.replace(_HELD, " ") for line in lines]
    if len(lines) > most:
        lines = [*lines[: most - 1], lines[most - 1][: width - 1] + "…"]
    return lines


_COUNTED = re.compile(r"(?<=\d) (?=[^\W\d_])")
"""The space between a number and the word after it (``200 trials``, ``3 campaigns``)."""

_HELD = "\u2007"
"""A character that :mod:`textwrap` never cuts at, holding a space while a text is cut."""


AXIS_LABEL_WIDTH = 50
"""The most characters of a line of an axis's label: a longer one (a French translation, say)
is cut into lines, instead of running past the figure's edges."""


def axis_label(text: str) -> str:
    """An axis's label on as many lines (two at most) as it needs to stay within the figure."""
    if len(text) <= AXIS_LABEL_WIDTH:
        return text
    return "\n".join(wrap(text, AXIS_LABEL_WIDTH, most=2))


# --- saving ---------------------------------------------------------------------------------


_METADATA = {"svg": {"Date": None}, "png": {"Software": None}}
"""Metadata left out of saved files, so that the same figure gives the same bytes."""


def save_figure(
    fig: Figure,
    out: Path,
    stem: str,
    formats: Sequence[str],
    layout: ConstrainedLayoutEngine | None = None,
) -> list[Path]:
    """Save a figure as ``<out>/<stem>.<format>`` for each format, atomically (Agg).

    The figure is laid out once (its layout engine, then the tight box of
    ``savefig.bbox: tight``) and every format is printed from that one layout: each print is
    then one drawing, instead of a layout and a box of its own for each. ``layout``: an
    engine to lay out a figure made without one (then printed with no drawing beforehand).

    Returns:
        The files written.
    """
    FigureCanvasAgg(fig)
    box = _laid_out(fig, layout) if mpl.rcParams["savefig.bbox"] == "tight" else None
    return [atomic_write(Path(out) / f"{stem}.{fmt}", _saver(fig, fmt, box)) for fmt in formats]


def _laid_out(fig: Figure, layout: ConstrainedLayoutEngine | None) -> Bbox:
    """Lay ``fig`` out once and freeze it there; its tight box (inches), padded.

    A figure without a layout engine, laid out by ``layout``, is printed without a drawing
    beforehand; one with its own engine keeps a placeholder, whose print still measures the
    figure once more (matplotlib offers no way back to no engine at all).
    """
    dpi = mpl.rcParams["savefig.dpi"]
    if dpi != "figure":
        fig.set_dpi(float(dpi))  # measured as printed: text extents vary a little with dpi
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
        fig.set_layout_engine("none")  # the layout stays as it is now
    elif layout is not None:
        layout.execute(fig)
    box = fig.get_tightbbox(fig.canvas.get_renderer())  # type: ignore[attr-defined]
    pad = float(mpl.rcParams["savefig.pad_inches"])
    return box.padded(pad)


def _saver(fig: Figure, fmt: str, box: Bbox | None = None) -> Callable[[Path], None]:
    """What writes ``fig`` in format ``fmt`` (within ``box``, inches) to the path given."""

    def save(path: Path) -> None:
        fig.savefig(path, format=fmt, metadata=_METADATA.get(fmt), bbox_inches=box)

    return save


def draw_and_save(
    out: Path,
    stem: str,
    formats: Sequence[str],
    draw: Callable[[Axes], object],
    size: tuple[float, float] = (7.0, 4.2),
) -> list[Path]:
    """Draw on a new Agg figure in :func:`style`, then save it with :func:`save_figure`.

    Args:
        out: The directory.
        stem: The file name without its extension.
        formats: E.g. ``("png", "svg")``.
        draw: Draws on the Axes it is given (one of this module's plotting functions).
        size: The figure's size in inches.

    Returns:
        The files written.
    """
    with style():
        fig = Figure(figsize=size)  # no engine: laid out once, as layout="constrained" does
        draw(fig.subplots())
        return save_figure(fig, out, stem, formats, ConstrainedLayoutEngine())


def tick_decimals(ticks: Iterable[float]) -> int:
    """The fewest decimals that tell ticks ``ticks`` apart (98, 98.5, 99: one), at most 4."""
    steps = [abs(b - a) for a, b in itertools.pairwise(sorted(ticks)) if b != a]
    step = min(steps, default=1.0)
    for decimals in range(5):
        scaled = step * 10**decimals
        if abs(scaled - round(scaled)) < 1e-6 * max(1.0, scaled):
            return decimals
    return 4
