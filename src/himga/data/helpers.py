"""The HiMGA seed's usage recipes as functions: evidence lookup, answer/noise split, iteration, filtering.

Every function takes :class:`~himga.data.schema.Sample` dataclasses as loaded by :mod:`himga.data` and
returns the objects themselves (not copies), in source order. The ``Sample`` methods of the same
names call these.

Example:
    >>> from himga.data import load_locomo, evidence_messages, qa_by_type, QuestionType
    >>> samples = load_locomo("../shared/data/locomo")  # doctest: +SKIP
    >>> conv26 = samples[0]  # doctest: +SKIP
    >>> [(m.turn_id, m.role) for m in evidence_messages(conv26, conv26.qa_pairs[0])]  # doctest: +SKIP
    [('D1:3', 'Caroline')]
    >>> len(qa_by_type(samples, QuestionType.TEMPORAL))  # doctest: +SKIP
    321
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from himga.errors import ConfigurationError

from .schema import Message, QAPair, QuestionType, Sample, Session

__all__ = ["answer_sessions", "evidence_messages", "evidence_sessions", "iter_messages", "noise_sessions", "qa_by_type"]


def iter_messages(sample: Sample) -> Iterator[tuple[Session, Message]]:
    """Every message of a sample in order, paired with its session.

    Args:
        sample: A Sample.

    Yields:
        ``(session, message)`` for each message, sessions in ``sample.sessions`` order (LoCoMo: by
        session number; LongMemEval: haystack file order), messages in turn order.
    """
    for session in sample.sessions:
        for message in session.messages:
            yield session, message


def evidence_messages(sample: Sample, qa: QAPair) -> list[Message]:
    """The messages a QA pair cites as evidence, by ``qa.evidence.turn_ids``.

    Args:
        sample: The Sample that ``qa`` belongs to.
        qa: A QA pair; its ``evidence.turn_ids`` are LoCoMo turn ids (``"D1:3"``).

    Returns:
        The matching messages in conversation order (not the order of the evidence list). Turn ids
        with no message in the sample are skipped: two LoCoMo QA pairs cite a turn that does not
        exist (conv-42 QA "58" ``D10:19``, conv-47 QA "38" ``D4:36``). ``[]`` for LongMemEval,
        whose evidence is by session (see :func:`evidence_sessions`).
    """
    wanted = set(qa.evidence.turn_ids)
    if not wanted:
        return []
    return [m for _, m in iter_messages(sample) if m.turn_id in wanted]


def evidence_sessions(sample: Sample, qa: QAPair) -> list[Session]:
    """The sessions a QA pair cites as evidence, by ``qa.evidence.session_ids``.

    Args:
        sample: The Sample that ``qa`` belongs to.
        qa: A QA pair; its ``evidence.session_ids`` are LongMemEval ``answer_session_ids``.

    Returns:
        The matching sessions in ``sample.sessions`` order; a session id that occurs twice in a
        haystack gives both sessions. ``[]`` for LoCoMo, whose evidence is by turn (see
        :func:`evidence_messages`).
    """
    wanted = set(qa.evidence.session_ids)
    return [s for s in sample.sessions if s.session_id in wanted]


def _cited_session_ids(sample: Sample) -> set[str]:
    return {sid for qa in sample.qa_pairs for sid in qa.evidence.session_ids}


def answer_sessions(sample: Sample) -> list[Session]:
    """The sessions cited by any of the sample's QA pairs (``evidence.session_ids``).

    For LongMemEval these are the question's answer sessions, the needles of the haystack. LoCoMo
    QA pairs cite turns, not sessions, so for LoCoMo this is ``[]``.

    Returns:
        The sessions in ``sample.sessions`` order.
    """
    cited = _cited_session_ids(sample)
    return [s for s in sample.sessions if s.session_id in cited]


def noise_sessions(sample: Sample) -> list[Session]:
    """The sessions cited by none of the sample's QA pairs: the haystack filler.

    Together with :func:`answer_sessions` a partition of ``sample.sessions``.

    Returns:
        The sessions in ``sample.sessions`` order (for LoCoMo, all of them).
    """
    cited = _cited_session_ids(sample)
    return [s for s in sample.sessions if s.session_id not in cited]


def qa_by_type(samples: Iterable[Sample], qtype: QuestionType | str) -> list[tuple[Sample, QAPair]]:
    """The QA pairs of one question type across samples, each with its sample.

    Args:
        samples: Samples, e.g. from :func:`himga.data.load_dataset`.
        qtype: A :class:`QuestionType` or its value (``"temporal"``).

    Returns:
        ``(sample, qa)`` pairs in sample order, then QA order.

    Raises:
        ConfigurationError: ``qtype`` is not a question type (a ``ValueError``).
    """
    try:
        qtype = QuestionType(qtype)
    except ValueError:
        raise ConfigurationError(
            f"unknown question type {qtype!r}; expected one of {[t.value for t in QuestionType]}"
        ) from None
    return [(s, qa) for s in samples for qa in s.qa_pairs if qa.question_type == qtype]
