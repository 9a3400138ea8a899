"""Reading JSON source files with errors that name the file and the position.

Small files (LoCoMo, 2.8 MB) are read whole with :func:`load_json`; LongMemEval files (up to ~2.5 GB)
are streamed one array item at a time with :func:`iter_array_items`. Both accept a UTF-8 byte-order
mark, reject the non-standard ``NaN``/``Infinity`` literals, an object holding the same key twice (JSON
parsers silently keep one of the values) and arrays or objects nested more than
:data:`~himga.jsonio._depth.MAX_DEPTH` levels deep, and raise :class:`~himga.errors.SourceChangedError`
if the file changed while it was read.

Each parses once, with ``msgspec``, every check folded into that parse (:mod:`himga.jsonio._fast`); for an
uncompressed array of 64 MiB or more the checks run in a second process beside the parse
(:mod:`himga.jsonio._beside`), which vouches for each item before it is yielded. What that pass cannot vouch
for is read again by the full reader, which words the error: ``json`` with hooks for whole documents,
``ijson`` (C backend) for arrays, both behind the depth guard (checked on the bytes before the parser sees
them: neither bounds nesting in memory).
"""

from __future__ import annotations

import json
import lzma
import math
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio._beside import checks_beside, end_checks, spanned_items, start_checks
from himga.jsonio._content import ContentDigest
from himga.jsonio._depth import MAX_DEPTH, DepthGuard, OnceReader, TooDeep
from himga.jsonio._duplicate_keys import DuplicateKey, duplicate_detail, duplicate_key, marking_hook, unique_keys, walk
from himga.jsonio._fast import Fallback, array_items, canonical, decode
from himga.jsonio._full import BOM, first_byte, full_array_items
from himga.jsonio._identity import check_unchanged, file_identity
from himga.jsonio._numbers import NOT_FINITE, TooManyDigits, bounded_int, finite_float
from himga.jsonio._sniff import blank, not_json, not_utf8
from himga.jsonio.compressed import open_source

__all__ = ["iter_array_items", "load_json", "parse_json_text", "reject_constant"]


class _Literal(str):
    """A ``NaN``/``Infinity`` literal kept by a second parse, to find its JSON path."""


def reject_constant(name: str) -> Any:
    """``parse_constant`` hook: ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON."""
    raise ValueError(f"non-standard JSON literal {name}")


def load_json(path: str | Path, *, digest: Any = None) -> Any:
    """Parse a whole JSON file.

    Args:
        path: The file. UTF-8, with or without a byte-order mark.
        digest: A ``hashlib`` object updated with the file's bytes (the one read shared with the parse).

    Returns:
        The JSON value (dicts, lists, str, int, float, bool, None).

    Raises:
        SourceFormatError: the file is empty, not UTF-8, not valid JSON, uses ``NaN``/``Infinity``, is
            nested more than :data:`~himga.jsonio._depth.MAX_DEPTH` levels deep (path ``$[i]``), holds a lone surrogate
            escape (``"\\ud800"``, which Arrow cannot store) or an object with a duplicate key; the message names the
            file and the line and column (or the JSON path, e.g. ``$[0].conversation.session_1``). A Git LFS pointer, an
            HTML page or a short error text says so (see :func:`not_json`).
        SourceChangedError: the file changed while it was read.
        OSError: the file cannot be read.
    """
    path = Path(path)
    with open_source(path, digest) as source:
        before = file_identity(os.fstat(source.raw.fileno()))
        data = source.data.read()
        source.finish()
        check_unchanged(path, source.raw, before)
    if digest is not None and source.compression is None:
        digest.update(data)
    if (error := not_json(path.name, data[:1024], len(data))) is not None:
        raise error
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise not_utf8(path.name, data, e.start) from None
    if not text.strip():
        raise SourceFormatError(path.name, "$", f"expected a JSON document, got {blank(len(data))}")
    return parse_json_text(path.name, text, data=data)


def parse_json_text(name: str, text: str, where: str = "$", *, data: bytes | None = None) -> Any:
    """Parse one JSON document (a whole file, or one line of a JSON Lines file) with :func:`load_json`'s checks.

    Args:
        name: The file's name, for errors.
        text: The document.
        where: Its path in errors: ``"$"`` for a whole file, ``"line 7"`` for a line.
        data: ``text``'s bytes when at hand (the depth check reads bytes).

    Raises:
        SourceFormatError: invalid JSON (with line and column; only the column for a line), ``NaN``/
            ``Infinity``, a number beyond a double, an integer of more digits than Python converts (4,300), nested more
            than :data:`~himga.jsonio._depth.MAX_DEPTH` levels, a duplicate key or a lone surrogate (with the JSON path
            below ``where``).
    """
    data = data.removeprefix(BOM) if data is not None else text.encode("utf-8", "surrogatepass")
    try:
        return decode(data, MAX_DEPTH)  # the one-pass fast path (himga.jsonio._fast); else the full reader words it
    except Fallback:
        pass
    try:
        DepthGuard().feed(data)
    except TooDeep as e:
        raise SourceFormatError(name, where + e.path[1:] if e.path.startswith("$") else e.path, e.detail) from None
    overflow: list[str] = []  # number literals beyond a double's range (json makes them inf)
    try:
        value = json.loads(
            text,
            parse_constant=reject_constant,
            object_pairs_hook=unique_keys,
            parse_float=finite_float(overflow),
            parse_int=bounded_int,
        )
    except TooManyDigits as e:
        at = f" at line {text.count(chr(10), 0, text.find(e.literal)) + 1}" if where == "$" else ""
        raise SourceFormatError(
            name,
            where,
            f"expected an integer of at most {e.limit:,} digits, got one of {len(e.literal.lstrip('-')):,}{at}",
        ) from None
    except DuplicateKey:
        at, key = duplicate_key(json.loads(text, object_pairs_hook=marking_hook), where) or (where, "?")
        raise SourceFormatError(name, f"{at}.{key}", duplicate_detail(key)) from None
    except json.JSONDecodeError as e:
        position = f"line {e.lineno} column {e.colno}" if where == "$" else f"column {e.colno}"
        if (
            e.msg == "Invalid control character at"
        ):  # json's wording ends at "at": the position follows in its own message
            raise SourceFormatError(
                name, where, f"invalid JSON at {position}: control character {text[e.pos]!r} unescaped in a string"
            ) from None
        if e.msg == "Extra data":  # a complete value, then more: not a cut file
            raise SourceFormatError(
                name,
                where,
                f"invalid JSON at {position}: Extra data (bytes after the complete "
                f"{'document' if where == '$' else 'value'})",
            ) from None
        raise SourceFormatError(
            name, where, f"invalid JSON at {position}: {e.msg} (truncated or corrupted file?)"
        ) from None
    except (
        ValueError
    ) as e:  # from reject_constant; a whole document is parsed again, the literal kept, to name its path
        found = walk(json.loads(text, parse_constant=_Literal), where)  # a line's field too: "line 7.meta.latency"
        at = next((at for at, item in found if type(item) is _Literal), where)
        raise SourceFormatError(name, at, f"expected standard JSON, got {e}") from None
    except RecursionError:
        raise SourceFormatError(name, where, "invalid JSON: nested too deeply") from None
    if overflow:
        at = next((at for at, item in walk(value, where) if isinstance(item, float) and math.isinf(item)), where)
        raise SourceFormatError(name, at, f"{NOT_FINITE}, got {overflow[0][:40]}")
    if _SURROGATE_ESCAPE.search(text) and (at := _lone_surrogate(value, where)) is not None:
        # "\ud800" is valid JSON syntax but not text: Arrow (UTF-8) cannot store it
        raise SourceFormatError(name, at, "expected valid Unicode text, got a lone surrogate (\\uD800-\\uDFFF escape)")
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_surrogate(value: Any, base: str = "$") -> str | None:
    """The JSON path of the first string (or the object holding the first key) with a lone surrogate."""
    for where, item in walk(value, base):
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return where
        elif isinstance(item, dict) and any(_SURROGATE.search(k) for k in item):
            return where
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def iter_array_items(
    path: str | Path,
    *,
    id_key: str | None = None,
    id_label: str | None = None,
    digest: Any = None,
    content: ContentDigest | None = None,
    parallel: bool = False,
) -> Iterator[tuple[int, Any]]:
    """Stream the items of a top-level JSON array, one at a time, in bounded memory.

    One pass: ``msgspec`` splits the array into items and parses each once, with every check folded into
    that parse (:mod:`himga.jsonio._fast`); the whole file is never held in memory, only the item being
    yielded. With ``parallel``, for an uncompressed file of 64 MiB or more on a machine with two CPUs, a second
    process splits the file and runs the checks while this one parses (:mod:`himga.jsonio._beside`); each item
    is still yielded only once it is vouched for, so the items and errors are the same. An item the fast path cannot
    vouch for (a malformed or hostile one) is read again by the full
    reader (``ijson`` C backend behind the depth guard), which words the error. Numbers: integers as
    ``int``, others as ``float``; objects as ``dict`` (test with ``isinstance(x, dict)``: the full reader's
    are a subclass).

    Args:
        path: The file. UTF-8, with or without a byte-order mark; its top level must be an array.
        id_key: A key of the items (e.g. ``"question_id"``); when an item is malformed, its value is
            read again (best effort) to name the item in the error.
        id_label: The word naming the item in errors (default ``id_key``): ``(question 7161e7e2)``.
        digest: A ``hashlib`` object updated with every byte of the file as the parse reads it (one pass);
            complete once the iteration has ended.
        content: Fed the items (:class:`~himga.jsonio.ContentDigest`): the content fingerprint from the same
            parse; complete once the iteration has ended.
        parallel: Let a second process run the checks (see above): for a caller that reads every item, such as
            a cache build (docs/benchmarks.md); the first item then waits for that process to start (~0.2 s),
            so a caller after the first items, such as a stream, leaves it off.

    Yields:
        ``(index, item)`` pairs, index from 0, in file order.

    Raises:
        SourceFormatError: the file is empty, its top level is not an array, it is not valid JSON
            (truncated, not UTF-8, ``NaN``/``Infinity``, trailing garbage), or an object holds a key
            twice; the message names the file, the item (``$[212]``, or the key's path such as
            ``$[3].answer``) and, with ``id_key``, its id, e.g.
            ``s.json: $[499]: invalid JSON: parse error: premature EOF (truncated file?) (question 7161e7e2)``.
            A Git LFS pointer, an HTML page or a short error text says so (see :func:`not_json`).
        SourceChangedError: the file changed while it was read (raised after the last item).
        OSError: the file cannot be read.
    """
    path = Path(path)
    done = 0  # items yielded by the fast path
    checks = None  # the check process, for a large file (himga.jsonio._beside)
    with open_source(path, digest) as source:
        raw = source.raw
        before = file_identity(os.fstat(raw.fileno()))
        plain = source.compression is None  # else the digest is fed the file's compressed bytes by open_source
        f = OnceReader(source.data, *([digest.update] if digest is not None and plain else []))
        try:
            if not_json(path.name, f.read(1024), path.stat().st_size) is not None:
                raise Fallback(0)
            f.seek(0)
            first_byte(f)
            if parallel and checks_beside(before[0], not plain):
                checks = start_checks(path, MAX_DEPTH - 1, content is not None)
            items = (
                spanned_items(f, checks)
                if checks is not None
                else array_items(f, MAX_DEPTH - 1, content.item_text if content is not None else None)
            )
            for item in items:
                yield done, item
                done += 1
            if checks is not None:
                end_checks(path, checks, done, before, content)
        except (Fallback, EOFError, zlib.error, lzma.LZMAError, OSError):  # the full reader words what it is
            if checks is not None:
                checks.close()
            check_unchanged(path, raw, before)  # the full reader opens the path again: it must still be this file
            full = full_array_items(path, id_key=id_key, id_label=id_label)
            for index, item in full:
                if content is not None and (checks is not None or index >= done):  # beside: none fed yet
                    content.item_text(canonical(item))
                if index >= done:
                    yield index, item
        finally:
            if checks is not None:
                checks.close()
        if digest is not None:
            f.finish() if plain else source.finish()
        check_unchanged(path, raw, before)
