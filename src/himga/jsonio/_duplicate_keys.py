"""Duplicate object keys in JSON sources: the parse hooks that notice them, and the JSON path of one.

The parsers build each object through a hook that notices a key it already holds: json's
``object_pairs_hook`` (:func:`unique_keys`, one call per object) and, for ``ijson``, a dict subclass as
``map_type`` (:func:`unique_key_dict`, one ``__setitem__`` call per key). Only when one is found is the
document read again with :func:`marking_hook` / :class:`MarkedDict`, which mark the objects holding a
duplicate, so that :func:`duplicate_key` can name the key's JSON path. JSON parsers silently keep one of
the values of a repeated key (``json``: the last, here: the first), so a duplicate is always an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "DuplicateKey",
    "MarkedDict",
    "duplicate_detail",
    "duplicate_key",
    "marking_hook",
    "unique_key_dict",
    "unique_keys",
    "walk",
]


class DuplicateKey(Exception):
    """Raised by the json hook; turned into a SourceFormatError with the key's path."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``object_pairs_hook``: a dict of ``pairs``, or :class:`DuplicateKey` if a key occurs twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise DuplicateKey
    return obj


def unique_key_dict() -> tuple[type[dict], list[str]]:
    """A ``dict`` subclass for ``ijson``'s ``map_type``, and the list where it logs duplicate keys.

    ``d[key] = value`` on a key ``d`` already holds appends ``key`` to the list (and keeps the first
    value). It does not raise: ijson's C backend ignores an error raised while it builds an item, which
    then surfaces later as an unrelated ``SystemError`` (confirmed in ijson 3.6 and ICRAR/ijson main at
    d2a14586, 2026-08: ``parse_basecoro_send_impl`` in ``src/ijson/backends/ext/_yajl2/parse_basecoro.c``
    drops the result of ``items_basecoro_send_impl``). ``ijson`` parses ahead a buffer at a time, so
    a logged key may belong to a later item than the one just yielded: the caller checks the list
    before yielding each item and, when it is not empty, locates the duplicate by reading again.
    """
    found: list[str] = []

    class UniqueKeyDict(dict):
        __slots__ = ()

        # dict.setdefault stores a new key; on a duplicate the length stays the same (measured: the
        # cheapest of the variants tried, ~1,600 CPU instructions per key, mostly the call itself)
        def __setitem__(self, key: str, value: Any, _setdefault=dict.setdefault, _len=len, _log=found.append) -> None:
            n = _len(self)
            _setdefault(self, key, value)
            if _len(self) == n:
                _log(key)

    return UniqueKeyDict, found


class MarkedDict(dict):
    """An object read again after a duplicate key: ``duplicate`` holds the first key it saw twice."""

    __slots__ = ("duplicate",)

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self and not hasattr(self, "duplicate"):
            self.duplicate = key
        dict.__setitem__(self, key, value)


def marking_hook(pairs: list[tuple[str, Any]]) -> dict:
    """``object_pairs_hook`` building :class:`MarkedDict` objects (for finding a duplicate's path)."""
    obj = MarkedDict()
    for key, value in pairs:
        obj[key] = value
    return obj


def walk(value: Any, where: str = "$") -> Iterator[tuple[str, Any]]:
    """Every value in ``value`` with its JSON path, in document order (depth first)."""
    stack = [(where, value)]
    while stack:
        where, item = stack.pop()
        yield where, item
        if isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            stack.extend((f"{where}.{k}", v) for k, v in reversed(list(item.items())))


def duplicate_key(value: Any, where: str = "$") -> tuple[str, str] | None:
    """``(path of the object, key)`` of the first object marked by :class:`MarkedDict`, else ``None``."""
    for at, item in walk(value, where):
        if isinstance(item, MarkedDict) and hasattr(item, "duplicate"):
            return at, item.duplicate
    return None


def duplicate_detail(key: str) -> str:
    """The error detail for a duplicate ``key`` (the path is the error's own field)."""
    return f"duplicate key {key!r}: the object holds it more than once (which value is meant is ambiguous)"
