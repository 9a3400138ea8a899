"""BEAM chats and probing questions → Sample rows, and back.

The only place where BEAM's JSON is interpreted (Tavakoli et al., 2025; mohammadtavakoli78/BEAM). A chat is
two files: ``chat.json``, a list of batches ``{"batch_number", "time_anchor", "turns"}`` whose ``turns`` are
turn groups (a user question, the assistant's answer, follow-ups), each a list of messages ``{"role", "id",
"content"[, "index", "question_type", "time_anchor"]}`` (10M: a list of plans ``{"plan-N": [batches]}``, ids
running across the plans); and ``probing_questions/probing_questions.json``, a dict of ten abilities, each a
list of question dicts.

Row, field by field:
    ``sample_id`` = ``<tier>-<the chat's folder name>`` (``"100K-1"``: the tiers reuse chat numbers with other
        questions, so an id without its tier would name a chat of every tier; :func:`himga_beam.layout.sample_id_of`);
        ``dataset`` = ``"beam"``; speakers ``None``;
    one session per batch: ``session_id`` = ``batch_number`` as a string (10M: ``"plan-1:3"``), ``date_str`` = the
        ``time_anchor`` of its first message (``"March-15-2024"``; the batch-level field is null in every file);
    one message per message, in file order: ``role``, ``content`` without the probe marker, ``turn_id`` = the
        message id as a string; ``raw`` = the other keys (``index``, ``question_type``, ``time_anchor``) and
        ``probe_marker``, the text cut from the end of ``content`` (``" ->-> 1,1"``: ``content + probe_marker`` is
        the source text);
    one QA pair per question: ``question_id`` = ``"<ability>:<index>"`` (``"temporal_reasoning:0"``, how the
        official scorer finds it), ``question``, ``answer`` = the ability's reference (:data:`REFERENCE_KEYS`),
        ``question_type`` = the ability, ``evidence.turn_ids`` = ``source_chat_ids`` flattened (lists, nested
        lists and the values of dicts such as ``{"first_statement": [58]}``, in order, each id once) as strings,
        ``evidence.session_ids`` = the batches those messages are in (first cited first), ``raw`` = the question
        dict as it is (``rubric``, ``source_chat_ids`` and every other key);
    ``Sample.raw``: ``turn_groups`` (session id → the sizes of its turn groups, in order) and, where a batch has a
        non-null ``time_anchor`` of its own, ``batch_time_anchor`` (session id → value).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from himga.errors import SourceFormatError, type_name
from himga.identifiers import id_problem
from himga.jsonio.rawcell import raw_text

__all__ = [
    "ABILITIES",
    "MARKER",
    "REFERENCE_KEYS",
    "batches_to_sessions",
    "questions_to_qa_pairs",
    "sample_to_record",
    "strip_marker",
]

#: Ability → the key of its reference answer (the five names the source uses).
REFERENCE_KEYS: dict[str, str] = {
    "abstention": "ideal_response",
    "contradiction_resolution": "ideal_answer",
    "event_ordering": "answer",
    "information_extraction": "answer",
    "instruction_following": "expected_compliance",
    "knowledge_update": "answer",
    "multi_session_reasoning": "answer",
    "preference_following": "expected_compliance",
    "summarization": "ideal_summary",
    "temporal_reasoning": "answer",
}
ABILITIES = tuple(REFERENCE_KEYS)

#: The probe marker the generator left at the end of a message: `` ->-> 1,1`` (a space, ``->->``, the rest of the line).
MARKER = re.compile(r" ?->->[^\n]*\Z")
_PLAN = re.compile(r"plan-[0-9]+")
_MESSAGE_KEYS = ("role", "id", "content")


def strip_marker(content: str) -> tuple[str, str | None]:
    """``(content without its probe marker, the marker)``; ``(content, None)`` when it ends in none.

    Only a marker that runs to the end of the text is cut (every marker of the 100K and 500K files does); one
    followed by another line stays, and ``himga validate beam`` reports it.
    """
    found = MARKER.search(content)
    return (content, None) if found is None else (content[: found.start()], found.group())


def _fail(file: str, path: str, detail: str) -> SourceFormatError:
    return SourceFormatError(file, path, detail)


def _expect(value: Any, kind: type, file: str, path: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _fail(file, path, f"expected {what}, got {type_name(value)}")
    return value


def _message(m: Any, file: str, path: str) -> dict[str, Any]:
    _expect(m, dict, file, path, "a message object")
    for key in _MESSAGE_KEYS:
        if key not in m:
            raise _fail(file, path, f"missing required key {key!r}")
    role = _expect(m["role"], str, file, f"{path}.role", "a string")
    content = _expect(m["content"], str, file, f"{path}.content", "a string")
    message_id = _expect(m["id"], int, file, f"{path}.id", "an integer message id")
    content, marker = strip_marker(content)
    raw = {k: v for k, v in m.items() if k not in _MESSAGE_KEYS}
    if marker is not None:
        raw["probe_marker"] = marker
    return {"role": role, "content": content, "turn_id": str(message_id), "date_str": None, "raw": raw_text(raw)}


def _batch(batch: Any, session_id: str, file: str, path: str, raw: dict) -> dict[str, Any]:
    _expect(batch, dict, file, path, "a batch object")
    groups = _expect(batch.get("turns"), list, file, f"{path}.turns", "an array of turn groups")
    messages, sizes = [], []
    for g, group in enumerate(groups):
        _expect(group, list, file, f"{path}.turns[{g}]", "an array of messages")
        messages += [_message(m, file, f"{path}.turns[{g}][{i}]") for i, m in enumerate(group)]
        sizes.append(len(group))
    first = groups[0][0] if groups and groups[0] else {}
    anchor = first.get("time_anchor")
    if anchor is not None and not isinstance(anchor, str):
        raise _fail(file, f"{path}.turns[0][0].time_anchor", f"expected a string, got {type_name(anchor)}")
    raw.setdefault("turn_groups", {})[session_id] = sizes
    if batch.get("time_anchor") is not None:
        raw.setdefault("batch_time_anchor", {})[session_id] = batch["time_anchor"]
    return {"session_id": session_id, "messages": messages, "date_str": anchor, "title": None}


def _batch_number(batch: Any, file: str, path: str) -> str:
    _expect(batch, dict, file, path, "a batch object")
    if "batch_number" not in batch:
        raise _fail(file, path, "missing required key 'batch_number'")
    return str(_expect(batch["batch_number"], int, file, f"{path}.batch_number", "an integer"))


def batches_to_sessions(items: Iterable[tuple[int, Any]], *, file: str, raw: dict) -> Iterator[dict[str, Any]]:
    """The sessions of a chat, from the items of its ``chat.json`` as they are read (``(index, item)``).

    An item is a batch, or (10M) a plan ``{"plan-N": [batches]}`` whose batches become sessions
    ``"plan-N:<batch_number>"``. ``raw`` (the Sample's) receives ``turn_groups`` and ``batch_time_anchor``.

    Raises:
        SourceFormatError: a batch, group or message of the wrong shape, e.g. ``chat.json: $[2].turns[5][1].id:
            expected an integer message id, got string``.
    """
    for index, item in items:
        path = f"$[{index}]"
        if isinstance(item, dict) and len(item) == 1 and _PLAN.fullmatch(plan := next(iter(item))):
            batches = _expect(item[plan], list, file, f"{path}.{plan}", "an array of batches")
            for b, batch in enumerate(batches):
                where = f"{path}.{plan}[{b}]"
                yield _batch(batch, f"{plan}:{_batch_number(batch, file, where)}", file, where, raw)
        else:
            yield _batch(item, _batch_number(item, file, path), file, path, raw)


def _ids(value: Any, file: str, path: str) -> Iterator[str]:
    """The message ids of a ``source_chat_ids`` value: integers, in lists, nested lists or dict values."""
    if isinstance(value, list):
        for i, v in enumerate(value):
            yield from _ids(v, file, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _ids(v, file, f"{path}.{k}")
    elif isinstance(value, int) and not isinstance(value, bool):
        yield str(value)
    else:
        raise _fail(file, path, f"expected message ids (integers), got {type_name(value)}")


def questions_to_qa_pairs(questions: Any, session_of: dict[str, str], *, file: str) -> list[dict[str, Any]]:
    """The QA pairs of a parsed ``probing_questions.json``.

    Args:
        questions: The file's value: ability → list of question dicts.
        session_of: Message id (turn id) → the session it is in, for the evidence's sessions.
        file: The file's name, for errors.

    Raises:
        SourceFormatError: not a dict of abilities, an unknown ability, a question without ``question``, its
            reference answer or a ``rubric`` list of strings, or evidence that is not message ids.
    """
    _expect(questions, dict, file, "$", "an object of abilities")
    pairs = []
    for ability, items in questions.items():
        if ability not in REFERENCE_KEYS:
            raise _fail(
                file, f"$.{ability}", f"expected one of the ten abilities ({', '.join(ABILITIES)}), got {ability!r}"
            )
        _expect(items, list, file, f"$.{ability}", "an array of questions")
        for i, q in enumerate(items):
            path = f"$.{ability}[{i}]"
            _expect(q, dict, file, path, "a question object")
            for key in ("question", REFERENCE_KEYS[ability], "rubric"):
                if key not in q:
                    raise _fail(file, path, f"missing required key {key!r}")
            question = _expect(q["question"], str, file, f"{path}.question", "a string")
            answer = _expect(q[REFERENCE_KEYS[ability]], str, file, f"{path}.{REFERENCE_KEYS[ability]}", "a string")
            rubric = _expect(q["rubric"], list, file, f"{path}.rubric", "an array of strings")
            for r, item in enumerate(rubric):
                _expect(item, str, file, f"{path}.rubric[{r}]", "a string")
            turns = list(dict.fromkeys(_ids(q.get("source_chat_ids", []), file, f"{path}.source_chat_ids")))
            for turn in turns:
                if (problem := id_problem(turn)) is not None:
                    raise _fail(file, f"{path}.source_chat_ids", problem)
            sessions = list(dict.fromkeys(session_of[t] for t in turns if t in session_of))
            pairs.append(
                {
                    "question_id": f"{ability}:{i}",
                    "question": question,
                    "answer": answer,
                    "question_type": ability,
                    "evidence": {"turn_ids": turns, "session_ids": sessions},
                    "raw": raw_text(dict(q)),
                    "position": None,
                    "options": [],
                }
            )
    return pairs


def sample_to_record(sample) -> tuple[list, dict]:
    """Rebuild the source files of a Sample built here: ``(chat.json value, probing_questions.json value)``,
    each equal, as a JSON value, to the file it was built from."""
    groups, anchors = sample.raw.get("turn_groups", {}), sample.raw.get("batch_time_anchor", {})
    plans: dict[str | None, list] = {}
    for session in sample.sessions:
        plan, _, number = session.session_id.rpartition(":")
        messages = [
            {
                "role": m.role,
                "id": int(m.turn_id),
                **{k: v for k, v in m.raw.items() if k != "probe_marker"},
                "content": m.content + m.raw.get("probe_marker", ""),
            }
            for m in session.messages
        ]
        turns, start = [], 0
        for size in groups.get(session.session_id, [len(messages)]):
            turns.append(messages[start : start + size])
            start += size
        batch = {"batch_number": int(number), "turns": turns, "time_anchor": anchors.get(session.session_id)}
        plans.setdefault(plan or None, []).append(batch)
    chat = plans.get(None) if list(plans) == [None] else [{plan: batches} for plan, batches in plans.items()]
    questions: dict[str, list] = {}
    for qa in sample.qa_pairs:
        questions.setdefault(qa.question_id.partition(":")[0], []).append(qa.raw)
    return chat or [], questions
