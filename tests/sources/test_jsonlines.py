"""JSON Lines sources (one record per line, whatever the extension) for both datasets, on every route, errors naming the
line."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import datasets
import pytest

from himga.data import load_locomo, load_longmemeval, samples_from_dataset
from himga.errors import SourceFormatError
from himga.jsonio.jsonlines import is_json_lines, iter_json_lines

sys.path.insert(0, str(Path(__file__).parent))  # routes.py, beside this file
from routes import all_routes, error_message

PAIR_IDS = ["gpt4_2655b836", "09ba9854_abs"]


def _jsonl(records: list, path: Path) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize(("name", "source", "config", "file"), [
    ("longmemeval", "longmemeval/longmemeval_oracle_pair.json", "oracle", "pair.jsonl"),
    # the name says oracle
    ("longmemeval", "longmemeval/longmemeval_oracle_pair.json", None, "longmemeval_oracle.jsonl"),
    ("locomo", "locomo/locomo10.json", None, "locomo10.jsonl"),
    # JSON Lines named .json: by content
    ("longmemeval", "longmemeval/longmemeval_oracle_pair.json", "oracle", "pair.json"),
    ("locomo", "locomo/locomo10.json", None, "locomo10.json"),
])  # fmt: skip
def test_json_lines_give_the_json_files_samples_on_every_route(
    shared_data, tmp_path, capsys, name, source, config, file
):
    records = json.loads((shared_data / source).read_text())
    expected = (
        load_locomo(shared_data / source, cache_dir=tmp_path / "ref")
        if name == "locomo"
        else load_longmemeval(shared_data / source, config="oracle", cache_dir=tmp_path / "ref")
    )
    path = _jsonl(records, tmp_path / file)
    routes = all_routes(capsys, path)
    assert len(routes) == 8
    for route, load in routes.items():
        assert load(name, config, path, tmp_path / f"cache-{route}") == expected, route
    stream = datasets.load_dataset(f"himga_{name}", config, data_files=str(path), split="test", streaming=True)
    assert list(samples_from_dataset(stream)) == expected
    folder = tmp_path / "folder"  # a folder's .jsonl files are source files too
    folder.mkdir()
    path.rename(folder / file)
    assert all_routes(capsys, folder)["load_*"](name, config, folder, tmp_path / "cache-folder") == expected


@pytest.mark.parametrize(("lines", "message"), [
    (['{"question_id": '
        '"q1"', ""], "bad.jsonl: line 1: invalid JSON at column 21: Expecting ',' delimiter (truncated or corrupted "
            "file?)"),
    (["", "[1, NaN]"], "bad.jsonl: line 2[1]: expected standard JSON, got non-standard JSON literal NaN"),
    (['"just a string"'], "bad.jsonl: line 1: expected a question object, got string"),
    (["", "  ", ""], "bad.jsonl: $: expected JSON Lines (one record per line), got no record"),
])  # fmt: skip
def test_errors_name_the_line(tmp_path, capsys, lines, message):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, "longmemeval", "oracle", path, tmp_path / f"cache-{route}") == message, route


def test_record_errors_name_the_line_and_the_key(shared_data, tmp_path):
    records = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    del records[1]["haystack_dates"]
    path = _jsonl(records, tmp_path / "q.jsonl")
    with pytest.raises(
        SourceFormatError, match=r"^q\.jsonl: line 2: missing required key 'haystack_dates' \(question 09ba9854_abs\)$"
    ):
        load_longmemeval(path, config="oracle", cache_dir=tmp_path / "c")
    path.write_text('{"question_id": "a", "answer": 1, "answer": 2}\n')
    with pytest.raises(SourceFormatError, match=r"^q\.jsonl: line 1\.answer: duplicate key 'answer'"):
        load_longmemeval(path, config="oracle", cache_dir=tmp_path / "c")
    path.write_bytes(b'\n{"question_id": "\xff"}\n')
    with pytest.raises(
        SourceFormatError, match=r"^q\.jsonl: line 2: expected UTF-8 text, got invalid byte at column 18$"
    ):
        load_longmemeval(path, config="oracle", cache_dir=tmp_path / "c")


def test_reader_streams_lines_and_hashes_every_byte(tmp_path):
    path = tmp_path / "x.jsonl"
    data = b'\xef\xbb\xbf{"a": 1}\n\n{"b": [2]}\r\n'
    path.write_bytes(data)
    digest = hashlib.sha256()
    assert list(iter_json_lines(path, digest=digest)) == [(1, {"a": 1}), (3, {"b": [2]})]
    assert digest.hexdigest() == hashlib.sha256(data).hexdigest()
    assert [is_json_lines(p) for p in ("a.jsonl", "a.JSONL", "a.ndjson", "a.json", "longmemeval_s")] == [
        True,
        True,
        True,
        False,
        False,
    ]
