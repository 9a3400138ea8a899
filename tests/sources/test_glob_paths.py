"""Paths as users give them: glob characters, spaces and non-ASCII names in an explicit path
give the same Samples as a plain name, on every entry point that takes a path.

``datasets`` reads ``data_files`` as glob patterns: ``locomo10 [1].json`` would match ``locomo10 1.json``
(here a decoy with other data) or nothing. Each case puts such a decoy beside the file.
"""

from __future__ import annotations

import json
import shutil

import pytest
from routes import all_routes

# (file name, a decoy its name would match as a pattern)
NAMES = [
    ("locomo10 [1].json", "locomo10 1.json"),
    ("data[a-z].json", "datab.json"),
    ("a*b.json", "aXb.json"),
    ("q?.json", "qz.json"),
    ("with spaces .json", None),
    ("ünïcødé 東京.json", None),
    ("]odd[.json", None),
]


def _sources(shared_data, tmp_path):
    """``(dataset, config, plain file, decoy content)``: one real LoCoMo conversation, the real oracle pair."""
    locomo = tmp_path / "plain" / "locomo10.json"
    locomo.parent.mkdir()
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    locomo.write_text(json.dumps(records[:1]))
    lme = tmp_path / "plain" / "longmemeval_oracle.json"
    shutil.copy(shared_data / "longmemeval" / "longmemeval_oracle_pair.json", lme)
    pair = json.loads(lme.read_text())
    return {
        "locomo": (None, locomo, json.dumps(records[1:2])),
        "longmemeval": ("oracle", lme, json.dumps(pair[1:])),
    }


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
@pytest.mark.parametrize(("name", "decoy"), NAMES, ids=[n for n, _ in NAMES])
def test_file_name_with_glob_characters(shared_data, tmp_path, capsys, dataset, name, decoy):
    config, plain, decoy_content = _sources(shared_data, tmp_path)[dataset]
    routes = all_routes(capsys, plain)
    expected = routes["load_*"](dataset, config, plain, tmp_path / "cache-plain")
    assert [s.sample_id for s in expected] == (
        ["conv-26"] if dataset == "locomo" else ["gpt4_2655b836", "09ba9854_abs"]
    )
    folder = tmp_path / "odd"
    folder.mkdir()
    path = folder / name
    shutil.copy(plain, path)
    if decoy:
        (folder / decoy).write_text(decoy_content)
    for route, load in routes.items():
        assert load(dataset, config, path, tmp_path / f"cache-{route}") == expected, route


@pytest.mark.parametrize("dataset", ["locomo", "longmemeval"])
def test_folder_with_glob_characters(shared_data, tmp_path, capsys, dataset):
    config, plain, _ = _sources(shared_data, tmp_path)[dataset]
    expected = all_routes(capsys, plain)["load_*"](dataset, config, plain, tmp_path / "cache-plain")
    folder = tmp_path / "run [1] *?"
    folder.mkdir()
    shutil.copy(plain, folder / plain.name)
    (tmp_path / "run 1 x").mkdir()  # what the folder name would match as a pattern
    for route, load in all_routes(capsys, folder).items():
        assert load(dataset, config, folder, tmp_path / f"cache-{route}") == expected, route
    for route, load in all_routes(capsys, folder / plain.name).items():
        assert load(dataset, config, folder / plain.name, tmp_path / f"cache-file-{route}") == expected, route


def test_datasets_data_files_still_takes_patterns(shared_data, tmp_path):
    import datasets

    from himga.data import samples_from_dataset

    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    for i in range(3):
        (tmp_path / f"part{i}.json").write_text(json.dumps(records[i : i + 1]))
    ds = datasets.load_dataset(
        "himga_locomo", data_files=str(tmp_path / "part*.json"), split="test", cache_dir=str(tmp_path / "c")
    )
    assert [s.sample_id for s in samples_from_dataset(ds)] == ["conv-26", "conv-30", "conv-41"]
    from himga.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"data_files pattern '.*/none\*\.json' matches no file"):
        datasets.load_dataset("himga_locomo", data_files=str(tmp_path / "none*.json"), split="test")
    with pytest.raises(ConfigurationError, match=r"^source '.*/gone\.json' does not exist$"):
        datasets.load_dataset("himga_locomo", data_files=str(tmp_path / "gone.json"), split="test")
