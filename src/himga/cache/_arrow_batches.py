"""The fast write path of a builder: its rows converted to Arrow in batches against the declared features.

``datasets`` writes a ``GeneratorBasedBuilder``'s rows one example at a time: it re-walks every message to
JSON-encode the ``raw`` fields and lets Arrow *infer* the nested types, which costs more than parsing the
file. A builder that mixes in :class:`ArrowBatches` (before its ``GeneratorBasedBuilder`` base) has the same
rows from its ``_generate_examples`` converted in batches of ``writer_batch_size`` with one ``pyarrow.array``
call against :data:`~himga.data.features.SAMPLE_FEATURES`, and written by the ``ArrowBasedBuilder`` writer
loop. Streaming (``as_streaming_dataset``) still iterates ``_generate_examples``; a test
(``tests/builders/test_longmemeval.py``) checks that both paths give the same table.

Internal of ``datasets`` used: ``ArrowBasedBuilder._prepare_split_single`` (its keyword parameters are the
same in datasets 4.0-5.2; checked at import by :func:`himga._registration.check_datasets`).
"""

from __future__ import annotations

import gc

import datasets
import pyarrow as pa

from himga.data.features import SAMPLE_FEATURES

__all__ = ["ArrowBatches", "rows_to_table"]

_SCHEMA = SAMPLE_FEATURES.arrow_schema
_ROW_TYPE = pa.struct(list(_SCHEMA))


def rows_to_table(rows: list[dict]) -> pa.Table:
    """Rows of ``SAMPLE_FEATURES`` (``raw`` fields already JSON text) → one Arrow table, in one ``pyarrow.array`` call."""
    return pa.Table.from_struct_array(pa.array(rows, type=_ROW_TYPE)).replace_schema_metadata(_SCHEMA.metadata)


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
        args = dict(gen_kwargs=gen_kwargs, fpath=fpath, file_format=file_format, max_shard_size=max_shard_size, job_id=job_id)
        if not self.ARROW_BATCHES:
            yield from super()._prepare_split_single(**args, **row_writer_kwargs)
            return
        yield from datasets.ArrowBasedBuilder._prepare_split_single(self, **args)

    def _generate_tables(self, files):
        # Parsed records and rows are acyclic, so the cyclic GC only rescans the live batch (~25k dicts
        # at LongMemEval S-scale) every few hundred allocations; pausing it saves ~8% of the build's CPU.
        paused = gc.isenabled()
        gc.disable()
        try:
            batch: list[dict] = []
            for key, row in self._generate_examples(files):
                batch.append(row)
                if len(batch) >= self._writer_batch_size:
                    yield key, rows_to_table(batch)
                    batch = []
            if batch:
                yield key, rows_to_table(batch)
        finally:
            if paused:
                gc.enable()
