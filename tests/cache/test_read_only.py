"""A complete cache on a read-only file system, or in folders another user cannot write, is read without writing
anything, on every route; an incomplete one is a CacheError saying the cache is read-only.

Two real setups, each skipped with its reason where this machine cannot provide it:

* a read-only bind mount (``mount --bind -o ro``; needs root and mount permission): ``EROFS`` even for root;
* another user: a subprocess dropped to uid 65534 with ``setpriv`` (needs root, and an interpreter and
  worktree that uid can read), reading a cache whose folders belong to root (root ignores file modes,
  so this is the only way to test them).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from himga.cli import main
from himga.errors import CacheError

NOBODY = 65534


def _tree(root: Path) -> list[tuple[str, int, int]]:
    """Every path under ``root`` with its size and mtime: equal before and after means nothing was written."""
    return sorted((str(p.relative_to(root)), p.lstat().st_size, p.lstat().st_mtime_ns) for p in root.rglob("*"))


def _run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


@pytest.fixture
def read_only_mount(reference, tmp_path):
    """The reference cache, bind-mounted read-only at a new path."""
    if os.geteuid() != 0:
        pytest.skip(f"a read-only bind mount needs root (running as uid {os.geteuid()})")
    source, _, _ = reference
    target = tmp_path / "ro"
    target.mkdir()
    done = _run(["mount", "--bind", "-o", "ro", str(source), str(target)])
    if done.returncode != 0:
        pytest.skip(f"mount --bind -o ro is not permitted here: {done.stderr.strip()}")
    try:
        yield target
    finally:
        _run(["umount", str(target)])


def test_complete_cache_on_read_only_mount_serves_the_fresh_rows(inp, reference, read_only_mount, routes, capsys):
    _, folder, fresh = reference
    assert not os.access(read_only_mount, os.W_OK)  # EROFS, even for root
    before = _tree(read_only_mount)
    for name, route in routes.items():
        assert route(inp, read_only_mount) == fresh[name], name
    first = next(iter(inp.hf(read_only_mount, split="test", streaming=True)))
    assert first["sample_id"] == fresh["load"][0].sample_id
    assert main(["verify", "--cache-dir", str(read_only_mount)]) == 0
    assert capsys.readouterr().out.startswith(f"ok       {read_only_mount / folder.relative_to(reference[0])} (")
    assert _tree(read_only_mount) == before


def test_incomplete_cache_on_read_only_mount_says_read_only(inp, read_only_mount, routes, shared_data):
    other = type(inp)(
        "longmemeval", "oracle", shared_data / "longmemeval" / "longmemeval_oracle_pair.json", rows=2, batches=1
    )
    with pytest.raises(
        CacheError,
        match=r"^the cache .*/longmemeval/oracle-[0-9a-f]+/[0-9]+\.[0-9]+\.[0-9]+/[0-9a-f-]+ is not built and its file "
        r"system or folder is read-only; build it once where",
    ):
        routes["load"](other, read_only_mount)
    _, code, err = routes["cli_stats"](other, read_only_mount)
    assert (
        code == 2
        and err.startswith(f"himga: error: the cache {read_only_mount}/longmemeval/oracle-")
        and err.count("\n") == 1
    )


# --- as another user -----------------------------------------------------------------------------------

_NOBODY_SCRIPT = """
import hashlib, json, sys, datasets
from dataclasses import asdict
from himga.data import build_dataset, load_locomo, load_longmemeval, samples_from_dataset
name, config, path, cache = sys.argv[1], sys.argv[2] or None, sys.argv[3], sys.argv[4]
datasets.disable_progress_bars()
def digest(samples):
    return hashlib.sha256(json.dumps([asdict(s) for s in samples], sort_keys=True, default=str).encode()).hexdigest()
def load(**kw):
    if name == "locomo":
        return load_locomo(path, cache_dir=cache, **kw)
    return load_longmemeval(path, config=config, cache_dir=cache, **kw)
source = {"data_dir": path} if name == "locomo" else {"data_files": path}
hf = lambda **kw: datasets.load_dataset("himga_" + name, config, cache_dir=cache, **source, **kw)
print(json.dumps({
    "load": digest(load()),
    "lazy": digest(load(lazy=True)),
    "datasets": digest(samples_from_dataset(hf(split="test"))),
    "stream": next(iter(hf(split="test", streaming=True)))["sample_id"],
}))
"""


def _digest(samples) -> str:
    from dataclasses import asdict

    return hashlib.sha256(json.dumps([asdict(s) for s in samples], sort_keys=True, default=str).encode()).hexdigest()


@pytest.fixture
def shared_cache(inp, reference):
    """A copy of the reference cache in a folder uid 65534 can read but not write (root-owned, 0755/0644)."""
    source, _, _ = reference
    base = Path(tempfile.mkdtemp(prefix="himga-shared-cache-"))
    try:
        base.chmod(0o755)
        cache_dir = base / "hf"
        shutil.copytree(source, cache_dir, ignore=shutil.ignore_patterns("*.lock"))
        for path in [cache_dir, *cache_dir.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield cache_dir
    finally:
        shutil.rmtree(base)


def test_another_user_reads_a_complete_cache_without_writing(inp, reference, as_nobody, shared_cache):
    _, _, fresh = reference
    before = _tree(shared_cache)
    done = as_nobody(sys.executable, "-c", _NOBODY_SCRIPT, inp.name, inp.config or "", str(inp.path), str(shared_cache))
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    digest = _digest(fresh["load"])
    assert got == {"load": digest, "lazy": digest, "datasets": digest, "stream": fresh["load"][0].sample_id}
    himga = str(Path(sys.executable).with_name("himga"))
    stats = as_nobody(himga, *inp.cli("stats", "--cache-dir", str(shared_cache), "--json"))
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout) == fresh["cli_stats"]
    assert _tree(shared_cache) == before


def test_another_user_gets_a_read_only_error_for_an_incomplete_cache(inp, as_nobody, shared_cache, shared_data):
    himga = str(Path(sys.executable).with_name("himga"))
    pair = shared_data / "longmemeval" / "longmemeval_oracle_pair.json"
    before = _tree(shared_cache)
    done = as_nobody(
        himga, "stats", "longmemeval", "--config", "oracle", "--data-dir", str(pair), "--cache-dir", str(shared_cache)
    )
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr.startswith(f"himga: error: the cache {shared_cache}/longmemeval/oracle-")
        and done.stderr.count("\n") == 1
    )
    assert "is not built and its file system or folder is read-only" in done.stderr
    assert _tree(shared_cache) == before


def test_another_user_gets_one_line_for_an_unreadable_source(as_nobody, shared_data):
    """Not a cache fault, but the same path: an OSError that datasets wraps while building is the CLI's one line."""
    base = Path(tempfile.mkdtemp(prefix="himga-unreadable-"))
    try:
        base.chmod(0o755)
        (base / "cache").mkdir(mode=0o777)
        (base / "cache").chmod(0o777)
        (base / "src").mkdir(mode=0o755)
        source = base / "src" / "locomo10.json"
        shutil.copyfile(shared_data / "locomo" / "locomo10.json", source)
        source.chmod(0o600)  # root's only
        himga = str(Path(sys.executable).with_name("himga"))
        done = as_nobody(himga, "stats", "locomo", "--data-dir", str(base / "src"), "--cache-dir", str(base / "cache"))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == f"himga: error: locomo: source '{source}' is unreadable (Permission denied)\n"
        assert not list((base / "cache").rglob("dataset_info.json")) and not list(
            (base / "cache").rglob("*.incomplete")
        )
    finally:
        shutil.rmtree(base)
