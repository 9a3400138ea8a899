"""A built cache cut short or altered is never served as whole, on every route.

Each fault is applied to a copy of a fresh build; then every route (facade list and lazy, build_dataset,
``datasets.load_dataset`` whole and sliced, ``himga stats``, ``himga export``) must raise the one
``CacheError`` naming the cache folder (the CLI: one line, exit 2) or return exactly what the fresh build
returned; after ``rm -rf`` of the folder named in the message, every route returns the fresh values again.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import pyarrow as pa
import pytest

from himga.cache import _manifest as cache
from himga.errors import CacheError


def arrow_file(folder: Path) -> Path:
    (path,) = folder.glob("*.arrow")
    return path


def message_ends(path: Path) -> list[int]:
    """The byte offset after each IPC message of an Arrow stream file (the schema, then each record batch)."""
    ends = []
    with pa.OSFile(str(path)) as f:
        reader = pa.ipc.MessageReader.open_stream(f)
        while True:
            try:
                reader.read_next_message()
            except StopIteration:
                return ends
            ends.append(f.tell())


def cut_at_batch_boundary(folder, inp):
    """Half the record batches (LoCoMo: its one batch), as an interrupted copy leaves: a valid, shorter stream."""
    path = arrow_file(folder)
    ends = message_ends(path)
    assert len(ends) == 1 + inp.batches
    os.truncate(path, ends[inp.batches // 2])


def cut_mid_batch(folder, inp):
    path = arrow_file(folder)
    os.truncate(path, message_ends(path)[1] - 1000)


def empty_arrow(folder, inp):
    os.truncate(arrow_file(folder), 0)


def missing_arrow(folder, inp):
    arrow_file(folder).unlink()


def truncated_info(folder, inp):
    info = folder / cache.INFO_FILE
    os.truncate(info, info.stat().st_size // 2)


def missing_manifest(folder, inp):
    (folder / cache.MANIFEST).unlink()


def garbled_manifest(folder, inp):
    (folder / cache.MANIFEST).write_text('{"hash": "xxh3_64", "files": {"x": {}}}', encoding="utf-8")


def missing_info(folder, inp):
    """``dataset_info.json`` gone: ``datasets`` would take the folder for unbuilt and rebuild over it, silently."""
    (folder / cache.INFO_FILE).unlink()


def arrow_is_a_folder(folder, inp):
    path = arrow_file(folder)
    path.unlink()
    path.mkdir()


def cut_and_manifest_rewritten(folder, inp):
    """A batch-boundary cut whose manifest was rewritten to match (sizes agree): the row count still differs."""
    cut_at_batch_boundary(folder, inp)
    cache.record(folder)


FAULTS = [
    cut_at_batch_boundary,
    cut_mid_batch,
    empty_arrow,
    missing_arrow,
    truncated_info,
    missing_manifest,
    garbled_manifest,
    cut_and_manifest_rewritten,
    missing_info,
    arrow_is_a_folder,
]


def _expect_error_or_fresh(route, value, fresh, folder: Path) -> None:
    """``value`` is what ``route`` returned (CLI: ``("exit", code, stderr)``) or the CacheError it raised."""
    if isinstance(value, CacheError):
        assert value.folder == str(folder) and f"cache {folder}" in str(value), str(value)
        assert f"rm -rf {folder}" in str(value)
    elif isinstance(value, tuple) and value[0] == "exit":
        _, code, err = value
        assert code == 2 and err.count("\n") == 1 and err.startswith("himga: error: damaged cache "), err
        assert f"cache {folder}:" in err and "Traceback" not in err
    else:  # no error: then it must be the fresh build's value, whole
        assert value == fresh, route


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.__name__)
def test_fault_raises_on_every_route_then_rebuilds_identically(fault, inp, reference, cache_copy, routes):
    _, _, fresh = reference
    cache_dir, folder = cache_copy
    fault(folder, inp)
    outcomes = {}
    for name in routes:
        try:
            outcomes[name] = routes[name](inp, cache_dir)
        except CacheError as e:
            outcomes[name] = e
        _expect_error_or_fresh(name, outcomes[name], fresh[name], folder)
    # the whole split is never returned from a damaged cache: these routes must all fail
    whole = {n: o for n, o in outcomes.items() if n != "datasets_slice"}
    assert all(isinstance(o, CacheError) or (isinstance(o, tuple) and o[0] == "exit") for o in whole.values()), whole
    # the message says how to clear it; doing so rebuilds exactly the fresh rows
    removed = re.search(r"\(rm -rf (\S+)\)", str(outcomes["load"])).group(1)
    assert removed == str(folder)
    shutil.rmtree(removed)
    for name in routes:
        assert routes[name](inp, cache_dir) == fresh[name], name


def test_detected_errors_name_what_is_wrong(inp, reference, cache_copy, routes):
    cache_dir, folder = cache_copy
    cut_and_manifest_rewritten(folder, inp)
    half = 0 if inp.batches == 1 else 50
    with pytest.raises(CacheError, match=rf"split 'test' has {half} rows, {inp.rows} according to dataset_info.json"):
        routes["load"](inp, cache_dir)
    with (
        pytest.raises(CacheError, match=r"split 'test\[:3\]' has 0 rows, 3 according")
        if half == 0
        else contextlib.nullcontext()
    ):
        routes["datasets_slice"](
            inp, cache_dir
        )  # LongMemEval: the first 50 rows are intact, so a slice of them is served


def test_size_mismatch_message(inp, cache_copy, routes):
    cache_dir, folder = cache_copy
    size = arrow_file(folder).stat().st_size
    empty_arrow(folder, inp)
    with pytest.raises(CacheError) as info:
        routes["lazy"](inp, cache_dir)
    name = arrow_file(folder).name
    assert str(info.value) == (
        f"damaged cache {folder}: {name} has 0 bytes, {size:,} when it was built; "
        f"remove the folder (rm -rf {folder}) and load again to rebuild it"
    )


# --- a flipped bit in the text of a row (same size: not caught on open) ---------------


def flip_in_text(folder, inp):
    """The high bit of the 't' of the first " the " in the Arrow file: row text that is no longer UTF-8."""
    path = arrow_file(folder)
    data = bytearray(path.read_bytes())
    at = data.index(b" the ") + 1
    data[at] ^= 0x80
    path.write_bytes(bytes(data))


def flip_in_raw_json(folder, inp):
    """A ':' of a raw cell's JSON text turned into ';' (one bit): text still UTF-8, but no longer JSON."""
    path = arrow_file(folder)
    data = bytearray(path.read_bytes())
    at = data.rindex(b'"question_type": ' if inp.name == "longmemeval" else b'"category": ')  # the last: in the rows
    at = data.index(b":", at)
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def flip_in_features(folder, inp):
    """A ':' of the features JSON in the Arrow schema's metadata (read by datasets on open) turned into ';'."""
    path = arrow_file(folder)
    data = bytearray(path.read_bytes())
    data[data.index(b":", data.index(b'"_type"'))] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("fault", [flip_in_text, flip_in_raw_json, flip_in_features], ids=lambda f: f.__name__)
def test_rows_that_no_longer_decode_are_a_cache_error(fault, inp, reference, cache_copy, routes):
    """Every route that turns rows into Samples (and the export, which would publish them) raises the
    CacheError with the `himga verify` and `rm -rf` lines, never a bare UnicodeDecodeError / JSONDecodeError.
    (build_dataset and datasets.load_dataset return a Dataset: rows are decoded by datasets when read.)"""
    _, _, fresh = reference
    cache_dir, folder = cache_copy
    fault(folder, inp)
    checked = ["load", "lazy", "datasets", "cli_stats"] + (["cli_export"] if fault is not flip_in_raw_json else [])
    for name in checked:
        try:
            value = routes[name](inp, cache_dir)
        except CacheError as e:
            value = e
        assert isinstance(value, (CacheError, tuple)), (name, value)
        _expect_error_or_fresh(name, value, fresh[name], folder)
        text = str(value) if isinstance(value, CacheError) else value[2]
        assert "its rows no longer decode (" in text and "(`himga verify` checks every cache)" in text, (name, text)
    shutil.rmtree(folder)
    for name in checked:
        assert routes[name](inp, cache_dir) == fresh[name], name


def test_open_and_verify_say_the_same(inp, cache_copy, routes):
    """A missing dataset_info.json, and a folder in place of the Arrow file: one wording on open and in verify."""
    cache_dir, folder = cache_copy
    name = arrow_file(folder).name
    arrow_is_a_folder(folder, inp)
    with pytest.raises(CacheError, match=rf": {re.escape(name)} is a folder, not a file; remove the folder"):
        routes["load"](inp, cache_dir)
    assert cache.verify(folder) == [f"{name} is a folder, not a file"]
    shutil.rmtree(folder / name)
    missing_info(folder, inp)
    (folder / name).write_bytes(b"")  # (the manifest check reports the first problem it meets)
    with pytest.raises(CacheError, match=rf"damaged cache {re.escape(str(folder))}: dataset_info.json is missing"):
        routes["load"](inp, cache_dir)
    assert "dataset_info.json is missing" in cache.verify(folder)
