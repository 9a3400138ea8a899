"""BEAM's event-ordering score, as ``event_ordering_score`` of mohammadtavakoli78/BEAM@b2a3ee8
(``src/evaluation/compute_metrics.py``, ``align_type="llm"``) computes it, from the judge's verdicts on (line, item)
pairs, and the walk of ``align_with_llm`` that decides which pairs the judge is asked.

The walk (``align_with_llm``, lines 136-163 at that commit): for each line of the response in order, the rubric items
in order that no earlier line matched, asking the judge (``llm_equivalence``: ``"yes" in reply.lower()``) until the
first match. :func:`first_match_walk` is that walk as a generator, shared by the score (which replays it over the
replies) and by ``himga judge`` (which asks only the pairs it reaches, as the official code does).
"""

from __future__ import annotations

from collections.abc import Generator

from himga.errors import MissingDependencyError

__all__ = ["MATCH", "event_ordering_score", "first_match_walk", "same_event", "walk"]

#: What makes a reply of ``llm_equivalence`` a match: ``"yes" in response`` after ``.lower()``.
MATCH = "yes"


def same_event(reply: str) -> bool:
    """``llm_equivalence``'s reading of a reply: ``"yes" in reply.lower()``."""
    return MATCH in reply.lower()


def first_match_walk(lines: int, items: int) -> Generator[tuple[int, int], bool, dict[int, int]]:
    """The pairs ``align_with_llm`` asks the judge about, in its order: send each pair's verdict (a match or not) to
    get the next pair.

    Args:
        lines: How many lines the response has.
        items: How many rubric items there are.

    Yields:
        ``(line, item)``: the next pair the official walk asks about (every line, the items no earlier line matched,
        until the first match).

    Returns:
        ``{line: item}``: the item each matched line was aligned with (``StopIteration.value``).
    """
    used: set[int] = set()
    match: dict[int, int] = {}
    for i in range(lines):
        for j in range(items):
            if j in used:
                continue
            if (yield (i, j)):
                used.add(j)
                match[i] = j
                break
    return match


def walk(lines: int, items: int, same) -> tuple[list[tuple[int, int]], dict[int, int] | None]:
    """:func:`first_match_walk` with ``same(i, j) -> bool | None`` (``None``: no verdict yet): ``(the pairs reached,
    in order, {line: item} or None when the walk stopped at a pair without a verdict)``; the last pair reached is
    that pair."""
    reached: list[tuple[int, int]] = []
    steps = first_match_walk(lines, items)
    try:
        pair = next(steps)
        while True:
            reached.append(pair)
            verdict = same(*pair)
            if verdict is None:
                return reached, None
            pair = steps.send(bool(verdict))
    except StopIteration as stop:
        return reached, stop.value


def event_ordering_score(reference: list[str], system: list[str], same) -> dict:
    """``event_ordering_score`` with the judge's alignment (``align_type="llm"``), as the official code computes it.

    Args:
        reference: The rubric items, in order.
        system: The response's lines, in order.
        same: ``(i, j) -> bool``: the judge's verdict that line ``i`` and item ``j`` are the same event, asked only for
            the pairs :func:`first_match_walk` reaches.

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
    _reached, match = walk(len(system), len(reference), lambda i, j: bool(same(i, j)))
    canon = [reference[match[i]] if i in match else line for i, line in enumerate(system)]
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
