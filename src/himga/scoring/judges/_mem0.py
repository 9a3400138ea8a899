"""mem0's LoCoMo judge: ``ACCURACY_PROMPT`` and ``evaluate_llm_judge``, exactly.

Source: mem0ai/mem0, commit ``2352a44193bd0e36cd544fc5664cbee14e020bc2``, ``evaluation/metrics/llm_judge.py``
(the ``evaluation/`` folder was removed in 9315e30, "retire in-repo evaluation/"; its parent b3ede5b holds the
same prompt), called by ``evaluation/evals.py`` with ``str()`` of question, answer and response. Licence:
Apache-2.0 (``LICENSE`` at that commit). The reply is read by ``json.loads(extract_json(content))["label"]``
(``mem0/memory/utils.py``: the text inside a ``` fence, else the stripped text) and scores
``1 if label == "CORRECT" else 0``; a reply that is not such JSON stops the official script.
"""

from __future__ import annotations

import json
import re

from himga.scoring.judges import _locomo_fields as locomo
from himga.scoring.judges._judge import LabelRule, UnreadableReply

__all__ = ["MEM0", "TEMPLATE"]

#: ``ACCURACY_PROMPT``, byte for byte (its curly quotes and trailing spaces included).
TEMPLATE = (
    "\n"
    "Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’. You will be given the following data:\n"
    "    (1) a question (posed by one user to another user), \n"
    "    (2) a ’gold’ (ground truth) answer, \n"
    "    (3) a generated answer\n"
    "which you will score as CORRECT/WRONG.\n"
    "\n"
    "The point of the question is to ask about something one user should know about the other user based on their "
    "prior conversations.\n"
    "The gold answer will usually be a concise and short answer that includes the referenced topic, for example:\n"
    "Question: Do you remember what I got the last time I went to Hawaii?\n"
    "Gold answer: A shell necklace\n"
    "The generated answer might be much longer, but you should be generous with your grading - as long as it touches "
    "on the same topic as the gold answer, it should be counted as CORRECT. \n"
    "\n"
    "For time related questions, the gold answer will be a specific date, month, year, etc. The generated answer might "
    'be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous '
    "with your grading - as long as it refers to the same date or time period as the gold answer, it should be counted "
    'as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it\'s the same date.\n'
    "\n"
    "Now it's time for the real question:\n"
    "Question: {question}\n"
    "Gold answer: {gold_answer}\n"
    "Generated answer: {generated_answer}\n"
    "\n"
    "First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG. \n"
    "Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.\n"
    "\n"
    'Just return the label CORRECT or WRONG in a json format with the key as "label".\n'
)

_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL)  # mem0/memory/utils.py extract_json


def read_label(reply: str) -> float:
    """``1.0`` when ``json.loads(extract_json(reply))["label"] == "CORRECT"``, else ``0.0``.

    Raises:
        UnreadableReply: not JSON, or no ``label`` key (the official script raises there).
    """
    text = reply.strip()
    match = _FENCE.search(text)
    try:
        label = json.loads(match.group(1) if match else text)["label"]
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise UnreadableReply(f"json.loads(extract_json(reply))['label'] fails ({type(e).__name__})") from None
    return 1.0 if label == "CORRECT" else 0.0


def _messages(qa, hypothesis: str) -> list[dict] | None:
    return locomo.chat(TEMPLATE, qa, hypothesis)


MEM0 = locomo.locomo_judge(
    name="mem0",
    title="mem0's LoCoMo judge (ACCURACY_PROMPT, CORRECT/WRONG as JSON)",
    source={
        "repository": "mem0ai/mem0",
        "path": "evaluation/metrics/llm_judge.py",
        "commit": "2352a44193bd0e36cd544fc5664cbee14e020bc2",
        "symbol": "ACCURACY_PROMPT, evaluate_llm_judge",
        "licence": "Apache-2.0",
        "confirmed": "read in a snapshot of github.com/mem0ai/mem0 on 2026-12-03; evaluation/ removed in 9315e30",
    },
    templates={"user": TEMPLATE},
    label=LabelRule(
        "json-label-correct",
        "json.loads(extract_json(reply))['label'] == 'CORRECT' -> 1 else 0; "
        "a reply without that JSON stops the official script",
        "binary",
        read_label,
    ),
    parameters={"response_format": {"type": "json_object"}, "temperature": 0.0},
    messages=_messages,
    scope=locomo.SCOPE,
)
