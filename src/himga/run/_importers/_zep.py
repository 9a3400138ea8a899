"""Zep's LoCoMo files (getzep/zep ``benchmarks/locomo_eval/data/``): ``zep_locomo_grades.json``
(``{"locomo_experiment_user_N": [{question, answer, golden_answer, grade, category}]}``, one grade per question
from the registered ``zep`` judge) and ``zep_locomo_responses.json`` (the same records before grading, with
``duration_ms`` and no category). ``N`` is the sample's place in ``locomo10.json``. Read at
getzep/zep@1659df1a5fbda7a010a8ab214e067637499b4a07 (``zep_locomo_responses.py``, ``zep_locomo_eval.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._layout import Layout, first_record, keys_of, register

__all__ = ["ZEP"]

_KEYS = {"question", "answer", "golden_answer"}


def _shape(document) -> bool:
    keys = keys_of(first_record(document, "$.*"))
    return (
        isinstance(document, Mapping)
        and all(str(k).startswith("locomo_experiment_user_") for k in document)
        and _KEYS <= keys <= _KEYS | {"grade", "category", "duration_ms"}
    )


ZEP = register(
    Layout(
        "zep",
        "Zep's grades or responses (getzep/zep benchmarks/locomo_eval/data/zep_locomo_*.json)",
        FieldMap(
            records="$.*",
            conversation="@group",
            question="question",
            response="answer",
            gold="golden_answer",
            verdicts="grade",
            category="category",
            latency_ms={"duration": "duration_ms"},
            optional=("verdicts", "category", "duration"),
            judge="zep",
            judge_model="gpt-4o-mini",
            answer_model="gpt-4o-mini",
        ),
        _shape,
    )
)
