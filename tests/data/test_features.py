"""The Arrow Features and the dataclasses describe the same schema, field by field."""

from __future__ import annotations

import dataclasses
from collections import Counter

import datasets
import pytest

from himga.data import SAMPLE_FEATURES, Sample
from himga.schema.features import features_for

S = datasets.Value("string")


def test_sample_features_exact():
    message = {"role": S, "content": S, "turn_id": S, "date_str": S, "raw": S}
    session = {"session_id": S, "messages": datasets.List(message), "date_str": S, "title": S}
    qa = {
        "question_id": S,
        "question": S,
        "answer": S,
        "question_type": S,
        "evidence": {"turn_ids": datasets.List(S), "session_ids": datasets.List(S)},
        "raw": S,
        "position": datasets.Value("int64"),  # since issue 37: a question asked mid-history (PersonaMem)
        "options": datasets.List(S),
    }
    expected = datasets.Features(
        {
            "sample_id": S,
            "dataset": S,
            "sessions": datasets.List(session),
            "qa_pairs": datasets.List(qa),
            "speaker_a": S,
            "speaker_b": S,
            "raw": S,
        }
    )
    assert SAMPLE_FEATURES == expected
    assert list(SAMPLE_FEATURES) == [f.name for f in dataclasses.fields(Sample)]


def test_nested_records_are_lists_of_structs_not_sequences():
    sessions = SAMPLE_FEATURES["sessions"]
    assert type(sessions) is datasets.List and isinstance(sessions.feature, dict)
    assert type(sessions.feature["messages"]) is datasets.List
    assert type(SAMPLE_FEATURES["qa_pairs"]) is datasets.List


def test_unsupported_field_type_is_rejected():
    @dataclasses.dataclass
    class Bad:
        x: float  # the table has str, int, dicts, lists and dataclasses (int since issue 37: a question's position)

    with pytest.raises(TypeError, match="no Arrow feature"):
        features_for(Bad)


def test_every_benchmark_concatenates(shared_data, beam_tier, tmp_path_factory):
    """The rows of every benchmark have the same Features: one table holds them all."""
    from himga.data import build_dataset

    beam_tier("100K")
    cache = tmp_path_factory.mktemp("concat")
    parts = [
        build_dataset("locomo", path=shared_data / "locomo", cache_dir=cache),
        build_dataset(
            "longmemeval", "oracle", path=shared_data / "longmemeval" / "longmemeval_oracle_pair.json", cache_dir=cache
        ),
        build_dataset("beam", "100K", path=shared_data / "beam", cache_dir=beam_tier.cache["100K"]),
    ]
    assert all(ds.features == SAMPLE_FEATURES for ds in parts)
    both = datasets.concatenate_datasets(parts)
    assert both.features == SAMPLE_FEATURES
    assert Counter(both["dataset"]) == {"locomo": 10, "longmemeval": 2, "beam": 20}
