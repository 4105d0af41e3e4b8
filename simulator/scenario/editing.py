"""A scenario file's own text with some values changed: everything else as the person wrote it.

The workbench's save-as and ``calibrate``'s ``<stem>.calibrated.toml`` save a copy of a
designer's scenario with a few values changed. The designer's comments are how they annotate
their balance decisions: the copy is their text, edited in place with :mod:`tomlkit` (a TOML
library that keeps a document's layout), never a new file written from the mapping.

Every comment, blank line, key order, quoting and layout of what did not change is kept. A
changed value is replaced where it stands (a comment at the end of its line stays). A key the
file lacks is added after the last key of its table (before the comments that head the next
one); a table the file lacks is added at the end of the table that holds it, or of the file
(``[first_aid]``, ``[rules.table.grave]``), written as
:func:`~simulator.scenario.writing.to_toml` writes it; under dotted keys
(``patient.cp_rs = 8``) or in an inline table, a new table is an inline table. An item of an
array of tables is edited where it stands. A key the edited mapping no longer holds (an old
French name) is taken out.

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
from simulator.scenario.writing import to_toml, toml_value


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
        _sync(document, edited, flat=False)
        written = document.as_string()
        if written.endswith("\n\n") and not text.endswith("\n\n"):
            written = written.rstrip("\n") + "\n"  # a table added at the end: no blank line after
        read = tomllib.loads(written, parse_float=toml_float)
    except Exception:  # tomlkit's own errors, or one of its limits: written anew instead
        return None
    return written if same(read, edited) else None


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
    table (a ``[header]`` there would take the keys that follow it).
    """
    from tomlkit.items import AoT, InlineTable

    for key in [k for k in node if k not in target]:
        del node[key]
    for key, value in target.items():
        if key not in node:
            _add(node, key, value, flat=flat)
            continue
        current = node[key]
        if same(_plain(current), value):
            continue
        if isinstance(value, Mapping) and isinstance(current, InlineTable):
            if current.keys() <= value.keys():
                _sync(current, value, flat=True)
            else:  # keys taken out (tomlkit would leave their commas' spaces): written anew
                node[key] = _value(value)
        elif isinstance(value, Mapping) and _is_table(current):
            _sync(current, value, flat=flat or _dotted(node, key))
        elif isinstance(current, AoT) and _is_table_list(value):
            _sync_tables(current, key, value)
        elif isinstance(current, AoT) or (
            _is_table(current) and not isinstance(current, InlineTable)
        ):  # a table replaced by a value: written anew, where values go
            del node[key]
            _add(node, key, value, flat=flat)
        else:
            node[key] = _value(value)  # in place: its indent and end-of-line comment kept


def _sync_tables(tables: Any, key: str, target: list[Mapping[str, Any]]) -> None:
    """Edit an array of tables item by item; items added go after the last."""
    for index, value in enumerate(target[: len(tables)]):
        _sync(tables[index], value, flat=False)
    while len(tables) > len(target):
        del tables[len(tables) - 1]
    for value in target[len(tables) :]:
        tables.append(_fragment(key, [value])[0])


def _value(value: object) -> Any:
    """A value as tomlkit writes it: the text ``to_toml`` writes for it (``"30min"``)."""
    import tomlkit

    return tomlkit.value(toml_value(value))


def _fragment(key: str, value: object) -> Any:
    """A table (or array of tables) ``key`` holding ``value``, as ``to_toml`` writes it."""
    import tomlkit

    return tomlkit.parse(to_toml({key: value}) + "\n").item(key)


def _add(node: Any, key: str, value: object, *, flat: bool) -> None:
    """Add a key the table lacks where a person would put it.

    A value goes after the table's last key (before the comments that head its first
    ``[table]``), indented as that key is; a table goes at the table's end, after its own
    tables (inline where the table is ``flat``).
    """
    from tomlkit.items import AoT, Table

    body = _body(node)
    if not flat and body is not None and (isinstance(value, Mapping) or _is_table_list(value)):
        node[key] = _fragment(key, value)  # appended: after the table's own tables
        return
    item = _value(value)
    if body is None:
        node[key] = item
        return
    last = None  # the last key of the table, before its first [table] and the comments above it
    for index, (k, v) in enumerate(body):
        if isinstance(v, Table | AoT) and not (k is not None and k.is_dotted()):
            break
        if k is not None:
            last = index
    container = node.value if isinstance(node, Table) else node
    if last is None or last + 1 >= len(body) or not hasattr(container, "_insert_at"):
        node[key] = item
        return
    item.trivia.indent = body[last][1].trivia.indent  # indented as its neighbours are
    container._insert_at(last + 1, key, item)
