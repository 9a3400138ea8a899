"""What every writing command writes (``himga score``, ``subset``, ``qrels``, ``export``, ``validate --json``): checked
against its inputs
before any work (:func:`check_outputs`), written whole (:func:`write_text`).

:func:`check_outputs` runs before the build and again once the build has said which source files it read
(:func:`source_inputs`). It refuses, with a :class:`~himga.errors.ConfigurationError` naming the path given:

* an output that is one of the inputs (the same file, also through a hard or symbolic link:
  :func:`os.path.samefile`), or two outputs that are one file;
* an output among the sources: inside a source folder, or a folder output that is a source folder or holds
  a source file or folder (a later load of that folder would read the outputs as sources: ``identity.json``
  of ``himga qrels`` is no LoCoMo record);
* ``-`` (standard output is the table's), a file output whose folder does not exist or is a folder itself,
  a folder output that is a file or a link to nothing;
* an output where this user cannot create files (checked with :func:`os.access`, so a long build or scoring
  run never ends in ``Permission denied``).

:func:`write_text` (:func:`output_file`: the same, streamed) then writes as the other himga writers do (a
``.<name>.tmp`` beside the target, created with the process's umask, renamed over the target), so nothing
half-written is left and the file gets the usual mode (0644 under umask 022); a device or a pipe
(``/dev/null``, ``/dev/stdout``) is written into, never replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from himga.errors import ConfigurationError, shown

__all__ = ["check_outputs", "output_file", "source_inputs", "write_text"]


def _same(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): not the same file
        return False


def _q(path: str | Path) -> str:
    return shown(repr(str(path)))


def _existing(path: Path) -> Path:
    """``path`` or its nearest existing parent (what creating ``path`` writes into)."""
    return next(p for p in (path, *path.parents) if p.exists())


def _check_writable(option: str, path: str | Path, folder: Path) -> None:
    """Refuse ``path`` when files cannot be created in ``folder`` (or, if it does not exist yet, in the folder
    above)."""
    target = _existing(folder)
    if not os.access(target, os.W_OK | os.X_OK):
        import errno

        why = os.strerror(errno.EROFS) if _read_only_mount(target) else os.strerror(errno.EACCES)
        raise ConfigurationError(
            f"{option} {_q(path)}: folder {_q(target)} is not writable ({why}): write it elsewhere"
        )


def _read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _check_shape(option: str, path: str | Path, folder: bool) -> None:
    """Refuse ``-``, a file output without a folder to go in, a folder output that is no folder."""
    from himga.sources import path_kind

    if str(path) == "-":
        raise ConfigurationError(f"{option} '-': standard output is not supported (it shows the table), name a file")
    p = Path(path)
    if folder:
        if p.is_symlink() and not p.exists():
            raise ConfigurationError(f"{option} {_q(path)}: is {path_kind(p)}; name a folder")
        if p.exists() and not p.is_dir():
            raise ConfigurationError(f"{option} {_q(path)}: is {path_kind(p)}, expected a folder")
        _check_writable(option, path, p)
        return
    parent = p.parent
    if not parent.is_dir():
        raise ConfigurationError(f"{option} {_q(path)}: folder {_q(parent)} does not exist")
    if p.is_dir():
        raise ConfigurationError(f"{option} {_q(path)}: is a directory, expected a file name")
    _check_writable(option, path, parent)


def _among_sources(option: str, path: str | Path, folder: bool, what: str, source: str | Path) -> None:
    """Refuse an output that is inside source folder ``source``, or (a folder output) is it or holds it."""
    out, src = Path(os.path.realpath(path)), Path(os.path.realpath(source))
    kind = "folder" if src.is_dir() else "file"
    why = "write outputs elsewhere (a later load of the sources would read them as sources)"
    if kind == "folder" and (out == src or out.is_relative_to(src)):
        where = "is" if out == src else "is inside"
        raise ConfigurationError(f"{option} {_q(path)} {where} the {what} folder {_q(source)}: {why}")
    if folder and src.is_relative_to(out):
        raise ConfigurationError(f"{option} {_q(path)} holds the {what} {kind} {_q(source)}: {why}")


def check_outputs(
    outputs: Mapping[str, str | Path | None], inputs: Mapping[str, str | Path | None], *, folders: Collection[str] = ()
) -> None:
    """Refuse outputs that would overwrite an input or each other, land among the sources, or cannot be written.

    The one check of every writing command (``himga score``, ``subset``, ``qrels``, ``export``, ``validate``), before
    any work; see the module docstring for the rules.

    Args:
        outputs: ``{option: path}`` (``{"--out": "report.json"}``); ``None`` paths are skipped.
        inputs: ``{what: path}`` of every file or folder read (``{"predictions": "hyp.jsonl", "source": "data/"}``);
            ``None`` and ``-`` are skipped.
        folders: The options of ``outputs`` that name a folder to write files into (``qrels``' and ``export``'s
            ``out_dir``); the others name a file.

    Raises:
        ConfigurationError: ``--out 'hyp.jsonl' is the predictions file 'hyp.jsonl': refusing to overwrite
            an input``; ``out_dir 'data' is the source folder 'data': write outputs elsewhere (...)``;
            ``out_dir 'data' holds the source file 'data/locomo10.json': ...``; ``out 'data/ids.txt' is inside
            the source folder 'data': ...``; ``--out '-': standard output is not supported, name a file``;
            ``--out '/nonexist/r.json': folder '/nonexist' does not exist``; ``--out '/tmp': is a directory``;
            ``out_dir 'x': is a symbolic link to 'y', which does not exist; name a folder``; ``--out '/ro/r.json':
            folder '/ro' is not writable (Permission denied): write it elsewhere``.
    """
    given = {k: v for k, v in outputs.items() if v is not None}
    read = {k: v for k, v in inputs.items() if v is not None and str(v) not in ("-", "")}
    seen: dict[str, str | Path] = {}
    for option, path in given.items():
        folder = option in folders
        _check_shape(option, path, folder)
        for what, source in read.items():
            if _same(path, source) and not Path(source).is_dir():
                raise ConfigurationError(
                    f"{option} {_q(path)} is the {what} file {_q(source)}: refusing to overwrite an input"
                )
        for what, source in read.items():
            _among_sources(option, path, folder, what, source)
        for other, earlier in seen.items():
            if _same(path, earlier) or os.path.abspath(path) == os.path.abspath(earlier):
                raise ConfigurationError(f"{option} {_q(path)} is also {other}: name two files")
        seen[option] = path


def source_inputs(entry: Any, config: str | None, data_dir: str | Path | None) -> dict[str, Path]:
    """The sources of a build as :func:`check_outputs` takes them: the ``data_dir`` given (a file or a folder) and
    every file the build reads (``{"source": data_dir, "source locomo10.json": path}``).

    Raises:
        ConfigurationError, DownloadError, ChecksumError: as :func:`himga.cache.build_files`.
    """
    from himga.cache import build_files

    files = {f"source {Path(f).name}": Path(f) for f in build_files(entry, config, data_dir)}
    return {"source": Path(data_dir), **files} if data_dir is not None else files


@contextlib.contextmanager
def output_file(path: str | Path, *, newline: str = "\n", part: str | None = None) -> Iterator[TextIO]:
    """Open ``path`` to write UTF-8 text, completely or not at all: into ``.<name>.tmp`` (or ``part``, a name) beside
    it, created with the umask's mode (0644 under umask 022), renamed over ``path`` when the block ends and removed
    if it raises.

    A ``path`` that exists and is neither a regular file nor a folder (``/dev/null``, ``/dev/stdout``, a named pipe)
    is written into as it is: a rename would put a regular file in its place (for root, in place of
    ``/dev/null`` itself).

    Raises:
        OSError: the file cannot be written.
    """
    target = Path(path)
    if _special(target):
        with open(target, "w", encoding="utf-8", newline=newline) as f:
            yield f
        return
    tmp = target.with_name(part or f".{target.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline=newline) as f:
            yield f
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _special(path: Path) -> bool:
    """Whether ``path`` exists (through links) and is neither a regular file nor a folder: a device, a pipe, a
    socket."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` completely or not at all (:func:`output_file`)."""
    with output_file(path) as f:
        f.write(text)
