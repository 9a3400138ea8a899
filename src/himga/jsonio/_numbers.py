"""The number hooks of the JSON reader: a literal beyond a double's range, an integer of more digits than Python
converts."""

from __future__ import annotations

import math
import sys

__all__ = ["NOT_FINITE", "TooManyDigits", "bounded_int", "finite_float"]


#: The error of a number literal outside a double's range (``1e400``): Arrow, JSON readers and Python's
#: ``json`` would hold it as ``inf`` and write it back as ``Infinity``, which is not JSON.
NOT_FINITE = "expected a number that is finite in a double (at most ~1.8e308)"


class TooManyDigits(ValueError):
    """An integer literal longer than Python converts (``sys.get_int_max_str_digits()``, 4,300 by default)."""

    def __init__(self, literal: str, limit: int):
        super().__init__(f"an integer of more than {limit} digits")
        self.literal, self.limit = literal, limit


def bounded_int(text: str) -> int:
    """A ``parse_int`` hook: ``int(text)``, or :class:`TooManyDigits` where Python's digit limit refuses it."""
    limit = sys.get_int_max_str_digits()  # 0: no limit
    if limit and len(text.lstrip("-")) > limit:
        raise TooManyDigits(text, limit)
    return int(text)


def finite_float(overflow: list[str]):
    """A ``parse_float`` hook: ``float(text)``, noting in ``overflow`` each literal that is not finite."""

    def parse(text: str) -> float:
        value = float(text)
        if math.isinf(value):
            overflow.append(text)
        return value

    return parse
