"""``himga.data``: LoCoMo and LongMemEval as plain dataclasses, backed by Arrow datasets.

Example:
    >>> from himga.data import load_dataset, QuestionType
    >>> samples = load_dataset("locomo")  # doctest: +SKIP
    >>> sum(qa.question_type == QuestionType.TEMPORAL for s in samples for qa in s.qa_pairs)  # doctest: +SKIP
    321
"""

from .dates import TemporalParser, parse_date
from .ids import item_id
from .helpers import (answer_sessions, chronological, evidence_messages, evidence_sessions, iter_messages, noise_sessions,
                      qa_by_type, session_sort_key)
from .relevance import Relevance
from .schema import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

_LOADERS = ("build_dataset", "load_dataset", "load_locomo", "load_longmemeval")
_CONVERT = ("row_to_sample", "sample_to_row", "table_to_samples")
_LAZY = ("LazySamples", "samples_from_dataset")
_VIEW = ("SystemQuestion", "SystemSample", "ViewIds", "system_view", "view_ids")


def __getattr__(name: str):
    """The loaders, imported on first use: they run the builders, which import this package's schema; the row
    converters (``pyarrow``) and the ``datasets`` objects (``SAMPLE_FEATURES``), so that the dataclasses import without
    ``datasets`` or ``pyarrow``."""
    if name in _LOADERS:
        from himga.data import loaders as module
    elif name in _CONVERT:  # rows <-> dataclasses: pyarrow
        from himga.data import convert as module
    elif name in _LAZY:
        from himga.data import lazy as module
    elif name == "SAMPLE_FEATURES":
        from himga.data import features as module
    elif name in _VIEW:  # the system view builds datasets.Features
        from himga.data import view as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = getattr(module, name)
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

__all__ = [
    "SAMPLE_FEATURES",
    "EvidenceRef",
    "LazySamples",
    "Message",
    "QAPair",
    "QuestionType",
    "Relevance",
    "Sample",
    "Session",
    "SystemQuestion",
    "SystemSample",
    "TemporalParser",
    "ViewIds",
    "answer_sessions",
    "build_dataset",
    "chronological",
    "evidence_messages",
    "evidence_sessions",
    "item_id",
    "iter_messages",
    "load_dataset",
    "load_locomo",
    "load_longmemeval",
    "noise_sessions",
    "parse_date",
    "qa_by_type",
    "row_to_sample",
    "sample_to_row",
    "samples_from_dataset",
    "session_sort_key",
    "system_view",
    "table_to_samples",
    "view_ids",
]
