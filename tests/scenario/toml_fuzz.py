"""Varied TOML files a person could write, random edits of them, and what a saved copy must keep.

A seeded generator (no hypothesis strategy: a case is replayed from its seed alone) writes a
file with comments everywhere, blank lines, trailing spaces, unicode, quoted and dotted keys,
inline tables, arrays over several lines, sub-tables, tables written only through their
sub-tables and arrays of tables (``parts``: also tables that dotted keys write in several
places, and sub-tables of theirs; ``margins``: also indented headers); it knows which key
path every line writes. An edit changes, adds or takes out values, tables and items.
:func:`check` then says what the copy broke:

* it must read back as exactly the edited mapping (so it holds no key nobody typed);
* every line that writes nothing the edit changed is kept, byte for byte, in its order (a
  header spelled ``[ a . b ]`` or ``[[\tx\t]]`` included, each item of an array its own);
* it adds no comment, and a blank line only above a table it adds; a header it adds has its
  dots spaced evenly (``[ a.b ]`` or ``[ a . b ]``, not ``[ a .b]``), and so has a dotted key
  (``a . d = 1``, not ``a .d = 1``);
* a header it adds is spelled as a header next to it, or as the one whose place it takes
  (``[ r . t ]`` then ``[ r . b ]``, not ``[r.b ]``), and names a table that the edit added
  or that now needs a header (no ``[m]`` above ``[m.b]`` where ``[m.a]`` was taken out);
* a table left without keys that only dotted keys or its sub-tables wrote is written
  (``a = {}``, ``[a]``) between the untouched lines around where it was;
* a table added under dotted keys is written with dotted keys, not inline.
"""

from __future__ import annotations

import copy
import random
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Path = tuple[Any, ...]

WORDS = ["alpha", "beta", "gamma", "delta", "level", "max", "pain", "at", "x", "y_2", "b-c"]
QUOTED = ['"é clé"', "'dotted.key'", '"with space"', '"ß"']
STRINGS = ["grave", "30min", "gué", "naïve ☕", "tab\there", 'say "hi"', "", "日本", "a'b"]
UNEVEN = re.compile(r"(?<=\S)\.\s|\s\.(?=\S)")  # [ a .b]: no key the fuzz writes has " ." in it
COMMENTS = ["# note", "# Géraldine's rule", "#", "# ☕ playtest 3", "#   spaced", "# a = 1"]


@dataclass
class Line:
    """One line of the file and the key path it writes.

    ``header``: the line writes no value but heads or sits in the table at ``path`` (a
    ``[header]``, a comment or a blank line): an edit inside that table leaves it alone.
    """

    text: str
    path: Path | None
    header: bool = False


@dataclass
class Doc:
    """A generated file: its lines and the mapping :mod:`tomllib` reads from them."""

    lines: list[Line] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(line.text + "\n" for line in self.lines)


class Writer:
    """Writes one random file from a seeded generator."""

    def __init__(
        self, rng: random.Random, *, rich: bool = False, parts: bool = False, margins: bool = False
    ) -> None:
        self.rng = rng
        self.doc = Doc()
        self.rich = rich  # also multi-line strings, spaced headers, sub-tables of [[items]]
        self.parts = parts  # also dotted keys of a table in several places, [a.dotted.sub]
        self.margins = margins  # also headers indented (  [a.b])
        self.dotted: dict[Path, list[tuple[str, str]]] = {}  # the tables dotted keys wrote

    # --- pieces -------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def trail(self) -> str:
        return self.rng.choice(["", "", "", " ", "  ", "\t"])

    def eq(self) -> str:
        return self.rng.choice([" = ", " = ", " = ", "=", "  =  ", " =\t"])

    def comment(self) -> str:
        return self.rng.choice(COMMENTS)

    def end_comment(self) -> str:
        return self.rng.choice(["  ", " ", "\t"]) + self.comment() if self.chance(0.3) else ""

    def key(self, taken: set[str]) -> tuple[str, str]:
        """A key not in ``taken``: its name and how it is written."""
        while True:
            if self.chance(0.15):
                spelled = self.rng.choice(QUOTED)
                name = spelled[1:-1]
            else:
                name = self.rng.choice(WORDS) + (str(self.rng.randint(0, 9)) * self.chance(0.3))
                spelled = f'"{name}"' if self.chance(0.05) else name
            if name not in taken:
                taken.add(name)
                return name, spelled

    def scalar(self) -> tuple[Any, str]:
        """A scalar value and a way a person writes it."""
        kind = self.rng.choice(["int", "int", "float", "bool", "str", "str"])
        if kind == "int":
            v = self.rng.choice([0, 1, 3, -2, 8, 1000, 255, 12])
            forms = [str(v)]
            if v > 0:
                forms.append(f"+{v}")
            if v >= 1000:
                forms.append(f"{v:_}")
            if v == 255:
                forms.append("0xff")
            return v, self.rng.choice(forms)
        if kind == "float":
            v, spelled = self.rng.choice(
                [(0.5, "0.5"), (0.25, "2.5e-1"), (1000.0, "1e3"), (-1.5, "-1.5"), (0.1, "0.10")]
            )
            return v, spelled
        if kind == "bool":
            v = self.chance(0.5)
            return v, str(v).lower()
        s = self.rng.choice(STRINGS)
        if "'" not in s and "\t" not in s and self.chance(0.3):
            return s, f"'{s}'"
        escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
        if s == "gué" and self.chance(0.5):
            escaped = "gu\\u00e9"
        return s, f'"{escaped}"'

    def inline(self, depth: int = 0) -> tuple[dict[str, Any], str]:
        value: dict[str, Any] = {}
        parts = []
        taken: set[str] = set()
        for _ in range(self.rng.randint(0, 3)):
            name, spelled = self.key(taken)
            if depth < 1 and self.chance(0.2):
                v, text = self.inline(depth + 1)
            else:
                v, text = self.scalar()
            value[name] = v
            parts.append(f"{spelled}{self.eq()}{text}")
        if not parts:
            return value, "{}"
        pad = self.rng.choice([" ", ""])
        sep = self.rng.choice([", ", ",", " , "])
        return value, "{" + pad + sep.join(parts) + pad + "}"

    def array_item(self, kind: str) -> tuple[Any, str]:
        return self.inline(1) if kind == "table" else self.scalar()

    def array(self, path: Path, spelled: str, prefix: str) -> tuple[list[Any], list[Line]]:
        kind = self.rng.choice(["scalar", "scalar", "table"])
        items = [self.array_item(kind) for _ in range(self.rng.randint(0, 4))]
        if kind == "scalar":  # one type (TOML 1.0 allows more; tomlkit too)
            first = type(items[0][0]) if items else None
            items = [i for i in items if type(i[0]) is first]
        values = [v for v, _ in items]
        head = f"{prefix}{spelled}{self.eq()}"
        if not self.chance(0.4) or not items:
            sep = self.rng.choice([", ", ","])
            text = "[" + sep.join(t for _, t in items) + "]"
            return values, [Line(head + text + self.end_comment() + self.trail(), path)]
        lines = [Line(head + "[" + self.trail(), path)]
        indent = self.rng.choice(["  ", "    ", "\t", ""])
        for index, (_, text) in enumerate(items):
            if self.chance(0.2):
                lines.append(Line(indent + self.comment(), path))
            comma = "," if index < len(items) - 1 or self.chance(0.5) else ""
            lines.append(Line(indent + text + comma + self.end_comment(), path))
        lines.append(Line("]" + self.end_comment() + self.trail(), path))
        return values, lines

    # --- tables -------------------------------------------------------------------------

    def filler(self, path: Path) -> None:
        """Comments and blank lines among a table's keys."""
        while self.chance(0.25):
            text = self.comment() if self.chance(0.6) else self.rng.choice(["", "", "  "])
            self.doc.lines.append(Line(text + self.trail() * bool(text), path, header=True))

    def body(self, path: Path, table: dict[str, Any], taken: set[str]) -> None:
        """The keys of a table (before its sub-tables): values, dotted keys, inline tables."""
        indent = self.rng.choice(["", "", "", "  "])
        dotted: list[tuple[str, str]] = self.dotted.setdefault(path, [])
        for _ in range(self.rng.randint(0, 4)):
            self.filler(path)
            if self.parts and dotted and self.chance(0.4):  # a.x = 1, other keys, a.y = 2
                self.dotted_part(path, table, *self.rng.choice(dotted), indent)
                continue
            name, spelled = self.key(taken)
            shape = self.rng.choice(["scalar", "scalar", "scalar", "inline", "array", "dotted"])
            if self.rich and self.chance(0.15):
                key_path = (*path, name)
                quote = self.rng.choice(['"""', "'''"])
                first, second = self.rng.choice(STRINGS[:4]), self.rng.choice(["", "  x", "é"])
                table[name] = f"{first}\n{second}"
                head = f"{indent}{spelled}{self.eq()}{quote}"
                self.doc.lines.append(Line(head, key_path))
                self.doc.lines.append(Line(first, key_path))
                self.doc.lines.append(Line(second + quote + self.end_comment(), key_path))
                continue
            if shape == "dotted":
                table[name] = {}
                dotted.append((name, spelled))
                for _ in range(self.rng.randint(1, 3)):
                    self.dotted_line(path, table[name], name, spelled, indent)
                continue
            key_path = (*path, name)
            if shape == "array":
                table[name], lines = self.array(key_path, spelled, indent)
                self.doc.lines.extend(lines)
                continue
            v, text = self.inline() if shape == "inline" else self.scalar()
            table[name] = v
            line = f"{indent}{spelled}{self.eq()}{text}{self.end_comment()}{self.trail()}"
            self.doc.lines.append(Line(line, key_path))
        self.filler(path)

    def dotted_line(
        self, path: Path, sub: dict[str, Any], name: str, spelled: str, indent: str
    ) -> None:
        """A line of dotted keys that writes a key of the table ``name`` (``a.b = 1``)."""
        leaf, leaf_spelled = self.key(set(sub))
        keys = [spelled, leaf_spelled]
        leaf_path = (*path, name, leaf)
        if self.chance(0.25):  # a.b.c = 1
            sub[leaf] = {}
            deepest, deepest_spelled = self.key(set())
            v, text = self.scalar()
            sub[leaf][deepest] = v
            keys.append(deepest_spelled)
            leaf_path = (*leaf_path, deepest)
        else:
            v, text = self.scalar()
            sub[leaf] = v
        self.dotted_text(keys, text, leaf_path, indent)

    def dotted_text(self, keys: list[str], text: str, path: Path, indent: str) -> None:
        dot = self.rng.choice([".", ".", ".", " . "])
        line = f"{indent}{dot.join(keys)}{self.eq()}{text}{self.end_comment()}"
        self.doc.lines.append(Line(line + self.trail(), path))

    def dotted_part(
        self, path: Path, table: dict[str, Any], name: str, spelled: str, indent: str
    ) -> None:
        """One more line for a table that dotted keys wrote above, after other keys: the
        table in parts (``a.b.c`` then ``a.b.d``, in parts twice over, now and then)."""
        sub = table[name]
        deeper = [k for k, v in sub.items() if isinstance(v, dict) and v]
        if deeper and self.chance(0.5):
            leaf = self.rng.choice(deeper)
            deepest, deepest_spelled = self.key(set(sub[leaf]))
            v, text = self.scalar()
            sub[leaf][deepest] = v
            leaf_spelled = f'"{leaf}"' if not re.fullmatch(r"[A-Za-z0-9_-]+", leaf) else leaf
            keys = [spelled, leaf_spelled, deepest_spelled]
            self.dotted_text(keys, text, (*path, name, leaf, deepest), indent)
            return
        self.dotted_line(path, sub, name, spelled, indent)

    def heading(self, path: Path) -> None:
        """The blank line and comments above a ``[header]``: they head its table.

        Without a blank line, the comments that end the table before (no blank line between
        them either) are right above the header: they head it too, as the copy reads them.
        """
        if self.chance(0.8):
            self.doc.lines.append(Line("", path, header=True))
        else:
            for line in reversed(self.doc.lines):
                if not (line.header and line.text.lstrip().startswith("#")):
                    break
                line.path = path
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            self.doc.lines.append(Line(self.comment() + self.trail(), path, header=True))

    def table(self, path: Path, spelled: list[str], table: dict[str, Any], aot: bool) -> None:
        self.heading(path)
        name = ".".join(spelled)
        if self.rich and self.chance(0.2):  # [ a . b ], [[\ta.b\t]], ... (each item its own)
            pad, dot = self.rng.choice([(" ", " . "), ("\t", "."), (" ", "."), ("", " . ")])
            name = pad + dot.join(spelled) + pad
        header = f"[[{name}]]" if aot else f"[{name}]"
        if self.margins and self.chance(0.4):
            header = self.rng.choice(["  ", "    ", "\t"]) + header
        self.doc.lines.append(Line(header + self.end_comment() + self.trail(), path, header=True))
        self.body(path, table, set(table))

    def dotted_sub_table(self, table: dict[str, Any], path: Path, spelled: list[str]) -> None:
        """``[a.b.sub]`` under a table ``a.b`` that dotted keys wrote in ``[a]`` (or at the
        top): a table in parts, dotted keys and a header."""
        name, name_spelled = self.rng.choice(self.dotted[path])
        sub, sub_spelled = self.key(set(table[name]))
        table[name][sub] = {}
        where = (*path, name, sub)
        self.table(where, [*spelled, name_spelled, sub_spelled], table[name][sub], aot=False)

    def write(self) -> tuple[str, dict[str, Any]]:
        data: dict[str, Any] = {}
        for _ in range(self.rng.choice([0, 1, 2])):
            self.doc.lines.append(Line(self.comment(), (), header=True))
        taken: set[str] = set()
        headed: dict[str, str] = {}  # the tables with a [header] of their own
        self.body((), data, taken)
        for _ in range(self.rng.randint(0, 4)):
            name, spelled = self.key(taken)
            shape = self.rng.choice(["table", "table", "aot", "super"])
            if shape == "aot":
                items: list[dict[str, Any]] = []
                data[name] = items
                for index in range(self.rng.randint(1, 3)):
                    items.append({})
                    self.table((name, index), [spelled], items[-1], aot=True)
                    if self.rich and self.chance(0.3):  # [[a]] then [a.sub]: the item's
                        sub, sub_spelled = self.key(set(items[-1]))
                        items[-1][sub] = {}
                        where = (name, index, sub)
                        self.table(where, [spelled, sub_spelled], items[-1][sub], aot=False)
                continue
            data[name] = {}
            if shape == "table":
                self.table((name,), [spelled], data[name], aot=False)
                headed[name] = spelled
            inner = set(data[name])
            subs = self.rng.randint(1 if shape == "super" else 0, 2)
            for _ in range(subs):
                sub, sub_spelled = self.key(inner)
                data[name][sub] = {}
                self.table((name, sub), [spelled, sub_spelled], data[name][sub], aot=False)
            if self.parts and self.dotted.get((name,)) and self.chance(0.5):
                self.dotted_sub_table(data[name], (name,), [spelled])
        if self.parts and self.dotted.get(()) and self.chance(0.5):
            self.dotted_sub_table(data, (), [])
        tables = [k for k, v in data.items() if isinstance(v, dict) and k in headed]
        if self.rich and tables and self.chance(0.3):  # [a] ... [b] ... [a.late]
            name = self.rng.choice(tables)
            sub, sub_spelled = self.key(set(data[name]))
            data[name][sub] = {}
            self.table((name, sub), [headed[name], sub_spelled], data[name][sub], aot=False)
        if self.chance(0.2):
            self.doc.lines.append(Line("", None, header=True))
            self.doc.lines.append(Line(self.comment(), None, header=True))
        text = self.doc.text
        if tomllib.loads(text) != data:
            raise AssertionError(f"the generator's mapping is not its text's:\n{text}")
        return text, data


def generate(
    seed: int, *, rich: bool = False, parts: bool = False, margins: bool = False
) -> tuple[str, dict[str, Any], list[Line]]:
    """A random file (its text, the mapping it reads as, its lines and their key paths)."""
    writer = Writer(random.Random(seed), rich=rich, parts=parts, margins=margins)
    text, data = writer.write()
    return text, data, writer.doc.lines


# --- edits ------------------------------------------------------------------------------


def _nodes(value: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    """Every value of a mapping with its path (array items included)."""
    out = [(path, value)]
    if isinstance(value, Mapping):
        for key, sub in value.items():
            out += _nodes(sub, (*path, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            out += _nodes(sub, (*path, index))
    return out


def _get(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


def edit(data: dict[str, Any], seed: int, *, swaps: bool = True) -> dict[str, Any]:
    """``data`` with one to three random edits (``data`` itself is not changed).

    ``swaps``: a table may become a value, a value a table, an array of tables an array.
    """
    rng = random.Random(seed)
    writer = Writer(rng)
    edited = copy.deepcopy(data)

    def new_value() -> Any:
        roll = rng.random()
        if roll < 0.6:
            return writer.scalar()[0]
        if roll < 0.8:
            return writer.inline()[0]
        if roll < 0.9:
            return [writer.scalar()[0] for _ in range(rng.randint(0, 2))]
        return [writer.inline(1)[0] for _ in range(rng.randint(1, 2))]

    for _ in range(rng.randint(1, 3)):
        nodes = _nodes(edited)
        path, value = rng.choice(nodes)
        op = rng.random()
        if not path:  # the document: a key added
            edited[writer.key(set(edited))[0]] = new_value()
            continue
        parent = _get(edited, path[:-1])
        last = path[-1]
        if isinstance(parent, list):
            if op < 0.3 and len(parent) > 0:
                parent.pop()
            elif op < 0.5:
                parent.append(copy.deepcopy(parent[0]) if parent else new_value())
                if isinstance(parent[-1], dict) and parent[-1]:
                    key = rng.choice(list(parent[-1]))
                    parent[-1][key] = writer.scalar()[0]
            elif isinstance(value, dict) and op < 0.8:
                value[writer.key(set(value))[0]] = writer.scalar()[0]
            else:
                parent[last] = (
                    writer.inline(1)[0] if isinstance(value, dict) else writer.scalar()[0]
                )
            continue
        if op < 0.25:
            if swaps or len(parent) > 1 or not path[:-1]:  # else: a table left empty
                del parent[last]
        elif op < 0.55 and isinstance(value, dict):
            roll = rng.random()
            if roll < 0.15:  # every key taken out: the table is still written, where it was
                parent[last] = {}
            elif roll < 0.55:  # under dotted keys: dotted keys again, a table too
                value[writer.key(set(value))[0]] = new_value()
            else:  # the whole table replaced: some keys kept, some changed, some added
                kept = {k: v for k, v in value.items() if rng.random() < 0.6}
                for key in list(kept):
                    if rng.random() < 0.3:
                        kept[key] = writer.scalar()[0]
                if rng.random() < 0.5 or not (kept or swaps):
                    kept[writer.key(set(kept))[0]] = writer.scalar()[0]
                parent[last] = kept
        elif op < 0.7 and isinstance(value, list) and all(isinstance(v, dict) for v in value):
            if value and rng.random() < 0.5:
                value.pop(rng.randrange(len(value)))
            else:
                value.append({writer.key(set())[0]: writer.scalar()[0]})
        elif swaps:
            parent[last] = new_value()
        elif isinstance(value, list) and not _is_tables(value):
            parent[last] = [writer.scalar()[0] for _ in range(rng.randint(0, 3))]
        elif not isinstance(value, dict | list):
            parent[last] = writer.scalar()[0]
    return edited


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


# --- checks -----------------------------------------------------------------------------


def differences(a: Any, b: Any, path: Path = ()) -> list[Path]:
    """The paths where two mappings differ (down to the values that differ)."""
    from simulator.scenario.editing import same

    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[Path] = []
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                out.append((*path, key))
            else:
                out += differences(a[key], b[key], (*path, key))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            p
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for p in differences(x, y, (*path, i))
        ]
    return [] if same(a, b) else [path]


def touched(line: Line, changed: list[Path]) -> bool:
    """Whether the edit may change ``line`` (it writes, or heads, a value that changed)."""
    if line.path is None:
        return False
    for path in changed:
        if line.path[: len(path)] == path:  # inside what changed (or it, taken out)
            return True
        if not line.header and path[: len(line.path)] == line.path:  # a value edited inside
            return True
    return False


def check(text: str, lines: list[Line], edited: Mapping[str, Any], saved: str | None) -> list[str]:
    """What the saved copy ``saved`` of ``text`` edited to ``edited`` breaks (nothing: [])."""
    from simulator.scenario.editing import same

    if saved is None:
        return ["not edited in place (the copy would be written anew, comments lost)"]
    problems = []
    try:
        read = tomllib.loads(saved)
    except tomllib.TOMLDecodeError as exc:
        return [f"the copy is no TOML: {exc}"]
    if not same(read, edited):
        problems.append(f"the copy reads as {read!r}, not the edited {edited!r}")
    original = tomllib.loads(text)
    changed = differences(original, edited)
    gone = [line for line in lines if touched(line, changed)]
    kept = _runs([(line.text, True) for line in lines if line not in gone])
    while kept and kept[-1][0] == "":  # blank lines that end up ending the file: dropped
        kept.pop()
    while kept and kept[0][0] == "":  # or starting it
        kept.pop(0)
    written = saved.split("\n")
    if written[-1] == "":
        written.pop()
    copied = [text for text, _ in _runs([(line, True) for line in written])]
    at = 0
    for line, untouched in kept:
        if not untouched:
            continue
        while at < len(copied) and copied[at] != line:
            at += 1
        if at == len(copied):
            problems.append(f"a line the edit did not touch is lost or changed: {line!r}")
            break
        at += 1
    if not problems:
        problems += _emptied_where_they_were(lines, original, edited, changed, written)
        problems += _dotted_stay_dotted(lines, original, edited, changed, saved)
    before = {line.text for line in lines}
    for line in written:
        if line.lstrip().startswith("#") and line not in before:
            problems.append(f"a comment nobody wrote: {line!r}")
        header = line.split("#")[0].strip()
        if header.startswith("[") and line not in before and UNEVEN.search(header):
            problems.append(f"a header added with its dots spaced unevenly: {line!r}")
        elif "=" in header and line not in before and UNEVEN.search(header.split("=")[0]):
            problems.append(f"a dotted key added with its dots spaced unevenly: {line!r}")
    problems += _headers_spelled_as_their_neighbours(written, before)
    problems += _headers_nobody_asked_for(lines, original, edited, written, before)
    # where a table is taken out, the blank lines above it and above the next one are one
    joins = sum(1 for line in gone if line.header and line.text.lstrip().startswith("["))
    blanks_kept = sum(1 for text, _ in kept if not text)  # a run of them at least one
    blanks_before = sum(1 for line in lines if not line.text.strip())
    blanks = sum(1 for line in written if not line.strip())
    headers = sum(1 for line in written if line.lstrip().startswith("["))
    headers -= sum(1 for line in lines if line.text.lstrip().startswith("[") and line not in gone)
    if blanks > blanks_before + headers or blanks < blanks_kept - joins:
        problems.append(
            f"blank lines: {blanks} in the copy, {blanks_before} before ({blanks_kept} "
            f"untouched), {headers} headers added, {joins} taken out"
        )
    return problems


def _spelling(header: str) -> tuple[str, str, str, bool | None]:
    """How a header line is spelled: its indent, the spaces inside its brackets, before and
    after the name, and whether its dots are spaced (``[ a . b ]``; None: no dot outside
    quotes)."""
    inner = header.split("#")[0].strip().strip("[]")
    core = re.sub(r'"[^"]*"|\'[^\']*\'', "q", inner.strip())
    dots = None if "." not in core else bool(re.search(r"\s\.\s", core))
    margin = header[: len(header) - len(header.lstrip())]
    return margin, inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :], dots


def _alike(a: str, b: str, *, margin: bool = True) -> bool:
    """Whether two headers are spelled alike (the same spaces, their indents too where
    ``margin``; dots spaced alike, if both have dots)."""
    *frame, dots = _spelling(a)
    *other_frame, other_dots = _spelling(b)
    spaced_alike = dots is None or other_dots is None or dots == other_dots
    return frame[not margin :] == other_frame[not margin :] and spaced_alike


def _name(header: str) -> str:
    """A header's name without its spaces: ``[ a . b ]  # c`` is ``a.b``."""
    return re.sub(r"\s", "", header.split("#")[0]).strip("[]")


def _headers_spelled_as_their_neighbours(written: list[str], before: set[str]) -> list[str]:
    """A header added is spelled as the header above it or below it in the copy (``[ r . t ]``
    then ``[ r . b ]``, not ``[ r.b ]`` nor ``[r.b ]``), as a table that holds it, or as a
    header of the file it takes the place of (``[ a . b ]`` replaced by a value: ``[ a ]``);
    an item added to an array of tables may be spelled as the array's item before it
    instead; a table given a header above its sub-tables, or where they were, as they are
    but for their indent (``[m]`` above ``  [m.a]``)."""
    headers = [line for line in written if line.lstrip().startswith("[")]
    gone = [line for line in before if line.lstrip().startswith("[") and line not in written]
    problems = []
    for at, line in enumerate(headers):
        if line in before:
            continue
        name = _name(line)
        like = headers[at - 1 : at] + headers[at + 1 : at + 2]
        like += [h for h in gone if _name(h) == name]
        like += [h for h in [*headers, *gone] if name.startswith(_name(h) + ".")]  # above it
        if line.lstrip().startswith("[["):
            like += [h for h in headers[:at] if _name(h) == name][-1:]
        under = [h for h in [*headers, *gone] if _name(h).startswith(name + ".")]
        if any(_alike(line, other, margin=False) for other in under):
            continue
        if like and not any(_alike(line, other) for other in like):
            problems.append(f"a header added is spelled unlike its neighbours: {line!r}")
    return problems


def _headers_nobody_asked_for(
    lines: list[Line], original: Any, edited: Any, written: list[str], before: set[str]
) -> list[str]:
    """A ``[header]`` added names a table the edit added (or that was a value), or one that
    only its sub-tables wrote and that now needs a header: a value of its own, or none left
    (``[m . a]`` taken out wrote a ``[m ]`` that nobody typed, beside ``[m.b]``)."""
    problems = []
    for line in written:
        if not line.lstrip().startswith("[") or line.lstrip().startswith("[[") or line in before:
            continue
        try:
            node: Any = tomllib.loads(line.split("#")[0] + "\n")
        except tomllib.TOMLDecodeError:
            continue
        path: list[Any] = []
        while isinstance(node, dict) and node:
            key = next(iter(node))
            path.append(key)
            node = node[key]
        try:
            was, now = _get(original, tuple(path)), _get(edited, tuple(path))
        except (KeyError, IndexError, TypeError):
            continue  # under an [[item]] (its index is not in the header): not told here
        how = _written_by(lines, tuple(path))
        if not isinstance(was, dict) or not isinstance(now, dict) or how == "dotted":
            continue
        tables = [v for v in now.values() if isinstance(v, dict) or _is_tables(v)]
        if how == "sub-tables" and (len(tables) < len(now) or not now):
            continue
        problems.append(f"a header nobody asked for: {line!r}")
    return problems


def _runs(lines: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Lines with each run of blank lines as one (kept where one of them is): which blank
    line of a run survives a table taken out between them is no matter."""
    out: list[tuple[str, bool]] = []
    for text, keep in lines:
        if not text.strip() and out and out[-1][0] == "":
            out[-1] = ("", out[-1][1] or keep)
        else:
            out.append(("" if not text.strip() else text, keep))
    return out


def _written_by(lines: list[Line], path: Path) -> str | None:
    """How the table at ``path`` is written: ``"dotted"`` (``a.b = 1``, maybe sub-tables
    ``[a.c]`` after them), ``"sub-tables"`` (only ``[a.b]``), or None (a header of its own,
    inline, or no table)."""
    if any(line.path == path for line in lines):
        return None
    under = [line for line in lines if line.path and line.path[: len(path)] == path]
    if not under:
        return None
    if under[0].header:  # its first line heads a sub-table: dotted keys come before them
        return "sub-tables"
    return "dotted"


def _emptied_where_they_were(
    lines: list[Line], original: Any, edited: Any, changed: list[Path], written: list[str]
) -> list[str]:
    """A table left without keys that only dotted keys or its sub-tables wrote: ``a = {}``
    (or ``[a]``) is written where its first line was, between the untouched lines around it
    (found in the copy in their order: those above it as early as they can be, those below
    as late, where the copy repeats a line such as ``#``)."""
    kept = [i for i, line in enumerate(lines) if not touched(line, changed) and line.text.strip()]
    early = _placed([lines[i].text for i in kept], written)
    late = _placed([lines[i].text for i in reversed(kept)], written[::-1])
    if early is None or late is None:
        return []  # already said: a line the edit did not touch is lost
    where = dict(zip(kept, early, strict=True))
    where_late = dict(zip(reversed(kept), (len(written) - 1 - at for at in late), strict=True))
    problems = []
    for path, after in _nodes(edited):
        if after != {} or not path or isinstance(path[-1], int):
            continue
        try:
            before = _get(original, path)
        except (KeyError, IndexError, TypeError):
            continue
        how = _written_by(lines, path)
        if not isinstance(before, dict) or not before or how is None:
            continue
        first = min(
            i for i, line in enumerate(lines) if line.path and line.path[: len(path)] == path
        )
        above = max((where[i] for i in where if i < first), default=-1)
        below = min((where_late[i] for i in where_late if i > first), default=len(written))
        window = [line.split("#")[0].strip() for line in written[above + 1 : below]]
        if how == "sub-tables":
            found = any(text.startswith("[") for text in window)
        else:
            found = any(re.sub(r"\s", "", text).endswith("={}") for text in window)
        if not found:
            problems.append(f"{path}: the table left empty is not written where it was")
    return problems


def _placed(texts: list[str], written: list[str]) -> list[int] | None:
    """Where each of ``texts`` is in ``written``, in order, each as early as it can be."""
    out = []
    at = 0
    for text in texts:
        while at < len(written) and written[at] != text:
            at += 1
        if at == len(written):
            return None
        out.append(at)
        at += 1
    return out


def _dotted_stay_dotted(
    lines: list[Line], original: Any, edited: Any, changed: list[Path], saved: str
) -> list[str]:
    """A table added to one that dotted keys write is written with dotted keys too."""
    import tomlkit
    from tomlkit.items import InlineTable

    problems = []
    for path in changed:
        if len(path) < 2 or isinstance(path[-1], int):
            continue
        try:
            table, value = _get(original, path[:-1]), _get(edited, path)
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(table, dict) or path[-1] in table or not isinstance(value, dict):
            continue
        if not value or _written_by(lines, path[:-1]) != "dotted":
            continue
        node: Any = tomlkit.parse(saved)
        for part in path:
            node = node[part]
        if isinstance(node, InlineTable):
            problems.append(f"{path}: added under dotted keys, written as an inline table")
    return problems
