"""The judge requests of a file: one chat-completions body per line, keyed by its sha256."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from himga.errors import SourceFormatError, type_name
from himga.jsonio.run_inputs import check_id, read_json_lines
from himga.scoring.inputs._bound import ID_KEYS, line_sha256

__all__ = ["ID_KEYS", "JudgeRequest", "read_requests"]


@dataclass(frozen=True)
class JudgeRequest:
    """One request: ``ids`` (``question_id``, and ``judge``, ``run``, ``item``, ``request_id`` when given), the ``body``
    sent and its ``sha256``.

    The sha256 is of the whole line as sent (:func:`himga.scoring.inputs._bound.line_sha256`: ``json.dumps(ids |
    body, sort_keys=True, ensure_ascii=False)``, the model after ``--model``): the key of the replies cache, so the
    same request is never sent twice and a request that differs in any byte (another model, another run) is; and,
    on each reply line, what binds the reply to the request it answered (``himga score --labels`` compares it with
    the request the predictions render).
    """

    line: int
    ids: dict
    body: dict
    sha256: str


def read_requests(path: str | Path, *, model: str | None = None) -> tuple[str, list[JudgeRequest]]:
    """``(file name, requests)`` of a requests file (``himga score --prompts``), the model replaced by ``model`` when
    given.

    Raises:
        SourceFormatError: a line that is not an object with ``question_id``, ``model`` (a string) and ``messages``
            (a non-empty array), or two lines for one ``(question_id, judge, run, item, request_id)``.
        ConfigurationError: the file does not exist or is a directory.
    """
    file = read_json_lines(path, "requests")
    out: list[JudgeRequest] = []
    seen: dict[tuple, int] = {}
    for number, value in file.lines:
        where = f"line {number}"
        if "question_id" not in value:
            raise SourceFormatError(file.name, where, "no 'question_id'")
        check_id(file.name, f"{where}.question_id", value["question_id"])
        if not isinstance(value.get("messages"), list) or not value["messages"]:
            raise SourceFormatError(
                file.name, f"{where}.messages", f"expected a non-empty array, got {type_name(value.get('messages'))}"
            )
        if "request_id" in value:
            check_id(file.name, f"{where}.request_id", value["request_id"])
        if model is not None:
            value = {**value, "model": model}
        if not isinstance(value.get("model"), str):
            raise SourceFormatError(
                file.name, f"{where}.model", f"expected a string (or give --model), got {type_name(value.get('model'))}"
            )
        ids = {k: value[k] for k in ID_KEYS if k in value}
        key = tuple(ids.get(k) for k in ID_KEYS)
        if key in seen:
            raise SourceFormatError(
                file.name, where, f"the same question, judge, run, item and request id as line {seen[key]}"
            )
        seen[key] = number
        body = {k: v for k, v in value.items() if k not in ID_KEYS}
        out.append(JudgeRequest(number, ids, body, line_sha256(value)))
    return file.name, out
