"""How each benchmark is scored: one :class:`Scorer` each, held by its catalogue entry (``entry.scoring``).

Everything else in :mod:`himga.scoring` (reports, run records, the ``himga score`` command) reads these
objects and never tests a dataset name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from himga.scoring import _beam as beam, _locomo as locomo, _longmemeval as longmemeval
from himga.scoring._intervals import summarize
from himga.scoring._paper_tables import LOCOMO_PAPER_RULES, PaperRules

__all__ = ["BEAM_SCORER", "LOCOMO_SCORER", "LONGMEMEVAL_SCORER", "REALTALK_SCORER", "Row", "Scorer"]

#: One scored question: ``(question_id, table row key, score)``.
Row = tuple[str, str, float]


@dataclass(frozen=True)
class Scorer:
    """How one benchmark is scored.

    Attributes:
        name: The dataset name (``"locomo"``).
        metric: What a per-question score is.
        source: Where the scoring rules were read (repository, path, commit, functions).
        type_order: The table's rows, in the papers' order.
        row_key: ``qa -> type_order key`` of a QA pair, or a tuple of keys: the first is the QA pair's type, the
            others further rows it also counts in (LoCoMo-Plus: ``("Cognitive", "Cognitive: causal")``).
        score: ``(qa, hypothesis) -> score`` when himga computes the score; ``None`` when a judge model gives
            it (the verdicts are read back with ``--labels``).
        summaries: ``rows -> {name: summary}``: the totals beside the per-type rows (overall, ...).
        gold_options: ``() -> dict``: the gold rules, for the run record.
        judge: The judge's registry name, request parameters and the sha256 of its templates; ``None`` without a judge.
        judge_request: ``(qa, hypothesis) -> request dict`` when there is a judge of one request per question, whose
            reply is a label (``score`` is ``None``; LongMemEval, LoCoMo-Plus); with :attr:`judge_context`,
            ``(qa, hypothesis, context)``.
        judge_requests: ``(item_id, qa, hypothesis, variant) -> [request dict]`` when the judge is asked several
            requests per question (BEAM: one per rubric item), each with a ``request_id``.
        score_replies: ``(item_id, qa, hypothesis, {request_id: reply}, variant, file=) -> dict`` with the question's
            ``score``: the replies to :attr:`judge_requests` read as the official code reads them.
        request_question: ``request_id -> item id``: the question a request of :attr:`judge_requests` is for.
        judge_variants: The named variants of that judge, the default (the official behaviour) first.
        paper: The rules of the papers' not-official metrics tables (:class:`~himga.scoring._paper_tables.PaperRules`),
            or ``None`` where the papers print none.
        judge_context: ``sample -> context``: what a judge request needs from the QA pair's Sample besides the QA pair
            (LoCoMo-Plus: the conversation its evidence text is read from); ``None`` when the QA pair suffices.
        read_label: ``reply -> label``: a judge's reply text read as the official code reads it (LongMemEval: a
            boolean; LoCoMo-Plus: 1, 0.5 or 0); ``None`` without a judge.
        label_values: The label values a labels file may hold (``True``/``False`` count as 1/0).
    """

    name: str
    metric: str
    source: dict
    type_order: tuple[str, ...]
    row_key: Callable
    score: Callable | None
    summaries: Callable[[Sequence[Row]], dict]
    gold_options: Callable[[], dict]
    judge: dict | None = None
    judge_request: Callable | None = None
    paper: PaperRules | None = None
    judge_requests: Callable | None = None
    score_replies: Callable | None = None
    request_question: Callable[[str], str] | None = None
    judge_variants: tuple[str, ...] = ()
    judge_context: Callable | None = None
    read_label: Callable[[str], float | bool] | None = None
    label_values: tuple[float, ...] = (0.0, 1.0)


def _locomo_key(qa) -> str:
    return locomo.CATEGORY_NAMES[locomo.qa_record(qa)["category"]]


def _locomo_summaries(rows: Sequence[Row]) -> dict:
    return {"overall": summarize([s for _, _, s in rows]),
            "overall_without_category_5": summarize([s for _, key, s in rows if key != locomo.CATEGORY_NAMES[5]])}


_F1_METRIC = ("official answer score: token F1 of Porter-stemmed normalized tokens (category 1: multi-answer F1; "
              "category 5: abstention phrase 0/1)")

LOCOMO_SCORER = Scorer(
    name="locomo",
    metric=_F1_METRIC,
    source=locomo.SOURCE,
    type_order=tuple(locomo.CATEGORY_NAMES[c] for c in locomo.CATEGORY_ORDER),
    row_key=_locomo_key,
    score=locomo.locomo_score,
    summaries=_locomo_summaries,
    gold_options=locomo.gold_options,
    paper=LOCOMO_PAPER_RULES,
)

#: REALTALK's categories: LoCoMo's 1-3 (``evaluate_memory.py`` skips "categories 4 and 5 (which are only in LoCoMo
#: data.)"), in the authors' numbering order.
_REALTALK_TYPES = tuple(locomo.CATEGORY_NAMES[c] for c in (1, 2, 3))

#: REALTALK's memory-probing F1: LoCoMo's rule, function for function (``QATool.compute_lexical_score`` is
#: ``eval_question_answering``'s score; checked against the authors' code on 2,184 predictions).
REALTALK_SOURCE = {"repository": "danny911kr/REALTALK", "path": "eval_memory/qa_tool.py",
                   "commit": "b903e06a9770bf4e5fe9018c3e132889666d3b4a",
                   "functions": ["QATool.compute_lexical_score", "QATool.f1", "QATool.f1_score", "QATool.normalize_answer",
                                 "evaluate_memory.run_evaluate"]}


def _overall(rows: Sequence[Row]) -> dict:
    return {"overall": summarize([s for _, _, s in rows])}


REALTALK_SCORER = Scorer(
    name="realtalk",
    metric=_F1_METRIC.replace("category 5: abstention phrase 0/1", "REALTALK has categories 1-3"),
    source=REALTALK_SOURCE,
    type_order=_REALTALK_TYPES,
    row_key=_locomo_key,
    score=locomo.locomo_score,
    summaries=_overall,
    gold_options=lambda: {**{k: v for k, v in locomo.gold_options().items() if k not in ("category_order", "category_5")},
                          "category_order": {str(c): locomo.CATEGORY_NAMES[c] for c in (1, 2, 3)},
                          "gold": "answer of the source QA record (evaluate_memory.py: qa.get('answer', ''))"},
)

#: print_qa_metrics.py's task order.
_LME_TYPES = ("single-session-user", "single-session-preference", "single-session-assistant", "multi-session",
              "temporal-reasoning", "knowledge-update")


def _lme_key(qa) -> str:
    return longmemeval.question_fields(qa)[1]


def _lme_summaries(rows: Sequence[Row]) -> dict:
    """Overall, task-averaged and abstention accuracy as ``src/evaluation/print_qa_metrics.py`` computes them."""
    import numpy as np

    by_type = {t: [s for _, key, s in rows if key == t] for t in _LME_TYPES}
    empty = [t for t, v in by_type.items() if not v]
    task = {"mean": None if empty else float(np.mean([np.mean(v) for v in by_type.values()])), "tasks": len(_LME_TYPES)}
    if empty:
        task["undefined"] = f"no questions of {', '.join(empty)} (print_qa_metrics.py prints nan)"
    all_scores = [s for v in by_type.values() for s in v]  # print_qa_metrics.py's all_acc: grouped by task
    return {"overall": summarize(all_scores), "task_averaged": task,
            "abstention": summarize([s for qid, _, s in rows if "_abs" in qid])}


def _lme_gold_options() -> dict:
    return {"type_order": list(_LME_TYPES),
            "answer": "raw answer of the source question, formatted by str.format (an integer as str(int))",
            "abstention": "'_abs' in question_id: the abstention template; its own question_type row too",
            "label": "'yes' in reply.strip().lower()"}


LONGMEMEVAL_SCORER = Scorer(
    name="longmemeval",
    metric="judge label (1 = the judge answered yes), read from the judge's replies",
    source={**longmemeval.SOURCE, "metrics": "src/evaluation/print_qa_metrics.py"},
    type_order=_LME_TYPES,
    row_key=_lme_key,
    score=None,
    summaries=_lme_summaries,
    gold_options=_lme_gold_options,
    judge={"name": longmemeval.LONGMEMEVAL_JUDGE.name, **longmemeval.JUDGE, "templates_sha256": longmemeval.templates_sha256()},
    judge_request=longmemeval.judge_request,
    read_label=longmemeval.judge_label,
)

#: report_results.py's column order.
_BEAM_TYPES = ("abstention", "contradiction_resolution", "event_ordering", "information_extraction", "instruction_following",
               "knowledge_update", "multi_session_reasoning", "preference_following", "summarization", "temporal_reasoning")


def _beam_summaries(rows: Sequence[Row]) -> dict:
    """Overall (every question) and the mean of the ability means (equal when every ability has as many questions,
    as in each tier: 2 per chat)."""
    import math

    by_type = {t: [s for _, key, s in rows if key == t] for t in _BEAM_TYPES}
    means = [sum(v) / len(v) for v in by_type.values() if v]
    averaged = {"mean": sum(means) / len(means) if means else None, "tasks": len(means)}
    if any(math.isnan(m) for m in means):
        averaged["undefined"] = "an event-ordering tau is nan (a constant rank list), as the official code gives it"
    return {"overall": summarize([s for _, _, s in rows]), "task_averaged": averaged}


def _beam_gold_options() -> dict:
    return {"type_order": list(_BEAM_TYPES), "answer": "the ability's reference (answer, ideal_response, ideal_answer, "
            "ideal_summary, expected_compliance); the judge reads the rubric, not the answer",
            "score": "mean of the rubric items' judge scores per question; event ordering: tau_norm (report_results.py)"}


BEAM_SCORER = Scorer(
    name="beam",
    metric="official judge score: the mean of the rubric items' scores (0, 0.5, 1) per question; event ordering: "
           "Kendall tau-b of the judge-aligned order, normalised to 0-1",
    source=beam.SOURCE,
    type_order=_BEAM_TYPES,
    row_key=lambda qa: str(qa.question_type),
    score=None,
    summaries=_beam_summaries,
    gold_options=_beam_gold_options,
    judge={"name": "beam", **beam.JUDGE, "template_sha256": beam.TEMPLATE_SHA256},
    judge_requests=beam.judge_requests,
    score_replies=beam.score_replies,
    request_question=beam.request_question,
    judge_variants=tuple(beam.VARIANTS),
)
