"""Which source files an exported config is built from, and whether they are the pinned files.

Used by :mod:`himga.export` and :mod:`himga.card` so that an export is never labelled with a config or a
pin it did not come from:

- :func:`configs_named`: the configs a file name belongs to (LongMemEval: ``longmemeval_s_cleaned.json``
  → ``s``; ``longmemeval_oracle.json`` → ``oracle`` and ``oracle_original``, whose files share that name);
- :func:`source_paths`: the files the builder reads for a config and a ``data_dir`` (the builders' own
  rule: a file is itself; in a folder, LongMemEval takes the config's file name, LoCoMo every ``.json``);
- :func:`describe`: a file's name, size and sha256 (:class:`SourceFile`);
- :func:`matching_pins`: the configs whose pinned file has a given sha256 (the one comparison with pins);
- :func:`select_configs` and :func:`checked_sources`: the configs an export of a local source is
  labelled with, and its files, refusing a file named or pinned for another config.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from himga.data.builders import builder_class, check_source_kind
from himga.errors import ConfigurationError
from himga.sourcefolder import json_files
from himga.provenance import file_sha256
from himga.sources import RemoteFile, pinned_source

__all__ = ["SourceFile", "checked_sources", "configs_named", "describe", "matching_pins", "pinned_file", "select_configs", "source_paths"]


@dataclass(frozen=True)
class SourceFile:
    """One source file an exported config was built from (no path: the card holds none).

    Attributes:
        filename: The file's base name, e.g. ``"longmemeval_oracle.json"``.
        num_bytes: Its size in bytes.
        sha256: Its sha256, 64 hex digits.
    """

    filename: str
    num_bytes: int
    sha256: str

    def to_dict(self) -> dict[str, str | int]:
        """As a JSON object (stored in the Parquet metadata of the export's shards)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> SourceFile:
        """Inverse of :meth:`to_dict`."""
        return cls(str(data["filename"]), int(data["num_bytes"]), str(data["sha256"]))


def describe(path: str | Path) -> SourceFile:
    """Name, size and sha256 of the file at ``path`` (one full read, none if this process already hashed it).

    Raises:
        OSError: the file cannot be read.
    """
    path = Path(path)
    return SourceFile(path.name, path.stat().st_size, file_sha256(path))


def pinned_file(name: str, config: str) -> RemoteFile:
    """The pinned source file of ``config`` (its builder config's ``remote_file()``)."""
    return builder_class(name).builder_configs[config].remote_file()


def matching_pins(name: str, sha256: str) -> list[str]:
    """The configs of dataset ``name`` whose pinned file has this sha256 (pins without one never match).

    LongMemEval's ``oracle`` and ``oracle_original`` pin the same bytes, so a real oracle file matches both.
    """
    return [c.name for c in builder_class(name).BUILDER_CONFIGS if c.remote_file().sha256 == sha256]


def _file_names(config) -> list[str]:
    """The source file names a config accepts in a folder (LoCoMo's one config: its pinned file name)."""
    return list(getattr(config, "candidate_names", None) or [config.remote_file().filename])


def configs_named(name: str, filename: str) -> list[str]:
    """The configs of dataset ``name`` whose source file is called ``filename``, in builder order."""
    return [c.name for c in builder_class(name).BUILDER_CONFIGS if filename in _file_names(c)]


def source_paths(name: str, config: str, data_dir: str | Path | None) -> list[Path]:
    """The source files the builder of ``name``/``config`` reads from ``data_dir``.

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        config: A config of the builder.
        data_dir: A file (read as it is), a folder (LongMemEval: by the builder's source rule,
            ``himga_longmemeval.folder.folder_files``; LoCoMo: every ``.json`` file in it, sorted), or
            ``None`` for the config's pinned file (:func:`himga.sources.pinned_source`, which downloads
            it if needed).

    Returns:
        The files, in the order the builder reads them; ``[]`` for a folder without them.

    Raises:
        ConfigurationError: ``data_dir`` does not exist; the pinned source's folder lacks the config's file.
        DownloadError, ChecksumError: the pinned source could not be fetched or verified.
    """
    configs = builder_class(name).builder_configs
    cfg = configs[config]
    if data_dir is None:
        return [pinned_source(name, cfg.remote_file(), config=config if len(configs) > 1 else None)]
    check_source_kind(name, data_dir)
    folder = Path(data_dir).expanduser()
    if folder.is_file():
        return [folder]
    if not folder.is_dir():
        raise ConfigurationError(f"{name}: source {str(data_dir)!r} does not exist")
    if hasattr(cfg, "candidate_names"):  # LongMemEval: the builder's source rule
        from himga_longmemeval.folder import folder_files

        return folder_files(config, folder, configs)
    return json_files(folder)  # LoCoMo: every .json file


def _names_of_configs(name: str) -> str:
    return "; ".join(f"{c.name}: {' or '.join(_file_names(c))}" for c in builder_class(name).BUILDER_CONFIGS)


def select_configs(name: str, configs: list[str] | tuple[str, ...] | None, data_dir: str | Path | None) -> list[str]:
    """The configs an export of ``data_dir`` is labelled with: only configs whose file is given.

    A dataset with one config (LoCoMo) always gets it. For LongMemEval with a local source:

    - no ``configs``: a file gets the configs its name belongs to (:func:`configs_named`), a folder the
      configs whose file it holds; a name that says no config is an error (pass the config), as for
      every other route (``himga_longmemeval.folder.resolve_source``);
    - ``configs`` given: a file whose name belongs to other configs, or a folder the builder reads
      nothing from for a requested config, is an error; files whose names say nothing are taken as
      labelled by the caller.

    With ``data_dir=None`` (the pinned sources) the requested configs, default all of the builder's.

    Returns:
        Config names, in builder order.

    Raises:
        ConfigurationError: an unknown config, a missing ``data_dir``, or one of the cases above.
    """
    known = [c.name for c in builder_class(name).BUILDER_CONFIGS]
    if unknown := [c for c in configs or () if c not in known]:
        raise ConfigurationError(f"{name}: unknown config {unknown[0]!r}; expected one of {known}")
    wanted = [c for c in known if c in configs] if configs else None
    if data_dir is None or len(known) == 1:
        return wanted or known
    check_source_kind(name, data_dir)
    path = Path(data_dir).expanduser()
    if path.is_file():
        named = configs_named(name, path.name)
        if wanted is None and not named:
            raise ConfigurationError(
                f"{name}: cannot tell the config of {path.name} from its file name; pass the config (--config / configs=). "
                f"File names of the configs: {_names_of_configs(name)}"
            )
        if wanted is not None and named and (other := [c for c in wanted if c not in named]):
            raise ConfigurationError(f"{name}: {path.name} is the file of config {', '.join(named)}, not of {', '.join(other)}")
        return wanted or named
    if not path.is_dir():
        raise ConfigurationError(f"{name}: source {str(data_dir)!r} does not exist")
    given = [c for c in known if any(c in configs_named(name, p.name) for p in path.iterdir() if p.is_file())]
    if wanted is None and not given:
        raise ConfigurationError(
            f"{name}: cannot tell the config of the files in {path} from their names; pass the config (--config / configs=). "
            f"File names of the configs: {_names_of_configs(name)}")
    given = given if wanted is None else [c for c in known if source_paths(name, c, path)]
    if wanted is not None and (missing := [c for c in wanted if c not in given]):
        raise ConfigurationError(f"{name}: no source file of config {', '.join(missing)} in {path}; expected {_names_of_configs(name)}")
    return wanted or given


def checked_sources(
    name: str, config: str, data_dir: str | Path | None, *, described: dict[Path, SourceFile] | None = None
) -> list[SourceFile]:
    """:func:`describe` each of :func:`source_paths`, refusing a file that is another config's pinned file.

    ``described`` (path → :class:`SourceFile`) is filled and reused, so that configs sharing a file
    (``oracle``, ``oracle_original``) read it once per export: hashing costs ~1 s per S-scale file.

    Raises:
        ConfigurationError: no source file, or a file whose sha256 is the pin of other configs only
            (e.g. the pinned oracle file exported as ``s``).
        OSError, DownloadError, ChecksumError: as for reading or fetching the files.
    """
    paths = source_paths(name, config, data_dir)
    if not paths:
        raise ConfigurationError(f"{name}: no source file of config {config!r} in {data_dir}; expected {_names_of_configs(name)}")
    described = {} if described is None else described
    files = [described[p] if p in described else described.setdefault(p, describe(p)) for p in paths]
    for f in files:
        if (pinned := matching_pins(name, f.sha256)) and config not in pinned:
            raise ConfigurationError(f"{name}: {f.filename} is the pinned file of config {', '.join(pinned)} (sha256 {f.sha256}), not of {config!r}")
    return files
