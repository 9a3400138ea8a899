"""``himga.data.samples_from_dataset``: Samples from any Dataset / IterableDataset with our features."""

from __future__ import annotations

import inspect

import datasets
import pytest

from himga.data import SAMPLE_FEATURES, LazySamples, build_dataset, samples_from_dataset
from himga.errors import ConfigurationError


def test_dataset_gives_a_lazy_sequence(shared_data, locomo_samples):
    ds = build_dataset("locomo", path=shared_data / "locomo")
    samples = samples_from_dataset(ds)
    assert isinstance(samples, LazySamples)
    assert len(samples) == 10
    assert samples[-1].sample_id == "conv-50"
    assert list(samples) == locomo_samples


def test_iterable_dataset_gives_a_lazy_generator(shared_data, locomo_samples):
    it = datasets.load_dataset("himga_locomo", data_dir=str(shared_data / "locomo"), split="test", streaming=True)
    samples = samples_from_dataset(it)
    assert inspect.isgenerator(samples)
    assert next(samples) == locomo_samples[0]
    assert list(samples) == locomo_samples[1:]


def test_pulls_one_row_at_a_time(shared_data, locomo_samples):
    table = build_dataset("locomo", path=shared_data / "locomo").data  # Arrow rows: raw cells are JSON text
    pulled = []

    def rows():
        for row in table.slice(0, 3).to_pylist():
            pulled.append(row["sample_id"])
            yield row

    samples = samples_from_dataset(datasets.IterableDataset.from_generator(rows, features=SAMPLE_FEATURES))
    assert pulled == []
    assert next(samples) == locomo_samples[0]
    assert pulled == ["conv-26"]


def test_other_features_and_types_are_rejected():
    other = datasets.Dataset.from_dict({"sample_id": ["a"]})
    with pytest.raises(
        ConfigurationError,
        match=r"does not have himga's Sample features \(missing columns \['dataset', 'qa_pairs', 'raw', 'sessions', "
        r"'speaker_a', 'speaker_b'\]\)",
    ):
        samples_from_dataset(other)
    with pytest.raises(
        ConfigurationError,
        match=r"expected a datasets.Dataset or IterableDataset \(one split, e.g. split='test'\), got DatasetDict",
    ):
        samples_from_dataset(datasets.DatasetDict({"test": other}))


# --- extra columns are ignored; a missing or retyped column is named ---------------------


def test_extra_columns_are_ignored_on_every_route(shared_data, locomo_samples):
    ds = build_dataset("locomo", path=shared_data / "locomo")
    predicted = ds.add_column("prediction", [f"p{i}" for i in range(10)])
    assert list(samples_from_dataset(predicted)) == locomo_samples
    mapped = ds.map(lambda row: {"n_qa": len(row["qa_pairs"])})
    assert mapped.column_names[-1] == "n_qa"
    assert list(samples_from_dataset(mapped)) == locomo_samples
    assert samples_from_dataset(mapped)[3] == locomo_samples[3]
    stream = datasets.load_dataset("himga_locomo", data_dir=str(shared_data / "locomo"), split="test", streaming=True)
    assert list(samples_from_dataset(stream.map(lambda row: {"n_qa": len(row["qa_pairs"])}))) == locomo_samples
    assert list(samples_from_dataset(stream.add_column("prediction", [f"p{i}" for i in range(10)]))) == locomo_samples


def test_missing_or_retyped_columns_are_named(shared_data):
    ds = build_dataset("locomo", path=shared_data / "locomo").add_column("prediction", ["p"] * 10)
    with pytest.raises(
        ConfigurationError, match=r"^the dataset does not have himga's Sample features \(missing columns \['raw'\]\)$"
    ):
        samples_from_dataset(ds.remove_columns("raw"))
    with pytest.raises(
        ConfigurationError,
        match=r"^the dataset does not have himga's Sample features \(columns of another type \['speaker_a'\]\)$",
    ):
        samples_from_dataset(ds.cast_column("speaker_a", datasets.Value("large_string")))
    with pytest.raises(
        ConfigurationError, match=r"\(missing columns \['raw'\]; columns of another type \['speaker_a'\]\)$"
    ):
        samples_from_dataset(ds.remove_columns("raw").cast_column("speaker_a", datasets.Value("large_string")))
