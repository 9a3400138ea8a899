"""LongMemEval data-quality rules for ``himga validate`` (see :mod:`himga.validate`).

They read a Sample built by :func:`himga_longmemeval.records.question_to_row` (sessions in file
order, ``has_answer`` in ``Message.raw``, ``question_date`` in ``Sample.raw``) and parse dates with
:func:`himga.schema.dates.parse_date`. Definitions:

- ``session_after_question``: a haystack session dated after the question's ``question_date``.
- ``not_chronological``: a haystack whose dates are not in non-decreasing file order (one finding
  per question, with the number of sessions dated before their predecessor).
- ``duplicate_session_id``: a session id that occurs more than once in one haystack.
- ``blank_turn``: a turn whose ``content`` is empty or whitespace only.
- ``answer_session_without_has_answer``: an ``answer_session_ids`` session present in the haystack
  none of whose turns has ``has_answer: true``.
- ``answer_session_not_in_haystack``: an ``answer_session_ids`` entry that is no haystack session id.
- ``unparseable_date``: a haystack or question date in no format ``parse_date`` knows (such dates
  are left out of the two date rules).
- ``unknown_question_type``: a ``question_type`` that is none of the benchmark's six (in either spelling); the
  row counts it as ``single_session_user`` (:func:`himga_longmemeval.records.unknown_types`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from himga.errors import DateFormatError
from himga.finding import Finding, blank_turns, unknown_roles
from himga.schema.dates import parse_date
from himga_longmemeval.records import unknown_types

__all__ = ["KINDS", "findings"]

#: The roles of LongMemEval's turns (the released files hold no other).

KINDS = {
    "session_after_question": "sessions dated after the question",
    "not_chronological": "haystacks not in chronological order",
    "duplicate_session_id": "duplicate session ids within a haystack",
    "blank_turn": "blank turns",
    "unknown_role": "turns whose role is neither user nor assistant",
    "answer_session_without_has_answer": "answer sessions without any has_answer turn",
    "answer_session_not_in_haystack": "answer_session_ids not in the haystack",
    "unparseable_date": "dates that cannot be parsed",
    "unknown_question_type": "question types the benchmark does not have",
}


def _date(value, sid: str, where: str, bad: list[Finding]):
    try:
        return parse_date(value)
    except DateFormatError as e:
        bad.append(Finding("unparseable_date", sid, where, str(e)))
        return None


def findings(sample) -> Iterator[Finding]:
    """The LongMemEval findings of one Sample (one question and its haystack).

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "longmemeval"``.

    Yields:
        :class:`~himga.validate.Finding` of the kinds in :data:`KINDS`.
    """
    sid = sample.sample_id
    bad_dates: list[Finding] = []
    asked = _date(sample.raw.get("question_date"), sid, "question_date", bad_dates)
    dates = [_date(s.date_str, sid, f"session {s.session_id}", bad_dates) for s in sample.sessions]
    if asked is not None:
        for session, date in zip(sample.sessions, dates):
            if date is not None and date > asked:
                yield Finding(
                    "session_after_question",
                    sid,
                    f"session {session.session_id}",
                    f"{session.date_str} > question {sample.raw['question_date']}",
                )
    known = [d for d in dates if d is not None]
    backwards = sum(b < a for a, b in zip(known, known[1:]))
    if backwards:
        yield Finding(
            "not_chronological", sid, "", f"{backwards} of {len(known)} sessions dated before the previous one"
        )
    for session_id, n in Counter(s.session_id for s in sample.sessions).items():
        if n > 1:
            yield Finding("duplicate_session_id", sid, f"session {session_id}", f"{n} times")
    for i, j, message in blank_turns(sample):
        yield Finding(
            "blank_turn",
            sid,
            f"session {sample.sessions[i].session_id} turn {j}",
            f"haystack_sessions[{i}][{j}] {message.role}: {message.content!r}",
        )
    for i, j, message in unknown_roles(sample):
        yield Finding(
            "unknown_role",
            sid,
            f"session {sample.sessions[i].session_id} turn {j}",
            f"haystack_sessions[{i}][{j}].role {message.role!r}",
        )
    haystack = {s.session_id: s for s in sample.sessions}
    for qa in sample.qa_pairs:
        for answer_id in qa.evidence.session_ids:
            session = haystack.get(answer_id)
            if session is None:
                yield Finding(
                    "answer_session_not_in_haystack", sid, f"session {answer_id}", "not among haystack_session_ids"
                )
            elif not any(m.raw.get("has_answer") is True for m in session.messages):
                yield Finding(
                    "answer_session_without_has_answer",
                    sid,
                    f"session {answer_id}",
                    f"{len(session.messages)} turns, none with has_answer: true",
                )
    yield from bad_dates
    for qid, value in unknown_types((qa.question_type.value, json.dumps(qa.raw)) for qa in sample.qa_pairs):
        yield Finding("unknown_question_type", qid, "", f"{value!r}: counted as single_session_user")
