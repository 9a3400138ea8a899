"""The facade's name resolution: load_dataset by name, HIMGA_DATASETS_ROOT, unknown names."""

from __future__ import annotations

import pytest

from himga.data import load_dataset
from himga.errors import ConfigurationError


def test_unknown_name_is_a_value_error():
    with pytest.raises(ValueError, match="unknown dataset 'locomo2'"):
        load_dataset("locomo2")
    with pytest.raises(ConfigurationError):
        load_dataset("locomo2")


def test_load_dataset_locomo_from_datasets_root(shared_data, monkeypatch, tmp_path):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    samples = load_dataset("locomo", cache_dir=tmp_path)
    assert [s.sample_id for s in samples][:2] == ["conv-26", "conv-30"]
    assert len(samples) == 10


def test_unknown_option_is_a_configuration_error(shared_data, tmp_path):
    with pytest.raises(ConfigurationError, match="category_order: expected one of \\['authors', 'seed'\\], got 'paper'"):
        load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, category_order="paper")


def test_misspelled_option_is_a_configuration_error(shared_data, tmp_path):
    with pytest.raises(ConfigurationError, match="locomo: unknown option 'categroy_order'; expected one of"):
        load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, categroy_order="seed")
