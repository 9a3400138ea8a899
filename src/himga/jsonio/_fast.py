"""The one-pass fast path of the JSON readers: ``msgspec`` parses, and every check rides on that parse.

:func:`array_items` splits a top-level array into items at C speed (``msgspec.Raw``, read in blocks, so
memory holds one item, never the file) and decodes each item once with ``msgspec``; :func:`decode` does the
same for one whole document. The checks of :mod:`himga.jsonio.reader` are folded into that parse:

- syntax, UTF-8, ``NaN``/``Infinity``, numbers beyond a double, lone surrogates, control characters in
  strings: ``msgspec`` refuses them while it parses;
- nesting depth and (for the array reader) integers beyond 64 bits: one walk over the decoded containers,
  a level at a time (:func:`_tree_ok`). ``msgspec`` bounds nesting by the interpreter's recursion limit,
  so a hostile depth costs no memory before the walk;
- duplicate keys: ``msgspec`` keeps the last value of a repeated key, so the ``:`` bytes of the item are
  counted against those of its canonical re-encoding (:func:`_same_keys`): equal exactly when no key was
  dropped;
- the content fingerprint: that same canonical text (:func:`canonical`, ``orjson``), handed on.

Anything the fast path cannot vouch for raises :class:`Fallback` with the item's index, before that item is
yielded: the full reader (ijson, the depth guard, json's hooks) then reads the file again and raises the
exact error it always raised (file, JSON path, question id), or reads on when the signal was a false alarm.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any, BinaryIO

import msgspec
import orjson

__all__ = ["Fallback", "array_items", "canonical", "decode", "parse_item"]

_BLOCK = 1 << 22  # bytes per read: 4 MiB
_DECODER = msgspec.json.Decoder()
_RAW = msgspec.json.Decoder(msgspec.Raw)
# msgspec's message when a complete value is followed by more bytes: the 1-based offset of the first one
_TRAILING = re.compile(r"trailing characters \(byte (\d+)\)")
_AT_BYTE = re.compile(r"\(byte (\d+)\)")  # where msgspec found the input malformed
#: Bytes of one item held before the fast path gives up on it (msgspec reads a lone surrogate escape as a
#: cut input, so a hostile file would otherwise be read whole): the full reader streams it instead.
_ITEM_LIMIT = 1 << 28
_NUMBER_CUT = 64  # an error this close to the end of what was read may be a number the read cut: read more
_WHITESPACE = b" \t\r\n"
_NODES = frozenset((dict, list, int))  # what the walk looks at; strings, floats, booleans and null are leaves
_INT64 = (-(2**63 - 1), 2**63 - 1)  # what ijson's C backend (yajl) reads; the array reader refuses more


class Fallback(Exception):
    """The fast path cannot vouch for the input at item ``index`` (``None``: a whole document)."""

    def __init__(self, index: int | None) -> None:
        super().__init__(index)
        self.index = index


def canonical(value: Any) -> bytes:
    """The canonical JSON text of a parsed value, UTF-8: object keys sorted, no whitespace, strings escaped
    only where JSON requires (``"``, ``\\``, control characters), numbers as ``orjson`` writes them.

    ``orjson.dumps(value, option=orjson.OPT_SORT_KEYS)``; a value holding an integer beyond 64 bits (which
    ``orjson`` does not write) is written by ``json.dumps(value, ensure_ascii=False, sort_keys=True,
    separators=(",", ":"), allow_nan=False)``. The content fingerprint of :mod:`himga.sources` is the
    sha256 of this text. For parsed JSON only: the readers never hold ``NaN`` or an infinity (``orjson``
    would write ``null``).
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False).encode(
            "utf-8"
        )


def _tree_ok(value: Any, levels: int, int64: bool) -> bool:
    """Whether ``value`` nests at most ``levels`` arrays/objects deep and, with ``int64``, holds no integer
    outside 64 bits: one walk over its containers, a level at a time (the leaves are skipped in C)."""
    low, high = _INT64
    frontier = [value]
    while frontier:
        nodes = [v for v in frontier if type(v) in _NODES]
        if int64 and (ints := [v for v in nodes if type(v) is int]) and (min(ints) < low or max(ints) > high):
            return False
        dicts = [v for v in nodes if type(v) is dict]
        lists = [v for v in nodes if type(v) is list]
        if not dicts and not lists:
            return True
        if levels == 0:
            return False
        levels -= 1
        frontier = list(chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists)))
    return True


def _same_keys(raw: bytes, text: bytes) -> bool:
    """Whether the JSON text ``raw`` and ``text``, the re-encoding of its parse, hold the same number of keys.

    A ``:`` byte of JSON text is a key's separator or a character of a string (``\\u003a`` writes one
    without the byte; the encoders of :func:`canonical` never do). A parse that kept one value of a
    repeated key dropped at least one separator, and strings only with it, so the counts differ exactly
    when a key was dropped (an escaped backslash before ``u003a`` is counted as an escape too: a false alarm
    at worst, never a miss).
    """
    escaped = raw.count(b"\\u003a") + raw.count(b"\\u003A") if b"\\u003" in raw else 0
    return _colons(raw) + escaped == _colons(text)


def _colons(data: bytes) -> int:
    """The number of ``:`` bytes in ``data`` (numpy, a dependency of ``datasets``: ~3x ``bytes.count``)."""
    import numpy

    return int(numpy.count_nonzero(numpy.frombuffer(data, numpy.uint8) == 58))


def _checked(raw: bytes, levels: int, int64: bool, content: Callable[[bytes], Any] | None, index: int | None) -> Any:
    """Decode ``raw`` with every check; feed ``content`` its canonical text. Raises :class:`Fallback`."""
    try:
        value = _DECODER.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        raise Fallback(index) from None
    if not _tree_ok(value, levels, int64):
        raise Fallback(index)
    text = canonical(value)
    if not _same_keys(raw, text):
        raise Fallback(index)
    if content is not None:
        content(text)
    return value


def parse_item(raw: bytes, index: int) -> Any:
    """Item ``index``, parsed without the checks (another process runs them: :mod:`himga.jsonio._beside`).

    Raises:
        Fallback: ``raw`` is not one JSON value, or nests deeper than the interpreter's recursion limit.
    """
    try:
        return _DECODER.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        raise Fallback(index) from None


def decode(data: bytes, levels: int) -> Any:
    """One whole JSON document (no byte-order mark), checked as :mod:`himga.jsonio.reader` checks it.

    Integers of any size are kept exactly (as ``json`` does). Raises :class:`Fallback` (``index`` ``None``).
    """
    return _checked(data, levels, False, None, None)


def array_items(
    f: BinaryIO,
    levels: int,
    content: Callable[[bytes], Any] | None = None,
    spans: Callable[[int, int], Any] | None = None,
) -> Iterator[Any]:
    """The items of the top-level array that ``f`` is positioned at (its ``[``, or whitespace before it), checked,
    in file order.

    Args:
        f: A binary stream; read in blocks of 4 MiB to its end.
        levels: The nesting allowed inside one item.
        content: Called with each item's canonical JSON text (:func:`canonical`), in order.
        spans: Called with each item's extent in ``f`` (offsets of its first byte and of the byte after its last),
            before the item is yielded.

    Yields:
        Each item (objects as ``dict``, integers within 64 bits).

    Raises:
        Fallback: at the first item the fast path cannot vouch for (its index), or after the last one
            (the array is not closed, or bytes follow it).
    """
    buf, pos, index, eof = b"", 0, 0, False
    base = f.tell() if spans is not None else 0  # the offset in f of buf[0]

    def more(need: int) -> bool:
        nonlocal buf, pos, eof, base
        if eof:
            return False
        chunk = f.read(max(_BLOCK, need))
        if not chunk:
            eof = True
            return False
        base += pos
        buf = buf[pos:] + chunk
        pos = 0
        return True

    def next_byte() -> bytes:  # the next byte that is not whitespace ('' at the end), left at pos
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in _WHITESPACE:
                pos += 1
            if pos < len(buf) or not more(0):
                return buf[pos : pos + 1]

    if next_byte() != b"[":
        raise Fallback(0)
    pos += 1
    if next_byte() == b"]":
        pos += 1
    else:
        while True:
            start = pos
            while True:  # the item's extent: msgspec skips one value and reports where the next byte is
                try:
                    _RAW.decode(memoryview(buf)[start:])
                except msgspec.DecodeError as e:
                    found = _TRAILING.search(str(e))
                    if found is not None:
                        end = start + int(found.group(1)) - 1
                        break
                    at = _AT_BYTE.search(str(e))  # a number cut by the read ("12." or "-") reads as malformed
                    if at is not None and start + int(at.group(1)) < len(buf) - _NUMBER_CUT:
                        raise Fallback(index) from None
                except RecursionError:
                    raise Fallback(index) from None
                if len(buf) - start > _ITEM_LIMIT or not more(len(buf) - pos):  # cut by the read: read more
                    raise Fallback(index)
                start = pos
            item = _checked(buf[start:end], levels, True, content, index)
            if spans is not None:
                spans(base + start, base + end)
            yield item
            index += 1
            pos = end
            separator = next_byte()
            pos += 1
            if separator == b"]":
                break
            if separator != b",":
                raise Fallback(index)
    if next_byte():
        raise Fallback(index)
