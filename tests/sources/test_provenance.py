"""Provenance of local files: validate/stats lines, one warning at build time, HIMGA_DATASETS_ROOT mistakes,
and files that are something else in place of JSON."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil

import pytest

from himga.catalog import benchmark
from himga.cli import main
from himga.data import load_dataset, load_locomo, load_longmemeval
from himga.errors import ConfigurationError, SourceFormatError
from himga.jsonio.reader import iter_array_items, load_json
from himga.sources import get_dataset, provenance, provenance_lines, sha256_of

LOCOMO_SHA = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
ONE = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "A",
            "speaker_b": "B",
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
        },
        "qa": [],
    }
]


def _modified_copy(shared_data, folder):
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "locomo10.json"
    target.write_bytes((shared_data / "locomo" / "locomo10.json").read_bytes().replace(b"Caroline", b"Carolina", 1))
    return target


def test_provenance_lines_of_the_real_file_and_of_a_modified_copy(shared_data, tmp_path):
    assert provenance_lines(benchmark("locomo"), [shared_data / "locomo" / "locomo10.json"]) == [
        "locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"
    ]
    copy = _modified_copy(shared_data, tmp_path)
    assert provenance_lines(benchmark("locomo"), [copy]) == [  # "Caroline" first occurs in the first question
        f"locomo10.json: differs in content from snap-research/locomo@3eb6f2c at $[0].qa[0] (sha256 {sha256_of(copy)})"
    ]
    renamed = shutil.copy(shared_data / "locomo" / "locomo10.json", tmp_path / "mine.json")
    assert provenance_lines(benchmark("locomo"), [renamed]) == [
        "mine.json = snap-research/locomo@3eb6f2c (locomo10.json), sha256 ok"
    ]


def test_provenance_of_a_file_whose_pin_has_no_checksum(tmp_path):
    path = tmp_path / "longmemeval_m.json"
    path.write_text("[]")
    digest = hashlib.sha256(b"[]").hexdigest()
    assert provenance(path, benchmark("longmemeval").pins().values()) == (
        f"longmemeval_m.json: sha256 {digest} (no sha256 is pinned for xiaowu0162/longmemeval@2ec2a55 to compare with)"
    )


def test_validate_and_stats_print_the_provenance_line(shared_data, tmp_path, capsys):
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        "himga validate locomo: locomo10.json (10 samples)",
        "  source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok",
    ]
    copy = _modified_copy(shared_data, tmp_path / "mod")
    assert main(["stats", "locomo", "--data-dir", str(copy), "--cache-dir", str(tmp_path / "c")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "source: locomo10.json: differs in content from snap-research/locomo@3eb6f2c at $[0].qa[0] (sha256 "
        f"{sha256_of(copy)})"
    )


def test_validate_reads_each_file_once(shared_data, monkeypatch):
    """The parse records the sha256; the provenance line does not read the file again."""
    import himga.sources

    def no_second_read(path, chunk_size=0):
        raise AssertionError(f"{path} hashed in a second pass")

    import himga.sources._provenance

    monkeypatch.setattr(himga.sources._provenance, "_SHA256_SEEN", {})  # nothing remembered from earlier tests
    monkeypatch.setattr(himga.sources, "sha256_of", no_second_read)
    from himga.validate import validate

    assert validate("locomo", data_dir=shared_data / "locomo").provenance == [
        "locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"
    ]


def test_one_warning_at_build_time_for_a_modified_pinned_file_under_datasets_root(
    shared_data, tmp_path, monkeypatch, caplog
):
    copy = _modified_copy(shared_data, tmp_path / "root" / "locomo")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "root"))
    with caplog.at_level(logging.WARNING, logger="himga.sources"):
        assert len(load_dataset("locomo", cache_dir=tmp_path / "c")) == 10
        assert len(load_dataset("locomo", cache_dir=tmp_path / "c")) == 10  # served from the cache: no new warning
    assert [r.getMessage() for r in caplog.records] == [
        f"himga: warning: {copy}: differs from the pinned locomo10.json (snap-research/locomo@3eb6f2c): a modified "
        "copy or "
        f"another release (sha256 {sha256_of(copy)}, pinned {LOCOMO_SHA}); the official file is "
        "https://raw.githubusercontent.com/snap-research/locomo/3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json"
    ]


def test_no_warning_for_the_official_file_or_outside_datasets_root(shared_data, tmp_path, monkeypatch, caplog):
    (tmp_path / "root").mkdir()
    shutil.copytree(shared_data / "locomo", tmp_path / "root" / "locomo")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "root"))
    copy = _modified_copy(shared_data, tmp_path / "elsewhere")
    with caplog.at_level(logging.WARNING, logger="himga.sources"):
        assert len(load_dataset("locomo", cache_dir=tmp_path / "c")) == 10
        assert len(load_locomo(copy, cache_dir=tmp_path / "c")) == 10
    assert caplog.records == []


# ---- $HIMGA_DATASETS_ROOT without <name>/ ---------------------------------


def test_datasets_root_pointing_at_the_dataset_folder_itself(tmp_path, monkeypatch):
    (tmp_path / "locomo").mkdir()
    (tmp_path / "locomo" / "locomo10.json").write_text(json.dumps(ONE))
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "locomo"))
    with pytest.raises(ConfigurationError) as info:
        load_dataset("locomo", cache_dir=tmp_path / "c")
    assert str(info.value) == (
        f"$HIMGA_DATASETS_ROOT is set to '{tmp_path}/locomo', but '{tmp_path}/locomo/locomo' is not a folder; expected "
        "a "
        "folder holding one subfolder per dataset (locomo/, longmemeval/, beam/, locomo_plus/, realtalk/, "
        "personamem/); it looks "
        "like the locomo folder itself: "
        f"set HIMGA_DATASETS_ROOT={tmp_path} (unset it to download the pinned files)"
    )


def test_datasets_root_without_the_dataset_never_downloads(tmp_path, monkeypatch):
    import huggingface_hub

    def refuse(*args, **kwargs):
        raise AssertionError("download attempted")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", refuse)
    (tmp_path / "locomo").mkdir()
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    with pytest.raises(
        ConfigurationError,
        match=f"^\\$HIMGA_DATASETS_ROOT is set to '{tmp_path}', but '{tmp_path}/longmemeval' is not a folder",
    ):
        load_dataset("longmemeval", "oracle", cache_dir=tmp_path / "c")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "missing"))
    with pytest.raises(ConfigurationError, match=f"and '{tmp_path}/missing' does not exist"):
        get_dataset("locomo", files=[])


# ---- something else in place of JSON ----------------------------------------------------

LFS = (
    b"version https://git-lfs.github.com/spec/v1\noid "
    b"sha256:79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4\nsize 2805274\n"
)
FIX = "download the real file (`himga sources` lists the pinned URLs) or pass the right path"
CASES = {
    "lfs": (
        LFS,
        "expected JSON, got a Git LFS pointer (oid "
        "sha256:79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4, "
        f"size 2805274), not the file itself: run `git lfs pull` in the clone it comes from, or {FIX}",
    ),
    "html": (
        b"<!DOCTYPE html>\n<html><head><title>Page not found</title></head><body>x</body></html>\n",
        f"expected JSON, got an HTML page (86 bytes; a web page saved in place of the file?): {FIX}",
    ),
    "entry": (
        b"Entry not found",
        f"expected JSON, got a short text 'Entry not found' (15 bytes; an error message saved by a download?): {FIX}",
    ),
    "404": (
        b"404: Not Found",
        f"expected JSON, got a short text '404: Not Found' (14 bytes; an error message saved by a download?): {FIX}",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_not_json_in_both_readers_and_both_loaders(case, tmp_path):
    body, detail = CASES[case]
    for name, load in (
        ("locomo10.json", load_locomo),
        ("longmemeval_oracle.json", lambda p, **kw: load_longmemeval(p, config="oracle", **kw)),
    ):
        path = tmp_path / name
        path.write_bytes(body)
        with pytest.raises(SourceFormatError) as info:
            load(path, cache_dir=tmp_path / "c")
        assert str(info.value) == f"{name}: $: {detail}"
    with pytest.raises(SourceFormatError, match="expected JSON, got "):
        load_json(path)
    with pytest.raises(SourceFormatError, match="expected JSON, got "):
        list(iter_array_items(path))


def test_the_digest_of_the_streaming_read_is_the_file_sha256(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf  " + json.dumps([{"question_id": "q", "x": "y" * 70_000}] * 3).encode() + b"\n\n  ")
    digest = hashlib.sha256()
    assert len(list(iter_array_items(path, digest=digest))) == 3
    assert digest.hexdigest() == sha256_of(path)


def test_a_file_whose_size_matches_no_pin_is_not_hashed(tmp_path, monkeypatch):
    """No hashing pass: the content fingerprint's parse (LoCoMo's pin has one) hashes in its own read."""
    import himga.sources

    def no_hash(path, chunk_size=0):
        raise AssertionError("hashed although no pin has its size")

    monkeypatch.setattr(himga.sources, "sha256_of", no_hash)
    path = tmp_path / "locomo10.json"
    path.write_text(json.dumps(ONE))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    pins = benchmark("locomo").pins().values()
    assert (
        provenance(path, pins)
        == f"locomo10.json: differs in content from snap-research/locomo@3eb6f2c at $[0].qa[0] (sha256 {digest})"
    )
    assert provenance(path.rename(tmp_path / "mine.json"), pins) == f"mine.json: not a pinned file (sha256 {digest})"
    path = tmp_path / "bad.json"
    path.write_text("{")  # not JSON: no content to compare, nothing hashed
    assert provenance(path, pins) == "bad.json: not a pinned file (1 bytes; no pin has that size)"


def test_a_remembered_sha256_is_not_reused_after_an_edit_that_restores_the_mtime(shared_data, tmp_path):
    """Same size, mtime put back (``touch -r``): the ctime differs, so the file is hashed again, never "sha256 ok"."""
    import os

    path = tmp_path / "locomo10.json"
    shutil.copyfile(shared_data / "locomo" / "locomo10.json", path)
    assert (
        provenance(path, benchmark("locomo").pins().values())
        == "locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"
    )
    before = path.stat()
    data = bytearray(path.read_bytes())
    data[100] = ord("X") if data[100] != ord("X") else ord("Y")
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    assert provenance(path, benchmark("locomo").pins().values()).startswith(
        "locomo10.json: differs from the pinned locomo10.json: a modified copy or another release (sha256 "
    )


def _linked_copy(source, target, extra: dict):
    """``target`` holding a link to every file of ``source`` and, per ``extra`` item, a link named by its key to its
    value."""
    for path in source.rglob("*"):
        if path.is_file():
            (target / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            (target / path.relative_to(source)).symlink_to(path)
    for name, path in extra.items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).symlink_to(path)
    return target


def test_a_folder_pin_is_claimed_only_for_exactly_its_files(shared_data, tmp_path):
    """A copied chat under another number, an 11th REALTALK chat, a chat left out: the line says which files are not
    the pin's; the export card's source table (the same rule, pin_coverage) says so too."""
    from himga.cache import build_files
    from himga.publish._card import _source_rows
    from himga.publish._source_labels import checked_sources

    chats = shared_data / "beam" / "chats" / "100K"
    beam = _linked_copy(
        chats,
        tmp_path / "beam" / "chats" / "100K",
        {
            "21/chat.json": chats / "1" / "chat.json",
            "21/probing_questions/probing_questions.json": chats / "1" / "probing_questions" / "probing_questions.json",
        },
    )
    assert provenance_lines(benchmark("beam"), build_files(benchmark("beam"), "100K", beam.parent.parent)) == [
        "40 of 42 files = mohammadtavakoli78/BEAM@b2a3ee8, sha256 ok; not in the pinned chats/100K: "
        "chats/100K/21/chat.json, "
        "chats/100K/21/probing_questions/probing_questions.json"
    ]
    shutil.rmtree(beam / "20")
    assert provenance_lines(benchmark("beam"), build_files(benchmark("beam"), "100K", beam.parent.parent)) == [
        "38 of 40 files = mohammadtavakoli78/BEAM@b2a3ee8, sha256 ok; not in the pinned chats/100K: "
        "chats/100K/21/chat.json, "
        "chats/100K/21/probing_questions/probing_questions.json; pinned but not given: chats/100K/20/chat.json, "
        "chats/100K/20/probing_questions/probing_questions.json"
    ]
    rows = _source_rows(benchmark("beam"), "100K", checked_sources("beam", "100K", beam.parent.parent))
    assert len(rows) == 40 and rows[-2][1:2] + rows[-2][4:] == (
        "`chat.json`",
        "not a file of the pinned [`chats/100K`](https://github."
        "com/mohammadtavakoli78/BEAM/tree/b2a3ee8ba12d68f83143dda191097dc3e028ddd3/"
        "chats/100K) (its bytes are a pinned file's: a copy under another name?)",
    )
    rt = shared_data / "realtalk"
    realtalk = _linked_copy(rt, tmp_path / "realtalk", {"Chat_11_Emi_Elise.json": rt / "Chat_1_Emi_Elise.json"})
    assert provenance_lines(benchmark("realtalk"), build_files(benchmark("realtalk"), None, realtalk)) == [
        "10 of 11 files = danny911kr/REALTALK@b903e06, sha256 ok; not in the pinned data: Chat_11_Emi_Elise.json"
    ]
    assert provenance_lines(benchmark("realtalk"), build_files(benchmark("realtalk"), None, rt)) == [
        "10 files = danny911kr/REALTALK@b903e06, sha256 ok"
    ]
    assert (
        len(_source_rows(benchmark("realtalk"), "default", checked_sources("realtalk", "default", rt))) == 1
    )  # exactly the pin
