"""The BEAM judge cases shared by the official-code fixture generator (``tests/fixtures/scoring/make_beam_fixtures.py``)
and the tests that compare himga with its output: how a case's hypothesis is written from the real question, and
which reply the stubbed judge gives to a request (a pure function of the request's text, so that himga's requests
get the replies the official code got for the same text). Nothing here imports himga."""

from __future__ import annotations

import hashlib
import json

#: Reply pools: the judge's reply to a request is ``pool[int(sha256(request key), 16) % len(pool)]``.
POOLS: dict[str, list[str]] = {
    "full": ['{"score": 1.0, "reason": "fully compliant"}'],
    "mixed": ['{"score": 1.0, "reason": "a"}', '{"score": 0.5, "reason": "partial"}', '{"score": 0.0, "reason": "no"}'],
    "half": ['{"score": 0.5, "reason": "partial"}'],
    "formats": [
        '```json\n{"score": 1.0, "reason": "fenced"}\n```',
        'Here is my evaluation: {"score": 0.5, "reason": "text around"} That is all.',
        '{"score": 1, "reason": "an integer"}',
        '{"score": "1", "reason": "a string"}',
        "{'score': 1.0, 'reason': 'single quotes, repaired'}",
        '{"score": 0.5, "reason": "cut short',
        '```\n{"score": 0.0,\n "reason": "fenced without a language"}\n```',
        '   {"score": 1.0, "reason": "padded"}   \n',
        '{"reason": "score last", "score": 0.5}',
        'score: {"score": 1.0, "reason": "nested {braces} inside"}',
    ],
    "unreadable": ['{"score": "0.5", "reason": "int() refuses this string"}'],
    "no_score": ['{"verdict": 1.0}'],
    "yes": ["YES"],
    "no": ["NO"],
    "same_mixed": ["YES", "NO", "yes.", "No", "Yes, the same event", "no, different"],
}


def request_key(content) -> str:
    """The text a reply is drawn by: a prompt string itself; a message list as JSON (``ensure_ascii=False``)."""
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def reply_for(content, pool: str) -> str:
    """The stubbed judge's reply to a request (a prompt string, or a list of ``{"role", "content"}`` messages)."""
    replies = POOLS[pool]
    return replies[int(hashlib.sha256(request_key(content).encode()).hexdigest(), 16) % len(replies)]


def hypothesis(spec: dict, record: dict, reference: str) -> str:
    """The hypothesis a case's ``spec`` describes, written from the question ``record`` and its ``reference`` answer.

    Kinds: ``reference``; ``text`` (given); ``rubric_lines`` (the rubric items one a line, in ``order`` when given,
    with ``extra`` lines inserted at ``at``); ``templated`` (the placeholders of the judge's template inside).
    """
    kind = spec["kind"]
    if kind == "reference":
        return reference
    if kind == "text":
        return spec["text"]
    if kind == "templated":
        return f"<question> {reference} <rubric_item> {{x}} <llm_response> café 🙂"
    rubric = record["rubric"]
    lines = [rubric[i] for i in spec.get("order", range(len(rubric)))]
    for at, extra in spec.get("extra", []):
        lines.insert(at, extra)
    return "\n".join(lines)
