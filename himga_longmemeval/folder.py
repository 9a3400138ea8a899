"""The source rule of the LongMemEval builder: which config a build is, and which files of a source it reads.

One rule (:func:`resolve_source`) for every entry point (``load_longmemeval``, ``himga.data.load_dataset``,
``build_dataset``, ``datasets.load_dataset("himga_longmemeval", ...)``, streaming, ``himga stats / validate /
build / export``):

* no source given (the pinned source, ``$HIMGA_DATASETS_ROOT/longmemeval/`` or the download cache): the
  config asked for, else the default ``s``, reads only its own file, by name
  (:func:`himga.sources.pinned_source`);
* with a config: one file or several files are read as given, unless a name says it is another config's
  file (an error); a folder gives the config's file (``longmemeval_oracle.json`` or ``longmemeval_oracle``
  for ``oracle``), else, when no file of another config is in it, its source files as parts of one
  source labelled by the caller;
* without a config: a file named after a config (``longmemeval_m_cleaned.json``) is read under that
  config, and a folder holding exactly one such file too; a source whose names say no config is an error
  asking for the config (data labelled ``s`` that is not S would be wrong data), and a folder holding the
  files of several configs (LongMemEval's own layout) is an error listing them.

Source files are a folder's ``.json`` and ``.jsonl`` files and the first release's extension-less names
(``longmemeval_s``); hidden files (``.name``) and subfolders are ignored. A question read from two files is an error
(see the builder's ``_generate_examples``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, shown
from himga.sources import SOURCE_SUFFIXES, check_source_entry, named_paths, no_source_files, path_kind

__all__ = ["config_of", "folder_files", "resolve_source"]


def config_of(name: str, configs: Mapping[str, Any]) -> list[str]:
    """The names of the configs whose file may be called ``name`` (``[]`` for any other name)."""
    return [config for config, c in configs.items() if name in c.candidate_names]


def _names_of_configs(configs: Mapping[str, Any]) -> str:
    return "; ".join(f"{name}: {' or '.join(c.candidate_names)}" for name, c in configs.items())


def _no_config(what: str, configs: Mapping[str, Any], *, names: str = "its file name") -> ConfigurationError:
    return ConfigurationError(
        f"longmemeval: cannot tell the config of {what} from {names}; pass the config (config= / --config). "
        f"File names of the configs: {_names_of_configs(configs)}"
    )


def _source_files(folder: Path, configs: Mapping[str, Any]) -> list[Path]:
    """The source files of ``folder`` in name order.

    Raises:
        SourceFormatError: the folder holds no source file, or an entry named like one that cannot be
            read as a file (:func:`himga.sources._folder.check_source_entry`).
    """
    files = sorted(
        p
        for p in folder.iterdir()
        if not p.name.startswith(".")
        and (p.suffix in SOURCE_SUFFIXES or config_of(p.name, configs))
        and check_source_entry(p)
    )
    if not files:
        raise no_source_files(folder, "longmemeval")
    return files


def folder_files(config: str, folder: Path, configs: Mapping[str, Any]) -> list[Path]:
    """The files a build of ``config`` reads from ``folder``: its own file, else (no other config's file
    there) every source file as parts of one source; ``[]`` when the folder holds only other configs' files.

    Raises:
        SourceFormatError: the folder holds no source file.
        ConfigurationError: an entry with the config's file name that is not a regular file.
    """
    for name in configs[config].candidate_names:
        if (folder / name).is_file():
            return [folder / name]
        if (kind := path_kind(folder / name)) != "missing":  # a folder or a FIFO of that name: say so
            raise ConfigurationError(
                f"longmemeval (config {config!r}): {shown(name)} in {shown(folder)} is {kind}, not a regular file: "
                "no source can be read from it"
            )
    files = _source_files(folder, configs)
    return [] if any(config_of(p.name, configs) for p in files) else files


def resolve_source(config: str | None, data_dir: Any, data_files: Any, configs: Mapping[str, Any], default: str) -> str:
    """The config of a build (the rule of the module doc); the files it reads are :func:`folder_files`'s.

    Args:
        config: The config asked for, or ``None``.
        data_dir: The builder's ``data_dir`` (a folder or one file), or ``None``.
        data_files: The builder's ``data_files`` (a path, a list, or a ``{split: paths}`` dict), or ``None``.
        configs: The builder's configs by name.
        default: The default config's name.

    Returns:
        The config's name.

    Raises:
        ConfigurationError: a source whose names say no config without a config; a file named after
            another config than the one asked for; a folder holding several configs' files without a
            config, or only other configs' files with one.
        SourceFormatError: a folder holding no source file.
    """
    if data_dir is not None and Path(data_dir).is_dir():
        folder = Path(data_dir)
        if config is not None:
            if not (files := folder_files(config, folder, configs)):
                present = ", ".join(p.name for p in _source_files(folder, configs))
                raise ConfigurationError(
                    f"longmemeval (config {config!r}): no source file in {folder}; looked for "
                    f"{', '.join(configs[config].candidate_names)}; found {present} (pass the file itself instead of "
                    "its folder to use another name)"
                )
            return config
        files = _source_files(folder, configs)
        owners = {p: config_of(p.name, configs) for p in files}
        if len(files) == 1 and owners[files[0]]:
            return owners[files[0]][0]
        if any(owners.values()):
            listing = ", ".join(f"{p.name} ({', '.join(owners[p]) or 'no config'})" for p in files)
            raise ConfigurationError(
                f"longmemeval: {folder} holds the files of more than one config: {listing}; "
                "pass config= (--config) to read one config's file, or pass the file itself"
            )
        raise _no_config(f"the files in {folder}", configs, names="their names")
    names = named_paths(data_dir, data_files)
    if not names:
        return config or default
    owners = [config_of(Path(name).name, configs) for name in names]
    if config is not None:
        for name, named in zip(names, owners):
            if named and config not in named:
                raise ConfigurationError(
                    f"longmemeval: {Path(name).name} is the file of config {', '.join(named)}, not of {config}; "
                    "pass its config, or rename the file if it really is another config's"
                )
        return config
    common = [c for c in owners[0] if all(c in o for o in owners)]
    if not common:
        raise _no_config(
            ", ".join(Path(n).name for n in names), configs, names="its file name" if len(names) == 1 else "their names"
        )
    return common[0]
