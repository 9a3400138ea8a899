"""The files ``himga score`` and ``himga subset`` write: checked against the inputs before any work, written whole.

:func:`check_outputs` runs before the build and the scoring: an output that is one of the inputs (the same
file, also through a hard or symbolic link: :func:`os.path.samefile`), two outputs that are one file, ``-``
(standard output is the table's), or a folder that does not exist is a :class:`~himga.errors.ConfigurationError`
naming the path given. :func:`write_text` then writes as the other himga writers do (a ``.<name>.tmp``
beside the target, created with the process's umask, renamed over the target), so nothing half-written
is left and the file gets the usual mode (0644 under umask 022).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from himga.errors import ConfigurationError, shown

__all__ = ["check_outputs", "write_text"]


def _same(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): not the same file
        return False


def check_outputs(outputs: Mapping[str, str | Path | None], inputs: Mapping[str, str | Path | None]) -> None:
    """Refuse outputs that would overwrite an input or each other, or cannot be written.

    Args:
        outputs: ``{option: path}`` (``{"--out": "report.json"}``); ``None`` paths are skipped.
        inputs: ``{what: path}`` of every file read (``{"predictions": "hyp.jsonl", "source": ...}``);
            ``None`` and ``-`` are skipped.

    Raises:
        ConfigurationError: ``--out 'hyp.jsonl' is the predictions file 'hyp.jsonl': refusing to overwrite
            an input``; ``--out '-': standard output is not supported, name a file``; ``--out
            '/nonexist/r.json': folder '/nonexist' does not exist``; ``--out '/tmp': is a directory``.
    """
    given = {k: v for k, v in outputs.items() if v is not None}
    read = {k: v for k, v in inputs.items() if v is not None and str(v) != "-"}
    seen: dict[str, str | Path] = {}
    for option, path in given.items():
        if str(path) == "-":
            raise ConfigurationError(f"{option} '-': standard output is not supported (it shows the table), name a file")
        parent = Path(path).parent
        if not parent.is_dir():
            raise ConfigurationError(f"{option} {shown(repr(str(path)))}: folder {shown(repr(str(parent)))} does not exist")
        if Path(path).is_dir():
            raise ConfigurationError(f"{option} {shown(repr(str(path)))}: is a directory, expected a file name")
        for what, source in read.items():
            if _same(path, source):
                raise ConfigurationError(f"{option} {shown(repr(str(path)))} is the {what} file {shown(repr(str(source)))}: "
                                         "refusing to overwrite an input")
        for other, earlier in seen.items():
            if _same(path, earlier) or os.path.abspath(path) == os.path.abspath(earlier):
                raise ConfigurationError(f"{option} {shown(repr(str(path)))} is also {other}: name two files")
        seen[option] = path


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` completely or not at all, with the umask's mode (0644 under umask 022)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
