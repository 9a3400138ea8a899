"""``himga.data``: the benchmarks as plain dataclasses, backed by Arrow datasets: the seed's face.

The loaders (:func:`load_dataset`, ``load_<benchmark>``, :func:`build_dataset`) and lazy samples live here; the data
model they return is :mod:`himga.schema`'s, re-exported under the same names.

Example:
    >>> from himga.data import load_dataset, QuestionType
    >>> samples = load_dataset("locomo")  # doctest: +SKIP
    >>> sum(qa.question_type == QuestionType.TEMPORAL for s in samples for qa in s.qa_pairs)  # doctest: +SKIP
    321
"""

from himga.schema import (
    EvidenceRef,
    Message,
    QAPair,
    QuestionType,
    Relevance,
    Sample,
    Session,
    TemporalParser,
    answer_sessions,
    chronological,
    evidence_messages,
    evidence_sessions,
    item_id,
    iter_messages,
    noise_sessions,
    parse_date,
    qa_by_type,
    session_sort_key,
)

_LOADERS = ("build_dataset", "load_dataset", "load_locomo", "load_longmemeval")
_LAZY = ("LazySamples", "samples_from_dataset")
#: The schema's names it imports on first use (the row converters: pyarrow; the features, the view: datasets).
_SCHEMA = (
    "SAMPLE_FEATURES",
    "SystemQuestion",
    "SystemSample",
    "ViewIds",
    "row_to_sample",
    "sample_to_row",
    "system_view",
    "table_to_samples",
    "view_ids",
)


def __getattr__(name: str):
    """The loaders and lazy samples (they run the builders, which import the schema), and the schema's names that
    import ``pyarrow`` or ``datasets``, on first use: the dataclasses import without either."""
    if name in _LOADERS:
        from himga.data import loaders as module
    elif name in _LAZY:
        from himga.data import lazy as module
    elif name in _SCHEMA:
        import himga.schema as module
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
