"""The facade's name resolution: load_dataset by name, HIMGA_DATASETS_ROOT, unknown names."""

from __future__ import annotations

import pytest

from himga.cache import make_builder
from himga.catalog import benchmark
from himga.data import build_dataset, load_dataset, load_locomo, load_longmemeval
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
    with pytest.raises(
        ConfigurationError, match="category_order: expected one of \\['authors', 'seed'\\], got 'paper'"
    ):
        load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, category_order="paper")


def test_misspelled_option_is_a_configuration_error(shared_data, tmp_path):
    with pytest.raises(ConfigurationError, match="locomo: unknown keyword 'categroy_order'; expected one of"):
        load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, categroy_order="seed")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: load_dataset("locomo", data_dir=p, confg="x"),
         "locomo: unknown keyword 'confg'; expected one of config, data_dir, cache_dir, lazy, ids, category_order, "
         "adversarial_answer, category3_answer, gold, errata"),
        (lambda p: load_dataset("longmemeval", data_dir=p, confg="oracle"),
         "longmemeval: unknown keyword 'confg'; expected one of config, data_dir, cache_dir, lazy, ids"),
        (lambda p: load_locomo(p, categroy_order="seed"),
         "locomo: unknown keyword 'categroy_order'; expected one of cache_dir, lazy, ids, category_order, "
         "adversarial_answer, category3_answer, gold, errata"),
        (lambda p: load_longmemeval(p, confg="oracle"), "longmemeval: unknown keyword 'confg'; expected one of config, "
            "cache_dir, lazy, ids"),
        (lambda p: build_dataset("longmemeval", data_dir=p), "longmemeval: unknown keyword 'data_dir'; expected one of "
            "config, path, cache_dir"),
        (lambda p: make_builder(benchmark("locomo"), datadir=p),
         "locomo: unknown keyword 'datadir'; expected one of config, data_dir, data_files, cache_dir, category_order, "
         "adversarial_answer, category3_answer, gold, errata"),
    ],
)  # fmt: skip
def test_misspelled_keyword_lists_what_a_user_may_pass(call, message, tmp_path):
    """Issue 12: the caller's keywords and the documented options, never internal config fields."""
    with pytest.raises(ConfigurationError) as caught:
        call(tmp_path)
    assert str(caught.value) == message
    for internal in (
        "filename",
        "repo_id",
        "revision",
        "sha256",
        "writer_batch_size",
        "description",
        "version",
        "errata_sha256",
    ):
        assert internal not in message


def test_arguments_of_the_wrong_type_are_configuration_errors(tmp_path):
    """``lazy="yes"`` counted as true and ``load_locomo(123)`` was a bare TypeError."""
    for call in (
        lambda: load_locomo(tmp_path, lazy="yes"),
        lambda: load_longmemeval(tmp_path, lazy="no"),
        lambda: load_dataset("locomo", data_dir=tmp_path, lazy=1),
    ):
        with pytest.raises(ConfigurationError, match=r"^lazy: expected True or False, got ('yes'|'no'|1)$"):
            call()
    with pytest.raises(ConfigurationError) as info:
        load_locomo(123)
    assert str(info.value) == "locomo: the source path must be a str or a path (os.PathLike), got int 123"
