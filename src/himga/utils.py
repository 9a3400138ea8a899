"""The seed's name for where source files come from: re-exports of :mod:`himga.sources`.

``himga.utils.get_dataset(name)`` (the HiMGA seed API) fills in the default builder config's pinned
file; everything else is :mod:`himga.sources` under the names this module always had.
"""

from __future__ import annotations

from pathlib import Path

from himga import sources
from himga.catalog import NAMES as DATASETS
from himga.catalog import benchmark
from himga.sources import RemoteFile, cache_root, datasets_root, sha256_of

__all__ = ["DATASETS", "RemoteFile", "cache_root", "datasets_root", "default_sources", "get_dataset", "sha256_of"]


def default_sources(name: str) -> list[RemoteFile]:
    """The pinned file of dataset ``name``'s default builder config (LongMemEval: config ``s`` only).

    Raises:
        ConfigurationError: unknown name.
    """
    return [benchmark(name).pin()]


def get_dataset(name: str, *, files: list[RemoteFile] | None = None) -> Path:
    """Return the local folder holding the raw files of dataset ``name``, downloading them if needed.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        files: The files to make sure of, default :func:`default_sources` (LongMemEval:
            the default config's file).

    Returns, raises: as :func:`himga.sources.get_dataset`.
    """
    return sources.get_dataset(name, files=files if files is not None else default_sources(name))
