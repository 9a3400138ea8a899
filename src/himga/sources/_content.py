"""Content fingerprints: whether two JSON files hold the same data, whatever their bytes.

A copy of a source file re-serialised by another tool (non-ASCII characters escaped, other indentation, a
trailing newline) has another sha256 but the same data. The *content fingerprint* is the sha256 of the
parsed JSON value in a canonical form, :func:`himga.jsonio.canonical` (UTF-8, object keys sorted, no
whitespace, ``orjson``'s escapes and numbers). The builders compute it in their one parse
(:class:`ContentDigest`: a whole value, or an array one item at a time, which gives the same digest; the
array reader hands over each item's canonical text, which it writes anyway for its duplicate-key check).

Where the pinned file's value differs, a *content tree* locates the first difference: the fingerprints (8
hex digits) of the value's nodes down to a depth (:func:`content_tree`; for LoCoMo depth 3: records, their
keys, each QA pair, session and summary), kept beside the pin; :func:`first_difference` walks it against a
parsed value and returns a JSON path such as ``$[0].qa[1]``.

A CSV file's content is its rows as lists of cells, header first, as the ``csv`` module reads them
(:func:`csv_rows`): the same whatever the line endings (PersonaMem's questions, released with CRLF, shared with LF).
"""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio import ContentDigest, canonical

__all__ = ["ContentDigest", "canonical", "content_sha256", "content_tree", "csv_rows", "first_difference"]

_HEX = 8  # digits of a tree node's fingerprint: locates a difference, the full sha256 decides "same"


def content_sha256(value: Any) -> str:
    """The content fingerprint of a parsed JSON value: sha256 of :func:`canonical`."""
    return hashlib.sha256(canonical(value)).hexdigest()


def csv_rows(path: str | Path, *, digest: Any = None) -> list[list[str]]:
    """The rows of a CSV file, header first, each a list of its cells as the ``csv`` module reads them (the default
    dialect: ``,``, ``"`` quoting; ``\\n``, ``\\r\\n`` or ``\\r`` line ends), read in one pass.

    Args:
        path: The file: UTF-8 (a byte-order mark is accepted).
        digest: A ``hashlib`` object updated with every byte of the file.

    Raises:
        SourceFormatError: bytes that are not UTF-8 (named by line and column), a malformed row (named by its line).
        OSError: the file cannot be read.
    """
    path = Path(path)
    data = path.read_bytes()
    if digest is not None:
        digest.update(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise SourceFormatError(
            path.name, f"line {line}", f"expected UTF-8 text, got invalid byte at column {column}"
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return list(reader)
    except csv.Error as e:
        raise SourceFormatError(path.name, f"line {reader.line_num}", f"malformed CSV row: {e}") from None


def _node(value: Any) -> str:
    return content_sha256(value)[:_HEX]


def content_tree(value: Any, depth: int) -> Any:
    """The fingerprints of ``value``'s nodes down to ``depth`` levels below it.

    Returns:
        A leaf (``depth`` 0, or a scalar): its 8-hex-digit fingerprint. A container above that:
        ``[fingerprint, children]``, ``children`` a dict (same keys, in order) or a list of subtrees.
    """
    if depth == 0 or not isinstance(value, (dict, list)):
        return _node(value)
    children = (
        {k: content_tree(v, depth - 1) for k, v in value.items()}
        if isinstance(value, dict)
        else [content_tree(v, depth - 1) for v in value]
    )
    return [_node(value), children]


def first_difference(tree: Any, value: Any, path: str = "$") -> str | None:
    """The JSON path of the first node of ``value`` whose fingerprint differs from ``tree``'s, or ``None``.

    Keys and items are visited in the reference's order (then keys only ``value`` has); a missing or added
    key or item is a difference at its path; the deepest differing node the tree holds is returned
    (``$[0].qa[1]``, not ``$[0]``).
    """
    if isinstance(tree, str):
        return None if _node(value) == tree else path
    own, children = tree
    if _node(value) == own:
        return None
    if isinstance(children, dict) and isinstance(value, dict):
        for key in [*children, *(k for k in value if k not in children)]:
            if key not in value or key not in children:
                return f"{path}.{key}"
            if (found := first_difference(children[key], value[key], f"{path}.{key}")) is not None:
                return found
    elif isinstance(children, list) and isinstance(value, list):
        for i in range(max(len(children), len(value))):
            if i >= len(children) or i >= len(value):
                return f"{path}[{i}]"
            if (found := first_difference(children[i], value[i], f"{path}[{i}]")) is not None:
                return found
    return path
