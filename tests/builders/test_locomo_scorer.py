"""Acceptance: each LoCoMo QA pair's own `answer` (the builder's gold), scored by LoCoMo's official QA rule,
gets 1.0 in every category.

The rule is :func:`himga.scoring.locomo_score`, ``eval_question_answering`` of ``task_eval/evaluation.py`` in
snap-research/locomo@92286325 (branch ``code``), checked against the official code's own output on 5,481
predictions in ``tests/scoring/test_locomo_score.py``: the gold is ``str(answer)``, cut at its first ``;``
and stripped for category 3; categories 2, 3, 4 score Porter-stemmed token F1; category 1 averages, over
the gold's comma-separated parts, the best F1 against any predicted part; category 5 scores 1 iff the
prediction contains "no information available" or "not mentioned".
"""

from __future__ import annotations

from collections import defaultdict

from himga.scoring import locomo_score as _official


def locomo_score(prediction: str, qa_raw: dict) -> float:
    """The official score of ``prediction`` for the source QA dict ``qa_raw``."""
    return _official(qa_raw, prediction)


def test_every_answer_scores_one_in_all_five_categories(locomo_samples):
    scores = defaultdict(list)
    for sample in locomo_samples:
        for qa in sample.qa_pairs:
            scores[qa.raw["category"]].append(locomo_score(qa.answer, qa.raw))
    assert {c: len(v) for c, v in sorted(scores.items())} == {1: 282, 2: 321, 3: 96, 4: 841, 5: 446}
    assert {c: sum(v) / len(v) for c, v in scores.items()} == {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0}


def test_the_full_category3_text_would_not(locomo_samples):
    """The reason for the default: the full string (rationale included) scores below 1.0."""
    conv50 = locomo_samples[-1]
    qa = conv50.qa_pairs[13]
    assert (conv50.sample_id, qa.answer) == ("conv-50", "Yes")
    assert round(locomo_score(str(qa.raw["answer"]), qa.raw), 3) == 0.167  # 1 shared token of 11: 2/12
    full = [
        locomo_score(str(q.raw["answer"]), q.raw) for s in locomo_samples for q in s.qa_pairs if q.raw["category"] == 3
    ]
    assert sum(score < 1.0 for score in full) == 11


def test_rule_details():
    assert locomo_score("Paris, Rome", {"category": 1, "answer": "Rome, Paris"}) == 1.0
    assert locomo_score("Paris", {"category": 1, "answer": "Rome, Paris"}) == 0.5
    assert locomo_score("Not mentioned in the conversation", {"category": 5}) == 1.0
    assert locomo_score("Rex", {"category": 5, "adversarial_answer": "Rex"}) == 0.0
    assert (
        locomo_score("The cat, and a dog!", {"category": 4, "answer": "cats dog"}) == 1.0
    )  # articles, punctuation, stems
