"""The array reader's checks in a second process, beside the parse: a large file is read at the speed of one
parse on each of two cores.

For a large uncompressed file (:func:`checks_beside`), :func:`himga.jsonio.iter_array_items` parses each item
once with ``msgspec`` and leaves the split into items and every check of :mod:`himga.jsonio._fast` (nesting
depth, 64-bit integers, duplicate keys, and the canonical text the content fingerprint hashes) to a child
process reading the same file (:func:`main`: ``FILE LEVELS CONTENT``). The child writes a line per item it
vouches for, in file order, with where the item lies; the reader reads those bytes (and the separators
between them, for the file's sha256), parses them and yields item ``i`` only once the child has vouched for
it, so an error is raised at the same item, before the same items were yielded, as when the checks run in the
reader's own process.

The child's lines (ASCII): ``ok START END`` for each item (its byte offsets in the file); ``fallback`` at the
first item the fast path cannot vouch for (the reader then reads the file with its full reader, which words
the error); last, ``end N HEX IDENTITY``: the items read, the content fingerprint (``-`` unless asked for) and the
identity (:func:`himga.jsonio.file_identity`, four integers) of the file the child read, when it opened it and again at
its end (the reader compares it with its own). A child that dies or says anything else vouches for nothing
more: the reader falls back to its full reader, as for ``fallback``.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from himga.errors import SourceChangedError
from himga.jsonio._content import ContentDigest
from himga.jsonio._fast import Fallback, array_items, parse_item
from himga.jsonio._identity import Identity, file_identity

__all__ = ["BESIDE_MIN_BYTES", "Checks", "checks_beside", "end_checks", "main", "spanned_items", "start_checks"]

#: Files smaller than this (bytes) are checked in the reader's own process: starting the child (~0.2 s) would
#: cost more than it saves. LongMemEval S (277 MB) and M (~2.7 GB) are checked beside the parse.
BESIDE_MIN_BYTES = 64 << 20
_BOM = b"\xef\xbb\xbf"
_CHILD = "import sys; from himga.jsonio._beside import main; main(sys.argv[1:])"
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding the himga package


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def checks_beside(size: int, compressed: bool) -> bool:
    """Whether the checks of an array read run in a second process (:class:`Checks`).

    Args:
        size: The file's size in bytes.
        compressed: Whether the file is compressed (its items are then checked in the reader's process: the
            child would decompress it a second time).

    Returns:
        ``True`` for an uncompressed file of at least :data:`BESIDE_MIN_BYTES` when this process may run on two
        CPUs or more and knows its interpreter (``sys.executable``).
    """
    return not compressed and size >= BESIDE_MIN_BYTES and _usable_cpus() >= 2 and bool(sys.executable)


class Checks:
    """The child process that checks the items of ``path`` while the reader parses them.

    Args:
        path: The file (the reader's own, read again by the child from its start).
        levels: The nesting allowed inside one item (as :func:`himga.jsonio._fast.array_items`).
        content: Whether the child computes the content fingerprint.

    Raises:
        OSError: the child could not be started.
    """

    def __init__(self, path: Path, levels: int, content: bool) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([_PACKAGE_ROOT, *filter(None, [env.get("PYTHONPATH")])])
        self._proc = subprocess.Popen(
            # -P: nothing from the working directory is imported (python -c puts it first on sys.path)
            [sys.executable, "-P", "-c", _CHILD, os.fspath(path), str(levels), "1" if content else "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self._end: list[str] | None = None

    def next_span(self, index: int) -> tuple[int, int] | None:
        """Where item ``index`` lies in the file, once the child has checked it; ``None`` after the last item
        (then :meth:`end` gives the child's last word).

        Raises:
            Fallback: the child does not vouch for item ``index`` (it fell back, died or said something else).
        """
        line = self._proc.stdout.readline()
        if line.startswith(b"ok "):
            try:
                start, end = map(int, line[3:].split())
            except ValueError:
                raise Fallback(index) from None
            return start, end
        if line.startswith(b"end "):
            self._end = line.decode("ascii", "replace").split()
            return None
        raise Fallback(index)

    def end(self, items: int) -> tuple[str | None, Identity, Identity] | None:
        """The child's last word after ``items`` items (:meth:`next_span` returned ``None``): ``(content
        fingerprint or None, identity at its start, identity at its end)``, or ``None`` when it did not vouch
        for exactly those items or did not exit cleanly."""
        line, self._end = self._end, None
        self._proc.wait()
        if line is None or self._proc.returncode != 0 or len(line) != 11 or line[1] != str(items):
            return None
        try:
            numbers = [int(v) for v in line[3:]]
        except ValueError:
            return None
        return (None if line[2] == "-" else line[2]), tuple(numbers[:4]), tuple(numbers[4:])

    def close(self) -> None:
        """Stop the child if it still runs (the read ended early or failed)."""
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._proc.stdout.close()


def start_checks(path: Path, levels: int, content: bool) -> Checks | None:
    """The check process for ``path``, or ``None`` when it cannot start (the checks then run here)."""
    try:
        return Checks(path, levels, content)
    except OSError:
        return None


def spanned_items(f: BinaryIO, checks: Checks) -> Iterator[Any]:
    """The items the check process vouches for, each parsed once it has (:mod:`himga.jsonio._beside`), read from
    ``f`` where it says they lie; the bytes between them are read too (``f`` feeds the file's digest).

    Raises:
        Fallback: at the first item it does not vouch for, or whose bytes are not where it says.
    """
    index = 0
    while (span := checks.next_span(index)) is not None:
        start, end = span
        gap = start - f.tell()
        if gap < 0 or len(f.read(gap)) != gap:
            raise Fallback(index)
        data = f.read(end - start)
        if len(data) != end - start:
            raise Fallback(index)
        yield parse_item(data, index)
        index += 1


def end_checks(path: Path, checks: Checks, items: int, before: Identity, content: ContentDigest | None) -> None:
    """Take the check process's last word: the content fingerprint, and the file it read was this one.

    Raises:
        Fallback: it did not vouch for the ``items`` read here.
        SourceChangedError: it read another file (replaced since this read opened it) or one that changed.
    """
    end = checks.end(items)
    if end is None:
        raise Fallback(items)
    fingerprint, start, stop = end
    if start != before or stop != before:
        raise SourceChangedError(path.name)
    if content is not None:
        content.adopt(fingerprint)


def _check(path: str, levels: int, content: bool, out) -> None:
    """The child's work: every check of the fast path over the items of ``path``, a line per item to ``out``."""
    digest = ContentDigest() if content else None
    count = 0
    with open(path, "rb") as f:
        before = file_identity(os.fstat(f.fileno()))
        if f.read(3) != _BOM:
            f.seek(0)

        def vouch(start: int, end: int) -> None:
            out.write(b"ok %d %d\n" % (start, end))
            out.flush()

        try:
            for _ in array_items(f, levels, digest.item_text if digest is not None else None, vouch):
                count += 1
        except Fallback:
            out.write(b"fallback\n")
            return
        after = file_identity(os.fstat(f.fileno()))
    fingerprint = digest.hexdigest() if digest is not None else "-"
    out.write(f"end {count} {fingerprint} {' '.join(map(str, (*before, *after)))}\n".encode("ascii"))


def main(argv: list[str]) -> None:
    """The child's entry point: ``FILE LEVELS CONTENT`` (``CONTENT`` ``1``: compute the content fingerprint).

    The cyclic garbage collector is off: parsed JSON holds no cycles.
    """
    gc.disable()
    try:
        _check(argv[0], int(argv[1]), argv[2] == "1", sys.stdout.buffer)
    except BrokenPipeError:  # the reader stopped early
        sys.exit(1)
