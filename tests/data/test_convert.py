"""row_to_sample and sample_to_row are inverse, field by field (inline rows)."""

from __future__ import annotations

import datasets

from himga.data import (
    SAMPLE_FEATURES,
    EvidenceRef,
    Message,
    QAPair,
    QuestionType,
    Sample,
    Session,
    row_to_sample,
    sample_to_row,
)

ROW = {
    "sample_id": "conv-1",
    "dataset": "locomo",
    "sessions": [
        {
            "session_id": "1",
            "messages": [
                {"role": "A", "content": "hi", "turn_id": "D1:1", "date_str": None, "raw": None},
                {
                    "role": "B",
                    "content": "[Image: a dog] look",
                    "turn_id": "D1:2",
                    "date_str": None,
                    "raw": '{"blip_caption": "a dog"}',
                },
            ],
            "date_str": "1:56 pm on 8 May, 2023",
            "title": None,
        }
    ],
    "qa_pairs": [
        {
            "question_id": "0",
            "question": "Who?",
            "answer": "2022",
            "question_type": "temporal",
            "evidence": {"turn_ids": ["D1:1"], "session_ids": []},
            "raw": '{"answer": 2022}',
            "position": None,  # every feature is in a row (issue 37: a question's place in the history, its options)
            "options": [],
        }
    ],
    "speaker_a": "A",
    "speaker_b": "B",
    "raw": None,
}

SAMPLE = Sample(
    sample_id="conv-1",
    dataset="locomo",
    sessions=[
        Session(
            "1",
            [Message("A", "hi", "D1:1"), Message("B", "[Image: a dog] look", "D1:2", raw={"blip_caption": "a dog"})],
            date_str="1:56 pm on 8 May, 2023",
        )
    ],
    qa_pairs=[QAPair("0", "Who?", "2022", QuestionType.TEMPORAL, EvidenceRef(turn_ids=["D1:1"]), raw={"answer": 2022})],
    speaker_a="A",
    speaker_b="B",
)


def test_row_to_sample():
    sample = row_to_sample(ROW)
    assert sample == SAMPLE
    assert sample.qa_pairs[0].question_type is QuestionType.TEMPORAL
    assert sample.sessions[0].messages[0].raw == {}


def test_raw_cells_decoded_from_json_text_or_taken_as_dicts():
    """raw columns are JSON text; dict cells (rows of a datasets.Json() column, builders < 1.1.0) also read."""
    qa = ROW["qa_pairs"][0]
    as_dicts = {**ROW, "qa_pairs": [{**qa, "raw": {"answer": 2022}}]}
    assert row_to_sample(as_dicts) == SAMPLE
    assert row_to_sample({**ROW, "qa_pairs": [{**qa, "raw": "{}"}]}).qa_pairs[0].raw == {}


def test_sample_to_row():
    assert sample_to_row(SAMPLE) == ROW


def test_round_trip_through_arrow():
    ds = datasets.Dataset.from_list([sample_to_row(SAMPLE)], features=SAMPLE_FEATURES)
    assert ds.features == SAMPLE_FEATURES
    assert row_to_sample(ds[0]) == SAMPLE
