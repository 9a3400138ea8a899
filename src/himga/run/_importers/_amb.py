"""Agent Memory Benchmark's run files (vectorize-io/agent-memory-benchmark ``outputs/<dataset>/<memory>/<mode>/*.json``,
often gzip): ``{dataset, memory_provider, answer_llm, judge_llm, total_queries, correct, accuracy, ..., results
[{query_id, query, answer, reasoning, context, context_tokens, retrieve_time_ms, gold_answers, correct, judge_reason,
meta {sample_id, category, ...}}]}``, one verdict per question from the benchmark's own judge. The category is a name in
mem0's order (1 single-hop, 3 multi-hop, 4 open-domain), read by the map that explains the records. ``context`` is the
retrieved memories as ``## Memory <k>`` blocks of raw LoCoMo session JSON: they become the retrieved items, and the
``dia_id`` s they quote the retrieved ids. Read at
vectorize-io/agent-memory-benchmark@de83fa7816ab6bbb8a0ed63916f49f65300fb74b
(``outputs/locomo/cognee/rag/locomo10.json.gz``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from himga.run._importers._fieldmap import Entry, FieldMap, lookup
from himga.run._importers._layout import Layout, register

__all__ = ["AMB"]

_BLOCK = re.compile(r"^## Memory \d+\n", re.MULTILINE)
_DIA_ID = re.compile(r'"dia_id": "(D\d+:\d+)"')


def _shape(document) -> bool:
    return isinstance(document, Mapping) and "memory_provider" in document and isinstance(document.get("results"), list)


def _facts(document) -> dict:
    return {
        "judge_model": document.get("judge_llm"),
        "answer_model": document.get("answer_llm"),
        "stated": {k: document[k] for k in ("dataset", "total_queries", "correct", "accuracy") if k in document},
    }


def _extra(entry: Entry) -> dict:
    """The context's ``## Memory <k>`` blocks as retrieved items (their text whole), the ``dia_id`` s quoted in it, in
    order of first appearance, as the retrieved ids."""
    found, context = lookup(entry, "context")
    if not found or not isinstance(context, str):
        return {}
    starts = [m.start() for m in _BLOCK.finditer(context)]
    blocks = [context[a:b] for a, b in zip(starts, [*starts[1:], len(context)], strict=True)] if starts else [context]
    return {
        "retrieved": [{"text": block} for block in blocks],
        "retrieved_ids": list(dict.fromkeys(_DIA_ID.findall(context))),
    }


AMB = register(
    Layout(
        "amb",
        "Agent Memory Benchmark's run files (vectorize-io/agent-memory-benchmark outputs/*/*/*/*.json[.gz])",
        FieldMap(
            records="$.results",
            conversation="meta.sample_id",
            id="query_id",
            question="query",
            response="answer",
            gold="gold_answers",
            verdicts="correct",
            category="meta.category",
            category_names="auto",
            context="context",
            context_tokens="context_tokens",
            latency_ms={"retrieve": "retrieve_time_ms"},
            optional=("context", "context_tokens", "retrieve", "id"),
        ),
        _shape,
        _facts,
        _extra,
    )
)
