"""``longmemeval``: LongMemEval's official reading prompt, byte for byte, and its three variants.

Source: xiaowu0162/LongMemEval at ``9e0b455f4ef0e2ab8f2e582289761153549043fc`` (``src/generation/run_generation.py``
last changed in d0c699fa), ``prepare_prompt`` (templates at l.55 and l.57, history at l.225-252) and the request of
``main`` (l.360-368: ``n=1``, ``temperature=0``, ``max_tokens=800``: the 500 of a run without CoT is dead code, its
``args.cot`` being the string ``'false'``). Licence MIT. ``tests/fixtures/run/longmemeval-prompts.json`` holds the
official function's prompts for the 97 questions of the oracle sample in all four variants (made by running it:
``tests/fixtures/run/README.md``); the tests compare byte for byte.

The history is rebuilt from the retrieved items: messages are grouped back into their sessions (a view id ``S3:4`` is
message 4 of session ``S3``), each session dated by its messages' date, and the sessions sorted by that date string
(a stable sort: ``retrieved_chunks.sort(key=lambda x: x[0])``, equal dates keep their order), numbered from 1. Each
session is ``json.dumps`` of its ``{"role", "content"}`` turns (``ensure_ascii`` as the default: non-ASCII text becomes
``\\uXXXX``) or, in the ``nl`` variants, ``\\n\\n<role>: <content stripped>`` per turn. ``Current Date:`` is the
question's date. Not reproduced: the official cut of the history at 126,200 o200k tokens (``tiktoken``'s files are
not at hand here); it is never reached on the oracle files.
"""

from __future__ import annotations

import json

from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt

__all__ = ["LONGMEMEVAL_PROMPTS", "SOURCE", "TEMPLATES"]

SOURCE = {
    "repository": "xiaowu0162/LongMemEval",
    "path": "src/generation/run_generation.py",
    "commit": "9e0b455f4ef0e2ab8f2e582289761153549043fc",
    "symbol": "prepare_prompt, main",
    "licence": "MIT",
}

#: The two templates of ``prepare_prompt`` (``merge_key_expansion_into_value`` none), verbatim.
TEMPLATES = {
    "cot": "I will give you several history chats between you and a user. Please answer the question based on the "
    "relevant chat history. Answer the question step by step: first extract all the relevant information, and then "
    "reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\n"
    "Answer (step by step):",
    "direct": "I will give you several history chats between you and a user. Please answer the question based on the "
    "relevant chat history.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:",
}

_SESSION = "\n### Session {}:\nSession Date: {}\nSession Content:\n{}\n"


def _sessions(inp: AnswerInput) -> list[tuple[str | None, list[dict]]]:
    """``(date, [{"role", "content"}])`` per session of the retrieved items, in first-retrieved order."""
    out: dict[str, tuple[str | None, list[dict]]] = {}
    for n, item in enumerate(inp.items):
        session = item.id.partition(":")[0] if item.id else f"#{n}"
        date, turns = out.setdefault(session, (item.date_str, []))
        turns.append({"role": item.role or "user", "content": item.text})
    return list(out.values())


def _render(cot: bool, history_format: str):
    template = TEMPLATES["cot" if cot else "direct"]

    def render(inp: AnswerInput) -> list[dict]:
        sessions = sorted(_sessions(inp), key=lambda s: s[0] or "")  # stable: equal dates keep their order
        history = ""
        for i, (date, turns) in enumerate(sessions, 1):
            if history_format == "json":
                text = "\n" + json.dumps(turns)
            else:
                text = "".join("\n\n{}: {}".format(t["role"], t["content"].strip()) for t in turns)
            history += _SESSION.format(i, date, text)
        return [{"role": "user", "content": template.format(history, inp.now, inp.question)}]

    return render


def _prompt(name: str, cot: bool, history_format: str, default: bool) -> AnswerPrompt:
    return register_answer_prompt(AnswerPrompt(
        name=name,
        title=f"LongMemEval's official reading prompt ({'CoT' if cot else 'direct'}, {history_format} history)",
        source={**SOURCE, "variant": f"--cot {str(cot).lower()} --history_format {history_format}"},
        templates={"prompt": TEMPLATES["cot" if cot else "direct"], "session": _SESSION},
        render=_render(cot, history_format),
        parameters={"n": 1, "temperature": 0, "max_tokens": 800},
        benchmarks=("longmemeval",),
        notes=("the official cut of the history at 126,200 o200k tokens is not applied",),
        default_for=("longmemeval",) if default else (),
    ))  # fmt: skip


#: The four variants: CoT or direct x json or nl history; ``longmemeval`` (CoT, json) is LongMemEval's default.
LONGMEMEVAL_PROMPTS = (
    _prompt("longmemeval", True, "json", True),
    _prompt("longmemeval-direct", False, "json", False),
    _prompt("longmemeval-nl", True, "nl", False),
    _prompt("longmemeval-direct-nl", False, "nl", False),
)
