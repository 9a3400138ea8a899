"""LoCoMo data-quality rules for ``himga validate`` (see :mod:`himga.validate`).

They read what :mod:`himga_locomo.records` keeps of the source in ``raw`` (the original evidence
lists, the conversation keys that are not sessions) and reuse its normalization, so each rule has
one implementation. Definitions (counts on ``locomo10.json`` in brackets):

- ``malformed_evidence`` [6]: an evidence string that is not exactly one canonical turn id
  (``D<session>:<turn>``, no leading zeros) but normalizes to one or more ids:
  ``'D8:6; D9:17'``, ``'D:11:26'``, ``'D30:05'`` and three space-separated lists in conv-49.
- ``non_id_evidence`` [1]: an evidence string that holds no turn id at all and is dropped
  (``'D'``, conv-42 QA 88). Together with ``malformed_evidence``: 7 strings that are not ids.
- ``evidence_changed`` [8]: QA evidence lists that normalization changes (the 7 strings above in
  7 lists, plus conv-50 QA 5 whose list repeats ``D4:5``).
- ``empty_evidence`` [4]: QA pairs whose evidence list is empty (or missing).
- ``date_without_session`` [16]: ``session_N_date_time`` keys whose ``session_N`` has no turns
  (or does not exist); all 16 in conv-26.
- ``generated_sample_id`` [0]: a record without ``sample_id``, given its index as its id
  (``raw["sample_id_generated"]``).
- ``blank_text`` [0]: a question, a gold answer or a turn's text that is empty or whitespace only (kept as it is; an
  empty gold scores every answer 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from himga.errors import DateFormatError
from himga.finding import Finding, blank_turns
from himga.schema.dates import parse_date
from himga_locomo.records import _SESSION_DATE, normalize_evidence

__all__ = ["DATE_KINDS", "EVIDENCE_KINDS", "KINDS", "blank_findings", "date_findings", "evidence_findings", "findings"]

#: The kinds of :func:`evidence_findings` (kind → title, display order).
EVIDENCE_KINDS = {
    "malformed_evidence": "malformed evidence strings (shown with what they normalize to)",
    "non_id_evidence": "evidence strings with no turn id (dropped)",
    "evidence_changed": "QA evidence lists changed by normalization",
    "empty_evidence": "empty evidence lists",
}

#: The kind of :func:`date_findings`.
DATE_KINDS = {"unparseable_date": "dates that cannot be parsed (kept as they are)"}

KINDS = {
    **EVIDENCE_KINDS,
    **DATE_KINDS,
    "date_without_session": "dates without sessions",
    "generated_sample_id": "records without sample_id (their index is their id)",
    "blank_text": "blank questions, gold answers or turn texts",
}


def findings(sample) -> Iterator[Finding]:
    """The LoCoMo findings of one Sample built by :func:`himga_locomo.records.record_to_row`.

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "locomo"``.

    Yields:
        :class:`~himga.validate.Finding` of the kinds in :data:`KINDS`, QA pairs in source order.
    """
    yield from evidence_findings(sample)
    yield from date_findings(sample, "$.conversation")
    if sample.raw.get("sample_id_generated"):
        yield Finding(
            "generated_sample_id",
            sample.sample_id,
            f"$[{sample.sample_id}]",
            "no sample_id: the record's index is its id",
        )
    extra = sample.raw.get("conversation_extra", {})
    for key, value in extra.items():
        if (m := _SESSION_DATE.fullmatch(key)) and not extra.get(f"session_{m[1]}"):
            yield Finding("date_without_session", sample.sample_id, f"session {m[1]}", f"{key} = {value!r}, no turns")
    yield from blank_findings(sample)


def blank_findings(sample) -> Iterator[Finding]:
    """``blank_text``: each QA pair whose question or gold answer, and each turn whose text, is empty or whitespace
    only, in source order (turns first)."""
    for _, _, message in blank_turns(sample):
        yield Finding("blank_text", sample.sample_id, f"turn {message.turn_id}", f"text {message.content!r}")
    for qa in sample.qa_pairs:
        for field, value in (("question", qa.question), ("answer", qa.answer)):  # both always str (QAPair)
            if not value.strip():
                yield Finding("blank_text", sample.sample_id, f"QA {qa.question_id}", f"{field} {value!r}")


def date_findings(sample, holder: str, *, message_key: str | None = None) -> Iterator[Finding]:
    """``unparseable_date``: each session date and (with ``message_key``) each message's own date that
    :func:`~himga.schema.dates.parse_date` cannot read, where the record holds it: ``"<holder>.session_3_date_time"``,
    ``"<holder>.session_1[0].date_time"``, with the parser's message (the value is kept as it is in ``date_str``).

    Args:
        sample: A Sample whose sessions are ``session_N`` (``session_id`` ``"N"``), messages in source order.
        holder: The record path of the object holding the ``session_N`` keys, with the file when it names the
            sample's file (REALTALK: ``"Chat_1_Emi_Elise.json: $"``; LoCoMo: ``"$.conversation"``).
        message_key: The key of a message's own date (REALTALK ``"date_time"``), or ``None`` (LoCoMo: none).
    """

    def unreadable(value: str | None) -> str | None:
        try:
            parse_date(value)
        except DateFormatError as e:
            return str(e)
        return None

    for session in sample.sessions:
        n = session.session_id
        if (problem := unreadable(session.date_str)) is not None:
            yield Finding("unparseable_date", sample.sample_id, f"{holder}.session_{n}_date_time", problem)
        for i, m in enumerate(session.messages if message_key else ()):
            if (problem := unreadable(m.date_str)) is not None:
                yield Finding("unparseable_date", sample.sample_id, f"{holder}.session_{n}[{i}].{message_key}", problem)


def evidence_findings(sample, normalize: Callable[[list[str]], list[str]] = normalize_evidence) -> Iterator[Finding]:
    """The evidence kinds of :data:`KINDS` (``malformed_evidence``, ``non_id_evidence``, ``evidence_changed``,
    ``empty_evidence``) of one Sample whose QA pairs keep the source QA in ``raw`` and the evidence ``normalize``
    gave in ``evidence.turn_ids`` (LoCoMo's :func:`~himga_locomo.records.normalize_evidence`, or REALTALK's)."""
    sid = sample.sample_id
    for qa in sample.qa_pairs:
        where = f"QA {qa.question_id}"
        evidence = qa.raw.get("evidence", [])
        for item in evidence:
            ids = normalize([item])
            if not ids:
                yield Finding("non_id_evidence", sid, where, f"{item!r} -> dropped")
            elif ids != [item]:
                yield Finding("malformed_evidence", sid, where, f"{item!r} -> {', '.join(ids)}")
        if qa.evidence.turn_ids != evidence:
            yield Finding("evidence_changed", sid, where, f"{evidence} -> {qa.evidence.turn_ids}")
        if not evidence:
            yield Finding("empty_evidence", sid, where, "evidence: []" if "evidence" in qa.raw else "no evidence key")
