"""himga.cache._manifest on a hand-made cache folder (no real data): the manifest, the checks on open, verify,
find_caches."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest

from himga.cache import _manifest as cache
from himga.errors import CacheError


@pytest.fixture
def folder(tmp_path):
    """``<root>/x/default-0/1.0.0/abc``: a 3-row ``x-test.arrow`` in 2 batches, dataset_info.json, a manifest."""
    path = tmp_path / "root" / "x" / "default-0" / "1.0.0" / "abc"
    path.mkdir(parents=True)
    table = pa.table({"text": ["a", "b", "c"]})
    with pa.OSFile(str(path / "x-test.arrow"), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=2):
            writer.write_batch(batch)
    info = {"dataset_name": "x", "splits": {"test": {"name": "test", "num_examples": 3, "dataset_name": "x"}}}
    (path / cache.INFO_FILE).write_text(json.dumps(info), encoding="utf-8")
    cache.record(path)
    return path


def test_manifest_lists_every_file_with_size_and_hash(folder):
    manifest = json.loads((folder / cache.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["hash"] == "xxh3_64"
    assert sorted(manifest["files"]) == ["dataset_info.json", "x-test.arrow"]
    entry = manifest["files"]["x-test.arrow"]
    assert entry["size"] == (folder / "x-test.arrow").stat().st_size
    assert entry["xxh3_64"] == cache.file_hash(folder / "x-test.arrow") and len(entry["xxh3_64"]) == 16
    assert not list(folder.glob(".*"))  # the temporary manifest was renamed


def test_file_hash_is_xxh3_64_of_the_bytes(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"")
    assert (
        cache.file_hash(path) == "2d06800538d394c2"
    )  # XXH3_64bits(""): the test vector of xxHash v0.8.3 cli/xsum_sanity_check.c (as its ports quote it)
    path.write_bytes(b"x" * (3 << 20))  # more than one read chunk
    import xxhash

    assert cache.file_hash(path) == xxhash.xxh3_64(b"x" * (3 << 20)).hexdigest()


def test_intact_folder_passes_every_check(folder):
    cache.check_sizes(folder)
    cache.check_rows(folder, "test", 3, 3)
    assert cache.verify(folder) == []


def test_cut_file_fails_on_open_with_the_folder_and_how_to_clear_it(folder):
    size = (folder / "x-test.arrow").stat().st_size
    os.truncate(folder / "x-test.arrow", size - 10)
    with pytest.raises(CacheError) as info:
        cache.check_sizes(folder)
    assert info.value.folder == str(folder)
    assert str(info.value) == (
        f"damaged cache {folder}: x-test.arrow has {size - 10:,} bytes, {size:,} when it was built; "
        f"remove the folder (rm -rf {folder}) and load again to rebuild it"
    )
    assert cache.verify(folder) == [f"x-test.arrow has {size - 10:,} bytes, {size:,} when it was built"]


def test_row_mismatch(folder):
    with pytest.raises(CacheError, match=r": split 'test\[:2\]' has 1 rows, 2 according to dataset_info.json; remove"):
        cache.check_rows(folder, "test[:2]", 1, 2)


def test_missing_and_unreadable_manifest(folder):
    (folder / cache.MANIFEST).write_text("{", encoding="utf-8")
    with pytest.raises(CacheError, match=r"himga_checksums.json is unreadable \(JSONDecodeError: "):
        cache.check_sizes(folder)
    (folder / cache.MANIFEST).write_text('{"hash": "md5", "files": {}}', encoding="utf-8")
    assert cache.verify(folder)[0].startswith("himga_checksums.json is unreadable (ValueError: unknown hash 'md5'")
    (folder / cache.MANIFEST).unlink()
    with pytest.raises(CacheError, match=r"himga_checksums.json is missing \(built by an older himga, or removed\)"):
        cache.check_sizes(folder)


def test_same_size_change_is_found_only_by_verify(folder):
    data = bytearray((folder / "x-test.arrow").read_bytes())
    data[data.rindex(b"c")] = ord("C")
    (folder / "x-test.arrow").write_bytes(data)
    cache.check_sizes(folder)  # the open-time check does not read the data
    (problem,) = cache.verify(folder)
    assert problem.startswith("x-test.arrow: xxh3_64 ") and problem.endswith(" when it was built (bytes altered)")


def test_verify_counts_rows_of_each_split(folder):
    info = json.loads((folder / cache.INFO_FILE).read_text(encoding="utf-8"))
    info["splits"]["test"]["num_examples"] = 4
    (folder / cache.INFO_FILE).write_text(json.dumps(info), encoding="utf-8")
    cache.record(folder)
    assert cache.verify(folder) == ["split 'test' has 3 rows, 4 according to dataset_info.json"]


def test_find_caches_skips_incomplete_builds_and_other_names(folder, tmp_path):
    root = tmp_path / "root"
    (folder.parent / "abc.incomplete").mkdir()
    (folder.parent / "abc.incomplete" / cache.INFO_FILE).write_text("{}", encoding="utf-8")
    assert cache.find_caches(root, ["x"]) == [folder]
    assert cache.find_caches(root, ["y"]) == []


def test_find_caches_leaves_out_another_builder_s_cache_of_the_same_name(folder, tmp_path):
    """``datasets`` caches an export folder named ``x`` it loads under ``<root>/x/`` too, as the ``parquet`` builder:
    not a himga cache (no manifest), so verify neither checks it nor calls it damaged."""
    root = tmp_path / "root"
    parquet = root / "x" / "default" / "0.0.0" / "0e83"
    parquet.mkdir(parents=True)
    (parquet / cache.INFO_FILE).write_text(
        json.dumps({"builder_name": "parquet", "dataset_name": "x"}), encoding="utf-8"
    )
    (parquet / "x-test.arrow").write_bytes(b"data")
    older = root / "x" / "default-1" / "1.0.0" / "abc"  # himga's own builder, without a manifest: still found
    older.mkdir(parents=True)
    (older / cache.INFO_FILE).write_text(json.dumps({"builder_name": "x"}), encoding="utf-8")
    unreadable = root / "x" / "default-2" / "1.0.0" / "abc"  # a damaged dataset_info.json: found, for verify to report
    unreadable.mkdir(parents=True)
    (unreadable / cache.INFO_FILE).write_text("{", encoding="utf-8")
    assert cache.find_caches(root, ["x"]) == [folder, older, unreadable]
