"""Replies bound to the requests they answered: a judge's reply is scored only against the request it answered.

``himga judge`` writes, beside each reply, ``request_sha256`` (the sha256 of the request body it sent,
:func:`request_sha256`: model, parameters, messages) and ``model_requested``. Scoring renders the requests again from
the predictions being scored and compares: a reply whose request is not the one the predictions render now (the
answers changed after the judge ran) is an error, and so is a reply line without a request hash. Verdicts recorded
elsewhere in a layout a route documents (LongMemEval's ``*.eval-results-*`` lines, the ``llm_judgments`` of
EverMemOS's results and the locomo-audit's probe) carry no request hash: they are read, and the report says they were
not checked against the answers.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass

from himga.errors import SourceFormatError, counted, type_name

__all__ = [
    "ID_KEYS",
    "META_KEYS",
    "RECORDED_LAYOUTS",
    "Bound",
    "bindings_of",
    "bound_of",
    "check_bound",
    "line_sha256",
    "request_body",
    "request_hashes",
    "request_sha256",
    "unchecked_note",
    "usage_line",
    "usage_of",
    "usage_total",
]

#: The keys of a request line that say which verdict it is for; the rest is the body sent. ``judge``, ``run`` and
#: ``item`` are the named judges' (``himga score --judge``), ``request_id`` a judge of several requests per question
#: on its benchmark's default route (BEAM's ``<question_id>#rubric-<k>``); every one is copied into the reply line.
ID_KEYS = ("question_id", "judge", "run", "item", "request_id")
#: The keys of a request line that tell ``himga judge`` how to ask and read it, neither sent nor copied into the reply:
#: ``walk`` (``{"id", "line", "item", "match"}``: a pair of an event-ordering alignment, asked only when the official
#: walk reaches it) and ``rule`` (the registered judge whose label rule reads the reply, on a benchmark's own route).
META_KEYS = ("walk", "rule")

#: The layouts of verdicts recorded elsewhere, read without a request hash (where a route documents them), by the key
#: that marks a line of that layout.
RECORDED_LAYOUTS = {
    "autoeval_label": "LongMemEval *.eval-results-* lines",
    "llm_judgments": "llm_judgments of a judged-results file",
}

_HEX64 = re.compile(r"[0-9a-f]{64}")


def _sha256(value: Mapping) -> str:
    return hashlib.sha256(json.dumps(dict(value), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def request_body(line: Mapping) -> dict:
    """The body a request line sends: every key but :data:`ID_KEYS` and :data:`META_KEYS` (model, parameters,
    messages)."""
    return {k: v for k, v in line.items() if k not in ID_KEYS and k not in META_KEYS}


def request_sha256(line: Mapping) -> str:
    """The sha256 of the body a request line sends (:func:`request_body`): ``json.dumps(body, sort_keys=True,
    ensure_ascii=False)``, UTF-8; for a run after the first of a judge asked several times per question (MemOS's and
    EverMemOS's three), of ``{**body, "run": run}``: the official code asks again and gets another sample. The key of
    ``himga judge``'s replies cache (the same body under other ids is asked once) and what each reply line records as
    ``request_sha256``."""
    body, run = request_body(line), line.get("run", 1)
    return _sha256(body if run == 1 else {**body, "run": run})


def line_sha256(line: Mapping) -> str:
    """The sha256 of a whole request line, ids included (:data:`META_KEYS` left out): what ``himga judge`` recorded as
    ``request_sha256`` before it keyed its cache by the body alone; still read."""
    return _sha256({k: v for k, v in line.items() if k not in META_KEYS})


def request_hashes(line: Mapping, model: str | None = None) -> set[str]:
    """The request hashes a reply to the request ``line`` may carry (:func:`request_sha256`, or the earlier
    :func:`line_sha256`), the model replaced by ``model`` (the one ``himga judge --model`` asked) when given."""
    sent = {**line, "model": model} if model is not None else dict(line)
    return {request_sha256(sent), line_sha256(sent)}


@dataclass(frozen=True)
class Bound:
    """What a reply line says about the request it answered.

    Attributes:
        where: Its place in its file (``"line 7"``).
        sha256: Its ``request_sha256``; ``None`` for a reply line without one.
        model: Its ``model_requested`` (the model ``himga judge`` asked), or ``None``.
    """

    where: str
    sha256: str | None
    model: str | None = None


def bound_of(name: str, where: str, value: Mapping) -> Bound:
    """The :class:`Bound` of one reply line.

    Raises:
        SourceFormatError: a ``request_sha256`` that is not 64 lowercase hex digits, a ``model_requested`` that is not a
            string.
    """
    sha = value.get("request_sha256")
    if sha is not None and not (isinstance(sha, str) and _HEX64.fullmatch(sha)):
        raise SourceFormatError(
            name, f"{where}.request_sha256", f"expected 64 lowercase hex digits, got {type_name(sha)} {str(sha)[:70]!r}"
        )
    model = value.get("model_requested")
    if model is not None and not isinstance(model, str):
        raise SourceFormatError(name, f"{where}.model_requested", f"expected a string, got {type_name(model)}")
    return Bound(where, sha, model)


def bindings_of(file, key: str) -> tuple[dict[str, Bound], dict[str, int]]:
    """The bindings of a replies file read by :func:`~himga.jsonio.run_inputs.read_json_lines`: ``({key: Bound}, {layout
    of verdicts recorded elsewhere: count})``, ``key`` naming the id of a line (``"question_id"``, ``"request_id"``).

    A line of a layout in :data:`RECORDED_LAYOUTS` is counted, not bound; the others are reply lines. Ids and replies
    themselves are read (and refused) by the caller's reader.

    Raises:
        SourceFormatError: as :func:`bound_of`.
    """
    bound: dict[str, Bound] = {}
    recorded: dict[str, int] = {}
    for number, value in file.lines:
        if not isinstance(value, Mapping) or not isinstance(value.get(key), str):
            continue  # the caller's reader words it
        if layout := next((RECORDED_LAYOUTS[k] for k in RECORDED_LAYOUTS if k in value), None):
            recorded[layout] = recorded.get(layout, 0) + 1
            continue
        bound[value[key]] = bound_of(file.name, f"line {number}", value)
    return bound, recorded


def check_bound(
    file: str,
    bound: Mapping[Hashable, Bound],
    rendered: Mapping[Hashable, Mapping],
    *,
    question_of: Callable[[Hashable], str],
    predictions_file: str,
    redo: str,
) -> int:
    """Refuse replies that answered other requests than the ones the predictions render now.

    Args:
        file: The replies file's name.
        bound: Key → the :class:`Bound` of the reply line with that key (a question id, a request id, or ``(judge,
            question id, run, item)``), in file order.
        rendered: Key → the request line the predictions being scored render (ids and body, as ``--prompts`` writes
            it). Replies with keys it does not hold are left to the caller's other checks (questions without a
            hypothesis, outside the subset).
        question_of: Key → its question id, for messages.
        predictions_file: The predictions' name, for messages.
        redo: What to do, for messages (``"write the requests again with ..."``).

    Returns:
        The number of replies checked.

    Raises:
        SourceFormatError: replies without a ``request_sha256`` (how many, the first question and line), or replies
            whose request is not the one rendered now (the same), with ``redo``; ``partial`` does not change this.
    """
    from himga.scoring.inputs._predictions import brief

    unbound = [(key, b) for key, b in bound.items() if b.sha256 is None]
    if unbound:
        key, first = unbound[0]
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(unbound), 'reply', 'replies')} without a request_sha256 (the first: "
            f"{brief(question_of(key))}, {first.where}), so nothing says which answers "
            f"{'it' if len(unbound) == 1 else 'they'} judged: himga judge writes it beside each reply; {redo}",
        )
    checked = [(key, b) for key, b in bound.items() if key in rendered]
    other = [(key, b) for key, b in checked if b.sha256 not in request_hashes(rendered[key], b.model)]
    if other:
        key, first = other[0]
        raise SourceFormatError(
            file,
            "$",
            f"{len(other):,} of {counted(len(checked), 'reply', 'replies')} judged other answers than "
            f"{predictions_file} holds (the first: {brief(question_of(key))}, {first.where}): the request "
            f"{'it' if len(other) == 1 else 'each'} answered (request_sha256) is not the one these predictions render; "
            f"{redo}",
        )
    return len(checked)


def unchecked_note(file: str, counts: Iterable[tuple[str, int]]) -> str:
    """The line a report prints for verdicts read without a request hash: ``note: LABELS: 1,540 verdicts recorded
    elsewhere (llm_judgments) carry no request hash: not checked against the answers scored``."""
    parts = [f"{n:,} {layout}" for layout, n in counts if n]
    return (
        f"note: {file}: verdicts recorded elsewhere ({', '.join(parts)}) carry no request hash: not checked against "
        "the answers scored, only by the answer they name where they name one"
    )


_TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")


def usage_of(lines) -> dict[str, dict]:
    """``{request_sha256: usage}`` of reply lines (``value`` dicts) that carry the endpoint's ``usage`` (``himga judge``
    keeps it): one entry per request paid for, however many lines share its body."""
    out: dict[str, dict] = {}
    for value in lines:
        usage, sha = value.get("usage"), value.get("request_sha256")
        if isinstance(usage, Mapping) and isinstance(sha, str):
            out[sha] = {
                k: usage[k] for k in _TOKENS if isinstance(usage.get(k), int) and not isinstance(usage[k], bool)
            }
    return out


def usage_total(usages: Mapping[str, Mapping]) -> dict:
    """The tokens of :func:`usage_of`'s calls summed: ``{"calls", "prompt_tokens", "completion_tokens",
    "total_tokens"}`` (a count absent from every call is left out)."""
    total: dict = {"calls": len(usages)}
    for k in _TOKENS:
        if any(k in u for u in usages.values()):
            total[k] = sum(u.get(k, 0) for u in usages.values())
    return total


def usage_line(name: str, total: Mapping) -> str:
    """``tokens: judge beam: 1,717 calls, 1,234 prompt, 56 completion (the replies' usage, each call once)``."""
    counts = ", ".join(f"{total[k]:,} {k.removesuffix('_tokens')}" for k in _TOKENS[:2] if k in total)
    counts = f", {counts}" if counts else ""
    return f"tokens: judge {name}: {total['calls']:,} calls{counts} (the replies' usage, each call once)"
