"""The unified data model: the dataclasses a memory system ingests and is scored on.

These are plain :func:`dataclasses.dataclass` types (construction, field access, ``==``). Their
field names, order, types and defaults are the public API of the HiMGA seed (``himga.data.schema``, which re-exports
them); additions are trailing fields with defaults only. The Arrow ``Features`` of a dataset row are derived from these
classes (:mod:`himga.schema.features`), so this module is the single source of truth for the schema.

Timestamps stay raw strings (``date_str``); :mod:`himga.schema.dates` parses them.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from dataclasses import dataclass, field

from himga.errors import ConfigurationError

from .dates import parse_date
from .question_type import QuestionType
from .relevance import Relevance
from .relevance import candidates as _candidates
from .relevance import relevance as _relevance

__all__ = ["EvidenceRef", "Message", "QAPair", "QuestionType", "Sample", "Session"]


@dataclass
class Message:
    """One utterance (a turn) of a session.

    Attributes:
        role: The speaker. LoCoMo: the person's name (``"Caroline"``); LongMemEval, BEAM: ``"user"`` or
            ``"assistant"``; PersonaMem: ``"system"`` (the persona turns), ``"user"`` or ``"assistant"``.
        content: The text. LoCoMo image turns carry their caption inline:
            ``"[Image: <blip_caption>] <text>"`` (``"[Image: <blip_caption>]"`` when the text is empty); BEAM's
            probe marker (``" ->-> 1,1"``) is cut from the end and kept in ``raw``.
        turn_id: LoCoMo's ``dia_id``, ``"D<session>:<turn>"`` (e.g. ``"D1:3"``; REALTALK's ``D`` counts days;
            LoCoMo-Plus's inserted turns are ``"cue:1"``, ``"query:1"``); BEAM's message id (``"0"``); PersonaMem: the
            turn's index in its shared context (``"0"``); ``None`` for LongMemEval.
        date_str: A per-message raw timestamp: REALTALK ``"29.12.2023, 22:42:04"`` (every message); ``None`` in
            LoCoMo, LoCoMo-Plus, LongMemEval and BEAM (dates live on the session).
        raw: Source keys of the turn with no other home: LoCoMo ``img_url``, ``blip_caption``,
            ``query``, ``re-download``; LongMemEval ``has_answer``; BEAM ``index``, ``question_type``,
            ``time_anchor``, ``probe_marker``. ``{}`` when there are none.
    """

    role: str
    content: str
    turn_id: str | None = None
    date_str: str | None = None
    raw: dict = field(default_factory=dict)


@dataclass
class Session:
    """A conversation segment with one timestamp.

    Attributes:
        session_id: LoCoMo (and REALTALK): the ``N`` of ``session_N`` as a string (``"1"``); LoCoMo-Plus adds
            ``"cue"`` and ``"query"``; LongMemEval: the haystack session id (``"sharegpt_yywfLrO_0"``,
            ``"answer_4be1b6b4_1"``); BEAM: the batch number (``"1"``; 10M: ``"plan-1:3"``); PersonaMem: ``"1"``,
            ``"2"``, ... (a session starts at a persona's system turn).
        messages: The turns, in source order.
        date_str: The raw session timestamp: LoCoMo ``"1:56 pm on 8 May, 2023"``, LongMemEval
            ``"2023/05/20 (Sat) 02:21"``, BEAM ``"March-15-2024"``, REALTALK ``"29.12.2023, 22:42:04"`` (LoCoMo-Plus's
            inserted sessions in LoCoMo's style, ``"9:55 am on 15 October, 2023"``); ``None`` when the source has none.
        title: A session title; ``None`` in every benchmark so far.
    """

    session_id: str
    messages: list[Message]
    date_str: str | None = None
    title: str | None = None

    def __repr__(self) -> str:  # ids and counts; the turns are ``self.messages``
        return f"Session(session_id={self.session_id!r}, date_str={self.date_str!r}, messages={len(self.messages)})"

    @property
    def datetime(self) -> _dt.datetime | None:
        """``date_str`` parsed by :func:`~himga.schema.dates.parse_date`: a naive datetime, or ``None``.

        Raises:
            DateFormatError: ``date_str`` is in no known format.
        """
        return parse_date(self.date_str)


@dataclass
class EvidenceRef:
    """Where the answer to a question is found.

    Attributes:
        turn_ids: LoCoMo turn ids (``["D1:3", "D2:7"]``), normalized from the source ``evidence``; BEAM's
            ``source_chat_ids`` (message ids, each once).
        session_ids: LongMemEval ``answer_session_ids``; BEAM: the batches of ``turn_ids``.
    """

    turn_ids: list[str] = field(default_factory=list)
    session_ids: list[str] = field(default_factory=list)


@dataclass
class QAPair:
    """One question with its gold answer.

    Attributes:
        question_id: LoCoMo: the index in the sample's ``qa`` list as a string (``"0"``);
            LongMemEval and PersonaMem: ``question_id``; BEAM: ``"<ability>:<index>"`` (``"temporal_reasoning:0"``).
        question: The question text.
        answer: The gold answer, always a ``str`` (integer answers such as ``2022`` become ``"2022"``).
            For LoCoMo category 5 it is an abstention (see the ``himga_locomo`` card); BEAM: the ability's reference
            (its judge reads the rubric in ``raw``); ``""`` for a LoCoMo-Plus cognitive item (no reference answer);
            PersonaMem: the correct option's letter, ``"(c)"``.
        question_type: The normalized category.
        evidence: Pointers to the turns or sessions holding the answer.
        raw: The source QA record (LoCoMo: the QA dict untouched; LongMemEval: the question dict
            without ``haystack_sessions``; BEAM: the question dict, ``rubric`` included; PersonaMem: every CSV column).
        position: For a question asked in the middle of the history, how many of the sample's messages (in order,
            counted across sessions) it sees; ``None`` (every benchmark but PersonaMem): the whole history.
        options: The answer options shown with the question, in order, for a multiple-choice question (PersonaMem's
            four ``"(a) …"``); ``[]`` for an open question.
    """

    question_id: str
    question: str
    answer: str
    question_type: QuestionType
    evidence: EvidenceRef = field(default_factory=EvidenceRef)
    raw: dict = field(default_factory=dict)
    position: int | None = None
    options: list[str] = field(default_factory=list)

    @property
    def is_abstention(self) -> bool:
        """True when the correct response is to abstain.

        LoCoMo: category 5 (``QuestionType.ADVERSARIAL``). LongMemEval: ``question_id`` ending in
        ``_abs`` (those questions keep their ordinary ``question_type``). BEAM: the abstention ability
        (``QuestionType.ABSTENTION``).
        """
        return self.question_type in (QuestionType.ADVERSARIAL, QuestionType.ABSTENTION) or self.question_id.endswith(
            "_abs"
        )


@dataclass
class Sample:
    """One evaluation unit: a conversation history and the questions asked about it.

    LoCoMo: one conversation → one Sample (many sessions, many QA pairs). LongMemEval: one question
    → one Sample (its haystack sessions, exactly one QA pair).

    Attributes:
        sample_id: LoCoMo ``sample_id`` (``"conv-26"``), else a running index; LongMemEval ``question_id``;
            BEAM: the tier and the chat's folder (``"100K-1"``); LoCoMo-Plus ``"cognitive-<i>"`` for a cognitive item;
                REALTALK the
            file's stem (``"Chat_1_Emi_Elise"``); PersonaMem: the ``shared_context_id``.
        dataset: The benchmark's catalogue name: ``"locomo"``, ``"longmemeval"``, ``"beam"``, ``"locomo_plus"``,
            ``"realtalk"``, ``"personamem"``.
        sessions: The history. LoCoMo: ordered by session number; LongMemEval: haystack file order; BEAM:
            batches in file order.
        qa_pairs: The questions.
        speaker_a: LoCoMo's first speaker; ``None`` for LongMemEval and BEAM.
        speaker_b: LoCoMo's second speaker; ``None`` for LongMemEval and BEAM.
        raw: Source fields with no other home. LoCoMo: ``event_summary``, ``observation``,
            ``session_summary`` and the keys documented on the ``himga_locomo`` card; LongMemEval:
            ``question_date``; BEAM: ``turn_groups`` (session id → the sizes of its turn groups).
    """

    sample_id: str
    dataset: str
    sessions: list[Session]
    qa_pairs: list[QAPair]
    speaker_a: str | None = None
    speaker_b: str | None = None
    raw: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        """Ids and counts, one line (a LoCoMo sample's full repr ran to ~245,000 characters); the content is
        one call away: ``dataclasses.asdict(sample)``, ``sample.sessions``, ``sample.qa_pairs``."""
        speakers = f", speakers=({self.speaker_a!r}, {self.speaker_b!r})" if self.speaker_a or self.speaker_b else ""
        return (
            f"Sample(sample_id={self.sample_id!r}, dataset={self.dataset!r}, sessions={len(self.sessions)}, "
            f"messages={sum(len(s.messages) for s in self.sessions)}, qa_pairs={len(self.qa_pairs)}{speakers})"
        )

    @property
    def question_datetime(self) -> _dt.datetime | None:
        """``raw["question_date"]`` (LongMemEval) parsed as a naive datetime; ``None`` when absent (LoCoMo).

        Raises:
            DateFormatError: the question date is in no known format.
        """
        return parse_date(self.raw.get("question_date"))

    # The seed's usage recipes; himga.schema.helpers offers the same as functions.

    def iter_messages(self) -> Iterator[tuple[Session, Message]]:
        """Every message in order, paired with its session.

        Yields:
            ``(session, message)`` for each message, sessions in ``self.sessions`` order (LoCoMo: by
            session number; LongMemEval: haystack file order), messages in turn order.
        """
        for session in self.sessions:
            for message in session.messages:
                yield session, message

    def evidence_messages(self, qa: QAPair) -> list[Message]:
        """The messages a QA pair cites as evidence, by ``qa.evidence.turn_ids``.

        Args:
            qa: A QA pair of this sample; its ``evidence.turn_ids`` are LoCoMo turn ids (``"D1:3"``).

        Returns:
            The matching messages in conversation order (not the order of the evidence list). Turn ids
            with no message in the sample are skipped: two LoCoMo QA pairs cite a turn that does not
            exist (conv-42 QA "58" ``D10:19``, conv-47 QA "38" ``D4:36``). ``[]`` for LongMemEval,
            whose evidence is by session (see :meth:`evidence_sessions`).

        Raises:
            ConfigurationError: ``qa`` is not one of ``self.qa_pairs`` (its evidence names another sample's turns).
        """
        self._own(qa)
        wanted = set(qa.evidence.turn_ids)
        if not wanted:
            return []
        return [m for _, m in self.iter_messages() if m.turn_id in wanted]

    def evidence_sessions(self, qa: QAPair) -> list[Session]:
        """The sessions a QA pair cites as evidence, by ``qa.evidence.session_ids``.

        Args:
            qa: A QA pair of this sample; its ``evidence.session_ids`` are LongMemEval ``answer_session_ids``.

        Returns:
            The matching sessions in ``self.sessions`` order; a session id that occurs twice in a
            haystack gives both sessions. ``[]`` for LoCoMo, whose evidence is by turn (see
            :meth:`evidence_messages`).

        Raises:
            ConfigurationError: ``qa`` is not one of ``self.qa_pairs``.
        """
        self._own(qa)
        wanted = set(qa.evidence.session_ids)
        return [s for s in self.sessions if s.session_id in wanted]

    def relevance(self, qa: QAPair) -> Relevance:
        """The retrieval labels of ``qa`` as the official retrieval evaluations define them.

        LongMemEval (``src/retrieval/run_retrieval.py``): relevant sessions are answer sessions with a
        user turn marked ``has_answer``, relevant turns those user turns (``"<session_id>_<n>"``, ``n``
        counting all turns from 1); abstention questions and questions without such a turn are not
        evaluable. LoCoMo (``task_eval/evaluation.py``): relevant turns are ``evidence.turn_ids``,
        relevant sessions the sessions they name; QA pairs without evidence are not evaluable, evidence
        naming no turn is reported as ``dangling``. Sources and commits: :mod:`himga.schema.relevance`.

        Args:
            qa: One of ``self.qa_pairs``.

        Returns:
            A :class:`~himga.schema.relevance.Relevance`: ``sessions``, ``turns``, ``evaluable``, ``reason``,
            ``dangling``; ``.ids("session")`` / ``.ids("turn")`` pick a granularity.

        Example:
            >>> rel = conv26.relevance(conv26.qa_pairs[0])  # doctest: +SKIP
            >>> rel.sessions, rel.turns, rel.evaluable  # doctest: +SKIP
            (['1'], ['D1:3'], True)

        Raises:
            ConfigurationError: ``qa`` is not one of ``self.qa_pairs``.
        """
        self._own(qa)
        return _relevance(self, qa)

    def _own(self, qa: QAPair) -> None:
        """Refuse a QA pair of another sample: its evidence would be looked up among this sample's turns."""
        if not any(q is qa for q in self.qa_pairs) and qa not in self.qa_pairs:
            raise ConfigurationError(
                f"QA pair {getattr(qa, 'question_id', qa)!r} is not among the QA pairs of sample "
                f"{self.sample_id!r}: ask the sample it belongs to"
            )

    def candidates(self, granularity: str) -> list[str]:
        """The ids a retriever ranks for this sample's questions: ``"session"`` or ``"turn"`` ids.

        LoCoMo: every session / turn of the conversation; LongMemEval: every haystack session, or every
        user turn as ``"<session_id>_<n>"`` (the official corpus). Each id once, haystack order.

        Raises:
            ConfigurationError: an unknown granularity.
        """
        return _candidates(self, granularity)

    def _cited_session_ids(self) -> set[str]:
        # LongMemEval cites sessions (answer_session_ids); LoCoMo cites turns, whose sessions are the
        # relevant sessions of :meth:`relevance` (``D<s>:<t>`` -> ``s``, as the official recall).
        cited = {sid for qa in self.qa_pairs for sid in qa.evidence.session_ids}
        cited.update(sid for qa in self.qa_pairs if qa.evidence.turn_ids for sid in self.relevance(qa).sessions)
        return cited

    def answer_sessions(self) -> list[Session]:
        """The sessions cited by any of the sample's QA pairs.

        LongMemEval: the question's ``answer_session_ids`` (``evidence.session_ids``), the needles of the
        haystack. LoCoMo: the sessions of the QA pairs' evidence turns (``D<s>:<t>`` -> session ``s``,
        the relevant sessions of :meth:`relevance`); conv-26 cites 19 of its 19 sessions.

        Returns:
            The sessions in ``self.sessions`` order.
        """
        cited = self._cited_session_ids()
        return [s for s in self.sessions if s.session_id in cited]

    def noise_sessions(self) -> list[Session]:
        """The sessions cited by none of the sample's QA pairs: the haystack filler.

        Together with :meth:`answer_sessions` a partition of ``self.sessions``.

        Returns:
            The sessions in ``self.sessions`` order.
        """
        cited = self._cited_session_ids()
        return [s for s in self.sessions if s.session_id not in cited]
