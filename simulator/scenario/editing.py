"""A scenario file's own text with some values changed: everything else as the person wrote it.

The workbench's save-as and ``calibrate``'s ``<stem>.calibrated.toml`` save a copy of a
designer's scenario with a few values changed. The designer's comments are how they annotate
their balance decisions: the copy is their text, edited in place with :mod:`tomlkit` (a TOML
library that keeps a document's layout), never a new file written from the mapping.

Every comment, blank line, key order, quoting and layout of what did not change is kept (each
``[[ x ]]`` its own header's spelling, which :mod:`tomlkit` would write as the first item's; an
item added is spelled as the one before it; a table added as the header the person wrote
beside it, ``[ r . t ]`` then ``[ r . b ]``). A changed value is replaced where it stands (a
comment at the end of its line stays). A key the file lacks is added after the last key of its
table (before the comments that head the next one); a table the file lacks is added at the end
of the table that holds it, or of the file (``[first_aid]``, ``[rules.table.grave]``), written
as :func:`~simulator.scenario.writing.to_toml` writes it; under dotted keys
(``patient.cp_rs = 8``) a key or table added is written with dotted keys spaced as theirs
(``patient.wound.site = "arm"``), in an inline table a new table is an inline table. A table
left without keys is written where it was: ``patient = {}`` in the line of its first dotted
key, ``[rules]`` in the stead of the sub-tables that alone wrote it. An item of an array of
tables is edited where it stands, and so is an item of an array (a multi-line ``neglect_at``
keeps each item's line and comment; ``injuries = [{...}, {...}]`` each inline table's). A key
the edited mapping no longer holds (an old French name) is taken out. A table written in parts
(dotted keys, ``patient.cp_rs = 8`` then ``patient.rs_it = 7``; or ``[a]``, other tables, then
``[a.late]``) is edited part by part, each key where it is written; a key added to it goes
where a reader first meets the table: after the first run of its dotted keys (after
``patient.cp_rs``, not after a ``patient.x`` further down), a value in ``[a]``.

A table taken out (or replaced by a value) leaves the comments and blank lines that head the
next table; where blank lines stood both above it and above the next one, as many are left as
the most of them, not the sum. A table added takes no blank line below it where the file had
none above what follows.

The comments right above a ``[header]`` head it, wherever :mod:`tomlkit` keeps them (at the
end of the table before): a table or item added, or taken out, before that header leaves
them above it; a table written only through its sub-tables (``[rules.table.grave]``) that
gets a key of its own is given a bare ``[rules]`` header, its sub-table keeping its comments.

The text written is read back and compared with the mapping it must hold, value by value and
type by type: when it differs (or :mod:`tomlkit` cannot edit the text), :func:`edited_text`
says so (None) and the caller writes the mapping anew instead.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from typing import Any

from simulator.errors import toml_float
from simulator.scenario.writing import to_toml, toml_key, toml_value


def edited_text(text: str, edited: Mapping[str, Any]) -> str | None:
    """``text`` edited in place so that it reads as ``edited``; None when that cannot be done.

    Args:
        text: A TOML document, exactly as it was read (the mapping ``edited`` was made from).
        edited: What the document must hold once edited: its mapping with the changes
            applied (keys taken out, values changed, keys and tables added).

    Returns:
        The edited text, which :mod:`tomllib` reads as ``edited`` (checked); None when
        :mod:`tomlkit` cannot parse or edit the text, or the edit does not read back so.
    """
    import tomlkit

    try:
        document = tomlkit.parse(text)
        parsed = _tables(document)
        hidden = _hidden_names(document)
        _sync(document, edited, flat=False)
        _prune(document)
        _keep_hidden(document)
        _name_headers(document, parsed, hidden)
        spellings = _mark_item_headers(document)
        written = _respell(document.as_string(), spellings)
        if written.endswith("\n\n") and not text.endswith("\n\n"):
            written = written.rstrip("\n") + "\n"  # a table added at the end: no blank line after
        if written.startswith("\n") and not text.startswith("\n"):
            written = written.lstrip("\n")  # a table taken out at the start: none before
        read = tomllib.loads(written, parse_float=toml_float)
    except Exception:  # tomlkit's own errors, or one of its limits: written anew instead
        return None
    return written if same(read, edited) else None


def _tables(node: Any) -> dict[int, Any]:
    """The tables of a document (and the items of its arrays of tables), by identity.

    Each is held (not its id alone): a table taken out and freed would leave its id to a
    table added.
    """
    from tomlkit.items import AoT, Table

    found: dict[int, Any] = {}
    for _, value in _body(node) or []:
        for table in value.body if isinstance(value, AoT) else [value]:
            if isinstance(table, Table):
                found[id(table)] = table
                found |= _tables(table)
    return found


def _hidden_names(document: Any) -> dict[int, tuple[Any, str]]:
    """The names of the tables written only through their sub-tables, as the person spells them.

    ``[ x . at ]`` writes the table ``x`` without a header: should an edit give it one (a
    value of its own; its sub-tables taken out, ``[x]`` left in their stead), :mod:`tomlkit`
    writes the key as it stands in the sub-table's header (``[ x]``). Its name is cut from
    the header of its first sub-table (``[ x ]``), before the edit takes that one out. Each
    table is held with its name (not its id alone: see :func:`_tables`).
    """
    from tomlkit.items import AoT, Table

    found: dict[int, tuple[Any, str]] = {}

    def first_header(table: Any, levels: int) -> tuple[str, int] | None:
        for key, value in _body(table) or []:
            if key is None or key.is_dotted() or not isinstance(value, Table | AoT):
                continue
            for sub in value.body if isinstance(value, AoT) else [value]:
                if sub.display_name is not None:
                    return sub.display_name, levels
                deeper = first_header(sub, levels + 1)
                if deeper is not None:
                    return deeper
        return None

    def walk(node: Any) -> None:
        for key, value in _body(node) or []:
            if key is None or key.is_dotted() or not isinstance(value, Table | AoT):
                continue
            for table in value.body if isinstance(value, AoT) else [value]:
                header = first_header(table, 1) if table.display_name is None else None
                name = None if header is None else _cut(*header)
                if name is not None:
                    found[id(table)] = (table, name)
                walk(table)

    walk(document)
    return found


def _name_headers(
    node: Any,
    written: dict[int, Any],
    hidden: dict[int, tuple[Any, str]],
    prefix: str | None = None,
    depth: int = 0,
    dot: str | None = None,
    model: Any = None,
    neighbour: Any = None,
) -> Any:
    """Spell the header of each table added (not in ``written``) as the person spells theirs.

    :mod:`tomlkit` joins a new table's name to its parent's header as the person spelled
    it: ``[ a ]`` gave ``[ a .b]``. A table added is spelled as the last header the person
    wrote before it among its parent's tables (``[ r . t ]``: ``[ r . b ]``, its spaces
    inside the brackets and around the dots), and the tables added in it so too; where the
    parent has none, its own header's spaces inside the brackets frame the new name
    (``[ a.b ]``) and its dots are spaced as the parent's are (``[ a . s . b ]``); an item
    added to an array of tables is spelled as the item before it. A table added is indented
    as the table it is spelled after (its header, and its keys as that table's first key;
    as its parent where that one spells it).
    A table of the person's that only its sub-tables wrote, and that the edit gives a
    header, is spelled as they were (:func:`_hidden_names`).

    Args:
        node: The table (or document) whose tables are named.
        written: The tables the file wrote, by identity.
        hidden: The names of the tables the file wrote only through their sub-tables.
        prefix: ``node``'s header as written (None: the document).
        depth: How many keys name ``node`` (0: the document).
        dot: How the dots of the tables added in ``node`` are spaced (None: as ``prefix``'s).
        model: The table that the tables added in ``node`` are indented as (None: none).
        neighbour: The last table with a header the person wrote before ``node``'s tables,
            in an earlier part of the table that ``node`` is a part of (None: none).

    Returns:
        The last table with a header the person wrote in ``node`` (None: none, but for
        ``neighbour``).
    """
    from tomlkit.items import AoT, Table

    start = neighbour
    headed: dict[str, Any] = {}  # each table's first part with a header (``[a]``, ``[a.late]``)
    found_in: dict[str, Any] = {}  # the last header the person wrote in a table's parts
    for key, value in _body(node) or []:
        if key is None or key.is_dotted() or not isinstance(value, Table | AoT):
            continue
        tables = value.body if isinstance(value, AoT) else [value]
        name = None
        before = None  # the item before, in an array of tables
        for table in tables:
            inner, like = dot, None
            if id(table) not in written:
                like = model
                spelled: str | None = None if neighbour is None else neighbour.display_name
                beside = None if name else _spelled_as(spelled, depth, key.as_string())
                if name:
                    like = before
                elif beside is not None:
                    (name, inner), like = beside, neighbour
                table.display_name = name or _joined(prefix, key.as_string(), dot=dot)
                if like is not None:
                    _indent_like(table, like)
            elif table.display_name is not None:
                neighbour = table
            held, known = hidden.get(id(table), (None, None))
            if held is table and table.display_name is None and _headed(table):
                table.display_name = known
            elif held is not table:
                known = None
            name = table.display_name or known or _joined(prefix, key.as_string())
            if headed.get(key.key) is None:
                headed[key.key] = _headed_as(table)
            if id(table) in written:  # the tables added in it: indented as it is (its first part)
                like = _headed_as(table) or headed[key.key]
            parts = None if isinstance(value, AoT) else found_in.get(key.key)  # not items
            found = _name_headers(table, written, hidden, name, depth + 1, inner, like, parts)
            if found is not None:
                neighbour = found_in[key.key] = found
            before = table
    return None if neighbour is start else neighbour


def _headed_as(table: Any) -> Any:
    """``table`` where its header is written (None: it has none, or is an inline table)."""
    from tomlkit.items import Table

    return table if isinstance(table, Table) and _headed(table) else None


def _indent_like(table: Any, like: Any) -> None:
    """Indent a table added as the table ``like``: its header, and its keys as ``like``'s.

    ``  [a.b]`` then ``    y = 1``: ``  [a.c]`` then ``    z = 2``, not at the margin.
    """
    from tomlkit.items import AoT, Table

    margin = str(like.trivia.indent).rsplit("\n", 1)[-1]
    if margin and not margin.strip(" \t"):
        indent = str(table.trivia.indent)
        table.trivia.indent = indent[: len(indent) - len(indent.rsplit("\n", 1)[-1])] + margin
    keys = next(
        (
            str(item.trivia.indent)
            for k, item in _body(like) or []
            if k is not None and not isinstance(item, Table | AoT)
        ),
        "",
    )
    if not keys or keys.strip(" \t"):
        return
    for k, item in _body(table) or []:
        if k is not None and not isinstance(item, Table | AoT):
            item.trivia.indent = keys


_HEADER_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""


def _pieces(header: str) -> tuple[str, list[str], str] | None:
    """A header's parts: the spaces inside its brackets, its keys and dots, the spaces after.

    The keys and the dots between them come in turn, each dot with its spaces. None where
    ``header`` is not read so.
    """
    import re

    match = re.fullmatch(
        rf"(\s*)({_HEADER_KEY}(?:\s*\.\s*{_HEADER_KEY})*)(\s*)", header, flags=re.DOTALL
    )
    if match is None:
        return None
    lead, core, trail = match.groups()
    return lead, re.findall(rf"{_HEADER_KEY}|\s*\.\s*", core), trail


def _spelled_as(header: str | None, depth: int, key: str) -> tuple[str, str | None] | None:
    """``key``'s header spelled as ``header``, a header ``depth`` keys deep or deeper.

    The first ``depth`` keys of ``header`` (the parent's name as it spells it), the dot
    after them and the spaces inside its brackets: ``r . t`` and ``b`` at depth 1 give
    ``r . b``. With the dot that tables added under it take (None: ``header`` has none).
    None where there is no ``header`` (or it is not read so).
    """
    read = None if header is None else _pieces(header)
    if read is None:
        return None
    lead, pieces, trail = read
    if len(pieces) < 2 * depth + 1:
        return None
    before = "".join(pieces[: 2 * depth])  # the parent's keys, and the dot after them
    dots = pieces[1::2]
    dot = pieces[2 * depth - 1] if depth else (dots[0] if dots else None)
    return f"{lead}{before}{key.strip()}{trail}", dot


def _cut(header: str, levels: int) -> str | None:
    """``header`` less its last ``levels`` keys: the name of a table above it, spelled so."""
    read = _pieces(header)
    if read is None:
        return None
    lead, pieces, trail = read
    if len(pieces) < 2 * levels + 1:
        return None
    return lead + "".join(pieces[: len(pieces) - 2 * levels]) + trail


def _joined(prefix: str | None, key: str, *, plain: bool = False, dot: str | None = None) -> str:
    """A sub-table's header: ``key`` after its parent's header ``prefix`` (spelled as it is).

    ``plain``: as :mod:`tomlkit` joins them (the name it writes for a table it has no
    spelling of). ``dot``: the dot between them (None: spaced as ``prefix``'s are).
    """
    import re

    if prefix is None:
        return key if plain else key.strip()
    if plain:
        return f"{prefix}.{key}"
    core = prefix.strip()
    lead, trail = prefix[: len(prefix) - len(prefix.lstrip())], prefix[len(prefix.rstrip()) :]
    if dot is None:
        dot = " . " if re.search(r"\s\.\s", core) else "."
    return f"{lead}{core}{dot}{key.strip()}{trail}"


def _mark_item_headers(node: Any) -> list[str]:
    """Mark where each item of an array of tables writes its header; the spellings, in turn.

    :mod:`tomlkit` writes every ``[[x]]`` of an array as the array's key is spelled (its
    first item's header), though it keeps each item's own (``[[ x ]]``): each header is
    framed by marks (characters no TOML text holds) that :func:`_respell` replaces.
    """
    from tomlkit.items import AoT, Table

    spellings: list[str] = []

    def mark(table: Any) -> None:
        for _, value in _body(table) or []:
            if isinstance(value, AoT):
                for item in value.body:
                    if item.display_name is not None:
                        at = len(spellings)
                        spellings.append(item.display_name)
                        item.trivia.indent += f"\x00{at}\x00"
                        item.trivia.comment_ws = f"\x01{at}\x01" + item.trivia.comment_ws
                    mark(item)
            elif isinstance(value, Table):
                mark(value)

    mark(node)
    return spellings


def _respell(written: str, spellings: list[str]) -> str:
    """``written`` with each marked ``[[header]]`` spelled as in ``spellings``."""
    import re

    def spelled(match: re.Match[str]) -> str:
        return f"[[{spellings[int(match[1])]}]]"

    return re.sub(r"\x00(\d+)\x00\[\[.*?\]\]\x01\1\x01", spelled, written, flags=re.DOTALL)


def same(a: object, b: object) -> bool:
    """Whether two TOML values are equal, types included (``1`` is not ``1.0``, nor ``true``)."""
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (
            isinstance(a, Mapping)
            and isinstance(b, Mapping)
            and a.keys() == b.keys()
            and all(same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        return (
            isinstance(a, list | tuple)
            and isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, bool) != isinstance(b, bool) or isinstance(a, float) != isinstance(b, float):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b if isinstance(a, str | int) else a == b


def _plain(item: Any) -> Any:
    """A tomlkit item as plain Python values (what :mod:`tomllib` reads)."""
    return item.unwrap() if hasattr(item, "unwrap") else item


def _is_table(node: Any) -> bool:
    """Whether a tomlkit item holds keys (a table, an inline table, a table split in parts)."""
    from tomlkit.container import Container, OutOfOrderTableProxy
    from tomlkit.items import InlineTable, Table

    return isinstance(node, Container | Table | InlineTable | OutOfOrderTableProxy)


def _is_table_list(value: object) -> bool:
    """Whether a value is written as an array of tables (``[[injuries]]``) by ``to_toml``."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _body(node: Any) -> list[tuple[Any, Any]] | None:
    """The items of a table in the order written (keys, comments, blank lines), if it has one."""
    from tomlkit.container import Container
    from tomlkit.items import Table

    if isinstance(node, Container):
        return node.body
    if isinstance(node, Table):
        return node.value.body
    return None  # an inline table, or a table split in parts: its own order is kept as is


def _dotted(node: Any, key: str) -> bool:
    """Whether ``key`` of ``node`` is written as dotted keys (``patient.cp_rs = 8``)."""
    body = _body(node) or []
    return any(k is not None and k.key == key and k.is_dotted() for k, _ in body)


def _sync(node: Any, target: Mapping[str, Any], *, flat: bool) -> None:
    """Edit the table ``node`` in place until it holds ``target``; what is equal is not touched.

    ``flat``: the table is written inline or with dotted keys, where a new table is an inline
    table or dotted keys (a ``[header]`` there would take the keys that follow it). Under
    dotted keys, the keys taken out go once the others are added: spelled as they were.
    """
    from tomlkit.items import Table

    stale = [k for k in node if k not in target]
    late = flat and isinstance(node, Table)
    for key in [] if late else stale:
        _drop(node, key)
    for key, value in target.items():
        _sync_key(node, key, value, flat=flat)
    for key in stale if late else []:
        _drop(node, key)


def _sync_key(node: Any, key: str, value: Any, *, flat: bool) -> None:
    """Edit ``key`` of the table ``node`` (or add it) until it holds ``value``."""
    from tomlkit.items import AoT, Array, InlineTable, Table

    if key not in node:
        _add(node, key, value, flat=flat)
        return
    if value == {} and _unwritten_when_empty(node, key):  # ``key = {}`` in its stead
        if _emptied_in_place(node, key):
            return
        dotted = _dotted(node, key)
        _drop(node, key)
        _add(node, key, value, flat=flat or dotted)
        return
    parts = _parts(node, key)
    if parts:
        _sync_parts(parts, value, node, key)
        return
    current = node[key]
    if same(_plain(current), value):
        return
    if isinstance(value, Mapping) and isinstance(current, InlineTable):
        if current.keys() <= value.keys():
            _sync(current, value, flat=True)
        else:  # keys taken out (tomlkit would leave their commas' spaces): written anew
            node[key] = _value(value)
    elif isinstance(value, Mapping) and _is_table(current):
        dotted = flat or _dotted(node, key)  # dotted keys: no header, ever
        hidden = isinstance(current, Table) and current.is_super_table() and not dotted
        _sync(current, value, flat=dotted)
        if hidden and _holds_values(current):  # [rules] now written: its own header
            _own_header(node, current)
    elif isinstance(current, AoT) and _is_table_list(value):
        _sync_tables(current, key, value)
    elif (
        _is_table_list(value)
        and isinstance(current, Table)
        and _headed(current)
        and not (flat or _dotted(node, key))
    ):
        _tables_in_place(node, key, current, value)
    elif isinstance(current, AoT) or (
        _is_table(current) and not isinstance(current, InlineTable)
    ):  # a table replaced by a value: in the line of its dotted keys, else where values go
        if not _in_place_of_dotted(node, key, value):
            _drop(node, key)
            _add(node, key, value, flat=flat)
    elif isinstance(current, Array) and isinstance(value, list):
        _sync_array(current, value)  # item by item: its layout and comments kept
    else:
        node[key] = _value(value)  # in place: its indent and end-of-line comment kept


def _tables_in_place(node: Any, key: str, current: Any, value: list[Any]) -> None:
    """A ``[table]`` replaced by an array of tables: its items where the table stood.

    Spaced as the table was (its indent, the blank lines above it and below it), the
    comments that end it (they head what follows) after the last item. Taken out and added
    at the end of the table that holds it, it took a blank line of :mod:`tomlkit`'s above
    it, one too many where the person wrote one already (beside dotted keys, ``a.x = 1``
    then ``[a.sub]``), or one nobody wrote.
    """
    heading = _take_heading(current)
    tables = _fragment(key, value)
    tables[0].trivia.indent = current.trivia.indent
    node[key] = tables
    _append_heading(_last_table(node[key][-1]), heading)


def _unwritten_when_empty(node: Any, key: str) -> bool:
    """Whether the table ``key`` would vanish from the text once its keys are taken out.

    A table written by dotted keys (``patient.cp_rs = 8``), or only through its sub-tables
    (``[rules.table.grave]``): no line of it would be left to say that it is there.
    """
    from tomlkit.container import OutOfOrderTableProxy
    from tomlkit.items import Table

    current = node[key]
    if isinstance(current, OutOfOrderTableProxy) or _dotted(node, key):
        return True
    return isinstance(current, Table) and current.is_super_table() and bool(current)


def _emptied_in_place(node: Any, key: str) -> bool:
    """Empty the table ``key`` where it is written; whether it could be (else nothing done).

    Written by dotted keys (``a.b = 1``, maybe in several places): ``a = {}`` where the first
    of them was, indented as it was. Written only through its sub-tables
    (``[rules.table.grave]``): they are taken out and ``[rules]`` is written in their stead,
    under the comments that headed them (without the sub-table's end-of-line comment, which
    :mod:`tomlkit` gives it). Written in parts (``[a]``, other tables, ``[a.late]``): each
    is emptied, ``[a]`` and the comments among its keys stay, the late parts go.
    """
    from tomlkit.items import Table

    body = _body(node)
    if body is None:
        return False
    at = [i for i, (k, _) in enumerate(body) if k is not None and k.key == key]
    if not at:
        return False
    dotted = [body[i][0].is_dotted() for i in at]
    current = node[key]
    if not any(dotted):
        parts = _parts(node, key)
        tables = [table for _, table in parts] or [current]
        if not all(isinstance(table, Table) for table in tables):
            return False
        own = [table for table in tables if not table.is_super_table()]
        if parts:  # [a] ... [a.late]: each part emptied, the late ones then taken out
            _sync_parts(parts, {}, node, key)
        else:
            _sync(current, {}, flat=False)
        if not own:  # the first part's sub-table leaves a header of its own
            tables[0]._is_super_table = False
            tables[0].trivia.comment_ws = ""
            tables[0].trivia.comment = ""
        return True
    return dotted[0] and _in_place_of_dotted(node, key, {})


def _in_place_of_dotted(node: Any, key: str, value: object) -> bool:
    """Write ``key = value`` where the dotted keys that wrote the table ``key`` were.

    In the line of the first of them (``a.b = 1``, maybe one of several), indented and spaced
    as it is: ``a = {}``, ``a = 5``; the sub-tables written after them (``[a.c]``) go. Whether
    it could be (the table's first part written so; else nothing is done).
    """
    from tomlkit.items import Table

    body = _body(node)
    at = [i for i, (k, _) in enumerate(body or []) if k is not None and k.key == key]
    if body is None or not at or not body[at[0]][0].is_dotted():
        return False
    like = body[at[0]]
    anchor = next((v for k, v in body[at[0] + 1 :] if k is None or k.key != key), None)
    indent = _first_indent(like[1])
    _drop(node, key)
    new = _spelled_like(key, like, dotted=isinstance(value, Mapping) and bool(value))
    if isinstance(value, Mapping) and value:
        item = _dotted_table(value, like, indent)
        new._dotted = True
    else:
        item = _value(value)
        item.trivia.indent = indent
    container = node.value if isinstance(node, Table) else node
    where = next((i for i, (_, v) in enumerate(body) if v is anchor), None)
    if anchor is None or where is None:
        node.append(new, item)
    else:
        container._insert_at(where, new, item)
    return True


def _first_indent(table: Any) -> str:
    """The indent of the first line a table written by dotted keys writes."""
    for key, value in _body(table) or []:
        if key is None:
            continue
        if key.is_dotted() and _body(value) is not None:
            return _first_indent(value)
        return str(value.trivia.indent)
    return ""


def _parts(node: Any, key: str) -> list[tuple[bool, Any]]:
    """The tables that write ``key`` where there are several, each dotted or not (else []).

    ``patient.cp_rs = 8`` and ``patient.rs_it = 7`` are two tables in :mod:`tomlkit`, and so
    are ``[a]`` and an ``[a.late]`` written after other tables: it joins them in a view that
    goes stale once a key is taken out of one, and takes keys out without their comments.
    Each is edited itself.
    """
    from tomlkit.container import Container
    from tomlkit.items import SingleKey, Table

    container = node if isinstance(node, Container) else getattr(node, "value", None)
    if not isinstance(container, Container):
        return []
    at = container._map.get(SingleKey(key))
    if not isinstance(at, tuple):
        return []
    parts = [(k, v) for k, v in (container.body[i] for i in at) if k is not None]
    if len(parts) < len(at) or not all(isinstance(v, Table) for _, v in parts):
        return []
    return [(k.is_dotted(), v) for k, v in parts]


class _UnwritableError(Exception):
    """An edit that this module does not write in place (the copy is written anew)."""


def _sync_parts(
    parts: list[tuple[bool, Any]],
    target: Any,
    node: Any,
    key: str,
    lines: tuple[list[Any], list[tuple[Any, Any]]] | None = None,
) -> None:
    """Edit the tables that write ``key`` in parts until they hold ``target`` together.

    A key is edited in the part that writes it (or in each, where it is a table split in
    turn); a key added goes where a reader first meets the table: after the first run of
    its dotted keys (each line of them is a part: ``a.x = 1``, ``a.y = 2``, other keys,
    ``a.w = 3``: ``a.z`` after ``a.y``), a value to the first part with a header of its own;
    a table added under headers goes after the last part; a dotted part left without keys
    is taken out later (:func:`_prune`). The keys taken out go once the others are added
    (a key added to dotted keys is spelled as those taken out).

    ``lines``: where the parts are written, for a table split in parts within parts (each
    part's item in the body of the table that holds them, and that body); from ``node``
    where None.
    """
    from tomlkit.container import Container
    from tomlkit.items import Table

    if lines is None:
        container = node if isinstance(node, Container) else getattr(node, "value", None)
        body = container.body if isinstance(container, Container) else []
        lines = ([part for _, part in parts], body)

    if not isinstance(target, Mapping):
        if not _in_place_of_dotted(node, key, target):
            _drop(node, key)
            _add(node, key, target, flat=all(dotted for dotted, _ in parts))
        return
    stale = [(part, [k for k in part if k not in target]) for _, part in parts]
    for sub, value in target.items():
        held = [i for i, (_, part) in enumerate(parts) if sub in part]
        holders = [parts[i] for i in held]
        inner = [(dotted, part[sub]) for dotted, part in holders]
        split = len(holders) > 1 and all(isinstance(table, Table) for _, table in inner)
        if split and isinstance(value, Mapping) and value:  # {}: where the first was
            _sync_parts(inner, value, None, sub, ([lines[0][i] for i in held], lines[1]))
            continue
        for _, holder in holders[1:]:
            _drop(holder, sub)
        table = isinstance(value, Mapping) or _is_table_list(value)
        if holders and (table or holders[0][0] or not holders[0][1].is_super_table()):
            _sync_key(holders[0][1], sub, value, flat=holders[0][0])
            continue
        if holders:  # a value in a part written only through its sub-tables ([a.late]):
            _drop(holders[0][1], sub)  # it goes where [a]'s own values are
        dotted = _first_run(parts, lines)
        if dotted is not None:
            _sync_key(dotted, sub, value, flat=True)
        elif table:
            _sync_key(parts[-1][1], sub, value, flat=False)
        else:
            own = [part for _, part in parts if not part.is_super_table()]
            if not own:
                raise _UnwritableError(f"{key}.{sub}: a value for a table written only in parts")
            _sync_key(own[0], sub, value, flat=False)
    for part, keys in stale:
        for sub in keys:
            _drop(part, sub)


def _first_run(
    parts: list[tuple[bool, Any]], lines: tuple[list[Any], list[tuple[Any, Any]]]
) -> Any:
    """The last dotted part of the first run of them: lines with no other key between.

    ``lines``: each part's item in the body that holds them, and that body. None where no
    part is dotted.
    """
    items, body = lines
    where = {id(item): at for at, (_, item) in enumerate(body)}
    dotted = [i for i, (is_dotted, _) in enumerate(parts) if is_dotted]
    if not dotted:
        return None
    places = {i: where[id(items[i])] for i in dotted if id(items[i]) in where}
    if len(places) < len(dotted):
        return parts[dotted[0]][1]
    order = sorted(dotted, key=lambda i: places[i])
    last = order[0]
    for i in order[1:]:
        if any(k is not None for k, _ in body[places[last] + 1 : places[i]]):
            break  # another key between: the run ends
        last = i
    return parts[last][1]


def _prune(node: Any) -> None:
    """Take out the tables that edits left without a value, where no header of theirs is left.

    Dotted keys (their lines went), and the parts of a table that only their sub-tables
    wrote (``[a.late]`` taken out: a bare ``[a]`` would be a second one).
    """
    from tomlkit.container import Container
    from tomlkit.items import AoT, Null, Table

    container = node if isinstance(node, Container) else getattr(node, "value", None)
    if not isinstance(container, Container):
        return
    for index, (key, value) in reversed(list(enumerate(container.body))):
        if isinstance(value, AoT):
            for table in value.body:
                _prune(table)
        elif isinstance(value, Table):
            _prune(value)
            if key is None or not _empty(value):
                continue
            part = isinstance(container._map.get(key), tuple) and value._is_super_table is True
            if key.is_dotted() or part:  # else written as an empty [a] of its own
                left = [v for k, v in _body(value) or [] if k is None]  # comments it ended with
                left = [v for v in left if not isinstance(v, Null)]
                blank = _blank_lines(_before(container.body, index), last=True)
                container._remove_at(index)
                _insert_keyless(container, index + 1, _trim_blank_lines(left, blank))


def _keep_hidden(node: Any) -> None:
    """Keep a table that only its sub-tables write without a header of its own.

    A sub-table taken out (``[m.a]`` before ``# head`` and ``[m.b]``) leaves the comments
    that head the next one in the table above them, ``m``, which only its sub-tables wrote:
    :mod:`tomlkit` then writes a ``[m]`` nobody typed (spelled as ``[m.a]``'s key, with its
    end-of-line comment: ``[m ]  # c``). There they are written as they are, as text that
    is no key (a comment is the only thing in a table's body it takes for a value).
    """
    from tomlkit.items import AoT, Comment, Table, Whitespace

    for key, value in _body(node) or []:
        if key is None or not isinstance(value, Table | AoT):
            continue
        for table in value.body if isinstance(value, AoT) else [value]:
            body = _body(table) or []
            hidden = table.is_super_table() and not key.is_dotted()
            if hidden and not _holds_values(table):
                for at, (k, item) in enumerate(body):
                    if k is None and isinstance(item, Comment):
                        body[at] = (None, Whitespace(item.as_string()))
            _keep_hidden(table)


def _empty(table: Any) -> bool:
    """Whether a table writes nothing: no value, in it or in its sub-tables, and no header.

    A sub-table with a header of its own (``[a.b]``, even with no key) is written.
    """
    from tomlkit.items import Table

    def unwritten(key: Any, value: Any) -> bool:
        if key is None:
            return True
        if not isinstance(value, Table):
            return False
        headed = not key.is_dotted() and value._is_super_table is not True
        return not headed and _empty(value)

    return all(unwritten(k, v) for k, v in _body(table) or [])


def _sync_array(array: Any, target: list[Any]) -> None:
    """Edit an array item by item: a multi-line array keeps its lines and their comments.

    An item changed is replaced where it stands (the comment after it stays), an inline table
    or an array inside is edited in turn; items taken out go from the end, items added after
    the last.
    """
    from tomlkit.items import Array, InlineTable

    for index, value in enumerate(target[: len(array)]):
        item = array[index]
        if same(_plain(item), value):
            continue
        if isinstance(value, Mapping) and isinstance(item, InlineTable):
            if item.keys() <= value.keys():
                _sync(item, value, flat=True)
                continue
        elif isinstance(value, list) and isinstance(item, Array):
            _sync_array(item, value)
            continue
        array[index] = _value(value)
    while len(array) > len(target):
        del array[len(array) - 1]
    for value in target[len(array) :]:
        array.append(_value(value))


def _last_table(node: Any) -> Any:
    """The table ``node`` writes last: itself, or its last sub-table, and so on down.

    An array of tables writes its last item last.
    """
    from tomlkit.items import AoT, Table

    owner = node[-1] if isinstance(node, AoT) and len(node) > 0 else node
    while True:
        keyed = [(k, v) for k, v in _body(owner) or [] if k is not None]
        last = keyed[-1] if keyed else None
        if last is not None and isinstance(last[1], AoT) and len(last[1]) > 0:
            owner = last[1][-1]
        elif last is not None and isinstance(last[1], Table) and not last[0].is_dotted():
            owner = last[1]
        else:
            return owner


def _take_heading(node: Any, *, blank: bool = True) -> list[Any]:
    """Take out the comments that end what ``node`` writes last: they head what follows it.

    :mod:`tomlkit` keeps the comments above a ``[header]`` at the end of the table written
    before it (of its last sub-table, or of the last item of its array of tables), with the
    blank lines above them. A table added at the end of ``node``, or ``node`` taken out, must
    leave them above what follows: they are taken out (the whole run of comments and blank
    lines that ends the body; from its first comment where not ``blank``) and returned.
    """
    from tomlkit.items import Comment, Null, Whitespace

    body = _body(_last_table(node))
    if not body:
        return []
    end = len(body)
    while end > 0 and body[end - 1][0] is None and isinstance(body[end - 1][1], Null):
        end -= 1
    start = end
    while start > 0 and body[start - 1][0] is None:
        if not isinstance(body[start - 1][1], Comment | Whitespace | Null):
            break
        start -= 1
    while not blank and start < end and not isinstance(body[start][1], Comment):
        start += 1  # the blank lines before the first comment stay where they are
    taken = [item for _, item in body[start:end] if not isinstance(item, Null)]
    body[start:end] = [(None, Null()) for _ in body[start:end]]
    return taken


def _blank_lines(items: list[Any], *, last: bool) -> int:
    """How many blank lines end (``last``) or begin a run of comments and blank lines."""
    from tomlkit.items import Null, Whitespace

    count = 0
    for item in reversed(items) if last else items:
        if isinstance(item, Null):
            continue
        if not isinstance(item, Whitespace) or item.s.strip(" \t\n"):
            break
        count += item.s.count("\n")
    return count


def _trim_blank_lines(items: list[Any], lines: int) -> list[Any]:
    """A run of comments and blank lines less ``lines`` of the blank lines it begins with."""
    from tomlkit.items import Whitespace

    out = list(items)
    while lines > 0 and out and isinstance(out[0], Whitespace) and "\n" in out[0].s:
        text = out[0].s
        cut = text.index("\n") + 1
        out[0] = Whitespace(text[cut:])
        if not text[cut:]:
            out.pop(0)
        lines -= 1
    return out


def _ending(node: Any) -> list[Any]:
    """The comments and blank lines that end what ``node`` writes (its last table's body)."""
    body = _body(_last_table(node)) or []
    start = len(body)
    while start > 0 and body[start - 1][0] is None:
        start -= 1
    return [item for _, item in body[start:]]


def _drop(node: Any, key: str) -> None:
    """Take ``key`` out of ``node``; the comments that head the table after it stay there.

    A table written in parts (``[a]``, then ``[a.late]`` after other tables) leaves the
    comments that head what follows each part.
    """
    from tomlkit.items import AoT, Table

    body = _body(node)
    parts = [
        (i, v)
        for i, (k, v) in enumerate(body or [])
        if k is not None and k.key == key and isinstance(v, Table | AoT)
    ]
    if body is None or not parts:
        del node[key]
        return
    headings = [(index, _take_heading(part)) for index, part in parts]
    del node[key]
    appended: list[Any] = []
    for index, heading in reversed(headings):  # from the last: the indices before stay
        if not heading:
            continue
        before = _before(body, index)
        heading = _trim_blank_lines(heading, min(_blank_lines(before, last=True), len(heading)))
        after = [(k, v) for k, v in body[index:] if k is not None]
        if after and isinstance(after[0][1], Table | AoT):  # right above the table after it
            _insert_keyless(node.value if isinstance(node, Table) else node, index, heading)
        else:  # at the end of what the table writes last, above what follows it
            appended[:0] = heading
    _append_keyless(_last_table(node), appended)


def _before(body: list[tuple[Any, Any]], index: int) -> list[Any]:
    """The comments and blank lines written right before ``body[index]`` of a table."""
    from tomlkit.items import AoT, Null, Table

    run: list[Any] = []
    at = index
    while at > 0 and body[at - 1][0] is None:
        at -= 1
        run.insert(0, body[at][1])
    if any(not isinstance(item, Null) for item in run) or at == 0:
        return run
    previous = body[at - 1][1]
    if isinstance(previous, Table | AoT) and not body[at - 1][0].is_dotted():
        return _ending(previous)
    return []


def _append_keyless(table: Any, items: list[Any]) -> None:
    """Put comments or blank lines at the end of a table's body."""
    body = _body(table)
    if body is not None:
        body.extend((None, item) for item in items)


def _insert_keyless(container: Any, index: int, items: list[Any]) -> None:
    """Put comments or blank lines into a tomlkit container at ``index`` of its body."""
    for key, at in container._map.items():  # the keys after them move down
        if isinstance(at, tuple):
            container._map[key] = tuple(i + len(items) if i >= index else i for i in at)
        elif at >= index:
            container._map[key] = at + len(items)
    container.body[index:index] = [(None, item) for item in items]


def _headed(table: Any) -> bool:
    """Whether :mod:`tomlkit` writes a header for a table (not hidden, or holding a value)."""
    return not table.is_super_table() or _holds_values(table)


def _holds_values(table: Any) -> bool:
    """Whether a table holds a key that is no table (its header is then written)."""
    from tomlkit.items import AoT, Table

    return any(k is not None and not isinstance(v, Table | AoT) for k, v in _body(table) or [])


def _own_header(parent: Any, table: Any) -> None:
    """A table written only through its sub-tables that now holds a key: a header of its own.

    ``[rules.table.grave]`` alone, then ``rules.open_roll`` added: ``[rules]`` is written, and
    it says nothing of the sub-table.

    :mod:`tomlkit` gives such a table its sub-table's end-of-line comment, and writes its new
    header under the comments that head the sub-table: the comment is taken off the new
    header, and the comments that stood right above the sub-table move down to it again.
    """
    from tomlkit.items import AoT, Comment, Null, Table, Whitespace

    table.trivia.comment_ws = ""
    table.trivia.comment = ""
    outer, inner = _body(parent), _body(table)
    if outer is None or inner is None:
        return
    at = next((i for i, (_, v) in enumerate(outer) if v is table), None)
    if at is None:
        return
    first = next((i for i, (_, v) in enumerate(inner) if isinstance(v, Table | AoT)), None)
    if first is None:
        return
    start = at
    while start > 0 and outer[start - 1][0] is None and isinstance(outer[start - 1][1], Comment):
        start -= 1
    heading = [item for _, item in outer[start:at]]
    outer[start:at] = [(None, Null()) for _ in heading]  # as tomlkit takes an item out
    before = [(k, v) for k, v in outer[:at] if k is not None]
    written = before[-1] if before else None  # the comments: at the end of the table before
    if not heading and written and isinstance(written[1], Table | AoT):
        heading = [] if written[0].is_dotted() else _take_heading(written[1], blank=False)
    if not heading:
        return
    sub = inner[first][1]
    indent = sub.trivia.indent  # the blank line tomlkit puts above it goes above the comments
    blank = indent[: len(indent) - len(indent.lstrip("\n"))]
    sub.trivia.indent = indent[len(blank) :]
    if blank:
        heading.insert(0, Whitespace(blank))
    at = first  # above the comments already there (a sub-table taken out left its own)
    while at > 0 and inner[at - 1][0] is None:
        at -= 1
    if not any(isinstance(item, Comment) for _, item in inner[at:first]):
        at = first
    _insert_keyless(table.value, at, heading)


def _sync_tables(tables: Any, key: str, target: list[Mapping[str, Any]]) -> None:
    """Edit an array of tables item by item; items added go after the last."""
    for index, value in enumerate(target[: len(tables)]):
        _sync(tables[index], value, flat=False)
    while len(tables) > len(target):
        gone = tables[len(tables) - 1]
        if len(tables) > 1:
            _take_heading(tables[len(tables) - 2])  # the comments above the item go with it
            _append_keyless(tables[len(tables) - 2], _take_heading(gone))
        del tables[len(tables) - 1]
    added = target[len(tables) :]
    heading = _take_heading(tables) if added else []  # the comments above what follows
    for value in added:  # each spelled as the item before it (_name_added_headers)
        tables.append(_fragment(key, [value])[0])
    if added:
        _append_heading(tables[len(tables) - 1], heading)


def _append_heading(table: Any, heading: list[Any]) -> None:
    """Put the comments and blank lines that head what follows at the end of a table added.

    They replace the blank line that ends the table: spaced as the person spaced them.
    """
    from tomlkit.items import Null, Whitespace

    body = _body(table)
    if body is None:
        return
    while body and body[-1][0] is None and isinstance(body[-1][1], Whitespace | Null):
        if isinstance(body[-1][1], Whitespace) and body[-1][1].s.strip(" \t\n"):
            break
        body.pop()
    _append_keyless(table, heading)


def _value(value: object) -> Any:
    """A value as tomlkit writes it: the text ``to_toml`` writes for it (``"30min"``)."""
    import tomlkit

    return tomlkit.value(toml_value(value))


def _fragment(key: str, value: object) -> Any:
    """A table (or array of tables) ``key`` holding ``value``, as ``to_toml`` writes it.

    An item of an array of tables that holds a table (as the file's own items may, with
    dotted keys) has it written inline: ``to_toml`` writes such items with values only.
    """
    import tomlkit

    try:
        text = to_toml({key: value})
    except TypeError:
        if not _is_table_list(value):
            raise
        assert isinstance(value, list)
        header = f"[[{toml_key(key)}]]\n"
        text = "\n".join(
            header + "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in item.items())
            for item in value
        )
    return tomlkit.parse(text + "\n").item(key)


def _add(node: Any, key: str, value: object, *, flat: bool) -> None:
    """Add a key the table lacks where a person would put it.

    A value goes after the table's last key (before the comments that head its first
    ``[table]``), indented as that key is; a table goes at the table's end, after its own
    tables. Where the table is ``flat``, a table is a value: under dotted keys, dotted keys
    in their spelling (``a . c . d = 1`` next to ``a . b = 1``), in an inline table inline.
    """
    from tomlkit.container import Container
    from tomlkit.items import AoT, InlineTable, Table

    body = _body(node)
    if not flat and body is not None and (isinstance(value, Mapping) or _is_table_list(value)):
        heading = [] if isinstance(node, Container) else _take_heading(node)
        node[key] = _fragment(key, value)  # appended: after the table's own tables
        added = node[key]
        last = added[-1] if isinstance(added, AoT) else added
        _append_heading(_last_table(last), heading)  # still above the next table
        return
    item = _value(value)
    if isinstance(node, InlineTable):
        _add_inline(node, key, item)
        return
    if body is None:
        node[key] = item
        return
    last = None  # the last key of the table, before its first [table] and the comments above it
    for index, (k, v) in enumerate(body):
        if isinstance(v, Table | AoT) and not (k is not None and k.is_dotted()):
            break
        if k is not None:
            last = index
    indent = None if last is None else _line_indent(body[last][1])  # as its neighbours are
    new: Any = key
    if flat and isinstance(node, Table):  # under dotted keys: a.c = 1, a.c.d = 1, spaced so
        keyed = (entry for entry in body if entry[0] is not None)
        like = body[last] if last is not None else next(keyed, None)
        new = _spelled_like(key, like, dotted=isinstance(value, Mapping) and bool(value))
        if isinstance(value, Mapping) and value:
            item = _dotted_table(value, like, indent or "")
            new._dotted = True
    container = node.value if isinstance(node, Table) else node
    if last is None and body and hasattr(container, "_insert_at"):
        container._insert_at(0, new, item)  # above the comments that head what follows
        return  # (and above a first sub-table without a blank line tomlkit would add)
    if indent is not None and not isinstance(item, Table):
        item.trivia.indent = indent
    if last is None or last + 1 >= len(body) or not hasattr(container, "_insert_at"):
        node.append(new, item)
        return
    container._insert_at(last + 1, new, item)


def _line_indent(item: Any) -> str:
    """The indent of the line that writes ``item`` (the first one of dotted keys)."""
    from tomlkit.items import Table

    if isinstance(item, Table):
        return _first_indent(item)
    return str(item.trivia.indent)


def _spelled_like(key: str, like: tuple[Any, Any] | None, *, dotted: bool = False) -> Any:
    """The key ``key`` spelled as the dotted key ``like``: the spaces around dots and ``=``.

    ``a . b = 1``: `` d `` and ``= `` (``dotted``: `` c `` that a dot follows, ``a . c . e``).
    """
    from tomlkit.items import SingleKey, Table

    plain = SingleKey(key).as_string()
    if like is None:
        return SingleKey(key)
    spelled, leaf = like
    text = spelled.as_string()
    lead = text[: len(text) - len(text.lstrip())]  # after the dot before it
    before_dot = text[len(text.rstrip()) :] if spelled.is_dotted() else lead
    end = spelled
    while isinstance(leaf, Table):  # a.b.c = 1: the = is c's
        first = next((entry for entry in _body(leaf) or [] if entry[0] is not None), None)
        if first is None:
            break
        end, leaf = first
    if dotted:
        return SingleKey(key, original=lead + plain + before_dot)
    text = end.as_string()
    return SingleKey(key, sep=end.sep, original=lead + plain + text[len(text.rstrip()) :])


def _dotted_table(value: Mapping[str, Any], like: tuple[Any, Any] | None, indent: str) -> Any:
    """A table written by dotted keys (``c.d = 1``, ``c.e.f = 2``), spelled as ``like``."""
    from tomlkit.container import Container
    from tomlkit.items import Table, Trivia

    table = Table(Container(True), Trivia(), False, is_super_table=True)
    for key, sub in value.items():
        if isinstance(sub, Mapping) and sub:
            spelled = _spelled_like(key, like, dotted=True)
            spelled._dotted = True
            table.append(spelled, _dotted_table(sub, like, indent))
        else:
            spelled = _spelled_like(key, like)
            item = _value(sub)
            item.trivia.indent = indent
            table.append(spelled, item)
    return table


def _add_inline(table: Any, key: str, item: Any) -> None:
    """Add a key to an inline table after its last key, spaced as its keys are.

    :mod:`tomlkit` appends it after the space before the ``}`` (``{ a = 1, b = 2}``) and
    without a space after the comma when the table has none inside (``{a=1,b = 2}``).
    """
    from tomlkit.items import Whitespace

    body = table.value.body
    tail: list[Any] = []
    while body and body[-1][0] is None and isinstance(body[-1][1], Whitespace):
        if "," in body[-1][1].s:
            break
        tail.insert(0, body.pop()[1])  # the space before the closing brace
    if any(k is not None for k, _ in body):
        item.trivia.indent = " "
    table[key] = item
    body.extend((None, space) for space in tail)
