"""Figures render with Agg, return their Axes, and are saved as PNG and SVG."""

import itertools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.axes import Axes

from simulator import report
from simulator.report.i18n import duration_text
from simulator.studies.api import run_compare, run_study, run_sweep
from tests.support import tiny_file


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_file(tmp_path_factory)


@pytest.fixture(scope="module")
def study(tiny):
    return run_study(tiny, trials=200, seed=2, workers=1)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_study_plots_return_axes_with_labels(study):
    ax = report.fate_over_time(study.curves(), name="Tiny", trials=200)
    assert isinstance(ax, Axes)
    assert "days" in ax.get_xlabel()
    assert "Tiny" in ax.get_title(loc="left") and "200 trials" in ax.get_title(loc="left")
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "dead"
    ax = report.time_to_heal(study.trials, name="Tiny")
    assert isinstance(ax, Axes) and "days" in ax.get_xlabel()
    bars = [patch.get_width() for patch in ax.patches]  # each bar one bin: its width said
    width = duration_text(round(bars[0] * 86400, 6))  # 0.1 d a bar: "2 h 24 min", as said
    assert ax.get_ylabel() == f"Share of healed campaigns, per bar of {width}"
    assert " h" in width or " d" in width or " min" in width  # a person's units, not "2h24min"
    ax = report.aggravations(study.trials, name="Tiny")
    assert isinstance(ax, Axes) and "count" in ax.get_xlabel()


def test_plots_draw_on_a_given_axes(study):
    fig, axes = plt.subplots(1, 3)
    assert report.fate_over_time(study.curves(), ax=axes[0]) is axes[0]
    assert report.time_to_heal(study.trials, ax=axes[1]) is axes[1]
    assert report.aggravations(study.trials, ax=axes[2]) is axes[2]
    fig.canvas.draw()


def test_time_to_heal_without_any_healed(study):
    dead = study.trials.assign(outcome="dead")
    dead["outcome"] = dead["outcome"].astype(study.trials["outcome"].dtype)
    ax = report.time_to_heal(dead)
    assert any("no campaign" in t.get_text() for t in ax.texts)


def test_study_figures_saved_as_png_and_svg(study, tmp_path):
    written = study.save(tmp_path, formats=("png", "svg"), trials_file=False)
    names = sorted(p.name for p in written if p.suffix in (".png", ".svg"))
    stems = ("fate", "fate-first-day", "causes", "time-to-heal", "aggravations")
    assert names == sorted(f"{stem}.{fmt}" for stem in stems for fmt in ("png", "svg"))
    assert (tmp_path / "fate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "fate.svg").read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.tmp"))


def test_sweep_figures_lines_and_heatmap(tiny, tmp_path):
    one = run_sweep(tiny, {"first_aid.level": [0, 2, 4]}, trials=60, seed=1, workers=1)
    ax = report.sweep_lines(one.frame, "first_aid.level")
    assert isinstance(ax, Axes) and ax.get_xlabel() == "first-aid level"  # in words
    assert (tmp_path / "one" / "sweep.png") in one.save(tmp_path / "one")
    two = run_sweep(
        tiny, {"first_aid.level": [0, 2], "healing.level": [0, 3]}, trials=40, seed=1, workers=1
    )
    ax = report.sweep_heatmap(two.frame, "healing.level", "first_aid.level")
    assert isinstance(ax, Axes)
    assert sum(t.get_text().endswith("%") for t in ax.texts) == 4
    assert (tmp_path / "two" / "sweep.svg") in two.save(tmp_path / "two", formats=("svg",))


def test_draw_and_save_is_byte_stable(tmp_path):
    def draw(ax):
        ax.plot([0, 1], [0, 1])

    first = report.draw_and_save(tmp_path / "a", "line", ("png", "svg"), draw)
    second = report.draw_and_save(tmp_path / "b", "line", ("png", "svg"), draw)
    for one, two in zip(first, second, strict=True):
        assert one.read_bytes() == two.read_bytes(), one.name


def test_compare_figure(tiny, tmp_path):
    result = run_compare(tiny, tiny, trials=50, seed=1, workers=1)
    ax = report.compare_differences(result.difference, names=("A", "B"), trials=50)
    assert isinstance(ax, Axes)
    assert ax.get_yticklabels()[0].get_text() == "dead"
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert len(labels) == 11 and not any("mean" in label for label in labels)  # shares only
    assert (tmp_path / "compare.png") in result.save(tmp_path)
    assert (tmp_path / "compare.png").is_file()


def test_two_alike_answers_draw_ticks_that_read_apart():
    """Exact answers alike but for their dropped mass (differences of 1e-11 points): the axis
    is ±1 point, its ticks distinct, not five ticks that all read 0."""
    measures = ["p_dead", "p_healed", "p_wounded", "p_incoherent"]
    difference = pd.DataFrame(
        {"measure": measures, "difference": [2.7e-11, 0.0, 0.0, 0.0],
         "low": [-1.4e-11, -4e-11, -4e-11, -4e-11], "high": [4.1e-11, 1.4e-11, 1.4e-11, 1.4e-11]}
    )  # fmt: skip
    ax = report.compare_differences(difference, exact=True)
    ax.figure.canvas.draw()
    texts = [t.get_text() for t in ax.get_xticklabels()]
    assert len(set(texts)) == len(texts) >= 3, texts
    assert ax.get_xlim()[1] >= 1.0


def _sweep_frame(key, values):
    frame = pd.DataFrame({key: values, "trials": 100})
    for share in ("p_dead", "p_healed", "p_wounded"):
        frame[share] = 0.3
        frame[f"{share}_low"], frame[f"{share}_high"] = 0.25, 0.35
    return frame


@pytest.mark.parametrize(
    ("values", "scale", "xs"),
    [
        (["15min", "30min", "1h", "4h"], "log", [0.25, 0.5, 1.0, 4.0]),  # hours, as ratios
        (["0s", "30min", "1h"], "linear", [0.0, 30.0, 60.0]),  # minutes, to scale
        (["grave", "critical"], "linear", [0.0, 1.0]),  # not durations: evenly
    ],
)
def test_sweep_lines_place_durations_by_value(values, scale, xs):
    ax = report.sweep_lines(_sweep_frame("first_aid.start", values), "first_aid.start")
    assert ax.get_xscale() == scale
    assert list(ax.lines[0].get_xdata()) == pytest.approx(xs)
    assert [t.get_text() for t in ax.get_xticklabels()] == values


def test_the_first_day_gets_its_own_figure_only_in_long_campaigns(tiny, tmp_path):
    # Ten days: the first hours, where most deaths of an untreated wound fall, get a figure.
    long = run_study(tiny, trials=20, seed=2, workers=1, out=tmp_path / "long")
    ax = report.fate_over_time(long.curves(times=[0, 6, 12, 24]), what="Fate over the first day")
    assert ax.get_title(loc="left").startswith("Fate over the first day")
    assert (tmp_path / "long" / "fate-first-day.png").is_file()
    short = tmp_path / "short"
    run_study(tiny, trials=20, seed=2, workers=1, out=short, overrides=["horizon=2d"])
    assert (short / "fate.png").is_file()
    assert not (short / "fate-first-day.png").exists()


def test_a_name_with_dollars_is_text_not_math(tiny, tmp_path):
    # Matplotlib reads $...$ as math; a scenario's name is never math, and must not crash.
    result = run_study(tiny, trials=20, seed=1, workers=1, overrides=["name=Fee: $5 or ${x}^$"])
    written = result.save(tmp_path, formats=("png",), trials_file=False)
    assert (tmp_path / "fate.png") in written


def test_percent_ticks_keep_the_decimals_that_tell_them_apart():
    from simulator.report.figures_studies import tick_decimals

    assert tick_decimals([94, 95, 96, 97]) == 0
    assert tick_decimals([98.0, 98.5, 99.0, 99.5]) == 1  # not "98 %, 98 %, 99 %, 99 %"
    assert tick_decimals([97.75, 98.0, 98.25]) == 2
    assert tick_decimals([50.0]) == 0


def test_two_heatmaps_side_by_side_wrap_their_titles_to_their_own_half():
    """The first-aid heatmaps' long titles once ran into each other across the figure."""
    from matplotlib.figure import Figure

    from simulator.report.style import title_axes, title_width

    alone = Figure(figsize=(13.0, 5.2)).subplots()
    left, right = Figure(figsize=(13.0, 5.2)).subplots(1, 2)
    assert title_width(left) == title_width(right) < title_width(alone) * 0.55
    long = "Share dead of a spell a wound received opened by first-aid level and time between tries"
    title_axes(left, long, "Géraldine after the ambush", 4000)
    lines = left.get_title(loc="left").splitlines()
    assert len(lines) == 3 and max(map(len, lines)) <= title_width(left), lines


def test_calibrate_figures_read_in_greyscale():
    """docs/outputs.md: every figure reads the same in colour, in greyscale and in print."""
    import numpy as np
    from matplotlib.colors import to_rgb

    from simulator.report.figures_calibrate import search_figure, sensitivity_heatmap

    frame = pd.DataFrame(
        {"round": [0, 1] * 3, "target": [0, 0, 1, 1, 2, 2], "reached": [0.1, 0.2] * 3}
    )
    ax = search_figure(frame, ["#1", "#2", "#3"], [0.1, 0.2, 0.3])
    lines = [line for line in ax.get_lines() if line.get_label() in ("#1", "#2", "#3")]
    assert len({(str(line.get_linestyle()), line.get_marker()) for line in lines}) == 3
    for line in ax.get_lines():
        r, g, b = to_rgb(line.get_color())
        assert r == g == b, line.get_color()  # a grey
    plt.close(ax.figure)
    ax = sensitivity_heatmap(np.array([[-0.195, 0.0], [0.05, np.nan]]), ["a", "b"], ["#1", "#2"])
    assert ax.images[0].get_cmap().name == "Greys"
    texts = {t.get_text(): t.get_color() for t in ax.texts}
    assert texts["\u221219.5"] == "white" and texts["+5"] == "black" and "—" in texts
    plt.close(ax.figure)


def test_a_french_figure_keeps_french_ticks_when_drawn_after_its_cell(study):
    """A notebook draws the figure after ``with language("fr"):`` has ended: its ticks read
    ``20%`` under a French title. The ticks take the language the figure was built in."""
    from simulator.report.i18n import language

    with language("fr"):
        ax = report.fate_over_time(study.curves(), name="Tiny", trials=200)
    ax.figure.canvas.draw()  # as the inline backend does, after the cell
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert "20\u202f%" in ticks or "20 %" in ticks or "20\u00a0%" in ticks, ticks
    assert not any(t.endswith("%") and not t[-2].isspace() for t in ticks), ticks
    plt.close(ax.figure)
    with language("en"):
        ax = report.fate_over_time(study.curves(), name="Tiny", trials=200)
    with language("fr"):  # and the other way round
        ax.figure.canvas.draw()
    assert "20%" in [t.get_text() for t in ax.get_yticklabels()]
    plt.close(ax.figure)


def test_a_tornado_of_a_share_never_runs_its_axis_past_100_or_below_0():
    """A statistic at 100% that no key moves drew ticks at 102%, 104%, 106%."""
    import pandas as pd

    from simulator.report.figures_studies import tornado

    still = pd.DataFrame(
        [{"key": "first_aid.level", "down_shown": "0", "up_shown": "2",
          "down_stat": 1.0, "up_stat": 1.0, "swing": 0.0}]
    )  # fmt: skip
    for base in (1.0, 0.0):
        ax = tornado(still, base=base, stat="p_dead", trials=100)
        low, high = ax.get_xlim()
        assert 0.0 <= low < high <= 100.0, (base, low, high)
    moving = still.assign(down_stat=0.6, swing=0.4)
    low, high = tornado(moving, base=1.0, stat="p_dead", trials=100).get_xlim()
    assert low <= 60.0 and high <= 100.0
    plt.close("all")


def test_a_french_axis_label_too_long_for_the_figure_is_cut_into_lines(study, tmp_path):
    """The French label of what-kills' axis (69 characters) ran past the figure's top and
    bottom and made the saved causes.png taller than the English one (1022 pixels against
    863). A label longer than the axis holds is cut into two lines; the English stays one."""
    from simulator.report.i18n import language
    from simulator.report.style import AXIS_LABEL_WIDTH, draw_and_save

    curves = study.cause_curves()
    sizes = {}
    for lang in ("en", "fr"):
        with language(lang):
            ax = report.causes_over_time(curves, name="Tiny", trials=200)
            lines = ax.get_ylabel().splitlines()
            assert all(len(line) <= AXIS_LABEL_WIDTH for line in lines), lines
            assert len(lines) == (1 if lang == "en" else 2)
            [png] = draw_and_save(tmp_path / lang, "causes", ("png",),
                                  lambda a: report.causes_over_time(curves, ax=a))  # fmt: skip
        sizes[lang] = matplotlib.image.imread(png).shape[:2]
    assert sizes["fr"][0] == sizes["en"][0]  # as tall: the label within the figure


def test_a_french_tornado_s_ticks_legend_and_labels_never_overlap():
    """A French tornado of p_dead (base 97%) printed its ticks "80,0 %82,5 %85,0 %…" run
    together, and its legend over the "10 min" of a bar ending at 100%; a bar ending at 0%
    put its label over the key's name."""
    from simulator.report.figures_studies import tornado
    from simulator.report.i18n import language

    rows = [
        ("first_aid.interval", "2 min", "10 min", 0.80, 1.0),
        ("rules.table.grave.unstable_period", "30 min", "10 min", 0.815, 1.0),
        ("first_aid.level", "1", "−1", 0.94, 0.99),
    ]
    frame = pd.DataFrame(
        [{"key": k, "down_shown": d, "up_shown": u, "down_stat": ds, "up_stat": us,
          "swing": abs(us - ds)} for k, d, u, ds, us in rows]
    )  # fmt: skip
    zero = frame.assign(down_stat=[0.0, 0.1, 0.2], up_stat=[0.3, 0.3, 0.3], swing=0.3)
    for data, base in ((frame, 0.97), (zero, 0.15)):
        with language("fr"):
            ax = tornado(data, base=base, stat="p_dead", trials=300)
        ax.figure.set_layout_engine("constrained")
        ax.figure.canvas.draw()
        renderer = ax.figure.canvas.get_renderer()
        ticks = [t for t in ax.get_xticklabels() if t.get_text() and t.get_visible()]
        boxes = sorted((t.get_window_extent(renderer) for t in ticks), key=lambda b: b.x0)
        for a, b in itertools.pairwise(boxes):
            assert a.x1 < b.x0, [t.get_text() for t in ticks]
        labels = [t.get_window_extent(renderer) for t in ax.texts]
        legend = ax.get_legend().get_window_extent(renderer)
        assert not any(legend.overlaps(box) for box in labels)
        names = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
        assert not any(name.overlaps(box) for name in names for box in labels)
        plt.close(ax.figure)


def test_every_aggravation_count_that_happened_gets_its_label():
    """Géraldine's aggravations.png drew the one campaign in 20,000 with 4 aggravations as
    an empty slot, unlabelled, as if none had: a share under 0.05% lost its label."""
    counts = [0] * 479 + [2] * 14046 + [3] * 5474 + [4]
    ax = report.aggravations(pd.DataFrame({"aggravations": counts}), name="Tiny")
    labels = [t.get_text() for t in ax.texts]
    assert labels[1] == "" and labels[4] == "0.005%", labels  # no digit finer than a trial


def test_stacked_shares_keep_their_black_outline_in_print(study):
    """The fate and cause bands asked for a black edge, but their fill colour overrode it:
    the "healed" swatch, #f2f2f2 edged #f2f2f2, vanished from a printed legend."""
    from matplotlib.colors import to_hex

    for ax in (
        report.fate_over_time(study.curves(), name="Tiny", trials=200),
        report.causes_over_time(study.cause_curves(), name="Tiny", trials=200),
    ):
        handles = ax.get_legend().legend_handles
        for artist in [*ax.collections, *handles]:
            edge = artist.get_edgecolor()
            edge = edge[0] if len(edge) and not isinstance(edge[0], float) else edge
            assert to_hex(edge) == "#000000", artist.get_label()
        plt.close(ax.figure)


def test_every_heatmap_cell_has_an_edge_even_at_0_percent(tmp_path):
    """A cell near 0% was as white as the paper, with no border: it vanished in print."""
    from matplotlib.colors import to_hex
    from matplotlib.patches import Rectangle

    from simulator.report.figures_sweep import CELL_EDGE

    frame = pd.DataFrame(
        {"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "p_dead": [0.0, 0.003, 0.5, 1.0], "trials": 100}
    )
    ax = report.sweep_heatmap(frame, "a", "b")
    edges = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert sorted(p.get_xy() for p in edges) == [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)]
    assert all(to_hex(p.get_edgecolor()) == CELL_EDGE and p.get_linewidth() > 0 for p in edges)
    ax.figure.savefig(tmp_path / "heat.svg")
    svg = (tmp_path / "heat.svg").read_text(encoding="utf-8")
    assert svg.count(f"stroke: {CELL_EDGE}") >= 4


def test_a_balance_legend_sits_below_the_plot_and_names_the_hatched_bracket(tmp_path):
    """The legend beside the plot squeezed it to half the figure's width, and the bracket's
    band, a pale grey, all but vanished in print and was not in the legend."""
    from simulator.report.figures_studies import balance_figure

    frame = pd.DataFrame(
        {"x": [0, 1, 2, 3], "shown": ["0", "1", "2", "3"], "p": [0.9, 0.6, 0.3, 0.1],
         "low": [0.85, 0.55, 0.25, 0.05], "high": [0.95, 0.65, 0.35, 0.15]}
    )  # fmt: skip
    ax = balance_figure(frame, key="first_aid.level", kind="integer", stat="p_dead",
                        target=0.4, brackets=[(1, 2)], trials=300)  # fmt: skip
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend()
    box, plot = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert box.y1 < ax.xaxis.label.get_window_extent(renderer).y0  # below the axis's label
    assert plot.width > 0.75 * fig.bbox.width  # the plot keeps the figure's width
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts[-1] == "bracket: 1 – 2", texts
    band = legend.legend_handles[-1]
    assert band.get_hatch() and band.get_facecolor()[:3] != (1.0, 1.0, 1.0)
    spans = [p for p in ax.patches if p.get_hatch()]
    assert len(spans) == 1  # the band itself, hatched as its entry is
    fig.savefig(tmp_path / "balance.svg")
    svg = (tmp_path / "balance.svg").read_text(encoding="utf-8")
    assert "bracket: 1 – 2" in svg and 'id="h' in svg  # the text, and a hatch pattern


def test_a_tornado_no_key_moves_says_so_with_no_legend_nor_empty_axis(tmp_path):
    """A tornado where no key moves the result drew its legend and an empty axis."""
    from simulator.report.figures_studies import tornado
    from simulator.report.i18n import language

    still = pd.DataFrame(
        [{"key": "first_aid.level", "down_shown": "0", "up_shown": "2",
          "down_stat": 0.97, "up_stat": 0.97, "swing": 0.0}]
    )  # fmt: skip
    for lang, said in (
        ("en", "No key moves “Share dead at the horizon”"),
        ("fr", "Aucune clé ne fait bouger «\u00a0Part de décès à l'horizon\u00a0»"),
    ):
        with language(lang):
            ax = tornado(still, base=0.97, stat="p_dead", trials=100)
        assert ax.get_legend() is None and not ax.axison and not ax.patches
        assert any(t.get_text().startswith(said) for t in ax.texts), [
            t.get_text() for t in ax.texts
        ]
        ax.figure.savefig(tmp_path / f"{lang}.svg")
        svg = (tmp_path / f"{lang}.svg").read_text(encoding="utf-8")
        assert "notch" not in svg and "cran" not in svg  # no legend's entries
        plt.close(ax.figure)


CROWDED = pd.DataFrame(  # balance of watch.neglect_probability=0..1, p_dead=0.4, 400 trials
    {
        "x": [0, 0.031, 0.033, 0.035, 0.037, 0.039, 0.047, 0.054, 0.062, 0.094, 0.125, 0.25,
              0.375, 0.5, 0.625, 0.75, 0.875, 1.0],
        "p": [0.1, 0.335, 0.3675, 0.4, 0.45, 0.4475, 0.5625, 0.6475, 0.775, 0.9625, 0.98]
        + [1.0] * 7,
    }
)  # fmt: skip
CROWDED["shown"] = [f"{v:g}" for v in CROWDED["x"]]
CROWDED["low"] = (CROWDED["p"] - 0.045).clip(0, 1)
CROWDED["high"] = (CROWDED["p"] + 0.045).clip(0, 1)


def _points_apart(ax, x, y) -> float:
    """The least distance, in pixels, between two neighbouring points drawn on ``ax``."""
    import numpy as np

    xy = ax.transData.transform(np.column_stack([x, y]))
    return float(np.min(np.hypot(*np.diff(xy, axis=0).T)))


def test_a_balance_zooms_on_the_evaluations_piled_near_its_target(tmp_path):
    """A balance's bisection evaluates many values near the target: on the whole range they
    were drawn on top of each other, and the best value was not marked at all. An inset
    shows them apart, labelled only at the bracket and the best, away from the curve."""
    import numpy as np

    from simulator.report.figures_studies import balance_figure

    near = CROWDED[(CROWDED["x"] >= 0.031) & (CROWDED["x"] <= 0.039)]
    ax = balance_figure(CROWDED, key="watch.neglect_probability", kind="probability",
                        stat="p_dead", target=0.4, brackets=[(0.033, 0.037)], best=0.035,
                        trials=400)  # fmt: skip
    fig = ax.figure
    fig.canvas.draw()
    piled = _points_apart(ax, near["x"], 100 * near["p"])
    assert piled < 12, piled  # on the whole range they touch (the markers are 7 px wide)
    assert len(ax.child_axes) == 1
    inset = ax.child_axes[0]
    low, high = inset.get_xlim()
    assert low <= 0.033 and high >= 0.037 and high - low < 0.1  # the bracket, zoomed
    assert _points_apart(inset, near["x"], 100 * near["p"]) > 3 * max(piled, 5)
    ticks = [t.get_text() for t in inset.get_xticklabels() if t.get_visible() and t.get_text()]
    assert ticks == ["0.033", "0.037"], ticks  # the bracket, no more: the best's words, 0.035,
    # would touch both (the legend names it); the words' room is tested below
    assert [float(v) for v in inset.get_xticks()] == [0.033, 0.035, 0.037]  # its tick stays
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "best: 0.035 (40.0%)" in texts and texts[-1] == "bracket: 0.033 – 0.037", texts
    # the inset covers no point of the curve, nor the stretch it zooms on
    box = inset.get_window_extent(fig.canvas.get_renderer())
    xy = ax.transData.transform(np.column_stack([CROWDED["x"], 100 * CROWDED["p"]]))
    inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0)
    assert not (inside & (xy[:, 1] <= box.y1)).any()
    fig.savefig(tmp_path / "balance.png")


MINUTES = [60, 240, 480, 960, 1020, 1035, 1050, 1051, 1052, 1053, 1065, 1080, 1440, 2160, 2880]
LONG = pd.DataFrame(  # balance of rules.table.grave.unstable_period=1h..2d, searched in minutes
    {
        "x": [60 * m for m in MINUTES],
        "shown": [duration_text(60 * m) for m in MINUTES],
        "p": [0.98, 0.9, 0.75, 0.52, 0.49, 0.47, 0.45, 0.41, 0.395, 0.38, 0.36, 0.33, 0.2,
              0.1, 0.05],
    }
)  # fmt: skip
LONG["low"] = (LONG["p"] - 0.02).clip(0, 1)
LONG["high"] = (LONG["p"] + 0.02).clip(0, 1)


@pytest.mark.parametrize("frame", ["durations", "long words", "short words"])
def test_the_zooms_tick_labels_never_touch_however_long_the_values_are(frame):
    """The bracket's values and the best, labelled under the inset: long values (17 h 31 min
    beside 17 h 32 min) were drawn over each other. As laid out and printed, every label left
    is apart from the others, and those of the bracket's and best values that are left out
    are in the legend."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from simulator.report.figures_studies import balance_figure
    from simulator.report.style import style

    if frame == "durations":
        data, key, kind, target = LONG, "rules.table.grave.unstable_period", "duration", 0.4
        brackets, best = [(LONG["x"][7], LONG["x"][8])], LONG["x"][8]
    else:  # 0.033, 0.035 and 0.037 touched too
        data = CROWDED
        if frame == "long words":
            data = CROWDED.assign(shown=[f"{100 * v:.4f} % per watch" for v in CROWDED["x"]])
        key, kind, target = "watch.neglect_probability", "probability", 0.4
        brackets, best = [(0.033, 0.037)], 0.035
    with style():
        fig = Figure(figsize=(7.0, 4.2))  # as draw_and_save draws a balance, then lays it out
        FigureCanvasAgg(fig)
        ax = balance_figure(data, key=key, kind=kind, stat="p_dead", target=target,
                            brackets=brackets, best=best, trials=400,
                            ax=fig.subplots())  # fmt: skip
        ConstrainedLayoutEngine().execute(fig)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        assert len(ax.child_axes) == 1
        labels = [t for t in ax.child_axes[0].get_xticklabels() if t.get_visible() and t.get_text()]
        boxes = [t.get_window_extent(renderer) for t in labels]
    assert labels, "the zoom labels none of its values"
    for a, b in itertools.combinations(range(len(boxes)), 2):
        assert not boxes[a].padded(1).overlaps(boxes[b]), (labels[a], labels[b])
    legend = " ".join(t.get_text() for t in ax.get_legend().get_texts())
    shown = dict(zip(data["x"], data["shown"], strict=True))
    assert all(shown[v] in legend for v in [*brackets[0], best])  # every value is told


def test_a_balance_whose_points_stand_apart_needs_no_zoom():
    from simulator.report.figures_studies import balance_figure

    frame = pd.DataFrame(
        {"x": [0, 1, 2, 3], "shown": ["0", "1", "2", "3"], "p": [0.9, 0.6, 0.3, 0.1],
         "low": [0.85, 0.55, 0.25, 0.05], "high": [0.95, 0.65, 0.35, 0.15]}
    )  # fmt: skip
    ax = balance_figure(frame, key="first_aid.level", kind="integer", stat="p_dead",
                        target=0.4, brackets=[(1, 2)], best=2, trials=300)  # fmt: skip
    assert not ax.child_axes
    assert "best: 2 (30.0%)" in [t.get_text() for t in ax.get_legend().get_texts()]
