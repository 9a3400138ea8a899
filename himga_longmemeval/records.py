"""LongMemEval question dicts → Sample rows, and back.

The only place where the raw LongMemEval JSON is interpreted. :func:`question_to_row` turns one
question dict of ``longmemeval_{s,m,oracle}*.json`` (Wu et al., ICLR 2025; xiaowu0162/LongMemEval)
into a row of :data:`himga.schema.features.SAMPLE_FEATURES`, field by field; :func:`sample_to_record`
rebuilds the question dict from the resulting :class:`~himga.data.Sample` (equal as a JSON value).

A question dict has the keys ``question_id``, ``question_type``, ``question``, ``answer``,
``question_date``, ``haystack_dates``, ``haystack_session_ids``, ``haystack_sessions`` (a list of
sessions, each a list of turns ``{"role", "content"[, "has_answer"]}``) and ``answer_session_ids``.

Row, field by field:
    ``sample_id`` = ``question_id``; ``dataset`` = ``"longmemeval"``; speakers ``None``;
    ``sessions[i]`` = (``haystack_session_ids[i]``, ``haystack_sessions[i]``, ``haystack_dates[i]``), in
        file order (duplicate ids and blank turns kept as they are);
    message: ``role``, ``content``, ``turn_id`` ``None``; any other turn key (``has_answer``, a boolean where
        present) → ``raw``;
    one QA pair: ``question_id``, ``question``, ``answer`` as ``str`` (ints occur), ``question_type``
        from the hyphen or underscore form (unknown → ``single_session_user`` with a logged warning, logged again on
        every load of the build: :func:`unknown_types`),
        ``evidence.session_ids`` = ``answer_session_ids``, ``raw`` = the question dict without
        ``haystack_sessions``;
    ``Sample.raw`` = ``{"question_date": ...}``.

``raw`` values are emitted as JSON text (the ``raw`` columns are strings of JSON, see
:mod:`himga.schema.features`). The turns are read column by column, without an object per message: the row's
``sessions`` is a :class:`himga.schema.columns.SessionColumns`.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from himga.errors import SourceFormatError, type_name
from himga.identifiers import id_problem
from himga.schema.columns import SessionColumns

__all__ = ["QUESTION_TYPES", "question_to_row", "sample_to_record", "unknown_types", "warn_unknown_type"]

logger = logging.getLogger(__name__)

#: Source ``question_type`` (hyphen or underscore form) → QuestionType value.
QUESTION_TYPES: dict[str, str] = {
    t.replace("_", sep): t
    for t in (
        "single_session_user",
        "single_session_assistant",
        "single_session_preference",
        "multi_session",
        "temporal_reasoning",
        "knowledge_update",
    )
    for sep in ("-", "_")
}
_FALLBACK_TYPE = "single_session_user"  # the seed's fallback for an unknown type

# raw JSON text of the common turn extras, encoded once
_HAS_ANSWER = {True: json.dumps({"has_answer": True}), False: json.dumps({"has_answer": False})}
_TURN_KEYS = ("role", "content")


def _fail(file: str, path: str, detail: str, qid: Any) -> SourceFormatError:
    return SourceFormatError(file, path, f"{detail} (question {qid})" if isinstance(qid, str) else detail)


def _field(q: dict, key: str, kind: type | tuple, file: str, path: str, qid: Any) -> Any:
    if key not in q:
        raise _fail(file, path, f"missing required key {key!r}", qid)
    value = q[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        names = {str: "string", list: "array", (str, int, float): "string or number"}
        raise _fail(file, f"{path}.{key}", f"expected {names[kind]}, got {type_name(value)}", qid)
    return value


def _id(value: str, file: str, path: str, qid: Any) -> str:
    """``value`` if it is a valid identifier (:func:`himga.identifiers.id_problem`)."""
    if (problem := id_problem(value)) is not None:
        raise _fail(file, path, problem, qid)
    return value


def _messages(turns: Any, file: str, path: str, qid: str, roles: list, contents: list, raws: list) -> None:
    """Append the role, content and ``raw`` text of each turn of one session to the three columns."""
    if type(turns) is not list:
        raise _fail(file, path, f"expected an array of turns, got {type_name(turns)}", qid)
    for j, turn in enumerate(turns):
        # fast path: {"role": str, "content": str[, "has_answer": bool]}
        if isinstance(turn, dict) and type(turn.get("role")) is str and type(turn.get("content")) is str:
            n = len(turn)
            if n == 2:
                raw = None
            elif n == 3 and type(turn.get("has_answer")) is bool:
                raw = _HAS_ANSWER[turn["has_answer"]]
            else:
                if (
                    "has_answer" in turn and type(turn["has_answer"]) is not bool
                ):  # relevance reads it: true or false only
                    raise _fail(
                        file, f"{path}[{j}].has_answer", f"expected boolean, got {type_name(turn['has_answer'])}", qid
                    )
                raw = json.dumps({k: v for k, v in turn.items() if k not in _TURN_KEYS}, ensure_ascii=False)
            roles.append(turn["role"])
            contents.append(turn["content"])
            raws.append(raw)
            continue
        if not isinstance(turn, dict):
            raise _fail(file, f"{path}[{j}]", f"expected a turn object, got {type_name(turn)}", qid)
        for key in _TURN_KEYS:
            if key not in turn:
                raise _fail(file, f"{path}[{j}]", f"missing required key {key!r}", qid)
            if type(turn[key]) is not str:
                raise _fail(file, f"{path}[{j}].{key}", f"expected string, got {type_name(turn[key])}", qid)


def _question_type(value: str, qid: str) -> str:
    qtype = QUESTION_TYPES.get(value)
    if qtype is None:
        warn_unknown_type(qid, value)
        return _FALLBACK_TYPE
    return qtype


def warn_unknown_type(qid: str, value: Any) -> None:
    """Log that question ``qid``'s ``question_type`` ``value`` is none of :data:`QUESTION_TYPES` (it is counted as
    ``single_session_user``): when a build meets it, and again on every load of that build (:func:`unknown_types`)."""
    logger.warning(
        "longmemeval: question %s has unknown question_type %r; using %r (the original stays in raw)",
        qid,
        value,
        _FALLBACK_TYPE,
    )


def unknown_types(qa_rows) -> list[tuple[str, Any]]:
    """``(question_id, source question_type)`` of the QA rows whose type is unknown (counted as
    ``single_session_user``).

    Args:
        qa_rows: ``(question_type, raw)`` of QA rows: the row's type and its ``raw`` JSON text (the source
            question without its haystack, which holds the type as written).
    """
    found = []
    for qtype, raw in qa_rows:
        if qtype == _FALLBACK_TYPE and raw is not None:
            fields = _top_level(raw, ("question_id", "question_type"))
            if fields.get("question_type") not in QUESTION_TYPES:
                found.append((fields.get("question_id"), fields.get("question_type")))
    return found


_decode = json.JSONDecoder().raw_decode
_SEPARATOR = re.compile(r"\s*[,:]?\s*")


def _top_level(text: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """The values of ``keys`` in the JSON object ``text``, decoding its members in order only until all are found
    (``question_id`` and ``question_type`` come first in the source files, the long haystack lists after them)."""
    found: dict[str, Any] = {}
    i = _SEPARATOR.match(text, text.index("{") + 1).end()
    while text[i] != "}" and len(found) < len(keys):
        name, i = _decode(text, i)
        value, i = _decode(text, _SEPARATOR.match(text, i).end())
        if name in keys:
            found[name] = value
        i = _SEPARATOR.match(text, i).end()
    return found


def question_to_row(q: Any, *, file: str, path: str) -> dict[str, Any]:
    """Turn one LongMemEval question dict into a row of ``SAMPLE_FEATURES``.

    Args:
        q: One element of a LongMemEval file (as parsed by :mod:`himga.jsonio`; objects may be ``dict`` subclasses).
        file: The source file's name, for error messages.
        path: The question's JSON path in that file (``"$[212]"``).

    Returns:
        The row (``raw`` columns as JSON text, ``None`` when empty; see the module docstring), its ``sessions``
        column-wise (:class:`himga.schema.columns.SessionColumns`): :func:`himga.cache.rows_to_table` takes it as it is,
        :func:`himga.cache.plain_row` gives it as dicts.

    Raises:
        SourceFormatError: a required key is missing or has the wrong type (``has_answer`` too: ``true`` or ``false``;
            ids by :func:`himga.identifiers.id_problem`: no whitespace, not empty), or the three haystack
            lists differ in length, e.g. ``longmemeval_s_cleaned.json: $[212].haystack_dates: 47 dates
            for 48 sessions (question 7161e7e2)``.
    """
    if not isinstance(q, dict):
        raise _fail(file, path, f"expected a question object, got {type_name(q)}", None)
    if "question_id" not in q and ("conversation" in q or "qa" in q):
        raise _fail(
            file,
            path,
            "missing required key 'question_id' (this looks like a LoCoMo file: load it as dataset 'locomo')",
            None,
        )
    qid = _id(_field(q, "question_id", str, file, path, None), file, f"{path}.question_id", None)
    question = _field(q, "question", str, file, path, qid)
    answer = _field(q, "answer", (str, int, float), file, path, qid)
    qtype = _question_type(_field(q, "question_type", str, file, path, qid), qid)
    sessions = _field(q, "haystack_sessions", list, file, path, qid)
    ids = _field(q, "haystack_session_ids", list, file, path, qid)
    dates = _field(q, "haystack_dates", list, file, path, qid)
    if len(ids) != len(sessions):
        raise _fail(file, f"{path}.haystack_session_ids", f"{len(ids)} session ids for {len(sessions)} sessions", qid)
    if len(dates) != len(sessions):
        raise _fail(file, f"{path}.haystack_dates", f"{len(dates)} dates for {len(sessions)} sessions", qid)
    for key, values, kinds in (("haystack_session_ids", ids, (str,)), ("haystack_dates", dates, (str, type(None)))):
        for i, value in enumerate(values):
            if type(value) not in kinds:
                raise _fail(file, f"{path}.{key}[{i}]", f"expected string, got {type_name(value)}", qid)
            if key == "haystack_session_ids":
                _id(value, file, f"{path}.{key}[{i}]", qid)
    evidence = q.get("answer_session_ids", [])
    if type(evidence) is not list or any(type(s) is not str for s in evidence):
        raise _fail(file, f"{path}.answer_session_ids", "expected an array of strings", qid)
    for i, value in enumerate(evidence):
        _id(value, file, f"{path}.answer_session_ids[{i}]", qid)
    question_date = q.get("question_date")
    if question_date is not None and type(question_date) is not str:
        raise _fail(file, f"{path}.question_date", f"expected string, got {type_name(question_date)}", qid)

    roles: list[str] = []
    contents: list[str] = []
    raws: list[str | None] = []
    ends = []
    for i, turns in enumerate(sessions):
        _messages(turns, file, f"{path}.haystack_sessions[{i}]", qid, roles, contents, raws)
        ends.append(len(roles))
    raw = {k: v for k, v in q.items() if k != "haystack_sessions"}
    return {
        "sample_id": qid,
        "dataset": "longmemeval",
        "sessions": SessionColumns(ids, dates, ends, roles, contents, raws),
        "qa_pairs": [
            {
                "question_id": qid,
                "question": question,
                "answer": str(answer),
                "question_type": qtype,
                "evidence": {"turn_ids": [], "session_ids": evidence},
                "raw": json.dumps(raw, ensure_ascii=False),
                "position": None,
                "options": [],
            }
        ],
        "speaker_a": None,
        "speaker_b": None,
        "raw": json.dumps({"question_date": question_date}, ensure_ascii=False) if "question_date" in q else None,
    }


def sample_to_record(sample) -> dict[str, Any]:
    """Rebuild the source question dict of a Sample built by :func:`question_to_row`.

    ``haystack_sessions``, ``haystack_session_ids`` and ``haystack_dates`` come from
    ``sample.sessions`` (so a reordered Sample, e.g. from :func:`chronological`, gives a consistent
    reordered record); every other key from ``QAPair.raw``, in the source key order.

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "longmemeval"`` and one QA pair.

    Returns:
        A dict equal, as a JSON value, to the question dict the Sample was built from.
    """
    haystack = {
        "haystack_dates": [s.date_str for s in sample.sessions],
        "haystack_session_ids": [s.session_id for s in sample.sessions],
        "haystack_sessions": [
            [{"role": m.role, "content": m.content, **m.raw} for m in s.messages] for s in sample.sessions
        ],
    }
    record: dict[str, Any] = {}
    for key, value in sample.qa_pairs[0].raw.items():
        record[key] = haystack.pop(key, value)
        if key == "haystack_session_ids" and "haystack_sessions" in haystack:  # its place in the source layout
            record["haystack_sessions"] = haystack.pop("haystack_sessions")
    record.update(haystack)
    return record
