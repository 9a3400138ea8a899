"""The cache key of a build: the code that shapes its rows, and the identity of its source files.

``datasets`` puts a build's cache in a folder named after this key (``<cache>/<builder>/<config>/<version>/<key>``),
so a change of either gives a new build and never serves stale rows. The code part covers only what shapes
rows (:func:`row_files`): a benchmark's builder and records modules (:attr:`himga.catalog.Benchmark.row_modules`)
and the shared schema and JSON-reading modules. Editing a helper (``himga.data.chronological``), a validate
rule, the card or the catalogue keeps every cache; an M-scale LongMemEval rebuild takes minutes.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import cache
from pathlib import Path

from himga.catalog import Benchmark, benchmark
from himga.sources.identity import file_identity
from himga.version import __version__

__all__ = ["SHARED_MODULES", "cache_key", "code_hash", "row_files"]

#: Modules whose source shapes the rows of every benchmark.
SHARED_MODULES = ("himga.data.schema", "himga.data.features", "himga.cache._arrow_batches", "himga.jsonio.reader",
                  "himga.jsonio._duplicate_keys", "himga.jsonio.rawcell", "himga.errors")


def row_files(entry: Benchmark) -> list[Path]:
    """The source files whose bytes :func:`code_hash` covers: ``entry``'s row modules, then :data:`SHARED_MODULES`."""
    return [Path(importlib.util.find_spec(m).origin) for m in (*benchmark(entry).row_modules, *SHARED_MODULES)]


@cache
def code_hash(entry: Benchmark) -> str:
    """A 16-hex-digit sha256 of the himga version and the bytes of :func:`row_files` (read once per process)."""
    digest = hashlib.sha256(__version__.encode())
    for path in row_files(entry):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(entry: Benchmark, data_dir: str | Path | None = None, data_files: list[Path] | None = None) -> str:
    """:func:`code_hash`, plus ``-`` and 8 hex digits of the source files' names and identities.

    The identity is ``(size, mtime_ns, ctime_ns, inode)`` (:mod:`himga.sources.identity`) of each file in a
    ``data_dir`` folder, of a ``data_dir`` that is one file, and of each of ``data_files``.
    ``datasets`` keys ``data_files`` by their mtime only and ``data_dir`` only by its path: without
    this, adding a file to a folder, or an edit whose mtime was set back (``touch -r``, ``cp -p``),
    would keep serving the old rows.

    Args:
        entry: The benchmark.
        data_dir: A source folder or file (absolute), or ``None``.
        data_files: Source files (from :func:`source_files`), or ``None``.
    """
    key = code_hash(benchmark(entry))
    if data_files is not None:
        paths = list(data_files)
    elif data_dir is not None and Path(data_dir).is_dir():
        paths = sorted(p for p in Path(data_dir).iterdir() if p.is_file())
    elif data_dir is not None and Path(data_dir).is_file():
        paths = [Path(data_dir)]
    else:
        return key
    digest = hashlib.sha256()
    for path in paths:
        identity = "\0".join(map(str, file_identity(path.stat())))
        digest.update(f"{path}\0{identity}\n".encode())
    return f"{key}-{digest.hexdigest()[:8]}"
