"""A LoCoMo-Plus Sample → the source record it was built from: a LoCoMo sample record (LoCoMo's own
:func:`himga_locomo.source_record.sample_to_record`), or the cognitive item of ``locomo_plus.json``.

Shapes no row, so it is not part of the cache key.
"""

from __future__ import annotations

from typing import Any

from himga.schema.sample import QuestionType
from himga_locomo import source_record

__all__ = ["is_cognitive", "sample_to_record"]


def is_cognitive(sample) -> bool:
    """Whether ``sample`` is a cognitive item's (its one QA pair is of type ``cognitive``), not a LoCoMo
    conversation."""
    return any(qa.question_type == QuestionType.COGNITIVE for qa in sample.qa_pairs)


def sample_to_record(sample) -> dict[str, Any]:
    """The source record of a LoCoMo-Plus Sample.

    Args:
        sample: A :class:`himga.data.Sample` with ``dataset == "locomo_plus"``.

    Returns:
        A cognitive item as in ``locomo_plus.json`` (its QA pair's ``raw``), or the LoCoMo sample record (equal, as a
        JSON value, to the record of ``locomo10.json`` the row was built from).
    """
    if is_cognitive(sample):
        return dict(sample.qa_pairs[0].raw)
    return source_record.sample_to_record(sample)
