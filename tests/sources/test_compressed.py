"""Issue 17 §6: a compressed source file names its compression and the command that decompresses it, and a
Parquet file is named as Parquet with the way to load an export, on every route (not "invalid byte at offset 1")."""

from __future__ import annotations

import bz2
import gzip
import lzma
import sys
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # routes.py, beside this file
from routes import all_routes, error_message  # noqa: E402


def _zip(data: bytes) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("x.json", data)
    return buffer.getvalue()


COMPRESSORS = {
    "gz": (gzip.compress, "gzip", "gunzip -k"),
    "bz2": (bz2.compress, "bzip2", "bunzip2 -k"),
    "xz": (lzma.compress, "xz", "unxz -k"),
    # no zstd compressor in the standard library of the Pythons supported: a zstd frame header and
    # arbitrary bytes, which is all the check reads (the frame magic, RFC 8878 §3.1.1)
    "zst": (lambda data: b"\x28\xb5\x2f\xfd" + data[:64], "zstd", "unzstd"),
    "zip": (_zip, "zip", "unzip"),
}


@pytest.mark.parametrize("suffix", list(COMPRESSORS))
@pytest.mark.parametrize(("name", "source", "config"), [
    ("locomo", "locomo/locomo10.json", None),
    ("longmemeval", "longmemeval/longmemeval_oracle_pair.json", "oracle"),
])  # fmt: skip
def test_compressed_files_are_named(shared_data, tmp_path, capsys, suffix, name, source, config):
    compress, kind, command = COMPRESSORS[suffix]
    path = tmp_path / f"{Path(source).name}.{suffix}"
    path.write_bytes(compress((shared_data / source).read_bytes()))
    message = (f"{path.name}: $: expected JSON text, got a {kind}-compressed file: decompress it first (`{command} {path.name}`) "
               "and pass the decompressed file")
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, name, config, path, tmp_path / f"cache-{route}") == message, route


@pytest.mark.parametrize("file", ["test-00000-of-00001.parquet", "questions.jsonl"])
def test_a_parquet_file_is_named_with_the_way_to_load_an_export(tmp_path, capsys, file):
    path = tmp_path / file
    pq.write_table(pa.table({"sample_id": ["a"]}), path)
    message = (f"{file}: $: expected JSON, got a Parquet file (a shard of a himga export?): load an export folder with "
               '`himga.data.samples_from_dataset(datasets.load_dataset("<export folder>", "<config>", split="test"))`')
    for name in ("locomo", "longmemeval"):
        for route, load in all_routes(capsys, path).items():
            assert error_message(load, name, "oracle" if name == "longmemeval" else None, path, tmp_path / f"c-{name}-{route}") == message, route
