"""BEAM's files in the repository's layout: which files a build reads, which chat each belongs to, which tier a path is.

The layout (mohammadtavakoli78/BEAM, and the script its README names for the Hugging Face copies)::

    chats/<tier>/<n>/chat.json
    chats/<tier>/<n>/probing_questions/probing_questions.json

A source path is the repository's root (or any folder holding ``chats/<tier>/``), a ``chats/`` folder, a tier
folder (holding the numbered chat folders), one chat folder, or files of those names (``data_files``). One rule
for every route (:func:`source_files`, :func:`resolve_config`): the config is the tier; a path under a folder
named after a tier says its config, and a config that its path contradicts is an error (a 500K chat labelled
100K would be wrong data); without a config, the root (or ``chats/``) holding one tier's folder reads that tier, and
one holding several is an error naming them (a default would score answers against another tier's questions), on
every route: the builds (stats, validate, score, subset, qrels) and export (:meth:`himga.entry.Benchmark.config_of`).
Hidden entries (``.DS_Store``) and every other file of a chat folder (``plan.txt``, ``chat.pickle``,
``chat_trunecated.json``, the 10M ``plan-N/`` parts) are not read: a 10M ``chat.json`` already holds its plans, as the
official code reads it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, shown
from himga.sources import check_source_entry, named_paths

__all__ = ["CHAT_FILE", "QUESTIONS_FILE", "chats_of", "folder_files", "resolve_config", "sample_id_of", "tier_of"]

CHAT_FILE = "chat.json"
QUESTIONS_FILE = ("probing_questions", "probing_questions.json")


def sample_id_of(tier: str, chat: str) -> str:
    """The ``sample_id`` of chat folder ``chat`` of ``tier``: ``"100K-1"``.

    The tiers number their chats from 1 each, with other conversations and questions under the same numbers, so
    the tier is part of the id: every id made from it (the item ids ``100K-1:abstention:0``, the system view's ids,
    qrels, ids files) tells the tiers apart, and an answer to a 500K chat never matches a 100K question.
    """
    return f"{tier}-{chat}"


def _chat_order(folder: Path) -> tuple[int, str]:
    return (int(folder.name), folder.name) if folder.name.isdigit() else (sys.maxsize, folder.name)


def _is_chat(folder: Path) -> bool:
    return (folder / CHAT_FILE).exists() or (folder / QUESTIONS_FILE[0]).is_dir()


def _chat_files(chat: Path) -> list[Path]:
    files = [chat / CHAT_FILE, chat.joinpath(*QUESTIONS_FILE)]
    for path in files:
        if not path.exists():
            raise SourceFormatError(
                shown(f"{chat.name}/"),
                "$",
                f"a BEAM chat needs {CHAT_FILE} and "
                f"{'/'.join(QUESTIONS_FILE)}; {shown(path.relative_to(chat))} is missing in {chat}",
            )
        if not check_source_entry(path):
            raise SourceFormatError(path.name, "$", f"cannot be read as a source: {path} is a folder")
    return files


def _tier_folder(tier: str, folder: Path) -> Path | None:
    """The folder of ``tier``'s chats in ``folder`` (a root, ``chats/``, or the tier folder itself), or ``None``."""
    for candidate in (folder / "chats" / tier, folder / tier):
        if candidate.is_dir():
            return candidate
    if folder.name == tier or any(_is_chat(p) for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        return folder
    return None


def folder_files(tier: str, folder: Path) -> list[Path]:
    """The files a build of ``tier`` reads from ``folder``: each chat's two files, chats in number order; ``[]``
    when the folder holds no chat of that tier.

    Raises:
        SourceFormatError: a chat folder without one of its two files.
    """
    if _is_chat(folder):
        return _chat_files(folder)
    if (chats := _tier_folder(tier, folder)) is None:
        return []
    found = sorted(
        (p for p in chats.iterdir() if p.is_dir() and not p.name.startswith(".") and _is_chat(p)), key=_chat_order
    )
    return [f for chat in found for f in _chat_files(chat)]


def chats_of(files: list[Path]) -> list[tuple[Path, Path]]:
    """``(chat.json, probing_questions.json)`` of each chat among ``files``, in the order of the first file of each.

    Raises:
        SourceFormatError: a file of no BEAM name, or a chat with only one of its two files.
    """
    chats: dict[Path, dict[str, Path]] = {}
    for f in map(Path, files):
        if f.name == CHAT_FILE:
            chats.setdefault(f.parent, {})["chat"] = f
        elif f.parts[-2:] == QUESTIONS_FILE:
            chats.setdefault(f.parent.parent, {})["questions"] = f
        else:
            raise SourceFormatError(
                shown(f.name),
                "$",
                f"not a BEAM source file: expected {CHAT_FILE} or {'/'.join(QUESTIONS_FILE)} "
                "of a chat folder (the repository's layout)",
            )
    out = []
    for folder, pair in chats.items():
        if len(pair) != 2:
            have = next(iter(pair.values()))
            missing = CHAT_FILE if "chat" not in pair else "/".join(QUESTIONS_FILE)
            raise SourceFormatError(
                shown(have.name),
                "$",
                f"chat {folder.name}: {missing} is not among the files given "
                f"(a BEAM chat is {CHAT_FILE} with {'/'.join(QUESTIONS_FILE)})",
            )
        out.append((pair["chat"], pair["questions"]))
    return out


def tier_of(path: str | Path, tiers: Mapping[str, Any]) -> str | None:
    """The tier a path is in by its names (a tier folder, a chat folder in one, or a chat's file), else ``None``."""
    path = Path(path)
    if path.is_dir():
        candidates = [path, path.parent] if _is_chat(path) else [path]
    elif path.name == CHAT_FILE:
        candidates = [path.parent.parent]
    elif path.parts[-2:] == QUESTIONS_FILE:
        candidates = [path.parent.parent.parent]
    else:
        candidates = []
    return next((p.name for p in candidates if p.name in tiers), None)


def resolve_config(config: str | None, data_dir: Any, data_files: Any, configs: Mapping[str, Any], default: str) -> str:
    """The config (tier) of a build, by the rule of the module doc.

    Raises:
        ConfigurationError: a path in another tier's folder than ``config``; paths of several tiers, a folder holding
            several tiers, or paths of none that a name says, without a config; a folder without the config's tier.
    """
    paths = named_paths(data_dir, data_files)
    named = {p: tier_of(p, configs) for p in paths}
    tiers = sorted({t for t in named.values() if t is not None})
    if config is not None:
        if other := [p for p, t in named.items() if t is not None and t != config]:
            raise ConfigurationError(
                f"beam: {shown(other[0])} is in the {named[other[0]]} tier's folder, not {config}'s; "
                "pass its config, or a folder of the config's chats"
            )
        if (
            data_files is None
            and data_dir is not None
            and Path(data_dir).is_dir()
            and not folder_files(config, Path(data_dir))
        ):
            raise ConfigurationError(
                f"beam (config {config!r}): no chat of the {config} tier in {shown(data_dir)}; expected "
                f"chats/{config}/<n>/{CHAT_FILE} (the repository's layout), a tier folder or a chat folder"
            )
        return config
    if not paths:
        return default
    if len(tiers) > 1:
        raise ConfigurationError(
            f"beam: the files given are of several tiers ({', '.join(tiers)}); pass config= (--config)"
        )
    if tiers and all(t is not None for t in named.values()):
        return tiers[0]
    folder = Path(data_dir) if data_files is None else None
    present = (
        [t for t in configs if _tier_folder(t, folder) not in (None, folder)]
        if folder is not None and folder.is_dir()
        else []
    )
    if len(present) == 1:  # the repository's root (or chats/) with one tier's folder: that tier
        return present[0]
    if present:  # several: a default would score answers against the questions of a tier they may not be for
        raise ConfigurationError(
            f"beam: {shown(data_dir)} holds the tiers {', '.join(present)}, whose chats share numbers "
            "but not questions; pass the config (config= / --config)"
        )
    raise ConfigurationError(
        f"beam: cannot tell the tier of {shown(paths[0])} from its path (no folder named "
        f"{', '.join(configs)} holds it); pass the config (config= / --config)"
    )
