"""The judge requests of a file: one chat-completions body per line, keyed by the sha256 of that body.

A line is ``{ids..., body..., meta...}``: the ids say which verdict it is for (:data:`ID_KEYS`, copied into the reply
line), the body is what is sent (``model``, parameters, ``messages``), and the meta keys tell ``himga judge`` how to
ask and read it (:data:`META_KEYS`: ``walk``, a pair of an official first-match walk; ``rule``, the judge whose label
rule reads the reply).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from himga.errors import ConfigurationError, SourceFormatError, type_name
from himga.jsonio.run_inputs import check_id, input_name, read_json_lines
from himga.scoring.inputs._bound import ID_KEYS, META_KEYS, line_sha256, request_sha256

__all__ = ["ID_KEYS", "META_KEYS", "JudgeRequest", "Walk", "read_requests", "walks_of"]


#: What to do with predictions given to ``himga judge``.
_FIRST = (
    "write the judge's requests of your predictions with `himga score DATASET PRED --prompts REQ.jsonl` (with --judge "
    "NAME for a named judge) first, then send them with `himga judge REQ.jsonl --out REPLIES.jsonl`"
)


def _starts_an_array(path) -> bool:
    from himga.jsonio.jsonlines import leading_byte

    try:
        return str(path) != "-" and leading_byte(path) == b"["
    except OSError:  # read_json_lines words it
        return False


@dataclass(frozen=True)
class JudgeRequest:
    """One request: ``ids`` (``question_id``, and ``judge``, ``run``, ``item``, ``request_id`` when given), the ``body``
    sent and its ``sha256``.

    The sha256 is of the body alone (:func:`himga.scoring.inputs._bound.request_sha256`: ``json.dumps(body,
    sort_keys=True, ensure_ascii=False)``, the model after ``--model``): the key of the replies cache, so the same body
    is paid once whatever ids it is asked under (BEAM's default route and ``--judge beam`` share their bodies), and a
    body that differs in any byte (another model, another answer) is asked; and, on each reply line, what binds the
    reply to the request it answered (``himga score --labels`` compares it with the request the predictions render).
    ``legacy_sha256`` is the key an earlier ``himga judge`` used (the whole line, ids included): a reply stored under
    it is found and kept.
    """

    line: int
    ids: dict
    body: dict
    sha256: str
    legacy_sha256: str = ""
    walk: dict | None = None
    rule: str | None = None

    @property
    def judge(self) -> str | None:
        """The registered judge whose label rule reads the reply (``judge`` of a named judge's line, else ``rule``)."""
        return self.ids.get("judge") or self.rule


@dataclass
class Walk:
    """The pairs of one first-match walk (an event-ordering alignment): ``pairs[(line, item)]``, ``lines`` × ``items``
    of them, a reply containing ``match`` (lowercased) being a match."""

    id: str
    match: str
    pairs: dict[tuple[int, int], JudgeRequest] = field(default_factory=dict)
    lines: int = 0
    items: int = 0


def _walk(name: str, where: str, value) -> dict:
    fields = {"id": str, "line": int, "item": int, "match": str}
    if not isinstance(value, dict) or set(value) != set(fields):
        raise SourceFormatError(name, f"{where}.walk", "expected {id, line, item, match}")
    for key, kind in fields.items():
        ok = isinstance(value[key], kind) and not isinstance(value[key], bool)
        if not ok or (kind is int and value[key] < 0) or (kind is str and not value[key]):
            expected = "a number from 0" if kind is int else "a non-empty string"
            raise SourceFormatError(name, f"{where}.walk.{key}", f"expected {expected}, got {type_name(value[key])}")
    return value


def read_requests(path: str | Path, *, model: str | None = None) -> tuple[str, list[JudgeRequest]]:
    """``(file name, requests)`` of a requests file (``himga score --prompts``), the model replaced by ``model`` when
    given.

    Raises:
        SourceFormatError: a line that is not an object with ``question_id``, ``model`` (a string) and ``messages``
            (a non-empty array); two lines for one ``(question_id, judge, run, item, request_id)``; a ``walk`` that is
            not ``{id, line, item, match}`` or a walk whose pairs are not every (line, item) of its grid once.
        ConfigurationError: the file does not exist or is a directory; ``model`` empty.
    """
    if model is not None and not model.strip():
        raise ConfigurationError(f"--model: expected a model name, got {model!r}")
    if _starts_an_array(path):
        raise SourceFormatError(input_name(path), "$", f"a JSON array, not judge requests: {_FIRST}")
    file = read_json_lines(path, "requests")
    out: list[JudgeRequest] = []
    seen: dict[tuple, int] = {}
    for number, value in file.lines:
        where = f"line {number}"
        if "question_id" not in value:
            raise SourceFormatError(file.name, where, "no 'question_id'")
        check_id(file.name, f"{where}.question_id", value["question_id"])
        if "messages" not in value and ("hypothesis" in value or "response" in value):
            raise SourceFormatError(file.name, where, f"a prediction, not a judge request: {_FIRST}")
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
        if "rule" in value and not isinstance(value["rule"], str):
            raise SourceFormatError(
                file.name, f"{where}.rule", f"expected a judge's name, got {type_name(value['rule'])}"
            )
        ids = {k: value[k] for k in ID_KEYS if k in value}
        key = tuple(ids.get(k) for k in ID_KEYS)
        if key in seen:
            raise SourceFormatError(
                file.name, where, f"the same question, judge, run, item and request id as line {seen[key]}"
            )
        seen[key] = number
        body = {k: v for k, v in value.items() if k not in ID_KEYS and k not in META_KEYS}
        walk = _walk(file.name, where, value["walk"]) if "walk" in value else None
        out.append(JudgeRequest(number, ids, body, request_sha256(value), line_sha256(value), walk, value.get("rule")))
    walks_of(file.name, out)  # checked here, before anything is sent
    return file.name, out


def walks_of(name: str, requests: list[JudgeRequest]) -> dict[str, Walk]:
    """The walks of ``requests`` (those with a ``walk``), by id, in the order first seen.

    Raises:
        SourceFormatError: a walk whose pairs are not every (line, item) of its grid exactly once, or whose pairs
            name different ``match`` texts.
    """
    walks: dict[str, Walk] = {}
    for r in requests:
        if r.walk is None:
            continue
        w = walks.setdefault(r.walk["id"], Walk(r.walk["id"], r.walk["match"]))
        pair = (r.walk["line"], r.walk["item"])
        if pair in w.pairs or r.walk["match"] != w.match:
            other = w.pairs[pair].line if pair in w.pairs else next(iter(w.pairs.values())).line
            problem = "the same pair as" if pair in w.pairs else "another match text than"
            raise SourceFormatError(name, f"line {r.line}.walk", f"{problem} line {other} in walk {w.id!r}")
        w.pairs[pair] = r
        w.lines, w.items = max(w.lines, pair[0] + 1), max(w.items, pair[1] + 1)
    for w in walks.values():
        if len(w.pairs) != w.lines * w.items:
            gap = next((i, j) for i in range(w.lines) for j in range(w.items) if (i, j) not in w.pairs)
            raise SourceFormatError(
                name,
                "$",
                f"walk {w.id!r} has no request for line {gap[0]}, item {gap[1]} (every pair of the walk is needed)",
            )
    return walks
