"""``datasets``' cache lock, tolerant of a folder the user cannot write: a complete cache is shared read-only.

``datasets`` takes a write lock in the cache folder before reading even a complete cache; while
:class:`himga.cache._guarded.GuardedBuilder` opens or builds one, ``datasets.builder.FileLock`` is
:class:`ReadOnlyTolerantLock` (:func:`read_only_tolerant_locks`). Why skipping the lock is safe there: the module
docstring of :mod:`himga.cache._guarded`.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

import datasets.builder

from himga.cache._faults import READ_ONLY, writable

__all__ = ["ReadOnlyTolerantLock", "read_only_tolerant_locks"]

_FileLock = datasets.builder.FileLock  # datasets.utils._filelock.FileLock in datasets 5.2


class ReadOnlyTolerantLock(_FileLock):
    """``datasets``' ``FileLock``, except that a lock file which cannot be created because its folder is not
    writable (``EROFS``, ``EACCES``, ``EPERM``) is skipped: the ``with`` block then runs without the lock."""

    def __enter__(self):
        try:
            return super().__enter__()
        except OSError as e:
            if e.errno not in READ_ONLY or writable(Path(self.lock_file).parent):
                raise
            self._himga_skipped = True
            return self

    def __exit__(self, *exc_info):
        if self.__dict__.pop("_himga_skipped", False):
            return None
        return super().__exit__(*exc_info)


_swap_guard = threading.Lock()
_swap_depth = 0


@contextlib.contextmanager
def read_only_tolerant_locks():
    """Make ``datasets.builder.FileLock`` a :class:`ReadOnlyTolerantLock` for the duration (nestable, thread-safe)."""
    global _swap_depth
    with _swap_guard:
        if _swap_depth == 0:
            datasets.builder.FileLock = ReadOnlyTolerantLock
        _swap_depth += 1
    try:
        yield
    finally:
        with _swap_guard:
            _swap_depth -= 1
            if _swap_depth == 0:
                datasets.builder.FileLock = _FileLock
