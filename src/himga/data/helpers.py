"""The HiMGA seed's usage recipes as functions: evidence lookup, answer/noise split, iteration, filtering.

Every function takes :class:`~himga.data.schema.Sample` dataclasses as loaded by :mod:`himga.data` and
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

from collections.abc import Iterable, Iterator

from himga.errors import ConfigurationError

from .schema import Message, QAPair, QuestionType, Sample, Session

__all__ = ["answer_sessions", "evidence_messages", "evidence_sessions", "iter_messages", "noise_sessions", "qa_by_type"]


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
