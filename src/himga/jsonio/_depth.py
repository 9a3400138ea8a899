"""A bound on the nesting depth of JSON source files, checked on the bytes before a parser sees them.

JSON parsers do not bound nesting in memory: ``ijson``'s C backend keeps, per open array or object, the
path prefix of its events, so memory grows with the square of the depth (a 200 KB file of 100,000 nested
``[`` grows a process past 20 GB), and ``json.loads`` recurses until ``RecursionError``. Both readers of
:mod:`himga.jsonio.reader` therefore feed every byte they read, once and in order, to a :class:`DepthGuard`
first: it tracks strings (with their escapes) and brackets across buffer boundaries, in constant memory,
and stops at :data:`MAX_DEPTH` levels. The benchmark files need fewer than 10 (LongMemEval: array of
questions, question, ``haystack_sessions``, session, turn = 5; LoCoMo's ``qa[].evidence``: 4).

Cost: escaped quotes are dropped, everything but quotes and brackets deleted, and strings cut out of
each buffer with ``bytes.replace``/``translate``/``split``, and the brackets summed with ``itertools.accumulate``, all
in C; only buffers where the depth could pass the
bound or a top-level item ends are walked bracket by bracket in Python.
"""

from __future__ import annotations

from itertools import accumulate, count
from operator import sub

__all__ = ["MAX_DEPTH", "DepthGuard", "OnceReader", "TooDeep"]

#: Arrays and objects nested deeper than this are refused (the benchmark files need fewer than 10).
MAX_DEPTH = 64

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b"[]{},")
_NOT_QUOTE_OR_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{},')
_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")  # +1 / -1 after subtracting the running count
_OPEN, _CLOSE = frozenset(b"[{"), frozenset(b"]}")


class TooDeep(Exception):
    """Raised by :meth:`DepthGuard.feed` at the first bracket past :data:`MAX_DEPTH`.

    Attributes:
        path: The JSON path of the top-level item holding it (``$[3]``), or ``$`` when the top level is
            not an array.
        index: The item's index in the top-level array, or ``None``.
        limit: The bound that was passed.
    """

    def __init__(self, index: int | None, limit: int) -> None:
        self.index, self.limit = index, limit
        self.path = "$" if index is None else f"$[{index}]"
        super().__init__(self.detail)

    @property
    def detail(self) -> str:
        """The error's text for a :class:`~himga.errors.SourceFormatError`."""
        return f"arrays and objects nested more than {self.limit} levels deep (the benchmark files need fewer than 10)"


class DepthGuard:
    """The nesting depth of a JSON text fed to it in pieces, in order; constant memory.

    Assumes nothing about validity (the parser judges that); only counts ``[``/``{`` and ``]``/``}``
    outside strings, and the commas between top-level array items to name the item.

    Args:
        limit: The deepest nesting allowed (default :data:`MAX_DEPTH`).
    """

    def __init__(self, limit: int = MAX_DEPTH) -> None:
        self.limit = limit
        self.depth = 0
        self.items = 0  # commas seen at depth 1 of a top-level array: the current item's index
        self._array: bool | None = None  # the top level is an array (known at its first bracket)
        self._in_string = False
        self._carry = False  # the previous piece ended in an unpaired backslash (held back)

    @property
    def array(self) -> bool:
        """The top level is an array (``False`` while unknown)."""
        return bool(self._array)

    def feed(self, data: bytes) -> None:
        """Scan the next piece of the text.

        Raises:
            TooDeep: the depth passed ``limit``.
        """
        if self._carry:  # an unpaired backslash ended the previous piece: it escapes this piece's first byte
            data = b"\\" + data
        run = 0
        while run < len(data) and data[-1 - run] == 0x5C:
            run += 1
        self._carry = run % 2 == 1
        if self._carry:
            data = data[:-1]
        if b'\\"' in data:  # drop escaped quotes: every '"' left delimits a string
            if (
                b'\\\\"' in data
            ):  # a run of backslashes before a quote: drop the pairs first, left to right as JSON does
                data = data.replace(b"\\\\", b"")
            data = data.replace(b'\\"', b"")
        parts = data.translate(None, _NOT_QUOTE_OR_STRUCTURE).split(b'"')
        outside = b"".join(parts[1 if self._in_string else 0 :: 2])
        if len(parts) % 2 == 0:
            self._in_string = not self._in_string
        steps = outside.translate(_STEP, _NOT_BRACKETS)
        if not steps:
            if self.depth == 1 and self._array:
                self.items += outside.count(b",")
            return
        levels = list(map(sub, accumulate(steps), count(1)))  # depth after each bracket, relative
        if self.depth + max(levels) <= self.limit and self.depth >= 2 and self.depth + min(levels) >= 2:
            self.depth += levels[-1]  # no bound passed, no top-level comma: the common case
            return
        self._walk(outside.translate(None, _NOT_STRUCTURE))

    def feed_safe(self, data: bytes) -> int:
        """Scan ``data`` as far as the bound allows: the length of its longest prefix within the bound.

        A reader hands the parser that prefix (so that what precedes the offending bracket is parsed, e.g.
        the id of the item holding it) and raises at its next read.

        Returns:
            ``len(data)`` when the whole piece is within the bound; else the prefix's length (the guard
            then stands after it).

        Raises:
            TooDeep: the bound is passed at the piece's first bracket (an empty prefix: nothing to hand on).
        """
        state = self._state()
        try:
            self.feed(data)
            return len(data)
        except TooDeep as error:
            good, bad = 0, len(data)  # prefix lengths known within the bound / past it
            while bad - good > 1:
                middle = (good + bad) // 2
                self._restore(state)
                try:
                    self.feed(data[:middle])
                    good = middle
                except TooDeep:
                    bad = middle
            self._restore(state)
            if good == 0:
                raise error from None
            self.feed(data[:good])
            return good

    def _state(self) -> tuple:
        return self.depth, self.items, self._array, self._in_string, self._carry

    def _restore(self, state: tuple) -> None:
        self.depth, self.items, self._array, self._in_string, self._carry = state

    def _walk(self, structure: bytes) -> None:
        depth, array = self.depth, self._array
        for char in structure:
            if char in _OPEN:
                if array is None:
                    array = self._array = char == ord("[")
                depth += 1
                if depth > self.limit:
                    self.depth = depth
                    raise TooDeep(self.items if array else None, self.limit)
            elif char in _CLOSE:
                depth -= 1
            elif depth == 1 and array:
                self.items += 1
        self.depth = depth


class OnceReader:
    """A binary file whose bytes are fed to ``consumers`` once each, in order, however often it is rewound.

    The consumers (a digest's ``update``) see each byte before the caller does. With ``guard`` (a
    :class:`DepthGuard`), a read returns only the bytes within its depth bound and the
    next read raises :class:`TooDeep`: the caller never sees a byte past the bound.
    The file's position starts where ``f`` is.
    """

    def __init__(self, f, *consumers, guard: DepthGuard | None = None) -> None:
        self._f = f
        self._consumers = consumers
        self._guard = guard
        self._too_deep: TooDeep | None = None
        self._hashed = f.tell()  # bytes [start, _hashed) have been fed

    def read(self, n: int = -1) -> bytes:
        if self._too_deep is not None:
            raise self._too_deep
        start = self._f.tell()
        data = self._f.read(n)
        end = start + len(data)
        if end > self._hashed:  # never a gap: the reader only rewinds
            new = data[self._hashed - start :] if self._hashed > start else data
            for consume in self._consumers:
                consume(new)
            if self._guard is not None and (safe := self._guard.feed_safe(new)) < len(new):
                self._too_deep = TooDeep(self._guard.items if self._guard.array else None, self._guard.limit)
                data = data[: len(data) - len(new) + safe]
            self._hashed = end
        return data

    def seek(self, *args) -> int:
        return self._f.seek(*args)

    def tell(self) -> int:
        return self._f.tell()

    def readable(self) -> bool:  # a file object for the decompressors of himga.jsonio.compressed
        return True

    def seekable(self) -> bool:
        return True

    def finish(self) -> None:
        """Feed whatever the parser did not read (trailing whitespace)."""
        self._f.seek(self._hashed)
        while self.read(1 << 20):
            pass
