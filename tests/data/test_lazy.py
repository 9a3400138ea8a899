"""LazySamples and the column-wise converter, on the real locomo10.json (exact values) and inline rows."""

from __future__ import annotations

from collections.abc import Sequence

import datasets
import pytest

from himga.data import (
    SAMPLE_FEATURES,
    LazySamples,
    Sample,
    build_dataset,
    load_dataset,
    load_locomo,
    row_to_sample,
    sample_to_row,
    table_to_samples,
)

IDS = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]


@pytest.fixture(scope="module")
def locomo_dataset(shared_data, tmp_path_factory):
    return build_dataset("locomo", path=shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("lazy_cache"))


@pytest.fixture(scope="module")
def lazy(locomo_dataset):
    return LazySamples(locomo_dataset)


@pytest.fixture(scope="module")
def eager(locomo_dataset):
    """The reference: one row at a time through ``Dataset.__getitem__`` and ``row_to_sample``."""
    return [row_to_sample(row) for row in locomo_dataset]


def test_sequence_basics(lazy):
    assert isinstance(lazy, Sequence)
    assert len(lazy) == 10
    assert lazy[0].sample_id == "conv-26"
    assert lazy[-1].sample_id == "conv-50"
    assert lazy[-10].sample_id == "conv-26"
    assert isinstance(lazy[3], Sample)
    assert [s.sample_id for s in lazy] == IDS


def test_index_errors(lazy):
    with pytest.raises(IndexError, match="out of range for length 10"):
        lazy[10]
    with pytest.raises(IndexError):
        lazy[-11]
    with pytest.raises(TypeError, match="integers or slices, not str"):
        lazy["conv-26"]


def test_slicing_is_lazy_and_matches_list_slicing(lazy, eager):
    part = lazy[2:5]
    assert isinstance(part, LazySamples)
    assert len(part) == 3
    assert [s.sample_id for s in part] == ["conv-41", "conv-42", "conv-43"]
    assert part[-1].sample_id == "conv-43"
    assert [s.sample_id for s in lazy[::-3]] == ["conv-50", "conv-47", "conv-42", "conv-26"]
    assert [s.sample_id for s in lazy[1:9:2][1:]] == ["conv-42", "conv-44", "conv-48"]
    assert len(lazy[5:2]) == 0 and list(lazy[5:2]) == []
    for sl in (slice(None), slice(1, 8, 2), slice(None, None, -1), slice(-3, None), slice(7, 2, -2)):
        assert list(lazy[sl]) == eager[sl]


def test_equal_to_eager_list(lazy, eager, locomo_samples):
    assert list(lazy) == eager
    assert [lazy[i] for i in range(-10, 10)] == eager + eager
    assert eager == locomo_samples  # the facade's eager list uses the column-wise converter
    assert sum(len(s.sessions) for s in lazy) == 272
    assert sum(len(sess.messages) for s in lazy for sess in s.sessions) == 5882
    assert sum(len(s.qa_pairs) for s in lazy) == 1986
    assert lazy[0].qa_pairs[1].answer == "2022"
    assert lazy.index(eager[4]) == 4
    assert eager[7] in lazy


def test_shuffled_and_selected_datasets(locomo_dataset, eager):
    shuffled = locomo_dataset.shuffle(seed=0)
    order = [IDS.index(row["sample_id"]) for row in shuffled]
    assert list(LazySamples(shuffled)) == [eager[i] for i in order]
    assert LazySamples(locomo_dataset.select([9, 0]))[0].sample_id == "conv-50"


def test_qa_samples_are_the_samples_without_sessions(locomo_dataset, eager):
    from dataclasses import replace

    from himga.data.lazy import qa_samples

    qa_only = list(qa_samples(locomo_dataset))
    assert qa_only == [replace(s, sessions=[]) for s in eager]
    assert sum(len(s.qa_pairs) for s in qa_only) == 1986
    assert qa_only[0].qa_pairs[1].answer == "2022" and qa_only[0].raw == eager[0].raw
    assert [s.sample_id for s in qa_samples(locomo_dataset.select([9, 0]))] == ["conv-50", "conv-26"]
    assert list(qa_samples(locomo_dataset.select([]))) == []
    # the sessions column is not read: a table without it converts the same
    arrow = locomo_dataset.with_format("arrow")[2:4].drop_columns(["sessions"])
    assert table_to_samples(arrow, sessions=False) == [replace(s, sessions=[]) for s in eager[2:4]]
    with pytest.raises(KeyError, match="sessions"):
        table_to_samples(arrow)


def test_facade_lazy_keyword(shared_data, tmp_path):
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path, lazy=True)
    assert isinstance(samples, LazySamples)
    assert [s.sample_id for s in samples[:2]] == ["conv-26", "conv-30"]
    again = load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, lazy=True)
    assert isinstance(again, LazySamples) and again[-1].sample_id == "conv-50"
    assert isinstance(load_locomo(shared_data / "locomo", cache_dir=tmp_path), list)


def test_table_to_samples_on_sliced_and_empty_tables(locomo_dataset, eager):
    arrow = locomo_dataset.with_format("arrow")
    assert table_to_samples(arrow[3:6]) == eager[3:6]
    assert table_to_samples(arrow[9:10]) == eager[9:10]
    assert table_to_samples(arrow[0:0]) == []
    assert [table_to_samples(b)[0] for b in arrow[:].to_batches(max_chunksize=1)] == eager


def test_table_to_samples_matches_row_to_sample_inline():
    rows = [
        {
            "sample_id": "q1",
            "dataset": "longmemeval",
            "sessions": [
                {
                    "session_id": "s1",
                    "date_str": "2023/05/20 (Sat) 02:21",
                    "title": None,
                    "messages": [
                        {
                            "role": "user",
                            "content": "",
                            "turn_id": None,
                            "date_str": None,
                            "raw": '{"has_answer": true}',
                        },
                        {"role": "assistant", "content": "ok", "turn_id": None, "date_str": None, "raw": None},
                    ],
                },
                {"session_id": "s2", "date_str": None, "title": None, "messages": []},
            ],
            "qa_pairs": [
                {
                    "question_id": "q1_abs",
                    "question": "Why?",
                    "answer": "3",
                    "question_type": "multi_session",
                    "evidence": {"turn_ids": [], "session_ids": ["s1"]},
                    "raw": '{"answer": 3}',
                    "position": None,  # every feature is in a row (since issue 37)
                    "options": [],
                }
            ],
            "speaker_a": None,
            "speaker_b": None,
            "raw": '{"question_date": "2023/05/21 (Sun) 10:00"}',
        },
        {
            "sample_id": "q2",
            "dataset": "longmemeval",
            "sessions": [],
            "qa_pairs": [],
            "speaker_a": None,
            "speaker_b": None,
            "raw": None,
        },
    ]
    ds = datasets.Dataset.from_list(rows, features=SAMPLE_FEATURES)
    samples = table_to_samples(ds.data.table)
    assert samples == [row_to_sample(r) for r in ds]
    assert [sample_to_row(s) for s in samples] == rows
    assert samples[0].qa_pairs[0].is_abstention
    assert samples[0].sessions[0].messages[1].raw == {}
