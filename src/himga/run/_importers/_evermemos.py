"""EverMemOS's judged results (EverMind-AI/EverMemOS ``evaluation/locomo_evaluation/results_ref/.../judged.json``):
``{"locomo_exp_user_N": [{question, answer, golden_answer, category, llm_judgments {judgment_1..3}, nlp_metrics,
response_duration_ms, search_duration_ms, total_duration_ms}]}``, three verdicts per question. ``N`` is the sample's
place in ``locomo10.json``. Read at EverMind-AI/EverMemOS@5cb4ccdb6e95a31d0e6e9a56936bb3dab73dabaa
(``evaluation/locomo_evaluation/stage5_eval.py``); the judge of later commits is the registered ``evermemos``."""

from __future__ import annotations

from collections.abc import Mapping

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._layout import Layout, first_record, keys_of, register

__all__ = ["EVERMEMOS"]


def _shape(document) -> bool:
    keys = keys_of(first_record(document, "$.*"))
    return isinstance(document, Mapping) and {"question", "answer", "golden_answer", "llm_judgments"} <= keys


EVERMEMOS = register(
    Layout(
        "evermemos",
        "EverMemOS's judged results (EverMind-AI/EverMemOS evaluation/locomo_evaluation/results_ref/*/judged.json)",
        FieldMap(
            records="$.*",
            conversation="@group",
            question="question",
            response="answer",
            gold="golden_answer",
            verdicts="llm_judgments",
            category="category",
            latency_ms={
                "response": "response_duration_ms",
                "search": "search_duration_ms",
                "total": "total_duration_ms",
            },
            optional=("response", "search", "total"),
            judge="evermemos",
            judge_model="gpt-4o-mini",
        ),
        _shape,
    )
)
