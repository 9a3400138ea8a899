"""EverMemOS's LoCoMo judge: ``config/prompts.yaml``'s ``llm_judge`` and ``LLMJudge._judge_answer``, three runs.

Source: EverMind-AI/EverMemOS, commit ``5180bac5673f4a58401adb6d7a05607aef17ee7f`` (2025-12-15, the commit that
added ``_extract_json``), ``evaluation/config/prompts.yaml`` (``llm_judge``: ``system_prompt``, ``user_prompt``;
byte-identical to ``dial481/locomo-audit`` ``evaluation/config/prompts.yaml`` at 9493fb4, the judge of the
audit's probe, and to ``methods/EverCore/evaluation/config/prompts.yaml`` at later commits) and
``evaluation/src/evaluators/llm_judge.py``: both templates ``.strip()``-ed, the user prompt ``.format``-ed,
``gpt-4o-mini`` (``evaluation/config/datasets/locomo.yaml``), temperature 0, ``num_runs: 3`` (the score is the
mean of the per-run accuracies), ``filter_category: [5]``. The reply is read by ``_extract_json`` (a fenced
object, else the first object holding ``"label"``, else the whole text) and ``json.loads``; ``label.strip().upper()
== "CORRECT"`` scores 1, and every failure scores 0 (the official code returns False). Licence: Apache-2.0.
"""

from __future__ import annotations

import json
import re

from himga.scoring.judges import _locomo_fields as locomo
from himga.scoring.judges._judge import LabelRule

__all__ = ["EVERMEMOS", "SYSTEM", "TEMPLATE", "evermemos_ids"]

#: ``llm_judge.system_prompt`` as YAML loads it (the code strips it), byte for byte.
SYSTEM = "You are an expert grader that determines if answers to questions match a gold standard answer\n"

#: ``llm_judge.user_prompt`` as YAML loads it (the code strips it, then formats ``{question}``, ``{golden_answer}``,
#: ``{generated_answer}``), byte for byte.
TEMPLATE = (
    "Your task is to label an answer to a question as 'CORRECT' or 'WRONG'. You will be given the following data:\n"
    "    (1) a question (posed by one user to another user),\n"
    "    (2) a 'gold' (ground truth) answer,\n"
    "    (3) a generated answer\n"
    "which you will score as CORRECT/WRONG.\n"
    "\n"
    "The point of the question is to ask about something one user should know about the other user based on their "
    "prior conversations.\n"
    "The gold answer will usually be a concise and short answer that includes the referenced topic, for example:\n"
    "Question: Do you remember what I got the last time I went to Hawaii?\n"
    "Gold answer: A shell necklace\n"
    "The generated answer might be much longer, but you should be generous with your grading - as long as it touches "
    "on the same topic as the gold answer, it should be counted as CORRECT.\n"
    "\n"
    "For time related questions, the gold answer will be a specific date, month, year, etc. The generated answer might "
    'be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous '
    "with your grading - as long as it refers to the same date or time period as the gold answer, it should be counted "
    'as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it\'s the same date.\n'
    "\n"
    "Now it's time for the real question:\n"
    "Question: {question}\n"
    "Gold answer: {golden_answer}\n"
    "Generated answer: {generated_answer}\n"
    "\n"
    "First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG.\n"
    "Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.\n"
    "\n"
    'Just return the label CORRECT or WRONG in a json format with the key as "label".\n'
)

_FENCED = re.compile(r"```(?:json)?\s*(\{[^`]*\})\s*```", re.DOTALL)
_OBJECT = re.compile(r'\{[^{}]*"label"\s*:\s*"[^"]*"[^{}]*\}')


def read_label(reply: str) -> float:
    """``1.0`` when the extracted JSON's ``label.strip().upper() == "CORRECT"``; ``0.0`` otherwise, failures
    included."""
    if not reply:
        return 0.0
    fenced = _FENCED.search(reply)
    found = fenced.group(1).strip() if fenced else (m.group(0) if (m := _OBJECT.search(reply)) else reply.strip())
    try:
        label = json.loads(found).get("label", "")
        return 1.0 if label and label.strip().upper() == "CORRECT" else 0.0
    except Exception:
        return 0.0


def _messages(qa, hypothesis: str) -> list[dict] | None:
    return locomo.chat(TEMPLATE.strip(), qa, hypothesis, system=SYSTEM.strip(), gold="golden_answer")


EVERMEMOS = locomo.locomo_judge(
    name="evermemos",
    recorded=("llm_judgments",),  # its eval_results.json, and the locomo-audit probe's recorded verdicts
    title="EverMemOS's LoCoMo judge (mem0's prompt, straight quotes, 3 runs; the locomo-audit probe's judge)",
    source={
        "repository": "EverMind-AI/EverMemOS",
        "path": "evaluation/config/prompts.yaml",
        "commit": "5180bac5673f4a58401adb6d7a05607aef17ee7f",
        "symbol": "llm_judge; evaluation/src/evaluators/llm_judge.py LLMJudge._judge_answer, _extract_json",
        "licence": "Apache-2.0",
        "confirmed": "read in a snapshot of github.com/EverMind-AI/EverMemOS on 2026-12-03",
    },
    templates={"system": SYSTEM, "user": TEMPLATE},
    label=LabelRule(
        "extracted-label-correct",
        "_extract_json then json.loads; label.strip().upper() == 'CORRECT' -> 1, "
        "anything else (no JSON, no label) -> 0",
        "binary",
        read_label,
    ),
    parameters={"temperature": 0},
    messages=_messages,
    runs=3,
    scope=locomo.SCOPE,
)


def evermemos_ids(questions) -> dict[str, str]:
    """EverMemOS's question ids → himga's: ``locomo_<conversation index>_qa<QA index>`` (both from 0, in dataset
    order: the ``qa`` list of each LoCoMo sample, category 5 included), from ``{item id: QAPair}`` in dataset order
    (item ids ``<sample_id>:<QA index>``)."""
    samples: dict[str, int] = {}
    out = {}
    for qid in questions:
        sample, _, index = qid.rpartition(":")
        out[f"locomo_{samples.setdefault(sample, len(samples))}_qa{index}"] = qid
    return out
