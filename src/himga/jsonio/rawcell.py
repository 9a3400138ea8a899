"""The ``raw`` cells of himga rows: a dict of source fields with no other home, stored as JSON text.

Builders encode with :func:`raw_text` where rows are built; :mod:`himga.schema.convert` decodes with
:func:`raw_dict`. Plain text (``Value("string")``) rather than an Arrow extension type, so that every
Parquet reader can query it with its ordinary JSON functions.
"""

from __future__ import annotations

import json

__all__ = ["raw_dict", "raw_text"]


def raw_text(value: dict | None) -> str | None:
    """A ``raw`` dict as the JSON text a ``raw`` column stores; ``None`` for an empty or missing dict.

    ``raw`` columns are ``Value("string")`` holding JSON text (see :mod:`himga.schema.features`), so every
    Parquet reader can query them; :func:`raw_dict` is the inverse.
    """
    return json.dumps(value, ensure_ascii=False) if value else None


def raw_dict(value: str | dict | None) -> dict:
    """A ``raw`` cell as a dict: JSON text decoded, ``None`` → a new ``{}``.

    Also accepts a dict, as rows of ``datasets.Json()`` columns (the encoding of himga before 1.1.0 of
    the builders, and of older exports) arrive decoded.

    Raises:
        ValueError: the text is not JSON (``json.JSONDecodeError``): the cell was not written by himga.
    """
    if isinstance(value, str):
        return json.loads(value) or {}
    return value if value else {}
