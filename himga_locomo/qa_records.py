"""One LoCoMo QA record → one QA row: the gold rules (category → question type, the category-5 abstention, the
category-3 cut, evidence normalization), and the checks every record path of :mod:`himga_locomo.records` shares.

Part of the cache key (the catalogue entry's ``row_modules``): it shapes rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from himga.errors import SourceFormatError, type_name, value_shown
from himga.identifiers import id_problem
from himga.jsonio.rawcell import raw_text

__all__ = [
    "ABSTENTION_ANSWER",
    "AUDIT_KEY",
    "CATEGORY3_ANSWERS",
    "CATEGORY_ORDERS",
    "checked_id",
    "cut_category3",
    "expect",
    "normalize_evidence",
    "qa_pair",
    "require",
]

#: Category → question-type value. ``authors``: the LoCoMo authors' evaluation code
#: (``task_eval/evaluation_stats.py``), which the data agrees with; ``seed``: the order written in the
#: HiMGA seed docs.
CATEGORY_ORDERS: dict[str, dict[int, str]] = {
    "authors": {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"},
    "seed": {1: "single_hop", 2: "temporal", 3: "multi_hop", 4: "open_domain", 5: "adversarial"},
}

#: The gold answer of category-5 (adversarial) questions: an abstention LoCoMo's scorer accepts.
ABSTENTION_ANSWER = "Not mentioned in the conversation"

#: The key ``gold="audited"`` adds to an audited QA pair's ``raw`` (see :mod:`himga_locomo.gold`).
AUDIT_KEY = "gold_audit"

#: Values of the ``category3_answer`` option. ``scorer``: the text before the first ``;``, stripped, as
#: LoCoMo's scorer cuts it (snap-research/locomo@92286325a40764bee61f77824ddb95233b11c4d6,
#: ``task_eval/evaluation.py``, ``eval_question_answering``: ``if line['category'] == 3: answer =
#: answer.split(';')[0].strip()``; what follows is the annotator's rationale); ``full``: the whole string.
CATEGORY3_ANSWERS = ("scorer", "full")

_EVIDENCE_TOKEN = re.compile(r"D:?([0-9]+):([0-9]+)")
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")


def _fail(file: str, path: str, detail: str) -> SourceFormatError:
    return SourceFormatError(file, path, detail)


def expect(value: Any, kind: type, file: str, path: str) -> Any:
    """``value`` if it is a ``kind`` (``dict``, ``list``, ``str`` or ``int``; never a bool).

    Raises:
        SourceFormatError: ``locomo10.json: $[0].qa[3].question: expected string, got integer``.
    """
    if not isinstance(value, kind) or isinstance(value, bool):
        name = {dict: "object", list: "array", str: "string", int: "integer"}[kind]
        raise _fail(file, path, f"expected {name}, got {type_name(value)}")
    return value


def require(obj: dict, key: str, kind: type, file: str, path: str) -> Any:
    """``obj[key]`` if present and a ``kind`` (:func:`expect`).

    Raises:
        SourceFormatError: the key is missing (``...: $[0]: missing required key 'qa'``) or of another type.
    """
    if key not in obj:
        raise _fail(file, path, f"missing required key {key!r}")
    return expect(obj[key], kind, file, f"{path}.{key}")


def checked_id(value: str, file: str, path: str, *, controls: bool = True) -> str:
    """``value`` if it is a valid identifier (:func:`himga.identifiers.id_problem`)."""
    if (problem := id_problem(value, controls=controls)) is not None:
        raise _fail(file, path, problem)
    return value


def normalize_evidence(evidence: list[str]) -> list[str]:
    """Normalize LoCoMo evidence strings to turn ids ``D<session>:<turn>``.

    Splits on ``;``, ``,`` and whitespace (``"D8:6; D9:17"`` → ``D8:6``, ``D9:17``), repairs
    ``D:11:26`` → ``D11:26``, drops leading zeros (``D30:05`` → ``D30:5``), drops tokens that are
    not ids (``"D"``) and ids with a zero part, and removes duplicates keeping the first.

    Args:
        evidence: The source ``evidence`` list of one QA.

    Returns:
        The normalized ids, in source order.
    """
    out: list[str] = []
    for item in evidence:
        for token in _EVIDENCE_SPLIT.split(item):
            m = _EVIDENCE_TOKEN.fullmatch(token)
            if not m or not int(m[1]) or not int(m[2]):
                continue
            tid = f"D{int(m[1])}:{int(m[2])}"
            if tid not in out:
                out.append(tid)
    return out


def _answer(qa: dict, category: int, options: dict[str, str], file: str, path: str) -> str:
    if category == 5:
        trap = qa.get("adversarial_answer")
        if "adversarial_answer" in qa and (isinstance(trap, bool) or not isinstance(trap, (str, int, float))):
            raise _fail(file, f"{path}.adversarial_answer", f"expected string or number, got {type_name(trap)}")
        if options["adversarial_answer"] == "abstain":
            return ABSTENTION_ANSWER
        if not trap and "answer" not in qa:  # the seed's rule falls back to answer, never to an empty gold
            raise _fail(file, path, "missing required key 'adversarial_answer'")
        value = trap or qa["answer"]  # the seed's rule
    else:
        if "answer" not in qa:
            raise _fail(file, path, "missing required key 'answer'")
        value = qa["answer"]
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _fail(file, f"{path}.answer", f"expected string or number, got {type_name(value)}")
    return cut_category3(str(value), category, options)


def cut_category3(answer: str, category: int, options: dict[str, str]) -> str:
    """A gold answer as the ``category3_answer`` option shapes it.

    Args:
        answer: The answer text.
        category: The QA pair's LoCoMo category (1-5).
        options: The builder options; ``category3_answer`` (``"scorer"`` when absent).

    Returns:
        Category 3 under ``"scorer"``: the text before the first ``;``, stripped (the scorer's cut,
        see :data:`CATEGORY3_ANSWERS`); otherwise ``answer`` unchanged.
    """
    if category == 3 and options.get("category3_answer", "scorer") == "scorer":
        return answer.split(";")[0].strip()
    return answer


def qa_pair(
    qa: Any,
    index: int,
    options: dict[str, str],
    file: str,
    path: str,
    *,
    normalize: Callable[[list[str]], list[str]] = normalize_evidence,
) -> dict[str, Any]:
    """The row of QA record ``qa`` (``$[i].qa[index]`` at ``path`` of ``file``), shaped by the builder ``options``.

    ``normalize`` turns the source evidence strings into turn ids (default :func:`normalize_evidence`; REALTALK
    repairs more before calling it).

    Raises:
        SourceFormatError: a missing or mistyped key, a category outside 1-5, an evidence id that is no identifier.
    """
    expect(qa, dict, file, path)
    question = require(qa, "question", str, file, path)
    if "category" not in qa:
        raise _fail(file, path, "missing required key 'category'")
    category = qa["category"]
    if isinstance(category, bool) or not isinstance(category, int) or not 1 <= category <= 5:
        raise _fail(file, f"{path}.category", f"expected 1-5, got {value_shown(category)}")
    evidence = expect(qa.get("evidence", []), list, file, f"{path}.evidence")
    for j, item in enumerate(evidence):
        # an entry may list ids separated by whitespace (tabs, newlines); the normalized ids are D<n>:<n>
        checked_id(expect(item, str, file, f"{path}.evidence[{j}]"), file, f"{path}.evidence[{j}]", controls=False)
    return {
        "question_id": str(index),
        "question": question,
        "answer": _answer(qa, category, options, file, path),
        "question_type": CATEGORY_ORDERS[options["category_order"]][category],
        "evidence": {"turn_ids": normalize(evidence), "session_ids": []},
        "raw": raw_text(qa),
        "position": None,
        "options": [],
    }
