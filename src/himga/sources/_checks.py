"""What a source path is (:func:`path_kind`, :func:`check_source_kind`), and :class:`OneFileEach`: a build
reading several files refuses a sample found in two of them. A file's identity (what the cache key covers)
is :func:`himga.jsonio.file_identity`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, HimgaError, SourceFormatError, SourceUnreadableError

__all__ = [
    "OneFileEach",
    "check_source_kind",
    "folder_blocker",
    "named_paths",
    "path_kind",
    "reading_sources",
    "source_path",
    "unreadable_source",
]

_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def folder_blocker(path: str | Path) -> Path | None:
    """Why the folder ``path`` cannot be made or used: ``path`` itself, or the nearest folder above it, when it exists
    and is not a folder (a regular file, ``/dev/null``: say which with :func:`path_kind`); ``None`` otherwise."""
    path = Path(path)
    return next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)


def path_kind(path: str | Path) -> str:
    """What ``path`` is, following links, for a message: ``"a regular file"``, ``"a folder"``, ``"a FIFO
    (named pipe)"``, ``"a socket"``, ``"a character device"`` (``/dev/zero``, ``/dev/null``), ``"a block
    device"``, ``"a symbolic link to '…', which does not exist"``, ``"missing"``, or ``"unreadable (…)"``.
    Sources are regular files or folders of them; anything else is refused with this text."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return f"a symbolic link to {os.readlink(path)!r}, which does not exist" if path.is_symlink() else "missing"
    except OSError as e:
        return f"unreadable ({e.strerror})"
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def check_source_kind(name: str, path: str | Path) -> None:
    """Refuse a source path that is neither a regular file nor a folder (nor missing: callers say that).

    A FIFO or ``/dev/zero`` would be read forever, ``/dev/null`` is empty, a link to nothing is nothing;
    the message says what the path is (:func:`path_kind`) instead of a bare ``NotADirectoryError`` or
    "does not exist". Called by every route that takes a source path (the facade, ``make_builder``, the
    builders' file rules, export).

    Args:
        name: The benchmark's name, for the message.
        path: The source path given.

    Raises:
        ConfigurationError: a path that is no ``str`` or ``os.PathLike`` (``123``); an empty path (``--data-dir ""``:
            ``Path("")`` is the working directory); ``"locomo: source '/dev/zero' is a character device, not a file or a
            folder of
            files: no source can be read from it"``.
        SourceUnreadableError: ``path`` cannot even be examined (a folder above it denies access).
    """
    if not isinstance(path, (str, os.PathLike)):  # load_locomo(123): Path() would raise a bare TypeError
        raise ConfigurationError(
            f"{name}: the source path must be a str or a path (os.PathLike), got {type(path).__name__} {path!r}"
        )
    if str(path) == "":  # Path("") is "." : an empty --data-dir "" would read the working directory
        raise ConfigurationError(
            f"{name}: the source path is empty: give a file or a folder (leave it out for the pinned source)"
        )
    kind = path_kind(Path(path).expanduser())
    if kind.startswith("unreadable"):
        try:
            Path(path).expanduser().stat()
        except OSError as e:
            raise SourceUnreadableError(name, path, e.strerror or str(e), e.errno) from None
    if kind not in ("a regular file", "a folder", "missing"):
        raise ConfigurationError(
            f"{name}: source {str(path)!r} is {kind}, not a file or a folder of files: no source can be read from it"
        )


def source_path(name: str, path: str | Path) -> Path:
    """``path`` (``~`` expanded) when it is a file or a folder: the one check, and the one wording, of a source path
    given to any route (the file rules, the facade, ``make_builder``, export).

    Raises:
        ConfigurationError: ``"locomo: source '/x/nowhere' does not exist"``; a path of another kind
            (:func:`check_source_kind`).
    """
    check_source_kind(name, path)
    found = Path(path).expanduser()
    if not found.exists():
        raise ConfigurationError(f"{name}: source {str(path)!r} does not exist")
    return found


def named_paths(data_dir: Any, data_files: Any) -> list[str]:
    """The source paths a builder is given, as strings: each of ``data_files`` (a path, a list, or a ``{split: paths}``
    dict), else ``data_dir``, else none. What a builder's config rule reads a config from (the names of the files and
    folders), before any file is read."""
    if data_files is None:
        return [] if data_dir is None else [str(data_dir)]
    if isinstance(data_files, (str, Path)):
        return [str(data_files)]
    if isinstance(data_files, Mapping):
        return [f for v in data_files.values() for f in named_paths(None, v)]
    return [str(f) for f in data_files]


def unreadable_source(
    name: str, error: BaseException, roots: Iterable[str | Path] | None = None
) -> SourceUnreadableError | None:
    """The :class:`~himga.errors.SourceUnreadableError` for an ``OSError`` met while reading benchmark ``name``'s
    sources, else ``None``: the one translation of every route (a build, the cache key, ``himga validate``).

    Args:
        name: The benchmark's name, for the message.
        error: What was raised; its cause/context chain is searched for an ``OSError`` naming a file (a himga
            error is never translated).
        roots: The source files and folders read: only an error about one of them, or about a path inside one, is
            a source's (a build also writes its cache). ``None``: any path (where only sources are touched).

    Returns:
        ``locomo: source '/data/u/locomo10.json' is unreadable (Permission denied)``, or ``None``.
    """
    resolved = None if roots is None else [Path(os.path.abspath(r)) for r in roots if r is not None]
    seen, visited = error, set()
    while seen is not None and id(seen) not in visited:
        visited.add(id(seen))
        if isinstance(seen, HimgaError):
            return None
        if isinstance(seen, OSError) and seen.filename is not None and seen.errno is not None:
            path = Path(os.path.abspath(os.fsdecode(seen.filename)))
            if resolved is None or any(path == r or path.is_relative_to(r) for r in resolved):
                return SourceUnreadableError(name, seen.filename, seen.strerror or str(seen), seen.errno)
        seen = seen.__cause__ or seen.__context__
    return None


@contextlib.contextmanager
def reading_sources(name: str, roots: Iterable[str | Path] | None = None) -> Iterator[None]:
    """Within the block, an ``OSError`` about a source is :func:`unreadable_source`'s error (others pass unchanged).

    Raises:
        SourceUnreadableError: a source file or folder could not be read.
    """
    try:
        yield
    except OSError as e:
        if (unreadable := unreadable_source(name, e, roots)) is None:
            raise
        raise unreadable from e


class OneFileEach:
    """Remembers where each sample id was read; an id read a second time is an error.

    A build may read several files (a folder of parts, or ``data_files``); the same id in two of them
    means two copies of one source (``locomo10.json`` and ``locomo10 (1).json``), or files of two
    configs, and would silently double the samples. The same id twice in one file is an error too
    (a record pasted twice): LoCoMo's and LongMemEval's ids are unique in every released file.

    Args:
        noun: What an id names in messages (``"question"``, ``"sample"``).
        hint: Appended to the message when the id is in two files (what to do instead).
    """

    def __init__(self, noun: str, hint: str) -> None:
        self.noun = noun
        self.hint = hint
        self._first: dict[str, tuple[str, str]] = {}

    def check(self, sample_id: str, file: str | Path, where: str) -> None:
        """Record ``sample_id`` as read from ``file`` at JSON path ``where``.

        Raises:
            SourceFormatError: it was read before, from another file (names both files) or from this
                one (names both JSON paths).
        """
        first, first_where = self._first.setdefault(sample_id, (str(file), where))
        if first == str(file) and first_where == where:
            return
        name, other = Path(file).name, Path(first).name
        if first == str(file):
            raise SourceFormatError(
                name, where, f"{self.noun} {sample_id} is also at {first_where}: each {self.noun} once"
            )
        raise SourceFormatError(
            name, where, f"{self.noun} {sample_id} is also in {other if other != name else first}; {self.hint}"
        )
