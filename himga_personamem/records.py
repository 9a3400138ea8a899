"""PersonaMem source records → Sample rows: one row per shared context, each question a QA pair at its position.

The release is two files per split (``questions_32k.csv``, ``shared_contexts_32k.jsonl``). A line of the contexts
file is ``{shared_context_id: [{"role", "content"}, ...]}``; a question (a CSV row) sees
``context[:end_index_in_shared_context]`` of its context, as the official code slices it
(``inference_standalone_openai.py``, ``run_evaluation``, l.218). Here:

- a context is a Sample (``sample_id``: the ``shared_context_id``), its turns the Sample's messages in order, every
  turn one :class:`~himga.data.Message` (``role`` as written: ``system``, ``user``, ``assistant``; ``content`` as
  written, its ``"User: "`` / ``"Assistant: "`` prefix included; ``turn_id`` its index in the context, ``"0"``; no
  date, the release has none); keys of a turn besides ``role`` and ``content`` go to ``Message.raw``;
- sessions: a session starts at the first turn and at every ``system`` turn that follows a user or assistant turn
  (the persona turns that open PersonaMem's sessions); ids ``"1"``, ``"2"``, ... in order;
- each CSV row is a QA pair of its context's Sample, in CSV order: ``question_id``; ``question`` =
  ``user_question_or_message``; ``answer`` = ``correct_answer`` (``"(c)"``); ``question_type`` as the file spells it
  (:data:`QUESTION_TYPES`); ``position`` = ``end_index_in_shared_context`` (the number of the Sample's messages, in
  order across sessions, the question sees); ``options`` = the strings of ``all_options`` (a Python list literal:
  :func:`parse_options`); ``raw`` = every CSV column, as text, in column order; no evidence (the release labels none).

Errors name the file and the row (``questions_32k.csv: row 12.end_index_in_shared_context: ...``; the header is line 1,
row ``n`` is line ``n + 1`` when no cell holds a line break) or the contexts file's line.
"""

from __future__ import annotations

import ast
from typing import Any

from himga.errors import SourceFormatError
from himga.identifiers import id_problem
from himga.jsonio.rawcell import raw_text
from himga.schema.question_type import PERSONAMEM_TYPES

__all__ = [
    "QUESTION_TYPES",
    "REQUIRED_COLUMNS",
    "check_matched",
    "context_row",
    "parse_options",
    "question_rows",
    "sessions_of",
]

#: The question types as ``questions_32k.csv`` spells them, in the order they first appear there (one tuple with the
#: scorer's rows: :data:`himga.schema.question_type.PERSONAMEM_TYPES`).
QUESTION_TYPES = PERSONAMEM_TYPES
#: The columns a row is built from (the release has 15; every column is kept in ``QAPair.raw``).
REQUIRED_COLUMNS = (
    "question_id",
    "question_type",
    "user_question_or_message",
    "correct_answer",
    "all_options",
    "shared_context_id",
    "end_index_in_shared_context",
)


def parse_options(cell: str, file: str, path: str) -> list[str]:
    """The options of an ``all_options`` cell: a Python list literal of strings (``str(list)`` of the four
    ``"(x) …"`` options, read with :func:`ast.literal_eval`, which evaluates no code; a JSON array of strings reads the
    same).

    Raises:
        SourceFormatError: a cell that is no list literal of strings.
    """
    try:
        value = ast.literal_eval(cell)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SourceFormatError(file, path, f"expected a list of option strings, got {cell[:80]!r}")
    return value


def _cell(row: dict[str, str], column: str, file: str, where: str) -> str:
    value = row[column]
    if column in ("question_id", "shared_context_id") and (problem := id_problem(value)) is not None:
        raise SourceFormatError(file, f"{where}.{column}", problem)
    return value


def _qa(row: dict[str, str], file: str, where: str) -> dict[str, Any]:
    qtype = row["question_type"]
    if qtype not in QUESTION_TYPES:
        raise SourceFormatError(
            file, f"{where}.question_type", f"expected one of {', '.join(QUESTION_TYPES)}, got {qtype!r}"
        )
    end = row["end_index_in_shared_context"]
    if not (end.isascii() and end.isdigit()):
        raise SourceFormatError(
            file, f"{where}.end_index_in_shared_context", f"expected a non-negative integer, got {end!r}"
        )
    return {
        "question_id": _cell(row, "question_id", file, where),
        "question": row["user_question_or_message"],
        "answer": row["correct_answer"],
        "question_type": qtype,
        "evidence": {"turn_ids": [], "session_ids": []},
        "raw": raw_text(dict(row)),
        "position": int(end),
        "options": parse_options(row["all_options"], file, f"{where}.all_options"),
    }


def question_rows(rows: list[list[str]], file: str) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """The QA rows of a questions CSV (:func:`himga.sources.csv_rows`), by ``shared_context_id`` in CSV order.

    Returns:
        ``{context id: [(row locator, QA row), ...]}``; the locator (``"row 12"``) names the row in errors.

    Raises:
        SourceFormatError: no header or no row, a required column missing, a header naming a column twice, a row with
            another number of cells, a question id used twice, a malformed cell.
    """
    if not rows:
        raise SourceFormatError(file, "$", "expected a CSV header and at least one question, got an empty file")
    header = rows[0]
    if len(set(header)) != len(header):
        twice = sorted({c for c in header if header.count(c) > 1})
        raise SourceFormatError(file, "line 1", f"a column named twice: {', '.join(map(repr, twice))}")
    if missing := [c for c in REQUIRED_COLUMNS if c not in header]:
        raise SourceFormatError(file, "line 1", f"missing column {', '.join(map(repr, missing))}")
    if len(rows) == 1:
        raise SourceFormatError(file, "$", "expected at least one question, found none")
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    seen: dict[str, str] = {}
    for n, cells in enumerate(rows[1:], 1):
        where = f"row {n}"
        if len(cells) != len(header):
            raise SourceFormatError(file, where, f"expected {len(header)} cells, got {len(cells)}")
        row = dict(zip(header, cells, strict=True))
        qa = _qa(row, file, where)
        if (first := seen.setdefault(qa["question_id"], where)) != where:
            raise SourceFormatError(file, f"{where}.question_id", f"{qa['question_id']!r} is also the id of {first}")
        context = _cell(row, "shared_context_id", file, where)
        out.setdefault(context, []).append((where, qa))
    return out


def _message(turn: Any, index: int, file: str, path: str) -> dict[str, Any]:
    if not isinstance(turn, dict):
        raise SourceFormatError(file, path, f"expected a turn object, got {type(turn).__name__}")
    for key in ("role", "content"):
        if not isinstance(turn.get(key), str):
            got = "nothing" if key not in turn else type(turn[key]).__name__
            raise SourceFormatError(file, f"{path}.{key}", f"expected a string, got {got}")
    extra = {k: v for k, v in turn.items() if k not in ("role", "content")}
    return {
        "role": turn["role"],
        "content": turn["content"],
        "turn_id": str(index),
        "date_str": None,
        "raw": raw_text(extra),
    }


def sessions_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages cut into sessions: a new session at every ``system`` turn that follows another role (and at the
    first turn); ids ``"1"``, ``"2"``, ... ."""
    sessions: list[dict[str, Any]] = []
    previous = None
    for message in messages:
        if not sessions or (message["role"] == "system" and previous != "system"):
            sessions.append({"session_id": str(len(sessions) + 1), "messages": [], "date_str": None, "title": None})
        sessions[-1]["messages"].append(message)
        previous = message["role"]
    return sessions


def context_row(
    record: Any, questions: dict[str, list[tuple[str, dict[str, Any]]]], *, file: str, where: str, questions_file: str
) -> dict[str, Any]:
    """One line of the contexts file → a row of ``SAMPLE_FEATURES``, with its questions (popped from ``questions``).

    Args:
        record: The line's object, ``{shared_context_id: [turns]}``.
        questions: :func:`question_rows`' result; the context's questions are taken out of it.
        file: The contexts file's name; ``where``: the line (``"line 3"``).
        questions_file: The questions file's name, for errors about a question.

    Raises:
        SourceFormatError: not an object of one key, turns that are not a list of ``{role, content}`` strings, no
            turn, a question whose end index is past the context's last turn.
    """
    if not isinstance(record, dict) or len(record) != 1:
        shown = f"an object of {len(record)} keys" if isinstance(record, dict) else type(record).__name__
        raise SourceFormatError(file, where, f"expected one object {{shared_context_id: [turns]}}, got {shown}")
    ((context_id, turns),) = record.items()
    if (problem := id_problem(context_id)) is not None:
        raise SourceFormatError(file, f"{where} (the context id)", problem)
    path = f"{where}.{context_id}"
    if not isinstance(turns, list) or not turns:
        got = "an empty list" if isinstance(turns, list) else type(turns).__name__
        raise SourceFormatError(file, path, f"expected a list of turns, got {got}")
    messages = [_message(turn, i, file, f"{path}[{i}]") for i, turn in enumerate(turns)]
    qa_pairs = []
    for at, qa in questions.pop(context_id, []):
        if qa["position"] > len(messages):
            raise SourceFormatError(
                questions_file,
                f"{at}.end_index_in_shared_context",
                f"{qa['position']} is past the end of context {context_id[:12]}... ({len(messages)} turns)",
            )
        qa_pairs.append(qa)
    return {
        "sample_id": context_id,
        "dataset": "personamem",
        "sessions": sessions_of(messages),
        "qa_pairs": qa_pairs,
        "speaker_a": None,
        "speaker_b": None,
        "raw": None,
    }


def check_matched(questions: dict[str, list[tuple[str, dict[str, Any]]]], file: str, contexts_file: str) -> None:
    """Raise for the first question left in ``questions`` once every context was read: its context is not in the
    contexts file.

    Raises:
        SourceFormatError: ``questions_32k.csv: row 7.shared_context_id: 'ab…' names no context of
            shared_contexts_32k.jsonl (and 3 more questions)``.
    """
    left = [(context, at) for context, items in questions.items() for at, _qa in items]
    if left:
        context, at = left[0]
        more = f" (and {len(left) - 1} more questions)" if len(left) > 1 else ""
        raise SourceFormatError(
            file, f"{at}.shared_context_id", f"{context!r} names no context of {contexts_file}{more}"
        )
