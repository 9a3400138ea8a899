"""The one reader of a run's own input files: predictions (a JSON array or JSON Lines, told apart by content), judge
verdicts (JSON Lines) and ids files (text lines).

Each file is read once, as bytes (a named pipe or ``/dev/stdin`` works, ``-`` is standard input), and its
sha256 is of exactly those bytes, for the run record. The guarantees are those of the source readers
(:mod:`himga.jsonio.jsonlines`): a UTF-8 byte-order mark is accepted, a byte that is not UTF-8 is a
:class:`~himga.errors.SourceFormatError` naming ``file: line N``; each JSON line is parsed by
:func:`himga.jsonio.reader.parse_json_text` (nesting bound :data:`~himga.jsonio.MAX_DEPTH`, duplicate keys,
finite numbers, with the line's JSON path); every id is checked by :func:`himga.identifiers.id_problem`
(at most :data:`~himga.identifiers.MAX_QUALIFIED_ID_LENGTH` characters, no control characters) before any
message shows it. A line longer than :data:`MAX_LINE_BYTES` (64 MiB) stops the read with an error naming ``file: line
N``: ``/dev/zero`` or an endless line would otherwise grow the process without bound.
"""

from __future__ import annotations

import hashlib
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, type_name
from himga.identifiers import MAX_QUALIFIED_ID_LENGTH, id_problem
from himga.jsonio._sniff import blank, json_lines_by_content, not_json, not_utf8
from himga.jsonio.reader import parse_json_text

__all__ = [
    "MAX_LINE_BYTES",
    "STDIN",
    "InputFile",
    "check_id",
    "input_name",
    "read_id_lines",
    "read_json_lines",
    "read_records",
]

#: The name that reads standard input.
STDIN = "-"
#: An input's longest id, in characters: a LoCoMo query id qualifies a ``sample_id`` (``conv-26:0``).
MAX_INPUT_ID_LENGTH = MAX_QUALIFIED_ID_LENGTH
#: An input's longest line, in bytes (its newline not counted): a record of JSON Lines, an id, or a JSON array written
#: on one line. Reading stops there (``/dev/zero`` or an endless line would exhaust memory): a one-line array
#: larger than this is refused; JSON Lines (one record per line) has no limit on the file.
MAX_LINE_BYTES = 64 * 2**20
_CHUNK = 1 << 20


@dataclass
class InputFile:
    """One input file as read.

    Attributes:
        name: Its name for messages and the run record (``"<stdin>"`` for ``-``).
        sha256: The sha256 of the bytes read (hex).
        lines: ``(line number from 1, value)`` of each non-blank line: a JSON value or an id; for a JSON array
            (:func:`read_records`), ``(index from 0, item)``.
        layout: ``"lines"`` or ``"array"``: how :meth:`where` names a record.
    """

    name: str
    sha256: str
    lines: list[tuple[int, Any]] = field(default_factory=list)
    layout: str = "lines"

    def where(self, number: int) -> str:
        """A record's place in messages: ``"line 7"``, or ``"$[6]"`` in a JSON array."""
        return f"$[{number}]" if self.layout == "array" else f"line {number}"


def input_name(path: str | Path) -> str:
    """The name of an input in messages: the file's name, or ``"<stdin>"`` for ``-``."""
    return "<stdin>" if str(path) == STDIN else Path(path).name


def _read_bytes(path: str | Path, what: str) -> bytes:
    if str(path) == STDIN:
        return _bounded(sys.stdin.buffer, input_name(path))
    try:
        with open(path, "rb") as f:
            return _bounded(f, input_name(path))
    except FileNotFoundError:
        raise ConfigurationError(f"{what} file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise ConfigurationError(f"{what} file {str(path)!r} is a directory, expected a file") from None


def _bounded(f, name: str) -> bytes:
    """All of ``f``'s bytes, read in 1 MiB chunks; a SourceFormatError at the first line longer than
    :data:`MAX_LINE_BYTES`."""
    chunks, line, current = [], 1, 0  # current: the bytes read of line number ``line``
    while chunk := f.read(_CHUNK):
        chunks.append(chunk)
        for i, part in enumerate(chunk.split(b"\n")):
            if i:
                line, current = line + 1, 0
            current += len(part)
            if current > MAX_LINE_BYTES:
                raise SourceFormatError(
                    name,
                    f"line {line}",
                    f"longer than {MAX_LINE_BYTES:,} bytes, the limit of a line of a run's "
                    "input (himga.jsonio.run_inputs.MAX_LINE_BYTES): write one record per line",
                )
    return b"".join(chunks)


def _text_lines(
    path: str | Path, what: str, *, json: bool, data: bytes | None = None
) -> tuple[str, str, list[tuple[int, bytes, str]]]:
    """``(name, sha256, [(number, raw bytes, text)])`` of the non-blank lines of a UTF-8 file (``data``: its bytes,
    read)."""
    name = input_name(path)
    data = _read_bytes(path, what) if data is None else data
    if json and (error := not_json(name, data[:1024], len(data), source=False)) is not None:
        raise error  # a compressed file, Parquet, LFS pointer, HTML page, an error text
    lines = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r")
        except UnicodeDecodeError as e:
            raise SourceFormatError(
                name, f"line {number}", f"expected UTF-8 text, got invalid byte at column {e.start + 1}"
            ) from None
        if text.strip():
            lines.append((number, raw, text))
    return name, hashlib.sha256(data).hexdigest(), lines


def check_id(name: str, where: str, value: Any) -> str:
    """``value`` if it is a string and a valid id (:func:`~himga.identifiers.id_problem`), else a SourceFormatError."""
    if not isinstance(value, str):
        raise SourceFormatError(name, where, f"expected a string, got {type_name(value)}")
    if (problem := id_problem(value, MAX_INPUT_ID_LENGTH)) is not None:
        raise SourceFormatError(name, where, problem)
    return value


def read_json_lines(path: str | Path, what: str = "predictions", *, empty: bool = False) -> InputFile:
    """Read a JSON Lines input: one JSON object per non-blank line.

    Args:
        path: The file, or ``-`` for standard input.
        what: What the file is, for messages (``"predictions"``, ``"labels"``).
        empty: Accept a file without any line (the replies of ``himga score --prompts NEXT --labels REPLIES`` before
            the first round).

    Returns:
        An :class:`InputFile` whose ``lines`` hold the objects.

    Raises:
        SourceFormatError: not UTF-8, invalid JSON, nested too deeply, a duplicate key, a line that is not
            an object (``pred.jsonl: line 3: expected an object, got array``), no line at all (unless ``empty``), a
            line longer than :data:`MAX_LINE_BYTES`.
        ConfigurationError: the file does not exist or is a directory.
        OSError: the file cannot be read.
    """
    return _json_lines(path, what, None, empty=empty)


def _json_lines(path: str | Path, what: str, data: bytes | None, *, empty: bool = False) -> InputFile:
    name, sha, lines = _text_lines(path, what, json=True, data=data)
    values = (
        (
            number,
            parse_json_text(
                name, text, f"line {number}", data=raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw
            ),
        )
        for number, raw, text in lines
    )
    none = None if empty else f"expected JSON Lines ({what}, one object per line), got no line"
    return _objects(InputFile(name, sha), values, none)


def _objects(out: InputFile, values, empty: str | None) -> InputFile:
    """``out`` holding ``values`` (``(number, value)``), each an object; ``empty``: the error when there is none
    (``None``: none is no error)."""
    for number, value in values:
        if not isinstance(value, dict):
            raise SourceFormatError(out.name, out.where(number), f"expected an object, got {type_name(value)}")
        out.lines.append((number, value))
    if not out.lines and empty is not None:
        raise SourceFormatError(out.name, "$", empty)
    return out


def read_records(path: str | Path, what: str = "predictions") -> InputFile:
    """Read a run's records: a JSON array of objects or JSON Lines, told apart by content whatever the file's name
    (:func:`~himga.jsonio._sniff.json_lines_by_content`, the rule of the source files); one object alone is one record.

    Args:
        path: The file, or ``-`` for standard input.
        what: What the file is, for messages.

    Returns:
        An :class:`InputFile` whose ``lines`` hold the objects, ``(line number, object)`` or, for an array,
        ``(index, object)`` (``layout="array"``).

    Raises:
        SourceFormatError: as :func:`read_json_lines`; for an array: invalid JSON (line and column), an item that
            is not an object (``results.json: $[3]: expected an object, got string``), an empty array, a line longer
            than :data:`MAX_LINE_BYTES` (an array written on one line is one line).
        ConfigurationError: the file does not exist or is a directory.
        OSError: the file cannot be read.
    """
    name = input_name(path)
    data = _read_bytes(path, what)
    if json_lines_by_content(io.BytesIO(data).read) or _one_object_line(data):
        return _json_lines(path, what, data)
    if (error := not_json(name, data[:1024], len(data), source=False)) is not None:
        raise error
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise not_utf8(name, data, e.start) from None
    if not text.strip():
        raise SourceFormatError(name, "$", f"expected a JSON array or JSON Lines ({what}), got {blank(len(data))}")
    value = parse_json_text(name, text, data=data.removeprefix(b"\xef\xbb\xbf"))
    out = InputFile(name, hashlib.sha256(data).hexdigest(), layout="array")
    if isinstance(value, dict):  # one record, as a one-line JSON Lines file
        out.layout, out.lines = "lines", [(1, value)]
        return out
    if not isinstance(value, list):
        raise SourceFormatError(
            name, "$", f"expected a JSON array of objects or JSON Lines ({what}), got {type_name(value)}"
        )
    return _objects(out, enumerate(value), f"expected {what}, got an empty array")


def _one_object_line(data: bytes) -> bool:
    """Whether ``data`` is one line holding an object: one record, read by the JSON Lines rule, so that its errors are
    placed as a longer file's are (``line 1.hypothesis``), not as a document's (``$.hypothesis``)."""
    body = data.removeprefix(b"\xef\xbb\xbf").strip()
    return body.startswith(b"{") and b"\n" not in body


def read_id_lines(path: str | Path) -> InputFile:
    """Read an ids file (one id per line, surrounding whitespace and blank lines ignored), as ``himga subset`` writes
    it.

    Returns:
        An :class:`InputFile` whose ``lines`` hold the ids, in file order.

    Raises:
        SourceFormatError: not UTF-8, an invalid id (too long, control characters, whitespace), an id twice
            (``ids.txt: line 7: 'conv-26:3' is also on line 2``), no id at all, a line longer than
            :data:`MAX_LINE_BYTES`.
        ConfigurationError: the file does not exist or is a directory.
    """
    name, sha, lines = _text_lines(path, "ids", json=False)
    out = InputFile(name, sha)
    seen: dict[str, int] = {}
    for number, _raw, text in lines:
        item = check_id(name, f"line {number}", text.strip())
        if item in seen:
            raise SourceFormatError(name, f"line {number}", f"{item!r} is also on line {seen[item]}")
        seen[item] = number
        out.lines.append((number, item))
    if not seen:
        raise SourceFormatError(name, "$", "expected one id per line, found none")
    return out
