"""The seed-style LongMemEval loader, for comparison only: ``json.load`` the whole file, build every dataclass.

This mirrors the HiMGA seed's loader (what most LongMemEval loaders in the wild do): the whole file
becomes Python objects at once, then one :class:`~himga.data.Sample` per question, one ``Session``
per haystack entry, one ``Message`` per turn and one ``QAPair`` with ``str(answer)``. No validation,
no cache: it is the baseline that himga's builder, cache and converters are measured against.
"""

from __future__ import annotations

import json
from pathlib import Path

from himga.data.schema import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

_TYPES = {t.value for t in QuestionType}


def _question_type(name: str) -> QuestionType:
    value = name.replace("-", "_")
    return QuestionType(value) if value in _TYPES else QuestionType.SINGLE_SESSION_USER


def load_seed_style(path: str | Path) -> list[Sample]:
    """Load a LongMemEval file the seed's way.

    Args:
        path: A LongMemEval JSON file (a list of question dicts).

    Returns:
        One Sample per question, sessions in file order.
    """
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    samples = []
    for item in data:
        sessions = [
            Session(
                session_id=sid,
                messages=[Message(role=t["role"], content=t["content"]) for t in turns],
                date_str=date,
            )
            for sid, date, turns in zip(item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"])
        ]
        qa = QAPair(
            question_id=item["question_id"],
            question=item["question"],
            answer=str(item["answer"]),
            question_type=_question_type(item["question_type"]),
            evidence=EvidenceRef(session_ids=list(item.get("answer_session_ids", []))),
            raw=item,
        )
        samples.append(
            Sample(
                sample_id=item["question_id"],
                dataset="longmemeval",
                sessions=sessions,
                qa_pairs=[qa],
                raw={"question_date": item.get("question_date")},
            )
        )
    return samples
