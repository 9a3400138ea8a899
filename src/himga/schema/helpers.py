"""The HiMGA seed's usage recipes as functions: evidence lookup, answer/noise split, iteration, filtering,
and a date-ordered view of a sample (:func:`chronological`).

Every function takes :class:`~himga.schema.sample.Sample` dataclasses as loaded by :mod:`himga.data` and
returns the objects themselves (not copies), in source order. Each is the ``Sample`` method of the
same name, as a function.

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

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import replace

from himga.errors import ConfigurationError

from .dates import parse_date
from .sample import Message, QAPair, QuestionType, Sample, Session

__all__ = [
    "answer_sessions",
    "chronological",
    "evidence_messages",
    "evidence_sessions",
    "iter_messages",
    "noise_sessions",
    "qa_by_type",
    "session_sort_key",
]


def iter_messages(sample: Sample) -> Iterator[tuple[Session, Message]]:
    """Every message of a sample in order, with its session: :meth:`Sample.iter_messages`."""
    return sample.iter_messages()


def evidence_messages(sample: Sample, qa: QAPair) -> list[Message]:
    """The messages ``qa`` cites as evidence (LoCoMo turn ids): :meth:`Sample.evidence_messages`."""
    return sample.evidence_messages(qa)


def evidence_sessions(sample: Sample, qa: QAPair) -> list[Session]:
    """The sessions ``qa`` cites as evidence (LongMemEval session ids): :meth:`Sample.evidence_sessions`."""
    return sample.evidence_sessions(qa)


def answer_sessions(sample: Sample) -> list[Session]:
    """The sessions cited by any QA pair of ``sample``: :meth:`Sample.answer_sessions`."""
    return sample.answer_sessions()


def noise_sessions(sample: Sample) -> list[Session]:
    """The sessions cited by no QA pair of ``sample``: :meth:`Sample.noise_sessions`."""
    return sample.noise_sessions()


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


# --- chronological view ------------------------------------------------------------------------------


def _parse(value: str | None) -> dt.datetime | None:
    try:
        return parse_date(value)
    except ValueError:  # DateFormatError: an unparseable date sorts last
        return None


def session_sort_key(session) -> tuple[int, dt.datetime]:
    """Sort key of a Session by its parsed ``date_str``; unparseable or missing dates sort last.

    Use with a stable sort (``sorted``) so that equal dates keep file order.
    """
    parsed = _parse(session.date_str)
    return (0, parsed) if parsed is not None else (1, dt.datetime.min)


def chronological(sample):
    """A copy of ``sample`` whose sessions are ordered by date (ties and undated sessions in file order).

    LongMemEval haystacks are *not* chronological in the files (the official harness iterates them in
    file order, which is himga's default); this view is for memory systems that need time order.

    Args:
        sample: A :class:`himga.data.Sample` (e.g. from ``load_longmemeval``).

    Returns:
        A new Sample (same messages and QA pairs) with ``sessions`` sorted by
        :func:`session_sort_key`, stably; sessions whose date cannot be parsed come last.

    Example:
        >>> [s.date_str for s in chronological(sample).sessions]  # doctest: +SKIP
        ['2023/04/10 (Mon) 14:47', '2023/04/10 (Mon) 17:15', '2023/04/10 (Mon) 17:50']
    """
    return replace(sample, sessions=sorted(sample.sessions, key=session_sort_key))
