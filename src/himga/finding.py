"""One data-quality finding of ``himga validate`` (:mod:`himga.validate`), the type the builders' validate rules
yield (``himga_locomo.validate_rules``), and the rules they share (:func:`blank_turns`, :func:`unknown_roles`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["CHAT_ROLES", "Finding", "blank_turns", "unknown_roles"]

#: The roles of a chat between a user and an assistant (LongMemEval, BEAM).
CHAT_ROLES = ("user", "assistant")


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


def unknown_roles(sample: Any, roles: tuple[str, ...] = CHAT_ROLES) -> Iterator[tuple[int, int, Any]]:
    """The turns of ``sample`` whose role is not one of ``roles``, in source order: ``(session index, turn index,
    message)``. The builders keep the role as the source gives it: a memory system reads it as it is."""
    for i, session in enumerate(sample.sessions):
        for j, message in enumerate(session.messages):
            if message.role not in roles:
                yield i, j, message
