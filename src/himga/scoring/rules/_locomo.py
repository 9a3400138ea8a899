"""LoCoMo's answer score: the official token F1, per QA pair, exactly.

Source: snap-research/locomo, branch ``code``, commit ``92286325a40764bee61f77824ddb95233b11c4d6`` ("Code
commit", 2024-08-07; the only commit holding ``task_eval/evaluation.py``), functions ``normalize_answer``,
``f1_score``, ``f1`` and ``eval_question_answering``. The rules, as read there:

- gold: ``str(line['answer'])``; category 3: the text before the first ``;``, stripped;
- normalize: delete ``,``; lower-case; delete ``string.punctuation``; replace the words a, an, the, and
  (``\\b(a|an|the|and)\\b`` with the ``regex`` module) by a space; split on whitespace;
- stem each token with nltk's ``PorterStemmer()``; token F1 over the multisets (0 when nothing is shared);
- categories 2, 3, 4: that F1; category 1 (multi-hop): gold and prediction split on ``,`` and stripped,
  each gold part scored by its best prediction part, averaged with ``numpy.mean``;
- category 5 (adversarial): 1 when the lower-cased prediction contains ``no information available`` or
  ``not mentioned``, else 0.

The same libraries are used (``regex``, nltk's stemmer, numpy's mean) so that every value is the official
one bit for bit; ``tests/fixtures/scoring/official-locomo-scores.json`` holds the official code's output
for 5,481 predictions (1,986 real QA pairs, generated predictions, nine extra records) and the tests compare every row.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping
from functools import cache, lru_cache

from himga.errors import ConfigurationError, MissingDependencyError, type_name

__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_ORDER",
    "SOURCE",
    "TYPE_LABELS",
    "gold_answer",
    "gold_options",
    "locomo_score",
    "normalize_answer",
    "qa_record",
]

#: Where the rules were read.
SOURCE = {
    "repository": "snap-research/locomo",
    "path": "task_eval/evaluation.py",
    "branch": "code",
    "commit": "92286325a40764bee61f77824ddb95233b11c4d6",
    "functions": ["normalize_answer", "f1_score", "f1", "eval_question_answering"],
}

#: The authors' category names (``task_eval``'s numbering).
CATEGORY_NAMES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}

#: The papers' order: single-hop, multi-hop, temporal, open-domain (commonsense or world knowledge),
#: adversarial (the LoCoMo project page ``index.html`` at 92286325, and the paper's QA table).
CATEGORY_ORDER = (4, 1, 2, 3, 5)

#: The label sets a run's records may copy LoCoMo's ``question_type`` in, by category (compared as
#: :func:`himga.scoring.inputs._type_labels.label_key`): the authors' (himga's default), the seed docs' (also what mem0,
#: MIRIX, Memobase and Cognee print: 1 single-hop, 3 multi-hop, 4 open-domain), MemPalace's (3 temporal-inference) and
#: Zep's README (2 and 3 swapped). Read in each project's files and code (docs/scoring-a-run.md).
TYPE_LABELS: dict[str, dict[int, str]] = {
    "authors": dict(CATEGORY_NAMES),
    "seed": {1: "single_hop", 2: "temporal", 3: "multi_hop", 4: "open_domain", 5: "adversarial"},
    "mempalace": {1: "single_hop", 2: "temporal", 3: "temporal_inference", 4: "open_domain", 5: "adversarial"},
    "zep-readme": {1: "multi_hop", 2: "open_domain", 3: "temporal", 4: "single_hop", 5: "adversarial"},
}

_ABSTAIN = ("no information available", "not mentioned")
_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)  # the official ''.join(ch for ch ... not in exclude)


@cache
def _libraries():
    """``(regex pattern of the words removed, PorterStemmer().stem)``: the libraries the official code uses (the
    stemmer's results remembered for the 65,536 words last stemmed)."""
    try:
        import regex
        from nltk.stem import PorterStemmer
    except ImportError as e:
        raise MissingDependencyError(
            "LoCoMo's official score needs nltk and regex, which are not installed: pip install 'himga[scoring]'"
        ) from e
    # a stem depends on the word alone: remembered, a long answer's repeated words are stemmed once each
    return regex.compile(r"\b(a|an|the|and)\b"), lru_cache(maxsize=1 << 16)(PorterStemmer().stem)


def normalize_answer(text: str) -> str:
    """LoCoMo's ``normalize_answer``: no commas, lower case, no punctuation, no a/an/the/and, single spaces.

    Raises:
        MissingDependencyError: ``regex`` is not installed (``pip install 'himga[scoring]'``).
    """
    articles, _ = _libraries()
    text = text.replace(",", "").lower()
    text = text.translate(_NO_PUNCTUATION)
    return " ".join(articles.sub(" ", text).split())


def _token_f1(prediction: str, gold: str) -> float:
    """LoCoMo's ``f1_score``: F1 of the Porter-stemmed normalized tokens."""
    _, stem = _libraries()
    pred = [stem(w) for w in normalize_answer(prediction).split()]
    truth = [stem(w) for w in normalize_answer(gold).split()]
    same = sum((Counter(pred) & Counter(truth)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(truth)
    return (2 * precision * recall) / (precision + recall)


def _multi_answer_f1(prediction: str, gold: str) -> float:
    """LoCoMo's ``f1``: each comma-separated gold part scored by its best prediction part, then the mean."""
    import numpy as np  # a dependency of datasets; its pairwise sum is what the official mean adds up

    predictions = [p.strip() for p in prediction.split(",")]
    return float(np.mean([max(_token_f1(p, g.strip()) for p in predictions) for g in gold.split(",")]))


def qa_record(qa) -> Mapping:
    """The source QA record of a LoCoMo QAPair (``qa.raw``), or ``qa`` itself when it is that dict.

    Raises:
        ConfigurationError: no record with a ``category`` of 1–5.
    """
    record = qa if isinstance(qa, Mapping) else getattr(qa, "raw", None)
    if not isinstance(record, Mapping) or record.get("category") not in CATEGORY_NAMES:
        got = record.get("category") if isinstance(record, Mapping) else record
        raise ConfigurationError(
            f"locomo_score: expected a LoCoMo QAPair (raw.category 1–5) or its source record, got {got!r}"
        )
    return record


def gold_answer(qa) -> str | None:
    """The gold text the official code scores against: ``str(answer)``, category 3 cut at its first ``;``;
    under ``gold="audited"`` the answer an errata entry corrects (``raw["gold_audit"]["answer"]``).

    Returns:
        ``None`` for category 5, whose score does not read the gold.

    Raises:
        ConfigurationError: ``qa`` is not a LoCoMo QA pair.
    """
    record = qa_record(qa)
    if record["category"] == 5:
        return None
    audit = record.get("gold_audit")  # gold="audited": the errata's corrected answer (himga_locomo.gold)
    answer = str(audit["answer"] if isinstance(audit, Mapping) and "answer" in audit else record["answer"])
    return answer.split(";")[0].strip() if record["category"] == 3 else answer


def locomo_score(qa, prediction: str) -> float:
    """The official LoCoMo score of one prediction, in [0, 1].

    Args:
        qa: A LoCoMo :class:`~himga.data.QAPair` (its ``raw`` source record gives the category and the
            gold, whatever the builder options) or the source QA dict itself.
        prediction: The system's answer.

    Returns:
        The value ``eval_question_answering`` (snap-research/locomo@92286325, ``task_eval/evaluation.py``)
        gives this QA pair, as a float.

    Raises:
        ConfigurationError: ``qa`` is not a LoCoMo QA pair, or ``prediction`` is not a string.
        MissingDependencyError: nltk or regex is not installed (``pip install 'himga[scoring]'``).
    """
    if not isinstance(prediction, str):
        raise ConfigurationError(f"locomo_score: prediction: expected a string, got {type_name(prediction)}")
    record = qa_record(qa)
    category = record["category"]
    if category == 5:
        lowered = prediction.lower()
        return 1.0 if any(phrase in lowered for phrase in _ABSTAIN) else 0.0
    gold = gold_answer(record)
    return _multi_answer_f1(prediction, gold) if category == 1 else _token_f1(prediction, gold)


def gold_options() -> dict:
    """The gold rules of the score, for the run record."""
    return {
        "category_order": {str(c): CATEGORY_NAMES[c] for c in CATEGORY_ORDER},
        "gold": "raw answer of the source QA record, str() of integers; under gold='audited' the errata's "
        "correct_answer",
        "category_3": "gold before the first ';', stripped",
        "category_5": "1 if the lower-cased prediction contains 'no information available' or 'not mentioned', else 0",
        "category_1": "gold and prediction split on ',', each gold part scored by its best prediction part, mean",
    }
