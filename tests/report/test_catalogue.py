"""The gettext catalogue: every template the code marks has its French, placeholders kept.

The templates are found as ``pybabel extract`` finds them (Babel's extractor, ``babel.cfg``
and the keywords of ``make messages``), in the Python modules and the pages' Jinja templates.
"""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from simulator.report.catalogue import KEYWORDS, languages, po_path

ROOT = Path(__file__).resolve().parents[2]
KEYWORD_NAMES = ("tr", "t", "word", "ntr", "ptr")


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` template (``{n}``, ``{what_hint}``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def extracted() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every template of the code, as the extractor finds it: (context, msgid) -> its forms."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    found = {}
    for _, _, message, _, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[(context, forms[0])] = forms
    return found


def read(lang: str):
    with po_path(lang).open("rb") as file:
        return read_po(file)


TEMPLATES = extracted()


def test_the_extractor_finds_the_templates_of_every_layer():
    ids = {msgid for _, msgid in TEMPLATES}
    assert len(TEMPLATES) > 250
    assert "receives {what}" in ids  # engine/trace_templates.py
    assert "an integer from {low} to {high}" in ids  # scenario/checks.py
    assert "Contents" in ids  # a page's Jinja template
    assert "dies in {p} of campaigns (95% CI {low}–{high})" in ids  # report/wording.py
    assert TEMPLATES[(None, "{n} wound")] == ("{n} wound", "{n} wounds")
    assert "Output directory." in ids and "Usage:" in ids  # help texts, click's messages
    assert "wounds ({list})" in ids  # rules/transitions.py


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_template_has_a_translation_with_its_placeholders(lang):
    catalogue = read(lang)
    missing, changed = [], []
    for (context, msgid), forms in sorted(TEMPLATES.items(), key=lambda item: item[0][1]):
        message = catalogue.get(forms[0], context=context)
        strings = () if message is None else message.string
        strings = (strings,) if isinstance(strings, str) else tuple(strings)
        plural = len(forms) > 1
        if message is None or message.fuzzy or not all(strings) or plural != (len(strings) > 1):
            missing.append(msgid)  # (a count's template needs its plural forms)
            continue
        english = [forms[0]] + [forms[-1]] * (len(strings) - 1)
        for source, translated in zip(english, strings, strict=True):
            if placeholders(source) != placeholders(translated):
                changed.append((source, translated))
    assert not missing, f"{len(missing)} templates without a translation: {missing}"
    assert not changed, f"translations that drop or add a placeholder: {changed}"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_no_translation_drops_or_adds_a_placeholder(lang):
    """Also the catalogue's entries the extractor does not reach (checked above)."""
    for message in read(lang):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else message.string
        for i, translated in enumerate(strings):
            source = ids[min(i, len(ids) - 1)]
            assert placeholders(source) == placeholders(translated), (source, translated)


def test_the_words_translated_by_value_are_marked():
    """What ``tr`` gets from a value (a level's label, a cause's) is in ``messages``."""
    from simulator.report.causes import CAUSE_LABELS
    from simulator.report.i18n import KEY_LABELS
    from simulator.report.messages import BY_VALUE
    from simulator.rules.levels import Level
    from simulator.rules.table import CELLS
    from simulator.web.words import GROUP_NAMES, LABELS, ROWS

    values = {lv.label for lv in Level} | {f"{lv.label} wound" for lv in Level}
    values |= {cell.replace("_", " ") for cell in CELLS}
    values |= {*CAUSE_LABELS.values(), *KEY_LABELS.values(), *GROUP_NAMES.values()}
    values |= {*LABELS.values(), *(name for _, name in ROWS)}
    assert values <= set(BY_VALUE), values - set(BY_VALUE)
    assert {(None, word) for word in BY_VALUE} <= set(TEMPLATES)


def literal_calls(tree: ast.AST, names: tuple[str, ...]) -> set[str]:
    """The literal first arguments of the calls to ``names`` inside f-strings of ``tree``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in names
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                ):
                    found.add(call.args[0].value)
    return found


def test_what_the_extractor_cannot_read_is_marked():
    """Templates inside f-strings, and the notebooks', are listed in ``report/messages.py``."""
    from simulator.report.messages import IN_FORMATTED, NOTEBOOKS

    in_fstrings = set()
    for path in (ROOT / "simulator").rglob("*.py"):
        in_fstrings |= literal_calls(ast.parse(path.read_text(encoding="utf-8")), KEYWORD_NAMES)
    assert in_fstrings and in_fstrings <= set(IN_FORMATTED), in_fstrings - set(IN_FORMATTED)
    notebooks = set()
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        notebooks |= set(re.findall(r'\btr\(\s*"([^"]+)"', code))
    assert notebooks and notebooks <= set(NOTEBOOKS), notebooks - set(NOTEBOOKS)
    assert {(None, text) for text in (*IN_FORMATTED, *NOTEBOOKS)} <= set(TEMPLATES)


FOR_AUTHORS = {
    "DeprecationWarning: The command {name!r} is deprecated.{extra_message}",
    "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}",
    "Name '{name}' defined twice",
    "Boolean option {decl!r} cannot use the same flag for true/false.",
    "Could not determine name for option with declarations {decls!r}",
    "No options defined but a name was passed ({name}). Did you mean to declare an argument "
    "instead? Did you mean to pass '--{name}'?",
    "Arguments take exactly one parameter declaration, got {length}: {decls}.",
    "Do you want to continue?",  # prompts: the project's commands never ask
    "Confirm the action without prompting.",
    "%(prog)s, version %(version)s",  # the project's --version is its own
    "Choice({choices})",  # a repr
}
"""Click's messages that only a program's author (or a prompt the project never shows) sees."""


def test_the_click_messages_are_those_click_can_show():
    """Each of click's messages a user can read is a template of the catalogue, and no other."""
    import click

    from simulator.cli.words import CLICK_MESSAGES, CLICK_MODULES

    folder = Path(click.__file__).parent
    shown = set()
    for name in CLICK_MODULES:
        with (folder / f"{name}.py").open("rb") as file:
            for _, message, _, _ in extract("python", file, {"_": None, "ngettext": (1, 2)}):
                shown.add(message if isinstance(message, str) else tuple(message))
    listed = set(CLICK_MESSAGES)
    assert listed <= shown, f"no longer click's: {listed - shown}"
    assert shown - FOR_AUTHORS <= listed, f"click's messages not in the catalogue: {shown - listed}"


def test_a_modifier_with_values_is_worded_from_its_template():
    """A1's ``wounds (2 light, 1 grave)`` keeps its template and counts: French never parses it."""
    import pickle

    from simulator.report.i18n import language
    from simulator.report.timeline import modifier_name
    from simulator.rules.levels import Level
    from simulator.rules.transitions import wounds_name
    from tests.support import build_patient

    name = wounds_name(build_patient(Level.LIGHT, Level.LIGHT, Level.GRAVE))
    assert name == "wounds (2 light, 1 grave)"
    assert pickle.loads(pickle.dumps(name)).phrase == name.phrase
    with language("fr"):
        assert modifier_name(name) == "blessures (2 légères, 1 grave)"
        assert modifier_name("wounds (2 light, 1 grave)") == "wounds (2 light, 1 grave)"
        assert modifier_name(wounds_name(build_patient())) == "blessures (aucune)"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_no_template_is_listed_twice_in_the_catalogue(lang):
    """A msgid given twice: Babel keeps one silently, so a second French would be lost."""
    text = po_path(lang).read_text(encoding="utf-8")
    ids = re.findall(r'^(?:msgctxt (".*")\n)?msgid ((?:".*"\n)+)', text, flags=re.M)
    joined = [context + "|" + "".join(re.findall(r'"(.*)"', block)) for context, block in ids]
    repeated = sorted({m for m in joined if joined.count(m) > 1})
    assert repeated == []
