"""mem0's evaluation output (mem0ai/mem0 ``evaluation/evals.py``, which Memobase's ``docs/experiments/locomo-benchmark``
runs): ``{"N": [{question, answer (the gold), response, category (a string), bleu_score, f1_score, llm_score}]}``,
keyed by the sample's place in ``locomo10.json`` as a string, in any order; one verdict (``llm_score`` 0/1) per
question from mem0's judge. Read at mem0ai/mem0@2352a44193bd0e36cd544fc5664cbee14e020bc2 and
memodb-io/memobase@358c16bbc6d687937d79bc2f984a11c3be8da901."""

from __future__ import annotations

from collections.abc import Mapping

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._layout import Layout, first_record, keys_of, register

__all__ = ["MEM0"]


def _shape(document) -> bool:
    keys = keys_of(first_record(document, "$.*"))
    return (
        isinstance(document, Mapping)
        and all(str(k).isdigit() for k in document)
        and {"question", "answer", "response", "category"} <= keys
    )


MEM0 = register(
    Layout(
        "mem0",
        "mem0's evaluation output, also Memobase's ({\"<sample index>\": [{question, answer, response, category, "
        "llm_score}]})",
        FieldMap(
            records="$.*",
            conversation="@group",
            question="question",
            response="response",
            gold="answer",
            verdicts="llm_score",
            category="category",
            optional=("verdicts",),
            judge="mem0",
            judge_model="gpt-4o-mini",
        ),
        _shape,
    )
)
