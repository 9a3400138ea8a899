"""Issue 16 §1: an export removes only what an earlier himga export of the same dataset wrote.

Anything else where an export would write (a file of your own in ``data/<config>``, a plain file at
``data/<config>``, a foreign ``.himga-export.incomplete``, a filesystem root) is a ``ConfigurationError``
naming it, raised before anything is written: the folder is byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from himga.errors import ConfigurationError
from himga.publish import export

FIX = "move it away or export into an empty folder; himga removes only what an export of this dataset wrote"


def _locomo(folder: Path) -> Path:
    conversation = {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:00 pm on 1 May, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "hello"}],
    }
    record = {
        "sample_id": "conv-x",
        "conversation": conversation,
        "qa": [{"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2}],
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    return folder


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: file bytes, ``"dir"``, or ``"-> target"`` for a link."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        out[key] = f"-> {os.readlink(p)}" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes()
    return out


def _refused(tmp_path: Path, out: Path) -> str:
    before = _tree(out)
    with pytest.raises(ConfigurationError) as info:
        export("locomo", out, data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")
    assert _tree(out) == before  # nothing removed, nothing written (not even the lock file)
    return str(info.value)


def test_file_of_your_own_in_the_config_folder_is_kept(tmp_path):
    out = tmp_path / "out"
    (out / "data" / "default").mkdir(parents=True)
    (out / "data" / "default" / "important.txt").write_text("mine", encoding="utf-8")
    message = _refused(tmp_path, out)
    assert (
        message == f"locomo: {str(out / 'data' / 'default')!r} exists but {str(out)!r} has no himga card of locomo "
        f"(README.md): {FIX}"
    )


def test_foreign_staging_folder_is_kept(tmp_path):
    out = tmp_path / "out"
    (out / ".himga-export.incomplete").mkdir(parents=True)
    (out / ".himga-export.incomplete" / "precious.txt").write_text("mine", encoding="utf-8")
    message = _refused(tmp_path, out)
    staging = out / ".himga-export.incomplete"
    assert message == f"locomo: {str(staging)!r} was not made by himga export (no .himga-staging): {FIX}"


def test_plain_file_at_the_config_folder_is_kept(tmp_path):
    out = tmp_path / "out"
    (out / "data").mkdir(parents=True)
    (out / "data" / "default").write_text("a file, not a folder", encoding="utf-8")
    assert "has no himga card of locomo" in _refused(tmp_path, out)


def test_stray_file_in_an_earlier_export_is_kept(tmp_path):
    out = tmp_path / "out"
    export("locomo", out, data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")
    stray = out / "data" / "default" / "notes.txt"
    stray.write_text("mine", encoding="utf-8")
    assert _refused(tmp_path, out) == f"locomo: {str(stray)!r} was not written by an export of locomo/default: {FIX}"
    stray.unlink()
    link = out / "data" / "default" / "test-00001-of-00001.parquet"
    link.symlink_to(tmp_path / "src" / "locomo10.json")  # a shard's name, not a shard
    assert _refused(tmp_path, out) == f"locomo: {str(link)!r} was not written by an export of locomo/default: {FIX}"
    link.unlink()
    export("locomo", out, data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")  # its own export: replaced
    assert sorted(p.name for p in (out / "data" / "default").iterdir()) == ["test-00000-of-00001.parquet"]


def test_config_folder_of_another_dataset_is_kept(tmp_path):
    out = tmp_path / "out"
    export("locomo", out, data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")
    shard = out / "data" / "default" / "test-00000-of-00001.parquet"
    shutil.copy(shard, tmp_path / "shard.parquet")
    import pyarrow.parquet as pq

    table = pq.read_table(shard)
    meta = dict(table.schema.metadata)
    meta[b"himga"] = json.dumps({"dataset": "longmemeval", "config": "default", "sources": []}).encode()
    pq.write_table(table.replace_schema_metadata(meta), shard)
    assert _refused(tmp_path, out) == f"locomo: {str(shard)!r} was not written by an export of locomo/default: {FIX}"


def test_killed_exports_staging_folder_is_cleared(tmp_path):
    out = tmp_path / "out"
    staging = out / ".himga-export.incomplete"
    (staging / "default").mkdir(parents=True)
    (staging / ".himga-staging").write_text("locomo\n", encoding="utf-8")
    (staging / "default" / "test-00000-of-00001.parquet").write_bytes(b"half")
    export("locomo", out, data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data"]  # no lock file left in the export


def test_filesystem_root_is_refused(tmp_path):
    with pytest.raises(ConfigurationError) as info:
        export("locomo", "/", data_dir=_locomo(tmp_path / "src"), cache_dir=tmp_path / "cache")
    assert str(info.value) == "locomo: refusing to export into the filesystem root '/': give a folder of its own"


def test_as_another_user_nothing_is_removed(as_nobody, tmp_path):
    """The same refusals for a user who is not root, on the command line (and ``/``, which it cannot write)."""
    base = Path(tempfile.mkdtemp(prefix="himga-foreign-"))
    try:
        src = _locomo(base / "src")
        out = base / "out"
        (out / "data" / "default").mkdir(parents=True)
        (out / "data" / "default" / "important.txt").write_text("mine", encoding="utf-8")
        (out / ".himga-export.incomplete").mkdir()
        (out / ".himga-export.incomplete" / "precious.txt").write_text("mine", encoding="utf-8")
        for path in [base, *base.rglob("*")]:
            os.chown(path, 65534, 65534)
        before = _tree(out)
        himga = str(Path(sys.executable).with_name("himga"))
        env = {"HF_DATASETS_CACHE": str(base / "cache")}
        for target in (out, Path("/")):
            done = as_nobody(himga, "export", "locomo", str(target), "--data-dir", str(src), extra_env=env)
            assert done.returncode == 2, done.stderr[-2000:]
            assert len(done.stderr.splitlines()) == 1, done.stderr
            assert (
                "is not himga's" in done.stderr
                or "exists but" in done.stderr
                or "was not made" in done.stderr
                or "filesystem root" in done.stderr
            ), done.stderr
        assert _tree(out) == before
        assert not Path("/README.md").exists() or Path("/README.md").stat().st_uid != 65534
    finally:
        shutil.rmtree(base)
