"""LongMemEval's judge, exactly: the official prompts and the rule that reads the judge's reply.

himga calls no model: :func:`longmemeval_judge_prompt` builds the prompt, :func:`judge_request` the request
the official code sends (``gpt-4o-2024-08-06``, temperature 0, at most 10 tokens, one user message), and
:func:`judge_label` reads the reply as the official code does (``'yes' in reply.lower()``).

Source: xiaowu0162/LongMemEval, commit ``9e0b455f4ef0e2ab8f2e582289761153549043fc`` (main, the newest;
``src/evaluation/evaluate_qa.py`` last changed in d6dc8b5, 2024-11-24), ``get_anscheck_prompt`` and its
``__main__`` block. Licence: MIT, Copyright (c) 2024 Di Wu (``LICENSE`` at that commit). The template
texts below are copied from it verbatim; ``tests/fixtures/scoring/official-longmemeval-judge-prompts.json`` holds
the official function's output for every real question, and the tests compare them byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping

from himga.errors import ConfigurationError, type_name
from himga.scoring.judges._judge import Judge, LabelRule, template_sha256
from himga.scoring.judges._registry import register

__all__ = [
    "JUDGE",
    "LONGMEMEVAL_JUDGE",
    "SOURCE",
    "TEMPLATES",
    "judge_label",
    "judge_request",
    "longmemeval_judge_prompt",
    "question_fields",
    "templates_sha256",
]

SOURCE = {
    "repository": "xiaowu0162/LongMemEval",
    "path": "src/evaluation/evaluate_qa.py",
    "commit": "9e0b455f4ef0e2ab8f2e582289761153549043fc",
    "function": "get_anscheck_prompt",
    "licence": "MIT",
}

#: The request parameters of ``evaluate_qa.py`` (``model_zoo['gpt-4o']``, ``n``, ``temperature``, ``max_tokens``).
JUDGE = {"model": "gpt-4o-2024-08-06", "n": 1, "temperature": 0, "max_tokens": 10}

_COMMON = (
    "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response "
    "contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or "
    "contains all the intermediate steps to get the correct answer, you should also answer yes. If the response "
    "only contains a subset of the information required by the answer, answer no. "
)
_TAIL = (
    "\n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or "
    "no only."
)

#: template name → text, copied verbatim from ``get_anscheck_prompt`` (MIT, Copyright (c) 2024 Di Wu).
TEMPLATES = {
    "default": _COMMON + _TAIL,
    "temporal-reasoning": _COMMON
    + (
        "In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number "
        "of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer "
        "is 18), the model's response is still correct. "
    )
    + _TAIL,
    "knowledge-update": (
        "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response "
        "contains the correct answer. Otherwise, answer no. If the response contains some previous information along "
        "with an updated answer, the response should be considered as correct as long as the updated answer is the "
        "required answer."
    )
    + _TAIL,
    "single-session-preference": (
        "I will give you a question, a rubric for desired personalized response, and a response from a model. Please "
        "answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to "
        "reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's "
        "personal information correctly.\n\nQuestion: {}\n\nRubric: {}\n\nModel Response: {}\n\n"
        "Is the model response correct? Answer yes or no only."
    ),
    "abstention": (
        "I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if "
        "the model correctly identifies the question as unanswerable. The model could say that the information is "
        "incomplete, or some other information is given but the asked information is not.\n\nQuestion: {}\n\n"
        "Explanation: {}\n\nModel Response: {}\n\nDoes the model correctly identify the question as unanswerable? "
        "Answer yes or no only."
    ),
}

#: question_type → template name (abstention, chosen by ``'_abs' in question_id``, comes first).
_TEMPLATE_OF = {
    "single-session-user": "default",
    "single-session-assistant": "default",
    "multi-session": "default",
    "temporal-reasoning": "temporal-reasoning",
    "knowledge-update": "knowledge-update",
    "single-session-preference": "single-session-preference",
}


def templates_sha256() -> str:
    """The sha256 of the five templates (``json.dumps(TEMPLATES, sort_keys=True)``, UTF-8), for the run record."""
    return template_sha256(TEMPLATES)


def question_fields(qa) -> tuple[str, str, object, str]:
    """``(question_id, question_type, answer, question)`` of a QAPair (its ``raw`` record) or a source dict.

    Raises:
        ConfigurationError: no record with those four keys.
    """
    record = qa if isinstance(qa, Mapping) else getattr(qa, "raw", None)
    if not isinstance(record, Mapping) or not all(
        k in record for k in ("question_id", "question_type", "question", "answer")
    ):
        raise ConfigurationError(
            "longmemeval_judge_prompt: expected a LongMemEval QAPair (raw question_id, question_type, "
            f"question, answer) or its source record, got {type_name(record)}"
        )
    return record["question_id"], record["question_type"], record["answer"], record["question"]


def longmemeval_judge_prompt(qa, hypothesis: str) -> str:
    """The official judge prompt for one hypothesis, byte-identical to ``get_anscheck_prompt``'s.

    Args:
        qa: A LongMemEval :class:`~himga.data.QAPair` (its ``raw`` source record, so the answer is formatted as
            the official code formats it: an integer as ``str(int)``) or the source question dict.
        hypothesis: The system's response.

    Returns:
        ``template.format(question, answer, hypothesis)`` with the abstention template when ``'_abs'`` is in
        the question id, else the template of the ``question_type`` (as spelled in the source file).

    Raises:
        ConfigurationError: ``qa`` is not a LongMemEval question, its type is unknown (the official code
            raises ``NotImplementedError``), or ``hypothesis`` is not a string.
    """
    question_id, question_type, answer, question = question_fields(qa)
    if not isinstance(hypothesis, str):
        raise ConfigurationError(f"{question_id}: hypothesis: expected a string, got {type_name(hypothesis)}")
    if "_abs" in question_id:
        name = "abstention"
    elif question_type in _TEMPLATE_OF:
        name = _TEMPLATE_OF[question_type]
    else:
        raise ConfigurationError(
            f"{question_id}: question_type: expected one of {sorted(_TEMPLATE_OF)}, got {question_type!r}"
        )
    return TEMPLATES[name].format(question, answer, hypothesis)


def judge_request(qa, hypothesis: str) -> dict:
    """One judge request as ``evaluate_qa.py`` sends it, plus ``question_id``: the shape batch APIs take.

    Returns:
        ``{"question_id", "model", "n", "temperature", "max_tokens", "messages": [{"role": "user", "content":
        prompt}]}``.

    Raises:
        ConfigurationError: as :func:`longmemeval_judge_prompt`.
    """
    return {"question_id": question_fields(qa)[0], **LONGMEMEVAL_JUDGE.request_body(_messages(qa, hypothesis))}


def judge_label(reply: str) -> bool:
    """The official reading of a judge reply: ``'yes' in reply.strip().lower()`` (``"Yes."`` → True, ``"No"`` → False).

    Raises:
        ConfigurationError: ``reply`` is not a string.
    """
    if not isinstance(reply, str):
        raise ConfigurationError(f"judge reply: expected a string, got {type_name(reply)}")
    return "yes" in reply.strip().lower()


def _messages(qa, hypothesis: str) -> list[dict]:
    return [{"role": "user", "content": longmemeval_judge_prompt(qa, hypothesis)}]


def _read_label(reply: str) -> float:
    return 1.0 if judge_label(reply) else 0.0


#: The official judge as registry data (:class:`~himga.scoring.judges._judge.Judge`): ``--judge longmemeval``.
LONGMEMEVAL_JUDGE = register(
    Judge(
        name="longmemeval",
        title="LongMemEval's official judge (five templates by question type, yes/no)",
        source={
            "repository": SOURCE["repository"],
            "path": SOURCE["path"],
            "commit": SOURCE["commit"],
            "symbol": SOURCE["function"],
            "licence": SOURCE["licence"],
            "confirmed": "read in a clone of github.com/xiaowu0162/LongMemEval (see the module docstring)",
        },
        templates=TEMPLATES,
        label=LabelRule("yes-in-reply", "'yes' in reply.strip().lower() -> 1 else 0", "binary", _read_label),
        model=JUDGE["model"],
        parameters={k: v for k, v in JUDGE.items() if k != "model"},
        benchmarks=("longmemeval",),
        messages=_messages,
        gold="raw answer of the source question, formatted by str.format (an integer as str(int))",
        scope="every question ('_abs' ids: the abstention template)",
        variant="official",
        recorded=("autoeval_label",),  # evaluate_qa.py's own output, *.eval-results-<model>
    )
)
