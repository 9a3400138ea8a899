"""A lazy sequence of Samples over a memory-mapped Arrow dataset.

:class:`LazySamples` is what the facade returns with ``lazy=True``: opening costs no conversion, and a
Sample is built (by :func:`.convert.table_to_samples`, the one converter) only when it is accessed. Slices are lazy
too; they share the same ``datasets.Dataset`` and hold only a ``range`` of row indices.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import overload

import datasets

import himga.catalog  # noqa: F401 - the catalogue's entries register each benchmark's rules, which these Samples use
from himga.schema.convert import row_to_sample, table_to_samples
from himga.schema.ids import restrict
from himga.schema.sample import Sample

__all__ = ["LazySamples", "qa_samples", "samples_from_dataset"]

#: Arrow bytes converted per batch while iterating (LongMemEval-S: ~32 rows, M: ~3, LoCoMo: all 10),
#: so iterating holds one batch of Python objects besides the Sample being used.
_ITER_BATCH_BYTES = 16 * 2**20
_ITER_BATCH_MAX_ROWS = 64
_QA_BATCH_ROWS = 1024  # rows per batch of qa_samples (no sessions: a LongMemEval row is then ~1 KB)


class LazySamples(Sequence[Sample]):
    """A read-only :class:`collections.abc.Sequence` of Samples, materialized one at a time on access.

    ``len``, indexing (negative indices too), slicing (returns another ``LazySamples``), iteration,
    ``in``, ``index`` and ``count`` behave as on a list. Every access builds a new Sample, so
    ``samples[0] == samples[0]`` but ``samples[0] is not samples[0]``; keep a reference (or call
    ``list(samples)``) to reuse one.

    Args:
        dataset: A ``datasets.Dataset`` with :data:`~.features.SAMPLE_FEATURES` (e.g. from
            :func:`~.loaders.build_dataset`), typically memory-mapped from the Arrow cache.
        indices: The dataset rows this sequence shows, in order; default all of them.
        qa_ids: Keep only the QA pairs with these item ids (:func:`~.ids.item_id`); default all.

    Example:
        >>> samples = load_locomo("../shared/data/locomo", lazy=True)  # doctest: +SKIP
        >>> len(samples), samples[-1].sample_id  # doctest: +SKIP
        (10, 'conv-50')
    """

    __slots__ = ("_arrow", "_dataset", "_indices", "_qa_ids")

    def __init__(
        self, dataset: datasets.Dataset, indices: range | None = None, *, qa_ids: frozenset[str] | None = None
    ) -> None:
        self._dataset = dataset
        self._indices = range(len(dataset)) if indices is None else indices
        self._qa_ids = qa_ids
        # Rows are read as Arrow tables and converted column-wise (no per-row dicts).
        self._arrow = dataset.with_format("arrow")

    @property
    def dataset(self) -> datasets.Dataset:
        """The underlying ``datasets.Dataset`` (all its rows, not only this slice's)."""
        return self._dataset

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> LazySamples: ...

    def __getitem__(self, index: int | slice) -> Sample | LazySamples:
        """One Sample (built now) for an int, a ``LazySamples`` view for a slice.

        Raises:
            IndexError: the index is out of range.
            TypeError: the index is neither an int nor a slice.
        """
        if isinstance(index, slice):
            view = LazySamples.__new__(LazySamples)
            view._dataset, view._arrow, view._indices = self._dataset, self._arrow, self._indices[index]
            view._qa_ids = self._qa_ids
            return view
        try:
            row = self._indices[index]
        except IndexError:
            raise IndexError(f"LazySamples index {index} out of range for length {len(self)}") from None
        except TypeError:
            raise TypeError(f"LazySamples indices must be integers or slices, not {type(index).__name__}") from None
        return self._restricted(_converted(self._dataset, self._arrow[row : row + 1]))[0]

    def _restricted(self, samples: list[Sample]) -> list[Sample]:
        return samples if self._qa_ids is None else [restrict(s, self._qa_ids) for s in samples]

    def __iter__(self) -> Iterator[Sample]:
        """Yield the Samples in order, converting Arrow batches of rows (one batch in memory at a time)."""
        indices = self._indices
        rows = len(self._dataset)
        row_bytes = self._dataset.data.nbytes / rows if rows else 1
        step = max(1, min(_ITER_BATCH_MAX_ROWS, int(_ITER_BATCH_BYTES // max(row_bytes, 1))))
        for start in range(0, len(indices), step):
            chunk = indices[start : start + step]
            table = self._arrow[chunk.start : chunk.stop] if chunk.step == 1 else self._arrow[list(chunk)]
            yield from self._restricted(_converted(self._dataset, table))

    def __repr__(self) -> str:
        return f"LazySamples(len={len(self)}, rows={self._indices!r})"


def qa_samples(dataset: datasets.Dataset) -> Iterator[Sample]:
    """The Samples of ``dataset`` (:data:`~.features.SAMPLE_FEATURES`) with their ids, QA pairs and ``raw`` and no
    sessions (``sessions == []``), in order: what scoring reads (:func:`himga.scoring.record_index`), without
    reading a haystack (most of a LongMemEval row).

    Raises:
        CacheError: a row no longer decodes (bytes altered on disk), as for :class:`LazySamples`.
    """
    arrow = dataset.select_columns([c for c in dataset.column_names if c != "sessions"]).with_format("arrow")
    for start in range(0, len(arrow), _QA_BATCH_ROWS):
        yield from _converted(dataset, arrow[start : start + _QA_BATCH_ROWS], sessions=False)


def _converted(dataset: datasets.Dataset, table, sessions: bool = True) -> list[Sample]:
    """:func:`table_to_samples`, with rows that no longer decode (bytes altered on disk) a ``CacheError``
    naming the cache folder (:func:`himga.cache._manifest.undecodable`), never a bare ``UnicodeDecodeError``."""
    try:
        return table_to_samples(table, sessions=sessions)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        if not dataset.cache_files:  # an in-memory dataset: no cache to blame
            raise
        from himga.cache import undecodable

        raise undecodable(Path(dataset.cache_files[0]["filename"]).parent, e) from None


# --- any datasets.Dataset / IterableDataset with our features ------------------------------------------


def samples_from_dataset(dataset):
    """The Samples of a ``datasets.Dataset`` or ``IterableDataset`` with :data:`~.features.SAMPLE_FEATURES`.

    Works on whatever holds our rows: the builder's output, ``datasets.load_dataset("himga_locomo")``,
    an export folder or a Hub repository loaded without himga. Rows are converted by
    :func:`row_to_sample` as they are read.

    Args:
        dataset: A ``datasets.Dataset`` (e.g. one split of a pushed repository) or a
            ``datasets.IterableDataset`` (``streaming=True``).

    Returns:
        For a ``Dataset``: a :class:`~.lazy.LazySamples`, a read-only sequence (``len``, indexing,
        slicing, iteration) that builds each Sample on access. For an ``IterableDataset``: a generator
        yielding one Sample per row, in order, reading the stream lazily.

    Raises:
        ConfigurationError: ``dataset`` is not a ``Dataset``/``IterableDataset``, or its features are
            known and a column of ``SAMPLE_FEATURES`` is missing or has another type (the message names
            the columns). Other columns (``ds.add_column("prediction", ...)``, a ``map`` that adds one)
            are ignored.
    """
    from himga.errors import ConfigurationError
    from himga.schema.features import SAMPLE_FEATURES

    if not isinstance(dataset, (datasets.Dataset, datasets.IterableDataset)):
        raise ConfigurationError(
            "expected a datasets.Dataset or IterableDataset (one split, e.g. split='test'), got "
            f"{type(dataset).__name__}"
        )
    if dataset.features is not None:
        missing = sorted(set(SAMPLE_FEATURES) - set(dataset.features))
        retyped = [c for c in SAMPLE_FEATURES if c in dataset.features and dataset.features[c] != SAMPLE_FEATURES[c]]
        if missing or retyped:
            detail = "; ".join(
                ([f"missing columns {missing}"] if missing else [])
                + ([f"columns of another type {retyped}"] if retyped else [])
            )
            raise ConfigurationError(f"the dataset does not have himga's Sample features ({detail})")
        if list(dataset.features) != list(SAMPLE_FEATURES):  # extra columns (or another order): ours only
            dataset = dataset.select_columns(list(SAMPLE_FEATURES))
    if isinstance(dataset, datasets.Dataset):
        return LazySamples(dataset)
    return (row_to_sample(row) for row in dataset)
