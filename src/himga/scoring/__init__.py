"""Official scoring as functions: LoCoMo's answer F1, LongMemEval's and BEAM's judges, the papers' tables.

Pure functions, the official text and rules in one place each, with their source commits. The rooms behind this face,
each with one job: :mod:`.rules` (LoCoMo's F1), :mod:`.judges` (every judge as data, and its reply rule),
:mod:`.scorers` (one :class:`Scorer` per benchmark), :mod:`.inputs` (a run's files), :mod:`.metrics` (intervals, the
papers' metrics) and :mod:`.report` (the tables):

- :func:`locomo_score` (:mod:`himga.scoring.rules._locomo`): LoCoMo's per-QA score, equal to the official code's
  (snap-research/locomo@92286325, ``task_eval/evaluation.py``); needs ``pip install 'himga[scoring]'``.
- :func:`longmemeval_judge_prompt`, :func:`judge_request`, :func:`judge_label`
  (:mod:`himga.scoring.judges._longmemeval`):
  LongMemEval's judge prompts, byte-identical to ``get_anscheck_prompt`` (xiaowu0162/LongMemEval@9e0b455); himga
  calls no model.
- :func:`locomo_plus_judge_prompt`, :func:`locomo_plus_judge_request`, :func:`locomo_plus_label`,
  :data:`LOCOMO_PLUS_JUDGE` (:mod:`himga.scoring.judges._locomo_plus`): LoCoMo-Plus's judge as data (templates, source,
  label rule correct/partial/wrong → 1/0.5/0, model and parameters, sha256); requests byte-identical to
  ``llm_as_judge.py``'s (xjtuleeyf/Locomo-Plus@059f4e3).
- REALTALK's F1 is LoCoMo's (:data:`REALTALK_SCORER`, danny911kr/REALTALK@b903e06 ``eval_memory/qa_tool.py``).
- :func:`personamem_score` (:mod:`himga.scoring.rules._personamem`, :data:`PERSONAMEM_SCORER`): PersonaMem's letter
  rule, equal to ``Evaluation.extract_answer`` (bowen-upenn/PersonaMem@041d82a, ``inference_standalone_openai.py``).
- :data:`BEAM_JUDGE`, :func:`beam_judge_prompt`, :func:`beam_parse_reply` (:mod:`himga.scoring.judges.beam._prompts`):
  BEAM's judge as data, its prompts byte-identical to ``compute_metrics.py``'s (mohammadtavakoli78/BEAM@b2a3ee8) and the
  official reading of its replies, quirks included by default (variant ``"official"``; ``"fixed"`` corrects them).
- :func:`score_samples`, :func:`format_table` (:mod:`himga.scoring.report._official`): per-type n, mean, 95% interval
  and the benchmark's totals; :func:`himga.run.run_record`: what produced them.
- :func:`score_records` (:mod:`himga.scoring.report._official`, :mod:`himga.scoring.inputs._run_records`): the
  evaluation loop's records as it writes them (a list, ``hypothesis`` or ``response``, ids qualified, as ``sample_id``
  + ``question_id``, or the system view's).
- :func:`paper_scores`, :func:`paper_tables` (:mod:`himga.scoring.metrics._paper_metrics`, ``.paper_tables``): the
  metrics memory-system papers print (A-Mem, mem0, MAGMA: exact match, set F1, BLEU-1), **not official**, each equal to
  its source code's output; pooled or per-sample aggregation, with or without category 5.
- :func:`judges`, :func:`judge_named` (:mod:`himga.scoring.judges`): every judge by name, the benchmarks' official
  ones and the published ones, as data (template, source commit, label rule, model, sha256); :func:`judge_requests`,
  :func:`read_verdicts`, :func:`score_judged`, :func:`format_judged`: a run scored by named judges, side by side.
- :func:`retrieval_report`, :func:`retrieval_scores`, :func:`format_retrieval`
  (:mod:`himga.scoring.metrics._retrieval`): what a run retrieved against the official relevance labels: recall@k
  and nDCG@k (``ir-measures``), LongMemEval's ``recall_any``/``recall_all`` (``src/retrieval/eval_utils.py``,
  xiaowu0162/LongMemEval@9e0b455), turn and session level; :func:`resolve_record` names the question a record answers.
- :func:`score_runs` (:mod:`himga.scoring.report._runs`): a published run's own verdicts over its judge runs, aggregated
  as the projects did (the mean of the per-run means, a majority beside it), per type and in total.

What differs between the benchmarks is one :class:`Scorer` each, held by the benchmark's catalogue entry
(``entry.scorer``), which registers it (:func:`scorer` finds it by the dataset's name).

Example:
    >>> from himga.scoring import judge_label, locomo_score
    >>> locomo_score({"category": 2, "answer": "7 May 2023"}, "On the 7th of May, 2023")
    0.5
    >>> judge_label("Yes.")
    True
"""

from himga.scoring._scorers import (
    BEAM_SCORER,
    LOCOMO_SCORER,
    LONGMEMEVAL_SCORER,
    PERSONAMEM_SCORER,
    REALTALK_SCORER,
    Row,
    Scorer,
    register_scorer,
    scorer,
)
from himga.scoring.inputs._bound import (
    Bound,
    bindings_of,
    check_bound,
    request_sha256,
    unchecked_note,
    usage_line,
    usage_of,
    usage_total,
)
from himga.scoring.inputs._longmemeval_labels import read_labels
from himga.scoring.inputs._predictions import (
    brief,
    check_hypotheses,
    check_ids,
    in_subset,
    labels_of,
    predictions_of,
    read_predictions,
    replies_of,
)
from himga.scoring.inputs._run_records import RecordIndex, match_records, record_index, resolve_record
from himga.scoring.inputs._type_labels import label_key, matching_map
from himga.scoring.inputs._verdicts import Verdicts, read_verdicts
from himga.scoring.judges import Judge, LabelRule, UnreadableReply, judge_named, judges, judges_for, judges_named
from himga.scoring.judges import register as register_judge
from himga.scoring.judges._locomo_plus import CATEGORY_NAMES as LOCOMO_PLUS_CATEGORIES
from himga.scoring.judges._locomo_plus import COGNITIVE as LOCOMO_PLUS_COGNITIVE
from himga.scoring.judges._locomo_plus import JUDGE_RECORD as LOCOMO_PLUS_JUDGE
from himga.scoring.judges._locomo_plus import JUDGE_TEMPLATES as LOCOMO_PLUS_TEMPLATES
from himga.scoring.judges._locomo_plus import cue_text as locomo_plus_cue_text
from himga.scoring.judges._locomo_plus import evidence_text as locomo_plus_evidence_text
from himga.scoring.judges._locomo_plus import judge_prompt as locomo_plus_judge_prompt
from himga.scoring.judges._locomo_plus import judge_request as locomo_plus_judge_request
from himga.scoring.judges._locomo_plus import read_label as locomo_plus_label
from himga.scoring.judges._longmemeval import judge_label, judge_request, longmemeval_judge_prompt
from himga.scoring.judges.beam._order import first_match_walk
from himga.scoring.judges.beam._prompts import OFFICIAL_JUDGE as BEAM_JUDGE
from himga.scoring.judges.beam._prompts import judge_prompt as beam_judge_prompt
from himga.scoring.judges.beam._prompts import parse_reply as beam_parse_reply
from himga.scoring.metrics._cells import summary_cell
from himga.scoring.metrics._intervals import normal_interval, summarize, wilson_interval
from himga.scoring.metrics._paper_metrics import FAMILIES as PAPER_FAMILIES
from himga.scoring.metrics._paper_metrics import paper_scores
from himga.scoring.metrics._paper_tables import (
    PAPER_AGGREGATIONS,
    PAPER_ROW_ORDERS,
    PaperOptions,
    PaperRules,
    format_paper_table,
    paper_record,
    paper_tables,
)
from himga.scoring.metrics._retrieval import format_retrieval, retrieval_report, retrieval_scores
from himga.scoring.report._judged import format_judged, judge_line, judge_requests, judged_scope, score_judged
from himga.scoring.report._official import format_table, questions_by_id, score_questions, score_records, score_samples
from himga.scoring.report._runs import score_runs
from himga.scoring.rules._locomo import locomo_score
from himga.scoring.rules._personamem import personamem_score

__all__ = [
    "BEAM_JUDGE",
    "BEAM_SCORER",
    "LOCOMO_PLUS_CATEGORIES",
    "LOCOMO_PLUS_COGNITIVE",
    "LOCOMO_PLUS_JUDGE",
    "LOCOMO_PLUS_TEMPLATES",
    "LOCOMO_SCORER",
    "LONGMEMEVAL_SCORER",
    "PAPER_AGGREGATIONS",
    "PAPER_FAMILIES",
    "PAPER_ROW_ORDERS",
    "PERSONAMEM_SCORER",
    "REALTALK_SCORER",
    "Bound",
    "Judge",
    "LabelRule",
    "PaperOptions",
    "PaperRules",
    "RecordIndex",
    "Row",
    "Scorer",
    "UnreadableReply",
    "Verdicts",
    "beam_judge_prompt",
    "beam_parse_reply",
    "bindings_of",
    "brief",
    "check_bound",
    "check_hypotheses",
    "check_ids",
    "first_match_walk",
    "format_judged",
    "format_paper_table",
    "format_retrieval",
    "format_table",
    "in_subset",
    "judge_label",
    "judge_line",
    "judge_named",
    "judge_request",
    "judge_requests",
    "judged_scope",
    "judges",
    "judges_for",
    "judges_named",
    "label_key",
    "labels_of",
    "locomo_plus_cue_text",
    "locomo_plus_evidence_text",
    "locomo_plus_judge_prompt",
    "locomo_plus_judge_request",
    "locomo_plus_label",
    "locomo_score",
    "longmemeval_judge_prompt",
    "match_records",
    "matching_map",
    "normal_interval",
    "paper_record",
    "paper_scores",
    "paper_tables",
    "personamem_score",
    "predictions_of",
    "questions_by_id",
    "read_labels",
    "read_predictions",
    "read_verdicts",
    "record_index",
    "register_judge",
    "register_scorer",
    "replies_of",
    "request_sha256",
    "resolve_record",
    "retrieval_report",
    "retrieval_scores",
    "score_judged",
    "score_questions",
    "score_records",
    "score_runs",
    "score_samples",
    "scorer",
    "summarize",
    "summary_cell",
    "unchecked_note",
    "usage_line",
    "usage_of",
    "usage_total",
    "wilson_interval",
]
