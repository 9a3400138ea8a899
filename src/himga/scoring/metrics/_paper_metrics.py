"""The metrics memory-system papers print beside LoCoMo's official F1: exact match, set-based F1, BLEU-1.

**Not official**: LoCoMo's own scorer is :func:`himga.scoring.locomo_score`. These are the per-question metrics of
three projects whose tables are compared with each other, each equal to its source code's output
(``tests/fixtures/scoring/official-paper-metrics.json``, made by running that code):

- ``amem``: WujiangXu/A-mem ``utils.py`` at commit ``0c8039f28fdcc08189a23c07a3437d9d2482f9c2`` (the file last
  changed in 85787ea), ``simple_tokenize``, ``calculate_bleu_scores`` and ``calculate_metrics``; the reference is
  ``QA.final_answer`` of its ``load_dataset.py`` (category 5: the ``adversarial_answer``).
- ``mem0``: mem0ai/mem0 ``evaluation/metrics/utils.py`` at ``b3ede5b7c0ac0e847b03786a603c107ac943b3ee`` (the parent
  of 9315e30, which removed ``evaluation/``): the same functions, "borrowed" from A-mem; ``evaluation/evals.py``
  skips category 5 and scores ``str(answer)``.
- ``magma``: FredJiang0324/MAMGA ``utils/utils.py`` at ``11fd2a6ac8dd27abd32a3a3c6d93a8c13e01d4b4``:
  ``calculate_metrics(prediction, reference, category)``, A-mem's metrics except category 5, which scores 1 on
  every metric when ``is_unanswerable(prediction)`` and 0 otherwise.

The rules, as read there: an empty prediction or reference scores 0 on every metric; otherwise both are
``str()``-ed and stripped; exact match is ``prediction.lower() == reference.lower()``; F1 is over the *sets* of
``simple_tokenize`` tokens (lower case, ``. , ! ?`` replaced by spaces, split on whitespace; no stemming, no
punctuation removal beyond those four); BLEU-1 is nltk's ``sentence_bleu`` with weights ``(1, 0, 0, 0)`` and
``SmoothingFunction().method1`` over ``nltk.word_tokenize`` of the lower-cased texts (0 when nltk raises).
``nltk.word_tokenize`` splits sentences with nltk's Punkt model, the ``punkt_tab`` data package
(``python -m nltk.downloader punkt_tab``), as those projects' own runs do. Only BLEU-1 needs it: exact match and F1
split on whitespace (:func:`simple_tokenize`), so without Punkt they are computed and BLEU-1 is left out, saying why
(:func:`bleu_missing`).
"""

from __future__ import annotations

from functools import cache

from himga.errors import MissingDependencyError

__all__ = [
    "FAMILIES",
    "SOURCES",
    "bleu1",
    "bleu_missing",
    "exact_match",
    "magma_unanswerable",
    "paper_scores",
    "set_f1",
    "simple_tokenize",
]

#: The metric families, in the order tables show them.
FAMILIES = ("amem", "mem0", "magma")

#: Where each family's rules were read.
SOURCES = {
    "amem": {
        "name": "A-Mem",
        "repository": "WujiangXu/A-mem",
        "path": "utils.py",
        "commit": "0c8039f28fdcc08189a23c07a3437d9d2482f9c2",
        "functions": ["simple_tokenize", "calculate_bleu_scores", "calculate_metrics", "aggregate_metrics"],
        "category_5": "scored against the adversarial_answer (load_dataset.py QA.final_answer)",
    },
    "mem0": {
        "name": "mem0",
        "repository": "mem0ai/mem0",
        "path": "evaluation/metrics/utils.py",
        "commit": "b3ede5b7c0ac0e847b03786a603c107ac943b3ee",
        "functions": ["simple_tokenize", "calculate_bleu_scores", "calculate_metrics"],
        "category_5": "not scored (evaluation/evals.py skips it)",
    },
    "magma": {
        "name": "MAGMA",
        "repository": "FredJiang0324/MAMGA",
        "path": "utils/utils.py",
        "commit": "11fd2a6ac8dd27abd32a3a3c6d93a8c13e01d4b4",
        "functions": ["is_unanswerable", "calculate_metrics"],
        "category_5": "1 on every metric if is_unanswerable(prediction), else 0",
    },
}

METRICS = ("exact_match", "f1", "bleu1")

_UNANSWERABLE_VALUES = {"", "n/a", "na", "none", "null", "unanswerable"}
_UNANSWERABLE_PATTERNS = (
    "not mentioned",
    "not in the conversation",
    "cannot answer",
    "can't answer",
    "insufficient",
    "unknown",
    "no information",
    "not provided",
    "information not found",
    "not found",
    "not available",
    "no data",
)


def simple_tokenize(text) -> list[str]:
    """A-mem's ``simple_tokenize``: lower case, ``. , ! ?`` → space, split on whitespace."""
    return str(text).lower().replace(".", " ").replace(",", " ").replace("!", " ").replace("?", " ").split()


def exact_match(prediction: str, reference: str) -> int:
    """1 if the stripped texts are equal ignoring case (``calculate_metrics``'s ``exact_match``), else 0."""
    return int(str(prediction).strip().lower() == str(reference).strip().lower())


def set_f1(prediction: str, reference: str) -> float:
    """F1 of the token *sets* of :func:`simple_tokenize` (0 when either set is empty or nothing is shared)."""
    pred, ref = set(simple_tokenize(str(prediction).strip())), set(simple_tokenize(str(reference).strip()))
    if not pred or not ref:
        return 0.0
    common = pred & ref
    precision, recall = len(common) / len(pred), len(common) / len(ref)
    return 2 * precision * recall / (precision + recall) if (precision + recall) > 0 else 0.0


@cache
def _nltk():
    """``(word_tokenize, sentence_bleu, SmoothingFunction().method1)``, the Punkt data checked once."""
    try:
        import nltk
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    except ImportError as e:
        raise MissingDependencyError("BLEU-1 needs nltk, which is not installed: pip install 'himga[scoring]'") from e
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        raise MissingDependencyError(
            "BLEU-1 as A-Mem, mem0 and MAGMA compute it tokenizes with nltk.word_tokenize, which needs nltk's Punkt "
            "model: python -m nltk.downloader punkt_tab (or set NLTK_DATA to a folder holding tokenizers/punkt_tab)"
        ) from None
    return nltk.word_tokenize, sentence_bleu, SmoothingFunction().method1


def bleu_missing() -> str | None:
    """Why BLEU-1 cannot be computed here (nltk, or its Punkt model for ``nltk.word_tokenize``, is missing; the
    message says how to get it), or ``None`` when it can."""
    try:
        _nltk()
    except MissingDependencyError as e:
        return str(e)
    return None


def bleu1(prediction: str, reference: str) -> float:
    """``calculate_bleu_scores(...)["bleu1"]`` of the stripped texts: nltk's sentence BLEU with weights (1, 0, 0, 0).

    Raises:
        MissingDependencyError: nltk or its ``punkt_tab`` data is missing (the message says how to get them).
    """
    tokenize, sentence_bleu, method1 = _nltk()
    pred = tokenize(str(prediction).strip().lower())
    ref = [tokenize(str(reference).strip().lower())]
    try:
        return sentence_bleu(ref, pred, weights=(1, 0, 0, 0), smoothing_function=method1)
    except Exception:
        return 0.0


def magma_unanswerable(text) -> bool:
    """MAGMA's ``is_unanswerable``: empty, one of n/a, na, none, null, unanswerable, or containing a no-answer
    phrase."""
    if not text:
        return True
    lowered = text.strip().lower()
    return lowered in _UNANSWERABLE_VALUES or any(p in lowered for p in _UNANSWERABLE_PATTERNS)


def paper_scores(
    prediction, reference, *, family: str = "amem", category: int | None = None, bleu: bool = True
) -> dict[str, float | None]:
    """``{"exact_match", "f1", "bleu1"}`` of one prediction, as the family's ``calculate_metrics`` gives them.

    Args:
        prediction: The system's answer.
        reference: The reference the family scores against (see the module docstring), ``str()``-ed.
        family: ``"amem"``, ``"mem0"`` (the same rules) or ``"magma"`` (its category-5 rule first).
        category: The LoCoMo category (MAGMA's rule reads it).
        bleu: Compute BLEU-1 (``False``: ``"bleu1"`` is ``None``; exact match and F1 need no tokenizer model).

    Raises:
        MissingDependencyError: ``bleu`` and nltk or its ``punkt_tab`` data is missing.
    """
    if family == "magma" and category == 5:
        value = 1 if magma_unanswerable(prediction) else 0
        return {"exact_match": value, "f1": float(value), "bleu1": float(value) if bleu else None}
    if not prediction or not reference:
        return {"exact_match": 0, "f1": 0.0, "bleu1": 0.0 if bleu else None}
    prediction, reference = str(prediction).strip(), str(reference).strip()
    return {
        "exact_match": exact_match(prediction, reference),
        "f1": set_f1(prediction, reference),
        "bleu1": bleu1(prediction, reference) if bleu else None,
    }
