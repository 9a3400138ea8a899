"""Official scoring as functions: LoCoMo's answer F1, LongMemEval's and BEAM's judges, the papers' tables, a run record.

Pure functions, the official text and rules in one place each, with their source commits:

- :func:`locomo_score` (:mod:`himga.scoring._locomo`): LoCoMo's per-QA score, equal to the official code's
  (snap-research/locomo@92286325, ``task_eval/evaluation.py``); needs ``pip install 'himga[scoring]'``.
- :func:`longmemeval_judge_prompt`, :func:`judge_request`, :func:`judge_label` (:mod:`himga.scoring._longmemeval`):
  LongMemEval's judge prompts, byte-identical to ``get_anscheck_prompt`` (xiaowu0162/LongMemEval@9e0b455); himga
  calls no model.
- :data:`BEAM_JUDGE`, :func:`beam_judge_prompt`, :func:`beam_parse_reply` (:mod:`himga.scoring._beam`): BEAM's judge
  as data, its prompts byte-identical to ``compute_metrics.py``'s (mohammadtavakoli78/BEAM@b2a3ee8) and the official
  reading of its replies, quirks included by default (variant ``"official"``; ``"fixed"`` corrects them).
- :func:`score_samples`, :func:`format_table` (:mod:`himga.scoring._report`): per-type n, mean, 95% interval and
  the benchmark's totals; :func:`run_record` (:mod:`himga.runs._record`): what produced them.

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
from himga.scoring._locomo import locomo_score
from himga.scoring._longmemeval import judge_label, judge_request, longmemeval_judge_prompt
from himga.scoring._predictions import (brief, check_hypotheses, check_ids, labels_of, predictions_of, read_labels,
                                        read_predictions, replies_of)
from himga.scoring._report import format_table, questions_by_id, score_questions, score_samples, scorer
from himga.scoring._scorers import BEAM_SCORER, LOCOMO_SCORER, LONGMEMEVAL_SCORER, Row, Scorer
from himga.scoring._beam import OFFICIAL_JUDGE as BEAM_JUDGE, judge_prompt as beam_judge_prompt, parse_reply as beam_parse_reply

__all__ = [
    "BEAM_JUDGE",
    "BEAM_SCORER",
    "LOCOMO_SCORER",
    "LONGMEMEVAL_SCORER",
    "Row",
    "Scorer",
    "beam_judge_prompt",
    "beam_parse_reply",
    "brief",
    "check_hypotheses",
    "check_ids",
    "format_table",
    "judge_label",
    "judge_request",
    "labels_of",
    "locomo_score",
    "longmemeval_judge_prompt",
    "normal_interval",
    "predictions_of",
    "questions_by_id",
    "read_labels",
    "read_predictions",
    "replies_of",
    "score_questions",
    "score_samples",
    "scorer",
    "summarize",
    "wilson_interval",
]
