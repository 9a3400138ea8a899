"""Retrieval scored against the official relevance labels: recall@k, nDCG@k (``ir-measures``), and LongMemEval's
``recall_any``/``recall_all``, at turn and session granularity.

The labels are :meth:`himga.schema.Sample.relevance` (each benchmark's official rule; a question its official
evaluation leaves out, an abstention or one without evidence, is left out here too). A run's retrieved ids are the
source ids of what its memory returned, best first (a ``himga run`` record's ``retrieved_ids`` for turns and
``retrieved_sessions`` for sessions). Per question, at cut-off ``k``:

- ``recall@k``: the share of the relevant ids among the first ``k`` retrieved (0 when none is retrieved);
- ``nDCG@k``: ``ir_measures``' ``nDCG@k`` with binary relevance (0 for a question with nothing retrieved);
- ``recall_any@k`` / ``recall_all@k``: 1 when any / all relevant ids are among the first ``k``, else 0: the
  ``evaluate_retrieval`` of LongMemEval's ``src/retrieval/eval_utils.py`` (xiaowu0162/LongMemEval@9e0b455), averaged
  over the questions it evaluates.

The means are over the evaluable questions.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence

from himga.errors import MissingDependencyError

__all__ = ["GRANULARITIES", "format_retrieval", "retrieval_report", "retrieval_scores"]

GRANULARITIES = ("turn", "session")


def _ir_measures():
    try:
        import ir_measures
    except ImportError:
        raise MissingDependencyError("retrieval metrics need ir-measures: pip install 'himga[scoring]'") from None
    return ir_measures


def retrieval_scores(
    labels: Mapping[str, Mapping[str, Sequence[str]]],
    retrieved: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    ks: Sequence[int] = (5, 10),
    granularities: Sequence[str] = GRANULARITIES,
) -> dict:
    """The retrieval table of a run.

    Args:
        labels: question id → granularity (``"turn"``, ``"session"``) → relevant ids, for the evaluable questions only.
        retrieved: question id → granularity → retrieved ids, best first (a question absent retrieved nothing).
        ks: The cut-offs.
        granularities: The levels scored (``"turn"``, ``"session"``).

    Returns:
        ``{granularity: {"questions": n, "recall@k": mean, "nDCG@k": mean, "recall_any@k": mean,
        "recall_all@k": mean, ...}}``, each over the questions with a relevant id at that granularity.

    Raises:
        MissingDependencyError: ir-measures is not installed.
    """
    ir = _ir_measures()
    out: dict = {}
    for granularity in granularities:
        queries = {q: list(dict.fromkeys(ls[granularity])) for q, ls in labels.items() if ls.get(granularity)}
        if not queries:
            continue
        runs = {q: list(dict.fromkeys((retrieved.get(q) or {}).get(granularity) or [])) for q in queries}
        table: dict = {"questions": len(queries)}
        qrels = [ir.Qrel(q, d, 1) for q, ids in queries.items() for d in ids]
        scored = [ir.ScoredDoc(q, d, float(len(ids) - rank)) for q, ids in runs.items() for rank, d in enumerate(ids)]
        for k in ks:
            recall = [len(set(queries[q]) & set(runs[q][:k])) / len(queries[q]) for q in queries]
            ndcg = {m.query_id: m.value for m in ir.iter_calc([ir.nDCG @ k], qrels, scored)}
            table[f"recall@{k}"] = statistics.fmean(recall)
            table[f"nDCG@{k}"] = statistics.fmean(ndcg.get(q, 0.0) for q in queries)
            table[f"recall_any@{k}"] = statistics.fmean(bool(set(queries[q]) & set(runs[q][:k])) for q in queries)
            table[f"recall_all@{k}"] = statistics.fmean(set(queries[q]) <= set(runs[q][:k]) for q in queries)
        out[granularity] = table
    return out


def format_retrieval(scores: dict) -> str:
    """The retrieval table as text: a line per granularity, the means to 4 decimals."""
    lines = []
    for granularity, table in scores.items():
        cells = "  ".join(f"{name} {value:.4f}" for name, value in table.items() if name != "questions")
        lines.append(f"retrieval {granularity:<8} ({table['questions']:,} questions)  {cells}")
    return "\n".join(lines)


def retrieval_report(samples: Iterable, records: Mapping[str, Mapping], *, ks: Sequence[int] = (5, 10)) -> dict | None:
    """The retrieval table of the records that name what was retrieved, against the labels of ``samples``.

    Args:
        samples: The Samples the records answer (:class:`himga.data.Sample`; read once, in order).
        records: item id → record (``retrieved_ids``: the source turn ids retrieved, ``retrieved_sessions``: the
            source session ids, each best first).
        ks: The cut-offs.

    Returns:
        :func:`retrieval_scores`' table, at the levels some record retrieved at (a run that retrieves sessions only
        has no turn row), with ``left_out`` (the questions the official evaluation leaves out, counted by reason);
        ``None`` when no record names what was retrieved.

    Raises:
        MissingDependencyError: ir-measures is not installed.
    """
    from himga.schema.ids import item_id

    named = {q: r for q, r in records.items() if "retrieved_ids" in r or "retrieved_sessions" in r}
    if not named:
        return None
    labels, left_out = {}, {}
    for sample in samples:
        for qa in sample.qa_pairs:
            if (qid := item_id(sample, qa)) not in named:
                continue
            relevance = sample.relevance(qa)
            if relevance.evaluable:
                labels[qid] = {"turn": relevance.turns, "session": relevance.sessions}
            else:
                left_out[relevance.reason] = left_out.get(relevance.reason, 0) + 1
    retrieved = {
        q: {"turn": r.get("retrieved_ids") or [], "session": r.get("retrieved_sessions") or []}
        for q, r in named.items()
    }
    levels = [g for g in GRANULARITIES if any(r[g] for r in retrieved.values())]  # a sessions-only run: no turn row
    return {**retrieval_scores(labels, retrieved, ks=ks, granularities=levels), "left_out": left_out}
