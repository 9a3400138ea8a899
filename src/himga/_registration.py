"""Make ``datasets.load_dataset("himga_locomo")`` and ``datasets.load_dataset("himga_longmemeval", ...)`` work.

``datasets`` (≥ 4) has no public hook for registering a builder by name, so this module wraps exactly one
internal function, ``datasets.load.dataset_module_factory``, which ``datasets.load_dataset_builder`` (and so
``datasets.load_dataset``) calls to turn a name into a ``datasets.load.DatasetModule``. For the ``load_name``
of each :data:`himga.catalog.CATALOG` entry (``himga_locomo``, ``himga_longmemeval``) the wrapper returns a module
pointing at our builder, with :func:`code_hash` as its
hash (the cache key); every other name goes to the original function unchanged.

Internals used, checked when this module is imported (:func:`check_datasets`):

* ``datasets.load.dataset_module_factory`` — replaced by a wrapper (the module attribute, which
  ``load_dataset_builder`` looks up at call time);
* ``datasets.load.DatasetModule`` — the dataclass the wrapper returns (fields ``module_path``, ``hash``,
  ``builder_kwargs``); ``load_dataset_builder`` pops ``data_dir`` and ``data_files`` from
  ``builder_kwargs`` in preference to its own arguments, which is how relative paths are resolved
  here (``data_dir`` against the current directory, ``data_files`` against ``data_dir`` when given, as
  ``datasets``' own packaged builders do; see :func:`himga.cache._prepare.source_files`).

One more internal is used by the builders' batch writer (:mod:`himga.cache._arrow_batches`) and checked here too:
``datasets.ArrowBasedBuilder._prepare_split_single`` (keyword parameters ``gen_kwargs``, ``fpath``,
``file_format``, ``max_shard_size``, ``job_id``; the same in every supported version).

Nothing else is patched here (the builders' base class, :mod:`himga.cache._guarded`, swaps
``datasets.builder.FileLock`` while they open a cache, so that a read-only cache can be read). Our path never calls
``datasets.load.increase_load_count`` (the download-count
request ``datasets`` sends for its packaged builders), so loading makes no network request unless the
builder itself has to download its source. ``himga/__init__.py`` calls :func:`register` once ``datasets`` is
imported (a post-import hook), so after any ``import himga...`` the names are known to ``datasets.load_dataset``
without ``import himga`` importing ``datasets`` itself; registering twice is harmless.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import datasets
import datasets.load
from packaging.specifiers import SpecifierSet

from himga.entry import Benchmark
from himga.errors import HimgaError

__all__ = ["SUPPORTED_DATASETS", "UnsupportedDatasetsError", "check_datasets", "register"]

#: The ``datasets`` versions this module was written and tested against (CI runs the oldest and the newest).
SUPPORTED_DATASETS = ">=4.0,<6"

_MODULE_FIELDS = {"module_path", "hash", "builder_kwargs"}
_FACTORY_PARAMS = {"path", "data_dir", "data_files"}
_WRITER_PARAMS = {"gen_kwargs", "fpath", "file_format", "max_shard_size", "job_id"}


class UnsupportedDatasetsError(HimgaError, ImportError):
    """The installed ``datasets`` is outside :data:`SUPPORTED_DATASETS` or lacks an internal we use."""


def check_datasets() -> None:
    """Check that the installed ``datasets`` has the version and the internals this module relies on.

    Raises:
        UnsupportedDatasetsError: the version is outside :data:`SUPPORTED_DATASETS`, or
            ``datasets.load.dataset_module_factory`` / ``datasets.load.DatasetModule`` /
            ``datasets.ArrowBasedBuilder._prepare_split_single`` is missing or has a different shape.
            The message names the supported range.
    """
    hint = f"himga supports datasets{SUPPORTED_DATASETS}; install a version in that range"
    if not SpecifierSet(SUPPORTED_DATASETS).contains(datasets.__version__, prereleases=True):
        raise UnsupportedDatasetsError(f"datasets {datasets.__version__} is installed; {hint}")
    factory = getattr(datasets.load, "dataset_module_factory", None)
    module_cls = getattr(datasets.load, "DatasetModule", None)
    if factory is None or module_cls is None:
        raise UnsupportedDatasetsError(
            f"datasets {datasets.__version__} has no datasets.load.dataset_module_factory/DatasetModule; {hint}"
        )
    factory = getattr(factory, "__wrapped__", factory)
    if not _FACTORY_PARAMS <= set(inspect.signature(factory).parameters) or not _MODULE_FIELDS <= set(
        getattr(module_cls, "__dataclass_fields__", {})
    ):
        raise UnsupportedDatasetsError(
            f"datasets {datasets.__version__}: dataset_module_factory or DatasetModule changed shape; {hint}"
        )
    writer = getattr(datasets.ArrowBasedBuilder, "_prepare_split_single", None)
    if writer is None or not _WRITER_PARAMS <= set(inspect.signature(writer).parameters):
        raise UnsupportedDatasetsError(
            f"datasets {datasets.__version__}: ArrowBasedBuilder._prepare_split_single changed shape; {hint}"
        )


def _dataset_module(entry: Benchmark, data_dir: Any, data_files: Any) -> datasets.load.DatasetModule:
    """The ``DatasetModule`` of benchmark ``entry``: our builder, its code hash, absolute source paths."""
    from himga import cache as builders
    from himga.sources import reading_sources

    builder_kwargs: dict[str, Any] = {}
    files = None
    if data_files is not None:
        # existing files literally, even with [ ] * ? in their names; relative to data_dir when it is given
        entry.builder.check_split_names(data_files)
        with reading_sources(entry.name):  # only the files named are examined here
            files = builders.source_files(data_files, base=data_dir)
        builder_kwargs["data_files"] = builders.escaped(files)
    elif data_dir is not None:
        builder_kwargs["data_dir"] = builders.existing_source(entry, data_dir)
    source_dir = builder_kwargs.get("data_dir")
    if not builder_kwargs:  # the default source: a $HIMGA_DATASETS_ROOT folder is user-editable, so key its files
        from himga.sources import datasets_root

        root = datasets_root()
        if root is not None and (root / entry.name).is_dir():
            source_dir = str(root / entry.name)
    with reading_sources(entry.name, [source_dir, *(files or [])]):
        key = builders.cache_key(entry, source_dir, files)  # covers the identity of every source file
    return datasets.load.DatasetModule(module_path=entry.builder_module, hash=key, builder_kwargs=builder_kwargs)


def _entry(load_name: str) -> Benchmark | None:
    """The catalogue entry registered as ``load_name`` (the catalogue is imported on the first such call)."""
    from himga.catalog import by_load_name

    return by_load_name(load_name)


def register() -> None:
    """Install the wrapper around ``datasets.load.dataset_module_factory`` (idempotent).

    Raises:
        UnsupportedDatasetsError: see :func:`check_datasets`.
    """
    check_datasets()
    original = datasets.load.dataset_module_factory
    if getattr(original, "_himga", False):
        return
    signature = inspect.signature(original)

    @functools.wraps(original)
    def dataset_module_factory(*args: Any, **kwargs: Any) -> datasets.load.DatasetModule:
        bound = signature.bind(*args, **kwargs)
        path = bound.arguments["path"]
        if isinstance(path, str) and (entry := _entry(path)) is not None:
            return _dataset_module(entry, bound.arguments.get("data_dir"), bound.arguments.get("data_files"))
        return original(*args, **kwargs)

    dataset_module_factory._himga = True
    datasets.load.dataset_module_factory = dataset_module_factory
