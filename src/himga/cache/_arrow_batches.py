"""The fast write path of a builder: its rows converted to Arrow in batches against the declared features.

``datasets`` writes a ``GeneratorBasedBuilder``'s rows one example at a time: it re-walks every message to
JSON-encode the ``raw`` fields and lets Arrow *infer* the nested types, which costs more than parsing the
file. A builder that mixes in :class:`ArrowBatches` (before its ``GeneratorBasedBuilder`` base) has the same
rows from its ``_generate_examples`` converted in batches of ``writer_batch_size``, a ``pyarrow.array`` call per
column against :data:`~himga.schema.features.SAMPLE_FEATURES`, and written by the ``ArrowBasedBuilder`` writer
loop. A builder whose rows are large may hand its sessions over column-wise
(:class:`himga.schema.columns.SessionColumns`, from ``_generate_rows``): no Python object per message is made, and
the batch's messages become Arrow arrays in a few calls. Streaming (``as_streaming_dataset``) still iterates
``_generate_examples``; tests (``tests/builders/test_longmemeval.py``, ``tests/cache/test_arrow_batches.py``) check that
both paths give the same table.

Internal of ``datasets`` used: ``ArrowBasedBuilder._prepare_split_single`` (its keyword parameters are the
same in datasets 4.0-5.2; checked at import by :func:`himga._registration.check_datasets`).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

import datasets
import pyarrow as pa

from himga.schema.columns import SessionColumns
from himga.schema.features import SAMPLE_FEATURES

__all__ = ["ArrowBatches", "BatchedConfig", "plain_row", "rows_to_table"]

_SCHEMA = SAMPLE_FEATURES.arrow_schema
_SESSIONS = _SCHEMA.field("sessions").type  # list<Session struct>
_SESSION = _SESSIONS.value_type
_MESSAGES = _SESSION.field("messages").type  # list<Message struct>
_MESSAGE = _MESSAGES.value_type


@dataclass
class BatchedConfig(datasets.BuilderConfig):
    """The config of a builder with :class:`ArrowBatches`: how many rows one Arrow record batch holds.

    Attributes:
        writer_batch_size: Rows per Arrow record batch. A batch's rows are held as Python objects until it is
            written, so this bounds peak memory; each builder sets its default by the size of its rows.

    Raises:
        ConfigurationError: ``writer_batch_size`` is not a positive integer.
    """

    writer_batch_size: int = 10

    def __post_init__(self):
        if (
            isinstance(self.writer_batch_size, bool)
            or not isinstance(self.writer_batch_size, int)
            or self.writer_batch_size < 1
        ):
            from himga.errors import ConfigurationError

            raise ConfigurationError(f"writer_batch_size: expected a positive integer, got {self.writer_batch_size!r}")
        super().__post_init__()


def _sessions_column(values: list[SessionColumns]) -> pa.Array:
    """One batch's ``sessions`` column from its rows' columns: a list array of ``Session`` structs."""
    ids, dates, ends, roles, contents, raws, counts = [], [], [], [], [], [], [0]
    for v in values:
        ends += map(len(roles).__add__, v.ends)
        ids += v.session_ids
        dates += v.dates
        roles += v.roles
        contents += v.contents
        raws += v.raws
        counts.append(len(ids))
    n, strings = len(roles), pa.string()
    messages = pa.StructArray.from_arrays(
        [
            pa.array(roles, strings),
            pa.array(contents, strings),
            pa.nulls(n, strings),
            pa.nulls(n, strings),
            pa.array(raws, strings),
        ],
        fields=list(_MESSAGE),
    )
    sessions = pa.StructArray.from_arrays(
        [
            pa.array(ids, strings),
            pa.ListArray.from_arrays(pa.array([0, *ends], pa.int32()), messages, type=_MESSAGES),
            pa.array(dates, strings),
            pa.nulls(len(ids), strings),
        ],
        fields=list(_SESSION),
    )
    return pa.ListArray.from_arrays(pa.array(counts, pa.int32()), sessions, type=_SESSIONS)


def rows_to_table(rows: list[dict]) -> pa.Table:
    """Rows of ``SAMPLE_FEATURES`` (``raw`` fields already JSON text) → one Arrow table, a column at a time.

    A row's ``sessions`` may be :class:`SessionColumns` instead of a list of dicts (all rows of the batch alike):
    that column is then built from the columns, without a Python object per message.
    """
    columns = []
    for field in _SCHEMA:
        values = [row[field.name] for row in rows]
        if field.name == "sessions" and values and all(type(v) is SessionColumns for v in values):
            columns.append(_sessions_column(values))
        else:
            columns.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(columns, schema=_SCHEMA)


def plain_row(row: dict) -> dict:
    """``row`` with its :class:`SessionColumns` as dicts: what ``datasets`` encodes when it writes or streams rows
    one at a time."""
    sessions = row["sessions"]
    return {**row, "sessions": sessions.as_dicts()} if type(sessions) is SessionColumns else row


class ArrowBatches:
    """Mixin: write a ``GeneratorBasedBuilder``'s rows in Arrow batches of ``self._writer_batch_size`` rows."""

    #: Write Arrow batches (True) or let ``datasets`` write row by row (False; slower, same rows).
    ARROW_BATCHES = True

    def __init__(self, *args, writer_batch_size: int | None = None, **kwargs):
        # Rows per batch: the caller's writer_batch_size, else the config's (a config field: its rows' size decides).
        super().__init__(*args, writer_batch_size=writer_batch_size, **kwargs)
        if writer_batch_size is None and getattr(self.config, "writer_batch_size", None) is not None:
            self._writer_batch_size = self.config.writer_batch_size

    def _prepare_split_single(self, gen_kwargs, fpath, file_format, max_shard_size, job_id, **row_writer_kwargs):
        # row_writer_kwargs: split_info, and check_duplicate_keys in datasets < 4.5; only the row-by-row
        # writer takes them.
        args = dict(
            gen_kwargs=gen_kwargs, fpath=fpath, file_format=file_format, max_shard_size=max_shard_size, job_id=job_id
        )
        if not self.ARROW_BATCHES:
            yield from super()._prepare_split_single(**args, **row_writer_kwargs)
            return
        yield from datasets.ArrowBasedBuilder._prepare_split_single(self, **args)

    def _generate_rows(self, files):
        """``(key, row)`` pairs for :func:`rows_to_table`: the builder's examples, unless it yields rows with
        :class:`SessionColumns` here (and its examples are these rows made plain, :func:`plain_row`)."""
        return self._generate_examples(files)

    def _generate_tables(self, files):
        # Parsed records and rows are acyclic, so the cyclic GC only rescans the live batch (~25k dicts
        # at LongMemEval S-scale) every few hundred allocations; pausing it saves ~8% of the build's CPU.
        paused = gc.isenabled()
        gc.disable()
        try:
            batch: list[dict] = []
            for key, row in self._generate_rows(files):
                batch.append(row)
                if len(batch) >= self._writer_batch_size:
                    yield key, rows_to_table(batch)
                    batch = []
            if batch:
                yield key, rows_to_table(batch)
        finally:
            if paused:
                gc.enable()
