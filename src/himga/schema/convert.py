"""The one converter between Arrow rows and :class:`~himga.schema.sample.Sample` dataclasses.

A *row* is the dict a ``datasets.Dataset`` returns for one example of :data:`~.features.SAMPLE_FEATURES`
(``raw`` columns hold JSON text). ``raw`` columns store ``null`` for an empty dict, and read
``null`` back as ``{}``; everything else maps field by field, in both directions:
``row_to_sample(sample_to_row(s)) == s``. Reading also accepts ``raw`` cells that are already dicts
(rows of a dataset built with the ``datasets.Json()`` feature of himga < builder version 1.1.0).
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from himga.jsonio.rawcell import raw_dict, raw_text

from .sample import EvidenceRef, Message, QAPair, QuestionType, Sample, Session

__all__ = ["row_to_sample", "sample_to_row", "table_to_samples"]


def sample_to_row(sample: Sample) -> dict[str, Any]:
    """Encode a Sample as a row of :data:`~.features.SAMPLE_FEATURES`.

    Args:
        sample: The Sample.

    Returns:
        A dict with the feature names as keys; ``question_type`` as its string value; ``raw`` dicts
        as JSON text, empty ones as ``None``.
    """
    return {
        "sample_id": sample.sample_id,
        "dataset": sample.dataset,
        "sessions": [
            {
                "session_id": s.session_id,
                "messages": [
                    {
                        "role": m.role,
                        "content": m.content,
                        "turn_id": m.turn_id,
                        "date_str": m.date_str,
                        "raw": raw_text(m.raw),
                    }
                    for m in s.messages
                ],
                "date_str": s.date_str,
                "title": s.title,
            }
            for s in sample.sessions
        ],
        "qa_pairs": [
            {
                "question_id": qa.question_id,
                "question": qa.question,
                "answer": qa.answer,
                "question_type": qa.question_type.value,
                "evidence": {
                    "turn_ids": list(qa.evidence.turn_ids),
                    "session_ids": list(qa.evidence.session_ids),
                },
                "raw": raw_text(qa.raw),
                "position": qa.position,
                "options": list(qa.options),
            }
            for qa in sample.qa_pairs
        ],
        "speaker_a": sample.speaker_a,
        "speaker_b": sample.speaker_b,
        "raw": raw_text(sample.raw),
    }


def row_to_sample(row: Mapping[str, Any]) -> Sample:
    """Decode one row of :data:`~.features.SAMPLE_FEATURES` into a Sample.

    Args:
        row: One example as returned by ``Dataset.__getitem__`` or by iterating an ``IterableDataset``.

    Returns:
        The Sample.

    Raises:
        ValueError: ``question_type`` is not a :class:`QuestionType` value.
        KeyError: the row lacks a feature (it was not built with these features).
    """
    return Sample(
        sample_id=row["sample_id"],
        dataset=row["dataset"],
        sessions=[
            Session(
                session_id=s["session_id"],
                messages=[
                    Message(
                        role=m["role"],
                        content=m["content"],
                        turn_id=m["turn_id"],
                        date_str=m["date_str"],
                        raw=raw_dict(m["raw"]),
                    )
                    for m in s["messages"]
                ],
                date_str=s["date_str"],
                title=s["title"],
            )
            for s in row["sessions"]
        ],
        qa_pairs=[
            QAPair(
                question_id=qa["question_id"],
                question=qa["question"],
                answer=qa["answer"],
                question_type=QuestionType(qa["question_type"]),
                evidence=EvidenceRef(
                    turn_ids=list(qa["evidence"]["turn_ids"]),
                    session_ids=list(qa["evidence"]["session_ids"]),
                ),
                raw=raw_dict(qa["raw"]),
                position=qa["position"],
                options=list(qa["options"] or []),  # a null list (a row written without the field) is none
            )
            for qa in row["qa_pairs"]
        ],
        speaker_a=row["speaker_a"],
        speaker_b=row["speaker_b"],
        raw=raw_dict(row["raw"]),
    )


# --- column-wise: a whole Arrow table (or record batch) at once --------------------------------------
#
# Same mapping as row_to_sample, but read column by column: each leaf column becomes one Python list
# (Arrow's C++ to_pylist), and nested lists are cut by their offsets. No per-row dicts are built, so
# converting many rows costs little more than creating the dataclasses themselves.


def _json_column(array: pa.Array) -> list:
    """A ``raw`` column (JSON text) → dicts (a new ``{}`` for each null; most ``raw`` values are null).

    Also reads the ``arrow.json`` extension type of older himga datasets (``datasets.Json()``).
    """
    out = [{} for _ in range(len(array))]
    if array.null_count < len(array):
        values = array.storage if isinstance(array, pa.ExtensionArray) else array
        for i in pc.indices_nonzero(values.is_valid()).to_pylist():
            out[i] = raw_dict(values[i].as_py())
    return out


def _unnest(array: pa.Array) -> tuple[list[int], pa.Array]:
    """A (possibly sliced) list array → (offsets starting at 0, the values those offsets index)."""
    offsets = array.offsets.to_pylist()
    base = offsets[0]
    if base:
        offsets = [o - base for o in offsets]
    return offsets, array.values.slice(base, offsets[-1])


def _fields(struct: pa.Array) -> dict[str, pa.Array]:
    return {struct.type.field(i).name: child for i, child in enumerate(struct.flatten())}


def _cut(items: list, offsets: list[int]) -> list[list]:
    return [items[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


def _nested(array: pa.Array) -> list[list]:
    """A list<string> array → a list of Python lists."""
    offsets, values = _unnest(array)
    return _cut(values.to_pylist(), offsets)


def table_to_samples(table: pa.Table | pa.RecordBatch, *, sessions: bool = True) -> list[Sample]:
    """Decode every row of an Arrow table of :data:`~.features.SAMPLE_FEATURES` into Samples, column-wise.

    Gives the same Samples as ``[row_to_sample(r) for r in dataset]`` (``raw`` columns decoded with
    :func:`~himga.jsonio.rawcell.raw_dict`), several times faster on many rows: every leaf column becomes one
    Python list and the nested lists are cut by their Arrow offsets, so no per-row dicts are built.

    Args:
        table: Rows with the Sample features, e.g. ``dataset.with_format("arrow")[i:j]`` or a batch of
            ``dataset.data.to_batches()``; sliced tables are fine.
        sessions: ``False``: leave every Sample's ``sessions`` empty, without reading the ``sessions`` column (it
            may be absent): the QA pairs, ids and ``raw`` alone, which is what scoring reads (a LongMemEval
            haystack is most of a row).

    Returns:
        One Sample per row, in order.

    Raises:
        ValueError: ``question_type`` is not a :class:`QuestionType` value.
        KeyError: the table lacks a feature column.
    """
    if isinstance(table, pa.Table):  # one batch at a time: no copy of the (memory-mapped) chunks
        return [sample for batch in table.to_batches() for sample in table_to_samples(batch, sessions=sessions)]
    # Only acyclic objects are created here: pausing the cyclic GC (which would otherwise rescan the
    # growing heap every few hundred allocations) roughly halves the cost.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _batch_to_samples(table, sessions)
    finally:
        if paused:
            gc.enable()


def _sessions(column: pa.Array) -> list[list[Session]]:
    """The ``sessions`` column → each row's list of Sessions."""
    s_off, s = _unnest(column)
    s = _fields(s)
    m_off, m = _unnest(s["messages"])
    m = _fields(m)
    messages = list(
        map(
            Message,
            m["role"].to_pylist(),
            m["content"].to_pylist(),
            m["turn_id"].to_pylist(),
            m["date_str"].to_pylist(),
            _json_column(m["raw"]),
        )
    )
    sessions = list(
        map(
            Session,
            s["session_id"].to_pylist(),
            _cut(messages, m_off),
            s["date_str"].to_pylist(),
            s["title"].to_pylist(),
        )
    )
    return _cut(sessions, s_off)


def _batch_to_samples(table: pa.RecordBatch, with_sessions: bool) -> list[Sample]:
    col = dict(zip(table.schema.names, table.columns))
    sessions = _sessions(col["sessions"]) if with_sessions else [[] for _ in range(table.num_rows)]

    q_off, q = _unnest(col["qa_pairs"])
    q = _fields(q)
    e = _fields(q["evidence"])
    qa_pairs = list(
        map(
            QAPair,
            q["question_id"].to_pylist(),
            q["question"].to_pylist(),
            q["answer"].to_pylist(),
            [QuestionType(t) for t in q["question_type"].to_pylist()],
            map(EvidenceRef, _nested(e["turn_ids"]), _nested(e["session_ids"])),
            _json_column(q["raw"]),
            q["position"].to_pylist(),
            _nested(q["options"]),
        )
    )

    return list(
        map(
            Sample,
            col["sample_id"].to_pylist(),
            col["dataset"].to_pylist(),
            sessions,
            _cut(qa_pairs, q_off),
            col["speaker_a"].to_pylist(),
            col["speaker_b"].to_pylist(),
            _json_column(col["raw"]),
        )
    )
