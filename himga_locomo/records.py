"""LoCoMo source records → Sample rows.

The only place where the raw LoCoMo JSON is interpreted. :func:`record_to_row` turns one sample
record of ``locomo10.json`` (Maharana et al., 2024; snap-research/LoCoMo) into a row of
:data:`himga.schema.features.SAMPLE_FEATURES`, field by field; :func:`himga_locomo.source_record.sample_to_record`
rebuilds the original record from the resulting :class:`~himga.data.Sample` (equal as a JSON value). This
module is part of the cache key; that one, which shapes no row, is not.

Two record layouts are accepted: the current one (``conversation``, ``qa``, ``event_summary``,
``observation``, ``session_summary``, ``sample_id``) and the first public release's flat one (the
``conversation`` keys, ``qa``, ``session_N_observation``, ``session_N_summary`` and
``events_session_N`` all at the top level).

``Sample.raw`` keys:
    ``event_summary``, ``observation``, ``session_summary``: the source's per-session dicts keyed by
        session id, the ``N`` that ``Session.session_id`` carries: ``raw["event_summary"]["1"]`` is the
        source's ``events_session_1`` (its ``date`` included), ``raw["observation"]["1"]`` its
        ``session_1_observation``, ``raw["session_summary"]["1"]`` its ``session_1_summary`` (flat
        layout: the top-level keys of those names gathered the same way); values unchanged;
    ``summary_extra``: keys of those three source dicts that are not of the ``..._N...`` form, by dict
        (``{"event_summary": {"notes": ...}}``);
    ``conversation_extra``: conversation keys that are not sessions — dates of sessions without
        turns, empty ``session_N`` lists, unknown keys;
    ``record_extra``: unknown top-level keys;
    ``layout``: ``"flat"`` for the first-release layout (absent otherwise);
    ``sample_id_generated``: ``true`` when the record had no ``sample_id`` and a running index was used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from himga.identifiers import id_problem
from himga.jsonio.rawcell import raw_text
from himga.schema.content import inline_image
from himga.schema.ids import session_id
from himga_locomo.qa_records import (
    ABSTENTION_ANSWER,
    AUDIT_KEY,
    CATEGORY3_ANSWERS,
    CATEGORY_ORDERS,
    _fail,
    checked_id,
    cut_category3,
    expect,
    normalize_evidence,
    qa_pair,
    require,
)

__all__ = [
    "ABSTENTION_ANSWER",
    "AUDIT_KEY",
    "CATEGORY3_ANSWERS",
    "CATEGORY_ORDERS",
    "cut_category3",
    "normalize_evidence",
    "per_session_summaries",
    "record_to_row",
    "session_rows",
    "split_flat",
    "turn_message",
]

#: The three per-session dicts of a record: raw key → source key pattern (``N`` = the session id).
_PER_SESSION = {
    "event_summary": re.compile(r"events_session_([1-9][0-9]*)"),
    "observation": re.compile(r"session_([1-9][0-9]*)_observation"),
    "session_summary": re.compile(r"session_([1-9][0-9]*)_summary"),
}
_SOURCE_KEY = {
    "event_summary": "events_session_{}",
    "observation": "session_{}_observation",
    "session_summary": "session_{}_summary",
}

_SESSION = re.compile(r"session_([1-9][0-9]*)")
_SESSION_DATE = re.compile(r"session_([1-9][0-9]*)_date_time")
_NESTED_KEYS = ("sample_id", "qa", "conversation", "event_summary", "observation", "session_summary")


def turn_message(
    turn: Any, file: str, path: str, *, text_key: str = "text", date_key: str | None = None
) -> dict[str, Any]:
    """The message row of one turn: ``speaker`` → ``role``, the text (``text``; REALTALK ``clean_text``) → ``content``
    with an image's ``blip_caption`` inline (``"[Image: <caption>] <text>"``), ``dia_id`` → ``turn_id``, the turn's
    own date (REALTALK ``date_time``; LoCoMo has none) → ``date_str``, every other key → ``raw``.

    Raises:
        SourceFormatError: not an object, a required key missing or of another type, a ``dia_id`` that is no id.
    """
    expect(turn, dict, file, path)
    role = require(turn, "speaker", str, file, path)
    text = require(turn, text_key, str, file, path)
    turn_id = checked_id(require(turn, "dia_id", str, file, path), file, f"{path}.dia_id")
    date = require(turn, date_key, str, file, path) if date_key is not None else None
    raw = {k: v for k, v in turn.items() if k not in ("speaker", text_key, "dia_id", date_key)}
    if "blip_caption" in raw:
        caption = expect(raw["blip_caption"], str, file, f"{path}.blip_caption")
        text = inline_image(caption, text)
    return {"role": role, "content": text, "turn_id": turn_id, "date_str": date, "raw": raw_text(raw)}


def split_flat(record: dict) -> tuple[dict, dict, dict[str, dict], dict]:
    """Flat layout (LoCoMo's first release; REALTALK's) → (conversation keys: ``speaker_a``/``speaker_b`` and the
    ``session_*`` keys; top-level keys: ``sample_id``, ``qa``; the per-session summary dicts, by raw key; unknown
    keys)."""
    conversation, top, unknown = {}, {}, {}
    aux: dict[str, dict] = {"event_summary": {}, "observation": {}, "session_summary": {}}
    for key, value in record.items():
        if key in ("sample_id", "qa"):
            top[key] = value
        elif name := next((n for n, pattern in _PER_SESSION.items() if pattern.fullmatch(key)), None):
            aux[name][key] = value
        elif key in ("speaker_a", "speaker_b") or key.startswith("session_"):
            conversation[key] = value
        else:
            unknown[key] = value
    return conversation, top, {k: v for k, v in aux.items() if v}, unknown


def _by_session(name: str, source: Any, file: str, path: str) -> tuple[dict, dict]:
    """One per-session dict of the source → (values keyed by session id, keys of another form)."""
    expect(source, dict, file, path)
    by_id, other = {}, {}
    for key, value in source.items():
        m = _PER_SESSION[name].fullmatch(key)
        if m:
            by_id[m[1]] = value
        else:
            other[key] = value
    return by_id, other


def _layout(record: Any, file: str, path: str) -> tuple[dict, str, dict, dict[str, Any], dict[str, str], dict, dict]:
    """Which of the two layouts ``record`` has, and its parts.

    Returns:
        ``(conversation, its JSON path, the dict holding qa/sample_id, the per-session summary dicts,
        their JSON paths, unknown top-level keys, raw keys the layout adds)``.

    Raises:
        SourceFormatError: not an object, or neither layout (a LongMemEval question or a REALTALK chat is named as
            such).
    """
    expect(record, dict, file, path)
    if "conversation" in record:
        conversation = expect(record["conversation"], dict, file, f"{path}.conversation")
        aux = {key: record[key] for key in _PER_SESSION if key in record}
        unknown = {k: v for k, v in record.items() if k not in _NESTED_KEYS}
        return conversation, f"{path}.conversation", record, aux, {key: f"{path}.{key}" for key in aux}, unknown, {}
    if "speaker_a" not in record and isinstance(record.get("name"), dict) and "speaker_1" in record["name"]:
        raise _fail(
            file,
            path,
            "missing required key 'speaker_a' (this looks like a REALTALK file: load it as dataset 'realtalk')",
        )
    if "speaker_a" in record or any(_SESSION.fullmatch(k) for k in record):
        conversation, top, aux, unknown = split_flat(record)
        return conversation, path, top, aux, dict.fromkeys(aux, path), unknown, {"layout": "flat"}
    if "question_id" in record and "haystack_sessions" in record:
        raise _fail(
            file,
            path,
            "missing required key 'conversation' (this looks like a LongMemEval file: load it as dataset "
            "'longmemeval')",
        )
    raise _fail(file, path, "missing required key 'conversation' (not a LoCoMo sample record)")


def per_session_summaries(aux: dict[str, Any], aux_path: dict[str, str], file: str) -> dict[str, Any]:
    """``aux`` (raw key → the source's per-session dict, e.g. ``{"event_summary": {"events_session_1": ...}}``) → the
    raw keys of the per-session summary dicts: each keyed by session id, and ``summary_extra``."""
    raw: dict[str, Any] = {}
    summary_extra = {}
    for key, source in aux.items():
        raw[key], other = _by_session(key, source, file, aux_path[key])
        if other:
            summary_extra[key] = other
    if summary_extra:
        raw["summary_extra"] = summary_extra
    return raw


def session_rows(
    conversation: dict, conv_path: str, file: str, *, message: Callable[[Any, str, str], dict[str, Any]] = turn_message
) -> tuple[list[dict[str, Any]], dict]:
    """The sessions (``session_N`` lists with at least one turn, by N, dated by ``session_N_date_time``) and the
    conversation keys that are none. ``message(turn, file, path)`` makes each message row (default
    :func:`turn_message` with LoCoMo's field names).

    Raises:
        SourceFormatError: a ``session_*`` key of another form, or a value of the wrong type.
    """
    turns_by_n: dict[int, list] = {}
    dates: dict[int, str] = {}
    for key, value in conversation.items():
        if key in ("speaker_a", "speaker_b"):
            continue
        m = _SESSION.fullmatch(key) or _SESSION_DATE.fullmatch(key)
        if (
            m and (problem := id_problem(m[1])) is not None
        ):  # the session number is an id (and int() refuses 4,300+ digits)
            raise _fail(file, conv_path, f"key {key[:24]!r}...: session number: {problem}")
        if m := _SESSION.fullmatch(key):
            turns_by_n[int(m[1])] = expect(value, list, file, f"{conv_path}.{key}")
        elif m := _SESSION_DATE.fullmatch(key):
            dates[int(m[1])] = expect(value, str, file, f"{conv_path}.{key}")
        elif key.startswith("session_"):
            raise _fail(
                file, f"{conv_path}.{key}", "expected a key session_N or session_N_date_time with integer N >= 1"
            )
    extra = {
        k: v
        for k, v in conversation.items()
        if k not in ("speaker_a", "speaker_b") and not _SESSION.fullmatch(k) and not _SESSION_DATE.fullmatch(k)
    }
    sessions = []
    for n in sorted(turns_by_n):
        turns = turns_by_n[n]
        if not turns:  # a session without turns is no session: kept in conversation_extra
            extra[f"session_{n}"] = turns
            if n in dates:
                extra[f"session_{n}_date_time"] = dates[n]
            continue
        messages = [message(t, file, f"{conv_path}.session_{n}[{i}]") for i, t in enumerate(turns)]
        sessions.append({"session_id": session_id(n), "messages": messages, "date_str": dates.get(n), "title": None})
    for n, date in dates.items():
        if n not in turns_by_n:
            extra[f"session_{n}_date_time"] = date
    return sessions, extra


def record_to_row(record: Any, *, file: str, path: str, fallback_id: str, options: dict[str, str]) -> dict[str, Any]:
    """Turn one LoCoMo sample record into a row of ``SAMPLE_FEATURES``.

    Args:
        record: One element of ``locomo10.json`` (or the whole file when it holds one sample).
        file: The source file's name, for error messages.
        path: The record's JSON path in that file (``"$[3]"``, or ``"$"``).
        fallback_id: The ``sample_id`` to use when the record has none (a running index, as a string).
        options: ``category_order`` (a key of :data:`CATEGORY_ORDERS`), ``adversarial_answer``
            (``"abstain"`` or ``"seed"``) and ``category3_answer`` (one of :data:`CATEGORY3_ANSWERS`,
            ``"scorer"`` when absent).

    Returns:
        The row: sessions = the ``session_N`` lists with at least one turn, ordered by N; QA pairs
        in source order with ``question_id`` = their index.

    Raises:
        SourceFormatError: a required key is missing or has the wrong type, a category is outside
            1-5, a ``session_*`` key is not ``session_N`` / ``session_N_date_time``, or
            ``event_summary`` / ``observation`` / ``session_summary`` is not an object.
    """
    conversation, conv_path, top, aux, aux_path, unknown, raw = _layout(record, file, path)
    raw.update(per_session_summaries(aux, aux_path, file))
    speakers = [require(conversation, k, str, file, conv_path) for k in ("speaker_a", "speaker_b")]
    sessions, extra = session_rows(conversation, conv_path, file)
    if extra:
        raw["conversation_extra"] = extra
    if unknown:
        raw["record_extra"] = unknown
    qa_list = require(top, "qa", list, file, path)
    qa_pairs = [qa_pair(qa, i, options, file, f"{path}.qa[{i}]") for i, qa in enumerate(qa_list)]
    if "sample_id" in top:
        sample_id = checked_id(expect(top["sample_id"], str, file, f"{path}.sample_id"), file, f"{path}.sample_id")
    else:
        sample_id = fallback_id
        raw["sample_id_generated"] = True
    return {
        "sample_id": sample_id,
        "dataset": "locomo",
        "sessions": sessions,
        "qa_pairs": qa_pairs,
        "speaker_a": speakers[0],
        "speaker_b": speakers[1],
        "raw": raw_text(raw),
    }
