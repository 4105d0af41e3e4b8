"""A copy of a scenario saved with changes is the designer's own text, edited in place.

The workbench's save-as and ``calibrate``'s ``<stem>.calibrated.toml`` wrote the mapping anew:
the designer's comments (how they annotate their balance decisions) were lost, dotted keys
and inline tables became ``[sections]``. The copy now keeps every comment, blank line and
layout of what did not change; it still holds only the keys the file held and those the
changes set, and loads back to the edited scenario.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simulator.scenario.editing import edited_text, same
from simulator.scenario.model import Scenario
from simulator.scenario.overrides import apply, drop_stale_translations, edited_toml
from simulator.scenario.reading import load_scenario, read_scenario_source
from tests.support import REPO

FORD = """\
# The ford ambush: one grave wound, far from town.
# Balance note: the healer's -1 is the poor tools of the camp.
name = "The ford"  # shown in every report
name_fr = "Le gué"
horizon = "7d"
patient.cp_rs = 8  # a tough scout
patient.rs_it = 7
watch = { neglect_probability = 0.1 }  # the camp sleeps, sometimes

# The wound, at once.
[[injuries]]
at = "0s"
level = "grave"  # an arrow

# The healer comes on the second day.
[healing]
level = -2
modifier = -1  # poor tools
"""
"""A scenario with comments on top, at line ends and between tables, dotted keys and an
inline table."""

CHANGES = [
    "name=The ford, with a medic",  # the French name goes (it said the old name)
    "patient.cp_rs=9",  # a dotted key
    "watch.neglect_probability=0.25",  # inside an inline table
    "healing.modifier=0",  # a key with a comment at its line's end
    "injuries[0].level=critical",  # an item of an array of tables
    "first_aid.level=3",  # a table the file lacks
    "first_aid.start=5min",
    "first_aid.interval=10min",
    "rules.table.grave.unstable_period=30min",  # a nested table the file lacks
    "description=Does a medic save the scout?",  # a top-level key the file lacks
]

UNTOUCHED = [
    "# The ford ambush: one grave wound, far from town.",
    "# Balance note: the healer's -1 is the poor tools of the camp.",
    'horizon = "7d"',
    "patient.rs_it = 7",
    "",
    "# The wound, at once.",
    "[[injuries]]",
    'at = "0s"',
    "# The healer comes on the second day.",
    "[healing]",
    "level = -2",
]


def same_scenario(a: Scenario, b: Scenario) -> bool:
    return dataclasses.replace(a, source="") == dataclasses.replace(b, source="")


def saved(tmp_path: Path, text: str, changes: list[str], name: str = "copy.toml") -> Path:
    original = tmp_path / "ford.toml"
    original.write_text(text, encoding="utf-8")
    read = read_scenario_source(original)
    path = tmp_path / name
    copy = edited_toml(read.mapping, changes, ["Saved from ford.toml"], read.text, ["LOST"])
    path.write_text(copy, encoding="utf-8")
    return path


def test_a_saved_copy_keeps_comments_and_layout_and_changes_only_what_changed(
    tmp_path: Path,
) -> None:
    path = saved(tmp_path, FORD, CHANGES)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[:3] == ["# Saved from ford.toml", "", FORD.splitlines()[0]]  # heading first
    assert "LOST" not in text  # the file's comments are kept: no note says otherwise
    for line in UNTOUCHED:
        assert line in lines, line
    # changed in place, each on its own line, its comment kept
    assert 'name = "The ford, with a medic"  # shown in every report' in lines
    assert "patient.cp_rs = 9  # a tough scout" in lines  # still a dotted key
    assert "watch = { neglect_probability = 0.25 }  # the camp sleeps, sometimes" in lines
    assert 'level = "critical"  # an arrow' in lines
    assert "modifier = 0  # poor tools" in lines
    assert "name_fr" not in text  # renamed: the old French name is left out
    # added where a person would put them: a key after the file's keys, tables at the end
    description = lines.index('description = "Does a medic save the scout?"')
    assert description < lines.index("# The wound, at once.")
    assert text.endswith(
        '\n[first_aid]\nlevel = 3\nstart = "5min"\ninterval = "10min"\n'
        '\n[rules.table.grave]\nunstable_period = "30min"\n'
    )
    assert "[patient]" not in text and "[watch]" not in text  # no layout turned into sections
    # only the file's keys and those the changes set, and it loads back to the edited scenario
    data = tomllib.loads(text)
    assert set(data) == {"name", "description", "horizon", "patient", "watch", "injuries",
                         "healing", "first_aid", "rules"}  # fmt: skip
    assert data["patient"] == {"cp_rs": 9, "rs_it": 7}
    assert same_scenario(load_scenario(path), load_scenario(tmp_path / "ford.toml", CHANGES))


def test_an_override_of_a_whole_table_replaces_it(tmp_path: Path) -> None:
    changes = [
        'watch={neglect_at=["12h"]}',
        "healing={level=1}",
        'injuries=[{at="1h", level="light"}]',
    ]
    path = saved(tmp_path, FORD, changes)
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["watch"] == {"neglect_at": ["12h"]}
    assert data["healing"] == {"level": 1}
    assert data["injuries"] == [{"at": "1h", "level": "light"}]
    assert 'watch = {neglect_at = ["12h"]}  # the camp sleeps, sometimes' in text
    assert "# The healer comes on the second day." in text and "# poor tools" not in text
    assert same_scenario(load_scenario(path), load_scenario(tmp_path / "ford.toml", changes))


def test_without_the_file_s_text_the_copy_is_written_anew_and_says_so() -> None:
    data = tomllib.loads(FORD)
    copy = edited_toml(data, ["patient.cp_rs=9"], ["Saved"], None, ["LOST"])
    assert copy.startswith("# Saved\n# LOST\n\n")  # the note only where comments are lost
    assert "[patient]\ncp_rs = 9" in copy and "tough scout" not in copy
    assert tomllib.loads(copy)["patient"]["cp_rs"] == 9


def test_a_typed_line_in_the_heading_stays_a_comment_above_the_kept_text() -> None:
    data = tomllib.loads(FORD)
    copy = edited_toml(data, [], ['evil\nname = "injected"'], FORD)
    assert copy.startswith('# evil\\nname = "injected"\n\n# The ford ambush')
    assert tomllib.loads(copy)["name"] == "The ford"


def test_values_that_compare_equal_across_types_are_still_changed() -> None:
    """``1`` and ``1.0`` and ``true`` are equal in Python; not in a scenario file."""
    text = "a = 1  # one\nb = 1.0\nc = true\n"
    edited = edited_text(text, {"a": 1.0, "b": 1, "c": 1})
    assert edited == "a = 1.0  # one\nb = 1\nc = 1\n"
    assert not same(1, 1.0) and not same(True, 1) and same(float("nan"), float("nan"))


SCENARIOS = sorted((REPO / "scenarios").glob("*.toml"))
EDITS = [
    ["name=Renamed"],
    ["patient.cp_rs=3", "horizon=3d"],
    ["first_aid.level=4", "first_aid.start=1min", "first_aid.interval=1min"],
    ["healing.level=2", "healing.modifier=0"],
    ["rules.table.grave.unstable_period=45min", "rules.tie_succeeds=false"],
    ["patient.maxima.grave=3"],
    ["watch.neglect_probability=0.5", "rules.table.light.max=9"],
]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_repository_scenario_is_edited_in_place_with_its_comments(path: Path) -> None:
    read = read_scenario_source(path)
    comments = [line for line in read.text.splitlines() if line.lstrip().startswith("#")]
    for changes in EDITS:
        edited, problems = apply(read.mapping, changes)
        assert not problems
        drop_stale_translations(edited, changes)
        text = edited_text(read.text, edited)
        assert text is not None, changes  # in place, never written anew
        assert same(tomllib.loads(text), edited)
        kept = text.splitlines()
        assert all(line in kept for line in comments), changes


NIGHTS = """\
name = "Two nights"
horizon = "7d"
patient = { cp_rs = 8, rs_it = 8 }  # a scout
injuries = [
  { at = "0s", level = "grave" },  # the arrow
  { at = "1h", level = "light" },  # the fall
]

[watch]
neglect_at = [
  "12h",  # first night: the camp is tired
  # the second night is the playtest's
  "36h",  # second night
]  # the watches forgotten
"""
"""Multi-line arrays with a comment after each item and a line of comment among them."""


def test_a_multi_line_array_is_edited_item_by_item_its_comments_kept() -> None:
    """A changed list was written anew on one line: the comment of every item was lost."""
    data = tomllib.loads(NIGHTS)
    edited, _ = apply(data, ['watch.neglect_at=["12h", "40h", "60h"]'])
    text = edited_text(NIGHTS, edited)
    assert text is not None
    assert (
        'neglect_at = [\n  "12h",  # first night: the camp is tired\n'
        "  # the second night is the playtest's\n"
        '  "40h",  # second night\n  "60h",\n]  # the watches forgotten\n'
    ) in text
    assert same(tomllib.loads(text), edited)


def test_an_item_of_an_array_of_inline_tables_is_edited_where_it_stands() -> None:
    """``injuries.1.level`` in ``injuries = [{...}, {...}]``: the array was written anew."""
    data = tomllib.loads(NIGHTS)
    edited, _ = apply(data, ["injuries.1.level=grave", "injuries.0.count=2"])
    text = edited_text(NIGHTS, edited)
    assert text is not None
    assert '  { at = "0s", level = "grave", count = 2 },  # the arrow\n' in text
    assert '  { at = "1h", level = "grave" },  # the fall\n' in text
    assert same(tomllib.loads(text), edited)


def test_a_key_added_to_an_inline_table_is_spaced_as_its_keys() -> None:
    data = tomllib.loads(NIGHTS)
    edited, _ = apply(data, ["patient.profile=humanoid"])
    text = edited_text(NIGHTS, edited)
    assert text is not None
    assert 'patient = { cp_rs = 8, rs_it = 8, profile = "humanoid" }  # a scout\n' in text


ROW = """\
name = "Slow bleeding"
horizon = "7d"

[patient]
cp_rs = 8
rs_it = 8

# The wound, at once.
[[injuries]]
at = "0s"
level = "grave"

# Playtest 3: the grave row bleeds slower.
[rules.table.grave]  # T1's row
unstable_period = "1h"

# The healer comes on the second day.
[healing]
level = -2
"""
"""Comments above each table; ``[rules]`` written only through ``[rules.table.grave]``."""

GRAVE = "[rules.table.grave]  # T1's row"


def _heads(text: str, comment: str, header: str) -> bool:
    """Whether ``comment`` is the line right above ``header``."""
    lines = text.splitlines()
    return comment in lines and lines[lines.index(comment) + 1] == header


def test_a_key_added_to_a_table_written_only_through_its_sub_table() -> None:
    """``rules.open_roll`` where the file has only ``[rules.table.grave]``: the new ``[rules]``
    header took the sub-table's end-of-line comment, and the comment above the sub-table."""
    data = tomllib.loads(ROW)
    edited, _ = apply(data, ["rules.open_roll=true"])
    text = edited_text(ROW, edited)
    assert text is not None
    assert text.count("# T1's row") == 1
    assert "\n[rules]\nopen_roll = true\n" in text
    assert _heads(
        text, "# Playtest 3: the grave row bleeds slower.", "[rules.table.grave]  # T1's row"
    )
    assert same(tomllib.loads(text), edited)


@pytest.mark.parametrize(
    "changes",
    [
        ["patient.maxima.grave=3"],  # a sub-table of [patient], above [[injuries]]'s comment
        ['injuries=[{at="0s", level="grave"}, {at="1h", level="light"}]'],  # an item added
        ["rules.table.light.max=3"],  # a row after [rules.table.grave], above [healing]
        ["rules.open_roll=true", "rules.table.light.max=3"],
    ],
    ids=["sub-table", "array-item", "row", "key-and-row"],
)
def test_a_table_added_goes_above_the_comments_that_head_the_next_one(
    changes: list[str],
) -> None:
    """tomlkit keeps a table's heading comments at the end of the table before it: a table
    added there went below them, and the comment then headed the new table."""
    data = tomllib.loads(ROW)
    edited, problems = apply(data, changes)
    assert not problems
    text = edited_text(ROW, edited)
    assert text is not None
    assert _heads(text, "# The wound, at once.", "[[injuries]]")
    assert _heads(
        text, "# Playtest 3: the grave row bleeds slower.", "[rules.table.grave]  # T1's row"
    )
    assert _heads(text, "# The healer comes on the second day.", "[healing]")
    assert same(tomllib.loads(text), edited)


HEADED = """\
[a]
x = 1

# about b
[b]
y = 2

# about c
[c]
z = 3
"""


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # the blank line above the next table's comment went with the table taken out
            HEADED,
            {"a": {"x": 1}, "c": {"z": 3}},
            "[a]\nx = 1\n\n# about b\n\n# about c\n[c]\nz = 3\n",
        ),
        (  # one blank line between two tables, not two
            "[a]\nx = 1\n\n[b]\ny = 2\n\n[c]\nz = 3\n",
            {"a": {"x": 1}, "c": {"z": 3}},
            "[a]\nx = 1\n\n[c]\nz = 3\n",
        ),
        (  # an array of tables replaced by a value: the blank line above [c]'s comment
            "[[a]]\nx = 1\n\n# c\n[c]\nz = 3\n",
            {"a": 3, "c": {"z": 3}},
            "a = 3\n\n# c\n[c]\nz = 3\n",
        ),
        (  # a table added above a comment that had no blank line above it: none added
            "[a]\nx = 1\n# c\n",
            {"a": {"x": 1, "level": {"y": 1}}},
            "[a]\nx = 1\n\n[a.level]\ny = 1\n# c\n",
        ),
        (  # the last item of an array of tables taken out, and one added
            "[[a]]\nx = 1\n\n# two\n[[a]]\nx = 2\n\n# c\n[c]\nz = 3\n",
            {"a": [{"x": 1}], "c": {"z": 3}},
            "[[a]]\nx = 1\n\n# c\n[c]\nz = 3\n",
        ),
        (
            "[[a]]\nx = 1\n# c\n[c]\nz = 3\n",
            {"a": [{"x": 1}, {"x": 2}], "c": {"z": 3}},
            "[[a]]\nx = 1\n[[a]]\nx = 2\n# c\n[c]\nz = 3\n",  # spaced as the file's items
        ),
        (  # no blank line above the next table: none below the table added either
            "[a]\nx = 1\n[b]\ny = 2\n",
            {"a": {"x": 1, "c": {"z": 1}}, "b": {"y": 2}},
            "[a]\nx = 1\n\n[a.c]\nz = 1\n[b]\ny = 2\n",
        ),
        (  # a sub-table beside dotted keys replaced by an array of tables: one blank line
            "a.x = 1\na.y = 2\n\n[a.sub]\nk = 1\n\n[b]\nc = 1\n",
            {"a": {"x": 1, "y": 2, "sub": [{"k": 1}, {"k": 2}]}, "b": {"c": 1}},
            "a.x = 1\na.y = 2\n\n[[a.sub]]\nk = 1\n\n[[a.sub]]\nk = 2\n\n[b]\nc = 1\n",
        ),
        (  # none above it: none added
            "a.x = 1\n[a.sub]\nk = 1\n[b]\nc = 1\n",
            {"a": {"x": 1, "sub": [{"k": 2}]}, "b": {"c": 1}},
            "a.x = 1\n[[a.sub]]\nk = 2\n[b]\nc = 1\n",
        ),
        (  # its comment stays right above it, the comment heading the next table above that
            "x = 0\n\n# sub\n[a.sub]\nk = 1\n\n# b\n[b]\nc = 1\n",
            {"x": 0, "a": {"sub": [{"k": 1}]}, "b": {"c": 1}},
            "x = 0\n\n# sub\n[[a.sub]]\nk = 1\n\n# b\n[b]\nc = 1\n",
        ),
    ],
    ids=[
        "table-out",
        "no-double-blank",
        "tables-to-value",
        "table-added",
        "item-out",
        "item-in",
        "table-added-glued",
        "table-to-tables",
        "table-to-tables-glued",
        "table-to-tables-comments",
    ],
)
def test_a_table_replaced_or_taken_out_keeps_the_blank_lines_around_it(
    text: str, edited: dict[str, object], expected: str
) -> None:
    """A table taken out (or replaced by a value) took with it the blank line that parted it
    from the next table's comments; a table added brought a blank line nobody wrote; a
    sub-table replaced by an array of tables was moved, a second blank line above it."""
    assert edited_text(text, edited) == expected


DOTTED = """\
name = "Dotted"
patient.cp_rs = 8  # a tough scout
patient.rs_it = 7
rules.table.grave.mortality = 3  # playtest 3
rules.table.grave.pain = 2
horizon = "7d"

[healing]
level = -2
table.light.max = 3  # a dotted key under a header
table.light.pain = 1
"""


@pytest.mark.parametrize(
    ("changes", "lines"),
    [
        (
            ["patient.cp_rs=9", "healing.table.light.max=4"],
            [
                "patient.cp_rs = 9  # a tough scout",
                "table.light.max = 4  # a dotted key under a header",
            ],
        ),
        (
            ["rules.table.grave.mortality=4"],
            ["rules.table.grave.mortality = 4  # playtest 3", "rules.table.grave.pain = 2"],
        ),
    ],
    ids=["dotted", "deep"],
)
def test_a_dotted_key_is_edited_in_place_in_the_person_s_spelling(
    changes: list[str], lines: list[str]
) -> None:
    data = tomllib.loads(DOTTED)
    edited, problems = apply(data, changes)
    assert not problems
    text = edited_text(DOTTED, edited)
    assert text is not None
    assert "[patient]" not in text and "[rules" not in text and "[healing.table" not in text
    kept = text.splitlines()
    assert all(line in kept for line in lines)
    assert len(kept) == len(DOTTED.splitlines())
    assert same(tomllib.loads(text), edited)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (  # one dotted key taken out, its neighbour changed: tomlkit lost track of the rest
            lambda d: (d["patient"].pop("cp_rs"), d["patient"].update(rs_it=6)),
            DOTTED.replace("patient.cp_rs = 8  # a tough scout\n", "").replace(
                "rs_it = 7", "rs_it = 6"
            ),
        ),
        (  # the same, one level down
            lambda d: (
                d["rules"]["table"]["grave"].pop("mortality"),
                d["rules"]["table"]["grave"].update(pain=5),
            ),
            DOTTED.replace("rules.table.grave.mortality = 3  # playtest 3\n", "").replace(
                "grave.pain = 2", "grave.pain = 5"
            ),
        ),
        (  # under a [header]
            lambda d: (
                d["healing"]["table"]["light"].pop("max"),
                d["healing"]["table"]["light"].update(pain=0),
            ),
            DOTTED.replace("table.light.max = 3  # a dotted key under a header\n", "").replace(
                "light.pain = 1", "light.pain = 0"
            ),
        ),
    ],
    ids=["root", "deep", "header"],
)
def test_a_dotted_key_taken_out_leaves_its_neighbours_editable(
    edit: Callable[[dict[str, Any]], object], expected: str
) -> None:
    """``patient.cp_rs`` taken out and ``patient.rs_it`` changed: tomlkit's view of the dotted
    keys went stale, and the whole file was written anew, its comments lost."""
    edited = tomllib.loads(DOTTED)
    edit(edited)
    assert edited_text(DOTTED, edited) == expected


def test_an_item_added_to_an_array_of_tables_may_hold_a_table() -> None:
    """An item like the file's own (``wound.site = "arm"``): the new item could not be written
    (``[[...]]`` items of a written-anew file hold values only), and the copy was written anew,
    its comments lost. The table is written inline in the new item."""
    text = '# wounds\n[[injuries]]\nat = "0s"\nwound.site = "arm"  # the left one\n'
    edited = {
        "injuries": [
            {"at": "0s", "wound": {"site": "arm"}},
            {"at": "1h", "wound": {"site": "leg"}},
        ]
    }
    assert edited_text(text, edited) == (text + '[[injuries]]\nat = "1h"\nwound = {site = "leg"}\n')


def test_a_sub_table_replaced_by_a_value_keeps_the_comments_in_their_order() -> None:
    """``[b.c]`` replaced by ``b.c = 5`` (``[b]`` then written): the comments that headed it
    went below those that head ``[b.d]``."""
    text = "[a]\nx = 1\n\n# about b.c\n[b.c]\ny = 1\n\n# about b.d\n[b.d]\nz = 1\n"
    edited = edited_text(text, {"a": {"x": 1}, "b": {"c": 5, "d": {"z": 1}}})
    assert edited is not None
    lines = edited.splitlines()
    assert lines.index("# about b.c") < lines.index("# about b.d") == lines.index("[b.d]") - 1


def test_a_table_left_empty_is_still_written() -> None:
    """Every key of ``patient.cp_rs = 8`` taken out (or of ``[rules.table.grave]``): no line
    was left to say the table is there, and the copy was written anew, its comments lost."""
    text = '# kept\npatient.cp_rs = 8  # a scout\nname = "x"\n\n[rules.table.grave]\nmax = 1\n'
    edited = {"patient": {}, "name": "x", "rules": {}}
    copy = edited_text(text, edited)
    assert copy is not None and "# kept" in copy
    assert same(tomllib.loads(copy), edited)


@pytest.mark.parametrize(
    ("ends", "newline"),
    [(["\r\n"] * 3, "\r\n"), (["\n"] * 3, "\n"), (["\r\n", "\n", "\r\n"], "\n")],
    ids=["crlf", "lf", "mixed"],
)
def test_a_copy_ends_its_lines_as_the_file_did(
    tmp_path: Path, ends: list[str], newline: str
) -> None:
    """CRLF from an editor on Windows: read as ``\\n``, written back as CRLF (all of the
    file's lines ended so; a file of both is written with ``\\n``)."""
    from simulator.runner.writers import write_text

    text = "".join(
        line + end for line, end in zip(['name = "x"  # kept', "[a]", "b = 1"], ends, strict=True)
    )
    original = tmp_path / "x.toml"
    original.write_bytes(text.encode())
    read = read_scenario_source(original)
    assert read.text == text.replace("\r\n", "\n") and read.newline == newline
    copy = edited_toml(read.mapping, ["a.b=2"], ["Saved"], read.text, ["LOST"], read.newline)
    raw = write_text(tmp_path / "copy.toml", copy, newline="").read_bytes()
    expected = f'# Saved{newline}{newline}name = "x"  # kept{newline}[a]{newline}b = 2{newline}'
    assert raw == expected.encode()


def test_a_calibration_target_knows_how_its_scenario_ended_its_lines(tmp_path: Path) -> None:
    """``calibrate`` writes ``<stem>.calibrated.toml`` from the target's text and its line
    ends (:class:`~simulator.studies.calibrate_file.Target`), as the workbench's save-as."""
    from simulator.studies.calibrate_file import read_calibration

    scenario = (REPO / "scenarios" / "lone_traveller.toml").read_text(encoding="utf-8")
    (tmp_path / "lone.toml").write_bytes(scenario.replace("\n", "\r\n").encode())
    path = tmp_path / "c.toml"
    path.write_text(
        'name = "c"\n[[free]]\nkey = "rules.table.grave.pain"\nlow = 1\nhigh = 3\n'
        '[[target]]\nscenario = "lone.toml"\nstat = "p_dead"\nvalue = 0.5\n',
        encoding="utf-8",
    )
    (target,) = read_calibration(path).targets
    assert target.text == scenario and target.newline == "\r\n"


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # [a] and [a.late] taken out: the comments heading [b] and [c] stay, and blank lines
            "[a]\nx = 1\n\n# about b\n[b]\ny = 2\n\n[a.late]\nz = 3\n\n# about c\n[c]\nw = 4\n",
            {"b": {"y": 2}, "c": {"w": 4}},
            "# about b\n[b]\ny = 2\n\n# about c\n[c]\nw = 4\n",
        ),
        (  # a sub-table of [a] taken out: the blank line above [p] stays
            "[a]  # c\nv = 1\n[a.level]\nd = 12\n\n[p]\nz = 1\n\n[a.max]\n",
            {"a": {"v": 1, "max": {}}, "p": {"z": 1}},
            "[a]  # c\nv = 1\n\n[p]\nz = 1\n\n[a.max]\n",
        ),
        (  # [a] had no key of its own: its header stays
            "[a]  # c\n\n[a.level]\nd = 12\n\n[p]\nz = 1\n\n[a.max]\n",
            {"a": {"max": {}}, "p": {"z": 1}},
            "[a]  # c\n\n[p]\nz = 1\n\n[a.max]\n",
        ),
        (  # a value goes to [a], a table after [a.max]
            "[a]\nv = 1\n\n[p]\nz = 1\n\n[a.max]\nq = 1\n",
            {"a": {"v": 1, "w": 2, "max": {"q": 1}, "new": {"r": 1}}, "p": {"z": 1}},
            "[a]\nv = 1\nw = 2\n\n[p]\nz = 1\n\n[a.max]\nq = 1\n\n[a.new]\nr = 1\n",
        ),
        (  # [a.late] replaced by a value: it goes to [a] (a second [a] is no TOML)
            "[a]\nv = 1\n\n[p]\nz = 1\n\n[a.late]\nq = 1\n",
            {"a": {"v": 1, "late": 5}, "p": {"z": 1}},
            "[a]\nv = 1\nlate = 5\n\n[p]\nz = 1\n",
        ),
        (  # the late part taken out whole: no bare [a] left (a second [a]), the comment stays
            "[a]\nk = 1\n\n[p]\nz = 1\n\n[a.late]\nq = 1\n\n# the end\n",
            {"a": {"k": 1}, "p": {"z": 1}},
            "[a]\nk = 1\n\n[p]\nz = 1\n\n# the end\n",
        ),
    ],
    ids=["parts-out", "sub-table-out", "header-kept", "added", "late-to-value", "late-out"],
)
def test_a_table_written_in_parts_is_edited_part_by_part(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``[a]``, other tables, then ``[a.late]``: tomlkit's joined view of the parts took keys
    and tables out with the comments and blank lines that head the next table, and ``[a]``'s
    own header when it was left without keys."""
    assert edited_text(text, edited) == expected


def test_a_blank_line_among_the_keys_above_is_not_taken_for_one_above_the_table() -> None:
    """``[b]`` taken out: the blank line above ``[c]`` was dropped as if one stood right
    above ``[b]``, where there was one only among ``[a]``'s keys."""
    text = "[a]\nx = 1\n\ny = 2\n[b]\nz = 3\n\n[c]\nw = 4\n"
    edited = edited_text(text, {"a": {"x": 1, "y": 2}, "c": {"w": 4}})
    assert edited == "[a]\nx = 1\n\ny = 2\n\n[c]\nw = 4\n"


def test_a_key_added_above_a_first_sub_table_adds_no_blank_line() -> None:
    """``[a]`` right above ``[a.b]``: a key added to ``[a]`` came with a blank line below it
    that nobody wrote (tomlkit's own, between a value and a table)."""
    text = "[[a]]\n[a.b]\nx = 1\n"
    assert edited_text(text, {"a": [{"v": 1, "b": {"x": 1}}]}) == "[[a]]\nv = 1\n[a.b]\nx = 1\n"


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # the array untouched: its second item's spelling was written as its first's
            "[[x]]\na = 1\n\n[[ x ]]  # spaced\na = 2\n\n[y]\nb = 1\n",
            {"x": [{"a": 1}, {"a": 2}], "y": {"b": 3}},
            "[[x]]\na = 1\n\n[[ x ]]  # spaced\na = 2\n\n[y]\nb = 3\n",
        ),
        (  # the item itself edited
            "[[ x ]]\na = 1\n\n[[x]]\na = 2\n",
            {"x": [{"a": 1}, {"a": 3}]},
            "[[ x ]]\na = 1\n\n[[x]]\na = 3\n",
        ),
        (  # an array of tables of a table, its items spelled each their way
            '[[ a . b ]]\nc = 1\n[[a.b]]\nc = 2\n[[\ta."b"]]\nc = 3\n',
            {"a": {"b": [{"c": 1}, {"c": 2}, {"c": 4}]}},
            '[[ a . b ]]\nc = 1\n[[a.b]]\nc = 2\n[[\ta."b"]]\nc = 4\n',
        ),
        (  # an item added: spelled as the item before it
            "[[x]]\na = 1\n\n[[ x ]]\na = 2\n",
            {"x": [{"a": 1}, {"a": 2}, {"a": 3}]},
            "[[x]]\na = 1\n\n[[ x ]]\na = 2\n[[ x ]]\na = 3\n",
        ),
    ],
    ids=["untouched", "edited", "nested", "added"],
)
def test_each_item_of_an_array_of_tables_keeps_its_header_s_spelling(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """tomlkit writes every ``[[x]]`` of an array as its first item spells it: ``[[ x ]]``
    (spaces inside, as a person may write) became ``[[x]]`` though nobody edited it."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (
            "x = 1\na.b = 1  # c\na.c = 2\nz = 2\n",
            {"x": 1, "a": {}, "z": 2},
            "x = 1\na = {}\nz = 2\n",
        ),
        (  # in a table, its keys indented
            "[t]\n  x = 1\n  a.b = 1\n  z = 2\n",
            {"t": {"x": 1, "a": {}, "z": 2}},
            "[t]\n  x = 1\n  a = {}\n  z = 2\n",
        ),
        (  # dotted keys in two places: where the first was
            "a.b = 1\nz = 2\na.c = 3\n",
            {"a": {}, "z": 2},
            "a = {}\nz = 2\n",
        ),
        (  # in an item of an array of tables
            "[[x]]\na.b = 1\nq = 1\n",
            {"x": [{"a": {}, "q": 1}]},
            "[[x]]\na = {}\nq = 1\n",
        ),
        (  # a table written only through its sub-tables: its own header, where they were
            "x = 1\n\n# about rules\n[rules.table.grave]  # g\nq = 1\n\n# about other\n"
            "[other]\nr = 1\n",
            {"x": 1, "rules": {}, "other": {"r": 1}},
            "x = 1\n\n# about rules\n[rules]\n\n# about other\n[other]\nr = 1\n",
        ),
        (  # a table written in parts ([a] ... [a.late]): its header and comments stay
            "[a]\n# note\nx = 1\n\n[b]\ny = 1\n\n[a.late]\nz = 1\n",
            {"a": {}, "b": {"y": 1}},
            "[a]\n# note\n\n[b]\ny = 1\n",
        ),
        (  # in parts, each written only through a sub-table: [a] where the first was
            "[a.x]\nq = 1\n\n[b]\ny = 1\n\n[a.late]\nz = 1\n",
            {"a": {}, "b": {"y": 1}},
            "[a]\n\n[b]\ny = 1\n",
        ),
        (  # dotted keys in parts twice over (m, and m.x in it): it was written anew, the
            # comments lost (the fuzzer's seed 728, parts-swaps)
            "m.s = 1  # s\nm.x.g = 2\nm.b = 8\nm.x.c = true\n",
            {"m": {"s": 1, "x": {}, "b": 8}},
            "m.s = 1  # s\nm.x = {}\nm.b = 8\n",
        ),
        (  # dotted keys, then a sub-table of theirs: in the line of the first (seed 1696 of
            # parts-values: after the file's last top-level key)
            "b.m = 1  # m\nb . y.d = true\nz = 2\n\n# c\n[\tb.g\t]  # note\nq = 1\n\n[o]\n",
            {"b": {}, "z": 2, "o": {}},
            "b = {}\nz = 2\n\n# c\n\n[o]\n",
        ),
    ],
    ids=[
        "dotted",
        "indented",
        "dotted-parts",
        "in-an-item",
        "sub-tables",
        "parts",
        "sub-parts",
        "split-twice",
        "dotted-and-sub-table",
    ],
)
def test_a_table_left_empty_is_written_where_it_was(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``a = {}`` went after the table's other keys (``[rules]`` at the end of the file),
    not where the person wrote the table."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # a table added: dotted keys, not an inline table
            "a.b = 1\nz = 2\n",
            {"a": {"b": 1, "c": {"d": 1, "e": {"f": "x"}}}, "z": 2},
            'a.b = 1\na.c.d = 1\na.c.e.f = "x"\nz = 2\n',
        ),
        (  # spaced as the person spaced them (tomlkit wrote a .d)
            "a . b = 1\nz = 2\n",
            {"a": {"b": 1, "d": 1, "c": {"e": 2}}, "z": 2},
            "a . b = 1\na . d = 1\na . c . e = 2\nz = 2\n",
        ),
        (  # indented as the key before it, under a header, after a deeper dotted key
            "[t]\n  a.b.c = 1  # c\n  z = 2\n",
            {"t": {"a": {"b": {"c": 1}, "d": 5, "e": {"f": 6}}, "z": 2}},
            "[t]\n  a.b.c = 1  # c\n  a.d = 5\n  a.e.f = 6\n  z = 2\n",
        ),
        (  # an empty table added: a.c = {} (no line of its own would say it is there)
            "a.b = 1\n",
            {"a": {"b": 1, "c": {}}},
            "a.b = 1\na.c = {}\n",
        ),
        (  # the comment above them stays there (taken for the heading of a [d] header)
            "q = 1\n# c\nd.x = 1\nz = 2\n",
            {"q": 1, "d": {"x": 1, "w": {"b": "g"}}, "z": 2},
            'q = 1\n# c\nd.x = 1\nd.w.b = "g"\nz = 2\n',
        ),
    ],
    ids=["table", "spaced", "indented", "empty", "comment-above"],
)
def test_a_key_added_to_dotted_keys_is_written_as_they_are(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``a.b = 1`` then ``a.c`` added: a table was written inline (``a.c = {d = 1}``), and a
    key added to ``a . b`` read ``a .d``."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        ("[ a ]\nx = 1\n", {"a": {"x": 1, "b": {"c": 1}}}, "[ a ]\nx = 1\n\n[ a.b ]\nc = 1\n"),
        (
            "[ a . s ]\nq = 1\n",
            {"a": {"s": {"q": 1, "b": {"c": 1}}}},
            "[ a . s ]\nq = 1\n\n[ a . s . b ]\nc = 1\n",
        ),
        (
            "[\ta\t]\nq = 1\n",
            {"a": {"q": 1, "b": {"c": 1}}},
            "[\ta\t]\nq = 1\n\n[\ta.b\t]\nc = 1\n",
        ),
        (  # under an item, spelled as that item is
            "[[a]]\nq = 1\n[[ a ]]\nq = 2\n",
            {"a": [{"q": 1}, {"q": 2, "b": {"c": 1}}]},
            "[[a]]\nq = 1\n[[ a ]]\nq = 2\n\n[ a.b ]\nc = 1\n",
        ),
        (
            "[[ a ]]\nq = 1\n",
            {"a": [{"q": 1, "b": [{"c": 1}]}]},
            "[[ a ]]\nq = 1\n\n[[ a.b ]]\nc = 1\n",
        ),
        (  # the array's first item in a table with no line: once written anew, comments lost
            "# kept\n[a]\n",
            {"a": {"b": [{"c": 1}]}},
            "# kept\n[a]\n[[a.b]]\nc = 1\n",
        ),
    ],
    ids=["spaced", "spaced-dots", "tabs", "item", "array-in-item", "array-in-empty"],
)
def test_a_table_added_under_a_spelled_header_is_spelled_as_it_is(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """tomlkit joins the header it writes for a new table to its parent's as the person
    spelled it: ``[ a ]`` gave ``[ a .b]``, ``[\\ta\\t]`` gave ``[\\ta\\t.b]``."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # beside [ r . t ], a sub-table of a table written only through it
            "[ r . t ]\nx = 1\n",
            {"r": {"t": {"x": 1}, "b": {"y": 2}}},
            "[ r . t ]\nx = 1\n\n[ r . b ]\ny = 2\n",
        ),
        (  # spaced dots, no space inside the brackets
            "[r . t]\nx = 1\n",
            {"r": {"t": {"x": 1}, "b": {"y": 2}}},
            "[r . t]\nx = 1\n\n[r . b]\ny = 2\n",
        ),
        (  # spaces inside the brackets, no spaced dots, two tables deep
            "[ r.t.u ]\nx = 1\n",
            {"r": {"t": {"u": {"x": 1}, "v": {"y": 2}}, "w": {"k": 1}}},
            "[ r.t.u ]\nx = 1\n\n[ r.t.v ]\ny = 2\n\n[ r.w ]\nk = 1\n",
        ),
        (  # the sub-table beside it, rather than the table above both
            "[ a ]\nx = 1\n\n[a . s]\nq = 1\n",
            {"a": {"x": 1, "s": {"q": 1}, "b": {"y": 2}}},
            "[ a ]\nx = 1\n\n[a . s]\nq = 1\n\n[a . b]\ny = 2\n",
        ),
        (  # a table of the file's own, and a table under it
            "[ a ]\nx = 1\n",
            {"a": {"x": 1}, "b": {"c": {"y": 2}}},
            "[ a ]\nx = 1\n\n[ b.c ]\ny = 2\n",
        ),
        (  # a table in a table added: spelled as the one added
            "[ r . t ]\nx = 1\n",
            {"r": {"t": {"x": 1}, "b": {"c": {"y": 2}}}},
            "[ r . t ]\nx = 1\n\n[ r . b . c ]\ny = 2\n",
        ),
        (  # the file's headers unspaced: as they are
            "[a.t]\nx = 1\n",
            {"a": {"t": {"x": 1}, "b": {"y": 2}}, "c": {"z": 3}},
            "[a.t]\nx = 1\n\n[a.b]\ny = 2\n\n[c]\nz = 3\n",
        ),
        (  # the last header an empty table's, under a table only it writes
            "[ a ]\nx = 1\n\n[b.e]\n",
            {"a": {"x": 1}, "b": {"e": {}}, "c": {"y": 1}},
            "[ a ]\nx = 1\n\n[b.e]\n\n[c]\ny = 1\n",
        ),
    ],
    ids=["spaced", "dots-only", "frame-only", "sibling", "top", "nested", "plain", "empty"],
)
def test_a_table_added_beside_a_spelled_header_is_spelled_as_that_header(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``[ r . t ]`` then ``r.b`` added gave ``[ r.b ]``; ``[r . t]`` gave ``[r.b ]`` (half
    spaced), ``[ r.t.u ]`` gave ``[ r.t.v]``, and a table of the file's own ``[b]``: a table
    added is spelled as the last header the person wrote before it, among the tables of its
    parent (their spaces inside the brackets, and around the dots)."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (
            "a.x = 1  # first\nb = 2\na.y = 3\n",
            {"a": {"x": 1, "y": 3, "z": 5}, "b": 2},
            "a.x = 1  # first\na.z = 5\nb = 2\na.y = 3\n",
        ),
        (  # under a header, indented, a deeper table in parts
            '[t]\n  w.site = "arm"\n  cp = 8\n  w.level = 2\n\n[u]\nq = 1\n',
            {"t": {"w": {"site": "arm", "level": 2, "grave": True}, "cp": 8}, "u": {"q": 1}},
            '[t]\n  w.site = "arm"\n  w.grave = true\n  cp = 8\n  w.level = 2\n\n[u]\nq = 1\n',
        ),
        (  # a table added: dotted keys, there too
            "a.x = 1\nb = 2\na.y = 3\n",
            {"a": {"x": 1, "y": 3, "c": {"d": 1}}, "b": 2},
            "a.x = 1\na.c.d = 1\nb = 2\na.y = 3\n",
        ),
        (  # in parts twice over: p.w in two places, in p's two parts
            "p.w.s = 1\nn = 2\np.w.l = 3\n",
            {"p": {"w": {"s": 1, "l": 3, "g": 4}}, "n": 2},
            "p.w.s = 1\np.w.g = 4\nn = 2\np.w.l = 3\n",
        ),
        (  # each line of dotted keys is a part: after the first run of them, not its first
            "a.x = 1\na.y = 2\nb = 3\na.w = 4\n",
            {"a": {"x": 1, "y": 2, "w": 4, "z": 3}, "b": 3},
            "a.x = 1\na.y = 2\na.z = 3\nb = 3\na.w = 4\n",
        ),
        (
            "a.x = 1\na.y = 2\nb = 3\n",
            {"a": {"x": 1, "y": 2, "z": 3}, "b": 3},
            "a.x = 1\na.y = 2\na.z = 3\nb = 3\n",
        ),
        (  # with a header part too ([beta.gamma.sub]), the keys taken out and one added:
            # spelled and indented as a line of theirs, not "gamma .max" at the margin (the
            # fuzzer's seed 1079, parts-swaps)
            "[beta]\n  gamma . 'k' . max = 0.10\n  gamma.x = 0xff\n  gamma.level=1000\n\n"
            "[beta.gamma.sub]\nq = 1\n",
            {"beta": {"gamma": {"x": 255, "max": 0.1, "sub": {"q": 1}}}},
            "[beta]\n  gamma.x = 0xff\n  gamma.max=0.1\n\n[beta.gamma.sub]\nq = 1\n",
        ),
    ],
    ids=["value", "indented", "table", "split-twice", "run", "one-run", "with-a-header"],
)
def test_a_key_added_to_a_table_in_dotted_parts_goes_where_the_table_is_defined(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``a.x = 1``, other keys, ``a.y = 3``: ``a.z`` went after ``a.y``, the last line that
    happens to write ``a``, far from where the file defines it. A reader looks for ``a``'s
    keys where it first meets ``a``: a key added goes after the first run of its lines (as
    a value added to ``[a]`` ... ``[a.late]`` goes to ``[a]``)."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # the fuzzer's seed 2120 (rich): [m ] with the comment of the sub-table taken out
            "x = 1\n[m . a]  # c\nw = 1\n\n# head\n[m.b]\nq = 1\n",
            {"x": 1, "m": {"b": {"q": 1}}},
            "x = 1\n\n# head\n[m.b]\nq = 1\n",
        ),
        (  # in an item of an array of tables
            "[[i]]\n[i.m.a]\nw = 1\n\n# head\n[i.m.b]\nq = 1\n",
            {"i": [{"m": {"b": {"q": 1}}}]},
            "[[i]]\n\n# head\n[i.m.b]\nq = 1\n",
        ),
        (  # a late part taken out, under a table written only through its sub-tables
            "[r.a]\nx = 1\n\n# about b\n[r.b]\ny = 1\n\n[r.a.late]\nz = 1\n\n# end\n[s]\n",
            {"r": {"a": {"x": 1}, "b": {"y": 1}}, "s": {}},
            "[r.a]\nx = 1\n\n# about b\n[r.b]\ny = 1\n\n# end\n[s]\n",
        ),
    ],
    ids=["sub-table-out", "in-an-item", "late-part-out"],
)
def test_a_sub_table_taken_out_leaves_no_header_nobody_typed(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """The comments that head the next sub-table were left in the table above both, which
    only its sub-tables wrote: tomlkit took them for values and wrote ``[m ]  # c`` (the
    key as ``[m . a]`` spelled it, that header's comment), a header nobody typed."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "header"),
    [
        (  # the fuzzer's seed 581 (parts-swaps): [[\tb-c\t.alpha9.gamma]]
            "[\tb-c\t]\nd.x = 1\n\n[b-c.d.g]\nq = 1\n",
            {"b-c": {"d": {"x": 1, "g": [{"r": 1}]}}},
            "[[b-c.d.g]]",
        ),
        (  # seed 1253: [["y_2". max.at ]]
            '["y"]\nm.x = 1\n\n["y" . m . at]\nq = 1\n',
            {"y": {"m": {"x": 1, "at": [{"r": 1}]}}},
            '[["y" . m . at]]',
        ),
    ],
    ids=["framed-parent", "spaced"],
)
def test_a_table_added_under_dotted_keys_and_a_sub_table_is_spelled_as_that_sub_table(
    text: str, edited: dict[str, Any], header: str
) -> None:
    """``d.x = 1`` in ``[a]``, and ``[a.d.g]``: ``g`` replaced by an array of tables was named
    from ``[a]``'s header and the key ``d`` as tomlkit keeps it (its spaces inside), not as
    the person spelled ``d``'s sub-table."""
    copy = edited_text(text, edited)
    assert copy is not None and header in copy.splitlines()
    assert tomllib.loads(copy) == edited


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # the rule tables of a designer who indents sub-tables
            '[rules]\n  [rules.table.grave]\n  unstable_period = "2h"\n',
            {"rules": {"table": {"grave": {"unstable_period": "2h"}, "critical": {"y": 1}}}},
            '[rules]\n  [rules.table.grave]\n  unstable_period = "2h"\n\n'
            "  [rules.table.critical]\n  y = 1\n",
        ),
        (  # the keys deeper than the header, and a table in the table added
            "[a]\nx = 1\n\n  [a.b]\n    y = 1\n",
            {"a": {"x": 1, "b": {"y": 1}, "c": {"z": 2, "d": {"w": 1}}}},
            "[a]\nx = 1\n\n  [a.b]\n    y = 1\n\n  [a.c]\n    z = 2\n\n  [a.c.d]\n    w = 1\n",
        ),
        (  # an item added: as the item before it
            "[[x]]\na = 1\n\n  [[x]]\n    a = 2\n",
            {"x": [{"a": 1}, {"a": 2}, {"a": 3}]},
            "[[x]]\na = 1\n\n  [[x]]\n    a = 2\n  [[x]]\n    a = 3\n",
        ),
        (  # no table beside it: as its parent
            "  [a]\n    x = 1\n",
            {"a": {"x": 1, "b": {"y": 1}}},
            "  [a]\n    x = 1\n\n  [a.b]\n    y = 1\n",
        ),
    ],
    ids=["rules", "deeper-keys", "item", "under-its-parent"],
)
def test_a_table_added_beside_an_indented_one_is_indented_as_it_is(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """``  [rules.table.grave]`` and its keys indented: ``[rules.table.critical]`` added was
    written at the margin, its keys too."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited"),
    [
        (  # [a] indented, its late part taken out (the fuzzer's seed 1164, margins)
            "  [a]\n    x = 1\n\n[b]\ny = 1\n\n[a.late]\nz = 1\n",
            {"a": {"x": 1, "n": {"w": 1}}, "b": {"y": 1}},
        ),
        (  # a sub-table indented in the first part, none left in the last
            "  [a.s]\n    x = 1\n\n[b]\ny = 1\n\n[a.late]\nz = 1\n",
            {"a": {"s": {"x": 1}, "n": {"w": 1}}, "b": {"y": 1}},
        ),
    ],
    ids=["first-part-headed", "sub-table-in-first-part"],
)
def test_a_table_added_to_a_table_in_parts_is_indented_as_its_other_parts(
    text: str, edited: dict[str, Any]
) -> None:
    """``  [a]`` ... ``[a.late]``: a table added in the last part, where no header of the
    person's was left, went to the margin; it follows the headers of the earlier parts."""
    copy = edited_text(text, edited)
    assert copy is not None and tomllib.loads(copy) == edited
    assert "  [a.n]" in copy.splitlines() and "    w = 1" in copy.splitlines()


def test_a_table_added_to_an_item_is_not_spelled_after_the_item_before() -> None:
    """Items of an array of tables are no parts of one table: ``[a.d]`` of the second item
    replaced by an array of tables was indented as the first item's ``\\t[a.s]`` (the
    fuzzer's seed 848, margins)."""
    text = "[[a]]\n\t[a.s]\n\tx = 1\n\n[[a]]\n[a.d]\ny = 1\n"
    edited = {"a": [{"s": {"x": 1}}, {"d": [{"y": 1}]}]}
    copy = edited_text(text, edited)
    assert copy is not None and tomllib.loads(copy) == edited
    assert "[[a.d]]" in copy.splitlines() and "y = 1" in copy.splitlines()


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # its sub-table replaced by a value (the fuzzer's seed 158, rich-swaps)
            "[\tb.p\t]\t\nq = 1\n",
            {"b": {"p": False}},
            "[\tb\t]\t\np = false\n",
        ),
        (  # a value added beside its sub-table
            "[ r ]\n[ r . x.at ]\nq = 1\n",
            {"r": {"x": {"at": {"q": 1}, "v": 2}}},
            "[ r ]\n[ r . x ]\nv = 2\n[ r . x.at ]\nq = 1\n",
        ),
        (  # left empty, its header where its sub-table's was (seed 69, rich-values)
            "[ x.at ]\nq = 1\n",
            {"x": {}},
            "[ x ]\n",
        ),
    ],
    ids=["sub-table-to-value", "value-added", "emptied"],
)
def test_a_table_written_through_its_sub_tables_given_a_header_is_spelled_as_they_were(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """tomlkit writes the key as the sub-table's header spells it: ``[\\tb.p\\t]`` gave
    ``[\\tb]``, ``[ x.at ]`` gave ``[ x]``: the header is the sub-table's, less its last
    keys."""
    assert edited_text(text, edited) == expected


@pytest.mark.parametrize(
    ("text", "edited", "expected"),
    [
        (  # a dotted table replaced by a value: in its line, spaced as it was
            "a . b . c  =  1\nz = 2\n",
            {"a": {"b": 5}, "z": 2},
            "a . b  =  5\nz = 2\n",
        ),
        (  # every key replaced: spelled as those taken out
            "a . b = 1\nz = 2\n",
            {"a": {"c": 2}, "z": 2},
            "a . c = 2\nz = 2\n",
        ),
        ("w . b . m = 1\n", {"w": {"b": {"x": 1}}}, "w . b . x = 1\n"),
        (  # dotted keys, then a sub-table of theirs: in the line of the first
            "b.m = 1  # m\nz = 2\n\n[b.g]  # note\nq = 1\n\n[o]\n",
            {"b": 5, "z": 2, "o": {}},
            "b = 5\nz = 2\n\n[o]\n",
        ),
        (  # in parts: in the first part, where the table is defined
            "w . b = 1\nz = 2\nw . c = 3\n",
            {"w": {"d": 1}, "z": 2},
            "w . d = 1\nz = 2\n",
        ),
    ],
    ids=["table-to-value", "keys-replaced", "deeper", "with-a-sub-table", "in-parts"],
)
def test_a_key_that_replaces_dotted_keys_is_spelled_as_they_were(
    text: str, edited: dict[str, Any], expected: str
) -> None:
    """The dotted keys' only keys taken out first, there was no spelling left to follow:
    ``a . b = 1`` replaced by ``a.c`` gave ``a .c = 2``."""
    assert edited_text(text, edited) == expected
