"""``evermemos-cot`` and ``memos``: the answer prompts of the locomo-audit's full-context baselines (EverMemOS's
``answer_prompt_cot`` and ``answer_prompt_memos``), with the audit's rendering of the conversation.

Source: dial481/locomo-audit at ``9493fb4b4af4256ed17a18e8fd0b3cfdeec29539``: ``fc-baseline/scripts/fc_eval.py``
(last changed in 4a452844, its rendering as in b32288d6) ``_convert_locomo_conversation`` (l.131-230),
``format_full_context`` (l.280-322), ``generate_answer`` (l.344-385) and ``evaluation/config/prompts.yaml`` (the
templates: :mod:`himga.run.prompts._evermemos_templates`). Licence CC BY-NC 4.0 (the audit's), the templates Apache 2.0
(EverMemOS's). Its published runs, ``fc-baseline/results/`` (in ``../shared/data/published-runs/``): gpt-4.1-mini and
gpt-4o-mini with ``answer_prompt_cot``, gpt-4.1-mini with ``answer_prompt_memos``.
``tests/fixtures/run/locomo-audit-answer-prompts.json`` holds the official function's requests for three conv-26
questions and its conv-26 context (made by running it: ``tests/fixtures/run/README.md``).

The request, as ``generate_answer`` builds it: ``template.replace("{context}", context).replace("{question}",
question)`` (``str.replace``), one ``user`` message, ``temperature=0``, nothing else; the hypothesis is the text after
the first ``FINAL ANSWER:`` of the reply, stripped (the reply stripped without one).

The context, as ``format_full_context`` writes it: per session ``=== Session N (<session date>) ===``, a line
``[HH:MM:SS] <speaker>: <text>`` per message and an empty line, joined by ``\\n``. The clock times are made up: the
session's date (``%I:%M %p on %d %B, %Y``; 2024-01-01 00:00 plus the session's index in hours when it does not parse)
plus 30 s a message, the step shrunk to fit 90 % of the time to the next session when they would overrun it. An
image is written ``[<speaker> shared an image: <caption>] <text>``.

Where it differs from the audit's: the audit writes a caption only for a turn that has an ``img_url`` (39 of conv-26's
116 captioned turns have none and lose theirs); the system view has no ``img_url``, so every caption is written. With
retrieved items instead of the whole conversation, the sessions are those the items come from, in session order, and
a session's times count its retrieved messages.
"""

from __future__ import annotations

import datetime as dt

from himga.run.prompts._evermemos_templates import ANSWER_PROMPT_COT, ANSWER_PROMPT_MEMOS
from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt, sessions_in_order
from himga.schema.content import split_inline_image

__all__ = ["EVERMEMOS_COT", "MEMOS", "SOURCE", "final_answer"]

SOURCE = {
    "repository": "dial481/locomo-audit",
    "path": "fc-baseline/scripts/fc_eval.py",
    "commit": "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
    "symbol": "format_full_context, generate_answer; evaluation/config/prompts.yaml",
    "licence": "CC BY-NC 4.0 (templates: EverMind-AI/EverMemOS 1f2f083d, Apache-2.0)",
}
_FAKE_BASE = dt.datetime(2024, 1, 1)
_STEP = 30  # seconds between two messages of a session (fc_eval.py ``default_interval``)


def _session_time(date: str | None, index: int) -> dt.datetime:
    try:
        return dt.datetime.strptime((date or "").strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        return _FAKE_BASE + dt.timedelta(hours=index)


def _step(count: int, start: dt.datetime, following: dt.datetime | None) -> float:
    """Seconds between two messages of a session of ``count`` messages (``_convert_locomo_conversation``)."""
    if count <= 1:
        return 0
    if following is None:
        return _STEP
    available = (following - start).total_seconds()
    if available > 0 and (count - 1) * _STEP > available * 0.9:
        return available * 0.9 / (count - 1)
    return _STEP


def _context(inp: AnswerInput) -> str:
    numbered = sessions_in_order(inp.items)
    numbers, groups = [n for n, _ in numbered], [group for _, group in numbered]
    starts = [_session_time(group[0].date_str, i) for i, group in enumerate(groups)]
    lines: list[str] = []
    for i, (number, group) in enumerate(zip(numbers, groups, strict=True)):
        lines.append(f"=== Session {number} ({group[0].date_str or 'Unknown'}) ===")
        step = _step(len(group), starts[i], starts[i + 1] if i + 1 < len(starts) else None)
        for j, item in enumerate(group):
            caption, text = split_inline_image(item.text)
            if caption is not None:
                text = f"[{item.role} shared an image: {caption}] {text}"
            clock = (starts[i] + dt.timedelta(seconds=j * step)).strftime("%H:%M:%S")
            lines.append(f"[{clock}] {item.role}: {text}")
        lines.append("")
    return "\n".join(lines)


def final_answer(reply: str) -> str:
    """The hypothesis of a reply as ``generate_answer`` takes it: the text after the first ``FINAL ANSWER:`` and
    before any second one, stripped; the reply stripped when it has none."""
    return reply.split("FINAL ANSWER:")[1].strip() if "FINAL ANSWER:" in reply else reply.strip()


def _render(template: str):
    def render(inp: AnswerInput) -> list[dict]:
        prompt = template.replace("{context}", _context(inp)).replace("{question}", inp.question)
        return [{"role": "user", "content": prompt}]

    return render


def _prompt(name: str, key: str, template: str, title: str) -> AnswerPrompt:
    return register_answer_prompt(AnswerPrompt(
        name=name,
        title=title,
        source={**SOURCE, "template": key},
        templates={"user": template},
        render=_render(template),
        parameters={"temperature": 0},
        benchmarks=("locomo",),
        notes=("every image caption is written (the audit writes one only for a turn with an img_url)",),
        extract=final_answer,
    ))  # fmt: skip


#: ``answer_prompt_cot``: the audit's gpt-4.1-mini and gpt-4o-mini full-context baselines.
EVERMEMOS_COT = _prompt(
    "evermemos-cot", "answer_prompt_cot", ANSWER_PROMPT_COT, "EverMemOS's CoT answer prompt (locomo-audit full context)"
)
#: ``answer_prompt_memos``: the audit's gpt-4.1-mini-memos baseline.
MEMOS = _prompt("memos", "answer_prompt_memos", ANSWER_PROMPT_MEMOS, "EverMemOS's MemOS answer prompt (locomo-audit)")
