"""JSON Lines sources (``.jsonl``: one record per line, as evaluation harnesses write them), and the one
rule that tells a JSON Lines file from a JSON file.

A ``.jsonl`` file is read one line at a time, in bounded memory, each line parsed with the same checks
as a whole JSON file (:func:`himga.jsonio.reader.parse_json_text`: no ``NaN``, no duplicate key, UTF-8);
blank lines are skipped; errors name the file and the line (``q.jsonl: line 3: invalid JSON at column 17:
...``, ``q.jsonl: line 3.answer: ...``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio._content import ContentDigest
from himga.jsonio._identity import check_unchanged, file_identity
from himga.jsonio._sniff import json_lines_by_content, not_json
from himga.jsonio.compressed import open_source, plain_suffix
from himga.jsonio.reader import iter_array_items, load_json, parse_json_text

__all__ = ["JSON_LINES_SUFFIXES", "is_json_lines", "iter_json_lines", "iter_records", "leading_byte"]

#: File name suffixes read as JSON Lines.
JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")


def is_json_lines(path: str | Path) -> bool:
    """Whether ``path`` is read as JSON Lines: by its suffix (:data:`JSON_LINES_SUFFIXES`, any case; the one before a
    compression suffix for ``q.jsonl.gz``), else by its content: a file whose first line is one whole JSON object
    and which holds more after it (``longmemeval_oracle.json`` written by a harness one question a line).

    A ``.json`` file starting with ``[`` is JSON without reading further; a pretty-printed object's first line
    (``{``) is no whole value. Unreadable or undecodable bytes are left for the reader to report.
    """
    if plain_suffix(path) in JSON_LINES_SUFFIXES:
        return True
    try:
        with open_source(path) as source:
            return json_lines_by_content(source.data.read)
    except (OSError, ValueError, SourceFormatError):
        return False


def iter_json_lines(path: str | Path, *, digest: Any = None) -> Iterator[tuple[int, Any]]:
    """Stream the records of a JSON Lines file, one line at a time.

    Args:
        path: The file: UTF-8 (a byte-order mark on the first line is accepted), one JSON value per line.
        digest: A ``hashlib`` object updated with every byte of the file (complete once the iteration ends).

    Yields:
        ``(line number from 1, value)`` for each non-blank line.

    Raises:
        SourceFormatError: a line that is not valid JSON or not UTF-8 (named by its number), a file
            without any record, or something else in place of JSON (see :func:`himga.jsonio._sniff.not_json`).
        SourceChangedError: the file changed while it was read.
        OSError: the file cannot be read.
    """
    path = Path(path)
    count = 0
    with open_source(path, digest) as source:
        f, plain = source.data, source.compression is None
        before = file_identity(os.fstat(source.raw.fileno()))
        if (error := not_json(path.name, f.read(1024), path.stat().st_size)) is not None:
            raise error
        f.seek(0)
        for number, raw in enumerate(f, start=1):
            if digest is not None and plain:  # else open_source feeds it the compressed bytes
                digest.update(raw)
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                raise SourceFormatError(
                    path.name, f"line {number}", f"expected UTF-8 text, got invalid byte at column {e.start + 1}"
                ) from None
            if not text.strip():
                continue
            count += 1
            yield number, parse_json_text(path.name, text, f"line {number}")
        source.finish()
        check_unchanged(path, source.raw, before)
    if count == 0:
        raise SourceFormatError(path.name, "$", "expected JSON Lines (one record per line), got no record")


def iter_records(
    path: str | Path,
    *,
    id_key: str | None = None,
    id_label: str | None = None,
    digest: Any = None,
    content: ContentDigest | None = None,
    parallel: bool = False,
) -> Iterator[tuple[str, Any]]:
    """The records of a source file, streamed: a JSON Lines file's lines, a JSON array's items, or one object.

    Args:
        path: A ``.jsonl`` file (:func:`is_json_lines`) or a JSON file whose top level is an array.
        id_key, id_label, parallel: See :func:`himga.jsonio.reader.iter_array_items` (JSON files).
        digest: A ``hashlib`` object updated with every byte of the file.
        content: Fed each record, in order (:class:`~himga.jsonio.ContentDigest`): the content fingerprint.

    Yields:
        ``(where, record)``: ``where`` names the record in errors and keys, ``"$[212]"`` or ``"line 213"``;
        a JSON file whose top level is one object is that one record, ``"$"``.

    Raises:
        SourceFormatError, SourceChangedError, OSError: see :func:`iter_json_lines` and ``iter_array_items``.
    """
    if is_json_lines(path):
        for number, record in iter_json_lines(path, digest=digest):
            if content is not None:
                content.item(record)
            yield f"line {number}", record
    elif _starts_with_object(path):  # one record per file (a harness's one-question files): small, read whole
        record = load_json(path, digest=digest)
        if content is not None:
            content.item(record)
        yield "$", record
    else:
        for index, record in iter_array_items(
            path, id_key=id_key, id_label=id_label, digest=digest, content=content, parallel=parallel
        ):
            yield f"$[{index}]", record


def _starts_with_object(path: str | Path) -> bool:
    """Whether the file's first significant byte (after a byte-order mark and whitespace) is ``{``."""
    return leading_byte(path) == b"{"


def leading_byte(path: str | Path) -> bytes:
    """The file's first significant byte: after a byte-order mark and whitespace, decompressed (``b""``: none in
    its first 64 KiB).

    Raises:
        OSError: the file cannot be read.
    """
    with open_source(path) as source:
        head = source.data.read(1 << 16)
    return head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1]
