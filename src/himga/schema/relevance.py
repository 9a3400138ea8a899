"""Retrieval relevance labels of a QA pair, as the official retrieval evaluations define them.

LongMemEval's are exactly the official ones; LoCoMo's differ from the official recall where stated below.

:meth:`Sample.relevance <himga.schema.sample.Sample.relevance>` and :meth:`Sample.candidates
<himga.schema.sample.Sample.candidates>` call the two functions here; :mod:`himga.qrels` writes them as TREC
files. Each benchmark's rule is a :class:`RelevanceRule` (:data:`LONGMEMEVAL`, :data:`LOCOMO`), named by its
catalogue entry (:attr:`himga.entry.Benchmark.relevance_rule`), which registers it here when it is made
(:func:`register_rule`). This module imports only :mod:`himga.errors` (the Sample, Session, Message and QAPair it
reads are duck-typed), so :mod:`himga.schema.sample` can import it without a cycle.

**LongMemEval** — ``src/retrieval/run_retrieval.py`` of xiaowu0162/LongMemEval, read at commit
``9e0b455f4ef0e2ab8f2e582289761153549043fc`` (``process_item_flat_index`` and the metric averaging in
``main``):

- candidates: every haystack session (session granularity, id = the session id); every **user** turn
  (turn granularity, id = ``<session_id>_<n>`` with ``n`` the 1-based position among *all* turns of the
  session, assistant turns included; assistant turns are not in the corpus);
- a session is relevant iff its id contains ``"answer"`` and at least one of its user turns has
  ``has_answer: true`` (otherwise the official code renames it ``noans``);
- a turn is relevant iff it is a user turn with ``has_answer: true`` in a session whose id contains
  ``"answer"``;
- a question is left out of the metrics iff its id contains ``"_abs"`` (abstention) or no user turn of its
  haystack has ``has_answer: true``. The official test of an answer session is the substring
  ``"answer"`` in the id; in the released files those are exactly the ``answer_session_ids``.

**LoCoMo** — the ``recall_acc`` of ``eval_question_answering`` in ``task_eval/evaluation.py`` of
snap-research/locomo, read at commit ``92286325a40764bee61f77824ddb95233b11c4d6`` (branch ``code``):

- relevant turns: the QA pair's evidence turn ids (himga normalizes them, ``evidence.turn_ids``);
- relevant sessions: the sessions those ids name, ``D<s>:<t>`` → ``s`` (the official code's session mode
  takes ``ev.split(':')[0][1:]``); an id of another form (LoCoMo-Plus's inserted turns, ``cue:1``), the session
  holding it;
- candidates: every turn (``dia_id``) and every session of the conversation;
- a QA pair with no evidence is not evaluable (the official code scores it ``recall = 1`` instead; 4
  category-3 QA pairs in ``locomo10.json``). Evidence ids that name no turn of the conversation
  (``conv-42`` QA ``"58"`` ``D10:19``, ``conv-47`` QA ``"38"`` ``D4:36``) stay relevant, as in the
  official recall (they count in its denominator), and are reported in ``Relevance.dangling``.

**Evidence turns** (:data:`EVIDENCE_TURNS`, BEAM's and REALTALK's rule): a benchmark whose evidence names turns by id
and the sessions they are in, with no official retrieval evaluation (BEAM's and REALTALK's repositories have none):
relevant turns are ``evidence.turn_ids``, relevant sessions ``evidence.session_ids`` (BEAM: the batches those messages
are in; REALTALK: the sessions holding those turns, its ``D<day>:<n>`` ids naming no session);
candidates are every turn with a ``turn_id`` and every session; a QA pair without evidence is not evaluable
(``"no evidence"``: BEAM's abstention questions have none), ids that name no turn are ``dangling``.

Where LoCoMo's official recall differs from TREC measures over these labels (checked against the same
commit): it keeps the no-evidence QA pairs (recall 1) in its mean; its session recall counts evidence
entries, ``sum(session of each entry retrieved) / len(evidence)``, where these labels list each session
once (the two differ on 92 QA pairs when retrieval is partial: conv-26 "15" with only session 1 retrieved is
2/4 officially, 1/3 here); and it reads the raw evidence strings, so malformed ones (``"D8:6; D9:17"``)
never match and a repeated id counts twice, where these labels use the normalized ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from himga.errors import ConfigurationError

__all__ = [
    "EVIDENCE_TURNS",
    "GRANULARITIES",
    "LOCOMO",
    "LONGMEMEVAL",
    "Relevance",
    "RelevanceRule",
    "candidates",
    "check_granularity",
    "register_rule",
    "relevance",
    "rule_of",
]

#: The two retrieval granularities.
GRANULARITIES = ("session", "turn")

_LOCOMO_TURN = re.compile(r"D([0-9]+):([0-9]+)")


@dataclass(frozen=True)
class Relevance:
    """The retrieval labels of one QA pair.

    Attributes:
        sessions: Relevant session ids, in first-cited order (LoCoMo ``"1"``; LongMemEval
            ``"answer_d8a1af6c_5"``).
        turns: Relevant turn ids (LoCoMo ``"D1:3"``; LongMemEval ``"<session_id>_<n>"``, e.g.
            ``"answer_d8a1af6c_5_3"``).
        evaluable: Whether the official evaluation scores this QA pair's retrieval at all.
        reason: Why it is not evaluable: ``"abstention"``, ``"no has_answer user turn"`` (LongMemEval) or
            ``"no evidence"`` (LoCoMo); ``None`` when evaluable.
        dangling: Relevant turn ids with no turn in the sample (LoCoMo; kept in ``turns``).
    """

    sessions: list[str]
    turns: list[str]
    evaluable: bool
    reason: str | None = None
    dangling: list[str] = field(default_factory=list)

    def ids(self, granularity: str) -> list[str]:
        """``sessions`` or ``turns``.

        Raises:
            ConfigurationError: ``granularity`` is not ``"session"`` or ``"turn"`` (a ``ValueError``).
        """
        return list(self.sessions if check_granularity(granularity) == "session" else self.turns)


def check_granularity(granularity: str) -> str:
    """Return ``granularity`` if it is ``"session"`` or ``"turn"``.

    Raises:
        ConfigurationError: any other value (a ``ValueError``).
    """
    if granularity not in GRANULARITIES:
        raise ConfigurationError(f"granularity: expected 'session' or 'turn', got {granularity!r}")
    return granularity


def _unique(ids) -> list[str]:
    return list(dict.fromkeys(ids))


def _has_answer(message) -> bool:
    return message.role == "user" and message.raw.get("has_answer") is True


def _longmemeval_turn_ids(session) -> list[tuple[str, object]]:
    """(``<session_id>_<n>``, message) for each user turn; ``n`` counts all turns from 1."""
    return [(f"{session.session_id}_{n}", m) for n, m in enumerate(session.messages, 1) if m.role == "user"]


def _longmemeval_relevance(sample, qa) -> Relevance:
    """LongMemEval's official labels (see the module docstring)."""
    sessions, turns = [], []
    for session in sample.sessions:
        if "answer" not in session.session_id:
            continue
        hits = [tid for tid, m in _longmemeval_turn_ids(session) if _has_answer(m)]
        if hits:
            sessions.append(session.session_id)
            turns.extend(hits)
    if "_abs" in qa.question_id:
        reason = "abstention"
    elif not any(_has_answer(m) for s in sample.sessions for m in s.messages):
        reason = "no has_answer user turn"
    else:
        reason = None
    return Relevance(_unique(sessions), _unique(turns), reason is None, reason)


def _locomo_relevance(sample, qa) -> Relevance:
    """LoCoMo's labels from the normalized evidence (see the module docstring): the relevant sessions are the ones the
    ids name, ``D<s>:<t>`` → ``s`` (the official rule, which keeps the session of an id naming no turn); an id of
    another form (LoCoMo-Plus's inserted turns, ``cue:1``) counts the session holding it."""
    turns = list(qa.evidence.turn_ids)
    holder = {m.turn_id: s.session_id for s in sample.sessions for m in s.messages if m.turn_id is not None}
    sessions = _unique(
        s for t in turns if (s := (m[1] if (m := _LOCOMO_TURN.fullmatch(t)) else holder.get(t))) is not None
    )
    dangling = [t for t in turns if t not in holder]
    reason = None if turns else "no evidence"
    return Relevance(sessions, turns, reason is None, reason, dangling)


def _locomo_turns(session) -> list[tuple[str, object]]:
    return [(m.turn_id, m) for m in session.messages if m.turn_id is not None]


def _evidence_relevance(sample, qa) -> Relevance:
    """Labels from the evidence as the builder gives it: turn ids and their sessions (see the module docstring)."""
    turns = list(qa.evidence.turn_ids)
    present = {m.turn_id for s in sample.sessions for m in s.messages}
    reason = None if turns else "no evidence"
    return Relevance(
        list(qa.evidence.session_ids), turns, reason is None, reason, [t for t in turns if t not in present]
    )


def _speaker_lines(session) -> str:
    return "\n".join(f"{m.role}: {m.content}" for m in session.messages)


@dataclass(frozen=True)
class RelevanceRule:
    """How one benchmark labels retrieval: its relevance rule, its candidate turns and their documents.

    Attributes:
        judge: ``(sample, qa) -> Relevance``.
        turns: ``session -> [(turn id, message)]``: the candidate turns of a session, in order.
        session_text: ``session -> str``: a session as one document (:func:`himga.qrels.documents`).
        scoped_ids: Whether question and document ids are unique only within a sample (LoCoMo), so
            that TREC files prefix them with the sample id.
    """

    judge: Callable
    turns: Callable
    session_text: Callable
    scoped_ids: bool


#: LongMemEval: the official rule; candidate turns are the user turns, ``<session_id>_<n>``.
LONGMEMEVAL = RelevanceRule(
    judge=_longmemeval_relevance,
    turns=_longmemeval_turn_ids,
    session_text=lambda session: " ".join(m.content for m in session.messages if m.role == "user"),
    scoped_ids=False,
)

#: LoCoMo (and LoCoMo-Plus, whose inserted sessions' turns ``cue:1`` name no session: the session holding them
#: counts): evidence turn ids; candidate turns are every turn with a ``turn_id``.
LOCOMO = RelevanceRule(
    judge=_locomo_relevance,
    turns=_locomo_turns,
    session_text=_speaker_lines,
    scoped_ids=True,
)

#: BEAM and REALTALK: the evidence's turn ids and sessions as the builder gives them (BEAM: the batches of the messages;
#: REALTALK: the sessions holding the turns, its ``D<day>:<n>`` ids naming no session); candidate turns are every
#: turn with a ``turn_id``.
EVIDENCE_TURNS = RelevanceRule(
    judge=_evidence_relevance,
    turns=_locomo_turns,
    session_text=_speaker_lines,
    scoped_ids=True,
)


#: dataset name → its relevance rule, filled by the catalogue's entries as they are made (:func:`register_rule`).
_RULES: dict[str, RelevanceRule] = {}


def register_rule(dataset: str, rule: RelevanceRule) -> None:
    """Make ``rule`` the relevance rule of the samples of ``dataset`` (a catalogue entry registers its own when it is
    made, :class:`himga.entry.Benchmark`).

    Raises:
        ConfigurationError: ``dataset`` has another rule already.
    """
    if _RULES.setdefault(dataset, rule) is not rule:
        raise ConfigurationError(f"relevance: dataset {dataset!r} has a rule already")


def rule_of(sample) -> RelevanceRule:
    """The relevance rule of ``sample``'s benchmark (the one its catalogue entry registered).

    Raises:
        ConfigurationError: no rule is registered for ``sample.dataset`` (a ``ValueError``): a dataset the catalogue
            does not hold, or the catalogue not imported yet (``himga.data`` and the commands import it).
    """
    if (rule := _RULES.get(sample.dataset)) is None:
        known = " or ".join(_RULES) or "none registered: import himga.data (or himga.catalog) first"
        raise ConfigurationError(f"relevance: expected a sample of {known}, got dataset {sample.dataset!r}")
    return rule


def relevance(sample, qa) -> Relevance:
    """The relevance labels of ``qa``, a QA pair of ``sample``, by the official rule of its dataset.

    Args:
        sample: A ``Sample`` of a catalogue benchmark (``"locomo"``, ``"longmemeval"``).
        qa: One of ``sample.qa_pairs``.

    Returns:
        A :class:`Relevance`; the rules and their sources are in the module docstring.

    Raises:
        ConfigurationError: ``sample.dataset`` is no benchmark of the catalogue (a ``ValueError``).
    """
    return rule_of(sample).judge(sample, qa)


def candidates(sample, granularity: str) -> list[str]:
    """The ids of the documents a retriever ranks for the QA pairs of ``sample``, in haystack order.

    Args:
        sample: A ``Sample`` (LoCoMo: its conversation; LongMemEval: the question's haystack).
        granularity: ``"session"`` or ``"turn"``.

    Returns:
        Session ids, or turn ids (LoCoMo: every ``turn_id``; LongMemEval: ``<session_id>_<n>`` of every
        user turn, as the official corpus), each once (a session id repeated in a haystack gives one id).

    Raises:
        ConfigurationError: an unknown granularity (a ``ValueError``).
    """
    if check_granularity(granularity) == "session":
        return _unique(s.session_id for s in sample.sessions)
    turns = rule_of(sample).turns
    return _unique(tid for s in sample.sessions for tid, _ in turns(s))
