"""The full array reader: ``ijson`` (C backend) behind the depth guard, a duplicate-key hook per key, every error
worded with its JSON path and the item's id. :func:`himga.jsonio.iter_array_items` reads a file with it when its
one-pass fast path cannot vouch for an item (:mod:`himga.jsonio._fast`): it words the error, or reads on when
the signal was a false alarm.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio._depth import DepthGuard, OnceReader, TooDeep
from himga.jsonio._duplicate_keys import MarkedDict, duplicate_detail, duplicate_key, unique_key_dict
from himga.jsonio._identity import check_unchanged, file_identity
from himga.jsonio._numbers import NOT_FINITE
from himga.jsonio._sniff import blank, not_json
from himga.jsonio.compressed import open_source

__all__ = ["BOM", "first_byte", "full_array_items"]

#: A UTF-8 byte-order mark (accepted at the start of a file).
BOM = b"\xef\xbb\xbf"
#: The bytes yajl reads as whitespace that JSON does not (RFC 8259, section 2: space, tab, line feed and carriage
#: return only); unescaped in a string they are control characters, which JSON refuses there too.
_NOT_JSON_WHITESPACE = {b"\x0b": "a vertical tab (\\x0b)", b"\x0c": "a form feed (\\x0c)"}
_JSON_KINDS = {b"{": "object", b'"': "string", b"t": "boolean", b"f": "boolean", b"n": "null"}


def _ijson_backend():
    import ijson

    try:
        return ijson.get_backend("yajl2_c")
    except ImportError:  # a platform without the C extension: same results, slower
        return ijson


def first_byte(f) -> bytes:
    """Skip a byte-order mark and whitespace; return the first significant byte and rewind to it."""
    start = 3 if f.read(3) == BOM else 0
    f.seek(start)
    while True:
        chunk = f.read(1 << 12)
        if not chunk:
            return b""
        stripped = chunk.lstrip()
        if stripped:
            f.seek(start)
            return stripped[:1]
        start += len(chunk)


class _NotWhitespace(Exception):
    """A form feed or vertical tab in the text (:class:`_StrictWhitespace`); ``args[0]``: which, as worded."""


class _StrictWhitespace:
    """``f`` as ``ijson`` reads it, refusing what yajl alone would read as whitespace: a read hands on the bytes
    before the first form feed or vertical tab, and the next read raises :class:`_NotWhitespace`, so every
    item before it is read as usual (two ``bytes.find`` per read)."""

    def __init__(self, f) -> None:
        self._f = f
        self._found: str | None = None

    def read(self, n: int = -1) -> bytes:
        if self._found is not None:
            raise _NotWhitespace(self._found)
        data = self._f.read(n)
        cuts = [(i, byte) for byte in _NOT_JSON_WHITESPACE if (i := data.find(byte)) >= 0]
        if not cuts:
            return data
        cut, byte = min(cuts)
        self._found = _NOT_JSON_WHITESPACE[byte]
        if cut == 0:  # an empty read would end the text
            raise _NotWhitespace(self._found)
        return data[:cut]


def _item_id(path: Path, index: int, id_key: str) -> str | None:
    """Best effort: the ``id_key`` string of item ``index``, read again up to the point of failure."""
    backend = _ijson_backend()
    with open_source(path) as source:
        raw = source.data
        first_byte(raw)
        f = OnceReader(raw, guard=DepthGuard())  # never hand ijson what the first read refused
        try:
            for i, value in enumerate(backend.items(f, f"item.{id_key}", use_float=True)):
                if i == index:
                    return value if isinstance(value, str) else None
        except Exception:
            return None
    return None


def _top_level_id(f, id_key: str) -> str | None:
    """Best effort: the ``id_key`` string of a top-level object (a single item not wrapped in an array)."""
    try:
        value = next(iter(_ijson_backend().items(OnceReader(f, guard=DepthGuard()), id_key, use_float=True)), None)
    except Exception:
        return None
    return value if isinstance(value, str) else None


def full_array_items(
    path: Path, *, id_key: str | None = None, id_label: str | None = None, digest: Any = None
) -> Iterator[tuple[int, Any]]:
    """:func:`himga.jsonio.iter_array_items` by the full reader: ``ijson`` (C backend) behind the depth guard, a
    duplicate-key hook per key; every error worded with its JSON path and the item's id."""
    import ijson

    backend = _ijson_backend()
    index = 0
    with open_source(path, digest) as source:
        raw = source.raw
        before = file_identity(os.fstat(raw.fileno()))
        # every byte passes the depth guard before ijson's C backend (which does not bound nesting) sees it
        plain = source.compression is None  # else the digest is fed the file's compressed bytes by open_source
        f = OnceReader(source.data, *([digest.update] if digest is not None and plain else []), guard=DepthGuard())
        try:  # the depth guard may stop any read, the header's too
            if (error := not_json(path.name, f.read(1024), path.stat().st_size)) is not None:
                raise error
            f.seek(0)
            first = first_byte(f)
            if not first:
                raise SourceFormatError(path.name, "$", f"expected a JSON array, got {blank(f.tell())}")
            if first != b"[":
                kind = _JSON_KINDS.get(first, "number" if first in b"-0123456789" else None)
                detail = (
                    f"expected a JSON array at the top level, got {kind}"
                    if kind
                    else f"invalid JSON: unexpected {first!r} at the start"
                )
                if kind == "object" and id_key is not None and (item_id := _top_level_id(f, id_key)) is not None:
                    detail += f" ({id_label or id_key} {item_id}; put it inside [...] to read it)"
                raise SourceFormatError(path.name, "$", detail)
            map_type, duplicates = unique_key_dict()
            for item in backend.items(_StrictWhitespace(f), "item", use_float=True, map_type=map_type):
                if duplicates:  # in this item or a later one (ijson parses ahead, a buffer at a time)
                    index, where, key = _first_duplicate(path, index)
                    detail = duplicate_detail(key)
                    if id_key is not None and (item_id := _item_id(path, index, id_key)) is not None:
                        detail += f" ({id_label or id_key} {item_id})"
                    raise SourceFormatError(path.name, f"{where}.{key}", detail)
                yield index, item
                index += 1
            if digest is not None:
                f.finish()
                source.finish()
        except TooDeep as e:
            detail = e.detail
            if id_key is not None and e.index is not None and (item_id := _item_id(path, e.index, id_key)) is not None:
                detail += f" ({id_label or id_key} {item_id})"
            raise SourceFormatError(path.name, e.path, detail) from None
        except _NotWhitespace as e:
            detail = f"invalid JSON: {e.args[0]}, which JSON reads neither as whitespace nor unescaped in a string"
            if id_key is not None and (item_id := _item_id(path, index, id_key)) is not None:
                detail += f" ({id_label or id_key} {item_id})"
            raise SourceFormatError(path.name, f"$[{index}]", detail) from None
        except UnicodeDecodeError:  # yajl2_c on a lone surrogate escape in a key
            raise SourceFormatError(
                path.name, f"$[{index}]", "expected valid Unicode text, got a lone surrogate (\\uD800-\\uDFFF escape)"
            ) from None
        except ijson.JSONError as e:
            message = e.args[0] if e.args else str(e)
            if isinstance(message, bytes):
                message = message.decode("utf-8", "replace")
            lines = [line.strip() for line in str(message).splitlines() if line.strip()]
            detail = f"invalid JSON: {lines[0] if lines else type(e).__name__}"
            if "premature EOF" in detail:
                detail += " (truncated file?)"
            elif "floating point) overflow" in detail:  # yajl: a literal such as 1e400
                detail = f"{NOT_FINITE}: {detail.removeprefix('invalid JSON: ')}"
            elif "integer overflow" in detail:  # yajl2_c reads integers as 64-bit
                detail += (
                    " (this reader holds integers in 64 bits, -2**63+1 to 2**63-1; write a larger one as a string,"
                    " or as a float if precision does not matter)"
                )
            elif len(lines) > 2:  # yajl shows the text around the error, e.g. a NaN literal
                detail += f" near {lines[1][:80]!r}"
            if "trailing garbage" in detail:  # bytes after the array's closing ]: no item is at fault
                raise SourceFormatError(path.name, "$", f"{detail} (after the top-level array's closing ])") from None
            if id_key is not None and (item_id := _item_id(path, index, id_key)) is not None:
                detail += f" ({id_label or id_key} {item_id})"
            raise SourceFormatError(path.name, f"$[{index}]", detail) from None
        check_unchanged(path, raw, before)


def _first_duplicate(path: Path, start: int) -> tuple[int, str, str]:
    """``(item index, path of the object, key)`` of the first duplicate key in items ``start`` and later.

    Reads the file again marking duplicates (only after :func:`~himga.jsonio._duplicate_keys.unique_key_dict` logged
    one).
    """
    with open_source(path) as source:
        raw = source.data
        first_byte(raw)
        f = OnceReader(raw, guard=DepthGuard())  # not reached past the first read's depth error
        for i, item in enumerate(_ijson_backend().items(f, "item", use_float=True, map_type=MarkedDict)):
            if i >= start and (found := duplicate_key(item, f"$[{i}]")) is not None:
                return (i, *found)
    return start, f"$[{start}]", "?"  # not reached: the first read found one
