"""Zep's LoCoMo judge: mem0's prompt copied into Zep's evaluation, with its typo ("You williolw23 be given").

Source: getzep/zep-papers, commit ``4b7f26cc76cca20743314ba9acb8c2cb6adc42f6`` (main; the file last changed in
4434662), ``kg_architecture_agent_memory/locomo_eval/zep_locomo_eval.py``, ``locomo_grader``: an f-string (the
system prompt and the user prompt keep the indentation of the source), sent with ``beta.chat.completions.parse``
and ``response_format=Grade`` (a pydantic model ``{is_correct: str, reasoning: str}``, which the ``openai`` client
sends as the strict JSON schema below), ``gpt-4o-mini``, temperature 0. The reply is parsed into ``Grade`` and
scores ``is_correct.strip().lower() == 'correct'``. Questions without a ``golden_answer`` (category 5) are
skipped. Licence: CC BY-NC-SA 4.0 (``LICENSE`` at that commit).
"""

from __future__ import annotations

import json

from himga.scoring.judges import _locomo_fields as locomo
from himga.scoring.judges._judge import LabelRule, UnreadableReply

__all__ = ["SYSTEM", "TEMPLATE", "ZEP"]

#: ``system_prompt`` of ``locomo_grader``, byte for byte.
SYSTEM = (
    "\n        You are an expert grader that determines if answers to questions match a gold standard answer\n        "
)

#: ``ACCURACY_PROMPT`` of ``locomo_grader`` (an f-string: ``{question}``, ``{gold_answer}``, ``{response}``), byte for
#: byte.
TEMPLATE = (
    "\n"
    "    Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’. You williolw23 be given the following "
    "data:\n"
    "        (1) a question (posed by one user to another user), \n"
    "        (2) a ’gold’ (ground truth) answer, \n"
    "        (3) a generated answer\n"
    "    which you will score as CORRECT/WRONG.\n"
    "\n"
    "    The point of the question is to ask about something one user should know about the other user based on their "
    "prior conversations.\n"
    "    The gold answer will usually be a concise and short answer that includes the referenced topic, for example:\n"
    "    Question: Do you remember what I got the last time I went to Hawaii?\n"
    "    Gold answer: A shell necklace\n"
    "    The generated answer might be much longer, but you should be generous with your grading - as long as it "
    "touches on the same topic as the gold answer, it should be counted as CORRECT. \n"
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
    "    First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG. \n"
    "    Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.\n"
    "\n"
    '    Just return the label CORRECT or WRONG in a json format with the key as "label".\n'
    "    "
)

#: The ``response_format`` the ``openai`` client (3.57) sends for ``Grade``, and its ``stream`` flag.
_GRADE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "schema": {
            "properties": {
                "is_correct": {"description": "CORRECT or WRONG", "title": "Is Correct", "type": "string"},
                "reasoning": {
                    "description": "Explain why the answer is correct or incorrect.",
                    "title": "Reasoning",
                    "type": "string",
                },
            },
            "required": ["is_correct", "reasoning"],
            "title": "Grade",
            "type": "object",
            "additionalProperties": False,
        },
        "name": "Grade",
        "strict": True,
    },
}


def read_label(reply: str) -> float:
    """``1.0`` when the reply parses as ``Grade`` and ``is_correct.strip().lower() == 'correct'``, else ``0.0``.

    Raises:
        UnreadableReply: not a JSON object with string ``is_correct`` and ``reasoning`` (``Grade`` fails to validate).
    """
    try:
        grade = json.loads(reply)
    except ValueError:
        raise UnreadableReply("the reply does not parse as Grade (not JSON)") from None
    if not (
        isinstance(grade, dict) and isinstance(grade.get("is_correct"), str) and isinstance(grade.get("reasoning"), str)
    ):
        raise UnreadableReply("the reply does not parse as Grade (is_correct and reasoning must be strings)")
    return 1.0 if grade["is_correct"].strip().lower() == "correct" else 0.0


def _messages(qa, hypothesis: str) -> list[dict] | None:
    return locomo.chat(TEMPLATE, qa, hypothesis, system=SYSTEM, answer="response")


ZEP = locomo.locomo_judge(
    name="zep",
    title="Zep's copy of mem0's LoCoMo judge (typo kept), structured Grade reply",
    source={
        "repository": "getzep/zep-papers",
        "path": "kg_architecture_agent_memory/locomo_eval/zep_locomo_eval.py",
        "commit": "4b7f26cc76cca20743314ba9acb8c2cb6adc42f6",
        "symbol": "locomo_grader",
        "licence": "CC-BY-NC-SA-4.0",
        "confirmed": "read in a snapshot of github.com/getzep/zep-papers on 2026-12-03",
    },
    templates={"system": SYSTEM, "user": TEMPLATE},
    label=LabelRule(
        "grade-is-correct",
        "reply parsed as Grade{is_correct, reasoning}; is_correct.strip().lower() == "
        "'correct' -> 1 else 0; a reply that is not Grade stops the official script",
        "binary",
        read_label,
    ),
    parameters={"stream": False, "response_format": _GRADE_FORMAT, "temperature": 0},
    messages=_messages,
    scope=locomo.SCOPE,
)
