"""The report pages: ``report.html`` in every study folder, ``index.html`` of the main study.

Each command runs once on the tiny scenario (a few hundred trials); the pages are then
opened from ``file://`` in headless chromium: no request but the page itself, one inline
``<svg>`` per figure file of the folder, and the numbers of the folder's CSV files.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from simulator.cli.app import main
from simulator.report.i18n import exact_percent_text, number_text, percent_text, points_text
from simulator.report.pages import INDEX_HTML, REPORT, write_report
from simulator.report.pages.pieces import inline_svg
from simulator.report.pages.sections import both_ruled_out, causes_ranked
from simulator.runner.outdir import MARKER, unchanged
from tests.report.test_i18n import FRENCH, phrases_in_the_code
from tests.support import tiny_scenario

pytestmark = pytest.mark.integration  # commands end to end: make test, not make check

FAST = ["--workers", "1", "--quiet"]

COMMANDS: dict[str, list[str]] = {
    "run": ["run", "tiny.toml", "--trials", "300", *FAST],
    "run-exact": ["run", "tiny.toml", "--exact"],
    "sweep": ["sweep", "tiny.toml", "--grid", "first_aid.level=0,3", "--trials", "100", *FAST],
    "compare": ["compare", "tiny.toml", "tiny3.toml", "--trials", "100", *FAST],
    "sweep-exact": ["sweep", "tiny.toml", "--grid", "first_aid.level=0,3", "--exact"],
    "compare-exact": ["compare", "tiny.toml", "tiny3.toml", "--exact"],
    "study": ["study", "scenarios", "--trials", "100", *FAST],
    "study-exact": ["study", "scenarios", "--exact"],
    "balance": ["balance", "tiny.toml", "--vary", "first_aid.level=0..4", "--target",
                "p_dead=0.1", "--trials", "100", "--workers", "1"],
    "sensitivity": ["sensitivity", "tiny.toml", "--keys", "first_aid.level,patient.cp_rs",
                    "--trials", "100", "--workers", "1"],
}  # fmt: skip
"""Each command that writes a report, with small trial counts; ``--out`` is added."""


def invoke(workdir: Path, name: str, *extra: str, out: str = "") -> Path:
    """Run a command of :data:`COMMANDS` in ``workdir`` into ``workdir/<out or name>``."""
    out = out or name
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(workdir)
        done = runner.invoke(main, [*COMMANDS[name], *extra, "--out", out])
    assert done.exit_code == 0, done.output
    return workdir / out


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every command run once, each into its own folder."""
    workdir = tmp_path_factory.mktemp("reports")
    (workdir / "tiny.toml").write_text(tiny_scenario(), encoding="utf-8")
    (workdir / "tiny3.toml").write_text(tiny_scenario(first_aid_level=3), encoding="utf-8")
    (workdir / "scenarios").mkdir()
    for stem, level in (("novice", 0), ("expert", 3)):
        text = tiny_scenario(first_aid_level=level).replace("Tiny grave wound", stem.title())
        (workdir / "scenarios" / f"{stem}.toml").write_text(text, encoding="utf-8")
    return {name: invoke(workdir, name) for name in COMMANDS}


def pages(folders: dict[str, Path]) -> list[Path]:
    """Every page the commands wrote."""
    found = []
    for folder in folders.values():
        if (folder / INDEX_HTML).is_file():
            found += [folder / INDEX_HTML, folder / "novice" / REPORT, folder / "expert" / REPORT]
        else:
            found.append(folder / REPORT)
    return found


def open_page(page: Any, path: Path) -> list[str]:
    """Open ``path`` from the disk; return every URL the page asked for."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return asked


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_writes_its_report_and_lists_it(folders, name):
    folder = folders[name]
    marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    if name.startswith("study"):
        assert {INDEX_HTML, "README.md"} <= set(marker["files"])
        for stem in ("novice", "expert"):
            inner = json.loads((folder / stem / MARKER).read_text(encoding="utf-8"))
            assert unchanged(folder / stem / REPORT, inner["files"].get(REPORT))
        assert unchanged(folder / INDEX_HTML, marker["files"][INDEX_HTML])
    else:  # listed as the folder's own, as it is now: the next run may replace it
        assert unchanged(folder / REPORT, marker["files"].get(REPORT))


def test_pages_ask_for_nothing_but_themselves_and_show_every_figure(folders, page):
    for path in pages(folders):
        asked = open_page(page, path)
        assert asked and all(u == path.as_uri() or u.startswith("data:") for u in asked), asked
        if path.name == INDEX_HTML:
            continue
        files = sorted(p.stem for p in path.parent.glob("*.svg"))
        assert files, path  # every command here draws figures
        shown = page.eval_on_selector_all(
            "figure[data-figure]", "f => f.map(e => e.dataset.figure)"
        )
        assert sorted(shown) == files, path
        inline = page.eval_on_selector_all("figure[data-figure] > svg", "s => s.length")
        assert inline == len(files)
        texts = page.eval_on_selector_all("figure svg text", "t => t.length")
        assert texts > 0  # text stays text


def test_the_index_shows_each_scenario_with_its_answer_and_figure(folders, page):
    study = folders["study"]
    open_page(page, study / INDEX_HTML)
    headings = page.eval_on_selector_all("section.scenario h2", "h => h.map(e => e.textContent)")
    assert headings == ["Expert", "Novice"]  # the README's order: the files' names, sorted
    readme = (study / "README.md").read_text(encoding="utf-8")
    for stem in ("expert", "novice"):
        summary = json.loads((study / stem / "summary.json").read_text(encoding="utf-8"))
        text = page.inner_text(f"section#{stem}")
        assert percent_text(summary["p_dead"]) in text
        assert page.locator(f"section#{stem} figure[data-figure=fate] > svg").count() == 1
        answer = re.search(rf"## {stem.title()}\n\n.*?\*\*Answer:\*\* (.*?)\n", readme, re.DOTALL)
        assert answer is not None and answer.group(1) in text  # the README's one-line answer


def csv_row(path: Path, index: int = 0) -> dict[str, str]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))[index]


def shown_numbers(page: Any) -> list[tuple[str, str, str]]:
    """Every number cell of the page: ``(data-key, data-value, text)``."""
    return page.eval_on_selector_all(
        "td[data-key]", "c => c.map(e => [e.dataset.key, e.dataset.value, e.textContent])"
    )


def test_the_numbers_are_those_of_summary_csv(folders, page):
    for name in ("run", "run-exact"):
        folder = folders[name]
        row = csv_row(folder / "summary.csv")
        open_page(page, folder / REPORT)
        cells = {key: (value, text) for key, value, text in shown_numbers(page)}
        # an exact share to four decimals, as the terminal shows it; a sampled one to one
        share = exact_percent_text if name == "run-exact" else percent_text
        for key in ("p_dead", "p_dead_low", "p_dead_high", "p_healed", "p_healed_high"):
            value, text = cells[key]
            assert value == row[key]  # the file's own text of the number
            assert text == share(float(row[key]))
        assert cells["mean_aggravations"][0] == row["mean_aggravations"]


def test_the_numbers_of_sweeps_comparisons_and_balances_are_those_of_their_files(folders, page):
    for name, source, keys in (
        ("sweep", "sweep.csv", ("p_dead", "p_healed_low")),
        ("compare", "compare.csv", ("a", "b", "difference", "low", "high")),
        ("sweep-exact", "sweep.csv", ("p_dead", "p_dead_high")),
        ("compare-exact", "compare.csv", ("a", "difference", "high")),
        ("balance", "balance.csv", ("p", "low", "high")),
        ("sensitivity", "sensitivity.csv", ("down_stat", "up_stat", "swing")),
    ):
        with (folders[name] / source).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        ruled: set[str] = set()  # outcomes 0 on both sides by proof: words, not bounds
        if source == "compare.csv":  # the causes under "dies" in A's order, as the terminal's
            rows = causes_ranked(rows)
            ruled = both_ruled_out(json.loads((folders[name] / "compare.json").read_text()))
        open_page(page, folders[name] / REPORT)
        cells = shown_numbers(page)
        for key in keys:
            not_a_bound = key not in ("low", "high")
            wanted = [r[key] for r in rows if not_a_bound or r.get("measure", "")[2:] not in ruled]
            assert [v for k, v, _ in cells if k == key] == wanted, (name, key)
        if name == "compare-exact":  # an exact difference to four decimals, as its shares
            shown = [t for k, _, t in cells if k == "difference"]
            assert shown == [  # a mean count's difference is a number, a share's in points
                number_text(float(r["difference"]), None, 4)
                if r["measure"].startswith("mean_")
                else points_text(float(r["difference"]), None, 4)
                for r in rows
            ]
            assert all(re.search(r"\d\.\d{4}\b", t) for t in shown), shown


def test_the_same_command_twice_gives_the_same_bytes(folders):
    for name in ("run", "study", "compare"):
        folder = folders[name]
        pages = [folder / INDEX_HTML, folder / "novice" / REPORT] if name == "study" else []
        pages = pages or [folder / REPORT]
        before = [p.read_bytes() for p in pages]
        invoke(folder.parent, name)  # into its own folder again: it replaces its own files
        assert [p.read_bytes() for p in pages] == before, name
        for text in before:
            assert not re.search(rb"20\d\d-\d\d-\d\d", text)  # no date


def test_french(folders, page):
    workdir = folders["run"].parent
    out = invoke(workdir, "study", "--lang", "fr", out="study-fr")
    open_page(page, out / INDEX_HTML)
    assert page.get_attribute("html", "lang") == "fr"
    text = page.inner_text("body")
    assert "Résultats de l'étude de " in text and "Réponse" in text  # of its folder
    assert "meurt dans" in text and "\u202f%" in text  # the answer and numbers in French
    open_page(page, out / "novice" / REPORT)
    assert "Issues" in page.inner_text("body")
    figure = page.inner_text("figure[data-figure=fate]")
    assert "Devenir au fil de la campagne" in figure  # the figures' own words too


def test_without_figures_there_is_no_report_either(folders):
    """CONTRACT: "--no-figures leaves the figures and the report out"; a report left by an
    earlier run into the same folder goes with the rest of that result."""
    out = invoke(folders["run"].parent, "run", "--no-figures", out="bare")
    assert not list(out.glob("*.svg")) and not (out / REPORT).exists()
    assert (out / "summary.json").is_file()
    with_figures = invoke(folders["run"].parent, "run", "--seed", "5", out="bare")
    assert (with_figures / REPORT).is_file()
    again = invoke(folders["run"].parent, "run", "--no-figures", out="bare")
    assert not (again / REPORT).exists() and not list(again.glob("*.svg"))


def test_every_figure_of_the_folder_is_shown_whatever_its_name(folders, tmp_path, page):
    folder = tmp_path / "copy"
    shutil.copytree(folders["run"], folder)
    # a folder without the tool's marker (a copy): every figure there is the page's; in a
    # marked one, only those the marker lists (tests/runner/test_outdir.py)
    (folder / MARKER).unlink()
    svg = (folder / "aggravations.svg").read_text(encoding="utf-8")
    (folder / "whatever.svg").write_text(svg, encoding="utf-8")  # a figure no code here knows
    write_report(folder)
    open_page(page, folder / REPORT)
    shown = page.eval_on_selector_all("figure[data-figure]", "f => f.map(e => e.dataset.figure)")
    assert shown[-1] == "whatever" and len(shown) == len(list(folder.glob("*.svg")))
    ids = page.eval_on_selector_all("[id]", "e => e.map(x => x.id)")
    assert len(ids) == len(set(ids))  # two copies of one figure, and still no id twice


def test_files_the_user_copied_in_are_never_read_as_the_result(folders, tmp_path):
    """Another result's summary.csv and summary.json copied into a sweep's folder, and a
    balance's and a comparison's into a run's: names the command does not write, so not
    refused; the next report reads only the files the folder's marker lists."""
    sweep, run = tmp_path / "sweep", tmp_path / "run"
    shutil.copytree(folders["sweep"], sweep)
    shutil.copytree(folders["run"], run)
    before = {folder: (folder / REPORT).read_text(encoding="utf-8") for folder in (sweep, run)}
    for name in ("summary.csv", "summary.json"):
        shutil.copy(folders["run-exact"] / name, sweep / name)
    for name in ("balance.csv", "balance.json", "compare.csv", "compare.json"):
        source = folders["balance" if name.startswith("balance") else "compare"]
        shutil.copy(source / name, run / name)
    for folder in (sweep, run):
        write_report(folder)
        assert (folder / REPORT).read_text(encoding="utf-8") == before[folder], folder.name


def test_inline_svg_drops_the_prolog_and_prefixes_ids():
    markup = (
        '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n'
        '<svg><defs><path id="m1"/><clipPath id="p2"/></defs>'
        '<use xlink:href="#m1"/><g clip-path="url(#p2)"/><a href="#other"/></svg>'
    )
    inlined = inline_svg(markup, "fate")
    assert inlined.startswith("<svg>")
    assert 'id="fate-m1"' in inlined and 'href="#fate-m1"' in inlined
    assert "url(#fate-p2)" in inlined and 'href="#other"' in inlined  # not an id of its own


def test_every_phrase_of_the_pages_is_in_a_catalogue():
    package = Path(__file__).resolve().parents[2] / "simulator" / "report" / "pages"
    phrases = phrases_in_the_code(package, ("t", "tr"))
    for path in (package / "templates").glob("*.j2"):
        phrases |= set(re.findall(r't\("([^"]+)"\)', path.read_text(encoding="utf-8")))
    missing = phrases - set(FRENCH)
    assert phrases and not missing, missing
    for english, french in FRENCH.items():
        assert set(re.findall(r"{\w*}", english)) == set(re.findall(r"{\w*}", french)), english


def test_a_keys_value_is_shown_for_a_person_in_the_report():
    # sensitivity.csv and sweep.csv hold values as a file does (1.0, 0.75, 5min, 1.5h)
    from simulator.report.i18n import language
    from simulator.report.pages.pieces import setting

    with language("fr"):
        assert setting("0.75").text == "0,75" and setting("0.75").value == "0.75"
        assert setting("1.0").text == "1" and setting("5min").text == "5 min"
        assert setting("1.5h").text == "1 h 30 min" and setting("critical").text == "critical"
    assert setting("0.0000004").text == "0.0000004" and setting("true").text == "true"


def test_every_inline_figure_is_an_image_named_by_its_title():
    # a browser review: inline SVGs had no role nor name, a screen reader read nothing
    from simulator.report.pages.pieces import figures

    found = figures(Path(__file__).resolve().parents[2] / "results" / "geraldine")
    assert len(found) >= 5
    for fig in found:
        head = fig.svg[: fig.svg.index(">") + 1]
        assert head.startswith('<svg role="img" aria-label="'), head[:80]
    fate = next(f for f in found if f.stem == "fate")
    assert 'aria-label="Fate over campaign time. Géraldine after the ambush — 20,000 trials"' in (
        fate.svg
    )


def test_report_tables_say_ruled_out_where_the_rules_put_an_outcome_out_of_reach() -> None:
    """shaken's report said 'cannot die under these rules' above a table of 'dies 0.0% 0.0%
    0.38%'. A study's and a sweep's tables now say it where the interval was (only for a
    share of 0 in the summary's ``impossible``), and a comparison's answers tell incoherence
    for a scenario with mental wounds, as ``run`` does.
    """
    from simulator.cli.sweep import _share
    from simulator.report.pages.sections import _columns, mental_wounds, outcome_rows

    row = {"p_dead": "0.0", "p_dead_low": "0.0", "p_dead_high": "0.0038", "p_healed": "0.9",
           "p_healed_low": "0.88", "p_healed_high": "0.92", "p_wounded": "0.1",
           "p_incoherent": "0.0", "p_incoherent_low": "0.0", "p_incoherent_high": "0.0038",
           "impossible": "dead; incoherent", "median_time_to_heal_h": "100"}  # fmt: skip
    shown = {cells[0].text: [c.text for c in cells[1:]] for cells in outcome_rows(row)}
    assert shown["dies"] == ["0.0%", "ruled out by the rules", ""]
    assert shown["incoherent"] == ["0.0%", "ruled out by the rules", ""]
    assert shown["heals"] == ["90.0%", "88.0%", "92.0%"]
    _, cells = _columns([row], exact=False)
    texts = [c.text for c in cells(row)]
    assert texts[:3] == ["0.0%", "ruled out by the rules", ""], texts
    assert [c.text for c in outcome_rows(row | {"p_dead": "0.01"})[0][2:]] == ["0.0%", "0.38%"]
    summary = {"method": "monte-carlo", "p_dead": 0.0, "p_dead_ci": [0.0, 0.0038],
               "p_healed": 0.9, "p_healed_ci": [0.88, 0.92], "impossible": ["dead"]}  # fmt: skip
    assert _share(summary, "p_dead") == "0.0% (ruled out by the rules)"
    assert _share(summary, "p_healed") == "90.0% (88.0%–92.0%)"
    exact = summary | {"method": "exact"}
    assert _share(exact, "p_dead") == "0.0000% (ruled out by the rules)"
    assert mental_wounds({"injuries": [{"at": "0s", "level": "shock"}]})
    assert not mental_wounds({"injuries": [{"at": "0s", "level": "grave"}]})


def test_a_difference_ruled_out_on_both_sides_is_said_so_not_given_an_interval(
    tmp_path: Path,
) -> None:
    """compare shaken lone_traveller read 'incoherent 0.0% 0.0% 0.0 (-0.4 to +0.4)': neither
    can end incoherent, so the difference is 0 by proof (terminal and report alike)."""
    a = {"p_incoherent": 0.0, "p_dead": 0.0, "impossible": ["dead", "incoherent"]}
    b = {"p_incoherent": 0.0, "p_dead": 1.0, "impossible": ["incoherent", "healed"]}
    assert both_ruled_out({"a": a, "b": b}) == {"incoherent"}
    assert both_ruled_out({"a": a}) == set()
    root = Path(__file__).resolve().parents[2] / "scenarios"
    out = tmp_path / "c"
    told = CliRunner().invoke(
        main,
        ["compare", str(root / "shaken.toml"), str(root / "lone_traveller.toml"),
         "--trials", "200", "--out", str(out), "--no-figures"],
    )  # fmt: skip
    assert told.exit_code == 0, told.output
    line = next(x for x in told.output.splitlines() if x.strip().startswith("incoherent"))
    assert line.endswith("0.0 (ruled out by the rules)"), line
    dies = next(x for x in told.output.splitlines() if x.strip().startswith("dies"))
    assert "to" in dies  # a difference that can be nonzero keeps its interval
