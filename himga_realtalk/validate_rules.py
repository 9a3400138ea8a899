"""REALTALK data-quality rules for ``himga validate`` (see :mod:`himga.validate`).

LoCoMo's evidence rules (:func:`himga_locomo.validate_rules.evidence_findings`) with REALTALK's normalization, and what
REALTALK's references get wrong. Counts on the pinned files in brackets:

- ``unresolved_evidence`` [188 of 1,742]: an evidence string that names no ``dia_id`` of its conversation as written,
  shown with what it normalizes to and which of those ids name a turn (44 resolve after normalization: ``"D1:11;
  D3:18"``, ``"D20:17."``, ``"D12:3-D12:5"``; 144 do not: an id past the day's turns such as ``D2:7``, or no id at all:
  ``""``, ``"D58"``, ``"D:56"``, ``"D13:45:D20:19"``). The ``D`` of REALTALK's ids counts days, not sessions.
- ``malformed_evidence`` [46], ``non_id_evidence`` [8], ``evidence_changed`` [46], ``empty_evidence`` [2]: as for
  LoCoMo, with REALTALK's normalization.
- a speaker who is neither ``name.speaker_1`` nor ``name.speaker_2``: the generic ``third_speaker`` of every benchmark
  [0].
- ``message_date_order``: a message dated before the message it follows [0].
- ``unparseable_date`` [0]: a session or message date ``parse_date`` cannot read, with its file and record path
  (LoCoMo's rule, :func:`himga_locomo.validate_rules.date_findings`); the value is kept as it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from himga.errors import DateFormatError
from himga.finding import Finding
from himga.schema.dates import parse_date
from himga_locomo.validate_rules import DATE_KINDS, EVIDENCE_KINDS, date_findings, evidence_findings
from himga_realtalk.records import normalize_evidence

__all__ = ["KINDS", "findings", "unresolved"]

KINDS = {
    "unresolved_evidence": "evidence strings naming no dia_id of their conversation (shown with what they normalize "
    "to)",
    **EVIDENCE_KINDS,
    **DATE_KINDS,
    "message_date_order": "messages dated before the message they follow",
}


def unresolved(sample) -> Iterator[tuple[str, str, list[str], list[str]]]:
    """``(question id, evidence string, its normalized ids, the ids naming no turn)`` of each evidence string of
    ``sample`` that names no ``dia_id`` as written, QA pairs and strings in source order."""
    turn_ids = {m.turn_id for s in sample.sessions for m in s.messages}
    for qa in sample.qa_pairs:
        for item in qa.raw.get("evidence", []):
            if item not in turn_ids:
                ids = normalize_evidence([item])
                yield qa.question_id, item, ids, [i for i in ids if i not in turn_ids]


def findings(sample) -> Iterator[Finding]:
    """The REALTALK findings of one Sample built by :func:`himga_realtalk.records.record_to_row`, kinds of
    :data:`KINDS`."""
    sid = sample.sample_id
    for qid, item, ids, dangling in unresolved(sample):
        if not ids:
            detail = f"{item!r} -> no turn id"
        elif dangling:
            detail = f"{item!r} -> {', '.join(ids)}; no turn: {', '.join(dangling)}"
        else:
            detail = f"{item!r} -> {', '.join(ids)} (resolved)"
        yield Finding("unresolved_evidence", sid, f"QA {qid}", detail)
    yield from evidence_findings(sample, normalize_evidence)
    yield from date_findings(sample, f"{sid}.json: $", message_key="date_time")
    previous = None
    for session in sample.sessions:
        for m in session.messages:
            try:
                when = parse_date(m.date_str)
            except DateFormatError:
                when = None
            if when is not None and previous is not None and when < previous:
                yield Finding(
                    "message_date_order", sid, f"turn {m.turn_id}", f"{m.date_str} after {previous:%d.%m.%Y, %H:%M:%S}"
                )
            previous = when or previous
