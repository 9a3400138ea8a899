"""Running the builders: which builder serves which dataset, its cache key, and error unwrapping.

Used by the facade (:mod:`.loaders`), the CLI and the ``datasets`` registration. The cache of a
build lives where ``datasets`` puts it (``$HF_DATASETS_CACHE``); its path contains :func:`code_hash`,
which changes with the himga version and with the source of every module that shapes rows, so a
code change never serves stale rows.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import importlib
import inspect
from functools import cache
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any

import datasets

from himga.data.progress import rows_progress
from himga.errors import ConfigurationError, HimgaError
from himga.sourceid import file_identity, path_kind
from himga.sources import RemoteFile, pinned_source
from himga.version import __version__

__all__ = [
    "BUILDER_MODULES",
    "auxiliary_pins",
    "builder_class",
    "cache_key",
    "check_options",
    "code_hash",
    "default_sources",
    "escaped",
    "check_source_kind",
    "existing_source",
    "make_builder",
    "pinned_files",
    "prepare",
    "source_files",
]

#: Dataset name → the module holding its builder.
BUILDER_MODULES = {"locomo": "himga_locomo.locomo", "longmemeval": "himga_longmemeval.longmemeval"}

#: Modules whose source shapes the rows of every dataset.
_SHARED_MODULES = ("himga.data.schema", "himga.data.features", "himga.jsonfile", "himga.jsonkeys", "himga.rawcell", "himga.errors")


def builder_class(name: str) -> type[datasets.GeneratorBasedBuilder]:
    """The builder class of dataset ``name`` (``"locomo"`` or ``"longmemeval"``).

    Raises:
        ValueError: unknown name (a :class:`~himga.errors.ConfigurationError`).
    """
    if name not in BUILDER_MODULES:
        raise ConfigurationError(f"unknown dataset {name!r}; expected one of {sorted(BUILDER_MODULES)}")
    module = importlib.import_module(BUILDER_MODULES[name])
    return next(
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj) and issubclass(obj, datasets.GeneratorBasedBuilder) and obj.__module__ == module.__name__
    )


def pinned_files(name: str) -> dict[str, RemoteFile]:
    """Config name → the pinned source file of that config of dataset ``name`` (builder order).

    Raises:
        ValueError: unknown name (a :class:`~himga.errors.ConfigurationError`).
    """
    cls = builder_class(name)
    return {config.name: config.remote_file() for config in cls.BUILDER_CONFIGS}


def auxiliary_pins(name: str) -> list[tuple[str, str, RemoteFile]]:
    """``(folder, label, pin)`` of the other pinned files dataset ``name``'s builder reads, from its config
    class's ``auxiliary_pins()`` (LoCoMo: ``("locomo-audit", "errata", <errors.json>)``, read with
    ``gold="audited"``). ``folder`` is where the file is found under ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE``.
    """
    config_class = builder_class(name).BUILDER_CONFIG_CLASS
    return list(config_class.auxiliary_pins()) if hasattr(config_class, "auxiliary_pins") else []


def default_sources(name: str) -> list[RemoteFile]:
    """The pinned file of dataset ``name``'s default builder config (LongMemEval: config ``s`` only)."""
    return [pinned_files(name)[builder_class(name).DEFAULT_CONFIG_NAME]]


@cache
def code_hash(name: str) -> str:
    """A 16-hex-digit hash of the himga version and the source of the modules that shape ``name``'s rows.

    Covers the builder's package (every ``.py`` file beside the builder module) and the shared schema
    modules.
    """
    digest = hashlib.sha256(__version__.encode())
    package_dir = Path(importlib.import_module(BUILDER_MODULES[name]).__file__).parent
    for path in sorted(package_dir.glob("*.py")):
        digest.update(path.read_bytes())
    for module in _SHARED_MODULES:
        digest.update(Path(importlib.import_module(module).__file__).read_bytes())
    return digest.hexdigest()[:16]


def make_builder(
    name: str,
    config: str | None = None,
    *,
    data_dir: str | Path | None = None,
    data_files: Any = None,
    cache_dir: str | Path | None = None,
    **options: Any,
) -> datasets.GeneratorBasedBuilder:
    """Instantiate the builder of ``name`` with himga's cache key.

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        config: The config name (default: the builder's default).
        data_dir: A folder (or a single file) of source files; default: :func:`himga.sources.get_dataset`.
        data_files: Source files (a path, a list, or a ``{split: files}`` dict; an existing file is
            taken literally, other entries with glob characters are patterns); overrides ``data_dir``,
            and a relative entry is relative to ``data_dir`` when that is given (as ``datasets``' own
            packaged builders resolve it), else to the working directory.
        cache_dir: The ``datasets`` cache folder (default ``$HF_DATASETS_CACHE``).
        **options: Config options (e.g. ``category_order="seed"`` for LoCoMo).

    Raises:
        ConfigurationError: unknown dataset, config or option value; a source that does not exist.
    """
    cls = builder_class(name)
    if config is not None and config not in cls.builder_configs:
        raise ConfigurationError(f"{name}: unknown config {config!r}; expected one of {sorted(cls.builder_configs)}")
    check_options(name, options, make_builder)
    if data_dir is None and data_files is None:
        data_dir = _default_source(name, cls, config)
    files = None
    if data_files is not None:
        files = source_files(data_files, base=data_dir)
        data_dir = None
    else:
        data_dir = existing_source(name, data_dir)
    try:
        return cls(
            cache_dir=str(cache_dir) if cache_dir is not None else None,
            config_name=config,
            data_dir=data_dir,
            data_files=escaped(files) if files is not None else None,
            hash=cache_key(name, data_dir, files),
            **options,
        )
    except TypeError as e:  # an option the config does not have
        raise ConfigurationError(f"{name}: {e}") from None


def check_options(name: str, options: Mapping[str, Any], caller: Callable[..., Any]) -> None:
    """Refuse a keyword that neither ``caller`` nor the config of ``name`` takes (a misspelling, usually).

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        options: The extra keywords ``caller`` received (its ``**options``).
        caller: The public function the user called; its keywords with defaults are listed as choices.

    Raises:
        ConfigurationError: ``locomo: unknown keyword 'confg'; expected one of config, data_dir,
            cache_dir, lazy, category_order, adversarial_answer, category3_answer`` — what a user may pass: the caller's
            keywords and the config's documented ``USER_OPTIONS``, never its internal fields.
    """
    config_class = builder_class(name).BUILDER_CONFIG_CLASS
    accepted = {f.name for f in dataclasses.fields(config_class)} - set(inspect.signature(make_builder).parameters)
    if unknown := sorted(set(options) - accepted):
        keywords = [p.name for p in inspect.signature(caller).parameters.values()
                    if p.default is not p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]  # fmt: skip
        choices = ", ".join([*keywords, *getattr(config_class, "USER_OPTIONS", ())])
        raise ConfigurationError(f"{name}: unknown keyword {', '.join(map(repr, unknown))}; expected one of {choices}")


def _default_source(name: str, cls: type, config: str | None) -> Path:
    """The pinned source file of ``config`` (default: the builder's default config), found by
    :func:`himga.sources.pinned_source` in ``$HIMGA_DATASETS_ROOT/<name>`` or the download cache.

    Only the config's own file, never the folder's other files (issue 17 §2). Resolved before the build
    so that the cache key covers it: switching ``HIMGA_DATASETS_ROOT`` or replacing a cached file never
    serves rows built from another source.
    """
    config = config or cls.DEFAULT_CONFIG_NAME
    return pinned_source(name, cls.builder_configs[config].remote_file(), config=config if len(cls.builder_configs) > 1 else None)


def cache_key(name: str, data_dir: str | Path | None = None, data_files: list[Path] | None = None) -> str:
    """:func:`code_hash`, plus ``-`` and 8 hex digits of the source files' names and identities.

    The identity is ``(size, mtime_ns, ctime_ns, inode)`` (:mod:`himga.sourceid`) of each file in a
    ``data_dir`` folder, of a ``data_dir`` that is one file, and of each of ``data_files``.
    ``datasets`` keys ``data_files`` by their mtime only and ``data_dir`` only by its path: without
    this, adding a file to a folder, or an edit whose mtime was set back (``touch -r``, ``cp -p``),
    would keep serving the old rows.

    Args:
        name: The dataset name.
        data_dir: A source folder or file (absolute), or ``None``.
        data_files: Source files (from :func:`source_files`), or ``None``.
    """
    key = code_hash(name)
    if data_files is not None:
        paths = list(data_files)
    elif data_dir is not None and Path(data_dir).is_dir():
        paths = sorted(p for p in Path(data_dir).iterdir() if p.is_file())
    elif data_dir is not None and Path(data_dir).is_file():
        paths = [Path(data_dir)]
    else:
        return key
    digest = hashlib.sha256()
    for path in paths:
        identity = "\0".join(map(str, file_identity(path.stat())))
        digest.update(f"{path}\0{identity}\n".encode())
    return f"{key}-{digest.hexdigest()[:8]}"


def check_source_kind(name: str, path: str | Path) -> None:
    """Refuse a source path that is neither a regular file nor a folder (nor missing: callers say that).

    A FIFO or ``/dev/zero`` would be read forever, ``/dev/null`` is empty, a link to nothing is nothing;
    the message says what the path is (:func:`himga.sourceid.path_kind`) instead of a bare
    ``NotADirectoryError`` or "does not exist".

    Raises:
        ConfigurationError: ``"locomo: source '/dev/zero' is a character device, not a file or a folder of
            files: no source can be read from it"``.
    """
    kind = path_kind(Path(path).expanduser())
    if kind not in ("a regular file", "a folder", "missing"):
        raise ConfigurationError(f"{name}: source {str(path)!r} is {kind}, not a file or a folder of files: no source can be read from it")


def existing_source(name: str, data_dir: str | Path) -> str:
    """``data_dir`` (a source folder or file) as an absolute path.

    Raises:
        ConfigurationError: it does not exist ("source file '…' does not exist" for a name with a
            suffix, "source file or folder '…'" otherwise), or is something else than a file or a
            folder (:func:`check_source_kind`).
    """
    check_source_kind(name, data_dir)
    path = Path(data_dir).expanduser().resolve()
    if not path.exists():
        what = "source file" if path.suffix else "source file or folder"
        raise ConfigurationError(f"{name}: {what} {str(data_dir)!r} does not exist")
    return str(path)


def source_files(data_files: Any, base: str | Path | None = None) -> list[Path]:
    """The files named by ``data_files`` (a path, a list, or a ``{split: paths}`` dict), absolute, in order.

    The one rule for where a ``data_files`` entry points, used by every route (:func:`make_builder`,
    ``datasets.load_dataset`` through :mod:`himga.registry`, streaming included). A relative entry is
    relative to ``base`` (the ``data_dir`` given with it) when there is one, else to the working
    directory: ``data_dir=DATA, data_files="longmemeval_oracle.json"`` is ``DATA/longmemeval_oracle.json``
    whatever the working directory holds, as with ``datasets``' own json builder.

    An entry that is an existing file is that file, whatever characters its name holds (``[``, ``]``,
    ``*``, ``?``, spaces); any other entry with glob characters is a pattern, expanded here with
    :func:`glob.glob` (``**`` spans folders), sorted. ``datasets`` would read every entry as a
    pattern, so ``locomo10 [1].json`` would match ``locomo10 1.json`` or nothing.

    Args:
        data_files: The entries.
        base: The folder relative entries are relative to (``~`` expanded; itself relative to the
            working directory), or ``None`` for the working directory.

    Raises:
        ConfigurationError: an entry is a folder, does not exist, or is a pattern matching no file
            (the message names the entry and, with a ``base``, the folder it was looked for in).
    """
    if isinstance(data_files, dict):
        return [f for v in data_files.values() for f in source_files(v, base)]
    if isinstance(data_files, (list, tuple)):
        return [f for entry in data_files for f in source_files(entry, base)]
    text = str(data_files)
    entry = Path(text).expanduser()
    if base is not None and not entry.is_absolute():
        entry = Path(base).expanduser() / entry
    where = f" (in data_dir {str(base)!r})" if base is not None and not Path(text).expanduser().is_absolute() else ""
    path = entry.resolve()
    if path.is_file():
        return [path]
    if path.is_dir():
        raise ConfigurationError(f"data_files entry {text!r}{where} is a folder; pass it as data_dir")
    if not glob.has_magic(text):
        raise ConfigurationError(f"source file {text!r}{where} does not exist")
    matches = sorted(Path(p) for p in glob.glob(str(entry.absolute()), recursive=True) if Path(p).is_file())
    if not matches:
        raise ConfigurationError(f"data_files pattern {text!r}{where} matches no file")
    return matches


def escaped(files: list[Path]) -> list[str]:
    """``files`` as ``datasets`` ``data_files`` patterns that match exactly these files (``glob.escape``)."""
    return [glob.escape(str(f)) for f in files]


def unwrap(error: BaseException) -> BaseException:
    """The error behind a ``datasets`` wrapper: the himga error in ``error``'s cause chain, else (behind a
    ``DatasetGenerationError``) the ``OSError`` that stopped the build, e.g. an unreadable source file;
    else ``error`` itself."""
    seen, os_error, visited = error, None, set()
    while seen is not None and id(seen) not in visited:  # prepare re-raises "cause from wrapper": a cycle
        visited.add(id(seen))
        if isinstance(seen, HimgaError):
            return seen
        if os_error is None and isinstance(seen, OSError):
            os_error = seen
        seen = seen.__cause__ or seen.__context__
    if os_error is not None and isinstance(error, datasets.exceptions.DatasetGenerationError):
        return os_error
    return error


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
            :mod:`himga.data.guarded_builder`).
        OSError: what stopped a build that ``datasets`` wrapped, e.g. an unreadable source file.
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
