"""A disk that fills up during a build: one CacheError naming the cache folder, the CLI's one line, nothing
half-written, and the next build (with space) identical to a fresh one.

The real fault is a 1 MiB tmpfs (needs root and mount permission; skipped with the reason elsewhere); the
simulated one, which runs everywhere, makes ``datasets``' Arrow writer raise ``OSError(ENOSPC)``.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess

import datasets.arrow_writer
import pytest

from himga.errors import CacheError

_MESSAGE = (
    r"^no space left on device while writing the cache {folder}/{name}/[^ ]+ \(the file system mounted at "
    r"{mount} is full; No space left on device\); nothing was cached: free space there"
)


def _leftovers(cache_dir):
    """Finished builds and unfinished ``.incomplete`` folders under ``cache_dir``."""
    return sorted(
        [*cache_dir.rglob("dataset_info.json"), *cache_dir.rglob("*.incomplete"), *cache_dir.rglob("*.arrow")]
    )


def _mount(*args):
    return subprocess.run(["mount", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MiB tmpfs (both caches need more), remountable larger."""
    if os.geteuid() != 0:
        pytest.skip(f"mounting a tmpfs needs root (running as uid {os.geteuid()})")
    target = tmp_path / "tiny"
    target.mkdir()
    done = _mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(target))
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs is not permitted here: {done.stderr.strip()}")
    try:
        yield target
    finally:
        if subprocess.run(["umount", str(target)], capture_output=True, timeout=60).returncode:
            subprocess.run(["umount", "-l", str(target)], capture_output=True, timeout=60)  # busy: detach now


def test_real_full_disk(inp, reference, tiny_disk, routes):
    _, _, fresh = reference
    cache_dir = tiny_disk / "hf"
    with pytest.raises(CacheError, match=_MESSAGE.format(folder=cache_dir, name=inp.name, mount=tiny_disk)) as info:
        routes["load"](inp, cache_dir)
    assert info.value.__cause__ is not None  # datasets' DatasetGenerationError, itself caused by the OSError
    assert _leftovers(tiny_disk) == []
    assert shutil.disk_usage(tiny_disk).free > 1_000_000  # the partial file's space is back while the error is alive
    _, code, err = routes["cli_stats"](inp, cache_dir)
    assert (
        code == 2
        and err.count("\n") == 1
        and err.startswith(f"himga: error: no space left on device while writing the cache {cache_dir}/")
    )
    assert _leftovers(tiny_disk) == []
    filler = tiny_disk / "filler"  # a disk already full: datasets' own pre-check fails (an OSError without errno)
    with pytest.raises(OSError, match="No space left"), open(filler, "wb") as f:
        while True:
            f.write(b"x" * 65536)
    assert shutil.disk_usage(tiny_disk).free == 0
    with pytest.raises(CacheError, match=r"the file system mounted at .* is full; Not enough disk space\. Needed: "):
        routes["load"](inp, cache_dir)
    filler.unlink()
    assert _leftovers(tiny_disk) == []
    assert _mount("-o", "remount,size=64m", str(tiny_disk)).returncode == 0
    for name, route in routes.items():
        assert route(inp, cache_dir) == fresh[name], name


def test_simulated_full_disk(inp, reference, tmp_path, routes, monkeypatch):
    _, _, fresh = reference
    cache_dir = tmp_path / "hf"

    def no_space(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(datasets.arrow_writer.ArrowWriter, "_build_writer", no_space)
        with pytest.raises(CacheError, match=_MESSAGE.format(folder=cache_dir, name=inp.name, mount="/[^ ]*")):
            routes["load"](inp, cache_dir)
        _, code, err = routes["cli_export"](inp, cache_dir)
        assert (
            code == 2
            and err.count("\n") == 1
            and err.startswith("himga: error: no space left on device while writing the cache ")
        )
        with pytest.raises(CacheError, match="^no space left on device"):
            inp.hf(cache_dir, split="test")  # datasets.load_dataset: the same error, not DatasetGenerationError
    assert _leftovers(cache_dir) == []
    for name, route in routes.items():
        assert route(inp, cache_dir) == fresh[name], name
