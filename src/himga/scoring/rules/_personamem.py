"""PersonaMem's answer score: the official letter rule, per question, exactly.

Source: bowen-upenn/PersonaMem, commit ``041d82ac6170d3e62c8f105d16df357dced48d73``, ``inference_standalone_openai.py``
(git blob ``336147180a2d3c922b74dbb11e6af1ca84d3fdee``), ``Evaluation.extract_answer`` (l.48–78). The rule, as read
there:

- the prediction is the text after the **last** ``<final_answer>`` (case-sensitive; the whole reply without one),
  stripped, a trailing ``</final_answer>`` removed and stripped again;
- its options are the set of letters ``a``–``d`` written in parentheses (``(c)``) in the lower-cased text, or, when
  there are none, the set of bare letters ``a``–``d`` between word boundaries (``\\b[a-d]\\b``: the article "a" counts);
- correct iff that set is exactly ``{gold}`` (gold = ``correct_answer.lower().strip("() ")``); otherwise the same test
  on the **whole reply** (the fallback), then incorrect;
- accuracy per ``question_type`` and overall (``run_evaluation`` writes ``score`` per row; the repository's notebooks
  average it).

``tests/fixtures/personamem/personamem_extract_answer.json`` holds what the official function returns on 54 replies
(two letters, none, upper case, the tag missing, repeated, closed); the tests compare every one.
"""

from __future__ import annotations

import re

from himga.errors import ConfigurationError, type_name
from himga.schema.question_type import PERSONAMEM_TYPES

__all__ = ["QUESTION_TYPES", "SOURCE", "extract_answer", "gold_options", "personamem_score"]

#: Where the rule was read.
SOURCE = {
    "repository": "bowen-upenn/PersonaMem",
    "path": "inference_standalone_openai.py",
    "commit": "041d82ac6170d3e62c8f105d16df357dced48d73",
    "functions": ["Evaluation.extract_answer", "run_evaluation"],
}

#: The question types of the release as ``questions_32k.csv`` spells them, in the order they first appear there (the
#: last is, by its name, a second spelling of the first: kept apart, as the file has it); defined with the schema.
QUESTION_TYPES = PERSONAMEM_TYPES

_TAG = "<final_answer>"
_CLOSE = "</final_answer>"
_IN_PARENS = re.compile(r"\(([a-d])\)")
_BARE = re.compile(r"\b([a-d])\b")


def _options(text: str) -> set[str]:
    """The official ``_extract_only_options``: the parenthesised letters of the lower-cased text, else its bare ones."""
    text = text.lower()
    return set(_IN_PARENS.findall(text)) or set(_BARE.findall(text))


def extract_answer(reply: str, correct_answer: str) -> tuple[bool, str]:
    """The official ``Evaluation.extract_answer(predicted_answer, correct_answer)``, value for value.

    Args:
        reply: The model's whole reply.
        correct_answer: The gold, as the CSV writes it (``"(c)"``).

    Returns:
        ``(is_correct, predicted_answer)``: whether the reply picks exactly the gold letter (after the last
        ``<final_answer>``, else anywhere in the reply), and the text after the last tag as the official code
        returns it.
    """
    correct = correct_answer.lower().strip("() ")
    predicted = reply.strip()
    if _TAG in predicted:
        predicted = predicted.split(_TAG)[-1].strip()
    if predicted.endswith(_CLOSE):
        predicted = predicted[: -len(_CLOSE)].strip()
    if _options(predicted) == {correct}:
        return True, predicted
    return _options(reply) == {correct}, predicted


def personamem_score(qa, reply: str) -> float:
    """The official PersonaMem score of one reply: 1.0 when it picks exactly the gold option, else 0.0.

    Args:
        qa: A PersonaMem :class:`~himga.data.QAPair` (its ``answer`` is the source's ``correct_answer``, ``"(c)"``) or
            the gold itself as a string.
        reply: The model's whole reply.

    Returns:
        ``float(extract_answer(reply, gold)[0])`` (:func:`extract_answer`).

    Raises:
        ConfigurationError: ``reply`` is not a string, or ``qa`` is neither a QA pair nor a string.
    """
    if not isinstance(reply, str):
        raise ConfigurationError(f"personamem_score: reply: expected a string, got {type_name(reply)}")
    gold = qa if isinstance(qa, str) else getattr(qa, "answer", None)
    if not isinstance(gold, str):
        raise ConfigurationError(f"personamem_score: expected a QA pair or the gold option, got {type_name(qa)}")
    return 1.0 if extract_answer(reply, gold)[0] else 0.0


def gold_options() -> dict:
    """The gold rules of the score, for the run record."""
    return {
        "type_order": list(QUESTION_TYPES),
        "gold": "correct_answer of the question's CSV row ('(c)'), the QA pair's answer",
        "score": "extract_answer: the letters (a)-(d) after the last <final_answer>, else bare letters; correct iff "
        "exactly the gold letter; else the same test on the whole reply",
    }
