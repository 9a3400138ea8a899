"""Provenance of local source files: is this file byte-identical to a pinned official file?

:func:`provenance` gives the line ``himga validate`` and ``himga stats`` print per source file
(``locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok``); :func:`warn_if_modified` is the one
warning a build gives for a modified pinned file under ``$HIMGA_DATASETS_ROOT``. A file's sha256 is
computed once per process: the builders hash a file in the same read as the parse and record it
(:func:`record_sha256`), and :func:`file_sha256` reuses it while the file is unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from himga import sources
from himga.sources.identity import file_identity
from himga.sources import RemoteFile

__all__ = ["file_sha256", "provenance", "record_sha256", "warn_if_modified"]

logger = logging.getLogger(__name__)


#: (resolved path, size, mtime_ns, ctime_ns, inode) → sha256, for this process: a file is hashed once per
#: build. The full identity of :func:`himga.sources.identity.file_identity`: an edit followed by ``touch -r`` or
#: ``cp -p`` keeps size and mtime but never ctime, so it is never reported with the old hash.
_SHA256_SEEN: dict[tuple, str] = {}


def _stat_key(path: Path) -> tuple:
    return (str(path.resolve()), *file_identity(path.stat()))


def record_sha256(path: str | Path, sha256: str) -> None:
    """Remember the sha256 of ``path`` as computed by a reader that read every byte (the build's parse)."""
    _SHA256_SEEN[_stat_key(Path(path))] = sha256


def file_sha256(path: str | Path) -> str:
    """The sha256 of ``path``: remembered from this process's build when the file is unchanged, else read.

    Raises:
        OSError: the file cannot be read.
    """
    key = _stat_key(Path(path))
    if key not in _SHA256_SEEN:
        _SHA256_SEEN[key] = sources.sha256_of(path)
    return _SHA256_SEEN[key]


def provenance(path: str | Path, pins: Iterable[RemoteFile], *, sha256: str | None = None) -> str:
    """One line saying whether a local source file is byte-identical to a pinned official file.

    The file is hashed only when needed: not when this process's build already did (:func:`record_sha256`),
    nor when its size matches no pin (it cannot be byte-identical to one).

    Args:
        path: The local file.
        pins: Every pinned file of the dataset (:meth:`himga.catalog.Benchmark.pins`).
        sha256: The file's sha256 if already known; default :func:`file_sha256`.

    Returns:
        ``"locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"``; or ``"locomo10.json: differs from
        the pinned locomo10.json: a modified copy or another release (sha256 <hex>)"`` (``(<n> bytes,
        pinned <m>)`` when the size already differs); for a pin without a known sha256,
        ``"... sha256 <hex> (no sha256 is pinned for <repo@rev> to compare with)"``; for any other name,
        ``"mine.json: not a pinned file (sha256 <hex>)"``.

    Raises:
        OSError: the file cannot be read.
    """
    path = Path(path)
    pins = list(pins)
    named = [pin for pin in pins if pin.accepts_name(path.name)]
    size = path.stat().st_size
    digest = sha256 or _SHA256_SEEN.get(_stat_key(path))
    if digest is None and all(pin.size is not None and pin.size != size for pin in pins):
        if named:
            return (f"{path.name}: differs from the pinned {named[0].filename}: a modified copy or another release "
                    f"({size:,} bytes, pinned {named[0].size:,})")
        return f"{path.name}: not a pinned file ({size:,} bytes; no pin has that size)"
    digest = digest or file_sha256(path)
    for pin in pins:
        if pin.sha256 == digest:
            return f"{path.name} = {pin.origin}{'' if pin.accepts_name(path.name) else f' ({pin.filename})'}, sha256 ok"
    if any(pin.sha256 is None for pin in named):
        origins = ", ".join(pin.origin for pin in named if pin.sha256 is None)
        return f"{path.name}: sha256 {digest} (no sha256 is pinned for {origins} to compare with)"
    if named:
        return f"{path.name}: differs from the pinned {named[0].filename}: a modified copy or another release (sha256 {digest})"
    return f"{path.name}: not a pinned file (sha256 {digest})"


def warn_if_modified(path: str | Path, sha256: str, pins: Iterable[RemoteFile]) -> None:
    """Log one warning (logger ``himga.sources.provenance``) when a file under ``$HIMGA_DATASETS_ROOT`` has a pinned
    name but another checksum. Called by the builders, once per file and build, with the sha256 computed
    while parsing (which it also records for :func:`file_sha256`)."""
    record_sha256(path, sha256)
    root = sources.datasets_root()
    path = Path(path)
    if root is None or not path.resolve().is_relative_to(root.resolve()):
        return
    named = [pin for pin in pins if pin.accepts_name(path.name) and pin.sha256 is not None]
    if named and all(pin.sha256 != sha256 for pin in named):
        pin = named[0]
        logger.warning(
            "himga: warning: %s: differs from the pinned %s (%s): a modified copy or another release (sha256 %s, pinned %s); "
            "the official file is %s", path, pin.filename, pin.origin, sha256, pin.sha256, pin.url,
        )
