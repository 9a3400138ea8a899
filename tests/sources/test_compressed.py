"""Issue 17 §6: a gzip, bzip2 or xz source file is read streaming on every route, its sha256 the file's as given;
zstd and zip are named with the command that decompresses them, and a Parquet file is named as Parquet with the
way to load an export, on every route (not "invalid byte at offset 1")."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import sys
import zipfile
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # routes.py, beside this file
from routes import all_routes, error_message

from himga.cli import main
from himga.data import load_longmemeval, samples_from_dataset
from himga.errors import SourceFormatError


def _zip(data: bytes) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("x.json", data)
    return buffer.getvalue()


#: Read: the standard library decompresses them while the parser reads (himga.jsonio.compressed).
READ = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}

#: Named, not read (see himga.jsonio.compressed).
NAMED = {
    # no zstd compressor in the standard library of the Pythons supported: a zstd frame header and
    # arbitrary bytes, which is all the check reads (the frame magic, RFC 8878 §3.1.1)
    "zst": (lambda data: b"\x28\xb5\x2f\xfd" + data[:64], "zstd", "unzstd"),
    "zip": (_zip, "zip", "unzip"),
}

SOURCES = [
    ("locomo", "locomo/locomo10.json", None),
    ("longmemeval", "longmemeval/longmemeval_oracle_pair.json", "oracle"),
]


@pytest.mark.parametrize("suffix", list(READ))
@pytest.mark.parametrize(("name", "source", "config"), SOURCES)
def test_compressed_files_are_read(shared_data, tmp_path, capsys, suffix, name, source, config):
    """Issue 17 §6: gzip, bzip2 and xz give the plain file's Samples on every route."""
    plain = tmp_path / Path(source).name
    plain.write_bytes((shared_data / source).read_bytes())
    path = tmp_path / f"{plain.name}.{suffix}"
    path.write_bytes(READ[suffix](plain.read_bytes()))
    expected = all_routes(capsys, plain)["himga.data.load_dataset"](name, config, plain, tmp_path / "plain-cache")
    assert (len(expected), sum(len(s.qa_pairs) for s in expected)) == {"locomo": (10, 1986), "longmemeval": (2, 2)}[
        name
    ]
    for route, load in all_routes(capsys, path).items():
        assert load(name, config, path, tmp_path / f"cache-{route}") == expected, route
    stream = datasets.load_dataset(f"himga_{name}", config, data_files=str(path), split="test", streaming=True)
    assert list(samples_from_dataset(stream)) == expected


def test_compressed_json_lines(shared_data, tmp_path):
    """``.jsonl.gz`` is JSON Lines (the suffix before the compression's), read streaming."""
    records = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text(encoding="utf-8"))
    path = tmp_path / "longmemeval_oracle.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    samples = load_longmemeval(path, config="oracle", cache_dir=tmp_path / "c")
    assert [s.sample_id for s in samples] == [r["question_id"] for r in records]
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress((json.dumps(records[0]) + "\n{oops\n").encode()))
    with pytest.raises(SourceFormatError) as e:
        load_longmemeval(bad, config="oracle", cache_dir=tmp_path / "c")
    assert (
        str(e.value)
        == "bad.jsonl.gz: line 2: invalid JSON at column 2: Expecting property name enclosed in double quotes "
        "(truncated or corrupted file?)"
    )


@pytest.mark.parametrize(("suffix", "detail"), [
    ("gz", "expected a complete gzip file, got Compressed file ended before the end-of-stream marker was reached "
           "(truncated or corrupted file?)"),
    ("xz", "expected a complete xz file, got Compressed file ended before the end-of-stream marker was reached "
           "(truncated or corrupted file?)"),
])  # fmt: skip
def test_a_truncated_compressed_file_is_named(shared_data, tmp_path, capsys, suffix, detail):
    data = READ[suffix]((shared_data / "locomo" / "locomo10.json").read_bytes())
    path = tmp_path / f"locomo10.json.{suffix}"
    path.write_bytes(data[: len(data) // 2])
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, "locomo", None, path, tmp_path / f"c-{route}") == f"{path.name}: $: {detail}", route


@pytest.mark.parametrize(("name", "source", "config"), SOURCES)
def test_provenance_hashes_the_file_as_given(shared_data, tmp_path, capsys, name, source, config):
    """The sha256 is the compressed file's; a compressed copy of a pin is not the pin; LoCoMo's content
    fingerprint recognises its data."""
    path = tmp_path / f"{Path(source).name}.gz"
    path.write_bytes(gzip.compress((shared_data / source).read_bytes()))
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    assert main(["stats", name, "--data-dir", str(path), *(["--config", config] if config else [])]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    if name == "locomo":
        assert (
            line
            == f"source: locomo10.json.gz: same content as snap-research/locomo@3eb6f2c (gzip-compressed; sha256 {sha})"
        )
    else:
        assert line == (
            f"source: longmemeval_oracle_pair.json.gz: gzip-compressed, not a pinned file (the pins are "
            f"uncompressed; sha256 {sha})"
        )
    from himga.sources import file_sha256

    assert file_sha256(path) == sha


@pytest.mark.parametrize("suffix", list(NAMED))
@pytest.mark.parametrize(("name", "source", "config"), SOURCES)
def test_unread_compressions_are_named(shared_data, tmp_path, capsys, suffix, name, source, config):
    compress, kind, command = NAMED[suffix]
    path = tmp_path / f"{Path(source).name}.{suffix}"
    path.write_bytes(compress((shared_data / source).read_bytes()))
    message = (
        f"{path.name}: $: expected JSON text, got a {kind}-compressed file: decompress it first (`{command} "
        f"{path.name}`) "
        "and pass the decompressed file"
    )
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, name, config, path, tmp_path / f"cache-{route}") == message, route


@pytest.mark.parametrize("file", ["test-00000-of-00001.parquet", "questions.jsonl"])
def test_a_parquet_file_is_named_with_the_way_to_load_an_export(tmp_path, capsys, file):
    path = tmp_path / file
    pq.write_table(pa.table({"sample_id": ["a"]}), path)
    message = (
        f"{file}: $: expected JSON, got a Parquet file (a shard of a himga export?): load an export folder with "
        '`himga.data.samples_from_dataset(datasets.load_dataset("<export folder>", "<config>", split="test"))`'
    )
    for name in ("locomo", "longmemeval"):
        for route, load in all_routes(capsys, path).items():
            assert (
                error_message(
                    load, name, "oracle" if name == "longmemeval" else None, path, tmp_path / f"c-{name}-{route}"
                )
                == message
            ), route
