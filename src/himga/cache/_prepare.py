"""Running the builders: a catalogue entry's builder with himga's cache key, and its errors unwrapped.

Used by the facade (:mod:`himga.data.loaders`), the CLI and the ``datasets`` registration. The cache of a
build lives where ``datasets`` puts it (``$HF_DATASETS_CACHE``); its path contains the key of
:mod:`himga.cache._key`, which changes with the code that shapes rows and with the source files.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import datasets

from himga.cache._faults import unwrap
from himga.cache._key import cache_key, code_hash
from himga.cache._progress import rows_progress
from himga.entry import Benchmark
from himga.errors import ConfigurationError
from himga.sources import check_source_kind, reading_sources, source_path

__all__ = [
    "build_files",
    "cache_key",
    "check_source_kind",
    "code_hash",
    "escaped",
    "existing_source",
    "make_builder",
    "path_builder",
    "prepare",
    "source_files",
    "unchecked_builder",
    "unwrap",
]


def make_builder(
    entry: Benchmark,
    config: str | None = None,
    *,
    data_dir: str | Path | None = None,
    data_files: Any = None,
    cache_dir: str | Path | None = None,
    **options: Any,
) -> datasets.GeneratorBasedBuilder:
    """Instantiate the builder of ``entry`` with himga's cache key.

    Args:
        entry: The benchmark (a :class:`~himga.catalog.Benchmark`; its name is accepted too).
        config: The config name (default: the builder's default).
        data_dir: A folder (or a single file) of source files; default: :func:`himga.sources.get_dataset`.
        data_files: Source files (a path, a list, or a ``{split: files}`` dict; an existing file is
            taken literally, other entries with glob characters are patterns); overrides ``data_dir``,
            and a relative entry is relative to ``data_dir`` when that is given (as ``datasets``' own
            packaged builders resolve it), else to the working directory.
        cache_dir: The ``datasets`` cache folder (default ``$HF_DATASETS_CACHE``).
        **options: Config options (e.g. ``category_order="seed"`` for LoCoMo); checked by the builder
            (:meth:`~himga.catalog.Benchmark.check_options`).

    Raises:
        ConfigurationError: unknown dataset, config or option value; a source that does not exist; ``data_files``
            as ``{split: files}`` with another split than ``test``.
    """
    entry.check_options(options, make_builder)
    return unchecked_builder(entry, config, data_dir=data_dir, data_files=data_files, cache_dir=cache_dir, **options)


def path_builder(
    entry: Benchmark, config: str | None, path: str | Path | None, **kwargs: Any
) -> datasets.GeneratorBasedBuilder:
    """:func:`unchecked_builder` for one source path, as the facade, the CLI and ``himga validate`` take it:
    a file is ``data_files`` (its name taken literally), a folder ``data_dir``, ``None`` the pinned source.

    Raises:
        ConfigurationError: a path that is neither a file nor a folder (a FIFO, a device), and as
            :func:`make_builder`.
    """
    data_dir = data_files = None
    if path is not None:
        check_source_kind(entry.name, path)
        path = Path(path).expanduser()
        with reading_sources(entry.name, [path]):
            if path.is_file():
                data_files = [str(path)]
            else:
                data_dir = path
    return unchecked_builder(entry, config, data_dir=data_dir, data_files=data_files, **kwargs)


def build_files(entry: Benchmark, config: str | None, path: str | Path | None) -> list[Path]:
    """The files a build of ``config`` from ``path`` (a file, a folder, or ``None``: the pinned source) reads, found as
    the build finds them (:meth:`~himga.cache.GuardedBuilder.source_files`, after the builder resolved the config);
    nothing is read or built.

    Raises:
        ConfigurationError, DownloadError, ChecksumError, SourceFormatError: as for a build.
    """
    import tempfile

    with tempfile.TemporaryDirectory(prefix="himga-files-") as scratch:
        return path_builder(entry, config, path, cache_dir=scratch).source_files()


def unchecked_builder(
    entry: Benchmark,
    config: str | None = None,
    *,
    data_dir: str | Path | None = None,
    data_files: Any = None,
    cache_dir: str | Path | None = None,
    **options: Any,
) -> datasets.GeneratorBasedBuilder:
    """:func:`make_builder` for a caller that has checked ``options`` already (the facade checks once)."""
    if config is not None:
        entry.config(config)  # unknown configs: ConfigurationError
    if data_dir is None and data_files is None:
        data_dir, data_files = _default_source(entry, config)
    files = None
    if data_files is not None:
        entry.builder.check_split_names(data_files)
        with reading_sources(entry.name):  # only the files named are examined here
            files = source_files(data_files, base=data_dir)
        data_dir = None
    else:
        data_dir = existing_source(entry, data_dir)
    with reading_sources(entry.name, [data_dir, *(files or [])]):  # the key lists a folder and stats each file
        key = cache_key(entry, data_dir, files)
    try:
        return entry.builder(
            cache_dir=str(cache_dir) if cache_dir is not None else None,
            config_name=config,
            data_dir=data_dir,
            data_files=escaped(files) if files is not None else None,
            hash=key,
            **options,
        )
    except TypeError as e:  # an option the config does not have
        raise ConfigurationError(f"{entry.name}: {e}") from None


def _default_source(entry: Benchmark, config: str | None) -> tuple[Path | None, list[Path] | None]:
    """``(data_dir, data_files)`` of the pinned source of ``config`` (default: the builder's default config): the
    files the entry's file rule gives without a path (:meth:`~himga.entry.Benchmark.source_files`: found by
    :func:`himga.sources.pinned_source` or :func:`~himga.sources.pinned_files` in ``$HIMGA_DATASETS_ROOT/<name>``
    or the download cache); one file as ``data_dir``, several (a pin of several files) as ``data_files``.

    Only the config's own files, never the folder's other files. Resolved before the build
    so that the cache key covers them: switching ``HIMGA_DATASETS_ROOT`` or replacing a cached file never
    serves rows built from another source.
    """
    files = entry.source_files(config or entry.default_config, None)
    return (files[0], None) if len(files) == 1 else (None, files)


def existing_source(entry: Benchmark, data_dir: str | Path) -> str:
    """``data_dir`` (a source folder or file) as an absolute path.

    Raises:
        ConfigurationError: it does not exist (``"locomo: source '…' does not exist"``), or is something else than
            a file or a folder (:func:`himga.sources.source_path`).
    """
    return str(source_path(entry.name, data_dir).resolve())


def source_files(data_files: Any, base: str | Path | None = None) -> list[Path]:
    """The files named by ``data_files`` (a path, a list, or a ``{split: paths}`` dict), absolute, in order.

    The one rule for where a ``data_files`` entry points, used by every route (:func:`make_builder`,
    ``datasets.load_dataset`` through :mod:`himga._registration`, streaming included). A relative entry is
    relative to ``base`` (the ``data_dir`` given with it) when there is one, else to the working
    directory: ``data_dir=DATA, data_files="longmemeval_oracle.json"`` is ``DATA/longmemeval_oracle.json``
    whatever the working directory holds, as with ``datasets``' own json builder.

    An entry that is an existing file is that file, whatever characters its name holds (``[``, ``]``,
    ``*``, ``?``, spaces); any other entry with glob characters is a pattern, expanded here with
    :func:`glob.glob` (``**`` spans folders), sorted. ``datasets`` would read every entry as a
    pattern, so ``locomo10 [1].json`` would match ``locomo10 1.json`` or nothing.

    A file named twice (the same file: same device and inode, so also ``"x.json"`` and ``"./x.json"``, a
    link and its target, or two patterns matching it) is refused: ``datasets``' own json builder would read
    it twice and give every row twice, and a sample is in one source file (two different files holding the
    same ids are refused by the builders).

    Args:
        data_files: The entries.
        base: The folder relative entries are relative to (``~`` expanded; itself relative to the
            working directory), or ``None`` for the working directory.

    Raises:
        ConfigurationError: an entry is a folder, does not exist, or is a pattern matching no file
            (the message names the entry and, with a ``base``, the folder it was looked for in); a file
            is named twice (the message names both entries and the file).
    """
    files, seen = [], {}
    for text, path in _named_files(data_files, base):
        stat = path.stat()
        if (key := (stat.st_dev, stat.st_ino)) in seen:
            named = f"as {text!r} both times" if seen[key] == text else f"as {seen[key]!r} and as {text!r}"
            raise ConfigurationError(
                f"data_files names the file {str(path)!r} twice ({named}): name each file once; "
                "it would be read twice, every sample twice"
            )
        seen[key] = text
        files.append(path)
    return files


def _named_files(data_files: Any, base: str | Path | None) -> list[tuple[str, Path]]:
    """``(entry, file)`` of every file ``data_files`` names (see :func:`source_files`), in order."""
    if isinstance(data_files, dict):
        return [f for v in data_files.values() for f in _named_files(v, base)]
    if isinstance(data_files, (list, tuple)):
        return [f for entry in data_files for f in _named_files(entry, base)]
    text = str(data_files)
    if text == "":  # Path("") is the working directory
        raise ConfigurationError("data_files entry '' is empty: give a file or a pattern")
    entry = Path(text).expanduser()
    if base is not None and not entry.is_absolute():
        entry = Path(base).expanduser() / entry
    where = f" (in data_dir {str(base)!r})" if base is not None and not Path(text).expanduser().is_absolute() else ""
    path = entry.resolve()
    if path.is_file():
        return [(text, path)]
    if path.is_dir():
        raise ConfigurationError(f"data_files entry {text!r}{where} is a folder; pass it as data_dir")
    if not glob.has_magic(text):
        raise ConfigurationError(f"source {text!r}{where} does not exist")
    matches = sorted(Path(p) for p in glob.glob(str(entry.absolute()), recursive=True) if Path(p).is_file())
    if not matches:
        raise ConfigurationError(f"data_files pattern {text!r}{where} matches no file")
    return [(text, m) for m in matches]


def escaped(files: list[Path]) -> list[str]:
    """``files`` as ``datasets`` ``data_files`` patterns that match exactly these files (``glob.escape``)."""
    return [glob.escape(str(f)) for f in files]


def prepare(builder: datasets.GeneratorBasedBuilder, **kwargs: Any) -> datasets.Dataset:
    """``download_and_prepare`` then ``as_dataset(split="test")``, re-raising himga errors unwrapped.

    Args:
        builder: From :func:`make_builder`.
        **kwargs: Passed to ``download_and_prepare`` (``num_proc``, ``download_mode``, ...).

    Returns:
        The memory-mapped ``datasets.Dataset`` of the ``test`` split.

    Raises:
        HimgaError: any himga error raised while generating rows (never a half-written cache:
            ``datasets`` writes to a temporary folder and renames it on success).
        CacheError: a damaged cache, an incomplete read-only one, a full disk (see
            :mod:`himga.cache._guarded`).
        SourceUnreadableError: a source file or folder cannot be read (:func:`himga.sources.unreadable_source`).
        OSError: another operating-system error that stopped a build ``datasets`` wrapped.
    """
    try:
        with rows_progress():  # no "Generating test split: 0 examples" above an error
            builder.download_and_prepare(**kwargs)
    except Exception as e:
        cause = unwrap(e)
        if cause is e:
            raise
        raise cause from e
    return builder.as_dataset(split="test")
