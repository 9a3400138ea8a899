"""The base class of himga's builders: a ``GeneratorBasedBuilder`` whose cache is checked, shareable read-only,
and whose cache faults are himga errors on every route (the facade, the CLI, ``datasets.load_dataset``).

What it adds to ``datasets.GeneratorBasedBuilder`` (each override calls ``super()`` and changes nothing else):

* ``_save_info`` (called once per build, inside the build's ``.incomplete`` folder, after the Arrow files
  and ``dataset_info.json`` are written): also writes the checksum manifest (:func:`himga.cache._manifest.record`),
  so it is renamed into place with the cache.
* ``as_dataset``: before reading, the files' sizes against the manifest; after, the rows read against
  ``dataset_info.json`` (:func:`himga.cache._manifest.check_sizes`, :func:`~himga.cache._manifest.check_rows`); an Arrow
  read error becomes a :class:`~himga.errors.CacheError` naming the folder; then the builder's
  :meth:`~GuardedBuilder.load_warnings`.
* ``download_and_prepare``: a folder holding the manifest but not ``dataset_info.json`` (removed after the build)
  is a damaged cache (``datasets`` would take it for unbuilt and rebuild over it).
* ``__init__`` and ``download_and_prepare``: a complete cache on a read-only file system (or in a folder
  the user cannot write) is read without writing anything; an incomplete one is a ``CacheError`` saying
  the cache is read-only; a full disk while building is a ``CacheError`` naming the folder (``datasets``
  has already removed the partial ``.incomplete`` folder); a ``dataset_info.json`` that ``datasets``
  cannot read is a ``CacheError`` when the manifest confirms the damage.

Internals of ``datasets`` used besides the builder methods it documents for subclasses (read in datasets
5.2.0 and run by CI on 4.0.0 too): ``datasets.arrow_reader.make_file_instructions`` and ``ReadInstruction``
(the rows a split or slice should have), the ``_save_info`` hook and the ``_output_dir``/``_cache_dir``
attributes, and ``datasets.builder.FileLock``, the only one replaced. ``datasets`` takes a write lock in the
cache folder before reading even a complete cache (``DatasetBuilder.__init__``: ``<root>/_tmp_…<hash>.lock``;
``download_and_prepare``: ``<folder>_builder.lock``; read in ``datasets/builder.py`` of datasets 5.2.0), and
fails on a read-only folder. While this class's
``__init__`` and ``download_and_prepare`` run, that module global is :class:`ReadOnlyTolerantLock`: the
same lock, except that a lock file which cannot be created because its folder is not writable is skipped.
Skipping is safe there: a reader that can write nothing can corrupt nothing, and ``datasets`` publishes a
build by renaming its ``.incomplete`` folder, so a reader sees a complete cache or none.

The lock is :mod:`himga.cache._locks`; the faults' diagnoses (full disk, read-only, damaged, a cache root that is
a file) and :func:`unwrap` are :mod:`himga.cache._faults`.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Mapping
from pathlib import Path

import datasets
import datasets.builder
from datasets.arrow_reader import ReadInstruction, make_file_instructions

from himga.cache import _manifest as cache
from himga.cache._faults import READ_ONLY, damage, disk_full, not_a_folder, os_error, read_only, unwrap, writable
from himga.cache._locks import ReadOnlyTolerantLock, read_only_tolerant_locks
from himga.cache._progress import split_generator
from himga.entry import entry_of_builder
from himga.errors import ConfigurationError
from himga.schema.features import SAMPLE_FEATURES
from himga.sources import reading_sources, unreadable_source

__all__ = ["GuardedBuilder", "ReadOnlyTolerantLock", "unwrap"]


def _check_config_keywords(cls: type, kwargs: dict) -> None:
    """Refuse a keyword that is neither a ``DatasetBuilder`` argument nor an option of the builder's config.

    ``datasets.load_dataset("himga_locomo", category_ordr="seed")`` would otherwise end in ``datasets``'
    ``ValueError: BuilderConfig … doesn't have a 'category_ordr' key``. The check and its wording are the
    catalogue's (:meth:`himga.catalog.Benchmark.check_options`), as on every route.

    Raises:
        ConfigurationError: names the keyword and the config's documented options (``USER_OPTIONS``).
    """
    if (entry := entry_of_builder(cls)) is not None:
        entry.check_options(kwargs, accepted=set(inspect.signature(datasets.DatasetBuilder.__init__).parameters))


class GuardedBuilder(datasets.GeneratorBasedBuilder):
    """``datasets.GeneratorBasedBuilder`` with a checked, read-only-shareable cache (see the module docstring).

    Raises (besides what ``GeneratorBasedBuilder`` raises):
        CacheError: on construction, ``download_and_prepare`` or ``as_dataset``: a damaged cache folder,
            an incomplete one that cannot be written, or a full disk while building.
    """

    @classmethod
    def check_split_names(cls, data_files) -> None:
        """Refuse ``data_files`` given as ``{split: files}`` with a split other than ``test``, the one split every
        himga build makes (``datasets`` would merge ``{"train": a, "test": b}`` into it silently). The one rule of
        every route: the builder itself, :func:`himga.cache.make_builder`, ``datasets.load_dataset("himga_…")``.

        Raises:
            ConfigurationError: ``longmemeval: data_files split 'train': himga builds one split, 'test'; pass the
                files as a list, or as {'test': [...]}``.
        """
        if not isinstance(data_files, Mapping):
            return
        for split in data_files:
            if str(split) != str(datasets.Split.TEST):
                entry = entry_of_builder(cls)
                raise ConfigurationError(
                    f"{entry.name if entry is not None else cls.__name__}: data_files split {str(split)!r}: "
                    "himga builds one split, 'test'; pass the files as a list, or as {'test': [...]}"
                )

    @classmethod
    def check_config_keywords(cls, kwargs: dict) -> None:
        """Refuse a keyword that is neither a ``DatasetBuilder`` argument nor a config field, and ``data_files`` of
        another split than ``test`` (:meth:`check_split_names`), before a subclass decides anything from the others.

        Raises:
            ConfigurationError: names the keyword and the config's documented options, or the split.
        """
        _check_config_keywords(cls, kwargs)
        cls.check_split_names(kwargs.get("data_files"))

    def _info(self) -> datasets.DatasetInfo:
        """What every himga build declares: :data:`~himga.schema.features.SAMPLE_FEATURES`, and the card's texts of the
        builder's module (``_DESCRIPTION``, ``_HOMEPAGE``, ``_LICENSE``, ``_CITATION``, as ``datasets``' script builders
        keep them)."""
        module = sys.modules[type(self).__module__]
        return datasets.DatasetInfo(
            description=module._DESCRIPTION,
            features=SAMPLE_FEATURES,
            homepage=module._HOMEPAGE,
            license=module._LICENSE,
            citation=module._CITATION,
        )

    #: ``config_rule(config_name, data_dir, data_files, builder_configs, default) -> config name``: the config a source
    #: says by its names (LongMemEval's file names, BEAM's tier folders), checked against the one asked for; ``None``:
    #: the config asked for (or the default) whatever the source. Each builder with such a rule sets its own.
    config_rule = None

    @classmethod
    def config_for(cls, config_name: str | None, data_dir, data_files) -> str:
        """The config a build of this source is: :attr:`config_rule`'s answer, else ``config_name`` or the default
        (the one rule of the builds and of export, :meth:`himga.entry.Benchmark.config_of`).

        Raises:
            ConfigurationError: as the rule (a source whose names say several configs, or none).
        """
        if cls.config_rule is None:
            return cls.DEFAULT_CONFIG_NAME if config_name is None else config_name
        return cls.config_rule(config_name, data_dir, data_files, cls.builder_configs, cls.DEFAULT_CONFIG_NAME)

    def __init__(self, *args, config_name: str | None = None, **kwargs):
        type(self).check_config_keywords(
            kwargs
        )  # a misspelled option and a foreign split first, then the source's config
        if type(self).config_rule is not None and (
            config_name is None or config_name in self.builder_configs
        ):  # else datasets names it
            config_name = type(self).config_for(config_name, kwargs.get("data_dir"), kwargs.get("data_files"))
        kwargs["config_name"] = config_name
        with read_only_tolerant_locks():
            try:
                super().__init__(*args, **kwargs)
            except Exception as e:  # datasets reads dataset_info.json here; diagnosed, else re-raised unchanged
                folder = self.__dict__.get("_cache_dir")
                folder = Path(folder) if folder else None
                if (damaged := damage(folder)) is not None:
                    raise damaged from e
                if (
                    blocked := not_a_folder(
                        self.__dict__.get("_cache_dir_root"), kwargs.get("cache_dir") is not None, e
                    )
                ) is not None:
                    raise blocked from e
                if folder is not None and (denied := os_error(e, READ_ONLY)) and not writable(folder.parent):
                    raise read_only(folder, denied) from e
                raise

    #: ``files_rule(config, data_dir) -> list[Path]``, which files a build reads from a file, a folder or ``None``
    #: (the pinned source); each builder sets its own (``staticmethod(source_files)``).
    files_rule = None

    def source_files(self) -> list[Path]:
        """The files this build reads: the ``data_files`` given, else :attr:`files_rule` on ``data_dir``.

        The rule of every route: the build itself (:meth:`_split_generators`), and anything asking which files
        a build reads (:func:`himga.cache.build_files`).

        Raises:
            ConfigurationError: ``data_files`` that match no file; and as :attr:`files_rule`.
            SourceUnreadableError: the source folder cannot be listed.
        """
        if self.config.data_files is not None:
            files = [Path(f) for split_files in self.config.data_files.values() for f in split_files]
            if not files:
                raise ConfigurationError(f"{self.name}: data_files matched no file")
            return files
        with reading_sources(self._benchmark_name(), self._source_roots()):
            return type(self).files_rule(self.config, self.config.data_dir or None)

    def _benchmark_name(self) -> str:
        """The catalogue name of this builder's benchmark (``"locomo"``), for messages."""
        entry = entry_of_builder(type(self))
        return entry.name if entry is not None else self.name

    def _source_roots(self) -> list[str]:
        """The source paths given to this build: ``data_dir`` (a file or a folder) and the ``data_files``."""
        roots = [str(self.config.data_dir)] if self.config.data_dir else []
        if self.config.data_files is not None:
            roots += [str(f) for split_files in self.config.data_files.values() for f in split_files]
        return roots

    def generate_examples(self, files: list[Path]):
        """``(key, row)`` of ``files`` as the build generates them (:meth:`_generate_examples`), without writing
        anything (``himga validate``), with the build's errors.

        Raises:
            SourceUnreadableError: a source file cannot be read; and what :meth:`_generate_examples` raises.
        """
        with reading_sources(self._benchmark_name(), [*self._source_roots(), *map(str, files)]):
            yield from self._generate_examples(files=tuple(str(f) for f in files))

    def _split_generators(self, dl_manager):
        # One generator over all files, given as a tuple (datasets would shard a list): a sample's running
        # index and the check that no sample is in two files span all of them.
        return [split_generator(self.source_files(), self.config.remote_file())]  # the bar's total for the pinned file

    def download_and_prepare(self, output_dir=None, *args, **kwargs):
        target = str(output_dir or self.cache_dir)
        folder, local = Path(target), "://" not in target
        if local and (folder / cache.MANIFEST).exists() and not (folder / cache.INFO_FILE).exists():
            cache.check_sizes(folder)  # a built cache without dataset_info.json: damaged, never rebuilt over silently
        if local and not (folder / cache.INFO_FILE).exists() and not writable(folder.parent):
            raise read_only(folder)
        with read_only_tolerant_locks():
            try:
                return super().download_and_prepare(output_dir, *args, **kwargs)
            except Exception as e:  # diagnosed below, else re-raised unchanged
                if not local:
                    raise
                if (full := disk_full(folder, e)) is not None:  # also inside datasets' DatasetGenerationError
                    raise full from e
                if (denied := os_error(e, READ_ONLY)) and not writable(folder.parent):
                    raise read_only(folder, denied) from e
                if (damaged := damage(folder)) is not None:
                    raise damaged from e
                if (unreadable := unreadable_source(self._benchmark_name(), e, self._source_roots())) is not None:
                    raise unreadable from e  # an OSError about a source, also behind datasets' wrapper
                if isinstance(e, datasets.exceptions.DatasetGenerationError) and (ours := unwrap(e)) is not e:
                    raise ours from e  # datasets.load_dataset too raises our error (the source file and path)
                raise

    def _save_info(self):
        super()._save_info()
        self._built_here = True  # this object built the rows and logged as it went: as_dataset need not repeat it
        if "://" not in str(self._output_dir):  # the build's .incomplete folder, renamed into place next
            cache.record(self._output_dir)

    def as_dataset(self, split=None, *args, **kwargs):
        import pyarrow as pa

        folder = Path(self._output_dir)  # where as_dataset reads (the cache folder unless output_dir was given)
        if "://" in str(folder) or not (folder / cache.INFO_FILE).exists():  # not built: datasets says so
            return super().as_dataset(split, *args, **kwargs)
        cache.check_sizes(folder)
        try:
            result = super().as_dataset(split, *args, **kwargs)
        except (pa.ArrowException, OSError) as e:  # ArrowInvalid: an emptied file; OSError: a message cut short
            raise cache.damaged(folder, f"its Arrow data is unreadable ({type(e).__name__}: {e})") from e
        except (UnicodeDecodeError, json.JSONDecodeError) as e:  # a bit flipped in the schema's features metadata
            raise cache.undecodable(folder, e) from None
        splits = list(self.info.splits.values())
        for spec, ds in _splits_read(split, result):  # rows read vs the rows dataset_info.json says the split/slice has
            if not isinstance(spec, ReadInstruction):
                spec = "+".join(self.info.splits) if str(spec) == "all" else str(spec)
            expected = make_file_instructions(self.dataset_name, splits, spec, "arrow", str(folder)).num_examples
            cache.check_rows(folder, str(spec), ds.num_rows, expected)
            if not self.__dict__.get("_built_here"):
                self.load_warnings(ds)
        return result

    def load_warnings(self, dataset: datasets.Dataset) -> None:
        """Log, on every load of a built cache, what the build logged about its rows (a LongMemEval question type
        the benchmark does not have): a load served from the cache would otherwise say nothing. Default: nothing.

        Args:
            dataset: The rows read (a split or a slice), memory-mapped.
        """


def _splits_read(split, result) -> list:
    """``(split spec, Dataset)`` pairs of an ``as_dataset`` result (a Dataset, a DatasetDict, or a list of them)."""
    if isinstance(result, datasets.DatasetDict):
        return list(result.items())
    if isinstance(result, datasets.Dataset):
        return [(split, result)]
    if isinstance(result, (list, tuple)) and isinstance(split, (list, tuple)):
        return [pair for s, r in zip(split, result) for pair in _splits_read(s, r)]
    return []
