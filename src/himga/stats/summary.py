"""Summary statistics of a loaded benchmark (the HiMGA seed's §6.6 recipe), as data and as text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from himga.schema.sample import Sample

__all__ = ["dataset_stats", "format_stats"]


def _min_max_avg(values: Sequence[int]) -> dict[str, float]:
    if not values:
        return {"min": 0, "max": 0, "avg": 0.0}
    return {"min": min(values), "max": max(values), "avg": round(sum(values) / len(values), 2)}


def dataset_stats(samples: Iterable[Sample], *, per_sample: bool = False) -> dict[str, Any]:
    """Counts over Samples, in one pass (a list, or a lazy sequence over a large cache).

    Args:
        samples: The Samples.
        per_sample: Also return ``per_sample``: ``{"sample_ids": [...], "sessions": [...],
            "messages": [...]}``, one entry per sample in order (what the plot draws).

    Returns:
        ``samples``, ``sessions`` (total), ``sessions_per_sample`` (min/max/avg), ``messages`` (total
        turns), ``qa_pairs``, ``question_types`` (value → count, most common first) and
        ``abstentions`` (QA pairs with ``is_abstention``).
    """
    types: Counter[str] = Counter()
    ids: list[str] = []
    sessions: list[int] = []
    messages: list[int] = []
    abstentions = 0
    for sample in samples:
        ids.append(sample.sample_id)
        sessions.append(len(sample.sessions))
        messages.append(sum(len(session.messages) for session in sample.sessions))
        types.update(qa.question_type.value for qa in sample.qa_pairs)
        abstentions += sum(qa.is_abstention for qa in sample.qa_pairs)
    stats = {
        "samples": len(sessions),
        "sessions": sum(sessions),
        "sessions_per_sample": _min_max_avg(sessions),
        "messages": sum(messages),
        "qa_pairs": sum(types.values()),
        "question_types": dict(types.most_common()),
        "abstentions": abstentions,
    }
    if per_sample:
        stats["per_sample"] = {"sample_ids": ids, "sessions": sessions, "messages": messages}
    return stats


def format_stats(name: str, stats: dict[str, Any], *, rows: dict[str, str] | None = None) -> str:
    """Render :func:`dataset_stats` as an aligned text table.

    Args:
        name: The heading, e.g. ``"locomo"`` or ``"longmemeval (oracle)"``.
        stats: From :func:`dataset_stats`.
        rows: Question type → the row ``himga score`` prints it in, where that name differs: the type is followed by
            that name (``temporal_reasoning  (score: temporal-reasoning)``).

    Returns:
        The lines joined by ``\n`` (no trailing newline), as ``himga stats`` prints them.
    """
    per = stats["sessions_per_sample"]
    lines = [
        f"{name}",
        f"  samples                {stats['samples']:>10,}",
        f"  sessions               {stats['sessions']:>10,}",
        f"  sessions per sample    min {per['min']}  max {per['max']}  avg {per['avg']:.1f}",
        f"  messages (turns)       {stats['messages']:>10,}",
        f"  QA pairs               {stats['qa_pairs']:>10,}",
        f"  abstention questions   {stats['abstentions']:>10,}",
        "  QA pairs by question type:",
    ]
    width = max([28, *map(len, stats["question_types"])])  # PersonaMem's types run to 45 characters
    rows = rows or {}
    lines += [
        f"    {qtype:<{width}} {count:>7,}" + (f"  (score: {rows[qtype]})" if qtype in rows else "")
        for qtype, count in stats["question_types"].items()
    ]
    return "\n".join(lines)
