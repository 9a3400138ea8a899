"""PersonaMem's files: which two files a build reads, and which split (config) a source is by its names.

A split is two files side by side, as the Hub dataset and the official script (``--question_path``,
``--context_path``) have them: ``questions_<split>.csv`` and ``shared_contexts_<split>.jsonl`` (``32k``, ``128k``,
``1M``). One rule for every route (:func:`source_files`, :func:`resolve_config`):

* a folder gives the split's two files; without a config, the split whose two files it holds (several: an error
  listing them; none: an error listing what it holds);
* one file gives itself and the other file of its split beside it (``questions_32k.csv`` →
  ``shared_contexts_32k.jsonl`` in its folder);
* files given as ``data_files`` are read as given (one ``.csv`` and one ``.jsonl``); a name saying another split than
  the config asked for is an error, and without a config the names must say one split;
* no path: the config's pinned files (``$HIMGA_DATASETS_ROOT/personamem/`` or the download cache); a split whose
  revision is not confirmed (128k, 1M) is read from ``$HIMGA_DATASETS_ROOT/personamem/`` only, never downloaded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, shown
from himga.sources import dataset_folder, named_paths, pinned_files, source_path
from himga_personamem.pins import contexts_name, questions_name

__all__ = ["config_named", "pair_of", "resolve_config", "source_files", "split_files"]

_NAME = re.compile(r"(?:questions_(?P<q>.+)\.csv|shared_contexts_(?P<c>.+)\.jsonl)")


def config_named(name: str, configs: Mapping[str, Any]) -> str | None:
    """The split a file name says (``questions_128k.csv`` → ``128k``), or ``None`` for any other name."""
    m = _NAME.fullmatch(name)
    split = m and (m["q"] or m["c"])
    return split if split in configs else None


def _pair(config: str, folder: Path) -> list[Path]:
    return [folder / questions_name(config), folder / contexts_name(config)]


def pair_of(path: Path, configs: Mapping[str, Any]) -> list[Path]:
    """The two files of the split whose file ``path`` is, from its folder (questions first).

    Raises:
        ConfigurationError: a name of no split (one file cannot be a PersonaMem source), or the other file missing.
    """
    config = config_named(path.name, configs)
    if config is None:
        raise ConfigurationError(
            f"personamem: {shown(path.name)} is not named as a split's file (questions_<split>.csv, "
            "shared_contexts_<split>.jsonl): pass the folder of both files, or both files (data_files) with config="
        )
    pair = _pair(config, path.parent)
    if missing := [p for p in pair if not p.is_file()]:
        raise ConfigurationError(
            f"personamem (config {config!r}): {shown(missing[0].name)} is not beside {shown(path.name)} in "
            f"{shown(path.parent)}: a split is read from its two files"
        )
    return pair


def source_files(config: Any, data_dir: str | Path | None) -> list[Path]:
    """The files a build of ``config`` reads: its questions CSV and its contexts file (the module doc's rule).

    Raises:
        ConfigurationError: ``data_dir`` does not exist; a file of no split, or without the other file beside it; no
            copy of a split without a confirmed revision (128k, 1M) under ``$HIMGA_DATASETS_ROOT/personamem/``.
        SourceFormatError: a folder with only one of the split's two files.
        DownloadError, ChecksumError: a pinned file could not be fetched or verified.
    """
    if data_dir is None:
        pin = config.remote_file()
        if pin.revision is not None:
            return pinned_files("personamem", pin, config=config.name)
        folder = dataset_folder("personamem")
        if folder is not None and all(p.is_file() for p in _pair(config.name, folder)):
            return _pair(config.name, folder)
        raise ConfigurationError(
            f"personamem (config {config.name!r}): no pinned source: the {config.name} split's revision on the Hub "
            f"({pin.repo}) is not yet confirmed; put {questions_name(config.name)} and {contexts_name(config.name)} "
            "under $HIMGA_DATASETS_ROOT/personamem/, or pass data_dir= / --data-dir"
        )
    path = source_path("personamem", data_dir)
    if path.is_file():
        return pair_of(path, {config.name: config})
    return split_files(config.name, path)


def split_files(config: str, folder: Path) -> list[Path]:
    """The two files of split ``config`` in ``folder``; ``[]`` when neither is there.

    Raises:
        SourceFormatError: only one of them is there.
    """
    pair = _pair(config, folder)
    present = [p for p in pair if p.is_file()]
    if present and len(present) < 2:
        missing = next(p for p in pair if p not in present)
        raise SourceFormatError(
            shown(missing.name), "$", f"missing in {shown(folder)}: a split is read from its two files"
        )
    return present


def resolve_config(config: str | None, data_dir: Any, data_files: Any, configs: Mapping[str, Any], default: str) -> str:
    """The config (split) of a build, by the module doc's rule.

    Raises:
        ConfigurationError: a file named as another split's than ``config``; files of several splits, or of none,
            without a config; a folder without the config's files, or holding several splits' (or none) without one.
    """
    paths = [Path(p) for p in named_paths(data_dir, data_files)]
    if not paths:
        return config or default
    if data_files is None and paths[0].is_dir():
        folder = paths[0]
        present = [c for c in configs if split_files(c, folder)]
        if config is not None:
            if config not in present:
                found = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))[:8]
                raise ConfigurationError(
                    f"personamem (config {config!r}): no {questions_name(config)} and {contexts_name(config)} in "
                    f"{shown(folder)}" + (f"; found {', '.join(found)}" if found else "")
                )
            return config
        if len(present) == 1:
            return present[0]
        if present:
            raise ConfigurationError(
                f"personamem: {shown(folder)} holds the splits {', '.join(present)}; "
                "pass the config (config= / --config)"
            )
        raise ConfigurationError(
            f"personamem: {shown(folder)} holds no split's files (questions_<split>.csv with "
            f"shared_contexts_<split>.jsonl, split one of {', '.join(configs)})"
        )
    named = {p: config_named(p.name, configs) for p in paths}
    said = sorted({c for c in named.values() if c is not None})
    if config is not None:
        if other := [p for p, c in named.items() if c is not None and c != config]:
            raise ConfigurationError(
                f"personamem: {shown(other[0].name)} is the {named[other[0]]} split's file, not {config}'s; pass its "
                "config, or rename the file if it really is another split's"
            )
        return config
    if len(said) == 1 and all(c is not None for c in named.values()):
        return said[0]
    raise ConfigurationError(
        f"personamem: cannot tell the split of {', '.join(shown(p.name) for p in paths)} from "
        + ("their names (several splits)" if len(said) > 1 else "the file names")
        + "; pass the config (config= / --config)"
    )
