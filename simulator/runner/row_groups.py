"""One parquet file from row groups encoded apart: ``trials.parquet`` encoded on every core.

pyarrow's parquet writer encodes the row groups of a file one after the other, on one
thread: for a large run that was the one part of the command that more cores did not
shorten (``docs/scaling.md``). Each row group of a parquet file is encoded independently of
the others (its pages, its dictionaries, its statistics), so it can be encoded alone, as a
file of one row group in memory (:func:`encode`), on any thread (pyarrow lets go of the
interpreter's lock meanwhile), and the files joined in order (:class:`Joiner`): their row
groups' bytes one after the other, then one footer, the first file's with every row group
listed and each of their positions in the file moved to where its bytes now lie.

The footer is Thrift's compact protocol (the parquet format's ``FileMetaData``); this module
reads and writes that protocol whole (:func:`_read`, :func:`_write`, which give back the very
bytes they read) and changes only the fields that say where a row group's bytes lie, its
ordinal and the number of rows. The file is byte for byte the one pyarrow writes of the same
row groups in one go (``tests/runner/test_row_groups.py``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

MAGIC = b"PAR1"

# Thrift's compact protocol: the types of a field, as its header's low four bits give them.
_TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(1, 13)

# parquet.thrift's field ids of what a row group's move changes
_FILE_NUM_ROWS, _FILE_ROW_GROUPS = 3, 4
_GROUP_COLUMNS, _GROUP_FILE_OFFSET, _GROUP_ORDINAL = 1, 5, 7
_CHUNK_FILE_OFFSET, _CHUNK_META = 2, 3
_CHUNK_OFFSET_INDEX, _CHUNK_COLUMN_INDEX = 4, 6
_META_DATA_PAGE, _META_INDEX_PAGE, _META_DICTIONARY_PAGE, _META_BLOOM = 9, 10, 11, 14


@dataclass
class _Struct:
    """A Thrift struct as read: its fields in the order they came, ``(id, type, value)``."""

    fields: list[list[Any]]

    def get(self, field: int) -> list[Any] | None:
        return next((f for f in self.fields if f[0] == field), None)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _zigzag(value: int) -> int:
    return (value >> 1) ^ -(value & 1)


def _value(data: bytes, at: int, kind: int) -> tuple[Any, int]:
    if kind in (_TRUE, _FALSE):  # inside a list: one byte each
        return data[at] == _TRUE, at + 1
    if kind == _BYTE:
        return struct.unpack_from("b", data, at)[0], at + 1
    if kind in (_I16, _I32, _I64):
        raw, at = _varint(data, at)
        return _zigzag(raw), at
    if kind == _DOUBLE:
        return struct.unpack_from("<d", data, at)[0], at + 8
    if kind == _BINARY:
        size, at = _varint(data, at)
        return data[at : at + size], at + size
    if kind in (_LIST, _SET):
        head = data[at]
        at += 1
        size, element = head >> 4, head & 0x0F
        if size == 15:
            size, at = _varint(data, at)
        items = []
        for _ in range(size):
            item, at = _value(data, at, element)
            items.append(item)
        return (element, items), at
    if kind == _MAP:
        size, at = _varint(data, at)
        if size == 0:
            return (0, 0, []), at
        types = data[at]
        at += 1
        pairs = []
        for _ in range(size):
            key, at = _value(data, at, types >> 4)
            item, at = _value(data, at, types & 0x0F)
            pairs.append((key, item))
        return (types >> 4, types & 0x0F, pairs), at
    if kind == _STRUCT:
        return _read(data, at)
    raise ValueError(f"not a Thrift compact type: {kind}")


def _read(data: bytes, at: int = 0) -> tuple[_Struct, int]:
    """The struct that starts at ``data[at]``, and where it ends."""
    fields: list[list[Any]] = []
    last = 0
    while True:
        head = data[at]
        at += 1
        if head == 0:
            return _Struct(fields), at
        delta, kind = head >> 4, head & 0x0F
        if delta:
            field = last + delta
        else:
            raw, at = _varint(data, at)
            field = _zigzag(raw)
        if kind in (_TRUE, _FALSE):
            value: Any = kind == _TRUE
        else:
            value, at = _value(data, at, kind)
        fields.append([field, kind, value])
        last = field


def _put_varint(out: bytearray, value: int) -> None:
    while True:
        if value < 0x80:
            out.append(value)
            return
        out.append((value & 0x7F) | 0x80)
        value >>= 7


def _put_value(out: bytearray, kind: int, value: Any) -> None:
    if kind in (_TRUE, _FALSE):
        out.append(_TRUE if value else _FALSE)
    elif kind == _BYTE:
        out += struct.pack("b", value)
    elif kind in (_I16, _I32, _I64):
        _put_varint(out, (value << 1) ^ (value >> 63))
    elif kind == _DOUBLE:
        out += struct.pack("<d", value)
    elif kind == _BINARY:
        _put_varint(out, len(value))
        out += value
    elif kind in (_LIST, _SET):
        element, items = value
        if len(items) < 15:
            out.append(len(items) << 4 | element)
        else:
            out.append(0xF0 | element)
            _put_varint(out, len(items))
        for item in items:
            _put_value(out, element, item)
    elif kind == _MAP:
        key_kind, item_kind, pairs = value
        _put_varint(out, len(pairs))
        if pairs:
            out.append(key_kind << 4 | item_kind)
        for key, item in pairs:
            _put_value(out, key_kind, key)
            _put_value(out, item_kind, item)
    elif kind == _STRUCT:
        _write(out, value)
    else:
        raise ValueError(f"not a Thrift compact type: {kind}")


def _write(out: bytearray, value: _Struct) -> None:
    """Append a struct as Thrift's compact protocol writes it."""
    last = 0
    for field, kind, item in value.fields:
        wire = (_TRUE if item else _FALSE) if kind in (_TRUE, _FALSE) else kind
        if 0 < field - last <= 15:
            out.append((field - last) << 4 | wire)
        else:
            out.append(wire)
            _put_varint(out, (field << 1) ^ (field >> 63))
        if kind not in (_TRUE, _FALSE):
            _put_value(out, kind, item)
        last = field
    out.append(0)


def _moved(group: _Struct, by: int, ordinal: int) -> _Struct:
    """A row group's metadata with every position in the file moved by ``by`` bytes."""

    def shift(fields: _Struct, ids: tuple[int, ...]) -> None:
        for entry in fields.fields:  # 0: not written (pyarrow leaves a chunk's file_offset 0)
            if entry[0] in ids and entry[1] == _I64 and entry[2]:
                entry[2] += by

    shift(group, (_GROUP_FILE_OFFSET,))
    ordinal_field = group.get(_GROUP_ORDINAL)
    if ordinal_field is not None:
        ordinal_field[2] = ordinal
    columns = group.get(_GROUP_COLUMNS)
    assert columns is not None
    for chunk in columns[2][1]:
        shift(chunk, (_CHUNK_FILE_OFFSET, _CHUNK_OFFSET_INDEX, _CHUNK_COLUMN_INDEX))
        meta = chunk.get(_CHUNK_META)
        if meta is not None:
            shift(meta[2], (_META_DATA_PAGE, _META_INDEX_PAGE, _META_DICTIONARY_PAGE, _META_BLOOM))
    return group


def _footer(data: bytes | memoryview) -> tuple[_Struct, int]:
    """A one-file parquet's footer, read, and where its row groups' bytes end."""
    if bytes(data[:4]) != MAGIC or bytes(data[-4:]) != MAGIC:
        raise ValueError("not a parquet file")
    size = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - size
    footer, end = _read(bytes(data[start:]), 0)
    end += start
    if end != len(data) - 8:
        raise ValueError("a parquet footer that is not one Thrift struct")
    return footer, start


def encode(write: Callable[[BinaryIO], None]) -> memoryview:
    """The bytes of a parquet file that ``write`` writes into an in-memory sink (not copied)."""
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    write(sink)
    return memoryview(sink.getvalue())


class Joiner:
    """Writes parquet files of the same schema, each of row groups, as one file, in order.

    ``add`` each file's bytes in the order their rows go; ``close`` writes the footer.
    """

    def __init__(self, out: BinaryIO):
        self._out = out
        self._at = 0
        self._first: _Struct | None = None
        self._groups: list[_Struct] = []
        self._rows = 0
        self._files = 0

    @property
    def files(self) -> int:
        """How many files were added."""
        return self._files

    def add(self, data: bytes | memoryview) -> None:
        """Append the row groups of one parquet file (its bytes, whole)."""
        footer, end = _footer(data)
        if self._first is None:
            self._first = footer
            self._out.write(MAGIC)
            self._at = len(MAGIC)
        by = self._at - len(MAGIC)  # its row groups' bytes start after its own magic
        groups = footer.get(_FILE_ROW_GROUPS)
        rows = footer.get(_FILE_NUM_ROWS)
        assert groups is not None and rows is not None
        for group in groups[2][1]:
            self._groups.append(_moved(group, by, len(self._groups)))
        self._rows += rows[2]
        self._files += 1
        body = memoryview(data)[len(MAGIC) : end]
        self._out.write(body)
        self._at += len(body)

    def close(self) -> None:
        """Write the footer: the first file's, listing every row group and row."""
        if self._first is None:
            raise ValueError("no parquet file to join")
        fields = self._first.fields
        for entry in fields:
            if entry[0] == _FILE_NUM_ROWS:
                entry[2] = self._rows
            elif entry[0] == _FILE_ROW_GROUPS:
                entry[2] = (entry[2][0], self._groups)
        footer = bytearray()
        _write(footer, self._first)
        self._out.write(bytes(footer))
        self._out.write(len(footer).to_bytes(4, "little"))
        self._out.write(MAGIC)
