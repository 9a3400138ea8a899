"""The identity of a source file: what the cache key covers, and how a change during a read is caught.

Also :class:`OneFileEach`: a build reading several files refuses a sample found in two of them.

A file's identity is ``(size, mtime_ns, ctime_ns, inode)``. ``mtime`` alone is not enough: ``touch -r``
and ``cp -p`` set it back after an edit, but no user tool can set ``ctime`` back (the kernel sets it to
the current time on every write, chmod, rename or ``utime`` call), and a file replaced by rename has
another inode. ``datasets`` keys ``data_files`` by ``mtime`` only, so himga adds the identity of every
source file to the cache key (:func:`himga.cache._prepare.cache_key`) and compares it before and after
each read (:func:`check_unchanged`).

Limit: timestamps have the file system's granularity (on Linux, the kernel tick unless the file
system has fine-grained timestamps), so two same-size in-place rewrites within one tick, the first
before the read starts, could go unseen by the timestamps alone.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from himga.errors import ConfigurationError, SourceChangedError, SourceFormatError

__all__ = ["Identity", "OneFileEach", "check_source_kind", "check_unchanged", "file_identity", "path_kind"]

_KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def path_kind(path: str | Path) -> str:
    """What ``path`` is, following links, for a message: ``"a regular file"``, ``"a folder"``, ``"a FIFO
    (named pipe)"``, ``"a socket"``, ``"a character device"`` (``/dev/zero``, ``/dev/null``), ``"a block
    device"``, ``"a symbolic link to '…', which does not exist"``, ``"missing"``, or ``"unreadable (…)"``.
    Sources are regular files or folders of them; anything else is refused with this text."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return f"a symbolic link to {os.readlink(path)!r}, which does not exist" if path.is_symlink() else "missing"
    except OSError as e:
        return f"unreadable ({e.strerror})"
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def check_source_kind(name: str, path: str | Path) -> None:
    """Refuse a source path that is neither a regular file nor a folder (nor missing: callers say that).

    A FIFO or ``/dev/zero`` would be read forever, ``/dev/null`` is empty, a link to nothing is nothing;
    the message says what the path is (:func:`path_kind`) instead of a bare ``NotADirectoryError`` or
    "does not exist". Called by every route that takes a source path (the facade, ``make_builder``, the
    builders' file rules, export).

    Args:
        name: The benchmark's name, for the message.
        path: The source path given.

    Raises:
        ConfigurationError: an empty path (``--data-dir ""``: ``Path("")`` is the working directory);
            ``"locomo: source '/dev/zero' is a character device, not a file or a folder of
            files: no source can be read from it"``.
    """
    if str(path) == "":  # Path("") is "." : an empty --data-dir "" would read the working directory
        raise ConfigurationError(f"{name}: the source path is empty: give a file or a folder (leave it out for the pinned source)")
    kind = path_kind(Path(path).expanduser())
    if kind not in ("a regular file", "a folder", "missing"):
        raise ConfigurationError(f"{name}: source {str(path)!r} is {kind}, not a file or a folder of files: no source can be read from it")

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


class OneFileEach:
    """Remembers where each sample id was read; an id read a second time is an error.

    A build may read several files (a folder of parts, or ``data_files``); the same id in two of them
    means two copies of one source (``locomo10.json`` and ``locomo10 (1).json``), or files of two
    configs, and would silently double the samples. The same id twice in one file is an error too
    (a record pasted twice): both benchmarks' ids are unique in every released file.

    Args:
        noun: What an id names in messages (``"question"``, ``"sample"``).
        hint: Appended to the message when the id is in two files (what to do instead).
    """

    def __init__(self, noun: str, hint: str) -> None:
        self.noun = noun
        self.hint = hint
        self._first: dict[str, tuple[str, str]] = {}

    def check(self, sample_id: str, file: str | Path, where: str) -> None:
        """Record ``sample_id`` as read from ``file`` at JSON path ``where``.

        Raises:
            SourceFormatError: it was read before, from another file (names both files) or from this
                one (names both JSON paths).
        """
        first, first_where = self._first.setdefault(sample_id, (str(file), where))
        if first == str(file) and first_where == where:
            return
        name, other = Path(file).name, Path(first).name
        if first == str(file):
            raise SourceFormatError(name, where, f"{self.noun} {sample_id} is also at {first_where}: each {self.noun} once")
        raise SourceFormatError(name, where, f"{self.noun} {sample_id} is also in {other if other != name else first}; {self.hint}")
