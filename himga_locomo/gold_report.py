"""LoCoMo's gold variants as the catalogue entry names them (``gold_variants``): the variants, the errata file a
build reads, and how many QA pairs a variant changes, from built Samples (``himga stats locomo --gold audited``).

Not part of the cache key: the rule that changes rows is :mod:`himga_locomo.gold`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from himga_locomo.gold import GOLD_VARIANTS, errata_path
from himga_locomo.records import AUDIT_KEY

__all__ = ["VARIANTS", "audit_summary", "errata_file", "format_audit_summary", "format_summary", "summary"]

#: Gold variant → what it is, the default (``published``) first.
VARIANTS = GOLD_VARIANTS
#: The errata file a build with ``errata=`` reads (``None``: the pinned file): :func:`himga_locomo.gold.errata_path`.
errata_file = errata_path


def audit_summary(samples: Iterable[Any]) -> dict[str, Any]:
    """How many QA pairs an errata file changed, from built Samples (``gold="audited"``).

    Args:
        samples: :class:`himga.data.Sample` objects of LoCoMo (a list or a lazy sequence).

    Returns:
        ``{"gold", "errata", "errata_sha256", "qa_pairs", "audited", "answer_changed",
        "evidence_changed", "by_category": {category: n}, "by_error_type": {type: n}}``; ``audited`` counts
        the QA pairs an entry names, ``by_*`` sorted by count, then name. ``gold`` is ``"published"`` (and
        the counts 0) for Samples built without errata.
    """
    by_category: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    gold: dict[str, Any] = {"variant": "published", "errata": None, "errata_sha256": None}
    total = 0
    for sample in samples:
        gold = sample.raw.get("gold", gold)
        for qa in sample.qa_pairs:
            total += 1
            if (audit := qa.raw.get(AUDIT_KEY)) is not None:
                by_category[str(qa.raw["category"])] += 1
                by_type[audit["error_type"]] += 1
                changed.update(audit["changed"])

    def ordered(counter: Counter) -> dict[str, int]:
        return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))

    return {
        "gold": gold["variant"],
        "errata": gold["errata"],
        "errata_sha256": gold["errata_sha256"],
        "qa_pairs": total,
        "audited": sum(by_type.values()),
        "answer_changed": changed["answer"],
        "evidence_changed": changed["evidence"],
        "by_category": ordered(by_category),
        "by_error_type": ordered(by_type),
    }


def format_audit_summary(summary: dict[str, Any]) -> str:
    """:func:`audit_summary` as the lines ``himga stats locomo --gold audited`` prints."""
    lines = [
        f"gold: {summary['gold']} ({summary['errata']}, sha256 {summary['errata_sha256']})",
        f"  QA pairs corrected     {summary['audited']:>10,} of {summary['qa_pairs']:,}",
        f"  answer changed         {summary['answer_changed']:>10,}",
        f"  evidence changed       {summary['evidence_changed']:>10,}",
        "  corrected by category:",
        *(f"    category {category:<19} {n:>7,}" for category, n in summary["by_category"].items()),
        "  corrected by error type:",
        *(f"    {kind:<28} {n:>7,}" for kind, n in summary["by_error_type"].items()),
    ]
    return "\n".join(lines)


#: The catalogue's names for the two functions above.
summary = audit_summary
format_summary = format_audit_summary
