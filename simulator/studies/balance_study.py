"""``balance``: the value of one key that brings a statistic to a target.

It assumes nothing it has not checked. It evaluates the range's two ends first, then a
spread of values between them (evenly, or evenly in the logarithm for durations that span
doublings), and refines every gap where the statistic passes the target until the two
values of the gap are neighbours on the key's grid (:class:`~simulator.scenario.keys.Grid`):
one unit, one minute (one second below a minute) or one thousandth. When no value
evaluated passes the target, the target lies outside what the range gives, and the ends
are reported; when the statistic goes both up and down over the values evaluated, it is
not monotone, and every crossing found is reported.

Monte Carlo runs every value on the same seeds. A change between two values counts for the
monotony check only when the paired interval of the difference excludes zero; a bracket
whose intervals hold the target is reported as such, with about how many trials would
separate them.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from simulator.errors import N_, UserError, display, every_mistake, located, phrase
from simulator.files import user_path
from simulator.scenario.keys import Grid, Key, Kind, current_value, dotted, key_of, parse_vary
from simulator.scenario.late import tell_basic_ignores
from simulator.scenario.overrides import Given, given_overrides
from simulator.spelling import python_api, spelling
from simulator.studies.loading import Variants, labels
from simulator.studies.method import either_method
from simulator.studies.result import FIGURE_FORMATS
from simulator.studies.statistic import Evaluation, Evaluator, Statistic, shown
from simulator.studies.stats import paired_difference

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from simulator.scenario.model import Scenario

SCAN = 9
"""Values evaluated across the range (ends included) before refining."""

SPLIT = 3
"""Values evaluated inside a gap at each round of refinement (a gap shrinks fourfold)."""


@dataclass(frozen=True)
class Point:
    """One value of the key and the statistic there.

    Attributes:
        index: Its place on the key's grid.
        value: The key's value (int, seconds, or probability).
        evaluation: The statistic.
        round: When it was evaluated: 0 the ends, 1 the spread, then each refinement.
    """

    index: int
    value: float
    evaluation: Evaluation = field(repr=False)
    round: int = 0

    @property
    def stat(self) -> float:
        """The statistic's value."""
        return self.evaluation.stat


def _side(point: Point, target: float) -> int:
    return (point.stat > target) - (point.stat < target)


def _changes(points: Sequence[Point]) -> list[int]:
    """The direction of each real change between neighbouring points (+1, -1; 0 none)."""
    signs = []
    for a, b in itertools.pairwise(points):
        ea, eb = a.evaluation, b.evaluation
        if ea.indicators is not None and eb.indicators is not None:
            _, (low, high) = paired_difference(eb.indicators, ea.indicators)
            real = low > 0 or high < 0
        else:
            real = abs(eb.stat - ea.stat) > 1e-9
        signs.append((eb.stat > ea.stat) - (eb.stat < ea.stat) if real else 0)
    return signs


@dataclass
class BalanceResult:
    """What :func:`balance` found.

    Attributes:
        key: The key varied.
        stat: The statistic.
        target: Its target value.
        points: Every value evaluated, by value.
        crossings: Each pair of neighbouring values between which the statistic passes the
            target (lower value first), in key order.
        hits: Values where the statistic equals the target exactly.
        method: ``monte-carlo`` or ``exact``.
        name: The scenario's title.
        trials: Trials per value (Monte Carlo), else None.
        seed: The seed (Monte Carlo), else None.
        title: The scenario's title in the language in force (``name_fr``), for what a
            person reads (the JSON keeps ``name``).
    """

    key: Key
    stat: Statistic
    target: float
    points: list[Point]
    crossings: list[tuple[Point, Point]]
    hits: list[Point]
    method: str
    name: str = ""
    trials: int | None = None
    seed: int | None = None
    title: str = ""

    @property
    def outside(self) -> bool:
        """Whether no value evaluated reaches or passes the target."""
        return not self.crossings and not self.hits

    @property
    def monotone(self) -> bool:
        """Whether the statistic only rises or only falls over the values evaluated."""
        signs = {s for s in _changes(self.points) if s}
        return len(signs) < 2

    @property
    def bracket(self) -> tuple[Point, Point]:
        """The two values reported: the first crossing (or hit), else the range's ends."""
        if self.hits:
            return self.hits[0], self.hits[0]
        if self.crossings:
            return self.crossings[0]
        return self.points[0], self.points[-1]

    @property
    def best(self) -> Point:
        """The value evaluated whose statistic is nearest the target (the bracket's first)."""
        low, high = self.bracket
        candidates = [low, high] if not self.outside else self.points
        return min(candidates, key=lambda p: abs(p.stat - self.target))

    def overlap(self, pair: tuple[Point, Point] | None = None) -> tuple[bool, int | None]:
        """Whether a bracket's intervals hold the target, and the trials that would separate.

        Returns:
            ``(overlaps, trials)``: ``trials`` is about how many trials per value would put
            the target outside both intervals (None when not sampled, not overlapping, or
            when an estimate equals the target).
        """
        low, high = pair or self.bracket
        held = [p.evaluation for p in {id(low): low, id(high): high}.values()]
        held = [e for e in held if e.overlaps(self.target)]
        if not held or self.outside:
            return False, None
        needed = [e.trials_to_separate(self.target) for e in held]
        return True, None if None in needed else max(n for n in needed if n is not None)

    def _point_json(self, point: Point) -> dict[str, Any]:
        ev = point.evaluation
        return {
            "value": self.key.json_value(point.value),
            "stat": ev.stat,
            "ci": list(ev.ci),
            "shown": shown(self.key, point.value, "en"),  # a file: the same in every language
        }

    def _crossing_json(self, low: Point, high: Point) -> dict[str, Any]:
        """A crossing, and whether sampling can tell on which side the target lies.

        ``overlap`` and ``trials_to_separate`` as :meth:`overlap` gives them for this pair,
        so that a report page says what the terminal says under each bracket.
        """
        overlaps, needed = self.overlap((low, high))
        return {
            "low": self._point_json(low),
            "high": self._point_json(high),
            "overlap": overlaps,
            "trials_to_separate": needed,
        }

    def to_json(self) -> dict[str, Any]:
        """The JSON of CONTRACT.md, and more.

        CONTRACT.md's keys: key, target, low, high, best, evaluations, method; then outside,
        monotone, crossings, hits, overlap, trials_to_separate, trials, seed, scenario.
        """
        low, high = self.bracket
        overlaps, needed = self.overlap()
        return {
            "key": self.key.name,
            "target": {"stat": self.stat.text, "value": self.target},
            "low": self._point_json(low),
            "high": self._point_json(high),
            "best": self._point_json(self.best),
            "evaluations": [self._point_json(p) for p in self.points],
            "method": self.method,
            "outside": self.outside,
            "monotone": self.monotone,
            "crossings": [self._crossing_json(a, b) for a, b in self.crossings],
            "hits": [self._point_json(p) for p in self.hits],
            "overlap": overlaps,
            "trials_to_separate": needed,
            "trials": self.trials,
            "seed": self.seed,
            "scenario": self.name,
        }

    @property
    def frame(self) -> pd.DataFrame:
        """Every evaluation, by value.

        Columns: the value (as ``--set`` takes it and as shown; a duration also in
        ``hours``, a number), the statistic, its interval, the trials and the round it was
        evaluated in.
        """
        rows = [
            {
                "key": self.key.name,
                "value": self.key.literal(p.value),
                "shown": shown(self.key, p.value, "en"),  # a file: the same in every language
                **({"hours": float(p.value) / 3600.0} if self.key.kind is Kind.DURATION else {}),
                "stat": self.stat.text,
                "p": p.stat,
                "low": p.evaluation.ci[0],
                "high": p.evaluation.ci[1],
                "trials": p.evaluation.trials,
                "round": p.round,
            }
            for p in self.points
        ]
        return pd.DataFrame(rows)

    def figure(self, ax: Axes | None = None) -> Axes:
        """The figure ``balance.png`` shows, in one call (a notebook's).

        The statistic against the key's value, with its intervals, the target and the values
        that bracket it; drawn in the style of the saved figures
        (:data:`~simulator.report.style.STYLE`), as a sweep's and a comparison's are.

        Args:
            ax: Where to draw (None: a new figure).

        Returns:
            The Axes drawn on; ``ax.figure`` is its matplotlib Figure.
        """
        from simulator.report.figures_studies import balance_figure
        from simulator.report.style import style

        with style():
            return balance_figure(
                self.figure_frame(),
                key=self.key.name,
                kind=self.key.kind.value,
                stat=self.stat.text,
                target=self.target,
                brackets=[(a.value, b.value) for a, b in self.crossings],
                best=None if self.outside else float(self.best.value),
                name=self.title or self.name,
                trials=self.trials,
                ax=ax,
            )

    def figure_frame(self) -> pd.DataFrame:
        """What :func:`~simulator.report.figures_studies.balance_figure` draws.

        Columns: ``x`` (the value as a number: seconds for durations), ``shown``, ``p``,
        ``low``, ``high``.
        """
        return pd.DataFrame(
            {
                "x": [float(p.value) for p in self.points],
                "shown": [shown(self.key, p.value) for p in self.points],
                "p": [p.stat for p in self.points],
                "low": [p.evaluation.ci[0] for p in self.points],
                "high": [p.evaluation.ci[1] for p in self.points],
            }
        )

    @staticmethod
    def files(formats: Sequence[str] = FIGURE_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write (the output folder's rule checks them)."""
        from simulator.studies.kept import kept_files

        return kept_files("balance", "balance", formats)

    @python_api
    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write ``balance.csv``, ``balance.json`` and the figure ``balance.png``."""
        from simulator.studies.kept import save_answer

        def draw(where: Path) -> list[Path]:
            from simulator.report.style import draw_and_save

            return draw_and_save(where, "balance", formats, lambda ax: self.figure(ax=ax))

        names, title = self.files(formats), self.title or None
        return save_answer(self, out, names, "balance", draw if figures else None, title)


def _evaluate(
    evaluator: Evaluator,
    variants: Variants,
    key: Key,
    grid: Grid,
    indices: Sequence[int],
    stat: Statistic,
    round_: int,
) -> list[Point]:
    scenarios = [variants.build([key.setting(grid[i])]) for i in indices]
    for scenario in scenarios:
        stat.check(scenario)
    try:
        found = evaluator(scenarios, stat)
    except UserError as exc:  # an exact answer over its limits: at which value of the key
        index = getattr(exc, "index", None)
        if index is None:
            raise
        setting = key.setting(grid[indices[index]]).text
        raise located(exc, N_("with {setting}: {error}"), setting=setting) from None
    return [Point(i, grid[i], ev, round_) for i, ev in zip(indices, found, strict=True)]


TARGET_EXPECTED = N_(
    "{flag}: got {value}; expected STAT=VALUE with a share from 0 to 1, e.g. p_dead_by_1d=0.2"
)
"""What ``--target`` takes: told of a value that is no text, no ``STAT=VALUE`` or no share."""


def parse_target(target: str) -> tuple[Statistic, float]:
    """``--target STAT=VALUE``: the statistic and its target share (``0.2`` or ``20%``).

    Messages name the option as the caller spells it (``--target``, ``target``:
    :mod:`simulator.spelling`).

    Raises:
        UserError: For an unknown statistic, or a value that is no share from 0 to 1.
    """
    from simulator.scenario.checks import decimal_point

    def refused(template: str, **more: object) -> UserError:  # the option named, its text
        return UserError(
            phrase(template, flag=spelling().option("target"), value=repr(target), **more)
        )

    if not isinstance(target, str):
        raise refused(TARGET_EXPECTED)
    stat_text, sep, value_text = target.partition("=")
    stat = Statistic.parse(stat_text if sep else target)
    percent = value_text.strip().endswith("%")  # p_dead=20% as the workbench takes it
    try:
        goal = float(value_text.strip().removesuffix("%"))
    except ValueError:
        goal = float("nan")
    if percent:
        goal /= 100
    if sep and decimal_point(value_text) is not None:  # p_dead=0,5 as a French hand writes it
        raise refused(
            N_(
                "{flag}: got {value}; expected STAT=VALUE with a share from 0 to 1, written "
                "with a decimal point: {fixed}"
            ),
            fixed=f"{stat_text}={decimal_point(value_text)}",
        )
    if not sep or not 0 <= goal <= 1:
        raise refused(TARGET_EXPECTED)
    return stat, goal + 0.0  # -0 typed: a target of 0, never shown as "-0.0%"


@python_api
def balance(
    scenario: Scenario | str | Path,
    vary: str,
    target: str,
    evaluator: Evaluator | None = None,
    *,
    method: Evaluator | None = None,
    overrides: Sequence[Given] = (),
    scan: int = SCAN,
    out: str | Path | None = None,
    figures: bool = True,
    told: Callable[[BalanceResult], None] | None = None,
    kept: Callable[[], None] | None = None,
    **sampling: Any,
) -> BalanceResult:
    """Find the value of one key that brings a statistic to a target.

    Example:
        >>> from simulator.studies.method import MonteCarlo
        >>> with MonteCarlo(trials=4_000, seed=1, workers=1) as mc:  # doctest: +SKIP
        ...     found = balance("scenarios/lone_traveller.toml",
        ...                     "rules.table.grave.unstable_period=15min..1d",
        ...                     "p_dead_by_1d=0.2", mc)

    Args:
        scenario: A scenario file (or a :class:`~simulator.scenario.model.Scenario`).
        vary: ``KEY=LOW..HIGH`` (``--vary``): integers, durations or probabilities.
        target: ``STAT=VALUE`` (``--target``), e.g. ``p_dead_by_1d=0.2``.
        evaluator: The method (:class:`MonteCarlo` or :class:`Exact`): gives the statistic
            (None: ``method``, else Monte Carlo with ``sampling``, as :func:`run_study`).
        method: The same, by name (give one of the two).
        overrides: ``--set`` overrides of every value.
        scan: Values evaluated across the range before refining (ends included).
        out: A folder for ``balance.csv``, ``balance.json`` and the figure (checked before
            anything runs); None writes nothing.
        figures: With ``out``, also draw the figure.
        told: Given the result as soon as it is computed, before its files and figures are
            written (the command line prints the answer then: CONTRACT.md).
        kept: Told once ``out`` holds evaluations that the same call would resume from
            (found there at the start, or the first one kept): the command line's Ctrl-C
            then says that the same command resumes.
        **sampling: Without a method, :class:`MonteCarlo`'s settings (``trials``, ``seed``...).

    Returns:
        Every evaluation, the crossings and hits found.

    Raises:
        UserError: For a bad key, range, statistic or target, naming the argument as the
            caller wrote it (``vary``; ``--vary`` on the command line).
    """
    out = user_path(out)
    if evaluator is None and method is None:  # Monte Carlo made here: its workers closed here
        with either_method(None, None, sampling) as made:
            return balance(scenario, vary, target, made, overrides=overrides, scan=scan,
                           out=out, figures=figures, told=told, kept=kept)  # fmt: skip
    evaluator = either_method(evaluator, method, sampling)
    overrides = given_overrides(overrides)
    given: dict[str, Any] = {}

    def read_scan() -> None:  # scan=1 divided by zero once both ends had been computed
        if isinstance(scan, bool) or not isinstance(scan, int) or scan < 2:
            raise UserError(
                phrase(
                    "{name}: got {value}; expected an integer of 2 or more, the values "
                    "evaluated across the range (both ends included)",
                    name="scan",
                    value=display(scan),
                )
            )

    def read_vary() -> None:
        given["vary"] = parse_vary(vary)

    def read_target() -> None:
        given["target"] = parse_target(target)

    def read_scenario() -> None:
        given["variants"] = Variants(scenario, overrides)

    def read_ends() -> None:  # the key on this scenario, even when --target is wrong too
        if "vary" not in given or "variants" not in given:
            return
        (key, low, high), variants = given["vary"], given["variants"]
        try:
            held = current_value(variants.base, key.name, "vary")
        except UserError:
            held = None  # a key the scenario leaves out: the builds at the ends judge it
        if held is not None:
            key_of(key.name, held, "vary")  # a name, a ruleset: nothing a search moves through
        typed = [end.strip() for end in vary.partition("=")[2].split("..")]
        given["ends"] = [  # both, before anything runs
            variants.build([key.setting(end, as_typed)])
            for end, as_typed in zip((low, high), typed, strict=True)
        ]

    every_mistake(read_scan, read_vary, read_target, read_scenario, read_ends)  # all told at once
    (key, low, high), (stat, goal) = given["vary"], given["target"]
    variants: Variants = given["variants"]
    from simulator.report.wording import scenario_text

    tell_basic_ignores(given["ends"], scenario_text(variants.base)[0])  # a key never read
    grid = Grid(key.kind, low, high)
    for end_scenario in given["ends"]:
        stat.check(end_scenario)
    inputs = [scenario] if isinstance(scenario, str | Path) else []
    base_content = repr(dataclasses.replace(variants.base, source=""))
    asked = [key.name, key.literal(low), key.literal(high), stat.text, goal, scan]
    asked.append([str(given) for given in variants.overrides])
    from simulator.studies.kept import kept_answer

    def compute(measure: Evaluator) -> BalanceResult:  # with the evaluations kept
        return _search(measure, evaluator, variants, key, grid, stat, goal, low, high, scan)

    return kept_answer("balance", compute, evaluator, out, BalanceResult.files(), inputs, asked,
                       base_content, told, kept, figures)  # fmt: skip


def _search(
    measure: Evaluator,
    method: Evaluator,
    variants: Variants,
    key: Key,
    grid: Grid,
    stat: Statistic,
    goal: float,
    low: float,
    high: float,
    scan: int,
) -> BalanceResult:
    """The search of :func:`balance`: the ends, a spread, then every gap that crosses.

    ``measure`` evaluates (keeping what it finishes, when it does); ``method`` is the method,
    which says its trials and seed.
    """
    points = _evaluate(measure, variants, key, grid, [0, len(grid) - 1], stat, 0)
    log = key.kind is Kind.DURATION and low > 0 and high / low >= 8
    inner = [i for i in grid.spread(scan, log) if 0 < i < len(grid) - 1]
    points += _evaluate(measure, variants, key, grid, inner, stat, 1)
    round_ = 1
    while True:
        points.sort(key=lambda p: p.index)
        gaps = [
            (a, b)
            for a, b in itertools.pairwise(points)
            if _side(a, goal) * _side(b, goal) < 0 and b.index - a.index > 1
        ]
        if not gaps:
            break
        round_ += 1
        wanted: list[int] = []
        for a, b in gaps:
            span = b.index - a.index
            count = min(SPLIT, span - 1)
            wanted += sorted({a.index + round(span * (k + 1) / (count + 1)) for k in range(count)})
        points += _evaluate(measure, variants, key, grid, wanted, stat, round_)
    crossings = [
        (a, b) for a, b in itertools.pairwise(points) if _side(a, goal) * _side(b, goal) < 0
    ]
    hits = [p for p in points if _side(p, goal) == 0]
    trials = getattr(method, "trials", None)
    seed = getattr(method, "seed", None)
    from simulator.report.wording import scenario_text, titled
    from simulator.scenario.overrides import Override

    def moved(given: object) -> bool:  # a --set of the key the range moves: the range wins
        text = given.text if isinstance(given, Override) else str(given)
        return dotted(text.partition("=")[0]) == dotted(key.name)

    kept = [given for given in variants.overrides if not moved(given)]
    return BalanceResult(
        key,
        stat,
        goal,
        points,
        crossings,
        hits,
        method.method,
        titled(variants.base.name, labels(kept)),
        trials if method.method == "monte-carlo" else None,
        seed if method.method == "monte-carlo" else None,
        titled(scenario_text(variants.base)[0], labels(kept)),
    )
