"""The question categories of every benchmark: :class:`QuestionType`, a field type of :mod:`himga.schema.sample`."""

from __future__ import annotations

import enum

__all__ = ["PERSONAMEM_TYPES", "QuestionType"]


class QuestionType(enum.StrEnum):
    """Question categories of LoCoMo, LongMemEval and BEAM, for per-category scoring.

    A :class:`enum.StrEnum`: a member *is* its value everywhere — ``QuestionType.TEMPORAL ==
    "temporal"``, and ``str()``, f-strings and ``json.dumps`` all give ``temporal``. Arrow rows store
    the value.

    LoCoMo's integer ``category`` maps to the first five (see ``himga_locomo`` for the mapping);
    LongMemEval's ``question_type`` (``"single-session-user"`` or ``"single_session_user"``) to the next six;
    BEAM's ten abilities (the keys of ``probing_questions.json``) to their own names, two of them shared with
    LongMemEval (``knowledge_update``, ``temporal_reasoning``: the same abilities under the same names); PersonaMem's
    seven ``question_type`` values to members spelled as the file spells them.
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

    # PersonaMem (``question_type`` as the release spells it; the last looks like a second spelling of the first,
    # and stays apart: ``himga validate personamem`` lists it)
    RECALL_USER_SHARED_FACTS = "recall_user_shared_facts"
    PROVIDE_PREFERENCE_ALIGNED_RECOMMENDATIONS = "provide_preference_aligned_recommendations"
    SUGGEST_NEW_IDEAS = "suggest_new_ideas"
    RECALLING_THE_REASONS_BEHIND_PREVIOUS_UPDATES = "recalling_the_reasons_behind_previous_updates"
    TRACK_FULL_PREFERENCE_EVOLUTION = "track_full_preference_evolution"
    GENERALIZING_TO_NEW_SCENARIOS = "generalizing_to_new_scenarios"
    RECALLING_FACTS_MENTIONED_BY_THE_USER = "recalling_facts_mentioned_by_the_user"


#: PersonaMem's seven question types, in the order ``questions_32k.csv`` first lists them: the members from
#: :attr:`QuestionType.RECALL_USER_SHARED_FACTS` on. The builder checks a row's type against them and the scorer's
#: table has a row for each, in this order.
PERSONAMEM_TYPES: tuple[str, ...] = tuple(
    str(t) for t in list(QuestionType)[list(QuestionType).index(QuestionType.RECALL_USER_SHARED_FACTS) :]
)
