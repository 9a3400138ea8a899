"""Hashing on a second core (himga.sources.BackgroundDigest): the same digest as hashlib, in order, bounded."""

from __future__ import annotations

import hashlib
import multiprocessing
import threading

from himga.sources import BackgroundDigest
from himga.sources import _hashing


def test_the_same_digest_as_hashlib_whatever_the_updates():
    parts = [bytes([i % 251]) * (i * 997 % 70_000) for i in range(300)]  # empty, small and large (> 2 KiB: GIL released)
    background, plain = BackgroundDigest(hashlib.sha256()), hashlib.sha256()
    for part in parts:
        background.update(part)
        plain.update(part)
        if len(part) == 0:
            assert background.hexdigest() == plain.hexdigest()  # a read in the middle waits for what came before
    assert background.hexdigest() == plain.hexdigest() and background.digest() == plain.digest()
    copy = background.copy()
    copy.update(b"more")
    assert copy.hexdigest() == hashlib.sha256(b"".join(parts) + b"more").hexdigest()
    assert BackgroundDigest(hashlib.sha256()).hexdigest() == hashlib.sha256().hexdigest()


def test_two_digests_fed_in_turn_stay_apart():
    a, b = BackgroundDigest(hashlib.sha256()), BackgroundDigest(hashlib.md5())
    for i in range(50):
        a.update(b"a" * i * 100)
        b.update(b"b" * i * 100)
    assert a.hexdigest() == hashlib.sha256(b"".join(b"a" * i * 100 for i in range(50))).hexdigest()
    assert b.hexdigest() == hashlib.md5(b"".join(b"b" * i * 100 for i in range(50))).hexdigest()


class _Held:
    """A digest whose updates wait until released: counts how many have started."""

    def __init__(self) -> None:
        self.started, self.release = 0, threading.Event()

    def update(self, data: bytes) -> None:
        self.started += 1
        self.release.wait(10)

    def hexdigest(self) -> str:
        return str(self.started)


def test_a_caller_ahead_of_the_hashing_waits():
    held = _Held()
    digest = BackgroundDigest(held)
    queued = threading.Event()

    def feed():
        for _ in range(_hashing.PENDING + 1):
            digest.update(b"x")
        queued.set()

    threading.Thread(target=feed, daemon=True).start()
    assert not queued.wait(0.5)  # PENDING updates wait; the next one blocks until one is hashed
    held.release.set()
    assert queued.wait(10) and digest.hexdigest() == str(_hashing.PENDING + 1)


def _child_digest(queue) -> None:
    digest = BackgroundDigest(hashlib.sha256())
    digest.update(b"child")
    queue.put(digest.hexdigest())


def test_a_forked_child_hashes_on_its_own_thread():
    BackgroundDigest(hashlib.sha256()).update(b"parent")  # the parent's worker thread exists before the fork
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_digest, args=(queue,))
    child.start()
    assert queue.get(timeout=30) == hashlib.sha256(b"child").hexdigest()
    child.join(30)
