"""``plain``: himga's own answer prompt (no benchmark's official one): the dated retrieved items, the question's date,
the question."""

from __future__ import annotations

from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt

__all__ = ["PLAIN", "PLAIN_TEMPLATE"]

#: himga's own prompt (no benchmark's official one): the dated retrieved items, the question's date, the question.
PLAIN_TEMPLATE = (
    "Answer the question using the memories below. Answer in a few words; if the memories do not say, answer that it "
    "is not mentioned.\n\nMemories:\n{memories}\n\nCurrent date: {now}\nQuestion: {question}\nAnswer:"
)


def _plain(inp: AnswerInput) -> list[dict]:
    texts = [f"{item.role}: {item.text}" if item.role else item.text for item in inp.items]
    lines = [
        f"[{item.date_str}] {text}" if item.date_str else text for item, text in zip(inp.items, texts, strict=True)
    ]
    options = "\n" + "\n".join(inp.options) if inp.options else ""
    content = PLAIN_TEMPLATE.format(
        memories="\n".join(lines) or "(none)", now=inp.now or "unknown", question=inp.question + options
    )
    return [{"role": "user", "content": content}]


PLAIN = register_answer_prompt(
    AnswerPrompt(
        name="plain",
        title="himga's plain prompt: the dated retrieved items, the question's date, the question (no benchmark's)",
        source={"repository": "himga", "path": "src/himga/run/prompts/_plain.py", "symbol": "PLAIN_TEMPLATE"},
        templates={"user": PLAIN_TEMPLATE},
        render=_plain,
        parameters={"temperature": 0, "max_tokens": 256},
    )
)
