"""One data-quality finding of ``himga validate`` (:mod:`himga.validate`), the type the builders' validate rules
yield (``himga_locomo.validate_rules``), and the rules they share (:func:`blank_turns`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Finding", "blank_turns"]


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


def blank_turns(sample: Any) -> Iterator[tuple[int, int, Any]]:
    """The turns of ``sample`` (a :class:`himga.data.Sample`) whose text is empty or whitespace only, in source order:
    ``(session index, turn index, message)``. A memory system is given nothing to remember there; the builders keep
    the text as it is, and each benchmark's rules word the finding with its own locators (LoCoMo's turn ids,
    LongMemEval's haystack positions)."""
    for i, session in enumerate(sample.sessions):
        for j, message in enumerate(session.messages):
            if not message.content.strip():
                yield i, j, message
