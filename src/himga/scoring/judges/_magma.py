"""MAGMA's LoCoMo judge: a continuous 0-1 score, and a rule for category 5 that asks no model.

Source: FredJiang0324/MAMGA, commit ``11fd2a6ac8dd27abd32a3a3c6d93a8c13e01d4b4`` (main; the file is unchanged since
f161094), ``memory/llm_judge.py``: ``ACCURACY_PROMPT`` and ``evaluate_llm_judge`` (a system prompt written in the
call, ``gpt-4o-mini``, ``response_format={"type": "json_object"}``, temperature 0.0; the reply's
``float(json.loads(reply).get("score", 0.0))`` clipped to [0, 1]); ``LLMJudge.evaluate_answer``, which the
evaluation harness (``memory/evaluator.py``, ``memory/test_harness.py``) calls with ``str(qa.final_answer)``, scores
category 5 by ``_is_unanswerable(prediction)`` (1.0 or 0.0, no model) against the ``adversarial_answer``, and a
question without a gold gets 0.0. Licence: MIT (``LICENSE`` at that commit).
"""

from __future__ import annotations

import json

from himga.scoring.judges import _locomo_fields as locomo
from himga.scoring.judges._judge import LabelRule, UnreadableReply
from himga.scoring.metrics._paper_metrics import magma_unanswerable
from himga.scoring.rules._locomo import qa_record

__all__ = ["MAGMA", "SYSTEM", "TEMPLATE"]

#: The system message written in ``evaluate_llm_judge``.
SYSTEM = "You are an expert grader that scores answers on a continuous scale from 0.0 to 1.0."

#: ``ACCURACY_PROMPT`` (``{question}``, ``{gold_answer}``, ``{generated_answer}``), byte for byte.
TEMPLATE = (
    "\n"
    "Score the answer on a scale from 0.0 to 1.0 based on semantic correctness.\n"
    "\n"
    "Scoring Scale:\n"
    "- 1.0: Perfect match - contains all key information from gold answer, semantically equivalent\n"
    "- 0.8: Mostly correct - captures main point but may have minor differences in wording or detail\n"
    "- 0.6: Partially correct - has some correct information but incomplete or missing key details\n"
    "- 0.4: Somewhat related - touches on the topic but misses significant information\n"
    "- 0.2: Barely related - answer is mostly incorrect but has some connection to the topic\n"
    "- 0.0: Completely wrong - answer is unrelated or contradicts gold answer\n"
    "\n"
    "The point of the question is to ask about something one user should know about the other user based on their "
    "prior conversations.\n"
    "\n"
    "For time-related questions:\n"
    '- Be generous with date formats (e.g., "May 7th" vs "7 May" should both score highly)\n'
    "- Accept relative time references if they refer to the same period\n"
    "- Penalize if the time period is significantly different\n"
    "\n"
    "For factual questions:\n"
    "- Focus on semantic equivalence, not exact wording\n"
    "- Partial credit for partial answers\n"
    "- Consider whether key entities and relationships are preserved\n"
    "\n"
    "Question: {question}\n"
    "Gold answer: {gold_answer}\n"
    "Generated answer: {generated_answer}\n"
    "\n"
    "Return JSON with:\n"
    '- "score": A float between 0.0 and 1.0\n'
    '- "reasoning": One sentence explaining the score\n'
)


def read_score(reply: str) -> float:
    """``max(0.0, min(1.0, float(json.loads(reply).get("score", 0.0))))``, as ``evaluate_llm_judge``.

    Raises:
        UnreadableReply: not a JSON object, or a score ``float()`` refuses (the official code raises there).
    """
    try:
        score = float(json.loads(reply).get("score", 0.0))
    except (ValueError, TypeError, AttributeError) as e:
        raise UnreadableReply(f"float(json.loads(reply).get('score', 0.0)) fails ({type(e).__name__})") from None
    return max(0.0, min(1.0, score))


def is_unanswerable(text: str) -> bool:
    """``LLMJudge._is_unanswerable``: empty, a null word, or one of its phrases (lower-cased, stripped). Its body is
    the one ``utils/utils.py``'s ``is_unanswerable`` has at the same commit, so both are one function here
    (:func:`himga.scoring.metrics._paper_metrics.magma_unanswerable`)."""
    return magma_unanswerable(text)


def _final_answer(qa):
    record = qa_record(qa)
    if record["category"] == 5:
        return record.get("adversarial_answer")
    audit = record.get("gold_audit")
    return audit["answer"] if isinstance(audit, dict) and "answer" in audit else record.get("answer")


def _rule(dataset: str, qa, hypothesis: str) -> float | None:
    """Category 5: ``_is_unanswerable`` (1.0/0.0); no gold: 0.0 (the harness skips the judge); else ``None``."""
    if not _final_answer(qa):
        return 0.0
    if qa_record(qa)["category"] == 5:
        return 1.0 if is_unanswerable(hypothesis) else 0.0
    return None


def _messages(qa, hypothesis: str) -> list[dict] | None:
    user = TEMPLATE.format(
        question=qa_record(qa)["question"], gold_answer=str(_final_answer(qa)), generated_answer=hypothesis
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


MAGMA = locomo.locomo_judge(
    name="magma",
    title="MAGMA's continuous LoCoMo judge (0-1 score; category 5 by rule)",
    source={
        "repository": "FredJiang0324/MAMGA",
        "path": "memory/llm_judge.py",
        "commit": "11fd2a6ac8dd27abd32a3a3c6d93a8c13e01d4b4",
        "symbol": "ACCURACY_PROMPT, evaluate_llm_judge, LLMJudge",
        "licence": "MIT",
        "confirmed": "read in a snapshot of github.com/FredJiang0324/MAMGA on 2026-12-03",
    },
    templates={"system": SYSTEM, "user": TEMPLATE},
    label=LabelRule(
        "json-score",
        "float(json.loads(reply).get('score', 0.0)) clipped to [0, 1]; a reply that is not "
        "such JSON stops the official code",
        "continuous",
        read_score,
    ),
    parameters={"response_format": {"type": "json_object"}, "temperature": 0.0},
    messages=_messages,
    rule=_rule,
    gold="str() of the QA record's whole answer (category 5: the adversarial_answer, scored by rule); under "
    "gold='audited' the errata's corrected answer",
    scope="every LoCoMo question (category 5 by _is_unanswerable, without the model)",
)
