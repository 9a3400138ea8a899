"""The folder rule of the LongMemEval builder: which files of a source folder a build reads.

One rule for every entry point that takes a folder (``load_longmemeval``, ``himga.data.load_dataset``,
``build_dataset``, ``datasets.load_dataset("himga_longmemeval", data_dir=...)``, the CLI):

* with a config: only that config's file, by name (``longmemeval_oracle.json`` or ``longmemeval_oracle``
  for ``oracle``; see ``LongmemevalConfig.candidate_names``), found by ``find_source``;
* without a config: a folder holding one source file (any name) reads that file, under the config its
  name belongs to (else the default); several files none of which is named after a config are read
  as parts of one source, in name order; several files of which any is named after a config (e.g.
  LongMemEval's own layout, ``longmemeval_oracle.json``, ``longmemeval_s_cleaned.json`` and
  ``longmemeval_m_cleaned.json`` side by side) are a :class:`~himga.errors.ConfigurationError` listing
  them, since which one is meant cannot be told.

Source files are the folder's ``.json`` files and the first release's extension-less names
(``longmemeval_s``); hidden files (``.name``) and subfolders are ignored. A question read from two
files is an error (see the builder's ``_generate_examples``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError
from himga.sourcefolder import check_source_entry

__all__ = ["check_named_files", "config_of", "folder_sources", "source_config"]


def config_of(name: str, configs: Mapping[str, Any]) -> list[str]:
    """The names of the configs whose file may be called ``name`` (``[]`` for any other name)."""
    return [config for config, c in configs.items() if name in c.candidate_names]


def folder_sources(folder: Path, configs: Mapping[str, Any]) -> tuple[str | None, list[Path]]:
    """The files a build without an explicit config reads from ``folder``, and the config they call for.

    Args:
        folder: An existing folder.
        configs: The builder's configs by name (``Longmemeval.builder_configs``).

    Returns:
        ``(config name or None for the default, files in name order)``.

    Raises:
        SourceFormatError: the folder holds no source file, or an entry named like one that cannot be
            read as a file (:func:`himga.sourcefolder.check_source_entry`).
        ConfigurationError: it holds several, one or more named after a config; the message lists
            each file with the configs it belongs to.
    """
    files = sorted(
        p for p in folder.iterdir()
        if not p.name.startswith(".") and (p.suffix == ".json" or config_of(p.name, configs)) and check_source_entry(p)
    )
    if not files:
        raise SourceFormatError(folder.name or str(folder), "$", "expected at least one .json file in the directory, found none")
    owners = {p: config_of(p.name, configs) for p in files}
    if len(files) == 1:
        return (owners[files[0]] or [None])[0], files
    if any(owners.values()):
        listing = ", ".join(f"{p.name} ({', '.join(owners[p]) or 'no config'})" for p in files)
        raise ConfigurationError(
            f"longmemeval: {folder} holds the files of more than one config: {listing}; "
            "pass config= (--config) to read one config's file, or pass the file itself"
        )
    return None, files


def source_config(data_dir: Any, data_files: Any, configs: Mapping[str, Any]) -> tuple[str | None, list[Path] | None]:
    """For a build without a config: the config the source calls for, and a ``data_dir`` folder's files.

    Args:
        data_dir: The builder's ``data_dir`` (a folder or one file), or ``None``.
        data_files: The builder's ``data_files`` (a path, a list, or a ``{split: paths}`` dict), or ``None``.
        configs: The builder's configs by name.

    Returns:
        ``(config name or None, files or None)``: for a folder, :func:`folder_sources`; for one file
        named after a config (``longmemeval_m_cleaned.json``), that config and ``None``; else
        ``(None, None)`` (the default config).

    Raises:
        SourceFormatError, ConfigurationError: see :func:`folder_sources`.
    """
    if data_dir is not None and Path(data_dir).is_dir():
        return folder_sources(Path(data_dir), configs)
    names = _flat(data_files) if data_files is not None else [str(data_dir)] if data_dir is not None else []
    owners = config_of(Path(names[0]).name, configs) if len(names) == 1 else []
    return (owners[0] if owners else None), None


def check_named_files(config: str, data_dir: Any, data_files: Any, configs: Mapping[str, Any]) -> None:
    """With an explicit config, refuse a source file whose name says it is another config's file.

    ``--config s`` with ``longmemeval_oracle.json`` would label oracle questions as S (as ``himga export``
    already refuses); a file whose name says no config is taken as labelled by the caller.

    Raises:
        ConfigurationError: e.g. ``longmemeval: longmemeval_oracle.json is the file of config oracle,
            oracle_original, not of s``.
    """
    names = _flat(data_files) if data_files is not None else [str(data_dir)] if data_dir is not None and not Path(data_dir).is_dir() else []
    for name in names:
        owners = config_of(Path(name).name, configs)
        if owners and config not in owners:
            raise ConfigurationError(
                f"longmemeval: {Path(name).name} is the file of config {', '.join(owners)}, not of {config}; "
                "pass its config, or rename the file if it really is another config's")


def _flat(data_files: Any) -> list[str]:
    if isinstance(data_files, (str, Path)):
        return [str(data_files)]
    if isinstance(data_files, Mapping):
        return [f for v in data_files.values() for f in _flat(v)]
    return [str(f) for f in data_files]
