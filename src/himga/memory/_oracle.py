"""``oracle``: only the evidence of each question (``himga run --memory oracle``): the upper bound papers print.

It reads gold, so it is a reference, never a system: its manifest says ``reads_gold`` and the runner hands it what no
other memory gets: the Sample (``bind``) and the question asked (``select``). The evidence is the benchmark's own:
LongMemEval's answer sessions, LoCoMo's (and REALTALK's, LoCoMo-Plus's) evidence turns or the sessions holding them,
BEAM's source messages or their batches. Its items are the evidence's messages, in order, with their view ids, so
retrieval recall is 1.0 by construction where the evidence resolves.
"""

from __future__ import annotations

from himga.memory._protocol import BaseMemory, MemoryMessage, Retrieved
from himga.memory._reference import register_memory

__all__ = ["Oracle"]


@register_memory("oracle")
class Oracle(BaseMemory):
    """The evidence of each question: its relevance labels' turns or sessions.

    Args:
        unit: ``"session"`` (every message of the relevant sessions, default) or ``"turn"`` (the relevant turns only:
            LoCoMo's evidence turns, LongMemEval's user turns with ``has_answer``).
    """

    reads_gold = True

    def __init__(self, unit: str = "session"):
        if unit not in ("turn", "session"):
            raise TypeError(f"unit: expected 'turn' or 'session', got {unit!r}")
        self.unit = unit

    def reset(self) -> None:
        self.messages: list[MemoryMessage] = []
        self._turns: set[str] = set()
        self._sessions: set[str] = set()

    def bind(self, sample) -> None:
        """Take the grader's Sample of the history about to be ingested (the runner calls it after :meth:`reset`)."""
        from himga.schema.view import view_ids

        self.sample = sample
        ids = view_ids(sample)
        self._session_view = {source: view for view, source in ids.sessions.items()}
        self._turn_view = {source: view for view, source in ids.turns.items() if source is not None}
        self._questions = dict(zip(ids.questions.values(), sample.qa_pairs, strict=True))

    def select(self, item_id: str) -> None:
        """Which question the next :meth:`retrieve` answers (the runner calls it with the question's item id).

        Its relevance labels (:meth:`himga.schema.Sample.relevance`, the official retrieval rule, which mends
        malformed references) and its evidence (:class:`himga.schema.EvidenceRef`: LongMemEval's answer sessions
        count for an abstention or a question without a ``has_answer`` turn too, which the retrieval evaluation
        leaves out) say what to give; ``unit="turn"`` gives the evidence sessions where no turn is named.
        """
        qa = self._questions[item_id]
        relevance = self.sample.relevance(qa)
        turns = {self._turn_view[t] for t in [*relevance.turns, *qa.evidence.turn_ids] if t in self._turn_view}
        sessions = {
            self._session_view[s] for s in [*relevance.sessions, *qa.evidence.session_ids] if s in self._session_view
        }
        if self.unit == "turn" and turns:
            self._turns, self._sessions = turns, set()
        else:
            self._turns, self._sessions = set(), sessions

    def ingest(self, message: MemoryMessage) -> None:
        self.messages.append(message)

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> list[Retrieved]:
        chosen = [m for m in self.messages if m.turn_id in self._turns or m.session_id in self._sessions]
        return [Retrieved(m.content, m.turn_id, date_str=m.date_str, role=m.role) for m in chosen]
