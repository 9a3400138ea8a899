"""What the system under test may see of a Sample: :func:`system_view`, and :func:`view_ids` to map its ids back.

A :class:`~himga.schema.sample.Sample` is the grader's view: it holds the gold answers, the evidence, LongMemEval's
``has_answer`` turns and ``answer_…`` session ids, LoCoMo's category-5 trap answers, and the source records in
``raw``. The system view holds only what a benchmark gives the system:

- the sessions in source order, each message with its role, its text and a date (its own, else its session's,
  so that ingesting message by message sees time), and the speakers;
- per question, the question text and the question date (LongMemEval's ``question_date``; ``None`` where the
  benchmark has none);
- generated ids only: a sample id ``v<10 hex digits>`` (sha256 of ``<dataset>:<sample_id>``), questions
  ``<view sample id>:q<n>``, sessions ``S<n>`` and messages ``S<n>:<m>`` (positions from 1, source order).
  They say nothing the order does not: not the question id (LongMemEval's ``…_abs`` names an abstention), not the
  session id (``answer_4be1b6b4_2``), not the evidence turn id.

No ``raw``, no answer, no evidence, no question type. :func:`view_ids` maps every view id back to the source's
(the scored item id of :func:`himga.data.item_id`, session ids, the qrels' turn ids), and
:func:`himga.scoring.score_records` accepts the view's ids as they are.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field

import datasets

from .features import features_for
from .ids import item_id
from .relevance import rule_of
from .sample import Message, Sample, Session

__all__ = [
    "SYSTEM_FEATURES",
    "SystemQuestion",
    "SystemSample",
    "ViewIds",
    "system_row",
    "system_view",
    "view_id",
    "view_ids",
    "view_question_ids",
    "view_sample_id",
]


@dataclass(frozen=True)
class SystemQuestion:
    """One question as the system is asked it.

    Attributes:
        question_id: The view's id, ``<view sample id>:q<n>`` (unique across samples).
        question: The question text, as the benchmark gives it.
        question_date: When it is asked (raw string, :func:`himga.data.parse_date` reads it), or ``None``.
        position: For a question asked in the middle of the history, how many of the view's messages (in order,
            counted across sessions) it sees; ``None``: the whole history, as every question of a benchmark that asks
            at the end.
        options: The answer options shown with a multiple-choice question (never which one is right); ``[]``.
    """

    question_id: str
    question: str
    question_date: str | None = None
    position: int | None = None
    options: list[str] = field(default_factory=list)


@dataclass
class SystemSample:
    """The system's view of one Sample: a conversation history and the questions, nothing else.

    Attributes:
        sample_id: The view's id, ``v<10 hex digits>``.
        dataset: The benchmark (``"locomo"``), as on the Sample.
        sessions: The history in source order: :class:`~himga.data.Session` objects with ids ``S<n>``, messages
            with ``turn_id`` ``S<n>:<m>``, a ``date_str`` on every message that has one or whose session has one,
            and ``raw == {}``; session titles kept.
        questions: The questions, in the Sample's order.
        speaker_a, speaker_b: The speakers' names where the benchmark names them.
    """

    sample_id: str
    dataset: str
    sessions: list[Session]
    questions: list[SystemQuestion]
    speaker_a: str | None = None
    speaker_b: str | None = None

    def __repr__(self) -> str:
        return (
            f"SystemSample(sample_id={self.sample_id!r}, dataset={self.dataset!r}, sessions={len(self.sessions)}, "
            f"messages={sum(len(s.messages) for s in self.sessions)}, questions={len(self.questions)})"
        )

    #: ``(session, message)`` for every message, in order (:meth:`himga.data.Sample.iter_messages`).
    iter_messages = Sample.iter_messages


@dataclass(frozen=True)
class ViewIds:
    """The view's ids mapped back to the source's.

    Attributes:
        sample_id: The view's sample id.
        questions: View question id → scored item id (:func:`himga.data.item_id`: ``conv-26:0``, LongMemEval's own).
        sessions: View session id → source session id.
        turns: View message id → the source's turn id as the qrels name it (LoCoMo ``D1:3``, LongMemEval
            ``<session_id>_<n>``; ``None`` for a message that is no retrieval candidate, such as LongMemEval's
            assistant turns).
    """

    sample_id: str
    questions: dict[str, str] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)
    turns: dict[str, str | None] = field(default_factory=dict)


def view_sample_id(sample: Sample) -> str:
    """The view's id of ``sample``: ``"v"`` and the first 10 hex digits of sha256 of ``<dataset>:<sample_id>``."""
    return view_id(sample.dataset, sample.sample_id)


def view_id(dataset: str, sample_id: str) -> str:
    """The view's id of sample ``sample_id`` of benchmark ``dataset`` (:func:`view_sample_id`), for a sample not at hand
    (another config's, named in a record)."""
    return "v" + hashlib.sha256(f"{dataset}:{sample_id}".encode()).hexdigest()[:10]


def _question_date(sample: Sample) -> str | None:
    value = sample.raw.get("question_date")
    return value if isinstance(value, str) else None


def system_view(sample: Sample) -> SystemSample:
    """The system's view of ``sample`` (see the module docstring): no gold, generated ids, a date on every message.

    Args:
        sample: A Sample of any catalogue benchmark.

    Returns:
        A new :class:`SystemSample`; ``sample`` is not changed.

    Example:
        >>> view = system_view(conv26)  # doctest: +SKIP
        >>> view.sessions[0].messages[0]  # doctest: +SKIP
        Message(role='Caroline', content='Hey Mel! ...', turn_id='S1:1', date_str='1:56 pm on 8 May, 2023', raw={})
    """
    sid = view_sample_id(sample)
    sessions = [
        Session(
            session_id=f"S{n}",
            title=s.title,
            date_str=s.date_str,
            messages=[
                Message(
                    role=m.role,
                    content=m.content,
                    turn_id=f"S{n}:{k}",
                    date_str=m.date_str if m.date_str is not None else s.date_str,
                )
                for k, m in enumerate(s.messages, 1)
            ],
        )
        for n, s in enumerate(sample.sessions, 1)
    ]
    date = _question_date(sample)
    questions = [
        SystemQuestion(qid, qa.question, date, qa.position, list(qa.options))
        for qid, qa in zip(view_question_ids(sample), sample.qa_pairs, strict=True)
    ]
    return SystemSample(sid, sample.dataset, sessions, questions, sample.speaker_a, sample.speaker_b)


def view_ids(sample: Sample) -> ViewIds:
    """The ids of :func:`system_view` of ``sample``, mapped back to the source's (for scoring and qrels)."""
    sid = view_sample_id(sample)
    candidates = rule_of(sample).turns
    out = ViewIds(sid)
    for n, session in enumerate(sample.sessions, 1):
        out.sessions[f"S{n}"] = session.session_id
        named = {id(m): tid for tid, m in candidates(session)}
        for k, message in enumerate(session.messages, 1):
            out.turns[f"S{n}:{k}"] = named.get(id(message))
    out.questions.update(view_question_ids(sample))
    return out


def view_question_ids(sample: Sample) -> dict[str, str]:
    """``{view question id: item id}`` of ``sample``'s questions (``v1a2b3c4d5e:q1`` → ``conv-26:0``), in order."""
    sid = view_sample_id(sample)
    return {f"{sid}:q{n}": item_id(sample, qa) for n, qa in enumerate(sample.qa_pairs, 1)}


#: The Arrow features of a :class:`SystemSample` row (an export's ``system`` config), derived like the Sample's.
SYSTEM_FEATURES = datasets.Features(features_for(SystemSample))


def system_row(view: SystemSample) -> dict:
    """``view`` as a row of :data:`SYSTEM_FEATURES` (the ``system`` config of an export):
    its fields as they are, each message's empty ``raw`` as ``None``."""
    row = dataclasses.asdict(view)
    for session in row["sessions"]:
        for message in session["messages"]:
            message["raw"] = None
    return row
