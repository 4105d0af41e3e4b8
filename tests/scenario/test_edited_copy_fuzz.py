"""Random files a person could write, randomly edited: the copy keeps what the edit left alone.

Each case is a seed (:mod:`tests.scenario.toml_fuzz` writes the file and the edit from it
alone): a failure names its seed, replayed with ``generate(seed)`` and ``edit(...)``. The
copy must read back as exactly the edited mapping (no key nobody typed, none lost), keep
every line the edit did not touch byte for byte and in order, and add no comment and no blank
line but one above a table it adds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from simulator.scenario.editing import edited_text
from simulator.scenario.overrides import edited_toml
from simulator.scenario.reading import read_scenario_source
from tests.scenario.toml_fuzz import check, edit, generate

SEEDS = range(200)
MODES = pytest.mark.parametrize(
    ("swaps", "rich", "parts", "margins"),
    [
        (False, False, False, False),
        (True, False, False, False),
        (False, True, False, False),
        (True, True, False, False),
        (True, True, True, False),
        (True, True, True, True),
    ],
    ids=["values", "swaps", "rich-values", "rich-swaps", "parts", "margins"],
)


def failures(
    seeds: range, *, swaps: bool, rich: bool, parts: bool = False, margins: bool = False
) -> dict[int, list[str]]:
    """What the copy broke, by seed, for each seed whose copy broke something."""
    out = {}
    for seed in seeds:
        text, data, lines = generate(seed, rich=rich, parts=parts, margins=margins)
        edited = edit(data, seed, swaps=swaps)
        problems = check(text, lines, edited, edited_text(text, edited))
        if problems:
            out[seed] = problems
    return out


@MODES
def test_a_random_file_randomly_edited_keeps_every_line_the_edit_left_alone(
    swaps: bool, rich: bool, parts: bool, margins: bool
) -> None:
    """``values``: values changed, keys, tables and items added or taken out, tables replaced
    by tables or emptied (what ``--set`` and the workbench do); ``swaps``: a table may also
    become a value and a value a table. ``rich`` files also hold multi-line strings, headers
    spelled with spaces or tabs (``[ a . b ]``, ``[[\tx\t]]``), sub-tables of ``[[items]]``
    and tables written in parts (``[a]``, other tables, ``[a.late]``); ``parts`` files also
    tables that dotted keys write in several places (``a.x = 1``, other keys, ``a.y = 2``)
    and sub-tables of theirs (``[a.sub]``); ``margins`` files also indented headers."""
    assert not failures(SEEDS, swaps=swaps, rich=rich, parts=parts, margins=margins)


@pytest.mark.slow  # 1,000 files a mode, some 10 s each
@MODES
def test_a_thousand_random_files_randomly_edited(
    swaps: bool, rich: bool, parts: bool, margins: bool
) -> None:
    """The same at 1,000 seeds a mode (seed 638 of ``rich-swaps`` found a table in parts
    left empty moved to the end of the file, the comments among its keys lost)."""
    assert not failures(range(1000), swaps=swaps, rich=rich, parts=parts, margins=margins)


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_the_text_edited(
    tmp_path: Path,
) -> None:
    """What an editor on Windows writes: the text edited is the one read (mark off, each line
    end read as ``\\n``), every line the edit left alone is kept, and the copy ends its lines
    as the file did."""
    failures = {}
    for seed in range(40):
        text, data, lines = generate(seed)
        rng = random.Random(seed)
        raw = text.replace("\n", "\r\n") if rng.random() < 0.7 else text
        path = tmp_path / f"{seed}.toml"
        path.write_bytes(("\ufeff" if rng.random() < 0.5 else "").encode() + raw.encode())
        read = read_scenario_source(path)
        assert read.text == text and read.mapping == data
        edited = edit(data, seed)
        copy = edited_toml(edited, [], ["Saved"], read.text, ["LOST"], read.newline)
        newline = "\r\n" if raw != text else "\n"
        assert copy.startswith(f"# Saved{newline}{newline}")
        body = copy.removeprefix(f"# Saved{newline}{newline}")
        if newline == "\r\n":
            assert "\n" not in body.replace("\r\n", "")  # every line ends so
        problems = check(text, lines, edited, body.replace(newline, "\n"))
        if problems:
            failures[seed] = problems
    assert not failures


@pytest.mark.parametrize(
    ("seed", "swaps"),
    [(638, True), (927, False), (927, True), (69, False), (158, True), (2120, False)],
    ids=["638-parts-emptied", "927-values", "927-swaps", "69", "158", "2120"],
)
def test_the_rich_seeds_that_found_a_bug(seed: int, swaps: bool) -> None:
    """638: a table in parts (``[a]`` ... ``[a.late]``) left empty went to the end of the
    file, the comments among its keys lost. 927: an ``[[item]]`` taken out freed its tables,
    and a sub-table added got the id of one of them: taken for the person's, it kept
    tomlkit's header (``[ "with space" .gamma."é clé"]``). 69 and 158: a table that only its
    sub-tables wrote, given a header, was spelled as tomlkit keeps its key (``[ x]``,
    ``[\\tbeta4]\\t``). 2120: a sub-table taken out left ``[max ]  # Géraldine's rule``,
    a header nobody typed."""
    assert not failures(range(seed, seed + 1), swaps=swaps, rich=True)


@pytest.mark.parametrize(
    ("seed", "swaps"), [(581, True), (728, True), (1079, True), (1253, True), (1696, False)]
)
def test_the_seeds_with_tables_in_dotted_parts_that_found_a_bug(seed: int, swaps: bool) -> None:
    """581 and 1253: a sub-table of a table that dotted keys also write (``d.x = 1`` in
    ``[a]``, then ``[a.d.g]``), replaced by an array of tables, was named from ``[a]``'s
    header and tomlkit's ``d`` (``[[\\tb-c\\t.alpha9.gamma]]``). 728: a table split twice
    (``m.x.g``, other keys, ``m.x.c``) left empty was written anew, comments lost. 1079: a
    key added where the keys of dotted lines were taken out read ``gamma .max`` at the
    margin. 1696: a table of dotted keys and a sub-table (``"ß".gamma = 1``, then
    ``["ß".level5]``) left empty went after the file's last top-level key."""
    assert not failures(range(seed, seed + 1), swaps=swaps, rich=True, parts=True)


@pytest.mark.parametrize("seed", [33, 139, 144, 580, 709, 848, 1164])
def test_the_seeds_with_indented_headers_that_found_a_bug(seed: int) -> None:
    """144: the last header beside a table added was an empty table's, taken for none (the
    table added was spelled and indented after an earlier one). 139: a table added under an
    indented table with no other beside it went to the margin. 1164: so did one added to
    the last part of a table in parts, after ``  [at]``. 848: one added to an item of an
    array of tables followed the item before it, as if a part of one table. 33, 580 and
    709 found the check too strict: ``[max7]`` given a header above ``  [max7.y_2]`` (or in
    its stead) may stay at the margin."""
    assert not failures(range(seed, seed + 1), swaps=True, rich=True, parts=True, margins=True)
