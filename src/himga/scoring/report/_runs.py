"""A run's per-question values over one or more runs, aggregated the way the published LoCoMo evaluations do: per run
the mean over the questions, the score the mean of those run means (EverMemOS's ``compute_acc.py``, the locomo-audit's
``score_ap.py``; one run: the count over the denominator), a majority vote beside it, per question type and in total.

Used for a file's own verdicts (``himga score ... --verdicts``) and for the official F1 of its responses (one run),
and by ``himga compare``. The interval is over the per-question means.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from himga.scoring._scorers import Row, Scorer
from himga.scoring.metrics._intervals import summarize

__all__ = ["score_runs"]


def score_runs(scorer: Scorer, questions: Mapping, values: Mapping[str, Sequence[float]]) -> dict:
    """Aggregate per-question values of ``k`` runs.

    Args:
        scorer: The benchmark's scorer (its rows and totals).
        questions: ``{question_id: QAPair}`` in dataset order; only those with values are scored.
        values: ``{question_id: [value of run 1, ...]}``, every question the same number of runs, values in [0, 1].

    Returns:
        ``{"per_type": [{"type", "n", "mean", "ci95", "ci_method", ...}], "overall", ...the scorer's totals, "runs": k,
        "binary", "scored", "per_question"}``; each summary with ``k > 1`` also has ``runs`` (the per-run means) and
        ``std`` (their population standard deviation), with binary values ``counts`` (per run: the questions counted
        right) and ``majority`` (the share whose values are more than half 1). ``mean`` is the mean of the run means.

    Raises:
        ValueError: questions with different numbers of runs (the callers check this with the file's paths).
    """
    k = len(next(iter(values.values()))) if values else 0
    binary = all(float(v) in (0.0, 1.0) for vs in values.values() for v in vs)
    rows: list[Row] = []
    runs: list[list[Row]] = [[] for _ in range(k)]
    majority: list[Row] = []
    also: dict[str, tuple[str, ...]] = {}
    for qid, qa in questions.items():
        if qid not in values:
            continue
        scores = [float(v) for v in values[qid]]
        if len(scores) != k:
            raise ValueError(f"{qid}: {len(scores)} runs, not {k}")
        key = scorer.row_key(qa)
        if isinstance(key, tuple):
            key, also[qid] = key[0], key[1:]
        rows.append((qid, key, statistics.fmean(scores)))
        majority.append((qid, key, 1.0 if sum(scores) > k / 2 else 0.0))
        for run, score in zip(runs, scores, strict=True):
            run.append((qid, key, score))

    def table(part: list[Row]) -> dict:
        per_type = {
            t: summarize([s for qid, key, s in part if key == t or t in also.get(qid, ())]) for t in scorer.type_order
        }
        return {**{f"type:{t}": v for t, v in per_type.items()}, **scorer.summaries(part)}

    summaries = table(rows)
    per_run = [table(run) for run in runs]
    voted = table(majority)
    for key, value in summaries.items():
        if not isinstance(value, dict) or value.get("mean") is None:
            continue
        means = [run[key]["mean"] for run in per_run]
        if binary:
            value["counts"] = [round(m * value["n"]) for m in means]
        if k > 1:
            value.update(mean=statistics.fmean(means), runs=means, std=statistics.pstdev(means))
            if binary:
                value["majority"] = voted[key]["mean"]
    per_type = [{"type": t, **summaries.pop(f"type:{t}")} for t in scorer.type_order]
    return {
        "per_type": per_type,
        **summaries,
        "runs": k,
        "binary": binary,
        "scored": len(rows),
        "per_question": {qid: s for qid, _, s in rows},
    }
