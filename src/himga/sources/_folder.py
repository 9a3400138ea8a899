"""Which entries of a source folder are JSON source files: the ``.json`` files, and nothing skipped silently.

The LoCoMo and LongMemEval builders read a folder through these rules (LoCoMo: every ``.json`` file, :func:`json_files`;
LongMemEval: the config's file or every ``.json`` file, :mod:`himga_longmemeval.folder`), and both refuse,
rather than skip, an entry named like a source that is not a file (:func:`check_source_entry`).
"""

from __future__ import annotations

from pathlib import Path

from himga.errors import SourceFormatError
from himga.sources._checks import path_kind

__all__ = ["SOURCE_SUFFIXES", "check_source_entry", "json_files", "no_source_files"]

#: The suffixes of a folder's source files: JSON, and JSON Lines (see :mod:`himga.jsonio.jsonlines`).
SOURCE_SUFFIXES = (".json", ".jsonl", ".ndjson")


def check_source_entry(path: Path) -> bool:
    """Whether a folder entry named like a source (``x.json``) is a file to read (``False``: a folder).

    A link to a file is read as that file; a folder (or a link to one) is not a source. Anything else
    is refused rather than skipped, so that a folder never builds silently from part of its files.

    Raises:
        SourceFormatError: a link to nothing, a FIFO, a socket or a device (reading a FIFO or
            ``/dev/zero`` would never end), or an entry that cannot be examined; the message says which.
    """
    kind = path_kind(path)  # follows links
    if kind in ("a folder", "a regular file"):
        return kind == "a regular file"
    if kind.startswith(("a symbolic link", "missing", "unreadable")):
        raise SourceFormatError(
            path.name, "$", f"cannot be read as a source: {kind.replace('missing', 'gone while the folder was read')}"
        )
    raise SourceFormatError(path.name, "$", f"cannot be read as a source: it is {kind}, not a regular file")


def no_source_files(folder: Path, name: str) -> SourceFormatError:
    """The error for a source folder of benchmark ``name`` without any source file (every builder raises it).

    A datasets root (``../shared/data``, holding ``locomo/`` and ``longmemeval/``) given as the folder is
    the usual cause: the message then names the benchmark's subfolder to pass instead.
    """
    from himga.sources._known import benchmark_names

    detail = "expected at least one .json file in the directory, found none"
    if (folder / name).is_dir():
        detail += (
            f"; it holds {name}/, as a datasets root does: pass {str(folder / name)!r} "
            f"(or set HIMGA_DATASETS_ROOT={str(folder)!r} and pass no folder)"
        )
    elif others := [n for n in benchmark_names() if (folder / n).is_dir()]:
        detail += f"; it holds {', '.join(n + '/' for n in others)}, the folder of another benchmark than {name}"
    return SourceFormatError(folder.name or str(folder), "$", detail)


def json_files(folder: str | Path, name: str) -> list[Path]:
    """The ``.json`` (and ``.jsonl``) files of a folder, sorted by name; other files, hidden files (``.name``, as
    ``datasets`` ignores them, e.g. macOS ``._x.json``) and subfolders are ignored. ``name`` is the benchmark's,
    for the message (:func:`no_source_files`).

    Raises:
        SourceFormatError: the folder holds no ``.json`` file, or a ``.json`` entry that cannot be read
            as a file (a link to nothing, a FIFO, a device: :func:`check_source_entry`).
    """
    folder = Path(folder)
    files = sorted(
        p
        for p in folder.iterdir()
        if p.suffix in SOURCE_SUFFIXES and not p.name.startswith(".") and check_source_entry(p)
    )
    if not files:
        raise no_source_files(folder, name)
    return files
