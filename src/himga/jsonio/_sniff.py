"""Recognizing what a file holds before parsing it: something else in place of JSON (:func:`not_json`: a Git LFS
pointer, an HTML page, an error text), or JSON Lines rather than one JSON document (:func:`json_lines_by_content`).

:func:`not_json` is called by both readers of :mod:`himga.jsonio.reader` on a file's first KiB, before parsing, so
that such a file gets an error saying what it is and how to get the real one instead of a JSON syntax error.
:func:`json_lines_by_content` is the one content rule of every route: sources
(:func:`himga.jsonio.jsonlines.is_json_lines`)
and a run's records (:func:`himga.jsonio.run_inputs.read_records`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from himga.errors import SourceFormatError

__all__ = ["blank", "json_lines_by_content", "not_json", "not_utf8"]

_BOM = b"\xef\xbb\xbf"

#: Leading bytes of compressed files that are not read → (format, the command that decompresses ``name``
#: beside itself). gzip, bzip2 and xz are read (:mod:`himga.jsonio.compressed`); here only when compressed twice.
_COMPRESSED = {
    b"\x1f\x8b": ("gzip", "gunzip -k"),
    b"BZh": ("bzip2", "bunzip2 -k"),
    b"\xfd7zXZ\x00": ("xz", "unxz -k"),
    b"\x28\xb5\x2f\xfd": ("zstd", "unzstd"),
    b"PK\x03\x04": ("zip", "unzip"),
}
_PARQUET = b"PAR1"
#: A first line longer than this is never taken for a JSON Lines record (a minified JSON file is one long line).
_FIRST_LINE_LIMIT = 1 << 26
_WORDS = re.compile(rb"[A-Za-z]{2,} [A-Za-z]{2,}")  # "Entry not found", "404: Not Found"


def blank(size: int) -> str:
    """What a reader says it got from a file that holds no JSON value, ``size`` bytes long (decompressed; a
    byte-order mark counted): ``an empty file``, or ``only whitespace (6 bytes)``."""
    return "an empty file" if size == 0 else f"only whitespace ({size:,} byte{'s' if size != 1 else ''})"


def not_utf8(name: str, data: bytes, start: int) -> SourceFormatError:
    """The error for ``data`` (a whole file) that ``data.decode("utf-8-sig")`` refused at ``start`` (the error's
    ``start``, which does not count a byte-order mark): where the byte is, by line, byte column (1-based) and offset
    in the file: ``x.json: $: expected UTF-8 text, got invalid byte 0xe9 at line 3 column 18 (offset 51)``."""
    start += len(_BOM) if data.startswith(_BOM) else 0
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return SourceFormatError(
        name,
        "$",
        f"expected UTF-8 text, got invalid byte {data[start]:#04x} at line {line} column {column} (offset {start})",
    )


#: Byte-order marks of the encodings that are not UTF-8 (a file saved as "Unicode" by some editors and by PowerShell's
#: ``>``), longest first: ``(what it is, its iconv name)``.
_WIDE_BOMS = {
    b"\xff\xfe\x00\x00": ("UTF-32 little-endian", "UTF-32LE"),
    b"\x00\x00\xfe\xff": ("UTF-32 big-endian", "UTF-32BE"),
    b"\xff\xfe": ("UTF-16 little-endian", "UTF-16LE"),
    b"\xfe\xff": ("UTF-16 big-endian", "UTF-16BE"),
}


def not_json(name: str, head: bytes, size: int, *, source: bool = True) -> SourceFormatError | None:
    """The error for a file that is something else in place of JSON, judged from its first bytes.

    Recognizes a compressed file (gzip, bzip2, xz, zstd, zip: by its leading bytes, whatever its name;
    the message names the format and the command that decompresses it), a Parquet file (a shard of a
    himga export, say: the message gives the way to load an export), a Git LFS pointer
    (``version https://git-lfs.github.com/spec/v1``: a clone without Git LFS), an HTML page (a web page saved instead of
    the raw file) and, for files under 1 KiB, a short
    text body that is not JSON (``Entry not found``, ``404: Not Found``: an error saved by a download).

    Args:
        name: The file's name, for the message.
        head: The file's first bytes (at least the first 1 KiB when the file is that long).
        size: The file's size in bytes.
        source: Whether the file is a benchmark's source (the advice is then to download the pinned file); ``False``
            for a run's own files (records, replies, requests): the advice is to pass the file the run wrote.

    Returns:
        A :class:`SourceFormatError` saying what the file is and how to get the real one, or ``None``.
    """
    for bom, (kind, encoding) in _WIDE_BOMS.items():  # longest first: UTF-32 LE begins as UTF-16 LE does
        if head.startswith(bom):
            return SourceFormatError(
                name,
                "$",
                f"expected UTF-8 text, got {kind} (its byte-order mark {bom.hex(' ')} says so): convert it first "
                f"(`iconv -f {encoding} -t UTF-8 {name} > {name}.utf8`) and pass the converted file",
            )
    for magic, (kind, command) in _COMPRESSED.items():
        if head.startswith(magic):
            return SourceFormatError(
                name,
                "$",
                f"expected JSON text, got a {kind}-compressed file: decompress it first (`{command} {name}`) "
                "and pass the decompressed file",
            )
    if head.startswith(_PARQUET):
        return SourceFormatError(
            name,
            "$",
            "expected JSON, got a Parquet file (a shard of a himga export?): load an export folder with "
            '`himga.data.samples_from_dataset(datasets.load_dataset("<export folder>", "<config>", split="test"))`',
        )
    text = head.removeprefix(_BOM).lstrip()
    fix = (
        "download the real file (`himga sources` lists the pinned URLs) or pass the right path"
        if source
        else "pass the file the run wrote (JSON Lines, or a JSON array)"
    )
    if text.startswith(b"version https://git-lfs.github.com/spec/v1"):
        fields = dict(line.split(" ", 1) for line in text.decode("utf-8", "replace").splitlines() if " " in line)
        detail = ", ".join(f"{k} {fields[k]}" for k in ("oid", "size") if k in fields)
        return SourceFormatError(
            name,
            "$",
            f"expected JSON, got a Git LFS pointer ({detail}), not the file itself: run `git lfs pull` in the "
            f"clone it comes from, or {fix}",
        )
    lowered = text[:512].lower()
    if lowered.startswith(b"<") and (b"<html" in lowered or b"<!doctype html" in lowered):
        detail = f"expected JSON, got an HTML page ({size:,} bytes; a web page saved in place of the file?): {fix}"
        return SourceFormatError(name, "$", detail)
    if size <= 1024 and text[:1] not in (b"[", b"{", b'"') and _WORDS.search(text):
        try:
            json.loads(text)
        except ValueError:
            body = text.decode("utf-8", "replace").strip()
            guess = "; an error message saved by a download?" if source else ""
            detail = f"expected JSON, got a short text {body[:80]!r} ({size} bytes{guess}): {fix}"
            return SourceFormatError(name, "$", detail)
    return None


def json_lines_by_content(read: Callable[[int], bytes]) -> bool:
    """Whether a stream holds JSON Lines, judged by its content: its first line is one whole JSON object and more
    follows it (``longmemeval_oracle.json`` written by a harness one question a line, a loop's ``results.json``).

    A stream starting with ``[`` is a JSON array without reading further; a pretty-printed object's first line
    (``{``) is no whole value, nor is a damaged one (the JSON reader then reports it); a single object on one line
    is one JSON document.

    Args:
        read: ``read(n)`` of the stream (a file's ``read``, or ``io.BytesIO(data).read``): up to ``n`` bytes, ``b""``
            at the end.
    """
    first = read(1 << 16).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not first.startswith(b"{"):
        return False
    line = first.partition(b"\n")
    while not line[1] and len(line[0]) < _FIRST_LINE_LIMIT and (more := read(1 << 20)):
        first += more
        line = first.partition(b"\n")
    head, newline, rest = line
    if not newline or not (rest.strip() or read(1 << 16).strip()):
        return False
    try:
        json.loads(head)
    except ValueError:
        return False
    return True
