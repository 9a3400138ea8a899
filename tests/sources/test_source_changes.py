"""A source that changes during or after a build: after each fault every route raises a himga
error or returns exactly what a fresh build of the file as it now is returns.

Faults: an edit whose mtime is set back (``touch -r``, ``cp -p``), a rewrite in place while the file is
being read (``rsync --inplace``, ``dd conv=notrunc``), a deleted source.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from routes import all_routes, error_message

import himga.jsonio.reader
import himga_longmemeval.longmemeval


def _sources(shared_data, tmp_path):
    """``dataset → (config, file, same-size edit (old bytes, new bytes))``: small real files."""
    for name in ("locomo", "longmemeval"):
        (tmp_path / name).mkdir()
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    (tmp_path / "locomo" / "locomo10.json").write_text(json.dumps(records[:1]))
    shutil.copy(
        shared_data / "longmemeval" / "longmemeval_oracle_pair.json",
        tmp_path / "longmemeval" / "longmemeval_oracle.json",
    )
    return {
        "locomo": (None, tmp_path / "locomo" / "locomo10.json", (b"Caroline", b"Karoline")),
        "longmemeval": ("oracle", tmp_path / "longmemeval" / "longmemeval_oracle.json", (b"$", b"#")),
    }


def _edit(path, old: bytes, new: bytes) -> None:
    """Replace every ``old`` by ``new`` (same length) in place; 50 ms first, for coarse file-system clocks."""
    time.sleep(0.05)
    data = path.read_bytes()
    assert old in data and len(old) == len(new)
    with open(path, "r+b") as f:  # same inode, same size: only the content, mtime and ctime change
        f.write(data.replace(old, new))


def _fresh(load, dataset, config, path, tmp_path):
    """What a fresh build of ``path`` as it now is returns (a copy, in a new cache)."""
    copy = tmp_path / f"fresh-{time.monotonic_ns()}" / path.name
    copy.parent.mkdir()
    shutil.copy(path, copy)
    return load(dataset, config, copy, tmp_path / f"cache-{copy.parent.name}")


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
@pytest.mark.parametrize("restore", ["touch -r", "cp -p"])
@pytest.mark.parametrize("source", ["file", "folder"])
def test_edit_with_mtime_restored_gives_the_new_rows(shared_data, tmp_path, capsys, dataset, restore, source):
    config, path, (old, new) = _sources(shared_data, tmp_path)[dataset]
    given = path if source == "file" else path.parent
    for route, load in all_routes(capsys, given).items():
        cache = tmp_path / f"cache-{route}"
        before = load(dataset, config, given, cache)
        stat = path.stat()
        if restore == "touch -r":
            _edit(path, old, new)
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        else:  # cp -p of an edited copy that carries the old mtime
            edited = tmp_path / "edited" / path.name
            edited.parent.mkdir(exist_ok=True)
            shutil.copy2(path, edited)
            _edit(edited, old, new)
            os.utime(edited, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            shutil.copy2(edited, path)
        assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
        after = load(dataset, config, given, cache)
        assert after != before, route
        assert after == _fresh(load, dataset, config, path, tmp_path), route
        _edit(path, new, old)  # back to the original content for the next route (a new ctime again)
        assert load(dataset, config, given, cache) == before, route


def _rewrite_once(monkeypatch, module, name, path, old, new):
    """Patch ``module.name`` so that its first call rewrites ``path`` in place (``old`` → ``new``)."""
    real = getattr(module, name)
    done = []

    def patched(*args, **kwargs):
        result = real(*args, **kwargs)
        if not done:
            done.append(True)
            _edit(path, old, new)
        return result

    monkeypatch.setattr(module, name, patched)


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
def test_rewrite_during_the_read_raises_and_caches_nothing(shared_data, tmp_path, capsys, monkeypatch, dataset):
    config, path, (old, new) = _sources(shared_data, tmp_path)[dataset]
    original = path.read_bytes()
    for route, load in all_routes(capsys, path).items():
        cache = tmp_path / f"cache-{route}"
        with monkeypatch.context() as m:
            # the identity is taken when the read starts; the file changes right after
            _rewrite_once(m, himga.jsonio.reader, "file_identity", path, old, new)
            message = error_message(load, dataset, config, path, cache)
        assert message.startswith(f"{path.name}: the source changed while it was read"), route
        assert not list(cache.rglob("dataset_info.json")), route  # nothing cached
        assert load(dataset, config, path, cache) == _fresh(load, dataset, config, path, tmp_path), route
        path.write_bytes(original)


def test_longmemeval_rewritten_midway_never_gives_a_mix(shared_data, tmp_path, capsys, monkeypatch):
    # 40 questions of ~6 KB: ijson reads 64 KiB at a time, so the rewrite lands in a part not yet read
    pair = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    questions = [dict(pair[i % 2], question_id=f"q{i:02d}", answer="old answer") for i in range(40)]
    path = tmp_path / "src" / "longmemeval_oracle.json"
    path.parent.mkdir()
    path.write_text(json.dumps(questions))
    original = path.read_bytes()
    assert len(original) > 4 * 65536
    for route, load in all_routes(capsys, path).items():
        cache = tmp_path / f"cache-{route}"
        with monkeypatch.context() as m:
            _rewrite_once(m, himga_longmemeval.longmemeval, "question_to_row", path, b"old answer", b"new answer")
            message = error_message(load, "longmemeval", "oracle", path, cache)
        assert message.startswith("longmemeval_oracle.json: the source changed while it was read"), route
        samples = load("longmemeval", "oracle", path, cache)
        assert {s.qa_pairs[0].answer for s in samples} == {"new answer"}, route  # all new, never a mix
        path.write_bytes(original)  # restore the original (new ctime): the old rows again, not the cached new ones
        assert {s.qa_pairs[0].answer for s in load("longmemeval", "oracle", path, cache)} == {"old answer"}, route


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
def test_deleted_source_after_a_build_says_source_file(shared_data, tmp_path, capsys, dataset):
    config, path, _ = _sources(shared_data, tmp_path)[dataset]
    routes = all_routes(capsys, path)
    for route, load in routes.items():
        load(dataset, config, path, tmp_path / f"cache-{route}")
    path.unlink()
    for route, load in routes.items():
        message = error_message(load, dataset, config, path, tmp_path / f"cache-{route}")
        prefix = "" if route == "datasets data_files" else f"{dataset}: "
        assert message == f"{prefix}source {str(path)!r} does not exist", route
