"""Reading JSON source files with errors that name the file and the position.

Small files (LoCoMo, 2.8 MB) are read whole with :func:`load_json`; LongMemEval files are streamed
(see ``himga_longmemeval``). Both accept a UTF-8 byte-order mark and reject the non-standard
``NaN``/``Infinity`` literals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import SourceFormatError

__all__ = ["load_json", "reject_constant"]


def reject_constant(name: str) -> Any:
    """``parse_constant`` hook: ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON."""
    raise ValueError(f"non-standard JSON literal {name}")


def load_json(path: str | Path) -> Any:
    """Parse a whole JSON file.

    Args:
        path: The file. UTF-8, with or without a byte-order mark.

    Returns:
        The JSON value (dicts, lists, str, int, float, bool, None).

    Raises:
        SourceFormatError: the file is empty, not UTF-8, not valid JSON, or uses ``NaN``/``Infinity``;
            the message names the file and the line and column.
        OSError: the file cannot be read.
    """
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SourceFormatError(path.name, "$", f"expected UTF-8 text, got invalid byte at offset {e.start}") from None
    if not text.strip():
        raise SourceFormatError(path.name, "$", "expected a JSON document, got an empty file")
    try:
        return json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as e:
        raise SourceFormatError(
            path.name, "$", f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg} (truncated or corrupted file?)"
        ) from None
    except ValueError as e:  # from reject_constant
        raise SourceFormatError(path.name, "$", f"expected standard JSON, got {e}") from None
