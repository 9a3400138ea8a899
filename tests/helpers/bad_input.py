"""Helpers of the bad-input matrix (tests/errors): load through the facade, check the error, then prove the cache is
clean.

``check_bad_then_good`` is the shared expectation of every bad-input test: loading the bad
file raises the documented himga error (never a bare ``KeyError``/``TypeError``/``IndexError``/
``JSONDecodeError``, never ``datasets``' wrapper), the failed attempt leaves no finished or half-written
cache entry, and a correct file written at the same path then builds fine in the same ``cache_dir``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from himga.data import build_dataset, load_locomo, load_longmemeval
from himga.errors import HimgaError
from himga.schema.convert import row_to_sample


def _facade_locomo(path, cache_dir):
    return load_locomo(path, cache_dir=cache_dir)


def _build_locomo(path, cache_dir):
    return [row_to_sample(row) for row in build_dataset("locomo", path=path, cache_dir=cache_dir)]


def _facade_longmemeval(path, cache_dir):
    return load_longmemeval(path, config="oracle", cache_dir=cache_dir)


def _build_longmemeval(path, cache_dir):
    return [row_to_sample(row) for row in build_dataset("longmemeval", "oracle", path=path, cache_dir=cache_dir)]


LOADERS = {
    "locomo": {"load_locomo": _facade_locomo, "build_dataset": _build_locomo},
    "longmemeval": {"load_longmemeval": _facade_longmemeval, "build_dataset": _build_longmemeval},
}


def cache_entries(cache_dir: Path) -> list[Path]:
    """Finished builds (``dataset_info.json``) and leftovers of unfinished ones (``*.incomplete``)."""
    if not cache_dir.exists():
        return []
    return sorted([*cache_dir.rglob("dataset_info.json"), *cache_dir.rglob("*.incomplete")])


def check_bad_then_good(
    loader: Callable,
    path: Path,
    bad: bytes,
    good: bytes,
    cache_dir: Path,
    error: type[HimgaError],
    message: str | None = None,
    prefix: str | None = None,
) -> tuple[HimgaError, list]:
    """Load ``bad`` from ``path`` (expect ``error``), then ``good`` from the same path and cache.

    Args:
        loader: ``(path, cache_dir) -> list[Sample]``.
        path: The source file; ``bad`` and then ``good`` are written to it.
        bad, good: The two contents.
        cache_dir: The ``datasets`` cache folder shared by both attempts.
        error: The expected himga error class.
        message: The exact expected message, if given.
        prefix: The expected start of the message (file and JSON path), if given.

    Returns:
        ``(error, samples)``: the raised error and the Samples built from ``good``.
    """
    before = cache_entries(cache_dir)
    path.write_bytes(bad)
    with pytest.raises(HimgaError) as info:
        loader(path, cache_dir)
    assert isinstance(info.value, error), repr(info.value)
    if message is not None:
        assert str(info.value) == message
    if prefix is not None:
        assert str(info.value).startswith(prefix), str(info.value)
    assert cache_entries(cache_dir) == before  # nothing finished, nothing half-written
    path.write_bytes(good)
    samples = loader(path, cache_dir)
    fresh = path.parent / "fresh" / path.name  # the same content built from scratch, in its own cache
    fresh.parent.mkdir(exist_ok=True)
    fresh.write_bytes(good)
    assert samples and samples == loader(fresh, cache_dir.parent / f"{cache_dir.name}-fresh")
    return info.value, samples


def dump(value) -> bytes:
    """``value`` as UTF-8 JSON bytes."""
    return json.dumps(value).encode("utf-8")


def replace_last(data: bytes, old: bytes, new: bytes) -> bytes:
    """``data`` with the last occurrence of ``old`` replaced by ``new`` (e.g. a key written twice)."""
    head, sep, tail = data.rpartition(old)
    assert sep, f"{old!r} not in data"
    return head + new + tail


def _target(record: dict, keys: tuple) -> object:
    for key in keys:
        record = record[key]
    return record


def set_key(*keys_and_value):
    """A change that sets ``record[k1][k2]...[kn] = value``."""
    *keys, value = keys_and_value

    def change(record):
        _target(record, tuple(keys[:-1]))[keys[-1]] = value

    return change


def del_key(*keys):
    """A change that deletes ``record[k1][k2]...[kn]``."""

    def change(record):
        del _target(record, keys[:-1])[keys[-1]]

    return change


def call_on(method, *keys):
    """A change that calls ``method(record[k1]...[kn])``."""

    def change(record):
        method(_target(record, keys))

    return change
