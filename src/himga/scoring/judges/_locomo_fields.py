"""What LoCoMo's judges are given: the question and the gold answer as their evaluation scripts pass them.

Every published LoCoMo judge passes the QA record's ``question`` and its whole ``answer`` (``str()`` of an
integer; category 3 *not* cut at ``;``, unlike the official F1), and skips category 5, whose record has no
``answer`` (mem0's ``evals.py`` skips it by number, Zep's and MemOS's scripts by ``golden_answer is None``,
EverMemOS by ``filter_category: [5]``). Under ``gold="audited"`` the gold is the errata's corrected answer.
"""

from __future__ import annotations

from collections.abc import Mapping

from himga.scoring.judges._judge import Judge
from himga.scoring.judges._registry import register
from himga.scoring.rules._locomo import qa_record

__all__ = ["GOLD_RULE", "SCOPE", "category", "chat", "judge_gold", "locomo_judge", "question"]

GOLD_RULE = (
    "str() of the QA record's whole answer (category 3 not cut at ';'); under gold='audited' the errata's "
    "corrected answer"
)
SCOPE = "LoCoMo categories 1-4 (category 5 is not judged)"


def category(qa) -> int:
    """The QA pair's LoCoMo category (1-5)."""
    return qa_record(qa)["category"]


def question(qa) -> str:
    """The question text of the source record."""
    return qa_record(qa)["question"]


def judge_gold(qa) -> str | None:
    """The gold the judges are given, or ``None`` for category 5 (not judged)."""
    record = qa_record(qa)
    if record["category"] == 5:
        return None
    audit = record.get("gold_audit")
    return str(audit["answer"] if isinstance(audit, Mapping) and "answer" in audit else record["answer"])


def chat(
    template: str,
    qa,
    hypothesis: str,
    *,
    system: str | None = None,
    answer: str = "generated_answer",
    gold: str = "gold_answer",
) -> list[dict] | None:
    """``[system?, user]`` messages: ``template.format(question=..., <gold>=..., <answer>=hypothesis)``; ``None``
    for category 5. ``answer`` and ``gold`` name the template's fields (Zep and MemOS say ``response``)."""
    gold_text = judge_gold(qa)
    if gold_text is None:
        return None
    user = {"role": "user", "content": template.format(question=question(qa), **{gold: gold_text, answer: hypothesis})}
    return [{"role": "system", "content": system}, user] if system is not None else [user]


def locomo_judge(**fields) -> Judge:
    """A published LoCoMo judge, registered, with the settings they share unless given: the judge model they publish
    (``gpt-4o-mini``), LoCoMo's QA pairs, :data:`GOLD_RULE` and :data:`SCOPE`. The prompt texts stay each judge's own,
    byte for byte, in its module.

    Raises:
        ConfigurationError: another judge has the name (:func:`himga.scoring.judges.register`).
    """
    shared = {"model": "gpt-4o-mini", "benchmarks": ("locomo",), "gold": GOLD_RULE, "scope": SCOPE}
    return register(Judge(**{**shared, **fields}))
