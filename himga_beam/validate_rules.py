"""BEAM data-quality rules for ``himga validate`` (see :mod:`himga.validate`).

They read a Sample built by :mod:`himga_beam.records` (the question dict in ``QAPair.raw``, the probe marker in
``Message.raw``). Definitions:

- ``probe_marker``: a message whose ``content`` still holds ``->->`` after the builder cut the marker from its
  end (a marker followed by more text, or a second one): a memory system would read it. An error: ``himga
  validate beam`` exits with status 1 (:data:`ERRORS`).
- ``marker_text``: a probe marker the builder cut that holds more than `` ->-> <batch>,<n>`` (or ``<batch>,N/A``):
  ``5,14)``, ``4,32, 34``, ``9,5) Decision & Change Labels:…``. The cut runs from the marker to the end of the
  message, so that text left ``content`` with it; it is kept in ``raw["probe_marker"]`` (100K: 8 messages, 500K: 24).
- ``answer_contradicts_rubric``: a reference answer that states a quantity (a number with a unit of time, ``%``
  or ``ms``) or a date (a month and a day) of the same kind as a rubric item, never with the rubric's value
  (100K chat 1, ``temporal_reasoning:0``: the answer says "exactly 4 weeks", the rubric "8 weeks"). The gold is
  not changed: the judge scores against the rubric, so a response that follows the answer scores 0.
- ``unknown_role``: a message whose role is neither ``user`` nor ``assistant`` (kept as given).
- ``missing_evidence``: a question of an ability that cites the chat (every ability but abstention) with no
  ``source_chat_ids`` (absent or empty).
- ``empty_rubric``: a question without rubric items (the official scorer would divide by zero).
- ``undated_batch``: a batch whose first message has no ``time_anchor``; ``unparseable_date``: one that
  :func:`himga.schema.dates.parse_date` cannot read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from himga.errors import DateFormatError
from himga.finding import Finding, unknown_roles
from himga.schema.dates import parse_date

__all__ = ["ERRORS", "KINDS", "contradiction", "findings"]

KINDS = {
    "probe_marker": "probe markers left in a message's content",
    "marker_text": "probe markers cut with more than their batch and number",
    "answer_contradicts_rubric": "reference answers contradicting their rubric on a number or date",
    "missing_evidence": "questions without evidence where the ability cites the chat",
    "unknown_role": "messages whose role is neither user nor assistant",
    "empty_rubric": "questions without rubric items",
    "undated_batch": "batches without a time anchor",
    "unparseable_date": "time anchors that cannot be parsed",
}

#: Kinds that make ``himga validate`` fail (exit status 1): data a memory system must never be given.
ERRORS = ("probe_marker",)

_PLAIN_MARKER = re.compile(r" ?->-> \d+,(\d+|N/A)")  # what nearly every marker is: " ->-> 1,1", " ->-> 4,N/A"
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_UNIT = r"(days?|weeks?|months?|years?|hours?|minutes?|seconds?|ms|%|percent)"
_QUANTITY = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*{_UNIT}(?!\w)", re.IGNORECASE)
_DATE = re.compile(rf"\b({'|'.join(_MONTHS)})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:\s*[-–]\s*(\d{{1,2}}))?\b", re.IGNORECASE)


def _unit(text: str) -> str:
    unit = text.lower()
    return "%" if unit == "percent" else unit.removesuffix("s") if len(unit) > 2 else unit


def _facts(text: str) -> dict[str, dict[str, str]]:
    """Kind → value → how ``text`` states it: ``{"week": {"8": "8 weeks"}, "march": {"15": "March 15"}}`` (a day range
    ``April 20-21`` states both days)."""
    out: dict[str, dict[str, str]] = {}
    for found in _QUANTITY.finditer(text):
        out.setdefault(_unit(found.group(2)), {}).setdefault(found.group(1).removesuffix(".0"), found.group())
    for found in _DATE.finditer(text):
        for day in filter(None, found.groups()[1:]):
            out.setdefault(found.group(1).lower(), {}).setdefault(str(int(day)), found.group())
    return out


def _states(text: str, value: str, kind: str) -> bool:
    """Whether ``text`` states ``value`` of ``kind`` loosely: the number then, within two words, the unit
    (``12 more weeks``)."""
    if kind in _MONTHS:
        return False
    near = re.compile(rf"(?<![\w.]){re.escape(value)}(?:\.0)?(?:\W+\w+){{0,2}}?\W*{_UNIT}(?!\w)", re.IGNORECASE)
    return any(_unit(found.group(1)) == kind for found in near.finditer(text))


def contradiction(answer: str, rubric: list[str]) -> str | None:
    """The first rubric value of a kind the answer states only with other values: ``"rubric 'LLM response should
    state: 8 weeks' says 8 weeks; the answer says 4 weeks"``; ``None`` when there is none."""
    stated = _facts(answer)
    for item in rubric:
        for kind, values in _facts(item).items():
            if (
                kind in stated
                and not values.keys() & stated[kind].keys()
                and not any(_states(answer, v, kind) for v in values)
            ):
                return (
                    f"rubric {item!r} says {', '.join(values.values())}; the answer says "
                    f"{', '.join(stated[kind].values())}"
                )
    return None


def findings(sample) -> Iterator[Finding]:
    """The BEAM findings of one Sample (one chat).

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "beam"``.

    Yields:
        :class:`~himga.finding.Finding` of the kinds in :data:`KINDS`.
    """
    sid = sample.sample_id
    for session in sample.sessions:
        for message in session.messages:
            if "->->" in message.content:
                at = message.content.index("->->")
                yield Finding(
                    "probe_marker", sid, f"turn {message.turn_id}", repr(message.content[max(0, at - 20) : at + 30])
                )
            marker = message.raw.get("probe_marker")
            if marker is not None and not _PLAIN_MARKER.fullmatch(marker):
                yield Finding(
                    "marker_text",
                    sid,
                    f"turn {message.turn_id}",
                    repr(marker if len(marker) <= 60 else marker[:59] + "…"),
                )
    for _, _, message in unknown_roles(sample):
        yield Finding("unknown_role", sid, f"turn {message.turn_id}", f"role {message.role!r}")
    for session in sample.sessions:
        if session.date_str is None:
            yield Finding("undated_batch", sid, f"session {session.session_id}", "its first message has no time_anchor")
            continue
        try:
            parse_date(session.date_str)
        except DateFormatError as e:
            yield Finding("unparseable_date", sid, f"session {session.session_id}", str(e))
    for qa in sample.qa_pairs:
        ability = str(qa.question_type)
        rubric = qa.raw.get("rubric", [])
        if not rubric:
            yield Finding("empty_rubric", sid, f"QA {qa.question_id}", "rubric: []")
        if ability != "abstention" and not qa.evidence.turn_ids:
            found = "absent" if "source_chat_ids" not in qa.raw else repr(qa.raw["source_chat_ids"])
            yield Finding("missing_evidence", sid, f"QA {qa.question_id}", f"source_chat_ids: {found}")
        if (detail := contradiction(qa.answer, rubric)) is not None:
            yield Finding("answer_contradicts_rubric", sid, f"QA {qa.question_id}", detail)
