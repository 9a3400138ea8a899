"""Downloads and the source cache: verified atomic downloads, offline errors, no network on
cache hits, HIMGA_DATASETS_ROOT first, concurrent builds, no tokens in output, no pickle.

The network is never used: ``huggingface_hub.file_download.http_get`` (LoCoMo's pinned URL) and
``huggingface_hub.hf_hub_download`` (LongMemEval's Hub files) are replaced by fakes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import huggingface_hub
import huggingface_hub.file_download
import pytest

from himga.catalog import benchmark
from himga.cli import main
from himga.data import load_dataset
from himga.errors import ChecksumError, DownloadError
from himga.utils import RemoteFile, cache_root, get_dataset

ROOT = Path(__file__).resolve().parents[2]
CONTENT = json.dumps(
    [
        {
            "sample_id": "conv-net",
            "conversation": {
                "speaker_a": "A",
                "speaker_b": "B",
                "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
            },
            "qa": [],
        }
    ]
).encode()
SHA = hashlib.sha256(CONTENT).hexdigest()
LOCOMO = RemoteFile("locomo10.json", "https://example.invalid/locomo10.json", SHA)
LME = RemoteFile(
    "longmemeval_oracle.json", "https://example.invalid/o.json", SHA, repo_id="someone/lme", revision="0" * 40
)
PIN = benchmark("locomo").pin()
FAKE_TOKEN = "hf_fakeTOKEN0123456789abcdefSECRET"


def _fake_http_get(content: bytes, fail_after: int | None = None, calls: list | None = None):
    def http_get(url, temp_file, **kwargs):
        if calls is not None:
            calls.append(url)
        if fail_after is not None:
            temp_file.write(content[:fail_after])
            temp_file.flush()
            raise ConnectionError("connection reset by peer")
        temp_file.write(content)

    return http_get


def _fake_hub_download(content: bytes, fail: bool = False, calls: list | None = None):
    def hf_hub_download(repo_id, filename, *, repo_type=None, revision=None, local_dir=None, **kwargs):
        if calls is not None:
            calls.append((repo_id, filename, repo_type, revision, kwargs.get("token")))
        if fail:
            raise ConnectionError("connection reset by peer")
        path = Path(local_dir) / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        return str(path)

    return hf_hub_download


def _leftovers(folder: Path) -> list[str]:
    """Every file under ``folder`` (hidden temporaries included), relative names."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.fixture(autouse=True)
def _own_himga_cache(monkeypatch, tmp_path):
    """A fresh, empty ``$HIMGA_CACHE`` per test (the suite-wide one is shared)."""
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path / "himga_cache"))


@pytest.fixture
def no_network(monkeypatch):
    """Fail any attempt to open a network connection."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:2]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", refuse)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", refuse)


# ---- LoCoMo: a plain URL fetched with http_get ------------------------------------------------------


def test_download_success_moves_verified_file_into_place(monkeypatch):
    calls = []
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", _fake_http_get(CONTENT, calls=calls))
    folder = get_dataset("locomo", files=[LOCOMO])
    assert folder == cache_root() / "locomo"
    assert (folder / "locomo10.json").read_bytes() == CONTENT
    assert _leftovers(folder) == [".locomo10.json.verified.json", "locomo10.json"]  # the file and its check's record
    assert calls == ["https://example.invalid/locomo10.json"]
    get_dataset("locomo", files=[LOCOMO])  # present: not fetched again
    assert len(calls) == 1


def test_corrupted_download_is_a_checksum_error_and_leaves_nothing(monkeypatch):
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", _fake_http_get(CONTENT[:-1] + b"X"))
    with pytest.raises(ChecksumError, match=f"locomo10.json: expected sha256 {SHA}, got [0-9a-f]{{64}}"):
        get_dataset("locomo", files=[LOCOMO])
    assert _leftovers(cache_root() / "locomo") == []


def test_interrupted_download_is_a_download_error_and_leaves_nothing(monkeypatch):
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", _fake_http_get(CONTENT, fail_after=10))
    with pytest.raises(DownloadError) as info:
        get_dataset("locomo", files=[LOCOMO])
    assert str(info.value).startswith(
        "locomo10.json: could not download https://example.invalid/locomo10.json (ConnectionError: connection reset by "
        "peer); "
        f"download https://example.invalid/locomo10.json yourself and put it in {cache_root() / 'locomo'}/ (a copy "
        "there that has the pinned sha256"
        " is used and not downloaded again), or in <dir>/locomo/ after `export HIMGA_DATASETS_ROOT=<dir>`, or pass "
        "--data-dir / data_dir= pointing at it"
    )
    assert _leftovers(cache_root() / "locomo") == []
    # the next attempt starts afresh and succeeds
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", _fake_http_get(CONTENT))
    assert (get_dataset("locomo", files=[LOCOMO]) / "locomo10.json").read_bytes() == CONTENT


def test_offline_with_empty_cache_names_the_file_and_where_to_put_it(monkeypatch, no_network):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DownloadError) as info:
        load_dataset("locomo")
    message = str(info.value)
    assert message.startswith(f"locomo10.json: not in {cache_root() / 'locomo'} and HF_HUB_OFFLINE is set; download ")
    assert message.endswith(
        f"put it in {cache_root() / 'locomo'}/ (a copy there that has the pinned sha256 is used and not downloaded "
        "again), or in "
        "<dir>/locomo/ after `export HIMGA_DATASETS_ROOT=<dir>`, or pass --data-dir / data_dir= pointing at it"
    )
    assert "$HIMGA_DATASETS_ROOT" not in message  # it is unset: naming it as a path would mislead
    assert _leftovers(cache_root()) == []


def test_offline_cli_prints_one_clear_line(monkeypatch, no_network, capsys):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["stats", "locomo"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: locomo10.json: not in ")
    assert "HIMGA_DATASETS_ROOT" in err and err.count("\n") == 1


def _pinned_in_cache(shared_data) -> Path:
    """The real pinned ``locomo10.json`` copied into the download cache, as a download would leave it."""
    cached = cache_root() / "locomo"
    cached.mkdir(parents=True)
    shutil.copyfile(shared_data / "locomo" / "locomo10.json", cached / "locomo10.json")
    return cached / "locomo10.json"


def test_datasets_root_wins_over_the_cache(monkeypatch, tmp_path, no_network, shared_data):
    _pinned_in_cache(shared_data)
    root = tmp_path / "mine"
    (root / "locomo").mkdir(parents=True)
    (root / "locomo" / "locomo10.json").write_bytes(CONTENT.replace(b"conv-net", b"conv-root"))
    assert [s.sample_id for s in load_dataset("locomo", cache_dir=tmp_path / "c")][:2] == ["conv-26", "conv-30"]
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(root))
    assert get_dataset("locomo") == root / "locomo"
    assert [s.sample_id for s in load_dataset("locomo", cache_dir=tmp_path / "c")] == ["conv-root"]


def test_the_pinned_file_in_the_cache_is_used_offline_and_hashed_once(monkeypatch, tmp_path, no_network, shared_data):
    cached = _pinned_in_cache(shared_data)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hashed = []
    monkeypatch.setattr("himga.sources._verified.sha256_of", lambda path: hashed.append(path) or PIN.sha256)
    for _ in range(2):
        assert len(load_dataset("locomo", cache_dir=tmp_path / "c")) == 10
    assert hashed == [cached]  # the second load finds the check's record


@pytest.mark.parametrize("change", ["edited", "truncated", "another release"])
def test_a_file_in_the_cache_that_is_not_the_pin_is_refused(tmp_path, no_network, shared_data, change):
    cached = _pinned_in_cache(shared_data)
    load_dataset("locomo", cache_dir=tmp_path / "c")  # verified once, and recorded
    data = cached.read_bytes()
    edited = {
        "edited": data.replace(b'"answer": "7 May 2023"', b'"answer": "8 May 2023"', 1),  # same size, other gold
        "truncated": data[:-1],
        "another release": CONTENT,
    }[change]
    assert edited != data
    cached.write_bytes(edited)
    with pytest.raises(ChecksumError) as info:
        load_dataset("locomo", cache_dir=tmp_path / "c")
    got = f"sha256 {hashlib.sha256(edited).hexdigest()}" if len(edited) == PIN.size else f"{len(edited):,} bytes"
    expected = f"sha256 {PIN.sha256}" if len(edited) == PIN.size else "2,805,274 bytes"
    assert str(info.value) == (
        f"locomo10.json in the download cache {cached.parent}/ is not the pinned file snap-research/locomo@3eb6f2c "
        f"data/locomo10.json (expected {expected}, got {got}): delete it to download the pinned file again, or read "
        "your copy with --data-dir / data_dir= (or from <dir>/locomo/ after `export HIMGA_DATASETS_ROOT=<dir>`)"
    )


def test_every_route_refuses_a_cached_file_that_is_not_the_pin(monkeypatch, tmp_path, no_network, capsys):
    """``load_dataset(name)``, ``datasets.load_dataset("himga_locomo")`` (built and streamed) and the CLI."""
    import datasets

    import himga  # noqa: F401  (registers the builders)

    cached = cache_root() / "locomo"
    cached.mkdir(parents=True)
    (cached / "locomo10.json").write_bytes(CONTENT)
    message = "locomo10.json in the download cache"
    with pytest.raises(ChecksumError, match=message):
        load_dataset("locomo", cache_dir=tmp_path / "c")
    with pytest.raises(ChecksumError, match=message):
        datasets.load_dataset("himga_locomo", cache_dir=str(tmp_path / "c2"))
    with pytest.raises(ChecksumError, match=message):
        next(iter(datasets.load_dataset("himga_locomo", streaming=True, split="test")))
    assert main(["stats", "locomo", "--cache-dir", str(tmp_path / "c3")]) == 2
    assert capsys.readouterr().err.startswith(f"himga: error: {message} {cached}/ is not the pinned file")
    assert not any((tmp_path / "c").rglob("*.arrow"))  # nothing was built from it


def test_loads_served_from_the_cache_make_no_network_request(tmp_path, no_network, shared_data):
    _pinned_in_cache(shared_data)
    for _ in range(2):
        assert len(load_dataset("locomo", cache_dir=tmp_path / "c")) == 10


# ---- LongMemEval: Hub files fetched with hf_hub_download -------------------------------------------


def test_hub_download_success(monkeypatch):
    calls = []
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", _fake_hub_download(CONTENT, calls=calls))
    folder = get_dataset("longmemeval", files=[LME])
    assert (folder / "longmemeval_oracle.json").read_bytes() == CONTENT
    assert calls == [("someone/lme", "longmemeval_oracle.json", "dataset", "0" * 40, None)]
    assert "longmemeval_oracle.json" in _leftovers(folder)


def test_hub_corrupted_download_is_never_in_place(monkeypatch):
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", _fake_hub_download(b"[]"))
    with pytest.raises(ChecksumError, match=f"longmemeval_oracle.json: expected sha256 {SHA}, got "):
        get_dataset("longmemeval", files=[LME])
    folder = cache_root() / "longmemeval"
    assert not (folder / "longmemeval_oracle.json").exists()
    assert [f for f in _leftovers(folder) if f.endswith("longmemeval_oracle.json")] == []


def test_hub_corrupted_file_is_never_visible_under_its_final_name(monkeypatch):
    """The checksum is verified before the file gets its final name (a crash in between leaves no trap)."""
    folder = cache_root() / "longmemeval"
    seen = []

    def check_then_fail(path, *args, **kwargs):
        seen.append((folder / "longmemeval_oracle.json").exists())
        return "0" * 64

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", _fake_hub_download(CONTENT))
    monkeypatch.setattr("himga.sources._remote.sha256_of", check_then_fail)
    with pytest.raises(ChecksumError):
        get_dataset("longmemeval", files=[LME])
    assert seen == [False]
    assert not (folder / "longmemeval_oracle.json").exists()


def test_hub_interrupted_download(monkeypatch):
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", _fake_hub_download(CONTENT, fail=True))
    with pytest.raises(
        DownloadError, match=r"longmemeval_oracle.json: could not download from someone/lme@0{40} \(ConnectionError"
    ):
        get_dataset("longmemeval", files=[LME])
    assert not (cache_root() / "longmemeval" / "longmemeval_oracle.json").exists()


def test_hub_offline_names_the_file(monkeypatch, no_network):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DownloadError) as info:
        load_dataset("longmemeval", "oracle")
    assert str(info.value).startswith("longmemeval_oracle.json: not in ")
    assert f"put it in {cache_root() / 'longmemeval'}/ " in str(info.value)
    assert "`export HIMGA_DATASETS_ROOT=<dir>`" in str(info.value)


# ---- concurrency, secrets, pickle --------------------------------------------------------------------

_BUILD = """
import os, sys, time
from pathlib import Path
from himga.data import build_dataset
barrier = Path(sys.argv[3])  # both processes start building only when both are ready
(barrier / str(os.getpid())).touch()
deadline = time.monotonic() + 120
while len(list(barrier.iterdir())) < 2 and time.monotonic() < deadline:
    time.sleep(0.01)
ds = build_dataset("locomo", path=sys.argv[1], cache_dir=sys.argv[2])
print(ds.num_rows, ds.cache_files[0]["filename"])
"""


def test_two_processes_building_at_once_end_with_one_valid_cache(shared_data, tmp_path):
    cache = tmp_path / "cache"
    source = str(shared_data / "locomo" / "locomo10.json")
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    env = {**os.environ, "HF_DATASETS_DISABLE_PROGRESS_BARS": "0"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _BUILD, source, str(cache), str(barrier)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err[-2000:] for _, err in results]
    # the rows were generated once: the other process waited on datasets' lock and reused the cache
    assert sum("Generating test split" in err for _, err in results) == 1, [err[-500:] for _, err in results]
    outputs = {out.strip() for out, _ in results}
    assert len(outputs) == 1  # same rows, same Arrow file
    assert outputs.pop().startswith("10 ")
    assert len(list(cache.rglob("dataset_info.json"))) == 1
    assert list(cache.rglob("*.incomplete")) == []
    from himga.data import load_locomo

    assert len(load_locomo(source, cache_dir=cache)) == 10


def test_tokens_never_appear_in_output_or_logs(monkeypatch, tmp_path, capsys, caplog, shared_data):
    monkeypatch.setenv("HF_TOKEN", FAKE_TOKEN)
    monkeypatch.setenv("HUGGING_FACE_HUB_TOKEN", FAKE_TOKEN)
    caplog.set_level(logging.DEBUG)
    calls = []
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", _fake_http_get(CONTENT, fail_after=3))
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", _fake_hub_download(CONTENT, fail=True, calls=calls))
    assert main(["stats", "locomo", "--cache-dir", str(tmp_path / "c")]) == 2  # failed download
    assert main(["build", "longmemeval", "--config", "oracle", "--cache-dir", str(tmp_path / "c")]) == 2
    assert main(["build", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]) == 0
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo")]) == 0
    bad = tmp_path / "x.json"
    bad.write_text("[{")
    assert main(["validate", "locomo", "--data-dir", str(bad)]) == 2
    captured = capsys.readouterr()
    assert len(calls) == 1
    for text in (captured.out, captured.err, caplog.text):
        assert FAKE_TOKEN not in text
        assert "fakeTOKEN" not in text


def test_no_pickle_in_the_code():
    pattern = re.compile(r"^\s*(import|from)\s+(c?pickle|dill|cloudpickle|joblib)\b|pickle\.loads?\(", re.M)
    files = [p for d in ("src", "himga_locomo", "himga_longmemeval") for p in (ROOT / d).rglob("*.py")]
    assert len(files) >= 10
    assert [str(p.relative_to(ROOT)) for p in files if pattern.search(p.read_text(encoding="utf-8"))] == []


def test_nothing_from_the_data_is_executed_or_used_as_a_path():
    """No eval/exec/compile/__import__ in the code that reads the data."""
    pattern = re.compile(r"(?<![\w.])(eval|exec|compile|__import__)\s*\(")
    files = [p for d in ("himga_locomo", "himga_longmemeval") for p in (ROOT / d).rglob("*.py")]
    files += [ROOT / "src" / "himga" / name for name in ("jsonio/reader.py", "utils.py", "validate.py")]
    assert [str(p.relative_to(ROOT)) for p in files if pattern.search(p.read_text(encoding="utf-8"))] == []


def test_datasets_load_dataset_sees_edits_in_a_data_dir(tmp_path):
    """The registered ``himga_locomo`` builder uses the same folder-aware cache key as the facade."""
    import datasets

    import himga  # noqa: F401  (registers the builders)

    data = tmp_path / "data"
    data.mkdir()
    (data / "a.json").write_bytes(CONTENT)
    first = datasets.load_dataset("himga_locomo", data_dir=str(data), split="test", cache_dir=str(tmp_path / "c"))
    assert first["sample_id"] == ["conv-net"]
    (data / "a.json").write_bytes(CONTENT.replace(b"conv-net", b"conv-edited"))
    again = datasets.load_dataset("himga_locomo", data_dir=str(data), split="test", cache_dir=str(tmp_path / "c"))
    assert again["sample_id"] == ["conv-edited"]


def test_datasets_load_dataset_default_source_follows_himga_datasets_root(tmp_path, monkeypatch):
    """Without data_dir, the registered builder keys its cache by the $HIMGA_DATASETS_ROOT folder's files."""
    import datasets

    import himga  # noqa: F401  (registers the builders)

    for root, sample_id in (("r1", b"from-r1"), ("r2", b"from-r2")):
        (tmp_path / root / "locomo").mkdir(parents=True)
        (tmp_path / root / "locomo" / "locomo10.json").write_bytes(CONTENT.replace(b"conv-net", sample_id))
    cache = str(tmp_path / "c")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "r1"))
    assert datasets.load_dataset("himga_locomo", split="test", cache_dir=cache)["sample_id"] == ["from-r1"]
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "r2"))
    assert datasets.load_dataset("himga_locomo", split="test", cache_dir=cache)["sample_id"] == ["from-r2"]
