"""Which source files an exported config is built from, and whether they are the pinned files.

Used by :mod:`himga.publish._export` and :mod:`himga.publish._card` so that an export is never labelled with a config or
a pin it did not come from:

- :func:`configs_named`: the configs a file name belongs to (LongMemEval: ``longmemeval_s_cleaned.json``
  → ``s``; ``longmemeval_oracle.json`` → ``oracle`` and ``oracle_original``, whose files share that name;
  the catalogue's rule, :meth:`himga.catalog.Benchmark.configs_named`);
- :func:`source_paths`: the files the builder reads for a config and a ``data_dir`` (the catalogue's
  rule, :meth:`himga.catalog.Benchmark.source_files`);
- :func:`describe`: a file's name, size and sha256 (:class:`SourceFile`);
- :func:`matching_pins`: the configs whose pinned file has a given sha256 (the one comparison with pins);
- :func:`select_configs` and :func:`checked_sources`: the configs an export of a local source is
  labelled with, and its files, refusing a file named or pinned for another config.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path

from himga.catalog import Benchmark, benchmark
from himga.errors import ConfigurationError
from himga.sources import RemoteFile, check_source_kind, file_label, file_sha256

__all__ = [
    "SourceFile",
    "checked_sources",
    "configs_named",
    "describe",
    "matching_pins",
    "pinned_file",
    "select_configs",
    "shown_name",
    "source_paths",
]


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


def shown_name(entry: Benchmark, path: str | Path) -> str:
    """A source file's name on the card: its place in the repository's layout when it is a pinned file of one
    (BEAM ``chats/100K/3/chat.json``: every chat's file is ``chat.json``), else its base name."""
    return file_label(path, benchmark(entry).pins().values())


def pinned_file(entry: Benchmark, config: str) -> RemoteFile:
    """The pinned source file of ``config`` (its builder config's ``remote_file()``)."""
    return benchmark(entry).pin(config)


def matching_pins(entry: Benchmark, sha256: str) -> list[str]:
    """The configs of ``entry`` whose pinned file (or one of its files) has this sha256 (pins without one never match).

    LongMemEval's ``oracle`` and ``oracle_original`` pin the same bytes, so a real oracle file matches both.
    """
    return [config for config, pin in benchmark(entry).pins().items() if any(p.sha256 == sha256 for p in pin.files)]


def configs_named(entry: Benchmark, filename: str) -> list[str]:
    """The configs of ``entry`` whose source file is called ``filename``, in builder order."""
    return benchmark(entry).configs_named(filename)


def source_paths(entry: Benchmark, config: str, data_dir: str | Path | None) -> list[Path]:
    """The source files the builder of ``entry``/``config`` reads from ``data_dir``.

    Args:
        entry: The benchmark.
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
    return benchmark(entry).source_files(config, data_dir)


def select_configs(
    entry: Benchmark, configs: list[str] | tuple[str, ...] | None, data_dir: str | Path | None
) -> list[str]:
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
    entry = benchmark(entry)
    wanted = _requested(entry, configs)
    if data_dir is None or len(entry.configs) == 1:
        return wanted or entry.configs
    check_source_kind(entry.name, data_dir)
    path = Path(data_dir).expanduser()
    if path.is_file():
        return _configs_of_file(entry, path, wanted)
    if not path.is_dir():
        raise ConfigurationError(f"{entry.name}: source {str(data_dir)!r} does not exist")
    return _configs_of_folder(entry, path, wanted)


def _requested(entry: Benchmark, configs: list[str] | tuple[str, ...] | None) -> list[str] | None:
    """The requested configs in builder order (``None``: none requested). Raises on an unknown one."""
    if unknown := [c for c in configs or () if c not in entry.configs]:
        raise ConfigurationError(f"{entry.name}: unknown config {unknown[0]!r}; expected one of {entry.configs}")
    return [c for c in entry.configs if c in configs] if configs else None


def _configs_of_file(entry: Benchmark, path: Path, wanted: list[str] | None) -> list[str]:
    """One file: the configs its name belongs to, or the requested ones if its name says none or agrees."""
    named = entry.configs_named(path.name)
    if wanted is None and not named:  # the builds' rule (BEAM: the tier folder the file is in), or its error
        return [entry.config_of(None, path)]
    if wanted is not None and named and (other := [c for c in wanted if c not in named]):
        raise ConfigurationError(
            f"{entry.name}: {path.name} is the file of config {', '.join(named)}, not of {', '.join(other)}"
        )
    return wanted or named


def _configs_of_folder(entry: Benchmark, path: Path, wanted: list[str] | None) -> list[str]:
    """A folder: without ``wanted``, the configs whose file it holds (by name; none is an error, as on every
    route); with, each requested config must be one the builder reads something for from it."""
    given = [c for c in entry.configs if any(c in entry.configs_named(p.name) for p in path.iterdir() if p.is_file())]
    if wanted is None and not given:  # the builds' rule (BEAM: the one tier folder in it), or its error
        return [entry.config_of(None, path)]
    given = given if wanted is None else [c for c in entry.configs if entry.source_files(c, path)]
    if wanted is not None and (missing := [c for c in wanted if c not in given]):
        raise ConfigurationError(
            f"{entry.name}: no source file of config {', '.join(missing)} in {path}; expected {entry.file_names()}"
        )
    return wanted or given


def checked_sources(
    entry: Benchmark, config: str, data_dir: str | Path | None, *, described: dict[Path, SourceFile] | None = None
) -> list[SourceFile]:
    """:func:`describe` each of :func:`source_paths`, refusing a file that is another config's pinned file.

    ``described`` (path → :class:`SourceFile`) is filled and reused, so that configs sharing a file
    (``oracle``, ``oracle_original``) read it once per export: hashing costs ~1 s per S-scale file.

    Raises:
        ConfigurationError: no source file, or a file whose sha256 is the pin of other configs only
            (e.g. the pinned oracle file exported as ``s``).
        OSError, DownloadError, ChecksumError: as for reading or fetching the files.
    """
    entry = benchmark(entry)
    paths = entry.source_files(config, data_dir)
    if not paths:
        raise ConfigurationError(
            f"{entry.name}: no source file of config {config!r} in {data_dir}; expected {entry.file_names()}"
        )
    described = {} if described is None else described
    files = [
        described[p] if p in described else described.setdefault(p, replace(describe(p), filename=shown_name(entry, p)))
        for p in paths
    ]
    for f in files:
        if (pinned := matching_pins(entry, f.sha256)) and config not in pinned:
            raise ConfigurationError(
                f"{entry.name}: {f.filename} is the pinned file of config {', '.join(pinned)} (sha256 {f.sha256}), not "
                f"of {config!r}"
            )
    return files
