"""The JSON readers: duplicate object keys, and a source that changes while it is read.

The bad-input matrices (``tests/errors``) run duplicate keys through every loader; here: the real files
have none, a duplicate is found where ``ijson`` has already parsed ahead, and the identity check.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from himga.errors import SourceChangedError, SourceFormatError
from himga.jsonio import reader as jsonfile
from himga.jsonio.reader import iter_array_items, load_json

# file → (objects, keys) counted by an independent parse (json's object_pairs_hook)
REAL_FILES = {
    "locomo/locomo10.json": (8462, 31638),
    "longmemeval/longmemeval_oracle_sample.json": (2273, 7401),
    "longmemeval/longmemeval_oracle_pair.json": (60, 192),
}


@pytest.mark.parametrize("name", sorted(REAL_FILES))
def test_real_files_have_no_duplicate_keys_and_read_whole(shared_data, name):
    counts = {"objects": 0, "keys": 0, "with_duplicates": 0}

    def count(pairs):
        counts["objects"] += 1
        counts["keys"] += len(pairs)
        counts["with_duplicates"] += len({k for k, _ in pairs}) != len(pairs)
        return dict(pairs)

    path = shared_data / name
    expected = json.loads(path.read_text(encoding="utf-8-sig"), object_pairs_hook=count)
    assert (counts["objects"], counts["keys"], counts["with_duplicates"]) == (*REAL_FILES[name], 0)
    if name.startswith("locomo"):
        assert load_json(path) == expected
    else:
        assert [item for _, item in iter_array_items(path)] == expected


def test_duplicate_found_in_the_right_item_when_ijson_parsed_ahead(tmp_path):
    # ijson parses a 64 KiB buffer at a time: item 2's duplicate is seen before item 0 is yielded,
    # and item 40's only after several buffers
    items = [{"question_id": f"q{i}", "text": "x" * 5000} for i in range(60)]
    text = json.dumps(items)
    for i in (2, 40):
        path = tmp_path / f"dup{i}.json"
        marker = f'"question_id": "q{i}"'
        path.write_text(text.replace(marker, f'{marker}, "question_id": "again"'))
        seen = []
        with pytest.raises(SourceFormatError) as info:
            for index, _item in iter_array_items(path, id_key="question_id", id_label="question"):
                seen.append(index)
        assert str(info.value).startswith(f"dup{i}.json: $[{i}].question_id: duplicate key 'question_id'")
        assert seen == list(range(len(seen))) and len(seen) <= i  # never an item at or after the bad one


def test_duplicate_in_a_nested_object_of_a_single_object_file(tmp_path):
    path = tmp_path / "one.json"
    path.write_text('{"a": [{"b": {"c": 1, "d": 2, "c": 3}}]}')
    with pytest.raises(SourceFormatError) as info:
        load_json(path)
    assert (info.value.file, info.value.path) == ("one.json", "$.a[0].b.c")


def _rewrite_in_place(path, at: int, data: bytes) -> None:
    """Overwrite bytes of ``path`` without truncating it (as ``rsync --inplace`` or ``dd conv=notrunc``).

    Waits 50 ms first: on file systems with coarse timestamps (a kernel tick), a write within the same
    tick as the previous one would keep mtime and ctime.
    """
    time.sleep(0.05)
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(data)


def test_load_json_raises_when_the_file_changes_during_the_read(tmp_path, monkeypatch):
    path = tmp_path / "locomo10.json"
    path.write_text('[{"x": "old"}]')
    real_fstat = jsonfile.os.fstat
    calls = []

    def fstat_then_edit(fd):
        result = real_fstat(fd)
        if not calls:  # after the identity is taken, before the bytes are read
            _rewrite_in_place(path, 8, b"new")
        calls.append(fd)
        return result

    monkeypatch.setattr(jsonfile.os, "fstat", fstat_then_edit)
    with pytest.raises(SourceChangedError) as info:
        load_json(path)
    assert info.value.file == "locomo10.json"
    assert str(info.value).startswith("locomo10.json: the source changed while it was read")
    monkeypatch.undo()
    assert load_json(path) == [{"x": "new"}]


@pytest.mark.parametrize("change", ["rewrite in place", "replace by rename", "delete", "touch -r back"])
def test_iter_array_items_raises_when_the_file_changes_during_the_read(tmp_path, change):
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"question_id": f"q{i}", "answer": "old"} for i in range(3)]))
    items = iter_array_items(path)
    assert next(items)[1]["question_id"] == "q0"  # the file is open and being read
    stat = path.stat()
    if change == "rewrite in place":
        _rewrite_in_place(path, path.read_bytes().rindex(b"old"), b"new")
    elif change == "replace by rename":
        (tmp_path / "other.json").write_text("[]")
        (tmp_path / "other.json").replace(path)
    elif change == "delete":
        path.unlink()
    else:  # an edit whose mtime is set back: size, mtime and inode equal, ctime not
        _rewrite_in_place(path, path.read_bytes().rindex(b"old"), b"new")
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        assert (path.stat().st_size, path.stat().st_mtime_ns, path.stat().st_ino) == (
            stat.st_size,
            stat.st_mtime_ns,
            stat.st_ino,
        )
    with pytest.raises(SourceChangedError, match="^s.json: the source changed while it was read"):
        list(items)
