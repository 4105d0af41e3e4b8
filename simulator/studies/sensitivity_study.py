"""``sensitivity``: which key moves a statistic most, one notch down and one up each.

A notch is one unit for integers, the next round duration for periods (15min: 10min and
30min), 0.05 for probabilities (:func:`simulator.scenario.keys.notches`), or what
``--notch KEY=DOWN,UP`` says. Keys are ranked by their *swing*: the larger minus the smaller
of the two moved values (never negative). A default notch the scenario's checks refuse (a
maximum of −1, a probability past 1) is left out, and the swing is then the moved value's
distance to the scenario's own. An exact swing that the exact engine's dropped probability
mass could hold whole is no effect the answer can tell: it is marked so
(``within_dropped_mass``), as a sampled swing chance alone could give is (``within_chance``),
and keeps its value (CONTRACT.md defines the swing).

Every variant runs on the same seeds (Monte Carlo), so a key that does not enter any roll
gives exactly the scenario's value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from simulator.errors import (
    N_,
    CombinedUserError,
    ExactLimitError,
    ScenarioError,
    UserError,
    display,
    every_mistake,
    located,
    note,
    phrase,
)
from simulator.files import user_path
from simulator.rules.levels import Level
from simulator.rules.table import CELLS
from simulator.scenario.keys import Key, current_value, key_of, notches, parse_notch, split_notch
from simulator.scenario.late import BASIC_CELLS, tell_basic_ignores
from simulator.scenario.overrides import Given, given_overrides
from simulator.scenario.writing import MENTAL_UNUSED
from simulator.spelling import python_api, spelling
from simulator.studies.loading import Variants, labels
from simulator.studies.method import either_method
from simulator.studies.result import FIGURE_FORMATS
from simulator.studies.statistic import Evaluation, Evaluator, Statistic, shown

if TYPE_CHECKING:
    from simulator.scenario.model import Scenario


def rows_used(scenario: Scenario) -> list[Level]:
    """The table rows a scenario can meet.

    Each injured level, every level above it on its track (wounds worsen), and below it
    when wounds can heal (a healer, or the basic rules).
    """
    heals = scenario.healing is not None or scenario.ruleset.value == "basic"
    used: set[Level] = set()
    for injury in scenario.injuries:
        level: Level | None = injury.level
        while level is not None:
            used.add(level)
            level = level.higher()
        level = injury.level.lower() if heals else None
        while level is not None:
            used.add(level)
            level = level.lower()
    return sorted(used)


def default_keys(scenario: Scenario, maxima: Collection[str] = ()) -> list[str]:
    """The keys ``sensitivity`` moves by default.

    Every cell of the rows used (but the periods no mental level reads, M3), Cp+Rs and
    Rs+It, the first-aid level, start and interval, the healer's level and modifier, and the
    neglect probability (those that apply under the scenario's rules). A level of ``maxima``
    (those ``[patient.maxima]`` gives, which win over the table) has its maximum moved as
    ``patient.maxima.<level>``.
    """
    basic = scenario.ruleset.value == "basic"
    # the basic rules read a wound's maximum, heal period and penalty only (B1, B2, B4): no
    # pain, mortality, stability nor watches, and Rs+It only on the mental track (B6)
    cells = BASIC_CELLS if basic else CELLS
    keys = [
        f"patient.maxima.{lv.label}"
        if cell == "max" and lv.label in maxima
        else f"rules.table.{lv.label}.{cell}"
        for lv in rows_used(scenario)
        for cell in cells
        if not (lv.is_mental and cell in MENTAL_UNUSED)  # M3: no mental level reads them
    ]
    keys += ["patient.cp_rs"]
    if not basic or any(i.level.is_mental for i in scenario.injuries):
        keys += ["patient.rs_it"]
    if scenario.first_aid is not None and not basic:
        keys += ["first_aid.level", "first_aid.start", "first_aid.interval"]
    if scenario.healing is not None and not basic:
        keys += ["healing.level"]
    if scenario.healing is not None or basic:
        keys += ["healing.modifier"]
    if not basic:
        keys += ["watch.neglect_probability"]
    return keys


@dataclass
class Row:
    """One key: its value in the scenario, one notch down and up, and the statistic there.

    Attributes:
        key: The key.
        value: Its value in the scenario.
        down_value: One notch down (None: no such value).
        up_value: One notch up (None: no such value).
        down: The statistic one notch down (None when left out).
        up: The statistic one notch up.
        base: The statistic of the scenario as it is.
    """

    key: Key
    value: float
    down_value: float | None
    up_value: float | None
    down: Evaluation | None
    up: Evaluation | None
    base: Evaluation

    def _moved(self) -> list[Evaluation]:
        """The evaluations compared: both notches, or one and the scenario's own value.

        Only the scenario's own when both notches are left out (no swing to judge).
        """
        moved = [e for e in (self.down, self.up) if e is not None]
        if len(moved) < 2:
            moved.append(self.base)
        return moved

    @property
    def swing(self) -> float:
        """The larger minus the smaller of the moved values (CONTRACT.md), never negative.

        When one notch is left out, the scenario's own value stands in for it.
        """
        moved = [e.stat for e in self._moved()]
        return max(moved) - min(moved)

    @property
    def within_dropped_mass(self) -> bool:
        """Whether the exact engine's dropped mass could hold the whole swing.

        An exact value ``p`` lies in ``[p, p + dropped_mass]`` (CONTRACT.md): when the two
        moved values' intervals overlap, the key may move nothing at all, and a swing of
        ``2.2e-11`` beside a dropped mass of ``1.4e-11`` is marked so. Sampled values, the
        same value, or no swing to judge: never.
        """
        moved = self._moved()
        if len(moved) < 2:
            return False
        a, b = moved
        if a.trials is not None or b.trials is not None or a.stat == b.stat:
            return False
        return a.ci[0] <= b.ci[1] and b.ci[0] <= a.ci[1]

    @property
    def within_chance(self) -> bool:
        """Whether chance alone could give this swing (sampled): more trials would tell.

        The two values come from the same seeds, so their difference is judged trial by
        trial: McNemar's exact test on the trials that count under one value and not the
        other (a two-sided binomial test of those, at 5%). Without the trials' indicators (a
        resumed evaluation), the two values' own 95% intervals overlapping stands in. Exact
        values, or the same share: never.
        """
        moved = self._moved()
        if len(moved) < 2:  # both notches left out: no swing to judge
            return False
        a, b = moved
        if a.trials is None or b.trials is None or a.stat == b.stat:
            return False  # exact, or the same share on the same seeds: nothing to tell
        if (
            a.indicators is not None
            and b.indicators is not None
            and (len(a.indicators) == len(b.indicators) > 1)
        ):
            from scipy.stats import binomtest

            first, second = np.asarray(a.indicators, bool), np.asarray(b.indicators, bool)
            only_first = int(np.count_nonzero(first & ~second))
            only_second = int(np.count_nonzero(second & ~first))
            if only_first + only_second == 0:
                return False
            test = binomtest(only_first, only_first + only_second, 0.5)
            return bool(test.pvalue > 0.05)
        return a.ci[0] <= b.ci[1] and b.ci[0] <= a.ci[1]

    def shown(self, side: str) -> str:
        """A notch's value for a person (``10 min``), or ``—`` when there is none."""
        value = self.down_value if side == "down" else self.up_value
        return "—" if value is None else shown(self.key, value)

    def side_json(self, side: str) -> dict[str, Any] | None:
        """``{"value", "stat", "ci"}`` of a notch; None (CONTRACT: ``null``) when left out."""
        value, ev = (self.down_value, self.down) if side == "down" else (self.up_value, self.up)
        if value is None or ev is None:
            return None
        return {"value": self.key.json_value(value), "stat": ev.stat, "ci": list(ev.ci)}


@dataclass
class SensitivityResult:
    """What :func:`sensitivity` found: one row per key, the largest swing first."""

    stat: Statistic
    base: Evaluation
    rows: list[Row]
    method: str
    name: str = ""
    trials: int | None = None
    seed: int | None = None
    title: str = ""
    """The scenario's title in the language in force (``name_fr``); the JSON keeps ``name``."""

    def to_json(self) -> list[dict[str, Any]]:
        """CONTRACT.md's list: ``{"key", "down", "base", "up", "swing"}``, largest first.

        Each also holds ``value``, ``stat``, ``method``, the ``trials`` and ``seed`` of a
        sampled one (``null`` for exact answers) and ``within_dropped_mass`` (an exact
        swing the dropped mass could hold: no effect the answer can tell).
        """
        return [
            {
                "key": row.key.name,
                "down": row.side_json("down"),
                "base": self.base.stat,
                "up": row.side_json("up"),
                "swing": row.swing,
                "value": row.key.json_value(row.value),
                "stat": self.stat.text,
                "method": self.method,
                "trials": self.trials,
                "seed": self.seed,
                "within_dropped_mass": row.within_dropped_mass,
            }
            for row in self.rows
        ]

    @property
    def frame(self) -> pd.DataFrame:
        """One row per key, largest swing first."""
        rows = []
        for row in self.rows:
            line: dict[str, Any] = {"key": row.key.name, "value": row.key.literal(row.value)}
            for side in ("down", "up"):
                value = row.down_value if side == "down" else row.up_value
                ev = row.down if side == "down" else row.up
                line[f"{side}_value"] = None if value is None else row.key.literal(value)
                line[f"{side}_stat"] = None if ev is None else ev.stat
                line[f"{side}_low"] = None if ev is None else ev.ci[0]
                line[f"{side}_high"] = None if ev is None else ev.ci[1]
            line.update({"base_stat": self.base.stat, "swing": row.swing, "stat": self.stat.text})
            line.update(method=self.method, within_chance=row.within_chance)
            line.update(trials=self.trials, seed=self.seed)  # how, as the terminal says
            line.update(within_dropped_mass=row.within_dropped_mass)
            rows.append(line)
        return pd.DataFrame(rows)

    def figure_frame(self) -> pd.DataFrame:
        """What :func:`~simulator.report.figures_studies.tornado` draws, largest swing first."""
        return pd.DataFrame(
            {
                "key": [row.key.name for row in self.rows],
                "down_shown": [row.shown("down") for row in self.rows],
                "up_shown": [row.shown("up") for row in self.rows],
                "down_stat": [row.down.stat if row.down else float("nan") for row in self.rows],
                "up_stat": [row.up.stat if row.up else float("nan") for row in self.rows],
                "swing": [row.swing for row in self.rows],
            }
        )

    @staticmethod
    def files(formats: Sequence[str] = FIGURE_FORMATS) -> list[str]:
        """Every file name :meth:`save` may write (the output folder's rule checks them)."""
        from simulator.studies.kept import kept_files

        return kept_files("sensitivity", "tornado", formats)

    @python_api
    def save(
        self, out: Path, *, figures: bool = True, formats: Sequence[str] = FIGURE_FORMATS
    ) -> list[Path]:
        """Write ``sensitivity.csv``, ``sensitivity.json`` and the tornado chart."""
        from simulator.studies.kept import save_answer

        def draw(where: Path) -> list[Path]:
            from simulator.report.figures_studies import tornado
            from simulator.report.i18n import points_value
            from simulator.report.style import draw_and_save

            decimals = 4 if self.method == "exact" else 1  # as the chart counts a key moving
            moving = sum(points_value(row.swing, decimals) != 0 for row in self.rows)
            size = (7.5, 1.4 + 0.32 * max(min(moving, 20), 3))
            chart = partial(
                tornado,
                self.figure_frame(),
                base=self.base.stat,
                stat=self.stat.text,
                name=self.title or self.name,
                trials=self.trials,
                table="sensitivity.csv",
            )
            return draw_and_save(where, "tornado", formats, lambda ax: chart(ax=ax), size)

        names = self.files(formats)
        title = self.title or self.name
        return save_answer(self, out, names, "sensitivity", draw if figures else None, title)


def _evaluated(
    evaluator: Evaluator,
    scenarios: Sequence[Scenario],
    statistic: Statistic,
    where: Sequence[tuple[int, str]],
    plan: Sequence[tuple[Key, float, float | None, float | None]],
) -> list[Evaluation | None]:
    """Each scenario's statistic: the scenario as it is first, then each notch of ``where``.

    Sampled, in one batch. Exact, one at a time: a notch over the exact engine's limits is
    left out (None, told in a note) and the others computed still; the scenario as it is
    over them is an error that says so.
    """
    if evaluator.method != "exact":
        return list(evaluator(scenarios, statistic))
    found: list[Evaluation | None] = []
    for index, scenario in enumerate(scenarios):
        try:
            found += evaluator([scenario], statistic)
        except ExactLimitError as exc:
            if index == 0:
                raise located(exc, N_("the scenario as it is: {error}")) from None
            at, side = where[index - 1]
            key, _, down, up = plan[at]
            value = down if side == "down" else up
            assert value is not None
            setting = key.setting(value).text
            error = exc.phrase if exc.phrase is not None else str(exc)
            note(phrase("{setting}: left out of the sensitivity ({error})", setting=setting,
                        error=error))  # fmt: skip
            found.append(None)
    return found


@python_api
def sensitivity(
    scenario: Scenario | str | Path,
    evaluator: Evaluator | None = None,
    *,
    method: Evaluator | None = None,
    keys: Sequence[str] | None = None,
    stat: str = "p_dead",
    notch: Sequence[str] = (),
    overrides: Sequence[Given] = (),
    out: str | Path | None = None,
    figures: bool = True,
    told: Callable[[SensitivityResult], None] | None = None,
    kept: Callable[[], None] | None = None,
    **sampling: Any,
) -> SensitivityResult:
    """Move each key one notch down and one up; rank the keys by how far the statistic moves.

    Example:
        >>> from simulator.studies.method import MonteCarlo
        >>> with MonteCarlo(trials=4_000, seed=1, workers=1) as mc:  # doctest: +SKIP
        ...     ranked = sensitivity("scenarios/lone_traveller.toml", mc, stat="p_dead_by_1d")

    Args:
        scenario: A scenario file (or a :class:`~simulator.scenario.model.Scenario`).
        evaluator: The method (:class:`MonteCarlo` or :class:`Exact`): gives the statistic
            (None: ``method``, else Monte Carlo with ``sampling``, as :func:`run_study`).
        method: The same, by name (give one of the two).
        keys: Dotted keys (None: :func:`default_keys`).
        stat: The statistic (``p_dead``, ``p_dead_by_1d``...).
        notch: ``KEY=DOWN,UP`` texts that set a key's two values (``--notch``).
        overrides: ``--set`` overrides of every variant.
        out: A folder for ``sensitivity.csv``, ``sensitivity.json`` and the tornado chart
            (checked before anything runs); None writes nothing.
        figures: With ``out``, also draw the chart.
        told: Given the result as soon as it is computed, before its files and figures are
            written (the command line prints the answer then: CONTRACT.md).
        kept: Told once ``out`` holds evaluations that the same call would resume from
            (found there at the start, or the first one kept): the command line's Ctrl-C
            then says that the same command resumes.
        **sampling: Without a method, :class:`MonteCarlo`'s settings (``trials``, ``seed``...).

    Returns:
        One row per key, the largest swing first.

    Raises:
        UserError: For an unknown key, a bad notch or statistic, naming the argument as the
            caller wrote it (``notch``; ``--notch`` on the command line).
    """
    out = user_path(out)
    if evaluator is None and method is None:  # Monte Carlo made here: its workers closed here
        with either_method(None, None, sampling) as made:
            return sensitivity(
                scenario, made, keys=keys, stat=stat, notch=notch, overrides=overrides,
                out=out, figures=figures, told=told, kept=kept,
            )  # fmt: skip
    evaluator = either_method(evaluator, method, sampling)
    overrides = given_overrides(overrides)
    if isinstance(keys, str):  # "a,b" as --keys takes them, not one key per character
        keys = [key.strip() for key in keys.split(",") if key.strip()]
    for given_key in keys or ():  # keys=[3] was an AttributeError of int.removeprefix
        if not isinstance(given_key, str):
            raise UserError(
                phrase(
                    "{flag}: got {value}; expected dotted scenario keys, e.g. patient.cp_rs",
                    flag=spelling().option("keys"),
                    value=display(given_key),
                )
            )
    typed = list(keys or ())
    repeated = [key for i, key in enumerate(typed) if key in typed[:i]]
    if repeated:  # as sweep's --grid: a key typed twice was meant to be another
        raise UserError(
            phrase(
                "{flag} {key}: given twice; expected each key once",
                flag=spelling().option("keys"),
                key=repeated[0],
            )
        )
    if isinstance(notch, str):
        notch = (notch,)
    given: dict[str, Any] = {}

    def read_stat() -> None:
        given["stat"] = Statistic.parse(stat, "stat")

    def read_scenario() -> None:
        given["variants"] = Variants(scenario, overrides)

    given["notches"] = {}

    def read_notch(text: str) -> Callable[[], None]:
        def read() -> None:
            given["notches"][split_notch(text)] = text

        return read

    # --stat, --set and every --notch: all told at once
    every_mistake(read_stat, read_scenario, *(read_notch(text) for text in notch))
    statistic: Statistic = given["stat"]
    variants: Variants = given["variants"]
    explicit: dict[str, str] = given["notches"]
    base = variants.base
    statistic.check(base, "stat")
    maxima = variants.given_maxima()
    chosen = default_keys(base, maxima) if keys is None else keys
    names = list(dict.fromkeys(chosen))
    names += [k for k in explicit if k not in names]
    from simulator.report.wording import scenario_text

    tell_basic_ignores(base, scenario_text(base)[0], keys=names)  # keys it never reads too

    def named_by(name: str) -> str:  # the option that named a key: notch alone, else keys
        return "notch" if name in explicit and (keys is None or name not in keys) else "keys"

    for name in names:  # T2: a notch of a maximum the file's [patient.maxima] outranks
        level = name.removeprefix("rules.table.").removesuffix(".max")
        if name == f"rules.table.{level}.max" and level in maxima:
            raise UserError(
                phrase(
                    "{flag} {name}: the scenario's [patient.maxima] gives this maximum, and "
                    "wins over the table's; expected patient.maxima.{level} (the key that "
                    "moves it)",
                    flag=spelling().lead(named_by(name)),
                    name=name,
                    level=level,
                )
            )
    if not names:
        raise UserError(phrase("{flag}: expected at least one key", flag=spelling().option("keys")))
    plan: list[tuple[Key, float, float | None, float | None]] = []
    scenarios = [base]
    where: list[tuple[int, str]] = []
    mistakes: list[UserError] = []
    for name in names:
        flag = named_by(name)
        try:  # every key's mistake is told, not only the first one's (CONTRACT)
            key, value = key_of(name, current_value(base, name, flag), flag)
        except UserError as exc:
            mistakes.append(exc)
            continue
        down: float | None
        up: float | None
        if name in explicit:
            try:
                down, up = parse_notch(explicit[name], key)
            except UserError as exc:
                mistakes.append(exc)
                continue
            if down > value or up < value:  # "one notch up" below the scenario's own value
                mistakes.append(
                    UserError(
                        phrase(
                            "{name}: got {down},{up} around {value}; expected DOWN at most and UP "
                            "at least the scenario's value (the table labels them one notch down "
                            "and one notch up)",
                            name=spelling().item("notch", name),
                            down=key.literal(down),
                            up=key.literal(up),
                            value=key.literal(value),
                        )
                    )
                )
                continue
        else:
            down, up = notches(key.kind, value, to_bounds=True)  # 0.02: 0 and 0.07
        sides: dict[str, float | None] = {"down": down, "up": up}
        typed = explicit[name].partition("=")[2].split(",") if name in explicit else []
        as_typed = dict(zip(sides, (t.strip() for t in typed), strict=False))  # 36526d kept
        for side, notch_value in sides.items():
            if notch_value is None:
                continue
            try:
                setting = key.setting(notch_value, as_typed.get(side))
                scenarios.append(variants.build([setting], "notch"))
            except ScenarioError as exc:
                if name in explicit:  # a notch typed: its mistake told with the others
                    mistakes.append(exc)
                    break
                sides[side] = None  # a default notch the rules refuse: left out
                continue
            where.append((len(plan), side))
        plan.append((key, value, sides["down"], sides["up"]))
    if mistakes:
        raise mistakes[0] if len(mistakes) == 1 else CombinedUserError(mistakes)
    inputs = [scenario] if isinstance(scenario, str | Path) else []
    base_content = repr(dataclasses.replace(base, source=""))
    asked = [statistic.text, names, sorted(explicit.values())]
    asked.append([str(given) for given in variants.overrides])
    from simulator.studies.kept import kept_answer

    def compute(measure: Evaluator) -> SensitivityResult:  # with the evaluations kept
        return _ranked(measure, evaluator, variants, statistic, scenarios, where, plan)

    return kept_answer("sensitivity", compute, evaluator, out, SensitivityResult.files(), inputs,
                       asked, base_content, told, kept, figures)  # fmt: skip


def _ranked(
    measure: Evaluator,
    method: Evaluator,
    variants: Variants,
    statistic: Statistic,
    scenarios: Sequence[Scenario],
    where: Sequence[tuple[int, str]],
    plan: Sequence[tuple[Key, float, float | None, float | None]],
) -> SensitivityResult:
    """The evaluations of :func:`sensitivity`, ranked.

    ``measure`` evaluates (keeping what it finishes, when it does); ``method`` is the method,
    which says its trials and seed.
    """
    base = variants.base
    found = _evaluated(measure, scenarios, statistic, where, plan)
    base_found = found[0]
    assert base_found is not None
    moved = {at: ev for at, ev in zip(where, found[1:], strict=True) if ev is not None}
    rows = [
        Row(
            key,
            value,
            down if (i, "down") in moved else None,  # a notch over --exact's limits: null
            up if (i, "up") in moved else None,
            moved.get((i, "down")),
            moved.get((i, "up")),
            base_found,
        )
        for i, (key, value, down, up) in enumerate(plan)
    ]
    rows.sort(key=lambda r: -r.swing)  # stable: equal swings keep the keys' order (0 within
    # the dropped mass: ranked with the keys that move nothing)
    from simulator.report.wording import scenario_text, titled

    sampled = method.method == "monte-carlo"
    return SensitivityResult(
        statistic,
        base_found,
        rows,
        method.method,
        titled(base.name, labels(variants.overrides)),
        getattr(method, "trials", None) if sampled else None,
        getattr(method, "seed", None) if sampled else None,
        titled(scenario_text(base)[0], labels(variants.overrides)),
    )
