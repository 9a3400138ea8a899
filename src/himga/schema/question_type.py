"""The question categories of every benchmark: :class:`QuestionType`, a field type of :mod:`himga.schema.sample`."""

from __future__ import annotations

import enum

__all__ = ["QuestionType"]


class QuestionType(enum.StrEnum):
    """Question categories of LoCoMo, LongMemEval and BEAM, for per-category scoring.

    A :class:`enum.StrEnum`: a member *is* its value everywhere — ``QuestionType.TEMPORAL ==
    "temporal"``, and ``str()``, f-strings and ``json.dumps`` all give ``temporal``. Arrow rows store
    the value.

    LoCoMo's integer ``category`` maps to the first five (see ``himga_locomo`` for the mapping);
    LongMemEval's ``question_type`` (``"single-session-user"`` or ``"single_session_user"``) to the next six;
    BEAM's ten abilities (the keys of ``probing_questions.json``) to their own names, two of them shared with
    LongMemEval (``knowledge_update``, ``temporal_reasoning``: the same abilities under the same names).
    """

    # LoCoMo
    SINGLE_HOP = "single_hop"
    MULTI_HOP = "multi_hop"
    TEMPORAL = "temporal"
    OPEN_DOMAIN = "open_domain"
    ADVERSARIAL = "adversarial"

    # LongMemEval
    SINGLE_SESSION_PREFERENCE = "single_session_preference"
    SINGLE_SESSION_ASSISTANT = "single_session_assistant"
    TEMPORAL_REASONING = "temporal_reasoning"
    MULTI_SESSION = "multi_session"
    KNOWLEDGE_UPDATE = "knowledge_update"
    SINGLE_SESSION_USER = "single_session_user"

    # BEAM (besides KNOWLEDGE_UPDATE and TEMPORAL_REASONING)
    ABSTENTION = "abstention"
    CONTRADICTION_RESOLUTION = "contradiction_resolution"
    EVENT_ORDERING = "event_ordering"
    INFORMATION_EXTRACTION = "information_extraction"
    INSTRUCTION_FOLLOWING = "instruction_following"
    MULTI_SESSION_REASONING = "multi_session_reasoning"
    PREFERENCE_FOLLOWING = "preference_following"
    SUMMARIZATION = "summarization"
    # LoCoMo-Plus (its LoCoMo questions keep LoCoMo's types; REALTALK's categories 1-3 are LoCoMo's)
    COGNITIVE = "cognitive"
