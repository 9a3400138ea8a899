"""A LoCoMo Sample → the source record it was built from (the inverse of :func:`himga_locomo.records.record_to_row`).

Shapes no row, so it is not part of the cache key (the catalogue entry's ``row_modules`` leave it out):
editing it keeps every built cache.
"""

from __future__ import annotations

from typing import Any

from himga.schema.content import text_without_image
from himga_locomo.records import _PER_SESSION, _SOURCE_KEY, AUDIT_KEY

__all__ = ["sample_to_record", "source_turn"]


def source_turn(message, *, text_key: str = "text", date_key: str | None = None) -> dict[str, Any]:
    """The source turn of a message built by :func:`himga_locomo.records.turn_message` (the same field names):
    its text without the inline ``[Image: <caption>]``, its date under ``date_key`` (REALTALK ``date_time``)."""
    text = message.content
    if isinstance(caption := message.raw.get("blip_caption"), str):
        text = text_without_image(text, caption)
    date = {date_key: message.date_str} if date_key is not None else {}
    return {"speaker": message.role, "dia_id": message.turn_id, text_key: text, **date, **message.raw}


def sample_to_record(sample) -> dict[str, Any]:
    """Rebuild the source LoCoMo record of a Sample built by :func:`record_to_row`.

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "locomo"``.

    Returns:
        A dict equal, as a JSON value, to the record the Sample was built from.
    """
    raw = sample.raw
    conversation: dict[str, Any] = {"speaker_a": sample.speaker_a, "speaker_b": sample.speaker_b}
    for session in sample.sessions:
        if session.date_str is not None:
            conversation[f"session_{session.session_id}_date_time"] = session.date_str
        conversation[f"session_{session.session_id}"] = [source_turn(m) for m in session.messages]
    conversation.update(raw.get("conversation_extra", {}))
    # gold="audited" adds one key to the QA's raw (AUDIT_KEY); the rest is the source QA
    record: dict[str, Any] = {"qa": [{k: v for k, v in qa.raw.items() if k != AUDIT_KEY} for qa in sample.qa_pairs]}
    if not raw.get("sample_id_generated"):
        record["sample_id"] = sample.sample_id
    aux = {
        key: {
            **{_SOURCE_KEY[key].format(n): v for n, v in raw[key].items()},
            **raw.get("summary_extra", {}).get(key, {}),
        }
        for key in _PER_SESSION
        if key in raw
    }
    if raw.get("layout") == "flat":
        record.update(conversation)
        for value in aux.values():
            record.update(value)
    else:
        record["conversation"] = conversation
        record.update(aux)
    record.update(raw.get("record_extra", {}))
    return record
