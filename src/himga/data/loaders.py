"""The facade: load a benchmark as a list of :class:`~himga.schema.sample.Sample`.

Every loader runs the dataset's builder (which parses the raw JSON and caches Arrow rows; a second
call on the same input reuses the cache) and converts the rows with :mod:`.convert`: all of them at
once (a list), or with ``lazy=True`` one at a time on access (a :class:`~.lazy.LazySamples`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import datasets

from himga.cache import path_builder, prepare
from himga.catalog import Benchmark, benchmark
from himga.errors import ConfigurationError
from himga.schema.ids import read_ids, rows_with_ids
from himga.schema.sample import Sample

from .lazy import LazySamples

__all__ = ["build_dataset", "load_dataset", "load_locomo", "load_longmemeval"]


def build_dataset(
    name: str,
    config: str | None = None,
    *,
    path: str | Path | None = None,
    cache_dir: str | Path | None = None,
    **options: Any,
) -> datasets.Dataset:
    """Build (or reuse) the Arrow cache of a benchmark and return it as a ``datasets.Dataset``.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        config: Builder config (LongMemEval: ``"s"``, ``"m"``, ``"oracle"``, ...); default the builder's.
        path: A folder of source ``.json`` files (read by the folder rule, see :func:`load_longmemeval`)
            or one file (any name); default: the pinned source, found or downloaded by
            :func:`himga.utils.get_dataset`.
        cache_dir: The ``datasets`` cache folder (default ``$HF_DATASETS_CACHE``).
        **options: Builder config options, e.g. ``category_order="seed"``.

    Returns:
        The ``test`` split, memory-mapped from the cache, with ``SAMPLE_FEATURES``.

    Raises:
        ConfigurationError: unknown name, config or option.
        SourceFormatError: a malformed source file (names the file and the record path).
        SourceUnreadableError: a source file or folder cannot be read (no permission, an I/O error).
        DownloadError, ChecksumError: the default source could not be fetched or verified.
    """
    entry = benchmark(name)
    entry.check_options(options, build_dataset)
    return _build(entry, config, path, cache_dir, options)


def _build(
    entry: Benchmark, config: str | None, path: str | Path | None, cache_dir: str | Path | None, options: dict[str, Any]
) -> datasets.Dataset:
    """:func:`build_dataset` with checked options (a file is ``data_files``, a folder ``data_dir``)."""
    return prepare(path_builder(entry, config, path, cache_dir=cache_dir, **options))


def _item_ids(dataset: datasets.Dataset) -> list[tuple[str, list[str]]]:
    """``(sample_id, item ids)`` per row, read from two Arrow columns (no Sample is built)."""
    import pyarrow.compute as pc

    table = dataset.with_format("arrow")[:]
    sample_ids = table.column("sample_id").to_pylist()
    datasets_ = table.column("dataset").to_pylist()
    qa_pairs = table.column("qa_pairs")
    question_ids = pc.struct_field(pc.list_flatten(qa_pairs), "question_id").to_pylist()
    lengths = pc.list_value_length(qa_pairs).to_pylist()
    pairs, start = [], 0
    for sample_id, name, length in zip(sample_ids, datasets_, lengths):
        local = question_ids[start : start + (length or 0)]
        start += length or 0
        scoped = benchmark(
            name
        ).relevance_rule.scoped_ids  # ids unique within a sample only: qualified, as item_id does
        pairs.append((sample_id, [f"{sample_id}:{q}" for q in local] if scoped else local))
    return pairs


def _checked(name: str, caller, options: dict[str, Any], lazy: Any) -> Benchmark:
    """The entry called ``name``, after the checks of a loader's arguments (before any build).

    Raises:
        ConfigurationError: an unknown name or option; ``lazy`` that is not ``True`` or ``False`` (``"yes"`` would
            otherwise count as true, ``"no"`` too).
    """
    entry = benchmark(name)
    entry.check_options(options, caller)
    if not isinstance(lazy, bool):
        raise ConfigurationError(f"lazy: expected True or False, got {lazy!r}")
    return entry


def _samples(dataset: datasets.Dataset, lazy: bool, ids: str | Path | None = None) -> list[Sample] | LazySamples:
    """The Samples of ``dataset``; with ``ids`` (an ids file) only the samples and QA pairs it names."""
    qa_ids = None
    if ids is not None:
        wanted = read_ids(ids)
        dataset = dataset.select(rows_with_ids(_item_ids(dataset), wanted, source=Path(ids).name))
        qa_ids = frozenset(wanted)
    samples = LazySamples(dataset, qa_ids=qa_ids)
    return samples if lazy else list(samples)


def load_locomo(
    path: str | Path,
    *,
    cache_dir: str | Path | None = None,
    lazy: bool = False,
    ids: str | Path | None = None,
    **options: Any,
) -> list[Sample] | LazySamples:
    """Load LoCoMo samples from a folder of ``.json`` files or from one file.

    Args:
        path: A folder (its ``.json`` files, parts of one source, sorted by name; other files,
            hidden files and subfolders are ignored) or one file (any name, glob characters
            included). Each file holds a list of sample records or one record, in the current
            layout or the first release's flat one.
        cache_dir: The ``datasets`` cache folder.
        lazy: Return a :class:`~.lazy.LazySamples` (a read-only sequence that builds each Sample
            on access) instead of a list.
        ids: An ids file (one ``<sample_id>:<QA index>`` per line, e.g. ``conv-26:0``, as ``himga subset``
            writes it): only the samples holding one of its QA pairs, each with only those QA pairs.
        **options: ``category_order`` (``"authors"`` default, or ``"seed"``),
            ``adversarial_answer`` (``"abstain"`` default, or ``"seed"``) and ``category3_answer``
            (``"scorer"`` default, or ``"full"``), ``gold`` (``"published"`` default, or ``"audited"``) and
            ``errata`` (a file, with ``gold="audited"``); see ``docs/gold-and-subsets.md`` and the ``himga_locomo``
            card.

    Returns:
        One Sample per conversation, in file order (``locomo10.json``: 10 samples, conv-26 first);
        a ``LazySamples`` with ``lazy=True``.

    Raises:
        SourceFormatError: malformed input, e.g. ``locomo10.json: $[3].qa[17].category: expected 1-5, got 7``;
            a duplicate key; a sample id in two files of the folder (names both).
        SourceChangedError: a file changed while it was read.
        ConfigurationError: an unknown option value; a path that does not exist; an id of ``ids``
            that names no QA pair.

    Example:
        >>> samples = load_locomo("../shared/data/locomo")  # doctest: +SKIP
        >>> samples[0].sessions[0].date_str  # doctest: +SKIP
        '1:56 pm on 8 May, 2023'
    """
    entry = _checked("locomo", load_locomo, options, lazy)
    return _samples(_build(entry, None, path, cache_dir, options), lazy, ids)


def load_longmemeval(
    path: str | Path,
    *,
    config: str | None = None,
    cache_dir: str | Path | None = None,
    lazy: bool = False,
    ids: str | Path | None = None,
    **options: Any,
) -> list[Sample] | LazySamples:
    """Load LongMemEval questions as Samples from a folder of ``.json`` files or from one file.

    Args:
        path: One file (any name), or a folder. The source rule is the same for every entry point
            (``himga_longmemeval.folder.resolve_source``): with ``config``, a folder gives only that
            config's file (``longmemeval_oracle.json`` or ``longmemeval_oracle`` for ``"oracle"``),
            else, holding no other config's file, its ``.json`` files as parts of one source; without,
            a file named after a config (or a folder holding just one) is read under that config.
        config: A builder config (``"s"``, ``"m"``, ``"oracle"``, ``"s_original"``, ...); default:
            the one the file's name belongs to. Required when the names say no config (the data
            would otherwise be labelled with a config it may not be).
        cache_dir: The ``datasets`` cache folder.
        lazy: Return a :class:`~.lazy.LazySamples` (each Sample built on access; opening a built
            cache costs milliseconds) instead of a list.
        ids: An ids file (one ``question_id`` per line, as ``himga subset`` writes it): only those questions.
        **options: Builder config options.

    Returns:
        One Sample per question, in file order; a ``LazySamples`` with ``lazy=True``.

    Raises:
        SourceFormatError: malformed input, naming the file and the question; a question in two
            files of a folder (names both).
        ConfigurationError: no config given and the names say none; a folder without the config's
            file (holding other configs' files), or with the files of several configs.
        SourceChangedError: the file changed while it was read.
    """
    entry = _checked("longmemeval", load_longmemeval, options, lazy)
    return _samples(_build(entry, config, path, cache_dir, options), lazy, ids)


def load_dataset(
    name: str,
    config: str | None = None,
    *,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    lazy: bool = False,
    ids: str | Path | None = None,
    **options: Any,
) -> list[Sample] | LazySamples:
    """Load a benchmark by name, downloading the pinned source on first use.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        config: LongMemEval config (default ``"s"``; without ``data_dir`` it reads only its own file,
            ``longmemeval_s_cleaned.json``, see :func:`himga.sources.pinned_source`); LoCoMo has one config.
        data_dir: A local folder or file instead of the default source (see :func:`himga.utils.get_dataset`);
            a folder is read by the folder rule (see :func:`load_longmemeval`).
        cache_dir: The ``datasets`` cache folder.
        lazy: Return a :class:`~.lazy.LazySamples` (each Sample built on access) instead of a list.
        ids: An ids file (``himga subset``): only the QA pairs it names, and the samples holding them
            (see :func:`load_locomo`, :func:`load_longmemeval`).
        **options: Builder config options.

    Returns:
        The Samples, in source order (a list, or a ``LazySamples`` with ``lazy=True``).

    Raises:
        ValueError: unknown ``name`` (a :class:`~himga.errors.ConfigurationError`).
        DownloadError: offline with no local copy; the message says where to put the file.
    """
    entry = _checked(name, load_dataset, options, lazy)
    return _samples(_build(entry, config, data_dir, cache_dir, options), lazy, ids)
