"""Official scoring as functions: LoCoMo's answer F1 and LongMemEval's judge, the papers' tables, a run record.

Pure functions, the official text and rules in one place each, with their source commits:

- :func:`locomo_score` (:mod:`himga.scoring._locomo`): LoCoMo's per-QA score, equal to the official code's
  (snap-research/locomo@92286325, ``task_eval/evaluation.py``); needs ``pip install 'himga[scoring]'``.
- :func:`longmemeval_judge_prompt`, :func:`judge_request`, :func:`judge_label` (:mod:`himga.scoring._longmemeval`):
  LongMemEval's judge prompts, byte-identical to ``get_anscheck_prompt`` (xiaowu0162/LongMemEval@9e0b455); himga
  calls no model.
- :func:`score_samples`, :func:`format_table` (:mod:`himga.scoring._report`): per-type n, mean, 95% interval and
  the benchmark's totals; :func:`run_record` (:mod:`himga.runs._record`): what produced them.
- :func:`judges`, :func:`judge_named` (:mod:`himga.scoring._judges`): every published judge prompt by name, as data
  (template, source commit, label rule, model, sha256); :func:`judge_requests`, :func:`read_verdicts`,
  :func:`score_judged`, :func:`format_judged`: a run scored by named judges, side by side.

What differs between the benchmarks is one :class:`Scorer` each, held by the benchmark's catalogue entry
(``entry.scoring``).

Example:
    >>> from himga.scoring import judge_label, locomo_score
    >>> locomo_score({"category": 2, "answer": "7 May 2023"}, "On the 7th of May, 2023")
    0.5
    >>> judge_label("Yes.")
    True
"""

from himga.scoring._intervals import normal_interval, summarize, wilson_interval
from himga.scoring._judged import format_judged, judge_line, judge_requests, judged_scope, score_judged
from himga.scoring._judges import Judge, LabelRule, UnreadableReply, judge_named, judges, judges_for
from himga.scoring._verdicts import Verdicts, read_verdicts
from himga.scoring._locomo import locomo_score
from himga.scoring._longmemeval import judge_label, judge_request, longmemeval_judge_prompt
from himga.scoring._predictions import (brief, check_hypotheses, check_ids, labels_of, predictions_of, read_labels,
                                        read_predictions)
from himga.scoring._report import format_table, questions_by_id, score_questions, score_samples, scorer
from himga.scoring._scorers import LOCOMO_SCORER, LONGMEMEVAL_SCORER, Row, Scorer

__all__ = [
    "LOCOMO_SCORER",
    "LONGMEMEVAL_SCORER",
    "Judge",
    "LabelRule",
    "Row",
    "Scorer",
    "UnreadableReply",
    "Verdicts",
    "brief",
    "check_hypotheses",
    "check_ids",
    "format_judged",
    "format_table",
    "judge_label",
    "judge_line",
    "judge_named",
    "judge_request",
    "judge_requests",
    "judged_scope",
    "judges",
    "judges_for",
    "labels_of",
    "locomo_score",
    "longmemeval_judge_prompt",
    "normal_interval",
    "predictions_of",
    "questions_by_id",
    "read_labels",
    "read_predictions",
    "read_verdicts",
    "score_judged",
    "score_questions",
    "score_samples",
    "scorer",
    "summarize",
    "wilson_interval",
]
