"""The Arrow cache of a build: the builders' base class, running a builder with himga's cache key, the
cache's checksum manifest and ``himga verify``.

The builders derive from :class:`GuardedBuilder` (a checked, read-only-shareable cache) and, for large
sources, :class:`ArrowBatches` (rows written to Arrow in batches); :func:`make_builder` and :func:`prepare`
run one with the key of :func:`cache_key` (the code that shapes rows, and the source files' identity);
:func:`verify` re-hashes a built cache. The modules behind this face are private.
"""

from himga.cache._arrow_batches import ArrowBatches, BatchedConfig, plain_row, rows_to_table
from himga.cache._guarded import GuardedBuilder, unwrap
from himga.cache._key import cache_key, code_hash, row_files
from himga.cache._manifest import find_caches, find_incomplete, undecodable, verify
from himga.cache._prepare import (
    build_files,
    escaped,
    existing_source,
    make_builder,
    path_builder,
    prepare,
    source_files,
    unchecked_builder,
)
from himga.cache._progress import rows_progress, split_generator

__all__ = [
    "ArrowBatches",
    "BatchedConfig",
    "GuardedBuilder",
    "build_files",
    "cache_key",
    "code_hash",
    "escaped",
    "existing_source",
    "find_caches",
    "find_incomplete",
    "make_builder",
    "path_builder",
    "plain_row",
    "prepare",
    "row_files",
    "rows_progress",
    "rows_to_table",
    "source_files",
    "split_generator",
    "unchecked_builder",
    "undecodable",
    "unwrap",
    "verify",
]
