"""The LoCoMo audit's judged results (dial481/locomo-audit ``fc-baseline/results/*/eval_results.json``, and the probe's
``ap-baseline/v*/ap_eval_results_scored.json``): ``{total_questions, correct, accuracy, detailed_results
{"locomo_exp_user_N": [{question_id, question, golden_answer, generated_answer, llm_judgments, category}]}, metadata
{answer_model, judge_model, num_runs, ...}}``, the layout of EverMemOS's later ``eval_results.json``. ``category`` is
a string, ``question_id`` ``locomo_<N>_qa<index in the sample's qa list>``. Read at
dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539 (``fc-baseline/scripts/fc_eval.py``,
``ap-baseline/score_ap.py``): the judge is ``evaluation/config/prompts.yaml``'s, the registered ``evermemos``.
The file's
``correct`` is the majority count in fc-baseline and ``round(mean × n)`` in ap-baseline: the records are recounted."""

from __future__ import annotations

from collections.abc import Mapping

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._layout import Layout, register

__all__ = ["LOCOMO_AUDIT"]


def _shape(document) -> bool:
    return isinstance(document, Mapping) and isinstance(document.get("detailed_results"), Mapping)


def _facts(document) -> dict:
    metadata = document.get("metadata") if isinstance(document.get("metadata"), Mapping) else {}
    return {
        "judge_model": metadata.get("judge_model"),
        "answer_model": metadata.get("answer_model"),
        "stated": {k: document[k] for k in ("total_questions", "correct", "accuracy") if k in document},
    }


LOCOMO_AUDIT = register(
    Layout(
        "locomo-audit-eval",
        "the LoCoMo audit's judged results (dial481/locomo-audit fc-baseline and ap-baseline *eval_results*.json)",
        FieldMap(
            records="$.detailed_results.*",
            conversation="@group",
            id="question_id",
            question="question",
            response="generated_answer",
            gold="golden_answer",
            verdicts="llm_judgments",
            category="category",
            judge="evermemos",
            judge_model="gpt-4o-mini",
        ),
        _shape,
        _facts,
    )
)
