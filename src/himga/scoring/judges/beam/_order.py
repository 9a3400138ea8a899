"""BEAM's event-ordering score, as ``event_ordering_score`` of mohammadtavakoli78/BEAM@b2a3ee8
(``src/evaluation/compute_metrics.py``, ``align_type="llm"``) computes it, from the judge's verdicts on (line, item)
pairs."""

from __future__ import annotations

from himga.errors import MissingDependencyError

__all__ = ["event_ordering_score"]


def event_ordering_score(reference: list[str], system: list[str], same) -> dict:
    """``event_ordering_score`` with the judge's alignment (``align_type="llm"``), as the official code computes it.

    Args:
        reference: The rubric items, in order.
        system: The response's lines, in order.
        same: ``(i, j) -> bool``: the judge's verdict that line ``i`` and item ``j`` are the same event.

    Returns:
        ``{"precision", "recall", "f1", "tau_norm", "final_score"}``: each line replaced by the first unused item the
        judge matches it with, then precision, recall and F1 of the replaced list against the items, Kendall's
        tau-b of the two rank lists (``scipy.stats.kendalltau``, items absent from a list ranked last, tied),
        ``tau_norm = (tau + 1) / 2`` (``nan`` when a rank list is constant, as scipy gives it) and
        ``final_score = tau_norm * f1``.

    Raises:
        MissingDependencyError: scipy is not installed.
    """
    try:
        from scipy.stats import kendalltau
    except ImportError:
        raise MissingDependencyError("BEAM's event-ordering score needs scipy: pip install 'himga[scoring]'") from None
    used: set[int] = set()
    canon = []
    for i, line in enumerate(system):
        match = next((j for j in range(len(reference)) if j not in used and same(i, j)), None)
        canon.append(line if match is None else reference[match])
        if match is not None:
            used.add(match)
    tp = len(set(reference) & set(canon))
    fp = sum(x not in reference for x in canon)
    fn = sum(x not in canon for x in reference)
    precision = tp / (tp + fp) if tp + fp else 0
    recall = tp / (tp + fn) if tp + fn else 0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
    union = list(dict.fromkeys(reference + canon))
    last = len(union) + 1

    def ranks(items: list[str]) -> list[int]:
        rank = {item: i + 1 for i, item in enumerate(items)}
        return [rank.get(u, last) for u in union]

    tau = kendalltau(ranks(reference), ranks(canon), variant="b", method="auto")[0]
    tau_norm = (tau + 1) / 2 if tau is not None else 0
    return {"precision": precision, "recall": recall, "f1": f1, "tau_norm": tau_norm, "final_score": tau_norm * f1}
