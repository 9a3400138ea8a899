"""The content fingerprint of a parse, fed as the readers parse: :class:`ContentDigest`.

The fingerprint is the sha256 of the parsed value's canonical text (:func:`himga.jsonio.canonical`); see
:mod:`himga.sources` for what it is for. This module holds how a read accumulates it, so that the array
reader (:func:`himga.jsonio.iter_array_items`) can feed it item by item, or hand over the digest its
check process computed (:mod:`himga.jsonio._beside`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from himga.jsonio._fast import canonical

__all__ = ["ContentDigest"]


class ContentDigest:
    """The content fingerprint of a value fed whole (:meth:`value`) or as the items of an array (:meth:`item`).

    ``item(a); item(b); hexdigest()`` equals ``content_sha256([a, b])``: the canonical text of an array is
    ``[`` + the items' canonical texts joined by ``,`` + ``]``.
    """

    def __init__(self) -> None:
        self._digest = hashlib.sha256()
        self._items = 0
        self._whole = False
        self._adopted: str | None = None

    def value(self, value: Any) -> None:
        """Feed a whole value (once)."""
        self._digest.update(canonical(value))
        self._whole = True

    def item(self, item: Any) -> None:
        """Feed the next item of a top-level array."""
        self.item_text(canonical(item))

    def item_text(self, text: bytes) -> None:
        """Feed the next item of a top-level array as its canonical text (what the readers of
        :mod:`himga.jsonio` hand their ``content`` callback)."""
        self._digest.update(b"[" if self._items == 0 else b",")
        self._digest.update(text)
        self._items += 1

    def adopt(self, hexdigest: str) -> None:
        """Take the fingerprint of the whole array as computed elsewhere (by another process fed the same items
        with :meth:`item_text`). Nothing may have been fed here.

        Raises:
            ValueError: items or a value were fed already, or ``hexdigest`` is not 64 hex digits.
        """
        if self._items or self._whole or self._adopted is not None:
            raise ValueError("ContentDigest.adopt: this digest was fed already")
        if len(hexdigest) != 64 or hexdigest.strip("0123456789abcdef"):
            raise ValueError(f"ContentDigest.adopt: expected 64 hex digits, got {hexdigest[:80]!r}")
        self._adopted = hexdigest

    def hexdigest(self) -> str:
        """The fingerprint (an array fed by items is closed with ``]``; none fed at all is ``[]``)."""
        if self._adopted is not None:
            return self._adopted
        if self._whole:
            return self._digest.hexdigest()
        digest = self._digest.copy()
        digest.update(b"[]" if self._items == 0 else b"]")
        return digest.hexdigest()
