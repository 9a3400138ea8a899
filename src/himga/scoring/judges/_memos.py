"""MemOS's LoCoMo judge: mem0's prompt as MemOS's evaluation sends it, three runs per question.

Source: MemTensor/MemOS, commit ``be68e2fb5370866bd5e2b188bb3d22bd13b49e09`` (main; the file last changed in
e8204062; the prompt is unchanged since a5322fe2), ``evaluation/scripts/locomo/locomo_eval.py``,
``locomo_grader``: an f-string with the source's indentation, a system prompt, ``EVAL_MODEL`` (default
``gpt-4o-mini``), temperature 0, ``--num_runs`` 3 by default (the score is the mean of the per-run accuracies).
The reply is read by ``extract_label_json`` (the first ``{"label": "..."}`` object) and scores
``label.strip().lower() == "correct"``; a reply without that object makes the script ``exit()``. Questions
without a ``golden_answer`` (category 5) are skipped. Licence: Apache-2.0 (``LICENSE`` at that commit).
"""

from __future__ import annotations

import json
import re

from himga.scoring.judges import _locomo_fields as locomo
from himga.scoring.judges._judge import LabelRule, UnreadableReply

__all__ = ["MEMOS", "SYSTEM", "TEMPLATE"]

#: ``system_prompt`` of ``locomo_grader``, byte for byte.
SYSTEM = (
    "\n        You are an expert grader that determines if answers to questions match a gold standard answer\n        "
)

#: ``accuracy_prompt`` of ``locomo_grader`` (an f-string: ``{question}``, ``{gold_answer}``, ``{response}``), byte for
#: byte.
TEMPLATE = (
    "\n"
    "    Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’. You will be given the following data:\n"
    "        (1) a question (posed by one user to another user),\n"
    "        (2) a ’gold’ (ground truth) answer,\n"
    "        (3) a generated answer\n"
    "    which you will score as CORRECT/WRONG.\n"
    "\n"
    "    The point of the question is to ask about something one user should know about the other user based on their "
    "prior conversations.\n"
    "    The gold answer will usually be a concise and short answer that includes the referenced topic, for example:\n"
    "    Question: Do you remember what I got the last time I went to Hawaii?\n"
    "    Gold answer: A shell necklace\n"
    "    The generated answer might be much longer, but you should be generous with your grading - as long as it "
    "touches on the same topic as the gold answer, it should be counted as CORRECT.\n"
    "\n"
    "    For time related questions, the gold answer will be a specific date, month, year, etc. The generated answer "
    'might be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be '
    "generous with your grading - as long as it refers to the same date or time period as the gold answer, it should "
    'be counted as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it\'s the '
    "same date.\n"
    "\n"
    "    Now it’s time for the real question:\n"
    "    Question: {question}\n"
    "    Gold answer: {gold_answer}\n"
    "    Generated answer: {response}\n"
    "\n"
    "    First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG.\n"
    "    Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.\n"
    "\n"
    '    Just return the label CORRECT or WRONG in a json format with the key as "label".\n'
    "    "
)

_LABEL = re.compile(r'\{\s*"label"\s*:\s*["\']([^"\']*)["\']\s*\}')  # extract_label_json


def read_label(reply: str) -> float:
    """``1.0`` when the first ``{"label": "..."}`` object's label is ``correct`` (stripped, any case), else ``0.0``.

    Raises:
        UnreadableReply: no such object, or one in single quotes (the official script calls ``exit()``).
    """
    match = _LABEL.search(reply)
    try:
        label = json.loads(match.group(0))["label"] if match else None
    except ValueError:
        label = None
    if not isinstance(label, str):
        raise UnreadableReply('extract_label_json finds no {"label": ...} object (the official script exits)')
    return 1.0 if label.strip().lower() == "correct" else 0.0


def _messages(qa, hypothesis: str) -> list[dict] | None:
    return locomo.chat(TEMPLATE, qa, hypothesis, system=SYSTEM, answer="response")


MEMOS = locomo.locomo_judge(
    name="memos",
    recorded=("llm_judgments",),  # the judged results its evaluation writes
    title="MemOS's LoCoMo judge (mem0's prompt, label JSON, 3 runs)",
    source={
        "repository": "MemTensor/MemOS",
        "path": "evaluation/scripts/locomo/locomo_eval.py",
        "commit": "be68e2fb5370866bd5e2b188bb3d22bd13b49e09",
        "symbol": "locomo_grader, extract_label_json",
        "licence": "Apache-2.0",
        "confirmed": "read in a snapshot of github.com/MemTensor/MemOS on 2026-12-03",
    },
    templates={"system": SYSTEM, "user": TEMPLATE},
    label=LabelRule(
        "label-object-correct",
        'first {"label": "..."} object; label.strip().lower() == \'correct\' -> 1 '
        "else 0; a reply without one stops the official script",
        "binary",
        read_label,
    ),
    parameters={"temperature": 0},
    messages=_messages,
    runs=3,
    scope=locomo.SCOPE,
)
