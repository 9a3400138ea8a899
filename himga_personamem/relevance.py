"""PersonaMem's retrieval labels: none. The release marks no turn as the evidence of a question (its
``distance_to_ref_in_blocks`` and ``distance_to_ref_in_tokens`` columns say how far back the reference lies, not
which turn it is), so no question's retrieval is evaluable; the candidates are every turn, ids ``"0"``, ``"1"``, ...
(their index in the shared context). Question ids are the release's UUIDs, unique across the file: not scoped by
sample (an item id is the ``question_id``)."""

from __future__ import annotations

from himga.schema.relevance import Relevance, RelevanceRule

__all__ = ["RULE"]


def _judge(sample, qa) -> Relevance:
    return Relevance([], [], False, "no evidence")


def _turns(session) -> list[tuple[str, object]]:
    return [(m.turn_id, m) for m in session.messages if m.turn_id is not None]


def _session_text(session) -> str:
    return "\n".join(m.content for m in session.messages)


#: The rule: no relevance labels, every turn a candidate, ids unique across the dataset.
RULE = RelevanceRule(judge=_judge, turns=_turns, session_text=_session_text, scoped_ids=False)
