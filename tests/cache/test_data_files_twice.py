"""Issue 17 probe A4: a file named twice in ``data_files`` is refused, on every route that takes ``data_files``.

``datasets``' own json builder reads ``data_files=[p, p]`` twice (every row twice; checked with
datasets 5.2: ``load_dataset("json", data_files=["x.jsonl", "./x.jsonl"])`` gives 4 rows of a 2-line
file). himga's rows are samples with unique ids, so reading the file once would silently change what was
asked and reading it twice would repeat every sample: the list is refused with the file and both entries.
The same file is the same device and inode: the same name, ``./name``, a link, a hard link, two patterns.
"""

from __future__ import annotations

import json
import os

import datasets
import pytest

from himga.cache import make_builder
from himga.catalog import benchmark
from himga.errors import ConfigurationError

RECORD = {
    "sample_id": "conv-x",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:00 pm on 1 May, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "hi"}],
    },
    "qa": [{"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2}],
}


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    (tmp_path / "locomo10.json").write_text(json.dumps([RECORD]), encoding="utf-8")
    (tmp_path / "longmemeval_oracle.json").write_text("[]", encoding="utf-8")
    os.symlink("locomo10.json", tmp_path / "link.json")
    os.link(tmp_path / "locomo10.json", tmp_path / "hard.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _message(folder, name, first, second):
    named = f"as {first!r} both times" if first == second else f"as {first!r} and as {second!r}"
    return (
        f"data_files names the file '{folder / name}' twice ({named}): name each file once; "
        "it would be read twice, every sample twice"
    )


CASES = [
    ("locomo10.json", ["locomo10.json", "locomo10.json"], "locomo10.json", "locomo10.json"),
    ("locomo10.json", ["locomo10.json", "./locomo10.json"], "locomo10.json", "./locomo10.json"),
    ("locomo10.json", ["locomo10.json", "link.json"], "locomo10.json", "link.json"),
    ("link.json", ["*.json"], "*.json", "*.json"),  # matches hard.json, then link.json: one inode (and locomo10.json)
    (
        "hard.json",
        {"test": ["locomo10.json", "hard.json"]},
        "locomo10.json",
        "hard.json",
    ),  # (another split: test_split_names)
]


@pytest.mark.parametrize(("name", "files", "first", "second"), CASES)
@pytest.mark.parametrize("route", ["make_builder", "datasets", "streaming"])
def test_a_file_named_twice_is_refused(folder, name, files, first, second, route):
    expected = _message(folder, name, first, second)
    with pytest.raises(ConfigurationError) as e:
        if route == "make_builder":
            make_builder(benchmark("locomo"), data_files=files)
        else:
            datasets.load_dataset("himga_locomo", data_files=files, split="test", streaming=route == "streaming")
    assert str(e.value) == expected


def test_longmemeval_and_data_dir_relative_entries(folder):
    expected = _message(
        folder, "longmemeval_oracle.json", "longmemeval_oracle.json", str(folder / "longmemeval_oracle.json")
    )
    with pytest.raises(ConfigurationError) as e:
        datasets.load_dataset(
            "himga_longmemeval",
            "oracle",
            data_dir=str(folder),
            data_files=["longmemeval_oracle.json", str(folder / "longmemeval_oracle.json")],
            split="test",
        )
    assert str(e.value) == expected


def test_each_file_once_still_reads(folder):
    assert datasets.load_dataset("himga_locomo", data_files=["locomo10.json"], split="test")["sample_id"] == ["conv-x"]
