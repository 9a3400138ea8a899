"""Hashing on a second core: a ``hashlib`` object fed by a background thread while the parse goes on.

``hashlib`` releases the GIL while it hashes more than 2 KiB, so the two sha256 passes of a build (the file's
provenance and its content fingerprint) run beside the parse instead of after it. Order is kept (one worker
thread, first in, first out) and memory is bounded (at most :data:`PENDING` updates wait; a caller that gets
ahead of the hashing waits for it).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

__all__ = ["PENDING", "BackgroundDigest"]

#: Updates that may wait to be hashed (the readers feed 4 MiB blocks and one item's text at a time).
PENDING = 8
_WORKER: tuple[int, ThreadPoolExecutor] | None = None  # (the process it belongs to, the worker)
_LOCK = threading.Lock()


def _worker() -> ThreadPoolExecutor:
    """The process's hashing thread (a forked child, e.g. a ``datasets`` worker, starts its own)."""
    global _WORKER
    with _LOCK:
        if _WORKER is None or _WORKER[0] != os.getpid():
            _WORKER = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="himga-hash"))
        return _WORKER[1]


class BackgroundDigest:
    """A ``hashlib`` object whose :meth:`update` returns at once; the hashing is done in order on one worker
    thread, shared by every ``BackgroundDigest`` of the process.

    Args:
        digest: The ``hashlib`` object to feed, e.g. ``hashlib.sha256()``.

    Example:
        ``d = BackgroundDigest(hashlib.sha256()); d.update(b"abc"); d.hexdigest()`` equals
        ``hashlib.sha256(b"abc").hexdigest()``.
    """

    def __init__(self, digest: Any) -> None:
        self._digest = digest
        self._slots = threading.BoundedSemaphore(PENDING)
        self._last: Future | None = None

    def update(self, data: bytes) -> None:
        """Queue ``data`` (``bytes``: it must not change afterwards) to be hashed after every earlier update."""
        self._slots.acquire()
        self._last = _worker().submit(self._digest.update, data)
        self._last.add_done_callback(lambda _: self._slots.release())

    def _wait(self) -> Any:
        if self._last is not None:
            self._last.result()  # the worker runs the updates in order: every earlier one is done too
        return self._digest

    def hexdigest(self) -> str:
        """The hex digest of everything queued so far (waits for the hashing to catch up)."""
        return self._wait().hexdigest()

    def digest(self) -> bytes:
        """The digest of everything queued so far (waits for the hashing to catch up)."""
        return self._wait().digest()

    def copy(self) -> Any:
        """A plain ``hashlib`` copy of the state after everything queued so far."""
        return self._wait().copy()
