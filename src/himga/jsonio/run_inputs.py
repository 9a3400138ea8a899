"""The one reader of a run's own input files: predictions, judge verdicts (JSON Lines) and ids files (text lines).

Each file is read once, as bytes (a named pipe or ``/dev/stdin`` works, ``-`` is standard input), and its
sha256 is of exactly those bytes, for the run record. The guarantees are those of the source readers
(:mod:`himga.jsonio.jsonlines`): a UTF-8 byte-order mark is accepted, a byte that is not UTF-8 is a
:class:`~himga.errors.SourceFormatError` naming ``file: line N``; each JSON line is parsed by
:func:`himga.jsonio.reader.parse_json_text` (nesting bound :data:`~himga.jsonio.MAX_DEPTH`, duplicate keys,
finite numbers, with the line's JSON path); every id is checked by :func:`himga.identifiers.id_problem`
(at most :data:`~himga.identifiers.MAX_QUALIFIED_ID_LENGTH` characters, no control characters) before any
message shows it.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, type_name
from himga.identifiers import MAX_QUALIFIED_ID_LENGTH, id_problem
from himga.jsonio.reader import parse_json_text
from himga.jsonio._sniff import not_json

__all__ = ["STDIN", "InputFile", "check_id", "input_name", "read_id_lines", "read_json_lines"]

#: The name that reads standard input.
STDIN = "-"
#: An input's longest id, in characters: a LoCoMo query id qualifies a ``sample_id`` (``conv-26:0``).
MAX_INPUT_ID_LENGTH = MAX_QUALIFIED_ID_LENGTH


@dataclass
class InputFile:
    """One input file as read.

    Attributes:
        name: Its name for messages and the run record (``"<stdin>"`` for ``-``).
        sha256: The sha256 of the bytes read (hex).
        lines: ``(line number from 1, value)`` of each non-blank line: a JSON value or an id.
    """

    name: str
    sha256: str
    lines: list[tuple[int, Any]] = field(default_factory=list)


def input_name(path: str | Path) -> str:
    """The name of an input in messages: the file's name, or ``"<stdin>"`` for ``-``."""
    return "<stdin>" if str(path) == STDIN else Path(path).name


def _read_bytes(path: str | Path, what: str) -> bytes:
    if str(path) == STDIN:
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise ConfigurationError(f"{what} file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise ConfigurationError(f"{what} file {str(path)!r} is a directory, expected a file") from None


def _text_lines(path: str | Path, what: str, *, json: bool) -> tuple[str, str, list[tuple[int, bytes, str]]]:
    """``(name, sha256, [(number, raw bytes, text)])`` of the non-blank lines of a UTF-8 file."""
    name = input_name(path)
    data = _read_bytes(path, what)
    if json and (error := not_json(name, data[:1024], len(data))) is not None:
        raise error  # a compressed file, Parquet, LFS pointer, HTML page, an error text
    lines = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r")
        except UnicodeDecodeError as e:
            raise SourceFormatError(name, f"line {number}", f"expected UTF-8 text, got invalid byte at column {e.start + 1}") from None
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


def read_json_lines(path: str | Path, what: str = "predictions") -> InputFile:
    """Read a JSON Lines input: one JSON object per non-blank line.

    Args:
        path: The file, or ``-`` for standard input.
        what: What the file is, for messages (``"predictions"``, ``"labels"``).

    Returns:
        An :class:`InputFile` whose ``lines`` hold the objects.

    Raises:
        SourceFormatError: not UTF-8, invalid JSON, nested too deeply, a duplicate key, a line that is not
            an object (``pred.jsonl: line 3: expected an object, got array``), no line at all.
        ConfigurationError: the file does not exist or is a directory.
        OSError: the file cannot be read.
    """
    name, sha, lines = _text_lines(path, what, json=True)
    out = InputFile(name, sha)
    for number, raw, text in lines:
        value = parse_json_text(name, text, f"line {number}", data=raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw)
        if not isinstance(value, dict):
            raise SourceFormatError(name, f"line {number}", f"expected an object, got {type_name(value)}")
        out.lines.append((number, value))
    if not out.lines:
        raise SourceFormatError(name, "$", f"expected JSON Lines ({what}, one object per line), got no line")
    return out


def read_id_lines(path: str | Path) -> InputFile:
    """Read an ids file (one id per line, surrounding whitespace and blank lines ignored), as ``himga subset`` writes it.

    Returns:
        An :class:`InputFile` whose ``lines`` hold the ids, in file order.

    Raises:
        SourceFormatError: not UTF-8, an invalid id (too long, control characters), an id twice
            (``ids.txt: line 7: 'conv-26:3' is also on line 2``), no id at all.
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
