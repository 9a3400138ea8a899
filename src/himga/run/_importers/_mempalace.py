"""MemPalace's LoCoMo retrieval results (MemPalace/mempalace ``benchmarks/results_locomo_*.json``): a flat array of
``{sample_id, question, answer, category, evidence, retrieved_ids, recall}``, every question of the 1,986 (category 5
included), no response: ``recall`` is the share of the question's evidence sessions among the ten retrieved
(``benchmarks/locomo_bench.py`` ``compute_retrieval_recall`` at
MemPalace/mempalace@9b7cfc9940846f9bb06bdfe40476ca34b504ab4b)."""

from __future__ import annotations

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._layout import Layout, first_record, keys_of, register

__all__ = ["MEMPALACE"]


def _shape(document) -> bool:
    return isinstance(document, list) and {"sample_id", "question", "retrieved_ids", "recall"} <= keys_of(
        first_record(document, "$")
    )


MEMPALACE = register(
    Layout(
        "mempalace",
        "MemPalace's retrieval results (MemPalace/mempalace benchmarks/results_locomo_*.json)",
        FieldMap(
            records="$",
            conversation="sample_id",
            question="question",
            gold="answer",
            category="category",
            retrieved_sessions="retrieved_ids",
            verdicts="recall",
            verdict_kind="recall",
            scope=(1, 2, 3, 4, 5),
        ),
        _shape,
    )
)
