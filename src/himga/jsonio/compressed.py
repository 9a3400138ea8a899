"""Compressed source files (gzip, bzip2, xz), read streaming, as ``datasets``' json builder reads them.

A source file is compressed when its leading bytes say so, whatever its name (``locomo10.json.gz``, or a
gzip file called ``locomo10.json``); the standard library decompresses it (:mod:`gzip`, :mod:`bz2`,
:mod:`lzma`) while the parser reads, so a 2.6 GB LongMemEval file compressed is streamed in bounded memory
as the plain file is. What the file's sha256 covers is the file as given (its compressed bytes): a
compressed copy of a pinned file is not the pinned file (:func:`himga.sources._provenance.provenance` says
so; for LoCoMo its content fingerprint still recognises the data).

zstd and zip are not read (zstd: the standard library of Python < 3.14 has no reader, and pyarrow's
``CompressedInputStream`` cannot be rewound as these readers need; zip: an archive of files, not one
compressed file): they are named, with the command that decompresses them (:func:`himga.jsonio._sniff.not_json`).
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from himga.errors import SourceFormatError
from himga.jsonio._depth import OnceReader

__all__ = ["COMPRESSED_SUFFIXES", "Source", "compression_of", "open_source", "plain_suffix"]

#: Leading bytes → (format, the reader that decompresses a binary file object).
_READERS: dict[bytes, tuple[str, Callable[[Any], BinaryIO]]] = {
    b"\x1f\x8b": ("gzip", lambda f: gzip.GzipFile(fileobj=f, mode="rb")),
    b"BZh": ("bzip2", lambda f: bz2.BZ2File(f, mode="rb")),
    b"\xfd7zXZ\x00": ("xz", lambda f: lzma.LZMAFile(f, mode="rb")),
}
#: File name suffixes of compressed files; the suffix before one says what the file holds (``.jsonl.gz``).
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


def compression_of(head: bytes) -> str | None:
    """``"gzip"``, ``"bzip2"`` or ``"xz"`` when ``head`` (a file's first bytes, 6 are enough) starts such a file."""
    return next((kind for magic, (kind, _) in _READERS.items() if head.startswith(magic)), None)


def plain_suffix(path: str | Path) -> str:
    """The suffix of what ``path`` holds, lower case: ``.jsonl`` for ``q.jsonl.gz`` and for ``q.jsonl``."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if len(suffixes) > 1 and suffixes[-1] in COMPRESSED_SUFFIXES:
        return suffixes[-2]
    return suffixes[-1] if suffixes else ""


@dataclass
class Source:
    """An open source file: ``raw`` is the file as given (for identity checks), ``data`` its JSON bytes (the
    file itself, or a decompressing stream over it), ``compression`` ``None`` or the format's name.

    For a compressed file the ``digest`` given to :func:`open_source` is fed the file's own bytes as the
    decompressor reads them; :meth:`finish` feeds the rest. For a plain file it is the caller's to feed.
    """

    raw: BinaryIO
    data: BinaryIO
    compression: str | None
    _tee: OnceReader | None = None

    def finish(self) -> None:
        """Feed the digest the compressed bytes the decompressor did not read (nothing for a plain file)."""
        if self._tee is not None:
            self._tee.finish()


@contextlib.contextmanager
def open_source(path: str | Path, digest: Any = None) -> Iterator[Source]:
    """Open a source file for reading its JSON bytes, decompressing gzip, bzip2 and xz as they are read.

    Args:
        path: The file.
        digest: A ``hashlib`` object; for a compressed file it is updated with the file's bytes (see
            :class:`Source`), complete after :meth:`Source.finish`.

    Raises:
        SourceFormatError: the compressed stream is cut short or corrupted (raised where the read fails).
        OSError: the file cannot be read.
    """
    path = Path(path)
    with open(path, "rb") as raw:
        kind = compression_of(raw.read(6))
        raw.seek(0)
        if kind is None:
            yield Source(raw, raw, None)
            return
        tee = OnceReader(raw, *([digest.update] if digest is not None else []))
        reader = next(r for magic, (k, r) in _READERS.items() if k == kind)
        try:
            with reader(tee) as data:
                yield Source(raw, data, kind, tee)
        except (EOFError, zlib.error, lzma.LZMAError, gzip.BadGzipFile) as e:
            raise SourceFormatError(
                path.name, "$", f"expected a complete {kind} file, got {e} (truncated or corrupted file?)"
            ) from None
        except OSError as e:
            if e.errno is not None:  # bz2's "Invalid data stream" has none; a failing disk has one
                raise
            raise SourceFormatError(
                path.name, "$", f"expected a complete {kind} file, got {e} (truncated or corrupted file?)"
            ) from None
