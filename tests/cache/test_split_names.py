"""himga builds one split, ``test``: ``data_files`` naming another split is refused on every route, for every builder
(``{"train": a, "test": b}`` was merged silently into one ``test`` split, and ``{"train": a}`` came back as
``test``)."""

from __future__ import annotations

import datasets
import pytest
from helpers.tiny_sources import tiny_locomo

from himga.cache import make_builder
from himga.catalog import CATALOG
from himga.errors import ConfigurationError


def _message(name: str, split: str) -> str:
    return (
        f"{name}: data_files split {split!r}: himga builds one split, 'test'; pass the files as a list, "
        "or as {'test': [...]}"
    )


@pytest.fixture
def source(tmp_path):
    return tiny_locomo(tmp_path / "src") / "locomo10.json"


@pytest.mark.parametrize("name", list(CATALOG))
def test_another_split_is_refused_for_every_builder(name, source, tmp_path):
    entry = CATALOG[name]
    for files in ({"train": str(source), "test": str(source)}, {"train": str(source)}, {"validation": [str(source)]}):
        split = next(s for s in files if s != "test")
        with pytest.raises(ConfigurationError) as info:
            datasets.load_dataset(entry.load_name, data_files=files, cache_dir=str(tmp_path / "c"))
        assert str(info.value) == _message(name, split)
        with pytest.raises(ConfigurationError) as info:
            make_builder(entry, data_files=files, cache_dir=tmp_path / "c")
        assert str(info.value) == _message(name, split)
        with pytest.raises(ConfigurationError) as info:
            entry.builder(data_files=files, cache_dir=str(tmp_path / "c"))
        assert str(info.value) == _message(name, split)
    assert not list((tmp_path / "c").rglob("dataset_info.json"))


def test_the_test_split_and_a_list_still_build(source, tmp_path):
    for files in ({"test": str(source)}, [str(source)], str(source)):
        ds = datasets.load_dataset("himga_locomo", data_files=files, cache_dir=str(tmp_path / "c"))
        assert list(ds) == ["test"] and ds["test"].num_rows == 1
