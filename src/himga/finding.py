"""One data-quality finding of ``himga validate`` (:mod:`himga.validate`), the type the builders' validate rules
yield (``himga_locomo.validate_rules``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding"]


@dataclass(frozen=True)
class Finding:
    """One data-quality finding.

    Attributes:
        kind: A key of the dataset's kinds, e.g. ``"malformed_evidence"``.
        sample_id: The sample (LoCoMo conversation, LongMemEval question) it is in.
        where: Inside the sample, e.g. ``"QA 37"``, ``"session answer_4be1b6b4_2"``; ``""`` for the sample.
        detail: What was found, e.g. ``"'D8:6; D9:17' -> D8:6, D9:17"``.
    """

    kind: str
    sample_id: str
    where: str
    detail: str
