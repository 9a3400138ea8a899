"""The one converter between Arrow rows and :class:`~himga.data.schema.Sample` dataclasses.

A *row* is the dict a ``datasets.Dataset`` returns for one example of :data:`~.features.SAMPLE_FEATURES`
(``raw`` columns decoded from JSON). ``raw`` columns store ``null`` for an empty dict, and read
``null`` back as ``{}``; everything else maps field by field, in both directions:
``row_to_sample(sample_to_row(s)) == s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .schema import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

__all__ = ["row_to_sample", "sample_to_row"]


def _raw_out(raw: dict) -> dict | None:
    return raw or None


def _raw_in(value: Any) -> dict:
    return value if value else {}


def sample_to_row(sample: Sample) -> dict[str, Any]:
    """Encode a Sample as a row of :data:`~.features.SAMPLE_FEATURES`.

    Args:
        sample: The Sample.

    Returns:
        A dict with the feature names as keys; ``question_type`` as its string value; empty ``raw``
        dicts as ``None``.
    """
    return {
        "sample_id": sample.sample_id,
        "dataset": sample.dataset,
        "sessions": [
            {
                "session_id": s.session_id,
                "messages": [
                    {
                        "role": m.role,
                        "content": m.content,
                        "turn_id": m.turn_id,
                        "date_str": m.date_str,
                        "raw": _raw_out(m.raw),
                    }
                    for m in s.messages
                ],
                "date_str": s.date_str,
                "title": s.title,
            }
            for s in sample.sessions
        ],
        "qa_pairs": [
            {
                "question_id": qa.question_id,
                "question": qa.question,
                "answer": qa.answer,
                "question_type": qa.question_type.value,
                "evidence": {
                    "turn_ids": list(qa.evidence.turn_ids),
                    "session_ids": list(qa.evidence.session_ids),
                },
                "raw": _raw_out(qa.raw),
            }
            for qa in sample.qa_pairs
        ],
        "speaker_a": sample.speaker_a,
        "speaker_b": sample.speaker_b,
        "raw": _raw_out(sample.raw),
    }


def row_to_sample(row: Mapping[str, Any]) -> Sample:
    """Decode one row of :data:`~.features.SAMPLE_FEATURES` into a Sample.

    Args:
        row: One example as returned by ``Dataset.__getitem__`` or by iterating an ``IterableDataset``.

    Returns:
        The Sample.

    Raises:
        ValueError: ``question_type`` is not a :class:`QuestionType` value.
        KeyError: the row lacks a feature (it was not built with these features).
    """
    return Sample(
        sample_id=row["sample_id"],
        dataset=row["dataset"],
        sessions=[
            Session(
                session_id=s["session_id"],
                messages=[
                    Message(
                        role=m["role"],
                        content=m["content"],
                        turn_id=m["turn_id"],
                        date_str=m["date_str"],
                        raw=_raw_in(m["raw"]),
                    )
                    for m in s["messages"]
                ],
                date_str=s["date_str"],
                title=s["title"],
            )
            for s in row["sessions"]
        ],
        qa_pairs=[
            QAPair(
                question_id=qa["question_id"],
                question=qa["question"],
                answer=qa["answer"],
                question_type=QuestionType(qa["question_type"]),
                evidence=EvidenceRef(
                    turn_ids=list(qa["evidence"]["turn_ids"]),
                    session_ids=list(qa["evidence"]["session_ids"]),
                ),
                raw=_raw_in(qa["raw"]),
            )
            for qa in row["qa_pairs"]
        ],
        speaker_a=row["speaker_a"],
        speaker_b=row["speaker_b"],
        raw=_raw_in(row["raw"]),
    )
