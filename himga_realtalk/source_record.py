"""A REALTALK Sample → the source record it was built from (the inverse of
:func:`himga_realtalk.records.record_to_row`).

Shapes no row, so it is not part of the cache key.
"""

from __future__ import annotations

from typing import Any

from himga_locomo.source_record import source_turn

__all__ = ["sample_to_record"]


def sample_to_record(sample) -> dict[str, Any]:
    """Rebuild the source REALTALK record of a Sample built by :func:`~himga_realtalk.records.record_to_row`.

    Returns:
        A dict equal, as a JSON value, to the file's object.
    """
    raw = sample.raw
    record: dict[str, Any] = {
        "name": {"speaker_1": sample.speaker_a, "speaker_2": sample.speaker_b, **raw.get("name_extra", {})}
    }
    for session in sample.sessions:
        record[f"session_{session.session_id}"] = [
            source_turn(m, text_key="clean_text", date_key="date_time") for m in session.messages
        ]
        if session.date_str is not None:
            record[f"session_{session.session_id}_date_time"] = session.date_str
    record.update(raw.get("conversation_extra", {}))
    for n, events in raw.get("event_summary", {}).items():
        record[f"events_session_{n}"] = events
    record.update(raw.get("summary_extra", {}).get("event_summary", {}))
    record["qa"] = [dict(qa.raw) for qa in sample.qa_pairs]
    record.update(raw.get("record_extra", {}))
    return record
