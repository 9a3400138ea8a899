"""``himga.schema``: the data model every other part of himga stands on.

The dataclasses a memory system ingests and is scored on (:class:`Sample`, :class:`Session`, :class:`Message`,
:class:`QAPair`, :class:`EvidenceRef`, :class:`QuestionType`), their Arrow features and the conversion between rows
and dataclasses, ids, dates, helpers, the relevance labels and the system view. It imports nothing of himga but
:mod:`himga.errors`, :mod:`himga.jsonio` and :mod:`himga.identifiers`: the builders and the cache import it, and
:mod:`himga.data` (the seed's face: the loaders) re-exports it.

The dataclasses import without ``datasets`` or ``pyarrow``; the row converters (``pyarrow``), the features and the
system view (``datasets``) are imported on first use.
"""

from .dates import TemporalParser, parse_date
from .helpers import (
    answer_sessions,
    chronological,
    evidence_messages,
    evidence_sessions,
    iter_messages,
    noise_sessions,
    qa_by_type,
    session_sort_key,
)
from .ids import item_id
from .relevance import Relevance, RelevanceRule
from .sample import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

_CONVERT = ("row_to_sample", "sample_to_row", "table_to_samples")
_VIEW = ("SystemQuestion", "SystemSample", "ViewIds", "system_view", "view_ids")


def __getattr__(name: str):
    """The row converters (``pyarrow``), ``SAMPLE_FEATURES`` and the system view (``datasets``), on first use."""
    if name in _CONVERT:
        from himga.schema import convert as module
    elif name == "SAMPLE_FEATURES":
        from himga.schema import features as module
    elif name in _VIEW:
        from himga.schema import view as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = getattr(module, name)
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "SAMPLE_FEATURES",
    "EvidenceRef",
    "Message",
    "QAPair",
    "QuestionType",
    "Relevance",
    "RelevanceRule",
    "Sample",
    "Session",
    "SystemQuestion",
    "SystemSample",
    "TemporalParser",
    "ViewIds",
    "answer_sessions",
    "chronological",
    "evidence_messages",
    "evidence_sessions",
    "item_id",
    "iter_messages",
    "noise_sessions",
    "parse_date",
    "qa_by_type",
    "row_to_sample",
    "sample_to_row",
    "session_sort_key",
    "system_view",
    "table_to_samples",
    "view_ids",
]
