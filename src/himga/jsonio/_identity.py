"""A file's identity: what the cache key covers, and how a change during a read is caught.

A file's identity is ``(size, mtime_ns, ctime_ns, inode)``. ``mtime`` alone is not enough: ``touch -r``
and ``cp -p`` set it back after an edit, but no user tool can set ``ctime`` back (the kernel sets it to
the current time on every write, chmod, rename or ``utime`` call), and a file replaced by rename has
another inode. ``datasets`` keys ``data_files`` by ``mtime`` only, so himga adds the identity of every
source file to the cache key (:func:`himga.cache.cache_key`) and the readers compare it before and after
each read (:func:`check_unchanged`).

Limit: timestamps have the file system's granularity (on Linux, the kernel tick unless the file
system has fine-grained timestamps), so two same-size in-place rewrites within one tick, the first
before the read starts, could go unseen by the timestamps alone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from himga.errors import SourceChangedError

__all__ = ["Identity", "check_unchanged", "file_identity"]

#: ``(size, mtime_ns, ctime_ns, inode)`` of a file.
Identity = tuple[int, int, int, int]


def file_identity(stat: os.stat_result) -> Identity:
    """``(st_size, st_mtime_ns, st_ctime_ns, st_ino)`` of an ``os.stat``/``os.fstat`` result."""
    return (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)


def check_unchanged(path: Path, f: BinaryIO, before: Identity) -> None:
    """Raise unless the open file ``f`` and the file now at ``path`` both still have identity ``before``.

    The open file catches an in-place rewrite (``rsync --inplace``, ``dd conv=notrunc``) or truncation;
    the path catches a replacement by rename and a deletion.

    Args:
        path: The file's path.
        f: The file, opened before ``before`` was taken (``file_identity(os.fstat(f.fileno()))``).
        before: Its identity when the read started.

    Raises:
        SourceChangedError: the identity differs (names the file).
    """
    try:
        now = file_identity(os.stat(path))
    except FileNotFoundError:
        now = None
    if now != before or file_identity(os.fstat(f.fileno())) != before:
        raise SourceChangedError(path.name)
